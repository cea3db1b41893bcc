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
        // Works on the UTF-8 bytes, copying the runs between replacements: every character that
        // needs work is ASCII, except U+FFFE and U+FFFF (EF BF BE, EF BF BF), which are dropped.
        var string = string
        let escaped: [UInt8]? = string.withUTF8 { bytes in
            var output: [UInt8] = []
            var changed = false
            var copied = 0
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                var replacement: StaticString?
                var length = 1
                switch byte {
                case UInt8(ascii: "&"): replacement = "&amp;"
                case UInt8(ascii: "<"): replacement = "&lt;"
                case UInt8(ascii: ">"): replacement = "&gt;"
                case UInt8(ascii: "\""): replacement = attribute ? "&quot;" : nil
                case UInt8(ascii: "\t"): replacement = attribute ? "&#9;" : nil
                case UInt8(ascii: "\n"): replacement = attribute ? "&#10;" : nil
                case UInt8(ascii: "\r"): replacement = "&#13;"
                case 0x00..<0x20: replacement = ""
                case 0xEF where index + 2 < bytes.count && bytes[index + 1] == 0xBF && bytes[index + 2] >= 0xBE:
                    replacement = ""
                    length = 3
                default: break
                }
                guard let replacement else {
                    index += 1
                    continue
                }
                if !changed {
                    changed = true
                    output.reserveCapacity(bytes.count + bytes.count / 8 + 16)
                }
                output.append(contentsOf: bytes[copied..<index])
                replacement.withUTF8Buffer { output.append(contentsOf: $0) }
                index += length
                copied = index
            }
            guard changed else { return nil }
            output.append(contentsOf: bytes[copied...])
            return output
        }
        return escaped.map { String(decoding: $0, as: UTF8.self) } ?? string
    }
}
