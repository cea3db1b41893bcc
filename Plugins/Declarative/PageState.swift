import Foundation
import TributaryCore

/// Where a declarative source is in its pages: the values of `{cursor}`, `{page}` and `{offset}`.
struct PageState: Sendable, Hashable {
    /// The cursor taken from the previous page (the first page's is `pagination.start`).
    var cursor: String
    /// The page number, from `pagination.start` (1 unless said otherwise).
    var page: Int
    /// How many items earlier pages held.
    var offset: Int

    /// The request variables.
    var values: [String: String] {
        ["cursor": cursor, "page": String(page), "offset": String(offset)]
    }
}

/// How a declarative source finds its next page.
enum PageRule<Expression: Sendable & Hashable>: Sendable, Hashable {
    /// One page only.
    case single
    /// The next page's `{cursor}` is the value at this expression in the response.
    case cursor(Expression)
    /// Pages are numbered: `{page}` counts up by one, `{offset}` by the items read.
    case numbered

    /// Whether the pages fill `{cursor}`.
    var readsCursors: Bool {
        if case .cursor = self { true } else { false }
    }
}

/// One page as a declarative adapter mapped it, with what its fields found.
struct MappedPage<Cursor: Hashable & Sendable>: Sendable {
    /// The items and the next cursor.
    var page: Pagination.Page<Cursor>
    /// The fields that found a value in at least one item.
    var filled: Set<String>
    /// How many entries the page had (including skipped ones).
    var count: Int
    /// What expressions that gave no text reached instead (an object, a list), by ``ItemMapping/matchedKey(_:)``.
    var notText: [String: String] = [:]
}

/// What fetching a page reads, for telling a page already read in a fetch: the request's method,
/// URL (absolute, without the fragment, which is never sent), headers and body. A page state
/// itself never repeats, as it counts pages.
struct PageRequestKey: Hashable {
    var method: String
    var url: String
    var headers: [HTTPHeader]
    var body: [UInt8]?

    init(_ request: FetchRequest) {
        method = request.method.uppercased()
        let url = request.url.absoluteString
        self.url = url.firstIndex(of: "#").map { String(url[..<$0]) } ?? url
        headers = request.headers
        body = request.body
    }
}
