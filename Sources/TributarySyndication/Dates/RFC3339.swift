public import Foundation

/// Reads and writes RFC 3339 timestamps without `DateFormatter`: fast, thread-safe, lenient on
/// read (lower-case `t`/`z`, a space instead of `T`, fractions of any length, offsets with or
/// without a colon, missing seconds), strict on write (UTC with `Z`).
public enum RFC3339 {
    /// `2024-03-05T06:03:00Z`; fractions of a second are written only when present (milliseconds).
    /// An instant outside years 0001–9999 is written as the nearest one inside (`CivilCalendar.writable`).
    public static func string(from date: Date) -> String {
        let interval = date.clamped(to: CivilCalendar.writable).timeIntervalSince1970
        var seconds = Int64(interval.rounded(.down))
        var milliseconds = Int((interval - Double(seconds)) * 1000 + 0.5)
        if milliseconds >= 1000 {
            seconds += 1
            milliseconds -= 1000
        }
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = CivilCalendar.date(fromDays: days)
        // A four-digit year: the 20 or 24 bytes written straight into the string.
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
