import Foundation
import TributaryCore
import TributaryJSON
import TributaryModel
import TributarySyndication

/// `feed: posts` — the two-level fetch: `getposts` pages (10 posts each, newest first, paged
/// back with the last post's `publishtime`), then `getpostanswers/{yyyymmdd}/{name}` for each
/// chosen post within `days` of the newest one, those of one page concurrently.
struct KanzhihuPostsReader: Sendable {
    /// Where the next `getposts` page starts, and the newest post's day once the first page told it.
    struct Cursor: Sendable, Hashable {
        /// The `publishtime` the next page ends before; nil for the newest page.
        var before: String?
        /// The newest post's day: the `days` window counts back from it (not from today).
        var newest: KanzhihuDay?
    }

    /// What expanding one post gave.
    struct Expansion: Sendable {
        var items: [Item]
        var problems: [Problem]
    }

    let api: KanzhihuAPI
    /// The post names to expand.
    let names: [String]
    /// How many days of posts, the newest post's day included.
    let days: Int

    func read(in context: FetchContext) async throws -> SourceResult {
        let dates = DateParser(timeZone: context.timeZone, now: context.now)
        // Three posts a day, ten a page: `days + 1` pages always reach past the window. An answer
        // in several posts, on one page or on two, is one item with every post's tag.
        let result = try await Pagination.collect(
            first: Cursor(), pages: days + 1, maxItems: context.maxItems, merge: Self.mergeTags
        ) { cursor in
            try await page(cursor, dates: dates, in: context)
        }
        let feed = FeedInfo(title: "看知乎", homePageURL: "https://www.kanzhihu.com/", language: "zh-CN")
        return SourceResult(items: result.items, feed: feed, problems: result.problems)
    }

    /// Adds the tags of a later copy of an answer (from an older post) to the copy kept, the
    /// newest post's, whose other fields win.
    static func mergeTags(_ kept: inout Item, _ repeated: Item) {
        for tag in repeated.tags where !kept.tags.contains(tag) { kept.tags.append(tag) }
    }

    /// One `getposts` page and the answers of its chosen posts, newest post first; an answer in
    /// several of them is there once for each.
    private func page(_ cursor: Cursor, dates: DateParser, in context: FetchContext) async throws -> Pagination.Page<Cursor> {
        let response = try await api.get(try api.posts(before: cursor.before), in: context)
        if response.refusal != nil {
            // "no result": nothing older than the cursor. On the first page the API has nothing at all.
            guard cursor.before != nil else { throw response.refusalError }
            return Pagination.Page(items: [], next: nil)
        }
        var problems: [Problem] = []
        var posts: [KanzhihuPost] = []
        for (index, value) in try response.list("posts").enumerated() {
            do {
                posts.append(try KanzhihuPost(value))
            } catch {
                problems.append(Problem(.error, "\(response.location): post \(index + 1) skipped: \(error)"))
            }
        }
        guard let newest = cursor.newest ?? posts.map(\.day).max() else {
            return Pagination.Page(items: [], next: nil, problems: problems)
        }
        let oldestWanted = newest.ordinal - (days - 1)
        let chosen = posts.filter { $0.day.ordinal >= oldestWanted && names.contains($0.name) }
        var next: Cursor?
        if let last = posts.last(where: { $0.publishTime != nil }), last.day.ordinal >= oldestWanted {
            next = Cursor(before: last.publishTime, newest: newest)
        }

        let expansions = await withTaskGroup(of: (Int, Result<Expansion, any Error>).self) { group in
            for (index, post) in chosen.enumerated() {
                group.addTask { (index, await expand(post, dates: dates, in: context)) }
            }
            var expansions = [Result<Expansion, any Error>?](repeating: nil, count: chosen.count)
            for await (index, expansion) in group { expansions[index] = expansion }
            return expansions
        }

        var items: [Item] = []
        var failure: (any Error)?
        var anyRead = false
        for (post, expansion) in zip(chosen, expansions) {
            switch expansion {
            case .success(let expansion):
                anyRead = true
                problems += expansion.problems
                items += expansion.items
            case .failure(let error):
                failure = failure ?? error
                problems.append(Problem(.error, "post \(post.description): answers skipped: \(error)"))
            case nil:
                break
            }
        }
        if let failure, !anyRead {
            // Not one post could be read: the source failed, it did not merely lose a post.
            throw failure
        }
        return Pagination.Page(items: items, next: next, problems: problems)
    }

    /// The answers of one post, as items; a refused or unreadable response is a failure.
    private func expand(_ post: KanzhihuPost, dates: DateParser, in context: FetchContext) async -> Result<Expansion, any Error> {
        do {
            let response = try await api.get(try api.answers(of: post), in: context)
            if response.refusal != nil { throw response.refusalError }
            var expansion = Expansion(items: [], problems: [])
            for (index, value) in try response.list("answers").enumerated() {
                do {
                    let (item, problem) = try KanzhihuAnswer.item(value, tag: post.label, source: context.sourceName, dates: dates)
                    expansion.items.append(item)
                    if let problem { expansion.problems.append(problem) }
                } catch {
                    expansion.problems.append(Problem(.error, "\(response.location): answer \(index + 1) skipped: \(error)"))
                }
            }
            return .success(expansion)
        } catch {
            return .failure(error)
        }
    }
}
