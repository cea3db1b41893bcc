import Foundation
import TestSupport
import Testing

/// The real binary on series of headlines that differ only in a date or an issue number, in one feed and across two.
@Suite("Near-duplicates end to end", .serialized)
struct NearDuplicateEndToEndTests {
    /// One feed's entries: seven distinct links and dates.
    static let series: [(title: String, link: String, date: String)] = [
        ("外交部发言人毛宁主持例行记者会（3月6日）", "https://www.mfa.gov.cn/web/fyrbt/t20240306.shtml", "Wed, 06 Mar 2024 19:00:00 +0800"),
        ("外交部发言人毛宁主持例行记者会（3月5日）", "https://www.mfa.gov.cn/web/fyrbt/t20240305.shtml", "Tue, 05 Mar 2024 19:00:00 +0800"),
        ("外交部发言人毛宁主持例行记者会（3月4日）", "https://www.mfa.gov.cn/web/fyrbt/t20240304.shtml", "Mon, 04 Mar 2024 19:00:00 +0800"),
        ("Changelog (v1.2.4)", "https://rel.example/1.2.4", "Wed, 06 Mar 2024 10:00:00 +0000"),
        ("Changelog (v1.2.3)", "https://rel.example/1.2.3", "Mon, 04 Mar 2024 10:00:00 +0000"),
        ("Ask HN: Who is hiring? (March 2024)", "https://news.ycombinator.com/item?id=39562986", "Fri, 01 Mar 2024 16:00:09 +0000"),
        ("Ask HN: Who wants to be hired? (March 2024)", "https://news.ycombinator.com/item?id=39562984", "Fri, 01 Mar 2024 16:00:07 +0000"),
    ]

    /// An RSS feed of `entries`, their links under `host` when given.
    static func feed(_ entries: [(title: String, link: String, date: String)], host: String? = nil) -> String {
        var text = #"<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>f</title><link>https://f.example/</link>"#
        for (index, entry) in entries.enumerated() {
            let link = host.map { "https://\($0)/\(index)" } ?? entry.link
            text += "\n<item><title>\(entry.title)</title><link>\(link)</link><pubDate>\(entry.date)</pubDate></item>"
        }
        return text + "\n</channel></rss>\n"
    }

    /// The titles the listing shows, in order.
    static func titles(_ listing: String) -> [String] {
        listing.split(separator: "\n").filter { $0.first?.isNumber == true }.map { String($0.drop { $0 != " " }.dropFirst()) }
    }

    @Test("every entry of one feed stays, however alike the headlines of a series")
    func oneFeedKeepsEveryEntry() async throws {
        let folder = try TemporaryDirectory(prefix: "tributary-series")
        try folder.write(Self.feed(Self.series), to: "f.xml")
        try folder.write("sources:\n  - {name: feed, adapter: rss, url: f.xml}\noutputs:\n  - {type: stdout}\n", to: "feeds.yaml")
        let result = try await TributaryBinary.run(["run", "--no-state", "-q"], in: folder.url.path)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(Set(Self.titles(result.standardOutput)) == Set(Self.series.map(\.title)), "\(result.standardOutput)")
        #expect(!result.standardOutput.contains("similar"))
    }

    @Test("across two feeds an entry merges with its copy only: dates, versions and issue numbers in brackets veto")
    func twoFeedsMergeOnlyCopies() async throws {
        let folder = try TemporaryDirectory(prefix: "tributary-series")
        let numbered = Array(Self.series.prefix(5)) + [("每日新闻早班车（第123期）", "https://n.example/123", "Sat, 02 Mar 2024 08:00:00 +0800")]
        try folder.write(Self.feed(numbered), to: "a.xml")
        try folder.write(Self.feed(numbered, host: "mirror.example"), to: "b.xml")
        try folder.write(
            Self.feed([("每日新闻早班车（第124期）", "https://m.example/124", "Sun, 03 Mar 2024 08:00:00 +0800")]), to: "c.xml")
        try folder.write(
            """
            sources:
              - {name: a, adapter: rss, url: a.xml}
              - {name: b, adapter: rss, url: b.xml, weight: 0.5}
              - {name: c, adapter: rss, url: c.xml}
            outputs:
              - {type: stdout}

            """, to: "feeds.yaml")
        let result = try await TributaryBinary.run(["run", "--no-state", "-q"], in: folder.url.path)
        #expect(result.status == 0, "\(result.standardError)")
        let titles = Self.titles(result.standardOutput)
        #expect(titles.count == 7, "\(result.standardOutput)")
        #expect(Set(titles) == Set(numbered.map(\.title) + ["每日新闻早班车（第124期）"]))
        #expect(result.standardOutput.components(separatedBy: "+1 similar").count - 1 == 6)
    }
}
