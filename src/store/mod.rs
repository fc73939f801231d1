//! Persistence: the only place that speaks SQL.
//!
//! [`Store`] wraps a SQLite pool (WAL, busy timeout, foreign keys) or a PostgreSQL pool, with
//! the schema from `migrations/sqlite/` or `migrations/postgres/` embedded at compile time
//! (`db.rs` says how one query serves both). Everything above this module works with the
//! typed rows and small methods defined here, never with queries.

mod channel_state;
mod chats;
mod checkpoint;
mod conn_pool;
mod console;
pub mod copy;
mod db;
mod dialect;
mod events;
mod history;
mod index_later;
mod inline;
mod intake;
mod jobs;
mod leases;
mod lifecycle;
mod memories;
mod memory_terms;
mod messages;
mod reflector;
mod retention;
mod search;
mod supersede;
mod turns;
mod usage;
mod vectors;

use std::str::FromStr;
use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqliteSynchronous};

/// Which database a URL names: the store opens either.
pub use crate::base::Backend;
pub use chats::{ChatRow, SessionId};
pub use console::ChatSummary;
pub use events::EventKind;
pub use history::MemoryEvent;
pub use intake::{Arrival, Stored};
pub use jobs::JobRow;
pub use leases::{DISCORD_GATEWAY, Lease, LeaseBook, SCHEDULE, TELEGRAM_POLLING};
pub use lifecycle::LifeRow;
pub use memories::{MemoryFilter, NewMemory, PoolCounts, RankRow};
pub use memory_terms::{MAX_DEDUP_CANDIDATES, SimilarMemory};
pub use messages::{MessageRow, NewMessage, ReplyAttempt};
pub use reflector::{DueChat, ReflectionTx, ReflectorState, RunRecord, RunStats, SetAside};
pub use retention::Pruned;
pub use search::{Bm25Hit, MessageHit, SearchScope, message_search_text, search_text};
pub use usage::{InjectionLog, Tokens, TurnRecord, UsageRow, UsageSummary};
pub use vectors::{PendingEmbedding, StoredVector, VectorPage, decode_vector, encode_vector};

use db::{on_conn, on_pool};

/// For tests: a database of their own on the test PostgreSQL server.
#[doc(hidden)]
pub mod testing {
    pub use super::db::create_scratch_database;

    /// The stores a backend-independent test runs on: SQLite in memory, and a fresh
    /// PostgreSQL database when `MNEME_TEST_DATABASE_URL` names a server. Without it the
    /// PostgreSQL half is skipped, visibly (`scripts/test` lists it) — or fails under `CI`.
    #[cfg(test)]
    pub(crate) async fn backends() -> Vec<super::Store> {
        let mut stores = vec![super::Store::open("sqlite::memory:").await.unwrap()];
        match std::env::var("MNEME_TEST_DATABASE_URL") {
            Ok(url) if !url.trim().is_empty() => {
                let url = create_scratch_database(url.trim())
                    .await
                    .expect("a scratch database on MNEME_TEST_DATABASE_URL's server");
                stores.push(super::Store::open(&url).await.unwrap());
            }
            _ => {
                let test = std::thread::current()
                    .name()
                    .unwrap_or("a store test")
                    .to_string();
                if std::env::var_os("CI").is_some() {
                    panic!(
                        "{test} needs PostgreSQL: set MNEME_TEST_DATABASE_URL (scripts/test-prepare starts one)"
                    );
                }
                let line = format!(
                    "mneme::{test}: PostgreSQL half needs MNEME_TEST_DATABASE_URL (scripts/test-prepare)"
                );
                eprintln!("SKIPPED {line}");
                if let Some(log) = std::env::var_os("MNEME_SKIP_LOG")
                    && let Ok(mut f) = std::fs::OpenOptions::new()
                        .create(true)
                        .append(true)
                        .open(log)
                {
                    use std::io::Write;
                    let _ = writeln!(f, "{line}");
                }
            }
        }
        stores
    }

    /// A person's message in `chat` as a platform gives it: sent at `at` (ms), with the
    /// platform's id `platform_id`, owing no answer.
    #[cfg(test)]
    pub(crate) fn said_at<'a>(
        chat: &'a crate::base::ChatKey,
        is_group: bool,
        platform_id: Option<&'a str>,
        at: i64,
    ) -> super::Arrival<'a> {
        super::Arrival {
            chat,
            is_group,
            chat_title: None,
            sender_id: "7",
            sender_name: "Ann",
            text: "hello",
            platform_message_id: platform_id,
            platform_thread_id: None,
            created_at: Some(at),
            needs_reply: false,
        }
    }
}

pub type Result<T> = std::result::Result<T, sqlx::Error>;

/// The PostgreSQL schema (`migrations/postgres/`): applied by `Store::open`, and by
/// `mneme copy-to` to the database it fills.
static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

/// A list as JSON text, to bind where SQL reads it with `json_each`.
fn json_list<T: serde::Serialize>(items: &[T]) -> String {
    serde_json::to_string(items).unwrap_or_else(|_| "[]".into())
}

/// Rows SQLite aggregated into one JSON value (see `Store::rank_rows` for why).
fn from_json<T: serde::de::DeserializeOwned>(json: &str) -> Result<T> {
    serde_json::from_str(json).map_err(|e| sqlx::Error::Decode(Box::new(e)))
}

/// Text as every backend can keep it: PostgreSQL's text cannot hold NUL, which a chat message
/// or a model's output may carry, so it becomes U+FFFD (on SQLite too, so both store the same).
pub(crate) fn text(s: &str) -> std::borrow::Cow<'_, str> {
    if s.contains('\0') {
        std::borrow::Cow::Owned(s.replace('\0', "\u{fffd}"))
    } else {
        std::borrow::Cow::Borrowed(s)
    }
}

/// [`text`] of an optional value.
pub(crate) fn text_opt(s: Option<&str>) -> Option<std::borrow::Cow<'_, str>> {
    s.map(text)
}

/// Milliseconds since the Unix epoch, the unit of every time column.
pub fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// How long a pooled PostgreSQL connection may sit idle and still be used without checking
/// it first (see `open_postgres`).
#[cfg(not(test))]
const PG_CHECK_IDLE_AFTER: Duration = Duration::from_secs(2);
#[cfg(test)]
const PG_CHECK_IDLE_AFTER: Duration = Duration::from_millis(200);

/// How long a statement waits for a pooled connection before it fails.
const SQLITE_WAIT: Duration = Duration::from_secs(30);
const PG_WAIT: Duration = Duration::from_secs(10);

/// Handle to the database; cheap to clone.
#[derive(Clone)]
pub struct Store {
    /// Reads, and on PostgreSQL writes too.
    pool: db::Pool,
    /// Writes. On SQLite one connection of its own: the process's writers queue for it in
    /// order instead of meeting SQLite's busy handler, which sleeps (1, 2, 5, 10… ms) between
    /// tries; reads keep the other pool. On PostgreSQL the same pool as `pool`.
    writer: db::Pool,
    /// The leases this process asks for (`leases.rs`).
    leases: LeaseBook,
    /// The chats' turn locks, where several processes may answer (PostgreSQL; `turns.rs`).
    turns: Option<std::sync::Arc<turns::TurnLocks>>,
    /// SQLite: the writes every message makes, run on the async workers (`inline/`).
    inline: Option<std::sync::Arc<inline::InlineWriter>>,
    /// `sqlite::memory:`: the temporary directory of its database, removed with the last clone.
    _scratch: Option<std::sync::Arc<tempfile::TempDir>>,
}

/// Checks that `path` is a sound Mneme database: SQLite's `PRAGMA integrity_check` says ok
/// and the schema's migrations table is there. Opens it read-only.
pub async fn check_database_file(path: &std::path::Path) -> anyhow::Result<()> {
    use sqlx::Connection;
    if !path.is_file() {
        anyhow::bail!("{} does not exist", path.display());
    }
    let options = SqliteConnectOptions::new().filename(path).read_only(true);
    let mut conn = sqlx::SqliteConnection::connect_with(&options).await?;
    let check: String = sqlx::query_scalar("PRAGMA integrity_check")
        .fetch_one(&mut conn)
        .await?;
    if check != "ok" {
        anyhow::bail!("{}: integrity check failed: {check}", path.display());
    }
    let migrated: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = '_sqlx_migrations'",
    )
    .fetch_one(&mut conn)
    .await?;
    conn.close().await?;
    if migrated == 0 {
        anyhow::bail!("{} is not a Mneme database", path.display());
    }
    Ok(())
}

impl Store {
    /// Writes a consistent copy of the whole database to `path` (SQLite's `VACUUM INTO`: an
    /// online backup, safe while others write).
    /// SQLite only: a PostgreSQL database is backed up with its own tools (`pg_dump`).
    pub async fn backup_into(&self, path: &std::path::Path) -> Result<()> {
        match &self.pool {
            db::Pool::Sqlite(pool) => sqlx::query("VACUUM INTO $1")
                .bind(path.to_string_lossy().into_owned())
                .execute(pool)
                .await
                .map(|_| ()),
            db::Pool::Postgres(_) => Err(sqlx::Error::Configuration(
                "mneme backup writes SQLite files; back up PostgreSQL with pg_dump".into(),
            )),
        }
    }

    /// Which backend this store runs on.
    pub fn backend(&self) -> Backend {
        if self.pool.is_postgres() {
            Backend::Postgres
        } else {
            Backend::Sqlite
        }
    }

    /// Opens the database at `url` (`sqlite://PATH`, `sqlite::memory:`, or
    /// `postgres://USER:PASSWORD@HOST/DB`), creating a SQLite file if needed, and brings its
    /// schema up to date.
    pub async fn open(url: &str) -> Result<Self> {
        let store = match Backend::of_url(url) {
            Backend::Sqlite => Self::open_sqlite(url).await?,
            Backend::Postgres => Self::open_postgres(url).await?,
        };
        // Memories from before the term index (migration 0002) get their postings once.
        store.index_backlog().await?;
        // …and their search text (migration 0003), which feeds the full-text indexes.
        store.search_backlog().await?;
        // …and the messages noted for the full-text index and not yet in it (migration 0011).
        store.index_noted_messages().await?;
        Ok(store)
    }

    async fn open_postgres(url: &str) -> Result<Self> {
        // A pooled connection is checked (a ping) only when it sat idle: a server restart or a
        // dropped link shows there, and the pool opens a fresh one. A busy connection is not,
        // since that check is a round trip to the server per statement; one that a statement
        // finds gone is closed (`conn_pool.rs`).
        let options = sqlx::postgres::PgConnectOptions::from_str(url)?;
        let pool = db::PgConns::new(options, 8, Some(PG_CHECK_IDLE_AFTER), PG_WAIT)?;
        // sqlx's PostgreSQL migrator holds an advisory lock while it runs: replicas starting
        // together migrate one at a time.
        POSTGRES_MIGRATIONS
            .run_direct(&mut *pool.acquire().await?)
            .await?;
        let pool = db::Pool::Postgres(pool);
        Ok(Self {
            turns: turns::for_pool(&pool),
            writer: pool.clone(),
            pool,
            leases: LeaseBook::default(),
            inline: None,
            _scratch: None,
        })
    }

    async fn open_sqlite(url: &str) -> Result<Self> {
        // `sqlite::memory:`: a database of the store's own, in a temporary directory removed
        // with the store's last clone, so that it has a writer, readers and the inline writer
        // (`inline/`) like any other; SQLite's in-memory databases live in one connection.
        let scratch = if url.contains(":memory:") {
            let dir = tempfile::Builder::new()
                .prefix("mneme-memory-")
                .tempdir()
                .map_err(sqlx::Error::Io)?;
            Some(std::sync::Arc::new(dir))
        } else {
            None
        };
        let options = match &scratch {
            Some(dir) => SqliteConnectOptions::new().filename(dir.path().join("mneme.db")),
            None => SqliteConnectOptions::from_str(url)?,
        };
        let options = options
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(Duration::from_secs(10))
            .foreign_keys(true)
            // Checkpoints run in the background (`checkpoint.rs`); this is the safety net.
            .pragma(
                "wal_autocheckpoint",
                checkpoint::WRITER_CHECKPOINT_PAGES.to_string(),
            );
        let path = options.get_filename().to_owned();
        if let Some(dir) = path.parent()
            && !dir.as_os_str().is_empty()
        {
            std::fs::create_dir_all(dir).map_err(sqlx::Error::Io)?;
        }
        // Two processes opening a fresh database at once (the daemon starting, `mneme chat`
        // beside it) must not both apply the same migration: SQLite's migrations take no lock
        // of their own, so a lock file beside the database lets one migrate at a time.
        let mut lock = path.as_os_str().to_owned();
        lock.push(".migrate-lock");
        let _migrating = tokio::task::spawn_blocking(move || -> std::io::Result<std::fs::File> {
            let file = std::fs::OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(&lock)?;
            file.lock()?;
            Ok(file)
        })
        .await
        .map_err(|e| sqlx::Error::Io(std::io::Error::other(e)))?
        .map_err(sqlx::Error::Io)?;
        let pool = db::SqliteConns::new(options.clone(), 8, None, SQLITE_WAIT)?;
        sqlx::migrate!("./migrations/sqlite")
            .run_direct(&mut *pool.acquire().await?)
            .await?;
        let mut wal = path.as_os_str().to_owned();
        wal.push("-wal");
        checkpoint::spawn(pool.clone(), wal.into());
        let writer = db::SqliteConns::new(options, 1, None, SQLITE_WAIT)?;
        // Opened now, so that a database that cannot be written is refused at start.
        drop(writer.acquire().await?);
        let inline = inline::InlineWriter::open(
            &path,
            writer.clone(),
            checkpoint::WRITER_CHECKPOINT_PAGES,
            index_later::notes_left,
        )?;
        let inline = std::sync::Arc::new(inline);
        index_later::spawn(&inline);
        Ok(Self {
            pool: db::Pool::Sqlite(pool),
            writer: db::Pool::Sqlite(writer),
            leases: LeaseBook::default(),
            turns: None,
            inline: Some(inline),
            _scratch: scratch,
        })
    }

    /// Cheap liveness probe.
    pub async fn ping(&self) -> Result<()> {
        on_pool!(&self.pool, p => sqlx::query("SELECT 1").execute(p).await.map(|_| ()))
    }

    pub async fn close(&self) {
        self.writer.close().await;
        self.pool.close().await;
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use futures_util::StreamExt;

    /// The daemon and `mneme chat` started together on a fresh data dir both open it; without
    /// the lock both applied migration 1 and one failed ("table chats already exists").
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn openers_of_a_fresh_database_migrate_one_at_a_time() {
        for _ in 0..5 {
            let dir = tempfile::tempdir().unwrap();
            let url = format!("sqlite://{}", dir.path().join("mneme.db").display());
            let opens = (0..4).map(|_| {
                let url = url.clone();
                tokio::spawn(async move { Store::open(&url).await.map(|_| ()) })
            });
            for done in futures_util::future::join_all(opens).await {
                done.unwrap()
                    .expect("every opener gets a migrated database");
            }
        }
    }

    /// A fact to insert or import in store tests.
    /// A deleted memory's id is never handed out again, by a single insert or an import, on
    /// either backend: an old `/forget 2` must not delete a newer fact.
    #[tokio::test]
    async fn a_deleted_memorys_id_is_never_handed_out_again() {
        use crate::base::MemoryScope;
        for store in testing::backends().await {
            let first = store
                .insert_memory(&fact(MemoryScope::Global, "one"))
                .await
                .unwrap();
            let newest = store
                .insert_memory(&fact(MemoryScope::Global, "two"))
                .await
                .unwrap();
            assert!(store.delete_memory(newest).await.unwrap());
            let next = store
                .insert_memory(&fact(MemoryScope::Global, "three"))
                .await
                .unwrap();
            assert!(next > newest, "{next} after {newest} was deleted");
            assert!(store.delete_memory(next).await.unwrap());
            let batch = [
                fact(MemoryScope::Global, "four"),
                fact(MemoryScope::Global, "five"),
            ];
            assert_eq!(store.import_memories(&batch).await.unwrap(), 2);
            let ids: Vec<i64> = store
                .list_memories(&MemoryFilter::default())
                .await
                .unwrap()
                .iter()
                .map(|m| m.id)
                .collect();
            assert!(ids.contains(&first), "{ids:?}");
            assert!(
                ids.iter().filter(|&&id| id != first).all(|&id| id > next),
                "{ids:?}"
            );
        }
    }

    pub(crate) fn fact(scope: crate::base::MemoryScope, content: &str) -> NewMemory {
        NewMemory {
            scope,
            category: crate::base::Category::Knowledge,
            content: content.into(),
            subject: None,
            confidence: 0.7,
            source: crate::base::Source::Explicit,
            source_message_ids: vec![],
            created_at: None,
            last_seen_at: None,
            archived: false,
            key: None,
        }
    }

    async fn term_counts(store: &Store) -> (Vec<(i64, String, i64)>, Vec<(i64, String, i64)>) {
        let kept = on_pool!(&store.pool, p => sqlx::query_as("SELECT scope, term, n FROM memory_term_df ORDER BY 1, 2")
            .fetch_all(p)
            .await
            .unwrap());
        let real = on_pool!(&store.pool, p => sqlx::query_as(
            "SELECT scope, term, COUNT(*) FROM memory_terms GROUP BY 1, 2 ORDER BY 1, 2",
        )
        .fetch_all(p)
        .await
        .unwrap());
        (kept, real)
    }

    async fn exec(store: &Store, sql: &str, ids: &[i64]) {
        on_pool!(&store.pool, p => {
            let mut q = sqlx::query(sql);
            for id in ids {
                q = q.bind(*id);
            }
            q.execute(p).await.unwrap();
        });
    }

    /// An import adds the term counts once per term instead of through the per-posting
    /// trigger; the counts must come out as the postings say, and the trigger must be back.
    #[tokio::test]
    async fn an_import_keeps_the_term_counts_and_the_trigger() {
        use crate::base::MemoryScope;
        for store in testing::backends().await {
            let chat = store
                .ensure_chat(&crate::base::ChatKey::new("cli", "a"), false, None)
                .await
                .unwrap()
                .id;
            store
                .insert_memory(&fact(MemoryScope::Chat(chat), "Alice likes green tea"))
                .await
                .unwrap();
            let batch: Vec<NewMemory> = (0..1_200)
                .map(|i| {
                    let scope = if i % 3 == 0 {
                        MemoryScope::Global
                    } else {
                        MemoryScope::Chat(chat)
                    };
                    fact(
                        scope,
                        &format!("Alice likes tea number {} and 猫 {}", i % 7, i),
                    )
                })
                .collect();
            assert_eq!(store.import_memories(&batch).await.unwrap(), 1_200);
            let (kept, real) = term_counts(&store).await;
            assert!(kept.iter().any(|(_, t, n)| t == "alice" && *n > 400));
            assert_eq!(kept, real, "{:?}", store.backend());
            // The trigger is back: an ordinary insert counts its terms again.
            store
                .insert_memory(&fact(MemoryScope::Chat(chat), "Bob likes zebras"))
                .await
                .unwrap();
            let (kept, real) = term_counts(&store).await;
            assert!(kept.iter().any(|(_, t, _)| t == "zebras"));
            assert_eq!(kept, real, "{:?}", store.backend());
        }
    }

    /// The counts the triggers keep agree with counting, through every kind of write.
    #[tokio::test]
    async fn active_counts_follow_every_write() {
        use crate::base::MemoryScope;
        for store in testing::backends().await {
            let chat = |name: &'static str| {
                let store = store.clone();
                async move {
                    store
                        .ensure_chat(&crate::base::ChatKey::new("cli", name), false, None)
                        .await
                        .unwrap()
                        .id
                }
            };
            let (a, b) = (chat("a").await, chat("b").await);
            let counted = |chat_id: i64| {
                let store = store.clone();
                async move {
                    let n: i64 = on_pool!(&store.pool, p => sqlx::query_scalar(
                        "SELECT COUNT(*) FROM memories WHERE (chat_id = $1 OR chat_id IS NULL) AND NOT archived",
                    )
                    .bind(chat_id)
                    .fetch_one(p)
                    .await
                    .unwrap());
                    n
                }
            };
            let check = async || {
                for id in [a, b] {
                    assert_eq!(store.count_injectable(id).await.unwrap(), counted(id).await);
                }
            };
            let mut ids = Vec::new();
            for (i, scope) in [
                MemoryScope::Chat(a),
                MemoryScope::Chat(a),
                MemoryScope::Chat(b),
                MemoryScope::Global,
            ]
            .into_iter()
            .enumerate()
            {
                ids.push(
                    store
                        .insert_memory(&fact(scope, &format!("fact {i}")))
                        .await
                        .unwrap(),
                );
            }
            check().await;
            let batch: Vec<NewMemory> = (0..30)
                .map(|i| NewMemory {
                    archived: i % 5 == 0,
                    ..fact(MemoryScope::Chat(b), &format!("imported {i}"))
                })
                .collect();
            store.import_memories(&batch).await.unwrap();
            check().await;
            exec(
                &store,
                "UPDATE memories SET archived = TRUE WHERE id = $1",
                &[ids[0]],
            )
            .await;
            exec(
                &store,
                "UPDATE memories SET archived = FALSE WHERE id = $1",
                &[ids[0]],
            )
            .await;
            exec(
                &store,
                "UPDATE memories SET archived = TRUE WHERE id = $1",
                &[ids[1]],
            )
            .await;
            check().await;
            exec(
                &store,
                "DELETE FROM memories WHERE id IN ($1, $2)",
                &[ids[2], ids[3]],
            )
            .await;
            check().await;
            assert_eq!(store.count_injectable(a).await.unwrap(), 1);
        }
    }

    /// Opens a few connections in `pg` (all idle afterwards), then has the server end every
    /// session of the database but the one asking, and waits until they are gone.
    async fn cut_connections(pg: &db::PgConns) {
        let busy: Vec<_> = futures_util::future::join_all((0..3).map(|_| pg.acquire())).await;
        drop(busy);
        let mut own: sqlx::PgConnection = sqlx::Connection::connect_with(&*pg.connect_options())
            .await
            .unwrap();
        // `pg_terminate_backend` is false for a session that ended between the listing and
        // the call (one cut before, still exiting): what counts is that each listed is gone.
        let cut: Vec<(i32, bool)> = sqlx::query_as(
            "SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity
              WHERE datname = current_database() AND pid <> pg_backend_pid()",
        )
        .fetch_all(&mut own)
        .await
        .unwrap();
        let cut: Vec<i32> = cut.into_iter().map(|(pid, _)| pid).collect();
        assert!(cut.len() >= 3, "{cut:?}");
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        loop {
            let left: Vec<i32> =
                sqlx::query_scalar("SELECT pid FROM pg_stat_activity WHERE pid = ANY($1)")
                    .bind(&cut)
                    .fetch_all(&mut own)
                    .await
                    .unwrap();
            if left.is_empty() {
                return;
            }
            let now = tokio::time::Instant::now();
            assert!(
                now < deadline,
                "sessions {left:?} outlived pg_terminate_backend"
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    /// The server dropped the pool's connections while they sat idle (a restart, a dropped
    /// link): the next statements get fresh ones instead of failing, although a connection in
    /// use is not checked before each statement.
    #[tokio::test]
    async fn postgres_connections_dropped_while_idle_are_replaced() {
        for store in testing::backends().await {
            let db::Pool::Postgres(pg) = &store.pool else {
                continue;
            };
            cut_connections(pg).await;
            // Idle for longer than a connection is trusted unchecked.
            tokio::time::sleep(PG_CHECK_IDLE_AFTER + Duration::from_millis(50)).await;
            for _ in 0..4 {
                store.ping().await.expect("a fresh connection");
            }
            assert!(store.list_chats().await.unwrap().is_empty());
        }
    }

    /// The server ended the pool's connections while in use (no idle time to trigger a
    /// check): a statement that finds its connection gone fails, and closes it instead of
    /// giving it back, so the statements after it get fresh ones — on the pool itself and on
    /// a connection taken for several statements (`PoolConn::finish`).
    #[tokio::test]
    async fn postgres_connections_found_gone_are_replaced() {
        for store in testing::backends().await {
            let db::Pool::Postgres(pg) = &store.pool else {
                continue;
            };
            // Statements run on the pool itself, then on a connection taken for several.
            let on_pool = || async { store.ping().await.map(|_| ()) };
            let on_taken = || async {
                let scope = crate::base::MemoryScope::Global;
                store.memory_by_key(scope, "k").await.map(|_| ())
            };
            each_gone_connection_fails_once(pg, on_pool).await;
            each_gone_connection_fails_once(pg, on_taken).await;
        }
    }

    /// Cuts `pg`'s connections, then runs `statement` once more than there were: each gone
    /// connection fails it once at most, and it succeeds from then on.
    async fn each_gone_connection_fails_once<F, R>(pg: &db::PgConns, statement: F)
    where
        F: Fn() -> R,
        R: std::future::Future<Output = Result<()>>,
    {
        cut_connections(pg).await;
        let gone = pg.size();
        assert!(gone >= 3);
        let failed = futures_util::stream::iter(0..=gone)
            .filter_map(|_| async { statement().await.err() })
            .collect::<Vec<_>>()
            .await;
        assert!(failed.len() <= gone, "{failed:?}");
        for _ in 0..5 {
            statement().await.expect("a fresh connection");
        }
    }

    /// A write transaction dropped without `commit` (an error returned midway) is rolled back
    /// before its connection is used again: nothing of it is kept, and the next writer is not
    /// kept waiting (on PostgreSQL the dropped transaction held the write lock).
    #[tokio::test]
    async fn a_write_transaction_dropped_midway_is_rolled_back() {
        for store in testing::backends().await {
            let chat = store
                .ensure_chat(&crate::base::ChatKey::new("cli", "a"), false, None)
                .await
                .unwrap();
            let mut tx = store.writer.begin_write().await.unwrap();
            on_conn!(tx.conn(), c => sqlx::query("UPDATE chats SET title = 'dropped' WHERE id = $1")
                .bind(chat.id)
                .execute(c)
                .await
                .map(|_| ()))
            .unwrap();
            drop(tx);
            let next = async {
                let mut tx = store.writer.begin_write().await?;
                on_conn!(tx.conn(), c => sqlx::query("UPDATE chats SET title = 'kept' WHERE id = $1")
                    .bind(chat.id)
                    .execute(c)
                    .await
                    .map(|_| ()))?;
                tx.commit().await
            };
            tokio::time::timeout(Duration::from_secs(10), next)
                .await
                .expect("the next writer is not held up by the dropped transaction")
                .unwrap();
            let rolled = store.writer.begin_write().await.unwrap();
            rolled.rollback().await.unwrap();
            let title: Option<String> = on_pool!(&store.pool, p => sqlx::query_scalar("SELECT title FROM chats WHERE id = $1")
                .bind(chat.id)
                .fetch_one(p)
                .await)
            .unwrap();
            assert_eq!(title.as_deref(), Some("kept"));
        }
    }

    #[test]
    fn sources_merge_once_each_keeping_the_newest() {
        use memories::{MAX_SOURCE_IDS, merged_sources};
        assert_eq!(merged_sources("[3,1]", &[1, 4, 4]), [3, 1, 4]);
        assert_eq!(merged_sources("not json", &[2]), [2]);
        let many: Vec<i64> = (0..100).collect();
        let kept = merged_sources("[]", &many);
        assert_eq!(kept.len(), MAX_SOURCE_IDS);
        assert_eq!(kept.last(), Some(&99));
    }
}
