import Foundation
import TributaryCore
import TributaryJSON
import TributaryModel

/// Reads one page of the example API: the items and the next cursor.
///
/// An answer that is not usable (not an object, no `posts` list) throws, naming the URL and the
/// field; one bad post becomes a problem and the others are kept.
struct ExamplePostReader: Sendable {
    /// The configured source name, stamped on every item.
    var source: String

    func page(from json: JSONValue, url: URL) throws(AdapterError) -> Pagination.Page<String> {
        let place = url.isFileURL ? url.path : url.absoluteString
        guard json.object != nil else { throw AdapterError("\(place): expected an object with 'posts', found \(json.shape)") }
        guard let posts = json["posts"], let entries = posts.array ?? (posts.isNull ? [] : nil) else {
            throw AdapterError("\(place): 'posts' is \(json["posts"]?.shape ?? "missing"), expected a list")
        }
        var items: [Item] = []
        var problems: [Problem] = []
        for (index, entry) in entries.enumerated() {
            // A stable id: the API's own, prefixed so it cannot clash with another kind's.
            guard let id = entry["id"]?.nonEmptyText else {
                problems.append(Problem(.error, "\(place): posts[\(index)].id is \(entry["id"]?.shape ?? "missing"); skipped"))
                continue
            }
            var item = Item(id: "example:\(id)", source: source)
            item.title = entry["title"]?.nonEmptyText
            item.url = entry["url"]?.nonEmptyText.flatMap { URL(string: $0, relativeTo: url)?.absoluteString }
            item.summary = entry["summary"]?.nonEmptyText
            if let seconds = entry["published_at"]?.int, seconds > 0 {
                item.published = Date(timeIntervalSince1970: TimeInterval(seconds))
            } else if let value = entry["published_at"], !value.isNull {
                problems.append(
                    Problem(.warning, "\(place): posts[\(index)].published_at is \(value.shape), expected Unix seconds; no date"))
            }
            if let comments = entry["comments"]?.int, comments >= 0 { item.metrics["comments"] = comments }
            items.append(item)
        }
        // The next page's cursor; nil (or "") when this was the last page.
        let next = json["next"]?.nonEmptyText
        return Pagination.Page(items: items, next: next, problems: problems)
    }
}
