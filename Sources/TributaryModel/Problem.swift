/// Something that went wrong while reading a source but did not stop it: a recovered parse
/// error, an item that was skipped, a date that could not be read.
public struct Problem: Sendable, Hashable, CustomStringConvertible {
    /// How bad it is.
    public enum Severity: String, Sendable, Hashable {
        /// The data was read, perhaps with guesses; the source still counts as healthy.
        case warning
        /// Part of the data was lost (an item skipped, a document cut short).
        case error
    }

    /// How bad it is.
    public var severity: Severity
    /// What happened, in words a user understands.
    public var message: String
    /// The line in the document, from 1, when known.
    public var line: Int?
    /// The column in the document, from 1, when known.
    public var column: Int?

    /// Creates a problem report.
    public init(_ severity: Severity, _ message: String, line: Int? = nil, column: Int? = nil) {
        self.severity = severity
        self.message = message
        self.line = line
        self.column = column
    }

    /// `"3:14: warning: undeclared entity 'nbsp'"`, or without the position when unknown.
    public var description: String {
        position + "\(severity.rawValue): \(message)"
    }

    /// `"3:14: undeclared entity 'nbsp'"`: the description without the severity, for a log line that states its own
    /// level (`warning: [source] …` said `warning: [source] error: …`).
    public var locatedMessage: String {
        position + message
    }

    /// `"3:14: "`, `"3: "`, or nothing when the line is unknown.
    private var position: String {
        guard let line else { return "" }
        return "\(line):" + (column.map { "\($0):" } ?? "") + " "
    }
}
