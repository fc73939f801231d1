//! A memory replaced by a newer one that says the opposite ("I am not vegetarian" after
//! "I am vegetarian") or gives a newer value ("I live in Osaka" after "… Tokyo"): archived, never deleted, with the replacing memory in its history and
//! linked back from it (`supersedes_id`).

use super::db::{Conn, on_conn};
use super::events::{EventKind, NewEvent, record};
use super::memories::{NewMemory, insert_row};
use super::{Result, Store, memory_terms, now_ms};
use crate::base::MemoryScope;

impl Store {
    /// Inserts `m` and archives each memory of `replaced` (id, why) that is an active one of
    /// its scope, as superseded by it ([`Store::supersede_memories`]), in one transaction.
    pub async fn insert_memory_replacing(
        &self,
        m: &NewMemory,
        replaced: &[(i64, String)],
    ) -> Result<i64> {
        let now = now_ms();
        let mut tx = self.writer.begin_write().await?;
        let id = insert_row(&mut tx.conn(), m, now)
            .await?
            .ok_or(sqlx::Error::RowNotFound)?;
        supersede(&mut tx.conn(), id, m.scope, replaced, now).await?;
        tx.commit().await?;
        Ok(id)
    }

    /// Archives each memory of `replaced` (id, why) that is an active one of `scope`, as
    /// superseded by memory `by`: its history says by which and why, and `by` links back to
    /// the first (`supersedes_id`) unless it links elsewhere already.
    pub async fn supersede_memories(
        &self,
        by: i64,
        scope: MemoryScope,
        replaced: &[(i64, String)],
    ) -> Result<usize> {
        let mut tx = self.writer.begin_write().await?;
        let archived = supersede(&mut tx.conn(), by, scope, replaced, now_ms()).await?;
        tx.commit().await?;
        Ok(archived)
    }
}

/// See [`Store::supersede_memories`]; for callers holding a write transaction (the
/// reflector's batch too). How many memories it archived.
pub(super) async fn supersede(
    conn: &mut Conn<'_>,
    by: i64,
    scope: MemoryScope,
    replaced: &[(i64, String)],
    now: i64,
) -> Result<usize> {
    let mut archived_count = 0;
    for (old, why) in replaced.iter().filter(|(old, _)| *old != by) {
        let archived = on_conn!(conn.re(), c => sqlx::query(
            "UPDATE memories SET archived = TRUE, archived_at = $2, updated_at = $2
             WHERE id = $1 AND COALESCE(chat_id, 0) = $3 AND archived = FALSE",
        )
        .bind(old)
        .bind(now)
        .bind(memory_terms::scope_key(scope))
        .execute(c)
        .await
        .map(|r| r.rows_affected()))?;
        if archived != 1 {
            continue;
        }
        archived_count += 1;
        // the trigger records the old memory's `superseded` when `by` links back to it
        let linked = on_conn!(conn.re(), c => sqlx::query(
            "UPDATE memories SET supersedes_id = $2, updated_at = $3
             WHERE id = $1 AND supersedes_id IS NULL",
        )
        .bind(by)
        .bind(old)
        .bind(now)
        .execute(c)
        .await
        .map(|r| r.rows_affected()))?;
        if linked == 1 {
            on_conn!(conn.re(), c => sqlx::query(
                "UPDATE memory_events SET note = $3
                 WHERE memory_id = $1 AND kind = 'superseded' AND other_id = $2",
            )
            .bind(old)
            .bind(by)
            .bind(why)
            .execute(c)
            .await
            .map(|_| ()))?;
        } else {
            record(
                conn,
                *old,
                NewEvent {
                    kind: EventKind::Superseded,
                    at: now,
                    other_id: Some(by),
                    content: None,
                    source_ids: &[],
                    note: Some(why),
                },
            )
            .await?;
        }
    }
    Ok(archived_count)
}
