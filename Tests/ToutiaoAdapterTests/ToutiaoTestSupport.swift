import Foundation
import TestSupport
import Testing
import ToutiaoAdapter
import TributaryCore
import TributaryHTTP
import TributaryJSON
import TributaryModel

/// Fixtures, envelopes and adapters for the Toutiao tests.
enum Toutiao {
    /// The moment every test runs at: 2017-08-23 14:53:20 UTC, after the fixtures' items.
    static let now = Date(timeIntervalSince1970: 1_503_500_000)

    /// The text of a bundled fixture, e.g. `upstream/home_02_no_image.json`.
    static func fixture(_ name: String) throws -> String {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil), "fixture \(name)")
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// The names of every file in `Fixtures/upstream`, sorted.
    static func upstreamNames() throws -> [String] {
        let folder = try #require(Bundle.module.url(forResource: "Fixtures/upstream", withExtension: nil))
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    /// A feed response in the wire form: each item text becomes `data[i].content` as a JSON string.
    static func wire(_ contents: [String], hasMore: Bool = false) -> String {
        let data = contents.map { #"{"content":\#(JSONValue.string($0)),"code":""}"# }
        return #"{"message":"success","data":[\#(data.joined(separator: ","))],"has_more":\#(hasMore)}"#
    }

    /// A feed response as the recorded payloads show it: each `content` already an object.
    static func decoded(_ contents: [String], hasMore: Bool = false) -> String {
        let data = contents.map { #"{"content":\#($0),"code":""}"# }
        return #"{"message":"success","data":[\#(data.joined(separator: ","))],"has_more":\#(hasMore)}"#
    }

    /// An adapter built the way the configuration loader builds it.
    static func adapter(_ values: [String: OptionValue]) throws(ConfigError) -> ToutiaoAdapter {
        try ToutiaoAdapter(options: AdapterOptions(file: "feeds.yaml", sourceName: "toutiao", values: values))
    }

    /// An adapter reading `server` at `prefix`, with more options.
    static func adapter(_ server: LoopbackServer, _ prefix: String, _ values: [String: OptionValue] = [:]) throws -> ToutiaoAdapter {
        let base = try #require(URL(string: server.url(prefix)))
        return try adapter(values.merging(["base_url": .url(base)]) { mine, _ in mine })
    }

    /// A context fetching through the real libcurl fetcher, without retries (so that error
    /// statuses fail at once).
    static func context(maxItems: Int? = nil) -> FetchContext {
        var settings = HTTPSettings()
        settings.retries = 0
        return FetchContext(
            sourceName: "toutiao", configDirectory: URL(fileURLWithPath: "/"), fetcher: CurlFetcher(settings: settings),
            maxItems: maxItems, now: now)
    }

    /// The query of a first request with the default options.
    static let firstQuery =
        "category=__all__&count=20&list_count=0&min_behot_time=1503500000&tt_from=pull&strict=0&detail=1&refresh_reason=1"
        + "&device_id=6096495334&iid=5034850950"

    /// The path every request of the adapter goes to, below its base URL.
    static let endpoint = "/api/news/feed/v75/"
}
