package import Foundation

extension FetchResponse {
    /// The wait this response's `Retry-After` header asks for, with a 429 or a 503 (RFC 9110 §10.2.3), counted from
    /// now; nil without one, or with any other status (every response is asked: nothing is looked up for those).
    package var retryAfter: Duration? {
        guard status == 429 || status == 503 else { return nil }
        return Self.retryAfter(header("Retry-After"), now: Date())
    }

    /// The wait a `Retry-After` header asks for: delta-seconds or an HTTP date (RFC 9110 §10.2.3).
    package static func retryAfter(_ value: String?, now: Date) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value) { return .seconds(max(0, seconds)) }
        guard let date = HTTPDate.parse(value) else { return nil }
        return .milliseconds(max(0, Int64(date.timeIntervalSince(now) * 1000)))
    }
}

/// The IMF-fixdate form of HTTP dates: `Sun, 06 Nov 1994 08:49:37 GMT`.
package enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    package static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5].uppercased() == "GMT", let day = Int(parts[1]),
            let month = months.firstIndex(of: parts[2].lowercased()), let year = Int(parts[3])
        else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar.date(
            from: DateComponents(year: year, month: month + 1, day: day, hour: clock[0], minute: clock[1], second: clock[2]))
    }
}
