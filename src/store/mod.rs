//! Persistence: the only place that speaks SQL.
//!
//! [`Store`] wraps a SQLite pool (WAL, busy timeout, foreign keys) with the schema from
//! `migrations/sqlite/` embedded at compile time. Everything above this module works with the
//! typed rows and small methods defined here, never with queries.

mod chats;
mod console;
mod history;
mod jobs;
mod lifecycle;
mod memories;
mod memory_terms;
mod messages;
mod reflector;
mod search;
mod usage;
mod vectors;

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use sqlx::SqlitePool;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};

pub use chats::{ChatRow, SessionId};
pub use console::ChatSummary;
pub use history::{EventKind, MemoryEvent};
pub use jobs::JobRow;
pub use lifecycle::LifeRow;
pub use memories::{
    Category, MemoryFilter, MemoryRow, MemoryScope, NewMemory, PoolCounts, RankRow, Source,
};
pub use memory_terms::{MAX_DEDUP_CANDIDATES, SimilarMemory};
pub use messages::{MessageRow, NewMessage};
pub use reflector::{DueChat, ReflectionTx, ReflectorState, RunRecord, RunStats, SetAside};
pub use search::{Bm25Hit, MessageHit, SearchScope, message_search_text, search_text};
pub use usage::{InjectionLog, UsageRow, UsageSummary};
pub use vectors::{PendingEmbedding, StoredVector, decode_vector, encode_vector};

pub type Result<T> = std::result::Result<T, sqlx::Error>;

/// A list as JSON text, to bind where SQL reads it with `json_each`.
fn json_list<T: serde::Serialize>(items: &[T]) -> String {
    serde_json::to_string(items).unwrap_or_else(|_| "[]".into())
}

/// Rows SQLite aggregated into one JSON value (see `Store::rank_rows` for why).
fn from_json<T: serde::de::DeserializeOwned>(json: &str) -> Result<T> {
    serde_json::from_str(json).map_err(|e| sqlx::Error::Decode(Box::new(e)))
}

/// Milliseconds since the Unix epoch, the unit of every time column.
pub fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// A chat's public name, `CHANNEL:EXTERNAL_ID` (e.g. `telegram:123`, `cli:default`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ChatKey {
    pub channel: String,
    pub external_id: String,
}

/// Channels a chat can belong to.
pub const CHANNELS: &[&str] = &["telegram", "discord", "web", "cli"];

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{}", describe_bad_chat_key(.0))]
pub struct BadChatKey(pub String);

fn describe_bad_chat_key(given: &str) -> String {
    let meant = given
        .split_once(':')
        .and_then(|(channel, id)| {
            crate::suggest::closest(channel, CHANNELS.iter().copied()).map(|c| format!("{c}:{id}"))
        })
        .map(|key| format!(" (did you mean `{key}`?)"))
        .unwrap_or_default();
    format!(
        "`{given}` is not a chat name: expected CHANNEL:ID with CHANNEL one of telegram, discord, web, cli{meant}"
    )
}

impl ChatKey {
    pub fn new(channel: impl Into<String>, external_id: impl Into<String>) -> Self {
        Self {
            channel: channel.into(),
            external_id: external_id.into(),
        }
    }
}

impl fmt::Display for ChatKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.channel, self.external_id)
    }
}

impl FromStr for ChatKey {
    type Err = BadChatKey;
    fn from_str(s: &str) -> std::result::Result<Self, Self::Err> {
        match s.split_once(':') {
            Some((channel, id)) if CHANNELS.contains(&channel) && !id.trim().is_empty() => {
                Ok(Self::new(channel, id))
            }
            _ => Err(BadChatKey(s.to_string())),
        }
    }
}

/// Handle to the database; cheap to clone.
#[derive(Clone)]
pub struct Store {
    pool: SqlitePool,
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
    pub async fn backup_into(&self, path: &std::path::Path) -> Result<()> {
        sqlx::query("VACUUM INTO ?1")
            .bind(path.to_string_lossy().into_owned())
            .execute(&self.pool)
            .await
            .map(|_| ())
    }

    /// Opens (creating if needed) the database at `url` (`sqlite://PATH` or `sqlite::memory:`)
    /// and brings its schema up to date.
    pub async fn open(url: &str) -> Result<Self> {
        let options = SqliteConnectOptions::from_str(url)?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(Duration::from_secs(10))
            .foreign_keys(true);
        if let Some(dir) = options.get_filename().parent()
            && !dir.as_os_str().is_empty()
        {
            std::fs::create_dir_all(dir).map_err(sqlx::Error::Io)?;
        }
        let in_memory = url.contains(":memory:");
        // Two processes opening a fresh database at once (the daemon starting, `mneme chat`
        // beside it) must not both apply the same migration: SQLite's migrations take no lock
        // of their own, so a lock file beside the database lets one migrate at a time.
        let _migrating = if in_memory {
            None
        } else {
            let mut name = options.get_filename().as_os_str().to_owned();
            name.push(".migrate-lock");
            Some(
                tokio::task::spawn_blocking(move || -> std::io::Result<std::fs::File> {
                    let file = std::fs::OpenOptions::new()
                        .create(true)
                        .truncate(false)
                        .write(true)
                        .open(&name)?;
                    file.lock()?;
                    Ok(file)
                })
                .await
                .map_err(|e| sqlx::Error::Io(std::io::Error::other(e)))?
                .map_err(sqlx::Error::Io)?,
            )
        };
        let pool = SqlitePoolOptions::new()
            // An in-memory database lives in one connection.
            .max_connections(if in_memory { 1 } else { 8 })
            .connect_with(options)
            .await?;
        sqlx::migrate!("./migrations/sqlite").run(&pool).await?;
        let store = Self { pool };
        // Memories from before the term index (migration 0002) get their postings once.
        store.index_backlog().await?;
        // …and their search text (migration 0003), which feeds the full-text indexes.
        store.search_backlog().await?;
        Ok(store)
    }

    /// Cheap liveness probe.
    pub async fn ping(&self) -> Result<()> {
        sqlx::query("SELECT 1")
            .execute(&self.pool)
            .await
            .map(|_| ())
    }

    pub async fn close(&self) {
        self.pool.close().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn a_mistyped_channel_is_answered_with_the_chat_meant() {
        let err = "telegramm:123".parse::<ChatKey>().unwrap_err().to_string();
        assert!(err.ends_with("(did you mean `telegram:123`?)"), "{err}");
        let err = "irc:1".parse::<ChatKey>().unwrap_err().to_string();
        assert!(!err.contains("did you mean"), "{err}");
        assert_eq!(
            "web:alice".parse::<ChatKey>().unwrap(),
            ChatKey::new("web", "alice")
        );
    }
}
