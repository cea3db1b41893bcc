import Foundation
import Testing
import TributaryModel
import TributarySyndication

@testable import TributaryCore

/// Output options — per-output rules, `limit`, `title`, `url`, `content` — and every file sink
/// read back through the project's own parser.
@Suite("Output renderer")
struct OutputRendererTests {
    static let items: [Item] = [
        Item(
            id: "https://a.example/swift-6", source: "blog", url: "https://a.example/swift-6", title: "Swift 6 is out",
            summary: "Strict concurrency by default.", contentHTML: "<p>Strict <b>concurrency</b> by default.</p>",
            authors: [Author(name: "Ann")], published: at(-3600), tags: ["swift"]),
        Item(
            id: "n-1", source: "news", url: "https://news.example/1", title: "今日头条：新闻", contentHTML: "<p>只有正文，没有摘要。</p>",
            published: at(-7200), tags: ["中文"]),
        Item(
            id: "https://a.example/linux", source: "blog", url: "https://a.example/linux", title: "Linux 6.20", summary: "A kernel.",
            published: at(-86_400 - 60), tags: ["linux", "swift"],
            attachments: [Attachment(url: "https://a.example/talk.mp3", mimeType: "audio/mpeg", sizeInBytes: 10)]),
        Item(id: "n-2", source: "news", url: "https://news.example/2", title: "Ads everywhere", summary: "推广", published: at(-90_000)),
    ]

    static let config = """
        title: Test river
        link: https://example.org/
        sources:
          - {name: blog, adapter: static, count: 1}
        outputs:
          - type: atom
            path: out/swift.atom
            url: https://example.org/swift.atom
            title: Swift only
            rules: {keep: [{tags: {in: [swift]}}]}
          - type: rss
            path: out/river.rss
            url: https://example.org/river.rss
            content: summary
            limit: 3
          - type: jsonfeed
            path: out/no-news.json
            rules:
              block: [{source: {equals: news}}]
          - type: html
            path: out/index.html
            url: https://example.org/
          - type: stdout
            limit: 1
            rules: {block: [{title: {contains: swift}}]}
        """

    static func renderer() throws -> (OutputRenderer, [OutputConfig]) {
        let configuration = try load(config)
        return (OutputRenderer(configuration: configuration, sourceInfo: [:], now: fixedNow), configuration.outputs)
    }

    static func parse(_ text: String) throws -> ParsedFeed {
        try FeedParser(FeedParser.Options(source: "reread", now: fixedNow)).parse(Array(text.utf8))
    }

    @Test func theOptionsAreRead() throws {
        let (_, outputs) = try Self.renderer()
        #expect(outputs.map(\.kind) == [.atom, .rss, .jsonfeed, .html, .stdout])
        // A page shows summaries unless told otherwise.
        #expect(outputs.map(\.content) == [.full, .summary, .full, .summary, .full])
        #expect(outputs.map(\.limit) == [nil, 3, nil, nil, 1])
        #expect(outputs.map { $0.rules.keep.count + $0.rules.block.count } == [1, 0, 1, 0, 1])
        #expect(outputs[0].rules.keep.first?.location == "feeds.yaml:10:20")
    }

    @Test func perOutputRulesPickTheItemsBeforeTheLimit() throws {
        let (renderer, outputs) = try Self.renderer()
        let picked = outputs.map { renderer.items(for: $0, from: Self.items).map(\.id) }
        #expect(
            picked == [
                ["https://a.example/swift-6", "https://a.example/linux"],
                ["https://a.example/swift-6", "n-1", "https://a.example/linux"],
                ["https://a.example/swift-6", "https://a.example/linux"],
                Self.items.map(\.id),
                ["n-1"],
            ])
        #expect(renderer.render(outputs[4], items: Self.items).hasPrefix("1. 今日头条：新闻\n"))
    }

    @Test func theAtomOutputRoundTripsWithItsTitleSelfLinkAndRules() throws {
        let (renderer, outputs) = try Self.renderer()
        let feed = try Self.parse(renderer.render(outputs[0], items: Self.items))
        #expect(feed.format == .atom)
        #expect(feed.problems.isEmpty, "\(feed.problems)")
        #expect(feed.info.title == "Swift only")
        #expect(feed.info.feedURL == "https://example.org/swift.atom")
        #expect(feed.items.map(\.id) == ["https://a.example/swift-6", "https://a.example/linux"])
        #expect(feed.items.map(\.contentHTML) == ["<p>Strict <b>concurrency</b> by default.</p>", "<p>A kernel.</p>"])
        #expect(feed.items.map(\.tags) == [["swift"], ["linux", "swift"]])
    }

    @Test func theRSSOutputInSummaryModeCarriesNoContent() throws {
        let (renderer, outputs) = try Self.renderer()
        let text = renderer.render(outputs[1], items: Self.items)
        #expect(!text.contains("content:encoded") && !text.contains("<b>"))
        let feed = try Self.parse(text)
        #expect(feed.format == .rss)
        #expect(feed.problems.isEmpty, "\(feed.problems)")
        #expect(feed.info.title == "Test river")
        #expect(feed.info.homePageURL == "https://example.org/")
        #expect(feed.info.feedURL == "https://example.org/river.rss")
        #expect(feed.items.map(\.title) == ["Swift 6 is out", "今日头条：新闻", "Linux 6.20"])
        // A summary is made from the content when the source gave none.
        #expect(feed.items.map(\.summary) == ["Strict concurrency by default.", "只有正文，没有摘要。", "A kernel."])
        #expect(feed.items.map(\.published) == Self.items.prefix(3).map(\.published))
        #expect(feed.items[2].attachments == [Attachment(url: "https://a.example/talk.mp3", mimeType: "audio/mpeg", sizeInBytes: 10)])
        #expect(feed.items[0].authors == [Author(name: "Ann")])
    }

    @Test func theJSONFeedOutputRoundTrips() throws {
        let (renderer, outputs) = try Self.renderer()
        let feed = try Self.parse(renderer.render(outputs[2], items: Self.items))
        #expect(feed.format == .jsonFeed)
        #expect(feed.items.map(\.id) == ["https://a.example/swift-6", "https://a.example/linux"])
        #expect(feed.items[0].contentHTML == Self.items[0].contentHTML)
    }

    @Test func summaryModeInJSONFeedWritesTextOnly() throws {
        var (renderer, outputs) = try Self.renderer()
        outputs[2].content = .summary
        renderer.now = fixedNow
        let text = renderer.render(outputs[2], items: Self.items)
        #expect(!text.contains("content_html"))
        #expect(try Self.parse(text).items.map(\.summary) == ["Strict concurrency by default.", "A kernel."])
    }
}
