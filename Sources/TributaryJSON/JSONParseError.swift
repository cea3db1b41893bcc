/// A JSON syntax error with its position in the input.
///
/// `description` reads `"line:column: message"`, e.g. `"3:14: expected ',' or '}' after an object member"`.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line of the error. LF, CR LF and a lone CR each end a line.
    public var line: Int
    /// The 1-based column of the error, counted in Unicode scalars on that line (a leading BOM is not counted).
    public var column: Int
    /// The byte offset of the error in the input (a leading BOM is counted).
    public var offset: Int
    /// A human-readable explanation, e.g. `"expected ':' after an object key"`.
    public var message: String

    /// Creates an error at the given position.
    public init(line: Int, column: Int, offset: Int, message: String) {
        self.line = line
        self.column = column
        self.offset = offset
        self.message = message
    }

    /// The error as `"line:column: message"`.
    public var description: String {
        "\(line):\(column): \(message)"
    }
}
