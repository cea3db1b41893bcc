import Foundation

/// When and how long to wait before trying a request again.
enum RetryPolicy {
    /// Statuses worth another attempt: the server is busy or failed, not the request.
    static func isRetryable(status: Int) -> Bool {
        status == 408 || status == 429 || (500...599).contains(status) && status != 501
    }

    /// `base × 2^attempt`, capped, scaled by a random factor in 0.5…1 so that many clients
    /// retrying at once spread out.
    static func backoff(attempt: Int, base: Duration, cap: Duration) -> Duration {
        let exponential = base * Double(1 << min(attempt, 20))
        let capped = min(exponential, cap)
        return capped * Double.random(in: 0.5...1.0)
    }

    /// The wait a `Retry-After` header asks for: delta-seconds or an HTTP date (RFC 9110 §10.2.3).
    static func retryAfter(_ value: String?, now: Date) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value) { return .seconds(max(0, seconds)) }
        guard let date = HTTPDate.parse(value) else { return nil }
        return .milliseconds(max(0, Int64(date.timeIntervalSince(now) * 1000)))
    }
}

/// The IMF-fixdate form of HTTP dates: `Sun, 06 Nov 1994 08:49:37 GMT`.
enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    static func parse(_ text: String) -> Date? {
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
