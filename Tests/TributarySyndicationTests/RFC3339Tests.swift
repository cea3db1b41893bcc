import Foundation
import Testing
import TributarySyndication

@Suite("RFC 3339 dates")
struct RFC3339Tests {
    static let shanghai = TimeZone(identifier: "Asia/Shanghai") ?? .gmt

    struct ParseCase: Sendable, CustomTestStringConvertible {
        var text: String
        var zone: TimeZone = .gmt
        var expected: Date?
        var testDescription: String { "\"\(text)\" in \(zone.identifier)" }
    }

    static let parseCases: [ParseCase] = [
        ParseCase(text: "2024-03-05T06:03:00Z", expected: utc(2024, 3, 5, 6, 3)),
        ParseCase(text: "2024-03-05t06:03:00z", expected: utc(2024, 3, 5, 6, 3)),
        ParseCase(text: "2024-03-05 06:03:00Z", expected: utc(2024, 3, 5, 6, 3)),
        ParseCase(text: "  2024-03-05T06:03:00Z  ", expected: utc(2024, 3, 5, 6, 3)),
        ParseCase(text: "2024-03-05T14:03:00+08:00", expected: utc(2024, 3, 5, 6, 3)),
        ParseCase(text: "2024-03-05T14:03:00+0800", expected: utc(2024, 3, 5, 6, 3)),
        ParseCase(text: "2024-03-05T01:03:00-05:00", expected: utc(2024, 3, 5, 6, 3)),
        ParseCase(text: "2024-03-05T06:03:00+00:00", expected: utc(2024, 3, 5, 6, 3)),
        ParseCase(text: "2024-03-05T06:03:00-00:00", expected: utc(2024, 3, 5, 6, 3)),
        ParseCase(text: "2024-03-05T05:33:00-00:30", expected: utc(2024, 3, 5, 6, 3)),
        ParseCase(text: "2024-03-05T00:30:00+01:00", expected: utc(2024, 3, 4, 23, 30)),
        ParseCase(text: "2024-03-05T06:03:00.5Z", expected: utc(2024, 3, 5, 6, 3, 0, ms: 500)),
        ParseCase(text: "2024-03-05T06:03:00.12Z", expected: utc(2024, 3, 5, 6, 3, 0, ms: 120)),
        ParseCase(text: "2024-03-05T06:03:00.123Z", expected: utc(2024, 3, 5, 6, 3, 0, ms: 123)),
        ParseCase(text: "2024-03-05T06:03:00.123000000Z", expected: utc(2024, 3, 5, 6, 3, 0, ms: 123)),
        ParseCase(text: "2024-03-05T06:03:00,250Z", expected: utc(2024, 3, 5, 6, 3, 0, ms: 250)),
        ParseCase(text: "2024-03-05T14:03:00.750+08:00", expected: utc(2024, 3, 5, 6, 3, 0, ms: 750)),
        ParseCase(text: "2024-03-05T06:03Z", expected: utc(2024, 3, 5, 6, 3)),
        ParseCase(text: "2024-03-05T14:03+08:00", expected: utc(2024, 3, 5, 6, 3)),
        ParseCase(text: "2016-12-31T23:59:60Z", expected: utc(2016, 12, 31, 23, 59, 59)),  // leap second, clamped
        ParseCase(text: "2024-02-29T12:00:00Z", expected: utc(2024, 2, 29, 12)),
        ParseCase(text: "1969-07-20T20:17:40Z", expected: utc(1969, 7, 20, 20, 17, 40)),
        ParseCase(text: "9999-12-31T23:59:59Z", expected: utc(9999, 12, 31, 23, 59, 59)),
        // Date only: midnight in the default zone.
        ParseCase(text: "2024-03-05", expected: utc(2024, 3, 5)),
        ParseCase(text: "2024-03-05", zone: shanghai, expected: utc(2024, 3, 4, 16)),
        // No offset: the default zone.
        ParseCase(text: "2024-03-05T14:03:00", expected: utc(2024, 3, 5, 14, 3)),
        ParseCase(text: "2024-03-05T14:03:00", zone: shanghai, expected: utc(2024, 3, 5, 6, 3)),
        ParseCase(text: "2024-03-05 14:03", zone: shanghai, expected: utc(2024, 3, 5, 6, 3)),
        // An explicit offset wins over the default zone.
        ParseCase(text: "2024-03-05T06:03:00Z", zone: shanghai, expected: utc(2024, 3, 5, 6, 3)),
        ParseCase(text: "2024-03-05T01:03:00-05:00", zone: shanghai, expected: utc(2024, 3, 5, 6, 3)),
        // Not dates.
        ParseCase(text: "", expected: nil),
        ParseCase(text: "   ", expected: nil),
        ParseCase(text: "2024-13-05T06:03:00Z", expected: nil),
        ParseCase(text: "2024-00-05T06:03:00Z", expected: nil),
        ParseCase(text: "2024-03-00", expected: nil),
        ParseCase(text: "2024-03-32", expected: nil),
        ParseCase(text: "2023-02-29", expected: nil),
        ParseCase(text: "2024-02-30T00:00:00Z", expected: nil),
        ParseCase(text: "2024-04-31", expected: nil),
        ParseCase(text: "2024-3-5", expected: nil),
        ParseCase(text: "24-03-05", expected: nil),
        ParseCase(text: "2024/03/05", expected: nil),
        ParseCase(text: "2024-03-05T06:03:00Zjunk", expected: nil),
        ParseCase(text: "2024-03-05T06:03:00+08:00 GMT", expected: nil),
        ParseCase(text: "2024-03-05junk", expected: nil),
        ParseCase(text: "2024-03-05T", expected: nil),
        ParseCase(text: "2024-03-05T24:00:00Z", expected: nil),
        ParseCase(text: "2024-03-05T06:60:00Z", expected: nil),
        ParseCase(text: "2024-03-05T06:03:61Z", expected: nil),
        ParseCase(text: "2024-03-05T6:03:00Z", expected: nil),
        ParseCase(text: "2024-03-05T06:03:00.Z", expected: nil),
        ParseCase(text: "2024-03-05T06:03:00+25:00", expected: nil),
        ParseCase(text: "Tue, 05 Mar 2024 06:03:00 GMT", expected: nil),
        ParseCase(text: "yesterday", expected: nil),
    ]

    @Test("parsing", arguments: parseCases)
    func parse(_ testCase: ParseCase) {
        #expect(RFC3339.date(from: testCase.text, defaultZone: testCase.zone) == testCase.expected)
    }

    @Test("the default zone is UTC")
    func defaultZoneIsUTC() {
        #expect(RFC3339.date(from: "2024-03-05T06:03:00") == utc(2024, 3, 5, 6, 3))
        #expect(RFC3339.date(from: "2024-03-05") == utc(2024, 3, 5))
    }

    @Test(
        "formatting",
        arguments: [
            (Date(timeIntervalSince1970: 0), "1970-01-01T00:00:00Z"),
            (Date(timeIntervalSince1970: -1), "1969-12-31T23:59:59Z"),
            (Date(timeIntervalSince1970: -0.5), "1969-12-31T23:59:59.500Z"),
            (Date(timeIntervalSince1970: -86_400), "1969-12-31T00:00:00Z"),
            (utc(1900, 1, 1), "1900-01-01T00:00:00Z"),
            (utc(1600, 2, 29, 1, 2, 3), "1600-02-29T01:02:03Z"),
            (utc(1969, 7, 20, 20, 17, 40), "1969-07-20T20:17:40Z"),
            (utc(2000, 2, 29), "2000-02-29T00:00:00Z"),
            (utc(2024, 2, 29, 23, 59, 59), "2024-02-29T23:59:59Z"),
            (utc(2024, 3, 5, 6, 3), "2024-03-05T06:03:00Z"),
            (utc(2024, 3, 5, 6, 3, 0, ms: 1), "2024-03-05T06:03:00.001Z"),
            (utc(2024, 3, 5, 6, 3, 0, ms: 120), "2024-03-05T06:03:00.120Z"),
            (utc(2024, 3, 5, 6, 3, 0, ms: 999), "2024-03-05T06:03:00.999Z"),
            (Date(timeIntervalSince1970: 1_709_618_580.0004), "2024-03-05T06:03:00Z"),  // below a millisecond
            (Date(timeIntervalSince1970: 1_709_618_579.9996), "2024-03-05T06:03:00Z"),  // rounds up to the next second
            (utc(2038, 1, 19, 3, 14, 8), "2038-01-19T03:14:08Z"),
            (utc(9999, 12, 31, 23, 59, 59), "9999-12-31T23:59:59Z"),
            // Outside years 0001–9999 (year 0000 is no xsd:dateTime), the nearest instant inside.
            (Date(timeIntervalSince1970: -62_135_596_800), "0001-01-01T00:00:00Z"),
            (Date(timeIntervalSince1970: -62_135_596_800 - 86_400), "0001-01-01T00:00:00Z"),
            (Date(timeIntervalSince1970: -1e12), "0001-01-01T00:00:00Z"),
            (Date(timeIntervalSince1970: 253_402_300_799.9996), "9999-12-31T23:59:59Z"),
            (Date(timeIntervalSince1970: 1e12), "9999-12-31T23:59:59Z"),
        ])
    func format(_ date: Date, _ expected: String) {
        #expect(RFC3339.string(from: date) == expected)
    }

    /// Whole seconds spread evenly over 1900–2100, each with a millisecond part that cycles
    /// through 0…999 (every 10th instant has none).
    static let generatedInstants: [(date: Date, seconds: Int64, milliseconds: Int)] = {
        let start: Int64 = -2_208_988_800  // 1900-01-01T00:00:00Z
        let end: Int64 = 4_102_444_800  // 2100-01-01T00:00:00Z
        let count: Int64 = 20_000
        let step = (end - start) / count + 7  // an odd step, so times of day vary
        return (0..<count).map { index in
            let seconds = start + index * step
            let milliseconds = index % 10 == 0 ? 0 : Int((index * 389) % 1000)
            return (Date(timeIntervalSince1970: Double(seconds * 1000 + Int64(milliseconds)) / 1000), seconds, milliseconds)
        }
    }()

    @Test("formatting agrees with Foundation's calendar over 1900–2100")
    func formatMatchesCalendar() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .gmt
        var mismatches: [String] = []
        for instant in Self.generatedInstants {
            let fields = calendar.dateComponents(
                [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: Double(instant.seconds)))
            var expected = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02d", fields.year ?? 0, fields.month ?? 0, fields.day ?? 0, fields.hour ?? 0,
                fields.minute ?? 0, fields.second ?? 0)
            if instant.milliseconds != 0 { expected += String(format: ".%03d", instant.milliseconds) }
            expected += "Z"
            let actual = RFC3339.string(from: instant.date)
            if actual != expected { mismatches.append("\(instant.date.timeIntervalSince1970): \(actual) ≠ \(expected)") }
        }
        #expect(mismatches == [])
    }

    @Test("format then parse gives back the same instant over 1900–2100")
    func roundTrip() {
        var mismatches: [String] = []
        for instant in Self.generatedInstants {
            let text = RFC3339.string(from: instant.date)
            let parsed = RFC3339.date(from: text)
            if parsed != instant.date {
                mismatches.append("\(text): \(parsed?.timeIntervalSince1970 ?? .nan) ≠ \(instant.date.timeIntervalSince1970)")
            }
        }
        #expect(mismatches == [])
    }

    @Test("format then parse gives back the same instant with any offset and zone")
    func roundTripThroughOffsets() throws {
        // The formatter writes UTC; re-express the same instants with offsets and check the parser.
        let offsets = [-12 * 3600, -5 * 3600, -3600 - 1800, 0, 3600 * 5 + 45 * 60, 8 * 3600, 14 * 3600]
        var mismatches: [String] = []
        for (index, instant) in Self.generatedInstants.enumerated() where index % 7 == 0 {
            let offset = offsets[index % offsets.count]
            let utcText = RFC3339.string(from: instant.date)
            let local = RFC3339.string(from: instant.date.addingTimeInterval(Double(offset)))
            let sign = offset < 0 ? "-" : "+"
            let suffix = sign + String(format: "%02d:%02d", abs(offset) / 3600, abs(offset) / 60 % 60)
            let text = String(local.dropLast()) + suffix
            let parsed = RFC3339.date(from: text, defaultZone: Self.shanghai)
            if parsed.map(RFC3339.string(from:)) != utcText { mismatches.append("\(text) is not \(utcText)") }
        }
        #expect(mismatches == [])
    }
}
