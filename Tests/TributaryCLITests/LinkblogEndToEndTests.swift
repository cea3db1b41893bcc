import Foundation
import TestSupport
import Testing
import TributaryModel
import TributarySyndication

/// A linkblog's JSON Feed: each item has its own page (`url`) and the page it is about (`external_url`). Both reach
/// every output, and the stored items keep them for the runs that fall back on the state.
@Suite("Linkblog items end to end", .serialized)
struct LinkblogEndToEndTests {
    static let feed = """
        {"version": "https://jsonfeed.org/version/1.1", "title": "Links", "home_page_url": "https://links.example/",
         "items": [
          {"id": "1", "url": "https://links.example/2026/12/rust", "external_url": "https://news.example/rust-2026?utm_source=rss",
           "title": "Rust 2026 is out", "content_text": "Worth a read.", "date_published": "2026-12-01T08:00:00Z"},
          {"id": "2", "url": "https://links.example/2026/12/own", "external_url": "javascript:alert(1)",
           "title": "A post of my own", "content_text": "Mine.", "date_published": "2026-12-01T07:00:00Z"},
          {"id": "3", "url": "https://links.example/2026/12/idn", "external_url": "https://例子.测试:8443/新闻",
           "title": "An address in Chinese", "content_text": "IDN.", "date_published": "2026-12-01T06:00:00Z"}]}

        """

    static let config = """
        title: Links river
        link: https://example.org/
        sources:
          - {name: links, adapter: jsonfeed, url: feeds/links.json}
        outputs:
          - {type: atom, path: out/river.atom, url: https://example.org/river.atom}
          - {type: rss, path: out/river.rss, url: https://example.org/river.rss}
          - {type: jsonfeed, path: out/river.json}
          - {type: html, path: out/index.html, url: https://example.org/}

        """

    @Test func theExternalURLReachesEveryOutputAndOutlivesTheSource() async throws {
        let folder = try TemporaryDirectory(prefix: "tributary-linkblog")
        try folder.write(Self.feed, to: "feeds/links.json")
        try folder.write(Self.config, to: "feeds.yaml")
        let first = try await TributaryBinary.run(["run", "-q"], in: folder.url.path)
        #expect(first.status == 0, "\(first.standardError)")
        try await Self.checkOutputs(in: folder)

        // The source is gone: the run falls back on the stored items, which kept their external URL.
        try FileManager.default.removeItem(atPath: folder.path("feeds/links.json"))
        let second = try await TributaryBinary.run(["run", "-q"], in: folder.url.path)
        #expect(second.status != 0 && second.standardError.contains("links"), "the failure is reported: \(second.standardError)")
        try await Self.checkOutputs(in: folder)
    }

    static func checkOutputs(in folder: TemporaryDirectory) async throws {
        let external = "https://news.example/rust-2026"
        let atom = try folder.read("out/river.atom")
        #expect(atom.contains(#"<link rel="related" type="text/html" href="\#(external)"/>"#), "\(atom)")
        #expect(!atom.contains("javascript:"), "\(atom)")
        let verdict = try await AtomSchema.validate(file: folder.path("out/river.atom"))
        #expect(verdict.isValid, "\(verdict.messages)")
        let rss = try folder.read("out/river.rss")
        #expect(rss.contains(#"<atom:link rel="related" href="\#(external)"/>"#), "\(rss)")
        let json = try FeedParser(FeedParser.Options(source: "reread")).parse(Array(try folder.read("out/river.json").utf8))
        #expect(
            json.items.map(\.url) == [
                "https://links.example/2026/12/rust", "https://links.example/2026/12/own", "https://links.example/2026/12/idn",
            ])
        #expect(json.items.prefix(2).map(\.externalURL) == [external, nil], "tracking parameters and javascript: go, as from links")
        #expect(json.items.last?.externalURL != nil)
        let page = try folder.read("out/index.html")
        #expect(page.contains(#"<a class="external" href="\#(external)">→ news.example</a>"#), "\(page)")
        #expect(page.contains("→ 例子.测试</a>"), "the host as written, not its punycode, and without the port")
    }
}
