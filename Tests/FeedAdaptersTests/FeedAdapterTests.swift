import FeedAdapters
import Foundation
import TestSupport
import Testing
import TributaryCore
import TributaryHTTP
import TributaryModel

@Suite("RSS/Atom adapter")
struct FeedAdapterTests {
    private func fixture(_ name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil))
        return try [UInt8](Data(contentsOf: url))
    }

    private func adapter(_ url: String, sanitize: Bool = true) throws -> FeedAdapter {
        let target = try #require(URL(string: url))
        return try FeedAdapter(
            options: AdapterOptions(file: "feeds.yaml", sourceName: "news", values: ["url": .url(target), "sanitize": .boolean(sanitize)]))
    }

    private func context() -> FetchContext {
        FetchContext(sourceName: "news", configDirectory: URL(fileURLWithPath: "/"), fetcher: CurlFetcher())
    }

    @Test func readsRSSOverHTTPAndResolvesAgainstTheFinalURL() async throws {
        let server = try LoopbackServer()
        server.route("/old", .redirect(to: "/feed.xml"))
        server.route("/feed.xml", .ok(body: try fixture("rss20-full.xml"), contentType: "application/rss+xml"))
        let result = try await adapter(server.url("/old")).fetch(in: context())
        #expect(!result.items.isEmpty)
        #expect(result.items.allSatisfy { $0.source == "news" })
        #expect(result.feed?.title == "Example Engineering")
        let accept = try #require(server.requests("/feed.xml").first?.header("Accept"))
        #expect(accept.hasPrefix("application/rss+xml, application/atom+xml"))
    }

    @Test func theHTTPCharsetDecidesForUndeclaredBytes() async throws {
        let server = try LoopbackServer()
        server.route("/gbk.xml", .ok(body: try fixture("chinese-gbk-no-declaration.xml"), contentType: "text/xml; charset=GBK"))
        let result = try await adapter(server.url("/gbk.xml")).fetch(in: context())
        let titles = result.items.compactMap(\.title)
        #expect(!titles.isEmpty)
        #expect(titles.allSatisfy { $0.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) } }, "\(titles)")
    }

    @Test func aDocumentThatIsNotAFeedFailsTheSourceNamingTheURL() async throws {
        let server = try LoopbackServer()
        server.route("/page.html", .text("<html><body>not a feed</body></html>", contentType: "text/html"))
        do {
            _ = try await adapter(server.url("/page.html")).fetch(in: context())
            Issue.record("an HTML page is not a feed")
        } catch {
            #expect(String(describing: error).hasPrefix(server.url("/page.html") + ": "))
        }
    }

    @Test func declaresItsNames() {
        #expect(FeedAdapter.kind == "rss")
        #expect(FeedAdapter.aliases == ["feed", "atom"])
        #expect(FeedAdapter.options.map(\.name) == ["url", "sanitize"])
    }
}
