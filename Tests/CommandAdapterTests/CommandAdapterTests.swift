import CommandAdapter
import Foundation
import TestSupport
import Testing
import TributaryCore
import TributaryModel

#if canImport(Glibc)
    import Glibc
#endif

/// `adapter: command` running the scripts in Fixtures/: output parsed as a feed, a fixed
/// environment, and the three ways a program goes wrong (hangs, floods, fails).
@Suite("command adapter")
struct CommandAdapterTests {
    /// The folder holding the scripts; the configuration lives there.
    static func folder() throws -> URL {
        try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
    }

    /// The command source described by `fragment` (YAML lines at the source's indentation).
    static func adapter(_ fragment: String) throws -> any SourceAdapter {
        let yaml = """
            sources:
              - name: script
                adapter: command
            \(fragment.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
            """
        let configuration = try ConfigLoader(registry: AdapterRegistry([CommandAdapter.self])).load(
            text: yaml, file: "feeds.yaml", directory: try folder())
        return try #require(configuration.sources.first).adapter
    }

    static func context(timeout: Duration = .seconds(60)) throws -> FetchContext {
        FetchContext(
            sourceName: "script", configDirectory: try folder(), fetcher: InMemoryFetcher(), timeout: timeout)
    }

    static func failure(_ adapter: any SourceAdapter, timeout: Duration = .seconds(60)) async throws -> String? {
        do {
            _ = try await adapter.fetch(in: context(timeout: timeout))
            return nil
        } catch {
            return String(describing: error)
        }
    }

    @Test func readsAJSONFeedAndReportsStandardErrorAsAWarning() async throws {
        let result = try await Self.adapter("command: [sh, feed.sh]").fetch(in: Self.context())
        #expect(result.items.map(\.id) == ["a1", "a2"])
        #expect(result.items.first?.title == "First")
        #expect(result.items.first?.published == Date(timeIntervalSince1970: 1_709_647_380))
        #expect(result.feed?.title == "Script feed")
        #expect(result.problems.map(\.description) == ["warning: stderr: fetched 2 posts from the cache"])
    }

    @Test func passesArgumentsAsTheyAreWithoutAShell() async throws {
        let result = try await Self.adapter(#"command: [sh, rss.sh, "$HOME; rm -rf `pwd` | cat"]"#).fetch(in: Self.context())
        #expect(result.items.map(\.title) == ["One"])
        #expect(result.feed?.title == "$HOME; rm -rf `pwd` | cat")
    }

    @Test func theEnvironmentIsPathHomeLangAndOnlyWhatTheSourceLists() async throws {
        // /usr/bin/python3 itself: a version manager's `python3` shim would add variables of its own.
        let result = try await Self.adapter("command: [/usr/bin/python3, environment.py]\nenv: [GREETING=你好, TRIBUTARY_SURELY_UNSET]")
            .fetch(in: Self.context())
        let names = result.items.map(\.id)
        #expect(names == ["GREETING", "HOME", "LANG", "PATH"])
        #expect(result.items.first?.title == "GREETING=你好")
    }

    @Test func aCommandThatHangsIsKilledAtTheTimeoutWithWhatItStarted() async throws {
        let scratch = try TemporaryDirectory()
        let pidFile = scratch.path("sleep.pid")
        let message = try await Self.failure(Self.adapter("command: [sh, hang.sh, \(pidFile)]"), timeout: .milliseconds(500))
        #expect(message == "command 'sh hang.sh \(pidFile)' timed out after 500ms and was killed")
        let pid = try #require(pid_t(try scratch.read("sleep.pid").trimmingCharacters(in: .whitespacesAndNewlines)))
        // The background `sleep` was in the command's process group and got SIGKILL with it; the
        // kernel ends it asynchronously, so wait for it to be gone (or a zombie awaiting init).
        var state: Substring?
        for _ in 0..<500 {
            state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.split(separator: " ").dropFirst(2).first
            if state == nil || state == "Z" { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(state == nil || state == "Z", "sleep \(pid) is still in state \(state ?? "?")")
    }

    /// Still running at its time limit, with its output open or closed: timed out, as before.
    @Test(arguments: ["sh feed.sh; exec sleep 30", "sh feed.sh; exec >&- 2>&-; sleep 30"])
    func aCommandThatPrintsItsFeedAndRunsOnTimesOut(script: String) async throws {
        let message = try await Self.failure(Self.adapter("command: [sh, -c, '\(script)']"), timeout: .milliseconds(500))
        #expect(message == "command 'sh -c \(script)' timed out after 500ms and was killed; stderr: fetched 2 posts from the cache")
    }

    /// A program that exits at once but leaves a child holding its output open: what it printed is
    /// its output. The 20 s timeout is far beyond the grace; were the runner to wait for the pipes
    /// to close, the fetch would fail as timed out.
    @Test func aCommandThatExitsLeavingAChildHoldingItsOutputSucceedsAndTheChildIsKilled() async throws {
        let scratch = try TemporaryDirectory()
        let pidFile = scratch.path("sleep.pid")
        let result = try await Self.adapter("command: [sh, leave-behind.sh, child, \(pidFile)]")
            .fetch(in: Self.context(timeout: .seconds(20)))
        #expect(result.items.map(\.id) == ["a1", "a2"])
        #expect(
            result.problems.map(\.description) == [
                "warning: stderr: fetched 2 posts from the cache",
                "warning: processes it left behind held its output open after it exited; they were killed after 1s",
            ])
        let pid = try #require(pid_t(try scratch.read("sleep.pid").trimmingCharacters(in: .whitespacesAndNewlines)))
        let state = try await CommandSignalTests.stateOnceGone(pid)
        #expect(state == nil, "sleep \(pid) is still running (state \(state ?? "?"))")
    }

    /// A daemon in a session of its own is out of the process group's reach, and a process other
    /// than the executable (this test's) does not adopt what commands leave behind: the source
    /// still succeeds, and the warning says the daemon was not killed. (`tributary` kills it:
    /// CommandLeftoverTests.)
    @Test func aDaemonInASessionOfItsOwnIsReportedNotKilled() async throws {
        let scratch = try TemporaryDirectory()
        let pidFile = scratch.path("daemon.pid")
        let result = try await Self.adapter("command: [sh, leave-behind.sh, daemon, \(pidFile)]")
            .fetch(in: Self.context(timeout: .seconds(20)))
        let pid = try #require(pid_t(try scratch.read("daemon.pid").trimmingCharacters(in: .whitespacesAndNewlines)))
        defer { kill(pid, SIGKILL) }
        #expect(result.items.map(\.id) == ["a1", "a2"])
        #expect(
            result.problems.map(\.description) == [
                "warning: stderr: fetched 2 posts from the cache",
                "warning: processes it left behind held its output open after it exited; those in its process group were killed after 1s, but one outside it (a daemon in a session of its own) was not",
            ])
        #expect(kill(pid, 0) == 0, "the daemon is still running")
    }

    @Test func aCommandThatFloodsStandardOutputIsCappedAndKilled() async throws {
        let message = try await Self.failure(Self.adapter("command: [sh, flood.sh]\nmax_output: 64KB"))
        #expect(message == "command 'sh flood.sh' printed more than the limit of 64 KB (max_output) and was killed")
    }

    @Test func aCommandThatExitsNonZeroFailsWithItsStatusAndStandardError() async throws {
        let message = try await Self.failure(Self.adapter("command: [sh, fail.sh]"))
        #expect(message == "command 'sh fail.sh' exited with status 3; stderr: connecting to the site | error: the site answered 403")
    }

    @Test func aLongStandardErrorLineIsCutInTheMessage() async throws {
        let message = try #require(
            try await Self.failure(Self.adapter("command: [sh, -c, 'head -c 100000 /dev/zero | tr \"\\\\000\" x >&2; exit 1']")))
        #expect(message.hasSuffix("; stderr: " + String(repeating: "x", count: 300) + "…"))
        #expect(message.count < 500)
    }

    @Test func aCommandThatPrintsNothingFails() async throws {
        let message = try await Self.failure(Self.adapter("command: [sh, silent.sh]"))
        #expect(message == "command 'sh silent.sh' printed nothing; it should print a JSON Feed, RSS or Atom document")
    }

    @Test func aMissingProgramIsNamed() async throws {
        let message = try await Self.failure(Self.adapter("command: [tributary-no-such-program, x]"))
        #expect(message?.hasPrefix("command 'tributary-no-such-program x': program 'tributary-no-such-program' not found") == true)
    }

    @Test(arguments: [
        (
            "command: []",
            "feeds.yaml:4:5: error: source 'script': 'command' must list the program and its arguments, e.g. [python3, feed.py]"
        ),
        ("command: [sh]\nenv: [A-B]", "feeds.yaml:5:5: error: source 'script': 'env': 'A-B' is not NAME or NAME=value"),
        (
            "command: [sh]\nmax_output: lots",
            "feeds.yaml:5:5: error: source 's': 'max_output' must be a size such as 512KB or 10MB, found 'lots'"
        ),
    ])
    func badOptionsAreConfigurationErrors(fragment: String, expected: String) throws {
        #expect(throws: ConfigErrors.self) { try Self.adapter(fragment) }
        do {
            _ = try Self.adapter(fragment)
        } catch let error as ConfigErrors {
            #expect(error.description == expected.replacingOccurrences(of: "source 's'", with: "source 'script'"))
        }
    }
}

/// The command adapter inside a real `tributary run`: stderr and exit status reach the report.
@Suite("command adapter in a run")
struct CommandRunTests {
    @Test func standardErrorAndExitStatusAreInTheRunReport() async throws {
        let folder = try TemporaryDirectory()
        let scripts = try CommandAdapterTests.folder()
        for name in ["feed.sh", "fail.sh"] {
            try FileManager.default.copyItem(at: scripts.appendingPathComponent(name), to: folder.url.appendingPathComponent(name))
        }
        _ = try folder.write(
            """
            sources:
              - name: good
                adapter: command
                command: [sh, feed.sh]
              - name: bad
                adapter: command
                command: [sh, fail.sh]
            outputs:
              - type: stdout
            """, to: "feeds.yaml")
        let run = try await TributaryBinary.run(["run"], in: folder.url.path)
        #expect(run.status == 2)
        #expect(run.standardOutput.contains("First"))
        #expect(run.standardError.contains("warning: [good] stderr: fetched 2 posts from the cache\n"))
        #expect(
            run.standardError.contains(
                "[bad] failed: command 'sh fail.sh' exited with status 3; stderr: connecting to the site | error: the site answered 403\n"))
        #expect(run.standardError.contains("2 sources (1 ok, 1 failed: bad)"))
    }
}

extension CommandRunTests {
    /// The same through `tributary run`, with the source's `timeout: 20s`: the source is ok with
    /// its items and a warning, and the child it left behind is gone.
    @Test func aCommandThatLeavesAChildHoldingItsOutputIsOkInARun() async throws {
        let folder = try TemporaryDirectory()
        let scripts = try CommandAdapterTests.folder()
        for name in ["feed.sh", "leave-behind.sh"] {
            try FileManager.default.copyItem(at: scripts.appendingPathComponent(name), to: folder.url.appendingPathComponent(name))
        }
        _ = try folder.write(
            """
            sources:
              - {name: left, adapter: command, command: [sh, leave-behind.sh, child, sleep.pid], timeout: 20s}
            outputs:
              - type: stdout
            """, to: "feeds.yaml")
        let run = try await TributaryBinary.run(["run", "--no-state"], in: folder.url.path)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("First") && run.standardOutput.contains("Second"))
        #expect(
            run.standardError.contains(
                "warning: [left] processes it left behind held its output open after it exited; they were killed after 1s\n"))
        #expect(!run.standardError.contains("failed"), "\(run.standardError)")
        let pid = try #require(pid_t(try folder.read("sleep.pid").trimmingCharacters(in: .whitespacesAndNewlines)))
        let state = try await CommandSignalTests.stateOnceGone(pid)
        #expect(state == nil, "sleep \(pid) is still running (state \(state ?? "?"))")
    }
}

/// A run stopped by a signal while a command source runs.
@Suite("command adapter when tributary is stopped")
struct CommandSignalTests {
    @Test(
        "A single run that dies of SIGTERM, SIGINT or SIGHUP kills the command's process group first, as its timeout does",
        arguments: [SIGTERM, SIGINT, SIGHUP])
    func stoppedRunKillsTheCommand(_ signal: Int32) async throws {
        let folder = try TemporaryDirectory()
        try FileManager.default.copyItem(
            at: try CommandAdapterTests.folder().appendingPathComponent("hang.sh"), to: folder.url.appendingPathComponent("hang.sh"))
        try folder.write(
            """
            sources:
              - {name: slow, adapter: command, command: [sh, hang.sh, sleep.pid], timeout: 5m}
            outputs:
              - type: stdout
            """, to: "feeds.yaml")
        let pid = try ChildProcess([TributaryBinary.path, "run", "--no-state"], directory: folder.url.path)
            .spawn(standardOutput: "/dev/null", standardError: "/dev/null")
        var sleeper: pid_t?
        for _ in 0..<1000 where sleeper == nil {
            sleeper = (try? folder.read("sleep.pid")).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            if sleeper == nil { try await Task.sleep(for: .milliseconds(10)) }
        }
        let background = try #require(sleeper, "the command started")
        kill(pid, signal)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        #expect(status & 0x7f == signal, "tributary died of the signal, as before")
        // The command's background sleep (in its process group) got SIGKILL; once tributary is gone, init reaps it.
        let state = try await Self.stateOnceGone(background)
        #expect(state == nil, "sleep \(background) is still running (state \(state ?? "?"))")
    }

    /// A signal may come while commands are being started, between a command's start and the
    /// moment its group is in the table the handler kills: the handler then waits for the
    /// registration. Forty commands started at once, a SIGTERM at a different moment of their
    /// start each time: no command outlives tributary.
    @Test("A SIGTERM while many commands are starting leaves none of them running")
    func signalWhileStartingCommands() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("echo $$ >> started.pids\nexec sleep 60\n", to: "start.sh")
        let sources = (0..<40).map { "  - {name: c\($0), adapter: command, command: [sh, start.sh], timeout: 5m}" }
        try folder.write("sources:\n" + sources.joined(separator: "\n") + "\noutputs:\n  - type: stdout\n", to: "feeds.yaml")
        for round in 0..<12 {
            try? FileManager.default.removeItem(at: folder.url.appendingPathComponent("started.pids"))
            let pid = try ChildProcess([TributaryBinary.path, "run", "--no-state", "--jobs", "64"], directory: folder.url.path)
                .spawn(standardOutput: "/dev/null", standardError: "/dev/null")
            // From before the first command starts to after the last: the process needs some
            // milliseconds to read its configuration, then starts the forty within a few more.
            try await Task.sleep(for: .microseconds(2_000 + round * 1_500))
            kill(pid, SIGTERM)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            let started = ((try? folder.read("started.pids")) ?? "").split(separator: "\n").compactMap { pid_t($0) }
            #expect(status & 0x7f == SIGTERM, "round \(round): tributary died of the signal (status \(status))")
            for command in started {
                let state = try await Self.stateOnceGone(command)
                #expect(state == nil, "round \(round): command \(command) outlived tributary (state \(state ?? "?"))")
            }
        }
    }

    /// Waits up to five seconds for `pid` to end (or be a zombie); nil when it did, else its state, after killing it.
    static func stateOnceGone(_ pid: pid_t) async throws -> Substring? {
        var state: Substring?
        for _ in 0..<500 {
            state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.split(separator: " ").dropFirst(2).first
            if state == nil || state == "Z" { return nil }
            try await Task.sleep(for: .milliseconds(10))
        }
        kill(pid, SIGKILL)
        return state
    }
}
