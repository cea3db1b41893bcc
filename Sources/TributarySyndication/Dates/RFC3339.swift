public import Foundation

/// Reads and writes RFC 3339 timestamps without `DateFormatter`: fast, thread-safe, lenient on
/// read (lower-case `t`/`z`, a space instead of `T`, fractions of any length, offsets with or
/// without a colon, missing seconds), strict on write (UTC with `Z`).
public enum RFC3339 {
    /// `2024-03-05T06:03:00Z`; fractions of a second are written only when present (milliseconds).
    public static func string(from date: Date) -> String {
        let interval = date.timeIntervalSince1970
        var seconds = Int64(interval.rounded(.down))
        var milliseconds = Int((interval - Double(seconds)) * 1000 + 0.5)
        if milliseconds >= 1000 {
            seconds += 1
            milliseconds -= 1000
        }
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = CivilCalendar.date(fromDays: days)
        guard (0...9999).contains(year) else {
            var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
            text += "T" + pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
            if milliseconds > 0 { text += "." + pad(milliseconds, 3) }
            return text + "Z"
        }
        // The usual four-digit year: the 20 or 24 bytes written straight into the string.
        let length = milliseconds > 0 ? 24 : 20
        return String(unsafeUninitializedCapacity: length) { buffer in
            func digits(_ value: Int, _ width: Int, at offset: Int) {
                var value = value
                for position in stride(from: offset + width - 1, through: offset, by: -1) {
                    buffer[position] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
            }
            digits(year, 4, at: 0)
            buffer[4] = UInt8(ascii: "-")
            digits(month, 2, at: 5)
            buffer[7] = UInt8(ascii: "-")
            digits(day, 2, at: 8)
            buffer[10] = UInt8(ascii: "T")
            digits(secondOfDay / 3600, 2, at: 11)
            buffer[13] = UInt8(ascii: ":")
            digits(secondOfDay / 60 % 60, 2, at: 14)
            buffer[16] = UInt8(ascii: ":")
            digits(secondOfDay % 60, 2, at: 17)
            if milliseconds > 0 {
                buffer[19] = UInt8(ascii: ".")
                digits(milliseconds, 3, at: 20)
            }
            buffer[length - 1] = UInt8(ascii: "Z")
            return length
        }
    }

    /// The instant, or nil when the text is not an RFC 3339 / ISO 8601 date-time. A time
    /// without an offset is read in `defaultZone` (UTC unless given).
    public static func date(from text: String, defaultZone: TimeZone = .gmt) -> Date? {
        var scanner = DigitScanner(text.utf8)
        scanner.skipSpaces()
        guard let year = scanner.number(digits: 4), scanner.take(UInt8(ascii: "-")),
            let month = scanner.number(digits: 2), scanner.take(UInt8(ascii: "-")),
            let day = scanner.number(digits: 2), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var hour = 0
        var minute = 0
        var second = 0
        var fraction = 0.0
        var offset: Int?
        if scanner.take(UInt8(ascii: "T")) || scanner.take(UInt8(ascii: "t")) || scanner.take(UInt8(ascii: " ")) {
            guard let h = scanner.number(digits: 2), scanner.take(UInt8(ascii: ":")), let m = scanner.number(digits: 2),
                h < 24, m < 60
            else { return nil }
            hour = h
            minute = m
            if scanner.take(UInt8(ascii: ":")) {
                guard let s = scanner.number(digits: 2), s <= 60 else { return nil }
                second = min(s, 59)
                if scanner.take(UInt8(ascii: ".")) || scanner.take(UInt8(ascii: ",")) {
                    var scale = 0.1
                    var any = false
                    while let digit = scanner.digit() {
                        fraction += Double(digit) * scale
                        scale /= 10
                        any = true
                    }
                    guard any else { return nil }
                }
            }
            scanner.skipSpaces()
            if scanner.take(UInt8(ascii: "Z")) || scanner.take(UInt8(ascii: "z")) {
                offset = 0
            } else if let sign = scanner.sign() {
                guard let oh = scanner.number(digits: 2), oh < 24 else { return nil }
                _ = scanner.take(UInt8(ascii: ":"))
                let om = scanner.number(digits: 2) ?? 0
                offset = sign * (oh * 3600 + om * 60)
            }
        } else {
            offset = nil
        }
        scanner.skipSpaces()
        guard scanner.atEnd else { return nil }
        let days = CivilCalendar.days(year: year, month: month, day: day)
        // Day 1...31 passed above; a day past the month's end (February 30) would roll over.
        guard CivilCalendar.date(fromDays: days) == (year, month, day) else { return nil }
        let local = Double(days * 86_400 + Int64(hour * 3600 + minute * 60 + second)) + fraction
        if let offset { return Date(timeIntervalSince1970: local - Double(offset)) }
        let guess = Date(timeIntervalSince1970: local)
        let zoneOffset = defaultZone.secondsFromGMT(for: guess)
        return Date(timeIntervalSince1970: local - Double(zoneOffset))
    }

    private static func pad(_ number: Int, _ width: Int) -> String {
        let digits = String(number)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

/// Proleptic Gregorian calendar arithmetic on day numbers since 1970-01-01 (Howard Hinnant's
/// civil-from-days algorithms), so that dates need no `Calendar` instance.
enum CivilCalendar {
    /// Days since 1970-01-01 for a calendar date.
    static func days(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The calendar date of a day number since 1970-01-01.
    static func date(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }
}

/// A cursor over ASCII digits and separators.
struct DigitScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ utf8: String.UTF8View) { bytes = Array(utf8) }

    var atEnd: Bool { index == bytes.count }

    mutating func skipSpaces() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
    }

    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func digit() -> Int? {
        guard index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 else { return nil }
        defer { index += 1 }
        return Int(bytes[index] - 0x30)
    }

    /// Exactly `digits` digits.
    mutating func number(digits: Int) -> Int? {
        let start = index
        var value = 0
        for _ in 0..<digits {
            guard let digit = digit() else {
                index = start
                return nil
            }
            value = value * 10 + digit
        }
        return value
    }

    /// `+1` or `-1` when the next byte is a sign.
    mutating func sign() -> Int? {
        if take(UInt8(ascii: "+")) { return 1 }
        if take(UInt8(ascii: "-")) { return -1 }
        return nil
    }
}
