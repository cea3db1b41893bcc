/// A parsed or constructed JSON value.
///
/// Numbers keep their exact source text (see ``JSONNumber``), so large ids never pass
/// through `Double`. Objects keep their keys in document order (see ``JSONObject``).
///
/// Equality is structural: numbers compare by their exact text (`1` ≠ `1.0`), arrays by
/// order, and objects by their key/value pairs regardless of key order.
public enum JSONValue: Sendable, Hashable {
    /// The JSON literal `null`.
    case null
    /// A JSON boolean.
    case bool(Bool)
    /// A JSON number, kept as its exact text.
    case number(JSONNumber)
    /// A JSON string.
    case string(String)
    /// A JSON array.
    case array([JSONValue])
    /// A JSON object whose keys stay in document order.
    case object(JSONObject)
}

extension JSONValue: CustomStringConvertible {
    /// The value written as compact JSON.
    public var description: String {
        JSONWriter.string(from: self, style: .compact)
    }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    /// Creates a `.bool` value from a boolean literal.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    /// Creates a `.number` value from an integer literal.
    public init(integerLiteral value: Int) {
        self = .number(JSONNumber(value))
    }
}

extension JSONValue: ExpressibleByFloatLiteral {
    /// Creates a `.number` value from a floating-point literal (`.null` if it is not finite).
    public init(floatLiteral value: Double) {
        if let number = JSONNumber(value) {
            self = .number(number)
        } else {
            self = .null
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// Creates a `.string` value from a string literal.
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension JSONValue: ExpressibleByStringInterpolation {
    /// Creates a `.string` value from an interpolated string literal.
    public init(stringInterpolation: DefaultStringInterpolation) {
        self = .string(String(stringInterpolation: stringInterpolation))
    }
}

extension JSONValue: ExpressibleByArrayLiteral {
    /// Creates an `.array` value from an array literal.
    public init(arrayLiteral elements: JSONValue...) {
        self = .array(elements)
    }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// Creates an `.object` value from a dictionary literal, keeping the literal's key order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements))
    }
}
