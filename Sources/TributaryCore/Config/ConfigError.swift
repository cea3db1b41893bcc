/// A problem with the configuration, located at the line and column where it is.
///
/// Rendered like a compiler diagnostic: `feeds.yaml:12:5: error: unknown key 'urll'; did you mean 'url'?`
public struct ConfigError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The configuration file, as the user named it.
    public var file: String
    /// The line, from 1; nil when the problem is with the file as a whole.
    public var line: Int?
    /// The column, from 1, counted in Unicode scalars.
    public var column: Int?
    /// What is wrong and, where it helps, what was expected.
    public var message: String
    /// Further problems found beside this one in the same part of the file (an adapter's options, which its
    /// initializer reads in one go), so that `check` lists them all at once.
    public var others: [ConfigError] = []

    /// Creates an error at a position in a file.
    public init(file: String, line: Int?, column: Int?, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// This problem and the others found with it, each on its own.
    public var flattened: [ConfigError] {
        var first = self
        first.others = []
        return [first] + others
    }

    /// `file:line:column: error: message`.
    public var description: String {
        var location = file
        if let line {
            location += ":\(line)"
            if let column { location += ":\(column)" }
        }
        return "\(location): error: \(message)"
    }
}

/// Gathers the problems of independent parts of an adapter's options, so that one mistake does not hide the next:
/// each part is read with ``attempt(_:)``, and ``check()`` throws the first problem carrying the others.
public struct ConfigErrorCollector: Sendable {
    /// The problems so far, in the order they were found.
    public private(set) var errors: [ConfigError] = []

    /// An empty collector.
    public init() {}

    /// The value `body` reads, or nil when it fails (its problem, and any it carries, are kept).
    public mutating func attempt<T>(_ body: () throws(ConfigError) -> T) -> T? {
        do {
            return try body()
        } catch {
            add(error)
            return nil
        }
    }

    /// Keeps a problem, and any it carries.
    public mutating func add(_ error: ConfigError) {
        errors += error.flattened
    }

    /// Whether no problem was found.
    public var isEmpty: Bool { errors.isEmpty }

    /// Throws the first problem, carrying the others, when there was one.
    public func check() throws(ConfigError) {
        guard var first = errors.first else { return }
        first.others = Array(errors.dropFirst())
        throw first
    }
}

/// Every problem found in one configuration, in the order they appear in the file.
public struct ConfigErrors: Error, Sendable, Hashable, CustomStringConvertible {
    /// The problems, sorted by position.
    public var errors: [ConfigError]

    /// Wraps a list of problems, sorting them by position.
    public init(_ errors: [ConfigError]) {
        self.errors = errors.sorted { ($0.line ?? 0, $0.column ?? 0) < ($1.line ?? 0, $1.column ?? 0) }
    }

    /// One line per problem.
    public var description: String {
        errors.map(\.description).joined(separator: "\n")
    }
}
