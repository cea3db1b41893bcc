import Foundation
import Testing
import TributaryModel
import TributarySyndication

/// Documents served one after the other in one response (a script that printed its feed twice, files joined): the
/// items of each are read, as Python's feedparser reads them.
@Suite("FeedParser: several documents in one response")
struct FeedParserConcatenationTests {
    private typealias Fixtures = FeedParserFixtures

    private static func rss(_ title: String, items: [String], declaration: Bool = true) -> String {
        (declaration ? "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n" : "")
            + "<rss version=\"2.0\"><channel><title>\(title)</title>\n"
            + items.map { "<item><title>\($0)</title><link>https://e.com/\($0)</link></item>\n" }.joined()
            + "</channel></rss>\n"
    }

    @Test("Two documents, each with its XML declaration: the items of both, the first one's feed, one warning where the second begins")
    func twoDeclaredDocuments() throws {
        let feed = try Fixtures.parse(xml: Self.rss("First", items: ["a", "b"]) + Self.rss("Second", items: ["c"]))
        #expect(feed.info.title == "First")
        #expect(feed.items.map(\.title) == ["a", "b", "c"])
        #expect(feed.items.map(\.url) == ["https://e.com/a", "https://e.com/b", "https://e.com/c"])
        #expect(feed.problems.map(\.message) == ["another document follows; its items are read too"])
        #expect(feed.problems.first?.line == 6)
        #expect(feed.problems.first?.column == 1)
    }

    @Test("An Atom document, a comment, then RSS without a declaration on the same line; the same items twice count once")
    func mixedFormatsAndRepeats() throws {
        let atom = """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>Atom</title>
            <entry><id>urn:x:1</id><title>one</title><link href="https://e.com/1"/></entry>
            </feed>
            """
        let second = Self.rss("RSS", items: ["two", "three"], declaration: false)
        let feed = try Fixtures.parse(xml: atom + "  <!-- joined -->  " + second + second)
        #expect(feed.info.title == "Atom")
        #expect(feed.items.map(\.title) == ["one", "two", "three"])
        let notes = Fixtures.problems(feed, containing: "another document follows")
        #expect(notes.count == 2)
        #expect(notes.first?.line == 3)
        #expect(notes.first?.column == 27, "after `</feed>  <!-- joined -->  ` on line 3")
    }

    @Test("Three documents on one line: each start noted once, and no error about the declarations after the first")
    func oneLine() throws {
        let one = { (title: String) in
            "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><item><title>\(title)</title><link>https://e.com/\(title)</link></item></channel></rss>"
        }
        let feed = try Fixtures.parse(xml: one("a") + one("b") + one("c"))
        #expect(feed.items.map(\.title) == ["a", "b", "c"])
        #expect(feed.problems.map(\.message) == Array(repeating: "another document follows; its items are read too", count: 2))
        #expect(feed.problems.map(\.column) == [123, 245], "each document is 122 characters long")
    }

    @Test("A problem in a later document is placed in the whole response")
    func problemsOfLaterDocuments() throws {
        let broken = "<rss version=\"2.0\"><channel>\n<item><title>c <b>bold</title><link>https://e.com/c</link></item>\n</channel></rss>\n"
        let feed = try Fixtures.parse(xml: Self.rss("First", items: ["a"]) + broken)
        #expect(feed.items.map(\.title) == ["a", "c bold"])
        let problem = try #require(feed.problems.first { $0.message.contains("<b>") })
        #expect(problem.line == 6, "line 2 of the second document, which begins on line 5")
    }

    @Test("Bytes after the root that begin no document stay ignored, with the warning")
    func junkIsNotADocument() throws {
        let feed = try Fixtures.parse(xml: Self.rss("First", items: ["a"]) + "<p>not a feed</p>\n" + Self.rss("Later", items: ["b"]))
        #expect(feed.items.map(\.title) == ["a"])
        #expect(!Fixtures.problems(feed, containing: "content after the end of the document ignored").isEmpty)
        #expect(Fixtures.problems(feed, containing: "another document follows").isEmpty)
    }

    @Test("An end tag of the root's name inside CDATA is not where the document ends")
    func endTagInsideCDATA() throws {
        let first = """
            <rss version="2.0"><channel><title>First</title>
            <item><title>a</title><description><![CDATA[quoted: </rss> and more]]></description></item>
            </channel></rss>

            """
        let feed = try Fixtures.parse(xml: first + Self.rss("Second", items: ["b"]))
        #expect(feed.items.map(\.title) == ["a", "b"])
        #expect(feed.items.first?.contentHTML == "quoted: </rss> and more")
    }

    @Test(
        "Text a server printed before the first document (a PHP warning) does not hide the documents after it",
        arguments: ["Warning: x\n", "<br />\n<b>Warning</b>: Undefined index in feed.php on line 3<br />\n"],
        [true, false])
    func textBeforeConcatenatedDocuments(prefix: String, secondDeclared: Bool) throws {
        let feed = try Fixtures.parse(
            xml: prefix + Self.rss("First", items: ["a"]) + Self.rss("Second", items: ["b"], declaration: secondDeclared))
        #expect(feed.items.map(\.title) == ["a", "b"])
        let lines = prefix.count { $0 == "\n" }
        #expect(Fixtures.problems(feed, containing: "another document follows").map(\.line) == [lines + 5])
        #expect(feed.problems.allSatisfy { $0.severity == .warning }, "\(feed.problems)")
    }

    @Test("At most 16 documents are read from one response")
    func limit() throws {
        let documents = (0..<20).map { Self.rss("Feed \($0)", items: ["item\($0)"]) }.joined()
        let feed = try Fixtures.parse(xml: documents)
        #expect(feed.items.map(\.title) == (0..<16).map { "item\($0)" })
    }
}
