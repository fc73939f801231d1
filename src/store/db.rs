//! The two backends behind one [`Store`](super::Store): SQLite (one process, one file) and
//! PostgreSQL (one server, any number of replicas).
//!
//! Most statements are written once in SQL both understand (`$1` placeholders, `ON CONFLICT`,
//! `RETURNING`, `IS NOT DISTINCT FROM`, `COUNT(*) FILTER (…)`, `TRUE`/`FALSE`); where the two
//! differ (JSON lists and aggregates, `MAX(a, b)` vs `GREATEST`) [`Pool::sql`] / [`Conn::sql`]
//! put a statement into the backend's words (`dialect.rs`); full-text search and bulk loads
//! are written once per backend. The macros [`on_pool!`] and [`on_conn!`]
//! run one block of query-building code against whichever backend is open: the block is
//! compiled once per backend, so each runs with its driver's own types.

use std::borrow::Cow;

use sqlx::pool::PoolConnection;
use sqlx::sqlite::SqliteTransactionManager;
use sqlx::{PgConnection, PgPool, Postgres, SqliteConnection, Transaction, TransactionManager};

use super::Result;
use super::sqlite_pool::{Held, SqliteConns, discard};

/// The advisory lock every PostgreSQL write transaction takes: writers run one at a time, as
/// they do on SQLite (`BEGIN IMMEDIATE`), so a read-then-write inside a transaction (a
/// reflector batch checking its cursor, an import checking what the scope holds) cannot race
/// another writer — in this process or in another replica.
const PG_WRITE_LOCK: i64 = 0x6d6e_656d_6501; // "mneme" + 1

/// A connection pool of either backend.
#[derive(Clone, Debug)]
pub enum Pool {
    Sqlite(SqliteConns),
    Postgres(PgPool),
}

/// One connection (often a transaction's) of either backend.
pub enum Conn<'c> {
    Sqlite(&'c mut SqliteConnection),
    Postgres(&'c mut PgConnection),
}

/// A write transaction of either backend; dropped without `commit`, it rolls back.
pub enum Tx {
    Sqlite(SqliteTx),
    Postgres(Transaction<'static, Postgres>),
}

/// A SQLite write transaction on a pooled connection: dropped while open, it queues its
/// rollback on the connection (ahead of whatever the connection's next user sends).
pub struct SqliteTx {
    conn: Held,
    open: bool,
}

impl Drop for SqliteTx {
    fn drop(&mut self) {
        if self.open {
            SqliteTransactionManager::start_rollback(&mut self.conn);
        }
    }
}

/// A connection taken from the pool (returned when dropped).
pub enum PoolConn {
    Sqlite(Held),
    Postgres(PoolConnection<Postgres>),
}

impl PoolConn {
    pub fn conn(&mut self) -> Conn<'_> {
        match self {
            Self::Sqlite(c) => Conn::Sqlite(c),
            Self::Postgres(c) => Conn::Postgres(c),
        }
    }
}

impl Pool {
    pub async fn acquire(&self) -> Result<PoolConn> {
        Ok(match self {
            Self::Sqlite(p) => PoolConn::Sqlite(p.acquire().await?),
            Self::Postgres(p) => PoolConn::Postgres(p.acquire().await?),
        })
    }

    pub fn is_postgres(&self) -> bool {
        matches!(self, Self::Postgres(_))
    }

    /// `sql` in this backend's words (see `dialect.rs`).
    pub fn sql<'a>(&self, sql: &'a str) -> Cow<'a, str> {
        dialect(self.is_postgres(), sql)
    }

    /// A transaction that writes: SQLite takes its write lock at once (`BEGIN IMMEDIATE`),
    /// PostgreSQL the one advisory write lock (see [`PG_WRITE_LOCK`]).
    pub async fn begin_write(&self) -> Result<Tx> {
        match self {
            Self::Sqlite(p) => {
                let mut conn = p.acquire().await?;
                SqliteTransactionManager::begin(&mut conn, Some("BEGIN IMMEDIATE".into())).await?;
                Ok(Tx::Sqlite(SqliteTx { conn, open: true }))
            }
            Self::Postgres(p) => {
                let mut tx = p.begin().await?;
                sqlx::query("SELECT pg_advisory_xact_lock($1)")
                    .bind(PG_WRITE_LOCK)
                    .execute(&mut *tx)
                    .await?;
                Ok(Tx::Postgres(tx))
            }
        }
    }

    pub async fn close(&self) {
        match self {
            Self::Sqlite(p) => p.close().await,
            Self::Postgres(p) => p.close().await,
        }
    }
}

impl Tx {
    pub fn conn(&mut self) -> Conn<'_> {
        match self {
            Self::Sqlite(t) => Conn::Sqlite(&mut t.conn),
            Self::Postgres(t) => Conn::Postgres(t),
        }
    }

    pub async fn commit(self) -> Result<()> {
        match self {
            Self::Sqlite(mut t) => {
                SqliteTransactionManager::commit(&mut t.conn).await?;
                t.open = false;
                Ok(())
            }
            Self::Postgres(t) => t.commit().await,
        }
    }

    pub async fn rollback(self) -> Result<()> {
        match self {
            Self::Sqlite(mut t) => {
                SqliteTransactionManager::rollback(&mut t.conn).await?;
                t.open = false;
                Ok(())
            }
            Self::Postgres(t) => t.rollback().await,
        }
    }
}

impl Conn<'_> {
    /// The same connection, borrowed again (to pass on while keeping this one).
    pub fn re(&mut self) -> Conn<'_> {
        match self {
            Self::Sqlite(c) => Conn::Sqlite(c),
            Self::Postgres(c) => Conn::Postgres(c),
        }
    }

    pub fn is_postgres(&self) -> bool {
        matches!(self, Self::Postgres(_))
    }

    /// `sql` in this backend's words (see `dialect.rs`).
    pub fn sql<'a>(&self, sql: &'a str) -> Cow<'a, str> {
        dialect(self.is_postgres(), sql)
    }
}

fn dialect(postgres: bool, sql: &str) -> Cow<'_, str> {
    if postgres {
        Cow::Owned(super::dialect::for_postgres(sql))
    } else {
        super::dialect::for_sqlite(sql)
    }
}

/// A SQLite write transaction written into its statement text (`BEGIN IMMEDIATE; …; COMMIT`,
/// see [`InlineTx::text`]), so that it takes one hand-off to the connection's thread where
/// sqlx's transactions take three (`BEGIN`, the statements, `COMMIT`) — each of them a wait
/// for the async side while the one writer connection is held. Its rows are read with
/// `fetch_all` (a row limit would stop before `COMMIT`). A statement that fails is rolled
/// back by [`InlineTx::finish`]; a connection that may still be inside the transaction (the
/// caller went away midway, or the rollback failed) is closed when dropped, which rolls back,
/// instead of going back to the pool.
pub struct InlineTx {
    conn: Option<Held>,
}

impl InlineTx {
    /// `statements` (one or more, `;`-separated) as one transaction.
    pub fn text(statements: &str) -> String {
        format!("BEGIN IMMEDIATE;\n{statements};\nCOMMIT")
    }

    pub async fn acquire(pool: &SqliteConns) -> Result<Self> {
        Ok(Self {
            conn: Some(pool.acquire().await?),
        })
    }

    pub fn conn(&mut self) -> &mut SqliteConnection {
        self.conn.as_mut().expect("taken only by finish")
    }

    /// Ends the transaction run on [`InlineTx::conn`] with `result`: on an error it is rolled
    /// back (it may have stopped between `BEGIN` and `COMMIT`). Returns `result`.
    pub async fn finish<T>(mut self, result: Result<T>) -> Result<T> {
        if result.is_err() {
            match sqlx::query("ROLLBACK").execute(self.conn()).await {
                Ok(_) => {}
                // It failed before `BEGIN` took effect (the database busy), or SQLite rolled
                // back by itself (a full disk).
                Err(sqlx::Error::Database(e))
                    if e.message().contains("no transaction is active") => {}
                // Left armed: the connection is closed, not pooled.
                Err(_) => return result,
            }
        }
        self.conn.take();
        result
    }
}

impl Drop for InlineTx {
    fn drop(&mut self) {
        if let Some(conn) = self.conn.take() {
            discard(conn);
        }
    }
}

/// `on_pool!(pool, p => expr)`: `expr` with `p` the backend's pool (`&SqliteConns` or
/// `&PgPool`).
macro_rules! on_pool {
    ($pool:expr, $p:ident => $body:expr) => {
        match $pool {
            $crate::store::db::Pool::Sqlite($p) => $body,
            $crate::store::db::Pool::Postgres($p) => $body,
        }
    };
}

/// `on_conn!(conn, c => expr)`: `expr` with `c` the backend's connection
/// (`&mut SqliteConnection` or `&mut PgConnection`); `conn` is a [`Conn`] (pass `x.re()` to
/// keep using `x`, or `tx.conn()` for a transaction).
macro_rules! on_conn {
    ($conn:expr, $c:ident => $body:expr) => {
        match $conn {
            $crate::store::db::Conn::Sqlite($c) => $body,
            $crate::store::db::Conn::Postgres($c) => $body,
        }
    };
}

pub(crate) use {on_conn, on_pool};

/// A new, empty database on the PostgreSQL server `server_url` names (same credentials; the
/// role needs CREATEDB), for tests that each want a database of their own. Returns its URL.
#[doc(hidden)]
pub async fn create_scratch_database(server_url: &str) -> Result<String> {
    use sqlx::Connection;
    static COUNT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let mut url = url::Url::parse(server_url)
        .map_err(|e| sqlx::Error::Configuration(format!("not a URL: {e}").into()))?;
    let name = format!(
        "mneme_t_{}_{}_{}",
        std::process::id(),
        COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        fastrand::u32(..)
    );
    let mut conn = sqlx::PgConnection::connect(server_url).await?;
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&mut conn)
        .await?;
    conn.close().await?;
    url.set_path(&name);
    Ok(url.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    /// A store on a file (an in-memory database goes with its connection) and its writer.
    async fn on_file() -> (tempfile::TempDir, Store, SqliteConns) {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("mneme.db").display());
        let store = Store::open(&url).await.unwrap();
        let Pool::Sqlite(writer) = store.writer.clone() else {
            unreachable!("a SQLite URL")
        };
        sqlx::query("CREATE TABLE t (x INTEGER PRIMARY KEY)")
            .execute(&writer)
            .await
            .unwrap();
        (dir, store, writer)
    }

    async fn kept(store: &Store) -> Vec<i64> {
        on_pool!(&store.writer, p => sqlx::query_scalar("SELECT x FROM t ORDER BY x")
            .fetch_all(p)
            .await)
        .unwrap()
    }

    /// The next writer, through sqlx's own transaction: it fails ("cannot start a transaction
    /// within a transaction") on a connection left inside one.
    async fn write(store: &Store, x: i64) {
        let mut tx = store.writer.begin_write().await.unwrap();
        on_conn!(tx.conn(), c => sqlx::query("INSERT INTO t VALUES ($1)")
            .bind(x)
            .execute(c)
            .await
            .map(|_| ()))
        .unwrap();
        tx.commit().await.unwrap();
    }

    /// A statement that fails inside an inline transaction undoes those before it, and the
    /// connection writes on: it is not left inside the transaction.
    #[tokio::test]
    async fn a_failed_inline_transaction_is_rolled_back() {
        let (_dir, store, writer) = on_file().await;
        let mut tx = InlineTx::acquire(&writer).await.unwrap();
        let text = InlineTx::text("INSERT INTO t VALUES (1); INSERT INTO t VALUES (1)");
        let done = sqlx::query(&text).fetch_all(tx.conn()).await.map(|_| ());
        assert!(
            tx.finish(done).await.is_err(),
            "the second insert conflicts"
        );
        assert_eq!(kept(&store).await, Vec::<i64>::new());
        write(&store, 2).await;

        let mut tx = InlineTx::acquire(&writer).await.unwrap();
        let text = InlineTx::text("INSERT INTO t VALUES (3); INSERT INTO t VALUES (4)");
        let done = sqlx::query(&text).fetch_all(tx.conn()).await.map(|_| ());
        tx.finish(done).await.unwrap();
        assert_eq!(kept(&store).await, [2, 3, 4]);
        write(&store, 5).await;
    }

    /// A write transaction dropped without `commit` (an error returned midway) is rolled
    /// back before the connection's next user: nothing of it is kept, and the next writer is
    /// not inside it.
    #[tokio::test]
    async fn a_write_transaction_dropped_midway_is_rolled_back() {
        let (_dir, store, _writer) = on_file().await;
        let mut tx = store.writer.begin_write().await.unwrap();
        on_conn!(tx.conn(), c => sqlx::query("INSERT INTO t VALUES (1)")
            .execute(c)
            .await
            .map(|_| ()))
        .unwrap();
        drop(tx);
        write(&store, 2).await;
        assert_eq!(kept(&store).await, [2]);
        let tx = store.writer.begin_write().await.unwrap();
        tx.rollback().await.unwrap();
        write(&store, 3).await;
        assert_eq!(kept(&store).await, [2, 3]);
    }

    /// An inline transaction dropped before its end (its caller went away midway) takes its
    /// connection with it, which rolls back: nothing of it is kept, and the next writer gets
    /// a connection outside any transaction.
    #[tokio::test]
    async fn an_inline_transaction_left_midway_closes_its_connection() {
        let (_dir, store, writer) = on_file().await;
        let mut tx = InlineTx::acquire(&writer).await.unwrap();
        sqlx::query("BEGIN IMMEDIATE; INSERT INTO t VALUES (1)")
            .execute(tx.conn())
            .await
            .unwrap();
        drop(tx);
        write(&store, 2).await;
        assert_eq!(kept(&store).await, [2]);
    }
}
