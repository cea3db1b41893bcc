import Foundation
import Testing
import TributaryModel
import TributarySyndication

@Suite("FeedParser: format sniffing")
struct FeedParserSniffTests {
    private typealias Fixtures = FeedParserFixtures

    @Test(arguments: [
        ("rss20-full.xml", FeedFormat.rss), ("rss091-doctype.xml", .rss), ("rss092.xml", .rss), ("rss10-dublin-core.xml", .rss),
        ("rss090.xml", .rss), ("atom10-xhtml.xml", .atom), ("atom03.xml", .atom), ("utf16le-bom.xml", .atom), ("utf16be-bom.xml", .atom),
        ("chinese-gb2312.xml", .rss), ("feed.json", .jsonFeed), ("hostile-billion-laughs.xml", .rss),
    ])
    func fixtures(file: String, format: FeedFormat) throws {
        #expect(FeedParser.sniff(try Fixtures.bytes(file)) == format)
    }

    @Test(arguments: [
        ("  \n\t{\"version\": \"https://jsonfeed.org/version/1\"}", FeedFormat.jsonFeed),
        ("\u{FEFF}{}", .jsonFeed),
        ("<!-- generator --><?xml-stylesheet href=\"s.xsl\"?><rss/>", .rss),
        ("<channel><title>Userland</title></channel>", .rss),
        ("<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"/>", .rss),
        ("<atom:feed xmlns:atom=\"http://www.w3.org/2005/Atom\"/>", .atom),
    ])
    func documents(text: String, format: FeedFormat) {
        #expect(FeedParser.sniff(Array(text.utf8)) == format)
    }

    @Test(arguments: ["", "   ", "<!DOCTYPE html><html></html>", "plain text", "<?xml version=\"1.0\"?><opml/>", "[1, 2]"])
    func notFeeds(text: String) {
        #expect(FeedParser.sniff(Array(text.utf8)) == nil)
    }

    @Test func jsonFeedIsDelegated() throws {
        let feed = try Fixtures.parse("feed.json")
        #expect(feed.format == .jsonFeed)
        #expect(feed.info.title == "JSON Example")
        #expect(feed.items.map(\.title) == ["JSON item"])
        #expect(feed.items.first?.contentHTML == "<p>Hi</p>")
    }

    /// A document that is no markup says what it starts with, not libxml2's "Document is empty".
    @Test(arguments: [
        ("hello world\n", "it starts with 'hello world\\n', which is neither XML nor JSON"),
        (
            "Fetching...\n{\"version\": \"https://jsonfeed.org/version/1.1\", \"items\": []}",
            "it starts with 'Fetching...\\n{\"version\": \"https://jsonfee…', which is neither XML nor JSON; "
                + "a document seems to begin on line 2: is something printed before it?"
        ),
        ("  [1, 2]", "it starts with '[1, 2]', a JSON array: a JSON Feed is an object ({…})"),
        ("\u{FEFF}it's\u{1}", "it starts with 'it\\'s\\u{1}', which is neither XML nor JSON"),
        ("", "the document is empty"),
        ("<html", "1:6: not a feed: the root element is <html>, not <rss>, <rdf:RDF> or <feed>"),
    ])
    func notMarkupSaysWhatItStartsWith(text: String, message: String) {
        let error = #expect(throws: FeedParseError.self) { try Fixtures.parse(xml: text) }
        #expect(error?.description == message)
    }

    /// Without `quotesContent` (a local file, whose failure may reach a published page) none of the content is
    /// quoted; what kind of start it is, and where a document seems to begin, still are.
    @Test(arguments: [
        ("SECRET_TOKEN=abcd1234 and more\n", "it starts with neither '<' nor '{': it is neither XML nor JSON"),
        (
            "password: hunter2\n{\"version\": \"https://jsonfeed.org/version/1.1\", \"items\": []}",
            "it starts with neither '<' nor '{': it is neither XML nor JSON; "
                + "a document seems to begin on line 2: is something printed before it?"
        ),
        ("[\"secret\"]", "it is a JSON array: a JSON Feed is an object ({…})"),
    ])
    func aLocalFileIsNotQuoted(text: String, message: String) {
        let parser = FeedParser(FeedParser.Options(source: "file", quotesContent: false))
        let error = #expect(throws: FeedParseError.self) { try parser.parse(Array(text.utf8)) }
        #expect(error?.description == message)
    }

    @Test func brokenJSONThrows() {
        #expect(throws: FeedParseError.self) { try Fixtures.parse(xml: "{\"version\": ") }
    }
}
