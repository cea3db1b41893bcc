import Foundation
import Testing
import TributaryModel
import TributaryState

@testable import TributaryCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The structure of the HTML page: read back as XML (the page is polyglot markup) and checked
/// element by element.
@Suite("HTML river")
struct HTMLRiverTests {
    static let items: [Item] = [
        Item(
            id: "1", source: "blog", url: "https://a.example/1", title: "Swift 6 & <friends>", summary: "Strict concurrency.",
            image: "https://a.example/1.jpg", authors: [Author(name: "Ann")], published: at(-3600),
            duplicates: [
                DuplicateReference(source: "news", url: "https://news.example/swift", title: "Swift 6 released"),
                DuplicateReference(source: "weird", url: "javascript:alert(1)", title: "Not a link"),
            ]),
        Item(
            id: "2", source: "news", url: "javascript:alert(2)", title: "今日头条：新闻", contentHTML: "<p>只有正文，<script>x</script>没有摘要。</p>",
            image: "data:image/png;base64,AAAA", published: at(-7200)),
        Item(id: "3", source: "blog", url: "https://a.example/3", title: "ひらがなのタイトル", published: at(-86_400 - 60)),
        Item(id: "4", source: "news", url: "https://news.example/4", title: "Yesterday, again", updated: at(-86_400 - 3600)),
        Item(id: "5", source: "blog", summary: String(repeating: "long ", count: 100)),
    ]

    static let reports = [
        SourceReport(name: "blog", adapter: "rss", itemCount: 4, problems: [], failure: nil, duration: .zero),
        SourceReport(
            name: "news", adapter: "jsonfeed", itemCount: 2, problems: [Problem(.warning, "bare '&'", line: 3, column: 9)], failure: nil,
            duration: .zero),
        SourceReport(
            name: "broken", adapter: "rss", itemCount: 0, problems: [], failure: "https://broken.example/feed: HTTP 503", duration: .zero),
    ]

    static func page(
        _ items: [Item] = items, sources: [SourceReport] = reports, zone: String = "UTC", showsContent: Bool = false
    ) throws -> XMLDocument {
        var river = HTMLRiver(
            title: "My <river>", selfURL: "https://example.org/", homePageURL: "https://example.org/home",
            feeds: [
                HTMLRiver.AlternateFeed(
                    title: "My river", url: "https://example.org/river.atom", type: "application/atom+xml", kind: "atom")
            ],
            sources: sources, timeZone: try #require(TimeZone(identifier: zone)), now: fixedNow)
        river.showsContent = showsContent
        return try XMLDocument(data: Data(river.render(items).utf8), options: [.nodePreserveWhitespace])
    }

    static func texts(_ document: XMLDocument, _ xpath: String) throws -> [String] {
        try document.nodes(forXPath: xpath).map { $0.stringValue ?? "" }
    }

    @Test func theHeadMakesAResponsiveSelfContainedPage() throws {
        let page = try Self.page()
        #expect(try Self.texts(page, "/html/@lang") == ["en"])
        #expect(try Self.texts(page, "/html/head/title") == ["My <river>"])
        #expect(try Self.texts(page, "/html/head/meta[@name='viewport']/@content") == ["width=device-width, initial-scale=1"])
        #expect(try Self.texts(page, "/html/head/meta[@name='color-scheme']/@content") == ["light dark"])
        #expect(try Self.texts(page, "/html/head/link[@rel='canonical']/@href") == ["https://example.org/"])
        #expect(try Self.texts(page, "/html/head/link[@rel='alternate']/@type") == ["application/atom+xml"])
        #expect(try page.nodes(forXPath: "//script").isEmpty)
        #expect(try page.nodes(forXPath: "//link[@rel='stylesheet']").isEmpty)
        let css = try #require(try Self.texts(page, "/html/head/style").first)
        #expect(css.contains("@media (prefers-color-scheme: dark)"))
        #expect(css.contains("@media (max-width: 30rem)"))
        #expect(css.contains("\"PingFang SC\"") && css.contains("\"Noto Sans CJK SC\"") && css.contains(":lang(zh)"))
    }

    @Test func theHeaderSaysWhenAndHowEverySourceFared() throws {
        let page = try Self.page()
        #expect(try Self.texts(page, "//header/h1/a/@href") == ["https://example.org/home"])
        #expect(try Self.texts(page, "//header/p[@class='updated']/time/@datetime") == ["2025-06-01T12:00:00Z"])
        #expect(try Self.texts(page, "//header/p[@class='updated']") == ["Updated 2025-06-01 12:00 UTC · 5 items"])
        #expect(try Self.texts(page, "//details[@class='health']/@open") == ["open"])
        #expect(try Self.texts(page, "//details[@class='health']/summary") == ["1 of 3 sources failed"])
        let lines = try Self.texts(page, "//details[@class='health']//li")
        #expect(
            lines == [
                "blog ok 4 items", "news ok 2 items 1 warning", "broken failed https://broken.example/feed: HTTP 503",
            ])
        #expect(try Self.texts(page, "//li[contains(@class,'failed')]/span[@class='name']") == ["broken"])
        let healthy = try Self.page(sources: [Self.reports[0]])
        #expect(try Self.texts(healthy, "//details[@class='health']/summary") == ["All 1 source ok"])
        #expect(try healthy.nodes(forXPath: "//details[@open]").isEmpty)
    }

    @Test func staleAndUnchangedSourcesAreNamedSo() throws {
        var stale = SourceReport(name: "old", adapter: "rss", itemCount: 3, failure: "HTTP 503")
        stale.status = .stale
        var unchanged = SourceReport(name: "same", adapter: "rss", itemCount: 7)
        unchanged.status = .notModified
        var failed = SourceReport(name: "gone", adapter: "rss", failure: "host not found")
        failed.status = .failed
        let page = try Self.page(sources: [stale, unchanged, failed])
        let lines = try Self.texts(page, "//details[@class='health']//li")
        #expect(lines == ["old stale HTTP 503 3 items", "same unchanged 7 items", "gone failed host not found"])
        #expect(try Self.texts(page, "//details[@class='health']//li/@class") == ["source stale", "source ok", "source failed"])
        #expect(try Self.texts(page, "//details[@class='health']/summary") == ["2 of 3 sources failed"])
    }

    @Test func itemsAreGroupedByDayNewestFirst() throws {
        let page = try Self.page()
        #expect(try Self.texts(page, "//main/section/h2") == ["Sunday, 1 June 2025", "Saturday, 31 May 2025", "Undated"])
        #expect(try Self.texts(page, "//main/section/h2/time/@datetime") == ["2025-06-01", "2025-05-31"])
        #expect(try page.nodes(forXPath: "//article[@class='item']").count == 5)
        #expect(try page.nodes(forXPath: "//main/section[1]/article").count == 2)
        let titles = try Self.texts(page, "//article//h3")
        #expect(
            titles == [
                "Swift 6 & <friends>", "今日头条：新闻", "ひらがなのタイトル", "Yesterday, again",
                String(repeating: "long ", count: 16).trimmingCharacters(in: .whitespaces),
            ])
        // In Shanghai, 11:00 and 10:00 UTC on 1 June are both on the evening of 1 June; 31 May 11:59 UTC is 19:59 there.
        let shanghai = try Self.page(zone: "Asia/Shanghai")
        #expect(try Self.texts(shanghai, "//main/section/h2/time/@datetime") == ["2025-06-01", "2025-05-31"])
        #expect(try Self.texts(shanghai, "//main/section[1]//p[@class='meta']/time") == ["19:00", "18:00"])
    }

    /// Days are counted in the proleptic Gregorian calendar the items' RFC 3339 times use (Foundation's
    /// turns Julian before 1582), with four-digit years; instants before year 0001 are on its first day.
    @Test func daysBeforeTheGregorianReformAndYearZeroHaveValidDistinctHeadings() throws {
        let items = [
            Item(id: "1", source: "blog", title: "1500", published: Date(timeIntervalSince1970: -14_826_672_000 + 3600)),
            Item(id: "2", source: "blog", title: "0001", published: Date(timeIntervalSince1970: -62_135_596_800)),
            Item(id: "3", source: "blog", title: "0000", published: Date(timeIntervalSince1970: -62_135_596_800 - 86_400 * 30)),
        ]
        let page = try Self.page(items)
        #expect(try Self.texts(page, "//main/section/h2/time/@datetime") == ["1500-03-01", "0001-01-01"])
        #expect(try Self.texts(page, "//main/section/h2/@id") == ["day-1500-03-01", "day-0001-01-01"])
        #expect(try Self.texts(page, "//main/section/h2") == ["Thursday, 1 March 1500", "Monday, 1 January 1"])
        let times = try Self.texts(page, "//article//time/@datetime")
        #expect(times == ["1500-03-01T01:00:00Z", "0001-01-01T00:00:00Z", "0001-01-01T00:00:00Z"])
    }

    @Test func eachItemHasItsLinkSourceTimeThumbnailSummaryAndDuplicates() throws {
        let page = try Self.page()
        let first = "(//article)[1]"
        #expect(try Self.texts(page, first + "//h3/a/@href") == ["https://a.example/1"])
        #expect(try Self.texts(page, first + "//img/@src") == ["https://a.example/1.jpg"])
        #expect(try Self.texts(page, first + "//img/@alt") == [""])
        #expect(try Self.texts(page, first + "//p[@class='meta']") == ["blog · 11:00 · Ann"])
        #expect(try Self.texts(page, first + "//p[@class='meta']/time/@datetime") == ["2025-06-01T11:00:00Z"])
        #expect(try Self.texts(page, first + "//p[@class='summary']") == ["Strict concurrency."])
        #expect(try Self.texts(page, first + "//ul[@class='duplicates']/li") == ["Also: Swift 6 released news", "Also: Not a link weird"])
        #expect(try Self.texts(page, first + "//ul[@class='duplicates']//a/@href") == ["https://news.example/swift"])
        // No javascript: or data: URL reaches the page; the Chinese item's summary comes from its content.
        let second = "//main/section[1]/article[2]"
        #expect(try page.nodes(forXPath: second + "//a").isEmpty)
        #expect(try page.nodes(forXPath: second + "//img").isEmpty)
        #expect(try Self.texts(page, second + "//p[@class='summary']") == ["只有正文，没有摘要。"])
        #expect(try Self.texts(page, "//article/@lang") == ["zh", "ja"])
        // A long summary is cut.
        let summary = try #require(try Self.texts(page, "//section[@class='day undated']//p[@class='summary']").first)
        #expect(summary.count == HTMLRiver.summaryLimit + 1 && summary.hasSuffix("…"))
    }

    @Test func withFullContentEachItemShowsItsSanitizedContentAsWellFormedMarkup() throws {
        let content = """
            <p class="x" onclick="steal()">One<br>two &amp; <img src="https://a.example/p.png" alt="a > b"><wbr>three</p>\
            <script>alert(1)</script><a href="javascript:alert(2)">link</a><hr><video controls src="https://a.example/v.mp4"></video>
            """
        let items = [
            Item(
                id: "1", source: "blog", url: "https://a.example/1", title: "Full", summary: "The summary.", contentHTML: content,
                published: at(-60)),
            Item(id: "2", source: "blog", url: "https://a.example/2", title: "Summary only", summary: "Just this.", published: at(-120)),
        ]
        // The page must still read as XML: void elements closed, the rest as the sanitizer made it.
        let page = try Self.page(items, showsContent: true)
        let first = "(//article)[1]"
        #expect(try page.nodes(forXPath: first + "//p[@class='summary']").isEmpty)
        #expect(try Self.texts(page, first + "//div[@class='content']/p") == ["Onetwo & three"])
        #expect(try Self.texts(page, first + "//div[@class='content']//img/@src") == ["https://a.example/p.png"])
        #expect(try Self.texts(page, first + "//div[@class='content']//img/@alt") == ["a > b"])
        #expect(try page.nodes(forXPath: first + "//div[@class='content']//br").count == 1)
        #expect(try page.nodes(forXPath: first + "//div[@class='content']//hr").count == 1)
        #expect(try Self.texts(page, first + "//div[@class='content']//video/@src") == ["https://a.example/v.mp4"])
        // Nothing the allow-list refuses reaches the page, whatever adapter made the content.
        #expect(try page.nodes(forXPath: "//div[@class='content']//script").isEmpty)
        #expect(try page.nodes(forXPath: "//div[@class='content']//@onclick").isEmpty)
        #expect(try page.nodes(forXPath: "//div[@class='content']//a[@href]").isEmpty)
        // An item without content keeps its summary.
        #expect(try Self.texts(page, "(//article)[2]//p[@class='summary']") == ["Just this."])
        #expect(try page.nodes(forXPath: "(//article)[2]//div[@class='content']").isEmpty)
    }

    @Test func voidElementsAreClosedAndTheRestIsKept() {
        #expect(HTMLRiver.pageContent("<p>a<br>b</p>") == "<p>a<br/>b</p>")
        #expect(
            HTMLRiver.pageContent(#"<img src="https://a.example/1.png" alt="x>y">"#)
                == #"<img src="https://a.example/1.png" alt="x&gt;y"/>"#)
        #expect(HTMLRiver.pageContent("<p>no markup of note</p>") == "<p>no markup of note</p>")
        #expect(HTMLRiver.pageContent("") == "")
    }

    @Test func anEmptyRunStillMakesAPage() throws {
        let page = try Self.page([], sources: [])
        #expect(try Self.texts(page, "//main/p[@class='empty']") == ["No items in this run."])
        #expect(try page.nodes(forXPath: "//details").isEmpty)
    }
}
