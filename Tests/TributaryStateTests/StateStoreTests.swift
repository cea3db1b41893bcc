import Foundation
import TestSupport
import Testing
import TributaryJSON
import TributaryModel

@testable import TributaryState

@Suite("State store: files, schema, corruption")
struct StateStoreTests {
    let now = Date(timeIntervalSince1970: 1_780_000_000)

    @Test("Items survive the codec with every field, dates to the fraction of a second")
    func codecRoundTrip() {
        var item = Item(
            id: "a-1", source: "news", url: "https://example.com/a", title: "标题 & <title>", summary: "sum",
            contentHTML: "<p>x</p>", image: "https://example.com/i.png",
            authors: [Author(name: "Ann", url: "https://ann.example", avatar: "https://ann.example/a.png"), Author(name: "Bo")],
            published: Date(timeIntervalSince1970: 1_700_000_000.123), updated: Date(timeIntervalSince1970: 1_700_000_100),
            tags: ["swift", "新闻"],
            attachments: [
                Attachment(url: "https://e.com/a.mp3", mimeType: "audio/mpeg", title: "ep", sizeInBytes: 12, durationInSeconds: 60)
            ],
            metrics: ["comments": 4, "likes": 10],
            extras: ["pinned": .bool(true), "layout": .string("three"), "ratio": .double(1.5), "rank": .int(3)],
            duplicates: [DuplicateReference(source: "other", url: "https://o.example/a", title: "Same")])
        item.score = nil
        let decoded = ItemCodec.decodeItem(ItemCodec.encode(item))
        #expect(decoded == item)
        let minimal = Item(id: "m", source: "s")
        #expect(ItemCodec.decodeItem(ItemCodec.encode(minimal)) == minimal)
        #expect(ItemCodec.decodeItem(Array("not json".utf8)) == nil)
        let feed = FeedInfo(title: "T", homePageURL: "https://e.com", authors: [Author(name: "A")], language: "zh", updated: now)
        #expect(ItemCodec.decodeFeed(ItemCodec.encode(feed)) == feed)
    }

    /// Items with every optional field present, empty or absent in turn, and odd values.
    static func generatedItems(count: Int, seed: UInt64) -> [Item] {
        var generator = SeededGenerator(seed: seed)
        func text() -> String? {
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: nil
            case 1: ""
            case 2: "知乎 \u{0} \"q\" 😀"
            default: String(repeating: "x", count: Int.random(in: 1...300, using: &generator))
            }
        }
        func date() -> Date? {
            Bool.random(using: &generator) ? nil : Date(timeIntervalSince1970: Double.random(in: -3e9...4e9, using: &generator))
        }
        return (0..<count).map { index in
            var item = Item(id: "id-\(index)", source: ["a", "b", ""][index % 3])
            (item.url, item.title, item.summary, item.contentHTML, item.image) = (text(), text(), text(), text(), text())
            if index % 4 == 1 { item.externalURL = text() }
            item.authors = (0..<Int.random(in: 0...2, using: &generator)).map { _ in Author(name: text(), url: text(), avatar: text()) }
            (item.published, item.updated) = (date(), date())
            item.tags = (0..<Int.random(in: 0...3, using: &generator)).map { _ in text() ?? "" }
            item.attachments = (0..<Int.random(in: 0...2, using: &generator)).map { _ in
                Attachment(
                    url: text() ?? "u", mimeType: text() ?? "", title: text(),
                    sizeInBytes: [nil, 0, -1, Int.max, Int.min].randomElement(using: &generator)!,
                    durationInSeconds: [nil, 61, 1 << 40].randomElement(using: &generator)!)
            }
            if Bool.random(using: &generator) { item.metrics = ["comments": -5, "likes": Int.max, "": 0] }
            if Bool.random(using: &generator) {
                item.extras = ["s": .string(text() ?? ""), "i": .int(Int.min), "d": .double(-0.1), "t": .bool(true), "f": .bool(false)]
            }
            item.duplicates = (0..<Int.random(in: 0...2, using: &generator)).map { _ in
                DuplicateReference(source: text() ?? "s", url: text(), title: text())
            }
            return item
        }
    }

    @Test("Generated items survive the binary form; JSON written by earlier versions still reads")
    func binaryAndJSONForms() {
        for var item in Self.generatedItems(count: 300, seed: 9) {
            let binary = ItemCodec.encode(item)
            #expect(binary.first == (item.externalURL == nil ? ItemBinary.marker : ItemBinary.markerWithExternalURL))
            #expect(ItemCodec.decodeItem(binary) == item)
            #expect(ItemCodec.encode(item) == binary, "the same item gives the same bytes")
            // Earlier versions had no external URL.
            item.externalURL = nil
            let json = ItemCodec.encodeJSON(item)
            #expect(json.first == UInt8(ascii: "{"))
            #expect(ItemCodec.decodeItem(json) == item)
        }
    }

    /// An item without an external URL is stored as before it existed, byte for byte: the items stored by earlier
    /// versions compare equal to the same items read again, and a source that serves what it served is unchanged.
    @Test func anItemWithoutAnExternalURLKeepsTheFirstLayout() throws {
        let item = Item(id: "a", source: "s", url: "https://e.example/a", title: "T")
        let before: [UInt8] =
            [0x01, 1, 0x61, 1, 0x73, 20] + Array("https://e.example/a".utf8) + [2, 0x54] + Array(repeating: 0, count: 11)
        #expect(ItemCodec.encode(item) == before)
        var linked = item
        linked.externalURL = "https://elsewhere.example/story"
        let bytes = ItemCodec.encode(linked)
        #expect(bytes.first == ItemBinary.markerWithExternalURL)
        #expect(ItemCodec.decodeItem(bytes) == linked)
    }

    @Test("Cut-short or padded binary items are refused, never misread")
    func damagedBinary() {
        for item in Self.generatedItems(count: 40, seed: 4) {
            let binary = ItemCodec.encode(item)
            for length in 0..<binary.count {
                #expect(ItemCodec.decodeItem(Array(binary.prefix(length))) == nil)
            }
            #expect(ItemCodec.decodeItem(binary + [0]) == nil)
        }
        #expect(ItemCodec.decodeItem([ItemBinary.marker, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]) == nil)
    }

    @Test("A new file is created with its folder, at the current schema, in WAL mode")
    func createsFile() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("deep/er/state.sqlite")
        let store = try StateStore(path: path)
        let version = try store.integer("PRAGMA user_version")
        let journal = try store.access { database throws(SQLiteError) in
            let statement = try database.prepare("PRAGMA journal_mode")
            _ = try statement.step()
            return statement.text(0)
        }
        #expect(version == StateStore.schemaVersion)
        #expect(journal == "wal")
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(try store.integer("PRAGMA page_size") == 16_384, "pages that hold a typical item's HTML whole")
    }

    @Test("Closing keeps a small write-ahead log for the next run and empties a large one; both are read back")
    func closingKeepsOrEmptiesTheLog() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("state.sqlite")
        func store(_ count: Int, size: Int, in source: String) throws {
            let store = try StateStore(path: path)
            let items = (0..<count).map { Item(id: "i\($0)", source: source, summary: String(repeating: "x", count: size)) }
            let merge = SourceMerge.merge(
                SourceHistory(name: source), outcome: .fetched(items: items, feed: nil, validators: nil, httpStatus: 200), now: now,
                retention: 86400, staleAfter: 86400)
            try store.commit(
                [merge], run: RunRecord(started: now, duration: 1, status: 0, sources: 1, failed: 0, items: count, newItems: count),
                retention: 86400)
            store.close()
        }
        func logSize() throws -> Int {
            try #require(try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int)
        }
        try store(3, size: 100, in: "small")
        #expect(try logSize() > 0, "a run that wrote little leaves its pages in the log, unsynced and uncopied")
        #expect(try logSize() <= StateStore.logSizeLimit)
        try store(600, size: 10_000, in: "large")
        #expect(try logSize() == 0, "six megabytes of items are copied into the database, not left in the log too")
        let reopened = try StateStore(path: path)
        let histories = try reopened.histories(for: ["small", "large"])
        #expect(histories["small"]?.items.count == 3)
        #expect(histories["large"]?.items.count == 600)
    }

    @Test("Many sources' items read back whole and in order, whichever half of the names they fall in, at once or added later")
    func readsEverySourcesItems() throws {
        let folder = try TemporaryDirectory()
        let store = try StateStore(path: folder.path("state.sqlite"))
        // Names around the split (the middle name when sorted), a name that prefixes another, non-ASCII names, and a
        // source with no items.
        let names = ["a", "a b", "ab", "b", "feed-0001", "feed-0002", "m", "z", "中文", "新闻 feed"]
        var expected: [String: [String]] = [:]
        var merges: [SourceMerge] = []
        for (index, name) in names.enumerated() where name != "m" {
            let items = (0..<(index + 2)).map { number in
                Item(
                    id: "\(name)-\(number)", source: name, title: "\(name) \(number)", summary: String(repeating: "长 text ", count: number))
            }
            // Served items first, newest first, and among items first seen in the same run, by id.
            expected[name] = items.map(\.id).sorted()
            merges.append(
                SourceMerge.merge(
                    SourceHistory(name: name), outcome: .fetched(items: items, feed: nil, validators: nil, httpStatus: 200), now: now,
                    retention: 86400, staleAfter: 86400))
        }
        try store.commit(
            merges, run: RunRecord(started: now, duration: 1, status: 0, sources: names.count, failed: 0, items: 0, newItems: 0),
            retention: 86400)

        let histories = try store.histories(for: names)
        #expect(Set(histories.keys) == Set(names))
        for name in names {
            #expect(histories[name]?.items.map(\.item.id) == expected[name] ?? [], "\(name)")
            #expect(histories[name]?.items.allSatisfy { $0.item.source == name && $0.served } == true, "\(name)")
        }
        // Asked for some of them, the others' items are not read; one name alone takes the one-thread path.
        let some = try store.histories(for: ["ab", "中文", "unknown"])
        #expect(Set(some.keys) == ["ab", "中文", "unknown"])
        #expect(some["ab"]?.items.map(\.item.id) == expected["ab"])
        #expect(some["中文"]?.items.map(\.item.id) == expected["中文"])
        #expect(some["unknown"]?.items.isEmpty == true)
        #expect(try store.histories(for: ["z"])["z"]?.items.map(\.item.id) == expected["z"])
        #expect(try store.histories(for: []).isEmpty)
        // Read in two steps (health and validators first, the items once a run needs them), the same.
        let added = try store.addingItems(to: store.histories(for: names, includeItems: false))
        for name in names { #expect(added[name]?.items.map(\.item.id) == expected[name] ?? [], "\(name)") }
    }

    @Test(
        "The river's facts are recorded by each commit that may change items, kept by one that does not, and counted again after a commit that did not keep them"
    )
    func riverFacts() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("state.sqlite")
        let store = try StateStore(path: path)
        func commit(_ ids: [String], keepsItems: Bool = false, at seconds: TimeInterval) throws {
            let items = ids.map { Item(id: $0, source: "s", title: "Title \($0)") }
            let history = try #require(try store.histories(for: ["s"])["s"])
            let merge = SourceMerge.merge(
                history, outcome: .fetched(items: items, feed: nil, validators: nil, httpStatus: 200),
                now: now.addingTimeInterval(seconds), retention: 86400, staleAfter: 86400)
            try store.commit(
                [merge], run: RunRecord(started: now, duration: 1, status: 0, sources: 1, failed: 0, items: 0, newItems: 0),
                retention: 86400, keepsItems: keepsItems)
        }
        func recorded() throws -> String? { try store.meta("river_facts") }

        try commit(["a", "b"], at: 0)
        #expect(try store.riverFacts() == RiverFacts(servedCounts: ["s": 2], oldestUnservedFirstSeen: nil))
        try commit(["b"], at: 60)
        let facts = try store.riverFacts()
        #expect(facts == RiverFacts(servedCounts: ["s": 1], oldestUnservedFirstSeen: now), "a is no longer served")
        let text = try recorded()
        try commit(["b"], keepsItems: true, at: 120)
        #expect(try recorded() == text)
        #expect(try store.riverFacts() == facts, "still true after a run that kept the items")
        #expect(try store.meta("river_facts_run") == "3")

        // A commit by a build that does not keep the facts: they are counted again.
        let connection = try SQLiteConnection(path: path)
        try connection.execute("UPDATE items SET served = 0 WHERE id = 'b'")
        try connection.execute(
            "INSERT INTO runs (started, duration, status, sources, failed, items, new_items) VALUES (0, 0, 0, 1, 0, 0, 0)")
        let counted = try store.riverFacts()
        #expect(counted.servedCounts.isEmpty)
        #expect(counted.oldestUnservedFirstSeen == now)
    }

    @Test("Version 4 moves the items to a table with row ids, every column kept, and a 4 KiB file keeps its page size")
    func migratesItemsToRowidTable() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("state.sqlite")
        let big = Item(id: "b", source: "news", url: "https://e.com/b", title: "Big", summary: String(repeating: "长文 text ", count: 2_000))
        let small = Item(id: "a", source: "news", url: "https://e.com/a", title: "Small")
        do {
            // A file made by an earlier Tributary: 4 KiB pages and items in a WITHOUT ROWID table.
            let connection = try SQLiteConnection(path: path)
            try connection.execute("PRAGMA page_size = 4096")
            for migration in StateSchema.migrations.prefix(3) { try connection.execute(migration.sql) }
            try connection.execute("PRAGMA user_version = 3")
            for (item, served) in [(big, 1), (small, 0)] {
                try connection.prepare(
                    "INSERT INTO items (source, id, first_seen, last_seen, served, data, match_key) VALUES ('news', ?, 100, 200, ?, ?, ?)"
                ).bind(.text(item.id), .integer(served), .blob(ItemCodec.encode(item)), .text(MatchKey.of(item))).run()
            }
        }
        let store = try StateStore(path: path)
        #expect(try store.integer("PRAGMA user_version") == StateStore.schemaVersion)
        #expect(try store.integer("PRAGMA page_size") == 4_096)
        #expect(try store.integer("SELECT COUNT(rowid) FROM items") == 2, "a WITHOUT ROWID table has no rowid column")
        #expect(try store.integer("SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'items'") == 3)
        let history = try #require(try store.histories(for: ["news"])["news"])
        #expect(history.items.map(\.item) == [big, small])
        #expect(history.items.map(\.served) == [true, false])
        #expect(history.items.map(\.firstSeen) == [Date(timeIntervalSince1970: 100), Date(timeIntervalSince1970: 100)])
        #expect(history.items.map(\.lastSeen) == [Date(timeIntervalSince1970: 200), Date(timeIntervalSince1970: 200)])
        let key = try store.access { database throws(SQLiteError) in
            try database.text("SELECT match_key FROM items WHERE id = ?", parameter: "b")
        }
        #expect(key == MatchKey.of(big))
        // The unique key still replaces rather than duplicates.
        let merge = SourceMerge.merge(
            history, outcome: .fetched(items: [big, small], feed: nil, validators: nil, httpStatus: 200),
            now: Date(timeIntervalSince1970: 300),
            retention: 86_400 * 30, staleAfter: 86_400)
        try store.commit(
            [merge],
            run: RunRecord(started: Date(timeIntervalSince1970: 300), duration: 1, status: 0, sources: 1, failed: 0, items: 2, newItems: 0),
            retention: 86_400 * 30)
        #expect(try store.integer("SELECT COUNT(*) FROM items") == 2)
    }

    @Test("A file of the first schema version is migrated forward with its data, match keys filled in")
    func migratesFromVersionOne() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("state.sqlite")
        let item = Item(id: "x1", source: "news", url: "https://e.com/x", title: "Old item")
        try Self.makeVersionOneFile(at: path, item: item)
        let store = try StateStore(path: path)
        #expect(try store.integer("PRAGMA user_version") == StateStore.schemaVersion)
        let key = try store.access { database throws(SQLiteError) in
            let statement = try database.prepare("SELECT match_key FROM items WHERE id = 'x1'")
            _ = try statement.step()
            return statement.text(0)
        }
        #expect(key == "https://e.com/x\nOld item")
        let history = try #require(try store.histories(for: ["news"])["news"])
        #expect(history.items.map(\.item) == [item])
        #expect(history.items.first?.firstSeen == Date(timeIntervalSince1970: 100))
        #expect(history.validators == StoredValidators(url: "http://127.0.0.1/x", etag: "\"v1\"", lastModified: nil))
        #expect(try store.recentRuns(limit: 5).isEmpty, "the runs table exists after the migration")
    }

    @Test("A file from a newer Tributary is refused and left byte-for-byte untouched")
    func refusesNewerSchema() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("state.sqlite")
        do {
            let store = try StateStore(path: path)
            try store.execute("PRAGMA user_version = 99; PRAGMA wal_checkpoint(TRUNCATE)")
            store.close()
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect {
            try StateStore(path: path)
        } throws: { error in
            guard let error = error as? StateError, case .newerSchema(found: 99, supported: StateStore.schemaVersion) = error.kind else {
                return false
            }
            return error.description.contains(path) && error.description.contains("newer Tributary")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("A damaged file is a clear error naming the file and --reset-state; moving it aside keeps it")
    func damagedFile() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.write(String(repeating: "this is not a database\n", count: 100), to: "state.sqlite")
        #expect {
            try StateStore(path: path)
        } throws: { error in
            guard let error = error as? StateError, error.kind == .corrupt else { return false }
            return error.description.contains(path) && error.description.contains("--reset-state")
        }
        let moved = try #require(try StateStore.moveAside(path: path, now: now))
        #expect(moved == path + ".broken-1780000000")
        #expect(try String(contentsOfFile: moved, encoding: .utf8).hasPrefix("this is not a database"))
        let fresh = try StateStore(path: path)
        #expect(try fresh.histories(for: ["a"])["a"]?.items.isEmpty == true)
    }

    @Test(
        "A file whose pages were overwritten in the middle is reported as damaged, checked today or not",
        arguments: [false, true])
    func overwrittenPages(checkedToday: Bool) throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("state.sqlite")
        do {
            let store = try StateStore(path: path)
            let items = (0..<400).map {
                StoredItem(
                    item: Item(id: "i\($0)", source: "s", title: String(repeating: "t", count: 300)), firstSeen: now, lastSeen: now,
                    served: true)
            }
            let merge = SourceMerge.merge(
                SourceHistory(name: "s"), outcome: .fetched(items: items.map(\.item), feed: nil, validators: nil, httpStatus: 200),
                now: now, retention: 86400, staleAfter: 86400)
            try store.commit(
                [merge], run: RunRecord(started: now, duration: 1, status: 0, sources: 1, failed: 0, items: 400, newItems: 400),
                retention: 86400)
            try store.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            store.close()
        }
        do {
            // Checked today (as a new file is), the next open skips the whole-file check and the
            // damaged pages are found when the run reads them; else the check finds them.
            let store = try StateStore(path: path)
            #expect(try store.meta(StateStore.checkedKey) != nil)
            if !checkedToday { try store.execute("DELETE FROM meta WHERE key = 'checked'") }
            try store.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            store.close()
        }
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try handle.seek(toOffset: 4096 * 3)
        handle.write(Data(repeating: 0xA5, count: 4096 * 4))
        try handle.close()
        #expect {
            let store = try StateStore(path: path)
            _ = try store.histories(for: ["s"])
        } throws: { error in
            (error as? StateError)?.kind == .corrupt
        }
    }

    @Test("The whole file is checked when it was last checked a day ago or more, or never")
    func checkSchedule() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("state.sqlite")
        let nowSeconds = Int(Date().timeIntervalSince1970)
        do {
            // A new file counts as checked when it is made.
            let store = try StateStore(path: path)
            let made = try #require(try store.meta(StateStore.checkedKey).flatMap(Int.init))
            #expect(abs(made - nowSeconds) < 600)
            store.close()
        }
        for (last, checks) in [(nil, true), (nowSeconds - 3600, false), (nowSeconds - 86_400 - 60, true), (nowSeconds + 7200, true)] {
            do {
                let store = try StateStore(path: path)
                try store.execute(
                    last.map { "INSERT OR REPLACE INTO meta (key, value) VALUES ('checked', '\($0)')" }
                        ?? "DELETE FROM meta WHERE key = 'checked'")
                store.close()
            }
            let store = try StateStore(path: path)
            let recorded = try #require(try store.meta(StateStore.checkedKey).flatMap(Int.init))
            if checks {
                #expect(abs(recorded - nowSeconds) < 600, "last check \(String(describing: last))")
            } else {
                #expect(recorded == last, "last check \(String(describing: last))")
            }
            store.close()
        }
    }

    @Test("A source left out of the configuration keeps its history for the retention period, then is forgotten")
    func removedSources() throws {
        let folder = try TemporaryDirectory()
        let store = try StateStore(path: folder.path("state.sqlite"))
        let day: TimeInterval = 86_400
        func commit(_ names: [String], at time: Date, configured: Set<String>) throws {
            let merges = names.map { name in
                SourceMerge.merge(
                    SourceHistory(name: name),
                    outcome: .fetched(items: [Item(id: "1", source: name, title: name)], feed: nil, validators: nil, httpStatus: 200),
                    now: time, retention: 30 * day, staleAfter: day)
            }
            try store.commit(
                merges, run: RunRecord(started: time, duration: 1, status: 0, sources: names.count, failed: 0, items: 1, newItems: 1),
                retention: 30 * day, configured: configured)
        }
        try commit(["kept", "gone"], at: now, configured: ["kept", "gone"])
        try commit(["kept"], at: now + 29 * day, configured: ["kept"])
        var histories = try store.histories(for: ["kept", "gone"])
        #expect(histories["gone"]?.items.map(\.item.id) == ["1"])
        #expect(histories["gone"]?.lastAttempt == now)
        try commit(["kept"], at: now + 31 * day, configured: ["kept"])
        histories = try store.histories(for: ["kept", "gone"])
        #expect(histories["gone"]?.items.isEmpty == true)
        #expect(histories["gone"]?.lastAttempt == nil)
        #expect(histories["kept"]?.items.map(\.item.id) == ["1"])
        #expect(try store.integer("SELECT COUNT(*) FROM items WHERE source = 'gone'") == 0)
    }

    @Test("Commit and reload: items with first-seen times, health, validators, runs")
    func commitAndReload() throws {
        let folder = try TemporaryDirectory()
        let store = try StateStore(path: folder.path("state.sqlite"))
        let items = [Item(id: "1", source: "s", title: "One"), Item(id: "2", source: "s", title: "Two")]
        let validators = StoredValidators(url: "http://127.0.0.1:1/feed", etag: "\"abc\"", lastModified: "Sat, 28 Nov 2026 10:00:00 GMT")
        let merge = SourceMerge.merge(
            SourceHistory(name: "s"), outcome: .fetched(items: items, feed: FeedInfo(title: "S"), validators: validators, httpStatus: 200),
            now: now, retention: 86400, staleAfter: 3600)
        let failing = SourceMerge.merge(
            SourceHistory(name: "f"), outcome: .failed(error: "HTTP 500", httpStatus: 500), now: now, retention: 86400, staleAfter: 3600)
        try store.commit(
            [merge, failing], run: RunRecord(started: now, duration: 0.5, status: 2, sources: 2, failed: 1, items: 2, newItems: 2),
            retention: 86400)
        let histories = try store.histories(for: ["s", "f", "never"])
        let s = try #require(histories["s"])
        #expect(s.items.map(\.item.id).sorted() == ["1", "2"])
        #expect(s.items.allSatisfy { $0.served && $0.firstSeen == now })
        #expect(s.validators == validators)
        #expect(s.feed?.title == "S")
        #expect(s.lastSuccess == now)
        #expect(s.identityScheme == StableID.schemeVersion)
        let f = try #require(histories["f"])
        #expect(f.consecutiveFailures == 1 && f.lastError == "HTTP 500" && f.lastHTTPStatus == 500 && f.lastSuccess == nil)
        #expect(histories["never"]?.items.isEmpty == true)
        let runs = try store.recentRuns(limit: 10)
        #expect(runs == [RunRecord(started: now, duration: 0.5, status: 2, sources: 2, failed: 1, items: 2, newItems: 2)])
        let health = try store.sourceHealth()
        #expect(health.map(\.name) == ["f", "s"])
        #expect(health.map(\.storedItems) == [0, 2])
    }
}

@Suite("Run lock")
struct RunLockTests {
    @Test("A second lock on the same file is refused, naming the holder's PID; released on deinit")
    func exclusive() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("state.sqlite.lock")
        var first: RunLock? = try RunLock(path: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "\(getpid())\n")
        #expect {
            try RunLock(path: path)
        } throws: { error in
            guard let failure = error as? RunLock.Failure, case .held(_, let pid) = failure else { return false }
            return pid == getpid() && failure.description == "another run holds the lock \(path) (PID \(getpid()))"
        }
        withExtendedLifetime(first) {}
        first = nil
        let second = try RunLock(path: path)
        withExtendedLifetime(second) {}
    }

    @Test("Waiting for a lock succeeds once the holder lets go")
    func waits() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("lock")
        let holder = Holder(try RunLock(path: path))
        // A thread of its own lets go: the wait below blocks this thread, and a task could wait
        // for a thread of the (small, shared) concurrency pool behind other blocked tests.
        Thread.detachNewThread {
            usleep(300_000)
            holder.release()
        }
        let second = try RunLock(path: path, wait: .seconds(60))
        #expect(second.path == path)
    }

    @Test("A wait is announced once with the holder's PID; a lock taken at once or refused at once announces nothing")
    func announcesTheWait() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("lock")
        var announced: [Int32?] = []
        let free = try RunLock(path: folder.path("free"), wait: .seconds(60), waiting: { announced.append($0) })
        withExtendedLifetime(free) {}
        let holder = Holder(try RunLock(path: path))
        #expect(throws: RunLock.Failure.self) { try RunLock(path: path, waiting: { announced.append($0) }) }
        #expect(announced.isEmpty)
        var polls = 0
        #expect {
            try RunLock(
                path: path, wait: .seconds(3600), waiting: { announced.append($0) },
                shouldStop: {
                    polls += 1
                    return polls == 3
                })
        } throws: { error in
            guard let failure = error as? RunLock.Failure, case .interrupted(let stopped) = failure else { return false }
            return stopped == path && !failure.isHeld
        }
        #expect(announced == [getpid()])
        #expect(polls == 3, "asked before each retry until it said stop")
        holder.release()
    }

    @Test("A wait stopped by its caller releases nothing it did not take: the holder keeps the lock")
    func stoppedWaitLeavesTheHolder() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("lock")
        let holder = Holder(try RunLock(path: path))
        #expect(throws: RunLock.Failure.self) { try RunLock(path: path, wait: .seconds(3600), shouldStop: { true }) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "\(getpid())\n", "the holder's PID is still there")
        #expect(throws: RunLock.Failure.self) { try RunLock(path: path) }
        holder.release()
        let next = try RunLock(path: path)
        withExtendedLifetime(next) {}
    }

    @Test("A lock file in a folder that cannot exist is an 'unusable' failure, not 'held'")
    func unusable() throws {
        #expect {
            try RunLock(path: "/proc/no-such-folder/lock")
        } throws: { error in
            (error as? RunLock.Failure)?.isHeld == false
        }
    }

    /// Lets another task drop the lock.
    final class Holder: @unchecked Sendable {
        private var lock: RunLock?
        private let guardLock = NSLock()
        init(_ lock: RunLock) { self.lock = lock }
        func release() { guardLock.withLock { lock = nil } }
    }
}

extension StateStoreTests {
    /// A state file of the first schema version at `path`, as the first Tributary wrote them: source "news" with
    /// validators, and `item` (id x1) first seen at 100, last at 200, served.
    static func makeVersionOneFile(at path: String, item: Item) throws {
        let old = try StateStore(path: path, upTo: 1)
        try old.access { database throws(SQLiteError) in
            try database.prepare(
                "INSERT INTO items (source, id, first_seen, last_seen, served, data) VALUES ('news', 'x1', 100, 200, 1, ?)"
            ).bind(.blob(ItemCodec.encode(item))).run()
            try database.execute(
                "INSERT INTO sources (name, last_success, consecutive_failures, validator_url, etag) VALUES ('news', 200, 0, 'http://127.0.0.1/x', '\"v1\"')"
            )
        }
        #expect(try old.integer("PRAGMA user_version") == 1)
        old.close()
    }
}

extension StateStore {
    /// Runs SQL against the file, for tests that make or inspect particular states.
    func execute(_ sql: String) throws {
        try access { database throws(SQLiteError) in try database.execute(sql) }
    }

    /// The single integer a query returns.
    func integer(_ sql: String) throws -> Int? {
        try access { database throws(SQLiteError) in try database.integer(sql) }
    }

    /// The text in the first column of a query's first row.
    func text(_ sql: String) throws -> String? {
        try access { database throws(SQLiteError) in try database.text(sql) }
    }
}

/// The JSON form of items that versions before the binary one stored: what `ItemCodec` must
/// still read.
extension ItemCodec {
    /// The item as compact JSON bytes.
    fileprivate static func encodeJSON(_ item: Item) -> [UInt8] {
        var object = JSONObject()
        object["id"] = .string(item.id)
        object["source"] = .string(item.source)
        object["url"] = item.url.map(JSONValue.string)
        object["title"] = item.title.map(JSONValue.string)
        object["summary"] = item.summary.map(JSONValue.string)
        object["content_html"] = item.contentHTML.map(JSONValue.string)
        object["image"] = item.image.map(JSONValue.string)
        if !item.authors.isEmpty { object["authors"] = .array(item.authors.map(encode)) }
        object["published"] = item.published.map(encode)
        object["updated"] = item.updated.map(encode)
        if !item.tags.isEmpty { object["tags"] = .array(item.tags.map(JSONValue.string)) }
        if !item.attachments.isEmpty {
            object["attachments"] = .array(
                item.attachments.map { attachment in
                    var entry = JSONObject()
                    entry["url"] = .string(attachment.url)
                    entry["mime_type"] = .string(attachment.mimeType)
                    entry["title"] = attachment.title.map(JSONValue.string)
                    entry["size"] = attachment.sizeInBytes.map { .number(JSONNumber($0)) }
                    entry["duration"] = attachment.durationInSeconds.map { .number(JSONNumber($0)) }
                    return .object(entry)
                })
        }
        if !item.metrics.isEmpty {
            object["metrics"] = .object(JSONObject(item.metrics.sorted { $0.key < $1.key }.map { ($0.key, .number(JSONNumber($0.value))) }))
        }
        if !item.extras.isEmpty {
            object["extras"] = .object(JSONObject(item.extras.sorted { $0.key < $1.key }.map { ($0.key, encode($0.value)) }))
        }
        if !item.duplicates.isEmpty {
            object["duplicates"] = .array(
                item.duplicates.map { duplicate in
                    var entry = JSONObject()
                    entry["source"] = .string(duplicate.source)
                    entry["url"] = duplicate.url.map(JSONValue.string)
                    entry["title"] = duplicate.title.map(JSONValue.string)
                    return .object(entry)
                })
        }
        return JSONWriter.bytes(from: .object(object), style: .compact)
    }

    /// Extras keep their type: `{"s": …}`, `{"i": …}`, `{"d": …}` or `{"b": …}`.
    fileprivate static func encode(_ extra: ExtraValue) -> JSONValue {
        switch extra {
        case .string(let text): ["s": .string(text)]
        case .int(let number): ["i": .number(JSONNumber(number))]
        case .double(let number): ["d": JSONNumber(number).map(JSONValue.number) ?? .null]
        case .bool(let flag): ["b": .bool(flag)]
        }
    }
}
