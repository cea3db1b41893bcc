import Foundation
import TributaryCore
import TributaryJSON
import TributaryModel

/// Reads one page of any Qdaily list: the `{meta, response}` envelope, the `has_more` /
/// `last_key` cursor and every entry of `response.feeds` (and `response.banners` when asked).
///
/// An envelope that is not usable (not an object, a `meta.status` other than 200 or `"200"`, no `response`,
/// `feeds` not a list) throws, naming the URL and the field; one bad entry becomes a problem and
/// the others are kept.
struct QdailyPageReader: Sendable {
    /// The configured source name, stamped on every item.
    var source: String
    /// Whether `response.banners` entries become items too.
    var includeBanners: Bool

    /// The page's items and the key of the next page (nil when the API says there is none).
    func page(from json: JSONValue, url: URL) throws(AdapterError) -> Pagination.Page<String> {
        let place = url.isFileURL ? url.path : url.absoluteString
        guard json.object != nil else {
            throw AdapterError("\(place): expected an object with 'meta' and 'response', found \(json.shape)")
        }
        // 200 as a number or a numeric string is success; anything else present fails: an error
        // answer is no empty page.
        if let meta = json["meta"], let status = meta["status"], !status.isNull, status.int != 200 {
            let message = meta["msg"]?.text.map { " (\($0))" } ?? ""
            if let code = status.int {
                throw AdapterError("\(place): the API answered meta.status \(code)\(message)")
            }
            throw AdapterError("\(place): meta.status is \(status.shape), expected 200\(message)")
        }
        guard let response = json["response"], !response.isNull else {
            throw AdapterError("\(place): the answer has no 'response'")
        }
        guard response.object != nil else {
            throw AdapterError("\(place): 'response' is \(response.shape), expected an object")
        }

        var problems: [Problem] = []
        func report(_ problem: Problem) {
            problems.append(Problem(problem.severity, "\(place): \(problem.message)"))
        }

        let entries = try list(response, "feeds", place: place)
        var items: [Item] = []
        let postReader = QdailyPostReader(source: source)
        for (index, entry) in entries.enumerated() {
            let outcome = postReader.item(from: entry, path: "response.feeds[\(index)]")
            outcome.problems.forEach(report)
            if let item = outcome.item { items.append(item) }
        }
        if includeBanners, let banners = response["banners"], !banners.isNull {
            if let banners = banners.array {
                for (index, entry) in banners.enumerated() {
                    let outcome = postReader.item(from: entry, path: "response.banners[\(index)]")
                    outcome.problems.forEach(report)
                    if var item = outcome.item, !items.contains(where: { $0.id == item.id }) {
                        item.extras["banner"] = .bool(true)
                        items.append(item)
                    }
                }
            } else {
                report(Problem(.warning, "response.banners is \(banners.shape), expected a list; banners skipped"))
            }
        }

        let next: String?
        let hasMore = response["has_more"]
        switch hasMore?.bool {
        case false?:
            next = nil
        case true?:
            next = response["last_key"]?.nonEmptyText
            if next == nil {
                let found = response["last_key"].map(\.shape) ?? "missing"
                report(Problem(.warning, "response.has_more is true but response.last_key is \(found); stopping here"))
            }
        case nil:
            let found = hasMore.map(\.shape) ?? "missing"
            report(Problem(.warning, "response.has_more is \(found), expected a boolean; not following last_key"))
            next = nil
        }
        return Pagination.Page(items: items, next: next, problems: problems)
    }

    /// `response[name]` as a list: null is an empty list; missing or any other type is an error.
    private func list(_ response: JSONValue, _ name: String, place: String) throws(AdapterError) -> [JSONValue] {
        guard let value = response[name] else {
            throw AdapterError("\(place): the answer has no 'response.\(name)'")
        }
        if value.isNull { return [] }
        guard let elements = value.array else {
            throw AdapterError("\(place): 'response.\(name)' is \(value.shape), expected a list")
        }
        return elements
    }
}
