//! SQLite: new messages join the full-text index once the writes pause, not in the
//! transaction that stores them.
//!
//! A new message waits for the index by its id alone: past the mark of `message_fts_indexed`
//! (migration 0012; its insert runs no trigger). Indexing it — tokenizing its search text and
//! writing fts5's segment — was about a tenth of a message's instructions, all of it on the
//! one writer that every arrival, turn start and answer of a burst waits for. The inline
//! writer (`inline/`) now says when a commit left messages waiting ([`notes_left`]), and
//! [`spawn`]'s task indexes them once no such commit came for [`QUIET`] (at the latest
//! [`AT_MOST`] after the first), a chunk per transaction, so a burst is stored first and
//! indexed in the pause after it, as one segment.
//!
//! Nothing is found later for it: a search of messages indexes every waiting message first
//! (`Store::index_noted_messages`), and a store indexes what waits when it opens (left by a
//! stop or a crash).

use std::sync::{Arc, Weak};
use std::time::Duration;

use rusqlite::OptionalExtension;
use tokio::time::Instant;

use super::inline::InlineWriter;

/// How long the writes that note messages must pause before the notes are indexed.
const QUIET: Duration = Duration::from_millis(50);

/// Notes wait at most this long under a steady load without a pause.
const AT_MOST: Duration = Duration::from_secs(1);

/// Notes indexed per transaction, so that the writes queued behind one wait little.
const CHUNK: i64 = 256;

/// Whether messages wait for the index in the open transaction (the inline writer's
/// `leaves_work`): any past the mark (migration 0012).
pub(super) fn notes_left(tx: &rusqlite::Connection) -> rusqlite::Result<bool> {
    tx.prepare_cached(
        "SELECT EXISTS (SELECT 1 FROM messages WHERE id > (SELECT upto FROM message_fts_indexed))",
    )?
    .query_row([], |r| r.get(0))
}

/// Indexes every message waiting and moves the mark past them, in the open transaction:
/// fts5 writes them as one segment.
pub(super) fn index_noted(tx: &rusqlite::Connection) -> rusqlite::Result<()> {
    index_noted_before(tx, i64::MAX)
}

/// Indexes the oldest [`CHUNK`] messages waiting, in the open transaction; whether others
/// wait.
fn index_chunk(tx: &rusqlite::Connection) -> rusqlite::Result<bool> {
    let after_chunk: Option<i64> = tx
        .prepare_cached(
            "SELECT id FROM messages WHERE id > (SELECT upto FROM message_fts_indexed)
              ORDER BY id LIMIT 1 OFFSET ?1",
        )?
        .query_row([CHUNK], |r| r.get(0))
        .optional()?;
    index_noted_before(tx, after_chunk.unwrap_or(i64::MAX))?;
    Ok(after_chunk.is_some())
}

/// Indexes the messages waiting whose id is below `end` (the text each has now; one without
/// search text is passed over) and moves the mark past them.
fn index_noted_before(tx: &rusqlite::Connection, end: i64) -> rusqlite::Result<()> {
    tx.prepare_cached(
        "INSERT INTO message_fts (rowid, search_text)
         SELECT id, search_text FROM messages
          WHERE id > (SELECT upto FROM message_fts_indexed) AND id < ?1
            AND COALESCE(search_text, '') != ''",
    )?
    .execute([end])?;
    tx.prepare_cached(
        "UPDATE message_fts_indexed
            SET upto = MAX(upto, (SELECT COALESCE(MAX(id), 0) FROM messages WHERE id < ?1))",
    )?
    .execute([end])?;
    Ok(())
}

/// Starts the task that indexes what `writer`'s commits leave noted, once they pause. It ends
/// with the writer.
pub(super) fn spawn(writer: &Arc<InlineWriter>) {
    let mut work = writer.work_left();
    let writer = Arc::downgrade(writer);
    tokio::spawn(async move {
        while work.changed().await.is_ok() {
            let first = Instant::now();
            loop {
                tokio::time::sleep(QUIET).await;
                let more = work.has_changed().unwrap_or(false);
                if !more || first.elapsed() >= AT_MOST {
                    break;
                }
                work.borrow_and_update();
            }
            if !index_all(&writer).await {
                return;
            }
            // What the chunks' own commits said is done.
            work.borrow_and_update();
        }
    });
}

/// Indexes every note, a chunk per write; false once the writer is gone.
async fn index_all(writer: &Weak<InlineWriter>) -> bool {
    loop {
        let Some(writer) = writer.upgrade() else {
            return false;
        };
        match writer.write(index_chunk).await {
            Ok(true) => continue,
            Ok(false) => return true,
            // The store is closing (shutdown): what is noted is indexed at the next start.
            Err(sqlx::Error::PoolClosed) => return false,
            Err(e) => {
                // Left noted: the next pause, a search or the next start indexes them.
                tracing::warn!(error = %e, "could not add new messages to the search index");
                return true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::ChatKey;
    use crate::store::Store;
    use crate::store::testing::said_at;

    /// Notes are indexed oldest first, a chunk at a time, each message with its text; a
    /// message without search text is forgotten unindexed. All in one transaction, so that the
    /// store's own indexing task cannot take part.
    #[tokio::test]
    async fn notes_are_indexed_a_chunk_at_a_time() {
        let store = Store::open("sqlite::memory:").await.unwrap();
        let chat = ChatKey::new("telegram", "1");
        let stored = store
            .store_arrivals(&[said_at(&chat, false, None, 0)])
            .await;
        let chat_id = stored.unwrap()[0].unwrap().chat_id;
        let writer = store.inline.clone().unwrap();
        let steps = writer
            .write(move |tx| {
                index_noted(tx)?;
                let count = |sql: &str| tx.query_row(sql, [], |r| r.get::<_, i64>(0));
                let notes = || {
                    count(
                        "SELECT COUNT(*) FROM messages
                          WHERE id > (SELECT upto FROM message_fts_indexed)",
                    )
                };
                let indexed = || count("SELECT COUNT(*) FROM message_fts");
                let mut insert = tx.prepare(
                    "INSERT INTO messages (chat_id, sender_id, sender_name, is_from_bot, text,
                                           created_at, search_text)
                     VALUES (?1, '7', 'Ann', FALSE, 'x', 1, ?2)",
                )?;
                for i in 0..CHUNK + 40 {
                    let search = if i == 3 {
                        String::new()
                    } else {
                        format!("word{i}")
                    };
                    insert.execute(rusqlite::params![chat_id, search])?;
                }
                let mut steps = vec![(notes_left(tx)?, notes()?, indexed()?)];
                while index_chunk(tx)? {
                    steps.push((notes_left(tx)?, notes()?, indexed()?));
                }
                steps.push((notes_left(tx)?, notes()?, indexed()?));
                let first: i64 = tx.query_row(
                    "SELECT count(*) FROM message_fts WHERE message_fts MATCH 'word0'",
                    [],
                    |r| r.get(0),
                )?;
                Ok((steps, first))
            })
            .await
            .unwrap();
        // 1 message stored first (indexed at once here), then CHUNK + 40 waiting, one empty.
        let all = 1 + CHUNK + 40;
        assert_eq!(
            steps.0,
            [
                (true, CHUNK + 40, 1),
                (true, 40, CHUNK),
                (false, 0, all - 1),
            ]
        );
        assert_eq!(steps.1, 1);
    }
}
