import Foundation
import KanzhihuAdapter
import TestSupport
import Testing
import TributaryCore
import TributaryHTTP
import TributaryModel

/// A Kanzhihu source under test: fixtures served by a loopback server at the API's paths, and the
/// adapter fetching them over real libcurl through a `FetchContext`.
final class KanzhihuHarness: Sendable {
    /// The zone the configuration loader gives a Kanzhihu source that sets none: the adapter's own.
    static let adapterZone = TimeZone(identifier: KanzhihuAdapter.defaultTimeZone ?? "UTC") ?? .gmt

    /// The fake API host.
    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer()
    }

    deinit {
        server.stop()
    }

    /// `http://127.0.0.1:PORT`.
    var base: String { server.baseURL }

    /// A fixture's text.
    static func fixture(_ name: String) throws -> String {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil))
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// Answers `path` with a fixture file, as the API does (JSON in a `text/html` response).
    func serve(_ path: String, _ fixture: String) throws {
        server.route(path, .text(try Self.fixture(fixture), contentType: "text/html; charset=UTF-8"))
    }

    /// The paths requested, in arrival order.
    var requestedPaths: [String] { server.allRequests.map(\.path) }

    /// Options as the configuration loader makes them: the `written` ones with a position (so
    /// `isSet` sees them), every other declared option with its default; `base_url` is the server.
    func options(_ written: [String: OptionValue]) throws -> AdapterOptions {
        let root = try #require(URL(string: base))
        return Self.options(written.merging(["base_url": .url(root)]) { mine, _ in mine })
    }

    /// Options as the configuration loader makes them, for a source named `zhihu` in `feeds.yaml`.
    static func options(_ written: [String: OptionValue]) -> AdapterOptions {
        var values: [String: OptionValue] = [:]
        for option in KanzhihuAdapter.options {
            if let value = option.defaultValue { values[option.name] = value }
        }
        values.merge(written) { _, new in new }
        var positions: [String: (line: Int, column: Int)] = [:]
        for (index, name) in written.keys.sorted().enumerated() { positions[name] = (index + 5, 5) }
        return AdapterOptions(file: "feeds.yaml", sourceName: "zhihu", sourcePosition: (4, 5), values: values, positions: positions)
    }

    /// Fetches the source once through CurlFetcher with `perHost` transfers per host.
    func fetch(
        _ written: [String: OptionValue] = [:], timeZone: TimeZone = KanzhihuHarness.adapterZone, maxItems: Int? = nil, perHost: Int = 2
    ) async throws -> SourceResult {
        let adapter = try KanzhihuAdapter(options: options(written))
        var settings = HTTPSettings()
        settings.maxPerHost = perHost
        settings.retries = 0
        let context = FetchContext(
            sourceName: "zhihu", configDirectory: URL(fileURLWithPath: "/"), fetcher: CurlFetcher(settings: settings),
            maxItems: maxItems, timeZone: timeZone, now: Date(timeIntervalSince1970: 1_456_200_000))
        return try await adapter.fetch(in: context)
    }

    /// The error a fetch fails with, as the user reads it; nil when it succeeds.
    func failure(_ written: [String: OptionValue] = [:]) async -> String? {
        do {
            _ = try await fetch(written)
            return nil
        } catch {
            return String(describing: error)
        }
    }
}
