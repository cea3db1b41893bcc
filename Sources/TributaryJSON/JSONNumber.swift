/// A JSON number kept as its exact source text.
///
/// The text is never normalised: `"6462594562829140237"`, `"1.5e3"` and `"-0"` are stored
/// exactly as written, so ids wider than a `Double` mantissa survive a round trip.
/// Equality and hashing compare the text, so `1` and `1.0` are different numbers.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number exactly as written in the source document (always valid JSON number grammar).
    public let text: String

    /// Creates a number from text already validated by the parser.
    init(unchecked text: String) {
        self.text = text
    }

    /// Creates a number from JSON number text, or returns `nil` if `text` is not valid
    /// RFC 8259 number grammar (no surrounding whitespace, no `+`, no leading zeros, no NaN).
    public init?(_ text: String) {
        guard Self.isValidText(text) else { return nil }
        self.text = text
    }

    /// Creates a number from an integer.
    public init(_ value: Int) {
        self.text = String(value)
    }

    /// Creates a number from any integer type (e.g. `UInt64` ids above `Int.max`).
    public init(_ value: some BinaryInteger) {
        self.text = String(value)
    }

    /// Creates a number from a `Double` using its shortest round-tripping text,
    /// or returns `nil` for NaN and infinities, which JSON cannot represent.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        self.text = value.description
    }

    /// The exact integer value if the text is an integer literal (no fraction or exponent) that fits in `Int`.
    ///
    /// `"12"` → 12, `"-0"` → 0, `"12.0"` → nil, `"1e3"` → nil, `"99999999999999999999"` → nil.
    public var int: Int? {
        guard isInteger else { return nil }
        return Int(text)
    }

    /// The nearest `Double`, or `nil` if the value overflows to infinity.
    public var double: Double? {
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// Whether the text is an integer literal: an optional `-` followed by digits only.
    public var isInteger: Bool {
        var sawDigit = false
        var isFirst = true
        for byte in text.utf8 {
            defer { isFirst = false }
            if isFirst && byte == UInt8(ascii: "-") { continue }
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return false }
            sawDigit = true
        }
        return sawDigit
    }

    /// The exact number text.
    public var description: String { text }

    /// Whether `text` matches the RFC 8259 number grammar exactly.
    public static func isValidText(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var i = 0
        func isDigit(_ i: Int) -> Bool {
            i < bytes.count && bytes[i] >= UInt8(ascii: "0") && bytes[i] <= UInt8(ascii: "9")
        }
        if i < bytes.count && bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard isDigit(i) else { return false }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
        } else {
            while isDigit(i) { i += 1 }
        }
        if i < bytes.count && bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard isDigit(i) else { return false }
            while isDigit(i) { i += 1 }
        }
        if i < bytes.count && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
            i += 1
            if i < bytes.count && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) { i += 1 }
            guard isDigit(i) else { return false }
            while isDigit(i) { i += 1 }
        }
        return i == bytes.count
    }
}

extension JSONNumber: ExpressibleByIntegerLiteral {
    /// Creates a number from an integer literal.
    public init(integerLiteral value: Int) {
        self.init(value)
    }
}
