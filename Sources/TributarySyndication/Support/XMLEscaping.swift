/// Escapes text for XML 1.0 and drops the characters XML 1.0 cannot carry at all.
///
/// Text content escapes `&`, `<` and `>` (so `]]>` can never appear); attribute values also
/// escape quotes and keep tabs and line breaks as character references, which attribute-value
/// normalization would otherwise turn into spaces. Control characters other than tab, LF and CR,
/// and U+FFFE/U+FFFF, are removed: no escape makes them legal in XML 1.0.
public enum XMLEscaping {
    /// Escaped character data for element content.
    public static func text(_ string: String) -> String {
        escape(string, attribute: false)
    }

    /// Escaped character data for a double-quoted attribute value.
    public static func attribute(_ string: String) -> String {
        escape(string, attribute: true)
    }

    /// Whether XML 1.0 allows the scalar in a document at all.
    public static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD: true
        case 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    private static func escape(_ string: String, attribute: Bool) -> String {
        var string = string
        let escaped: [UInt8]? = string.withUTF8 { bytes in
            guard firstChange(in: bytes, attribute: attribute) != nil else { return nil }
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count + bytes.count / 8 + 16)
            append(bytes, attribute: attribute, to: &output)
            return output
        }
        return escaped.map { String(decoding: $0, as: UTF8.self) } ?? string
    }

    /// Appends the escaped form of UTF-8 `bytes` to `output`, copying the runs between
    /// replacements at once: every byte that needs work is ASCII, except the lead byte of
    /// U+FFFE and U+FFFF (EF BF BE, EF BF BF), which are dropped.
    static func append(_ bytes: UnsafeBufferPointer<UInt8>, attribute: Bool, to output: inout [UInt8]) {
        var copied = 0
        var index = 0
        while let change = firstChange(in: bytes, from: index, attribute: attribute) {
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<change.index]))
            change.replacement.withUTF8Buffer { output.append(contentsOf: $0) }
            index = change.index + change.length
            copied = index
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
    }

    private struct Change {
        var index: Int
        var length: Int
        var replacement: StaticString
    }

    /// The first byte at or after `start` that is replaced or dropped.
    @inline(__always)
    private static func firstChange(in bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0, attribute: Bool) -> Change? {
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            // Letters, digits above '>' and multi-byte UTF-8 other than EF need nothing.
            if byte > UInt8(ascii: ">") && byte != 0xEF {
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "&"): return Change(index: index, length: 1, replacement: "&amp;")
            case UInt8(ascii: "<"): return Change(index: index, length: 1, replacement: "&lt;")
            case UInt8(ascii: ">"): return Change(index: index, length: 1, replacement: "&gt;")
            case UInt8(ascii: "\"") where attribute: return Change(index: index, length: 1, replacement: "&quot;")
            case UInt8(ascii: "\t") where attribute: return Change(index: index, length: 1, replacement: "&#9;")
            case UInt8(ascii: "\n") where attribute: return Change(index: index, length: 1, replacement: "&#10;")
            case UInt8(ascii: "\r"): return Change(index: index, length: 1, replacement: "&#13;")
            case UInt8(ascii: "\t"), UInt8(ascii: "\n"): break
            case 0x00..<0x20: return Change(index: index, length: 1, replacement: "")
            case 0xEF where index + 2 < bytes.count && bytes[index + 1] == 0xBF && bytes[index + 2] >= 0xBE:
                return Change(index: index, length: 3, replacement: "")
            default: break
            }
            index += 1
        }
        return nil
    }
}

/// An XML document under construction as UTF-8 bytes: markup appended as is, text and
/// attribute values escaped straight into the buffer (no intermediate strings).
public struct XMLOutput: Sendable {
    /// The document so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty document with room for `capacity` bytes.
    public init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends markup as it is.
    @inline(__always)
    public mutating func raw(_ markup: StaticString) {
        markup.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends markup (or text known to need no escaping) as it is.
    public mutating func raw(_ markup: String) {
        var markup = markup
        markup.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends bytes made by another `XMLOutput` as they are.
    public mutating func raw(_ markup: [UInt8]) {
        bytes.append(contentsOf: markup)
    }

    /// Appends `count` levels of two-space indentation.
    public mutating func indent(_ count: Int) {
        for _ in 0..<count { raw("  ") }
    }

    /// Appends character data, escaped for element content.
    public mutating func text(_ value: String) {
        var value = value
        value.withUTF8 { XMLEscaping.append($0, attribute: false, to: &bytes) }
    }

    /// Appends an attribute value, escaped for double quotes.
    public mutating func attribute(_ value: String) {
        var value = value
        value.withUTF8 { XMLEscaping.append($0, attribute: true, to: &bytes) }
    }

    /// Appends ` name="value"`, the value escaped.
    public mutating func attribute(_ name: StaticString, _ value: String) {
        raw(" ")
        raw(name)
        raw("=\"")
        attribute(value)
        raw("\"")
    }

    /// Appends `<name>text</name>`, the text escaped.
    public mutating func element(_ name: StaticString, _ value: String) {
        raw("<")
        raw(name)
        raw(">")
        text(value)
        raw("</")
        raw(name)
        raw(">")
    }

    /// Hands the bytes so far to `emit` and starts over with an empty buffer of the same capacity.
    public mutating func flush(to emit: (UnsafeRawBufferPointer) -> Void) {
        bytes.withUnsafeBytes { emit($0) }
        bytes.removeAll(keepingCapacity: true)
    }

    /// The document as a string.
    public var string: String { String(decoding: bytes, as: UTF8.self) }
}
