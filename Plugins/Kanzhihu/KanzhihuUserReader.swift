import Foundation
import TributaryCore
import TributaryJSON
import TributaryModel

/// `feed: user` — one user's top answers and column articles from `userdetail2/{hash}`.
struct KanzhihuUserReader: Sendable {
    let api: KanzhihuAPI
    /// The user's 32-hex-digit hash.
    let hash: String

    func read(in context: FetchContext) async throws -> SourceResult {
        let response = try await api.get(try api.user(hash: hash), in: context)
        if response.refusal != nil { throw response.refusalError }
        let answers = try response.list("topanswers")
        let body = response.body
        let name = body["name"]?.nonEmptyText
        let author = Author(name: name, url: KanzhihuPeople.profileURL(hash: hash), avatar: body["avatar"]?.nonEmptyText)
        var items: [Item] = []
        var problems: [Problem] = []
        for (index, value) in answers.enumerated() {
            do {
                items.append(try Self.item(value, author: author, source: context.sourceName))
            } catch {
                problems.append(Problem(.error, "\(response.location): top answer \(index + 1) skipped: \(error)"))
            }
        }
        if let maxItems = context.maxItems { items = Array(items.prefix(maxItems)) }
        let feed = FeedInfo(
            title: "\(name ?? hash) · 看知乎", homePageURL: author.url,
            description: body["description"]?.nonEmptyText ?? body["signature"]?.nonEmptyText, authors: [author],
            icon: author.avatar, language: "zh-CN")
        return SourceResult(items: items, feed: feed, problems: problems)
    }

    /// One element of `topanswers`: `{title, link, agree, ispost}`, the link relative to
    /// www.zhihu.com for answers (`ispost` "0") and to zhuanlan.zhihu.com for articles ("1").
    static func item(_ value: JSONValue, author: Author, source: String) throws -> Item {
        guard value.object != nil else { throw AdapterError("expected an object, found \(value.shape)") }
        guard let link = value["link"]?.nonEmptyText else { throw AdapterError("no 'link'") }
        let isArticle = value["ispost"]?.bool ?? false
        let url: String
        if link.lowercased().hasPrefix("http://") || link.lowercased().hasPrefix("https://") {
            url = link
        } else {
            url = (isArticle ? "https://zhuanlan.zhihu.com" : "https://www.zhihu.com") + (link.hasPrefix("/") ? link : "/" + link)
        }
        var item = Item(
            id: Self.identifier(link: link), source: source, url: url, title: value["title"]?.nonEmptyText, authors: [author],
            extras: ["kind": .string(isArticle ? "article" : "answer")])
        if let votes = value["agree"]?.int { item.metrics["votes"] = votes }
        return item
    }

    /// `{questionid}/{answerid}` for an answer link, as in `feed: posts`; the link's path otherwise.
    static func identifier(link: String) -> String {
        let path = link.split(separator: "?").first.map(String.init) ?? link
        let parts = path.split(separator: "/").map(String.init)
        if let question = parts.firstIndex(of: "question"), question + 3 < parts.count, parts[question + 2] == "answer" {
            return "\(parts[question + 1])/\(parts[question + 3])"
        }
        let tail = parts.suffix(2).joined(separator: "/")
        return tail.isEmpty ? link : tail
    }
}
