/// A value in an item's bag of adapter-specific extras.
public enum ExtraValue: Sendable, Hashable, CustomStringConvertible {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)

    /// The value as text, as it appears in listings and rules.
    public var description: String {
        switch self {
        case .string(let text): text
        case .int(let number): String(number)
        case .double(let number): String(number)
        case .bool(let flag): flag ? "true" : "false"
        }
    }
}
