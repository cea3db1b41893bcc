import Foundation
import TributaryModel

/// An item while its element is open: everything read so far, before the choices (which link,
/// which content, which image) are made in `item(…)`.
struct ItemDraft {
    /// A piece of HTML content with the base URL in effect where it was found.
    ///
    /// Kept as the UTF-8 bytes the parser collected (always valid UTF-8: libxml2 reads a document `DocumentDecoder` made valid UTF-8),
    /// so the sanitizer, the summary and the image search read them without a `String` of the
    /// whole content being made (and validated) first.
    struct HTML {
        var html: [UInt8]
        var base: URL?

        init(html: [UInt8], base: URL?) {
            self.html = html
            self.base = base
        }

        init(html: String, base: URL?) {
            self.init(html: Array(html.utf8), base: base)
        }

        /// The content as text.
        var text: String { String(validUTF8: html) }
    }

    /// Where the item started.
    var line: Int?
    var column: Int?
    /// The base URL in effect on the item element.
    var base: URL?

    var guid: String?
    var guidIsPermaLink = true
    var atomID: String?
    var rdfAbout: String?
    var title: String?
    var fallbackTitle: String?
    /// RSS `link`, resolved.
    var link: String?
    /// Atom `link rel=alternate` (or rel-less), resolved, with its type.
    var alternates: [(url: String, type: String?)] = []
    /// RSS `description`, Atom `summary` as HTML.
    var descriptionHTML: HTML?
    /// A summary the source gave as plain text (Atom `summary type=text`).
    var summaryText: String?
    /// A lower-ranked plain-text summary (`itunes:summary`, `media:description`).
    var fallbackSummary: String?
    /// `content:encoded`, Atom `content`.
    var contents: [HTML] = []
    /// The item's own authors (Atom `author`, RSS `author`), each once (see `addAuthor`).
    private(set) var authors: [Author] = []
    /// Lower-ranked authors (`dc:creator`, `itunes:author`), each once (see `addFallbackAuthor`).
    private(set) var fallbackAuthors: [Author] = []
    var published: Date?
    var updated: Date?
    var tags: [String] = []
    var tagKeys: Set<String> = []
    /// The attachments, one per URL.
    private(set) var attachments = AttachmentList()
    var thumbnail: String?
    var mediaImage: String?
    var itunesImage: String?
    var duration: Int?
    var commentsURL: String?

    // The authors kept, looked up in O(1) once there are more than `searchLimit` (a search of the
    // arrays made an item with n authors cost n²/2 comparisons, as `AttachmentList` explains);
    // up to then the arrays are searched, and an item with an author, the common case, allocates
    // no table.
    /// Up to how many authors the array is searched instead of a table.
    private static let searchLimit = AttachmentList.searchLimit
    /// The name and URL of each of `authors`, and their names alone.
    private var authorKeys: Set<AuthorKey> = []
    private var authorNames: Set<String?> = []
    private var fallbackAuthorSet: Set<Author> = []

    /// Whether an attachment was left out for `FeedParser.maxAttachmentsPerItem`.
    var attachmentsLeftOut: Bool { attachments.leftOut }
    /// Whether an author (or a lower-ranked one) was left out for `FeedParser.maxAuthors`.
    private(set) var authorsLeftOut = false

    /// What tells an author from those already kept: its name and URL (not its avatar).
    private struct AuthorKey: Hashable {
        var name: String?
        var url: String?
    }

    /// Whether the document gives the item an id (`guid`, Atom `id`, `rdf:about`); without one its id
    /// is derived from its link (see `item(_:)`).
    var hasOwnID: Bool {
        !(guid ?? "").isEmpty || !(atomID ?? "").isEmpty || !(rdfAbout ?? "").isEmpty
    }

    /// The id of an item without an id of its own whose link another such item of the document has
    /// too (a changelog whose entries all link to one page): its link and its title.
    static func sharedLinkID(_ item: Item) -> String {
        StableID.digest(item.url ?? "", item.title ?? "")
    }

    /// Whether it has what a cut-off item needs to be worth keeping.
    var hasTitleOrLink: Bool {
        !(title ?? fallbackTitle ?? "").isEmpty || !(link ?? "").isEmpty || !alternates.isEmpty
    }

    mutating func addTag(_ tag: String) {
        let trimmed = FeedText.collapsed(tag)
        guard !trimmed.isEmpty, tagKeys.insert(trimmed.lowercased()).inserted else { return }
        tags.append(trimmed)
    }

    /// Adds an author unless it is empty or one already kept has its name and URL, or its name
    /// when it has no URL; the first one kept stays. A new one past `FeedParser.maxAuthors` is
    /// left out.
    mutating func addAuthor(_ author: Author) {
        guard !author.isEmpty else { return }
        let key = AuthorKey(name: author.name, url: author.url)
        let known =
            authors.count <= Self.searchLimit
            ? authors.contains { $0.name == author.name && ($0.url == author.url || author.url == nil) }
            : authorKeys.contains(key) || (author.url == nil && authorNames.contains(author.name))
        guard !known else { return }
        guard authors.count < FeedParser.maxAuthors else {
            authorsLeftOut = true
            return
        }
        authors.append(author)
        if authors.count > Self.searchLimit {
            if authorKeys.isEmpty {
                for kept in authors {
                    authorKeys.insert(AuthorKey(name: kept.name, url: kept.url))
                    authorNames.insert(kept.name)
                }
            } else {
                authorKeys.insert(key)
                authorNames.insert(author.name)
            }
        }
    }

    /// Adds a lower-ranked author unless an equal one is kept already.
    mutating func addFallbackAuthor(_ author: Author) {
        let known =
            fallbackAuthors.count <= Self.searchLimit ? fallbackAuthors.contains(author) : fallbackAuthorSet.contains(author)
        guard !known else { return }
        guard fallbackAuthors.count < FeedParser.maxAuthors else {
            authorsLeftOut = true
            return
        }
        fallbackAuthors.append(author)
        if fallbackAuthors.count > Self.searchLimit {
            if fallbackAuthorSet.isEmpty { fallbackAuthorSet = Set(fallbackAuthors) } else { fallbackAuthorSet.insert(author) }
        }
    }

    /// Adds an attachment, merging it into one with the same URL (see `AttachmentList`).
    mutating func addAttachment(_ attachment: Attachment) {
        attachments.add(attachment)
    }

    /// What the item-level choices need from outside the item.
    struct Context {
        var source: String
        var homePage: URL?
        var feedAuthors: [Author]
        var inheritsFeedAuthors: Bool
        var sanitize: Bool
        /// Resolvers for the items' bases, shared by the items of one document.
        var resolvers: HTMLURLResolverCache
    }

    /// The finished item.
    func item(_ context: Context) -> Item {
        let url = chosenURL(context)
        let titleText = title ?? fallbackTitle
        var item = Item(id: "", source: context.source, url: url, title: titleText.flatMap { $0.isEmpty ? nil : $0 })

        // The richest content: the longest full content, else the description.
        let full = contents.filter { !$0.html.isEmpty }.max { $0.html.count < $1.html.count }
        let chosen = full ?? descriptionHTML.flatMap { $0.html.isEmpty ? nil : $0 }
        let contentBase = chosen?.base ?? base ?? context.homePage
        if let chosen {
            item.contentHTML =
                context.sanitize
                ? HTMLSanitizer.sanitize(utf8: chosen.html, resolver: context.resolvers.resolver(for: contentBase)) : chosen.text
        }
        if let summaryText, !summaryText.isEmpty {
            item.summary = summaryText
        } else if let html = descriptionHTML?.html ?? chosen?.html, !html.isEmpty {
            let text = ItemDraft.summary(fromHTML: html)
            item.summary = text.isEmpty ? nil : text
        }
        if item.summary == nil, let fallbackSummary, !fallbackSummary.isEmpty {
            item.summary = fallbackSummary
        }

        let guidValue = guid.flatMap { $0.isEmpty ? nil : $0 }
        item.id = guidValue ?? atomID.flatMap { $0.isEmpty ? nil : $0 } ?? rdfAbout.flatMap { $0.isEmpty ? nil : $0 } ?? ""
        if item.id.isEmpty {
            if let url {
                // The link alone, as feed readers identify such an item: a corrected headline is the same item. Items
                // that share their link get `ItemDraft.sharedLinkID` instead (FeedBuilder).
                item.id = StableID.digest(url)
            } else if titleText != nil {
                item.id = StableID.digest("", titleText ?? "")
            } else {
                item.id = StableID.digest("", "", chosen?.text ?? summaryText ?? fallbackSummary ?? "")
            }
        }

        item.authors = authors.isEmpty ? fallbackAuthors : authors
        if item.authors.isEmpty, context.inheritsFeedAuthors { item.authors = context.feedAuthors }
        item.published = published
        item.updated = updated
        item.tags = tags
        item.attachments = attachments.all.map { attachment in
            var resolved = attachment
            resolved.url = ItemDraft.absolute(attachment.url, context.homePage, context.resolvers)
            return resolved
        }
        if let duration,
            let index = item.attachments.firstIndex(where: { $0.durationInSeconds == nil && ItemDraft.isTimed($0) })
                ?? (item.attachments.count == 1 && item.attachments[0].durationInSeconds == nil ? 0 : nil)
        {
            item.attachments[index].durationInSeconds = duration
        }
        let enclosureImage = attachments.all.first { $0.mimeType.utf8.starts(with: "image/".utf8) }?.url
        item.image = (thumbnail ?? mediaImage ?? enclosureImage ?? itunesImage).map {
            ItemDraft.absolute($0, context.homePage, context.resolvers)
        }
        if item.image == nil {
            item.image =
                chosen.flatMap { ItemDraft.firstImage(in: $0.html, base: contentBase, resolvers: context.resolvers) }
                ?? descriptionHTML.flatMap {
                    ItemDraft.firstImage(in: $0.html, base: $0.base ?? base ?? context.homePage, resolvers: context.resolvers)
                }
        }
        if let commentsURL, !commentsURL.isEmpty {
            item.extras["comments_url"] = .string(ItemDraft.absolute(commentsURL, context.homePage, context.resolvers))
        }
        return item
    }

    /// The length of a derived summary, in characters.
    static let summaryLength = 300

    /// A plain-text summary of HTML. Long HTML is read only up to a tag boundary near its start
    /// (first about 4, then 16 times the summary length) when that prefix already has more text
    /// than the summary keeps, so full-text content costs no more than a short description. The
    /// prefix's text is then the start of the whole text, and with at least two Characters
    /// beyond the limit (the last may be an incomplete cluster) its truncation is the same.
    static func summary(fromHTML html: String) -> String {
        summary(fromHTML: Array(html.utf8))
    }

    /// `summary(fromHTML:)` of HTML given as valid UTF-8.
    static func summary(fromHTML html: [UInt8]) -> String {
        html.withUnsafeBufferPointer { html in
            for window in [4 * summaryLength, 16 * summaryLength] where html.count > 2 * window {
                // The prefix ends at a `>`, an ASCII byte, so it is valid UTF-8 too.
                guard let cut = html[..<window].lastIndex(of: UInt8(ascii: ">")) else { continue }
                let text = HTMLSanitizer.plainTextBytes(fromHTML: UnsafeBufferPointer(rebasing: html[...cut]))
                let summary: String? = text.withUnsafeBufferPointer { text in
                    let longEnough =
                        HTMLTextTruncation.hasMoreCharacters(utf8: text, than: summaryLength + 1)
                        ?? !String(decoding: text, as: UTF8.self).dropFirst(summaryLength + 1).isEmpty
                    return longEnough ? HTMLTextTruncation.truncate(utf8: text, limit: summaryLength) : nil
                }
                if let summary { return summary }
            }
            return HTMLSanitizer.plainText(fromHTML: html, limit: summaryLength)
        }
    }

    private func chosenURL(_ context: Context) -> String? {
        var url = link.flatMap { $0.isEmpty ? nil : $0 }
        if url == nil {
            url = alternates.first { FeedText.mentionsHTML($0.type ?? "") }?.url ?? alternates.first?.url
        }
        if url == nil, guidIsPermaLink, let guid, !guid.isEmpty {
            let resolved = FeedText.resolve(guid, against: base)
            if ItemDraft.isWebURL(resolved) { url = resolved }
        }
        return url.map { ItemDraft.absolute($0, context.homePage, context.resolvers) }
    }

    /// A reference still relative after xml:base and the document URL, resolved against the
    /// feed's home page (the last base a document offers) through the document's resolver:
    /// what `FeedText.resolve` gives, plain paths (`/entries/1`) without Foundation's `URL`.
    static func absolute(_ reference: String, _ homePage: URL?, _ resolvers: HTMLURLResolverCache) -> String {
        guard let homePage, !FeedText.hasScheme(reference) else { return reference }
        return resolvers.resolver(for: homePage).resolve(reference)
    }

    static func isWebURL(_ text: String) -> Bool {
        let lower = text.prefix(8).lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    private static func isTimed(_ attachment: Attachment) -> Bool {
        let type = attachment.mimeType.lowercased()
        return type.hasPrefix("audio/") || type.hasPrefix("video/")
    }

    /// The `src` of the first `<img>` in HTML, resolved, when it is an http(s) URL.
    static func firstImage(in html: [UInt8], base: URL?, resolvers: HTMLURLResolverCache? = nil) -> String? {
        // A byte scan: Foundation's case-insensitive `range(of:)` converts the whole content
        // to UTF-16 on every call, which dominated parsing time on long articles.
        html.withUnsafeBufferPointer { bytes in
            var index = 0
            var resolver: HTMLURLResolver?
            while let tag = findImageTag(in: bytes, from: index) {
                index = tag + 4
                guard let end = bytes[index...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
                guard let src = find("src", in: bytes, from: index, before: end) else { continue }
                var cursor = src + 3
                while cursor < end, bytes[cursor] == 0x20 { cursor += 1 }
                guard cursor < end, bytes[cursor] == UInt8(ascii: "=") else { continue }
                cursor += 1
                while cursor < end, bytes[cursor] == 0x20 { cursor += 1 }
                guard cursor < end else { continue }
                let quote = bytes[cursor]
                let start: Int
                var stop: Int
                if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                    start = cursor + 1
                    stop = start
                    while stop < end, bytes[stop] != quote { stop += 1 }
                } else {
                    start = cursor
                    stop = start
                    while stop < end, !isUnquotedEnd(bytes[stop]) { stop += 1 }
                }
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<stop]), as: UTF8.self)
                let reference = HTMLText.decodeEntities(text)
                if isAbsolute(reference) {
                    if isWebURL(reference) { return reference }
                    continue
                }
                // Made at the first relative source: most content has no image, or absolute ones.
                let current = resolver ?? resolvers?.resolver(for: base) ?? HTMLURLResolver(baseURL: base)
                resolver = current
                let resolved = resolve(reference, current)
                if isWebURL(resolved) { return resolved }
            }
            return nil
        }
    }

    /// `FeedText.resolve(reference, against: resolver.baseURL)`: the resolver gives what
    /// `URLReference.resolve` gives, through its shortcut for plain paths where it can.
    static func resolve(_ reference: String, _ resolver: HTMLURLResolver) -> String {
        if isAbsolute(reference) { return reference }
        return resolver.resolve(reference)
    }

    /// A reference `resolve` returns as it is, whatever the base.
    static func isAbsolute(_ reference: String) -> Bool {
        if FeedText.hasScheme(reference), let last = reference.utf8.last, last > 0x20 { return true }
        return false
    }

    /// `find("<img", in: bytes, from: start)`, sixteen bytes at a time: a byte can start a match
    /// only if it is `<` once 0x20 is set (as `find` compares), and most runs have none.
    static func findImageTag(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        let count = bytes.count
        var index = start
        while index + 4 <= count {
            if index + 16 <= count {
                let candidates = ByteScan.mask(
                    of: ByteScan.pair(bytes, at: index) | ByteScan.Pair(repeating: 0x2020_2020_2020_2020), equalTo: 0x3C)
                guard ByteScan.any(candidates) else {
                    index += 16
                    continue
                }
                index += ByteScan.firstFlag(candidates)
            } else if index + 8 <= count, !ByteScan.hasByte(in: ByteScan.word(bytes, at: index) | 0x2020_2020_2020_2020, equalTo: 0x3C) {
                index += 8
                continue
            }
            if bytes[index] | 0x20 == 0x3C, bytes[index + 1] | 0x20 == UInt8(ascii: "i"), bytes[index + 2] | 0x20 == UInt8(ascii: "m"),
                bytes[index + 3] | 0x20 == UInt8(ascii: "g")
            {
                return index
            }
            index += 1
        }
        return nil
    }

    private static func isUnquotedEnd(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: "/")
    }

    /// The index of `needle` (ASCII, matched case-insensitively) in `bytes` at or after `start`
    /// and, when given, starting before `limit`.
    static func find(_ needle: StaticString, in bytes: UnsafeBufferPointer<UInt8>, from start: Int, before limit: Int? = nil)
        -> Int?
    {
        let length = needle.utf8CodeUnitCount
        let last = min(limit ?? bytes.count, bytes.count - length + 1)
        guard start < last else { return nil }
        return needle.withUTF8Buffer { needle in
            let first = needle[0] | 0x20
            var index = start
            while index < last {
                if bytes[index] | 0x20 == first {
                    var matched = true
                    for offset in 1..<length where bytes[index + offset] | 0x20 != needle[offset] | 0x20 {
                        matched = false
                        break
                    }
                    if matched { return index }
                }
                index += 1
            }
            return nil
        }
    }
}
