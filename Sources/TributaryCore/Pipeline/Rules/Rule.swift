import Foundation

/// One block or keep rule from the configuration: a condition, an optional name, and where it
/// was written (for `--explain` and error messages).
public struct Rule: Sendable {
    /// The `name:` the user gave, if any.
    public var name: String?
    /// `feeds.yaml:12:7`.
    public var location: String
    /// What an item must satisfy for the rule to match.
    public var condition: RuleCondition

    /// Creates a rule.
    public init(name: String? = nil, location: String, condition: RuleCondition) {
        self.name = name
        self.location = location
        self.condition = condition
    }

    /// `'ads-zh' (feeds.yaml:12:7)` or `the rule at feeds.yaml:12:7`.
    public var label: String {
        name.map { "'\($0)' (\(location))" } ?? "the rule at \(location)"
    }
}

/// What a rule tests.
public indirect enum RuleCondition: Sendable {
    /// A text field against a matcher.
    case text(RuleField, TextMatcher)
    /// A metric (`comments`, `likes`, …) compared with a number; an item without it never matches.
    case metric(String, Comparison, Int)
    /// The item is older than this (by its date).
    case olderThan(Duration)
    /// The item is newer than this (by its date).
    case newerThan(Duration)
    /// Every condition holds (an empty list holds).
    case all([RuleCondition])
    /// At least one condition holds.
    case any([RuleCondition])
    /// The condition does not hold.
    case not(RuleCondition)
}

/// The item fields text matchers read.
public enum RuleField: String, Sendable, CaseIterable {
    case title, summary, content, url, author, tags, source, any
}

/// How a text field is matched. Texts compare case-insensitively; patterns follow their own flags.
public enum TextMatcher: Sendable {
    /// The field contains one of these (lower-cased) strings.
    case contains([String])
    /// The regular expression is found in the field (not anchored unless it says `^`/`$`).
    case matches(RegularExpression)
    /// The field equals the (lower-cased) string.
    case equals(String)
    /// The field equals one of the (lower-cased) strings.
    case oneOf(Set<String>)
}

/// A comparison of a metric with a number.
public enum Comparison: String, Sendable, CaseIterable {
    case lt, lte, gt, gte, eq, ne

    /// Whether `value` compares so with `bound`.
    public func holds(_ value: Int, _ bound: Int) -> Bool {
        switch self {
        case .lt: value < bound
        case .lte: value <= bound
        case .gt: value > bound
        case .gte: value >= bound
        case .eq: value == bound
        case .ne: value != bound
        }
    }
}

/// A compiled regular expression that may be shared across tasks.
public struct RegularExpression: @unchecked Sendable {
    // NSRegularExpression is immutable after creation and documented as safe to use from
    // several threads at once; that is what makes this wrapper Sendable.
    private let expression: NSRegularExpression
    /// The pattern as written.
    public let pattern: String

    /// Compiles `pattern` (ICU syntax: `(?i)` for case-insensitive and the like).
    public init(_ pattern: String) throws {
        expression = try NSRegularExpression(pattern: pattern)
        self.pattern = pattern
    }

    /// Whether the pattern is found anywhere in `text`.
    public func isFound(in text: String) -> Bool {
        expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}
