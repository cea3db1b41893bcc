import Foundation
import Testing
import TributaryModel
import TributarySyndication

@Suite("FeedParser: RSS 0.90–2.0 and RSS 1.0")
struct FeedParserRSSTests {
    private typealias Fixtures = FeedParserFixtures

    @Test func rss20FeedMetadata() throws {
        let feed = try Fixtures.parse("rss20-full.xml", documentURL: "https://example.com/feed.xml")
        #expect(feed.format == .rss)
        #expect(feed.version == "2.0")
        #expect(
            feed.info
                == FeedInfo(
                    title: "Example Engineering", homePageURL: "https://example.com/", feedURL: "https://example.com/feed.xml",
                    description: "Notes from the Example team", authors: [Author(name: "Erin Editor", url: "mailto:editor@example.com")],
                    icon: "https://example.com/logo.png", favicon: nil, language: "en-GB", updated: Fixtures.date("2024-03-05T06:03:00Z")))
        #expect(feed.problems.isEmpty, "\(feed.problems)")
    }

    @Test func rss20WholeItems() throws {
        let feed = try Fixtures.parse("rss20-full.xml", documentURL: "https://example.com/feed.xml")
        try #require(feed.items.count == 5)
        #expect(
            feed.items[0]
                == Item(
                    id: "https://example.com/posts/new-parser", source: "example", url: "https://example.com/posts/new-parser",
                    title: "Shipping the new parser", summary: "We rewrote the feed parser.",
                    contentHTML:
                        "<p>We rewrote the <b>feed parser</b> on top of libxml2.</p><p><img src=\"/img/diagram.png\" alt=\"diagram\"></p>",
                    image: "https://example.com/img/diagram.png", authors: [Author(name: "Jane Doe", url: "mailto:jane@example.com")],
                    published: Fixtures.date("2024-03-05T06:03:00Z"), tags: ["Engineering", "Parsing"],
                    attachments: [
                        Attachment(url: "https://example.com/audio/new-parser.mp3", mimeType: "audio/mpeg", sizeInBytes: 1_234_567)
                    ],
                    extras: ["comments_url": .string("https://example.com/posts/new-parser#comments")]))
        #expect(
            feed.items[1]
                == Item(
                    id: "https://example.com/posts/relative?id=2", source: "example", url: "https://example.com/posts/relative",
                    title: "Relative links", summary: "Plain text description with a link.",
                    contentHTML: "Plain text description with a <a href=\"/about\">link</a>.",
                    image: "https://example.com/media/picture.jpg",
                    authors: [Author(name: "Sam Smith")], published: Fixtures.date("2024-03-04T09:30:00Z"),
                    attachments: [Attachment(url: "https://example.com/media/picture.jpg", mimeType: "image/jpeg")]))
        #expect(
            feed.items[2]
                == Item(
                    id: "https://example.com/posts/guid-only", source: "example", url: "https://example.com/posts/guid-only",
                    title: "Permalink from the guid", summary: "An item whose only link is its guid.",
                    contentHTML: "An item whose only link is its guid."))
        #expect(
            feed.items[3]
                == Item(
                    id: "tag:example.com,2024:post-4", source: "example", title: "Not a permalink",
                    image: "https://example.com/thumbs/4.jpg"))
        #expect(
            feed.items[4]
                == Item(
                    id: StableID.digest("https://example.com/posts/no-guid"), source: "example",
                    url: "https://example.com/posts/no-guid", title: "No guid at all", published: Fixtures.date("2024-03-03T23:59:59Z")))
    }

    @Test func missingGuidGivesTheSameDigestOnEveryRun() throws {
        let first = try Fixtures.parse("rss20-full.xml")
        let second = try Fixtures.parse("rss20-full.xml")
        #expect(first.items.map(\.id) == second.items.map(\.id))
        #expect(first.items[4].id.count == 16)
    }

    /// An item without a guid is identified by its link, as feed readers identify it: a corrected headline (or a
    /// changed description or date) is the same item, not a new one for every subscriber. Items of one document
    /// that share a link (a changelog's entries all linking to one page) are told apart by their titles.
    @Test func anItemWithoutAGuidIsItsLinkUnlessAnotherItemSharesIt() throws {
        func ids(_ items: [(link: String?, title: String)], guid: String? = nil) throws -> [String] {
            let body = items.map { item in
                "<item><title>\(item.title)</title>" + (item.link.map { "<link>\($0)</link>" } ?? "") + "</item>"
            }
            let extra = guid.map { "<item><guid>\($0)</guid><title>Has a guid</title><link>https://e.com/log</link></item>" } ?? ""
            let text = "<rss version=\"2.0\"><channel><title>c</title>\(body.joined())\(extra)</channel></rss>"
            return try Fixtures.parse(bytes: Array(text.utf8)).items.map(\.id)
        }
        let before = try ids([("https://e.com/a", "Mayor resigns"), ("https://e.com/b", "Rain")])
        let corrected = try ids([("https://e.com/a", "Mayor resigns after vote (updated)"), ("https://e.com/b", "Rain")])
        #expect(before == corrected)
        #expect(before == [StableID.digest("https://e.com/a"), StableID.digest("https://e.com/b")])

        let shared = try ids([("https://e.com/log", "v1.2"), ("https://e.com/log", "v1.1"), ("https://e.com/c", "Other")], guid: "g1")
        #expect(
            shared == [
                StableID.digest("https://e.com/log", "v1.2"), StableID.digest("https://e.com/log", "v1.1"),
                StableID.digest("https://e.com/c"), "g1",
            ])
        // Without a link, the title.
        #expect(try ids([(nil, "Only a title")]) == [StableID.digest("", "Only a title")])
    }

    /// RSS titles say nothing of their type. One escaped once too often (markup, a character reference left after XML's
    /// escaping) is HTML, as Python's feedparser reads it: its text, not `<b>` or `&eacute;` for a reader to see. A
    /// title about markup stays as written.
    @Test(
        arguments: [
            ("&lt;b&gt;Breaking:&lt;/b&gt; escaped markup", "Breaking: escaped markup"),
            ("<![CDATA[<em>Emphasis</em> and &amp; an entity]]>", "Emphasis and & an entity"),
            ("Caf&amp;eacute; &amp;amp; cr&amp;egrave;me", "Café & crème"),
            ("It&amp;#8217;s &lt;A HREF=\"x\"&gt;here&lt;/A &gt;", "It’s here"),
            ("Plain 1 &lt; 2 and a &amp; b", "Plain 1 < 2 and a & b"),
            ("Why &lt;div&gt; soup is bad", "Why <div> soup is bad"),
            ("<![CDATA[Templates: <template> & <slot>]]>", "Templates: <template> & <slot>"),
            ("Vec&lt;T&gt; &amp;&amp; Option&lt;T&gt;; R&amp;D", "Vec<T> && Option<T>; R&D"),
            ("Closing &lt;/template&gt; is no HTML element here", "Closing </template> is no HTML element here"),
            ("Raw <b>bold</b> element", "Raw bold element"),
        ] as [(String, String)])
    func titleEscapedOnceTooOftenIsHTML(_ written: String, _ read: String) throws {
        let text =
            "<rss version=\"2.0\"><channel><title>c</title><item><title>\(written)</title><link>https://e.com/1</link></item></channel></rss>"
        #expect(try Fixtures.parse(bytes: Array(text.utf8)).items.first?.title == read)
    }

    @Test func rss091WithDoctypeAndEntities() throws {
        let feed = try Fixtures.parse("rss091-doctype.xml")
        #expect(feed.version == "0.91")
        #expect(feed.info.title == "Café Society News")
        #expect(feed.info.description == "News from the café — daily.")
        #expect(feed.info.language == "fr")
        #expect(feed.info.icon == "http://cafe.example.com/logo.gif")
        #expect(feed.info.authors == [Author(name: "Pat Ron", url: "mailto:patron@cafe.example.com")])
        #expect(feed.items.map(\.title) == ["Crème brûlée returns", "Horaires d'été"])
        #expect(feed.items.map(\.summary) == ["The ‘classic’ is back at Café Society…", "8–18h, Monday to Friday."])
        let entityWarnings = Fixtures.problems(feed, containing: "10 undeclared entities replaced")
        #expect(entityWarnings.count == 1)
        #expect(entityWarnings.first?.severity == .warning)
        #expect(entityWarnings.first?.line == 10)
        #expect(feed.problems.count == 1, "\(feed.problems)")
    }

    @Test(arguments: [
        ("rss092.xml", "0.92", "Radio 0.92"),
        ("rss093.xml", "0.93", "Draft 0.93"),
        ("rss094.xml", "0.94", "Draft 0.94"),
    ])
    func minimalOldVersions(file: String, version: String, title: String) throws {
        let feed = try Fixtures.parse(file)
        #expect(feed.format == .rss)
        #expect(feed.version == version)
        #expect(feed.info.title == title)
        #expect(feed.items.count == 1)
        #expect(feed.items.allSatisfy { !$0.id.isEmpty && $0.source == "example" })
        #expect(feed.problems.isEmpty)
    }

    @Test func rss092DescriptionOnlyItem() throws {
        let item = try #require(try Fixtures.parse("rss092.xml").items.first)
        #expect(item.title == nil)
        #expect(item.url == nil)
        #expect(item.summary == "Items in 0.92 may have only a description.")
        #expect(item.tags == ["Music"])
        #expect(item.attachments == [Attachment(url: "http://radio.example.com/show1.mp3", mimeType: "audio/mpeg", sizeInBytes: 5_000_000)])
    }

    @Test func rss093And094Items() throws {
        let item93 = try #require(try Fixtures.parse("rss093.xml").items.first)
        #expect(item93.published == Fixtures.date("2002-03-01T09:00:00Z"))
        #expect(item93.url == "http://draft.example.com/1")
        let item94 = try #require(try Fixtures.parse("rss094.xml").items.first)
        #expect(item94.id == "draft94-item-1")
        #expect(item94.url == "http://draft94.example.com/1")
        #expect(item94.authors == [Author(name: "author@draft94.example.com", url: "mailto:author@draft94.example.com")])
    }

    @Test func rss10WithDublinCore() throws {
        let feed = try Fixtures.parse("rss10-dublin-core.xml")
        #expect(feed.format == .rss)
        #expect(feed.version == "1.0")
        #expect(
            feed.info
                == FeedInfo(
                    title: "RDF Site Summary", homePageURL: "https://rdf.example.org/", description: "An RSS 1.0 channel with Dublin Core.",
                    authors: [Author(name: "Rita Rdf")], icon: "https://rdf.example.org/logo.png", language: "de",
                    updated: Fixtures.date("2024-02-01T11:00:00Z")))
        #expect(
            feed.items
                == [
                    Item(
                        id: "https://rdf.example.org/a", source: "example", url: "https://rdf.example.org/a", title: "Erster Eintrag",
                        summary: "Beschreibung mit HTML.", contentHTML: "Beschreibung mit <i>HTML</i>.",
                        authors: [Author(name: "Rita Rdf")],
                        published: Fixtures.date("2024-02-01T10:00:00Z"), tags: ["Nachrichten"]),
                    Item(
                        id: "https://rdf.example.org/b", source: "example", url: "https://rdf.example.org/b", title: "Zweiter Eintrag",
                        summary: "Voller Inhalt.", contentHTML: "<p>Voller Inhalt.</p>", published: Fixtures.date("2024-02-02T00:00:00Z")),
                ])
        #expect(feed.problems.isEmpty)
    }

    @Test func rss090() throws {
        let feed = try Fixtures.parse("rss090.xml")
        #expect(feed.version == "0.90")
        #expect(feed.info.title == "Mozilla Dot Org")
        #expect(feed.info.icon == "http://www.mozilla.org/images/moz.gif")
        #expect(feed.items.map(\.url) == ["http://www.mozilla.org/status/", "http://www.mozilla.org/bugs/"])
    }

    @Test(arguments: [
        ("jane@example.com (Jane Doe)", Author(name: "Jane Doe", url: "mailto:jane@example.com")),
        ("Jane Doe <jane@example.com>", Author(name: "Jane Doe", url: "mailto:jane@example.com")),
        ("\"Jane Doe\" <mailto:jane@example.com>", Author(name: "Jane Doe", url: "mailto:jane@example.com")),
        ("jane@example.com", Author(name: "jane@example.com", url: "mailto:jane@example.com")),
        ("  Jane\n   Doe ", Author(name: "Jane Doe")),
        ("Jane Doe (Editor)", Author(name: "Jane Doe (Editor)")),
    ])
    func authorForms(text: String, expected: Author) throws {
        let xml =
            "<rss version=\"2.0\"><channel><item><title>t</title><author>\(text.replacingOccurrences(of: "<", with: "&lt;"))</author></item></channel></rss>"
        let feed = try Fixtures.parse(xml: xml)
        #expect(feed.items.first?.authors == [expected])
    }

    @Test func relativeLinksFallBackToTheChannelLink() throws {
        let xml = """
            <rss version="2.0"><channel><link>https://site.example/blog/</link>
            <item><title>t</title><link>posts/1</link><enclosure url="/a.mp3" type="audio/mpeg"/></item></channel></rss>
            """
        let item = try #require(try Fixtures.parse(xml: xml).items.first)
        #expect(item.url == "https://site.example/blog/posts/1")
        #expect(item.attachments.first?.url == "https://site.example/a.mp3")
    }

    @Test func unparseableDateIsAWarningWithTextAndPosition() throws {
        let xml =
            "<rss version=\"2.0\"><channel>\n<item><title>t</title>\n  <pubDate>Blursday, 99 Smarch</pubDate></item></channel></rss>"
        let feed = try Fixtures.parse(xml: xml)
        #expect(feed.items.first?.published == nil)
        let problem = try #require(Fixtures.problems(feed, containing: "unparseable date").first)
        #expect(problem.severity == .warning)
        #expect(problem.message == "unparseable date 'Blursday, 99 Smarch' in <pubDate>")
        #expect(problem.line == 3)
        #expect(problem.column != nil)
    }

    @Test func dublinCoreDateDoesNotReplacePubDate() throws {
        let xml = """
            <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.0/"><channel><item><title>t</title>
            <dc:date>2020-01-01T00:00:00Z</dc:date><pubDate>Tue, 05 Mar 2024 06:03:00 GMT</pubDate>
            <dc:subject>Topic</dc:subject></item></channel></rss>
            """
        let item = try #require(try Fixtures.parse(xml: xml).items.first)
        #expect(item.published == Fixtures.date("2024-03-05T06:03:00Z"))
        #expect(item.tags == ["Topic"])
    }

    @Test func derivedSummaryIsBounded() throws {
        let words = String(repeating: "word ", count: 400)
        let xml =
            "<rss version=\"2.0\"><channel><item><title>t</title><description>&lt;p&gt;\(words)&lt;/p&gt;</description></item></channel></rss>"
        let item = try #require(try Fixtures.parse(xml: xml).items.first)
        let summary = try #require(item.summary)
        #expect(summary.count <= 301)
        #expect(summary.hasPrefix("word word"))
        #expect(item.contentHTML?.count ?? 0 > 1900)
    }

    @Test func whitespaceAndCDATAAreText() throws {
        let xml = """
            <rss version="2.0"><channel><item>
              <title>
                 <![CDATA[  Spaced  ]]> title
              </title>
              <link>  https://ws.example.com/1  </link>
              <guid>
                 ws-1
              </guid>
            </item></channel></rss>
            """
        let item = try #require(try Fixtures.parse(xml: xml).items.first)
        #expect(item.title == "Spaced title")
        #expect(item.url == "https://ws.example.com/1")
        #expect(item.id == "ws-1")
    }
}
