import Foundation
import TestSupport
import Testing
import TributaryModel

@testable import TributaryState

/// `status` and dry runs read the state and write nothing to it, whoever runs them.
@Suite("State store: opened only to read")
struct ReadOnlyStateTests {
    let now = Date(timeIntervalSince1970: 1_780_000_000)

    /// The bytes of the state's database and log as they are on disk (a reader marks where it reads in the log's
    /// shared index, `-shm`, which is not the state).
    static func files(_ path: String) -> [String: Data] {
        var files: [String: Data] = [:]
        for suffix in ["", "-wal"] { files[suffix] = FileManager.default.contents(atPath: path + suffix) }
        return files
    }

    @Test("A file of an older schema is read through a migrated copy: the file keeps its version and its bytes")
    func olderSchemaIsReadNotMigrated() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("state.sqlite")
        let item = Item(id: "x1", source: "news", url: "https://e.com/x", title: "Old item")
        try StateStoreTests.makeVersionOneFile(at: path, item: item)
        let before = Self.files(path)

        let store = try #require(try StateStore.openExisting(path: path))
        #expect(try store.integer("PRAGMA user_version") == StateStore.schemaVersion, "the copy is migrated")
        let history = try #require(try store.histories(for: ["news", "other"])["news"])
        #expect(history.items.map(\.item) == [item])
        #expect(try store.sourceHealth().map(\.name) == ["news"])
        #expect(try store.recentRuns(limit: 5).isEmpty, "the first version kept no runs")
        store.close()

        #expect(Self.files(path) == before, "nothing was written to the file")
        let file = try SQLiteConnection(path: path, readOnly: true)
        #expect(try file.integer("PRAGMA user_version") == 1)
    }

    /// A state file in `folder` that is due for its structural check (last checked in 1970).
    static func fileDueForItsCheck(in folder: TemporaryDirectory) throws -> String {
        let path = folder.path("state.sqlite")
        let store = try StateStore(path: path)
        try store.access { database throws(SQLiteError) in
            try database.execute("UPDATE meta SET value = '0' WHERE key = '\(StateStore.checkedKey)'")
        }
        store.close()
        return path
    }

    @Test("A file due for its structural check is read without the check being recorded")
    func noCheckIsRecorded() throws {
        let folder = try TemporaryDirectory()
        let path = try Self.fileDueForItsCheck(in: folder)
        let before = Self.files(path)
        let store = try #require(try StateStore.openExisting(path: path))
        _ = try store.histories(for: ["news"])
        store.close()
        #expect(Self.files(path) == before)
        let file = try SQLiteConnection(path: path, readOnly: true)
        #expect(try file.text("SELECT value FROM meta WHERE key = ?", parameter: StateStore.checkedKey) == "0")
    }

    @Test("Opening for a run does the check that is due and records it")
    func aRunRecordsTheCheck() throws {
        let folder = try TemporaryDirectory()
        let store = try StateStore(path: try Self.fileDueForItsCheck(in: folder))
        let checked = try store.access { database throws(SQLiteError) in
            try database.text("SELECT value FROM meta WHERE key = ?", parameter: StateStore.checkedKey)
        }
        #expect(checked.flatMap(Double.init).map { $0 > 0 } == true)
    }

    @Test("A large log left by a killed run stays as it is: a reader does not copy it into the file")
    func largeLogIsLeftAlone() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("state.sqlite")
        do {
            // A run that stored much and was killed before closing leaves its log: written here without a close that
            // would copy it into the file.
            _ = try StateStore(path: path)
            let raw = try SQLiteConnection(path: path)
            try raw.prepare("INSERT INTO meta (key, value) VALUES ('filler', ?)")
                .bind(.text(String(repeating: "x", count: StateStore.logSizeLimit + (1 << 20)))).run()
        }
        let before = Self.files(path)
        #expect((before["-wal"]?.count ?? 0) > StateStore.logSizeLimit)
        let store = try #require(try StateStore.openExisting(path: path))
        #expect(try store.meta("filler")?.count == StateStore.logSizeLimit + (1 << 20))
        store.close()
        #expect(Self.files(path) == before, "no checkpoint by a reader")
    }

    @Test("A file may be read as immutable, whatever characters its path has")
    func immutablePath() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("a ?#%20 b/state.sqlite")
        do {
            let store = try StateStore(path: path)
            store.close()
            // Everything copied into the file, which is then on its own (as a copy or a restored backup is): an
            // immutable reader does not read a log.
            try SQLiteConnection(path: path).execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let file = try SQLiteConnection(path: path, immutable: true)
        #expect(try file.integer("PRAGMA user_version") == StateStore.schemaVersion)
    }

    @Test("No state file: nothing to open, and none is made")
    func missingFile() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("sub/state.sqlite")
        #expect(try StateStore.openExisting(path: path) == nil)
        #expect(!FileManager.default.fileExists(atPath: folder.path("sub")))
    }
}

@Suite("State store: a file that is not one")
struct ForeignDatabaseTests {
    @Test("An SQLite database of something else is refused, not given the state's tables, by runs and readers alike")
    func foreignDatabase() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("other.sqlite")
        do {
            let other = try SQLiteConnection(path: path)
            try other.execute("CREATE TABLE items (name TEXT); INSERT INTO items VALUES ('mine')")
        }
        let before = ReadOnlyStateTests.files(path)
        for open in [{ _ = try StateStore(path: path) }, { _ = try StateStore.openExisting(path: path) }] {
            #expect {
                try open()
            } throws: { error in
                guard let error = error as? StateError, case .corrupt = error.kind else { return false }
                return error.description.contains("tables of its own") && error.description.contains(path)
            }
        }
        #expect(ReadOnlyStateTests.files(path) == before)
    }

    @Test("A database of something else that has a version of its own is refused as not a state file")
    func foreignDatabaseWithAVersion() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("other.sqlite")
        do {
            let other = try SQLiteConnection(path: path)
            try other.execute("CREATE TABLE notes (text TEXT); PRAGMA user_version = 4")
        }
        #expect {
            _ = try StateStore(path: path)
        } throws: { error in
            (error as? StateError)?.description.contains("tables of its own") == true
                && (error as? StateError)?.description.contains("--state") == true
        }
    }
}

@Suite("State store: items damaged on disk")
struct DamagedItemTests {
    @Test("An item whose stored text is no longer UTF-8 is left out and counted, not published with U+FFFD")
    func damagedTextIsCounted() throws {
        let folder = try TemporaryDirectory()
        let store = try StateStore(path: folder.path("state.sqlite"))
        let good = Item(id: "a", source: "s", url: "https://e.com/a", title: "Fine")
        let bad = Item(id: "b", source: "s", url: "https://e.com/b", title: "DAMAGEME")
        let merge = SourceMerge.merge(
            SourceHistory(name: "s"), outcome: .fetched(items: [good, bad], feed: nil, validators: nil, httpStatus: 200),
            now: Date(timeIntervalSince1970: 1_780_000_000), retention: 86_400, staleAfter: 86_400)
        try store.commit(
            [merge],
            run: RunRecord(
                started: Date(timeIntervalSince1970: 1_780_000_000), duration: 0, status: 0, sources: 1, failed: 0, items: 2, newItems: 2),
            retention: 86_400)
        // The title's bytes overwritten in place, lengths intact: as a bad sector or a stray write would leave them.
        var bytes = ItemCodec.encode(bad)
        let title = Array("DAMAGEME".utf8)
        let start = try #require(bytes.indices.first { bytes[$0...].starts(with: title) })
        bytes.replaceSubrange(start..<start + title.count, with: [UInt8](repeating: 0xFF, count: title.count))
        try store.access { database throws(SQLiteError) in
            try database.prepare("UPDATE items SET data = ? WHERE id = 'b'").bind(.blob(bytes)).run()
        }

        let history = try #require(try store.histories(for: ["s"])["s"])
        #expect(history.items.map(\.item.id) == ["a"])
        // Read twice (as a run may: one source's items, then all of them), counted once.
        _ = try store.addingItems(toOne: SourceHistory(name: "s"))
        #expect(store.takeDamagedItemCounts() == ["s": 1])
        #expect(store.takeDamagedItemCounts().isEmpty, "taken")
    }
}
