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
