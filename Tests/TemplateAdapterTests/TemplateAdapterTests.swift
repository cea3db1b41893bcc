import Foundation
import TemplateAdapter
import TestSupport
import Testing
import TributaryCore
import TributaryHTTP
import TributaryModel

/// The template adapter's tests: replay a recording through the loopback server and compare the
/// items with the expected ones; then the options and the failures. Copy and adapt them.
@Suite("template adapter")
struct TemplateAdapterTests {
    /// The recording in Fixtures/recording, replayed by a new loopback server.
    static func replayServer() throws -> LoopbackServer {
        let folder = try #require(Bundle.module.url(forResource: "Fixtures/recording", withExtension: nil))
        let server = try LoopbackServer()
        server.replay(try Recording.read(from: folder))
        return server
    }

    /// The adapter as the configuration loader would build it, reading from `server`.
    static func adapter(_ server: LoopbackServer, _ values: [String: OptionValue] = [:]) throws -> TemplateAdapter {
        var all: [String: OptionValue] = ["pages": .integer(1)]
        all["base_url"] = .url(try #require(URL(string: server.baseURL)))
        all.merge(values) { _, new in new }
        return try TemplateAdapter(options: AdapterOptions(file: "feeds.yaml", sourceName: "example", values: all))
    }

    /// A context over real libcurl with no retries.
    static func context() -> FetchContext {
        var settings = HTTPSettings()
        settings.retries = 0
        return FetchContext(sourceName: "example", configDirectory: URL(fileURLWithPath: "/"), fetcher: CurlFetcher(settings: settings))
    }

    @Test func theReplayedRecordingGivesTheExpectedItems() async throws {
        let server = try Self.replayServer()
        let result = try await Self.adapter(server, ["pages": .integer(5), "topic": .string("swift")]).fetch(in: Self.context())
        #expect(
            result.items == [
                Item(
                    id: "example:3", source: "example", url: server.url("/posts/3"), title: "Third post", summary: "The newest one.",
                    published: Date(timeIntervalSince1970: 1_732_870_800), metrics: ["comments": 4]),
                Item(id: "example:2", source: "example", url: "https://example.com/posts/2", title: "Second post"),
                Item(
                    id: "example:1", source: "example", url: server.url("/posts/1"), title: "First post",
                    published: Date(timeIntervalSince1970: 1_732_698_000)),
            ])
        let first = server.url("/api/posts?topic=swift")
        let second = server.url("/api/posts?topic=swift&cursor=c2")
        #expect(
            result.problems.map(\.description) == [
                #"warning: \#(first): posts[1].published_at is a string "soon", expected Unix seconds; no date"#,
                "error: \(second): posts[1].id is missing; skipped",
            ])
        // `next: null` on the second page ended the loop before the page limit.
        #expect(server.allRequests.count == 2)
    }

    @Test func aRequestOutsideTheRecordingFailsTheSource() async throws {
        let server = try Self.replayServer()
        do {
            _ = try await Self.adapter(server, ["topic": .string("rust")]).fetch(in: Self.context())
            Issue.record("expected a failure")
        } catch {
            #expect(String(describing: error) == "\(server.url("/api/posts?topic=rust")): HTTP 404 Not Found")
        }
    }

    @Test func anEmptyTopicIsAConfigurationError() throws {
        let server = try LoopbackServer()
        #expect(throws: ConfigError.self) { try Self.adapter(server, ["topic": .string(" ")]) }
    }
}
