//! SQLite's connections, pooled without a word to SQLite on the way back.
//!
//! sqlx runs each SQLite connection on a thread of its own, so every statement is a hand-off
//! to that thread and back. sqlx's own pool adds one more per use: it pings every connection
//! it takes back (`PoolConnection`'s drop, unconditionally in sqlx 0.8), and on SQLite a ping
//! is a round trip to the connection's thread. So each statement run on a pool took two
//! hand-offs, and the one writer connection, which every write of the process queues for,
//! was held through both. A file's connection does not go stale the way a network one does,
//! and what a ping would flush is already in order: a transaction dropped midway queues its
//! rollback on the connection (sqlx's `start_rollback`) ahead of anything the next user
//! sends. So this pool ([`SqliteConns`], on [`deadpool`]) takes a connection back as it is.
//!
//! A connection whose state is unknown (an [`InlineTx`](super::db::InlineTx) left between
//! `BEGIN` and `COMMIT`) is not given back: [`Held::discard`] closes it, which rolls back, and
//! the pool opens another when one is next wanted.
//!
//! `&SqliteConns` is a sqlx [`Executor`], like `&SqlitePool`: a statement run on it takes a
//! connection for its length.

use std::fmt;
use std::time::Duration;

use deadpool::managed::{self, Metrics, Object, PoolError, QueueMode, RecycleResult};
use futures_util::TryStreamExt;
use futures_util::future::BoxFuture;
use futures_util::stream::BoxStream;
use sqlx::sqlite::{SqliteConnectOptions, SqliteQueryResult, SqliteRow, SqliteStatement};
use sqlx::{Connection, Describe, Either, Execute, Executor, Sqlite, SqliteConnection};

use super::Result;

/// How long a statement waits for a connection before it fails (sqlx's pool default).
const WAIT: Duration = Duration::from_secs(30);

/// Opens the pool's connections; takes them back unchecked.
pub struct Opener {
    options: SqliteConnectOptions,
}

impl managed::Manager for Opener {
    type Type = SqliteConnection;
    type Error = sqlx::Error;

    async fn create(&self) -> Result<SqliteConnection> {
        SqliteConnection::connect_with(&self.options).await
    }

    async fn recycle(&self, _: &mut SqliteConnection, _: &Metrics) -> RecycleResult<sqlx::Error> {
        Ok(())
    }
}

/// A pool of SQLite connections to one database; cheap to clone.
#[derive(Clone)]
pub struct SqliteConns {
    pool: managed::Pool<Opener>,
}

/// A connection taken from [`SqliteConns`]; back to the pool when dropped.
pub type Held = Object<Opener>;

impl fmt::Debug for SqliteConns {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let status = self.pool.status();
        f.debug_struct("SqliteConns")
            .field("size", &status.size)
            .field("available", &status.available)
            .field("max_size", &status.max_size)
            .finish()
    }
}

impl SqliteConns {
    /// At most `max` connections, opened with `options` when first wanted. The connection
    /// used last is handed out first (its statement cache is warm).
    pub fn new(options: SqliteConnectOptions, max: usize) -> Result<Self> {
        let pool = managed::Pool::builder(Opener { options })
            .max_size(max)
            .queue_mode(QueueMode::Lifo)
            .wait_timeout(Some(WAIT))
            .runtime(deadpool::Runtime::Tokio1)
            .build()
            .map_err(|e| sqlx::Error::Configuration(e.to_string().into()))?;
        Ok(Self { pool })
    }

    /// A connection, waiting (in order) while all are taken.
    pub async fn acquire(&self) -> Result<Held> {
        self.pool.get().await.map_err(|e| match e {
            PoolError::Backend(e) => e,
            PoolError::Timeout(_) => sqlx::Error::PoolTimedOut,
            PoolError::Closed => sqlx::Error::PoolClosed,
            other => sqlx::Error::Configuration(other.to_string().into()),
        })
    }

    pub fn is_closed(&self) -> bool {
        self.pool.is_closed()
    }

    /// Closes the connections not in use, each in order (SQLite checkpoints and removes its
    /// log when the last one closes), and refuses new users; one in use closes when dropped.
    pub async fn close(&self) {
        let idle = self.pool.retain(|_, _| false).removed;
        self.pool.close();
        for conn in idle {
            if let Err(e) = conn.close().await {
                tracing::debug!(error = %e, "closing a SQLite connection");
            }
        }
    }
}

/// Closes `conn` instead of giving it back: its state is not known (see the module's doc).
pub fn discard(conn: Held) {
    drop(Object::take(conn));
}

impl<'p> Executor<'p> for &'_ SqliteConns {
    type Database = Sqlite;

    fn fetch_many<'e, 'q: 'e, E>(
        self,
        query: E,
    ) -> BoxStream<'e, Result<Either<SqliteQueryResult, SqliteRow>>>
    where
        E: 'q + Execute<'q, Sqlite>,
    {
        let pool = self.clone();
        Box::pin(async_stream::try_stream! {
            let mut conn = pool.acquire().await?;
            let conn: &mut SqliteConnection = &mut conn;
            let mut rows = conn.fetch_many(query);
            while let Some(row) = rows.try_next().await? {
                yield row;
            }
        })
    }

    fn fetch_optional<'e, 'q: 'e, E>(self, query: E) -> BoxFuture<'e, Result<Option<SqliteRow>>>
    where
        E: 'q + Execute<'q, Sqlite>,
    {
        let pool = self.clone();
        Box::pin(async move { pool.acquire().await?.fetch_optional(query).await })
    }

    fn prepare_with<'e, 'q: 'e>(
        self,
        sql: &'q str,
        parameters: &'e [sqlx::sqlite::SqliteTypeInfo],
    ) -> BoxFuture<'e, Result<SqliteStatement<'q>>> {
        let pool = self.clone();
        Box::pin(async move { pool.acquire().await?.prepare_with(sql, parameters).await })
    }

    fn describe<'e, 'q: 'e>(self, sql: &'q str) -> BoxFuture<'e, Result<Describe<Sqlite>>> {
        let pool = self.clone();
        Box::pin(async move { pool.acquire().await?.describe(sql).await })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn on_file(dir: &tempfile::TempDir, max: usize) -> SqliteConns {
        let options = SqliteConnectOptions::new()
            .filename(dir.path().join("t.db"))
            .create_if_missing(true);
        SqliteConns::new(options, max).unwrap()
    }

    /// Statements run on the pool as on a connection, and a connection given back is handed
    /// out again rather than a new one opened.
    #[tokio::test]
    async fn connections_are_reused() {
        let dir = tempfile::tempdir().unwrap();
        let conns = on_file(&dir, 2);
        sqlx::query("CREATE TABLE t (x INTEGER)")
            .execute(&conns)
            .await
            .unwrap();
        for x in 0..5 {
            sqlx::query("INSERT INTO t VALUES ($1)")
                .bind(x)
                .execute(&conns)
                .await
                .unwrap();
        }
        let xs: Vec<i64> = sqlx::query_scalar("SELECT x FROM t ORDER BY x")
            .fetch_all(&conns)
            .await
            .unwrap();
        assert_eq!(xs, [0, 1, 2, 3, 4]);
        assert_eq!(
            conns.pool.status().size,
            1,
            "one connection served them all"
        );
        let one: Option<i64> = sqlx::query_scalar("SELECT 1")
            .fetch_optional(&conns)
            .await
            .unwrap();
        assert_eq!(one, Some(1));
    }

    /// A transaction dropped midway is rolled back before the connection's next user runs
    /// anything on it: the next user is not inside it, and nothing of it is kept.
    #[tokio::test]
    async fn a_transaction_dropped_midway_is_rolled_back_for_the_next_user() {
        let dir = tempfile::tempdir().unwrap();
        let conns = on_file(&dir, 1);
        sqlx::query("CREATE TABLE t (x INTEGER)")
            .execute(&conns)
            .await
            .unwrap();
        {
            let mut conn = conns.acquire().await.unwrap();
            let mut tx = sqlx::Connection::begin(&mut *conn).await.unwrap();
            sqlx::query("INSERT INTO t VALUES (1)")
                .execute(&mut *tx)
                .await
                .unwrap();
        }
        let mut conn = conns.acquire().await.unwrap();
        let mut tx = sqlx::Connection::begin(&mut *conn).await.unwrap();
        sqlx::query("INSERT INTO t VALUES (2)")
            .execute(&mut *tx)
            .await
            .unwrap();
        tx.commit().await.unwrap();
        drop(conn);
        let xs: Vec<i64> = sqlx::query_scalar("SELECT x FROM t")
            .fetch_all(&conns)
            .await
            .unwrap();
        assert_eq!(xs, [2]);
    }

    /// A discarded connection is closed, and the pool opens another for the next user.
    #[tokio::test]
    async fn a_discarded_connection_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let conns = on_file(&dir, 1);
        let mut conn = conns.acquire().await.unwrap();
        sqlx::query("CREATE TEMP TABLE mine (x INTEGER)")
            .execute(&mut *conn)
            .await
            .unwrap();
        discard(conn);
        assert_eq!(conns.pool.status().size, 0);
        // A temporary table lives with its connection: the next one does not see it.
        let seen: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM sqlite_temp_master WHERE name = 'mine'")
                .fetch_one(&conns)
                .await
                .unwrap();
        assert_eq!(seen, 0);
    }

    /// Once closed, the pool refuses new statements with sqlx's own error.
    #[tokio::test]
    async fn a_closed_pool_refuses() {
        let dir = tempfile::tempdir().unwrap();
        let conns = on_file(&dir, 2);
        sqlx::query("SELECT 1").execute(&conns).await.unwrap();
        conns.close().await;
        assert!(conns.is_closed());
        let refused = sqlx::query("SELECT 1").execute(&conns).await;
        assert!(
            matches!(refused, Err(sqlx::Error::PoolClosed)),
            "{refused:?}"
        );
    }
}
