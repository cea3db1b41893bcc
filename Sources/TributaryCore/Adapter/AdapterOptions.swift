public import Foundation

/// A source's adapter options after validation: typed values, defaults filled in, and the
/// position of each option in the file so that adapters can report precise errors.
public struct AdapterOptions: Sendable {
    /// The configuration file, for messages.
    public let file: String
    /// The source these options belong to.
    public let sourceName: String
    /// Where the source's entry starts.
    public let sourcePosition: (line: Int, column: Int)
    private let values: [String: OptionValue]
    private let positions: [String: Position]

    private struct Position: Sendable { var line: Int, column: Int }

    /// Creates validated options; the engine does this, and tests may too.
    public init(
        file: String, sourceName: String, sourcePosition: (line: Int, column: Int) = (1, 1),
        values: [String: OptionValue], positions: [String: (line: Int, column: Int)] = [:]
    ) {
        self.file = file
        self.sourceName = sourceName
        self.sourcePosition = sourcePosition
        self.values = values
        self.positions = positions.mapValues { Position(line: $0.line, column: $0.column) }
    }

    /// The value of an option, or its default; nil when neither exists.
    public subscript(name: String) -> OptionValue? { values[name] }

    /// Every value in full, by name, for a digest of the source's settings.
    var digestText: String {
        values.sorted { $0.key < $1.key }.map { OptionValue.string($0.key).digestText + $0.value.digestText }.joined()
    }

    /// Whether the source wrote the option itself (rather than taking the default).
    public func isSet(_ name: String) -> Bool { positions[name] != nil }

    /// A text option.
    public func string(_ name: String) -> String? {
        switch values[name] {
        case .string(let text): text
        case .url(let url): url.absoluteString
        case let other?: other.description
        case nil: nil
        }
    }

    /// A whole-number option.
    public func integer(_ name: String) -> Int? {
        if case .integer(let number) = values[name] { return number }
        return nil
    }

    /// A decimal option (whole numbers are accepted too).
    public func number(_ name: String) -> Double? {
        switch values[name] {
        case .number(let number): number
        case .integer(let number): Double(number)
        default: nil
        }
    }

    /// A boolean option.
    public func boolean(_ name: String) -> Bool? {
        if case .boolean(let flag) = values[name] { return flag }
        return nil
    }

    /// A duration option.
    public func duration(_ name: String) -> Duration? {
        if case .duration(let duration) = values[name] { return duration }
        return nil
    }

    /// A URL option, already absolute.
    public func url(_ name: String) -> URL? {
        if case .url(let url) = values[name] { return url }
        return nil
    }

    /// A list-of-strings option.
    public func strings(_ name: String) -> [String]? {
        if case .strings(let list) = values[name] { return list }
        return nil
    }

    /// Where an option is written (the source's start when it was not written), as
    /// `file:line:column`, for messages about it that are not configuration errors.
    public func location(_ name: String) -> String {
        let (line, column) = position(name)
        return "\(file):\(line):\(column)"
    }

    /// Where an option's key is written: line and column from 1 (the source's start when the
    /// option was not written).
    public func position(_ name: String) -> (line: Int, column: Int) {
        guard let position = positions[name] else { return sourcePosition }
        return (position.line, position.column)
    }

    /// A structured option.
    public func tree(_ name: String) -> OptionNode? {
        if case .tree(let node) = values[name] { return node }
        return nil
    }

    /// A configuration error located at a node of a structured option.
    public func error(at line: Int, _ column: Int, _ message: String) -> ConfigError {
        ConfigError(file: file, line: line, column: column, message: "source '\(sourceName)': \(message)")
    }

    /// A configuration error located at the option (or at the source when it was not written).
    public func error(_ name: String, _ message: String) -> ConfigError {
        let position = positions[name]
        return ConfigError(
            file: file, line: position?.line ?? sourcePosition.line, column: position?.column ?? sourcePosition.column,
            message: "source '\(sourceName)': \(message)")
    }
}
