import Foundation
import Testing
import TributaryModel
import TributarySyndication

@Suite("FeedParser: Atom 1.0 and 0.3")
struct FeedParserAtomTests {
    private typealias Fixtures = FeedParserFixtures

    @Test func atom10FeedMetadataWithXMLBase() throws {
        let feed = try Fixtures.parse("atom10-xhtml.xml")
        #expect(feed.format == .atom)
        #expect(feed.version == "1.0")
        #expect(
            feed.info
                == FeedInfo(
                    title: "Example Blog", homePageURL: "https://blog.example.net/", feedURL: "https://blog.example.net/feed.atom",
                    description: "Thoughts and notes", authors: [Author(name: "Alex Author", url: "mailto:alex@example.net")],
                    icon: "https://blog.example.net/images/logo.png", favicon: "https://blog.example.net/favicon.ico", language: "en-US",
                    updated: Fixtures.date("2024-03-05T06:03:00Z"), id: "tag:blog.example.net,2024:feed"))
        #expect(feed.problems.isEmpty, "\(feed.problems)")
    }

    @Test func atom10EntryWithXHTMLContentAndNestedBases() throws {
        let feed = try Fixtures.parse("atom10-xhtml.xml")
        let entry = try #require(feed.items.first)
        #expect(
            entry
                == Item(
                    id: "tag:blog.example.net,2024:nested-bases", source: "example",
                    url: "https://blog.example.net/2024/03/nested-bases.html", title: "Nested bases & XHTML",
                    summary: "A short plain summary.",
                    contentHTML:
                        "<p>Hello <em>world</em> &amp; friends.</p>\n        <p><img src=\"photo.jpg\" alt=\"A photo\"><br>Caption</p>",
                    image: "https://blog.example.net/2024/03/images/photo.jpg",
                    authors: [Author(name: "Bea Writer", url: "https://blog.example.net/people/bea")],
                    published: Fixtures.date("2024-03-04T14:00:00Z"), updated: Fixtures.date("2024-03-05T06:03:00Z"),
                    tags: ["xml", "atom"],
                    attachments: [
                        Attachment(
                            url: "https://blog.example.net/2024/03/nested-bases.ogg", mimeType: "audio/ogg", title: "Read aloud",
                            sizeInBytes: 4096)
                    ],
                    extras: ["comments_url": .string("https://blog.example.net/2024/03/nested-bases.html#comments")]))
    }

    /// XHTML content is written as HTML for the sanitizer: without prefixes, so that a foreign `<svg:script>` is the
    /// script it is (removed with its code, which showed as text) and `</x:p>` is the end of the `<x:p>` it closes
    /// (it was `</p>`, the end of the enclosing paragraph).
    @Test func prefixedElementsInXHTMLContentAreWrittenAsHTML() throws {
        let xml = """
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:svg="http://www.w3.org/2000/svg" xmlns:x="urn:x"><title>c</title>
            <entry><id>urn:e:1</id><title>t</title><content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">\
            <p>A<svg:svg><svg:script>var secret=1;</svg:script><svg:style>p{color:red}</svg:style></svg:svg>B</p>\
            <p>C<x:em>kept</x:em><x:script>evil text</x:script>D</p></div></content></entry></feed>
            """
        let html = try #require(try Fixtures.parse(bytes: Array(xml.utf8), sanitize: true).items.first?.contentHTML)
        #expect(html == "<p>AB</p><p>C<em>kept</em>D</p>")
    }

    @Test func atom10InheritedAuthorAndPreferredAlternate() throws {
        let feed = try Fixtures.parse("atom10-xhtml.xml")
        try #require(feed.items.count == 3)
        #expect(
            feed.items[1]
                == Item(
                    id: "tag:blog.example.net,2024:post-2", source: "example", url: "https://blog.example.net/posts/2",
                    title: "Inherited author, HTML content", summary: "Escaped HTML content.",
                    contentHTML: "<p>Escaped <strong>HTML</strong> content.</p>",
                    authors: [Author(name: "Alex Author", url: "mailto:alex@example.net")], updated: Fixtures.date("2024-03-01T12:00:00Z")))
        #expect(feed.items[2].title == "An XHTML title")
        #expect(feed.items[2].summary == "Only an HTML summary.")
        #expect(feed.items[2].contentHTML == "<p>Only an <em>HTML</em> summary.</p>")
    }

    @Test func atomSourceAndContributorAreNotTheEntrys() throws {
        let feed = try Fixtures.parse("atom10-xhtml.xml")
        let entry = try #require(feed.items.first)
        #expect(!entry.authors.contains { $0.name == "Original Author" || $0.name == "Not An Author" })
        #expect(entry.title != "The Original Feed")
        #expect(entry.updated == Fixtures.date("2024-03-05T06:03:00Z"))
    }

    @Test func atom03EscapedBase64AndXMLContent() throws {
        let feed = try Fixtures.parse("atom03.xml")
        #expect(feed.format == .atom)
        #expect(feed.version == "0.3")
        #expect(
            feed.info
                == FeedInfo(
                    title: "Atom 0.3 Feed", homePageURL: "http://old.example.com/", feedURL: nil, description: "An old Atom feed",
                    authors: [Author(name: "Olde Author", url: "http://old.example.com/olde", email: "olde@example.com")], language: "en",
                    updated: Fixtures.date("2004-01-05T10:00:00Z")))
        // The page and the address both (the address was lost).
        let olde = [Author(name: "Olde Author", url: "http://old.example.com/olde", email: "olde@example.com")]
        #expect(
            feed.items
                == [
                    Item(
                        id: "tag:old.example.com,2004:1", source: "example", url: "http://old.example.com/1", title: "Escaped content",
                        summary: "Summary in plain text.", contentHTML: "<p>Escaped <b>HTML</b>.</p>", authors: olde,
                        published: Fixtures.date("2004-01-05T17:00:00Z"), updated: Fixtures.date("2004-01-05T10:00:00Z")),
                    Item(
                        id: "tag:old.example.com,2004:2", source: "example", url: "http://old.example.com/2", title: "Base64 content",
                        summary: "Decoded from base64.", contentHTML: "<p>Decoded from <b>base64</b>.</p>", authors: olde,
                        published: Fixtures.date("2004-01-03T00:00:00Z"), updated: Fixtures.date("2004-01-03T12:00:00Z")),
                    Item(
                        id: "tag:old.example.com,2004:3", source: "example", url: "http://old.example.com/3", title: "Inline XML content",
                        summary: "Inline XHTML.", contentHTML: "<p>Inline <i>XHTML</i>.</p>", authors: olde,
                        published: Fixtures.date("2004-01-02T00:00:00Z")),
                ])
        #expect(feed.problems.isEmpty, "\(feed.problems)")
    }

    @Test func atomLinkRelations() throws {
        let xml = """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>t</title>
            <link rel="http://www.iana.org/assignments/relation/self" href="https://links.example/feed"/>
            <link href="https://links.example/"/>
            <entry><id>e</id><title>e</title>
              <link rel="self" href="https://links.example/e.atom"/>
              <link rel="related" href="https://links.example/related"/>
              <link rel="alternate" type="text/html" href="https://links.example/e"/>
              <link rel="enclosure" href="https://links.example/e.mp3"/>
            </entry></feed>
            """
        let feed = try Fixtures.parse(xml: xml)
        #expect(feed.info.feedURL == "https://links.example/feed")
        #expect(feed.info.homePageURL == "https://links.example/")
        #expect(feed.items.first?.url == "https://links.example/e")
        #expect(feed.items.first?.attachments == [Attachment(url: "https://links.example/e.mp3", mimeType: "audio/mpeg")])
    }

    @Test func atomCategoryUsesTermThenLabel() throws {
        let xml = """
            <feed xmlns="http://www.w3.org/2005/Atom"><entry><id>e</id>
              <category term="swift" label="Swift (language)"/><category label="Only a label"/><category term="SWIFT"/>
            </entry></feed>
            """
        #expect(try Fixtures.parse(xml: xml).items.first?.tags == ["swift", "Only a label"])
    }

    @Test func atomWithoutNamespaceIsStillAtom() throws {
        let xml =
            "<feed><title>No namespace</title><entry><id>x</id><title>Entry</title><link href=\"https://nons.example/x\"/></entry></feed>"
        let feed = try Fixtures.parse(xml: xml)
        #expect(feed.format == .atom)
        #expect(feed.info.title == "No namespace")
        #expect(feed.items.first?.url == "https://nons.example/x")
    }

    @Test func atomInsideRSS() throws {
        let xml = """
            <rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>t</title>
            <atom:link rel="self" href="https://mixed.example/rss"/>
            <item><title>i</title><atom:link href="https://mixed.example/i"/><atom:updated>2024-01-02T03:04:05Z</atom:updated></item>
            </channel></rss>
            """
        let feed = try Fixtures.parse(xml: xml)
        #expect(feed.info.feedURL == "https://mixed.example/rss")
        #expect(feed.items.first?.url == "https://mixed.example/i")
        #expect(feed.items.first?.updated == Fixtures.date("2024-01-02T03:04:05Z"))
    }

    /// A media type naming HTML in any case and with parameters is HTML, for text constructs
    /// and for choosing among alternate links; `xhtml` types are XHTML.
    @Test func mediaTypesNamingHTMLInAnyCase() throws {
        let xml = """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>
            <entry><id>urn:1</id><title type="TEXT/HTML; charset=utf-8">A &lt;b&gt;bold&lt;/b&gt; title</title>
            <link rel="alternate" type="application/pdf" href="https://types.example/1.pdf"/>
            <link rel="alternate" type="Text/Html" href="https://types.example/1"/>
            <content type="application/xhtml+xml"><div xmlns="http://www.w3.org/1999/xhtml"><p>x</p></div></content></entry>
            <entry><id>urn:2</id><title type="text/plain">plain &lt;b&gt;</title>
            <link rel="alternate" type="application/pdf" href="https://types.example/2.pdf"/></entry>
            </feed>
            """
        let feed = try Fixtures.parse(xml: xml)
        #expect(feed.items.map(\.title) == ["A bold title", "plain <b>"])
        #expect(feed.items.map(\.url) == ["https://types.example/1", "https://types.example/2.pdf"])
        #expect(feed.items.first?.contentHTML == "<p>x</p>")
    }
}
