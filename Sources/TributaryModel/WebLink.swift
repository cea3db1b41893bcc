public import Foundation

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
        isCleanPage(item.url) && isCleanPage(item.image) && isCleanPage(item.externalURL)
            && item.attachments.allSatisfy { enclosure($0.url) == $0.url }
            && item.authors.allSatisfy { author in
                (author.url.map { self.author($0) == $0 } ?? true) && isCleanPage(author.avatar)
            }
    }

    /// Whether `page` keeps `text` as it is, found without a copy in the common case (an `http(s)` link with nothing to
    /// trim or escape); anything else goes the long way.
    @inline(__always)
    private static func isCleanPage(_ text: String?) -> Bool {
        guard let text else { return true }
        return text.utf8.withContiguousStorageIfAvailable(isPlainWebLink) == true || page(text) == text
    }

    /// `http://` or `https://` (in any case), a host, and no byte that trimming, escaping or refusing is about.
    private static func isPlainWebLink(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // "http", in any case.
        guard bytes.count > 8, bytes[0] | 0x20 == 0x68, bytes[1] | 0x20 == 0x74, bytes[2] | 0x20 == 0x74, bytes[3] | 0x20 == 0x70
        else { return false }
        var index = 4
        if bytes[index] | 0x20 == UInt8(ascii: "s") { index += 1 }
        guard bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: "/"), bytes[index + 2] == UInt8(ascii: "/"),
            index + 3 < bytes.count
        else { return false }
        let host = bytes[index + 3]
        guard host != UInt8(ascii: "/"), host != UInt8(ascii: "?"), host != UInt8(ascii: "#"), host != UInt8(ascii: "@"),
            host != UInt8(ascii: ":"), bytes[bytes.count - 1] < 0x80
        else { return false }
        // A user name or password before the host goes the long way, to be taken out.
        for byte in bytes[(index + 3)...] {
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            if byte == UInt8(ascii: "@") { return false }
        }
        // Eight bytes at a time: links are tens of bytes long, and every item has one or two.
        var offset = 0
        let base = UnsafeRawPointer(bytes.baseAddress!)
        while offset + 8 <= bytes.count {
            if hasAttentionByte(base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) { return false }
            offset += 8
        }
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte <= 0x20 || byte == 0x22 || byte == 0x3C || byte == 0x3E || byte == 0x7F { return false }
            offset += 1
        }
        return true
    }

    /// Whether one of the eight bytes is a control character or a space, `"`, `<`, `>` or DEL.
    @inline(__always)
    private static func hasAttentionByte(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        /// The high bit of each zero byte of `value`.
        func zeros(_ value: UInt64) -> UInt64 { ~(((value & lows) &+ lows) | value) & highs }
        let belowSpace = ~((word & lows) &+ ones &* (0x80 - 0x21)) & ~word & highs  // ASCII up to 0x20
        let found =
            belowSpace | zeros(word ^ ones &* 0x22) | zeros(word ^ ones &* 0x3C) | zeros(word ^ ones &* 0x3E)
            | zeros(word ^ ones &* 0x7F)
        return found != 0
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
        item.externalURL = keep(item.externalURL, page)
        item.attachments = item.attachments.compactMap { attachment in
            guard let url = keep(attachment.url, enclosure) else { return nil }
            var attachment = attachment
            attachment.url = url
            return attachment
        }
        item.authors = item.authors.compactMap { webLinks(of: $0, removed: &removed) }
        return removed
    }

    /// `person` with only a web link as their page and avatar; nil when nothing is left of them. Counts what went
    /// into `removed`.
    private static func webLinks(of person: Author, removed: inout Int) -> Author? {
        var person = person
        let (url, avatar) = (person.url, person.avatar)
        person.url = url.flatMap(author)
        person.avatar = avatar.flatMap(page)
        removed += (url != nil && person.url == nil ? 1 : 0) + (avatar != nil && person.avatar == nil ? 1 : 0)
        return person.isEmpty ? nil : person
    }

    /// Removes what is not a web link from a feed's metadata, as `apply(to:)` does from an item: its
    /// home page, its own URL, its images, its authors' links and avatars.
    public static func apply(to feed: inout FeedInfo) {
        feed.homePageURL = feed.homePageURL.flatMap(page)
        feed.feedURL = feed.feedURL.flatMap(page)
        feed.icon = feed.icon.flatMap(page)
        feed.favicon = feed.favicon.flatMap(page)
        var removed = 0
        feed.authors = feed.authors.compactMap { webLinks(of: $0, removed: &removed) }
    }

    private static func accepted(_ text: String, schemes: [String]) -> String? {
        var trimmed = text
        if let first = text.utf8.first, let last = text.utf8.last, first <= 0x20 || last <= 0x20 || first >= 0x80 || last >= 0x80 {
            trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        trimmed.makeContiguousUTF8()
        // One pass over the bytes where they lie: this runs for every link of every item.
        let found = trimmed.utf8.withContiguousStorageIfAvailable { verdict(on: $0, schemes: schemes) } ?? Verdict.refused
        switch found {
        case .refused: return nil
        case .accepted: return withoutUserInformation(trimmed, schemes: schemes)
        case .escaping: return withoutUserInformation(escaped(trimmed), schemes: schemes)
        }
    }

    /// The link without the user name and password before its host (`https://user:pass@host/` is `https://host/`), or
    /// as it is when it has none. A published link must not carry the credentials of a source's URL (which relative
    /// links resolved against it inherit), nor pretend to lead to the host before the `@`
    /// (`https://bank.example@evil.example/`).
    private static func withoutUserInformation(_ link: String, schemes: [String]) -> String? {
        guard let stripped = removingUserInformation(link) else { return link }
        // Checked again: the host after the `@` must be one.
        return accepted(stripped, schemes: schemes)
    }

    /// `url` without the user name and password before its host, or `url` when it has none: the base that links
    /// which are published are resolved against (a feed's URL may hold the credentials it is fetched with).
    public static func withoutUserInformation(_ url: URL) -> URL {
        removingUserInformation(url.absoluteString).flatMap { URL(string: $0) } ?? url
    }

    /// The link without what comes before the last `@` of its authority (its user name and password); nil when it has
    /// no `@` there, or no authority (`magnet:`, `mailto:`).
    public static func removingUserInformation(_ link: String) -> String? {
        guard let authority = authority(of: link), let at = authority.lastIndex(of: "@") else { return nil }
        return String(link[..<authority.startIndex] + link[link.index(after: at)...])
    }

    /// The authority of a link as written (`user@host:port`, after `://` and up to the path, query or fragment); nil
    /// when it has none (`magnet:`, `mailto:`).
    public static func authority(of link: String) -> Substring? {
        guard let colon = link.firstIndex(of: ":"), link[colon...].hasPrefix("://") else { return nil }
        return link[link.index(colon, offsetBy: 3)...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    }

    /// What ``accepted(_:schemes:)`` makes of a link.
    private enum Verdict {
        /// Not a link of the schemes asked for, or one that cannot be carried (control characters).
        case refused
        /// As it is.
        case accepted
        /// With its spaces, quotes or angle brackets escaped.
        case escaping
    }

    private static func verdict(on bytes: UnsafeBufferPointer<UInt8>, schemes: [String]) -> Verdict {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return .refused }
        // The scheme, compared without case and without making a string of it.
        let known = schemes.contains { name in
            var matches = name.utf8.count == colon
            if matches {
                for (offset, byte) in name.utf8.enumerated() where bytes[offset] | 0x20 != byte {
                    matches = false
                    break
                }
            }
            return matches
        }
        guard known else { return .refused }
        let rest = colon + 1
        if colon >= 6 {
            // magnet:, mailto: have no `//host`.
            guard bytes.count - rest > 1 else { return .refused }
        } else {
            // A host after `//`.
            guard bytes.count - rest > 2, bytes[rest] == UInt8(ascii: "/"), bytes[rest + 1] == UInt8(ascii: "/") else { return .refused }
            let host = bytes[rest + 2]
            guard host != UInt8(ascii: "/"), host != UInt8(ascii: "?"), host != UInt8(ascii: "#"), host != UInt8(ascii: "@"),
                host != UInt8(ascii: ":")
            else { return .refused }
        }
        // Control characters cannot be carried; a space, a quote or an angle bracket (found in the wild unescaped) is
        // escaped as a browser would escape it.
        var verdict = Verdict.accepted
        for index in rest..<bytes.count {
            let byte = bytes[index]
            guard byte <= 0x20 || byte == 0x22 || byte == 0x3C || byte == 0x3E || byte == 0x7F else { continue }
            if byte < 0x20 || byte == 0x7F { return .refused }
            verdict = .escaping
        }
        return verdict
    }

    /// The link with its spaces, quotes and angle brackets percent-encoded.
    private static func escaped(_ link: String) -> String {
        var escaped: [UInt8] = []
        escaped.reserveCapacity(link.utf8.count + 8)
        for byte in link.utf8 {
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
