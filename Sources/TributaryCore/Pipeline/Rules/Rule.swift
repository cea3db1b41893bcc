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
    /// The pattern as a plain string when it is one (`sponsored`, `(?i)^sponsored`), searched by bytes.
    let literal: LiteralPattern?

    /// Compiles `pattern` (ICU syntax: `(?i)` for case-insensitive and the like).
    public init(_ pattern: String) throws {
        expression = try NSRegularExpression(pattern: pattern)
        self.pattern = pattern
        literal = LiteralPattern(pattern)
    }

    /// Whether the pattern is found anywhere in `text`.
    public func isFound(in text: String) -> Bool {
        if let literal, let found = literal.isFound(in: text) { return found }
        return isFoundByExpression(in: text)
    }

    /// Whether `NSRegularExpression` finds the pattern in `text` (what ``isFound(in:)`` answers, with or without
    /// the literal fast path).
    func isFoundByExpression(in text: String) -> Bool {
        expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}

/// A regular expression that is a plain string of ASCII letters, digits, spaces and punctuation without meaning in
/// a pattern, optionally after `(?i)` and `^`: found by a byte search instead of ICU. Case-sensitive, the bytes match
/// exactly what ICU matches (an ASCII character is one byte in UTF-8 and nothing else contains that byte).
/// Case-insensitive, ICU folds case fully (`ß` matches `ss`, `ſ` matches `s`, `K` the Kelvin sign matches `k`), so
/// the byte search answers only for texts of ASCII and caseless CJK scalars (``ByteSearch/isCaseSimple(_:)``),
/// where folding is A–Z to a–z.
struct LiteralPattern: Sendable {
    /// The string's bytes, lower-cased when case-insensitive.
    var bytes: [UInt8]
    /// `(?i)`.
    var caseInsensitive: Bool
    /// `^`: only at the start of the text.
    var anchored: Bool

    /// The literal `pattern` stands for, or nil when it is any other regular expression.
    init?(_ pattern: String) {
        var rest = Array(pattern.utf8)[...]
        caseInsensitive = rest.starts(with: "(?i)".utf8)
        if caseInsensitive { rest = rest.dropFirst(4) }
        anchored = rest.first == UInt8(ascii: "^")
        if anchored { rest = rest.dropFirst() }
        guard !rest.isEmpty, rest.allSatisfy(Self.isLiteral) else { return nil }
        bytes = caseInsensitive ? rest.map(ByteSearch.lowerASCII) : Array(rest)
    }

    /// Letters, digits, the space and punctuation that ICU reads as itself outside a character class (no `#`,
    /// which is a comment under `(?x)`).
    private static func isLiteral(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: " "), UInt8(ascii: "!"), UInt8(ascii: "\""), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
            UInt8(ascii: ","), UInt8(ascii: "-"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: ";"), UInt8(ascii: "<"),
            UInt8(ascii: "="), UInt8(ascii: ">"), UInt8(ascii: "@"), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// Whether the literal is in `text`, or nil when only the regular expression can tell (case-insensitive, and the
    /// text has a scalar outside ASCII and the caseless blocks).
    func isFound(in text: String) -> Bool? {
        text.withUTF8Bytes { haystack -> Bool? in
            bytes.withUnsafeBufferPointer { literal -> Bool? in
                if caseInsensitive {
                    // Anchored, only the text's first characters count: when they are ASCII, folding them is A–Z to a–z.
                    let asciiStart = anchored && haystack.prefix(literal.count).allSatisfy { $0 < 0x80 }
                    guard asciiStart || ByteSearch.isCaseSimple(haystack) else { return nil }
                    return anchored
                        ? ByteSearch.hasPrefixLowercased(haystack, literal) : ByteSearch.containsLowercased(haystack, literal)
                }
                return anchored ? ByteSearch.hasPrefix(haystack, literal) : ByteSearch.contains(haystack, literal)
            }
        }
    }
}
