import CSQLite
public import Foundation
import Synchronization
import TributaryModel

/// Why the state file cannot be used. Every message names the file and says what to do.
public struct StateError: Error, Sendable, CustomStringConvertible {
    /// The kinds of trouble.
    public enum Kind: Sendable, Hashable {
        /// The file is damaged or not a Tributary state file.
        case corrupt
        /// A newer Tributary wrote it; this one refuses to touch it.
        case newerSchema(found: Int, supported: Int)
        /// It cannot be opened, read or written (permissions, disk full, …).
        case unusable
    }

    /// The kind of trouble.
    public var kind: Kind
    /// The state file.
    public var path: String
    /// What SQLite or the system said.
    public var detail: String

    public var description: String {
        switch kind {
        case .corrupt:
            "state file \(path) is damaged or is not a Tributary state file (\(detail)); if --state or 'state:' names the "
                + "wrong file, correct it; else run with --reset-state to move it aside and start a new one, or --no-state "
                + "to run without it"
        case .newerSchema(let found, let supported):
            "state file \(path) was written by a newer Tributary (schema \(found); this one knows up to \(supported)); "
                + "it was left untouched: upgrade Tributary, or use another file with --state"
        case .unusable:
            "state file \(path) cannot be used: \(detail); check that it and its folder are writable by the user running "
                + "Tributary and that the disk has room, or use another file with --state, or --no-state"
        }
    }
}

/// The SQLite file that lets runs remember: per-source health and validators, every item seen
/// with its first-seen time, tombstones, and the run history. WAL journal; each run's writes are
/// one transaction, so a killed run leaves the previous state.
public final class StateStore: @unchecked Sendable {
    /// The file.
    public let path: String
    /// Guards `connection`: the store is shared by the engine's tasks, SQLite's handle is not.
    private let lock = NSLock()
    private var connection: SQLiteConnection?
    /// The row ids of each source's stored items that could not be read back (damaged on disk), since the last
    /// ``takeDamagedItemCounts()`` (a set: a run may read an item twice).
    let damagedItems = Mutex<[String: Set<Int>]>([:])
    /// Whether the store may write the file (a run), or only reads it (`status`, dry runs): then closing it leaves
    /// even the log as it is.
    let writes: Bool
    /// Whether `connection` reads the file itself (rather than a migrated copy in memory), so that a second
    /// connection to the file sees the same data.
    let readsFile: Bool

    /// The schema version this build reads and writes.
    public static var schemaVersion: Int { StateSchema.current }

    /// Opens the state at `path`, creating it (and its folder) when missing and migrating it forward.
    public convenience init(path: String) throws(StateError) {
        try self.init(path: path, upTo: StateSchema.current)
    }

    /// Opens the state, applying migrations only up to `version` (tests use this to make old files).
    init(path: String, upTo version: Int) throws(StateError) {
        self.path = path
        readsFile = true
        writes = true
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw StateError(kind: .unusable, path: path, detail: "cannot create its folder: \(error.localizedDescription)")
            }
        }
        let database = try Self.connect(path)
        connection = database
        let found = try Self.schemaVersion(of: database, path: path)
        // Found now, not when the run stores its outcome at the end (having fetched everything and written the
        // outputs, only to count every item as new again next time).
        if database.isReadOnly {
            throw StateError(kind: .unusable, path: path, detail: "it is read-only")
        }
        try access { database throws(SQLiteError) in
            try Self.migrate(database, from: found, to: version)
        }
    }

    /// Opens the state at `path` to read it, writing nothing to it: no migration (a file of an older schema is read
    /// through a migrated copy in memory), no check recorded, no change of journal mode; works for a user who may
    /// only read the file.
    private init(readingOnly path: String) throws(StateError) {
        self.path = path
        writes = false
        let (file, found, isFile) = try Self.openToRead(path)
        guard found < StateSchema.current else {
            connection = file
            readsFile = isFile
            return
        }
        do {
            let copy = try SQLiteConnection(path: ":memory:")
            try file.copy(into: copy)
            try Self.migrate(copy, from: found, to: StateSchema.current, checks: false)
            connection = copy
        } catch {
            throw Self.error(error, path: path)
        }
        readsFile = false
    }

    /// The file opened only to read it, its schema version, and whether the connection is to the file itself.
    /// Read-only, SQLite writes nothing, not even a checkpoint of the log; it still needs the log's index beside the
    /// file (`-shm`), so a user who may not create that reads a file without a log (one copied or restored alone) as
    /// immutable, and a file with a log (its last runs' changes) through a copy of both in memory.
    private static func openToRead(_ path: String) throws(StateError) -> (SQLiteConnection, Int, Bool) {
        do {
            let file = try connect(path, readOnly: true)
            return (file, try schemaVersion(of: file, path: path), true)
        } catch {
            guard FileManager.default.fileExists(atPath: path + "-wal") else {
                let file = try connect(path, immutable: true)
                return (file, try schemaVersion(of: file, path: path), true)
            }
            guard error.kind == .unusable, let copy = try? readCopy(of: path) else { throw error }
            return (copy, try schemaVersion(of: copy, path: path), false)
        }
    }

    /// The state at `path` and its log, copied into a folder of the user's own (where SQLite may make the log's index
    /// and read the log into the copy), then into memory; the folder is removed. A run may write the two files while
    /// they are copied (the copies would not belong together): the copy is made again, up to three times, until
    /// neither file changed meanwhile.
    private static func readCopy(of path: String) throws -> SQLiteConnection {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tributary-state-\(getpid())-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let copyPath = folder.appendingPathComponent("state.sqlite").path
        /// The files' sizes and modification times.
        func stamps() -> [String] {
            [path, path + "-wal"].map { file in
                var info = stat()
                guard stat(file, &info) == 0 else { return "-" }
                return "\(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
            }
        }
        for attempt in 1...3 {
            let before = stamps()
            for file in [copyPath, copyPath + "-wal", copyPath + "-shm"] { try? FileManager.default.removeItem(atPath: file) }
            try FileManager.default.copyItem(atPath: path, toPath: copyPath)
            try FileManager.default.copyItem(atPath: path + "-wal", toPath: copyPath + "-wal")
            if stamps() == before || attempt == 3 { break }
        }
        let memory = try SQLiteConnection(path: ":memory:")
        // In a scope of its own, so that the copy is closed before its folder is removed.
        do {
            let copy = try SQLiteConnection(path: copyPath)
            try copy.copy(into: memory)
        }
        return memory
    }

    private static func connect(_ path: String, readOnly: Bool = false, immutable: Bool = false) throws(StateError) -> SQLiteConnection {
        do {
            return try SQLiteConnection(path: path, readOnly: readOnly, immutable: immutable)
        } catch {
            throw Self.error(error, path: path)
        }
    }

    /// The file's schema version; refuses a newer one, and a database of something else given by mistake (no version,
    /// tables of its own). Reading it is the first thing that touches the file, so a file that is not a database fails
    /// here, before anything is written.
    private static func schemaVersion(of database: SQLiteConnection, path: String) throws(StateError) -> Int {
        let found: Int
        let foreign: Bool
        do {
            found = try database.integer("PRAGMA user_version") ?? 0
            // A new file has no table yet; a state file of any version has these two.
            let tables = try database.integer("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'") ?? 0
            let ours = try database.integer("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name IN ('meta', 'sources')") ?? 0
            foreign = found == 0 ? tables > 0 : ours < 2
        } catch {
            throw Self.error(error, path: path)
        }
        guard !foreign else {
            throw StateError(kind: .corrupt, path: path, detail: "an SQLite database with tables of its own, not a state file")
        }
        guard found <= StateSchema.current else {
            throw StateError(kind: .newerSchema(found: found, supported: StateSchema.current), path: path, detail: "schema \(found)")
        }
        return found
    }

    /// Opens an existing state to read it without writing anything to it (for `status` and dry runs); nil when there
    /// is none.
    public static func openExisting(path: String) throws(StateError) -> StateStore? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try StateStore(readingOnly: path)
    }

    /// How many stored items of each source could not be read back since the last call (their bytes are damaged: they
    /// are left out of the river, and the run should say so); the counts start again from zero.
    public func takeDamagedItemCounts() -> [String: Int] {
        damagedItems.withLock { rows in
            defer { rows = [:] }
            return rows.mapValues(\.count)
        }
    }

    /// Moves a damaged state file (and its journal files) aside and returns where it went.
    @discardableResult
    public static func moveAside(path: String, now: Date = Date()) throws(StateError) -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let stamp = Int(now.timeIntervalSince1970)
        let target = "\(path).broken-\(stamp)"
        do {
            try FileManager.default.moveItem(atPath: path, toPath: target)
            for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
                try FileManager.default.moveItem(atPath: path + suffix, toPath: target + suffix)
            }
        } catch {
            throw StateError(kind: .unusable, path: path, detail: "cannot move it aside: \(error.localizedDescription)")
        }
        return target
    }

    /// Closes the file; later calls fail.
    public func close() {
        lock.withLock {
            if writes, let connection { Self.shrinkLog(of: connection, path: path) }
            connection = nil
        }
    }

    deinit {
        if writes, let connection { Self.shrinkLog(of: connection, path: path) }
    }

    /// How large the write-ahead log may stay between runs, in bytes (also SQLite's `journal_size_limit`). Closing
    /// keeps a smaller log for the next run to append to; a larger one (a run that stored many items) is copied into
    /// the database and truncated, so that the file's items are not on disk twice.
    static let logSizeLimit = 4 << 20

    private static func shrinkLog(of connection: SQLiteConnection, path: String) {
        var status = stat()
        guard stat(path + "-wal", &status) == 0, Int(status.st_size) > logSizeLimit else { return }
        // A failure (another process reading) leaves the log for a later run: nothing is lost.
        try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    func access<T>(_ body: (SQLiteConnection) throws(SQLiteError) -> T) throws(StateError) -> T {
        lock.lock()
        defer { lock.unlock() }
        guard let connection else { throw StateError(kind: .unusable, path: path, detail: "it was closed") }
        do {
            return try body(connection)
        } catch {
            throw Self.error(error, path: path)
        }
    }

    private static func error(_ error: SQLiteError, path: String) -> StateError {
        StateError(kind: error.isCorruption ? .corrupt : .unusable, path: path, detail: error.message)
    }

    /// How often opening the state reads the whole file to check its structure (`PRAGMA
    /// quick_check`): a damaged page met in between fails the run as damaged anyway, and a
    /// check at every run would read the whole file each time, however large it grows.
    public static let checkInterval: TimeInterval = 86_400

    /// The meta key holding when the file last passed the check (seconds since 1970).
    static let checkedKey = "checked"

    /// The page size of a new file, in bytes.
    static let pageSize = 16_384

    /// Takes the file from `version` to `target`; with `checks`, it also runs the periodic structural check and
    /// records it (a copy in memory has nothing to check).
    private static func migrate(_ database: SQLiteConnection, from version: Int, to target: Int, checks: Bool = true) throws(SQLiteError) {
        if version > 0, checks {
            let now = Date().timeIntervalSince1970
            let checked = try database.text("SELECT value FROM meta WHERE key = ?", parameter: checkedKey).flatMap(Double.init)
            if checked.map({ !(0..<checkInterval).contains(now - $0) }) ?? true {
                // A quick structural check catches a damaged file before a run relies on it.
                if let verdict = try database.text("PRAGMA quick_check"), verdict != "ok" {
                    throw SQLiteError(code: SQLITE_CORRUPT, message: verdict)
                }
                try database.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)")
                    .bind(.text(checkedKey), .text(String(Int(now)))).run()
            }
        }
        if version == 0 {
            // A new file gets pages of 16 KiB, which hold most items' data whole (the default 4 KiB sends a typical
            // item's HTML to overflow pages). Only an empty file takes a page size: an existing one keeps its own.
            try database.execute("PRAGMA page_size = \(pageSize)")
        }
        try database.execute(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA journal_size_limit = \(logSizeLimit)")
        guard version < target else { return }
        try database.transaction { () throws(SQLiteError) in
            for index in version..<target {
                let migration = StateSchema.migrations[index]
                try database.execute(migration.sql)
                try migration.fixUp?(database)
            }
            try database.execute("PRAGMA user_version = \(target)")
            if version == 0 {
                // A file made just now has nothing to check until tomorrow.
                try database.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)")
                    .bind(.text(checkedKey), .text(String(Int(Date().timeIntervalSince1970)))).run()
            }
        }
    }
}
