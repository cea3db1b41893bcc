public import Foundation
public import TributaryCore
import TributaryModel

/// `adapter: kanzhihu` — curated Zhihu answers from the Kanzhihu (看知乎) API: the daily posts'
/// answers, one user's top answers, or a ranking of users.
public struct KanzhihuAdapter: SourceAdapter {
    public static let kind = "kanzhihu"
    /// Answer times (`2016-02-20 21:27:11`) are Beijing time; a source's `timezone` overrides it.
    public static let defaultTimeZone: String? = "Asia/Shanghai"
    public static let summary = "Kanzhihu (看知乎): the daily posts' Zhihu answers, a user's top answers, or a user ranking"
    public static let options = [
        AdapterOption(
            "feed", .choice(KanzhihuFeed.words), default: .string("posts"),
            help: "posts: the answers of the daily posts; user: one user's top answers; top_users: a ranking of users"),
        AdapterOption(
            "base_url", .url, default: URL(string: KanzhihuAPI.defaultRoot).map(OptionValue.url),
            help: "the API root; a folder of saved responses laid out as the API's paths works too"),
        AdapterOption(
            "posts", .strings, default: .strings(KanzhihuPost.names),
            help: "feed: posts — which daily posts to expand: yesterday (昨日最新), recent (近日热门), archive (历史精华)"),
        AdapterOption(
            "days", .integer(1...30), default: .integer(1),
            help: "feed: posts — how many days of posts, counted back from the newest post the API returns"),
        AdapterOption("hash", .string, help: "feed: user — the user's 32-hex-digit Kanzhihu hash (required for feed: user)"),
        AdapterOption(
            "metric", .string, default: .string("agree"),
            help: "feed: top_users — what users are ranked by: agree, follower, answer, fav, count1000, … (see README)"),
        AdapterOption(
            "pages", .integer(1...10), default: .integer(1),
            help: "feed: top_users — pages of 50 users (the API ranks the top 500)"),
    ]

    /// What the source reads.
    public let feed: KanzhihuFeed
    /// The API root (or a folder of saved responses), without a trailing slash.
    public let baseURL: URL

    public init(options: AdapterOptions) throws(ConfigError) {
        guard let baseURL = options.url("base_url") else { throw options.error("base_url", "missing 'base_url'") }
        self.baseURL = baseURL
        let word = options.string("feed") ?? "posts"
        try Self.rejectOptions(notUsedBy: word, options)
        switch word {
        case "user":
            guard let hash = options.string("hash"), options.isSet("hash") else {
                throw options.error("hash", "feed: user needs 'hash', the user's 32-hex-digit Kanzhihu hash")
            }
            guard hash.count == 32, hash.unicodeScalars.allSatisfy({ $0.properties.isASCIIHexDigit }) else {
                throw options.error("hash", "'hash' must be the user's 32 hex digits, found '\(hash)'")
            }
            feed = .user(hash: hash.lowercased())
        case "top_users":
            let metric = options.string("metric") ?? "agree"
            guard KanzhihuFeed.metrics.contains(metric) else {
                var message = "unknown 'metric' '\(metric)'"
                if let suggestion = Spelling.suggestion(for: metric, among: KanzhihuFeed.metrics) {
                    message += "; did you mean '\(suggestion)'?"
                } else {
                    message += " (one of: \(KanzhihuFeed.metrics.joined(separator: ", ")))"
                }
                throw options.error("metric", message)
            }
            feed = .topUsers(metric: metric, pages: options.integer("pages") ?? 1)
        default:
            let names = options.strings("posts") ?? KanzhihuPost.names
            guard !names.isEmpty else {
                throw options.error("posts", "'posts' must name at least one of: \(KanzhihuPost.names.joined(separator: ", "))")
            }
            for name in names where !KanzhihuPost.names.contains(name) {
                var message = "unknown post '\(name)' in 'posts'"
                if let suggestion = Spelling.suggestion(for: name, among: KanzhihuPost.names) {
                    message += "; did you mean '\(suggestion)'?"
                }
                throw options.error("posts", message + " (one of: \(KanzhihuPost.names.joined(separator: ", ")))")
            }
            var unique: [String] = []
            for name in names where !unique.contains(name) { unique.append(name) }
            feed = .posts(names: unique, days: options.integer("days") ?? 1)
        }
    }

    public func fetch(in context: FetchContext) async throws -> SourceResult {
        let api = KanzhihuAPI(baseURL: baseURL)
        switch feed {
        case .posts(let names, let days):
            return try await KanzhihuPostsReader(api: api, names: names, days: days).read(in: context)
        case .user(let hash):
            return try await KanzhihuUserReader(api: api, hash: hash).read(in: context)
        case .topUsers(let metric, let pages):
            return try await KanzhihuTopUsersReader(api: api, metric: metric, pages: pages).read(in: context)
        }
    }

    /// An option written for another `feed` is a mistake, not something to ignore silently.
    private static func rejectOptions(notUsedBy word: String, _ options: AdapterOptions) throws(ConfigError) {
        let owners: [(option: String, feed: String)] = [
            ("posts", "posts"), ("days", "posts"), ("hash", "user"), ("metric", "top_users"), ("pages", "top_users"),
        ]
        for owner in owners where owner.feed != word && options.isSet(owner.option) {
            throw options.error(owner.option, "'\(owner.option)' applies only to feed: \(owner.feed) (this source reads feed: \(word))")
        }
    }
}
