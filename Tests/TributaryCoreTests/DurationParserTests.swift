import Testing
import TributaryCore

@Suite("Durations")
struct DurationParserTests {
    @Test(
        "valid durations",
        arguments: [
            ("500ms", Duration.milliseconds(500)),
            ("30s", .seconds(30)),
            ("5m", .seconds(300)),
            ("1h", .seconds(3600)),
            ("2d", .seconds(172_800)),
            ("1w", .seconds(604_800)),
            ("1h30m", .seconds(5400)),
            ("1d2h3m4s5ms", .milliseconds(93_784_005)),
            ("45", .seconds(45)),  // a bare number is seconds
            ("0", .zero),
            ("0.25", .milliseconds(250)),
            ("1.5s", .milliseconds(1500)),
            ("1.5h", .seconds(5400)),
            ("90sec", .seconds(90)),
            ("2mins", .seconds(120)),
            ("3hrs", .seconds(10_800)),
            ("  30s  ", .seconds(30)),  // surrounding spaces are trimmed
        ])
    func valid(_ text: String, _ expected: Duration) {
        #expect(DurationParser.parse(text) == expected)
    }

    @Test(
        "invalid durations",
        arguments: [
            "", "   ", "s", "ms", "5x", "-5s", "-5", "5 m", "1h 30m", "5S", "1.2.3s", "5m!", "h1", "1,5s", "nan", "inf", "½s",
        ])
    func invalid(_ text: String) {
        #expect(DurationParser.parse(text) == nil)
    }

    @Test(
        "durations longer than the maximum are too large, not a crash",
        arguments: ["1e16", "1e300", "1e400", "20000000000000000", "9223372036854775807", "999999999999999999h", "36501d", "36500d1ms"])
    func tooLarge(_ text: String) {
        #expect(DurationParser.read(text) == .failure(.tooLarge))
        #expect(DurationParser.parse(text) == nil)
    }

    @Test("the maximum itself is accepted")
    func maximum() {
        #expect(DurationParser.read("36500d") == .success(DurationParser.maximum))
        #expect(DurationParser.read("soon") == .failure(.invalid))
    }

    @Test(
        "format",
        arguments: [
            (Duration.zero, "0s"),
            (.milliseconds(500), "500ms"),
            (.seconds(30), "30s"),
            (.seconds(300), "5m"),
            (.seconds(5400), "1h30m"),
            (.milliseconds(1500), "1s500ms"),
            (.seconds(172_800), "2d"),
            (.seconds(604_800), "7d"),  // weeks are written as days
            (.milliseconds(93_784_005), "1d2h3m4s5ms"),
            (.microseconds(1500), "1ms"),  // below a millisecond is dropped
        ])
    func format(_ duration: Duration, _ expected: String) {
        #expect(DurationParser.format(duration) == expected)
    }

    @Test(
        "format and parse round-trip",
        arguments: [Duration.milliseconds(1), .milliseconds(999), .seconds(59), .seconds(3661), .milliseconds(90_061_001)])
    func roundTrip(_ duration: Duration) {
        #expect(DurationParser.parse(DurationParser.format(duration)) == duration)
    }
}

@Suite("Duration units")
struct DurationUnitsTests {
    @Test(arguments: [
        (Duration.milliseconds(1500), 1.5, Int64(1500), "1.50 s"), (.milliseconds(7), 0.007, 7, "0.01 s"), (.seconds(0), 0, 0, "0.00 s"),
        (.seconds(125), 125, 125_000, "125.00 s"),
    ])
    func units(_ duration: Duration, _ seconds: Double, _ milliseconds: Int64, _ text: String) {
        #expect(duration.inSeconds == seconds)
        #expect(duration.inMilliseconds == milliseconds)
        #expect(duration.secondsText == text)
    }
}
