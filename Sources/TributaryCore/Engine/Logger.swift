import TributaryModel

/// Where the engine and adapters report what they do. Libraries accept one; only the executable
/// creates the one that writes to the terminal.
public struct Logger: Sendable {
    /// How much to say.
    public enum Level: Int, Sendable, Hashable, Comparable, CustomStringConvertible {
        case debug, info, warning, error

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }

        /// The level's name as printed.
        public var description: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .warning: "warning"
            case .error: "error"
            }
        }
    }

    /// One message.
    public struct Record: Sendable, Hashable {
        /// How important it is.
        public var level: Level
        /// The message.
        public var message: String
        /// The source it concerns, if any.
        public var source: String?
    }

    /// Records below this level are dropped without being built.
    public var minimumLevel: Level
    private let handler: @Sendable (Record) -> Void

    /// Creates a logger that hands records at or above `minimumLevel` to `handler`.
    public init(minimumLevel: Level = .info, handler: @escaping @Sendable (Record) -> Void) {
        self.minimumLevel = minimumLevel
        self.handler = handler
    }

    /// A logger that drops everything.
    public static let silent = Logger(minimumLevel: .error) { _ in }

    /// Reports a message; the text is only built when the level passes. The secrets of URLs in it
    /// (passwords, tokens) are `***` (see `URLSecrets`).
    public func log(_ level: Level, _ message: @autoclosure () -> String, source: String? = nil) {
        guard level >= minimumLevel else { return }
        handler(Record(level: level, message: URLSecrets.redacted(in: message()), source: source))
    }

    /// Reports detail useful when debugging.
    public func debug(_ message: @autoclosure () -> String, source: String? = nil) {
        log(.debug, message(), source: source)
    }

    /// Reports normal progress.
    public func info(_ message: @autoclosure () -> String, source: String? = nil) {
        log(.info, message(), source: source)
    }

    /// Reports something that deserves attention but did not fail.
    public func warning(_ message: @autoclosure () -> String, source: String? = nil) {
        log(.warning, message(), source: source)
    }

    /// Reports a failure.
    public func error(_ message: @autoclosure () -> String, source: String? = nil) {
        log(.error, message(), source: source)
    }
}
