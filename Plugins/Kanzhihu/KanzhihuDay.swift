import Foundation

/// A calendar day as Kanzhihu writes post dates (`2016-02-22`), counted as days since
/// 1970-01-01 so that "two days back" is plain arithmetic, free of time zones.
struct KanzhihuDay: Sendable, Hashable, Comparable {
    let year: Int
    let month: Int
    let day: Int
    /// Days since 1970-01-01.
    let ordinal: Int

    /// Reads `yyyy-mm-dd` (one-digit months and days too); nil for anything else or a day that
    /// does not exist.
    init?(_ text: String) {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, (1...2).contains(parts[1].count), (1...2).contains(parts[2].count),
            parts.allSatisfy({ $0.unicodeScalars.allSatisfy { $0.properties.numericType == .decimal && $0.isASCII } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year)
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    private init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
        // Days from civil (H. Hinnant): the proleptic Gregorian calendar.
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        ordinal = era * 146_097 + dayOfEra - 719_468
    }

    /// The form the answers URL needs: `20160222`.
    var compact: String {
        String(format: "%04d%02d%02d", year, month, day)
    }

    /// `2016-02-22`.
    var text: String {
        String(format: "%04d-%02d-%02d", year, month, day)
    }

    static func < (lhs: KanzhihuDay, rhs: KanzhihuDay) -> Bool { lhs.ordinal < rhs.ordinal }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
