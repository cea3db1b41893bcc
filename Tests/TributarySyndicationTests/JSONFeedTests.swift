import Foundation
import Testing
import TributaryJSON
import TributaryModel
import TributarySyndication

@Suite("JSON Feed writer and parser")
struct JSONFeedTests {
    static let shanghai = TimeZone(identifier: "Asia/Shanghai") ?? .gmt

    static let feedInfo = FeedInfo(
        title: "River", homePageURL: "https://example.com/", feedURL: "https://example.com/river.json",
        description: "Everything, once", authors: [Author(name: "Me", url: "https://example.com/me", avatar: "https://example.com/me.png")],
        icon: "https://example.com/icon.png", favicon: "https://example.com/favicon.ico", language: "zh-CN")

    /// Items whose every field survives JSON Feed: each has content and a summary, unique
    /// non-empty tags, attachments with a type, and the parser's source name.
    static let roundTripItems: [Item] = [
        Item(
            id: "https://blog.example.com/posts/1", source: "river", url: "https://blog.example.com/posts/1", title: "Every field",
            summary: "A summary.", contentHTML: "<p>The <em>content</em>.</p>", image: "https://blog.example.com/1.png",
            authors: [
                Author(name: "Ann", url: "https://ann.example.com/", avatar: "https://ann.example.com/a.png"), Author(name: "Bob"),
                Author(url: "mailto:cy@example.com"), Author(avatar: "https://example.com/anon.png"),
            ],
            published: utc(2024, 4, 30, 8, 30), updated: utc(2024, 4, 30, 9, 15, 5, ms: 5), tags: ["swift", "feeds", "中文"],
            attachments: [
                Attachment(
                    url: "https://cdn.example.com/ep1.mp3", mimeType: "audio/mpeg", title: "Episode 1", sizeInBytes: 12_345_678,
                    durationInSeconds: 3600),
                Attachment(url: "https://cdn.example.com/ep1.png", mimeType: "image/png"),
            ],
            metrics: ["comments": 12, "likes": 0, "votes": -3, "views": Int.max],
            extras: [
                "layout": .string("three-pictures"), "pinned": .bool(true), "hidden": .bool(false), "rank": .int(7),
                "ratio": .double(0.25), "whole": .double(2), "tiny": .double(1e-7), "huge": .double(1.5e300),
                "negative": .int(Int.min), "numeric-text": .string("42"), "empty": .string(""),
            ],
            duplicates: [
                DuplicateReference(source: "news", url: "https://news.example.com/1", title: "Same story"),
                DuplicateReference(source: "other"),
            ],
            score: 12.5),
        Item(
            id: "6462594562829140237", source: "river", title: "A wide numeric id", summary: "s", contentHTML: "<p>x</p>",
            score: 0),
        Item(
            id: "知乎-1", source: "river", url: "https://zhihu.example.com/q/1",
            title: "标题 \"quotes\" \\ backslash \u{2028}\u{2029} tab\t newline\n control\u{1}", summary: "摘要 😀",
            contentHTML: "<p>正文 &amp; 😀</p>", published: utc(1969, 7, 20, 20, 17, 40), updated: utc(9999, 12, 31, 23, 59, 59),
            score: -1.25),
        Item(id: "minimal", source: "river", summary: "Short.", contentHTML: "<p>Short.</p>"),
    ]

    @Test("write then parse gives back the same feed and items", arguments: [true, false])
    func roundTrip(pretty: Bool) throws {
        let text = JSONFeedWriter(includeExtensions: true, pretty: pretty).document(feed: Self.feedInfo, items: Self.roundTripItems)
        let parsed = try JSONFeedParser(source: "river").parse(Array(text.utf8))
        #expect(parsed.format == .jsonFeed)
        #expect(parsed.version == "1.1")
        #expect(parsed.problems == [])
        #expect(parsed.info == Self.feedInfo)
        #expect(parsed.items.count == Self.roundTripItems.count)
        for (actual, expected) in zip(parsed.items, Self.roundTripItems.map(Self.withFeedAuthors)) {
            #expect(actual == expected)
        }
    }

    /// The item as a reader of the document sees it: without authors of its own, the feed's (JSON Feed 1.1, `authors`).
    static func withFeedAuthors(_ item: Item) -> Item {
        var item = item
        if item.authors.isEmpty { item.authors = feedInfo.authors }
        return item
    }

    /// JSON Feed: an item's `id` "is unique for that item for that feed over time"; a river's items from two sources
    /// may have the same id (Qdaily's home and papers lists both have `paper:1792`), and a reader keyed on the id kept one.
    @Test("a river's ids are unique: those an Atom output gives, the source's before an id that is no IRI")
    func uniqueIDs() throws {
        let items = [
            Item(id: "1", source: "a", title: "a's first"), Item(id: "1", source: "b", title: "b's first"),
            Item(id: "paper:1792", source: "qhome"), Item(id: "paper:1792", source: "qpapers"),
            Item(id: "https://e.example/p", source: "a"), Item(id: "https://e.example/p", source: "b"),
            Item(id: "https://e.example/p", source: "b"),
        ]
        let writer = JSONFeedWriter(includeExtensions: false, pretty: false, uniqueIDs: true)
        let ids = try #require(JSON.parse(writer.document(feed: Self.feedInfo, items: items))["items"]?.array).map { $0["id"]?.string }
        let expected = [
            "urn:tributary:a:1", "urn:tributary:b:1", "urn:tributary:qhome:paper%3A1792", "urn:tributary:qpapers:paper%3A1792",
            "https://e.example/p", "urn:tributary:b:https%3A%2F%2Fe.example%2Fp", "urn:tributary:b:https%3A%2F%2Fe.example%2Fp:2",
        ]
        #expect(ids == expected)
        // The same ids as the Atom output's, entry by entry.
        let atom = AtomWriter(generatorVersion: "1", fallbackDate: Date(timeIntervalSince1970: 0)).document(
            head: AtomWriter.Head(id: "urn:river", title: "River", author: Author(name: "Me"), updated: Date(timeIntervalSince1970: 0)),
            items: items)
        let atomIDs = atom.components(separatedBy: "<entry>").dropFirst().compactMap { entry in
            entry.range(of: "<id>").flatMap { start in entry.range(of: "</id>").map { String(entry[start.upperBound..<$0.lowerBound]) } }
        }
        #expect(atomIDs == expected)
        // Without it (one source's items, as `record` writes them) each item's own id.
        let own = try #require(JSON.parse(JSONFeedWriter().document(feed: Self.feedInfo, items: items))["items"]?.array)
        #expect(own.map { $0["id"]?.string } == items.map(\.id))
    }

    @Test("the document as bytes is the document's text in UTF-8", arguments: [true, false])
    func documentBytes(pretty: Bool) {
        let writer = JSONFeedWriter(includeExtensions: true, pretty: pretty)
        let bytes = writer.documentBytes(feed: Self.feedInfo, items: Self.roundTripItems)
        #expect(bytes == Array(writer.document(feed: Self.feedInfo, items: Self.roundTripItems).utf8))
        #expect(writer.documentBytes(feed: FeedInfo(), items: []) == Array(writer.document(feed: FeedInfo(), items: []).utf8))
    }

    @Test("without extensions, the _tributary fields are not written")
    func withoutExtensions() throws {
        let text = JSONFeedWriter(includeExtensions: false).document(feed: Self.feedInfo, items: Self.roundTripItems)
        #expect(!text.contains("_tributary"))
        let parsed = try JSONFeedParser(source: "river").parse(Array(text.utf8))
        let expected = Self.roundTripItems.map { item in
            var item = Self.withFeedAuthors(item)
            item.metrics = [:]
            item.extras = [:]
            item.duplicates = []
            item.score = nil
            return item
        }
        #expect(parsed.items == expected)
    }

    struct DerivedCase: Sendable, CustomTestStringConvertible {
        var name: String
        var item: Item
        var expected: Item
        var testDescription: String { name }
    }

    @Test(
        "what a round trip fills in or drops",
        arguments: [
            DerivedCase(
                name: "no content: the summary becomes content_text, read back as paragraphs",
                item: Item(id: "1", source: "river", summary: "Line 1\nLine 2"),
                expected: Item(id: "1", source: "river", summary: "Line 1\nLine 2", contentHTML: "<p>Line 1<br>Line 2</p>")),
            DerivedCase(
                name: "no content and no summary: the title becomes content_text",
                item: Item(id: "1", source: "river", title: "Title & co"),
                expected: Item(id: "1", source: "river", title: "Title & co", summary: "Title & co", contentHTML: "<p>Title &amp; co</p>")),
            DerivedCase(
                name: "nothing at all: an empty content_text",
                item: Item(id: "1", source: "river"),
                expected: Item(id: "1", source: "river", summary: "")),
            DerivedCase(
                name: "no summary: the content's text",
                item: Item(id: "1", source: "river", contentHTML: "<p>Some <b>bold</b> text</p>"),
                expected: Item(id: "1", source: "river", summary: "Some bold text", contentHTML: "<p>Some <b>bold</b> text</p>")),
            DerivedCase(
                name: "empty strings are not written",
                item: Item(id: "1", source: "river", url: "", title: "", summary: "S", contentHTML: "<p>C</p>", image: ""),
                expected: Item(id: "1", source: "river", summary: "S", contentHTML: "<p>C</p>")),
            DerivedCase(
                name: "empty authors, repeated and empty tags, attachments without url or type",
                item: Item(
                    id: "1", source: "river", summary: "S", contentHTML: "<p>C</p>", authors: [Author(), Author(name: "")],
                    tags: ["a", "", "a", "b"],
                    attachments: [Attachment(url: "", mimeType: "audio/mpeg"), Attachment(url: "https://cdn.example.com/f")]),
                expected: Item(
                    id: "1", source: "river", summary: "S", contentHTML: "<p>C</p>", tags: ["a", "b"],
                    attachments: [Attachment(url: "https://cdn.example.com/f", mimeType: "application/octet-stream")])),
            DerivedCase(
                name: "a score or an extra that JSON cannot carry is dropped",
                item: Item(
                    id: "1", source: "river", summary: "S", contentHTML: "<p>C</p>",
                    extras: ["nan": .double(.nan), "inf": .double(.infinity), "ok": .int(1)], score: .nan),
                expected: Item(id: "1", source: "river", summary: "S", contentHTML: "<p>C</p>", extras: ["ok": .int(1)])),
            DerivedCase(
                name: "the source is the parser's, not the writer's",
                item: Item(id: "1", source: "hn", summary: "S", contentHTML: "<p>C</p>"),
                expected: Item(id: "1", source: "river", summary: "S", contentHTML: "<p>C</p>")),
        ])
    func derived(_ testCase: DerivedCase) throws {
        let text = JSONFeedWriter().document(feed: FeedInfo(), items: [testCase.item])
        #expect(JSONFeedValidator.violations(text) == [])
        let parsed = try JSONFeedParser(source: "river").parse(Array(text.utf8))
        #expect(parsed.problems == [])
        #expect(parsed.items == [testCase.expected])
    }

    // MARK: - Writer output is JSON Feed 1.1

    struct WriterCase: Sendable, CustomTestStringConvertible {
        var name: String
        var feed: FeedInfo = JSONFeedTests.feedInfo
        var items: [Item]
        var testDescription: String { name }
    }

    static let hostile = "Tom & \"Jerry\" <b>]]></b> \\ / \u{0}\u{1}\u{1F}\u{7F}\u{2028}\u{2029}\u{FFFE} \t\r\n 头条 😀"

    static let writerCases: [WriterCase] = [
        WriterCase(name: "the round-trip items", items: roundTripItems),
        WriterCase(name: "an empty feed", items: []),
        WriterCase(name: "an empty feed without metadata", feed: FeedInfo(), items: []),
        WriterCase(
            name: "feed metadata with empty strings and empty authors",
            feed: FeedInfo(
                title: "", homePageURL: "", feedURL: "", description: "", authors: [Author(), Author(name: ""), Author(name: "Ok")],
                icon: "", favicon: "", language: ""),
            items: []),
        WriterCase(name: "an item with nothing but an id", items: [Item(id: "1", source: "s")]),
        WriterCase(
            name: "items without content", items: [Item(id: "1", source: "s", title: "T"), Item(id: "2", source: "s", summary: "S")]),
        WriterCase(
            name: "hostile text everywhere",
            feed: FeedInfo(title: hostile, homePageURL: hostile, description: hostile, authors: [Author(name: hostile)]),
            items: [
                Item(
                    id: hostile, source: hostile, url: hostile, title: hostile, summary: hostile, contentHTML: hostile, image: hostile,
                    authors: [Author(name: hostile, url: hostile, avatar: hostile)], tags: [hostile],
                    attachments: [Attachment(url: hostile, mimeType: hostile, title: hostile)], metrics: [hostile: 1],
                    extras: [hostile: .string(hostile)], duplicates: [DuplicateReference(source: hostile, url: hostile, title: hostile)])
            ]),
        WriterCase(
            name: "empty authors, attachments without url or type, odd numbers",
            items: [
                Item(
                    id: "1", source: "s", authors: [Author(), Author(name: "", url: "", avatar: "")],
                    attachments: [
                        Attachment(url: ""), Attachment(url: "https://cdn.example.com/a"),
                        Attachment(url: "https://cdn.example.com/b", sizeInBytes: -1, durationInSeconds: 0),
                    ],
                    extras: ["nan": .double(.nan)], score: .infinity)
            ]),
        WriterCase(
            name: "dates across the range",
            items: [
                Item(id: "1", source: "s", published: utc(1900, 1, 1), updated: utc(9999, 12, 31, 23, 59, 59)),
                Item(id: "2", source: "s", published: Date(timeIntervalSince1970: -0.5), updated: utc(2024, 2, 29, 12, 0, 0, ms: 7)),
            ]),
    ]

    @Test("writer output is valid JSON Feed 1.1", arguments: writerCases, [true, false])
    func writerOutputIsValid(_ testCase: WriterCase, pretty: Bool) throws {
        for includeExtensions in [true, false] {
            let text = JSONFeedWriter(includeExtensions: includeExtensions, pretty: pretty).document(
                feed: testCase.feed, items: testCase.items)
            #expect(JSONFeedValidator.violations(text) == [], "\(text)")
            let parsed = try JSONFeedParser(source: "s").parse(Array(text.utf8))
            #expect(parsed.problems == [])
            #expect(parsed.items.count == testCase.items.count)
        }
    }

    @Test("pretty output is indented and ends with a newline; compact output is one line")
    func layout() {
        let items = [Item(id: "1", source: "s", title: "T", contentHTML: "<p>C</p>")]
        let pretty = JSONFeedWriter(pretty: true).document(feed: FeedInfo(title: "F"), items: items)
        let compact = JSONFeedWriter(pretty: false).document(feed: FeedInfo(title: "F"), items: items)
        #expect(pretty.hasPrefix("{\n  \"version\": \"https://jsonfeed.org/version/1.1\",\n  \"title\": \"F\",\n"))
        #expect(pretty.hasSuffix("}\n"))
        #expect(
            compact
                == #"{"version":"https://jsonfeed.org/version/1.1","title":"F","items":[{"id":"1","title":"T","content_html":"<p>C</p>","#
                + #""_tributary":{"source":"s"}}]}"#)
    }

    struct ValidatorCase: Sendable, CustomTestStringConvertible {
        var name: String
        var json: String
        var violations: [String]
        var testDescription: String { name }
    }

    static let head = #""version":"https://jsonfeed.org/version/1.1","title":"T""#

    @Test(
        "the validator itself catches what breaks the specification",
        arguments: [
            ValidatorCase(name: "valid", json: #"{\#(head),"items":[{"id":"1","content_text":""}],"_x":1}"#, violations: []),
            ValidatorCase(name: "not an object", json: "[]", violations: ["$: not an object"]),
            ValidatorCase(
                name: "empty object", json: "{}",
                violations: ["$.version: not https://jsonfeed.org/version/1.1", "$.title: missing or not a string"]),
            ValidatorCase(
                name: "old version", json: #"{"version":"https://jsonfeed.org/version/1","title":"T","items":[]}"#,
                violations: ["$.version: not https://jsonfeed.org/version/1.1"]),
            ValidatorCase(name: "no items", json: "{\(head)}", violations: ["$.items: missing or not an array"]),
            ValidatorCase(
                name: "bad feed fields",
                json: #"{\#(head),"icon":1,"expired":"no","authors":[{}],"item":[],"items":[]}"#,
                violations: [
                    "$.icon: not a string", "$.expired: not a boolean", "$.authors[0]: none of name, url, avatar",
                    "$.item: not a JSON Feed 1.1 key",
                ]),
            ValidatorCase(
                name: "bad item fields",
                json: #"{\#(head),"items":[{"id":1,"title":false,"tags":["a",2],"date_modifed":"x"},"text"]}"#,
                violations: [
                    "$.items[0].id: missing, empty or not a string", "$.items[0]: neither content_html nor content_text",
                    "$.items[0].title: not a string", "$.items[0].tags: not an array of strings",
                    "$.items[0].date_modifed: not a JSON Feed 1.1 key", "$.items[1]: not an object",
                ]),
            ValidatorCase(
                name: "bad dates",
                json: #"{\#(head),"items":[{"id":"1","content_text":"","date_published":"2024-03-05 06:03:00Z","#
                    + #""date_modified":"2024-02-30T00:00:00Z"}]}"#,
                violations: ["$.items[0].date_published: not an RFC 3339 date", "$.items[0].date_modified: not an RFC 3339 date"]),
            ValidatorCase(
                name: "bad attachments",
                json: #"{\#(head),"items":[{"id":"1","content_html":"","attachments":[{"url":""},{"url":"u","mime_type":"t","#
                    + #""size_in_bytes":"1"},3]}]}"#,
                violations: [
                    "$.items[0].attachments[0].url: missing, empty or not a string",
                    "$.items[0].attachments[0].mime_type: missing, empty or not a string",
                    "$.items[0].attachments[1].size_in_bytes: not a number", "$.items[0].attachments[2]: not an object",
                ]),
        ])
    func validator(_ testCase: ValidatorCase) {
        #expect(JSONFeedValidator.violations(testCase.json) == testCase.violations)
    }

    // MARK: - Parser leniency

    struct ParserCase: Sendable, CustomTestStringConvertible {
        var name: String
        var json: String
        var zone: TimeZone = .gmt
        var version: String? = "1.1"
        var info = FeedInfo(title: "T")
        var items: [Item]
        var problems: [Problem] = []
        var testDescription: String { name }
    }

    static let v11 = #""version": "https://jsonfeed.org/version/1.1", "title": "T""#

    static let parserCases: [ParserCase] = [
        ParserCase(
            name: "JSON Feed 1.0 with author objects",
            json: #"""
                {"version": "https://jsonfeed.org/version/1", "title": "Old", "author": {"name": "Feed Author", "url": "https://a.example.com/"},
                 "items": [{"id": "1", "content_html": "<p>Hi</p>", "author": {"name": "Item Author", "avatar": "https://a.example.com/a.png"}},
                           {"id": "2", "content_html": "<p>Yo</p>", "author": "Just A Name"}]}
                """#,
            version: "1", info: FeedInfo(title: "Old", authors: [Author(name: "Feed Author", url: "https://a.example.com/")]),
            items: [
                Item(
                    id: "1", source: "src", summary: "Hi", contentHTML: "<p>Hi</p>",
                    authors: [Author(name: "Item Author", avatar: "https://a.example.com/a.png")]),
                Item(id: "2", source: "src", summary: "Yo", contentHTML: "<p>Yo</p>", authors: [Author(name: "Just A Name")]),
            ]),
        ParserCase(
            name: "1.1 authors win over 1.0 author; empty and non-object authors are dropped",
            json: #"""
                {\#(v11), "items": [{"id": "1", "content_text": "x", "author": {"name": "Old"},
                  "authors": [{"name": "New"}, {}, {"name": ""}, 7, "Plain"]}]}
                """#,
            items: [
                Item(
                    id: "1", source: "src", summary: "x", contentHTML: "<p>x</p>", authors: [Author(name: "New"), Author(name: "Plain")])
            ]),
        ParserCase(
            name: "a file listed twice is one attachment, where it first came, with the fields of both; one without a url is skipped",
            json: #"""
                {\#(v11), "items": [{"id": "1", "content_text": "x", "attachments": [
                  {"url": "https://x.example.com/a.mp3", "mime_type": "audio/mpeg"}, {"mime_type": "image/png"},
                  {"url": "https://x.example.com/b.png", "mime_type": "image/png"},
                  {"url": "https://x.example.com/a.mp3", "mime_type": "audio/mp4", "title": "A", "size_in_bytes": 5},
                  {"url": "https://x.example.com/a.mp3", "title": "later", "duration_in_seconds": 60}]}]}
                """#,
            items: [
                Item(
                    id: "1", source: "src", summary: "x", contentHTML: "<p>x</p>",
                    attachments: [
                        Attachment(
                            url: "https://x.example.com/a.mp3", mimeType: "audio/mpeg", title: "A", sizeInBytes: 5, durationInSeconds: 60),
                        Attachment(url: "https://x.example.com/b.png", mimeType: "image/png"),
                    ])
            ]),
        ParserCase(
            name: "numeric ids and other scalars where strings belong",
            json: #"""
                {\#(v11), "items": [{"id": 6462594562829140237, "title": 42, "url": "https://x.example.com/1", "content_html": true},
                                    {"id": 1.5e3, "content_text": "t"}]}
                """#,
            items: [
                Item(
                    id: "6462594562829140237", source: "src", url: "https://x.example.com/1", title: "42", summary: "true",
                    contentHTML: "true"),
                Item(id: "1.5e3", source: "src", summary: "t", contentHTML: "<p>t</p>"),
            ]),
        ParserCase(
            name: "missing ids: the url, else a digest",
            json: #"""
                {\#(v11), "items": [{"url": "https://x.example.com/1", "content_text": "a"},
                                    {"id": "", "external_url": "https://elsewhere.example.com/2", "content_text": "b"},
                                    {"id": null, "title": "T3", "content_html": "<p>c</p>"},
                                    {"title": "T4", "content_text": "d"}]}
                """#,
            items: [
                Item(id: "https://x.example.com/1", source: "src", url: "https://x.example.com/1", summary: "a", contentHTML: "<p>a</p>"),
                Item(
                    id: "https://elsewhere.example.com/2", source: "src", url: "https://elsewhere.example.com/2", summary: "b",
                    contentHTML: "<p>b</p>"),
                Item(id: StableID.digest("", "T3", "<p>c</p>"), source: "src", title: "T3", summary: "c", contentHTML: "<p>c</p>"),
                Item(id: StableID.digest("", "T4", "d"), source: "src", title: "T4", summary: "d", contentHTML: "<p>d</p>"),
            ],
            problems: [
                Problem(.warning, "item 1 has no 'id'; using its url"), Problem(.warning, "item 2 has no 'id'; using its url"),
                Problem(.warning, "item 3 has no 'id'; using a digest of its content"),
                Problem(.warning, "item 4 has no 'id'; using a digest of its content"),
            ]),
        ParserCase(
            name: "items that are not objects are skipped and reported by position",
            json: #"{\#(v11), "items": [1, "two", null, [], true, {"id": "ok", "content_text": "fine"}, {}]}"#,
            items: [
                Item(id: "ok", source: "src", summary: "fine", contentHTML: "<p>fine</p>"),
                Item(id: StableID.digest("", "", ""), source: "src"),
            ],
            problems: [
                Problem(.error, "item 1 is the number 1, not an object; skipped"),
                Problem(.error, "item 2 is a string \"two\", not an object; skipped"),
                Problem(.error, "item 3 is null, not an object; skipped"),
                Problem(.error, "item 4 is a list, not an object; skipped"),
                Problem(.error, "item 5 is the boolean true, not an object; skipped"),
                Problem(.warning, "item 7 has no 'id'; using a digest of its content"),
            ]),
        ParserCase(
            name: "unreadable dates are reported and dropped; other forms are read and reported",
            json: #"""
                {\#(v11), "items": [{"id": "1", "content_text": "x", "date_published": "soon", "date_modified": "2024-13-01T00:00:00Z"},
                                    {"id": "2", "content_text": "y", "date_published": 1709618580, "date_modified": ""}]}
                """#,
            items: [
                Item(id: "1", source: "src", summary: "x", contentHTML: "<p>x</p>"),
                Item(id: "2", source: "src", summary: "y", contentHTML: "<p>y</p>", published: Date(timeIntervalSince1970: 1_709_618_580)),
            ],
            problems: [
                Problem(.warning, "item 1: 'date_published' is not a date: 'soon'"),
                Problem(.warning, "item 1: 'date_modified' is not a date: '2024-13-01T00:00:00Z'"),
                Problem(.warning, "item 2: 'date_published' is not RFC 3339 but was read: '1709618580'"),
            ]),
        ParserCase(
            name: "dates without an offset are read in the parser's zone",
            json:
                #"{\#(v11), "items": [{"id": "1", "content_text": "x", "date_published": "2024-03-05T14:03:00", "date_modified": "2024-03-05"}]}"#,
            zone: shanghai,
            items: [
                Item(
                    id: "1", source: "src", summary: "x", contentHTML: "<p>x</p>", published: utc(2024, 3, 5, 6, 3),
                    updated: utc(2024, 3, 4, 16))
            ]),
        ParserCase(
            name: "content_text only becomes HTML paragraphs and the summary",
            json: #"{\#(v11), "items": [{"id": "1", "content_text": "Line 1\nLine <2>\n\nPara & 2"}]}"#,
            items: [
                Item(
                    id: "1", source: "src", summary: "Line 1\nLine <2>\n\nPara & 2",
                    contentHTML: "<p>Line 1<br>Line &lt;2&gt;</p><p>Para &amp; 2</p>")
            ]),
        ParserCase(
            name: "content_html wins over content_text; an explicit summary wins over both",
            json: #"""
                {\#(v11), "items": [{"id": "1", "content_html": "<p>H</p>", "content_text": "T"},
                                    {"id": "2", "content_html": "<p>H</p>", "content_text": "T", "summary": "S"},
                                    {"id": "3", "content_html": "<p>Only &amp; <b>HTML</b></p>"}]}
                """#,
            items: [
                Item(id: "1", source: "src", summary: "T", contentHTML: "<p>H</p>"),
                Item(id: "2", source: "src", summary: "S", contentHTML: "<p>H</p>"),
                Item(id: "3", source: "src", summary: "Only & HTML", contentHTML: "<p>Only &amp; <b>HTML</b></p>"),
            ]),
        ParserCase(
            name: "tags, attachments, images and extensions are read leniently",
            json: #"""
                {\#(v11), "items": [{"id": "1", "content_html": "<p>x</p>", "banner_image": "https://x.example.com/b.png",
                  "tags": ["a", "", "a", 7, {"x": 1}, null, "b"],
                  "attachments": [{"url": "https://x.example.com/a.mp3", "mime_type": "audio/mpeg", "size_in_bytes": "123",
                                   "duration_in_seconds": 60.5},
                                  {"mime_type": "audio/mpeg"}, {"url": ""}, "https://x.example.com/c.mp3",
                                  {"url": "https://x.example.com/d"}],
                  "_tributary": {"source": "ignored", "score": "2.5", "metrics": {"likes": 3, "bad": "x", "half": 1.5, "text": "4"},
                                 "extras": {"s": "v", "b": false, "i": 3, "d": 0.5, "null": null, "arr": [1], "obj": {}},
                                 "duplicates": [{"source": "hn", "url": "https://hn.example.com/1"}, {"url": "no source"}, 5]}}]}
                """#,
            items: [
                Item(
                    id: "1", source: "src", summary: "x", contentHTML: "<p>x</p>", image: "https://x.example.com/b.png",
                    tags: ["a", "7", "b"],
                    attachments: [
                        Attachment(url: "https://x.example.com/a.mp3", mimeType: "audio/mpeg", sizeInBytes: 123),
                        Attachment(url: "https://x.example.com/d"),
                    ],
                    metrics: ["likes": 3, "text": 4], extras: ["s": .string("v"), "b": .bool(false), "i": .int(3), "d": .double(0.5)],
                    duplicates: [DuplicateReference(source: "hn", url: "https://hn.example.com/1")], score: 2.5)
            ]),
        ParserCase(
            name: "a _tributary extension that is not an object is ignored",
            json: #"{\#(v11), "items": [{"id": "1", "content_text": "x", "_tributary": [1, 2]}]}"#,
            items: [Item(id: "1", source: "src", summary: "x", contentHTML: "<p>x</p>")]),
        ParserCase(
            name: "feed metadata, numbers as text",
            json: #"""
                {"version": "https://jsonfeed.org/version/1.1", "title": 2024, "home_page_url": "https://x.example.com/",
                 "feed_url": "https://x.example.com/feed.json", "description": "D", "icon": "https://x.example.com/i.png",
                 "favicon": "https://x.example.com/f.ico", "language": "en", "authors": [{"url": "https://x.example.com/me"}],
                 "items": []}
                """#,
            info: FeedInfo(
                title: "2024", homePageURL: "https://x.example.com/", feedURL: "https://x.example.com/feed.json", description: "D",
                authors: [Author(url: "https://x.example.com/me")], icon: "https://x.example.com/i.png",
                favicon: "https://x.example.com/f.ico", language: "en"),
            items: []),
        ParserCase(
            name: "a missing version with items is a warning",
            json: #"{"title": "T", "items": [{"id": "1", "content_text": "x"}]}"#, version: nil,
            items: [Item(id: "1", source: "src", summary: "x", contentHTML: "<p>x</p>")],
            problems: [Problem(.warning, "missing or unknown 'version' (none); read as JSON Feed 1.1")]),
        ParserCase(
            name: "an unknown version with items is a warning",
            json: #"{"version": "https://example.com/feed/2", "title": "T", "items": []}"#, version: nil, items: [],
            problems: [Problem(.warning, "missing or unknown 'version' (https://example.com/feed/2); read as JSON Feed 1.1")]),
        ParserCase(
            name: "'items' that is not an array is an error",
            json: #"{\#(v11), "items": {"id": "1", "content_text": "x"}}"#, items: [],
            problems: [Problem(.error, "'items' is an object, not an array")]),
        ParserCase(
            name: "'items' null is an error",
            json: #"{\#(v11), "items": null}"#, items: [], problems: [Problem(.error, "'items' is null, not an array")]),
        ParserCase(
            name: "a version without items is an error",
            json: #"{\#(v11)}"#, items: [], problems: [Problem(.error, "the feed has no 'items' array")]),
        ParserCase(
            name: "a byte order mark and CRLF line ends",
            json: "\u{FEFF}{\(v11),\r\n\"items\": [{\"id\": \"1\", \"content_text\": \"a\\r\\nb\"}]}\r\n",
            items: [Item(id: "1", source: "src", summary: "a\r\nb", contentHTML: "<p>a<br>b</p>")]),
    ]

    @Test("the parser is lenient and reports what it recovered from", arguments: parserCases)
    func parser(_ testCase: ParserCase) throws {
        let parsed = try JSONFeedParser(source: "src", timeZone: testCase.zone).parse(Array(testCase.json.utf8))
        #expect(parsed.format == .jsonFeed)
        #expect(parsed.version == testCase.version)
        #expect(parsed.info == testCase.info)
        #expect(parsed.items == testCase.items)
        #expect(parsed.problems == testCase.problems)
    }

    @Test(
        "documents that are not JSON Feeds at all are errors, with positions for bad JSON",
        arguments: [
            ("", FeedParseError("not valid JSON: empty document", line: 1, column: 1)),
            (
                "<html><body>Not found</body></html>",
                FeedParseError("not valid JSON: unexpected character '<', expected a value", line: 1, column: 1)
            ),
            ("not json", FeedParseError("not valid JSON: invalid literal, expected 'null'", line: 1, column: 1)),
            (
                "{\n  \"version\": \"https://jsonfeed.org/version/1.1\",\n  items: []\n}",
                FeedParseError("not valid JSON: expected a quoted object key", line: 3, column: 3)
            ),
            ("{\"items\": [1, 2,]}", FeedParseError("not valid JSON: trailing comma before ']'", line: 1, column: 16)),
            ("{\"title\": \"头条\" x}", FeedParseError("not valid JSON: expected ',' or '}' after an object member", line: 1, column: 16)),
            (
                "{\"items\": []",
                FeedParseError("not valid JSON: unexpected end of input, expected ',' or '}' after an object member", line: 1, column: 13)
            ),
            ("[]", FeedParseError("a JSON Feed must be an object, found a list")),
            ("[{\"id\": \"1\"}]", FeedParseError("a JSON Feed must be an object, found a list")),
            (
                "\"https://jsonfeed.org/version/1.1\"",
                FeedParseError(#"a JSON Feed must be an object, found a string "https://jsonfeed.org/version/1.1""#)
            ),
            ("null", FeedParseError("a JSON Feed must be an object, found null")),
            ("42", FeedParseError("a JSON Feed must be an object, found the number 42")),
            ("{}", FeedParseError("not a JSON Feed: no 'version' and no 'items'")),
            ("{\"title\": \"T\", \"version\": 1.1}", FeedParseError("not a JSON Feed: no 'version' and no 'items'")),
        ])
    func errors(_ json: String, _ expected: FeedParseError) {
        #expect(throws: expected) {
            try JSONFeedParser(source: "src").parse(Array(json.utf8))
        }
    }

    static let relativeFeed = #"""
        {"version":"https://jsonfeed.org/version/1.1","feed_url":"https://jf.example.com/feed.json","home_page_url":"/",
         "authors":[{"name":"Feed Author"}],
         "items":[{"id":"1","url":"/posts/1","title":"Relative item","content_html":"<p>hi <a href=\"other\">o</a></p>",
                   "image":"img/1.png","banner_image":"img/b.png","attachments":[{"url":"media/1.mp3","mime_type":"audio/mpeg"}]},
                  {"id":"2","external_url":"https://elsewhere.example/x","authors":[{"name":"Own Author"}]}]}
        """#

    @Test("relative links resolve against the document's URL; content against the item's resolved url")
    func relativeLinksResolveAgainstTheDocument() throws {
        let parsed = try JSONFeedParser(source: "s", baseURL: URL(string: "http://127.0.0.1:18732/f/f5.json"))
            .parse(Array(Self.relativeFeed.utf8))
        let item = try #require(parsed.items.first)
        #expect(item.url == "http://127.0.0.1:18732/posts/1")
        #expect(item.image == "http://127.0.0.1:18732/f/img/1.png")
        #expect(item.attachments.map(\.url) == ["http://127.0.0.1:18732/f/media/1.mp3"])
        #expect(item.contentHTML == #"<p>hi <a href="http://127.0.0.1:18732/posts/other">o</a></p>"#)
        #expect(parsed.info.homePageURL == "http://127.0.0.1:18732/")
        #expect(parsed.items.last?.url == "https://elsewhere.example/x")
        #expect(parsed.items.last?.externalURL == nil, "the only link is the item's own")
    }

    /// A linkblog's item: its own page in `url`, the page it is about in `external_url`. Both are kept, relative
    /// ones resolved, and written back; one that repeats `url` is not kept twice.
    @Test func aLinkblogItemKeepsItsExternalURL() throws {
        let feed = #"""
            {"version":"https://jsonfeed.org/version/1.1","title":"Links","items":[
              {"id":"1","url":"/2026/12/post","external_url":"https://news.example/story","title":"A story elsewhere"},
              {"id":"2","url":"https://blog.example/same","external_url":"https://blog.example/same","title":"Same"}]}
            """#
        let parsed = try JSONFeedParser(source: "s", baseURL: URL(string: "https://blog.example/feed.json")).parse(Array(feed.utf8))
        #expect(parsed.items.map(\.url) == ["https://blog.example/2026/12/post", "https://blog.example/same"])
        #expect(parsed.items.map(\.externalURL) == ["https://news.example/story", nil])
        let written = JSONFeedWriter(pretty: false).document(feed: parsed.info, items: parsed.items)
        #expect(written.contains(#""url":"https://blog.example/2026/12/post","external_url":"https://news.example/story""#), "\(written)")
        #expect(!written.contains(#""external_url":"https://blog.example/same""#))
    }

    @Test("without a document URL (a file), relative links resolve against feed_url; FeedParser does the same")
    func relativeLinksResolveAgainstFeedURL() throws {
        for parsed in [
            try JSONFeedParser(source: "s").parse(Array(Self.relativeFeed.utf8)),
            try FeedParser(FeedParser.Options(source: "s")).parse(Array(Self.relativeFeed.utf8)),
        ] {
            let item = try #require(parsed.items.first)
            #expect(item.url == "https://jf.example.com/posts/1")
            #expect(item.image == "https://jf.example.com/img/1.png")
            #expect(item.attachments.map(\.url) == ["https://jf.example.com/media/1.mp3"])
            #expect(item.contentHTML == #"<p>hi <a href="https://jf.example.com/posts/other">o</a></p>"#)
        }
    }

    @Test("items without authors have the feed's: 1.1's authors and 1.0's author")
    func itemsInheritTheFeedsAuthors() throws {
        let parsed = try JSONFeedParser(source: "s").parse(Array(Self.relativeFeed.utf8))
        #expect(parsed.items.map { $0.authors.map(\.name) } == [["Feed Author"], ["Own Author"]])
        let old =
            #"{"version":"https://jsonfeed.org/version/1","author":{"name":"Old Author","url":"https://o.example/"},"#
            + #""items":[{"id":"1","title":"a"}]}"#
        let oldParsed = try JSONFeedParser(source: "s").parse(Array(old.utf8))
        #expect(oldParsed.items.first?.authors == [Author(name: "Old Author", url: "https://o.example/")])
    }

    @Test("a date before the year 1000 is a placeholder for none")
    func placeholderDates() throws {
        let json =
            #"{"version":"https://jsonfeed.org/version/1.1","items":[{"id":"1","date_published":"0000-01-01T00:00:00Z","#
            + #""date_modified":"Mon, 01 Jan 0001 00:00:00 +0000"}]}"#
        let parsed = try JSONFeedParser(source: "s").parse(Array(json.utf8))
        #expect(parsed.items.first?.published == nil)
        #expect(parsed.items.first?.updated == nil)
        #expect(parsed.problems.filter { $0.message.contains("before the year 1000") }.count == 2)
    }

    @Test("a parse error reads line:column: message")
    func errorDescription() {
        #expect(FeedParseError("bad", line: 3, column: 14).description == "3:14: bad")
        #expect(FeedParseError("bad", line: 3).description == "3: bad")
        #expect(FeedParseError("bad").description == "bad")
    }
}
