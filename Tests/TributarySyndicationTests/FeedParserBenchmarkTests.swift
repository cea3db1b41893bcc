import Foundation
import Testing
import TributarySyndication

/// Throughput of `FeedParser` on a generated 20 MB RSS 2.0 document. Off by default; run with
/// `TRIBUTARY_BENCH_OUTPUT=/tmp/bench.txt swift test -c release --filter FeedParserBenchmark`,
/// which appends one line (`MB/s` over the best of five runs) to that file.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["TRIBUTARY_BENCH_OUTPUT"] != nil))
struct FeedParserBenchmarkTests {
    @Test func twentyMegabytesOfRSS() throws {
        let document = FeedParserBenchmarkTests.generatedRSS(bytes: 20 << 20)
        let parser = FeedParser(
            .init(source: "bench", documentURL: URL(string: "https://example.com/feed.xml"), sanitize: false, maxBytes: 64 << 20))
        var best = Double.infinity
        var itemCount = 0
        for _ in 0..<5 {
            let start = ContinuousClock.now
            let feed = try parser.parse(document)
            let elapsed = ContinuousClock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            best = min(best, seconds)
            itemCount = feed.items.count
            #expect(feed.problems.isEmpty)
        }
        let megabytes = Double(document.count) / 1_048_576
        let line = String(
            format: "FeedParser: %.1f MB, %d items, best %.1f ms, %.1f MB/s\n", megabytes, itemCount, best * 1000, megabytes / best)
        if let path = ProcessInfo.processInfo.environment["TRIBUTARY_BENCH_OUTPUT"], let data = line.data(using: .utf8) {
            if let handle = FileHandle(forWritingAtPath: path) {
                handle.seekToEndOfFile()
                handle.write(data)
                handle.closeFile()
            } else {
                _ = FileManager.default.createFile(atPath: path, contents: data)
            }
        }
    }

    /// An RSS 2.0 feed of text-heavy items (CDATA HTML, categories, enclosures, Media RSS).
    static func generatedRSS(bytes target: Int) -> [UInt8] {
        let words = ["lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit", "中文", "测试", "café", "tempor"]
        var seed: UInt64 = 1
        func sentence(_ count: Int) -> String {
            var parts: [String] = []
            for _ in 0..<count {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                parts.append(words[Int(seed >> 33) % words.count])
            }
            return parts.joined(separator: " ")
        }
        var document = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" \
            xmlns:media="http://search.yahoo.com/mrss/">
            <channel><title>Bench</title><link>https://example.com/</link><description>A generated feed</description>

            """
        var index = 0
        while document.utf8.count < target {
            index += 1
            let content = (0..<3).map { "<p>\(sentence(50)) <a href=\"/x/\($0)\">link</a></p>" }.joined()
            document += """
                <item>
                <title>\(sentence(8)) &amp; \(index)</title>
                <link>https://example.com/posts/\(index)</link>
                <guid isPermaLink="true">https://example.com/posts/\(index)</guid>
                <pubDate>Wed, 02 Oct 2002 13:\(String(format: "%02d", index % 60)):00 GMT</pubDate>
                <dc:creator>Author \(index % 17)</dc:creator>
                <category>cat\(index % 11)</category><category>tag\(index % 7)</category>
                <description><![CDATA[<p>\(sentence(40))</p><p>\(sentence(30)) &amp; more</p>]]></description>
                <content:encoded><![CDATA[\(content)]]></content:encoded>
                <enclosure url="https://example.com/a/\(index).mp3" length="\(index * 1000)" type="audio/mpeg"/>
                <media:thumbnail url="https://example.com/t/\(index).jpg"/>
                <comments>https://example.com/posts/\(index)#comments</comments>
                </item>

                """
        }
        document += "</channel>\n</rss>\n"
        return Array(document.utf8)
    }
}
