import Foundation
import Synchronization
import TestSupport
import Testing
import TributaryModel

@testable import TributaryCore

@Suite("Engine")
struct EngineTests {
    /// What a `SourceReport` says, minus the timing.
    struct SourceLine: Equatable {
        var name: String
        var adapter: String
        var itemCount: Int
        var failure: String?

        init(_ name: String, _ adapter: String, _ itemCount: Int, _ failure: String? = nil) {
            self.name = name
            self.adapter = adapter
            self.itemCount = itemCount
            self.failure = failure
        }

        init(_ report: SourceReport) {
            self.init(report.name, report.adapter, report.itemCount, report.failure)
            #expect(report.problems.isEmpty)
        }
    }

    /// What an `OutputReport` says.
    struct OutputLine: Equatable {
        var kind: OutputConfig.Kind
        var path: String?
        var itemCount: Int
        var failure: String?

        init(_ kind: OutputConfig.Kind, _ path: String?, _ itemCount: Int, _ failure: String? = nil) {
            self.kind = kind
            self.path = path
            self.itemCount = itemCount
            self.failure = failure
        }

        init(_ report: OutputReport) { self.init(report.kind, report.path, report.itemCount, report.failure) }
    }

    /// Collects what the engine logs.
    final class LogCollector: Sendable {
        private let records = Mutex<[Logger.Record]>([])

        var logger: Logger { Logger(minimumLevel: .warning) { record in self.records.withLock { $0.append(record) } } }
        var all: [Logger.Record] { records.withLock { $0 } }
    }

    /// A configuration file written to a fresh folder, and the engine's run of it.
    struct Scenario {
        let folder: TemporaryDirectory
        let configuration: Configuration
        let fetcher = InMemoryFetcher()
        let log = LogCollector()

        init(_ text: String) throws {
            folder = try TemporaryDirectory()
            configuration = try makeLoader().load(file: try folder.write(text, to: "feeds.yaml"))
        }

        func run(_ options: RunOptions = RunOptions()) async -> RunReport {
            await Engine(fetcher: fetcher, logger: log.logger, clock: { fixedNow }).run(configuration, options: options)
        }

        func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: folder.path(name)) }
    }

    /// The ids of a JSON Feed document's items.
    /// The items' ids in a JSON Feed output: `urn:tributary:<source>:<id>` for ids that are no IRIs.
    static func jsonFeedIDs(_ text: String) throws -> [String] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["version"] as? String == "https://jsonfeed.org/version/1.1")
        let items = try #require(object["items"] as? [[String: Any]])
        return items.compactMap { $0["id"] as? String }
    }

    static let threeOutputs = """
        outputs:
          - {type: atom, path: out/river.atom}
          - {type: jsonfeed, path: out/river.json, limit: 2}
          - {type: stdout}
        """

    @Test("one failing source: the others are written, the failure is reported, the status is partial failure")
    func partialFailure() async throws {
        let scenario = try Scenario(
            """
            title: Engine test
            sources:
              - {name: good, adapter: static, count: 3}
              - {name: broken, adapter: fixed, count: 2, fail: "the API answered 'maintenance'"}
              - {name: remote, adapter: static, count: 1, url: "https://feeds.example.org/remote.json"}
            \(Self.threeOutputs)
            """)
        let report = await scenario.run()

        #expect(report.status == .partialFailure)
        #expect(report.started == fixedNow)
        #expect(
            report.sources.map(SourceLine.init) == [
                SourceLine("good", "static", 3),
                SourceLine("broken", "fixed", 0, "the API answered 'maintenance'"),
                SourceLine("remote", "static", 0, "https://feeds.example.org/remote.json: connection refused"),
            ])
        #expect(
            report.outputs.map(OutputLine.init) == [
                OutputLine(.atom, "out/river.atom", 3), OutputLine(.jsonfeed, "out/river.json", 2), OutputLine(.stdout, nil, 3),
            ])
        #expect(report.items.map(\.id) == ["good-1", "good-2", "good-3"])
        #expect(try Self.jsonFeedIDs(scenario.folder.read("out/river.json")) == ["urn:tributary:good:good-1", "urn:tributary:good:good-2"])
        #expect(try scenario.folder.read("out/river.atom").components(separatedBy: "</entry>").count - 1 == 3)
        #expect(
            report.standardOutput == """
                1. good 1
                   good · 1 h ago · https://example.org/good/1
                2. good 2
                   good · 2 h ago · https://example.org/good/2
                3. good 3
                   good · 3 h ago · https://example.org/good/3

                """)
        // The two sources fail concurrently, so their records may come in either order.
        #expect(
            Set(scenario.log.all) == [
                Logger.Record(level: .error, message: "failed: the API answered 'maintenance'", source: "broken"),
                Logger.Record(
                    level: .error, message: "failed: https://feeds.example.org/remote.json: connection refused", source: "remote"),
            ])
        #expect(scenario.log.all.count == 2)
    }

    @Test("every source failing: nothing is written, the previous files stay, the status is nothing produced")
    func totalFailure() async throws {
        let scenario = try Scenario(
            """
            sources:
              - {name: one, adapter: static, count: 1, fail: down}
              - {name: two, adapter: static, count: 1, url: "https://nowhere.example.org/feed"}
            \(Self.threeOutputs)
            """)
        try scenario.folder.write("previous atom\n", to: "out/river.atom")
        try scenario.folder.write("previous json\n", to: "out/river.json")
        let report = await scenario.run()

        #expect(report.status == .nothingProduced)
        #expect(
            report.sources.map(SourceLine.init) == [
                SourceLine("one", "static", 0, "down"),
                SourceLine("two", "static", 0, "https://nowhere.example.org/feed: connection refused"),
            ])
        let kept = "not written: every source failed, so the previous file is kept"
        #expect(
            report.outputs.map(OutputLine.init) == [
                OutputLine(.atom, "out/river.atom", 0, kept), OutputLine(.jsonfeed, "out/river.json", 0, kept),
                OutputLine(.stdout, nil, 0, "not printed: every source failed"),
            ])
        #expect(report.items == [])
        #expect(report.standardOutput == "")
        #expect(try scenario.folder.read("out/river.atom") == "previous atom\n")
        #expect(try scenario.folder.read("out/river.json") == "previous json\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scenario.folder.path("out")).sorted() == ["river.atom", "river.json"])
    }

    @Test("every source succeeding: success, one river from all of them, requests carry the source's limits")
    func success() async throws {
        let scenario = try Scenario(
            """
            defaults:
              max_size: 1MB
            sources:
              - {name: a, adapter: static, count: 2, spacing: 10m}
              - {name: b, adapter: static, count: 2, spacing: 15m, url: "https://feeds.example.org/b", timeout: 5s}
              - {name: off, adapter: static, count: 2, enabled: false}
            \(Self.threeOutputs)
            """)
        scenario.fetcher.serve("https://feeds.example.org/b", body: "{}")
        let report = await scenario.run()

        #expect(report.status == .success)
        #expect(report.sources.map(SourceLine.init) == [SourceLine("a", "static", 2), SourceLine("b", "static", 2)])
        #expect(report.items.map(\.id) == ["a-1", "b-1", "a-2", "b-2"])
        #expect(
            report.items.map(\.url) == [
                "https://example.org/a/1", "https://feeds.example.org/b/1", "https://example.org/a/2", "https://feeds.example.org/b/2",
            ])
        #expect(try Self.jsonFeedIDs(scenario.folder.read("out/river.json")) == ["urn:tributary:a:a-1", "urn:tributary:b:b-1"])
        #expect(
            scenario.fetcher.requests == [
                FetchRequest(url: try #require(URL(string: "https://feeds.example.org/b")), timeout: .seconds(5), maxBytes: 1 << 20)
            ])
        #expect(scenario.log.all == [])
    }

    @Test("only the named sources run")
    func onlySources() async throws {
        let scenario = try Scenario(
            """
            sources:
              - {name: a, adapter: static, count: 1}
              - {name: b, adapter: static, count: 1, fail: down}
              - {name: c, adapter: static, count: 1}
              - {name: d, adapter: static, count: 1, enabled: false}
            """)
        let report = await scenario.run(RunOptions(onlySources: ["c", "a"]))
        #expect(report.status == .success)
        #expect(report.sources.map(SourceLine.init) == [SourceLine("a", "static", 1), SourceLine("c", "static", 1)])
        #expect(report.items.map(\.id) == ["a-1", "c-1"])

        // Naming a disabled source runs it (the command line checks names against every source).
        let disabled = await scenario.run(RunOptions(onlySources: ["d"]))
        #expect(disabled.sources.map(SourceLine.init) == [SourceLine("d", "static", 1)])
    }

    @Test("a standard output format adds a listing when the configuration has none")
    func standardOutputAdded() async throws {
        let scenario = try Scenario(
            """
            sources:
              - {name: a, adapter: static, count: 2}
            outputs:
              - {type: jsonfeed, path: river.json}
            """)
        let report = await scenario.run(RunOptions(standardOutputFormat: .text))
        #expect(report.outputs.map(OutputLine.init) == [OutputLine(.jsonfeed, "river.json", 2), OutputLine(.stdout, nil, 2)])
        #expect(report.standardOutput == TextListing(now: fixedNow).render(report.items))
        #expect(report.standardOutput.hasPrefix("1. a 1\n   a · 1 h ago · https://example.org/a/1\n"))
        #expect(scenario.exists("river.json"))
    }

    @Test("a standard output format replaces the configured one, keeping its limit")
    func standardOutputReplaced() async throws {
        let scenario = try Scenario(
            """
            sources:
              - {name: a, adapter: static, count: 3}
            outputs:
              - {type: stdout, format: text, limit: 2}
            """)
        let report = await scenario.run(RunOptions(standardOutputFormat: .json))
        #expect(report.outputs.map(OutputLine.init) == [OutputLine(.stdout, nil, 2)])
        #expect(try Self.jsonFeedIDs(report.standardOutput) == ["urn:tributary:a:a-1", "urn:tributary:a:a-2"])
    }

    @Test("a dry run reads every source and writes no file")
    func dryRun() async throws {
        let scenario = try Scenario(
            """
            sources:
              - {name: a, adapter: static, count: 2}
            \(Self.threeOutputs)
            """)
        let report = await scenario.run(RunOptions(dryRun: true))
        #expect(report.status == .success)
        #expect(report.items.map(\.id) == ["a-1", "a-2"])
        #expect(report.standardOutput == TextListing(now: fixedNow).render(report.items))
        #expect(!scenario.exists("out"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scenario.folder.url.path) == ["feeds.yaml"])
    }

    @Test("one job at a time still runs every source, reported in configuration order", arguments: [1, 2, 8])
    func jobs(_ jobs: Int) async throws {
        let names = ["e", "d", "c", "b", "a"]
        let scenario = try Scenario(
            "sources:\n" + names.map { "  - {name: \($0), adapter: static, count: 1}\n" }.joined()
                + "outputs:\n  - {type: jsonfeed, path: river.json}\n")
        let report = await scenario.run(RunOptions(jobs: jobs))
        #expect(report.status == .success)
        #expect(report.sources.map(SourceLine.init) == names.map { SourceLine($0, "static", 1) })
        #expect(report.items.map(\.id) == ["a-1", "b-1", "c-1", "d-1", "e-1"])  // equal dates: by source name
        #expect(
            try Self.jsonFeedIDs(scenario.folder.read("river.json")) == [
                "urn:tributary:a:a-1", "urn:tributary:b:b-1", "urn:tributary:c:c-1", "urn:tributary:d:d-1", "urn:tributary:e:e-1",
            ])
    }

    @Test("an output that cannot be written is reported and the others are still written")
    func outputFailure() async throws {
        let scenario = try Scenario(
            """
            sources:
              - {name: a, adapter: static, count: 1}
            outputs:
              - {type: atom, path: blocked/river.atom}
              - {type: jsonfeed, path: river.json}
            """)
        try scenario.folder.write("a file where a folder should be\n", to: "blocked/river.atom/x")
        let report = await scenario.run()
        #expect(report.status == .partialFailure)
        #expect(
            report.outputs.map(OutputLine.init) == [
                OutputLine(.atom, "blocked/river.atom", 1, "cannot move into place: Is a directory"),
                OutputLine(.jsonfeed, "river.json", 1),
            ])
        #expect(try Self.jsonFeedIDs(scenario.folder.read("river.json")) == ["urn:tributary:a:a-1"])
    }
}
