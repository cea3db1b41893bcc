import Foundation
import TestSupport

/// Builds folders with a configuration and feeds for the command-line tests.
enum CLIFixtures {
    /// The text of a bundled fixture.
    static func text(_ name: String) throws -> String {
        guard let url = Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil) else {
            throw FixtureMissing(name: name)
        }
        return try String(contentsOf: url, encoding: .utf8)
    }

    struct FixtureMissing: Error, CustomStringConvertible {
        var name: String
        var description: String { "fixture \(name) is missing" }
    }

    /// A folder holding the two sample feeds under `feeds/`.
    static func folderWithFeeds() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory(prefix: "tributary-cli")
        try folder.write(try text("english.json"), to: "feeds/english.json")
        try folder.write(try text("chinese.json"), to: "feeds/chinese.json")
        return folder
    }

    /// A configuration reading the two sample feeds and writing Atom, JSON Feed and a listing.
    static let standardConfig = """
        title: Test river
        author: {name: Tester, email: tester@example.org}
        sources:
          - name: english
            adapter: jsonfeed
            url: feeds/english.json
          - name: chinese
            adapter: jsonfeed
            url: file:feeds/chinese.json
            weight: 0.5
        outputs:
          - type: atom
            path: out/river.atom
            url: https://example.org/river.atom
          - type: jsonfeed
            path: out/river.json
          - type: stdout

        """

    /// The root of the repository (for the default `feeds.yaml` and `samples/`).
    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// A JSON Feed with `count` dated items, each with some HTML, for large-output tests.
    static func largeFeed(count: Int) -> String {
        var text = #"{"version":"https://jsonfeed.org/version/1.1","title":"Large","items":["#
        for index in 0..<count {
            if index > 0 { text += "," }
            let day = 1 + index % 28
            let paragraph = String(repeating: "Lorem ipsum dolor sit amet &amp; consectetur. 中文内容。 ", count: 8)
            text += #"{"id":"item-\#(index)","url":"https://example.org/a/\#(index)","title":"Item \#(index) <b>bold</b>","#
            text +=
                #""content_html":"<p>\#(paragraph)</p>","date_published":"2026-10-\#(day < 10 ? "0" : "")\#(day)T08:\#(index % 60 < 10 ? "0" : "")\#(index % 60):00Z"}"#
        }
        return text + "]}"
    }
}
