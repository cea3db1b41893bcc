/// Every problem found while parsing a command line, in order of appearance.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One message per problem, without program-name prefix.
    public var messages: [String]

    /// Creates an error from its messages.
    public init(messages: [String]) {
        self.messages = messages
    }

    /// The messages joined by newlines.
    public var description: String {
        messages.joined(separator: "\n")
    }

    /// Terminal text: "<program>: <message>" per line, then a "Try '<program> <command> --help'" hint (no trailing newline).
    public func rendered(programName: String, commandName: String?) -> String {
        let command = [programName, commandName ?? ""].filter { !$0.isEmpty }.joined(separator: " ")
        let lines =
            messages.map { "\(programName): \($0)" }
            + ["Try '\(command) --help' for more information."]
        return lines.joined(separator: "\n")
    }
}
