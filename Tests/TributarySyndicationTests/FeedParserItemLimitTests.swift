import Foundation
import Testing
import TributaryModel
import TributarySyndication

/// `FeedParser.Options.maxItems`: the first items in document order are read, the rest skipped unread and counted,
/// in every format, and the feed's own fields after the items are still read.
@Suite("FeedParser: the most items read")
struct FeedParserItemLimitTests {
    private static func parse(_ text: String, maxItems: Int) throws -> ParsedFeed {
        try FeedParser(FeedParser.Options(source: "s", maxItems: maxItems)).parse(Array(text.utf8))
    }

    /// Items `i` of `range`, each with a title, a link and content, in RSS, Atom or JSON Feed; the feed's title comes
    /// after the items in the XML formats, so a parser that stopped at the limit would lose it.
    private static func document(_ format: FeedFormat, _ range: Range<Int>) -> String {
        switch format {
        case .rss:
            return "<rss version=\"2.0\"><channel>"
                + range.map { "<item><title>t\($0)</title><link>https://e.com/\($0)</link><description>&lt;p>\($0)</description></item>" }
                .joined() + "<title>Late title</title></channel></rss>"
        case .atom:
            return "<feed xmlns=\"http://www.w3.org/2005/Atom\">"
                + range.map {
                    "<entry><id>urn:e:\($0)</id><title>t\($0)</title><link href=\"https://e.com/\($0)\"/><content type=\"html\">&lt;p>\($0)</content></entry>"
                }.joined() + "<title>Late title</title></feed>"
        case .jsonFeed:
            let items = range.map { "{\"id\": \"\($0)\", \"title\": \"t\($0)\", \"url\": \"https://e.com/\($0)\"}" }
            return
                "{\"version\": \"https://jsonfeed.org/version/1.1\", \"title\": \"Late title\", \"items\": [\(items.joined(separator: ", "))]}"
        }
    }

    @Test("The first items are read, the rest counted, the feed's fields after them kept", arguments: [FeedFormat.rss, .atom, .jsonFeed])
    func limit(_ format: FeedFormat) throws {
        let feed = try Self.parse(Self.document(format, 0..<25), maxItems: 10)
        #expect(feed.items.map(\.title) == (0..<10).map { "t\($0)" })
        #expect(feed.items.last?.url == "https://e.com/9")
        #expect(feed.itemsLeftOut == 15)
        #expect(feed.info.title == "Late title")
        #expect(feed.problems.isEmpty, "the caller decides whether to warn: \(feed.problems)")
    }

    @Test("At or under the limit nothing is left out", arguments: [FeedFormat.rss, .atom, .jsonFeed])
    func underTheLimit(_ format: FeedFormat) throws {
        for count in [0, 9, 10] {
            let feed = try Self.parse(Self.document(format, 0..<count), maxItems: 10)
            #expect(feed.items.count == count)
            #expect(feed.itemsLeftOut == 0)
        }
    }

    @Test("RSS 1.0 items, which stand beside the channel, and a nested element inside a skipped item")
    func rdf() throws {
        let items = (0..<5).map {
            "<item rdf:about=\"https://e.com/\($0)\"><title>t\($0)</title><link>https://e.com/\($0)</link><dc:subject><b>x</b></dc:subject></item>"
        }
        let text = """
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" \
            xmlns:dc="http://purl.org/dc/elements/1.1/"><channel rdf:about="https://e.com/"><title>RDF</title></channel>\
            \(items.joined())<textinput><title>Search</title></textinput></rdf:RDF>
            """
        let feed = try Self.parse(text, maxItems: 2)
        #expect(feed.items.map(\.title) == ["t0", "t1"])
        #expect(feed.itemsLeftOut == 3)
        #expect(feed.info.title == "RDF")
    }

    @Test("Documents one after another share the limit: the second one's items count with the first one's")
    func concatenated() throws {
        let text = Self.document(.rss, 0..<6) + "\n" + Self.document(.rss, 6..<12)
        let feed = try Self.parse(text, maxItems: 8)
        #expect(feed.items.map(\.title) == (0..<8).map { "t\($0)" })
        #expect(feed.itemsLeftOut == 4)
    }

    @Test("Without a limit every item is read")
    func noLimit() throws {
        let feed = try FeedParser(FeedParser.Options(source: "s")).parse(Array(Self.document(.rss, 0..<300).utf8))
        #expect(feed.items.count == 300)
        #expect(feed.itemsLeftOut == 0)
    }
}
