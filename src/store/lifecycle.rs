//! The lifecycle's reads and writes: chat memories as decay and caps see them, and
//! soft-archiving.

use serde::Deserialize;

use super::{Result, Store, from_json, json_list, on_pool};
use crate::base::Category;

/// A chat-scoped active memory as the lifecycle sees it.
#[derive(Debug, Clone, Deserialize)]
pub struct LifeRow {
    pub id: i64,
    pub chat_id: i64,
    pub category: Category,
    pub confidence: f64,
    pub last_seen_at: i64,
}

const LIFE_ROWS: &str = "SELECT CAST(COALESCE(json_group_array(json_array(id, chat_id, category, confidence, last_seen_at)), '[]') AS TEXT)
     FROM memories WHERE archived = FALSE AND chat_id IS NOT NULL";

impl Store {
    /// Active chat-scoped memories last seen before `cutoff`.
    pub async fn stale_memories(&self, cutoff: i64) -> Result<Vec<LifeRow>> {
        let sql = self.pool.sql(LIFE_ROWS).into_owned() + " AND last_seen_at < $1";
        let json: String = on_pool!(&self.pool, c => sqlx::query_scalar(&sql)
            .bind(cutoff)
            .fetch_one(c)
            .await)?;
        from_json(&json)
    }

    /// Chats holding more than `cap` active memories, with their counts.
    pub async fn chats_over_memory_cap(&self, cap: i64) -> Result<Vec<(i64, i64)>> {
        on_pool!(&self.pool, c => sqlx::query_as(
            "SELECT chat_id, COUNT(*) FROM memories WHERE archived = FALSE AND chat_id IS NOT NULL
             GROUP BY chat_id HAVING COUNT(*) > $1",
        )
        .bind(cap)
        .fetch_all(c)
        .await)
    }

    /// Active memories of one chat, or of every chat (`None`), as the lifecycle sees them.
    pub async fn life_rows(&self, chat_id: Option<i64>) -> Result<Vec<LifeRow>> {
        let sql = self.pool.sql(LIFE_ROWS).into_owned() + " AND ($1 IS NULL OR chat_id = $1)";
        let json: String = on_pool!(&self.pool, c => sqlx::query_scalar(&sql)
                .bind(chat_id)
                .fetch_one(c)
                .await)?;
        from_json(&json)
    }

    /// Active memories in chat scopes (global ones are not the lifecycle's to archive).
    pub async fn count_active_chat_memories(&self) -> Result<i64> {
        on_pool!(&self.pool, c => sqlx::query_scalar(
            "SELECT COUNT(*) FROM memories WHERE archived = FALSE AND chat_id IS NOT NULL",
        )
        .fetch_one(c)
        .await)
    }

    /// Soft-archives these memories (still listed with `--archived`, never injected).
    /// Returns how many were active.
    pub async fn archive_memories(&self, ids: &[i64], now: i64) -> Result<u64> {
        let sql = self.pool.sql(
            "UPDATE memories SET archived = TRUE, archived_at = $2, updated_at = $2
             WHERE archived = FALSE AND id IN (SELECT CAST(value AS BIGINT) FROM json_each($1))",
        );
        on_pool!(&self.writer, c => sqlx::query(&sql)
        .bind(json_list(ids))
        .bind(now)
        .execute(c)
        .await
        .map(|done| done.rows_affected()))
    }
}
