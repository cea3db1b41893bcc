import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What a command leaves behind in a real `tributary run` — daemons in sessions of their own
/// included, which its process group does not reach — is killed and reaped: when the command
/// ends and no other runs, at a timeout, when the run dies of a signal, and in every run of
/// `run --every`; never while the command it belongs to still runs.
@Suite("command adapter leaving processes behind")
struct CommandLeftoverTests {
    /// A folder with the scripts and a configuration of `sources` (one YAML flow mapping each).
    static func folder(_ sources: [String]) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        let scripts = try CommandAdapterTests.folder()
        for name in ["feed.sh", "daemon.sh", "daemon-waits.sh"] {
            try FileManager.default.copyItem(at: scripts.appendingPathComponent(name), to: folder.url.appendingPathComponent(name))
        }
        _ = try folder.write(
            "sources:\n" + sources.map { "  - \($0)\n" }.joined() + "outputs:\n  - type: stdout\n", to: "feeds.yaml")
        return folder
    }

    /// The pid a script wrote to `name`, waiting up to ten seconds for it.
    static func pid(in folder: TemporaryDirectory, _ name: String) async throws -> pid_t {
        var pid: pid_t?
        for _ in 0..<1000 where pid == nil {
            pid = (try? folder.read(name)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            if pid == nil { try await Task.sleep(for: .milliseconds(10)) }
        }
        return try #require(pid, "a pid in \(name)")
    }

    @Test(
        "A daemon a command leaves behind, holding its output or not, is killed once the command ended; its items come through",
        arguments: ["holding", "quiet", "double-fork"])
    func daemonIsKilledAfterItsCommand(how: String) async throws {
        let folder = try Self.folder(["{name: d, adapter: command, command: [sh, daemon.sh, \(how), d.pid], timeout: 20s}"])
        let run = try await TributaryBinary.run(["run", "--no-state"], in: folder.url.path)
        let daemon = try await Self.pid(in: folder, "d.pid")
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("First") && run.standardOutput.contains("Second"))
        let held =
            "warning: [d] processes it left behind held its output open after it exited; those in its process group were killed "
            + "after 1s, one outside it (a daemon in a session of its own) as soon as no other command was running\n"
        #expect(run.standardError.contains(held) == (how == "holding"), "\(run.standardError)")
        let state = try await CommandSignalTests.stateOnceGone(daemon)
        #expect(state == nil, "daemon \(daemon) is still running (state \(state ?? "?"))")
    }

    @Test("A daemon a command started is killed when the command times out", arguments: ["holding", "double-fork"])
    func daemonIsKilledAtTheTimeout(how: String) async throws {
        let folder = try Self.folder(["{name: d, adapter: command, command: [sh, daemon.sh, \(how), d.pid, hang], timeout: 1s}"])
        let run = try await TributaryBinary.run(["run", "--no-state"], in: folder.url.path)
        let daemon = try await Self.pid(in: folder, "d.pid")
        #expect(run.status == 3, "\(run.standardError)")
        #expect(run.standardError.contains("[d] failed: command 'sh daemon.sh \(how) d.pid hang' timed out after 1s and was killed"))
        let state = try await CommandSignalTests.stateOnceGone(daemon)
        #expect(state == nil, "daemon \(daemon) is still running (state \(state ?? "?"))")
    }

    /// The first command leaves an orphan daemon and ends while the second runs on with an orphan
    /// daemon of its own, which the second checks 1.5 s after the first ended: what the first left
    /// cannot be told from what the second uses, so both wait for the second's end.
    @Test("A command running while another one ends keeps its own daemon; both are killed after the run")
    func aRunningCommandKeepsItsDaemon() async throws {
        let folder = try Self.folder([
            #"{name: first, adapter: command, command: [sh, -c, "sh daemon.sh double-fork a.pid && touch a.done"], timeout: 20s}"#,
            "{name: second, adapter: command, command: [sh, daemon-waits.sh, b.pid, a.done], timeout: 20s}",
        ])
        let run = try await TributaryBinary.run(["run", "--no-state", "--jobs", "2"], in: folder.url.path)
        let first = try await Self.pid(in: folder, "a.pid")
        let second = try await Self.pid(in: folder, "b.pid")
        #expect(run.status == 0, "\(run.standardError)")
        #expect(!run.standardError.contains("its daemon was killed"), "\(run.standardError)")
        #expect(run.standardError.contains("2 sources ok"), "\(run.standardError)")
        for daemon in [first, second] {
            let state = try await CommandSignalTests.stateOnceGone(daemon)
            #expect(state == nil, "daemon \(daemon) is still running (state \(state ?? "?"))")
        }
    }

    /// Each run of the loop kills and reaps what its command left: while the loop runs on, the
    /// daemons of earlier runs are gone, not even zombies of tributary's.
    @Test("run --every kills and reaps each run's leftovers in that run")
    func everyRunCleansUp() async throws {
        let folder = try Self.folder([
            #"{name: d, adapter: command, command: [sh, -c, "rm -f d.pid && sh daemon.sh double-fork d.pid && cat d.pid >> all.pids"]}"#
        ])
        let tributary = try ChildProcess([TributaryBinary.path, "run", "--no-state", "--every", "1s"], directory: folder.url.path)
            .spawn(standardOutput: "/dev/null", standardError: folder.path("stderr"))
        var pids: [pid_t] = []
        for _ in 0..<1000 where pids.count < 3 {
            pids = ((try? folder.read("all.pids")) ?? "").split(separator: "\n").compactMap { pid_t($0) }
            if pids.count < 3 { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(pids.count >= 3, "three runs within ten seconds")
        for daemon in pids.prefix(2) {
            var exists = true
            for _ in 0..<500 where exists {
                exists = FileManager.default.fileExists(atPath: "/proc/\(daemon)")
                if exists { try await Task.sleep(for: .milliseconds(10)) }
            }
            #expect(!exists, "daemon \(daemon) of an earlier run is still there: \(Self.state(daemon))")
            if exists { kill(daemon, SIGKILL) }
        }
        kill(tributary, SIGTERM)
        var status: Int32 = 0
        waitpid(tributary, &status, 0)
        #expect(status == 0, "the loop stopped on the signal: \((try? folder.read("stderr")) ?? "")")
        let all = ((try? folder.read("all.pids")) ?? "").split(separator: "\n").compactMap { pid_t($0) }
        for daemon in all.dropFirst(2) {
            let state = try await CommandSignalTests.stateOnceGone(daemon)
            #expect(state == nil, "daemon \(daemon) is still running (state \(state ?? "?"))")
        }
    }

    @Test(
        "A run that dies of SIGTERM, SIGINT or SIGHUP kills the daemon its running command started, as well as the command",
        arguments: [SIGTERM, SIGINT, SIGHUP], ["holding", "double-fork"])
    func stoppedRunKillsTheDaemon(_ signal: Int32, how: String) async throws {
        let folder = try Self.folder(["{name: d, adapter: command, command: [sh, daemon.sh, \(how), d.pid, hang], timeout: 5m}"])
        let tributary = try ChildProcess([TributaryBinary.path, "run", "--no-state"], directory: folder.url.path)
            .spawn(standardOutput: "/dev/null", standardError: "/dev/null")
        let daemon = try await Self.pid(in: folder, "d.pid")
        kill(tributary, signal)
        var status: Int32 = 0
        waitpid(tributary, &status, 0)
        #expect(status & 0x7f == signal, "tributary died of the signal, as before (status \(status))")
        let state = try await CommandSignalTests.stateOnceGone(daemon)
        #expect(state == nil, "daemon \(daemon) is still running (state \(state ?? "?"))")
    }

    @Test(
        "Children tributary had before its first command (started by a shell that then exec'd it) are not its to kill",
        arguments: [0, SIGTERM])
    func inheritedChildrenAreLeftAlone(_ signal: Int32) async throws {
        let folder = try Self.folder([
            "{name: d, adapter: command, command: [sh, daemon.sh, quiet, d.pid\(signal == 0 ? "" : ", hang")], timeout: 5m}"
        ])
        // One in the shell's process group, one in a session of its own.
        let script = "sleep 300 & echo $! > same.pid; setsid sleep 300 & echo $! > own.pid; exec \"$0\" run --no-state"
        let tributary = try ChildProcess(["/bin/sh", "-c", script, TributaryBinary.path], directory: folder.url.path)
            .spawn(standardOutput: "/dev/null", standardError: "/dev/null")
        let inherited = [try await Self.pid(in: folder, "same.pid"), try await Self.pid(in: folder, "own.pid")]
        defer { for pid in inherited { kill(pid, SIGKILL) } }
        let daemon = try await Self.pid(in: folder, "d.pid")
        if signal != 0 { kill(tributary, signal) }
        var status: Int32 = 0
        waitpid(tributary, &status, 0)
        #expect(signal == 0 ? status == 0 : status & 0x7f == signal, "status \(status)")
        let state = try await CommandSignalTests.stateOnceGone(daemon)
        #expect(state == nil, "the command's daemon \(daemon) is still running (state \(state ?? "?"))")
        for pid in inherited {
            #expect(kill(pid, 0) == 0 && !Self.state(pid).contains(") Z "), "\(pid) was killed: \(Self.state(pid))")
        }
    }

    @Test("Such children that end are reaped, not left as zombies (tributary as a container's PID 1 with a sidecar)")
    func inheritedChildrenAreReapedWhenTheyEnd() async throws {
        let folder = try Self.folder(["{name: d, adapter: command, command: [sh, feed.sh], timeout: 20s}"])
        let script = "sleep 0.2 & echo $! > same.pid; setsid sleep 0.2 & echo $! > own.pid; exec \"$0\" run --no-state --every 1s"
        let tributary = try ChildProcess(["/bin/sh", "-c", script, TributaryBinary.path], directory: folder.url.path)
            .spawn(standardOutput: "/dev/null", standardError: "/dev/null")
        var stopped = false
        defer {
            if !stopped {
                kill(tributary, SIGKILL)
                waitpid(tributary, nil, 0)
            }
        }
        let inherited = [try await Self.pid(in: folder, "same.pid"), try await Self.pid(in: folder, "own.pid")]
        for pid in inherited {
            // Ended at 0.2 s; reaped after a run's command ends (the runs are a second apart).
            var state = Self.state(pid)
            for _ in 0..<500 where state != "gone" {
                try await Task.sleep(for: .milliseconds(10))
                state = Self.state(pid)
            }
            #expect(state == "gone", "\(pid) is still there: \(state)")
        }
        kill(tributary, SIGTERM)
        var status: Int32 = 0
        waitpid(tributary, &status, 0)
        stopped = true
        #expect(status == 0, "the loop stopped on the signal")
    }

    /// The `/proc/PID/stat` line of `pid`, or "gone".
    static func state(_ pid: pid_t) -> String {
        (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? "gone"
    }
}
