public import Foundation
import TributaryJSON
import TributaryModel

/// Reads JSON Feed 1.0 and 1.1 documents leniently: numbers where strings belong, 1.0's
/// `author` beside 1.1's `authors`, missing ids, and items that are not objects are all read or
/// reported, never fatal. Tributary's own `_tributary` extension is read back too.
public struct JSONFeedParser: Sendable {
    /// The source name given to every item.
    public var source: String
    /// The zone for dates written without an offset.
    public var timeZone: TimeZone
    /// The moment relative dates ("3 hours ago") count back from.
    public var now: Date
    /// Whether `content_html` is rebuilt from the sanitizer's allow-list (the default).
    public var sanitize: Bool
    /// The document's URL: the base for relative links (else the feed's `feed_url`, then its
    /// `home_page_url`); an item's content resolves against the item's `url`, then this base.
    public var baseURL: URL?
    /// The most items read, in document order; later ones are skipped unread and counted (`ParsedFeed.itemsLeftOut`).
    public var maxItems: Int

    /// The longest summary derived from content, in characters.
    static let summaryLimit = 300

    /// Creates a parser that labels items with `source`.
    public init(
        source: String, timeZone: TimeZone = .gmt, now: Date = Date(), sanitize: Bool = true, baseURL: URL? = nil, maxItems: Int = .max
    ) {
        self.source = source
        self.timeZone = timeZone
        self.now = now
        self.sanitize = sanitize
        self.baseURL = baseURL
        self.maxItems = maxItems
    }

    /// Parses a document; throws only when it is not JSON or not a JSON Feed at all.
    public func parse(_ bytes: [UInt8]) throws(FeedParseError) -> ParsedFeed {
        let root: JSONValue
        do {
            root = try JSON.parse(bytes)
        } catch {
            throw FeedParseError("not valid JSON: \(error.message)", line: error.line, column: error.column)
        }
        guard case .object(let object) = root else {
            throw FeedParseError("a JSON Feed must be an object, found \(root.shape)")
        }
        var problems: [Problem] = []
        let versionText = object["version"]?.string
        var version: String?
        if let versionText, versionText.hasPrefix("https://jsonfeed.org/version/") {
            version = String(versionText.dropFirst("https://jsonfeed.org/version/".count))
        } else if object["items"] != nil {
            problems.append(Problem(.warning, "missing or unknown 'version' (\(versionText ?? "none")); read as JSON Feed 1.1"))
        } else {
            throw FeedParseError("not a JSON Feed: no 'version' and no 'items'")
        }
        // Relative links resolve against the document's URL, else the feed's own `feed_url` or `home_page_url`.
        let feedURL = object["feed_url"]?.text.map { URLReference.resolve($0, against: baseURL) }
        let homePageURL = object["home_page_url"]?.text.map { URLReference.resolve($0, against: baseURL) }
        let base = baseURL ?? [feedURL, homePageURL].lazy.compactMap { $0.flatMap(Self.absoluteURL) }.first
        let info = FeedInfo(
            title: object["title"]?.text, homePageURL: homePageURL, feedURL: feedURL, description: object["description"]?.text,
            authors: authors(object, of: "the feed", problems: &problems),
            icon: object["icon"]?.text.map { URLReference.resolve($0, against: base) },
            favicon: object["favicon"]?.text.map { URLReference.resolve($0, against: base) }, language: object["language"]?.text)

        var items: [Item] = []
        var itemsLeftOut = 0
        switch object["items"] {
        case .array(let values)?:
            items.reserveCapacity(min(values.count, maxItems))
            for (index, value) in values.enumerated() {
                guard items.count < maxItems else {
                    itemsLeftOut = values[index...].count { if case .object = $0 { true } else { false } }
                    break
                }
                guard case .object(let entry) = value else {
                    problems.append(Problem(.error, "item \(index + 1) is \(value.shape), not an object; skipped"))
                    continue
                }
                var item = item(entry, base: base, index: index, problems: &problems)
                // "If not specified in an item, then the top-level authors, if present, are the authors of the item."
                if item.authors.isEmpty { item.authors = info.authors }
                items.append(item)
            }
        case nil:
            problems.append(Problem(.error, "the feed has no 'items' array"))
        case let other?:
            problems.append(Problem(.error, "'items' is \(other.shape), not an array"))
        }
        return ParsedFeed(format: .jsonFeed, version: version, info: info, items: items, problems: problems, itemsLeftOut: itemsLeftOut)
    }

    /// An absolute URL with a scheme, or nil.
    private static func absoluteURL(_ text: String) -> URL? {
        guard URLReference.hasScheme(text) else { return nil }
        return URL(string: text)
    }

    private func item(_ entry: JSONObject, base: URL?, index: Int, problems: inout [Problem]) -> Item {
        func link(_ key: String) -> String? { entry[key]?.text.map { URLReference.resolve($0, against: base) } }
        let external = link("external_url")
        let url = link("url") ?? external
        let title = entry["title"]?.text
        var id = entry["id"]?.text ?? ""
        if id.isEmpty {
            id = url ?? StableID.digest(url ?? "", title ?? "", entry["content_html"]?.text ?? entry["content_text"]?.text ?? "")
            problems.append(Problem(.warning, "item \(index + 1) has no 'id'; using \(url == nil ? "a digest of its content" : "its url")"))
        }
        var item = Item(id: id, source: source, url: url, title: title)
        if let external, external != url { item.externalURL = external }
        if let html = entry["content_html"]?.text {
            item.contentHTML = sanitize ? HTMLSanitizer(baseURL: url.flatMap(Self.absoluteURL) ?? base).sanitize(html) : html
        }
        let text = entry["content_text"]?.text
        if item.contentHTML == nil, let text, !text.isEmpty {
            item.contentHTML = HTMLText.paragraphs(fromPlainText: text)
        }
        item.summary =
            entry["summary"]?.text ?? text
            ?? item.contentHTML.map { HTMLSanitizer.plainText(fromHTML: $0, limit: JSONFeedParser.summaryLimit) }
        item.image = link("image") ?? link("banner_image")
        item.published = date(entry["date_published"], "date_published", index: index, problems: &problems)
        item.updated = date(entry["date_modified"], "date_modified", index: index, problems: &problems)
        item.authors = authors(entry, of: "item \(index + 1)", problems: &problems)
        if case .array(let tags)? = entry["tags"] {
            var seen = Set<String>()
            item.tags = tags.compactMap(\.text).filter { !$0.isEmpty && seen.insert($0).inserted }
        }
        if case .array(let values)? = entry["attachments"] {
            // One per URL, as in RSS and Atom: a file listed twice is one attachment, with the fields of both.
            var attachments = AttachmentList()
            for value in values {
                guard let url = value["url"]?.text.map({ URLReference.resolve($0, against: base) }) else { continue }
                attachments.add(
                    Attachment(
                        url: url, mimeType: value["mime_type"]?.text ?? "", title: value["title"]?.text,
                        sizeInBytes: value["size_in_bytes"]?.int, durationInSeconds: value["duration_in_seconds"]?.int))
            }
            item.attachments = attachments.all
            if attachments.leftOut {
                let limit = FeedParser.maxAttachmentsPerItem
                problems.append(Problem(.warning, "item \(index + 1) has more than \(limit) attachments; only the first \(limit) are kept"))
            }
        }
        if case .object(let extensionObject)? = entry["_tributary"] {
            readExtension(extensionObject, into: &item)
        }
        return item
    }

    private func readExtension(_ object: JSONObject, into item: inout Item) {
        item.score = object["score"]?.double
        if case .object(let metrics)? = object["metrics"] {
            for (key, value) in metrics { if let number = value.int { item.metrics[key] = number } }
        }
        if case .object(let extras)? = object["extras"] {
            for (key, value) in extras {
                switch value {
                case .string(let text): item.extras[key] = .string(text)
                case .bool(let flag): item.extras[key] = .bool(flag)
                case .number(let number):
                    if let int = number.int {
                        item.extras[key] = .int(int)
                    } else if let double = number.double {
                        item.extras[key] = .double(double)
                    }
                default: break
                }
            }
        }
        if case .array(let duplicates)? = object["duplicates"] {
            item.duplicates = duplicates.compactMap { value in
                guard let source = value["source"]?.text else { return nil }
                return DuplicateReference(source: source, url: value["url"]?.text, title: value["title"]?.text)
            }
        }
    }

    private func date(_ value: JSONValue?, _ field: String, index: Int, problems: inout [Problem]) -> Date? {
        guard let text = value?.text, !text.isEmpty else { return nil }
        let parser = DateParser(timeZone: timeZone, now: now)
        if let date = RFC3339.date(from: text, defaultZone: timeZone), date >= DateParser.earliest { return date }
        if parser.isPlaceholder(text) {
            problems.append(Problem(.warning, "item \(index + 1): '\(field)' is before the year 1000, a placeholder for none: '\(text)'"))
            return nil
        }
        if let date = parser.parse(text) {
            problems.append(Problem(.warning, "item \(index + 1): '\(field)' is not RFC 3339 but was read: '\(text)'"))
            return date
        }
        problems.append(Problem(.warning, "item \(index + 1): '\(field)' is not a date: '\(text)'"))
        return nil
    }

    /// The authors of the feed or an item (`owner`, for the warning when `FeedParser.maxAuthors` leaves some out).
    private func authors(_ object: JSONObject, of owner: String, problems: inout [Problem]) -> [Author] {
        var values: [JSONValue] = []
        if case .array(let list)? = object["authors"] { values = list }
        if values.isEmpty, let single = object["author"] { values = [single] }
        var authors: [Author] = []
        let limit = FeedParser.maxAuthors
        for value in values {
            let author: Author
            if let name = value.string {
                author = Author(name: name)
            } else {
                author = Author(name: value["name"]?.text, url: value["url"]?.text, avatar: value["avatar"]?.text)
                guard !author.isEmpty else { continue }
            }
            guard authors.count < limit else {
                problems.append(Problem(.warning, "\(owner) has more than \(limit) authors; only the first \(limit) are kept"))
                break
            }
            authors.append(author)
        }
        return authors
    }
}
