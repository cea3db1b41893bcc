import Foundation
import TributaryCore
import TributaryJSON

/// The Kanzhihu API's URLs (`{root}/{name}/{parameter}/…`, §3.1 of the API notes) and its
/// requests, made through the source's `FetchContext`.
struct KanzhihuAPI: Sendable {
    /// The real API host; the official doc names only plain `http`.
    static let defaultRoot = "http://api.kanzhihu.com"

    /// The root as text, without a trailing slash.
    let root: String

    init(baseURL: URL) {
        var root = baseURL.absoluteString
        while root.hasSuffix("/") { root.removeLast() }
        self.root = root
    }

    /// `{root}/getposts`, or `{root}/getposts/{publishtime}` for the 10 posts before it. The
    /// first page has no trailing slash (SYKanZhiHu's `getposts/` is not copied).
    func posts(before publishTime: String?) throws -> URL {
        try url(["getposts"] + (publishTime.map { [$0] } ?? []))
    }

    /// `{root}/getpostanswers/{yyyymmdd}/{name}`: the answers of one daily post.
    func answers(of post: KanzhihuPost) throws -> URL {
        try url(["getpostanswers", post.day.compact, post.name])
    }

    /// `{root}/userdetail2/{hash}`: a user's profile, statistics and top answers.
    func user(hash: String) throws -> URL {
        try url(["userdetail2", hash])
    }

    /// `{root}/topuser/{metric}/{page}/{size}`: one page of the user ranking.
    func topUsers(metric: String, page: Int, size: Int) throws -> URL {
        try url(["topuser", metric, String(page), String(size)])
    }

    /// Fetches `url` and reads the flat envelope.
    func get(_ url: URL, in context: FetchContext) async throws -> KanzhihuResponse {
        KanzhihuResponse(url: url, body: try await context.getJSON(url))
    }

    private func url(_ segments: [String]) throws -> URL {
        let path = segments.map(URLQuery.encode).joined(separator: "/")
        guard let url = URL(string: root + "/" + path) else {
            throw AdapterError("cannot build a URL from '\(root)' and '\(path)'")
        }
        return url
    }
}
