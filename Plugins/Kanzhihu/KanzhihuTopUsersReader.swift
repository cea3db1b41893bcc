import Foundation
import TributaryCore
import TributaryJSON
import TributaryModel

/// `feed: top_users` — the users ranked by a metric, one item per user (a "who rose" feed: a
/// user's id never changes, so a newcomer to the ranking is a new item).
struct KanzhihuTopUsersReader: Sendable {
    /// Users per page: the API's maximum.
    static let pageSize = 50
    /// The API ranks the top 500 users only.
    static let lastPage = 10

    let api: KanzhihuAPI
    /// What the users are ranked by; also the name of the value's key in each user.
    let metric: String
    /// How many pages to read.
    let pages: Int

    func read(in context: FetchContext) async throws -> SourceResult {
        let result = try await Pagination.collect(first: 1, pages: pages, maxItems: context.maxItems) { page in
            try await self.page(page, in: context)
        }
        let feed = FeedInfo(title: "看知乎 · 用户排行 (\(metric))", homePageURL: "https://www.kanzhihu.com/", language: "zh-CN")
        return SourceResult(items: result.items, feed: feed, problems: result.problems)
    }

    private func page(_ page: Int, in context: FetchContext) async throws -> Pagination.Page<Int> {
        let response = try await api.get(try api.topUsers(metric: metric, page: page, size: Self.pageSize), in: context)
        if response.refusal != nil {
            // Past the top 500 the API answers with an error: the ranking ends there.
            guard page > 1 else { throw response.refusalError }
            return Pagination.Page(items: [], next: nil)
        }
        let users = try response.list("topuser")
        var items: [Item] = []
        var problems: [Problem] = []
        for (index, value) in users.enumerated() {
            do {
                let rank = (page - 1) * Self.pageSize + index + 1
                items.append(try item(value, rank: rank, source: context.sourceName))
            } catch {
                problems.append(Problem(.error, "\(response.location): user \(index + 1) skipped: \(error)"))
            }
        }
        let full = users.count >= Self.pageSize && page < Self.lastPage
        return Pagination.Page(items: items, next: full ? page + 1 : nil, problems: problems)
    }

    /// One ranked user: the profile page, the metric's value as a metric, the rank as an extra.
    private func item(_ value: JSONValue, rank: Int, source: String) throws -> Item {
        guard value.object != nil else { throw AdapterError("expected an object, found \(value.shape)") }
        guard let hash = value["hash"]?.nonEmptyText else { throw AdapterError("no 'hash'") }
        let profile = KanzhihuPeople.profileURL(hash: hash)
        let name = value["name"]?.nonEmptyText
        let avatar = value["avatar"]?.nonEmptyText
        var item = Item(
            id: hash, source: source, url: profile, title: name ?? hash, summary: value["signature"]?.nonEmptyText,
            image: avatar, authors: [Author(name: name, url: profile, avatar: avatar)], extras: ["rank": .int(rank)])
        // The value's key is the metric's name ("注意，这里的字段名不是value"): a whole number is a
        // metric; a ratio (0.03) or a percentage text is kept as an extra.
        if let number = value[metric]?.int {
            item.metrics[metric] = number
        } else if let number = value[metric]?.double {
            item.extras[metric] = .double(number)
        } else if let text = value[metric]?.nonEmptyText {
            item.extras[metric] = .string(text)
        }
        return item
    }
}
