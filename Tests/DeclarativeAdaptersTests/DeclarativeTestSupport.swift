import DeclarativeAdapters
import Foundation
import TestSupport
import Testing
import TributaryCore
import TributaryHTTP

/// Shared helpers: fixtures, configurations read from YAML text, and a context over real libcurl.
enum DeclarativeTestSupport {
    /// A fixture's text, from the test bundle.
    static func fixture(_ name: String) throws -> String {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil))
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// A route answering with a fixture.
    static func route(_ name: String, contentType: String = "application/json") throws -> LoopbackRoute {
        .text(try fixture(name), contentType: contentType)
    }

    /// The registry of the adapters under test.
    static let registry = AdapterRegistry([JSONAdapter.self, HTMLAdapter.self])

    /// Loads a configuration from YAML text (file name `feeds.yaml`), anchored at `directory`.
    static func load(_ yaml: String, directory: URL = URL(fileURLWithPath: "/")) throws(ConfigErrors) -> Configuration {
        try ConfigLoader(registry: registry, environment: ["HOME": "/nonexistent"]).load(
            text: yaml, file: "feeds.yaml", directory: directory)
    }

    /// The adapter of the first source of a configuration.
    static func adapter(_ yaml: String, directory: URL = URL(fileURLWithPath: "/")) throws -> any SourceAdapter {
        let configuration = try load(yaml, directory: directory)
        return try #require(configuration.sources.first).adapter
    }

    /// The errors a configuration has, rendered; empty when it loads.
    static func errors(_ yaml: String) -> [String] {
        do {
            _ = try load(yaml)
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    /// A context over real libcurl with no retries.
    static func context(
        name: String = "test", directory: URL = URL(fileURLWithPath: "/"), timeout: Duration = .seconds(30), maxItems: Int? = nil,
        timeZone: TimeZone = .gmt, logger: Logger = .silent, now: Date = Date(timeIntervalSince1970: 1_709_700_000)
    ) -> FetchContext {
        var settings = HTTPSettings()
        settings.retries = 0
        settings.userAgent = "TributaryTests/1"
        return FetchContext(
            sourceName: name, configDirectory: directory, fetcher: CurlFetcher(settings: settings), timeout: timeout, maxItems: maxItems,
            timeZone: timeZone, now: now, logger: logger)
    }

    /// The error a fetch threw, as the user reads it; nil when it succeeded.
    static func failure(_ adapter: any SourceAdapter, context: FetchContext = context()) async -> String? {
        do {
            _ = try await adapter.fetch(in: context)
            return nil
        } catch {
            return String(describing: error)
        }
    }
}
