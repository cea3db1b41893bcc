import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What a cron job and its monitoring rely on beyond the happy path: a report for every run, a state that only the
/// runs write, and validators that never bring back items made another way.
@Suite("Running from cron: reports, read-only uses, settings", .serialized)
struct CronSafetyTests {
    typealias State = StateEndToEndTests

    static func feed(_ server: LoopbackServer) {
        server.route(
            "/a.xml",
            .cached(body: State.rss(["a1", "a2", "a3"]), contentType: "application/rss+xml", etag: "\"a-v1\"", lastModified: nil))
    }

    /// A folder whose configuration reads `/a.xml` (three items, with an ETag) from `server`, after one run there.
    static func folderAfterOneRun(_ server: LoopbackServer, configuration: String? = nil) async throws -> TemporaryDirectory {
        feed(server)
        let folder = try TemporaryDirectory()
        try folder.write(configuration ?? State.config(server, paths: ["a.xml"]), to: "feeds.yaml")
        let first = try await TributaryBinary.run(["run", "-q"], in: folder.url.path)
        #expect(first.status == 0, "\(first.standardError)")
        return folder
    }

    @Test("A run that stops early (configuration, command line, lock, state) still writes its report")
    func reportOfARunThatStops() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        Self.feed(server)
        let folder = try TemporaryDirectory()
        let config = State.config(server, paths: ["a.xml"])
        try folder.write(config, to: "feeds.yaml")

        let good = try await TributaryBinary.run(["run", "-q", "--report", "report.json"], in: folder.url.path)
        #expect(good.status == 0, "\(good.standardError)")
        let first = try State.report(folder)
        #expect(first["exit_status"] as? Int == 0)
        #expect(first["error"] is NSNull)

        // Each stop replaces the report: never an older run's left for the monitor to read.
        func stopped(_ arguments: [String], status: Int32) async throws -> [String: Any] {
            let result = try await TributaryBinary.run(arguments + ["--report", "report.json"], in: folder.url.path)
            #expect(result.status == status, "\(arguments): \(result.standardError)")
            let report = try State.report(folder)
            #expect(report["exit_status"] as? Int == Int(status))
            #expect((report["sources"] as? [Any])?.isEmpty == true)
            try folder.write("{}", to: "report.json")
            return report
        }

        try folder.write(config.replacingOccurrences(of: "adapter: rss", with: "adapter: nosuch"), to: "feeds.yaml")
        let broken = try await stopped(["run"], status: 1)
        #expect((broken["error"] as? String)?.contains("feeds.yaml:") == true, "\(broken)")
        #expect((broken["error"] as? String)?.contains("unknown adapter 'nosuch'") == true)
        try folder.write(config, to: "feeds.yaml")

        let unknown = try await stopped(["run", "-s", "nope"], status: 1)
        #expect((unknown["error"] as? String)?.contains("no source named 'nope'") == true)
        let usage = try await stopped(["run", "--jobs", "0"], status: 1)
        #expect((usage["error"] as? String)?.contains("--jobs") == true)
        let unknownOption = try await stopped(["run", "--bogus"], status: 1)
        #expect((unknownOption["error"] as? String)?.contains("--bogus") == true, "\(unknownOption)")

        // Another process holds the lock.
        let held = try HeldLock(path: folder.path(".tributary/state.sqlite.lock"))
        let locked = try await stopped(["run"], status: 4)
        held.release()
        #expect((locked["error"] as? String)?.contains("holds the lock") == true)

        try folder.write(String(repeating: "garbage ", count: 1000), to: ".tributary/state.sqlite")
        try? FileManager.default.removeItem(atPath: folder.path(".tributary/state.sqlite-wal"))
        try? FileManager.default.removeItem(atPath: folder.path(".tributary/state.sqlite-shm"))
        let damaged = try await stopped(["run"], status: 5)
        #expect((damaged["state_error"] as? String)?.contains(folder.path(".tributary/state.sqlite")) == true, "\(damaged)")
        #expect((damaged["error"] as? String)?.contains("--reset-state") == true)
    }

    @Test("A dry run writes nothing: not the state, not its check, no lock; it cannot reset the state")
    func dryRunWritesNothing() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let folder = try await Self.folderAfterOneRun(server)
        let state = folder.path(".tributary/state.sqlite")
        let before = ["", "-wal"].map { FileManager.default.contents(atPath: state + $0) }

        // Holding the lock does not stop a dry run, which reads a snapshot of the state.
        let held = try HeldLock(path: state + ".lock")
        defer { held.release() }
        let dry = try await TributaryBinary.run(["run", "-n"], in: folder.url.path)
        #expect(dry.status == 0, "\(dry.standardError)")
        #expect(dry.standardError.contains("dry run"))
        #expect(["", "-wal"].map { FileManager.default.contents(atPath: state + $0) } == before)

        let reset = try await TributaryBinary.run(["run", "-n", "--reset-state"], in: folder.url.path)
        #expect(reset.status == 1)
        #expect(reset.standardError.contains("'--reset-state' cannot be combined with '--dry-run'"))
        #expect(FileManager.default.fileExists(atPath: state), "the state was not moved aside")
    }

    /// Runs `tributary` as a user who may read the state but not write it: as root, as `nobody` through `setpriv`;
    /// as anyone else, with the state's files and folder made read-only.
    static func runWithoutWriteAccess(_ arguments: [String], folder: TemporaryDirectory) async throws -> ChildProcess.Result {
        let environment = ["PATH": "/usr/bin:/bin", "HOME": folder.url.path, "LANG": "C.UTF-8"]
        let command =
            geteuid() == 0
            ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", TributaryBinary.path] + arguments
            : [TributaryBinary.path] + arguments
        return try await ChildProcess(command, directory: folder.url.path, environment: environment).run(timeLimit: .seconds(120))
    }

    @Test("A state the user cannot write: status and dry runs read it; a run stops before fetching, saying what to do")
    func readOnlyState() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let folder = try await Self.folderAfterOneRun(server)
        let state = folder.path(".tributary")
        // The state's files readable by everyone (the other user included) and writable by no one but root; the lock
        // file and the folder stay usable.
        for name in try FileManager.default.contentsOfDirectory(atPath: state) {
            chmod(state + "/" + name, name.hasSuffix(".lock") ? 0o666 : 0o444)
        }
        chmod(state, 0o777)
        chmod(folder.url.path, 0o755)
        defer {
            chmod(state, 0o755)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: state)) ?? [] { chmod(state + "/" + name, 0o644) }
        }
        let requests = server.requestCount("/a.xml")

        let status = try await Self.runWithoutWriteAccess(["status"], folder: folder)
        #expect(status.status == 0, "\(status.standardError)")
        #expect(status.standardOutput.contains("a "), "\(status.standardOutput)")

        let dry = try await Self.runWithoutWriteAccess(["run", "-n", "-q"], folder: folder)
        #expect(dry.status == 0, "\(dry.standardError)")
        let requestsAfterDryRun = server.requestCount("/a.xml")
        #expect(requestsAfterDryRun == requests + 1)

        let run = try await Self.runWithoutWriteAccess(["run"], folder: folder)
        #expect(run.status == 5, "\(run.standardError)")
        #expect(run.standardError.contains("state.sqlite cannot be used: it is read-only"), "\(run.standardError)")
        #expect(run.standardError.contains("--no-state"), "the message says what to do: \(run.standardError)")
        #expect(server.requestCount("/a.xml") == requestsAfterDryRun, "nothing was fetched")
    }

    @Test("A state whose log lost its index (-shm), in a folder the user cannot write: status reads the log's changes too")
    func logWithoutItsIndex() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let folder = try await Self.folderAfterOneRun(server)
        let state = folder.path(".tributary")
        let wal = (try? FileManager.default.attributesOfItem(atPath: state + "/state.sqlite-wal")[.size] as? Int) ?? 0
        #expect(wal > 0, "the first run's changes are in the log")
        try FileManager.default.removeItem(atPath: state + "/state.sqlite-shm")
        for name in try FileManager.default.contentsOfDirectory(atPath: state) { chmod(state + "/" + name, 0o444) }
        chmod(state, 0o555)
        chmod(folder.url.path, 0o755)
        defer {
            chmod(state, 0o755)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: state)) ?? [] { chmod(state + "/" + name, 0o644) }
        }
        let status = try await Self.runWithoutWriteAccess(["status"], folder: folder)
        #expect(status.status == 0, "\(status.standardError)")
        #expect(status.standardOutput.contains("exit 0  1 source"), "the first run, from the log: \(status.standardOutput)")
        #expect(!FileManager.default.fileExists(atPath: state + "/state.sqlite-shm"), "nothing made beside it")
    }

    @Test("Changed source settings send no validators: the items are made anew, not brought back by a 304")
    func changedSettingsReadAfresh() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        Self.feed(server)
        let folder = try TemporaryDirectory()
        func config(maxItems: Int) -> String {
            "sources:\n  - name: a\n    adapter: rss\n    url: \(server.url("/a.xml"))\n    max_items: \(maxItems)\n"
                + "outputs:\n  - type: jsonfeed\n    path: out/river.json\n"
        }
        try folder.write(config(maxItems: 2), to: "feeds.yaml")
        #expect(try await TributaryBinary.run(["run", "-q"], in: folder.url.path).status == 0)
        #expect(try State.titles(folder).count == 2)
        #expect(try await TributaryBinary.run(["run", "-q", "--report", "report.json"], in: folder.url.path).status == 0)
        #expect(State.sources(try State.report(folder))["a"]?["http_status"] as? Int == 304, "unchanged settings: a 304")

        try folder.write(config(maxItems: 3), to: "feeds.yaml")
        let changed = try await TributaryBinary.run(["run", "-q", "--report", "report.json"], in: folder.url.path)
        #expect(changed.status == 0, "\(changed.standardError)")
        #expect(State.sources(try State.report(folder))["a"]?["http_status"] as? Int == 200)
        let last = try #require(server.requests("/a.xml").last)
        #expect(!last.headers.contains { $0.0.lowercased() == "if-none-match" }, "no validators with the new settings")
        #expect(try State.titles(folder) == ["Story a1", "Story a2", "Story a3"])

        #expect(try await TributaryBinary.run(["run", "-q", "--report", "report.json"], in: folder.url.path).status == 0)
        #expect(State.sources(try State.report(folder))["a"]?["http_status"] as? Int == 304, "and 304s again after")
    }

    @Test("run --source fetches only the sources named; the others keep their stored items in the river and their health")
    func onlyNamedSourcesKeepTheRiver() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        Self.feed(server)
        server.route("/b.xml", .ok(body: State.rss(["b1"]), contentType: "application/rss+xml"))
        let folder = try TemporaryDirectory()
        try folder.write(State.config(server, paths: ["a.xml", "b.xml"]) + "  - type: html\n    path: out/index.html\n", to: "feeds.yaml")
        #expect(try await TributaryBinary.run(["run", "-q"], in: folder.url.path).status == 0)
        #expect(try State.titles(folder) == ["Story a1", "Story a2", "Story a3", "Story b1"])
        let requests = server.requestCount("/a.xml")
        let health = { () async throws -> String in
            let status = try await TributaryBinary.run(["status"], in: folder.url.path).standardOutput
            return String(status.split(separator: "\n").first { $0.hasPrefix("  a ") } ?? "")
        }
        let healthBefore = try await health()

        server.route("/b.xml", .ok(body: State.rss(["b1", "b2"]), contentType: "application/rss+xml"))
        let only = try await TributaryBinary.run(["run", "-q", "-s", "b", "--report", "report.json"], in: folder.url.path)
        #expect(only.status == 0, "\(only.standardError)")
        #expect(server.requestCount("/a.xml") == requests, "a was not fetched")
        #expect(try State.titles(folder) == ["Story a1", "Story a2", "Story a3", "Story b1", "Story b2"])
        #expect(State.sources(try State.report(folder)).keys.sorted() == ["b"], "the report is of the sources run")
        #expect(try await health() == healthBefore, "a's health (last success, stored items) as it was")
        #expect(try folder.read("out/index.html").contains("All 2 sources ok"), "the page counts the sources not run too")

        // Without a state the outputs can only hold the sources named, and the run says so.
        let stateless = try await TributaryBinary.run(["run", "--no-state", "-s", "b"], in: folder.url.path)
        #expect(stateless.status == 0)
        #expect(stateless.standardError.contains("the outputs hold only the sources named"), "\(stateless.standardError)")
    }

    @Test("status --state shows the state even when the configuration is broken; without --state it needs the configuration")
    func statusWithABrokenConfiguration() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let folder = try await Self.folderAfterOneRun(server)
        try folder.write("sources: [oops\n", to: "feeds.yaml")

        let status = try await TributaryBinary.run(["status", "--state", ".tributary/state.sqlite"], in: folder.url.path)
        #expect(status.status == 0, "\(status.standardError)")
        #expect(status.standardOutput.contains("  a "), "\(status.standardOutput)")
        #expect(status.standardOutput.contains("1 source, 3 items (3 new)"), "\(status.standardOutput)")
        #expect(!status.standardOutput.contains("not configured"), "nothing to compare with")
        #expect(try await TributaryBinary.run(["status"], in: folder.url.path).status == 1)
    }

    @Test("status --format json gives a monitor the runs and each source's health")
    func statusAsJSON() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let folder = try await Self.folderAfterOneRun(server)
        let result = try await TributaryBinary.run(["status", "-f", "json"], in: folder.url.path)
        #expect(result.status == 0, "\(result.standardError)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(json["state"] as? String == folder.path(".tributary/state.sqlite"))
        let run = try #require((json["runs"] as? [[String: Any]])?.first)
        #expect(run["exit_status"] as? Int == 0 && run["items"] as? Int == 3 && run["new_items"] as? Int == 3)
        let source = try #require((json["sources"] as? [[String: Any]])?.first)
        #expect(source["name"] as? String == "a" && source["health"] as? String == "ok")
        #expect(source["consecutive_failures"] as? Int == 0 && source["http_status"] as? Int == 200)
        #expect(source["stored_items"] as? Int == 3 && source["last_error"] is NSNull && source["last_success"] is String)

        let wrong = try await TributaryBinary.run(["status", "--format", "xml"], in: folder.url.path)
        #expect(wrong.status == 1 && wrong.standardError.contains("must be text or json"))
    }

    @Test("A source taken out of the configuration is forgotten after the retention, even when nothing changes")
    func removedSourceIsForgotten() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        Self.feed(server)
        server.route("/b.xml", .cached(body: State.rss(["b1"]), contentType: "application/rss+xml", etag: "\"b-v1\"", lastModified: nil))
        let folder = try TemporaryDirectory()
        try folder.write(State.config(server, paths: ["a.xml", "b.xml"], extra: "retention: 2s\n"), to: "feeds.yaml")
        #expect(try await TributaryBinary.run(["run", "-q"], in: folder.url.path).status == 0)
        try folder.write(State.config(server, paths: ["a.xml"], extra: "retention: 2s\n"), to: "feeds.yaml")
        #expect(try await TributaryBinary.run(["run", "-q"], in: folder.url.path).status == 0)
        let kept = try await TributaryBinary.run(["status"], in: folder.url.path)
        #expect(kept.standardOutput.contains("not configured"), "kept for the retention period: \(kept.standardOutput)")

        try await Task.sleep(for: .milliseconds(2_200))
        // Every source answers 304 and the configuration is the one the outputs were made from.
        let unchanged = try await TributaryBinary.run(["run", "-v"], in: folder.url.path)
        #expect(unchanged.status == 0, "\(unchanged.standardError)")
        #expect(unchanged.standardError.contains("the outputs stay as they are"), "\(unchanged.standardError)")
        let status = try await TributaryBinary.run(["status"], in: folder.url.path)
        #expect(!status.standardOutput.contains("not configured"), "\(status.standardOutput)")
        #expect(!status.standardOutput.contains("\n  b "), "\(status.standardOutput)")
    }
}
