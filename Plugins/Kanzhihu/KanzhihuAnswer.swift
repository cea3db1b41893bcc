import Foundation
import TributaryCore
import TributaryJSON
import TributaryModel
import TributarySyndication

/// Turns one element of `getpostanswers`' `answers` into an item.
enum KanzhihuAnswer {
    /// What the app shows for an answer whose summary is empty: an image-only answer.
    static let imageOnlySummary = "[图片]"

    /// The item for `value`, tagged with the post's label, and a warning when its time is
    /// unreadable; throws (naming the field) when it cannot be an item.
    static func item(_ value: JSONValue, tag: String, source: String, dates: DateParser) throws -> (Item, Problem?) {
        guard value.object != nil else { throw AdapterError("expected an object, found \(value.shape)") }
        let question = try identifier("questionid", in: value)
        let answer = try identifier("answerid", in: value)
        var item = Item(
            id: "\(question)/\(answer)", source: source, url: "https://www.zhihu.com/question/\(question)/answer/\(answer)",
            title: value["title"]?.nonEmptyText, tags: [tag])
        let summary = value["summary"]?.nonEmptyText
        item.summary = summary ?? imageOnlySummary
        let author = KanzhihuPeople.author(name: value["authorname"], hash: value["authorhash"], avatar: value["avatar"])
        if let author { item.authors = [author] }
        if let votes = value["vote"]?.int { item.metrics["votes"] = votes }
        var problem: Problem?
        if let time = value["time"]?.nonEmptyText {
            if let date = dates.parse(time) {
                item.published = date
            } else {
                problem = Problem(.warning, "answer \(item.id): unreadable 'time' '\(time)'; kept without a date")
            }
        }
        return (item, problem)
    }

    /// An id field: a string or a number, never empty.
    private static func identifier(_ key: String, in value: JSONValue) throws -> String {
        guard let text = value[key]?.nonEmptyText else { throw AdapterError("no '\(key)'") }
        return text
    }
}
