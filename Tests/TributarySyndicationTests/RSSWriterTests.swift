import Foundation
import Testing
import TributaryModel
import TributarySyndication

@Suite("RSS writer")
struct RSSWriterTests {
    private typealias Fixtures = FeedParserFixtures

    static let now = utc(2024, 5, 1, 12)
    static let head = RSSWriter.Head(
        title: "River & <friends>", homePageURL: "https://example.com/", selfURL: "https://example.com/river.rss",
        author: Author(name: "Tributary"), updated: now)
    static let sources: [String: FeedInfo] = [
        "blog": FeedInfo(title: "A Blog", homePageURL: "https://blog.example.com/", feedURL: "https://blog.example.com/feed.xml"),
        "news": FeedInfo(title: "News"),
    ]
    static let writer = RSSWriter(generatorVersion: "1.2.3", sources: sources)
    static let hostile = "Tom & \"Jerry\" <b>]]></b> '\u{0}\u{1}\u{8}\u{B}\u{1F}\u{FFFE}\u{FFFF}' \t\r\n 头条 😀"

    static let items: [Item] = [
        Item(
            id: "https://blog.example.com/posts/1", source: "blog", url: "https://blog.example.com/posts/1", title: "First post",
            summary: "The first <one>.", contentHTML: "<p>The <em>first</em> one.</p>",
            authors: [Author(name: "Ann", url: "https://ann.example.com/"), Author(name: "Bo")],
            published: utc(2024, 4, 30, 8, 30), tags: ["swift", "feeds"],
            attachments: [
                Attachment(url: "https://blog.example.com/1.mp3", mimeType: "audio/mpeg", sizeInBytes: 1234),
                Attachment(url: "https://blog.example.com/1.mp4", mimeType: "video/mp4", sizeInBytes: 99, durationInSeconds: 61),
            ]),
        Item(
            id: "42", source: "news", url: "https://news.example.com/42", title: "Second", updated: utc(2024, 4, 29),
            duplicates: [
                DuplicateReference(source: "wire", url: "https://wire.example.com/2?a=1&b=2", title: "Second \"again\""),
                DuplicateReference(source: "local", url: "/relative"), DuplicateReference(source: "nolink"),
            ]),
        Item(id: "42", source: "blog", title: "Same id, other source"),
        Item(id: "only-summary", source: "news", summary: "No title here."),
        Item(id: "nothing", source: "news"),
        Item(
            id: "relative", source: "news", url: "/relative/link", title: "A relative link is no RSS link",
            attachments: [Attachment(url: "file.mp3")]),
        Item(id: "unknown-type", source: "blog", title: "Enclosure without a type", attachments: [Attachment(url: "https://x.example/a")]),
    ]

    @Test func aNormalDocumentFollowsTheValidatorRules() {
        let xml = Self.writer.document(head: Self.head, items: Self.items)
        #expect(RSSFeedRules.violations(xml, selfURL: "https://example.com/river.rss") == [])
        #expect(xml.contains(#"<atom:link rel="self" type="application/rss+xml" href="https://example.com/river.rss"/>"#))
        #expect(xml.contains("<title>River &amp; &lt;friends&gt;</title>"))
        #expect(xml.contains("<lastBuildDate>Wed, 01 May 2024 12:00:00 +0000</lastBuildDate>"))
        #expect(xml.contains(#"<guid isPermaLink="true">https://blog.example.com/posts/1</guid>"#))
        #expect(xml.contains(#"<guid isPermaLink="false">urn:tributary:news:42</guid>"#))
        #expect(xml.contains(#"<guid isPermaLink="false">urn:tributary:blog:42</guid>"#))
        #expect(xml.contains("<dc:creator>Ann</dc:creator>") && xml.contains("<dc:creator>Bo</dc:creator>"))
        #expect(xml.contains("<content:encoded><![CDATA[<p>The <em>first</em> one.</p>]]></content:encoded>"))
        // The summary is plain text: escaped for HTML, in a CDATA section.
        #expect(xml.contains("<description><![CDATA[<p>The first &lt;one&gt;.</p>]]></description>"))
        #expect(xml.contains(#"<enclosure url="https://blog.example.com/1.mp3" length="1234" type="audio/mpeg"/>"#))
        #expect(xml.contains(#"<media:content url="https://blog.example.com/1.mp4" type="video/mp4" fileSize="99" duration="61"/>"#))
        #expect(xml.contains(#"<enclosure url="https://x.example/a" length="0" type="application/octet-stream"/>"#))
        #expect(xml.contains(#"<source url="https://blog.example.com/feed.xml">A Blog</source>"#))
        #expect(xml.contains("<pubDate>Tue, 30 Apr 2024 08:30:00 +0000</pubDate>"))
        #expect(xml.contains("<pubDate>Mon, 29 Apr 2024 00:00:00 +0000</pubDate>"))
        #expect(!xml.contains("/relative/link") && !xml.contains("file.mp3"))
        #expect(
            xml.contains(
                #"<atom:link rel="related" href="https://wire.example.com/2?a=1&amp;b=2" title="Second &quot;again&quot; (wire)"/>"#))
        #expect(!xml.contains("(local)") && !xml.contains("(nolink)"))
    }

    @Test func anItemWithNeitherTitleNorDescriptionIsDescribedByItsLinkNotItsId() {
        let items = [
            Item(id: "941d1161d1063619", source: "news", url: "https://b.example/1"),
            Item(id: "5f0c2e7a99d1b3aa", source: "news", attachments: [Attachment(url: "https://b.example/a.mp3")]),
        ]
        let xml = Self.writer.document(head: Self.head, items: items)
        #expect(RSSFeedRules.violations(xml, selfURL: "https://example.com/river.rss") == [])
        #expect(xml.contains("<description>https://b.example/1</description>"))
        #expect(xml.contains("<description>(untitled)</description>"))
        #expect(!xml.contains("<description>941d1161d1063619") && !xml.contains("<description>5f0c2e7a99d1b3aa"))
    }

    /// The writer takes links by the rule every output uses (`WebLink.page`): a space or a quote, found unescaped in
    /// the wild, is escaped as a browser would; a link with no host, or not http(s), is left out.
    @Test func linksAreTakenByTheRuleOfEveryOutput() {
        let head = RSSWriter.Head(title: "T", homePageURL: "https://example.com/a home", updated: Self.now)
        let items = [
            Item(
                id: "1", source: "blog", url: "https://b.example/a \"b\"", title: "One",
                attachments: [Attachment(url: "https://b.example/x y.mp3"), Attachment(url: "https:///no-host.mp3")],
                duplicates: [DuplicateReference(source: "wire", url: "http://W.example/2 3")])
        ]
        let xml = Self.writer.document(head: head, items: items)
        #expect(RSSFeedRules.violations(xml) == [])
        #expect(xml.contains("<link>https://example.com/a%20home</link>"))
        #expect(xml.contains("<link>https://b.example/a%20%22b%22</link>"))
        #expect(xml.contains(#"<enclosure url="https://b.example/x%20y.mp3""#) && !xml.contains("no-host"))
        #expect(xml.contains(#"<atom:link rel="related" href="http://W.example/2%203""#))
    }

    @Test func anEmptyFeedWithOnlyAHomePageIsValid() {
        let head = RSSWriter.Head(title: "", homePageURL: "https://example.com/", updated: Date(timeIntervalSince1970: 0))
        let xml = Self.writer.document(head: head, items: [])
        #expect(RSSFeedRules.violations(xml) == [])
        #expect(xml.contains("<title>Tributary</title>") && xml.contains("<link>https://example.com/</link>"))
        #expect(xml.contains("<lastBuildDate>Thu, 01 Jan 1970 00:00:00 +0000</lastBuildDate>"))
        #expect(!xml.contains("atom:link"))
    }

    @Test func illegalCharactersAndMarkupEverywhereStayWellFormedAndValid() throws {
        let head = RSSWriter.Head(
            title: Self.hostile, homePageURL: "https://example.com/", selfURL: "https://example.com/river.rss", description: Self.hostile,
            author: Author(name: Self.hostile), updated: Self.now)
        let item = Item(
            id: Self.hostile, source: Self.hostile, url: "https://example.com/" + Self.hostile, title: Self.hostile, summary: Self.hostile,
            contentHTML: "<p>" + Self.hostile + "</p>", authors: [Author(name: Self.hostile)], tags: [Self.hostile],
            attachments: [Attachment(url: "https://example.com/a.mp3", mimeType: Self.hostile, sizeInBytes: -5)])
        let xml = RSSWriter(generatorVersion: Self.hostile, sources: [Self.hostile: FeedInfo(title: Self.hostile, feedURL: Self.hostile)])
            .document(head: head, items: [item, item])
        #expect(RSSFeedRules.violations(xml, selfURL: "https://example.com/river.rss") == [])
        // The HTML in CDATA sections reads back as the text minus what XML forbids: the "]]>" split
        // over two sections, the carriage return kept as a character reference between them.
        let readable = "Tom & \"Jerry\" <b>]]></b> '' \t\r\n 头条 😀"
        let written = try XMLTree.parse(xml).first("channel")?.first("item")
        #expect(written?.first("content:encoded")?.text == "<p>" + readable + "</p>")
        #expect(written?.first("description")?.text == HTMLText.paragraphs(fromPlainText: readable))
    }

    @Test func theRuleChecksCatchWhatTheValidatorRejects() {
        let broken = """
            <rss version="0.91" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>t</title><link>/home</link>
            <atom:link rel="alternate" href="https://example.com/other"/>
            <item><guid>not a url</guid><author>Ann</author><pubDate>2024-05-01</pubDate>
            <enclosure url="https://x.example/a" type="audio"/><enclosure url="b" length="1" type="a/b"/></item>
            <item><title>x</title><guid isPermaLink="false">not a url</guid><source>s</source><atom:link href="/dup"/><category/></item>
            </channel></rss>
            """
        #expect(
            RSSFeedRules.violations(broken, selfURL: "https://example.com/river.rss") == [
                "rss version is not 2.0", "channel needs exactly one <description>, found 0", "channel <link> must be a full URL: '/home'",
                "atom:link without rel=self", "atom:link type is not application/rss+xml", "atom:link href is not the self URL",
                "item 1 has neither a title nor a description", "item 1 <author> must be an e-mail address (names go in dc:creator)",
                "item 1 guid is a permalink but not a full URL: 'not a url'", "item 1 <pubDate> is not an RFC 822 date: '2024-05-01'",
                "item 1 has more than one enclosure", "item 1 enclosure length is not an integer",
                "item 1 enclosure type is not a MIME type: 'audio'", "item 1 enclosure url is not a full URL",
                "item 2 repeats the guid 'not a url'", "item 2 <source> needs a url attribute with a full URL",
                "item 2 atom:link without rel", "item 2 atom:link href is not a full URL", "item 2 has an empty <category>",
            ])
        #expect(RSSFeedRules.violations("<rss><channel>").first?.hasPrefix("not well-formed XML: line ") == true)
        #expect(RSSFeedRules.violations("<rss>\u{1}</rss>").first?.hasPrefix("not well-formed XML") == true)
    }

    @Test(arguments: [
        (Date(timeIntervalSince1970: 0), "Thu, 01 Jan 1970 00:00:00 +0000"),
        (Date(timeIntervalSince1970: 951_782_400), "Tue, 29 Feb 2000 00:00:00 +0000"),
        (Date(timeIntervalSince1970: 1_714_564_799.9), "Wed, 01 May 2024 11:59:59 +0000"),
        (Date(timeIntervalSince1970: -1), "Wed, 31 Dec 1969 23:59:59 +0000"),
    ])
    func rfc822Dates(date: Date, text: String) {
        #expect(RFC822.string(from: date) == text)
        #expect(RSSFeedRules.isRFC822(text))
    }

    /// Years in four digits (year 99 is no 1999), the proleptic Gregorian calendar (so not checked with
    /// `DateFormatter`, Julian before 1582), and instants outside years 0001–9999 written as the nearest inside.
    @Test(arguments: [
        (Date(timeIntervalSince1970: -59_042_995_200), "Thu, 01 Jan 0099 00:00:00 +0000"),
        (Date(timeIntervalSince1970: -62_135_596_800), "Mon, 01 Jan 0001 00:00:00 +0000"),
        (Date(timeIntervalSince1970: -62_135_596_800 - 86_400 * 400), "Mon, 01 Jan 0001 00:00:00 +0000"),
        (Date(timeIntervalSince1970: 253_402_300_800 + 86_400), "Fri, 31 Dec 9999 23:59:59 +0000"),
    ])
    func rfc822DatesOutsideTheUsualYears(date: Date, text: String) {
        #expect(RFC822.string(from: date) == text)
    }

    @Test(
        "items survive parse → RSSWriter → parse",
        arguments: ["rss20-full.xml", "atom10-xhtml.xml", "itunes-podcast.xml", "rss10-dublin-core.xml", "chinese-gb2312.xml"])
    func itemsSurviveTheRoundTrip(file: String) throws {
        let original = try Fixtures.parse(file, documentURL: "https://example.com/feed.xml")
        let head = RSSWriter.Head(title: "Round trip", selfURL: "https://example.com/river.rss", updated: Self.now)
        let xml = RSSWriter(generatorVersion: "test").document(head: head, items: original.items)
        #expect(RSSFeedRules.violations(xml, selfURL: "https://example.com/river.rss") == [])
        let reparsed = try Fixtures.parse(bytes: Array(xml.utf8))
        #expect(reparsed.format == .rss)
        #expect(reparsed.version == "2.0")
        #expect(reparsed.problems.isEmpty, "\(reparsed.problems)")
        #expect(reparsed.info.title == "Round trip")
        try #require(reparsed.items.count == original.items.count)
        for (before, after) in zip(original.items, reparsed.items) {
            #expect(after.id == AtomWriter.entryID(for: before))
            #expect(after.title == before.title.flatMap { $0.isEmpty ? nil : $0 })
            #expect(after.url == before.url)
            // RFC 822 has whole seconds.
            #expect(after.date.map { $0.timeIntervalSince1970 } == before.date.map { $0.timeIntervalSince1970.rounded(.down) })
            #expect(after.tags == before.tags)
            #expect(after.authors.map(\.name) == before.authors.map { $0.name ?? $0.url })
            #expect(after.attachments.map(\.url) == before.attachments.map(\.url))
            #expect(after.attachments.map(\.mimeType) == before.attachments.map(\.mimeType))
            #expect(after.attachments.map(\.sizeInBytes) == before.attachments.map(\.sizeInBytes))
            if let html = before.contentHTML, !html.isEmpty {
                #expect(after.contentHTML == html)
            }
            if let summary = before.summary, !summary.isEmpty {
                #expect(after.summary == summary)
            }
        }
    }
}
