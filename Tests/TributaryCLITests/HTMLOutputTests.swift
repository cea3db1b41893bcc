import Foundation
import TestSupport
import Testing
import TributaryModel
import TributarySyndication

/// The real binary writing the HTML page (checked by libxml2's parsers and rendered in headless
/// Chromium), the RSS file and per-tag outputs, read back through the project's own parser.
@Suite("HTML and RSS outputs", .serialized)
struct HTMLOutputTests {
    static let config = """
        title: Test river
        link: https://example.org/
        author: {name: Tester, email: tester@example.org}
        sources:
          - name: english
            adapter: jsonfeed
            url: feeds/english.json
          - name: chinese
            adapter: jsonfeed
            url: file:feeds/chinese.json
            weight: 0.5
            tags: [中文]
          - name: broken
            adapter: jsonfeed
            url: feeds/missing.json
        outputs:
          - type: html
            path: out/index.html
            url: https://example.org/
          - type: rss
            path: out/river.rss
            url: https://example.org/river.rss
          - type: jsonfeed
            path: out/zh.json
            url: https://example.org/zh.json
            rules: {keep: [{tags: {in: [中文]}}]}

        """

    /// Runs the configuration once and returns the folder and tributary's standard error.
    static func run() async throws -> (TemporaryDirectory, String) {
        let folder = try CLIFixtures.folderWithFeeds()
        try folder.write(config, to: "feeds.yaml")
        let result = try await TributaryBinary.run(["run", "-v"], in: folder.url.path)
        #expect(result.status == 2, "\(result.standardError)")
        return (folder, result.standardError)
    }

    @Test func thePageIsWellFormedForBothOfLibxml2sParsers() async throws {
        let (folder, log) = try await Self.run()
        #expect(log.contains("wrote 8 items to out/index.html"))
        let page = folder.path("out/index.html")
        let xmllint = "/usr/bin/xmllint"
        try #require(
            FileManager.default.isExecutableFile(atPath: xmllint), "xmllint is missing; run 'make test' (Debian package libxml2-utils)")
        // As XML: the page is polyglot markup, so the strict parser must accept it whole.
        let asXML = try await ChildProcess([xmllint, "--noout", "--nonet", page], directory: folder.url.path).run()
        #expect(asXML.status == 0, "\(asXML.standardError)")
        // As HTML: libxml2's HTML parser knows HTML 4 only, so it calls the HTML5 elements
        // unknown; any other complaint is a real error.
        let asHTML = try await ChildProcess([xmllint, "--html", "--noout", "--nonet", page], directory: folder.url.path).run()
        let html5 = ["header", "main", "section", "article", "time", "details", "summary", "footer"]
        let messages = asHTML.standardError.split(separator: "\n").filter { $0.hasPrefix(page + ":") }
        let unexpected = messages.filter { line in !html5.contains { line.hasSuffix("Tag \($0) invalid") } }
        #expect(unexpected.isEmpty, "\(asHTML.standardError)")
        #expect(!messages.isEmpty)

        let text = try folder.read("out/index.html")
        #expect(text.components(separatedBy: "<article class=\"item\" dir=\"auto\"").count - 1 == 8, "each item's direction from its text")
        #expect(text.contains("<summary class=\"failed\">1 of 3 sources failed</summary>"))
        #expect(text.contains("<span class=\"name\">broken</span> <span class=\"status\">failed</span>"))
        #expect(text.contains("cannot read file: no such file"))
    }

    @Test func headlessChromiumRendersEveryItem() async throws {
        let (folder, _) = try await Self.run()
        let page = folder.path("out/index.html")
        let dom = try await HeadlessChromium.dumpDOM(file: page)
        #expect(dom.components(separatedBy: "<article class=\"item\" dir=\"auto\"").count - 1 == 8)
        #expect(dom.contains("<h1><a href=\"https://example.org/\">Test river</a></h1>"))
        #expect(dom.components(separatedBy: "<section class=\"day\"").count - 1 >= 4)

        let light = folder.path("shots/phone.png")
        let dark = folder.path("shots/phone-dark.png")
        try FileManager.default.createDirectory(atPath: folder.path("shots"), withIntermediateDirectories: true)
        try await HeadlessChromium.screenshot(file: page, to: light, width: 412, height: 915)
        try await HeadlessChromium.screenshot(file: page, to: dark, width: 412, height: 915, dark: true)
        let lightPNG = try Data(contentsOf: URL(fileURLWithPath: light))
        let darkPNG = try Data(contentsOf: URL(fileURLWithPath: dark))
        for png in [lightPNG, darkPNG] {
            #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            // IHDR: width and height, big-endian, at bytes 16–23.
            let bytes = Array(png)
            try #require(bytes.count > 24)
            let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
            let height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
            #expect(width == 412 && height == 915)
        }
        // The dark scheme changes what is drawn.
        #expect(lightPNG != darkPNG)
    }

    @Test func theRSSAndPerTagOutputsReadBack() async throws {
        let (folder, log) = try await Self.run()
        let rss = try FeedParser(FeedParser.Options(source: "reread")).parse(
            Array(try Data(contentsOf: URL(fileURLWithPath: folder.path("out/river.rss")))))
        #expect(rss.format == .rss)
        #expect(rss.problems.isEmpty, "\(rss.problems)")
        #expect(rss.info.feedURL == "https://example.org/river.rss")
        #expect(rss.items.count == 8)
        #expect(rss.items.allSatisfy { !$0.id.isEmpty && $0.title != nil })

        let zh = try FeedParser(FeedParser.Options(source: "reread")).parse(
            Array(try Data(contentsOf: URL(fileURLWithPath: folder.path("out/zh.json")))))
        #expect(!zh.items.isEmpty)
        #expect(zh.items.allSatisfy { $0.tags.contains("中文") })
        #expect(log.contains("wrote \(zh.items.count) items to out/zh.json"))
        #expect(zh.items.count < 8)
    }
}
