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
        // Fast path: most text needs nothing.
        if !string.utf8.contains(where: { $0 < 0x20 || $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0xEF }) {
            return string
        }
        var output = String.UnicodeScalarView()
        output.reserveCapacity(string.unicodeScalars.count + 16)
        for scalar in string.unicodeScalars {
            switch scalar {
            case "&": output.append(contentsOf: "&amp;".unicodeScalars)
            case "<": output.append(contentsOf: "&lt;".unicodeScalars)
            case ">": output.append(contentsOf: "&gt;".unicodeScalars)
            case "\"" where attribute: output.append(contentsOf: "&quot;".unicodeScalars)
            case "\t" where attribute: output.append(contentsOf: "&#9;".unicodeScalars)
            case "\n" where attribute: output.append(contentsOf: "&#10;".unicodeScalars)
            case "\r": output.append(contentsOf: "&#13;".unicodeScalars)
            default:
                if isAllowed(scalar) { output.append(scalar) }
            }
        }
        return String(output)
    }
}
