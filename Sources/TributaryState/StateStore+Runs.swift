public import Foundation
import Synchronization
import TributaryModel

extension StateStore {
    /// The most tombstones a source keeps (the newest): beyond them, an item that comes back is counted new again. A
    /// source that serves new items at every fetch would otherwise bury its whole stream for the retention period.
    public static let tombstoneLimit = 100_000

    /// What the state remembers of each named source (an empty history for a source it never saw);
    /// without `includeItems`, only the sources' health and validators, not their items.
    public func histories(for names: [String], includeItems: Bool = true) throws(StateError) -> [String: SourceHistory] {
        var histories: [String: SourceHistory] = [:]
        for name in names { histories[name] = SourceHistory(name: name) }
        try access { database throws(SQLiteError) in
            let sources = try database.prepare(
                """
                SELECT name, last_attempt, last_success, consecutive_failures, last_error, last_http_status,
                       validator_url, etag, last_modified, identity_scheme, feed, settings,
                       deferred_until, deferral_reason, attempt_settings FROM sources
                """)
            while try sources.step() {
                guard let name = sources.text(0), var history = histories[name] else { continue }
                history.lastAttempt = sources.optionalDouble(1).map(Date.init(timeIntervalSince1970:))
                history.lastSuccess = sources.optionalDouble(2).map(Date.init(timeIntervalSince1970:))
                history.consecutiveFailures = sources.int(3)
                history.lastError = sources.text(4)
                history.lastHTTPStatus = sources.isNull(5) ? nil : sources.int(5)
                if let url = sources.text(6) {
                    history.validators = StoredValidators(
                        url: url, etag: sources.text(7), lastModified: sources.text(8), settings: sources.text(11))
                }
                history.identityScheme = sources.isNull(9) ? nil : sources.int(9)
                history.storedFeed = StoredFeed(text: sources.text(10))
                if let until = sources.optionalDouble(12), let reason = sources.text(13).flatMap(StoredDeferral.Reason.init) {
                    history.deferral = StoredDeferral(until: Date(timeIntervalSince1970: until), reason: reason)
                }
                history.attemptSettings = sources.text(14)
                histories[name] = history
            }
            if includeItems { try addItems(to: &histories, from: database) }
        }
        return histories
    }

    /// The histories given (as ``histories(for:includeItems:)`` read them without their items), with their items and
    /// tombstones: what a run reads once it knows that some source changed.
    public func addingItems(to histories: [String: SourceHistory]) throws(StateError) -> [String: SourceHistory] {
        var histories = histories
        try access { database throws(SQLiteError) in try addItems(to: &histories, from: database) }
        return histories
    }

    /// `history` (read without its items) with its stored items, not its tombstones: enough to tell whether an answer
    /// changes anything (an item that matches a tombstone is new either way), and read by an index, not a scan.
    public func addingItems(toOne history: SourceHistory) throws(StateError) -> SourceHistory {
        var history = history
        try access { database throws(SQLiteError) in
            history.items = try readItems(of: [history.name], from: database)[history.name] ?? []
        }
        return history
    }

    private func addItems(to histories: inout [String: SourceHistory], from database: SQLiteConnection) throws(SQLiteError) {
        for (name, items) in try readItems(of: Set(histories.keys), from: database) { histories[name]?.items = items }
        let tombstones = try database.prepare("SELECT source, id, match_key, first_seen, removed FROM tombstones")
        while try tombstones.step() {
            guard let name = tombstones.text(0), histories[name] != nil, let id = tombstones.text(1) else { continue }
            histories[name]?.tombstones[id] = Tombstone(
                id: id, matchKey: tombstones.text(2), firstSeen: Date(timeIntervalSince1970: tombstones.double(3)),
                removed: Date(timeIntervalSince1970: tombstones.double(4)))
        }
    }

    /// The stored items of the named sources, each source's served items first, newest first.
    ///
    /// Decoding the items (their text is validated as UTF-8 as it becomes strings) is most of what a run whose
    /// sources changed spends reading the state, so the sources are split in two by name and the second half is read
    /// on another thread, through a read-only connection of its own (the log lets readers share the file). Without
    /// that connection, one thread reads them all.
    private func readItems(of names: Set<String>, from database: SQLiteConnection) throws(SQLiteError) -> [String: [StoredItem]] {
        let sorted = names.sorted()
        guard sorted.count > 1 else {
            return try sorted.first.map { name throws(SQLiteError) in
                try readItems(of: names, from: database, where: "source = ?", name)
            } ?? [:]
        }
        guard readsFile, let other = try? SQLiteConnection(path: path, readOnly: true) else {
            return try readItems(of: names, from: database, where: nil, nil)
        }
        let middle = sorted[sorted.count / 2]
        let halves = Mutex<[Result<[String: [StoredItem]], SQLiteError>?]>([nil, nil])
        nonisolated(unsafe) let connections = [database, other]
        DispatchQueue.concurrentPerform(iterations: 2) { half in
            let read = Result { () throws(SQLiteError) in
                try readItems(of: names, from: connections[half], where: half == 0 ? "source < ?" : "source >= ?", middle)
            }
            halves.withLock { $0[half] = read }
        }
        var items = try halves.withLock { $0[0] }!.get()
        for (name, list) in try halves.withLock({ $0[1] })!.get() { items[name] = list }
        return items
    }

    /// The items of the named sources among the rows `condition` (on the source's name, compared with `name`) selects.
    private func readItems(of names: Set<String>, from database: SQLiteConnection, where condition: String?, _ name: String?)
        throws(SQLiteError) -> [String: [StoredItem]]
    {
        let query = try database.prepare(
            "SELECT source, first_seen, last_seen, served, data, rowid FROM items"
                + (condition.map { " WHERE " + $0 } ?? "") + " ORDER BY source, served DESC, first_seen DESC, id")
        if let name { query.bind(.text(name)) }
        var items: [String: [StoredItem]] = [:]
        var damaged: [String: Set<Int>] = [:]
        defer {
            if !damaged.isEmpty { damagedItems.withLock { $0.merge(damaged) { $0.union($1) } } }
        }
        while try query.step() {
            guard let name = query.text(0), names.contains(name) else { continue }
            guard let item = query.withBytes(4, ItemCodec.decodeItem) else {
                damaged[name, default: []].insert(query.int(5))
                continue
            }
            items[name, default: []].append(
                StoredItem(
                    item: item, firstSeen: Date(timeIntervalSince1970: query.double(1)),
                    lastSeen: Date(timeIntervalSince1970: query.double(2)), served: query.int(3) != 0))
        }
        return items
    }

    /// Writes a run's outcome in one transaction: each source's items and health, the tombstones
    /// of items that aged out, the run itself and the `meta` values given (nil removes one).
    /// Tombstones older than `retention` are forgotten, and so are sources outside `configured`
    /// (when given) that no run has fetched for `retention`, with their items: a source taken
    /// out of the configuration and put back soon finds its history, one left out is not kept
    /// for ever.
    ///
    /// `keepsItems` says that the merges change no item (a run that keeps the river): the recorded ``RiverFacts`` stay
    /// true, unless a source is forgotten. Any other commit records them anew, counted after its changes.
    public func commit(
        _ merges: [SourceMerge], run: RunRecord, retention: TimeInterval, meta: [String: String?] = [:],
        configured: Set<String>? = nil, keepsItems: Bool = false, tombstoneLimit: Int = StateStore.tombstoneLimit
    ) throws(StateError) {
        try access { database throws(SQLiteError) in
            try database.transaction { () throws(SQLiteError) in
                let setMeta = try database.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)")
                let removeMeta = try database.prepare("DELETE FROM meta WHERE key = ?")
                for (key, value) in meta {
                    if let value { try setMeta.bind(.text(key), .text(value)).run() } else { try removeMeta.bind(.text(key)).run() }
                }
                let unserve = try database.prepare("UPDATE items SET served = 0 WHERE source = ? AND id = ?")
                let deleteItem = try database.prepare("DELETE FROM items WHERE source = ? AND id = ?")
                let deleteTombstone = try database.prepare("DELETE FROM tombstones WHERE source = ? AND id = ?")
                // Everything from the (limit + 1)th newest tombstone down; a source with fewer finds no such row.
                let boundTombstones = try database.prepare(
                    """
                    DELETE FROM tombstones WHERE source = ?1 AND (removed, id) <=
                    (SELECT removed, id FROM tombstones WHERE source = ?1 ORDER BY removed DESC, id DESC LIMIT 1 OFFSET ?2)
                    """)
                let upsert = try database.prepare(
                    """
                    INSERT OR REPLACE INTO items (source, id, first_seen, last_seen, served, data, match_key)
                    VALUES (?, ?, ?, ?, 1, ?, ?)
                    """)
                let clamp = try database.prepare(
                    "UPDATE items SET first_seen = MIN(first_seen, ?1), last_seen = MIN(last_seen, ?1) WHERE source = ?2 AND id = ?3")
                let bury = try database.prepare(
                    "INSERT OR REPLACE INTO tombstones (source, id, match_key, first_seen, removed) VALUES (?, ?, ?, ?, ?)")
                // Updated in place when the row exists (a replace would delete it and insert it again).
                let source = try database.prepare(
                    """
                    INSERT INTO sources (name, last_attempt, last_success, consecutive_failures, last_error,
                        last_http_status, validator_url, etag, last_modified, identity_scheme, feed, settings,
                        deferred_until, deferral_reason, attempt_settings)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (name) DO UPDATE SET last_attempt = excluded.last_attempt, last_success = excluded.last_success,
                        consecutive_failures = excluded.consecutive_failures, last_error = excluded.last_error,
                        last_http_status = excluded.last_http_status, validator_url = excluded.validator_url, etag = excluded.etag,
                        last_modified = excluded.last_modified, identity_scheme = excluded.identity_scheme, feed = excluded.feed,
                        settings = excluded.settings, deferred_until = excluded.deferred_until,
                        deferral_reason = excluded.deferral_reason, attempt_settings = excluded.attempt_settings
                    """)
                for merge in merges {
                    let update = merge.update
                    let name = SQLiteValue.text(update.name)
                    for id in update.unservedIDs { try unserve.bind(name, .text(id)).run() }
                    for id in update.renamedIDs { try deleteItem.bind(name, .text(id)).run() }
                    for id in update.revivedTombstones { try deleteTombstone.bind(name, .text(id)).run() }
                    for id in update.clampedIDs { try clamp.bind(.real(update.now.timeIntervalSince1970), name, .text(id)).run() }
                    for entry in update.upserts {
                        try upsert.bind(
                            name, .text(entry.item.id), .real(entry.firstSeen.timeIntervalSince1970),
                            .real(entry.lastSeen.timeIntervalSince1970), .blob(ItemCodec.encode(entry.item)), .text(MatchKey.of(entry.item))
                        ).run()
                    }
                    for entry in update.expired {
                        try deleteItem.bind(name, .text(entry.item.id)).run()
                        try bury.bind(
                            name, .text(entry.item.id), .text(MatchKey.of(entry.item)), .real(entry.firstSeen.timeIntervalSince1970),
                            .real(update.now.timeIntervalSince1970)
                        ).run()
                    }
                    if update.expired.count > 0 { try boundTombstones.bind(name, .integer(tombstoneLimit)).run() }
                    try source.bind(
                        name, .real(update.lastAttempt.timeIntervalSince1970), .optional(update.lastSuccess?.timeIntervalSince1970),
                        .integer(update.consecutiveFailures), .optional(update.lastError), .optional(update.lastHTTPStatus),
                        .optional(update.validators?.url), .optional(update.validators?.etag), .optional(update.validators?.lastModified),
                        .optional(update.identityScheme), .optional(update.feed.encoded), .optional(update.validators?.settings),
                        .optional(update.deferral?.until.timeIntervalSince1970), .optional(update.deferral?.reason.rawValue),
                        .optional(update.attemptSettings)
                    ).run()
                }
                try database.prepare("DELETE FROM tombstones WHERE removed < ?")
                    .bind(.real(run.started.timeIntervalSince1970 - retention)).run()
                var forgotSome = false
                if let configured {
                    forgotSome = try Self.forgetSources(
                        outside: configured, before: run.started.timeIntervalSince1970 - retention, in: database)
                }
                let previousRun = try database.integer("SELECT MAX(id) FROM runs") ?? 0
                try database.prepare(
                    "INSERT INTO runs (started, duration, status, sources, failed, items, new_items) VALUES (?, ?, ?, ?, ?, ?, ?)"
                )
                .bind(
                    .real(run.started.timeIntervalSince1970), .real(run.duration), .integer(run.status), .integer(run.sources),
                    .integer(run.failed), .integer(run.items), .integer(run.newItems)
                ).run()
                // The run history is for `status`; a year of five-minute runs is plenty.
                try database.execute("DELETE FROM runs WHERE id <= (SELECT MAX(id) FROM runs) - 100000")
                // The facts say through which run they hold: a commit by a build that does not keep them (an older one)
                // adds a run and leaves them behind, and they are counted anew.
                let thisRun = try database.integer("SELECT MAX(id) FROM runs") ?? 0
                // Times put back to now can change the oldest first-seen time the facts hold.
                let clampedSome = merges.contains { !$0.update.clampedIDs.isEmpty }
                if keepsItems && !forgotSome && !clampedSome {
                    try database.prepare("UPDATE meta SET value = ? WHERE key = ? AND value = ?")
                        .bind(.text(String(thisRun)), .text(RiverFacts.runKey), .text(String(previousRun))).run()
                } else {
                    try setMeta.bind(.text(RiverFacts.key), .text(try RiverFacts(counting: database).encoded)).run()
                    try setMeta.bind(.text(RiverFacts.runKey), .text(String(thisRun))).run()
                }
            }
        }
    }

    /// Forgets the sources outside `configured` that no run has fetched since `cutoff`, with their items and tombstones;
    /// true when it forgot some.
    private static func forgetSources(outside configured: Set<String>, before cutoff: Double, in database: SQLiteConnection)
        throws(SQLiteError) -> Bool
    {
        let sources = try database.prepare("SELECT name, last_attempt FROM sources")
        var forgotten: [String] = []
        while try sources.step() {
            guard let name = sources.text(0), !configured.contains(name) else { continue }
            if (sources.optionalDouble(1) ?? 0) < cutoff { forgotten.append(name) }
        }
        for table in ["items", "tombstones"] {
            let delete = try database.prepare("DELETE FROM \(table) WHERE source = ?")
            for name in forgotten { try delete.bind(.text(name)).run() }
        }
        let delete = try database.prepare("DELETE FROM sources WHERE name = ?")
        for name in forgotten { try delete.bind(.text(name)).run() }
        return !forgotten.isEmpty
    }

    /// A value the engine keeps between runs, e.g. what its last outputs were made from.
    public func meta(_ key: String) throws(StateError) -> String? {
        try access { database throws(SQLiteError) in
            let query = try database.prepare("SELECT value FROM meta WHERE key = ?")
            query.bind(.text(key))
            return try query.step() ? query.text(0) : nil
        }
    }

    /// What a run that keeps the river checks and reports of the stored items, as the last commit that could change
    /// them recorded it (one row to read instead of two scans of the items' index, which grow with the file), or
    /// counted now when none did (a file from before this build).
    public func riverFacts() throws(StateError) -> RiverFacts {
        try access { database throws(SQLiteError) in
            if let run = try database.text("SELECT value FROM meta WHERE key = ?", parameter: RiverFacts.runKey),
                Int(run) == (try database.integer("SELECT MAX(id) FROM runs")),
                let text = try database.text("SELECT value FROM meta WHERE key = ?", parameter: RiverFacts.key),
                let facts = RiverFacts(encoded: text)
            {
                return facts
            }
            return try RiverFacts(counting: database)
        }
    }

    /// The last `limit` runs, newest first.
    public func recentRuns(limit: Int) throws(StateError) -> [RunRecord] {
        try access { database throws(SQLiteError) in
            let query = try database.prepare(
                "SELECT started, duration, status, sources, failed, items, new_items FROM runs ORDER BY id DESC LIMIT ?")
            query.bind(.integer(limit))
            var runs: [RunRecord] = []
            while try query.step() {
                runs.append(
                    RunRecord(
                        started: Date(timeIntervalSince1970: query.double(0)), duration: query.double(1), status: query.int(2),
                        sources: query.int(3), failed: query.int(4), items: query.int(5), newItems: query.int(6)))
            }
            return runs
        }
    }

    /// Every source the state knows, by name.
    public func sourceHealth() throws(StateError) -> [SourceHealth] {
        try access { database throws(SQLiteError) in
            let query = try database.prepare(
                """
                SELECT name, last_attempt, last_success, consecutive_failures, last_error, last_http_status,
                       (SELECT COUNT(*) FROM items WHERE items.source = sources.name),
                       deferred_until, deferral_reason, attempt_settings
                FROM sources ORDER BY name
                """)
            var health: [SourceHealth] = []
            while try query.step() {
                var deferral: StoredDeferral?
                if let until = query.optionalDouble(7), let reason = query.text(8).flatMap(StoredDeferral.Reason.init) {
                    deferral = StoredDeferral(until: Date(timeIntervalSince1970: until), reason: reason)
                }
                health.append(
                    SourceHealth(
                        name: query.text(0) ?? "", lastAttempt: query.optionalDouble(1).map(Date.init(timeIntervalSince1970:)),
                        lastSuccess: query.optionalDouble(2).map(Date.init(timeIntervalSince1970:)), consecutiveFailures: query.int(3),
                        lastError: query.text(4), lastHTTPStatus: query.isNull(5) ? nil : query.int(5), storedItems: query.int(6),
                        deferral: deferral, attemptSettings: query.text(9)))
            }
            return health
        }
    }
}
