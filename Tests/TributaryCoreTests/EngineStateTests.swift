import Foundation
import Synchronization
import TestSupport
import Testing
import TributaryModel

@testable import TributaryCore
@testable import TributaryState

/// `adapter: dateless` — items without dates whose titles the test changes between runs.
struct DatelessAdapter: SourceAdapter {
    static let kind = "dateless"
    static let summary = "Items without dates, for tests of first-seen times"
    static let options = [AdapterOption("ids", .string, required: true, help: "comma-separated ids")]
    var ids: [String]

    init(options: AdapterOptions) throws(ConfigError) {
        ids = (options.string("ids") ?? "").split(separator: ",").map(String.init)
    }

    func fetch(in context: FetchContext) async throws -> SourceResult {
        SourceResult(items: ids.map { Item(id: $0, source: context.sourceName, url: "https://example.org/\($0)", title: "Story \($0)") })
    }
}

@Suite("Engine with a state store")
struct EngineStateTests {
    func configuration(_ ids: String, in folder: TemporaryDirectory) throws -> Configuration {
        let loader = ConfigLoader(registry: AdapterRegistry([DatelessAdapter.self, StaticAdapter.self]), environment: [:])
        return try loader.load(
            file: try folder.write(
                "sources:\n  - {name: d, adapter: dateless, ids: \"\(ids)\"}\noutputs:\n  - {type: stdout}\n", to: "feeds.yaml"))
    }

    @Test("An item without a date is dated when first seen, and keeps that date on later runs")
    func firstSeenDates() async throws {
        let folder = try TemporaryDirectory()
        let store = try StateStore(path: folder.path("state.sqlite"))
        let first = await Engine(fetcher: InMemoryFetcher(), clock: { fixedNow }, state: store)
            .run(try configuration("a,b", in: folder))
        #expect(first.items.map(\.published) == [fixedNow, fixedNow])
        #expect(first.newItemCount == 2)

        let second = await Engine(fetcher: InMemoryFetcher(), clock: { at(3600) }, state: store)
            .run(try configuration("c,a", in: folder))
        let dates = Dictionary(uniqueKeysWithValues: second.items.map { ($0.id, $0.published) })
        #expect(dates == ["a": fixedNow, "b": fixedNow, "c": at(3600)], "b stays as history; c is dated now")
        #expect(second.items.first?.id == "c", "newest first")
        #expect(second.newItemCount == 1)
        #expect(second.sources.first?.status == .ok)

        // Without a state, the date is the run's time every time.
        let stateless = await Engine(fetcher: InMemoryFetcher(), clock: { at(7200) }).run(try configuration("a", in: folder))
        #expect(stateless.items.map(\.published) == [at(7200)])
        #expect(stateless.newItemCount == nil)
    }

    @Test("A dry run reads the state but writes nothing to it")
    func dryRunWritesNoState() async throws {
        let folder = try TemporaryDirectory()
        let store = try StateStore(path: folder.path("state.sqlite"))
        let engine = Engine(fetcher: InMemoryFetcher(), clock: { fixedNow }, state: store)
        _ = await engine.run(try configuration("a", in: folder), options: RunOptions(dryRun: true))
        #expect(try store.recentRuns(limit: 5).isEmpty)
        #expect(try store.histories(for: ["d"])["d"]?.items.isEmpty == true)
        _ = await engine.run(try configuration("a", in: folder))
        #expect(try store.recentRuns(limit: 5).count == 1)
    }

    @Test("Stored items damaged on disk are left out of the river with a warning naming the source and the file")
    func damagedStoredItems() async throws {
        let folder = try TemporaryDirectory()
        let store = try StateStore(path: folder.path("state.sqlite"))
        _ = await Engine(fetcher: InMemoryFetcher(), clock: { fixedNow }, state: store).run(try configuration("a,b", in: folder))
        // Item b's title ("Story b") overwritten with bytes that are not UTF-8, its length intact.
        try store.damageForTests(source: "d", id: "b", text: "Story b")
        let log = EngineTests.LogCollector()
        let report = await Engine(fetcher: InMemoryFetcher(), logger: log.logger, clock: { at(3600) }, state: store)
            .run(try configuration("c", in: folder))
        #expect(Set(report.items.map(\.id)) == ["a", "c"])
        let warning = try #require(log.all.first { $0.message.contains("damaged in") })
        #expect(warning.source == "d")
        #expect(warning.message == "1 stored item is damaged in \(folder.path("state.sqlite")) and left out of the river")
    }

    @Test("Progress is reported per source and per body received")
    func progress() async throws {
        let folder = try TemporaryDirectory()
        let fetcher = InMemoryFetcher()
        fetcher.serve("https://feeds.example.org/a", body: String(repeating: "x", count: 1000))
        let configuration = try ConfigLoader(registry: AdapterRegistry([StaticAdapter.self]), environment: [:]).load(
            file: try folder.write(
                """
                sources:
                  - {name: a, adapter: static, count: 1, url: "https://feeds.example.org/a"}
                  - {name: b, adapter: static, count: 1, fail: nope}
                outputs: [{type: stdout}]
                """, to: "feeds.yaml"))
        let seen = ProgressLog()
        var options = RunOptions()
        options.progress = { seen.append($0) }
        _ = await Engine(fetcher: fetcher, clock: { fixedNow }).run(configuration, options: options)
        let last = try #require(seen.all.last)
        #expect(last == RunProgress(done: 2, total: 2, bytes: 1000, failed: 1))
        // Two "finished" reports and one for the body, which comes before its source finishes.
        #expect(seen.all.count == 3)
        #expect(seen.all.contains { $0.bytes == 1000 && $0.done < 2 })
    }

    final class ProgressLog: Sendable {
        private let entries = Mutex<[RunProgress]>([])
        func append(_ progress: RunProgress) { entries.withLock { $0.append(progress) } }
        var all: [RunProgress] { entries.withLock { $0 } }
    }
}

@Suite("Engine: which validators a run sends")
struct ValidatorOfferTests {
    func source(maxItems: Int?, in folder: TemporaryDirectory) throws -> SourceConfig {
        let loader = ConfigLoader(registry: AdapterRegistry([DatelessAdapter.self]), environment: [:])
        let limit = maxItems.map { ", max_items: \($0)" } ?? ""
        let configuration = try loader.load(
            file: try folder.write("sources:\n  - {name: d, adapter: dateless, ids: \"a\"\(limit)}\n", to: "feeds.yaml"))
        return try #require(configuration.sources.first)
    }

    @Test("The stored validators go out only with the settings and the id scheme they were stored with")
    func offer() throws {
        let folder = try TemporaryDirectory()
        let source = try source(maxItems: nil, in: folder)
        var history = SourceHistory(name: "d")
        #expect(Engine.offer(history, for: source) == nil, "nothing stored")
        history.validators = StoredValidators(url: "http://127.0.0.1/a", etag: "\"1\"", lastModified: nil, settings: source.settingsDigest)
        history.identityScheme = StableID.schemeVersion
        #expect(Engine.offer(history, for: source)?.validators.etag == "\"1\"")
        #expect(Engine.offer(history, for: source)?.url == "http://127.0.0.1/a")

        #expect(Engine.offer(history, for: try self.source(maxItems: 5, in: folder)) == nil, "other settings")
        var older = history
        older.identityScheme = StableID.schemeVersion - 1
        #expect(Engine.offer(older, for: source) == nil, "ids of an older scheme must be re-keyed by a full answer")
        var before = history
        before.validators?.settings = nil
        #expect(Engine.offer(before, for: source) == nil, "validators stored before settings were kept")
    }

    @Test("The settings digest follows what shapes the items, not the source's name, weight, tags or rules")
    func settingsDigest() throws {
        let loader = ConfigLoader(registry: AdapterRegistry([DatelessAdapter.self]), environment: [:])
        let folder = try TemporaryDirectory()
        func digest(_ entry: String) throws -> String {
            let configuration = try loader.load(file: try folder.write("sources:\n  - {\(entry)}\n", to: "feeds.yaml"))
            return try #require(configuration.sources.first).settingsDigest
        }
        let base = try digest("name: d, adapter: dateless, ids: \"a,b\"")
        #expect(try digest("name: e, adapter: dateless, ids: \"a,b\", weight: 2, tags: [x]") == base)
        #expect(try digest("name: d, adapter: dateless, ids: \"a,b,c\"") != base)
        #expect(try digest("name: d, adapter: dateless, ids: \"a,b\", max_items: 1") != base)
        #expect(try digest("name: d, adapter: dateless, ids: \"a,b\", timezone: Asia/Shanghai") != base)
    }
}

extension StateStore {
    /// Overwrites the bytes of `text` in a stored item's data with bytes that are not UTF-8, its length intact: as a
    /// bad sector or a stray write would leave them.
    func damageForTests(source: String, id: String, text: String) throws {
        try access { database throws(SQLiteError) in
            let query = try database.prepare("SELECT data FROM items WHERE source = ? AND id = ?")
            query.bind(.text(source), .text(id))
            guard try query.step() else { return }
            var bytes = query.withBytes(0) { Array($0) }
            let needle = Array(text.utf8)
            guard let start = bytes.indices.first(where: { bytes[$0...].starts(with: needle) }) else { return }
            bytes.replaceSubrange(start..<start + needle.count, with: [UInt8](repeating: 0xFF, count: needle.count))
            try database.prepare("UPDATE items SET data = ? WHERE source = ? AND id = ?").bind(.blob(bytes), .text(source), .text(id)).run()
        }
    }
}
