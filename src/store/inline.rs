//! SQLite's hot writes run on the calling async worker instead of a thread of their own.
//!
//! sqlx runs each SQLite connection on a thread of its own: every statement is a hand-off
//! there and back (a futex wake each way, and an `eventfd` write to wake the async worker).
//! Under load that parking and waking was the largest single cost of a message. The writes
//! every message makes (its arrival, its turn's start, its turn's records) take a few tens of
//! microseconds of SQLite's own work each (WAL, `synchronous = NORMAL`: a commit does not wait
//! for the disk; checkpoints run in the background, `checkpoint.rs`), so [`InlineWriter`]
//! runs them where they are asked for, on a connection of its own (rusqlite, on the same
//! SQLite library sqlx links).
//!
//! It writes only while holding the writer pool's one connection (the gate every other write
//! of the process takes), so the process still has one writer at a time and never meets
//! SQLite's busy handler, which would sleep on the async worker. Another process writing the
//! same file (`mneme chat` beside the daemon) is waited for asynchronously: a write that finds
//! the database busy is retried after a pause, up to the same 10 s sqlx's connections wait.

use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

use rusqlite::types::ToSql;
use rusqlite::{Connection, ErrorCode, OpenFlags, Row, Transaction, TransactionBehavior};

use super::Result;
use super::db::SqliteConns;

/// How long a write waits for another process's write to end, as sqlx's `busy_timeout`.
const BUSY_WAIT: Duration = Duration::from_secs(10);

/// The writer of the hot statements ([`InlineWriter::write`]).
pub struct InlineWriter {
    conn: Mutex<Connection>,
    /// The writer pool's one connection: held while writing, so that one write runs at a time.
    gate: SqliteConns,
}

impl std::fmt::Debug for InlineWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InlineWriter").finish_non_exhaustive()
    }
}

impl InlineWriter {
    /// A connection to the database file at `path`, set as sqlx's are (`Store::open`).
    pub fn open(path: &Path, gate: SqliteConns, checkpoint_pages: u32) -> Result<Self> {
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(error)?;
        conn.execute_batch(&format!(
            "PRAGMA synchronous = NORMAL;
             PRAGMA foreign_keys = ON;
             PRAGMA wal_autocheckpoint = {checkpoint_pages};"
        ))
        .map_err(error)?;
        // Busy: answered at once, and waited for without holding the async worker (`write`).
        conn.busy_timeout(Duration::ZERO).map_err(error)?;
        conn.set_prepared_statement_cache_capacity(64);
        Ok(Self {
            conn: Mutex::new(conn),
            gate,
        })
    }

    /// Runs `f` in one write transaction (`BEGIN IMMEDIATE`): committed when `f` returns `Ok`,
    /// rolled back otherwise. `f` runs on the calling thread and may run again when the
    /// database was busy (another process writing).
    pub async fn write<T>(&self, f: impl Fn(&Transaction<'_>) -> rusqlite::Result<T>) -> Result<T> {
        let _gate = self.gate.acquire().await?;
        let mut pause = Duration::from_millis(1);
        let mut waited = Duration::ZERO;
        loop {
            let done = {
                let mut conn = self.conn.lock().unwrap_or_else(|e| e.into_inner());
                run(&mut conn, &f)
            };
            match done {
                Err(e) if is_busy(&e) && waited < BUSY_WAIT => {
                    tokio::time::sleep(pause).await;
                    waited += pause;
                    pause = (pause * 2).min(Duration::from_millis(50));
                }
                done => return done.map_err(error),
            }
        }
    }
}

fn run<T>(
    conn: &mut Connection,
    f: &impl Fn(&Transaction<'_>) -> rusqlite::Result<T>,
) -> rusqlite::Result<T> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let value = f(&tx)?;
    tx.commit()?;
    Ok(value)
}

fn is_busy(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked)
    )
}

/// A statement and its values, bound by their `$N` placeholders as sqlx binds them: the
/// texts are shared with the sqlx side.
pub struct Query<'q> {
    sql: &'q str,
    values: Vec<Box<dyn ToSql + 'q>>,
}

impl<'q> Query<'q> {
    pub fn new(sql: &'q str) -> Self {
        Self {
            sql,
            values: Vec::new(),
        }
    }

    /// Another statement with the same values, each of which takes the `$N` it names (a
    /// value none names is left out).
    pub fn on(&mut self, sql: &'q str) -> &mut Self {
        self.sql = sql;
        self
    }

    /// The next value (`$1`, then `$2`…).
    pub fn bind(mut self, value: impl ToSql + 'q) -> Self {
        self.values.push(Box::new(value));
        self
    }

    fn prepared<'c>(
        &self,
        conn: &'c Connection,
    ) -> rusqlite::Result<rusqlite::CachedStatement<'c>> {
        let mut statement = conn.prepare_cached(self.sql)?;
        for i in 1..=statement.parameter_count() {
            let value = statement
                .parameter_name(i)
                .and_then(|name| name.strip_prefix('$'))
                .and_then(|n| n.parse::<usize>().ok())
                .and_then(|n| self.values.get(n.checked_sub(1)?))
                .ok_or(rusqlite::Error::InvalidParameterCount(i, self.values.len()))?;
            statement.raw_bind_parameter(i, value)?;
        }
        Ok(statement)
    }

    /// Runs the statement; its rows, each read by `read`.
    pub fn rows<T>(
        &self,
        conn: &Connection,
        mut read: impl FnMut(&Row<'_>) -> rusqlite::Result<T>,
    ) -> rusqlite::Result<Vec<T>> {
        let mut statement = self.prepared(conn)?;
        let mut rows = statement.raw_query();
        let mut out = Vec::new();
        while let Some(row) = rows.next()? {
            out.push(read(row)?);
        }
        Ok(out)
    }

    /// Runs the statement; its first row, read by `read`.
    pub fn first<T>(
        &self,
        conn: &Connection,
        read: impl FnOnce(&Row<'_>) -> rusqlite::Result<T>,
    ) -> rusqlite::Result<Option<T>> {
        let mut statement = self.prepared(conn)?;
        let mut rows = statement.raw_query();
        let first = match rows.next()? {
            Some(row) => Some(read(row)?),
            None => None,
        };
        // Run to the end: a statement that writes is done only then.
        while rows.next()?.is_some() {}
        Ok(first)
    }

    /// Runs the statement; how many rows it changed.
    pub fn execute(&self, conn: &Connection) -> rusqlite::Result<usize> {
        self.prepared(conn)?.raw_execute()
    }
}

/// A rusqlite error as the store's (sqlx's) error, with SQLite's extended code.
pub fn error(e: rusqlite::Error) -> sqlx::Error {
    sqlx::Error::Database(Box::new(InlineError::from(e)))
}

#[derive(Debug)]
pub struct InlineError {
    message: String,
    code: Option<i32>,
    source: rusqlite::Error,
}

impl From<rusqlite::Error> for InlineError {
    fn from(source: rusqlite::Error) -> Self {
        let code = match &source {
            rusqlite::Error::SqliteFailure(e, _) => Some(e.extended_code),
            _ => None,
        };
        Self {
            message: source.to_string(),
            code,
            source,
        }
    }
}

impl std::fmt::Display for InlineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for InlineError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

impl sqlx::error::DatabaseError for InlineError {
    fn message(&self) -> &str {
        &self.message
    }

    fn code(&self) -> Option<std::borrow::Cow<'_, str>> {
        self.code.map(|c| c.to_string().into())
    }

    fn as_error(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
        self
    }

    fn as_error_mut(&mut self) -> &mut (dyn std::error::Error + Send + Sync + 'static) {
        self
    }

    fn into_error(self: Box<Self>) -> Box<dyn std::error::Error + Send + Sync + 'static> {
        self
    }

    fn kind(&self) -> sqlx::error::ErrorKind {
        use rusqlite::ffi;
        use sqlx::error::ErrorKind;
        match self.code {
            Some(ffi::SQLITE_CONSTRAINT_UNIQUE | ffi::SQLITE_CONSTRAINT_PRIMARYKEY) => {
                ErrorKind::UniqueViolation
            }
            Some(ffi::SQLITE_CONSTRAINT_FOREIGNKEY) => ErrorKind::ForeignKeyViolation,
            Some(ffi::SQLITE_CONSTRAINT_NOTNULL) => ErrorKind::NotNullViolation,
            Some(ffi::SQLITE_CONSTRAINT_CHECK) => ErrorKind::CheckViolation,
            _ => ErrorKind::Other,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::base::ChatKey;
    use crate::store::Store;
    use crate::store::intake::tests::arrival;

    fn table() -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch("CREATE TABLE t (x INTEGER PRIMARY KEY, y TEXT)")
            .unwrap();
        conn
    }

    /// Values go to their `$N` wherever and however often it appears, as sqlx binds them; a
    /// placeholder with no value is an error, not a panic.
    #[test]
    fn values_are_bound_by_their_numbers() {
        let conn = table();
        let row = Query::new("SELECT $2, $1, $2 || $1")
            .bind("a")
            .bind("b")
            .first(&conn, |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                ))
            })
            .unwrap();
        assert_eq!(row, Some(("b".into(), "a".into(), "ba".into())));
        let missing = Query::new("SELECT $1, $3").bind(1).bind(2).execute(&conn);
        assert!(missing.is_err());
    }

    /// A constraint broken on the inline writer is the store's usual error, of the usual kind.
    #[test]
    fn errors_keep_their_kind() {
        let conn = table();
        let insert = Query::new("INSERT INTO t (x) VALUES ($1)").bind(1);
        insert.execute(&conn).unwrap();
        let sqlx::Error::Database(e) = error(insert.execute(&conn).unwrap_err()) else {
            panic!("a database error")
        };
        assert!(e.is_unique_violation(), "{e}");
        assert_eq!(
            e.code().as_deref(),
            Some("1555"),
            "SQLITE_CONSTRAINT_PRIMARYKEY"
        );
    }

    /// Another process writing the file (here a connection of its own holding SQLite's write
    /// lock) is waited for without holding the async worker: the runtime has one thread, and
    /// the waiting write neither fails nor keeps other work from running; it lands once the
    /// lock is released.
    #[tokio::test]
    async fn a_write_waits_for_another_process_without_blocking_the_runtime() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mneme.db");
        let store = Store::open(&format!("sqlite://{}", path.display()))
            .await
            .unwrap();
        let other = Connection::open(&path).unwrap();
        other.busy_timeout(Duration::ZERO).unwrap();
        // The store just opened may still be writing: nothing here may block the runtime.
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        while let Err(e) = other.execute_batch("BEGIN IMMEDIATE") {
            assert!(is_busy(&e), "{e}");
            assert!(tokio::time::Instant::now() < deadline, "{e}");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }

        let chat = ChatKey::new("telegram", "1");
        let write = tokio::spawn({
            let store = store.clone();
            let chat = chat.clone();
            async move { store.store_arrivals(&[arrival(&chat, "1", "hello")]).await }
        });
        // The spawned write runs, meets the lock and waits; meanwhile this task runs too.
        for _ in 0..20 {
            tokio::time::sleep(Duration::from_millis(5)).await;
            assert!(!write.is_finished(), "the write went through a held lock");
        }
        other.execute_batch("COMMIT").unwrap();
        let ids = tokio::time::timeout(Duration::from_secs(10), write)
            .await
            .expect("the write lands once the lock is released")
            .unwrap()
            .unwrap();
        assert!(ids[0].is_some());
        assert!(store.find_chat(&chat).await.unwrap().is_some());
    }

    /// `sqlite::memory:` is a database of the store's own (two are apart), gone with it.
    #[tokio::test]
    async fn an_in_memory_store_is_its_own_and_leaves_nothing() {
        let one = Store::open("sqlite::memory:").await.unwrap();
        let two = Store::open("sqlite::memory:").await.unwrap();
        let chat = ChatKey::new("telegram", "1");
        one.store_arrivals(&[arrival(&chat, "1", "hello")])
            .await
            .unwrap();
        assert!(one.find_chat(&chat).await.unwrap().is_some());
        assert!(two.find_chat(&chat).await.unwrap().is_none());
        let dir = one._scratch.as_ref().unwrap().path().to_owned();
        assert!(dir.join("mneme.db").exists());
        one.close().await;
        drop(one);
        assert!(!dir.exists(), "{} is left behind", dir.display());
    }
}
