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
        accepted(text, schemes: pageSchemes)
    }

    /// The text, trimmed, when it is a link an enclosure may have: `http(s)` with a host, `ftp`, or `magnet:`.
    public static func enclosure(_ text: String) -> String? {
        accepted(text, schemes: enclosureSchemes)
    }

    /// The text, trimmed, when it is a link an author may have: `http(s)` with a host, or `mailto:`.
    public static func author(_ text: String) -> String? {
        accepted(text, schemes: authorSchemes)
    }

    private static let pageSchemes = ["http", "https"]
    private static let enclosureSchemes = ["http", "https", "ftp", "magnet"]
    private static let authorSchemes = ["http", "https", "mailto"]

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

    private static func accepted(_ text: String, schemes: [String]) -> String? {
        var trimmed = text
        if let first = text.utf8.first, let last = text.utf8.last, first <= 0x20 || last <= 0x20 || first >= 0x80 || last >= 0x80 {
            trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let bytes = trimmed.utf8
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        // The scheme, compared without case and without making a string of it (this runs for every link of every item).
        let scheme = bytes[..<colon]
        guard
            schemes.contains(where: { name in
                name.utf8.count == scheme.count && zip(name.utf8, scheme).allSatisfy { $0 == $1 | 0x20 }
            })
        else { return nil }
        let isOpaque = scheme.count >= 6  // magnet, mailto: no `//host`
        let rest = bytes[bytes.index(after: colon)...]
        // Control characters cannot be carried; a space, a quote or an angle bracket (found in the wild unescaped) is
        // escaped as a browser would escape it.
        guard !rest.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return nil }
        if isOpaque {
            guard rest.count > 1 else { return nil }
        } else {
            // A host after `//`.
            guard rest.starts(with: "//".utf8) else { return nil }
            let host = rest.dropFirst(2).prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
            guard let first = host.first, first != UInt8(ascii: "@"), first != UInt8(ascii: ":") else { return nil }
        }
        guard rest.contains(where: { $0 == 0x20 || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "\"") })
        else { return trimmed }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(bytes.count + 8)
        for byte in bytes {
            switch byte {
            case 0x20: escaped += Array("%20".utf8)
            case UInt8(ascii: "<"): escaped += Array("%3C".utf8)
            case UInt8(ascii: ">"): escaped += Array("%3E".utf8)
            case UInt8(ascii: "\""): escaped += Array("%22".utf8)
            default: escaped.append(byte)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }
}
