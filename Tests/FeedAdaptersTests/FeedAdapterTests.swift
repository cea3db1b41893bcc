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

    private func context(maxSize: Int = Defaults().maxResponseBytes, fetcher: any Fetcher = CurlFetcher()) -> FetchContext {
        FetchContext(sourceName: "news", configDirectory: URL(fileURLWithPath: "/"), fetcher: fetcher, maxResponseBytes: maxSize)
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

    /// The source's max_size bounds the document, above the parser's default of 20 MB too (the parser refused any
    /// document over 20 MB whatever max_size said); a body over it fails the source naming max_size.
    @Test func maxSizeBoundsTheDocument() async throws {
        let server = try LoopbackServer()
        server.route("/big.xml", .ok(body: PaddedFeed.rss(size: 25 << 20), contentType: "application/rss+xml"))
        let url = server.url("/big.xml")
        let read = try await adapter(url).fetch(in: context(maxSize: 30 << 20))
        #expect(read.items.compactMap(\.title) == ["t1", "t2", "t3"])
        do {
            _ = try await adapter(url).fetch(in: context())
            Issue.record("25 MB is over the default max_size")
        } catch {
            #expect(String(describing: error).hasSuffix(": response larger than the limit of 20 MB (max_size)"), "\(error)")
        }
    }

    /// A fetcher that enforces no limit of its own: the parser's limit is max_size, and its refusal names it.
    @Test func theParsersLimitIsMaxSize() async throws {
        let fetcher = InMemoryFetcher()
        let body = String(decoding: PaddedFeed.rss(size: 21 << 20), as: UTF8.self)
        fetcher.serve("https://feeds.example.org/big.xml", body: body)
        let read = try await adapter("https://feeds.example.org/big.xml").fetch(in: context(maxSize: 22 << 20, fetcher: fetcher))
        #expect(read.items.count == 3)
        do {
            _ = try await adapter("https://feeds.example.org/big.xml").fetch(in: context(maxSize: 20 << 20, fetcher: fetcher))
            Issue.record("21 MB is over a max_size of 20 MB")
        } catch {
            #expect(
                String(describing: error)
                    == "https://feeds.example.org/big.xml: refused: the document is \(21 << 20) bytes, more than the limit of \(20 << 20) bytes (max_size)"
            )
        }
    }

    @Test func declaresItsNames() {
        #expect(FeedAdapter.kind == "rss")
        #expect(FeedAdapter.aliases == ["feed", "atom"])
        #expect(FeedAdapter.options.map(\.name) == ["url", "sanitize"])
    }
}
