import Foundation
import TestSupport
import Testing
import TributaryCLI
import TributarySyndication

/// `import-opml` and `export-opml`, run in-process on temporary files.
@Suite("OPML commands")
struct OPMLCommandTests {
    private func run(_ arguments: [String]) async -> (status: Int32, out: String, err: String) {
        let console = CapturedConsole()
        let status = await CommandLineTool.main(arguments, console: console, environment: ["HOME": "/nonexistent"])
        return (status, console.standardOutput, console.standardError)
    }

    /// The large generated OPML list of the syndication tests (see its README).
    static var largeOPML: String {
        CLIFixtures.repositoryRoot.appendingPathComponent("Tests/TributarySyndicationTests/Fixtures/opml/large-subscriptions.opml").path
    }

    /// The list's feeds: URL and the union of its folders, first appearance first.
    static func largeFeeds() throws -> [(url: String, tags: Set<String>)] {
        let (document, _) = try OPMLReader().read(Array(try Data(contentsOf: URL(fileURLWithPath: largeOPML))))
        var result: [(url: String, tags: Set<String>)] = []
        for (outline, folders) in document.feeds {
            let url = outline.xmlURL ?? ""
            if let index = result.firstIndex(where: { $0.url == url }) {
                result[index].tags.formUnion(folders)
            } else {
                result.append((url, Set(folders)))
            }
        }
        return result
    }

    /// What `export-opml` says a configuration subscribes to: URL and tags per feed.
    private func exported(_ config: String) async throws -> [String: Set<String>] {
        let result = await run(["export-opml", "-c", config, "-q"])
        #expect(result.status == 0, "\(result.err)")
        let (document, problems) = try OPMLReader().read(Array(result.out.utf8))
        #expect(problems.isEmpty)
        var feeds: [String: Set<String>] = [:]
        for (outline, folders) in document.feeds { feeds[outline.xmlURL ?? "", default: []].formUnion(folders) }
        return feeds
    }

    @Test func importPrintsOneValidSourcePerFeedWithItsFoldersAsTags() async throws {
        let result = await run(["import-opml", Self.largeOPML])
        #expect(result.status == 0, "\(result.err)")
        #expect(
            result.out.hasPrefix("sources:\n  - name: \"log-1\"\n    adapter: rss\n    url: \"https://blog.example.net/log/1/feed.xml\"\n"))
        #expect(result.err.contains("tributary: 485 feeds in \(Self.largeOPML)"))
        #expect(result.err.contains("warning:"))
        // A bare `&`, Chinese, emoji and quotes come through as names and tags.
        #expect(result.out.contains("tags: [\"Podcasts 🎧\"]"))
        #expect(result.out.contains("name: \"第13号-log-周刊\""))
        #expect(result.out.contains("tags: [\"Bare & ampersand\u{A0}folder\"]"))

        let folder = try TemporaryDirectory(prefix: "tributary-opml")
        let config = try folder.write("title: Imported\n" + result.out, to: "feeds.yaml")
        let check = await run(["check", "-c", config])
        #expect(check.status == 0, "\(check.err)")
        #expect(check.out.contains("ok: 485 sources"))
        let feeds = try await exported(config)
        let expected = try Self.largeFeeds()
        #expect(feeds.count == expected.count)
        for feed in expected {
            // The configuration reads URLs with Foundation, which writes hosts in punycode.
            #expect(feeds[URL(string: feed.url)?.absoluteString ?? feed.url] == feed.tags, "\(feed.url)")
        }
    }

    static let existingConfig = """
        # My river.
        title: Mine
        link: https://example.org/
        sources:
          - name: log-1          # the same name as the list's first feed, another URL
            adapter: rss
            url: https://example.org/mine.xml
          - name: already
            adapter: rss
            url: https://example.com/digest/9/feed.xml
          # - name: commented-out
          #   adapter: rss

        # Rules come next.
        rules:
          block:
            - title: {contains: sponsored}
        outputs:
          - type: stdout

        """

    @Test func appendAddsTheNewFeedsAtTheEndOfTheListAndKeepsTheRest() async throws {
        let folder = try TemporaryDirectory(prefix: "tributary-opml")
        let config = try folder.write(Self.existingConfig, to: "feeds.yaml")
        let result = await run(["import-opml", Self.largeOPML, "--append", config])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.isEmpty)
        #expect(result.err.contains("added 484 sources to \(config) (2 already there or listed twice)"))
        let text = try String(contentsOfFile: config, encoding: .utf8)
        // Everything that was there is still there, in place; the new entries follow the list.
        #expect(text.hasPrefix(String(Self.existingConfig.prefix(while: { $0 != "\n" }))))
        let before = Self.existingConfig.components(separatedBy: "\n# Rules come next.")
        #expect(text.hasPrefix(before[0].trimmingCharacters(in: .newlines) + "\n  - name: \"log-1-2\"\n"))
        #expect(text.hasSuffix("\n# Rules come next.\n" + before[1].dropFirst()))
        let check = await run(["check", "-c", config])
        #expect(check.status == 0, "\(check.err)")
        #expect(check.out.contains("ok: 486 sources"))
        let feeds = try await exported(config)
        #expect(feeds.count == 486)
        #expect(feeds["https://example.com/digest/9/feed.xml"] == [])

        // A second import finds nothing new and leaves the file alone.
        let again = await run(["import-opml", Self.largeOPML, "--append", config])
        #expect(again.status == 0)
        #expect(again.err.contains("nothing to add"))
        #expect(try String(contentsOfFile: config, encoding: .utf8) == text)
    }

    @Test(
        arguments: [
            ("sources: [{name: a, adapter: rss, url: https://example.org/a.xml}]\n", "'sources' must be a block list"),
            ("sources:\n  - name: a\n    adapter: rss\n    urll: https://example.org/a.xml\n", "unknown key 'urll'"),
        ])
    func appendRefusesAConfigurationItCannotSafelyChange(config: String, message: String) async throws {
        let folder = try TemporaryDirectory(prefix: "tributary-opml")
        let path = try folder.write(config, to: "feeds.yaml")
        let result = await run(["import-opml", Self.largeOPML, "--append", path])
        #expect(result.status == 1)
        #expect(result.err.contains(message), "\(result.err)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == config)
    }

    /// A list from elsewhere names web feeds: a path or another scheme would make a source read a local file, whose
    /// start a failed run then showed on the published page. Such outlines are skipped with a warning at their line,
    /// the rest are imported; `feed:` is the http(s) URL it wraps.
    @Test func onlyWebFeedsAreImported() async throws {
        let folder = try TemporaryDirectory(prefix: "tributary-opml")
        try folder.write(
            """
            <?xml version="1.0"?>
            <opml version="2.0"><body>
            <outline text="Good" xmlUrl="https://good.example/feed.xml"/>
            <outline text="Secret" xmlUrl="../secret.env"/>
            <outline text="Host name" xmlUrl="/etc/hostname"/>
            <outline text="Passwords" xmlUrl="file:///etc/passwd"/>
            <outline text="Script" xmlUrl="javascript:alert(1)"/>
            <outline text="Safari" xmlUrl="feed://safari.example/rss"/>
            <outline text="Wrapped" xmlUrl="FEED:https://wrapped.example/atom"/>
            <outline text="No host" xmlUrl="http:/nohost.example/feed"/>
            </body></opml>

            """, to: "list.opml")
        let printed = try await TributaryBinary.run(["import-opml", "list.opml"], in: folder.url.path)
        #expect(printed.status == 0)
        #expect(
            printed.standardOutput == """
                sources:
                  - name: "good"
                    adapter: rss
                    url: "https://good.example/feed.xml"
                  - name: "safari"
                    adapter: rss
                    url: "http://safari.example/rss"
                  - name: "wrapped"
                    adapter: rss
                    url: "https://wrapped.example/atom"

                """)
        let only = "; only web feeds are imported\n"
        #expect(
            printed.standardError == "list.opml:4: warning: skipped 'Secret': its xmlUrl '../secret.env' is a file path, not an http(s) URL"
                + only
                + "list.opml:5: warning: skipped 'Host name': its xmlUrl '/etc/hostname' is a file path, not an http(s) URL" + only
                + "list.opml:6: warning: skipped 'Passwords': its xmlUrl 'file:///etc/passwd' is not an http(s) URL" + only
                + "list.opml:7: warning: skipped 'Script': its xmlUrl 'javascript:alert(1)' is not an http(s) URL" + only
                + "list.opml:10: warning: skipped 'No host': its xmlUrl 'http:/nohost.example/feed' is not a valid URL" + only
                + "tributary: 3 feeds in list.opml (5 outlines skipped)\n")

        // Appended: the web feeds are added, the others skipped, and the configuration stays valid.
        let config = "sources:\n- name: a\n  adapter: rss\n  url: https://a.example/f.xml\noutputs: [{type: stdout}]\n"
        try folder.write(config, to: "feeds.yaml")
        let appended = try await TributaryBinary.run(["import-opml", "--append", "feeds.yaml", "list.opml", "-q"], in: folder.url.path)
        #expect(appended.status == 0, "\(appended.standardError)")
        #expect(
            try folder.read("feeds.yaml") == """
                sources:
                - name: a
                  adapter: rss
                  url: https://a.example/f.xml
                - name: "good"
                  adapter: rss
                  url: "https://good.example/feed.xml"
                - name: "safari"
                  adapter: rss
                  url: "http://safari.example/rss"
                - name: "wrapped"
                  adapter: rss
                  url: "https://wrapped.example/atom"
                outputs: [{type: stdout}]

                """)
        let check = try await TributaryBinary.run(["check", "-c", "feeds.yaml"], in: folder.url.path)
        #expect(check.standardOutput == "feeds.yaml: ok: 4 sources, outputs: stdout\n", "\(check.standardError)")

        try folder.write("<opml><body><outline text=\"One\" xmlUrl=\"https://one.example/\"/></body></opml>", to: "one.opml")
        let one = try await TributaryBinary.run(["import-opml", "one.opml"], in: folder.url.path)
        #expect(one.standardError == "tributary: 1 feed in one.opml\n")
    }

    /// A configuration with CR LF line endings (written on Windows) or ending in a document end marker is one `check`
    /// accepts: the sources are added, in its line endings, before the marker (after it they were a second document).
    @Test(arguments: [
        "sources:\r\n  - name: a\r\n    adapter: rss\r\n    url: https://a.example/f.xml\r\noutputs:\r\n  - type: stdout\r\n",
        "---\nsources:\n  - name: a\n    adapter: rss\n    url: https://a.example/f.xml\n...\n",
    ])
    func appendAddsToAnyListCheckAccepts(config: String) async throws {
        let folder = try TemporaryDirectory(prefix: "tributary-opml")
        try folder.write(config, to: "feeds.yaml")
        try folder.write("<opml><body><outline text=\"One\" xmlUrl=\"https://one.example/feed.xml\"/></body></opml>", to: "one.opml")
        let result = try await TributaryBinary.run(["import-opml", "--append", "feeds.yaml", "one.opml"], in: folder.url.path)
        #expect(result.status == 0)
        #expect(result.standardError == "tributary: added 1 source to feeds.yaml\n")
        let lineBreak = config.contains("\r\n") ? "\r\n" : "\n"
        let last = "    url: https://a.example/f.xml" + lineBreak
        let added = ["  - name: \"one\"", "    adapter: rss", "    url: \"https://one.example/feed.xml\""].map { $0 + lineBreak }.joined()
        #expect(try folder.read("feeds.yaml") == config.replacingOccurrences(of: last, with: last + added))
        let check = try await TributaryBinary.run(["check", "-c", "feeds.yaml"], in: folder.url.path)
        #expect(check.standardOutput.hasPrefix("feeds.yaml: ok: 2 sources"), "\(check.standardError)")
    }

    @Test func importReportsFilesThatAreNotOPML() async throws {
        let folder = try TemporaryDirectory(prefix: "tributary-opml")
        let path = try folder.write("<rss version=\"2.0\">\n<channel/></rss>\n", to: "feed.xml")
        let notOPML = await run(["import-opml", path])
        #expect(notOPML.status == 1)
        #expect(notOPML.err == "\(path):1: error: not OPML: the root element is <rss>\n")
        let missing = await run(["import-opml", folder.path("nope.opml")])
        #expect(missing.status == 1)
        #expect(missing.err == "\(folder.path("nope.opml")): error: the file does not exist\n")
        let none = await run(["import-opml"])
        #expect(none.status == 1)
        #expect(none.err.contains("missing argument FILE"))
    }

    /// Source names key the state (history, health): a round trip keeps them as they are, with the adapter as written
    /// and enabled: false, in Tributary's own attributes; tags come back from the folders.
    @Test func exportThenImportGivesTheSameSources() async throws {
        let folder = try TemporaryDirectory(prefix: "tributary-opml")
        let config = try folder.write(
            """
            title: Round trip & more
            sources:
              - {name: swift-blog, adapter: rss, url: "https://swift.org/atom.xml", tags: [Swift, Official]}
              - {name: notes, adapter: jsonfeed, url: "https://example.org/feed.json?a=1&b=$$2", tags: [Official]}
              - {name: plain, adapter: atom, url: "https://example.org/plain.atom", enabled: false}
              - {name: 中文, adapter: feed, url: "https://example.cn/rss", tags: [中文, 科技]}
              - {name: HackerNews, adapter: rss, url: "https://hnrss.org/frontpage"}
              - {name: lwn_net, adapter: rss, url: "https://lwn.net/headlines/rss", tags: [Linux]}
              - {name: kanzhihu, adapter: kanzhihu}
              - {name: local, adapter: rss, url: local.xml}

            """, to: "feeds.yaml")
        let opml = folder.path("out/subscriptions.opml")
        let export = await run(["export-opml", "-c", config, "-o", opml])
        #expect(export.status == 0, "\(export.err)")
        #expect(export.err.contains("left out 2 sources without a web feed URL: kanzhihu, local"))
        #expect(export.err.contains("wrote 6 feeds to \(opml)"))
        let text = try String(contentsOfFile: opml, encoding: .utf8)
        #expect(text.contains("<title>Round trip &amp; more</title>"))
        #expect(
            text.contains(
                #"<outline type="jsonfeed" text="notes" title="notes" xmlUrl="https://example.org/feed.json?a=1&amp;b=$2" "#
                    + #"tributary:name="notes" tributary:adapter="jsonfeed"/>"#))
        #expect(text.contains(#"tributary:name="plain" tributary:adapter="atom" tributary:enabled="false"/>"#))

        let imported = await run(["import-opml", opml, "-q"])
        #expect(imported.status == 0)
        #expect(
            imported.out == """
                sources:
                  - name: "plain"
                    adapter: atom
                    url: "https://example.org/plain.atom"
                    enabled: false
                  - name: "HackerNews"
                    adapter: rss
                    url: "https://hnrss.org/frontpage"
                  - name: "swift-blog"
                    adapter: rss
                    url: "https://swift.org/atom.xml"
                    tags: ["Swift", "Official"]
                  - name: "notes"
                    adapter: jsonfeed
                    url: "https://example.org/feed.json?a=1&b=$$2"
                    tags: ["Official"]
                  - name: "中文"
                    adapter: feed
                    url: "https://example.cn/rss"
                    tags: ["中文", "科技"]
                  - name: "lwn_net"
                    adapter: rss
                    url: "https://lwn.net/headlines/rss"
                    tags: ["Linux"]

                """)
        let again = try folder.write("title: Again\n" + imported.out, to: "again.yaml")
        #expect(try await exported(again) == exported(config))

        // Into a configuration that has a source of that name already (another feed), the name is made unique.
        let other = try folder.write(
            "sources:\n  - name: HackerNews\n    adapter: rss\n    url: https://news.example/rss\n", to: "other.yaml")
        let appended = try await TributaryBinary.run(["import-opml", "--append", other, opml], in: folder.url.path)
        #expect(appended.status == 0)
        #expect(
            appended.standardError.contains(
                "subscriptions.opml:10: warning: the name 'HackerNews' is taken by another source: imported as 'HackerNews-2'\n"))
        #expect(try String(contentsOfFile: other, encoding: .utf8).contains("\n  - name: \"HackerNews-2\"\n    adapter: rss\n"))
    }

    /// A list of another reader has no Tributary attributes: names are made from the titles as before.
    @Test func otherReadersListsAreNamedFromTheirTitles() async throws {
        let folder = try TemporaryDirectory(prefix: "tributary-opml")
        try folder.write(
            """
            <opml version="2.0"><body><outline text="Tech"><outline text="Hacker News" type="jsonfeed"
              xmlUrl="https://hn.example/feed.json"/></outline></body></opml>
            """, to: "list.opml")
        let result = try await TributaryBinary.run(["import-opml", "list.opml", "-q"], in: folder.url.path)
        #expect(
            result.standardOutput
                == "sources:\n  - name: \"hacker-news\"\n    adapter: rss\n    url: \"https://hn.example/feed.json\"\n    tags: [\"Tech\"]\n"
        )
    }
}
