/// The documented exit codes of `tributary`, so that cron jobs and scripts can tell outcomes apart.
public enum ExitStatus: Int32, Sendable, Hashable, CaseIterable {
    /// Every source was read and every output written.
    case success = 0
    /// The configuration or the command line is wrong; nothing was fetched or written.
    case usage = 1
    /// Some sources failed; the outputs were written from the others.
    case partialFailure = 2
    /// Nothing could be produced: every source failed, or no output could be written.
    case nothingProduced = 3
    /// Another run holds the state's lock (and `--wait` was not given, or ran out); nothing was done.
    case locked = 4
    /// The state file cannot be used (damaged, newer schema, unwritable); see `--reset-state`.
    case stateUnusable = 5
}
