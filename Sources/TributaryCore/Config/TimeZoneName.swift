import Foundation

/// Checks that a configuration names a time zone by its IANA name (`Asia/Shanghai`, `UTC`).
///
/// Foundation's `TimeZone(identifier:)` also takes ICU's legacy abbreviations, which are not IANA names and are
/// ambiguous: `CST` becomes Chicago (China Standard Time to most Chinese sources), `BST` Dhaka, `IST` Kolkata.
public enum TimeZoneName {
    /// The IANA names without a `/` (the rest are `Area/Location` or `Etc/…`), from the tz database's `backward`
    /// and main files; any other single word Foundation knows is an ICU abbreviation.
    static let singleWordNames: Set<String> = [
        "CET", "CST6CDT", "Cuba", "EET", "EST", "EST5EDT", "Egypt", "Eire", "GB", "GB-Eire", "GMT", "GMT+0", "GMT-0", "GMT0",
        "Greenwich", "HST", "Hongkong", "Iceland", "Iran", "Israel", "Jamaica", "Japan", "Kwajalein", "Libya", "MET", "MST",
        "MST7MDT", "NZ", "NZ-CHAT", "Navajo", "PRC", "PST8PDT", "Poland", "Portugal", "ROC", "ROK", "Singapore", "Turkey",
        "UCT", "UTC", "Universal", "W-SU", "WET", "Zulu",
    ]

    /// Whether a name Foundation knows is an IANA name rather than an ICU abbreviation.
    private static func isIANAName(_ name: String) -> Bool {
        name.contains("/") || singleWordNames.contains(name)
    }

    /// What common abbreviations may mean, most likely first, as IANA names.
    static let abbreviations: [String: String] = [
        "CST": "Asia/Shanghai (China) or America/Chicago (US Central)",
        "CDT": "America/Chicago (US Central)",
        "BST": "Europe/London (British Summer Time) or Asia/Dhaka (Bangladesh)",
        "IST": "Asia/Kolkata (India), Europe/Dublin (Ireland) or Asia/Jerusalem (Israel)",
        "PST": "America/Los_Angeles (US Pacific) or Asia/Manila (Philippines)",
        "PDT": "America/Los_Angeles (US Pacific)",
        "EDT": "America/New_York (US Eastern)",
        "MDT": "America/Denver (US Mountain)",
        "JST": "Asia/Tokyo",
        "KST": "Asia/Seoul",
        "HKT": "Asia/Hong_Kong",
        "SGT": "Asia/Singapore",
        "CTT": "Asia/Shanghai",
        "MSK": "Europe/Moscow",
        "CEST": "Europe/Berlin or another Central European zone",
        "AEST": "Australia/Sydney",
        "AST": "America/Halifax (Atlantic) or Asia/Riyadh (Arabia)",
    ]

    /// Why `name` is not an IANA time zone name, as the end of a message (`unknown time zone 'X'; …`), or nil when it is
    /// one.
    public static func problem(_ name: String) -> String? {
        let known = TimeZone(identifier: name) != nil
        if known, isIANAName(name) { return nil }
        if let meaning = abbreviations[name.uppercased()] {
            return "'\(name)' is an abbreviation, not an IANA time zone name; write \(meaning)"
        }
        if known {
            return "'\(name)' is an abbreviation, not an IANA time zone name; write the zone's Area/Location name, such as Asia/Shanghai"
        }
        var message = "unknown time zone '\(name)'"
        if let suggestion = Spelling.suggestion(for: name, among: TimeZone.knownTimeZoneIdentifiers.filter(isIANAName)) {
            message += "; did you mean '\(suggestion)'?"
        } else {
            message += " (expected an IANA name such as Asia/Shanghai or UTC)"
        }
        return message
    }
}
