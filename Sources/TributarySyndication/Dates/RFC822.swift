public import Foundation

/// Writes RFC 822 dates as RSS 2.0 wants them (with RFC 1123's four-digit year):
/// `Wed, 01 May 2024 12:00:00 +0000`, always in UTC, without `DateFormatter`.
public enum RFC822 {
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The date in UTC to the second (fractions are dropped), the year in four digits; an instant
    /// outside years 0001–9999 is written as the nearest one inside (`CivilCalendar.writable`).
    public static func string(from date: Date) -> String {
        let seconds = Int64(date.clamped(to: CivilCalendar.writable).timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = CivilCalendar.date(fromDays: days)
        // 1970-01-01 was a Thursday.
        let weekday = weekdays[Int(((days % 7) + 7) % 7)]
        let year4 = pad(year / 100) + pad(year % 100)
        return weekday + ", " + pad(day) + " " + months[month - 1] + " " + year4 + " " + pad(secondOfDay / 3600) + ":"
            + pad(secondOfDay / 60 % 60) + ":" + pad(secondOfDay % 60) + " +0000"
    }

    private static func pad(_ number: Int) -> String {
        number < 10 ? "0" + String(number) : String(number)
    }
}
