import Foundation
import TestSupport
import Testing

/// The real binary on feeds saved as files, with what real feeds carry: relative links, script links, zero dates.
@Suite("End to end: saved feeds", .serialized)
struct SavedFeedEndToEndTests {
    static let saved = """
        <?xml version="1.0" encoding="utf-8"?>
        <rss version="2.0"><channel><title>Saved blog</title><link>https://blog.example.com/</link>
        <item><title>Post</title><link>/2024/post.html</link><description><![CDATA[<p><a href="/about">about</a> <img src="/img/x.png"></p>]]></description><pubDate>Tue, 05 Mar 2024 14:03:00 GMT</pubDate></item>
        <item><title>Click me</title><link>javascript:alert(document.cookie)</link><enclosure url="javascript:alert(2)" type="image/png" length="1"/><pubDate>Tue, 05 Mar 2024 13:00:00 GMT</pubDate></item>
        </channel></rss>
        """

    static let zeroDates = """
        <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>Zero dates</title><link>http://z.example/</link>
        <item><title>Hugo undated page</title><link>http://z.example/about/</link><pubDate>Mon, 01 Jan 0001 00:00:00 +0000</pubDate></item>
        <item><title>PHP MySQL zero date</title><link>http://z.example/2</link><pubDate>Mon, 30 Nov -0001 00:00:00 +0000</pubDate></item>
        <item><title>Year zero</title><link>http://z.example/3</link><dc:date>0000-01-01T00:00:00Z</dc:date></item>
        </channel></rss>
        """

    static let config = """
        title: Saved
        link: https://river.example.org/
        dedup: {near_duplicates: off}
        sources:
          - {name: saved, adapter: rss, url: saved.xml}
          - {name: zero, adapter: rss, url: "file:zero.xml"}
        outputs:
          - {type: atom, path: out/river.atom}
          - {type: rss, path: out/river.rss}
          - {type: jsonfeed, path: out/river.json}
          - {type: html, path: out/river.html, content: full}

        """

    @Test func aSavedFeedResolvesAgainstItsChannelLinkAndNoOutputCarriesFileOrScriptLinksOrYearZero() async throws {
        let folder = try TemporaryDirectory(prefix: "tributary-saved")
        try folder.write(Self.saved, to: "saved.xml")
        try folder.write(Self.zeroDates, to: "zero.xml")
        try folder.write(Self.config, to: "feeds.yaml")
        let result = try await TributaryBinary.run(["run", "--no-state", "-q"], in: folder.url.path)
        #expect(result.status == 0, "\(result.standardError)")

        let atom = try folder.read("out/river.atom")
        #expect(atom.contains(#"<link rel="alternate" type="text/html" href="https://blog.example.com/2024/post.html"/>"#))
        #expect(atom.contains(#"<a href="https://blog.example.com/about">about</a>"#))
        let verdict = try await AtomSchema.validate(file: folder.path("out/river.atom"))
        #expect(verdict.isValid, "\(verdict.messages)")
        let outputs = try ["atom", "rss", "json", "html"].map { try folder.read("out/river.\($0)") }
        for output in outputs {
            #expect(!output.contains("file:"), "a local path is published")
            #expect(!output.lowercased().contains("javascript:"), "a script link is published")
            // (The warnings on the page quote the feed's text, so written dates are looked for, not the text.)
            for date in ["0000-01-01T", "0001-01-01T", "0001-11-30T", "Jan 1 ", "Nov 1 ", ">Mon, 01 Jan 0001", "\"day-0001", "\"0001-"] {
                #expect(!output.contains(date), "a placeholder date: \(date)")
            }
        }
        let html = try folder.read("out/river.html")
        #expect(html.contains(#"<a href="https://blog.example.com/2024/post.html">Post</a>"#))
        #expect(html.contains(#"<img src="https://blog.example.com/img/x.png"/>"#))
    }
}
