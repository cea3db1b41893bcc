import Foundation
import Testing
import TributaryModel
import TributarySyndication

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite("OPML reader and writer")
struct OPMLTests {
    struct ExpectedFeed: Decodable, Equatable {
        var url: String
        var folders: [String]
        var name: String?
    }

    static func large() throws -> (OPMLDocument, [Problem]) {
        let url = try Fixture.url("opml/large-subscriptions", "opml")
        let result = try OPMLReader().read(Array(try Data(contentsOf: url)))
        return (result.document, result.problems)
    }

    static func expectedFeeds() throws -> [ExpectedFeed] {
        try JSONDecoder().decode([ExpectedFeed].self, from: Data(contentsOf: try Fixture.url("opml/large-subscriptions.expected", "json")))
    }

    @Test func aLargeRealShapedListIsReadWhole() throws {
        let (document, problems) = try Self.large()
        #expect(document.title == "My subscriptions in a reader")
        let feeds = document.feeds.map { ExpectedFeed(url: $0.outline.xmlURL ?? "", folders: $0.folders, name: $0.outline.name) }
        let expected = try Self.expectedFeeds()
        #expect(feeds.count == 486)
        #expect(feeds == expected)
        // Nested three deep.
        #expect(feeds.map(\.folders.count).max() == 3)
        // The bare `&` was repaired, and said so with its position.
        #expect(problems.contains { $0.severity == .warning && $0.line != nil && $0.message.contains("&") }, "\(problems)")
    }

    @Test func bookmarksAndEmptyOutlinesAreNotFeeds() throws {
        let (document, _) = try Self.large()
        var all: [OPMLOutline] = []
        func walk(_ outlines: [OPMLOutline]) {
            for outline in outlines {
                all.append(outline)
                walk(outline.children)
            }
        }
        walk(document.outlines)
        #expect(all.count == 618)
        #expect(all.filter { $0.type == "link" }.allSatisfy { !$0.isFeed })
        #expect(all.contains { $0.name == "empty outline" && !$0.isFeed && $0.children.isEmpty })
        #expect(all.first { $0.xmlURL == "https://example.com/digest/9/feed.xml" }?.htmlURL == "https://example.com/")
        #expect(all.first { $0.xmlURL == "https://example.com/digest/9/feed.xml" }?.line == 22)
    }

    @Test func theWriterRoundTripsTheLargeList() throws {
        let (document, _) = try Self.large()
        let text = OPMLWriter(dateCreated: Date(timeIntervalSince1970: 0)).document(document)
        #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<opml version=\"2.0\">\n  <head>\n"))
        #expect(text.contains("<dateCreated>Thu, 01 Jan 1970 00:00:00 +0000</dateCreated>"))
        let (again, problems) = try OPMLReader().read(Array(text.utf8))
        #expect(problems.isEmpty, "\(problems)")
        #expect(again.title == document.title)
        #expect(again.feeds.map(\.outline.xmlURL) == document.feeds.map(\.outline.xmlURL))
        #expect(again.feeds.map(\.folders) == document.feeds.map(\.folders))
        #expect(again.feeds.map(\.outline.name) == document.feeds.map { $0.outline.name ?? $0.outline.xmlURL })
        // Every outline of OPML 2.0 has text; feeds have type and xmlUrl.
        let reparsed = try XMLDocument(data: Data(text.utf8))
        let outlines = try reparsed.nodes(forXPath: "//outline").compactMap { $0 as? XMLElement }
        #expect(outlines.allSatisfy { $0.attribute(forName: "text") != nil })
        let feedTypes = outlines.filter { $0.attribute(forName: "xmlUrl") != nil }.map { $0.attribute(forName: "type")?.stringValue ?? "" }
        #expect(Set(feedTypes) == ["rss", "atom"])
    }

    /// What Tributary writes of a source goes into attributes of its own namespace, declared only when used, and is
    /// read back in that namespace whatever its prefix; a same-named attribute of another namespace is not it.
    @Test func tributaryAttributesRoundTripInTheirNamespace() throws {
        let source = OPMLOutline.SourceAttributes(name: "Hacker News & co", adapter: "jsonfeed", enabled: false)
        let document = OPMLDocument(outlines: [
            OPMLOutline(text: "Folder", children: [OPMLOutline(text: "HN", xmlURL: "https://hn.example/feed.json", source: source)])
        ])
        let text = OPMLWriter().document(document)
        #expect(text.contains(#"<opml version="2.0" xmlns:tributary="urn:tributary:opml">"#))
        #expect(text.contains(#"tributary:name="Hacker News &amp; co" tributary:adapter="jsonfeed" tributary:enabled="false"/>"#))
        let (again, problems) = try OPMLReader().read(Array(text.utf8))
        #expect(problems.isEmpty)
        #expect(again.feeds.map(\.outline.source) == [source])
        let plain = OPMLWriter().document(OPMLDocument(outlines: [OPMLOutline(text: "a", xmlURL: "https://a.example/")]))
        #expect(!plain.contains("xmlns:tributary"))

        let other = """
            <opml version="2.0" xmlns:t="urn:tributary:opml" xmlns:x="https://other.example/"><body>
            <outline text="a" xmlUrl="https://a.example/" x:name="Other" t:adapter="rss" t:enabled="no"/>
            <outline text="b" xmlUrl="https://b.example/" name="Plain"/>
            </body></opml>
            """
        let (read, warnings) = try OPMLReader().read(Array(other.utf8))
        #expect(read.feeds.map(\.outline.source) == [OPMLOutline.SourceAttributes(adapter: "rss"), nil])
        #expect(warnings.map(\.description) == ["2: warning: tributary:enabled must be true or false, found 'no'"])
    }

    @Test(
        arguments: [
            ("<rss version=\"2.0\"><channel/></rss>", "1: not OPML: the root element is <rss>"),
            ("", "the document is empty"),
            ("<opml><body><outline text=\"a\">", "1:"),
            ("not xml at all", "1:"),
        ])
    func whatIsNotOPMLIsRefusedWithItsPlace(text: String, start: String) {
        #expect {
            _ = try OPMLReader().read(Array(text.utf8))
        } throws: { error in
            "\(error)".hasPrefix(start)
        }
    }

    @Test func nestingIsBounded() throws {
        let open = String(repeating: "<outline text=\"f\">", count: 40)
        let close = String(repeating: "</outline>", count: 40)
        let deep = "<opml><body>" + open + close + "</body></opml>"
        #expect(throws: FeedParseError.self) { _ = try OPMLReader(maxDepth: 30).read(Array(deep.utf8)) }
        let (document, _) = try OPMLReader().read(Array(deep.utf8))
        var depth = 0
        var level = document.outlines
        while let first = level.first {
            depth += 1
            level = first.children
        }
        #expect(depth == 40)
    }

    @Test func aGBKEncodedListIsDecoded() throws {
        let bytes = try Data(contentsOf: try Fixture.url("opml/gbk", "opml"))
        #expect(!bytes.isEmpty && String(data: bytes, encoding: .utf8) == nil)
        let (document, _) = try OPMLReader().read(Array(bytes))
        #expect(document.title == "订阅")
        #expect(document.feeds.map(\.folders) == [["新闻"]])
        #expect(document.feeds.first?.outline.name == "阮一峰")
    }
}
