public import Foundation
public import TributaryCore
import TributaryModel

/// `adapter: static` — made-up items for tests of the configuration, the pipeline and the engine.
///
/// Item `n` (from 1) has the id `<prefix>-<n>`, the title `<prefix> <n>`, a link under `url`
/// (or `https://example.org/<prefix>/`) and was published `n × interval` before the run started.
/// When `url` is set it is fetched through the context first, so fetch failures, limits and the
/// fetcher's request log apply as they do to real adapters. The `tributary` binary does not know
/// this adapter.
public struct StaticAdapter: SourceAdapter, Hashable {
    public static let kind = "static"
    public static let aliases = ["fixed"]
    public static let summary = "Made-up items, for tests"
    public static let options = [
        AdapterOption("count", .integer(0...1000), required: true, help: "how many items to produce"),
        AdapterOption("prefix", .string, help: "the start of item ids and titles; the source's name when unset"),
        AdapterOption("spacing", .duration, default: .duration(.seconds(3600)), help: "the time between items' dates"),
        AdapterOption("url", .url, help: "fetched before the items are made; their links go under it"),
        AdapterOption("fail", .string, help: "when set, fetching fails with this message"),
    ]

    /// How many items a fetch produces.
    public var count: Int
    /// The start of item ids and titles.
    public var prefix: String
    /// The time between consecutive items' publication dates.
    public var interval: Duration
    /// The URL fetched first, if any.
    public var url: URL?
    /// The message of the `AdapterError` a fetch throws, if any.
    public var failure: String?

    /// Creates the adapter directly, for tests that build a `SourceConfig` by hand.
    public init(count: Int, prefix: String, interval: Duration = .seconds(3600), url: URL? = nil, failure: String? = nil) {
        self.count = count
        self.prefix = prefix
        self.interval = interval
        self.url = url
        self.failure = failure
    }

    public init(options: AdapterOptions) throws(ConfigError) {
        guard let count = options.integer("count") else { throw options.error("count", "missing 'count'") }
        let prefix = options.string("prefix") ?? options.sourceName
        guard !prefix.isEmpty else { throw options.error("prefix", "'prefix' must not be empty") }
        self.init(
            count: count, prefix: prefix, interval: options.duration("spacing") ?? .seconds(3600), url: options.url("url"),
            failure: options.string("fail"))
    }

    public func fetch(in context: FetchContext) async throws -> SourceResult {
        if let url { _ = try await context.get(url) }
        if let failure { throw AdapterError(failure) }
        let base = url?.absoluteString ?? "https://example.org/\(prefix)"
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        let items = (0..<count).map { index in
            let number = index + 1
            return Item(
                id: "\(prefix)-\(number)", source: context.sourceName, url: "\(base)/\(number)", title: "\(prefix) \(number)",
                published: context.now.addingTimeInterval(-seconds * Double(number)))
        }
        return SourceResult(items: items, feed: FeedInfo(title: "Static \(prefix)"))
    }
}
