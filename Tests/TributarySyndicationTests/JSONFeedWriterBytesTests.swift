import Foundation
import TestSupport
import Testing
import TributaryJSON
import TributaryModel

@testable import TributarySyndication

/// `JSONFeedWriter` writes its documents straight into bytes; these tests hold that fast path
/// to the general one, `JSONWriter` over the document's `JSONValue`.
@Suite("JSON Feed writer: direct bytes")
struct JSONFeedWriterBytesTests {
    @Test(
        "direct writing equals JSONWriter over the document value, on fixed and generated items",
        arguments: [(true, true), (true, false), (false, true), (false, false)])
    func sameAsValue(extensions: Bool, pretty: Bool) {
        let writer = JSONFeedWriter(includeExtensions: extensions, pretty: pretty)
        let style: JSONWriter.Style = pretty ? .pretty : .compact
        var feeds: [(FeedInfo, [Item])] = [
            (JSONFeedTests.feedInfo, JSONFeedTests.roundTripItems), (FeedInfo(), []),
            (FeedInfo(authors: [Author(), Author(name: "")]), [Item(id: "x", source: "s", authors: [Author()])]),
        ]
        var rng = Generator(state: 0xFEED)
        for _ in 0..<20 { feeds.append((rng.feedInfo(), (0..<rng.below(12)).map { _ in rng.item() })) }
        for (info, items) in feeds {
            let expected = JSONWriter.bytes(from: writer.value(feed: info, items: items), style: style)
            #expect(writer.documentBytes(feed: info, items: items) == expected)
            #expect(writer.document(feed: info, items: items) == String(decoding: expected, as: UTF8.self))
        }
    }

    /// SplitMix64, and items whose optional fields are each present, empty or absent.
    struct Generator {
        private var random: SeededGenerator

        init(state: UInt64) { random = SeededGenerator(seed: state) }

        mutating func next() -> UInt64 { random.next() }

        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

        static let pieces = ["a", "中文", " ", "\"", "\\", "\n", "\u{1}", "\u{2028}", "<p>", "&amp;", "😀", "https://example.com/x"]

        mutating func text() -> String {
            (0..<below(30)).map { _ in Self.pieces[below(Self.pieces.count)] }.joined()
        }

        mutating func optionalText() -> String? {
            switch below(3) {
            case 0: nil
            case 1: ""
            default: text()
            }
        }

        mutating func author() -> Author {
            Author(name: optionalText(), url: optionalText(), avatar: optionalText())
        }

        mutating func feedInfo() -> FeedInfo {
            FeedInfo(
                title: optionalText(), homePageURL: optionalText(), feedURL: optionalText(), description: optionalText(),
                authors: (0..<below(3)).map { _ in author() }, icon: optionalText(), favicon: optionalText(), language: optionalText())
        }

        mutating func item() -> Item {
            var item = Item(
                id: text(), source: text(), url: optionalText(), title: optionalText(), summary: optionalText(),
                contentHTML: optionalText(), image: optionalText(), authors: (0..<below(3)).map { _ in author() },
                published: below(2) == 0 ? nil : Date(timeIntervalSince1970: Double(below(2_000_000_000))),
                updated: below(2) == 0 ? nil : Date(timeIntervalSince1970: Double(below(2_000_000_000)) + 0.5),
                tags: (0..<below(4)).map { _ in text() })
            item.attachments = (0..<below(3)).map { _ in
                Attachment(
                    url: below(4) == 0 ? "" : text(), mimeType: below(2) == 0 ? "" : "audio/mpeg", title: optionalText(),
                    sizeInBytes: below(2) == 0 ? nil : below(1 << 30), durationInSeconds: below(2) == 0 ? nil : below(10_000))
            }
            if below(2) == 0 { item.metrics = ["likes": below(100), "comments": below(10)] }
            if below(2) == 0 { item.extras = ["comments_url": .string(text()), "rank": .int(below(9)), "pinned": .bool(true)] }
            if below(3) == 0 { item.duplicates = [DuplicateReference(source: text(), url: optionalText(), title: optionalText())] }
            if below(2) == 0 { item.score = Double(below(1000)) / 8 }
            return item
        }
    }
}

/// The writer's earlier form, a `JSONValue` of the whole document: the reference the direct
/// bytes are held to.
extension JSONFeedWriter {
    /// The whole document as a JSON value.
    fileprivate func value(feed: FeedInfo, items: [Item]) -> JSONValue {
        var object = JSONObject()
        object["version"] = .string(Self.versionURL)
        object["title"] = .string(feed.title ?? "")
        set(&object, "home_page_url", feed.homePageURL)
        set(&object, "feed_url", feed.feedURL)
        set(&object, "description", feed.description)
        set(&object, "icon", feed.icon)
        set(&object, "favicon", feed.favicon)
        set(&object, "language", feed.language)
        // JSON Feed: an author object needs at least one of name, url and avatar.
        let people = feed.authors.filter { !$0.isEmpty }
        if !people.isEmpty { object["authors"] = authors(people) }
        object["items"] = .array(items.map(item))
        return .object(object)
    }

    fileprivate func item(_ item: Item) -> JSONValue {
        var object = JSONObject()
        object["id"] = .string(item.id)
        set(&object, "url", item.url)
        set(&object, "title", item.title)
        if let html = item.contentHTML, !html.isEmpty {
            object["content_html"] = .string(html)
        } else {
            // JSON Feed requires content_html or content_text.
            object["content_text"] = .string(item.summary ?? item.title ?? "")
        }
        set(&object, "summary", item.summary)
        set(&object, "image", item.image)
        if let published = item.published { object["date_published"] = .string(RFC3339.string(from: published)) }
        if let updated = item.updated { object["date_modified"] = .string(RFC3339.string(from: updated)) }
        let people = item.authors.filter { !$0.isEmpty }
        if !people.isEmpty { object["authors"] = authors(people) }
        if !item.tags.isEmpty { object["tags"] = .array(item.tags.map(JSONValue.string)) }
        // JSON Feed: an attachment's url is required.
        let files = item.attachments.filter { !$0.url.isEmpty }
        if !files.isEmpty { object["attachments"] = .array(files.map(attachment)) }
        if includeExtensions { object["_tributary"] = extensionObject(item) }
        return .object(object)
    }

    fileprivate func authors(_ authors: [Author]) -> JSONValue {
        .array(
            authors.map { author in
                var object = JSONObject()
                set(&object, "name", author.name)
                set(&object, "url", author.url)
                set(&object, "avatar", author.avatar)
                return .object(object)
            })
    }
}
