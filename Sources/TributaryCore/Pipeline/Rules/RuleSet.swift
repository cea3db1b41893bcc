public import Foundation
public import TributaryModel

/// The `rules:` of one scope (global or one source): block rules drop what they match; when
/// keep rules exist, only items matching one of them pass.
public struct RuleSet: Sendable {
    /// Rules that drop the items they match.
    public var block: [Rule]
    /// Rules of which an item must match one, when there are any.
    public var keep: [Rule]

    /// Creates a rule set; both lists empty lets everything pass.
    public init(block: [Rule] = [], keep: [Rule] = []) {
        self.block = block
        self.keep = keep
    }

    /// Whether the set has no rules.
    public var isEmpty: Bool { block.isEmpty && keep.isEmpty }

    /// Why an item was dropped.
    public enum Verdict: Sendable {
        /// It passes.
        case pass
        /// A block rule matched it.
        case blocked(Rule)
        /// Keep rules exist and none matched it.
        case notKept([Rule])
    }

    /// The verdict on one item; `now` anchors `older_than`/`newer_than`.
    public func verdict(on item: Item, now: Date) -> Verdict {
        guard !isEmpty else { return .pass }
        let fields = ItemFields(item)
        if let rule = block.first(where: { fields.matches($0.condition, now: now) }) { return .blocked(rule) }
        if !keep.isEmpty, !keep.contains(where: { fields.matches($0.condition, now: now) }) { return .notKept(keep) }
        return .pass
    }
}

/// An item's fields as rules read them, lower-cased once per item.
private struct ItemFields {
    let item: Item
    let title: String
    let summary: String
    let content: String
    let url: String
    let authors: [String]
    let tags: [String]
    let source: String

    init(_ item: Item) {
        self.item = item
        title = (item.title ?? "").lowercased()
        summary = (item.summary ?? "").lowercased()
        content = (item.contentHTML ?? "").lowercased()
        url = (item.url ?? "").lowercased()
        authors = item.authors.compactMap { $0.name?.lowercased() }
        tags = item.tags.map { $0.lowercased() }
        source = item.source.lowercased()
    }

    /// The texts a field stands for (several for authors and tags; everything for `any`).
    func texts(_ field: RuleField) -> [String] {
        switch field {
        case .title: [title]
        case .summary: [summary]
        case .content: [content]
        case .url: [url]
        case .author: authors
        case .tags: tags
        case .source: [source]
        case .any: [title, summary, content, url, source] + authors + tags
        }
    }

    /// The same texts in their original case, for regular expressions.
    func originalTexts(_ field: RuleField) -> [String] {
        switch field {
        case .title: [item.title ?? ""]
        case .summary: [item.summary ?? ""]
        case .content: [item.contentHTML ?? ""]
        case .url: [item.url ?? ""]
        case .author: item.authors.compactMap(\.name)
        case .tags: item.tags
        case .source: [item.source]
        case .any:
            [item.title ?? "", item.summary ?? "", item.contentHTML ?? "", item.url ?? "", item.source] + item.authors.compactMap(\.name)
                + item.tags
        }
    }

    func matches(_ condition: RuleCondition, now: Date) -> Bool {
        switch condition {
        case .text(let field, .contains(let needles)):
            return texts(field).contains { text in needles.contains { text.contains($0) } }
        case .text(let field, .matches(let expression)):
            return originalTexts(field).contains { expression.isFound(in: $0) }
        case .text(let field, .equals(let value)):
            return texts(field).contains(value)
        case .text(let field, .oneOf(let values)):
            return texts(field).contains { values.contains($0) }
        case .metric(let name, let comparison, let bound):
            guard let value = item.metrics[name] else { return false }
            return comparison.holds(value, bound)
        case .olderThan(let age):
            guard let date = item.date else { return false }
            return now.timeIntervalSince(date) > age.inSeconds
        case .newerThan(let age):
            guard let date = item.date else { return false }
            return now.timeIntervalSince(date) < age.inSeconds
        case .all(let conditions):
            return conditions.allSatisfy { matches($0, now: now) }
        case .any(let conditions):
            return conditions.contains { matches($0, now: now) }
        case .not(let inner):
            return !matches(inner, now: now)
        }
    }
}
