public import Foundation
public import TributaryCore
import TributaryJSON
import TributaryModel

/// `adapter: example` — the starting point for a new compiled adapter (see docs/ADAPTERS.md).
///
/// It reads a made-up JSON API, `GET {base_url}/api/posts?cursor=…`, which answers
/// `{"posts": [{"id", "title", "url", "summary", "published_at", "comments"}], "next": "…" | null}`.
/// Copy the folder, rename the types and `kind`, and change `ExamplePostReader` to read your
/// site's answers.
public struct TemplateAdapter: SourceAdapter {
    public static let kind = "example"
    public static let summary = "A made-up JSON API: the template for new adapters (docs/ADAPTERS.md)"
    /// The most pages one fetch may follow.
    public static let maxPages = 10

    public static let options = [
        AdapterOption("base_url", .url, required: true, help: "the API root, e.g. https://api.example.com"),
        AdapterOption("pages", .integer(1...maxPages), default: .integer(1), help: "how many pages to read"),
        AdapterOption("topic", .string, help: "only posts of this topic (sent as ?topic=…)"),
    ]

    /// The API root.
    public let baseURL: URL
    /// How many pages to read at most.
    public let pages: Int
    /// The topic filter, if any.
    public let topic: String?

    public init(options: AdapterOptions) throws(ConfigError) {
        guard let baseURL = options.url("base_url") else { throw options.error("base_url", "missing 'base_url'") }
        self.baseURL = baseURL
        pages = options.integer("pages") ?? 1
        topic = options.string("topic")
        if let topic, topic.trimmingCharacters(in: .whitespaces).isEmpty {
            throw options.error("topic", "'topic' must not be empty; leave it out to read every topic")
        }
    }

    public func fetch(in context: FetchContext) async throws -> SourceResult {
        let reader = ExamplePostReader(source: context.sourceName)
        let result = try await Pagination.collect(first: "", pages: pages, maxItems: context.maxItems) { cursor in
            let url = try pageURL(cursor: cursor)
            return try reader.page(from: try await context.getJSON(url), url: url)
        }
        context.logger.debug("read \(result.pagesRead) page(s), stopped: \(result.stop)", source: context.sourceName)
        return SourceResult(items: result.items, feed: FeedInfo(title: "Example posts"), problems: result.problems)
    }

    /// The URL of the page after `cursor` (the first page for an empty cursor).
    public func pageURL(cursor: String) throws(AdapterError) -> URL {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        var query: [(name: String, value: String)] = []
        if let topic { query.append(("topic", topic)) }
        if !cursor.isEmpty { query.append(("cursor", cursor)) }
        guard let url = URLQuery.url(base + "/api/posts", adding: query) else {
            throw AdapterError("cannot build a page URL from base_url '\(base)'")
        }
        return url
    }
}
