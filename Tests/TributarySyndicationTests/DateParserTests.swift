import Foundation
import Testing
import TributarySyndication

/// The zones the tables are read in.
enum TestZone: String, Sendable {
    case utc = "UTC"
    case shanghai = "Asia/Shanghai"
    case newYork = "America/New_York"
}

/// One row: a text, the parser's zone, the expected instant as RFC 3339 (nil: no date), and
/// optionally the expected flags.
struct DateCase: Sendable, CustomTestStringConvertible {
    let input: String
    let expected: String?
    let zone: TestZone
    let zoneAssumed: Bool?
    let isRelative: Bool?
    var testDescription: String { "\(input.debugDescription) in \(zone.rawValue)" }

    init(_ input: String, _ expected: String?, in zone: TestZone = .utc, assumed: Bool? = nil, relative: Bool? = nil) {
        self.input = input
        self.expected = expected
        self.zone = zone
        self.zoneAssumed = assumed
        self.isRelative = relative
    }
}

/// 2024-03-10T12:00:00+08:00 (04:00 UTC): still Saturday evening in New York, hours before its
/// clocks spring forward.
let fixedNow = Date(timeIntervalSince1970: 1_710_043_200)

func check(_ row: DateCase) throws {
    let zone = try #require(TimeZone(identifier: row.zone.rawValue))
    let parser = DateParser(timeZone: zone, now: fixedNow)
    let parsed = parser.parseDetailed(row.input)
    guard let expectedText = row.expected else {
        #expect(parsed == nil, "expected no date, got \(parsed.map { RFC3339.string(from: $0.date) } ?? "")")
        return
    }
    let expected = try #require(RFC3339.date(from: expectedText))
    let result = try #require(parsed, "no date from \(row.input.debugDescription)")
    #expect(abs(result.date.timeIntervalSince(expected)) < 0.000_5, "got \(RFC3339.string(from: result.date))")
    if let assumed = row.zoneAssumed { #expect(result.zoneAssumed == assumed, "zoneAssumed") }
    if let relative = row.isRelative { #expect(result.isRelative == relative, "isRelative") }
    #expect(parser.parse(row.input) == result.date)
}

@Suite("DateParser")
struct DateParserTests {
    static let rfc822Cases: [DateCase] = [
        DateCase("Tue, 05 Mar 2024 14:03:00 +0800", "2024-03-05T06:03:00Z", assumed: false, relative: false),
        DateCase("Tue, 05 Mar 2024 14:03:00 +08:00", "2024-03-05T06:03:00Z"),
        DateCase("Tue, 05 Mar 2024 14:03:00 -0500", "2024-03-05T19:03:00Z"),
        DateCase("Tue, 05 Mar 2024 14:03:00 +0530", "2024-03-05T08:33:00Z"),
        DateCase("Tue, 05 Mar 2024 14:03:00 GMT", "2024-03-05T14:03:00Z", assumed: false),
        DateCase("Tue, 05 Mar 2024 14:03:00 UT", "2024-03-05T14:03:00Z"),
        DateCase("Tue, 05 Mar 2024 14:03:00 UTC", "2024-03-05T14:03:00Z"),
        DateCase("Tue, 05 Mar 2024 14:03:00 Z", "2024-03-05T14:03:00Z"),
        DateCase("Tue, 05 Mar 2024 14:03:00 EST", "2024-03-05T19:03:00Z"),
        DateCase("Tue, 05 Mar 2024 14:03:00 EDT", "2024-03-05T18:03:00Z"),
        DateCase("Tue, 05 Mar 2024 14:03:00 CST", "2024-03-05T20:03:00Z"),
        // Java's Date.toString() on a Chinese server: CST is China Standard Time for a UTC+8 source.
        DateCase("Tue Mar 05 14:03:00 CST 2024", "2024-03-05T06:03:00Z", in: .shanghai, assumed: false),
        DateCase("Tue Mar 05 14:03:00 CST 2024", "2024-03-05T20:03:00Z", in: .newYork),
        DateCase("Tue, 05 Mar 2024 14:03:00 CDT", "2024-03-05T19:03:00Z"),
        DateCase("Tue, 05 Mar 2024 14:03:00 MST", "2024-03-05T21:03:00Z"),
        DateCase("Tue, 05 Mar 2024 14:03:00 MDT", "2024-03-05T20:03:00Z"),
        DateCase("Tue, 05 Mar 2024 14:03:00 PST", "2024-03-05T22:03:00Z"),
        DateCase("Tue, 05 Mar 2024 14:03:00 PDT", "2024-03-05T21:03:00Z"),
        DateCase("Tue, 05 Mar 2024 14:03:00 GMT+8", "2024-03-05T06:03:00Z"),
        DateCase("Tue, 05 Mar 2024 14:03:00 GMT+08:00", "2024-03-05T06:03:00Z"),
        DateCase("Tue, 05 Mar 2024 14:03:00 GMT+0800", "2024-03-05T06:03:00Z"),
        DateCase("Tue, 05 Mar 2024 14:03:00 UTC+8", "2024-03-05T06:03:00Z"),
        DateCase("Tue, 05 Mar 2024 14:03:00 UTC-5", "2024-03-05T19:03:00Z"),
        DateCase("Tue, 05 Mar 2024 14:03:00 +8", "2024-03-05T06:03:00Z"),
        DateCase("Tue, 05 Mar 2024 14:03:00 CET", "2024-03-05T13:03:00Z"),
        DateCase("Tue, 05 Mar 2024 14:03:00 CEST", "2024-03-05T12:03:00Z"),
        DateCase("Tue, 05 Mar 2024 14:03:00 BST", "2024-03-05T13:03:00Z"),
        DateCase("Tue, 05 Mar 2024 14:03:00 MSK", "2024-03-05T11:03:00Z"),
        DateCase("Tue, 05 Mar 2024 14:03:00 JST", "2024-03-05T05:03:00Z"),
        DateCase("Tue, 05 Mar 2024 14:03:00 KST", "2024-03-05T05:03:00Z"),
        DateCase("Tue, 05 Mar 2024 14:03:00 IST", "2024-03-05T08:33:00Z"),
        DateCase("Tue, 05 Mar 2024 14:03:00 HKT", "2024-03-05T06:03:00Z"),
        DateCase("Tue, 05 Mar 2024 14:03:00 SGT", "2024-03-05T06:03:00Z"),
        DateCase("Tue, 05 Mar 2024 14:03:00 AEST", "2024-03-05T04:03:00Z"),
        DateCase("Tue, 05 Mar 2024 14:03:00 AEDT", "2024-03-05T03:03:00Z"),
        DateCase("Tue, 05 Mar 2024 14:03:00 NZST", "2024-03-05T02:03:00Z"),
        DateCase("Tue, 05 Mar 2024 14:03:00 +0000 GMT", "2024-03-05T14:03:00Z"),
        DateCase("05 Mar 2024 14:03 GMT", "2024-03-05T14:03:00Z"),
        DateCase("05 Mar 2024 14:03:00 +0000", "2024-03-05T14:03:00Z"),
        DateCase("Tue, 05 Mar 24 14:03:00 GMT", "2024-03-05T14:03:00Z"),
        DateCase("Fri, 05 Mar 99 14:03:00 GMT", "1999-03-05T14:03:00Z"),
        DateCase("05 Mar 49 00:00 GMT", "2049-03-05T00:00:00Z"),
        DateCase("05 Mar 50 00:00 GMT", "1950-03-05T00:00:00Z"),
        DateCase("Tue, 5 Mar 2024 14:03:00 GMT", "2024-03-05T14:03:00Z"),
        DateCase("Tues, 05 Mar 2024 14:03:00 GMT", "2024-03-05T14:03:00Z"),
        DateCase("Tuseday, 05 Mar 2024 14:03:00 GMT", "2024-03-05T14:03:00Z"),
        DateCase("Thu, 05 Mar 2024 14:03:00 GMT", "2024-03-05T14:03:00Z"),
        DateCase("Tuesday, 05 March 2024 14:03:00 GMT", "2024-03-05T14:03:00Z"),
        DateCase("Di, 05 Mär 2024 14:03:00 +0100", "2024-03-05T13:03:00Z"),
        DateCase("周二, 05 Mar 2024 14:03:00 +0800", "2024-03-05T06:03:00Z"),
        DateCase("星期二 05 Mar 2024 14:03:00 +0800", "2024-03-05T06:03:00Z"),
        DateCase("TUE, 05 MAR 2024 14:03:00 GMT", "2024-03-05T14:03:00Z"),
        DateCase("tue, 05 mar 2024 14:03:00 gmt", "2024-03-05T14:03:00Z"),
        DateCase("Sa, 05 Okt 2024 14:03:00 +0200", "2024-10-05T12:03:00Z"),
        DateCase("Do, 05 Dez 2024 10:00:00 GMT", "2024-12-05T10:00:00Z"),
        DateCase("So, 05 Mai 2024 10:00:00 GMT", "2024-05-05T10:00:00Z"),
        DateCase("mar., 05 mars 2024 14:03:00 +0100", "2024-03-05T13:03:00Z"),
        DateCase("5 janv. 2024", "2024-01-05T00:00:00Z"),
        DateCase("5 févr. 2024 08:00 GMT", "2024-02-05T08:00:00Z"),
        DateCase("5 avr. 2024", "2024-04-05T00:00:00Z"),
        DateCase("5 mai 2024", "2024-05-05T00:00:00Z"),
        DateCase("5 juin 2024", "2024-06-05T00:00:00Z"),
        DateCase("5 juil. 2024", "2024-07-05T00:00:00Z"),
        DateCase("5 août 2024", "2024-08-05T00:00:00Z"),
        DateCase("5 sept. 2024", "2024-09-05T00:00:00Z"),
        DateCase("5 oct. 2024", "2024-10-05T00:00:00Z"),
        DateCase("5 nov. 2024", "2024-11-05T00:00:00Z"),
        DateCase("5 déc. 2024", "2024-12-05T00:00:00Z"),
        DateCase("5 DÉC. 2024", "2024-12-05T00:00:00Z"),
        DateCase("5 ene 2024", "2024-01-05T00:00:00Z"),
        DateCase("5 abr 2024", "2024-04-05T00:00:00Z"),
        DateCase("5 ago 2024", "2024-08-05T00:00:00Z"),
        DateCase("5 dic 2024", "2024-12-05T00:00:00Z"),
        DateCase("  Tue,   05  Mar   2024   14:03:00   GMT  ", "2024-03-05T14:03:00Z"),
        DateCase("\u{00A0}Tue, 05 Mar 2024 14:03:00 GMT\u{00A0}\n", "2024-03-05T14:03:00Z"),
        DateCase("Tue, 05 Mar 2024 14:03:00 -0800 (PST)", "2024-03-05T22:03:00Z"),
        DateCase("05-Mar-2024 14:03:00", "2024-03-05T14:03:00Z", assumed: true),
        DateCase("Tue Mar  5 14:03:00 2024", "2024-03-05T14:03:00Z", assumed: true),
        DateCase("Tue Mar 05 2024 14:03:00 GMT+0800 (China Standard Time)", "2024-03-05T06:03:00Z"),
        DateCase("Tue Mar 05 2024 14:03:00 GMT+0800 (中国标准时间)", "2024-03-05T06:03:00Z"),
        DateCase("March 5, 2024 2:03 PM", "2024-03-05T14:03:00Z"),
        DateCase("Mar 5, 2024, 2:03 a.m. EST", "2024-03-05T07:03:00Z"),
        DateCase("Tue, 05 Mar 2024 14:03:00", "2024-03-05T06:03:00Z", in: .shanghai, assumed: true),
        DateCase("Tue, 05 Mar 2024 14:03:00", "2024-03-05T19:03:00Z", in: .newYork, assumed: true),
        DateCase("Fri, 05 Jul 2024 14:03:00", "2024-07-05T18:03:00Z", in: .newYork, assumed: true),
        DateCase("Tue, 05 Mar 2024 14:03:00 +0800", "2024-03-05T06:03:00Z", in: .newYork, assumed: false),
        DateCase("Tue, 05 Mar 2024 24:00:00 GMT", "2024-03-06T00:00:00Z"),
        DateCase("Thu, 29 Feb 2024 23:59:60 GMT", "2024-02-29T23:59:59Z"),
        DateCase("Tue, 05 Mar 2024 14:03:00.250 GMT", "2024-03-05T14:03:00.250Z"),
    ]

    @Test("RFC 822 and its mutations", arguments: rfc822Cases)
    func rfc822(_ row: DateCase) throws { try check(row) }

    static let isoCases: [DateCase] = [
        DateCase("2024-03-05T14:03:00Z", "2024-03-05T14:03:00Z", assumed: false, relative: false),
        DateCase("2024-03-05T14:03:00+08:00", "2024-03-05T06:03:00Z"),
        DateCase("2024-03-05T14:03:00-05:00", "2024-03-05T19:03:00Z"),
        DateCase("2024-03-05T14:03:00.123456789+08:00", "2024-03-05T06:03:00.123456789Z"),
        DateCase("2024-03-05T14:03:00.5Z", "2024-03-05T14:03:00.500Z"),
        DateCase("2024-03-05t14:03:00z", "2024-03-05T14:03:00Z"),
        DateCase("2024-03-05 14:03:00+0800", "2024-03-05T06:03:00Z"),
        DateCase("2024-03-05 14:03:00 GMT", "2024-03-05T14:03:00Z"),
        DateCase("2024-03-05T14:03:00+08:00", "2024-03-05T06:03:00Z", in: .newYork, assumed: false),
        DateCase("20240305T140300Z", "2024-03-05T14:03:00Z", assumed: false),
        DateCase("20240305T1403Z", "2024-03-05T14:03:00Z"),
        DateCase("20240305T140300+0800", "2024-03-05T06:03:00Z"),
        DateCase("20240305", "2024-03-04T16:00:00Z", in: .shanghai, assumed: true),
        DateCase("2024-03-05", "2024-03-05T00:00:00Z", assumed: true),
        DateCase("2024-03-05", "2024-03-04T16:00:00Z", in: .shanghai, assumed: true),
        DateCase("2024-03-05T14:03", "2024-03-05T19:03:00Z", in: .newYork, assumed: true),
        DateCase("2024-07-05T14:03:00", "2024-07-05T18:03:00Z", in: .newYork, assumed: true),
        DateCase("2024-03-05T24:00:00Z", "2024-03-06T00:00:00Z"),
        DateCase("2024-03-05T14:03:60Z", "2024-03-05T14:03:59Z"),
        DateCase("2024-3-5T14:03:00+08:00", "2024-03-05T06:03:00Z"),
        DateCase(" 2024-03-05T14:03:00Z\n", "2024-03-05T14:03:00Z"),
        DateCase("\u{00A0}2024-03-05T14:03:00+08:00\u{3000}", "2024-03-05T06:03:00Z"),
    ]

    @Test("RFC 3339 and ISO 8601", arguments: isoCases)
    func iso8601(_ row: DateCase) throws { try check(row) }

    static let nonStandardCases: [DateCase] = [
        DateCase("2016-11-10 12:00:00", "2016-11-10T12:00:00Z", assumed: true),
        DateCase("2016-11-10 12:00:00", "2016-11-10T04:00:00Z", in: .shanghai, assumed: true),
        DateCase("2016/6/29 15:07:41", "2016-06-29T15:07:41Z"),
        DateCase("2016/06/29", "2016-06-29T00:00:00Z"),
        DateCase("2016.06.29 15:07", "2016-06-29T15:07:00Z"),
        DateCase("29.06.2016 15:07", "2016-06-29T15:07:00Z"),
        DateCase("29.06.2016", "2016-06-28T16:00:00Z", in: .shanghai),
        DateCase("6/29/2016", "2016-06-29T00:00:00Z"),
        DateCase("29/6/2016", "2016-06-29T00:00:00Z"),
        DateCase("03/05/2024", "2024-03-05T00:00:00Z"),
        DateCase("05.03.2024", "2024-03-05T00:00:00Z"),
        DateCase("3/5/24 2:03 PM", "2024-03-05T14:03:00Z"),
        DateCase("2016-1-5 8:05", "2016-01-05T08:05:00Z"),
        DateCase("2016-11-10 12:00:00 +0800", "2016-11-10T04:00:00Z", in: .newYork, assumed: false),
        DateCase("1500282425", "2017-07-17T09:07:05Z", in: .shanghai, assumed: false, relative: false),
        DateCase("1500282425123", "2017-07-17T09:07:05.123Z"),
        DateCase("150028242", "1974-10-03T10:30:42Z"),
        DateCase("1500282425.5", "2017-07-17T09:07:05.500Z"),
        DateCase("20240305140300", "2024-03-05T14:03:00Z"),
        DateCase("5th March 2024", "2024-03-05T00:00:00Z"),
        DateCase("March 5th, 2024 at 2:03 pm", "2024-03-05T14:03:00Z"),
        DateCase("5 de marzo de 2024 14:03", "2024-03-05T14:03:00Z"),
        DateCase("5. März 2024 um 14:03", "2024-03-05T14:03:00Z", assumed: true),
    ]

    @Test("common non-standard forms", arguments: nonStandardCases)
    func nonStandard(_ row: DateCase) throws { try check(row) }

    static let daylightSavingCases: [DateCase] = [
        // 02:00–03:00 does not exist in New York on 2024-03-10: read as 03:30 EDT.
        DateCase("2024-03-10 02:30:00", "2024-03-10T07:30:00Z", in: .newYork, assumed: true),
        DateCase("Sun, 10 Mar 2024 02:30:00", "2024-03-10T07:30:00Z", in: .newYork),
        DateCase("10.03.2024 02:30", "2024-03-10T07:30:00Z", in: .newYork),
        DateCase("2024-03-10 01:59:59", "2024-03-10T06:59:59Z", in: .newYork),
        DateCase("2024-03-10 03:00:00", "2024-03-10T07:00:00Z", in: .newYork),
        // 01:00–02:00 happens twice on 2024-11-03: the first (EDT) is taken.
        DateCase("2024-11-03 01:30:00", "2024-11-03T05:30:00Z", in: .newYork),
        DateCase("2024-11-03 02:30:00", "2024-11-03T07:30:00Z", in: .newYork),
        DateCase("2024-03-10 02:30:00", "2024-03-10T02:30:00Z", in: .utc),
    ]

    @Test("zone-less times around New York's DST changes", arguments: daylightSavingCases)
    func daylightSaving(_ row: DateCase) throws { try check(row) }

    static let chineseCases: [DateCase] = [
        DateCase("2024年3月5日 14:03", "2024-03-05T06:03:00Z", in: .shanghai, assumed: true, relative: false),
        DateCase("2024年03月05日 14时03分", "2024-03-05T06:03:00Z", in: .shanghai),
        DateCase("2024年03月05日 14时03分05秒", "2024-03-05T06:03:05Z", in: .shanghai),
        DateCase("2024年3月5日", "2024-03-04T16:00:00Z", in: .shanghai, assumed: true),
        DateCase("24年3月5日", "2024-03-04T16:00:00Z", in: .shanghai),
        DateCase("2024年3月5日 14:03", "2024-03-05T14:03:00Z", in: .utc),
        DateCase("３月５日 14:03", "2024-03-05T06:03:00Z", in: .shanghai),
        DateCase("3月5日 14:03", "2024-03-05T06:03:00Z", in: .shanghai, assumed: true, relative: false),
        DateCase("3月11日 08:00", "2024-03-11T00:00:00Z", in: .shanghai),
        DateCase("3月12日 08:00", "2023-03-12T00:00:00Z", in: .shanghai),
        DateCase("12月31日", "2023-12-30T16:00:00Z", in: .shanghai),
        DateCase("２０２４年３月５日 １４：０３", "2024-03-05T06:03:00Z", in: .shanghai),
        DateCase("2024年3月5日 下午2:03", "2024-03-05T06:03:00Z", in: .shanghai),
        DateCase("2024年3月5日 上午10:30", "2024-03-05T02:30:00Z", in: .shanghai),
        DateCase("2024年3月5日下午2点", "2024-03-05T06:00:00Z", in: .shanghai),
        DateCase("2024年3月5日 晚上8点半", "2024-03-05T12:30:00Z", in: .shanghai),
        DateCase("2024年3月5日 中午12:30", "2024-03-05T04:30:00Z", in: .shanghai),
        DateCase("2024年3月5日 星期二 14:03", "2024-03-05T06:03:00Z", in: .shanghai),
        DateCase("2024-03-05 14:03（周二）", "2024-03-05T06:03:00Z", in: .shanghai),
        DateCase("3分钟前", "2024-03-10T03:57:00Z", in: .shanghai, assumed: false, relative: true),
        DateCase("3 分钟前", "2024-03-10T03:57:00Z", in: .shanghai),
        DateCase("10秒前", "2024-03-10T03:59:50Z", in: .shanghai, relative: true),
        DateCase("刚刚", "2024-03-10T04:00:00Z", in: .shanghai, assumed: false, relative: true),
        DateCase("5小时前", "2024-03-09T23:00:00Z", in: .shanghai, relative: true),
        DateCase("2天前", "2024-03-08T04:00:00Z", in: .shanghai),
        DateCase("两天前", "2024-03-08T04:00:00Z", in: .shanghai),
        DateCase("1周前", "2024-03-03T04:00:00Z", in: .shanghai),
        DateCase("半小时前", "2024-03-10T03:30:00Z", in: .shanghai),
        DateCase("半个小时前", "2024-03-10T03:30:00Z", in: .shanghai),
        DateCase("1个月前", "2024-02-09T04:00:00Z", in: .shanghai),
        DateCase("今天 09:30", "2024-03-10T01:30:00Z", in: .shanghai, assumed: true, relative: true),
        DateCase("昨天 08:00", "2024-03-09T00:00:00Z", in: .shanghai, assumed: true, relative: true),
        DateCase("前天 10:00", "2024-03-08T02:00:00Z", in: .shanghai, relative: true),
        DateCase("昨天", "2024-03-09T04:00:00Z", in: .shanghai, relative: true),
        DateCase("昨天 下午3:15", "2024-03-09T07:15:00Z", in: .shanghai),
        DateCase("昨天 08:00", "2024-03-08T13:00:00Z", in: .newYork, relative: true),
        DateCase("今天 09:30", "2024-03-09T14:30:00Z", in: .newYork, relative: true),
    ]

    @Test("Chinese dates, times and relative forms", arguments: chineseCases)
    func chinese(_ row: DateCase) throws { try check(row) }

    /// A zone in the text also decides which day "today" is (UTC, not New York, below).
    static let englishRelativeCases: [DateCase] = [
        DateCase("5 minutes ago", "2024-03-10T03:55:00Z", assumed: false, relative: true),
        DateCase("5 Minutes Ago", "2024-03-10T03:55:00Z"),
        DateCase("1 hour ago", "2024-03-10T03:00:00Z", relative: true),
        DateCase("an hour ago", "2024-03-10T03:00:00Z", relative: true),
        DateCase("a minute ago", "2024-03-10T03:59:00Z"),
        DateCase("2 days ago", "2024-03-08T04:00:00Z", in: .shanghai, relative: true),
        DateCase("3 weeks ago", "2024-02-18T04:00:00Z"),
        DateCase("5m ago", "2024-03-10T03:55:00Z"),
        DateCase("1 hour 30 minutes ago", "2024-03-10T02:30:00Z"),
        DateCase("a few seconds ago", "2024-03-10T03:59:57Z"),
        DateCase("yesterday", "2024-03-09T04:00:00Z", assumed: false, relative: true),
        DateCase("just now", "2024-03-10T04:00:00Z", relative: true),
        DateCase("now", "2024-03-10T04:00:00Z", relative: true),
        DateCase("today", "2024-03-10T04:00:00Z", relative: true),
        DateCase("Yesterday at 08:00", "2024-03-09T08:00:00Z", assumed: true, relative: true),
        DateCase("Yesterday, 8:00 PM", "2024-03-09T20:00:00Z", relative: true),
        DateCase("today 09:30", "2024-03-10T09:30:00Z", relative: true),
        DateCase("today 09:30 UTC", "2024-03-10T09:30:00Z", in: .newYork, assumed: false, relative: true),
    ]

    @Test("English relative forms", arguments: englishRelativeCases)
    func englishRelative(_ row: DateCase) throws { try check(row) }

    static let garbageCases: [DateCase] = [
        DateCase("", nil),
        DateCase("   ", nil),
        DateCase("\u{00A0}\n", nil),
        DateCase("soon", nil),
        DateCase("2024-13-45", nil),
        DateCase("32 Mar 2024", nil),
        DateCase("Tue, 05 Foo 2024", nil),
        DateCase("99:99", nil),
        DateCase("42", nil),
        DateCase("14:03", nil),
        DateCase("2024", nil),
        DateCase("Mar 2024", nil),
        DateCase("2024/3", nil),
        DateCase("3/5", nil),
        DateCase("Tue, 30 Feb 2024 10:00:00 GMT", nil),
        DateCase("2023-02-29", nil),
        DateCase("2024-02-30T10:00:00Z", nil),
        DateCase("0000-00-00 00:00:00", nil),
        DateCase("2024-03-05T25:00:00Z", nil),
        DateCase("2024-03-05T14:60:00Z", nil),
        DateCase("Tue, 05 Mar 2024 24:30:00 GMT", nil),
        DateCase("Tue, 05 Mar 2024 14:03:00 +2500", nil),
        DateCase("Tue, 05 Mar 2024 14:03:00 Foo", nil),
        DateCase("2024-03-05T14:03:00Z trailing", nil),
        DateCase("05 Mar 2024 05 Apr 2024", nil),
        DateCase("5 Mar 2024 13:00 AM", nil),
        DateCase("hello world", nil),
        DateCase("N/A", nil),
        DateCase("-", nil),
        DateCase("yesterday foo", nil),
        DateCase("5 parsecs ago", nil),
        DateCase("in 5 minutes", nil),
        DateCase("12345678901", nil),
        DateCase("1234567890123456789012345", nil),
        DateCase("2024年13月5日", nil, in: .shanghai),
        DateCase("前", nil, in: .shanghai),
        DateCase("分钟前", nil, in: .shanghai),
        DateCase("下午 2:03", nil, in: .shanghai),
        DateCase("明天 08:00", nil, in: .shanghai),
        DateCase(String(repeating: "5 Mar 2024 ", count: 40), nil),
    ]

    @Test("garbage gives nil, never now", arguments: garbageCases)
    func garbage(_ row: DateCase) throws { try check(row) }

    @Test(
        "years before 1000 are placeholders for no date (Hugo, PHP/MySQL, year zero): nil, and said so",
        arguments: [
            "Mon, 01 Jan 0001 00:00:00 +0000", "Mon, 30 Nov -0001 00:00:00 +0000", "0000-01-01T00:00:00Z", "0001-01-01T00:00:00Z",
            "0999-12-31T23:59:59Z", "30 Nov -0001",
        ])
    func placeholderYears(_ text: String) {
        let parser = DateParser(now: fixedNow)
        #expect(parser.parse(text) == nil)
        #expect(parser.isPlaceholder(text))
    }

    @Test("the year 1000 is the first taken; garbage is no placeholder")
    func earliestYear() {
        let parser = DateParser(now: fixedNow)
        #expect(parser.parse("1000-01-01T00:00:00Z") == DateParser.earliest)
        #expect(RFC3339.string(from: DateParser.earliest) == "1000-01-01T00:00:00Z")
        #expect(!parser.isPlaceholder("2024-03-05T14:03:00Z"))
        #expect(!parser.isPlaceholder("not a date"))
    }

    @Test("changing timeZone after init is honoured")
    func zoneChange() throws {
        var parser = DateParser(now: fixedNow)
        #expect(parser.parse("2024-03-05 14:03") == RFC3339.date(from: "2024-03-05T14:03:00Z"))
        parser.timeZone = try #require(TimeZone(identifier: "Asia/Shanghai"))
        #expect(parser.parse("2024-03-05 14:03") == RFC3339.date(from: "2024-03-05T06:03:00Z"))
        parser.timeZone = try #require(TimeZone(secondsFromGMT: -3600))
        #expect(parser.parse("2024-03-05 14:03") == RFC3339.date(from: "2024-03-05T15:03:00Z"))
    }

    @Test("the parser is Sendable and gives the same answers from many tasks")
    func concurrentUse() async {
        let parser = DateParser(timeZone: .gmt, now: fixedNow)
        let expected = RFC3339.date(from: "2024-03-05T06:03:00Z")
        let results = await withTaskGroup(of: Date?.self) { group in
            for _ in 0..<8 {
                group.addTask { parser.parse("Tue, 05 Mar 2024 14:03:00 +0800") }
            }
            var all: [Date?] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 8)
        #expect(results.allSatisfy { $0 == expected })
    }
}
