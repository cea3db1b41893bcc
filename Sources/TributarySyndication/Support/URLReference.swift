public import Foundation

/// Resolves relative references (links, image sources, enclosures) against a base URL, the way
/// browsers do (RFC 3986 §5), keeping references that are already absolute as they are.
public enum URLReference {
    /// The absolute form of `reference` against `base`; the reference trimmed and unchanged when
    /// it is already absolute, when there is no base, or when it cannot be resolved.
    public static func resolve(_ reference: String, against base: URL?) -> String {
        let trimmed = isTrimmed(reference) ? reference : reference.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, let base else { return trimmed }
        if hasScheme(trimmed) { return trimmed }
        if let url = URL(string: trimmed, relativeTo: base) {
            return url.absoluteString
        }
        // Spaces and non-ASCII characters: encode what RFC 3986 does not allow, then resolve.
        let allowed = CharacterSet.urlFragmentAllowed.union(CharacterSet(charactersIn: "#%"))
        if let encoded = trimmed.addingPercentEncoding(withAllowedCharacters: allowed),
            let url = URL(string: encoded, relativeTo: base)
        {
            return url.absoluteString
        }
        return trimmed
    }

    /// The base for references inside a document: `reference` resolved against `base`.
    public static func base(_ reference: String, against base: URL?) -> URL? {
        URL(string: resolve(reference, against: base))
    }

    /// Whether the text starts and ends with printable ASCII, so trimming has nothing to do
    /// (the whitespace Foundation trims is ASCII 0x09–0x0D and space, or above ASCII).
    private static func isTrimmed(_ text: String) -> Bool {
        guard let first = text.utf8.first, let last = text.utf8.last else { return false }
        return (0x21...0x7E).contains(first) && (0x21...0x7E).contains(last)
    }

    /// Whether the text starts with a scheme (`https:`, `mailto:`, `data:` …).
    public static func hasScheme(_ text: String) -> Bool {
        var sawLetter = false
        for scalar in text.unicodeScalars {
            switch scalar {
            case "a"..."z", "A"..."Z":
                sawLetter = true
            case "0"..."9", "+", "-", ".":
                if !sawLetter { return false }
            case ":":
                return sawLetter
            default:
                return false
            }
        }
        return false
    }
}
