/// The declaration of one option an adapter accepts: its name, type, default and a line of help.
///
/// The engine validates a source's options against these declarations before the adapter sees
/// them, so an adapter never meets a wrongly typed or misspelt option.
public struct AdapterOption: Sendable, Hashable {
    /// The type of an option's value.
    public enum Kind: Sendable, Hashable {
        /// Any text.
        case string
        /// A whole number within the range.
        case integer(ClosedRange<Int>)
        /// A decimal number.
        case number
        /// `true` or `false`.
        case boolean
        /// A duration such as `30s`.
        case duration
        /// An `http(s)` URL, a `file:` URL or a path relative to the configuration file.
        case url
        /// A list of strings, written as a list (a single string is an error suggesting one).
        case strings
        /// One of a fixed set of words.
        case choice([String])
        /// A structured value (mapping, list or scalar, nested) kept with positions as an `OptionNode`.
        case tree

        /// How the type is named in help and error messages.
        public var name: String {
            switch self {
            case .string: "string"
            case .integer(let range):
                range == Int.min...Int.max ? "integer" : "integer \(range.lowerBound)…\(range.upperBound)"
            case .number: "number"
            case .boolean: "boolean"
            case .duration: "duration"
            case .url: "URL or path"
            case .strings: "list of strings"
            case .choice(let words): words.joined(separator: "|")
            case .tree: "mapping"
            }
        }
    }

    /// The key in YAML.
    public var name: String
    /// The type of the value.
    public var kind: Kind
    /// The value when the source does not set it; nil for none.
    public var defaultValue: OptionValue?
    /// Whether the source must set it.
    public var isRequired: Bool
    /// One line of help.
    public var help: String

    /// Declares an option.
    public init(
        _ name: String, _ kind: Kind, default defaultValue: OptionValue? = nil, required isRequired: Bool = false,
        help: String
    ) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.isRequired = isRequired
        self.help = help
    }
}
