public import Foundation

// STAND-IN: replaced by the real date parser at integration. Only the API below is the contract.

/// A parsed date with how it was read.
public struct ParsedDate: Sendable, Hashable {
    /// The instant.
    public var date: Date
    /// Whether the text had no zone and `DateParser.timeZone` was assumed.
    public var zoneAssumed: Bool
    /// Whether the text was relative ("2 hours ago") and read against `DateParser.now`.
    public var isRelative: Bool
}

/// Reads the dates feeds write (stand-in: RFC 3339 and a basic RFC 822).
public struct DateParser: Sendable {
    /// The zone for dates written without one.
    public var timeZone: TimeZone
    /// The instant relative dates are read against.
    public var now: Date

    /// Creates a parser.
    public init(timeZone: TimeZone = .gmt, now: Date = Date()) {
        self.timeZone = timeZone
        self.now = now
    }

    /// The instant, or nil when the text is not a date.
    public func parse(_ text: String) -> Date? {
        parseDetailed(text)?.date
    }

    /// The instant with how it was read, or nil when the text is not a date.
    public func parseDetailed(_ text: String) -> ParsedDate? {
        if let date = RFC3339.date(from: text, defaultZone: timeZone) {
            return ParsedDate(date: date, zoneAssumed: false, isRelative: false)
        }
        return rfc822(text)
    }

    /// `[Wed,] 02 Oct 2002 13:00[:00] [GMT|+0200|EST]`.
    private func rfc822(_ text: String) -> ParsedDate? {
        var tokens: [Substring] = []
        var current = text.utf8.startIndex
        var tokenStart: String.Index?
        while current < text.utf8.endIndex {
            let byte = text.utf8[current]
            if byte == 0x20 || byte == 0x2C || byte == 0x09 {
                if let start = tokenStart { tokens.append(text[start..<current]) }
                tokenStart = nil
            } else if tokenStart == nil {
                tokenStart = current
            }
            current = text.utf8.index(after: current)
        }
        if let start = tokenStart { tokens.append(text[start...]) }
        if let first = tokens.first, first.first?.isLetter == true { tokens.removeFirst() }
        guard tokens.count >= 4, let day = Int(tokens[0]), let year = Int(tokens[2]) else { return nil }
        guard let monthIndex = DateParser.months.firstIndex(of: tokens[1].prefix(3).lowercased()) else { return nil }
        let clock = tokens[3].split(separator: ":").compactMap { Int($0) }
        guard clock.count >= 2 else { return nil }
        let fullYear = year < 100 ? year + (year < 50 ? 2000 : 1900) : year
        var offset: Int?
        if tokens.count > 4 {
            let zone = tokens[4]
            if let hours = DateParser.zones[zone.uppercased()] {
                offset = hours * 3600
            } else if zone.count == 5, let sign = zone.first, sign == "+" || sign == "-", let value = Int(zone.dropFirst()) {
                offset = (sign == "-" ? -1 : 1) * ((value / 100) * 3600 + (value % 100) * 60)
            }
        }
        let days = CivilCalendar.days(year: fullYear, month: monthIndex + 1, day: day)
        let local = Double(days * 86_400) + Double(clock[0] * 3600 + clock[1] * 60 + (clock.count > 2 ? clock[2] : 0))
        if let offset {
            return ParsedDate(date: Date(timeIntervalSince1970: local - Double(offset)), zoneAssumed: false, isRelative: false)
        }
        let zoneOffset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: local))
        return ParsedDate(date: Date(timeIntervalSince1970: local - Double(zoneOffset)), zoneAssumed: true, isRelative: false)
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let zones = [
        "GMT": 0, "UT": 0, "UTC": 0, "Z": 0, "EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7, "MDT": -6, "PST": -8, "PDT": -7,
    ]
}
