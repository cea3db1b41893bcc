import Foundation
import Testing
import TributaryModel
import TributarySyndication

/// One item (or feed) with tens of thousands of enclosures or authors, duplicates among them.
///
/// No test here measures time (the machines are shared and noisy). Each reads 50,000 of one kind
/// in one item: the parser finds a duplicate by a lookup, and a search of the kept ones instead
/// costs a comparison with each of up to 10,000 kept for every one read, which at this size makes
/// the suite take minutes, not a second. What the tests check is that the first
/// `FeedParser.maxAttachmentsPerItem` or `maxAuthors` come out, in document order, with the first
/// of a duplicate kept and merged as before (also when a later mention comes after the limit left
/// others out), and one warning for the item.
@Suite("FeedParser: many enclosures or authors in one item")
struct FeedParserManyPerItemTests {
    private typealias Fixtures = FeedParserFixtures

    /// How many of one kind the large documents have.
    static let count = 50_000
    static let attachmentLimit = FeedParser.maxAttachmentsPerItem
    static let authorLimit = FeedParser.maxAuthors

    /// The ways a document lists an item's files: the element for a file, and for a second mention
    /// of the same file with another type and a size.
    enum EnclosureForm: String, CaseIterable, CustomTestStringConvertible {
        case rssEnclosure, mediaContent, atomLink

        var testDescription: String { rawValue }

        func element(_ url: String, size: Int?) -> String {
            let type = size == nil ? "audio/mpeg" : "video/mp4"
            switch self {
            case .rssEnclosure: return "<enclosure url=\"\(url)\" type=\"\(type)\"\(size.map { " length=\"\($0)\"" } ?? "")/>"
            case .mediaContent: return "<media:content url=\"\(url)\" type=\"\(type)\"\(size.map { " fileSize=\"\($0)\"" } ?? "")/>"
            case .atomLink: return "<link rel=\"enclosure\" href=\"\(url)\" type=\"\(type)\"\(size.map { " length=\"\($0)\"" } ?? "")/>"
            }
        }

        func document(item body: String) -> String {
            switch self {
            case .rssEnclosure, .mediaContent:
                return """
                    <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><title>c</title>
                    <item><title>many</title><link>http://example.org/many</link>\(body)</item></channel></rss>
                    """
            case .atomLink:
                return """
                    <feed xmlns="http://www.w3.org/2005/Atom"><title>c</title><id>urn:c</id><updated>2024-01-01T00:00:00Z</updated>
                    <entry><title>many</title><id>urn:c:1</id><link href="http://example.org/many"/><updated>2024-01-01T00:00:00Z</updated>\(body)</entry></feed>
                    """
            }
        }
    }

    /// File `i` is followed, at every 7th `i`, by a second mention of file `i / 2` with another
    /// type and a size: that file stays where it first came, keeps its type and gains the size
    /// (which no later mention changes: 2k and 2k+1 are never both multiples of 7). The first
    /// 10,000 files are kept, and all of them gain their size, some after the limit left files out.
    @Test(arguments: EnclosureForm.allCases)
    func fiftyThousandEnclosuresInOneItem(_ form: EnclosureForm) throws {
        var body = ""
        body.reserveCapacity(Self.count * 100)
        var expected = (0..<Self.count).map { Attachment(url: "http://example.org/e/\($0)", mimeType: "audio/mpeg") }
        for index in 0..<Self.count {
            body += form.element("http://example.org/e/\(index)", size: nil)
            if index % 7 == 0 {
                body += form.element("http://example.org/e/\(index / 2)", size: index + 1)
                expected[index / 2].sizeInBytes = index + 1
            }
        }
        let feed = try Fixtures.parse(xml: form.document(item: body))
        let item = try #require(feed.items.first)
        #expect(feed.items.count == 1)
        #expect(item.attachments.count == Self.attachmentLimit)
        #expect(item.attachments == Array(expected.prefix(Self.attachmentLimit)))
        // One warning, at the item (its start tag ends on line 2).
        #expect(
            feed.problems.map(\.message) == [
                "the item has more than \(Self.attachmentLimit) attachments (enclosures, media:content); only the first \(Self.attachmentLimit) are kept"
            ])
        #expect(feed.problems.first?.line == 2)
    }

    /// Atom `author`s: one with the name and URL of one kept, or with its name and no URL, is a
    /// duplicate; one with a known name and another URL is another author.
    @Test func fiftyThousandAtomAuthorsInOneEntry() throws {
        var body = ""
        body.reserveCapacity(Self.count * 200)
        var expected: [Author] = []
        func person(_ name: String, _ url: String?) -> String {
            "<author><name>\(name)</name>\(url.map { "<uri>\($0)</uri>" } ?? "")</author>"
        }
        for index in 0..<Self.count {
            body += person("n\(index)", "http://example.org/p/\(index)")
            expected.append(Author(name: "n\(index)", url: "http://example.org/p/\(index)"))
            if index % 7 == 0 {
                let earlier = index / 2
                body += person("n\(earlier)", nil) + person("n\(earlier)", "http://example.org/p/\(earlier)")
                body += person("n\(earlier)", "http://example.org/q/\(earlier)")
                expected.append(Author(name: "n\(earlier)", url: "http://example.org/q/\(earlier)"))
            }
        }
        let feed = try Fixtures.parse(xml: EnclosureForm.atomLink.document(item: body))
        let item = try #require(feed.items.first)
        #expect(item.authors.count == Self.authorLimit)
        #expect(item.authors == Array(expected.prefix(Self.authorLimit)))
        #expect(feed.problems.map(\.message) == [Self.itemAuthorsWarning])
    }

    static let itemAuthorsWarning = "the item has more than \(authorLimit) authors; only the first \(authorLimit) are kept"

    /// An RSS item's `dc:creator`s, and, without them, its `itunes:author`s: a repeated name is
    /// dropped, the first kept.
    @Test(arguments: ["dc:creator", "itunes:author"])
    func fiftyThousandRSSAuthorsInOneItem(_ element: String) throws {
        var body = ""
        body.reserveCapacity(Self.count * 60)
        for index in 0..<Self.count {
            body += "<\(element)>n\(index)</\(element)>"
            if index % 7 == 0 { body += "<\(element)>n\(index / 2)</\(element)>" }
        }
        let xml = """
            <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
            <channel><title>c</title><item><title>many</title><link>http://example.org/many</link>\(body)</item></channel></rss>
            """
        let feed = try Fixtures.parse(xml: xml)
        let item = try #require(feed.items.first)
        #expect(item.authors == (0..<Self.authorLimit).map { Author(name: "n\($0)") })
        #expect(feed.problems.map(\.message) == [Self.itemAuthorsWarning])
    }

    /// A feed's authors, which an Atom entry without its own inherits.
    @Test func fiftyThousandFeedAuthors() throws {
        var people = ""
        people.reserveCapacity(Self.count * 40)
        for index in 0..<Self.count {
            people += "<author><name>n\(index)</name></author>"
            if index % 7 == 0 { people += "<author><name>n\(index / 2)</name></author>" }
        }
        let xml = """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>c</title><id>urn:c</id><updated>2024-01-01T00:00:00Z</updated>\(people)
            <entry><title>one</title><id>urn:c:1</id><link href="http://example.org/one"/><updated>2024-01-01T00:00:00Z</updated></entry></feed>
            """
        let feed = try Fixtures.parse(xml: xml)
        let expected = (0..<Self.authorLimit).map { Author(name: "n\($0)") }
        #expect(feed.info.authors == expected)
        #expect(feed.items.first?.authors == expected)
        #expect(
            feed.problems.map(\.message) == [
                "the feed has more than \(Self.authorLimit) authors; only the first \(Self.authorLimit) are kept"
            ])
        #expect(feed.problems.first?.line == 1)
    }

    /// As many as the limits keep, each mentioned twice: all kept, and no warning.
    @Test func exactlyTheLimitsAreNoProblem() throws {
        var body = ""
        for index in 0..<max(Self.attachmentLimit, Self.authorLimit) {
            if index < Self.attachmentLimit { body += "<enclosure url=\"http://example.org/e/\(index)\"/>" }
            if index < Self.authorLimit { body += "<dc:creator>n\(index)</dc:creator>" }
        }
        let xml = """
            <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>c</title>
            <item><title>many</title>\(body + body)</item></channel></rss>
            """
        let feed = try Fixtures.parse(xml: xml)
        let item = try #require(feed.items.first)
        #expect(item.attachments.count == Self.attachmentLimit)
        #expect(item.authors.count == Self.authorLimit)
        #expect(feed.problems.isEmpty)
    }

    /// A JSON Feed keeps as many attachments and authors, in order, with one warning for each list cut.
    @Test func jsonFeedKeepsAsMany() throws {
        let attachments = (0..<Self.count).map { "{\"url\":\"http://example.org/e/\($0)\"}" }.joined(separator: ",")
        let authors = (0..<Self.count).map { "{\"name\":\"n\($0)\"}" }.joined(separator: ",")
        let json = """
            {"version":"https://jsonfeed.org/version/1.1","title":"c","authors":[\(authors)],
            "items":[{"id":"1","url":"http://example.org/1","attachments":[\(attachments)],"authors":[\(authors)]},{"id":"2"}]}
            """
        let feed = try Fixtures.parse(bytes: Array(json.utf8))
        let expectedAuthors = (0..<Self.authorLimit).map { Author(name: "n\($0)") }
        #expect(feed.info.authors == expectedAuthors)
        #expect(feed.items.map(\.authors) == [expectedAuthors, expectedAuthors])
        #expect(feed.items.first?.attachments == (0..<Self.attachmentLimit).map { Attachment(url: "http://example.org/e/\($0)") })
        #expect(
            feed.problems.map(\.message) == [
                "the feed has more than \(Self.authorLimit) authors; only the first \(Self.authorLimit) are kept",
                "item 1 has more than \(Self.authorLimit) authors; only the first \(Self.authorLimit) are kept",
                "item 1 has more than \(Self.attachmentLimit) attachments; only the first \(Self.attachmentLimit) are kept",
            ])
    }

    /// The rules for duplicate authors, one case each: the first one kept stays where it is.
    @Test func duplicateAuthorRules() throws {
        let xml = """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>c</title><id>urn:c</id><updated>2024-01-01T00:00:00Z</updated>
            <entry><title>e</title><id>urn:c:1</id><updated>2024-01-01T00:00:00Z</updated>
            <author><name>Ann</name></author>
            <author><name>Ann</name><uri>http://a.example/ann</uri></author>
            <author><name>Ann</name></author>
            <author><name>Ann</name><uri>http://a.example/ann</uri><email>ann@a.example</email></author>
            <author><name>Ann</name><uri>http://a.example/ann2</uri></author>
            <author><uri>http://a.example/nameless</uri></author>
            <author><uri>http://a.example/nameless</uri></author>
            <author><name>Bob</name><email>bob@a.example</email></author>
            <author><name>Bob</name></author>
            <author><name>Bob</name><uri>mailto:bob@a.example</uri></author>
            </entry></feed>
            """
        let item = try #require(try Fixtures.parse(xml: xml).items.first)
        #expect(
            item.authors == [
                Author(name: "Ann"), Author(name: "Ann", url: "http://a.example/ann"), Author(name: "Ann", url: "http://a.example/ann2"),
                Author(url: "http://a.example/nameless"), Author(name: "Bob", url: "mailto:bob@a.example"),
            ])
    }

    /// Three mentions of one file: the first's fields win, the later ones fill only what is missing.
    @Test func laterMentionsOfAFileFillOnlyWhatIsMissing() throws {
        let xml = """
            <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><item><title>t</title>
            <media:content url="https://m.example/a.mp3" type="audio/x-first" fileSize="5"/>
            <enclosure url="https://m.example/b.mp3" type="audio/ogg"/>
            <enclosure url="https://m.example/a.mp3" length="100" type="audio/mpeg"/>
            <media:content url="https://m.example/a.mp3" type="audio/aac" fileSize="7" duration="61"/>
            <media:content url="https://m.example/b.mp3" duration="9"/>
            </item></channel></rss>
            """
        let item = try #require(try Fixtures.parse(xml: xml).items.first)
        #expect(
            item.attachments == [
                Attachment(url: "https://m.example/a.mp3", mimeType: "audio/x-first", sizeInBytes: 5, durationInSeconds: 61),
                Attachment(url: "https://m.example/b.mp3", mimeType: "audio/ogg", durationInSeconds: 9),
            ])
    }
}
