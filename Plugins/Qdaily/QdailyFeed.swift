import TributaryCore

/// Which Qdaily list a source reads, and where each of its pages lives under the API root.
///
/// Every list is paged by `last_key`: the first page is `0`, each later one is the previous
/// response's `last_key`, written into the path as text.
public enum QdailyFeed: Sendable, Hashable {
    /// The home feed (`/app3/homes/index/{key}.json`); `last_key` is a string there.
    case home
    /// LABS (好奇心研究所): polls and discussions (`/app3/papers/index/{key}.json`).
    case papers
    /// One category, by its id from `/homes/left_sidebar.json` (`/app3/categories/index/{id}/{key}.json`).
    case category(Int)
    /// One column, by its id (`/app3/columns/index/{id}/{key}.json`).
    case column(Int)

    /// The words the `feed` option accepts, in the order help lists them.
    public static let names = ["home", "papers", "category", "column"]

    /// The page with `key`, relative to the API root, e.g. `app3/homes/index/0.json`; the key is
    /// percent-encoded as one path segment.
    public func path(key: String) -> String {
        let key = URLQuery.encode(key)
        switch self {
        case .home: return "app3/homes/index/\(key).json"
        case .papers: return "app3/papers/index/\(key).json"
        case .category(let id): return "app3/categories/index/\(id)/\(key).json"
        case .column(let id): return "app3/columns/index/\(id)/\(key).json"
        }
    }

    /// A title for the source's feed metadata.
    public var title: String {
        switch self {
        case .home: "好奇心日报"
        case .papers: "好奇心日报 LABS"
        case .category(let id): "好奇心日报 category \(id)"
        case .column(let id): "好奇心日报 column \(id)"
        }
    }
}
