import Foundation
import Testing
import TributaryModel

@testable import TributaryCore

@Suite("Canonical URLs")
struct CanonicalURLTests {
    @Test(arguments: [
        ("https://Example.ORG:443/a/?utm_source=x&b=2&a=1#frag", "//example.org/a?a=1&b=2"),
        ("http://example.org/a?fbclid=1&gclid=2&spm=3&from=timeline&share_token=5", "//example.org/a"),
        ("https://example.org/search?from=20&q=x", "//example.org/search?from=20&q=x"),
        ("https://www.example.org/a", "//example.org/a"),
        ("https://example.org:8443/a", "//example.org:8443/a"),
        ("https://xn--fiqs8s.example/新闻", "//中国.example/%E6%96%B0%E9%97%BB"),
        ("https://中国.example/%E6%96%B0%E9%97%BB", "//中国.example/%E6%96%B0%E9%97%BB"),
    ])
    func keys(_ url: String, _ key: String) {
        #expect(CanonicalURL().key(for: url) == key)
    }

    @Test func notHTTPHasNoKey() {
        #expect(CanonicalURL().key(for: "mailto:a@b.c") == nil)
        #expect(CanonicalURL().key(for: "not a url") == nil)
    }

    @Test(arguments: [
        ("https://example.org/a?utm_medium=feed&id=3#top", "https://example.org/a?id=3#top"),
        ("https://example.org/a?utm_source=x", "https://example.org/a"),
        ("https://example.org/a?ref=keep", "https://example.org/a?ref=keep"),
        ("https://example.org/a?mine=1&x=2", "https://example.org/a?x=2"),
        // `from` names where a link was shared, or is a real parameter.
        (
            "https://mp.weixin.example/s?__biz=M&mid=2&from=singlemessage&isappinstalled=0",
            "https://mp.weixin.example/s?__biz=M&mid=2&isappinstalled=0"
        ),
        ("https://news.example/a.html?from=RSS", "https://news.example/a.html"),
        ("https://dict.example/translate?from=en&to=zh", "https://dict.example/translate?from=en&to=zh"),
        ("https://example.org/list?from=20", "https://example.org/list?from=20"),
        ("https://例子.example/a?from=timeline&b=2", "https://例子.example/a?b=2"),
        ("https://例子.example/a?from=2024-01-01", "https://例子.example/a?from=2024-01-01"),
    ])
    func cleanLinksLoseOnlyTrackers(_ url: String, _ clean: String) {
        #expect(CanonicalURL(extra: ["mine"]).clean(url) == clean)
    }

    @Test func punycode() {
        #expect(IDNA.punycodeDecode("fiqs8s") == "中国")
        #expect(IDNA.punycodeDecode("bcher-kva") == "bücher")
        #expect(IDNA.punycodeDecode("!!") == nil)
    }
}

@Suite("Normalizer")
struct NormalizerTests {
    static let now = Date(timeIntervalSince1970: 1_750_000_000)

    @Test func textLinksAndDates() {
        let item = Item(
            id: "1", source: "s", url: " https://example.org/a?utm_source=rss ", title: "  A <b>bold</b>\n  title &amp; more ",
            summary: "\n", authors: [Author(name: " <i>Mei</i> "), Author(name: "  ")], tags: ["Swift", "swift", " ", "中文"])
        let (items, problems) = Normalizer(now: Self.now).normalize([item])
        #expect(
            items == [
                Item(
                    id: "1", source: "s", url: "https://example.org/a", title: "A bold title & more", authors: [Author(name: "Mei")],
                    published: Self.now, tags: ["Swift", "中文"])
            ])
        #expect(problems.isEmpty)
    }

    @Test("plain text keeps its < and &: only whitespace is collapsed")
    func plainTextIsNotReadAsMarkup() {
        let item = Item(
            id: "1", source: "s", title: " Vec<T> and\n Option<Box<T>> in Rust ", summary: "How to use List<T> when a < b",
            authors: [Author(name: "<Anonymous>")], tags: ["<html>", "R&amp;D"])
        let (plain, _) = Normalizer(now: Self.now).normalize([item], text: .plain)
        #expect(plain.first?.title == "Vec<T> and Option<Box<T>> in Rust")
        #expect(plain.first?.summary == "How to use List<T> when a < b")
        #expect(plain.first?.authors == [Author(name: "<Anonymous>")])
        #expect(plain.first?.tags == ["<html>", "R&amp;D"])
        // The same text from an adapter whose text may hold markup is cleaned as HTML, as before.
        let (markup, _) = Normalizer(now: Self.now).normalize([item], text: .markup)
        #expect(markup.first?.title == "Vec and Option> in Rust")
        #expect(markup.first?.tags == ["R&D"])
    }

    /// XML cannot carry them, so the Atom and RSS outputs left them out while the JSON Feed kept them (a NUL ends a
    /// string in C): one line of text has none.
    @Test("control characters and U+FFFE/U+FFFF are left out of titles, summaries, author names and tags", arguments: [true, false])
    func controlCharactersAreLeftOut(plain: Bool) {
        let item = Item(
            id: "1", source: "s", title: "nul \u{0} end\u{7}", summary: "a\u{1F}b \u{FFFE}c\u{FFFF} \u{85}d\u{9F}",
            authors: [Author(name: "A\u{7}uthor")], tags: ["t\u{0}ag", "\u{1}", "x"])
        let (items, _) = Normalizer(now: Self.now).normalize([item], text: plain ? .plain : .markup)
        #expect(items.first?.title == "nul end")
        #expect(items.first?.summary == "ab c d")
        #expect(items.first?.authors == [Author(name: "Author")])
        #expect(items.first?.tags == ["tag", "x"])
    }

    @Test func futureDatesAreClampedAndReported() {
        let future = Self.now.addingTimeInterval(86_400)
        let nearFuture = Self.now.addingTimeInterval(120)
        let (items, problems) = Normalizer(now: Self.now).normalize([
            Item(id: "far", source: "s", published: future), Item(id: "near", source: "s", published: nearFuture),
        ])
        #expect(items.map(\.published) == [Self.now, nearFuture])
        #expect(problems.map(\.message) == ["item 'far': date 2025-06-16T15:06:40Z is in the future; using the time of this run"])
    }
}

@Suite("Ranking")
struct RankingTests {
    static let now = Date(timeIntervalSince1970: 1_750_000_000)

    static func item(_ id: String, _ source: String, hoursAgo: Double, comments: Int? = nil) -> Item {
        Item(id: id, source: source, published: now.addingTimeInterval(-hoursAgo * 3600), metrics: comments.map { ["comments": $0] } ?? [:])
    }

    @Test func hotNormalizesEngagementWithinEachSource() {
        var configuration = RankingConfig()
        configuration.strategy = .hot
        // "big" counts a hundred times more comments than "small", but each source's best item
        // ranks alike; age then decides.
        let items = [
            Self.item("big-top", "big", hoursAgo: 2, comments: 10_000), Self.item("big-low", "big", hoursAgo: 1, comments: 10),
            Self.item("small-top", "small", hoursAgo: 1, comments: 100), Self.item("small-low", "small", hoursAgo: 1, comments: 1),
        ]
        let ranked = Ranker(configuration, now: Self.now).rank(items)
        #expect(ranked.map(\.id) == ["small-top", "big-top", "big-low", "small-low"])
        #expect(ranked.allSatisfy { $0.score != nil })
    }

    @Test func weightAndHalfLife() {
        var configuration = RankingConfig()
        configuration.strategy = .hot
        configuration.halfLife = .seconds(3600)
        let ranker = Ranker(configuration, now: Self.now)
        #expect(ranker.score(Self.item("a", "s", hoursAgo: 1), engagement: 0, weight: 1) == 0.25)
        #expect(ranker.score(Self.item("a", "s", hoursAgo: 0), engagement: 1, weight: 2) == 3)
    }

    @Test func diversityCapsAndInterleaves() {
        var configuration = RankingConfig()
        configuration.maxConsecutive = 2
        let items =
            (0..<5).map { Self.item("a\($0)", "a", hoursAgo: Double($0)) } + [
                Self.item("b0", "b", hoursAgo: 10), Self.item("b1", "b", hoursAgo: 11),
            ]
        #expect(Ranker(configuration, now: Self.now).rank(items).map(\.id) == ["a0", "a1", "b0", "a2", "a3", "b1", "a4"])
        configuration.maxConsecutive = nil
        configuration.maxPerSource = 2
        #expect(Ranker(configuration, now: Self.now).rank(items).map(\.id) == ["a0", "a1", "b0", "b1"])
        // Both limits: the cap first, then the interleaving of what is left.
        configuration.maxConsecutive = 1
        #expect(Ranker(configuration, now: Self.now).rank(items).map(\.id) == ["a0", "b0", "a1", "b1"])
        configuration.maxPerSource = 3
        #expect(Ranker(configuration, now: Self.now).rank(items).map(\.id) == ["a0", "b0", "a1", "b1", "a2"])
    }
}
