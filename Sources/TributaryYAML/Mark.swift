/// A position in YAML source text: `line` and `column` both count from 1, and columns count Unicode scalars.
///
/// A UTF-8 byte order mark at the start of the input is not counted, and a CRLF pair ends a line
/// like a single LF does.
public struct Mark: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The line number, counting from 1.
    public var line: Int
    /// The column number, counting from 1, in Unicode scalars (not bytes, not grapheme clusters).
    public var column: Int

    /// Creates a mark from a 1-based line and a 1-based column counted in Unicode scalars.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The mark rendered as `line:column`, e.g. `3:5`.
    public var description: String { "\(line):\(column)" }

    /// Orders marks by line, then by column.
    public static func < (lhs: Mark, rhs: Mark) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}
