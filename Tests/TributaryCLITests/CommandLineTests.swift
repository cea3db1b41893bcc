import Foundation
import TestSupport
import Testing
import TributaryCLI

/// The command line run in-process: commands, help, usage errors and `check`'s diagnostics.
@Suite("Command line")
struct CommandLineTests {
    private func run(_ arguments: [String], environment: [String: String] = [:]) async -> (status: Int32, out: String, err: String) {
        let console = CapturedConsole()
        let status = await CommandLineTool.main(arguments, console: console, environment: environment)
        return (status, console.standardOutput, console.standardError)
    }

    @Test func helpListsCommandsAndExitStatuses() async {
        let result = await run(["--help"])
        #expect(result.status == 0)
        for word in ["run", "check", "adapters", "import-opml", "export-opml", "version", "Exit status:", "3  nothing could be produced"] {
            #expect(result.out.contains(word), "help lacks \(word)")
        }
        #expect(result.err.isEmpty)
    }

    @Test func noCommandIsAUsageError() async {
        let result = await run([])
        #expect(result.status == 1)
        #expect(result.err.contains("Usage: tributary <command>"))
        #expect(result.out.isEmpty)
    }

    @Test(arguments: [["version"], ["--version"], ["-V"]])
    func version(_ arguments: [String]) async {
        let result = await run(arguments)
        #expect(result.status == 0)
        #expect(result.out == "tributary 0.1.0\n")
    }

    @Test func unknownCommandSuggestsTheClosest() async {
        let result = await run(["rnu"])
        #expect(result.status == 1)
        #expect(result.err == "tributary: unknown command 'rnu'; did you mean 'run'?\nTry 'tributary --help' for more information.\n")
    }

    @Test(arguments: [
        (["run", "--confg", "x.yaml"], "tributary: unknown option '--confg'; did you mean '--config'?"),
        (["run", "--format", "xml"], "tributary: option '--format' must be text or json, not 'xml'"),
        (["run", "--jobs=0"], "tributary: option '--jobs' must be a number from 1 to 256, not '0'"),
        (["run", "--config"], "tributary: option '--config' needs a value (FILE)"),
        (["check", "--quiet=yes"], "tributary: option '--quiet' does not take a value"),
        (["version", "extra"], "tributary: unexpected argument 'extra'"),
        (["run", "--wait", "10m"], "tributary: unexpected argument '10m'; use '--wait=10m' (its value must follow '=')"),
        (["run", "--wait", "soon"], "tributary: unexpected argument 'soon'"),
        (
            ["parse", "--timezone=CST", "feed.xml"],
            "tributary: option '--timezone': 'CST' is an abbreviation, not an IANA time zone name; write Asia/Shanghai (China) or America/Chicago (US Central)"
        ),
        (["run", "--wait=1e300"], "tributary: option '--wait' is too large: at most 36500d (100 years), not '1e300'"),
        (
            ["run", "--every=20000000000000000"],
            "tributary: option '--every' is too large: at most 36500d (100 years), not '20000000000000000'"
        ),
    ])
    func usageErrors(_ arguments: [String], _ firstLine: String) async {
        let result = await run(arguments)
        #expect(result.status == 1)
        let lines = result.err.split(separator: "\n").map(String.init)
        #expect(lines.first == firstLine)
        #expect(lines.last == "Try 'tributary \(arguments[0]) --help' for more information.")
    }

    @Test func everyUsageErrorIsReportedAtOnce() async {
        let result = await run(["run", "--bogus", "-x", "--config"])
        #expect(result.status == 1)
        #expect(
            result.err.split(separator: "\n").map(String.init) == [
                "tributary: unknown option '--bogus'",
                "tributary: unknown option '-x'",
                "tributary: option '--config' needs a value (FILE)",
                "Try 'tributary run --help' for more information.",
            ])
    }

    @Test(arguments: ["run", "check", "adapters", "version", "help"])
    func commandHelp(_ command: String) async {
        let result = await run([command, "--help"])
        #expect(result.status == 0)
        #expect(result.out.hasPrefix("Usage: tributary \(command)"))
        let viaHelp = await run(["help", command])
        #expect(viaHelp.out == result.out)
    }

    @Test func adaptersListsOptions() async {
        let result = await run(["adapters"])
        #expect(result.status == 0)
        #expect(result.out.contains("jsonfeed (also: json_feed)"))
        #expect(
            result.out.contains(
                "url  URL or path  the feed: an http(s) URL, a file: URL or a path relative to the configuration (required)"))
        #expect(result.out.contains("Every source also accepts:"))
        for key in ["insecure", "stale_after", "interval", "backoff", "rules"] {
            #expect(result.out.contains("\n    \(key) "), "the common key '\(key)' is listed")
        }
    }

    @Test("adapters names the zone a source without 'timezone' gets: kanzhihu's own wins over defaults.timezone")
    func adaptersNamesEachAdaptersDefaultZone() async {
        let out = await run(["adapters"]).out
        #expect(
            out.contains(
                "  Dates without a zone are read in Asia/Shanghai unless the source sets 'timezone' (defaults.timezone does not apply).\n"))
        #expect(
            out.contains(
                "IANA zone for dates without one (default: Asia/Shanghai for kanzhihu; for the others defaults.timezone or UTC)\n"))
        #expect(!out.contains("(default: defaults.timezone or UTC)"))
    }

    @Test func checkAcceptsAValidConfiguration() async throws {
        let folder = try CLIFixtures.folderWithFeeds()
        let config = try folder.write(CLIFixtures.standardConfig, to: "feeds.yaml")
        let result = await run(["check", "-c", config])
        #expect(result.status == 0)
        #expect(result.out == "\(config): ok: 2 sources, outputs: out/river.atom, out/river.json, stdout\n")
        #expect(result.err.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.path("out")), "check must write nothing")
    }

    /// The four kinds of mistake the issue names, each reported as one line with its position.
    @Test(arguments: [
        (
            "a typo'd key",
            "sources:\n  - name: a\n    adapter: jsonfeed\n    urll: x.json\n",
            "4:5: error: unknown key 'urll' in source 'a' (adapter 'jsonfeed'); did you mean 'url'?"
        ),
        (
            "a wrong type",
            "sources:\n  - name: a\n    adapter: jsonfeed\n    url: x.json\n    max_items: many\n",
            "5:16: error: 'max_items' must be an integer, found 'many'"
        ),
        (
            "a missing required option",
            "sources:\n  - name: a\n    adapter: jsonfeed\n",
            "2:5: error: source 'a': missing required option 'url' for adapter 'jsonfeed' (the feed: an http(s) URL, a file: URL or a path relative to the configuration)"
        ),
        (
            "a command written as one string, as for a shell",
            "sources:\n  - name: a\n    adapter: command\n    command: \"cat feed.json\"\n",
            "4:14: error: 'command' must be a list, found 'cat feed.json'; write [cat, feed.json]"
        ),
        (
            "a command's environment written as one string",
            "sources:\n  - name: a\n    adapter: command\n    command: [cat, feed.json]\n    env: FOO\n",
            "5:10: error: 'env' must be a list, found 'FOO'; write [FOO]"
        ),
        (
            "a YAML syntax error",
            "sources:\n  - name: a\n    adapter: [jsonfeed\n",
            "4:1: error: did not find expected ',' or ']' (while parsing a flow sequence that started at 3:14)"
        ),
    ])
    func checkReportsOneLinePerError(_ kind: String, _ yaml: String, _ expected: String) async throws {
        let folder = try TemporaryDirectory()
        let config = try folder.write(yaml, to: "broken.yaml")
        let result = await run(["check", "--config=\(config)"])
        #expect(result.status == 1, "\(kind)")
        let lines = result.err.split(separator: "\n").map(String.init)
        #expect(lines == ["\(config):\(expected)", "tributary: 1 error in \(config)"], "\(kind)")
        #expect(result.out.isEmpty)
    }

    @Test func checkListsEveryError() async throws {
        let folder = try TemporaryDirectory()
        let yaml = """
            titel: x
            sources:
              - name: a
                adapter: jsonfed
              - name: b
                adapter: jsonfeed
                url: b.json
                enabled: maybe
              - name: b
                adapter: jsonfeed
                url: c.json
            outputs:
              - type: atom

            """
        let config = try folder.write(yaml, to: "feeds.yaml")
        let result = await run(["check", "-c", config])
        #expect(result.status == 1)
        let lines = result.err.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "\(config):1:1: error: unknown key 'titel' at the top level; did you mean 'title'?",
                "\(config):4:14: error: source 'a': unknown adapter 'jsonfed'; did you mean 'jsonfeed'? (run 'tributary adapters' to list them)",
                "\(config):8:14: error: 'enabled' must be true or false, found 'maybe'",
                "\(config):9:5: error: duplicate source name 'b' (first used at line 5); names must be unique",
                "\(config):13:5: error: the 'atom' output needs a 'path' for its file",
                "tributary: 5 errors in \(config)",
            ])
    }

    /// A source's problem is logged as a warning once, not as `warning: [s] error: …`.
    @Test func aSourcesProblemIsLoggedWithOneLabel() async throws {
        let folder = try TemporaryDirectory()
        try folder.write(#"{"list": [{"id": 1, "title": "a"}, {"n": 2}]}"#, to: "data.json")
        let yaml = "sources:\n  - {name: s, adapter: json, url: data.json, items: 'list[*]', fields: {id: id, title: title}}\n"
        let config = try folder.write(yaml, to: "feeds.yaml")
        let result = await run(["run", "-c", config, "--no-state"])
        #expect(result.status == 0, "\(result.err)")
        let lines = result.err.split(separator: "\n").filter { $0.hasPrefix("warning: [s] ") }
        #expect(lines.count == 1, "\(result.err)")
        #expect(lines.allSatisfy { !$0.contains("] error: ") && $0.hasSuffix("item skipped") }, "\(result.err)")
    }

    @Test func missingConfigurationFile() async throws {
        let folder = try TemporaryDirectory()
        let result = await run(["check", "-c", folder.path("nope.yaml")])
        #expect(result.status == 1)
        #expect(result.err.hasPrefix("\(folder.path("nope.yaml")): error: the configuration file does not exist\n"))
    }

    @Test func environmentVariablesFillValues() async throws {
        let folder = try CLIFixtures.folderWithFeeds()
        let yaml = "sources:\n  - name: e\n    adapter: jsonfeed\n    url: ${FEED_DIR:-feeds}/english.json\n    max_items: ${MAX}\n"
        let config = try folder.write(yaml, to: "feeds.yaml")
        let missing = await run(["check", "-c", config])
        #expect(missing.status == 1)
        #expect(
            missing.err.contains("5:16: error: 'max_items': environment variable 'MAX' is not set (write ${MAX:-default} for a fallback)"))
        let present = await run(["run", "-c", config, "-q"], environment: ["MAX": "2"])
        #expect(present.status == 0)
        #expect(present.out.split(separator: "\n").filter { !$0.hasPrefix(" ") }.map { $0.prefix(3) } == ["1. ", "2. "])
    }

    @Test func runOnlyNamedSources() async throws {
        let folder = try CLIFixtures.folderWithFeeds()
        let config = try folder.write(CLIFixtures.standardConfig, to: "feeds.yaml")
        let typo = await run(["run", "-c", config, "--source", "englsh"])
        #expect(typo.status == 1)
        #expect(typo.err.contains("no source named 'englsh' in \(config); did you mean 'english'?"))
        let only = await run(["run", "-c", config, "-s", "chinese", "--dry-run", "--format", "json"])
        #expect(only.status == 0)
        let feed = try JSONSerialization.jsonObject(with: Data(only.out.utf8)) as? [String: Any]
        let items = feed?["items"] as? [[String: Any]] ?? []
        #expect(items.count == 4)
        #expect(items.allSatisfy { ($0["_tributary"] as? [String: Any])?["source"] as? String == "chinese" })
        #expect(!FileManager.default.fileExists(atPath: folder.path("out/river.atom")), "--dry-run writes no files")
    }
}

extension CommandLineTests {
    /// The README's template example: an `x-` key holds an anchor that sources merge in.
    @Test func templatesWithAnchorsAndMergeKeys() async throws {
        let folder = try CLIFixtures.folderWithFeeds()
        let yaml = """
            x-zh: &zh {timezone: Asia/Shanghai, tags: [中文]}
            sources:
              - {<<: *zh, name: digest, adapter: jsonfeed, url: feeds/chinese.json}
              - <<: *zh
                name: notes
                adapter: jsonfeed
                url: feeds/english.json
                tags: [english]
            outputs:
              - type: stdout
                format: json

            """
        let config = try folder.write(yaml, to: "feeds.yaml")
        let result = await run(["run", "-c", config])
        #expect(result.status == 0, "\(result.err)")
        let feed = try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any]
        let items = feed?["items"] as? [[String: Any]] ?? []
        let tags = Dictionary(grouping: items) { ($0["_tributary"] as? [String: Any])?["source"] as? String ?? "" }
            .mapValues { Set($0.flatMap { $0["tags"] as? [String] ?? [] }) }
        #expect(tags["digest"]?.contains("中文") == true)
        #expect(tags["notes"]?.contains("english") == true)
        #expect(tags["notes"]?.contains("中文") == false, "an explicit key wins over the merged one")
    }
}

extension CommandLineTests {
    @Test func heldLockSaysToWaitOrHowLongItWaited() async throws {
        let folder = try CLIFixtures.folderWithFeeds()
        let config = try folder.write(CLIFixtures.standardConfig, to: "feeds.yaml")
        let state = folder.path("state.sqlite")
        let held = try HeldLock(path: state + ".lock")
        defer { held.release() }
        let holder = "\(held.path) (PID \(getpid()))"

        let refused = await run(["run", "-c", config, "--state", state])
        #expect(refused.status == 4)
        #expect(refused.err == "tributary: another run holds the lock \(holder); use --wait to wait for it to finish\n")

        let waited = await run(["run", "-c", config, "--state", state, "--wait=1s"])
        #expect(waited.status == 4)
        #expect(
            waited.err == """
                tributary: waiting for the lock \(held.path) held by PID \(getpid()) (at most 1s)
                tributary: another run still holds the lock \(holder) after waiting 1s

                """)

        let quiet = await run(["run", "-c", config, "--state", state, "--wait=500ms", "-q"])
        #expect(quiet.status == 4)
        #expect(quiet.err == "tributary: another run still holds the lock \(holder) after waiting 500ms\n", "-q: no waiting line")
        #expect(!FileManager.default.fileExists(atPath: folder.path("out")), "nothing was written")
    }

    @Test func unusableLockFileSaysWhatToDo() async throws {
        let folder = try CLIFixtures.folderWithFeeds()
        let config = try folder.write(CLIFixtures.standardConfig, to: "feeds.yaml")
        let state = folder.path("state.sqlite")
        // A folder where the lock file should be: open(2) refuses it even to root, as it refuses
        // a file in a folder the user cannot write to.
        try FileManager.default.createDirectory(atPath: state + ".lock", withIntermediateDirectories: true)
        let result = await run(["run", "-c", config, "--state", state])
        #expect(result.status == 5)
        #expect(
            result.err
                == "tributary: cannot use the lock file \(state).lock: Is a directory; the lock file and its folder must be writable"
                + " by the user running tributary (on a disk that is not read-only); or use --state FILE or --no-state\n")
    }
}
