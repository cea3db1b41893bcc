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

    /// Whether a rule looks at an item's age, so that its verdicts change with the time of the run.
    public var dependsOnTime: Bool {
        func dependsOnTime(_ condition: RuleCondition) -> Bool {
            switch condition {
            case .olderThan, .newerThan: true
            case .all(let conditions), .any(let conditions): conditions.contains(where: dependsOnTime)
            case .not(let condition): dependsOnTime(condition)
            case .text, .metric: false
            }
        }
        return (block + keep).contains { dependsOnTime($0.condition) }
    }

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
        var fields = ItemFields()
        if let rule = block.first(where: { fields.matches($0.condition, item, now: now) }) { return .blocked(rule) }
        if !keep.isEmpty, !keep.contains(where: { fields.matches($0.condition, item, now: now) }) { return .notKept(keep) }
        return .pass
    }
}

/// An item's fields as rules read them, each lower-cased once per item when a rule first reads it.
private struct ItemFields {
    private var title: String?
    private var summary: String?
    private var content: String?
    private var url: String?
    private var source: String?
    private var authors: [String]?
    private var tags: [String]?

    /// Whether `text` contains `needle` (both lower-cased), comparing as `String.contains` does but by bytes
    /// where that gives the same answer (ASCII and CJK text).
    static func contains(_ text: String, _ needle: String) -> Bool {
        if ByteSearch.isBytewiseSearchable(needle) && ByteSearch.isBytewiseSearchable(text) {
            return ByteSearch.contains(text, needle)
        }
        return text.contains(needle)
    }

    /// Whether `test` holds for one of the lower-cased texts a field stands for (several for authors and tags;
    /// everything for `any`).
    mutating func anyText(_ field: RuleField, of item: Item, _ test: (String) -> Bool) -> Bool {
        switch field {
        case .title: return test(Self.cached(&title) { (item.title ?? "").lowercased() })
        case .summary: return test(Self.cached(&summary) { (item.summary ?? "").lowercased() })
        case .content: return test(Self.cached(&content) { (item.contentHTML ?? "").lowercased() })
        case .url: return test(Self.cached(&url) { (item.url ?? "").lowercased() })
        case .source: return test(Self.cached(&source) { item.source.lowercased() })
        case .author: return Self.cached(&authors) { item.authors.compactMap { $0.name?.lowercased() } }.contains(where: test)
        case .tags: return Self.cached(&tags) { item.tags.map { $0.lowercased() } }.contains(where: test)
        case .any:
            return RuleField.allCases.contains { $0 != .any && anyText($0, of: item, test) }
        }
    }

    private static func cached<Value>(_ slot: inout Value?, _ make: () -> Value) -> Value {
        if let value = slot { return value }
        let value = make()
        slot = value
        return value
    }

    /// Whether `test` holds for one of the texts a field stands for, in their original case (for regular
    /// expressions).
    static func anyOriginalText(_ field: RuleField, of item: Item, _ test: (String) -> Bool) -> Bool {
        switch field {
        case .title: test(item.title ?? "")
        case .summary: test(item.summary ?? "")
        case .content: test(item.contentHTML ?? "")
        case .url: test(item.url ?? "")
        case .author: item.authors.contains { $0.name.map(test) ?? false }
        case .tags: item.tags.contains(where: test)
        case .source: test(item.source)
        case .any: RuleField.allCases.contains { $0 != .any && anyOriginalText($0, of: item, test) }
        }
    }

    mutating func matches(_ condition: RuleCondition, _ item: Item, now: Date) -> Bool {
        switch condition {
        case .text(let field, .contains(let needles)):
            return anyText(field, of: item) { text in needles.contains { Self.contains(text, $0) } }
        case .text(let field, .matches(let expression)):
            return Self.anyOriginalText(field, of: item) { expression.isFound(in: $0) }
        case .text(let field, .equals(let value)):
            return anyText(field, of: item) { $0 == value }
        case .text(let field, .oneOf(let values)):
            return anyText(field, of: item) { values.contains($0) }
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
            return conditions.allSatisfy { matches($0, item, now: now) }
        case .any(let conditions):
            return conditions.contains { matches($0, item, now: now) }
        case .not(let inner):
            return !matches(inner, item, now: now)
        }
    }
}
