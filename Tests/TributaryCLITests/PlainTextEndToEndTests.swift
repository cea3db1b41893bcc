import Foundation
import TestSupport
import Testing
import TributaryModel
import TributarySyndication

/// The real binary on feeds whose plain-text titles, summaries, tags and author names hold `<` and `&`: every output
/// carries them as the feed parser read them, escaped for its format, not stripped as markup or decoded twice.
@Suite("Plain-text titles end to end", .serialized)
struct PlainTextEndToEndTests {
    static let atom = """
        <?xml version="1.0" encoding="utf-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom"><title>Atom</title><id>urn:atom</id><updated>2024-03-05T12:00:00Z</updated>
        <entry><title type="text">Vec&lt;T&gt; and Option&lt;Box&lt;T&gt;&gt; in Rust</title><id>urn:atom:1</id>
          <link href="https://t.example/1"/><updated>2024-03-05T12:00:00Z</updated>
          <summary type="text">How to use List&lt;T&gt; when a &lt; b</summary></entry>
        <entry><title type="text">The &lt;script&gt; element explained</title><id>urn:atom:2</id>
          <link href="https://t.example/2"/><updated>2024-03-05T11:00:00Z</updated>
          <category term="&lt;html&gt;"/><author><name>&lt;Anonymous&gt;</name></author></entry>
        </feed>

        """

    static let rss = """
        <?xml version="1.0" encoding="utf-8"?>
        <rss version="2.0"><channel><title>RSS</title><link>https://r.example/</link><description>d</description>
        <item><title>Why &lt;div&gt; soup is bad</title><link>https://r.example/1</link>
          <pubDate>Tue, 05 Mar 2024 10:00:00 +0000</pubDate></item>
        <item><title><![CDATA[Templates: <template> & <slot>]]></title><link>https://r.example/2</link>
          <pubDate>Tue, 05 Mar 2024 09:00:00 +0000</pubDate></item>
        </channel></rss>

        """

    static let jsonFeed = """
        {"version": "https://jsonfeed.org/version/1.1", "title": "JSON", "items": [
          {"id": "1", "url": "https://j.example/1", "title": "Generic List<T> in C#", "content_text": "x",
           "date_published": "2024-03-05T08:00:00Z"},
          {"id": "2", "url": "https://j.example/2", "title": "R&D &copy; report", "content_text": "y",
           "date_published": "2024-03-05T07:00:00Z"}]}

        """

    /// A scraped page: an element's text is plain once the HTML parser has decoded it.
    static let page = """
        <html><body><ul><li><a href="https://h.example/1">Scraped: Vec&lt;T&gt; &amp; HashMap&lt;K, V&gt;</a></li></ul></body></html>

        """

    static let config = """
        title: Plain text
        link: https://example.org/
        sources:
          - {name: page, adapter: html, url: feeds/p.html, items: //li, fields: {title: ./a, url: ./a/@href}}
          - {name: atom, adapter: rss, url: feeds/a.xml}
          - {name: rss, adapter: rss, url: feeds/r.xml}
          - {name: json, adapter: jsonfeed, url: feeds/j.json}
        outputs:
          - {type: atom, path: out/river.atom, url: https://example.org/river.atom}
          - {type: rss, path: out/river.rss, url: https://example.org/river.rss}
          - {type: jsonfeed, path: out/river.json}
          - {type: html, path: out/index.html, url: https://example.org/}
          - type: stdout

        """

    /// The titles as the parser reads the feeds, newest first (the page's item has no date: it is dated now).
    static let titles = [
        "Scraped: Vec<T> & HashMap<K, V>", "Vec<T> and Option<Box<T>> in Rust", "The <script> element explained", "Why <div> soup is bad",
        "Templates: <template> & <slot>", "Generic List<T> in C#", "R&D &copy; report",
    ]

    @Test("Atom, RSS, JSON Feed, the HTML page and the listing carry `Vec<T>` and `R&D &copy;` as the feeds said them")
    func everyOutputKeepsPlainText() async throws {
        let folder = try TemporaryDirectory(prefix: "tributary-plain")
        try folder.write(Self.atom, to: "feeds/a.xml")
        try folder.write(Self.rss, to: "feeds/r.xml")
        try folder.write(Self.jsonFeed, to: "feeds/j.json")
        try folder.write(Self.page, to: "feeds/p.html")
        try folder.write(Self.config, to: "feeds.yaml")
        let result = try await TributaryBinary.run(["run", "--no-state", "-q"], in: folder.url.path)
        #expect(result.status == 0, "\(result.standardError)")
        for title in Self.titles { #expect(result.standardOutput.contains(title), "\(title) in \(result.standardOutput)") }

        for file in ["out/river.atom", "out/river.rss", "out/river.json"] {
            let feed = try FeedParser(FeedParser.Options(source: "reread")).parse(
                Array(try Data(contentsOf: URL(fileURLWithPath: folder.path(file)))))
            #expect(feed.problems.isEmpty, "\(file): \(feed.problems)")
            #expect(feed.items.compactMap(\.title) == Self.titles, "\(file)")
            let vec = feed.items.first { $0.url == "https://t.example/1" }
            #expect(vec?.summary == "How to use List<T> when a < b", "\(file)")
            let script = feed.items.first { $0.url == "https://t.example/2" }
            #expect(script?.authors.map(\.name) == ["<Anonymous>"], "\(file)")
            #expect(script?.tags == ["<html>"], "\(file)")
        }

        let page = try folder.read("out/index.html")
        for title in Self.titles {
            let escaped = title.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;")
            #expect(page.contains(escaped), "\(escaped) in the page")
        }
        #expect(!page.contains("<T>") && !page.contains("<script> element"))
    }
}
