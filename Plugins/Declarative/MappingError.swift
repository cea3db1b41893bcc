/// What is wrong with one part of a declarative mapping; the adapter places it at the YAML node.
struct MappingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, naming the expression.
    var message: String

    init(_ message: String) { self.message = message }

    var description: String { message }
}
