//! A memory's history (`memory_events`): triggers record created, reworded, archived,
//! superseded and restored; the functions here what only the writer knows — reinforced and
//! merged — and read it all back.

use serde::Serialize;
use sqlx::FromRow;

use super::events::{EventKind, NewEvent, record};
use super::{Result, Store, on_conn, on_pool};
use crate::base::MemoryScope;

/// One thing that happened to a memory.
#[derive(Debug, Clone, FromRow, Serialize)]
pub struct MemoryEvent {
    pub at: i64,
    /// created | reinforced | reworded | merged | merged_into | superseded | archived | restored
    pub kind: String,
    /// merged: the memory folded in; superseded: the memory that replaced this one.
    pub other_id: Option<i64>,
    /// reworded: the wording before; reinforced / merged: the wording that came in.
    pub content: Option<String>,
    pub source_message_ids: String,
    pub note: Option<String>,
}

impl MemoryEvent {
    pub fn source_message_ids(&self) -> Vec<i64> {
        serde_json::from_str(&self.source_message_ids).unwrap_or_default()
    }
}

impl Store {
    /// Memory `id`'s history, oldest first.
    pub async fn memory_history(&self, id: i64) -> Result<Vec<MemoryEvent>> {
        on_pool!(&self.pool, c => sqlx::query_as::<_, MemoryEvent>(
            "SELECT at, kind, other_id, content, source_message_ids, note FROM memory_events
             WHERE memory_id = $1 ORDER BY id",
        )
        .bind(id)
        .fetch_all(c)
        .await)
    }

    /// The memories that point at `id` as the one they were merged into (their `merged`
    /// events live on `id`), and those that superseded it: for the history's cross links.
    pub async fn superseded_by(&self, id: i64) -> Result<Option<i64>> {
        on_pool!(&self.pool, c => sqlx::query_scalar("SELECT id FROM memories WHERE supersedes_id = $1 ORDER BY id LIMIT 1")
            .bind(id)
            .fetch_optional(c)
            .await)
    }

    /// The consolidation pass's mark for `scope` (0 = global) under `rules` (the decisions'
    /// fingerprint): memories above it are new. A mark set under other rules is 0: every
    /// memory is new to these.
    pub async fn consolidated_up_to(&self, scope: MemoryScope, rules: &str) -> Result<i64> {
        Ok(on_pool!(&self.pool, c => sqlx::query_scalar(
            "SELECT last_memory_id FROM memory_consolidation_state WHERE scope = $1 AND rules = $2",
        )
        .bind(super::memory_terms::scope_key(scope))
        .bind(rules)
        .fetch_optional(c)
        .await)?
        .unwrap_or(0))
    }

    /// Moves the mark of `scope` up to `id` under `rules`; a mark set under other rules is
    /// replaced.
    pub async fn set_consolidated_up_to(
        &self,
        scope: MemoryScope,
        id: i64,
        rules: &str,
    ) -> Result<()> {
        let sql = self.pool.sql(
            "INSERT INTO memory_consolidation_state (scope, last_memory_id, rules) VALUES ($1, $2, $3)
             ON CONFLICT (scope) DO UPDATE
                SET last_memory_id = CASE WHEN memory_consolidation_state.rules = $3
                        THEN GREATEST(memory_consolidation_state.last_memory_id, $2) ELSE $2 END,
                    rules = $3",
        );
        on_pool!(&self.writer, c => sqlx::query(&sql)
        .bind(super::memory_terms::scope_key(scope))
        .bind(id)
        .bind(rules)
        .execute(c)
        .await
        .map(|_| ()))
    }

    /// Folds memory `merged` into `survivor` (both active, one scope): the survivor takes
    /// `wording`, the higher confidence, the later sighting and the merged one's sources; the
    /// merged one is archived, never deleted. Both histories say so, with `note`. False when
    /// either is not active.
    pub async fn merge_memories(
        &self,
        survivor: i64,
        merged: i64,
        wording: &str,
        note: &str,
    ) -> Result<bool> {
        let mut tx = self.writer.begin_write().await?;
        let rows: Vec<(i64, String, String, f64, i64, crate::base::Category)> = on_conn!(tx.conn(), c => sqlx::query_as(
            "SELECT id, content, source_message_ids, confidence, last_seen_at, category FROM memories
             WHERE id IN ($1, $2) AND archived = FALSE",
        )
        .bind(survivor)
        .bind(merged)
        .fetch_all(c)
        .await)?;
        if rows.len() != 2 {
            return Ok(false);
        }
        let (keep, gone) = if rows[0].0 == survivor {
            (&rows[0], &rows[1])
        } else {
            (&rows[1], &rows[0])
        };
        let now = super::now_ms();
        if wording != keep.1 {
            super::memories::rewrite(&mut tx.conn(), survivor, wording, keep.5, None).await?;
        }
        let sources: Vec<i64> = serde_json::from_str(&gone.2).unwrap_or_default();
        super::memories::add_sources(&mut tx.conn(), survivor, &sources).await?;
        let sql = self.pool.sql(
            "UPDATE memories SET confidence = GREATEST(confidence, $2), last_seen_at = GREATEST(last_seen_at, $3),
                updated_at = $4 WHERE id = $1",
        );
        on_conn!(tx.conn(), c => sqlx::query(&sql)
        .bind(survivor)
        .bind(gone.3)
        .bind(gone.4)
        .bind(now)
        .execute(c)
        .await.map(|_| ()))?;
        on_conn!(tx.conn(), c => sqlx::query(
            "UPDATE memories SET archived = TRUE, archived_at = $2, updated_at = $2 WHERE id = $1",
        )
        .bind(merged)
        .bind(now)
        .execute(c)
        .await.map(|_| ()))?;
        for (id, kind, other, content) in [
            (survivor, EventKind::Merged, merged, &gone.1),
            (merged, EventKind::MergedInto, survivor, &keep.1),
        ] {
            record(
                &mut tx.conn(),
                id,
                NewEvent {
                    kind,
                    at: now,
                    other_id: Some(other),
                    content: Some(content),
                    source_ids: &[],
                    note: Some(note),
                },
            )
            .await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Every scope holding an active memory.
    pub async fn memory_scopes(&self) -> Result<Vec<MemoryScope>> {
        let ids: Vec<Option<i64>> = on_pool!(&self.pool, c => sqlx::query_scalar("SELECT DISTINCT chat_id FROM memories WHERE archived = FALSE")
                .fetch_all(c)
                .await)?;
        Ok(ids
            .into_iter()
            .map(|id| id.map_or(MemoryScope::Global, MemoryScope::Chat))
            .collect())
    }

    /// Brings archived memory `id` back (a merge or an archive undone): active again, in the
    /// term index, searchable, queued for an embedding. False when it is not archived.
    pub async fn unarchive_memory(&self, id: i64) -> Result<bool> {
        let mut tx = self.writer.begin_write().await?;
        let row: Option<(Option<i64>, String)> = on_conn!(tx.conn(), c => sqlx::query_as(
            "UPDATE memories SET archived = FALSE, archived_at = NULL, updated_at = $2
             WHERE id = $1 AND archived = TRUE RETURNING chat_id, content",
        )
        .bind(id)
        .bind(super::now_ms())
        .fetch_optional(c)
        .await)?;
        let Some((chat_id, content)) = row else {
            return Ok(false);
        };
        let scope = chat_id.map_or(MemoryScope::Global, MemoryScope::Chat);
        super::memory_terms::index(&mut tx.conn(), id, scope, &content).await?;
        tx.commit().await?;
        Ok(true)
    }
}
