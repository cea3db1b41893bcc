public import Foundation
public import TributaryState

/// When a source is fetched: at every run, unless it is healthy and its `interval` since the last attempt has not
/// passed, or it fails and the server asked for a pause (`Retry-After`) or repeated failures back it off. A run from
/// cron every few minutes then asks a server that is down, or that said "not before an hour", far less often.
public enum FetchSchedule {
    /// Why a source is not fetched now, and until when.
    public struct Wait: Sendable, Hashable {
        /// When the source is due.
        public var until: Date
        /// Why it waits, for the report: `interval 1h`, `Retry-After`, `backoff after 4 failures`.
        public var reason: String

        /// A wait until `until`, for `reason`.
        public init(until: Date, reason: String) {
            self.until = until
            self.reason = reason
        }

        /// The wait of a source that failed `failures` times in a row.
        init(_ deferral: StoredDeferral, failures: Int) {
            until = deferral.until
            reason =
                switch deferral.reason {
                case .retryAfter: "Retry-After"
                case .backoff: "backoff after \(failures) failure\(failures == 1 ? "" : "s")"
                }
        }

        /// A healthy source's wait for its interval.
        init(until: Date, interval: Duration) {
            self.until = until
            reason = "interval \(DurationParser.format(interval))"
        }
    }

    /// Failures in a row before a source waits: one or two are often passing (a restart, a timeout).
    static let failuresBeforeBackoff = 3
    /// The first wait; each further failure doubles it, up to the source's `backoff`.
    public static let firstBackoff: Duration = .seconds(15 * 60)
    /// The longest wait a server's `Retry-After` gets.
    static let longestRetryAfter: Duration = .seconds(24 * 3600)

    /// Until when `source` waits at `now`, and why; nil when it is due. A wait recorded for other settings of the
    /// source (its URL corrected, a longer timeout, `insecure`; ``SourceConfig/scheduleDigest``) no longer holds, and neither does anything counted from an attempt "after" now
    /// (made while the clock ran ahead).
    /// `digest` is the source's ``SourceConfig/scheduleDigest`` when the caller has it already.
    public static func wait(_ history: SourceHistory?, for source: SourceConfig, now: Date, digest: String? = nil) -> Wait? {
        guard let history, let lastAttempt = history.lastAttempt, lastAttempt <= now,
            history.attemptSettings == digest ?? source.scheduleDigest
        else { return nil }
        if history.consecutiveFailures > 0 {
            guard let deferral = history.deferral, deferral.until > now,
                deferral.until.timeIntervalSince(lastAttempt) <= max(longestRetryAfter, source.backoff ?? .zero).inSeconds
            else { return nil }
            // A backoff, like an interval, is on time a little early (cron's runs start a moment apart: without it a
            // run a few milliseconds earlier in its minute waited a whole further period). A server's Retry-After
            // is kept to the second.
            if deferral.reason == .backoff, now >= deferral.until.addingTimeInterval(-slack(deferral.until.timeIntervalSince(lastAttempt)))
            {
                return nil
            }
            return Wait(deferral, failures: history.consecutiveFailures)
        }
        guard let interval = source.interval else { return nil }
        let due = lastAttempt.addingTimeInterval(interval.inSeconds)
        // A little early is on time: runs from cron every `interval` start a moment apart from one another.
        guard now < due.addingTimeInterval(-slack(interval.inSeconds)) else { return nil }
        return Wait(until: due, interval: interval)
    }

    /// How early a wait of `seconds` is over: a tenth of it, at most a minute.
    static func slack(_ seconds: TimeInterval) -> TimeInterval {
        min(seconds / 10, 60)
    }

    /// When `source`, which has now failed `failures` times in a row, may be asked again: after the server's
    /// `Retry-After` (at most a day), and from the third failure in a row after a wait that starts at 15 minutes and
    /// doubles with each failure, up to the source's `backoff`; whichever is later. Nil: at the next run.
    public static func afterFailure(_ failures: Int, retryAfter: Date?, source: SourceConfig, now: Date) -> StoredDeferral? {
        var deferral: StoredDeferral?
        if let backoff = source.backoff, failures >= failuresBeforeBackoff {
            let doublings = min(failures - failuresBeforeBackoff, 20)
            let wait = min(firstBackoff * (1 << doublings), backoff)
            deferral = StoredDeferral(until: now.addingTimeInterval(wait.inSeconds), reason: .backoff)
        }
        if let retryAfter, retryAfter > now, retryAfter > deferral?.until ?? .distantPast {
            let until = min(retryAfter, now.addingTimeInterval(longestRetryAfter.inSeconds))
            deferral = StoredDeferral(until: until, reason: .retryAfter)
        }
        return deferral
    }
}
