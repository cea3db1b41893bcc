import Foundation
import TestSupport
import Testing

/// A private feed's URL with a user name and password, or a token in its query: the real binary sends them, and
/// publishes none of them. Before, a feed without a self link put `http://user:s3cret@host/feed.xml` into every Atom
/// entry's `<source>` and RSS item's `<source url>`, relative links resolved against it carried it, and a failing
/// source's error showed it on the HTML page, in the report and on stderr.
@Suite("End to end: credentials in source URLs", .serialized)
struct CredentialsEndToEndTests {
    static let feed = """
        <?xml version="1.0"?><rss version="2.0"><channel><title>Private</title>
        <item><guid>p1</guid><title>Members' post</title><link>/posts/1</link>
        <description><![CDATA[<p><a href="/posts/0">before</a> <img src="img/1.png"></p>]]></description>
        <enclosure url="/media/1.mp3" type="audio/mpeg" length="1"/><pubDate>Tue, 05 Mar 2024 14:03:00 GMT</pubDate></item>
        </channel></rss>
        """

    @Test func passwordsAndTokensInSourceURLsReachNoOutputReportOrMessage() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/private.xml", .ok(body: Array(Self.feed.utf8), contentType: "application/rss+xml"))
        server.route("/broken.xml", .status(404, body: "gone"))
        let host = server.baseURL.replacingOccurrences(of: "http://", with: "")
        let folder = try TemporaryDirectory(prefix: "tributary-credentials")
        try folder.write(
            """
            title: Credentials
            link: https://river.example.org/
            sources:
              - {name: private, adapter: rss, url: "http://reader:s3cret@\(host)/private.xml"}
              - {name: broken, adapter: rss, url: "http://ghp_T0KEN@\(host)/broken.xml?token=t0p&lang=zh"}
            outputs:
              - {type: atom, path: out/river.atom}
              - {type: rss, path: out/river.rss}
              - {type: jsonfeed, path: out/river.json}
              - {type: html, path: out/river.html, content: full}

            """, to: "feeds.yaml")
        let result = try await TributaryBinary.run(["run", "--report", "report.json"], in: folder.url.path)
        #expect(result.status == 2, "one source failed: \(result.standardError)")
        let sent = try #require(server.requests("/private.xml").first)
        #expect(sent.header("Authorization") == "Basic " + Data("reader:s3cret".utf8).base64EncodedString(), "the credentials are used")

        let outputs = try ["atom", "rss", "json", "html"].map { try folder.read("out/river.\($0)") }
        let report = try folder.read("report.json")
        for (name, text) in zip(["atom", "rss", "json", "html", "report", "stderr"], outputs + [report, result.standardError]) {
            for secret in ["s3cret", "reader:", "T0KEN", "t0p"] {
                #expect(!text.contains(secret), "\(name) shows \(secret)")
            }
        }
        // The links resolved against the feed's URL lead to its host, without the credentials.
        let atom = outputs[0]
        #expect(atom.contains("href=\"\(server.baseURL)/posts/1\""), "\(atom)")
        #expect(atom.contains("<source>") && atom.contains("href=\"\(server.baseURL)/private.xml\""), "the feed's own link")
        #expect(atom.contains("\(server.baseURL)/media/1.mp3") && atom.contains("\(server.baseURL)/posts/0"))
        // The failure is still told, with the secrets as ***.
        let shown = "http://***@\(host)/broken.xml?token=***&lang=zh"
        #expect(result.standardError.contains(shown), "\(result.standardError)")
        #expect(report.contains(shown))
        #expect(outputs[3].contains(shown.replacingOccurrences(of: "&", with: "&amp;")), "the HTML page's health list")
    }

    @Test func aWorkingSourcesTokenAndItsFeedAuthorsLinksAreNotPublished() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let atom = """
            <?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Private</title>
            <author><name>Bob</name><uri>https://bob:hunter2@people.example/~bob</uri></author>
            <author><name>Eve</name><uri>javascript:alert(document.cookie)</uri></author>
            <updated>2024-03-05T14:03:00Z</updated>
            <entry><id>tag:example.org,2024:1</id><title>Members' post</title><link href="/posts/1"/>
            <updated>2024-03-05T14:03:00Z</updated></entry></feed>
            """
        server.route("/private.xml", .ok(body: Array(atom.utf8), contentType: "application/atom+xml"))
        let folder = try TemporaryDirectory(prefix: "tributary-credentials")
        try folder.write(
            """
            link: https://river.example.org/
            sources:
              - {name: private, adapter: rss, url: "\(server.baseURL)/private.xml?token=tok123&lang=zh"}
            outputs:
              - {type: atom, path: out/river.atom}
              - {type: rss, path: out/river.rss}
              - {type: jsonfeed, path: out/river.json}

            """, to: "feeds.yaml")
        let result = try await TributaryBinary.run(["run"], in: folder.url.path)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(server.requests("/private.xml").first?.query == "token=tok123&lang=zh", "the token is sent")
        for name in ["atom", "rss", "json"] {
            let text = try folder.read("out/river.\(name)")
            for secret in ["tok123", "hunter2", "javascript"] { #expect(!text.contains(secret), "\(name) shows \(secret)") }
        }
        let river = try folder.read("out/river.atom")
        #expect(river.contains("href=\"\(server.baseURL)/private.xml?lang=zh\""), "the feed's URL without the token: \(river)")
        #expect(river.contains("<uri>https://people.example/~bob</uri>"), "\(river)")
        #expect(river.contains("<name>Eve</name>"), "the author stays, without the script")
    }
}
