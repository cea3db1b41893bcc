import Foundation
import Testing
import TributaryModel

@testable import TributaryCore

/// The pipeline's fast paths (byte-level link parsing, plain titles left alone, byte search in rules) give what the
/// general paths give.
@Suite("Pipeline fast paths")
struct PipelineFastPathTests {
    @Test(
        "canonical keys read by bytes equal those URLComponents gives",
        arguments: [
            "https://Example.ORG:443/a/?utm_source=x&b=2&a=1#frag", "http://example.org/a?fbclid=1&gclid=2&spm=3&from=4&share_token=5",
            "https://example.org/a?from=timeline&b=1", "https://example.org/a?FROM=Feed", "https://example.org/a?=from=rss&c",
            "https://www.example.org/a", "https://example.org:8443/a", "HTTP://WWW.Example.org:80/", "https://example.org",
            "https://example.org?b=2&a=1", "https://example.org/a//?a=1&&b&=x&c==d", "https://example.org/%E6%96%B0?q=%41&%75tm_source=1",
            "https://example.org/a?page=2&utm_medium=feed#x", "https://example.org/path;params/(x)!$'*+,:=?a=b/c?d",
            "https://www.sina.example/news/2026/10/12-345.html?utm_source=rss&spm=a2c4g.1", "https://example.org:/a",
            "https://example.org:99999/a", "https://user@example.org/a", "https://[::1]/a", "https://xn--fiqs8s.example/a",
            "https://example.org/a b", "https://example.org/a%zz", "https://example.org/a#b#c", "https://exa_mple.org/a",
            "ftp://example.org/a", "https://", "http:/example.org", " https://example.org/a ", "https://example.org/新闻",
        ])
    func canonicalKeys(_ url: String) {
        let canonical = CanonicalURL(extra: ["share_id"])
        #expect(canonical.key(for: url) == canonical.foundationKey(for: url))
    }

    @Test(
        "cleaning a link by bytes keeps everything but trackers, as written",
        arguments: [
            ("https://example.org/a?utm_medium=feed&id=3#top", "https://example.org/a?id=3#top"),
            ("https://example.org/a?id=3", "https://example.org/a?id=3"),
            ("https://example.org/a?=utm_source&x=1", "https://example.org/a?x=1"),
            ("https://example.org/a?%75tm_source=1&b", "https://example.org/a?b"),
            ("https://example.org/a?a=1&&spm=2", "https://example.org/a?a=1"),
            ("https://example.org/a?from=weixin&from=3", "https://example.org/a?from=3"),
            ("https://example.org/a?=from=rss&c", "https://example.org/a?c"),
            ("https://例子.example/a?utm_source=1&b=2", "https://例子.example/a?b=2"),
        ])
    func cleanLinks(_ url: String, _ clean: String) {
        #expect(CanonicalURL().clean(url) == clean)
    }

    @Test(
        "plain lines: what is already plain is left alone, the rest goes the general way",
        arguments: [
            ("Apple unveils new iPhone", "Apple unveils new iPhone"), ("  Apple  unveils\n", "Apple unveils"),
            ("  苹果发布新款手机 ", "苹果发布新款手机"), ("苹果 发布", "苹果 发布"), ("\u{3000}标题\u{3000}", "标题"),
            ("a\u{00A0}b", "a b"), ("a\tb", "a b"), (" \u{301}abc", "abc"), ("Tom &amp; Jerry", "Tom & Jerry"),
            ("<b>bold</b> move", "bold move"), ("", ""), ("   ", ""), ("é ", "é"), ("x \u{301}y", "x y"),
            // C1 controls and the noncharacters U+FFFE and U+FFFF go, wherever they fall in the words read at once.
            ("t\u{0080}ag", "tag"), ("It\u{0092}s", "Its"), ("N\u{FFFE}ame", "Name"), ("abcdefg\u{FFFF}", "abcdefg"),
            ("abcdef\u{FFFE}", "abcdef"), ("abcdefghijklmno\u{FFFF}xyz", "abcdefghijklmnoxyz"),
            ("0123456789abcdefghijklmn\u{FFFE}", "0123456789abcdefghijklmn"), ("售价￥100，限时｡", "售价￥100，限时｡"),
        ])
    func plainLines(_ text: String, _ expected: String) {
        #expect(Normalizer.plainLine(text) == expected)
    }

    @Test("byte search")
    func byteSearch() {
        #expect(ByteSearch.contains("sponsored post", "post"))
        #expect(ByteSearch.contains("【推广】新品", "推广"))
        #expect(!ByteSearch.contains("推", "推广"))
        #expect(ByteSearch.contains("anything", ""))
        #expect(ByteSearch.isBytewiseSearchable("ASCII, 中文，【标点】"))
        #expect(!ByteSearch.isBytewiseSearchable("café"))
        #expect(!ByteSearch.isBytewiseSearchable("が"))
    }

    @Test(
        "`contains` rules match case-insensitively in Chinese, English and decomposed text alike",
        arguments: [
            ("【推广】新品发布", "推广", true), ("Swift 6.3 Released", "swift", true), ("Café opens", "café", true),
            ("Cafe\u{301} opens", "café", true), ("Café opens", "cafe\u{301}", true), ("Cafe opens", "café", false),
            ("新品发布", "推广", false),
        ])
    func containsRules(_ title: String, _ needle: String, _ matches: Bool) {
        let rules = RuleSet(block: [Rule(location: "feeds.yaml:1:1", condition: .text(.title, .contains([needle.lowercased()])))])
        let verdict = rules.verdict(on: Item(id: "1", source: "s", title: title), now: Date())
        if case .blocked = verdict {
            #expect(matches)
        } else {
            #expect(!matches)
        }
    }

    @Test("a run reports the time of each stage, in pipeline order")
    func stageTimings() {
        let pipeline = Pipeline(dedup: DedupConfig(), ranking: RankingConfig(), now: fixedNow)
        let items = (0..<50).map { Item(id: "\($0)", source: "s", url: "https://example.org/\($0 % 40)", title: "Headline \($0)") }
        let result = pipeline.run([Pipeline.Batch(source: source("s"), items: items)])
        let timings = result.timings
        #expect(timings.stages.map(\.name) == ["normalize", "rules", "same_url", "near_duplicates", "rank"])
        #expect(timings.stages.allSatisfy { $0.duration >= .zero })
        #expect(timings.total == timings.stages.reduce(Duration.zero) { $0 + $1.duration })
        #expect(result.items.count == 40)
    }
}
