import CTributaryProcess
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// What the programs of `command` sources leave behind, and when it is ended.
///
/// A program may start processes that outlive it: a `sleep 100 &` in its process group that does
/// not hold its output, or a daemon that left the group with `setsid` (after a double fork, or
/// not). Once the executable allowed it (``allowAdoption()``), this process makes itself the child
/// subreaper right before its first command starts: such a process, when its parent ends, becomes
/// a child of this one instead of init's. Then, whenever the last running command ends, every
/// child of this process is something a command left behind (the executable starts no other
/// children, and each command's own process is reaped before it counts as ended), except the
/// children it had before it became the subreaper (a shell's, when the shell `exec`ed it) and
/// processes in its own process group (each command runs in a group of its own, and what it
/// starts stays there or makes one of its own): CTributaryProcess leaves those out. The rest is killed
/// with SIGKILL and reaped, round after round, since the children of each come to this process as
/// it dies. While a command runs, what another one left cannot be told from what the running one
/// still uses, so it waits for the next such moment: at the latest the end of a run's fetching,
/// which awaits every source. When a signal ends the run, the handler in CTributaryProcess kills
/// them instead.
///
/// Thread-safe: the state is behind a mutex, and one thread at a time sweeps.
final class CommandLeftovers: Sendable {
    /// The process's: there is one subreaper flag and one set of children per process.
    static let shared = CommandLeftovers()

    private struct State {
        /// Whether the executable allowed this process to become the subreaper.
        var allowed = false
        /// Whether it became one: what commands leave behind then comes to it.
        var adopting = false
        /// The commands counted from before their start to after their process was reaped.
        var running = 0
        /// How many commands were counted in so far: a sweep kills what it found only when none started meanwhile.
        var started = 0
        /// Whether a thread is sweeping.
        var sweeping = false
        /// Whether the last running command ended again while a thread was sweeping: that thread sweeps once more.
        var sweepAgain = false
    }

    private let state = Mutex(State())

    /// Lets this process become the child subreaper at its first command, and kill whatever
    /// becomes its child when no command runs. Only for a process that starts no other children.
    func allowAdoption() {
        state.withLock { $0.allowed = true }
    }

    /// Whether what commands leave behind comes to this process, to be killed once no command runs.
    var adopts: Bool {
        state.withLock { $0.adopting }
    }

    /// Counts a command in; call before starting it. The first one makes this process the
    /// subreaper, when that is allowed.
    func commandStarting() {
        state.withLock { state in
            state.running += 1
            state.started &+= 1
            if state.allowed, !state.adopting { state.adopting = tributary_process_become_subreaper() == 0 }
        }
    }

    /// Counts a command out; call once its process was reaped, or when it did not start. When no
    /// other command runs, kills and reaps what the commands left behind before returning.
    func commandEnded() {
        let sweeps = state.withLock { state in
            state.running -= 1
            guard state.running == 0, state.adopting else { return false }
            guard !state.sweeping else {
                state.sweepAgain = true
                return false
            }
            state.sweeping = true
            return true
        }
        guard sweeps else { return }
        repeat {
            sweep()
        } while state.withLock { state in
            // A command that is running now sweeps when it ends.
            let again = state.sweepAgain && state.running == 0
            state.sweepAgain = false
            state.sweeping = again
            return again
        }
    }

    /// Kills and reaps this process's children, round after round, until there are none or a
    /// command starts; then reaps the children that are not a command's and have ended.
    private func sweep() {
        defer { _ = tributary_process_reap_others() }
        while let started = state.withLock({ $0.running == 0 ? $0.started : nil }) {
            let children = Self.children()
            let killed = state.withLock { state -> [pid_t] in
                // A command started since the scan could be among them, or have taken the pid of one
                // that ended: its end sweeps instead. Otherwise no one else reaps these pids, so
                // none can have been reused.
                guard state.running == 0, state.started == started else { return [] }
                for pid in children { kill(pid, SIGKILL) }
                return children
            }
            if killed.isEmpty { return }
            for pid in killed {
                while waitpid(pid, nil, 0) < 0, errno == EINTR {}
            }
        }
    }

    /// The pids of this process's children, zombies included; none when /proc cannot be read.
    private static func children() -> [pid_t] {
        var pids = [pid_t](repeating: 0, count: 64)
        while true {
            let count = Int(pids.withUnsafeMutableBufferPointer { tributary_process_children($0.baseAddress, Int32($0.count)) })
            if count < 0 { return [] }
            if count <= pids.count { return Array(pids.prefix(count)) }
            pids = [pid_t](repeating: 0, count: count + 64)
        }
    }
}
