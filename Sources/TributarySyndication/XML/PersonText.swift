import Foundation
import TributaryModel

/// Reads the person formats of RSS: `jane@example.com (Jane Doe)`, `Jane Doe <jane@example.com>`,
/// a bare address, or a bare name.
enum PersonText {
    /// The author the text describes, or nil for empty text. An address becomes a `mailto:`
    /// URL; a bare address is also the name.
    static func author(from text: String) -> Author? {
        let trimmed = FeedText.collapsed(text)
        guard !trimmed.isEmpty else { return nil }
        if !trimmed.utf8.contains(where: { $0 == UInt8(ascii: "@") || $0 == UInt8(ascii: "(") || $0 == UInt8(ascii: "<") }) {
            return Author(name: trimmed)
        }
        if trimmed.hasSuffix(")"), let open = trimmed.lastIndex(of: "(") {
            let address = trimmed[..<open].trimmingCharacters(in: .whitespaces)
            let name = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)].trimmingCharacters(in: .whitespaces)
            if isAddress(address) {
                return Author(name: name.isEmpty ? address : name, url: "mailto:" + stripMailto(address))
            }
        }
        if trimmed.hasSuffix(">"), let open = trimmed.lastIndex(of: "<") {
            let address = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]).trimmingCharacters(
                in: .whitespaces)
            let name = trimmed[..<open].trimmingCharacters(in: CharacterSet.whitespaces.union(CharacterSet(charactersIn: "\"'")))
            if isAddress(address) {
                let plain = stripMailto(address)
                return Author(name: name.isEmpty ? plain : name, url: "mailto:" + plain)
            }
        }
        if isAddress(trimmed) {
            let plain = stripMailto(trimmed)
            return Author(name: plain, url: "mailto:" + plain)
        }
        return Author(name: trimmed)
    }

    private static func isAddress(_ text: String) -> Bool {
        text.contains("@") && !text.contains(where: { $0.isWhitespace }) && !text.hasPrefix("@") && !text.hasSuffix("@")
    }

    private static func stripMailto(_ text: String) -> String {
        text.lowercased().hasPrefix("mailto:") ? String(text.dropFirst(7)) : text
    }
}
