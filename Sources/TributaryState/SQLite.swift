import CSQLite

/// SQLite's "copy the bytes now" destructor, which Swift cannot import as a macro.
private let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

/// An error SQLite reported, with its primary result code.
struct SQLiteError: Error {
    /// The primary result code (`SQLITE_CORRUPT`, `SQLITE_BUSY`, …).
    var code: Int32
    /// SQLite's message.
    var message: String

    /// Whether the file is damaged or is not a database at all.
    var isCorruption: Bool { code == SQLITE_CORRUPT || code == SQLITE_NOTADB }
}

/// One connection to a database file. Not thread-safe: `StateStore` serializes its use.
final class SQLiteConnection {
    private let handle: OpaquePointer

    /// Opens (and, unless `readOnly`, creates) the database at `path`. An `immutable` file is read as a file that
    /// nothing changes while it is open: no lock, no log, no index file beside it (SQLite's `immutable` URI
    /// parameter), which a user who may not write its folder can read.
    init(path: String, readOnly: Bool = false, immutable: Bool = false) throws(SQLiteError) {
        var handle: OpaquePointer?
        var flags = (readOnly || immutable ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        var name = path
        if immutable {
            flags |= SQLITE_OPEN_URI
            name = "file:" + Self.uriPath(path) + "?immutable=1"
        }
        let code = sqlite3_open_v2(name, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close(handle)
            throw SQLiteError(code: code & 0xFF, message: message)
        }
        self.handle = handle
        sqlite3_busy_timeout(handle, 5_000)
        sqlite3_extended_result_codes(handle, 0)
        // Closing leaves the write-ahead log as it is: the next connection reads through it and appends to it, and
        // SQLite copies it into the database when it grows past its checkpoint size (`StateStore` truncates a large
        // one itself). A run that wrote a few pages then costs no sync and no new file.
        _ = tributary_sqlite3_keep_wal_on_close(handle)
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// `path` for a `file:` URI: the characters a URI gives a meaning to are percent-encoded.
    private static func uriPath(_ path: String) -> String {
        var encoded = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "%"), UInt8(ascii: "?"), UInt8(ascii: "#"), 0..<0x20, 0x7F...:
                encoded += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            default:
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return encoded
    }

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? lastMessage
            sqlite3_free(message)
            throw SQLiteError(code: code & 0xFF, message: text)
        }
    }

    /// Compiles one statement.
    func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code) }
        return SQLiteStatement(statement, connection: self)
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    func transaction<T>(_ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// The single integer the query returns, or nil when it returns no row.
    func integer(_ sql: String) throws(SQLiteError) -> Int? {
        let statement = try prepare(sql)
        return try statement.step() ? statement.int(0) : nil
    }

    /// The text in the first column of the query's first row, or nil when it returns no row; the
    /// statement is finished before this returns, so it holds no read transaction open.
    func text(_ sql: String, parameter: String? = nil) throws(SQLiteError) -> String? {
        let statement = try prepare(sql)
        if let parameter { statement.bind(.text(parameter)) }
        return try statement.step() ? statement.text(0) : nil
    }

    /// Copies the whole database into `target` (SQLite's online backup), e.g. into a database in memory.
    func copy(into target: SQLiteConnection) throws(SQLiteError) {
        guard let backup = sqlite3_backup_init(target.handle, "main", handle, "main") else {
            throw target.error(sqlite3_errcode(target.handle))
        }
        let code = sqlite3_backup_step(backup, -1)
        sqlite3_backup_finish(backup)
        guard code == SQLITE_DONE else { throw error(code) }
    }

    /// Whether the file can be read but not written (its permissions, or a read-only file system).
    var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    /// The error for a result code, with the connection's message.
    func error(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code & 0xFF, message: lastMessage)
    }

    private var lastMessage: String { String(cString: sqlite3_errmsg(handle)) }
}

/// A compiled statement: bind parameters (1-based), step through rows, read columns (0-based).
final class SQLiteStatement {
    private let statement: OpaquePointer
    private let connection: SQLiteConnection

    fileprivate init(_ statement: OpaquePointer, connection: SQLiteConnection) {
        self.statement = statement
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(statement)
    }

    /// Binds the values to parameters 1, 2, … and clears any row in progress.
    @discardableResult
    func bind(_ values: SQLiteValue...) -> SQLiteStatement {
        bind(values)
    }

    /// Binds the values to parameters 1, 2, … and clears any row in progress.
    @discardableResult
    func bind(_ values: [SQLiteValue]) -> SQLiteStatement {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case .null: sqlite3_bind_null(statement, index)
            case .integer(let number): sqlite3_bind_int64(statement, index, Int64(number))
            case .real(let number): sqlite3_bind_double(statement, index, number)
            case .text(let text): sqlite3_bind_text(statement, index, text, -1, transient)
            case .blob(let bytes):
                bytes.withUnsafeBytes { buffer in
                    _ = sqlite3_bind_blob(statement, index, buffer.baseAddress, Int32(buffer.count), transient)
                }
            }
        }
        return self
    }

    /// Advances to the next row: true when there is one, false when done.
    func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(statement)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error(code)
        }
    }

    /// Runs a statement that returns no rows.
    func run() throws(SQLiteError) {
        while try step() {}
    }

    /// Whether the column holds NULL.
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }

    /// The column as an integer.
    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }

    /// The column as a real number.
    func double(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }

    /// The column as an optional real number.
    func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : double(column) }

    /// The column as text, nil for NULL.
    func text(_ column: Int32) -> String? {
        guard let pointer = sqlite3_column_text(statement, column) else { return nil }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// The column as bytes (empty for NULL).
    /// The column's bytes, lent to `body` without a copy (valid only inside it).
    func withBytes<T>(_ column: Int32, _ body: (UnsafeRawBufferPointer) -> T) -> T {
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count > 0, let pointer = sqlite3_column_blob(statement, column) else {
            return body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        return body(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    func bytes(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count > 0, let pointer = sqlite3_column_blob(statement, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }
}

/// A value bound to a statement parameter.
enum SQLiteValue {
    case null
    case integer(Int)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// Text, or NULL for nil.
    static func optional(_ text: String?) -> SQLiteValue { text.map(SQLiteValue.text) ?? .null }

    /// A real number, or NULL for nil.
    static func optional(_ number: Double?) -> SQLiteValue { number.map(SQLiteValue.real) ?? .null }

    /// An integer, or NULL for nil.
    static func optional(_ number: Int?) -> SQLiteValue { number.map(SQLiteValue.integer) ?? .null }
}
