import FeedAdapters
import Foundation
import TestSupport
import Testing
import TributaryCore
import TributaryHTTP
import TributaryModel

@Suite("JSON Feed adapter")
struct JSONFeedAdapterTests {
    private func fixture(_ name: String) throws -> URL {
        try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil))
    }

    private func adapter(url: URL) throws -> JSONFeedAdapter {
        try JSONFeedAdapter(options: AdapterOptions(file: "feeds.yaml", sourceName: "notes", values: ["url": .url(url)]))
    }

    private func context(_ fetcher: any Fetcher) -> FetchContext {
        FetchContext(sourceName: "notes", configDirectory: URL(fileURLWithPath: "/"), fetcher: fetcher)
    }

    @Test func readsAFileThroughTheContext() async throws {
        let url = try fixture("english.json")
        let result = try await adapter(url: url).fetch(in: context(FileFetcher()))
        #expect(result.items.count == 5)
        #expect(result.problems.isEmpty)
        #expect(result.feed?.title == "Engineering Notes (sample)")
        let first = try #require(result.items.first)
        #expect(
            first
                == Item(
                    id: "https://notes.example.org/2026/11/atomic-writes", source: "notes",
                    url: "https://notes.example.org/2026/11/atomic-writes", title: "Atomic writes: temp file, fsync, rename",
                    summary: "Why a feed generator should never write its output in place.",
                    contentHTML:
                        "<p>A reader must never see a half-written file. Write to a temporary file in the same folder, <code>fsync</code> it, then <code>rename</code> it over the old one.</p>",
                    authors: [Author(name: "Mei Lin")], published: Date(timeIntervalSince1970: 1_795_768_200),
                    tags: ["unix", "reliability"]))
        let podcast = try #require(result.items.first { $0.title?.hasPrefix("Podcast") == true })
        #expect(
            podcast.attachments == [
                Attachment(
                    url: "https://media.example.org/podcast-42.mp3", mimeType: "audio/mpeg", sizeInBytes: 52_428_800,
                    durationInSeconds: 3600)
            ])
        #expect(
            podcast.contentHTML == "<p>Undeclared entities, GBK without a declaration, truncated documents.</p><p>An hour on leniency.</p>")
    }

    @Test func readsHTTPThroughTheContext() async throws {
        let fetcher = InMemoryFetcher()
        fetcher.serve(
            "http://127.0.0.1:8/feed.json",
            body: #"{"version":"https://jsonfeed.org/version/1","title":"T","items":[{"id":"1","title":"x"}]}"#)
        let url = try #require(URL(string: "http://127.0.0.1:8/feed.json"))
        let result = try await adapter(url: url).fetch(in: context(fetcher))
        #expect(result.items.map(\.id) == ["1"])
        #expect(result.feed?.feedURL == "http://127.0.0.1:8/feed.json")
        #expect(fetcher.requests.map(\.url) == [url])
        #expect(fetcher.requests.first?.timeout == .seconds(30), "the context fills in the source's timeout")
    }

    @Test func anHTTPErrorStatusIsAFailure() async throws {
        let fetcher = InMemoryFetcher()
        fetcher.serve("http://127.0.0.1:8/gone.json", body: "", status: 410)
        let url = try #require(URL(string: "http://127.0.0.1:8/gone.json"))
        do {
            _ = try await adapter(url: url).fetch(in: context(fetcher))
            Issue.record("a 410 must fail the source")
        } catch {
            #expect(String(describing: error) == "http://127.0.0.1:8/gone.json: HTTP 410 Gone")
        }
    }

    @Test func invalidJSONNamesTheFileAndPosition() async throws {
        let url = try fixture("broken.json")
        do {
            _ = try await adapter(url: url).fetch(in: context(FileFetcher()))
            Issue.record("broken JSON must fail the source")
        } catch {
            #expect(String(describing: error) == "\(url.path): 4:14: not valid JSON: expected ',' or '}' after an object member")
        }
    }

    @Test func declaresARequiredURL() {
        let option = JSONFeedAdapter.options.first
        #expect(option?.name == "url")
        #expect(option?.isRequired == true)
        #expect(JSONFeedAdapter.kind == "jsonfeed")
    }
}
