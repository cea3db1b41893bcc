import CTributaryProcess
import Foundation
import Synchronization
import TributaryCore

#if canImport(Glibc)
    import Glibc
#endif

/// Runs an external program without a shell: argument list, working folder, a fixed
/// environment, standard input from `/dev/null`, a time limit and a cap on standard output.
///
/// The child gets an empty signal mask and default handlers (a child started from a Swift
/// cooperative thread would otherwise inherit blocked signals) and a process group of its own,
/// so that at the time limit, or when its output passes the cap, the whole group — the script and
/// anything it started — is killed with SIGKILL. The group is killed too when Tributary dies of
/// SIGTERM, SIGINT or SIGHUP while it runs (see CTributaryProcess), rather than left running
/// under init. Output is read on a thread of its own with `poll`, so a command never blocks
/// Swift's cooperative pool.
///
/// The program's output is what it printed before it exited: when it exits but something it
/// started (`sleep 100 &`) still holds its standard output or error open, the pipes get
/// `exitGrace` to close, then the rest of the group is killed and the output used as it is.
/// A process that left the group (a daemon that called `setsid`) is out of the group's reach;
/// in the executable, it is killed with everything else the program left behind once no command
/// runs (see CommandLeftovers).
struct CommandRunner: Sendable {
    /// What a run produced.
    struct Outcome: Sendable {
        /// The exit status, or nil when a signal ended the program.
        var status: Int32?
        /// The signal that ended it, when one did.
        var signal: Int32?
        /// Standard output, at most `maxOutput` bytes.
        var output: [UInt8]
        /// Standard error, at most `maxErrorBytes` bytes (the start of it).
        var errorText: String
        /// Whether it was killed at the time limit.
        var timedOut: Bool
        /// Whether it was killed because its output passed the cap.
        var overflowed: Bool
        /// What became of processes that still held its output after it exited, when some did.
        var leftBehind: LeftBehind?
    }

    /// Processes the program left behind holding its standard output or error open.
    enum LeftBehind: Sendable, Equatable {
        /// They were in its process group and were killed; the pipes then closed.
        case killed
        /// The pipes stayed open after its process group was killed: a process outside the group
        /// (a daemon in a session of its own) holds them. With `adopted`, it came to this process
        /// and is killed once no command runs (see CommandLeftovers); else it is not killed.
        case outsideGroup(adopted: Bool)
    }

    /// How long the output pipes may stay open once the program exited, before the rest of its
    /// process group is killed. Long enough for a helper that is finishing (a `tee`, a logger
    /// flushing, a `(sleep 0.2; echo) &`) on a loaded machine; short enough that a program that
    /// leaves a daemon behind at every run costs one second, not its whole timeout.
    static let exitGrace = Duration.seconds(1)
    /// How long, once that group was killed, the pipes are read until they close: SIGKILL ends a
    /// process within milliseconds (with room here for a loaded machine), so pipes still open
    /// after this are held outside the group. Only a daemon's run waits it out.
    static let killSettle = Duration.milliseconds(500)

    /// Why a program could not be started.
    struct LaunchError: Error, Sendable, CustomStringConvertible {
        var description: String
    }

    /// The program and its arguments; the program is looked up on the environment's `PATH`, or
    /// taken relative to `directory` when it contains a slash.
    var arguments: [String]
    /// The working folder.
    var directory: String
    /// The complete environment of the child.
    var environment: [String: String]
    /// How long the program may run.
    var timeLimit: Duration
    /// The most bytes of standard output kept; more kills the program.
    var maxOutput: Int
    /// The most bytes of standard error kept (the rest is read and dropped).
    var maxErrorBytes = 64 * 1024

    /// Runs the program to its end, the time limit or the output cap.
    func run() async throws(LaunchError) -> Outcome {
        let child = try launch()
        let cancelled = CancelFlag()
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                let thread = Thread {
                    continuation.resume(returning: collect(child, cancelled: cancelled))
                }
                thread.start()
            }
        } onCancel: {
            cancelled.set()
        }
        return outcome
    }

    /// A started child: its pid and the read ends of its output pipes.
    private struct Child: Sendable {
        var pid: pid_t
        var output: Int32
        var error: Int32
    }

    /// Set when the fetching task is cancelled; the reading thread then kills the child.
    private final class CancelFlag: Sendable {
        private let flag = Atomic<Bool>(false)
        func set() { flag.store(true, ordering: .relaxed) }
        var isSet: Bool { flag.load(ordering: .relaxed) }
    }

    private func launch() throws(LaunchError) -> Child {
        var outputPipe: [Int32] = [-1, -1]
        var errorPipe: [Int32] = [-1, -1]
        // `pipe2` is not visible through Swift's Glibc module; close-on-exec is set right after,
        // so that other children started meanwhile do not keep these pipes open.
        guard pipe(&outputPipe) == 0 else { throw LaunchError(description: "cannot create a pipe: \(errnoText())") }
        guard pipe(&errorPipe) == 0 else {
            close(outputPipe[0])
            close(outputPipe[1])
            throw LaunchError(description: "cannot create a pipe: \(errnoText())")
        }
        for descriptor in outputPipe + errorPipe { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        // `env -C` enters the folder and then looks the program up, so a relative program path
        // (`./scripts/feed.sh`) and relative arguments both start from the configuration's folder.
        let argv = (["/usr/bin/env", "-C", directory, "--"] + arguments).map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        // Counted as running from before its start until it was reaped: what commands left behind
        // is killed only while none runs (see CommandLeftovers).
        CommandLeftovers.shared.commandStarting()
        // Registered before a signal can end Tributary: see `tributary_process_start_end`.
        guard tributary_process_start_begin() == 0 else {
            CommandLeftovers.shared.commandEnded()
            for descriptor in outputPipe + errorPipe { close(descriptor) }
            throw LaunchError(description: "not started: Tributary is stopping")
        }
        let result = posix_spawn(&pid, "/usr/bin/env", &actions, &attributes, argv, envp)
        tributary_process_start_end(result == 0 ? pid : 0)
        close(outputPipe[1])
        close(errorPipe[1])
        guard result == 0 else {
            CommandLeftovers.shared.commandEnded()
            close(outputPipe[0])
            close(errorPipe[0])
            throw LaunchError(description: "cannot start '\(arguments.first ?? "")': \(String(cString: strerror(result)))")
        }
        return Child(pid: pid, output: outputPipe[0], error: errorPipe[0])
    }

    /// Reads both pipes until they close, the deadline passes, the output overflows or the task
    /// is cancelled — or, once the program exited, until `exitGrace` passed (then the rest of its
    /// group is killed); then reaps the child. Runs on its own thread and blocks it.
    private func collect(_ child: Child, cancelled: CancelFlag) -> Outcome {
        let deadline = ContinuousClock.now + timeLimit
        var output: [UInt8] = []
        var errorBytes: [UInt8] = []
        var timedOut = false
        var overflowed = false
        var leftBehind: LeftBehind?
        // When the program was seen to have exited; it stays a zombie, unreaped, until the end.
        var exited: ContinuousClock.Instant?
        var open = [child.output, child.error]
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        defer {
            close(child.output)
            close(child.error)
        }

        // Safe while the leader is unreaped: a zombie keeps its pid, so the group id names no other group.
        func killGroup() {
            kill(-child.pid, SIGKILL)
            kill(child.pid, SIGKILL)
        }

        // Waits up to `limit` for output and reads what is there; false when reading must stop.
        func pump(waitingAtMost limit: Duration) -> Bool {
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), Int32(min(max(limit.inMilliseconds + 1, 0), 100)))
            if ready < 0 {
                if errno == EINTR { return true }
                killGroup()
                return false
            }
            for descriptor in fds where descriptor.revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(descriptor.fd, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR || errno == EAGAIN { continue }
                if count <= 0 {
                    open.removeAll { $0 == descriptor.fd }
                    continue
                }
                if descriptor.fd == child.output {
                    output += buffer[0..<count]
                    if output.count > maxOutput {
                        output.removeLast(output.count - maxOutput)
                        overflowed = true
                        killGroup()
                        return false
                    }
                } else if errorBytes.count < maxErrorBytes {
                    errorBytes += buffer[0..<min(count, maxErrorBytes - errorBytes.count)]
                }
            }
            return true
        }

        while !open.isEmpty {
            if cancelled.isSet {
                killGroup()
                break
            }
            // Checked before the deadline: a program that exited in time did not time out.
            if exited == nil, Self.hasExited(child.pid) { exited = .now }
            let now = ContinuousClock.now
            let stop: ContinuousClock.Instant
            if let exited {
                stop = exited + Self.exitGrace
                if now >= stop {
                    killGroup()
                    let settled = ContinuousClock.now + Self.killSettle
                    while !open.isEmpty, ContinuousClock.now < settled, pump(waitingAtMost: settled - .now) {}
                    leftBehind = open.isEmpty ? .killed : .outsideGroup(adopted: CommandLeftovers.shared.adopts)
                    break
                }
            } else {
                stop = deadline
                if now >= stop {
                    timedOut = true
                    killGroup()
                    break
                }
            }
            guard pump(waitingAtMost: stop - now) else { break }
        }

        // The pipes are closed (or the child was killed): wait for it to end, within the deadline.
        while exited == nil, !Self.hasExited(child.pid) {
            if ContinuousClock.now >= deadline || cancelled.isSet {
                if !overflowed && !cancelled.isSet { timedOut = true }
                killGroup()
                break
            }
            usleep(5000)
        }
        // While a signal handler kills what is left and ends the process, the run must not go on.
        tributary_process_hold_if_dying()
        // Out of the signal handler's table before it is reaped and its pid, the group's id, is freed.
        tributary_process_group_remove(child.pid)
        var status: Int32 = 0
        while waitpid(child.pid, &status, 0) < 0, errno == EINTR {}
        // The last command to end kills what the commands left behind, the daemon holding the pipes included.
        CommandLeftovers.shared.commandEnded()
        let signalled = (status & 0x7f) != 0
        return Outcome(
            status: signalled ? nil : (status >> 8) & 0xff, signal: signalled ? status & 0x7f : nil, output: output,
            errorText: String(decoding: errorBytes, as: UTF8.self), timedOut: timedOut, overflowed: overflowed,
            leftBehind: leftBehind)
    }

    /// Whether the program has ended (or cannot be waited for), without reaping it (`WNOWAIT`):
    /// until `waitpid`, its pid and so its group id stay reserved, and killing the group cannot
    /// reach a process that reused them.
    private static func hasExited(_ pid: pid_t) -> Bool {
        // Zeroed first: with WNOHANG and no change, Linux leaves it zeroed (POSIX leaves it open).
        var info = siginfo_t()
        if waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) < 0 { return errno != EINTR }
        return info.si_signo == SIGCHLD
    }

    private func errnoText() -> String {
        String(cString: strerror(errno))
    }
}
