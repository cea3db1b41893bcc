import Foundation
import TributarySyndication

/// How a field's raw text becomes the value the item holds.
enum ValueConversion: Sendable, Hashable {
    /// The text as it is (trimmed).
    case none
    /// HTML to plain text: tags stripped, entities decoded, whitespace collapsed.
    case htmlToText
    /// A count from `12`, `"1,234"`, `"3.5k"`, `"1.2万"`, `"10w+"` or `"999+"`.
    case number
    /// A date in any form `DateParser` knows (RFC 822, RFC 3339, Unix time, Chinese, relative).
    case date
    /// Unix seconds.
    case unixSeconds
    /// Unix milliseconds.
    case unixMilliseconds
    /// RFC 3339 / ISO 8601.
    case rfc3339
    /// A fixed pattern in Unicode's date-format notation (`yyyy-MM-dd HH:mm`), read in the field's
    /// `timezone` or the source's.
    case pattern(String)

    /// The words `convert:` accepts.
    static let names = ["text", "html_to_text", "number", "date", "unix", "unix_ms", "rfc3339"]

    /// The conversion named `word`, or nil.
    init?(word: String) {
        switch word {
        case "text", "none": self = .none
        case "html_to_text": self = .htmlToText
        case "number": self = .number
        case "date": self = .date
        case "unix": self = .unixSeconds
        case "unix_ms": self = .unixMilliseconds
        case "rfc3339": self = .rfc3339
        default: return nil
        }
    }

    /// Whether the conversion yields a date.
    var isDate: Bool {
        switch self {
        case .date, .unixSeconds, .unixMilliseconds, .rfc3339, .pattern: true
        default: false
        }
    }

    /// The text as a date, or nil.
    func date(_ text: String, timeZone: TimeZone, now: Date) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch self {
        case .unixSeconds:
            return Double(trimmed).flatMap { $0 > 0 && $0 < 253_402_300_800 ? Date(timeIntervalSince1970: $0) : nil }
        case .unixMilliseconds:
            return Double(trimmed).flatMap { $0 > 0 && $0 < 253_402_300_800_000 ? Date(timeIntervalSince1970: $0 / 1000) : nil }
        case .rfc3339:
            return RFC3339.date(from: trimmed, defaultZone: timeZone).flatMap { $0 >= DateParser.earliest ? $0 : nil }
        case .pattern(let pattern):
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = timeZone
            formatter.dateFormat = pattern
            return formatter.date(from: trimmed).flatMap { $0 >= DateParser.earliest ? $0 : nil }
        default:
            return DateParser(timeZone: timeZone, now: now).parse(trimmed)
        }
    }

    /// The text as a whole count, or nil.
    static func count(_ text: String) -> Int? {
        var cleaned = text.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: ",", with: "")
            .replacingOccurrences(of: "，", with: "")
        // `999+` and `10w+`: at least that many, which is what a count can say.
        if cleaned.count > 1, cleaned.hasSuffix("+") { cleaned.removeLast() }
        var multiplier = 1.0
        for (suffix, factor) in [
            ("万", 10_000.0), ("w", 10_000.0), ("W", 10_000.0), ("亿", 100_000_000.0), ("千", 1000.0), ("k", 1000.0), ("K", 1000.0),
            ("m", 1e6), ("M", 1e6), ("b", 1e9), ("B", 1e9),
        ]
        where cleaned.hasSuffix(suffix) {
            multiplier = factor
            cleaned = String(cleaned.dropLast(suffix.count)).trimmingCharacters(in: .whitespaces)
            break
        }
        if cleaned.hasPrefix("+") { cleaned.removeFirst() }
        guard let value = Double(cleaned), value.isFinite else { return nil }
        let scaled = (value * multiplier).rounded()
        guard abs(scaled) < 9e15 else { return nil }
        return Int(scaled)
    }

    /// The text converted for a text field.
    func text(_ text: String) -> String {
        switch self {
        case .htmlToText: HTMLSanitizer.plainText(fromHTML: text)
        default: text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }
}
