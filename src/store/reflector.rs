//! The reflector's bookkeeping: the per-chat cursor and backoff, run records, and the one
//! transaction that stores a batch's facts together with the cursor. (The lifecycle's
//! queries are in `lifecycle.rs`.)

use std::collections::HashSet;

use sqlx::FromRow;

use super::db::{Tx, on_conn, on_pool};

use super::memories::insert_row;
use super::memory_terms::{self, SimilarMemory};
use super::supersede::supersede;
use super::vectors::write_vector;
use super::{ChatRow, NewMemory, Result, Store, from_json, json_list};
use crate::base::{Category, MemoryScope};

/// Source message ids kept per memory; a fact reinforced for years keeps its latest sources.
use super::memories::merged_sources;

/// A chat's cursor and backoff (`memory_reflector_state`); all zero before its first pass.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, FromRow)]
pub struct ReflectorState {
    /// The last `messages.id` whose batch is stored.
    pub last_message_id: i64,
    /// Failed attempts in a row.
    pub failures: i64,
    /// No scheduled pass tries the chat before this time.
    pub next_attempt_at: i64,
}

/// A chat with messages after its cursor.
#[derive(Debug, Clone, FromRow)]
pub struct DueChat {
    #[sqlx(flatten)]
    pub chat: ChatRow,
    #[sqlx(flatten)]
    pub state: ReflectorState,
}

/// What a run did to the memories, summed over its batches.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RunStats {
    pub messages_read: i64,
    pub extracted: i64,
    pub inserted: i64,
    pub updated: i64,
    pub superseded: i64,
    pub skipped: i64,
}

impl std::ops::AddAssign for RunStats {
    fn add_assign(&mut self, o: Self) {
        self.messages_read += o.messages_read;
        self.extracted += o.extracted;
        self.inserted += o.inserted;
        self.updated += o.updated;
        self.superseded += o.superseded;
        self.skipped += o.skipped;
    }
}

/// One row of `memory_reflector_runs`.
#[derive(Debug, Clone, FromRow)]
pub struct RunRecord {
    pub id: i64,
    pub chat_id: i64,
    pub started_at: i64,
    pub finished_at: Option<i64>,
    pub messages_read: i64,
    pub extracted: i64,
    pub inserted: i64,
    pub updated: i64,
    pub superseded: i64,
    pub skipped: i64,
    pub dedup_method: Option<String>,
    pub parse_ok: bool,
    pub error: Option<String>,
}

/// A reflector batch set aside after too many unreadable answers.
#[derive(Debug, Clone, FromRow, serde::Serialize)]
pub struct SetAside {
    pub chat: String,
    pub after_message_id: i64,
    pub last_message_id: i64,
    pub attempts: i64,
    pub error: String,
    pub set_aside_at: i64,
}

impl Store {
    /// Chats with messages after their cursor, backoff or not (see `next_attempt_at`).
    pub async fn chats_with_new_messages(&self) -> Result<Vec<DueChat>> {
        on_pool!(&self.pool, c => sqlx::query_as::<_, DueChat>(
            "SELECT c.*, COALESCE(s.last_message_id, 0) AS last_message_id,
                    COALESCE(s.failures, 0) AS failures, COALESCE(s.next_attempt_at, 0) AS next_attempt_at
             FROM chats c LEFT JOIN memory_reflector_state s ON s.chat_id = c.id
             WHERE EXISTS (SELECT 1 FROM messages m
                           WHERE m.chat_id = c.id AND m.id > COALESCE(s.last_message_id, 0))
             ORDER BY c.id",
        )
        .fetch_all(c)
        .await)
    }

    pub async fn reflector_state(&self, chat_id: i64) -> Result<ReflectorState> {
        let state = on_pool!(&self.pool, c => sqlx::query_as::<_, ReflectorState>(
            "SELECT last_message_id, failures, next_attempt_at FROM memory_reflector_state WHERE chat_id = $1",
        )
        .bind(chat_id)
        .fetch_optional(c)
        .await)?;
        Ok(state.unwrap_or_default())
    }

    /// Counts one more failure for the chat and sets its next attempt to `now` plus
    /// `delay_ms(failures)`; the cursor stays. Returns the new state.
    pub async fn record_reflection_failure(
        &self,
        chat_id: i64,
        now: i64,
        delay_ms: impl Fn(i64) -> i64,
    ) -> Result<ReflectorState> {
        let mut tx = self.writer.begin_write().await?;
        let failures: i64 = on_conn!(tx.conn(), c => sqlx::query_scalar(
            "INSERT INTO memory_reflector_state (chat_id, failures, updated_at) VALUES ($1, 1, $2)
             ON CONFLICT (chat_id) DO UPDATE SET failures = memory_reflector_state.failures + 1, updated_at = $2
             RETURNING failures",
        )
        .bind(chat_id)
        .bind(now)
        .fetch_one(c)
        .await)?;
        let state = on_conn!(tx.conn(), c => sqlx::query_as::<_, ReflectorState>(
            "UPDATE memory_reflector_state SET next_attempt_at = $2 WHERE chat_id = $1
             RETURNING last_message_id, failures, next_attempt_at",
        )
        .bind(chat_id)
        .bind(now.saturating_add(delay_ms(failures)))
        .fetch_one(c)
        .await)?;
        tx.commit().await?;
        Ok(state)
    }

    /// Counts one more unreadable answer for the batch at the chat's cursor; returns how many
    /// in a row there have been.
    pub async fn record_parse_failure(&self, chat_id: i64, now: i64) -> Result<i64> {
        on_pool!(&self.writer, c => sqlx::query_scalar(
            "INSERT INTO memory_reflector_state (chat_id, parse_failures, updated_at) VALUES ($1, 1, $2)
             ON CONFLICT (chat_id) DO UPDATE SET parse_failures = memory_reflector_state.parse_failures + 1, updated_at = $2
             RETURNING parse_failures",
        )
        .bind(chat_id)
        .bind(now)
        .fetch_one(c)
        .await)
    }

    /// Sets the batch after `cursor` up to `last_message_id` aside — recorded with why — and
    /// moves the cursor past it, if the cursor is still at `cursor` (else `false`: another
    /// process moved it).
    pub async fn set_aside_batch(
        &self,
        chat_id: i64,
        cursor: i64,
        last_message_id: i64,
        attempts: i64,
        error: &str,
        now: i64,
    ) -> Result<bool> {
        let mut tx = self.writer.begin_write().await?;
        let at: Option<i64> = on_conn!(tx.conn(), c => sqlx::query_scalar(
            "SELECT last_message_id FROM memory_reflector_state WHERE chat_id = $1",
        )
        .bind(chat_id)
        .fetch_optional(c)
        .await)?;
        if at.unwrap_or(0) != cursor {
            return Ok(false);
        }
        on_conn!(tx.conn(), c => sqlx::query(
            "INSERT INTO memory_reflector_set_aside
                (chat_id, after_message_id, last_message_id, attempts, error, set_aside_at)
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(chat_id)
        .bind(cursor)
        .bind(last_message_id)
        .bind(attempts)
        .bind(super::text(error))
        .bind(now)
        .execute(c)
        .await.map(|_| ()))?;
        on_conn!(tx.conn(), c => sqlx::query(
            "INSERT INTO memory_reflector_state (chat_id, last_message_id, updated_at) VALUES ($1, $2, $3)
             ON CONFLICT (chat_id) DO UPDATE
                SET last_message_id = $2, failures = 0, next_attempt_at = 0, parse_failures = 0, updated_at = $3",
        )
        .bind(chat_id)
        .bind(last_message_id)
        .bind(now)
        .execute(c)
        .await.map(|_| ()))?;
        tx.commit().await?;
        Ok(true)
    }

    /// Batches set aside, newest first: (chat, after, last message id, attempts, error, when).
    pub async fn set_aside_batches(&self, limit: i64) -> Result<Vec<SetAside>> {
        on_pool!(&self.pool, c => sqlx::query_as::<_, SetAside>(
            "SELECT c.channel || ':' || c.external_chat_id AS chat, s.after_message_id, s.last_message_id,
                    s.attempts, s.error, s.set_aside_at
             FROM memory_reflector_set_aside s JOIN chats c ON c.id = s.chat_id
             ORDER BY s.id DESC LIMIT $1",
        )
        .bind(limit)
        .fetch_all(c)
        .await)
    }

    /// Opens a run record; `finish_run` completes it. A run left unfinished was interrupted.
    pub async fn start_run(&self, chat_id: i64, started_at: i64) -> Result<i64> {
        on_pool!(&self.writer, c => sqlx::query_scalar(
            "INSERT INTO memory_reflector_runs (chat_id, started_at) VALUES ($1, $2) RETURNING id",
        )
        .bind(chat_id)
        .bind(started_at)
        .fetch_one(c)
        .await)
    }

    pub async fn finish_run(
        &self,
        run_id: i64,
        finished_at: i64,
        stats: RunStats,
        dedup_method: &str,
        parse_ok: bool,
        error: Option<&str>,
    ) -> Result<()> {
        on_pool!(&self.writer, c => sqlx::query(
            "UPDATE memory_reflector_runs SET finished_at = $2, messages_read = $3, extracted = $4,
                inserted = $5, updated = $6, superseded = $7, skipped = $8, dedup_method = $9,
                parse_ok = $10, error = $11
             WHERE id = $1",
        )
        .bind(run_id)
        .bind(finished_at)
        .bind(stats.messages_read)
        .bind(stats.extracted)
        .bind(stats.inserted)
        .bind(stats.updated)
        .bind(stats.superseded)
        .bind(stats.skipped)
        .bind(dedup_method)
        .bind(parse_ok)
        .bind(super::text_opt(error))
        .execute(c)
        .await
        .map(|_| ()))
    }

    /// Run records, newest first; one chat's only when given.
    pub async fn reflector_runs(&self, chat_id: Option<i64>, limit: u32) -> Result<Vec<RunRecord>> {
        on_pool!(&self.pool, c => sqlx::query_as::<_, RunRecord>(
            "SELECT * FROM memory_reflector_runs WHERE $1 IS NULL OR chat_id = $1
             ORDER BY id DESC LIMIT $2",
        )
        .bind(chat_id)
        .bind(i64::from(limit))
        .fetch_all(c)
        .await)
    }

    /// Begins storing a batch of `chat_id` whose cursor should be `expected_cursor`. The
    /// write lock is taken at once (`BEGIN IMMEDIATE`), so reading candidates and writing
    /// cannot race another writer. `None` when the cursor has moved: another pass (another
    /// process) stored this batch already.
    pub async fn begin_reflection(
        &self,
        chat_id: i64,
        expected_cursor: i64,
    ) -> Result<Option<ReflectionTx>> {
        let mut tx = self.writer.begin_write().await?;
        let cursor: Option<i64> = on_conn!(tx.conn(), c => sqlx::query_scalar(
            "SELECT last_message_id FROM memory_reflector_state WHERE chat_id = $1",
        )
        .bind(chat_id)
        .fetch_optional(c)
        .await)?;
        if cursor.unwrap_or(0) != expected_cursor {
            tx.rollback().await?;
            return Ok(None);
        }
        Ok(Some(ReflectionTx { tx, chat_id }))
    }
}

/// The write transaction of one batch: facts in, cursor forward, all or nothing. Dropping it
/// without `commit` (an error, a crash, an aborted task) rolls everything back.
pub struct ReflectionTx {
    tx: Tx,
    chat_id: i64,
}

impl ReflectionTx {
    fn scope(&self) -> MemoryScope {
        MemoryScope::Chat(self.chat_id)
    }

    /// This chat's active memories that could be near-duplicates of a fact (see
    /// `Store::dedup_candidates`); sees the rows this batch inserted already.
    pub async fn dedup_candidates(
        &mut self,
        fact_terms: &HashSet<String>,
        threshold: f64,
    ) -> Result<Vec<SimilarMemory>> {
        let scope = self.scope();
        memory_terms::dedup_candidates(&mut self.tx.conn(), scope, fact_terms, threshold).await
    }

    /// This chat's `limit` active memories seen last, newest first (see
    /// `Store::recent_memories`); sees the rows this batch inserted already.
    pub async fn recent_memories(&mut self, limit: usize) -> Result<Vec<SimilarMemory>> {
        let scope = self.scope();
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        memory_terms::recent(&mut self.tx.conn(), scope, limit).await
    }

    /// Memory `id` if it is active and belongs to this chat; anything else (another chat,
    /// global, archived, unknown) is `None`.
    pub async fn active_chat_memory(&mut self, id: i64) -> Result<Option<SimilarMemory>> {
        let sql = self.tx.conn().sql(
            "SELECT CAST(json_array(id, category, content, subject, confidence, last_seen_at, 0) AS TEXT)
             FROM memories WHERE id = $1 AND chat_id = $2 AND archived = FALSE",
        );
        let json: Option<String> = on_conn!(self.tx.conn(), c => sqlx::query_scalar(&sql)
        .bind(id)
        .bind(self.chat_id)
        .fetch_optional(c)
        .await)?;
        json.map(|j| from_json(&j)).transpose()
    }

    /// Inserts a new memory of this chat (the scope in `m` is ignored).
    pub async fn insert(&mut self, m: &NewMemory, now: i64) -> Result<i64> {
        let m = NewMemory {
            scope: self.scope(),
            ..m.clone()
        };
        insert_row(&mut self.tx.conn(), &m, now)
            .await?
            .ok_or(sqlx::Error::RowNotFound)
    }

    /// Stores the embedding of memory `id` (inserted by this batch) from `model`.
    pub async fn store_vector(&mut self, id: i64, model: &str, vector: &[f32]) -> Result<()> {
        let scope = self.scope();
        write_vector(&mut self.tx.conn(), id, scope, model, vector).await
    }

    /// A fact seen again: new confidence, seen now, its sources added, its subject filled
    /// in if it had none.
    #[allow(clippy::too_many_arguments)]
    pub async fn reinforce(
        &mut self,
        id: i64,
        confidence: f64,
        source_ids: &[i64],
        subject: Option<&str>,
        incoming: &str,
        note: &str,
        now: i64,
    ) -> Result<()> {
        let old: String = on_conn!(self.tx.conn(), c => sqlx::query_scalar(
            "SELECT source_message_ids FROM memories WHERE id = $1 AND chat_id = $2",
        )
        .bind(id)
        .bind(self.chat_id)
        .fetch_one(c)
        .await)?;
        let ids = merged_sources(&old, source_ids);
        on_conn!(self.tx.conn(), c => sqlx::query(
            "UPDATE memories SET confidence = $3, last_seen_at = $4, updated_at = $4,
                source_message_ids = $5, subject = COALESCE(subject, $6)
             WHERE id = $1 AND chat_id = $2",
        )
        .bind(id)
        .bind(self.chat_id)
        .bind(confidence.clamp(0.0, 1.0))
        .bind(now)
        .bind(json_list(&ids))
        .bind(super::text_opt(subject))
        .execute(c)
        .await.map(|_| ()))?;
        super::events::record(
            &mut self.tx.conn(),
            id,
            super::events::NewEvent {
                kind: super::events::EventKind::Reinforced,
                at: now,
                other_id: None,
                content: Some(incoming),
                source_ids,
                note: Some(note),
            },
        )
        .await
    }

    /// Memory `id` takes the more specific `wording` of the same fact (the reflector's merge).
    pub async fn reword(&mut self, id: i64, wording: &str) -> Result<()> {
        let category: Category = on_conn!(self.tx.conn(), c => sqlx::query_scalar("SELECT category FROM memories WHERE id = $1 AND chat_id = $2")
                .bind(id)
                .bind(self.chat_id)
                .fetch_one(c)
                .await)?;
        super::memories::rewrite(&mut self.tx.conn(), id, wording, category, None)
            .await
            .map(|_| ())
    }

    /// Archives memory `old_id` (history, never deleted) as replaced by memory `by_id`, which
    /// links back to it through `supersedes_id` unless it already links elsewhere; its history
    /// says by which and `why`. False when `old_id` is not an active memory of this chat.
    pub async fn archive_superseded(
        &mut self,
        old_id: i64,
        by_id: i64,
        why: &str,
        now: i64,
    ) -> Result<bool> {
        let scope = self.scope();
        let replaced = [(old_id, why.to_string())];
        Ok(supersede(&mut self.tx.conn(), by_id, scope, &replaced, now).await? == 1)
    }

    /// The newest message memory `id` of this chat was said in (its sources: where it was
    /// stored from, and each message that said it again); `None` when it has none (added by
    /// hand or imported) or is not this chat's.
    pub async fn newest_source(&mut self, id: i64) -> Result<Option<i64>> {
        let sources: Option<String> = on_conn!(self.tx.conn(), c => sqlx::query_scalar(
            "SELECT source_message_ids FROM memories WHERE id = $1 AND chat_id = $2",
        )
        .bind(id)
        .bind(self.chat_id)
        .fetch_optional(c)
        .await)?;
        Ok(sources
            .and_then(|s| serde_json::from_str::<Vec<i64>>(&s).ok())
            .and_then(|ids| ids.into_iter().max()))
    }

    /// Moves the cursor to `last_message_id`, clears the backoff and commits the batch.
    pub async fn commit(mut self, last_message_id: i64, now: i64) -> Result<()> {
        on_conn!(self.tx.conn(), c => sqlx::query(
            "INSERT INTO memory_reflector_state (chat_id, last_message_id, failures, next_attempt_at, parse_failures, updated_at)
             VALUES ($1, $2, 0, 0, 0, $3)
             ON CONFLICT (chat_id) DO UPDATE
                SET last_message_id = $2, failures = 0, next_attempt_at = 0, parse_failures = 0, updated_at = $3",
        )
        .bind(self.chat_id)
        .bind(last_message_id)
        .bind(now)
        .execute(c)
        .await.map(|_| ()))?;
        self.tx.commit().await
    }
}
