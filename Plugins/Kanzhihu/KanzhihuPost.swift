import Foundation
import TributaryCore
import TributaryJSON

/// One daily post of `getposts`: a collection of answers, not an article. Three a day:
/// `yesterday` (昨日最新), `recent` (近日热门) and `archive` (历史精华).
struct KanzhihuPost: Sendable, Hashable {
    /// The post names the API knows, in the order the `posts` option lists them by default.
    static let names = ["yesterday", "recent", "archive"]
    /// What the app calls each post; items carry it as a tag.
    static let labels = ["yesterday": "昨日最新", "recent": "近日热门", "archive": "历史精华"]

    /// The day it was published (its `date`).
    let day: KanzhihuDay
    /// `yesterday`, `recent` or `archive`.
    let name: String
    /// Unix seconds as the API wrote them (a string or a number): the cursor of the next page.
    let publishTime: String?

    /// The tag for the post's answers: 昨日最新, 近日热门, 历史精华, or the name itself.
    var label: String { Self.labels[name] ?? name }

    /// `2016-02-22 yesterday`, for messages.
    var description: String { "\(day.text) \(name)" }

    /// Reads one element of `posts`; numbers may arrive as strings or as numbers.
    init(_ value: JSONValue) throws {
        guard value.object != nil else { throw AdapterError("expected an object, found \(value.shape)") }
        guard let date = value["date"]?.text, !date.isEmpty else { throw AdapterError("no 'date'") }
        guard let day = KanzhihuDay(date) else { throw AdapterError("'date' is not a yyyy-mm-dd date: '\(date)'") }
        guard let name = value["name"]?.text?.trimmingCharacters(in: .whitespaces), !name.isEmpty else {
            throw AdapterError("no 'name'")
        }
        self.day = day
        self.name = name
        publishTime = value["publishtime"]?.int.map(String.init)
    }
}
