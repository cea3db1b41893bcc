import Foundation

/// Reads durations the way configuration files write them: `500ms`, `30s`, `5m`, `1h`, `2d`,
/// `1w`, combinations such as `1h30m`, and a bare number meaning seconds.
public enum DurationParser {
    /// The longest duration accepted: 100 years (36500d). Longer values are slips (a key or a unit pasted wrong), and
    /// they would overflow the arithmetic that uses them.
    public static let maximum: Duration = .seconds(36_500 * 86_400)

    /// Why a text is not an accepted duration.
    public enum Problem: Error, Sendable, Equatable {
        /// The text is not a duration at all.
        case invalid
        /// The text is a duration longer than ``DurationParser/maximum``.
        case tooLarge
    }

    /// The parsed duration, or nil when the text is not a duration or is longer than ``maximum``.
    public static func parse(_ text: String) -> Duration? {
        try? read(text).get()
    }

    /// The parsed duration, or why there is none.
    public static func read(_ text: String) -> Result<Duration, Problem> {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return .failure(.invalid) }
        let limit = Double(maximum.inMilliseconds)
        // A bare number of seconds; `inf` and `nan` are words, not numbers, but `1e400` is a number too large.
        if let seconds = Double(trimmed), seconds >= 0, trimmed.first?.isLetter == false {
            let milliseconds = seconds * 1000
            guard milliseconds <= limit else { return .failure(.tooLarge) }
            return .success(.milliseconds(Int64(milliseconds.rounded())))
        }
        var total: Duration = .zero
        var number = ""
        var unit = ""
        var sawPart = false
        func flush() -> Problem? {
            guard let value = Double(number), value >= 0 else { return .invalid }
            let milliseconds: Double
            switch unit {
            case "ms": milliseconds = value
            case "s", "sec", "secs": milliseconds = value * 1000
            case "m", "min", "mins": milliseconds = value * 60_000
            case "h", "hr", "hrs": milliseconds = value * 3_600_000
            case "d": milliseconds = value * 86_400_000
            case "w": milliseconds = value * 604_800_000
            default: return .invalid
            }
            // Checked before converting: a value out of Int64's range traps.
            guard milliseconds <= limit else { return .tooLarge }
            total += .milliseconds(Int64(milliseconds.rounded()))
            guard total <= maximum else { return .tooLarge }
            number = ""
            unit = ""
            sawPart = true
            return nil
        }
        for character in trimmed {
            if character.isASCII, character.isNumber || character == "." {
                if !unit.isEmpty, let problem = flush() { return .failure(problem) }
                number.append(character)
            } else if character.isASCII, character.isLetter {
                guard !number.isEmpty else { return .failure(.invalid) }
                unit.append(character)
            } else {
                return .failure(.invalid)
            }
        }
        guard !number.isEmpty, !unit.isEmpty else { return .failure(.invalid) }
        if let problem = flush() { return .failure(problem) }
        return sawPart ? .success(total) : .failure(.invalid)
    }

    /// A short rendering such as `30s`, `1h30m` or `500ms`.
    public static func format(_ duration: Duration) -> String {
        var milliseconds = duration.inMilliseconds
        if milliseconds == 0 { return "0s" }
        var text = ""
        for (unit, size) in [("d", Int64(86_400_000)), ("h", 3_600_000), ("m", 60_000), ("s", 1000), ("ms", 1)]
        where milliseconds >= size {
            text += "\(milliseconds / size)\(unit)"
            milliseconds %= size
        }
        return text
    }
}
