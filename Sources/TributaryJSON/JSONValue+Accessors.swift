/// Lenient accessors for adapters reading inconsistent APIs (e.g. "number or numeric string").
extension JSONValue {
    /// The member named `key` if this is an object, otherwise `nil`.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// The element at `index` if this is an array and the index is in range, otherwise `nil`.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// Walks object members along `path`; returns `nil` if any step is missing or not an object.
    public func value(at path: [String]) -> JSONValue? {
        var current = self
        for key in path {
            guard let next = current[key] else { return nil }
            current = next
        }
        return current
    }

    /// The string if this is `.string`, otherwise `nil` (no conversions).
    public var string: String? {
        guard case .string(let string) = self else { return nil }
        return string
    }

    /// A textual form of a scalar: the string itself, a number's exact text, or `"true"`/`"false"`;
    /// `nil` for null, arrays and objects.
    public var text: String? {
        switch self {
        case .string(let string): string
        case .number(let number): number.text
        case .bool(let flag): flag ? "true" : "false"
        case .null, .array, .object: nil
        }
    }

    /// `text` with surrounding whitespace removed; `nil` when absent or empty. What APIs that send
    /// a field as a string one day, a number the next and `""` or `null` for "none" need.
    public var nonEmptyText: String? {
        guard let scalars = text?.unicodeScalars else { return nil }
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return nil }
        return String(scalars[first...last])
    }

    /// The number if this is `.number`, otherwise `nil` (no conversions).
    public var number: JSONNumber? {
        guard case .number(let number) = self else { return nil }
        return number
    }

    /// An exact `Int` from an integral number that fits, or from a string holding one
    /// (surrounding whitespace and a leading `+` allowed); `nil` for `12.5`, `1e3`, overflow, etc.
    public var int: Int? {
        switch self {
        case .number(let number): number.int
        case .string(let string): LenientNumber.int(from: string)
        default: nil
        }
    }

    /// A finite `Double` from a number or from a string holding a decimal number
    /// (surrounding whitespace allowed; `nan`, `inf` and hex are rejected).
    public var double: Double? {
        switch self {
        case .number(let number): number.double
        case .string(let string): LenientNumber.double(from: string)
        default: nil
        }
    }

    /// A boolean from `.bool`, the numbers 0/1, or the strings `true`/`false`/`1`/`0`/`yes`/`no`
    /// (case-insensitive, surrounding whitespace allowed).
    public var bool: Bool? {
        switch self {
        case .bool(let flag):
            return flag
        case .number(let number):
            switch number.double {
            case 0: return false
            case 1: return true
            default: return nil
            }
        case .string(let string):
            switch String(LenientNumber.trimmed(string)).lowercased() {
            case "true", "1", "yes": return true
            case "false", "0", "no": return false
            default: return nil
            }
        default:
            return nil
        }
    }

    /// The elements if this is `.array`, otherwise `nil`.
    public var array: [JSONValue]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }

    /// The object if this is `.object`, otherwise `nil`.
    public var object: JSONObject? {
        guard case .object(let object) = self else { return nil }
        return object
    }

    /// How the value is named in messages: `null`, `a string "abc"`, `the number 12`, `a list`…
    public var shape: String {
        switch self {
        case .null: return "null"
        case .bool(let flag): return "the boolean \(flag)"
        case .number(let number): return "the number \(number.text)"
        case .string(let string):
            let shown = string.count > 40 ? String(string.prefix(40)) + "…" : string
            return "a string \"\(shown)\""
        case .array: return "a list"
        case .object: return "an object"
        }
    }

    /// Whether this is `.null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

/// Parsing of numbers held in strings, more forgiving than the JSON grammar.
private enum LenientNumber {
    static func int(from string: String) -> Int? {
        let text = trimmed(string)
        var sawDigit = false
        for (index, scalar) in text.unicodeScalars.enumerated() {
            if index == 0 && (scalar == "-" || scalar == "+") { continue }
            guard scalar.isASCIIDigit else { return nil }
            sawDigit = true
        }
        guard sawDigit else { return nil }
        return Int(text)
    }

    static func double(from string: String) -> Double? {
        let text = trimmed(string)
        let scalars = Array(text.unicodeScalars)
        var index = 0
        func skipDigits() -> Int {
            let start = index
            while index < scalars.count && scalars[index].isASCIIDigit { index += 1 }
            return index - start
        }
        if index < scalars.count && (scalars[index] == "-" || scalars[index] == "+") { index += 1 }
        var digits = skipDigits()
        if index < scalars.count && scalars[index] == "." {
            index += 1
            digits += skipDigits()
        }
        guard digits > 0 else { return nil }
        if index < scalars.count && (scalars[index] == "e" || scalars[index] == "E") {
            index += 1
            if index < scalars.count && (scalars[index] == "-" || scalars[index] == "+") { index += 1 }
            guard skipDigits() > 0 else { return nil }
        }
        guard index == scalars.count, let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// `string` without leading and trailing ASCII whitespace.
    static func trimmed(_ string: String) -> Substring {
        let scalars = string.unicodeScalars
        var start = scalars.startIndex
        var stop = scalars.endIndex
        while start < stop && scalars[start].isASCIIWhitespace {
            start = scalars.index(after: start)
        }
        while stop > start && scalars[scalars.index(before: stop)].isASCIIWhitespace {
            stop = scalars.index(before: stop)
        }
        return Substring(scalars[start..<stop])
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIIDigit: Bool {
        value >= 0x30 && value <= 0x39
    }

    fileprivate var isASCIIWhitespace: Bool {
        value == 0x20 || (value >= 0x09 && value <= 0x0D)
    }
}
