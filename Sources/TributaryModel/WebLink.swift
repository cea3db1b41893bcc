import Foundation

/// Which links Tributary republishes: an item's `url`, `image`, attachments and author links reach Atom, RSS, JSON
/// Feed and the HTML page only when a reader can follow them safely. Item links and images must be absolute `http(s)`
/// URLs with a host (no `javascript:`, `vbscript:`, `data:`, a machine's `file:` paths, nor a relative link that would
/// resolve against the river's own address); enclosures may also be `magnet:` links (BitTorrent feeds) or `ftp:`;
/// author links may also be `mailto:`. Every adapter's items pass through `Pipeline` which applies it, and the
/// declarative adapters ask it before taking a link as an item's id.
public enum WebLink {
    /// The text, trimmed, when it is an absolute `http(s)` URL with a host; nil otherwise.
    public static func page(_ text: String) -> String? {
        accepted(text, schemes: ["http", "https"])
    }

    /// The text, trimmed, when it is a link an enclosure may have: `http(s)` with a host, `ftp`, or `magnet:`.
    public static func enclosure(_ text: String) -> String? {
        accepted(text, schemes: ["http", "https", "ftp", "magnet"])
    }

    /// The text, trimmed, when it is a link an author may have: `http(s)` with a host, or `mailto:`.
    public static func author(_ text: String) -> String? {
        accepted(text, schemes: ["http", "https", "mailto"])
    }

    /// Whether `item` has only links `apply` keeps, found without changing it (the common case).
    public static func isClean(_ item: Item) -> Bool {
        (item.url.map { page($0) == $0 } ?? true) && (item.image.map { page($0) == $0 } ?? true)
            && item.attachments.allSatisfy { enclosure($0.url) == $0.url }
            && item.authors.allSatisfy { author in
                (author.url.map { self.author($0) == $0 } ?? true) && (author.avatar.map { page($0) == $0 } ?? true)
            }
    }

    /// Removes what is not a web link from `item`: its `url` and `image`, attachments, authors' links and avatars.
    /// Returns how many links went.
    @discardableResult
    public static func apply(to item: inout Item) -> Int {
        guard !isClean(item) else { return 0 }
        var removed = 0
        func keep(_ text: String?, _ rule: (String) -> String?) -> String? {
            guard let text else { return nil }
            guard let kept = rule(text) else {
                removed += 1
                return nil
            }
            return kept
        }
        item.url = keep(item.url, page)
        item.image = keep(item.image, page)
        item.attachments = item.attachments.compactMap { attachment in
            guard let url = keep(attachment.url, enclosure) else { return nil }
            var attachment = attachment
            attachment.url = url
            return attachment
        }
        item.authors = item.authors.compactMap { person in
            var person = person
            person.url = keep(person.url, author)
            person.avatar = keep(person.avatar, page)
            return person.isEmpty ? nil : person
        }
        return removed
    }

    private static func accepted(_ text: String, schemes: Set<String>) -> String? {
        var trimmed = text
        if let first = text.utf8.first, let last = text.utf8.last, first <= 0x20 || last <= 0x20 || first >= 0x80 || last >= 0x80 {
            trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let bytes = trimmed.utf8
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let scheme = String(decoding: bytes[..<colon], as: UTF8.self).lowercased()
        guard schemes.contains(scheme) else { return nil }
        let rest = bytes[bytes.index(after: colon)...]
        // No spaces, controls or markup characters inside (what a writer would have to escape or could not carry).
        guard !rest.contains(where: { $0 <= 0x20 || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "\"") })
        else { return nil }
        switch scheme {
        case "magnet", "mailto":
            guard rest.count > 1 else { return nil }
        default:
            // A host after `//`.
            guard rest.starts(with: "//".utf8) else { return nil }
            let host = rest.dropFirst(2).prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
            guard let first = host.first, first != UInt8(ascii: "@"), first != UInt8(ascii: ":") else { return nil }
        }
        return trimmed
    }
}
