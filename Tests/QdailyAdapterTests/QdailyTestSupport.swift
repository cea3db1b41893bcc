import Foundation
import QdailyAdapter
import TestSupport
import Testing
import TributaryCore
import TributaryHTTP

/// Shared helpers: fixtures, a loopback "API", the adapter and a context over real libcurl.
enum QdailyTestSupport {
    /// A fixture's text, from the test bundle.
    static func fixture(_ name: String) throws -> String {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil))
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// A route answering with a fixture, as the API did (it did not always say JSON).
    static func route(_ name: String) throws -> LoopbackRoute {
        .text(try fixture(name), contentType: "text/html; charset=utf-8")
    }

    /// A route answering with JSON text.
    static func json(_ text: String) -> LoopbackRoute {
        .text(text, contentType: "application/json")
    }

    /// Options as the configuration loader would make them, with `base_url` at the server.
    static func options(
        _ values: [String: OptionValue] = [:], server: LoopbackServer? = nil, positions: [String: (line: Int, column: Int)] = [:]
    ) throws -> AdapterOptions {
        var all: [String: OptionValue] = [:]
        for option in QdailyAdapter.options {
            if let value = option.defaultValue { all[option.name] = value }
        }
        if let server { all["base_url"] = .url(try #require(URL(string: server.baseURL))) }
        all.merge(values) { _, new in new }
        return AdapterOptions(
            file: "feeds.yaml", sourceName: "qdaily", sourcePosition: (20, 5), values: all, positions: positions)
    }

    /// The adapter reading from the loopback server.
    static func adapter(_ server: LoopbackServer, _ values: [String: OptionValue] = [:]) throws -> QdailyAdapter {
        try QdailyAdapter(options: options(values, server: server))
    }

    /// A context over real libcurl with no retries, so failures show at once.
    static func context(maxItems: Int? = nil) -> FetchContext {
        var settings = HTTPSettings()
        settings.retries = 0
        settings.userAgent = "TributaryTests/1"
        return FetchContext(
            sourceName: "qdaily", configDirectory: URL(fileURLWithPath: "/"), fetcher: CurlFetcher(settings: settings),
            maxItems: maxItems)
    }

    /// The paths the server was asked for, in order.
    static func paths(_ server: LoopbackServer) -> [String] {
        server.allRequests.map(\.path)
    }

    /// The error a fetch threw, as the user reads it; nil when it succeeded.
    static func failure(_ adapter: QdailyAdapter, maxItems: Int? = nil) async -> String? {
        do {
            _ = try await adapter.fetch(in: context(maxItems: maxItems))
            return nil
        } catch {
            return String(describing: error)
        }
    }
}
