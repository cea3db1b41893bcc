import Foundation

/// Reads durations the way configuration files write them: `500ms`, `30s`, `5m`, `1h`, `2d`,
/// `1w`, combinations such as `1h30m`, and a bare number meaning seconds.
public enum DurationParser {
    /// The parsed duration, or nil when the text is not a duration.
    public static func parse(_ text: String) -> Duration? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        if let seconds = Double(trimmed), seconds >= 0, seconds.isFinite {
            return .milliseconds(Int64((seconds * 1000).rounded()))
        }
        var total: Duration = .zero
        var number = ""
        var unit = ""
        var sawPart = false
        func flush() -> Bool {
            guard let value = Double(number), value >= 0 else { return false }
            let milliseconds: Double
            switch unit {
            case "ms": milliseconds = value
            case "s", "sec", "secs": milliseconds = value * 1000
            case "m", "min", "mins": milliseconds = value * 60_000
            case "h", "hr", "hrs": milliseconds = value * 3_600_000
            case "d": milliseconds = value * 86_400_000
            case "w": milliseconds = value * 604_800_000
            default: return false
            }
            total += .milliseconds(Int64(milliseconds.rounded()))
            number = ""
            unit = ""
            sawPart = true
            return true
        }
        for character in trimmed {
            if character.isASCII, character.isNumber || character == "." {
                if !unit.isEmpty {
                    guard flush() else { return nil }
                }
                number.append(character)
            } else if character.isASCII, character.isLetter {
                guard !number.isEmpty else { return nil }
                unit.append(character)
            } else {
                return nil
            }
        }
        guard !number.isEmpty, !unit.isEmpty, flush(), sawPart else { return nil }
        return total
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
