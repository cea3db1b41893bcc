import DeclarativeAdapters
import Foundation
import TestSupport
import Testing
import TributaryCore
import TributaryModel

/// `tributary record SOURCE` against a loopback "live site", then the recording replayed through
/// another loopback server: the adapter gives the same items from the replay.
@Suite("record and replay")
struct RecordReplayTests {
    @Test func recordsEveryExchangeAndTheReplayGivesTheSameItems() async throws {
        let live = try JSONAdapterTests.qdailyServer()
        let folder = try TemporaryDirectory()
        _ = try folder.write(JSONAdapterTests.qdailyYAML(base: live.baseURL, pages: 5), to: "feeds.yaml")

        let run = try await TributaryBinary.run(["record", "qdaily", "-o", "rec"], in: folder.url.path)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError == "tributary: recorded 3 exchanges of 'qdaily' into rec (32 items)\n")

        let recording = try Recording.read(from: folder.url.appendingPathComponent("rec"))
        #expect(recording.source == "qdaily")
        #expect(
            recording.exchanges.map(\.url) == [
                live.url("/app3/homes/index/0.json"), live.url("/app3/homes/index/1500282425_1500287444.json"),
                live.url("/app3/homes/index/1478777270_1478790123.json"),
            ])
        #expect(
            recording.exchanges.map(\.body) == [
                Array(try DeclarativeTestSupport.fixture("homes0.json").utf8),
                Array(try DeclarativeTestSupport.fixture("homes_index_page2.json").utf8),
                Array(try DeclarativeTestSupport.fixture("homes_index_last_page.json").utf8),
            ])
        #expect(recording.exchanges.first?.headers.contains(HTTPHeader("Content-Type", "application/json")) == true)
        let items = try folder.read("rec/items.json")
        #expect(items.contains("\"id\": \"article:43134\""))

        let original = try await DeclarativeTestSupport.adapter(JSONAdapterTests.qdailyYAML(base: live.baseURL, pages: 5))
            .fetch(in: DeclarativeTestSupport.context(name: "qdaily"))
        live.stop()
        let replay = try LoopbackServer()
        replay.replay(recording)
        let replayed = try await DeclarativeTestSupport.adapter(JSONAdapterTests.qdailyYAML(base: replay.baseURL, pages: 5))
            .fetch(in: DeclarativeTestSupport.context(name: "qdaily"))
        #expect(replayed.items.map(\.id) == original.items.map(\.id))
        #expect(
            replayed.items
                == original.items.map { item in
                    var item = item
                    item.url = item.url?.replacingOccurrences(of: live.baseURL, with: replay.baseURL)
                    return item
                })
    }

    @Test("A folder holds one recording: recording again removes the earlier one's bodies and a failed source its items.json")
    func recordingAgainReplacesTheEarlierRecording() async throws {
        let live = try JSONAdapterTests.qdailyServer()
        let folder = try TemporaryDirectory()
        _ = try folder.write(JSONAdapterTests.qdailyYAML(base: live.baseURL, pages: 5), to: "three.yaml")
        _ = try folder.write(
            JSONAdapterTests.qdailyYAML(base: live.baseURL, pages: 1).replacingOccurrences(of: "name: qdaily", with: "name: one"),
            to: "one.yaml")
        _ = try folder.write(
            JSONAdapterTests.qdailyYAML(base: live.url("/gone"), pages: 1).replacingOccurrences(of: "name: qdaily", with: "name: bad"),
            to: "bad.yaml")
        func files() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: folder.path("rec")).sorted()
        }

        let three = try await TributaryBinary.run(["record", "qdaily", "-c", "three.yaml", "-o", "rec"], in: folder.url.path)
        #expect(three.status == 0, "\(three.standardError)")
        _ = try folder.write("mine", to: "rec/notes.txt")
        _ = try folder.write("mine", to: "rec/7.body")
        #expect(try files() == ["001.body", "002.body", "003.body", "7.body", "exchanges.json", "items.json", "notes.txt"])

        let one = try await TributaryBinary.run(["record", "one", "-c", "one.yaml", "-o", "rec"], in: folder.url.path)
        #expect(one.standardError == "tributary: recorded 1 exchange of 'one' into rec (28 items)\n")
        #expect(try files() == ["001.body", "7.body", "exchanges.json", "items.json", "notes.txt"])
        let recording = try Recording.read(from: folder.url.appendingPathComponent("rec"))
        #expect(recording.source == "one")
        #expect(recording.exchanges.map(\.url) == [live.url("/app3/homes/index/0.json")])
        let feed = try JSONSerialization.jsonObject(with: Data(try folder.read("rec/items.json").utf8)) as? [String: Any]
        #expect((feed?["items"] as? [Any])?.count == 28)

        let bad = try await TributaryBinary.run(["record", "bad", "-c", "bad.yaml", "-o", "rec"], in: folder.url.path)
        #expect(bad.status == 3)
        #expect(
            bad.standardError == """
                tributary: recorded 1 exchange of 'bad' into rec; no items.json: the source failed \
                (the earlier recording's items.json was removed)
                tributary: [bad] failed: \(live.url("/gone/app3/homes/index/0.json")): HTTP 404 Not Found

                """)
        #expect(try files() == ["001.body", "7.body", "exchanges.json", "notes.txt"])
        #expect(try Recording.read(from: folder.url.appendingPathComponent("rec")).source == "bad")
        #expect(try folder.read("rec/notes.txt") == "mine")
    }

    /// Recordings are fixtures, committed with the tests: a private feed's password and the session cookie the site set
    /// stay out of them.
    @Test func aRecordingKeepsNoPasswordOrCookie() async throws {
        let live = try LoopbackServer()
        defer { live.stop() }
        let rss =
            "<rss version=\"2.0\"><channel><title>P</title><item><guid>1</guid><title>One</title><link>/one</link>"
            + "<enclosure url=\"/1.mp3\" type=\"audio/mpeg\" length=\"1\"/></item></channel></rss>"
        live.route(
            "/private.xml",
            .ok(body: Array(rss.utf8), contentType: "application/rss+xml", headers: [("Set-Cookie", "session=s3ss10n; HttpOnly")]))
        let folder = try TemporaryDirectory()
        let host = live.baseURL.replacingOccurrences(of: "http://", with: "")
        _ = try folder.write(
            "sources:\n  - {name: p, adapter: rss, url: \"http://reader:pa55@\(host)/private.xml?lang=zh\"}\n", to: "feeds.yaml")
        let run = try await TributaryBinary.run(["record", "p", "-o", "rec"], in: folder.url.path)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(live.requests("/private.xml").first?.header("Authorization") != nil, "the password was used")
        let saved = try folder.read("rec/exchanges.json")
        #expect(!saved.contains("pa55") && !saved.contains("reader") && !saved.contains("s3ss10n"), "\(saved)")
        let recording = try Recording.read(from: folder.url.appendingPathComponent("rec"))
        #expect(recording.exchanges.map(\.url) == [live.url("/private.xml?lang=zh")])
        #expect(recording.exchanges.first?.headers.contains(HTTPHeader("Content-Type", "application/rss+xml")) == true)
        // The items it saved beside: their links resolved against the source's URL, without its password.
        let items = try folder.read("rec/items.json")
        #expect(!items.contains("pa55") && !items.contains("reader"), "\(items)")
        #expect(items.contains(live.url("/one")), "\(items)")

        // A failing source's message on stderr shows neither.
        _ = try folder.write("sources:\n  - {name: p, adapter: rss, url: \"http://reader:pa55@\(host)/missing.xml\"}\n", to: "feeds.yaml")
        let failed = try await TributaryBinary.run(["record", "p", "-o", "rec2"], in: folder.url.path)
        #expect(failed.status != 0 && failed.standardError.contains("http://***@\(host)/missing.xml"), "\(failed.standardError)")
        #expect(!failed.standardError.contains("pa55"), "\(failed.standardError)")
        let parsed = try await TributaryBinary.run(["parse", "http://reader:pa55@\(host)/missing.xml"], in: folder.url.path)
        #expect(parsed.status == 3, "\(parsed.standardError)")
        #expect(parsed.standardError == "http://***@\(host)/missing.xml: error: HTTP 404 Not Found\n", "the URL once, without its password")
    }

    @Test func aRequestTheRecordingDoesNotHoldIs404() async throws {
        let server = try LoopbackServer()
        server.replay(
            Recording(
                source: "s",
                exchanges: [
                    .init(
                        method: "GET", url: "https://example.com/api?page=1", status: 200,
                        headers: [HTTPHeader("Content-Type", "application/json")], body: Array("[]".utf8))
                ]))
        let adapter = try DeclarativeTestSupport.adapter(
            """
            sources:
              - name: s
                adapter: json
                url: \(server.baseURL)/api?page={page}
                items: $[*]
                fields: {id: id}
                pagination: {page: true}
                pages: 2
            """)
        let result = try await adapter.fetch(in: DeclarativeTestSupport.context())
        #expect(result.items.isEmpty)
        #expect(server.allRequests.map { $0.query ?? "" } == ["page=1"])
        let missing = await DeclarativeTestSupport.failure(
            try DeclarativeTestSupport.adapter(
                """
                sources:
                  - name: s
                    adapter: json
                    url: \(server.baseURL)/api?page=7
                    items: $[*]
                    fields: {id: id}
                """))
        #expect(missing == "\(server.url("/api?page=7")): HTTP 404 Not Found")
    }

    @Test func unknownSourcesAreUsageErrors() async throws {
        let folder = try TemporaryDirectory()
        _ = try folder.write(JSONAdapterTests.qdailyYAML(base: "http://127.0.0.1:9", pages: 1), to: "feeds.yaml")
        let run = try await TributaryBinary.run(["record", "qdialy"], in: folder.url.path)
        #expect(run.status == 1)
        #expect(run.standardError.contains("no source named 'qdialy' in feeds.yaml; did you mean 'qdaily'?"))
    }
}
