import Foundation
import TributaryYAML

/// Reads `rules: {block: [...], keep: [...]}` into a `RuleSet`, reporting every mistake with its
/// position: unknown fields and operators (with suggestions), invalid regular expressions,
/// wrong value types.
struct RulesReader {
    let reader: ConfigReader

    /// Metric names rules may compare; adapters report these (plus any listed here later).
    static let metricNames = [
        "comments", "likes", "votes", "shares", "views", "reads", "favorites", "praise", "records", "diggs", "buries",
        "followers", "answers", "score",
    ]
    static let textOperators = ["contains", "matches", "equals", "in"]
    static let conditionKeys =
        RuleField.allCases.map(\.rawValue) + ["older_than", "newer_than", "all", "not", "metric"] + metricNames

    func read(_ node: YAMLNode, scope: String) -> RuleSet {
        var rules = RuleSet()
        guard let pairs = reader.mapping(node, "'rules'\(scope)") else { return rules }
        let keys = reader.keyed(pairs, allowed: ["block", "keep"], context: "in 'rules'\(scope)")
        if let node = keys["block"]?.value, let items = reader.sequence(node, "'rules.block'") {
            rules.block = items.compactMap(rule)
        }
        if let node = keys["keep"]?.value, let items = reader.sequence(node, "'rules.keep'") {
            rules.keep = items.compactMap(rule)
        }
        return rules
    }

    /// One rule: a mapping of conditions (all must hold) and an optional `name`.
    private func rule(_ node: YAMLNode) -> Rule? {
        guard let pairs = reader.mapping(node, "a rule") else { return nil }
        let name = pairs.first { $0.key.scalar == "name" }.flatMap { reader.string($0.value, "'name'") }
        guard let condition = conditions(pairs.filter { $0.key.scalar != "name" }, at: node) else { return nil }
        return Rule(name: name, location: "\(reader.file):\(node.mark.line):\(node.mark.column)", condition: condition)
    }

    /// A mapping of conditions, all of which must hold.
    private func conditions(_ pairs: [YAMLPair], at node: YAMLNode) -> RuleCondition? {
        guard !pairs.isEmpty else {
            reader.fail(node, "a rule needs a condition, e.g. title: {contains: word}")
            return nil
        }
        var parts: [RuleCondition] = []
        var failed = false
        for pair in pairs {
            guard let key = pair.key.scalar else {
                reader.fail(pair.key, "a rule's keys must be words")
                failed = true
                continue
            }
            if let part = condition(key, pair) { parts.append(part) } else { failed = true }
        }
        guard !failed else { return nil }
        return parts.count == 1 ? parts[0] : .all(parts)
    }

    /// A condition node given on its own (inside `all`, `any`, `not`).
    private func condition(_ node: YAMLNode) -> RuleCondition? {
        guard let pairs = reader.mapping(node, "a condition") else { return nil }
        return conditions(pairs, at: node)
    }

    private func condition(_ key: String, _ pair: YAMLPair) -> RuleCondition? {
        let value = pair.value
        switch key {
        case "all" where value.mapping != nil:
            return condition(value)
        case "all" where value.sequence != nil, "any" where value.sequence != nil:
            guard let items = reader.sequence(value, "'\(key)'") else { return nil }
            let parts = items.map(condition)
            guard !parts.contains(where: { $0 == nil }) else { return nil }
            return key == "all" ? .all(parts.compactMap { $0 }) : .any(parts.compactMap { $0 })
        case "not":
            return condition(value).map(RuleCondition.not)
        case "older_than", "newer_than":
            guard let age = reader.duration(value, "'\(key)'") else { return nil }
            return key == "older_than" ? .olderThan(age) : .newerThan(age)
        case "metric":
            return metric(value)
        default:
            if let field = RuleField(rawValue: key) { return text(field, value) }
            if Self.metricNames.contains(key) { return comparison(key, value) }
            var message = "unknown rule field '\(key)'"
            if let suggestion = Spelling.suggestion(for: key, among: Self.conditionKeys) {
                message += "; did you mean '\(suggestion)'?"
            } else {
                message +=
                    " (expected one of: \(RuleField.allCases.map(\.rawValue).joined(separator: ", ")), older_than, newer_than, all, any, not, or a metric such as comments)"
            }
            reader.fail(pair.key, message)
            return nil
        }
    }

    /// `title: {contains: x}` and its siblings.
    private func text(_ field: RuleField, _ node: YAMLNode) -> RuleCondition? {
        guard let pairs = reader.mapping(node, "'\(field.rawValue)'") else { return nil }
        let keys = reader.keyed(pairs, allowed: Self.textOperators, context: "in '\(field.rawValue)' (a text match)")
        guard keys.pairs.count == 1, let (op, pair) = keys.pairs.first else {
            if keys.pairs.count > 1 {
                reader.fail(node, "'\(field.rawValue)' takes one of contains, matches, equals, in; put several in 'all'")
            } else if reader.errors.isEmpty || pairs.isEmpty {
                reader.fail(node, "'\(field.rawValue)' needs one of contains, matches, equals, in")
            }
            return nil
        }
        switch op {
        case "contains":
            guard let words = reader.strings(pair.value, "'contains'") else { return nil }
            return .text(field, .contains(words.map { $0.lowercased() }))
        case "matches":
            guard let pattern = reader.string(pair.value, "'matches'") else { return nil }
            do {
                return .text(field, .matches(try RegularExpression(pattern)))
            } catch {
                reader.fail(pair.value, "'matches': invalid regular expression '\(pattern)'")
                return nil
            }
        case "equals":
            return reader.string(pair.value, "'equals'").map { .text(field, .equals($0.lowercased())) }
        default:
            guard let words = reader.strings(pair.value, "'in'") else { return nil }
            return .text(field, .oneOf(Set(words.map { $0.lowercased() })))
        }
    }

    /// `comments: {gte: 100}`.
    private func comparison(_ name: String, _ node: YAMLNode) -> RuleCondition? {
        guard let pairs = reader.mapping(node, "'\(name)'") else { return nil }
        let keys = reader.keyed(pairs, allowed: Comparison.allCases.map(\.rawValue), context: "in '\(name)' (a comparison)")
        guard keys.pairs.count == 1, let (op, pair) = keys.pairs.first, let comparison = Comparison(rawValue: op) else {
            if keys.pairs.count != 1 { reader.fail(node, "'\(name)' takes one of lt, lte, gt, gte, eq, ne") }
            return nil
        }
        return reader.integer(pair.value, "'\(op)'").map { .metric(name, comparison, $0) }
    }

    /// `metric: {name: reads, gte: 1000}` for metrics not in the list.
    private func metric(_ node: YAMLNode) -> RuleCondition? {
        guard let pairs = reader.mapping(node, "'metric'") else { return nil }
        let keys = reader.keyed(pairs, allowed: ["name"] + Comparison.allCases.map(\.rawValue), context: "in 'metric'")
        guard let nameNode = keys["name"]?.value, let name = reader.string(nameNode, "'metric.name'") else {
            reader.fail(node, "'metric' needs a 'name'")
            return nil
        }
        let comparisons = keys.pairs.filter { $0.key != "name" }
        guard comparisons.count == 1, let (op, pair) = comparisons.first, let comparison = Comparison(rawValue: op) else {
            reader.fail(node, "'metric' takes one of lt, lte, gt, gte, eq, ne")
            return nil
        }
        return reader.integer(pair.value, "'\(op)'").map { .metric(name, comparison, $0) }
    }
}
