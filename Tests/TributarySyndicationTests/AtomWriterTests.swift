import Foundation
import TestSupport
import Testing
import TributaryModel
import TributarySyndication

@Suite("Atom writer")
struct AtomWriterTests {
    static let now = utc(2024, 5, 1, 12)
    static let published = utc(2024, 4, 30, 8, 30)
    static let updated = utc(2024, 4, 30, 9, 15, 5, ms: 250)

    static let head = AtomWriter.Head(
        id: "https://example.com/river.atom", title: "River & <friends>", author: Author(name: "Tributary"),
        selfURL: "https://example.com/river.atom", homePageURL: "https://example.com/", subtitle: "Everything, once",
        updated: now)

    static let sources: [String: FeedInfo] = [
        "blog": FeedInfo(
            title: "A Blog", homePageURL: "https://blog.example.com/", feedURL: "https://blog.example.com/feed.json",
            updated: utc(2024, 4, 30)),
        "news": FeedInfo(title: "News \"Daily\" & Co"),
        "atom": FeedInfo(
            title: "An Atom feed", feedURL: "https://atom.example/feed.atom",
            authors: [Author(name: "Ann", url: "https://ann.example/"), Author(name: "Bo", url: "mailto:bo@atom.example")],
            id: "tag:atom.example,2024:feed"),
        "empty-title": FeedInfo(title: ""),
    ]

    static let writer = AtomWriter(generatorVersion: "1.2.3", sources: sources, fallbackDate: now)

    static func document(_ items: [Item], head: AtomWriter.Head = head) -> String {
        writer.document(head: head, items: items)
    }

    // MARK: - Documents that must validate

    struct ValidationCase: Sendable, CustomTestStringConvertible {
        var name: String
        var head: AtomWriter.Head = AtomWriterTests.head
        var items: [Item]
        var testDescription: String { name }
    }

    static let hostile = "Tom & \"Jerry\" <b>]]></b> '\u{0}\u{1}\u{8}\u{B}\u{1F}\u{FFFE}\u{FFFF}' \t\r\n 头条 😀"

    static let validationCases: [ValidationCase] = [
        ValidationCase(
            name: "a normal document",
            items: [
                Item(
                    id: "https://blog.example.com/posts/1", source: "blog", url: "https://blog.example.com/posts/1",
                    title: "First post", summary: "The first one.", contentHTML: "<p>The <em>first</em> one.</p>",
                    image: "https://blog.example.com/1.png", authors: [Author(name: "Ann", url: "https://ann.example.com/")],
                    published: published, updated: updated, tags: ["swift", "feeds"], metrics: ["comments": 3], score: 1.5),
                Item(id: "42", source: "news", url: "https://news.example.com/42", title: "Second", published: published),
            ]),
        ValidationCase(name: "an empty feed", items: []),
        ValidationCase(
            name: "an entry from a feed with an id and authors", items: [Item(id: "1", source: "atom", url: "https://atom.example/1")]),
        ValidationCase(
            name: "an empty feed with a minimal head",
            head: AtomWriter.Head(id: "urn:tributary:feed:0", title: "", author: Author(), updated: Date(timeIntervalSince1970: 0)),
            items: []),
        ValidationCase(
            name: "an entry without a title", items: [Item(id: "1", source: "blog", url: "https://blog.example.com/1")]),
        ValidationCase(
            name: "an entry without a url", items: [Item(id: "1", source: "blog", title: "No link", contentHTML: "<p>Body</p>")]),
        ValidationCase(name: "an entry without a url or content", items: [Item(id: "1", source: "blog", title: "Just a title")]),
        ValidationCase(name: "an entry with nothing but an id", items: [Item(id: "1", source: "unknown-source")]),
        ValidationCase(
            name: "an entry without dates",
            items: [Item(id: "1", source: "blog", url: "https://blog.example.com/1", title: "Undated")]),
        ValidationCase(name: "an entry with only a summary", items: [Item(id: "1", source: "blog", summary: "Only this.")]),
        ValidationCase(
            name: "illegal XML characters and ]]> everywhere",
            head: AtomWriter.Head(
                id: "https://example.com/?q=" + hostile, title: hostile, author: Author(name: hostile, url: "https://x/" + hostile),
                selfURL: "https://example.com/" + hostile, homePageURL: "https://example.com/" + hostile, subtitle: hostile,
                updated: now),
            items: [
                Item(
                    id: hostile, source: hostile, url: "https://example.com/" + hostile, title: hostile, summary: hostile,
                    contentHTML: "<p>" + hostile + "</p>", authors: [Author(name: hostile, url: "mailto:" + hostile + "@x")],
                    tags: [hostile],
                    attachments: [Attachment(url: "https://example.com/" + hostile, mimeType: hostile, title: hostile, sizeInBytes: 1)],
                    duplicates: [DuplicateReference(source: hostile, url: "https://example.com/" + hostile, title: hostile)])
            ]),
        ValidationCase(
            name: "attachments with and without length and type",
            items: [
                Item(
                    id: "ep1", source: "blog", url: "https://blog.example.com/ep1", title: "Episode 1",
                    attachments: [
                        Attachment(
                            url: "https://cdn.example.com/ep1.mp3", mimeType: "audio/mpeg", title: "MP3", sizeInBytes: 12_345_678,
                            durationInSeconds: 3600),
                        Attachment(url: "https://cdn.example.com/ep1.bin"),
                        Attachment(url: "https://cdn.example.com/zero.txt", mimeType: "text/plain", sizeInBytes: 0),
                        Attachment(url: "https://cdn.example.com/negative", sizeInBytes: -1),
                        Attachment(url: "", mimeType: "audio/mpeg"),
                        Attachment(url: "https://cdn.example.com/sloppy.mp3", mimeType: "mp3"),
                        Attachment(url: "https://cdn.example.com/half", mimeType: "audio/"),
                    ])
            ]),
        ValidationCase(
            name: "merged duplicates",
            items: [
                Item(
                    id: "1", source: "blog", url: "https://blog.example.com/1", title: "Story",
                    duplicates: [
                        DuplicateReference(source: "news", url: "https://news.example.com/1", title: "Same story"),
                        DuplicateReference(source: "other", url: "https://other.example.com/1"),
                        DuplicateReference(source: "no-url", title: "Dropped"),
                        DuplicateReference(source: "empty-url", url: ""),
                    ])
            ]),
        ValidationCase(
            name: "authors with only a url, a mailto: url or nothing",
            items: [
                Item(
                    id: "1", source: "blog", url: "https://blog.example.com/1",
                    authors: [
                        Author(url: "https://ann.example.com/"), Author(url: "mailto:bob@example.com"),
                        Author(name: "Cy", url: "MAILTO:cy@example.com"), Author(name: "Dee", url: "mailto:not-an-address"),
                        Author(name: "Eve", url: "mailto:@example.com"), Author(name: "Fay", url: "mailto:fay@"),
                        Author(avatar: "https://example.com/face.png"), Author(), Author(name: "", url: ""),
                    ]),
                Item(id: "2", source: "blog", url: "https://blog.example.com/2", authors: []),
            ]),
        ValidationCase(
            name: "tags with quotes and ampersands",
            items: [
                Item(
                    id: "1", source: "blog", url: "https://blog.example.com/1",
                    tags: ["\"quoted\"", "rock & roll", "it's", "<tag>", "", "tab\there", "中文"])
            ]),
        ValidationCase(
            name: "ids that are not IRIs",
            items: [
                Item(id: "12345", source: "news", url: "https://news.example.com/12345"),
                Item(id: "has space", source: "news"),
                Item(id: "path/with?query=1&x", source: "source with spaces"),
                Item(id: "1:2", source: "news"), Item(id: ":leading-colon", source: "news"),
                Item(id: "zhihu:", source: "news"), Item(id: "知乎-1", source: "知乎"),
            ]),
        ValidationCase(
            name: "the same ids from several sources",
            items: [
                Item(id: "https://example.com/a", source: "blog"), Item(id: "https://example.com/a", source: "news"),
                Item(id: "https://example.com/a", source: "other"), Item(id: "7", source: "blog"), Item(id: "7", source: "news"),
            ]),
        ValidationCase(
            name: "dates across the range",
            items: [
                Item(id: "1", source: "blog", published: utc(1900, 1, 1), updated: utc(9999, 12, 31, 23, 59, 59)),
                Item(id: "2", source: "blog", published: Date(timeIntervalSince1970: -0.5)),
                Item(id: "3", source: "blog", updated: utc(2024, 2, 29, 12, 0, 0, ms: 7)),
            ]),
        ValidationCase(
            name: "dates outside years 0001–9999 (year zero, before it, after 9999)",
            items: [
                Item(id: "1", source: "blog", published: Date(timeIntervalSince1970: -62_135_596_800 - 86_400)),
                Item(id: "2", source: "blog", published: Date(timeIntervalSince1970: -1e12), updated: Date(timeIntervalSince1970: 1e12)),
            ]),
    ]

    @Test("documents validate against RFC 4287's RELAX NG schema", arguments: validationCases)
    func validates(_ testCase: ValidationCase) async throws {
        let xml = Self.document(testCase.items, head: testCase.head)
        try await Jing.expectValid(xml)
        let feed = try XMLTree.parse(xml)
        let entries = feed.all("entry")
        #expect(entries.count == testCase.items.count)
        let ids = entries.map { $0.first("id")?.text ?? "" }
        #expect(Set(ids).count == ids.count, "entry ids are not unique: \(ids)")
        // "]]>" only ends a CDATA section (a parser rejects it in text, but check the text too).
        #expect(!xml.replacing(/<!\[CDATA\[(?s:.*?)\]\]>/, with: "").contains("]]>"))
        #expect(xml.unicodeScalars.allSatisfy(XMLEscaping.isAllowed))
    }

    @Test(
        "jing rejects documents that break the schema",
        arguments: [
            (
                "a feed without an id",
                "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>T</title><updated>2024-05-01T12:00:00Z</updated></feed>"
            ),
            (
                "a bad date",
                "<feed xmlns=\"http://www.w3.org/2005/Atom\"><id>urn:x</id><title>T</title><updated>yesterday</updated></feed>"
            ),
            (
                "a bad email",
                "<feed xmlns=\"http://www.w3.org/2005/Atom\"><id>urn:x</id><title>T</title><updated>2024-05-01T12:00:00Z</updated>"
                    + "<author><name>N</name><email>@example.com</email></author></feed>"
            ),
        ])
    func jingRejects(_ name: String, _ xml: String) async throws {
        let result = try await Jing.validate(xml)
        #expect(result.status == 1, "\(name): \(result.standardOutput)")
        #expect(result.standardOutput.contains("error:"))
    }

    // MARK: - What the entries say

    /// The parts of an `<entry>` that matter, read back from the document.
    struct Entry: Equatable {
        struct Person: Equatable {
            var name: String
            var email: String? = nil
            var uri: String? = nil
        }

        var id: String
        var title: String
        var updated: String
        var published: String? = nil
        var authors: [Person] = []
        var links: [[String: String]] = []
        var categories: [String] = []
        var summary: String? = nil
        var content: [String: String]? = nil
        var source: [String: String] = [:]
    }

    static func entries(_ items: [Item], sourceLocation: SourceLocation = #_sourceLocation) throws -> [Entry] {
        try XMLTree.parse(document(items), sourceLocation: sourceLocation).all("entry").map(Entry.init)
    }

    struct EntryCase: Sendable, CustomTestStringConvertible {
        var name: String
        var item: Item
        var expected: Entry
        var testDescription: String { name }
    }

    static let blogSource = [
        "id": "https://blog.example.com/feed.json", "title": "A Blog", "link alternate": "https://blog.example.com/",
        "link self": "https://blog.example.com/feed.json", "updated": "2024-04-30T00:00:00Z",
    ]
    static func alternate(_ href: String) -> [String: String] { ["rel": "alternate", "type": "text/html", "href": href] }

    static let entryCases: [EntryCase] = [
        EntryCase(
            name: "every field",
            item: Item(
                id: "https://blog.example.com/posts/1", source: "blog", url: "https://blog.example.com/posts/1", title: "First post",
                summary: "The first one.", contentHTML: "<p>The <em>first</em> one.</p>",
                authors: [Author(name: "Ann", url: "https://ann.example.com/")], published: published, updated: updated,
                tags: ["swift", "feeds"]),
            expected: Entry(
                id: "https://blog.example.com/posts/1", title: "First post", updated: "2024-04-30T09:15:05.250Z",
                published: "2024-04-30T08:30:00Z", authors: [.init(name: "Ann", uri: "https://ann.example.com/")],
                links: [alternate("https://blog.example.com/posts/1")], categories: ["swift", "feeds"], summary: "The first one.",
                content: ["type": "html", "text": "<p>The <em>first</em> one.</p>"], source: blogSource)),
        EntryCase(
            name: "no title: the summary's start stands in, the summary is the HTML content",
            item: Item(id: "1", source: "news", summary: String(repeating: "word ", count: 20) + "end"),
            expected: Entry(
                id: "urn:tributary:news:1", title: String(String(repeating: "word ", count: 20).prefix(80)) + "…",
                updated: "2024-05-01T12:00:00Z", summary: String(repeating: "word ", count: 20) + "end",
                content: ["type": "html", "text": "<p>" + String(repeating: "word ", count: 20) + "end</p>"],
                source: ["title": "News \"Daily\" & Co"])),
        EntryCase(
            name: "no url and no content: text content from the title",
            item: Item(id: "1", source: "empty-title", title: "Headline only"),
            expected: Entry(
                id: "urn:tributary:empty-title:1", title: "Headline only", updated: "2024-05-01T12:00:00Z",
                content: ["type": "text", "text": "Headline only"], source: ["title": "empty-title"])),
        EntryCase(
            name: "a url and no content: no content element",
            item: Item(id: "1", source: "unlisted", url: "https://x.example.com/1", updated: published),
            expected: Entry(
                id: "urn:tributary:unlisted:1", title: "", updated: "2024-04-30T08:30:00Z",
                links: [alternate("https://x.example.com/1")], source: ["title": "unlisted"])),
        EntryCase(
            name: "only published: updated repeats it",
            item: Item(id: "1", source: "unlisted", url: "https://x.example.com/1", title: "T", published: published),
            expected: Entry(
                id: "urn:tributary:unlisted:1", title: "T", updated: "2024-04-30T08:30:00Z", published: "2024-04-30T08:30:00Z",
                links: [alternate("https://x.example.com/1")], source: ["title": "unlisted"])),
        EntryCase(
            name: "hostile characters come back as the text minus what XML forbids",
            item: Item(
                id: "tag:example.com,2024:" + hostile, source: "unlisted", url: "https://x.example.com/?a=1&b=\"2\"", title: hostile,
                summary: hostile, contentHTML: "<p>" + hostile + "</p>", tags: [hostile]),
            expected: Entry(
                id: "urn:tributary:unlisted:tag%3Aexample.com%2C2024%3ATom%20%26%20%22Jerry%22%20%3Cb%3E%5D%5D%3E%3C%2Fb%3E%20%27"
                    + "%00%01%08%0B%1F%EF%BF%BE%EF%BF%BF%27%20%09%0D%0A%20%E5%A4%B4%E6%9D%A1%20%F0%9F%98%80",
                title: "Tom & \"Jerry\" <b>]]></b> '' \t\r\n 头条 😀", updated: "2024-05-01T12:00:00Z",
                links: [alternate("https://x.example.com/?a=1&b=\"2\"")], categories: ["Tom & \"Jerry\" <b>]]></b> '' \t\r\n 头条 😀"],
                summary: "Tom & \"Jerry\" <b>]]></b> '' \t\r\n 头条 😀",
                content: ["type": "html", "text": "<p>Tom & \"Jerry\" <b>]]></b> '' \t\r\n 头条 😀</p>"], source: ["title": "unlisted"])),
        EntryCase(
            name: "attachments become enclosure links",
            item: Item(
                id: "ep1", source: "unlisted", url: "https://x.example.com/ep1", title: "Episode 1",
                attachments: [
                    Attachment(
                        url: "https://cdn.example.com/ep1.mp3", mimeType: "audio/mpeg", title: "MP3 \"HQ\"", sizeInBytes: 12_345_678,
                        durationInSeconds: 3600),
                    Attachment(url: "https://cdn.example.com/ep1.bin"),
                    Attachment(url: "https://cdn.example.com/negative", sizeInBytes: -1),
                    Attachment(url: "", mimeType: "audio/mpeg"),
                    Attachment(url: "https://cdn.example.com/sloppy.mp3", mimeType: "mp3"),
                ]),
            expected: Entry(
                id: "urn:tributary:unlisted:ep1", title: "Episode 1", updated: "2024-05-01T12:00:00Z",
                links: [
                    alternate("https://x.example.com/ep1"),
                    [
                        "rel": "enclosure", "href": "https://cdn.example.com/ep1.mp3", "type": "audio/mpeg", "length": "12345678",
                        "title": "MP3 \"HQ\"",
                    ],
                    ["rel": "enclosure", "href": "https://cdn.example.com/ep1.bin"],
                    ["rel": "enclosure", "href": "https://cdn.example.com/negative"],
                    ["rel": "enclosure", "href": "https://cdn.example.com/sloppy.mp3"],
                ],
                source: ["title": "unlisted"])),
        EntryCase(
            name: "duplicates become related links",
            item: Item(
                id: "1", source: "blog", url: "https://blog.example.com/1", title: "Story",
                duplicates: [
                    DuplicateReference(source: "news", url: "https://news.example.com/1", title: "Same & story"),
                    DuplicateReference(source: "other", url: "https://other.example.com/1"),
                    DuplicateReference(source: "no-url", title: "Dropped"),
                ]),
            expected: Entry(
                id: "urn:tributary:blog:1", title: "Story", updated: "2024-05-01T12:00:00Z",
                links: [
                    alternate("https://blog.example.com/1"),
                    ["rel": "related", "href": "https://news.example.com/1", "title": "Same & story (news)"],
                    ["rel": "related", "href": "https://other.example.com/1", "title": "(other)"],
                ],
                source: blogSource)),
        EntryCase(
            name: "authors: url as name, mailto: as email, empty ones dropped",
            item: Item(
                id: "1", source: "unlisted", url: "https://x.example.com/1",
                authors: [
                    Author(url: "https://ann.example.com/"), Author(url: "mailto:bob@example.com"),
                    Author(name: "Cy", url: "MAILTO:cy@example.com"), Author(name: "Dee", url: "mailto:not-an-address"),
                    Author(name: "Eve", url: "mailto:@example.com"),
                    Author(avatar: "https://example.com/face.png"), Author(), Author(name: "", url: ""),
                ]),
            expected: Entry(
                id: "urn:tributary:unlisted:1", title: "", updated: "2024-05-01T12:00:00Z",
                authors: [
                    .init(name: "https://ann.example.com/", uri: "https://ann.example.com/"),
                    .init(name: "mailto:bob@example.com", email: "bob@example.com"), .init(name: "Cy", email: "cy@example.com"),
                    .init(name: "Dee"), .init(name: "Eve"), .init(name: "unknown"),
                ],
                links: [alternate("https://x.example.com/1")], source: ["title": "unlisted"])),
        EntryCase(
            name: "tags keep quotes, ampersands and tabs; empty ones are dropped",
            item: Item(
                id: "1", source: "unlisted", url: "https://x.example.com/1",
                tags: ["\"quoted\"", "rock & roll", "it's", "<tag>", "", "tab\there\nnewline", "中文"]),
            expected: Entry(
                id: "urn:tributary:unlisted:1", title: "", updated: "2024-05-01T12:00:00Z", links: [alternate("https://x.example.com/1")],
                categories: ["\"quoted\"", "rock & roll", "it's", "<tag>", "tab\there\nnewline", "中文"], source: ["title": "unlisted"])),
    ]

    @Test(
        "an entry's alternate link says text/html unless its path ends in a file's extension",
        arguments: [
            ("https://example.com/a", true), ("https://example.com", true), ("https://example.com/a.html?x=1", true),
            ("https://github.com/vercel/next.js", true), ("https://example.com/linux-6.10", true),
            ("https://example.com/report.PDF", false), ("https://example.com/ep/42.mp3?dl=1#t=10", false),
            ("https://example.com/a.pdf/view", true),
        ])
    func alternateLinkType(_ url: String, _ isPage: Bool) throws {
        let links = try #require(Self.entries([Item(id: "1", source: "news", url: url, title: "t")]).first).links
        #expect(links == [isPage ? Self.alternate(url) : ["rel": "alternate", "href": url]])
    }

    @Test("entries read back with what the item said", arguments: entryCases)
    func entryContent(_ testCase: EntryCase) throws {
        let entries = try Self.entries([testCase.item])
        #expect(entries == [testCase.expected])
    }

    @Test(
        "entry ids: absolute IRIs stay, anything else becomes a urn:tributary: URN",
        arguments: [
            ("https://example.com/a?b=1#c", "blog", "https://example.com/a?b=1#c"),
            ("urn:isbn:0451450523", "blog", "urn:isbn:0451450523"),
            ("tag:example.com,2024:1", "blog", "tag:example.com,2024:1"),
            ("x-custom+v1.2:abc", "blog", "urn:tributary:blog:x-custom%2Bv1.2%3Aabc"),  // a private scheme is unique only in its source
            ("article:43071", "qdaily", "urn:tributary:qdaily:article%3A43071"),
            ("12345", "news", "urn:tributary:news:12345"),
            ("6462594562829140237", "toutiao", "urn:tributary:toutiao:6462594562829140237"),
            ("has space", "news", "urn:tributary:news:has%20space"),
            ("https://example.com/a b", "news", "urn:tributary:news:https%3A%2F%2Fexample.com%2Fa%20b"),
            ("1:2", "news", "urn:tributary:news:1%3A2"),
            (":leading", "news", "urn:tributary:news:%3Aleading"),
            ("zhihu:", "news", "urn:tributary:news:zhihu%3A"),
            ("a-b.c_d~e", "my source", "urn:tributary:my%20source:a-b.c_d~e"),
            ("知乎-1", "知乎", "urn:tributary:%E7%9F%A5%E4%B9%8E:%E7%9F%A5%E4%B9%8E-1"),
        ])
    func entryIDs(_ id: String, _ source: String, _ expected: String) {
        #expect(AtomWriter.entryID(for: Item(id: id, source: source)) == expected)
    }

    @Test(
        "entry ids in a document are unique",
        arguments: [
            (
                [("https://example.com/a", "blog"), ("https://example.com/a", "news"), ("https://example.com/a", "other")],
                [
                    "https://example.com/a", "urn:tributary:news:https%3A%2F%2Fexample.com%2Fa",
                    "urn:tributary:other:https%3A%2F%2Fexample.com%2Fa",
                ]
            ),
            (
                [("7", "blog"), ("7", "news"), ("7", "blog")],
                ["urn:tributary:blog:7", "urn:tributary:news:7", "urn:tributary:blog:7:2"]
            ),
            (
                // A river that re-reads another Tributary's output meets that output's URNs.
                [("urn:tributary:news:7", "river"), ("7", "news"), ("urn:tributary:news:7", "river")],
                ["urn:tributary:news:7", "urn:tributary:news:7:2", "urn:tributary:river:urn%3Atributary%3Anews%3A7"]
            ),
            (
                [("urn:tributary:news:7:2", "river"), ("7", "news"), ("7", "news"), ("7", "news")],
                ["urn:tributary:news:7:2", "urn:tributary:news:7", "urn:tributary:news:7:3", "urn:tributary:news:7:4"]
            ),
        ])
    func uniqueIDs(_ items: [(String, String)], _ expected: [String]) async throws {
        let xml = Self.document(items.map { Item(id: $0.0, source: $0.1, title: $0.0) })
        let ids = try XMLTree.parse(xml).all("entry").map { $0.first("id")?.text ?? "" }
        #expect(ids == expected)
        // Independent of the XML parser: count the <id> lines.
        for id in expected {
            let count = xml.components(separatedBy: "    <id>\(XMLEscaping.text(id))</id>\n").count - 1
            #expect(count == 1, "\(id) appears \(count) times")
        }
        try await Jing.expectValid(xml)
    }

    @Test("the feed head")
    func head() throws {
        let feed = try XMLTree.parse(Self.document([]))
        #expect(feed.name == "feed")
        #expect(feed.attributes == ["xmlns": "http://www.w3.org/2005/Atom"])
        #expect(feed.children.map(\.name) == ["id", "title", "subtitle", "updated", "author", "link", "link", "generator"])
        #expect(feed.first("title") == XMLTree(name: "title", attributes: ["type": "text"], text: "River & <friends>", children: []))
        #expect(feed.first("updated")?.text == "2024-05-01T12:00:00Z")
        #expect(
            feed.all("link").map(\.attributes) == [
                ["rel": "self", "type": "application/atom+xml", "href": "https://example.com/river.atom"],
                ["rel": "alternate", "type": "text/html", "href": "https://example.com/"],
            ])
        #expect(feed.first("generator") == XMLTree(name: "generator", attributes: ["version": "1.2.3"], text: "Tributary", children: []))
    }

    @Test("a document written in pieces is the whole document", arguments: [1, 700, 1 << 20])
    func pieces(_ pieceSize: Int) {
        // Every entry case plus repeated ids and sources, so ids and <source> elements made once
        // per document come out the same whichever way the document is written.
        let items =
            Self.entryCases.map(\.item) + Self.entryCases.map(\.item)
            + (0..<50).map {
                Item(id: String($0 % 7), source: ["blog", "news"][$0 % 2], title: "Item \($0)", summary: "<\($0)>")
            }
        let whole = Self.writer.documentBytes(head: Self.head, items: items)
        var pieces: [[UInt8]] = []
        Self.writer.write(head: Self.head, items: items, pieceSize: pieceSize) { pieces.append(Array($0)) }
        #expect(pieces.joined().elementsEqual(whole))
        #expect(String(decoding: whole, as: UTF8.self) == Self.document(items))
        // A piece holds whole entries: all but the last end an entry when pieces are small.
        if pieceSize == 1 {
            #expect(pieces.count == items.count + 1)
            #expect(pieces.dropLast().allSatisfy { String(decoding: $0, as: UTF8.self).hasSuffix("  </entry>\n") })
            #expect(pieces.last == Array("</feed>\n".utf8))
        } else if pieceSize == 1 << 20 {
            #expect(pieces.count == 1)
        }
    }

    /// A feed says its own links; a `javascript:` channel link reached every entry's `<source>`.
    @Test("an entry's source and related links are web links only")
    func sourceLinksAreWebLinks() throws {
        let writer = AtomWriter(
            generatorVersion: "0.1.0",
            sources: ["x": FeedInfo(title: "X", homePageURL: "javascript:alert(1)", feedURL: "javascript:alert(2)")],
            fallbackDate: Self.now)
        let head = AtomWriter.Head(id: "urn:tributary:feed:demo", title: "Demo", author: Author(name: "Me"), updated: Self.now)
        let item = Item(
            id: "1", source: "x", url: "https://example.com/1", title: "One",
            duplicates: [DuplicateReference(source: "y", url: "javascript:alert(3)")])
        let xml = writer.document(head: head, items: [item])
        #expect(!xml.contains("javascript"), "\(xml)")
        #expect(xml.contains("<source>") && xml.contains("<title type=\"text\">X</title>"))
    }

    /// RFC 4287 4.2.11: `<source>` holds the source feed's metadata, its `id` the feed's own; and an entry without
    /// authors has its source's (4.2.1), not the river's.
    @Test("an entry's source names the feed by its own id and carries its authors")
    func sourceIDAndAuthors() {
        let xml = Self.document([Item(id: "1", source: "atom", url: "https://atom.example/1", title: "One")])
        let source = xml.components(separatedBy: "<source>").last?.components(separatedBy: "</source>").first ?? ""
        #expect(source.contains("<id>tag:atom.example,2024:feed</id>"), "\(source)")
        #expect(source.contains("<link rel=\"self\" href=\"https://atom.example/feed.atom\"/>"))
        #expect(
            source.contains("<author>\n        <name>Ann</name>\n        <uri>https://ann.example/</uri>\n      </author>"), "\(source)")
        #expect(source.contains("<email>bo@atom.example</email>"))
        // A page and an address both.
        let both = Self.document([
            Item(id: "1", source: "blog", title: "One", authors: [Author(name: "Cy", url: "https://cy.example/", email: "cy@cy.example")])
        ])
        #expect(both.contains("<name>Cy</name>\n      <uri>https://cy.example/</uri>\n      <email>cy@cy.example</email>"), "\(both)")
        // Without an id of its own, the feed's address, as before.
        let blog = Self.document([Item(id: "1", source: "blog", url: "https://blog.example.com/1", title: "One")])
        #expect(blog.contains("<source>\n      <id>https://blog.example.com/feed.json</id>"), "\(blog)")
    }

    @Test("a small document, byte for byte")
    func golden() {
        let writer = AtomWriter(
            generatorVersion: "0.1.0", sources: ["hn": FeedInfo(title: "Hacker News", homePageURL: "https://news.ycombinator.com/")],
            fallbackDate: Self.now)
        let head = AtomWriter.Head(
            id: "urn:tributary:feed:demo", title: "Demo", author: Author(name: "Me", url: "mailto:me@example.com"),
            selfURL: "https://example.com/demo.atom", updated: Self.now)
        let items = [
            Item(
                id: "40000001", source: "hn", url: "https://example.com/a?x=1&y=2", title: "Fish & <chips>",
                summary: "Tasty.", contentHTML: "<p>Tasty &amp; hot.</p>", authors: [Author(name: "pg")],
                published: Self.published, tags: ["food"],
                duplicates: [DuplicateReference(source: "lobsters", url: "https://lobste.rs/s/1")]),
            Item(id: "note-2", source: "notes", summary: "A note without a link."),
        ]
        let expected = """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom">
              <id>urn:tributary:feed:demo</id>
              <title type="text">Demo</title>
              <updated>2024-05-01T12:00:00Z</updated>
              <author>
                <name>Me</name>
                <email>me@example.com</email>
              </author>
              <link rel="self" type="application/atom+xml" href="https://example.com/demo.atom"/>
              <generator version="0.1.0">Tributary</generator>
              <entry>
                <id>urn:tributary:hn:40000001</id>
                <title type="text">Fish &amp; &lt;chips&gt;</title>
                <updated>2024-04-30T08:30:00Z</updated>
                <published>2024-04-30T08:30:00Z</published>
                <author>
                  <name>pg</name>
                </author>
                <link rel="alternate" type="text/html" href="https://example.com/a?x=1&amp;y=2"/>
                <link rel="related" href="https://lobste.rs/s/1" title="(lobsters)"/>
                <category term="food"/>
                <summary type="text">Tasty.</summary>
                <content type="html"><![CDATA[<p>Tasty &amp; hot.</p>]]></content>
                <source>
                  <title type="text">Hacker News</title>
                  <link rel="alternate" type="text/html" href="https://news.ycombinator.com/"/>
                </source>
              </entry>
              <entry>
                <id>urn:tributary:notes:note-2</id>
                <title type="text">A note without a link.</title>
                <updated>2024-05-01T12:00:00Z</updated>
                <summary type="text">A note without a link.</summary>
                <content type="html"><![CDATA[<p>A note without a link.</p>]]></content>
                <source>
                  <title type="text">notes</title>
                </source>
              </entry>
            </feed>

            """
        #expect(writer.document(head: head, items: items) == expected)
    }
}

extension AtomWriterTests.Entry {
    init(_ tree: XMLTree) {
        id = tree.first("id")?.text ?? "<missing>"
        title = tree.first("title")?.text ?? "<missing>"
        updated = tree.first("updated")?.text ?? "<missing>"
        published = tree.first("published")?.text
        authors = tree.all("author").map { author in
            Person(name: author.first("name")?.text ?? "<missing>", email: author.first("email")?.text, uri: author.first("uri")?.text)
        }
        links = tree.all("link").map(\.attributes)
        categories = tree.all("category").map { $0.attributes["term"] ?? "<missing>" }
        summary = tree.first("summary")?.text
        content = tree.first("content").map { $0.attributes.merging(["text": $0.text]) { old, _ in old } }
        var source: [String: String] = [:]
        for child in tree.first("source")?.children ?? [] {
            let key = child.name == "link" ? "link " + (child.attributes["rel"] ?? "") : child.name
            source[key] = child.name == "link" ? child.attributes["href"] : child.text
        }
        self.source = source
    }
}
