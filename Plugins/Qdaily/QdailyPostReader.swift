import Foundation
import TributaryJSON
import TributaryModel

/// Turns one entry of a Qdaily list (`{image, type, post}`) into an item.
///
/// The API is not consistent about types (numbers sent as strings, `null` descriptions), so every
/// field is read leniently; a field that cannot be read at all is left out with a warning, and
/// only an entry without a usable `post.id` is skipped.
struct QdailyPostReader: Sendable {
    /// What reading one entry produced: the item (nil when it was skipped) and what went wrong.
    struct Outcome: Sendable {
        /// The item, or nil when the entry was skipped.
        var item: Item?
        /// Warnings about fields left out, or the error that skipped the entry.
        var problems: [Problem]
    }

    /// The link used for an article without `appview`: the article's mobile page, the form of the
    /// share URL in `/articles/info/{id}.json`. Papers have no known web page.
    static func fallbackLink(articleID: Int) -> String {
        "http://m.qdaily.com/mobile/articles/\(articleID).html"
    }

    /// The latest `publish_time` accepted, in Unix seconds (9999-12-31T23:59:59Z).
    static let latestTime = 253_402_300_799

    /// The configured source name, stamped on every item.
    var source: String

    /// Reads the entry at `path` (e.g. `response.feeds[3]`, used in messages).
    func item(from entry: JSONValue, path: String) -> Outcome {
        guard entry.object != nil else {
            return Outcome(item: nil, problems: [Problem(.error, "\(path) is \(entry.shape), expected an object; skipped")])
        }
        guard let post = entry["post"], post.object != nil else {
            let found = entry["post"].map(\.shape) ?? "missing"
            return Outcome(item: nil, problems: [Problem(.error, "\(path).post is \(found), expected an object; skipped")])
        }
        guard let number = post["id"]?.int else {
            let found = post["id"].map(\.shape) ?? "missing"
            return Outcome(item: nil, problems: [Problem(.error, "\(path).post.id is \(found), expected a whole number; skipped")])
        }

        var warnings: [Problem] = []
        let cardType = entry["type"]?.int
        let genre = post["genre"]?.int
        // Articles and papers are numbered separately, so the datatype is part of the id.
        let datatype =
            post["datatype"]?.nonEmptyText?.lowercased()
            ?? ((genre ?? 0) >= 1000 || cardType == 0 ? "paper" : "article")

        var item = Item(id: "\(datatype):\(number)", source: source)
        item.title = post["title"]?.nonEmptyText
        item.summary = post["description"]?.nonEmptyText
        item.url = post["appview"]?.nonEmptyText ?? (datatype == "article" ? Self.fallbackLink(articleID: number) : nil)
        item.image = post["image"]?.nonEmptyText ?? entry["image"]?.nonEmptyText

        switch post["publish_time"] {
        case nil, .null?:
            break
        case let value?:
            if let seconds = value.int, (1...Self.latestTime).contains(seconds) {
                item.published = Date(timeIntervalSince1970: TimeInterval(seconds))
            } else {
                warnings.append(Problem(.warning, "\(path).post.publish_time is \(value.shape), expected Unix seconds; no date"))
            }
        }

        var tags: [String] = []
        for tag in [post["category"]?["title"]?.nonEmptyText, post["super_tag"]?.nonEmptyText] {
            if let tag, !tags.contains(tag) { tags.append(tag) }
        }
        item.tags = tags

        for (field, metric) in [("comment_count", "comments"), ("praise_count", "likes"), ("record_count", "participants")] {
            switch post[field] {
            case nil, .null?:
                continue
            case let value?:
                if let count = value.int, count >= 0 {
                    item.metrics[metric] = count
                } else {
                    warnings.append(Problem(.warning, "\(path).post.\(field) is \(value.shape), expected a count; left out"))
                }
            }
        }

        if let column = post["column"], let name = column["name"]?.nonEmptyText {
            item.authors = [Author(name: name, url: column["share"]?["url"]?.nonEmptyText, avatar: column["icon"]?.nonEmptyText)]
        }
        if let cardType { item.extras["card_type"] = .int(cardType) }
        return Outcome(item: item, problems: warnings)
    }
}
