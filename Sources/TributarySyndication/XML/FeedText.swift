import Foundation

/// Whitespace and URL clean-ups for the text fields of a feed, with fast paths for the common
/// case (nothing to do) that avoid Foundation's `NSString` bridging and grapheme iteration.
enum FeedText {
    /// The text without leading and trailing whitespace.
    static func trimmed(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return text }
        if !isWhitespace(first), !isWhitespace(last) { return text }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `properties.isWhitespace`, answered without the Unicode tables for ASCII (tab to carriage
    /// return, and space), which is nearly every first and last character of a field.
    @inline(__always)
    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII ? scalar.value == 0x20 || (0x09...0x0D).contains(scalar.value) : scalar.properties.isWhitespace
    }

    /// Whether a media type mentions HTML, in any case (`text/html`, `TEXT/HTML; charset=…`,
    /// `application/xhtml+xml`): a byte loop, where `firstRange(of:)` instantiated generic
    /// metadata on every call, once per Atom text element and entry link.
    static func mentionsHTML(_ type: String) -> Bool {
        var matched = 0
        for byte in type.utf8 {
            let folded = byte | 0x20  // only H, T, M and L fold onto the pattern's letters
            if folded == html[matched] {
                matched += 1
                if matched == html.count { return true }
            } else {
                matched = folded == html[0] ? 1 : 0  // "html" has no other 'h' to restart at
            }
        }
        return false
    }

    private static let html: [UInt8] = Array("html".utf8)

    /// Runs of whitespace as single spaces, ends trimmed.
    static func collapsed(_ text: String) -> String {
        var previousSpace = true
        var clean = true
        for scalar in text.unicodeScalars {
            if scalar == " " {
                if previousSpace {
                    clean = false
                    break
                }
                previousSpace = true
            } else if scalar.value < 0x80 ? scalar.value < 0x20 : isWideSpace(scalar.value) {
                clean = false
                break
            } else {
                previousSpace = false
            }
        }
        if clean, !(text.unicodeScalars.last == " ") { return text }
        return HTMLText.collapseWhitespace(text)
    }

    /// The Unicode White_Space characters above ASCII.
    private static func isWideSpace(_ value: UInt32) -> Bool {
        switch value {
        case 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }

    /// A reference resolved against a base; references that already carry a scheme (the usual
    /// case in feeds) are returned without touching Foundation.
    static func resolve(_ reference: String, against base: URL?) -> String {
        if hasScheme(reference), let last = reference.utf8.last, last > 0x20 { return reference }
        return URLReference.resolve(reference, against: base)
    }

    /// Whether the text starts with `scheme:` (no leading whitespace).
    static func hasScheme(_ text: String) -> Bool {
        var sawLetter = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                sawLetter = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                if !sawLetter { return false }
            case UInt8(ascii: ":"):
                return sawLetter
            default:
                return false
            }
        }
        return false
    }

    /// ASCII-lowercased and trimmed, for attribute values compared against keywords.
    static func keyword(_ text: String?) -> String {
        guard let text else { return "" }
        return trimmed(text).lowercased()
    }
}
