#include <sqlite3.h>

/// Keeps the write-ahead log when the connection closes instead of copying it into the database
/// and deleting it (`sqlite3_db_config` is variadic, which Swift cannot call). Returns an SQLite
/// result code.
static inline int tributary_sqlite3_keep_wal_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}
