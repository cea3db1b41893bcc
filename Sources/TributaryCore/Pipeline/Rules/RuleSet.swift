public import Foundation
public import TributaryModel

/// The `rules:` of one scope (global or one source): block rules drop what they match; when
/// keep rules exist, only items matching one of them pass.
public struct RuleSet: Sendable {
    /// Rules that drop the items they match.
    public var block: [Rule] { didSet { compiledBlock = block.map { CompiledCondition($0.condition) } } }
    /// Rules of which an item must match one, when there are any.
    public var keep: [Rule] { didSet { compiledKeep = keep.map { CompiledCondition($0.condition) } } }
    /// The conditions of `block` and `keep` with their matchers prepared once.
    private var compiledBlock: [CompiledCondition]
    private var compiledKeep: [CompiledCondition]

    /// Creates a rule set; both lists empty lets everything pass.
    public init(block: [Rule] = [], keep: [Rule] = []) {
        self.block = block
        self.keep = keep
        compiledBlock = block.map { CompiledCondition($0.condition) }
        compiledKeep = keep.map { CompiledCondition($0.condition) }
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

    /// ``verdict(on:now:)`` without the prepared matchers: every condition evaluated as written, `contains` on
    /// lower-cased strings (to check the byte-level paths against).
    func generalVerdict(on item: Item, now: Date) -> Verdict {
        withUnsafePointer(to: item) { generalVerdict(on: $0, now: now) }
    }

    /// ``generalVerdict(on:now:)`` of the item at `item`.
    func generalVerdict(on item: UnsafePointer<Item>, now: Date) -> Verdict {
        guard !isEmpty else { return .pass }
        var fields = ItemFields()
        if let rule = block.first(where: { fields.matches($0.condition, item, now: now) }) { return .blocked(rule) }
        if !keep.isEmpty, !keep.contains(where: { fields.matches($0.condition, item, now: now) }) { return .notKept(keep) }
        return .pass
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
        withUnsafePointer(to: item) { verdict(on: $0, now: now) }
    }

    /// ``verdict(on:now:)`` of the item at `item`, read where it lies: an `Item` passed by value from an array is
    /// copied (a dozen reference counts), a pointer is not.
    func verdict(on item: UnsafePointer<Item>, now: Date) -> Verdict {
        guard !isEmpty else { return .pass }
        // Loops rather than closures: a closure that captures `item` copies it (a dozen reference counts).
        var fields = ItemFields()
        for index in compiledBlock.indices where fields.matches(compiledBlock[index], item, now: now) { return .blocked(block[index]) }
        guard !keep.isEmpty else { return .pass }
        for condition in compiledKeep where fields.matches(condition, item, now: now) { return .pass }
        return .notKept(keep)
    }
}

/// A rule condition with its matchers prepared once: `contains` needles as UTF-8 bytes, with whether a byte search
/// finds them; the other conditions as written.
indirect enum CompiledCondition: Sendable {
    /// `contains` on a field.
    case contains(RuleField, [Needle])
    /// `in` on tags or authors, with values that compare by bytes (``ByteSearch/isBytewiseSearchable(_:)``); the
    /// values as a set for texts that do not.
    case oneOf(RuleField, [Needle], Set<String>)
    /// `older_than`, in seconds.
    case olderThan(Double)
    /// `newer_than`, in seconds.
    case newerThan(Double)
    /// A condition that needs no preparing (another text matcher, a metric).
    case leaf(RuleCondition)
    /// Every condition holds.
    case all([CompiledCondition])
    /// At least one holds.
    case any([CompiledCondition])
    /// The condition does not hold.
    case not(CompiledCondition)

    /// One `contains` string (lower-cased).
    struct Needle: Sendable {
        /// The string.
        var text: String
        /// Its UTF-8 bytes.
        var bytes: [UInt8]
        /// Whether a byte search finds it where `String.contains` would (``ByteSearch/isBytewiseSearchable(_:)``).
        var bytewise: Bool

        init(_ text: String) {
            self.text = text
            bytes = Array(text.utf8)
            bytewise = ByteSearch.isBytewiseSearchable(text)
        }
    }

    init(_ condition: RuleCondition) {
        switch condition {
        case .text(let field, .contains(let needles)): self = .contains(field, needles.map(Needle.init))
        case .text(let field, .oneOf(let values))
        where (field == .tags || field == .author) && values.allSatisfy(ByteSearch.isBytewiseSearchable):
            self = .oneOf(field, values.map(Needle.init), values)
        case .olderThan(let age): self = .olderThan(age.inSeconds)
        case .newerThan(let age): self = .newerThan(age.inSeconds)
        case .all(let conditions): self = .all(conditions.map(CompiledCondition.init))
        case .any(let conditions): self = .any(conditions.map(CompiledCondition.init))
        case .not(let condition): self = .not(CompiledCondition(condition))
        default: self = .leaf(condition)
        }
    }
}

/// An item's fields as rules read them, each lower-cased once per item when a rule first reads it (authors and
/// tags, short, each time). `contains` reads
/// a field by bytes, lower-casing A–Z as it goes, when the field is ASCII or CJK text whose lower-cased form differs
/// only there (``ByteSearch/isCaseSimple(_:)``, also found once per item).
struct ItemFields {
    private var title: String?
    private var summary: String?
    private var content: String?
    private var url: String?
    private var source: String?
    private var titleIsSimple: Bool?
    private var summaryIsSimple: Bool?
    private var contentIsSimple: Bool?
    private var urlIsSimple: Bool?
    private var sourceIsSimple: Bool?

    /// Whether `text` contains `needle` (both lower-cased), comparing as `String.contains` does but by bytes
    /// where that gives the same answer (ASCII and CJK text).
    static func contains(_ text: String, _ needle: String) -> Bool {
        if ByteSearch.isBytewiseSearchable(needle) && ByteSearch.isBytewiseSearchable(text) {
            return ByteSearch.contains(text, needle)
        }
        return text.contains(needle)
    }

    /// `text.lowercased()`, which is `text` itself when it is case-simple and has no A–Z (no new string then).
    static func lowercased(_ text: String) -> String {
        let unchanged = text.withUTF8Bytes { ByteSearch.isCaseSimple($0) && !ByteSearch.hasUppercaseASCII($0) }
        return unchanged ? text : text.lowercased()
    }

    /// Whether `test` holds for one of the lower-cased texts a field stands for (several for authors and tags;
    /// everything for `any`).
    mutating func anyText(_ field: RuleField, of item: UnsafePointer<Item>, _ test: (String) -> Bool) -> Bool {
        switch field {
        case .title: return test(Self.cached(&title) { Self.lowercased(item.pointee.title ?? "") })
        case .summary: return test(Self.cached(&summary) { Self.lowercased(item.pointee.summary ?? "") })
        case .content: return test(Self.cached(&content) { Self.lowercased(item.pointee.contentHTML ?? "") })
        case .url: return test(Self.cached(&url) { Self.lowercased(item.pointee.url ?? "") })
        case .source: return test(Self.cached(&source) { Self.lowercased(item.pointee.source) })
        case .author: return item.pointee.authors.contains { $0.name.map { test(Self.lowercased($0)) } ?? false }
        case .tags: return item.pointee.tags.contains { test(Self.lowercased($0)) }
        case .any:
            for field in RuleField.allCases where field != .any && anyText(field, of: item, test) { return true }
            return false
        }
    }

    /// Whether one of the lower-cased texts a field stands for contains one of `needles`: ``anyText(_:of:_:)`` with
    /// ``contains(_:_:)``, by bytes without lower-casing where the text allows.
    mutating func containsAny(_ field: RuleField, of item: UnsafePointer<Item>, _ needles: [CompiledCondition.Needle]) -> Bool {
        switch field {
        case .title: return Self.containsAny(item.pointee.title ?? "", simple: &titleIsSimple, lowered: &title, needles)
        case .summary: return Self.containsAny(item.pointee.summary ?? "", simple: &summaryIsSimple, lowered: &summary, needles)
        case .content: return Self.containsAny(item.pointee.contentHTML ?? "", simple: &contentIsSimple, lowered: &content, needles)
        case .url: return Self.containsAny(item.pointee.url ?? "", simple: &urlIsSimple, lowered: &url, needles)
        case .source: return Self.containsAny(item.pointee.source, simple: &sourceIsSimple, lowered: &source, needles)
        case .author, .tags:
            let texts = field == .author ? item.pointee.authors.compactMap(\.name) : item.pointee.tags
            return texts.contains { text in
                var simple: Bool?
                var lowered: String?
                return Self.containsAny(text, simple: &simple, lowered: &lowered, needles)
            }
        case .any:
            for field in RuleField.allCases where field != .any && containsAny(field, of: item, needles) { return true }
            return false
        }
    }

    /// Whether the lower-cased `text` contains one of `needles`; `simple` and `lowered` cache what was found out
    /// about the text.
    private static func containsAny(_ text: String, simple: inout Bool?, lowered: inout String?, _ needles: [CompiledCondition.Needle])
        -> Bool
    {
        let isSimple = cached(&simple) { text.withUTF8Bytes(ByteSearch.isCaseSimple) }
        for needle in needles {
            let found: Bool
            if isSimple && needle.bytewise {
                found = text.withUTF8Bytes { haystack in
                    needle.bytes.withUnsafeBufferPointer { ByteSearch.containsLowercased(haystack, $0) }
                }
            } else {
                found = contains(cached(&lowered) { lowercased(text) }, needle.text)
            }
            if found { return true }
        }
        return false
    }

    /// Whether the lower-cased `text` is one of `values` (bytewise searchable, their bytes in `needles`): by bytes,
    /// lower-casing A–Z on the way, when the text is case-simple (``ByteSearch/isCaseSimple(_:)``: its lower-cased
    /// form differs only there, and bytes compare as the strings do); else by the set.
    static func equalsAny(_ text: String, _ needles: [CompiledCondition.Needle], _ values: Set<String>) -> Bool {
        let byBytes = text.withUTF8Bytes { bytes -> Bool? in
            guard ByteSearch.isCaseSimple(bytes) else { return nil }
            return needles.contains { needle in needle.bytes.withUnsafeBufferPointer { ByteSearch.equalsLowercased(bytes, $0) } }
        }
        return byBytes ?? values.contains(lowercased(text))
    }

    private static func cached<Value>(_ slot: inout Value?, _ make: () -> Value) -> Value {
        if let value = slot { return value }
        let value = make()
        slot = value
        return value
    }

    /// Whether `test` holds for one of the texts a field stands for, in their original case (for regular
    /// expressions).
    static func anyOriginalText(_ field: RuleField, of item: UnsafePointer<Item>, _ test: (String) -> Bool) -> Bool {
        switch field {
        case .title: test(item.pointee.title ?? "")
        case .summary: test(item.pointee.summary ?? "")
        case .content: test(item.pointee.contentHTML ?? "")
        case .url: test(item.pointee.url ?? "")
        case .author: item.pointee.authors.contains { $0.name.map(test) ?? false }
        case .tags: item.pointee.tags.contains(where: test)
        case .source: test(item.pointee.source)
        case .any: RuleField.allCases.contains { $0 != .any && anyOriginalText($0, of: item, test) }
        }
    }

    mutating func matches(_ condition: CompiledCondition, _ item: UnsafePointer<Item>, now: Date) -> Bool {
        switch condition {
        case .contains(let field, let needles): return containsAny(field, of: item, needles)
        case .oneOf(let field, let needles, let values):
            let texts = field == .author ? item.pointee.authors.compactMap(\.name) : item.pointee.tags
            return texts.contains { Self.equalsAny($0, needles, values) }
        case .olderThan(let seconds):
            guard let date = item.pointee.date else { return false }
            return now.timeIntervalSince(date) > seconds
        case .newerThan(let seconds):
            guard let date = item.pointee.date else { return false }
            return now.timeIntervalSince(date) < seconds
        case .leaf(let condition): return matches(condition, item, now: now)
        case .all(let conditions):
            for condition in conditions where !matches(condition, item, now: now) { return false }
            return true
        case .any(let conditions):
            for condition in conditions where matches(condition, item, now: now) { return true }
            return false
        case .not(let inner): return !matches(inner, item, now: now)
        }
    }

    /// The general evaluation of a condition (prepared `contains` conditions go to ``containsAny(_:of:_:)``).
    mutating func matches(_ condition: RuleCondition, _ item: UnsafePointer<Item>, now: Date) -> Bool {
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
            guard let value = item.pointee.metrics[name] else { return false }
            return comparison.holds(value, bound)
        case .olderThan(let age):
            return matches(CompiledCondition.olderThan(age.inSeconds), item, now: now)
        case .newerThan(let age):
            return matches(CompiledCondition.newerThan(age.inSeconds), item, now: now)
        case .all(let conditions):
            return conditions.allSatisfy { matches($0, item, now: now) }
        case .any(let conditions):
            return conditions.contains { matches($0, item, now: now) }
        case .not(let inner):
            return !matches(inner, item, now: now)
        }
    }
}
