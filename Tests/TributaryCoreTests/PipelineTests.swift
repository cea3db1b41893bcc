import Foundation
import TestSupport
import Testing
import TributaryModel

@testable import TributaryCore

@Suite("Pipeline")
struct PipelineTests {
    static let pipeline = Pipeline(dedup: DedupConfig(), ranking: RankingConfig(), now: fixedNow)

    // MARK: Preparing one source

    @Test("items are relabelled with the source, repeated ids dropped, max_items applied after dropping")
    func prepare() {
        let batch = Pipeline.Batch(
            source: source("news", maxItems: 3),
            items: [
                Item(id: "1", source: "adapter", title: "one"),
                Item(id: "1", source: "adapter", title: "one again"),
                Item(id: "2", source: "adapter", title: "two"),
                Item(id: "2", source: "adapter", title: "two again"),
                Item(id: "3", source: "adapter", title: "three"),
                Item(id: "4", source: "adapter", title: "four"),
            ])
        #expect(
            Self.pipeline.prepare(batch) == [
                Item(id: "1", source: "news", title: "one"),
                Item(id: "2", source: "news", title: "two"),
                Item(id: "3", source: "news", title: "three"),
            ])
    }

    @Test("links that are not web links are removed from every adapter's items: url, image, enclosures, author links")
    func prepareRemovesNonWebLinks() {
        let batch = Pipeline.Batch(
            source: source("news"),
            items: [
                Item(
                    id: "1", source: "adapter", url: "javascript:alert(document.cookie)", image: "data:image/png;base64,AAAA",
                    authors: [Author(name: "Ann", url: "vbscript:x", avatar: "javascript:1"), Author(url: "JAVASCRIPT:2")],
                    attachments: [
                        Attachment(url: "javascript:alert(2)", mimeType: "image/png"), Attachment(url: "magnet:?xt=urn:btih:abc"),
                        Attachment(url: "file:///etc/passwd"), Attachment(url: " https://a.example/1.mp3 ", mimeType: "audio/mpeg"),
                    ]),
                Item(
                    id: "2", source: "adapter", url: "/relative/2", image: "https://a.example/2.png",
                    authors: [Author(name: "Bo", url: "mailto:bo@example.org")]),
                Item(id: "3", source: "adapter", url: "https://a.example/3", image: "http://"),
            ])
        #expect(
            Self.pipeline.prepare(batch) == [
                Item(
                    id: "1", source: "news", authors: [Author(name: "Ann")],
                    attachments: [
                        Attachment(url: "magnet:?xt=urn:btih:abc"), Attachment(url: "https://a.example/1.mp3", mimeType: "audio/mpeg"),
                    ]),
                Item(
                    id: "2", source: "news", image: "https://a.example/2.png", authors: [Author(name: "Bo", url: "mailto:bo@example.org")]),
                Item(id: "3", source: "news", url: "https://a.example/3"),
            ])
        // The run says so, once for the source.
        let result = Self.pipeline.run([batch])
        #expect(
            result.problems["news"]?.map(\.description) == [
                "warning: 9 links were left out: not web links (scripts, data, local files, or relative links with nothing to resolve them against)"
            ])
    }

    @Test("without max_items every distinct item is kept, in the source's order")
    func prepareWithoutLimit() {
        let items = (1...60).map { Item(id: "\($0 % 50)", source: "news") }
        #expect(Self.pipeline.prepare(Pipeline.Batch(source: source("news"), items: items)).map(\.id) == (1...50).map { "\($0 % 50)" })
    }

    @Test(
        "source tags are appended once, after the item's own",
        arguments: [
            ([], ["team", "zh"], ["team", "zh"]),
            (["swift"], ["team"], ["swift", "team"]),
            (["team", "swift"], ["team", "zh"], ["team", "swift", "zh"]),
            (["a"], ["b", "b", "a"], ["a", "b"]),
            (["a"], [], ["a"]),
        ] as [([String], [String], [String])])
    func tags(_ own: [String], _ sourceTags: [String], _ expected: [String]) {
        let batch = Pipeline.Batch(source: source("s", tags: sourceTags), items: [Item(id: "1", source: "s", tags: own)])
        #expect(Self.pipeline.prepare(batch).map(\.tags) == [expected])
    }

    // MARK: Sources side by side

    @Test("sources that go through their stages side by side make the same river, drops and problems as one by one")
    func sideBySide() throws {
        var yaml = "sources:\n"
        for index in 0..<12 {
            yaml += "  - {name: s\(index), adapter: static, count: 1"
            yaml += index % 4 == 1 ? ", rules: {block: [{name: no-sevens, title: {contains: \"7 \"}}]}}\n" : "}\n"
        }
        // A regular expression too: the threads share its compiled form.
        yaml += "rules: {block: [{title: {contains: 推广}}, {title: {matches: \"(?i)test flight 1[0-9]$\"}}]}\n"
        let configuration = try load(yaml)
        let stories = [
            "苹果发布iPhone 16，售价5999元", "Apple unveils the iPhone 16", "Linux 6.10 released", "Fed holds rates at 5.25%",
            "小米汽车 SU7 交付 10000 台", "SpaceX launches Starship on its fifth test flight",
        ]
        // Source sizes from 0 to 900 items: repeated ids, the same links and headlines across sources, future dates
        // (a problem each), undated items and items the rules drop.
        let batches = configuration.sources.enumerated().map { number, source in
            Pipeline.Batch(
                source: source,
                items: (0..<(number * 83 % 901)).map { index in
                    let story = stories[(index + number) % stories.count]
                    return Item(
                        id: "\(source.name)-\(index % 500)", source: "adapter",
                        url: "https://example.org/\(index % 300)?utm_source=\(source.name)",
                        title: index % 9 == 0 ? "【独家】\(story)" : index % 13 == 0 ? "推广 \(story)" : "\(story) \(index % 40) ",
                        published: index % 11 == 0 ? nil : at(Double(index * 60 - (index % 17 == 0 ? -90_000 : 9_000))))
                })
        }
        #expect(batches.reduce(0) { $0 + $1.items.count } >= Pipeline.sideBySideMinimum)
        var pipeline = Pipeline(configuration, now: fixedNow)
        let oneByOne = pipeline.run(batches)
        pipeline.workers = 3
        let sideBySide = pipeline.run(batches)
        #expect(oneByOne.timings.threads == 1 && sideBySide.timings.threads == 3)
        #expect(sideBySide.items == oneByOne.items)
        #expect(sideBySide.items.count > 100 && sideBySide.items.contains { !$0.duplicates.isEmpty })
        #expect(
            sideBySide.dropped.map { "\($0.source) \($0.id) \($0.reason)" } == oneByOne.dropped.map { "\($0.source) \($0.id) \($0.reason)" }
        )
        #expect(
            oneByOne.dropped.contains { $0.reason.contains("no-sevens") } && oneByOne.dropped.contains { $0.title?.hasPrefix("推广") == true }
        )
        #expect(oneByOne.dropped.contains { $0.title?.hasSuffix("test flight 12") == true })
        #expect(sideBySide.problems == oneByOne.problems && !oneByOne.problems.isEmpty)
    }

    // MARK: Normalizing by the adapter's text

    @Test("an adapter whose text is plain keeps its < and &; one whose text may hold markup has it cleaned")
    func plainTextByAdapter() {
        let plain = SourceConfig(
            name: "feed", adapter: PlainTextAdapter(), options: AdapterOptions(file: "feeds.yaml", sourceName: "feed", values: [:]))
        let river = Self.pipeline.process([
            Pipeline.Batch(
                source: plain,
                items: [
                    Item(
                        id: "1", source: "feed", title: "Vec<T> and Option<Box<T>> in Rust", summary: "R&amp;D when a < b",
                        authors: [Author(name: "<Anonymous>")], published: at(-60), tags: ["<html>"])
                ]),
            Pipeline.Batch(
                source: source("app"),
                items: [Item(id: "2", source: "app", title: "Tom &amp; <em>Jerry</em>", published: at(-120), tags: ["<b>zh</b>"])]),
        ])
        #expect(river.map(\.title) == ["Vec<T> and Option<Box<T>> in Rust", "Tom & Jerry"])
        #expect(river.map(\.summary) == ["R&amp;D when a < b", nil])
        #expect(river.map(\.authors) == [[Author(name: "<Anonymous>")], []])
        #expect(river.map(\.tags) == [["<html>"], ["zh"]])
    }

    // MARK: Merging the same link

    @Test(
        "links that are the same after normalization are merged",
        arguments: [
            ("http://example.org/a", "https://example.org/a", true),
            ("https://EXAMPLE.org/a", "https://example.org/a", true),
            ("HTTPS://example.org/a", "https://example.org/a", true),
            ("https://example.org:443/a", "https://example.org/a", true),
            ("http://example.org:80/a", "https://example.org/a", true),
            ("https://example.org/a#comments", "https://example.org/a", true),
            ("https://example.org/a/", "https://example.org/a", true),
            ("https://example.org/", "https://example.org", true),
            ("https://example.org/a?page=1#top", "http://example.org/a?page=1", true),
            ("https://example.org/a?page=2", "https://example.org/a?page=1", false),
            ("https://example.org/a?page=1", "https://example.org/a", false),
            ("https://example.org/A", "https://example.org/a", false),
            ("https://example.org:8443/a", "https://example.org/a", false),
            ("https://example.org:80/a", "https://example.org/a", false),
            ("https://www.example.org/a", "https://example.org/a", true),  // www. is the same site
            ("https://blog.example.org/a", "https://example.org/a", false),
            ("/a", "/a", false),  // no host: never merged
        ])
    func sameURL(_ first: String, _ second: String, _ merged: Bool) {
        let river = Self.pipeline.process([
            Pipeline.Batch(source: source("one"), items: [Item(id: "1", source: "one", url: first, title: "A", published: at(-60))]),
            Pipeline.Batch(source: source("two"), items: [Item(id: "2", source: "two", url: second, title: "A", published: at(-120))]),
        ])
        if merged {
            #expect(
                river == [
                    Item(
                        id: "2", source: "two", url: second, title: "A", published: at(-120),
                        duplicates: [DuplicateReference(source: "one", url: first, title: "A")])
                ])
        } else {
            #expect(river.map(\.id) == ["1", "2"])
            #expect(river.map(\.duplicates) == [[], []])
        }
    }

    struct SurvivorCase: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var weights: (one: Double, two: Double)
        var one: Item
        var two: Item
        var survivor: String
    }

    static let survivorCases: [SurvivorCase] = [
        SurvivorCase(
            testDescription: "the heavier source wins even when later", weights: (1, 2),
            one: Item(id: "1", source: "one", url: "https://x.org/a", contentHTML: "<p>long content</p>", published: at(-3600)),
            two: Item(id: "2", source: "two", url: "https://x.org/a", published: at(-60)), survivor: "2"),
        SurvivorCase(
            testDescription: "equal weights: the earliest published wins", weights: (1, 1),
            one: Item(id: "1", source: "one", url: "https://x.org/a", contentHTML: "<p>long content</p>", published: at(-60)),
            two: Item(id: "2", source: "two", url: "https://x.org/a", published: at(-3600)), survivor: "2"),
        SurvivorCase(
            testDescription: "the updated date counts when there is no published date", weights: (1, 1),
            one: Item(id: "1", source: "one", url: "https://x.org/a", published: at(-60)),
            two: Item(id: "2", source: "two", url: "https://x.org/a", updated: at(-3600)), survivor: "2"),
        SurvivorCase(
            testDescription: "a dated item wins over an undated one", weights: (1, 1),
            one: Item(id: "1", source: "one", url: "https://x.org/a", summary: "a long summary"),
            two: Item(id: "2", source: "two", url: "https://x.org/a", published: at(-60)), survivor: "2"),
        SurvivorCase(
            testDescription: "same weight and date: the richest content wins", weights: (1, 1),
            one: Item(id: "1", source: "one", url: "https://x.org/a", summary: "short", published: at(-60)),
            two: Item(id: "2", source: "two", url: "https://x.org/a", summary: "short", contentHTML: "<p>more</p>", published: at(-60)),
            survivor: "2"),
        SurvivorCase(
            testDescription: "a complete tie: the first in configuration order wins", weights: (1, 1),
            one: Item(id: "1", source: "one", url: "https://x.org/a", summary: "same", published: at(-60)),
            two: Item(id: "2", source: "two", url: "https://x.org/a", summary: "same", published: at(-60)), survivor: "1"),
    ]

    @Test("the survivor of a merge", arguments: survivorCases)
    func survivor(_ testCase: SurvivorCase) throws {
        let river = Self.pipeline.process([
            Pipeline.Batch(source: source("one", weight: testCase.weights.one), items: [testCase.one]),
            Pipeline.Batch(source: source("two", weight: testCase.weights.two), items: [testCase.two]),
        ])
        let (winner, loser) = testCase.survivor == "1" ? (testCase.one, testCase.two) : (testCase.two, testCase.one)
        var expected = winner
        expected.duplicates = [DuplicateReference(source: loser.source, url: loser.url, title: loser.title)]
        #expect(river == [expected])
    }

    @Test("a merge of three lists every other item on the survivor, best first, with the duplicates they carried")
    func threeWayMerge() {
        let carried = DuplicateReference(source: "elsewhere", url: "https://mirror.org/a", title: "A (mirror)")
        let river = Self.pipeline.process([
            Pipeline.Batch(
                source: source("one"),
                items: [
                    Item(id: "1", source: "one", url: "http://x.org/a/", title: "A one", published: at(-60)),
                    Item(id: "other", source: "one", url: "https://x.org/b", title: "B", published: at(-30)),
                ]),
            Pipeline.Batch(
                source: source("two"),
                items: [Item(id: "2", source: "two", url: "https://x.org/a", title: "A two", published: at(-600), duplicates: [carried])]),
            Pipeline.Batch(
                source: source("three", weight: 3), items: [Item(id: "3", source: "three", url: "https://X.org/a#x", title: "A three")]),
        ])
        #expect(
            river == [
                Item(
                    id: "3", source: "three", url: "https://X.org/a#x", title: "A three", published: fixedNow,  // first seen now
                    duplicates: [
                        DuplicateReference(source: "two", url: "https://x.org/a", title: "A two"), carried,
                        DuplicateReference(source: "one", url: "http://x.org/a/", title: "A one"),
                    ]),
                Item(id: "other", source: "one", url: "https://x.org/b", title: "B", published: at(-30)),  // undated "3" counts as now
            ])
    }

    @Test("same_url: false keeps every item")
    func mergingOff() {
        var dedup = DedupConfig()
        dedup.sameURL = false
        let pipeline = Pipeline(dedup: dedup, ranking: RankingConfig(), now: fixedNow)
        let river = pipeline.process([
            Pipeline.Batch(source: source("one"), items: [Item(id: "1", source: "one", url: "https://x.org/a", published: at(-60))]),
            Pipeline.Batch(source: source("two"), items: [Item(id: "2", source: "two", url: "https://x.org/a", published: at(-120))]),
        ])
        #expect(
            river == [
                Item(id: "1", source: "one", url: "https://x.org/a", published: at(-60)),
                Item(id: "2", source: "two", url: "https://x.org/a", published: at(-120)),
            ])
    }

    @Test("items of one source with the same link are merged too")
    func mergeWithinSource() {
        let river = Self.pipeline.process([
            Pipeline.Batch(
                source: source("one"),
                items: [
                    Item(id: "1", source: "one", url: "https://x.org/a", title: "first", published: at(-60)),
                    Item(id: "2", source: "one", url: "https://x.org/a/", title: "second", published: at(-120)),
                ])
        ])
        #expect(
            river == [
                Item(
                    id: "2", source: "one", url: "https://x.org/a/", title: "second", published: at(-120),
                    duplicates: [DuplicateReference(source: "one", url: "https://x.org/a", title: "first")])
            ])
    }

    // MARK: Merging near-duplicates

    @Test("two entries of one source are never near-duplicates, even with the same headline; across sources they are")
    func nearDuplicatesAcrossSourcesOnly() {
        let series = [
            Item(id: "1", source: "mfa", url: "https://mfa.example/4", title: "外交部发言人毛宁主持例行记者会", published: at(-300)),
            Item(id: "2", source: "mfa", url: "https://mfa.example/5", title: "外交部发言人毛宁主持例行记者会", published: at(-200)),
            Item(id: "3", source: "mfa", url: "https://mfa.example/6", title: "外交部发言人毛宁主持例行记者会！", published: at(-100)),
            Item(id: "4", source: "mfa", url: "https://hn.example/1", title: "Ask HN: Who is hiring? (March 2024)", published: at(-60)),
            Item(
                id: "5", source: "mfa", url: "https://hn.example/2", title: "Ask HN: Who wants to be hired? (March 2024)",
                published: at(-50)),
        ]
        let alone = Self.pipeline.process([Pipeline.Batch(source: source("mfa"), items: series)])
        #expect(alone.count == 5)
        #expect(alone.allSatisfy { $0.duplicates.isEmpty })

        // Another source's copy of the headline merges with one of them, and only one: no cluster holds two of a source.
        let copy = Item(id: "x", source: "wire", url: "https://wire.example/x", title: "外交部发言人毛宁主持例行记者会", published: at(-400))
        let river = Self.pipeline.process([
            Pipeline.Batch(source: source("mfa"), items: series), Pipeline.Batch(source: source("wire"), items: [copy]),
        ])
        #expect(river.count == 5)
        #expect(river.map(\.duplicates.count).reduce(0, +) == 1)
        #expect(river.first { $0.source == "wire" }?.duplicates.map(\.source) == ["mfa"])
    }

    // MARK: Ranking

    /// Newest first; undated items count as `now`; ties by source, then id.
    static let ranked = [
        Item(id: "future", source: "b", published: at(3600)),
        Item(id: "a-now", source: "a", published: fixedNow),
        Item(id: "a-undated", source: "a"),
        Item(id: "b-undated", source: "b"),
        Item(id: "x", source: "b", updated: at(-60)),  // `updated` when there is no `published`
        Item(id: "y", source: "b", published: at(-60)),
        Item(id: "z", source: "c", published: at(-60), updated: at(7200)),  // `published` wins over `updated`
        Item(id: "old", source: "a", published: at(-86_400)),
    ]

    @Test("newest first, undated as now, ties broken by source then id, whatever the input order")
    func rankIsDeterministic() {
        var generator = SeededGenerator(seed: 42)
        #expect(Ranker(RankingConfig(), now: fixedNow).rank(Self.ranked) == Self.ranked)
        #expect(Ranker(RankingConfig(), now: fixedNow).rank(Self.ranked.reversed()) == Self.ranked)
        for _ in 0..<50 {
            #expect(Ranker(RankingConfig(), now: fixedNow).rank(Self.ranked.shuffled(using: &generator)) == Self.ranked)
        }
    }

    @Test("the whole pipeline gives the same river whatever the order of each source's items")
    func processIsDeterministic() {
        var generator = SeededGenerator(seed: 7)
        let one = (1...6).map { Item(id: "one-\($0)", source: "one", url: "https://x.org/\($0)", published: at(Double(-$0 * 60))) }
        let two = (4...9).map { Item(id: "two-\($0)", source: "two", url: "https://x.org/\($0)", published: at(Double(-$0 * 60) - 1)) }
        let expected = Self.pipeline.process([
            Pipeline.Batch(source: source("one"), items: one), Pipeline.Batch(source: source("two"), items: two),
        ])
        #expect(expected.map(\.id) == ["one-1", "one-2", "one-3", "two-4", "two-5", "two-6", "two-7", "two-8", "two-9"])
        #expect(expected.map(\.duplicates.count) == [0, 0, 0, 1, 1, 1, 0, 0, 0])
        for _ in 0..<20 {
            let river = Self.pipeline.process([
                Pipeline.Batch(source: source("one"), items: one.shuffled(using: &generator)),
                Pipeline.Batch(source: source("two"), items: two.shuffled(using: &generator)),
            ])
            #expect(river == expected)
        }
    }
}

/// An adapter whose items' text is plain, as the feed parser's is; the tests hand it its items.
private struct PlainTextAdapter: SourceAdapter {
    static let kind = "plain"
    static let summary = "Plain-text items, for tests"
    static let options: [AdapterOption] = []
    static let itemText = ItemTextForm.plain

    init() {}
    init(options: AdapterOptions) throws(ConfigError) {}

    func fetch(in context: FetchContext) async throws -> SourceResult { SourceResult(items: []) }
}
