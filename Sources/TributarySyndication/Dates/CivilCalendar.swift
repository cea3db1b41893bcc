public import Foundation

/// Proleptic Gregorian calendar arithmetic on day numbers since 1970-01-01 (Howard Hinnant's
/// civil-from-days algorithms), so that dates need no `Calendar` instance. Foundation's Gregorian
/// calendar turns Julian before October 1582 and counts eras, so its days and the RFC 3339 text of
/// the same instant disagree there; every date Tributary writes is counted here instead.
public enum CivilCalendar {
    /// The instants written with a four-digit year, `0001-01-01T00:00:00Z` through
    /// `9999-12-31T23:59:59Z` (RFC 3339's years; XML Schema has no year 0000). Writers clamp to it.
    public static let writable: ClosedRange<Date> = {
        let first = Date(timeIntervalSince1970: Double(days(year: 1, month: 1, day: 1) * 86_400))
        return first...Date(timeIntervalSince1970: Double(days(year: 10_000, month: 1, day: 1) * 86_400 - 1))
    }()

    /// The calendar day (proleptic Gregorian) `date` falls on in `timeZone`, after clamping to
    /// `writable`; `weekday` counts from 1 for Sunday to 7 for Saturday, as Foundation's does.
    public static func day(of date: Date, in timeZone: TimeZone) -> (year: Int, month: Int, day: Int, weekday: Int) {
        let clamped = date.clamped(to: writable)
        let local = (clamped.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: clamped))).clamped(
            to: writable.lowerBound.timeIntervalSince1970...writable.upperBound.timeIntervalSince1970)
        let days = Int64((local / 86_400).rounded(.down))
        let (year, month, day) = Self.date(fromDays: days)
        // 1970-01-01 was a Thursday, weekday 5.
        return (year, month, day, Int(((days % 7 + 7) % 7 + 4) % 7) + 1)
    }

    /// Days since 1970-01-01 for a calendar date.
    public static func days(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The calendar date of a day number since 1970-01-01.
    public static func date(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
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

extension Comparable {
    /// The value, or the nearer bound of `range` when it lies outside.
    func clamped(to range: ClosedRange<Self>) -> Self {
        min(max(self, range.lowerBound), range.upperBound)
    }
}
