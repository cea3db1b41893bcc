public import Foundation
public import TributaryCore
import TributaryModel

/// `adapter: qdaily` — 好奇心日报 (Qdaily) through its app API: the home feed, LABS papers, a
/// category or a column, paged by `last_key`.
public struct QdailyAdapter: SourceAdapter {
    public static let kind = "qdaily"
    public static let summary = "好奇心日报 (Qdaily) through its app API: the home feed, LABS papers, a category or a column"

    /// The API root the app used.
    public static let defaultBaseURL = "http://app3.qdaily.com"
    /// The most pages one fetch may follow.
    public static let maxPages = 20

    public static let options = [
        AdapterOption(
            "feed", .choice(QdailyFeed.names), default: .string("home"),
            help: "home, papers (LABS polls and discussions), category (needs category_id) or column (needs column_id)"),
        AdapterOption(
            "category_id", .integer(1...999_999),
            help: "the category for feed: category; ids come from /homes/left_sidebar.json (1 = 长文章)"),
        AdapterOption("column_id", .integer(1...999_999), help: "the column for feed: column"),
        AdapterOption(
            "base_url", .url, default: URL(string: defaultBaseURL).map(OptionValue.url),
            help: "the API root, or a folder of saved responses laid out as the API's paths"),
        AdapterOption("pages", .integer(1...maxPages), default: .integer(1), help: "how many last_key pages to read"),
        AdapterOption("include_banners", .boolean, default: .boolean(false), help: "also take the home feed's carousel posts"),
    ]

    /// The list this source reads.
    public let feed: QdailyFeed
    /// The API root; page paths are appended to it.
    public let baseURL: URL
    /// How many pages to read at most.
    public let pages: Int
    /// Whether carousel (`banners`) posts become items too.
    public let includeBanners: Bool

    public init(options: AdapterOptions) throws(ConfigError) {
        let categoryID = options.integer("category_id")
        let columnID = options.integer("column_id")
        let name = options.string("feed") ?? "home"
        switch name {
        case "category":
            guard let categoryID else {
                throw options.error("feed", "feed 'category' needs 'category_id' (ids come from /homes/left_sidebar.json, e.g. 1 = 长文章)")
            }
            feed = .category(categoryID)
        case "column":
            guard let columnID else { throw options.error("feed", "feed 'column' needs 'column_id'") }
            feed = .column(columnID)
        case "papers":
            feed = .papers
        default:
            feed = .home
        }
        if categoryID != nil, name != "category" {
            throw options.error("category_id", "'category_id' only applies to feed: category (this source reads feed: \(name))")
        }
        if columnID != nil, name != "column" {
            throw options.error("column_id", "'column_id' only applies to feed: column (this source reads feed: \(name))")
        }
        guard let baseURL = options.url("base_url") ?? URL(string: Self.defaultBaseURL) else {
            throw options.error("base_url", "missing 'base_url'")
        }
        self.baseURL = baseURL
        pages = options.integer("pages") ?? 1
        includeBanners = options.boolean("include_banners") ?? false
    }

    public func fetch(in context: FetchContext) async throws -> SourceResult {
        let reader = QdailyPageReader(source: context.sourceName, includeBanners: includeBanners)
        let result = try await Pagination.collect(first: "0", pages: pages, maxItems: context.maxItems) { key in
            let url = try pageURL(key: key)
            return try reader.page(from: try await context.getJSON(url), url: url)
        }
        context.logger.debug("read \(result.pagesRead) page(s), stopped: \(result.stop)", source: context.sourceName)
        let info = FeedInfo(title: feed.title, homePageURL: "http://www.qdaily.com/", language: "zh-CN")
        return SourceResult(items: result.items, feed: info, problems: result.problems)
    }

    /// The URL of the page with `key`: `base_url` joined with the feed's path.
    public func pageURL(key: String) throws(AdapterError) -> URL {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        guard let url = URL(string: base + "/" + feed.path(key: key)) else {
            throw AdapterError("cannot build a page URL from base_url '\(base)' and last_key '\(key)'")
        }
        return url
    }
}
