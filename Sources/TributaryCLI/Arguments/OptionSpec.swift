import TributaryCore

/// Declares one option of a command: a flag (`--quiet`) or an option taking a value (`--config FILE`).
public struct OptionSpec: Sendable, Equatable {
    /// Long name without dashes, e.g. `"config"` for `--config`.
    public var long: String
    /// Optional one-character alias, e.g. `"c"` for `-c`.
    public var short: Character?
    /// Placeholder for the value shown in help and errors (e.g. `"FILE"`); nil makes the option a flag.
    public var valueName: String?
    /// One-line description shown in help.
    public var help: String
    /// Whether values accumulate; otherwise the last occurrence wins.
    public var repeatable: Bool
    /// Default shown in help as "(default: …)"; display only, the parser never applies it.
    public var defaultValue: String?
    /// Whether the value may be left out (`--wait` or `--wait=5m`); an absent value reads as "".
    /// Such a value must be attached with `=`: the next argument is never taken.
    public var valueIsOptional: Bool
    /// What the value must be, as far as the parser can tell; it only recognises an optional value
    /// written after a space, to suggest attaching it with `=`.
    public var valueKind: ValueKind

    /// The kinds of value the parser can recognise.
    public enum ValueKind: Sendable, Equatable {
        /// Any text.
        case text
        /// A duration such as `30s`, `5m` or `1h30m`.
        case duration

        /// Whether `text` reads as a value of this kind.
        public func accepts(_ text: String) -> Bool {
            switch self {
            case .text: true
            case .duration: DurationParser.read(text) != .failure(.invalid)
            }
        }
    }

    /// Creates an option; leave `valueName` nil for a flag.
    public init(
        long: String,
        short: Character? = nil,
        valueName: String? = nil,
        help: String = "",
        repeatable: Bool = false,
        defaultValue: String? = nil,
        valueIsOptional: Bool = false,
        valueKind: ValueKind = .text
    ) {
        self.long = long
        self.short = short
        self.valueName = valueName
        self.help = help
        self.repeatable = repeatable
        self.defaultValue = defaultValue
        self.valueIsOptional = valueIsOptional
        self.valueKind = valueKind
    }

    /// Whether the option takes a value (it has a `valueName`).
    public var takesValue: Bool { valueName != nil }

    /// The conventional `-h, --help` flag; add it to each command that should accept it.
    public static let help = OptionSpec(long: "help", short: "h", help: "Show this help and exit.")
}
