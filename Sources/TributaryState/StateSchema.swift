/// The state file's schema, as an ordered list of migrations. `PRAGMA user_version` holds the
/// number of migrations applied; opening a file applies the missing ones in one transaction, and
/// a file with a higher number (written by a newer Tributary) is refused untouched.
///
/// Never edit a migration that has shipped: add a new one.
enum StateSchema {
    /// One step forward: SQL, then (optionally) a data fix-up in Swift inside the same transaction.
    struct Migration: Sendable {
        var sql: String
        var fixUp: (@Sendable (SQLiteConnection) throws(SQLiteError) -> Void)?
    }

    /// The version this build writes.
    static var current: Int { migrations.count }

    /// Migration `n` (1-based) takes a file from version `n - 1` to `n`.
    static let migrations: [Migration] = [
        // Version 1 (Tributary 0.1): per-source health and validators, and the items each source served.
        Migration(
            sql: """
                CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                CREATE TABLE sources (
                    name TEXT PRIMARY KEY,
                    last_attempt REAL,
                    last_success REAL,
                    consecutive_failures INTEGER NOT NULL DEFAULT 0,
                    last_error TEXT,
                    last_http_status INTEGER,
                    validator_url TEXT,
                    etag TEXT,
                    last_modified TEXT,
                    identity_scheme INTEGER,
                    feed TEXT
                );
                CREATE TABLE items (
                    source TEXT NOT NULL,
                    id TEXT NOT NULL,
                    first_seen REAL NOT NULL,
                    last_seen REAL NOT NULL,
                    served INTEGER NOT NULL,
                    data BLOB NOT NULL,
                    PRIMARY KEY (source, id)
                ) WITHOUT ROWID;
                """),
        // Version 2: tombstones and the match key that lets ids be migrated, and the run history.
        Migration(
            sql: """
                ALTER TABLE items ADD COLUMN match_key TEXT;
                CREATE INDEX items_by_match_key ON items (source, match_key);
                CREATE TABLE tombstones (
                    source TEXT NOT NULL,
                    id TEXT NOT NULL,
                    match_key TEXT,
                    first_seen REAL NOT NULL,
                    removed REAL NOT NULL,
                    PRIMARY KEY (source, id)
                ) WITHOUT ROWID;
                CREATE INDEX tombstones_by_match_key ON tombstones (source, match_key);
                CREATE TABLE runs (
                    id INTEGER PRIMARY KEY,
                    started REAL NOT NULL,
                    duration REAL NOT NULL,
                    status INTEGER NOT NULL,
                    sources INTEGER NOT NULL,
                    failed INTEGER NOT NULL,
                    items INTEGER NOT NULL,
                    new_items INTEGER NOT NULL
                );
                """,
            fixUp: { connection throws(SQLiteError) in
                // Items stored by version 1 get their match key from their stored data.
                let select = try connection.prepare("SELECT source, id, data FROM items")
                let update = try connection.prepare("UPDATE items SET match_key = ? WHERE source = ? AND id = ?")
                var keys: [(String, String, String)] = []
                while try select.step() {
                    guard let source = select.text(0), let id = select.text(1), let item = ItemCodec.decodeItem(select.bytes(2))
                    else { continue }
                    keys.append((MatchKey.of(item), source, id))
                }
                for (key, source, id) in keys {
                    try update.bind(.text(key), .text(source), .text(id)).run()
                }
            }),
        // Version 3: an index that answers "how many served items per source" and "which unserved
        // item ages out next" without reading every item's data.
        Migration(sql: "CREATE INDEX items_by_served ON items (served, source, first_seen);"),
        // Version 4: items in a table with row ids. An item's data (often several kilobytes of HTML) is mostly
        // larger than what a WITHOUT ROWID table keeps on a page (about a quarter of one), so most of it went to
        // overflow pages, half empty: the file was 1.7 times its data, and the first run, which writes every item,
        // spent most of its time writing those pages twice (to the WAL, then to the file). A table with row ids
        // keeps up to a whole page of each row with the row.
        Migration(
            sql: """
                CREATE TABLE items_with_rowid (
                    source TEXT NOT NULL,
                    id TEXT NOT NULL,
                    first_seen REAL NOT NULL,
                    last_seen REAL NOT NULL,
                    served INTEGER NOT NULL,
                    data BLOB NOT NULL,
                    match_key TEXT,
                    UNIQUE (source, id)
                );
                INSERT INTO items_with_rowid (source, id, first_seen, last_seen, served, data, match_key)
                    SELECT source, id, first_seen, last_seen, served, data, match_key FROM items ORDER BY source, id;
                DROP TABLE items;
                ALTER TABLE items_with_rowid RENAME TO items;
                CREATE INDEX items_by_match_key ON items (source, match_key);
                CREATE INDEX items_by_served ON items (served, source, first_seen);
                """),
        // Version 5: the digest of the source's settings its validators were received with (`SourceConfig
        // .settingsDigest`); validators stored before have none, so each source is read afresh once.
        Migration(sql: "ALTER TABLE sources ADD COLUMN settings TEXT;"),
        // Version 6: when a failing source may be asked again (a server's Retry-After, or a backoff after failures),
        // why, and the settings digest it was deferred with.
        Migration(
            sql: """
                ALTER TABLE sources ADD COLUMN deferred_until REAL;
                ALTER TABLE sources ADD COLUMN deferral_reason TEXT;
                ALTER TABLE sources ADD COLUMN deferral_settings TEXT;
                """),
        // Version 7: the digest of what the source's last attempt was made with (`SourceConfig.scheduleDigest`), for
        // every source, not only a deferred one: an edited source is asked at once, whether it waits for its interval
        // or while it fails.
        Migration(sql: "ALTER TABLE sources RENAME COLUMN deferral_settings TO attempt_settings;"),
        // Version 8: no change of tables. An item with an external URL is stored in a second layout
        // (`ItemBinary.markerWithExternalURL`) that builds before it cannot read: they refuse the file, untouched,
        // rather than run without those items.
        Migration(sql: ""),
    ]
}
