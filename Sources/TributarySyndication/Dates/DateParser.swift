public import Foundation

/// What a date string turned into.
public struct ParsedDate: Sendable, Hashable {
    /// The instant (UTC).
    public var date: Date
    /// True when the text carried no zone and the parser's `timeZone` was used.
    public var zoneAssumed: Bool
    /// True for texts counted from `now`: "3分钟前", "昨天 08:00", "2 hours ago".
    public var isRelative: Bool
}

/// Reads the date formats of the real web into instants.
///
/// RFC 822 / 1123 / 2822 and their mutations (any or no day name, two-digit years, named and
/// numeric zones, comments, asctime order), RFC 3339 / ISO 8601 (extended and basic), numeric
/// y-m-d, d.m.y and m/d/y dates, Unix seconds and milliseconds, Chinese 年月日 dates and times,
/// and relative texts in English and Chinese. Parsed by hand over Unicode scalars: no
/// `DateFormatter`, no `Calendar`; `timeZone` only gives the offset of zone-less dates.
/// Unrecognised text gives nil, never `now`.
public struct DateParser: Sendable {
    /// The zone of texts that carry none, and whose calendar days "昨天 08:00" counts.
    public var timeZone: TimeZone {
        didSet { fixedOffset = Self.fixedOffset(of: timeZone) }
    }
    /// The instant relative texts ("3分钟前", "2 hours ago") count back from.
    public var now: Date
    /// `timeZone`'s offset when it has never changed (UTC, "GMT+0800"): spares the zone look-ups.
    private var fixedOffset: Int?

    /// A parser reading zone-less texts in `timeZone` and relative texts back from `now`.
    public init(timeZone: TimeZone = .gmt, now: Date = Date()) {
        self.timeZone = timeZone
        self.now = now
        fixedOffset = Self.fixedOffset(of: timeZone)
    }

    /// The earliest instant taken as a date, 1000-01-01T00:00:00Z. Earlier ones are placeholders
    /// for "no date" — Hugo's `Mon, 01 Jan 0001`, PHP's `Mon, 30 Nov -0001` (MySQL's zero date),
    /// `0000-01-01T00:00:00Z` — and read as none, as feedparser reads them.
    public static let earliest = Date(timeIntervalSince1970: Double(CivilCalendar.days(year: 1000, month: 1, day: 1) * 86_400))

    /// The instant `text` names, or nil when it is not a date this parser knows or is before `earliest`.
    public func parse(_ text: String) -> Date? { parseDetailed(text)?.date }

    /// The instant `text` names and how it was read, or nil when it is not a date this parser
    /// knows or is before `earliest`.
    public func parseDetailed(_ text: String) -> ParsedDate? {
        guard let parsed = parseAnyYear(text), parsed.date >= Self.earliest else { return nil }
        return parsed
    }

    /// Whether `text` is a date before `earliest`: a placeholder for none, which `parse` gives nil for.
    public func isPlaceholder(_ text: String) -> Bool {
        parseAnyYear(text).map { $0.date < Self.earliest } ?? false
    }

    private func parseAnyYear(_ text: String) -> ParsedDate? {
        if let parsed = rfc3339(text) { return parsed }
        if let parsed = rfc1123(text) { return parsed }
        return parseTokens(text)
    }

    /// `parseDetailed` without the fast paths: the text read as tokens.
    func parseTokens(_ text: String) -> ParsedDate? {
        guard let tokens = DateTokenizer.tokens(text), !tokens.isEmpty else { return nil }
        if let parsed = unixTime(tokens) { return parsed }
        if let seconds = Self.relativeSeconds(tokens) {
            return ParsedDate(date: now.addingTimeInterval(-seconds), zoneAssumed: false, isRelative: true)
        }
        var scanner = DateFieldScanner(tokens, cstMeansChina: timeZone.secondsFromGMT(for: now) == 8 * 3600)
        guard scanner.scan() else { return nil }
        return resolve(scanner.fields)
    }

    // MARK: - Fast paths

    /// `2024-03-05T14:03:00Z` and its relatives, the commonest form, handed to `RFC3339` once
    /// the day is known to exist in its month; zone-less times then get `timeZone`'s offset.
    private func rfc3339(_ text: String) -> ParsedDate? {
        var year = 0
        var month = 0
        var day = 0
        var position = 0
        for byte in text.utf8.prefix(10) {
            if position == 4 || position == 7 {
                guard byte == UInt8(ascii: "-") else { return nil }
            } else {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                let digit = Int(byte - 0x30)
                if position < 4 {
                    year = year * 10 + digit
                } else if position < 7 {
                    month = month * 10 + digit
                } else {
                    day = day * 10 + digit
                }
            }
            position += 1
        }
        guard position == 10, (1...12).contains(month), day >= 1, day <= Self.daysInMonth(month, year: year),
            let date = RFC3339.date(from: text)
        else { return nil }
        let hasZone = text.utf8.dropFirst(10).contains { byte in
            byte == UInt8(ascii: "Z") || byte == UInt8(ascii: "z") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
        }
        if hasZone { return ParsedDate(date: date, zoneAssumed: false, isRelative: false) }
        return instant(local: date.timeIntervalSince1970, offset: nil, relative: false)
    }

    /// `Sun, 01 Nov 2026 11:59:00 +0000` or `… GMT`, RSS's usual form, exactly so (the day name
    /// matching the date, every field in range); anything else is left to the tokens.
    func rfc1123(_ text: String) -> ParsedDate? {
        var text = text
        return text.withUTF8 { bytes -> ParsedDate? in
            guard bytes.count == 31 || bytes.count == 29, bytes[3] == UInt8(ascii: ","), bytes[4] == 0x20, bytes[7] == 0x20,
                bytes[11] == 0x20, bytes[16] == 0x20, bytes[19] == UInt8(ascii: ":"), bytes[22] == UInt8(ascii: ":"), bytes[25] == 0x20
            else { return nil }
            func number(_ start: Int, _ length: Int) -> Int? {
                var value = 0
                for index in start..<start + length {
                    let digit = Int(bytes[index]) - 0x30
                    guard digit >= 0, digit <= 9 else { return nil }
                    value = value * 10 + digit
                }
                return value
            }
            func name(_ start: Int) -> UInt32 {
                UInt32(bytes[start]) << 16 | UInt32(bytes[start + 1]) << 8 | UInt32(bytes[start + 2])
            }
            guard let day = number(5, 2), let year = number(12, 4), let hour = number(17, 2), let minute = number(20, 2),
                let second = number(23, 2), let month = Self.monthNames.firstIndex(of: name(8)).map({ $0 + 1 }),
                year >= 1900, day >= 1, day <= Self.daysInMonth(month, year: year), hour <= 23, minute <= 59, second <= 59
            else { return nil }
            var offset = 0
            if bytes.count == 31 {
                guard bytes[26] == UInt8(ascii: "+") || bytes[26] == UInt8(ascii: "-"), let zoneHours = number(27, 2),
                    let zoneMinutes = number(29, 2), zoneHours <= 23, zoneMinutes <= 59
                else { return nil }
                offset = (zoneHours * 3600 + zoneMinutes * 60) * (bytes[26] == UInt8(ascii: "-") ? -1 : 1)
            } else {
                guard name(26) == Self.gmt else { return nil }
            }
            let days = CivilCalendar.days(year: year, month: month, day: day)
            // 1970-01-01 was a Thursday; the names start on Sunday.
            guard Self.dayNames[Int((days % 7 + 11) % 7)] == name(0) else { return nil }
            let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second - offset)
            return ParsedDate(date: Date(timeIntervalSince1970: Double(seconds)), zoneAssumed: false, isRelative: false)
        }
    }

    private static let monthNames: [UInt32] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"].map(
        packed)
    private static let dayNames: [UInt32] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].map(packed)
    private static let gmt = packed("GMT")

    private static func packed(_ name: String) -> UInt32 {
        name.utf8.reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Unix seconds (9–10 digits, optionally with a fraction) and milliseconds (12–13 digits).
    private func unixTime(_ tokens: [DateToken]) -> ParsedDate? {
        guard case .number(let value, let digits) = tokens[0].kind else { return nil }
        var seconds: Double
        switch digits {
        case 9, 10: seconds = Double(value)
        case 12, 13: seconds = Double(value) / 1000
        default: return nil
        }
        if tokens.count == 3, digits <= 10, tokens[1].kind == .symbol(UInt8(ascii: ".")), !tokens[1].spaced, !tokens[2].spaced,
            case .number(let fraction, let fractionDigits) = tokens[2].kind, fractionDigits <= 9
        {
            var scale = 1.0
            for _ in 0..<fractionDigits { scale *= 10 }
            seconds += Double(fraction) / scale
        } else if tokens.count != 1 {
            return nil
        }
        return ParsedDate(date: Date(timeIntervalSince1970: seconds), zoneAssumed: false, isRelative: false)
    }

    // MARK: - From fields to an instant

    /// Checks the gathered fields and turns them into an instant: AM/PM, 24:00, leap seconds,
    /// two-digit and missing years, days relative to today.
    private func resolve(_ fields: DateFields) -> ParsedDate? {
        var hour = fields.hour ?? 0
        if let meridiem = fields.meridiem {
            guard fields.hour != nil else { return nil }
            switch meridiem {
            case .morning:
                guard hour <= 12 else { return nil }
                if hour == 12 { hour = 0 }
            case .afternoon:
                if hour < 12 { hour += 12 }
            case .noon:
                if hour < 11 { hour += 12 }
            case .night:
                if hour <= 12 { hour += 12 }
            }
        }
        guard hour <= 24, fields.minute < 60, fields.second <= 60 else { return nil }
        if hour == 24 {
            guard fields.minute == 0, fields.second == 0, fields.fraction == 0 else { return nil }
        }
        let timeOfDay = Double(hour * 3600 + fields.minute * 60 + min(fields.second, 59)) + fields.fraction

        if let relativeDays = fields.relativeDays {
            guard !fields.hasDate else { return nil }
            guard fields.hour != nil else {
                return ParsedDate(date: now.addingTimeInterval(Double(relativeDays) * 86_400), zoneAssumed: false, isRelative: true)
            }
            let today = localDay(of: now, offset: fields.offset)
            return instant(local: Double((today + Int64(relativeDays)) * 86_400) + timeOfDay, offset: fields.offset, relative: true)
        }

        guard let month = fields.month, let day = fields.day, (1...12).contains(month), day >= 1 else { return nil }
        guard let writtenYear = fields.year else { return inferYear(month: month, day: day, timeOfDay: timeOfDay, offset: fields.offset) }
        var year = writtenYear
        if fields.yearDigits <= 2 {
            year += writtenYear < 50 ? 2000 : 1900
        } else {
            guard fields.yearDigits == 4, year >= 1 else { return nil }
        }
        guard day <= Self.daysInMonth(month, year: year) else { return nil }
        let local = Double(CivilCalendar.days(year: year, month: month, day: day) * 86_400) + timeOfDay
        return instant(local: local, offset: fields.offset, relative: false)
    }

    /// "3月5日 14:03": the latest such date that is not more than a day after `now`.
    private func inferYear(month: Int, day: Int, timeOfDay: Double, offset: Int?) -> ParsedDate? {
        let (thisYear, _, _) = CivilCalendar.date(fromDays: localDay(of: now, offset: offset))
        let latest = now.addingTimeInterval(86_400)
        for year in stride(from: thisYear + 1, through: thisYear - 8, by: -1) where day <= Self.daysInMonth(month, year: year) {
            let local = Double(CivilCalendar.days(year: year, month: month, day: day) * 86_400) + timeOfDay
            if let parsed = instant(local: local, offset: offset, relative: false), parsed.date <= latest { return parsed }
        }
        return nil
    }

    /// The instant of a local time (seconds since 1970 as if it were UTC), with the text's
    /// offset or else `timeZone`'s.
    private func instant(local: Double, offset: Int?, relative: Bool) -> ParsedDate? {
        if let offset {
            return ParsedDate(date: Date(timeIntervalSince1970: local - Double(offset)), zoneAssumed: false, isRelative: relative)
        }
        return ParsedDate(
            date: Date(timeIntervalSince1970: local - Double(zoneOffset(local: local))), zoneAssumed: true, isRelative: relative)
    }

    /// `timeZone`'s offset for a local time. Around a transition the offsets a day before and a
    /// day after are both tried: a repeated time (autumn) takes the earlier instant, a skipped
    /// one (spring, "02:30" in New York) is read with the offset before the gap, i.e. 03:30 DST.
    private func zoneOffset(local: Double) -> Int {
        if let fixedOffset { return fixedOffset }
        let before = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: local - 86_400))
        let after = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: local + 86_400))
        if before == after {
            let exact = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: local - Double(before)))
            return exact == before ? before : exact
        }
        let beforeFits = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: local - Double(before))) == before
        let afterFits = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: local - Double(after))) == after
        switch (beforeFits, afterFits) {
        case (true, true): return max(before, after)
        case (false, true): return after
        default: return before
        }
    }

    /// Days since 1970-01-01 of the calendar day `date` falls on, at `offset` or in `timeZone`.
    private func localDay(of date: Date, offset: Int?) -> Int64 {
        let shift = offset ?? fixedOffset ?? timeZone.secondsFromGMT(for: date)
        return Int64(((date.timeIntervalSince1970 + Double(shift)) / 86_400).rounded(.down))
    }

    private static func fixedOffset(of zone: TimeZone) -> Int? {
        guard zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: -4_000_000_000)) == nil else { return nil }
        return zone.secondsFromGMT(for: Date(timeIntervalSince1970: 0))
    }

    static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
