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

use futures_util::future::BoxFuture;
use sqlx::{PgConnection, SqliteConnection};

use super::Result;
use super::conn_pool::{Conns, Held, discard, is_gone};

/// The advisory lock every PostgreSQL write transaction takes: writers run one at a time, as
/// they do on SQLite (`BEGIN IMMEDIATE`), so a read-then-write inside a transaction (a
/// reflector batch checking its cursor, an import checking what the scope holds) cannot race
/// another writer — in this process or in another replica.
const PG_WRITE_LOCK: i64 = 0x6d6e_656d_6501; // "mneme" + 1

pub type SqliteConns = Conns<SqliteConnection>;
pub type PgConns = Conns<PgConnection>;

/// A connection pool of either backend (`conn_pool.rs`).
#[derive(Clone, Debug)]
pub enum Pool {
    Sqlite(SqliteConns),
    Postgres(PgConns),
}

/// One connection (often a transaction's) of either backend.
pub enum Conn<'c> {
    Sqlite(&'c mut SqliteConnection),
    Postgres(&'c mut PgConnection),
}

/// A write transaction of either backend; dropped without `commit`, it rolls back.
pub enum Tx {
    Sqlite(WriteTx<SqliteConnection>),
    Postgres(WriteTx<PgConnection>),
}

/// A connection taken from the pool (returned when dropped).
pub enum PoolConn {
    Sqlite(Held<SqliteConnection>),
    Postgres(Held<PgConnection>),
}

impl PoolConn {
    pub fn conn(&mut self) -> Conn<'_> {
        match self {
            Self::Sqlite(c) => Conn::Sqlite(c),
            Self::Postgres(c) => Conn::Postgres(c),
        }
    }

    /// Gives the connection back with `result`, what ran on it: closed instead when `result`
    /// shows it gone ([`is_gone`]), so that its next user does not fail on it too.
    pub fn finish<T>(self, result: Result<T>) -> Result<T> {
        if let Err(e) = &result
            && is_gone(e)
        {
            match self {
                Self::Sqlite(c) => discard(c),
                Self::Postgres(c) => discard(c),
            }
        }
        result
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
        Ok(match self {
            Self::Sqlite(p) => Tx::Sqlite(WriteTx::begin(p).await?),
            Self::Postgres(p) => Tx::Postgres(WriteTx::begin(p).await?),
        })
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
            Self::Sqlite(t) => Conn::Sqlite(t.conn()),
            Self::Postgres(t) => Conn::Postgres(t.conn()),
        }
    }

    pub async fn commit(self) -> Result<()> {
        match self {
            Self::Sqlite(t) => t.commit().await,
            Self::Postgres(t) => t.commit().await,
        }
    }

    pub async fn rollback(self) -> Result<()> {
        match self {
            Self::Sqlite(t) => t.rollback().await,
            Self::Postgres(t) => t.rollback().await,
        }
    }
}

/// What a transaction needs of a backend's connection.
pub trait TxBackend: sqlx::Connection + 'static {
    /// The text that begins a write transaction (one statement text: one hand-off on SQLite,
    /// one round trip on PostgreSQL).
    fn begin_write_text() -> Cow<'static, str>;

    /// Runs `sql`, one or more statements without parameters (on PostgreSQL through the
    /// simple query protocol, which takes several).
    fn run<'a>(&'a mut self, sql: &'a str) -> BoxFuture<'a, Result<()>>;

    /// Whether `e`, from `ROLLBACK`, says only that no transaction was open.
    fn none_open(e: &sqlx::Error) -> bool;
}

impl TxBackend for SqliteConnection {
    fn begin_write_text() -> Cow<'static, str> {
        "BEGIN IMMEDIATE".into()
    }

    fn run<'a>(&'a mut self, sql: &'a str) -> BoxFuture<'a, Result<()>> {
        Box::pin(async move { sqlx::Executor::execute(self, sql).await.map(|_| ()) })
    }

    fn none_open(e: &sqlx::Error) -> bool {
        // A write that failed before `BEGIN` took effect (the database busy), or SQLite rolled
        // back by itself (a full disk).
        matches!(e, sqlx::Error::Database(e) if e.message().contains("no transaction is active"))
    }
}

impl TxBackend for PgConnection {
    fn begin_write_text() -> Cow<'static, str> {
        format!("BEGIN; SELECT pg_advisory_xact_lock({PG_WRITE_LOCK})").into()
    }

    fn run<'a>(&'a mut self, sql: &'a str) -> BoxFuture<'a, Result<()>> {
        Box::pin(async move { sqlx::Executor::execute(self, sql).await.map(|_| ()) })
    }

    fn none_open(_: &sqlx::Error) -> bool {
        // PostgreSQL only warns.
        false
    }
}

/// A connection taken for a transaction, whose state is known only once the transaction
/// ended. [`TxConn::finish`] and [`TxConn::roll_back`] give it back to the pool; dropped
/// before either (its user went away midway), or when the rollback failed, it is closed
/// instead, which ends whatever it was inside.
pub struct TxConn<C: TxBackend> {
    conn: Option<Held<C>>,
}

impl<C: TxBackend> TxConn<C> {
    pub async fn acquire(pool: &Conns<C>) -> Result<Self> {
        Ok(Self {
            conn: Some(pool.acquire().await?),
        })
    }

    pub fn conn(&mut self) -> &mut C {
        self.conn
            .as_mut()
            .expect("taken only when the transaction ends")
    }

    /// Ends the transaction run on [`TxConn::conn`] with `result`: on an error it is rolled
    /// back (it may have stopped between `BEGIN` and `COMMIT`). Returns `result`.
    pub async fn finish<T>(mut self, result: Result<T>) -> Result<T> {
        match &result {
            // Should the rollback fail, the connection is closed, not pooled.
            Err(e) if !is_gone(e) => {
                let _ = self.roll_back().await;
            }
            // The connection is gone: closed when dropped.
            Err(_) => {}
            Ok(_) => {
                self.conn.take();
            }
        }
        result
    }

    /// Rolls back and gives the connection back to the pool; should the rollback fail, the
    /// connection is closed instead.
    pub async fn roll_back(mut self) -> Result<()> {
        match self.conn().run("ROLLBACK").await {
            Ok(()) => {}
            Err(e) if C::none_open(&e) => {}
            // Left armed: closed when dropped.
            Err(e) => return Err(e),
        }
        self.conn.take();
        Ok(())
    }
}

impl<C: TxBackend> Drop for TxConn<C> {
    fn drop(&mut self) {
        if let Some(conn) = self.conn.take() {
            discard(conn);
        }
    }
}

/// A write transaction of statements: begun by [`TxBackend::begin_write_text`], ended by
/// [`WriteTx::commit`] or [`WriteTx::rollback`]. Dropped while open (an error returned
/// midway), it is rolled back by a task of its own before its connection goes back to the
/// pool, so the next user finds the connection outside any transaction (on PostgreSQL, with
/// the write lock released); should that task not run, the connection is closed.
pub struct WriteTx<C: TxBackend>(Option<TxConn<C>>);

impl<C: TxBackend> WriteTx<C> {
    async fn begin(pool: &Conns<C>) -> Result<Self> {
        let mut tx = TxConn::acquire(pool).await?;
        match tx.conn().run(&C::begin_write_text()).await {
            Ok(()) => Ok(Self(Some(tx))),
            Err(e) => tx.finish(Err(e)).await,
        }
    }

    fn conn(&mut self) -> &mut C {
        self.0
            .as_mut()
            .expect("open until committed or rolled back")
            .conn()
    }

    async fn commit(mut self) -> Result<()> {
        let mut tx = self.0.take().expect("open until committed");
        let done = tx.conn().run("COMMIT").await;
        tx.finish(done).await
    }

    async fn rollback(mut self) -> Result<()> {
        self.0
            .take()
            .expect("open until rolled back")
            .roll_back()
            .await
    }
}

impl<C: TxBackend> Drop for WriteTx<C> {
    fn drop(&mut self) {
        if let Some(tx) = self.0.take()
            && let Ok(runtime) = tokio::runtime::Handle::try_current()
        {
            runtime.spawn(async move {
                if let Err(e) = tx.roll_back().await {
                    tracing::warn!(error = %e, "a transaction could not be rolled back; its connection is closed");
                }
            });
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

/// `on_pool!(pool, p => expr)`: `expr` with `p` the backend's pool (`&SqliteConns` or
/// `&PgConns`).
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
