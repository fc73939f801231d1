//! The store's connection pools (both backends), without a word to the database on the way
//! back.
//!
//! sqlx's own pool pings every connection it takes back (`PoolConnection`'s drop,
//! unconditionally in sqlx 0.8). On SQLite, where sqlx runs each connection on a thread of its
//! own, a ping is one more hand-off to that thread and back; on PostgreSQL one more round trip
//! to the server. So every statement run on a pool cost two, and the connection stayed taken
//! through both (on SQLite the one writer, which every write of the process queues for).
//! This pool ([`Conns`], on [`deadpool`]) takes a connection back as it is, and instead:
//! - a statement run on the pool itself ([`Executor`] for `&Conns`) whose error shows the
//!   connection gone (I/O, TLS, protocol, the server ending the session: [`is_gone`]) closes
//!   the connection instead of giving it back;
//! - a write transaction dropped midway is rolled back before its connection goes back
//!   ([`WriteTx`](super::db::WriteTx)), since PostgreSQL would otherwise keep its locks while
//!   the connection sits in the pool; a connection whose state is unknown is closed
//!   ([`discard`]);
//! - on PostgreSQL a connection that sat idle (a server restart or a dropped link shows
//!   there) is pinged before it is handed out again, and replaced when the ping fails.
//!
//! The pool opens connections when first wanted, up to its size, and hands out the one used
//! last first (its statement cache is warm). Waiting for a connection is in order, and fails
//! after the pool's `wait`.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use deadpool::managed::{self, Metrics, Object, PoolError, QueueMode, RecycleError, RecycleResult};
use futures_util::TryStreamExt;
use futures_util::future::BoxFuture;
use futures_util::stream::BoxStream;
use sqlx::{Connection, Describe, Either, Execute, Executor};

use super::Result;

/// Opens the pool's connections; takes them back unchecked.
pub struct Opener<C: Connection> {
    options: Arc<<C as Connection>::Options>,
    /// Pinged before being handed out after sitting idle this long; `None`: never (a file's
    /// connection does not go stale the way a network one does).
    check_idle_after: Option<Duration>,
}

impl<C: Connection> managed::Manager for Opener<C> {
    type Type = C;
    type Error = sqlx::Error;

    async fn create(&self) -> Result<C> {
        C::connect_with(&self.options).await
    }

    async fn recycle(&self, conn: &mut C, metrics: &Metrics) -> RecycleResult<sqlx::Error> {
        match self.check_idle_after {
            Some(after) if metrics.last_used() >= after => conn.ping().await.map_err(|e| {
                tracing::info!(error = %e, "an idle database connection is gone; opening another");
                RecycleError::Backend(e)
            }),
            _ => Ok(()),
        }
    }
}

/// A pool of connections to one database; cheap to clone.
pub struct Conns<C: Connection> {
    pool: managed::Pool<Opener<C>>,
}

impl<C: Connection> Clone for Conns<C> {
    fn clone(&self) -> Self {
        Self {
            pool: self.pool.clone(),
        }
    }
}

/// A connection taken from [`Conns`]; back to the pool when dropped.
pub type Held<C> = Object<Opener<C>>;

impl<C: Connection> fmt::Debug for Conns<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let status = self.pool.status();
        f.debug_struct("Conns")
            .field("size", &status.size)
            .field("available", &status.available)
            .field("max_size", &status.max_size)
            .finish()
    }
}

impl<C: Connection> Conns<C> {
    /// At most `max` connections, opened with `options` when first wanted; see
    /// [`Opener::check_idle_after`]. A statement waits at most `wait` for a connection (and
    /// for a new one to open).
    pub fn new(
        options: <C as Connection>::Options,
        max: usize,
        check_idle_after: Option<Duration>,
        wait: Duration,
    ) -> Result<Self> {
        let opener = Opener {
            options: Arc::new(options),
            check_idle_after,
        };
        let pool = managed::Pool::builder(opener)
            .max_size(max)
            .queue_mode(QueueMode::Lifo)
            .wait_timeout(Some(wait))
            .create_timeout(Some(wait))
            .runtime(deadpool::Runtime::Tokio1)
            .build()
            .map_err(|e| sqlx::Error::Configuration(e.to_string().into()))?;
        Ok(Self { pool })
    }

    /// A connection, waiting (in order) while all are taken.
    pub async fn acquire(&self) -> Result<Held<C>> {
        self.pool.get().await.map_err(|e| match e {
            PoolError::Backend(e) => e,
            PoolError::Timeout(_) => sqlx::Error::PoolTimedOut,
            PoolError::Closed => sqlx::Error::PoolClosed,
            other => sqlx::Error::Configuration(other.to_string().into()),
        })
    }

    /// The options the pool opens its connections with.
    pub fn connect_options(&self) -> Arc<<C as Connection>::Options> {
        self.pool.manager().options.clone()
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
                tracing::debug!(error = %e, "closing a database connection");
            }
        }
    }

    #[cfg(test)]
    pub(crate) fn size(&self) -> usize {
        self.pool.status().size
    }
}

/// Closes `conn` instead of giving it back: its state is not known.
pub fn discard<C: Connection>(conn: Held<C>) {
    drop(Object::take(conn));
}

/// Whether `e` shows the connection it came on gone: it failed below SQL (I/O, TLS, the
/// protocol, SQLite's connection thread), or the server ended the session (SQLSTATE classes
/// 08, connection exception, and 57P, the server shutting down or ending the backend).
pub fn is_gone(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::Protocol(_)
        | sqlx::Error::WorkerCrashed => true,
        sqlx::Error::Database(db) => db
            .code()
            .is_some_and(|code| code.starts_with("08") || code.starts_with("57P")),
        _ => false,
    }
}

/// `&Conns` of a backend as a sqlx [`Executor`], like `&Pool`: a statement takes a connection
/// for its length, and closes it if its error shows it gone ([`is_gone`]).
macro_rules! executor {
    ($db:ty, $conn:ty) => {
        impl<'p> Executor<'p> for &'_ Conns<$conn> {
            type Database = $db;

            fn fetch_many<'e, 'q: 'e, E>(
                self,
                query: E,
            ) -> BoxStream<
                'e,
                Result<Either<<$db as sqlx::Database>::QueryResult, <$db as sqlx::Database>::Row>>,
            >
            where
                E: 'q + Execute<'q, $db>,
            {
                let pool = self.clone();
                Box::pin(async_stream::try_stream! {
                    let mut conn = pool.acquire().await?;
                    let failed = {
                        let mut rows = (&mut *conn).fetch_many(query);
                        loop {
                            match rows.try_next().await {
                                Ok(Some(row)) => yield row,
                                Ok(None) => break None,
                                Err(e) => break Some(e),
                            }
                        }
                    };
                    if let Some(e) = failed {
                        if is_gone(&e) {
                            discard(conn);
                        }
                        Err(e)?;
                    }
                })
            }

            fn fetch_optional<'e, 'q: 'e, E>(
                self,
                query: E,
            ) -> BoxFuture<'e, Result<Option<<$db as sqlx::Database>::Row>>>
            where
                E: 'q + Execute<'q, $db>,
            {
                let pool = self.clone();
                Box::pin(async move {
                    let mut conn = pool.acquire().await?;
                    let row = (&mut *conn).fetch_optional(query).await;
                    if let Err(e) = &row
                        && is_gone(e)
                    {
                        discard(conn);
                    }
                    row
                })
            }

            fn prepare_with<'e, 'q: 'e>(
                self,
                sql: &'q str,
                parameters: &'e [<$db as sqlx::Database>::TypeInfo],
            ) -> BoxFuture<'e, Result<<$db as sqlx::Database>::Statement<'q>>> {
                let pool = self.clone();
                Box::pin(async move { pool.acquire().await?.prepare_with(sql, parameters).await })
            }

            fn describe<'e, 'q: 'e>(self, sql: &'q str) -> BoxFuture<'e, Result<Describe<$db>>> {
                let pool = self.clone();
                Box::pin(async move { pool.acquire().await?.describe(sql).await })
            }
        }
    };
}

executor!(sqlx::Sqlite, sqlx::SqliteConnection);
executor!(sqlx::Postgres, sqlx::PgConnection);

#[cfg(test)]
mod tests {
    use super::*;
    use sqlx::SqliteConnection;
    use sqlx::sqlite::SqliteConnectOptions;

    fn on_file(dir: &tempfile::TempDir, max: usize) -> Conns<SqliteConnection> {
        let options = SqliteConnectOptions::new()
            .filename(dir.path().join("t.db"))
            .create_if_missing(true);
        Conns::new(options, max, None, Duration::from_secs(5)).unwrap()
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
        assert_eq!(conns.size(), 1, "one connection served them all");
        let one: Option<i64> = sqlx::query_scalar("SELECT 1")
            .fetch_optional(&conns)
            .await
            .unwrap();
        assert_eq!(one, Some(1));
    }

    /// A statement that fails in SQL leaves its connection in the pool; a discarded
    /// connection is closed, and the pool opens another for the next user.
    #[tokio::test]
    async fn only_a_gone_or_discarded_connection_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let conns = on_file(&dir, 1);
        let mut conn = conns.acquire().await.unwrap();
        sqlx::query("CREATE TEMP TABLE mine (x INTEGER)")
            .execute(&mut *conn)
            .await
            .unwrap();
        drop(conn);
        let Err(wrong) = sqlx::query("SELECT * FROM no_such_table")
            .fetch_optional(&conns)
            .await
        else {
            panic!("no such table")
        };
        assert!(!is_gone(&wrong), "{wrong}");
        let mine = "SELECT COUNT(*) FROM sqlite_temp_master WHERE name = 'mine'";
        let seen: i64 = sqlx::query_scalar(mine).fetch_one(&conns).await.unwrap();
        assert_eq!(seen, 1, "the same connection, kept after an error in SQL");
        discard(conns.acquire().await.unwrap());
        assert_eq!(conns.size(), 0);
        // A temporary table lives with its connection: the next one does not see it.
        let seen: i64 = sqlx::query_scalar(mine).fetch_one(&conns).await.unwrap();
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
