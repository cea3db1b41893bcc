import Glibc

extension Duration {
    /// The duration in seconds, fractions included.
    public var inSeconds: Double {
        // `components` divides a 128-bit count each time it is read: once here.
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The duration in whole milliseconds (rounded down).
    public var inMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    /// `0.12 s`, as reports print durations.
    public var secondsText: String {
        let hundredths = Int((inSeconds * 100).rounded())
        return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100) s"
    }
}

/// The CPU time the whole process has used so far, all threads together: with the wall time it
/// tells whether a stage of a run kept the cores busy or waited (for the network or the disk).
enum ProcessCPUTime {
    static var now: Duration {
        var spec = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
        return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
    }
}
