import Foundation
import TestSupport
import Testing

@testable import TributarySyndication

/// `DateParser`'s shortcut for RSS's usual `Sun, 01 Nov 2026 11:59:00 +0000`, held to the
/// token reading it skips.
@Suite("DateParser: the RFC 1123 shortcut")
struct DateParserFastPathTests {
    static let dayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "sun", "Xyz"]
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec", "nov", "Foo"]
    static let zones = ["+0000", "-0530", "+0800", "+1400", "-1200", "+2400", "+0060", "GMT", "UTC", "EST", "+08:0", "0000x"]

    @Test("it reads what the tokens read, or leaves the text to them", arguments: [TestZone.utc, .shanghai, .newYork])
    func agreesWithTokens(_ zone: TestZone) throws {
        let parser = DateParser(
            timeZone: try #require(TimeZone(identifier: zone.rawValue)), now: Date(timeIntervalSince1970: 1_790_000_000))
        var random = SeededGenerator(seed: 0x1123)
        func pick(_ list: [String]) -> String { list[Int(random.next() % UInt64(list.count))] }
        func two(_ limit: UInt64) -> String { String(format: "%02d", Int(random.next() % limit)) }
        var taken = 0
        for round in 0..<6_000 {
            let text: String
            if round % 2 == 0 {
                // A real date, written correctly: the shortcut must take it.
                let seconds = Int(random.next() % 4_000_000_000)
                let offset = [0, -19_800, 28_800, 3_600, -36_000][Int(random.next() % 5)]
                let zoneText = offset == 0 && random.next() % 2 == 0 ? "GMT" : Self.zoneText(offset)
                text = Self.format(Date(timeIntervalSince1970: Double(seconds)), offset: offset, zone: zoneText)
                let fast = try #require(parser.rfc1123(text), "\(text)")
                #expect(fast.date == Date(timeIntervalSince1970: Double(seconds)), "\(text)")
            } else {
                text =
                    "\(pick(Self.dayNames)), \(two(33)) \(pick(Self.monthNames)) \(1890 + random.next() % 220) \(two(26)):\(two(62)):\(two(62)) "
                    + pick(Self.zones)
            }
            guard let fast = parser.rfc1123(text) else { continue }
            taken += 1
            #expect(fast == parser.parseTokens(text), "\(text)")
        }
        #expect(taken > 3_000)
    }

    static func zoneText(_ offset: Int) -> String {
        let minutes = abs(offset) / 60
        return (offset < 0 ? "-" : "+") + String(format: "%02d%02d", minutes / 60, minutes % 60)
    }

    /// `date` as RFC 1123 in the zone `offset` seconds east of UTC.
    static func format(_ date: Date, offset: Int, zone: String) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: offset) ?? .gmt
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        let day = dayNames[(parts.weekday ?? 1) - 1]
        let month = monthNames[(parts.month ?? 1) - 1]
        return String(
            format: "%@, %02d %@ %04d %02d:%02d:%02d %@", day, parts.day ?? 0, month, parts.year ?? 0, parts.hour ?? 0, parts.minute ?? 0,
            parts.second ?? 0, zone)
    }
}
