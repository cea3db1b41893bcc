import Foundation
import TestSupport
import Testing

/// `max_size` (and `parse --max-size`) is the one limit on a feed's size: the rss adapter's parser refused any
/// document over a fixed 20 MB, so a source with `max_size: 50MB` could never be read.
@Suite("max_size end to end")
struct MaxSizeEndToEndTests {
    /// A 25 MB feed served over HTTP and read from a file.
    static func folder(_ server: LoopbackServer) throws -> TemporaryDirectory {
        let feed = PaddedFeed.rss(size: 25 << 20)
        server.route("/big.xml", .ok(body: feed, contentType: "application/rss+xml"))
        let folder = try TemporaryDirectory(prefix: "tributary-max-size")
        try folder.write(Data(feed), to: "big.xml")
        return folder
    }

    static func configuration(_ server: LoopbackServer, maxSize: String?) -> String {
        """
        \(maxSize.map { "defaults: {max_size: \($0)}\n" } ?? "")sources:
          - {name: web, adapter: rss, url: "\(server.url("/big.xml"))"}
          - {name: file, adapter: rss, url: big.xml}
        outputs:
          - {type: jsonfeed, path: river.json}

        """
    }

    @Test func aFeedOverTwentyMegabytesIsReadUnderItsMaxSize() async throws {
        let server = try LoopbackServer()
        let folder = try Self.folder(server)
        try folder.write(Self.configuration(server, maxSize: "30MB"), to: "feeds.yaml")
        let result = try await TributaryBinary.run(["run", "--no-state"], in: folder.url.path)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("2 sources ok, 3 items"), "\(result.standardError)")
        let river = try folder.read("river.json")
        #expect(["t1", "t2", "t3"].allSatisfy { river.contains("\"title\": \"\($0)\"") || river.contains("\"title\":\"\($0)\"") })
    }

    @Test func overTheDefaultMaxSizeTheMessageNamesIt() async throws {
        let server = try LoopbackServer()
        let folder = try Self.folder(server)
        try folder.write(Self.configuration(server, maxSize: nil), to: "feeds.yaml")
        let result = try await TributaryBinary.run(["run", "--no-state"], in: folder.url.path)
        #expect(result.status == 3, "\(result.standardError)")
        #expect(
            result.standardError.contains(
                "error: [web] failed: \(server.url("/big.xml")): response larger than the limit of 20 MB (max_size)"),
            "\(result.standardError)")
        #expect(
            result.standardError.contains(
                "error: [file] failed: \(folder.path("big.xml")): response larger than the limit of 20 MB (max_size)"),
            "\(result.standardError)")
    }

    @Test func parseReadsUpToItsMaxSizeOption() async throws {
        let server = try LoopbackServer()
        let folder = try Self.folder(server)
        for input in ["big.xml", server.url("/big.xml")] {
            let read = try await TributaryBinary.run(["parse", "-q", "--max-size", "30MB", "--format", "text", input], in: folder.url.path)
            #expect(read.status == 0, "\(read.standardError)")
            #expect(read.standardOutput.hasPrefix("1. t"), "\(read.standardOutput)")
            let refused = try await TributaryBinary.run(["parse", "-q", input], in: folder.url.path)
            #expect(refused.status == 3)
            #expect(refused.standardError.hasSuffix("response larger than the limit of 20 MB (--max-size)\n"), "\(refused.standardError)")
        }
        let usage = try await TributaryBinary.run(["parse", "--max-size", "big", "big.xml"], in: folder.url.path)
        #expect(usage.status == 1)
        #expect(usage.standardError.contains("option '--max-size' must be a size such as 512KB or 20MB, not 'big'"))
    }
}
