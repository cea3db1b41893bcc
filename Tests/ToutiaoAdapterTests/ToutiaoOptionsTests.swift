import Foundation
import TestSupport
import Testing
import ToutiaoAdapter
import TributaryCore
import TributaryModel

/// The options: defaults, validation with located errors, and `${VAR}` through the real loader.
@Suite("Toutiao options")
struct ToutiaoOptionsTests {
    @Test func defaults() throws {
        let adapter = try Toutiao.adapter([:])
        #expect(adapter.endpoint == "https://is.snssdk.com/api/news/feed/v75/")
        #expect(adapter.category == "__all__")
        #expect(adapter.pages == 1)
        #expect(adapter.iid == "5034850950")
        #expect(adapter.deviceID == "6096495334")
        #expect(!adapter.includeAds && !adapter.includeCards)
    }

    @Test func declaresItsOptions() {
        #expect(ToutiaoAdapter.kind == "toutiao")
        #expect(
            ToutiaoAdapter.options.map(\.name) == [
                "category", "base_url", "api_version", "pages", "iid", "device_id", "include_ads", "include_cards",
            ])
        #expect(ToutiaoAdapter.options.allSatisfy { !$0.isRequired && $0.defaultValue != nil })
        #expect(ToutiaoAdapter.options.first { $0.name == "pages" }?.kind == .integer(1...10))
        #expect(ToutiaoAdapter.options.first { $0.name == "base_url" }?.defaultValue?.description == "https://is.snssdk.com")
    }

    @Test(
        arguments: [
            ("http://127.0.0.1:9/mirror/", "v39", "http://127.0.0.1:9/mirror/api/news/feed/v39/"),
            ("file:///srv/toutiao", "v75", "file:///srv/toutiao/api/news/feed/v75/"),
        ])
    func endpoints(_ base: String, _ version: String, _ endpoint: String) throws {
        let url = try #require(URL(string: base))
        #expect(try Toutiao.adapter(["base_url": .url(url), "api_version": .string(version)]).endpoint == endpoint)
    }

    @Test(
        arguments: [
            ("api_version", OptionValue.string("75"), "'api_version' must be 'v' and digits, such as v75 or v39, found '75'"),
            ("api_version", .string("v7.5"), "'api_version' must be 'v' and digits, such as v75 or v39, found 'v7.5'"),
            ("iid", .string("abc"), "'iid' must be digits (an id of an installed Toutiao app), found 'abc'"),
            ("iid", .string(""), "'iid' must be digits (an id of an installed Toutiao app), found ''"),
            ("device_id", .string("12 34"), "'device_id' must be digits (an id of an installed Toutiao app), found '12 34'"),
            ("category", .string("news hot"), "'category' must be one word such as news_hot, found 'news hot'"),
        ])
    func rejectsBadValuesAtTheirPosition(_ name: String, _ value: OptionValue, _ message: String) {
        let options = AdapterOptions(
            file: "feeds.yaml", sourceName: "tt", sourcePosition: (3, 5), values: [name: value], positions: [name: (7, 9)])
        #expect(throws: ConfigError(file: "feeds.yaml", line: 7, column: 9, message: "source 'tt': \(message)")) {
            _ = try ToutiaoAdapter(options: options)
        }
    }

    /// `iid: ${TOUTIAO_IID}` is read from the environment by the configuration loader and sent.
    @Test func identityFromTheEnvironment() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/t" + Toutiao.endpoint, .text(Toutiao.wire([], hasMore: false)))
        let yaml = """
            sources:
              - name: tt
                adapter: toutiao
                base_url: \(server.url("/t"))
                category: ""
                iid: ${TOUTIAO_IID}
                device_id: ${TOUTIAO_DEVICE_ID:-42}
            """
        let loader = ConfigLoader(registry: AdapterRegistry([ToutiaoAdapter.self]), environment: ["TOUTIAO_IID": "14462706438"])
        let configuration = try loader.load(text: yaml, file: "feeds.yaml", directory: URL(fileURLWithPath: "/"))
        let adapter = try #require(configuration.sources.first?.adapter as? ToutiaoAdapter)
        #expect(adapter.iid == "14462706438" && adapter.deviceID == "42" && adapter.category == "")
        let result = try await adapter.fetch(in: Toutiao.context())
        #expect(result.feed?.title == "今日头条 · 推荐")
        #expect(
            server.requests("/t" + Toutiao.endpoint).map(\.query) == [
                "category=&count=20&list_count=0&min_behot_time=1503500000&tt_from=pull&strict=0&detail=1&refresh_reason=1&device_id=42&iid=14462706438"
            ])

        #expect(throws: ConfigErrors.self) {
            _ = try ConfigLoader(registry: AdapterRegistry([ToutiaoAdapter.self]), environment: [:])
                .load(text: yaml, file: "feeds.yaml", directory: URL(fileURLWithPath: "/"))
        }
    }
}
