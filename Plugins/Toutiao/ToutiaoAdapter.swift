import Foundation
public import TributaryCore
import TributaryJSON
import TributaryModel

/// `adapter: toutiao` — one channel of the Toutiao (今日头条) app's news feed API,
/// `api/news/feed/<version>/`, paged by `behot_time` (source-apis.md §2).
public struct ToutiaoAdapter: SourceAdapter {
    /// The word used as `adapter:` in YAML.
    public static let kind = "toutiao"
    /// One line for `tributary adapters`.
    public static let summary = "A Toutiao (今日头条) channel through the app's feed API, paged by behot_time"
    /// The host of the 2018 app (§2.1).
    public static let defaultBaseURL = "https://is.snssdk.com"
    /// The install id and device id the TodayNews app sent (§2.1); substitute your own.
    public static let defaultIID = "5034850950"
    /// See `defaultIID`.
    public static let defaultDeviceID = "6096495334"
    /// How many items one request asks for, as the app did.
    static let batchSize = 20

    /// The options a source may set; all have defaults.
    public static let options = [
        AdapterOption(
            "category", .string, default: .string("__all__"),
            help: "the channel: news_hot, news_tech, news_society, video, …; __all__ or \"\" is the recommended tab (推荐)"),
        AdapterOption(
            "base_url", .url, default: URL(string: defaultBaseURL).map(OptionValue.url),
            help: "the API host, or a folder of saved responses laid out as its paths"),
        AdapterOption(
            "api_version", .string, default: .string("v75"), help: "the feed endpoint's version, api/news/feed/<version>/ (v39 … v75)"),
        AdapterOption("pages", .integer(1...10), default: .integer(1), help: "how many batches to read, each older than the last"),
        AdapterOption(
            "iid", .string, default: .string(defaultIID),
            help: "the install id sent with every request (digits; ${VAR} reads it from the environment)"),
        AdapterOption(
            "device_id", .string, default: .string(defaultDeviceID), help: "the device id sent with every request (digits; ${VAR} works)"),
        AdapterOption("include_ads", .boolean, default: .boolean(false), help: "keep ads (广告)"),
        AdapterOption(
            "include_cards", .boolean, default: .boolean(false), help: "keep non-article cells: live streams, user posts (微头条), jokes, Q&A"),
    ]

    /// The channel requested.
    public let category: String
    /// `…/api/news/feed/<version>/`, before the query.
    public let endpoint: String
    /// How many batches to read at most.
    public let pages: Int
    /// The install id sent.
    public let iid: String
    /// The device id sent.
    public let deviceID: String
    /// Whether ads are kept.
    public let includeAds: Bool
    /// Whether non-article cards are kept.
    public let includeCards: Bool

    /// Builds the adapter; a malformed `category`, `api_version`, `iid` or `device_id` is an
    /// error located at the option.
    public init(options: AdapterOptions) throws(ConfigError) {
        category = options.string("category") ?? "__all__"
        guard !category.contains(where: { $0.isWhitespace }) else {
            throw options.error("category", "'category' must be one word such as news_hot, found '\(category)'")
        }
        let version = options.string("api_version") ?? "v75"
        guard version.count > 1, version.first == "v", version.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw options.error("api_version", "'api_version' must be 'v' and digits, such as v75 or v39, found '\(version)'")
        }
        let base = options.url("base_url")?.absoluteString ?? Self.defaultBaseURL
        endpoint = String(base.reversed().drop { $0 == "/" }.reversed()) + "/api/news/feed/\(version)/"
        pages = options.integer("pages") ?? 1
        iid = options.string("iid") ?? Self.defaultIID
        deviceID = options.string("device_id") ?? Self.defaultDeviceID
        for (name, value) in [("iid", iid), ("device_id", deviceID)] {
            guard !value.isEmpty, value.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw options.error(name, "'\(name)' must be digits (an id of an installed Toutiao app), found '\(value)'")
            }
        }
        includeAds = options.boolean("include_ads") ?? false
        includeCards = options.boolean("include_cards") ?? false
    }

    /// The URL of one request: the app's load parameters, then the identity parameters.
    func requestURL(_ cursor: ToutiaoCursor, listCount: Int, now: Date) throws -> URL {
        var query: [(name: String, value: String)] = [
            ("category", category), ("count", String(Self.batchSize)), ("list_count", String(listCount)),
        ]
        switch cursor {
        case .latest: query += [("min_behot_time", String(Int(now.timeIntervalSince1970))), ("tt_from", "pull")]
        case .olderThan(let behot): query += [("max_behot_time", String(behot)), ("tt_from", "load_more")]
        }
        query += [("strict", "0"), ("detail", "1"), ("refresh_reason", "1"), ("device_id", deviceID), ("iid", iid)]
        guard let url = URLQuery.url(endpoint, adding: query) else { throw AdapterError("cannot make a URL of '\(endpoint)'") }
        return url
    }

    /// Whether an item of this kind is kept.
    func keeps(_ kind: ToutiaoKind) -> Bool {
        if kind == .ad { return includeAds }
        if kind.isCard { return includeCards }
        return true
    }

    /// Reads up to `pages` batches, each asking for items older than the smallest `behot_time`
    /// received, and keeps articles and videos (ads and cards when asked).
    public func fetch(in context: FetchContext) async throws -> SourceResult {
        let mapper = ToutiaoItemMapper(sourceName: context.sourceName)
        var received = 0
        var oldest: Int?
        var oldestPinned: Int?
        let result = try await Pagination.collect(first: ToutiaoCursor.latest, pages: pages, maxItems: context.maxItems) { cursor in
            let url = try requestURL(cursor, listCount: received, now: context.now)
            let response = try ToutiaoFeedResponse(try await context.getJSON(url), url: url.absoluteString)
            received += response.contents.count
            var items: [Item] = []
            var problems = response.problems
            var left = 0
            for (index, content) in response.contents {
                if let behot = content.positiveInt("behot_time") {
                    // Pinned items sit at the top whatever their time; they do not say where the stream is.
                    if ToutiaoKind.isPinned(content) {
                        oldestPinned = min(oldestPinned ?? behot, behot)
                    } else {
                        oldest = min(oldest ?? behot, behot)
                    }
                }
                guard keeps(ToutiaoKind.of(content)) else {
                    left += 1
                    continue
                }
                guard let item = mapper.map(content) else {
                    problems.append(
                        Problem(.error, "\(url.absoluteString): data[\(index)] has no id, link or title; the entry was skipped"))
                    continue
                }
                items.append(item)
            }
            context.logger.debug("\(items.count) items, \(left) ads and cards left out: \(url.absoluteString)", source: context.sourceName)
            let next = response.hasMore ? (oldest ?? oldestPinned).map(ToutiaoCursor.olderThan) : nil
            return Pagination.Page(items: items, next: next, problems: problems)
        }
        let channel = category.isEmpty || category == "__all__" ? "推荐" : category
        return SourceResult(
            items: result.items, feed: FeedInfo(title: "今日头条 · \(channel)", homePageURL: "https://www.toutiao.com/"),
            problems: result.problems)
    }
}
