//! SQLite's checkpoints, off the writer's path.
//!
//! In WAL mode a commit appends pages to `<db>-wal`; a checkpoint copies them back into the
//! database file and syncs both to disk. SQLite runs one on its own when a commit leaves the
//! log past `wal_autocheckpoint` pages (1,000 by default), in the committing connection: on
//! the one writer every write of the process queues for, so each checkpoint's two `fsync`s
//! (a few ms on a virtual disk, far more on an SD card) held up every message behind it.
//! Under load that was about one checkpoint per 30 messages.
//!
//! Here a task of the store checkpoints from a reader connection instead, once a second when
//! the log changed (`PASSIVE`: it copies what no reader still needs and waits for nobody), so
//! the writer only appends. The writer still checkpoints for itself past
//! [`WRITER_CHECKPOINT_PAGES`]: should this task fall behind or not run (a command-line
//! process), the log stays bounded.

use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use super::db::SqliteConns;

/// Pages the log may reach before a committing connection checkpoints by itself (about 40 MB
/// with SQLite's 4 kB pages): the safety net behind the background checkpoints.
pub const WRITER_CHECKPOINT_PAGES: u32 = 10_000;

/// How often the log is looked at.
#[cfg(not(test))]
const EVERY: Duration = Duration::from_secs(1);
#[cfg(test)]
const EVERY: Duration = Duration::from_millis(20);

/// Checkpoints the database whose log is `wal` through `pool` until the pool is closed: a
/// look at the log's modification time each [`EVERY`], a checkpoint when it changed since the
/// last one.
pub fn spawn(pool: SqliteConns, wal: PathBuf) {
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(EVERY);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut checkpointed: Option<SystemTime> = None;
        loop {
            ticks.tick().await;
            if pool.is_closed() {
                return;
            }
            // No log (nothing written since the last connection closed) means nothing to copy.
            let Ok(modified) = std::fs::metadata(&wal).and_then(|m| m.modified()) else {
                continue;
            };
            if checkpointed == Some(modified) {
                continue;
            }
            match sqlx::query_as::<_, (i64, i64, i64)>("PRAGMA wal_checkpoint(PASSIVE)")
                .fetch_one(&pool)
                .await
            {
                Ok(_) => checkpointed = Some(modified),
                Err(_) if pool.is_closed() => return,
                Err(e) => tracing::warn!(error = %e, "SQLite checkpoint failed; trying again"),
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use crate::base::ChatKey;
    use crate::store::{NewMessage, Store};

    /// Written pages reach the database file without the writer checkpointing: the log is
    /// copied back in the background, well before SQLite's own threshold would have.
    #[tokio::test]
    async fn the_log_is_copied_into_the_database_in_the_background() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mneme.db");
        let store = Store::open(&format!("sqlite://{}", path.display()))
            .await
            .unwrap();
        let chat = store
            .ensure_chat(&ChatKey::new("cli", "a"), false, None)
            .await
            .unwrap();
        let session = store.current_session(chat.id).await.unwrap();
        // About 100 pages of text: a tenth of SQLite's own checkpoint threshold.
        let text = "the garden needs water on thursdays ".repeat(110);
        for _ in 0..100 {
            let m = NewMessage::from_bot(chat.id, session, &text);
            store.insert_message(&m).await.unwrap().unwrap();
        }
        let size = || std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while size() < 100 * text.len() as u64 {
            assert!(
                std::time::Instant::now() < deadline,
                "the database file holds {} bytes 10 s after the writes: the log was not checkpointed",
                size()
            );
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        store.close().await;
    }
}
