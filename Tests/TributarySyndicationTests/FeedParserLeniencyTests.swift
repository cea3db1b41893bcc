import Foundation
import Testing
import TributaryModel
import TributarySyndication

@Suite("FeedParser: broken documents")
struct FeedParserLeniencyTests {
    private typealias Fixtures = FeedParserFixtures

    @Test func undeclaredEntitiesAndBareAmpersands() throws {
        let feed = try Fixtures.parse("broken-entities.xml")
        #expect(feed.info.title == "Entities everywhere")
        #expect(feed.info.description == "Café — © 2024 & &bogus; – \u{FFFD}")
        let item = try #require(feed.items.first)
        #expect(item.title == "Résumé – naïve …")
        #expect(item.url == "https://entities.example.com/1?a=1&b=2")
        #expect(item.contentHTML == "Fish & chips; AT&T; 5 < 6 & 7 > 6")
        let messages = feed.problems.map(\.message)
        #expect(messages.contains("9 undeclared entities replaced (&nbsp;, &eacute;, &mdash;, &copy;, &ndash;, …)"))
        #expect(messages.contains("2 unknown entities kept as text (&bogus;, &T;)"))
        #expect(messages.contains("2 bare '&' escaped"))
        #expect(messages.contains("1 invalid character reference replaced with U+FFFD"))
        #expect(messages.contains("1 stray '<' escaped"))
        #expect(feed.problems.allSatisfy { $0.severity == .warning && $0.line != nil && $0.column != nil })
        let first = try #require(feed.problems.first { $0.message.contains("undeclared") })
        #expect(first.line == 4)
        #expect(first.column == 20)
    }

    /// HTML's legacy references without a semicolon are read as browsers read them, in text and
    /// in lifted content alike; a name followed by `=` (a URL's parameter) or by more letters is not one.
    @Test func legacyReferencesWithoutSemicolon() throws {
        let xml = """
            <rss version="2.0"><channel><title>Tom &amp Jerry &copy 2024</title>
            <item><title>Caf&eacute au lait &lt 3</title><link>https://legacy.example/?a=1&copy=2&param=3&amp=4</link>
            <description>Fish &amp chips&nbsp;&pound 5 &para.</description></item>
            </channel></rss>
            """
        let feed = try Fixtures.parse(xml: xml)
        #expect(feed.info.title == "Tom & Jerry © 2024")
        let item = try #require(feed.items.first)
        #expect(item.title == "Café au lait < 3")
        #expect(item.url == "https://legacy.example/?a=1&copy=2&param=3&amp=4")
        #expect(item.contentHTML == "Fish & chips\u{A0}£ 5 &para.")
        #expect(Fixtures.problems(feed, containing: "undeclared entities replaced (&amp, &copy, &eacute, &lt, &nbsp;, …)").count == 1)
    }

    @Test func truncatedMidItem() throws {
        let feed = try Fixtures.parse("broken-truncated.xml")
        #expect(feed.items.map(\.title) == ["Complete item", "Cut in the middle"])
        #expect(feed.items.last?.url == "https://truncated.example.com/2")
        let end = try #require(Fixtures.problems(feed, containing: "document ends early at").first)
        #expect(end.severity == .error)
        #expect(end.line == 13)
        #expect(end.message.hasPrefix("document ends early at 13:"))
        #expect(Fixtures.problems(feed, containing: "cut off by the end of the document; kept").count == 1)
    }

    @Test func truncatedItemWithoutTitleOrLinkIsDropped() throws {
        let xml = "<rss version=\"2.0\"><channel><item><title>Whole</title></item><item><description>no title"
        let feed = try Fixtures.parse(xml: xml)
        #expect(feed.items.map(\.title) == ["Whole"])
        #expect(Fixtures.problems(feed, containing: "had no title or link; dropped").first?.severity == .error)
    }

    @Test func htmlWhereTextWasExpected() throws {
        let feed = try Fixtures.parse("broken-html-in-title.xml")
        #expect(feed.info.title == "HTML where text belongs")
        try #require(feed.items.count == 2)
        #expect(feed.items[0].title == "A bold title")
        #expect(
            feed.items[0].contentHTML
                == "First line<br>second line <img src=\"https://html.example.com/pic.png\"> and <p>an unclosed paragraph</p>")
        #expect(feed.items[0].image == "https://html.example.com/pic.png")
        #expect(feed.items[1].title == "After the broken one")
        #expect(feed.items[1].url == "https://html.example.com/2")
        #expect(Fixtures.problems(feed, containing: "<p> not closed before </description>").count == 1)
    }

    @Test func strayEndTagIsIgnored() throws {
        let xml = """
            <rss version="2.0"><channel>
            <item><title>One</title><description>a</p>b</description><link>https://stray.example/1</link></item>
            <item><title>Two</title></item>
            </channel></rss>
            """
        let feed = try Fixtures.parse(xml: xml)
        #expect(feed.items.map(\.title) == ["One", "Two"])
        #expect(feed.items.first?.url == "https://stray.example/1")
        #expect(feed.items.first?.contentHTML == "ab")
        #expect(Fixtures.problems(feed, containing: "stray end tag </p> ignored").count == 1)
    }

    /// A stray end tag inside a text element leaves its inline element open; the text element's
    /// own end tag closes both, and the items after it are read (they used to be swallowed).
    @Test func strayEndTagInsideATitleLosesNoItems() throws {
        let xml = """
            <rss version="2.0"><channel><title>Channel</title>
            <item><title>One <b>bad</i> item</title><link>https://stray.example/1</link></item>
            <item><title>Two</title><link>https://stray.example/2</link></item>
            <item><title>Three <em>x</strong></title><description>kept</description></item>
            <item><title>Four</title></item>
            </channel></rss>
            """
        let feed = try Fixtures.parse(xml: xml)
        #expect(feed.items.map(\.title) == ["One bad item", "Two", "Three x", "Four"])
        #expect(feed.items.map(\.url) == ["https://stray.example/1", "https://stray.example/2", nil, nil])
        #expect(feed.items[2].contentHTML == "kept")
        #expect(feed.info.title == "Channel")
        #expect(Fixtures.problems(feed, containing: "stray end tag </i> ignored").count == 1)
        #expect(Fixtures.problems(feed, containing: "stray end tag </strong> ignored").count == 1)
        #expect(Fixtures.problems(feed, containing: "ends early").isEmpty)
    }

    /// An item left open when the next one starts ends there; before, every later item was read
    /// as part of it and lost. The same for Atom entries.
    @Test func unclosedItemEndsAtTheNextItem() throws {
        let rss = """
            <rss version="2.0"><channel><title>T</title>
            <item><title>One</title><link>https://open.example/1</link>
            <item><title>Two</title><link>https://open.example/2</link></item>
            <item><title>Three</title><description>unclosed <b>text
            <item><title>Four</title></item>
            </channel></rss>
            """
        let feed = try Fixtures.parse(xml: rss)
        #expect(feed.items.map(\.title) == ["One", "Two", "Three", "Four"])
        #expect(feed.items.map(\.url) == ["https://open.example/1", "https://open.example/2", nil, nil])
        #expect(feed.items[2].contentHTML == "unclosed <b>text\n</b>")
        #expect(Fixtures.problems(feed, containing: "<item> not closed before the next <item>").map(\.line) == [3, 5])
        let atom = """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>
            <entry><title>One</title><id>urn:1</id>
            <entry><title>Two</title><id>urn:2</id></entry>
            </feed>
            """
        let entries = try Fixtures.parse(xml: atom)
        #expect(entries.items.map(\.title) == ["One", "Two"])
        #expect(entries.items.map(\.id) == ["urn:1", "urn:2"])
    }

    /// An Atom link written as text, the RSS way, still gives the entry's and the feed's page.
    @Test func atomLinkWrittenAsText() throws {
        let xml = """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>T</title><link>https://text.example/</link>
            <entry><title>One</title><id>urn:1</id><link> https://text.example/1 </link></entry>
            <entry><title>Two</title><id>urn:2</id><link href="https://text.example/2"/><link>https://text.example/other</link></entry>
            </feed>
            """
        let feed = try Fixtures.parse(xml: xml)
        #expect(feed.items.map(\.url) == ["https://text.example/1", "https://text.example/2"])
        #expect(feed.info.homePageURL == "https://text.example/")
    }

    /// XML names are case-sensitive, feeds' authors are not: `<ITEM>`, `<Title>…</title>` and
    /// `<PubDate>` are read as feedparser reads them.
    @Test func elementNamesInAnotherCase() throws {
        let xml = """
            <rss version="2.0"><channel><title>T</title>
            <ITEM><TITLE>One</TITLE><LINK>https://case.example/1</LINK></ITEM>
            <item><Title>Two</title><PubDate>Tue, 10 Jun 2003 04:00:00 GMT</PubDate></item>
            <item><title>Three</title></item>
            </channel></rss>
            """
        let feed = try Fixtures.parse(xml: xml)
        #expect(feed.items.map(\.title) == ["One", "Two", "Three"])
        #expect(feed.items[0].url == "https://case.example/1")
        #expect(feed.items[1].published == Date(timeIntervalSince1970: 1_055_217_600))
        #expect(Fixtures.problems(feed, containing: "</title> closes <Title> (names differ in case)").count == 1)
    }

    /// What a server prints before the feed (a PHP warning, markup and all) is ignored, with a
    /// warning; lines and columns after it stay where they were.
    @Test func textBeforeTheDocumentIsIgnored() throws {
        let php = """
            <br />
            <b>Warning</b>:  Undefined variable $x in <b>/var/www/feed.php</b> on line <b>12</b><br />
            <?xml version="1.0" encoding="utf-8"?>
            <rss version="2.0"><channel><title>T</title>
            <item><title>One &amp; only</title><description>a &bogus; b</description></item></channel></rss>
            """
        let feed = try Fixtures.parse(xml: php)
        #expect(feed.items.map(\.title) == ["One & only"])
        #expect(Fixtures.problems(feed, containing: "bytes of text before the document ignored").map(\.line) == [1])
        #expect(Fixtures.problems(feed, containing: "unknown entity kept as text").map(\.line) == [5])

        let noDeclaration = try Fixtures.parse(
            xml: "Status: 200 OK\n<rss version=\"2.0\"><channel><item><title>One</title></item></channel></rss>")
        #expect(noDeclaration.items.map(\.title) == ["One"])
        #expect(Fixtures.problems(noDeclaration, containing: "14 bytes of text before the document ignored").count == 1)

        // A stylesheet instruction is not a declaration: nothing before it is dropped.
        let stylesheet = try Fixtures.parse(
            xml: "<rss version=\"2.0\"><?xml-stylesheet href=\"a.xsl\"?><channel><item><title>One</title></item></channel></rss>")
        #expect(stylesheet.items.map(\.title) == ["One"])
        #expect(Fixtures.problems(stylesheet, containing: "before the document").isEmpty)
        // Nor is a declaration inside the feed.
        let quoted = try Fixtures.parse(
            xml: "<rss version=\"2.0\"><channel><item><title>One</title><description><![CDATA[<?xml version=\"1.0\"?>]]></description>"
                + "</item></channel></rss>")
        #expect(quoted.items.map(\.title) == ["One"])
        #expect(Fixtures.problems(quoted, containing: "before the document").isEmpty)
    }

    /// libxml2 drops `&amp;`, `&lt;` and the other references in text once a document has had a
    /// well-formedness error; the parser keeps reading them (the error is still reported).
    @Test func referencesAfterAnErrorAreKept() throws {
        let xml = """
            <rss version="2.0"><channel><title>After &amp; before</title>
            <item><title>One</title><enclosure url="https://ref.example/a.mp3" url="https://ref.example/b.mp3"/></item>
            <item><title>AT&amp;T &lt;rocks&gt; &quot;Q&apos;</title><link>https://ref.example/2?a=1&amp;b=2</link>
            <description>Q&amp;A&nbsp;&#38; caf&eacute; &lt;b&gt;bold&lt;/b&gt;</description></item>
            <item><title><![CDATA[Tom & Jerry]]> &amp; co</title><link>https://ref.example/3</link></item>
            </channel></rss>
            """
        let feed = try Fixtures.parse(xml: xml)
        #expect(Fixtures.problems(feed, containing: "Attribute url redefined").count == 1)
        #expect(feed.info.title == "After & before")
        #expect(feed.items.map(\.title) == ["One", "AT&T <rocks> \"Q'", "Tom & Jerry & co"])
        #expect(feed.items[1].url == "https://ref.example/2?a=1&b=2")
        #expect(feed.items[1].contentHTML == "Q&A\u{A0}& café <b>bold</b>")
    }

    @Test func unclosedCDATA() throws {
        let feed = try Fixtures.parse("broken-unclosed-cdata.xml")
        #expect(feed.items.map(\.title) == ["Fine", "Broken"])
        #expect(feed.items.first?.contentHTML == "<p>closed</p>")
        #expect(Fixtures.problems(feed, containing: "document ends early").first?.severity == .error)
    }

    @Test func missingRootClose() throws {
        let feed = try Fixtures.parse("broken-missing-root-close.xml")
        #expect(feed.items.map(\.title) == ["One", "Two"])
        let end = try #require(Fixtures.problems(feed, containing: "document ends early").first)
        #expect(end.severity == .warning)
        #expect(end.message.contains("2 elements not closed"))
    }

    @Test func garbageAfterTheRoot() throws {
        let feed = try Fixtures.parse("broken-garbage-after-root.xml")
        #expect(feed.items.map(\.title) == ["Only item"])
        let problem = try #require(Fixtures.problems(feed, containing: "content after the end of the document ignored").first)
        #expect((problem.line ?? 0) >= 10)
    }

    @Test func undeclaredNamespacePrefixes() throws {
        let feed = try Fixtures.parse("broken-undeclared-prefix.xml")
        let item = try #require(feed.items.first)
        #expect(item.authors == [Author(name: "Dee Creator")])
        #expect(item.contentHTML == "<p>Full text.</p>")
        #expect(item.image == "https://prefix.example.com/t.jpg")
        let messages = feed.problems.map(\.message)
        #expect(
            messages == [
                "namespace prefix 'dc' is not declared; read as Dublin Core",
                "namespace prefix 'content' is not declared; read as RSS content module",
                "namespace prefix 'media' is not declared; read as Media RSS",
                "namespace prefix 'foo' is not declared; its elements are ignored",
            ])
        #expect(feed.problems.allSatisfy { $0.severity == .warning && $0.line != nil })
    }

    @Test(arguments: [
        ("http://search.yahoo.com/mrss", "media"), ("http://search.yahoo.com/mrss/", "media"),
        ("http://www.itunes.com/DTDs/Podcast-1.0.dtd", "itunes"), ("http://www.itunes.com/dtds/podcast-1.0.dtd", "itunes"),
        ("http://purl.org/rss/1.0/modules/content/", "content"), ("http://purl.org/rss/1.0/modules/content", "content"),
        ("http://purl.org/dc/elements/1.1/", "dc"), ("http://purl.org/dc/elements/1.0/", "dc"),
    ])
    func namespacesAreMatchedByURINotPrefix(uri: String, kind: String) throws {
        let body: String
        switch kind {
        case "media": body = "<x:thumbnail url=\"https://ns.example/t.jpg\"/>"
        case "itunes": body = "<x:image href=\"https://ns.example/t.jpg\"/>"
        case "content": body = "<x:encoded>&lt;img src=\"https://ns.example/t.jpg\"&gt;</x:encoded>"
        default: body = "<x:creator>X</x:creator>"
        }
        let xml = "<rss version=\"2.0\" xmlns:x=\"\(uri)\"><channel><item><title>t</title>\(body)</item></channel></rss>"
        let item = try #require(try Fixtures.parse(xml: xml).items.first)
        if kind == "dc" {
            #expect(item.authors == [Author(name: "X")])
        } else {
            #expect(item.image == "https://ns.example/t.jpg")
        }
    }

    @Test func notAFeedThrows() {
        #expect(throws: FeedParseError.self) {
            try Fixtures.parse(xml: "<!DOCTYPE html><html><head><title>x</title></head><body>&nbsp;</body></html>")
        }
        #expect(throws: FeedParseError("not a feed: the root element is <html>, not <rss>, <rdf:RDF> or <feed>", line: 1, column: 6)) {
            try FeedParser(.init(source: "s")).parse(Array("<html><body/></html>".utf8))
        }
    }

    @Test(arguments: ["", "   \n", "hello, world", "<<<<"])
    func notXMLThrows(text: String) {
        #expect(throws: FeedParseError.self) { try Fixtures.parse(xml: text) }
    }

    @Test func controlCharactersBecomeSpaces() throws {
        let feed = try Fixtures.parse(xml: "<rss><channel><item><title>Bell\u{07}and\u{0B}tab</title></item></channel></rss>")
        #expect(feed.items.first?.title == "Bell and tab")
        #expect(Fixtures.problems(feed, containing: "2 control characters replaced with spaces").count == 1)
    }

    @Test func whitespaceBeforeTheDeclaration() throws {
        let feed = try Fixtures.parse(xml: "\n\n  <?xml version=\"1.0\"?>\n<rss><channel><title>Late declaration</title></channel></rss>")
        #expect(feed.info.title == "Late declaration")
        #expect(feed.problems.isEmpty, "\(feed.problems)")
    }

    /// Hugo's `0001`, PHP's `-0001` and year zero stand for "no date": the items are undated, each with a warning.
    @Test func placeholderDatesAreNoDates() throws {
        let xml = """
            <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>Zero dates</title>
            <item><title>Hugo</title><pubDate>Mon, 01 Jan 0001 00:00:00 +0000</pubDate></item>
            <item><title>PHP</title><pubDate>Mon, 30 Nov -0001 00:00:00 +0000</pubDate></item>
            <item><title>Zero</title><dc:date>0000-01-01T00:00:00Z</dc:date></item>
            <item><title>Real</title><pubDate>Tue, 05 Mar 2024 14:03:00 GMT</pubDate></item>
            </channel></rss>
            """
        let feed = try Fixtures.parse(xml: xml)
        #expect(feed.items.map(\.date) == [nil, nil, nil, Fixtures.date("2024-03-05T14:03:00Z")])
        #expect(Fixtures.problems(feed, containing: "is before the year 1000, a placeholder for none").map(\.line) == [2, 3, 4])
    }
}
