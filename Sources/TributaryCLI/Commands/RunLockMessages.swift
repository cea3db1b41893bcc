import TributaryCore
import TributaryState

/// What `run` says about the state's lock: that it waits for another run, and why it could not
/// take the lock, with what to do about it. Lines come without the program name.
enum RunLockMessages {
    /// `waiting for the lock FILE held by PID 123 (at most 1h)`, said once as a wait starts.
    static func waiting(path: String, holder: Int32?, wait: Duration) -> String {
        "waiting for the lock \(path)" + (holder.map { " held by PID \($0)" } ?? "") + " (at most \(DurationParser.format(wait)))"
    }

    /// The failure, then what to do: wait (when no wait was asked for), or make the lock file usable.
    /// `wait` is how long the run was asked to wait.
    static func failure(_ failure: RunLock.Failure, wait: Duration) -> String {
        switch failure {
        case .held(let path, let pid):
            let holder = pid.map { " (PID \($0))" } ?? ""
            if wait == .zero { return "another run holds the lock \(path)\(holder); use --wait to wait for it to finish" }
            return "another run still holds the lock \(path)\(holder) after waiting \(DurationParser.format(wait))"
        case .unusable:
            return failure.description
                + "; the lock file and its folder must be writable by the user running \(CommandLineTool.programName) "
                + "(on a disk that is not read-only); or use --state FILE or --no-state"
        case .interrupted:
            return failure.description
        }
    }
}
