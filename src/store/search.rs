//! Full-text search (FTS5, BM25) over active memories and searchable messages.
//!
//! The indexes hold `search_text` (see migration 0003): the row's terms as
//! `memory::text::terms` makes them, so Chinese and Japanese are bigrams the FTS tokenizer can
//! match. Triggers keep the indexes equal to the tables; the store only writes `search_text`
//! beside the text it describes.

use serde::Deserialize;

use super::{Result, Store, from_json, json_list};
use crate::base::{MemoryRow, MemoryScope};
use crate::memory::text;

/// Rows filled in per transaction when computing `search_text` for old rows.
const BACKLOG_CHUNK: i64 = 500;

/// A memory found by BM25. `bm25` is FTS5's score: lower (more negative) is better.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
pub struct Bm25Hit {
    pub id: i64,
    pub bm25: f64,
}

/// A message found by BM25, with what a citation needs.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct MessageHit {
    pub id: i64,
    pub bm25: f64,
    pub sender_name: String,
    pub is_from_bot: bool,
    pub text: String,
    pub created_at: i64,
}

/// Which memories a search may find.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SearchScope {
    /// What a chat's prompt may draw on: the chat's own memories and the global ones.
    Chat(i64),
    /// Global memories only.
    Global,
    /// Every memory of every chat (the owner's view: `mneme memory search` without `--chat`).
    All,
}

impl SearchScope {
    /// The search matching a listing filter: a chat's view for a chat, global for global,
    /// everything for no filter.
    pub fn from_filter(scope: Option<MemoryScope>) -> Self {
        match scope {
            None => Self::All,
            Some(MemoryScope::Global) => Self::Global,
            Some(MemoryScope::Chat(id)) => Self::Chat(id),
        }
    }

    /// The `memory_terms` / `memory_vectors` scope keys this search reads (0 = global);
    /// `None` for every scope.
    pub fn scope_keys(self) -> Option<Vec<i64>> {
        match self {
            Self::Chat(id) => Some(vec![id, 0]),
            Self::Global => Some(vec![0]),
            Self::All => None,
        }
    }
}

/// `search_text` of a memory or a person's message.
pub fn search_text(content: &str) -> String {
    text::terms(content).join(" ")
}

/// `search_text` of a stored message: chat commands and the bot's acknowledgements are not
/// worth finding, so they get none.
pub fn message_search_text(text: &str, searchable: bool) -> String {
    if !searchable || text.trim_start().starts_with('/') {
        String::new()
    } else {
        search_text(text)
    }
}

impl Store {
    /// Up to `limit` active memories in `scope` matching the FTS5 expression `fts_query`,
    /// best BM25 first.
    pub async fn bm25_memories(
        &self,
        scope: SearchScope,
        fts_query: &str,
        limit: usize,
    ) -> Result<Vec<Bm25Hit>> {
        let keys = scope.scope_keys();
        let json: String = sqlx::query_scalar(
            "SELECT COALESCE(json_group_array(json_array(id, s)), '[]') FROM (
                SELECT f.rowid AS id, bm25(memory_fts) AS s
                FROM memory_fts f JOIN memories m ON m.id = f.rowid
                WHERE memory_fts MATCH ?1 AND m.archived = 0
                  AND (?2 IS NULL OR COALESCE(m.chat_id, 0) IN (SELECT value FROM json_each(?2)))
                ORDER BY s LIMIT ?3)",
        )
        .bind(fts_query)
        .bind(keys.as_deref().map(json_list))
        .bind(i64::try_from(limit).unwrap_or(i64::MAX))
        .fetch_one(&self.pool)
        .await?;
        let rows: Vec<(i64, f64)> = from_json(&json)?;
        Ok(rows
            .into_iter()
            .map(|(id, bm25)| Bm25Hit { id, bm25 })
            .collect())
    }

    /// Up to `limit` searchable messages of one chat matching `fts_query`, best first.
    pub async fn bm25_messages(
        &self,
        chat_id: i64,
        fts_query: &str,
        limit: usize,
    ) -> Result<Vec<MessageHit>> {
        let json: String = sqlx::query_scalar(
            "SELECT COALESCE(json_group_array(json_object('id', id, 'bm25', s, 'sender_name', sender_name,
                        'is_from_bot', json(CASE WHEN is_from_bot THEN 'true' ELSE 'false' END),
                        'text', text, 'created_at', created_at)), '[]') FROM (
                SELECT m.id, bm25(message_fts) AS s, m.sender_name, m.is_from_bot, m.text, m.created_at
                FROM message_fts f JOIN messages m ON m.id = f.rowid
                WHERE message_fts MATCH ?1 AND m.chat_id = ?2
                ORDER BY s LIMIT ?3)",
        )
        .bind(fts_query)
        .bind(chat_id)
        .bind(i64::try_from(limit).unwrap_or(i64::MAX))
        .fetch_one(&self.pool)
        .await?;
        from_json(&json)
    }

    /// Active memories with these ids that `scope` may see, in no particular order.
    pub async fn memories_in_scope(
        &self,
        ids: &[i64],
        scope: SearchScope,
    ) -> Result<Vec<MemoryRow>> {
        let keys = scope.scope_keys();
        sqlx::query_as::<_, MemoryRow>(
            "SELECT m.*, c.channel, c.external_chat_id FROM memories m LEFT JOIN chats c ON c.id = m.chat_id
             WHERE m.id IN (SELECT value FROM json_each(?1)) AND m.archived = 0
               AND (?2 IS NULL OR COALESCE(m.chat_id, 0) IN (SELECT value FROM json_each(?2)))",
        )
        .bind(json_list(ids))
        .bind(keys.as_deref().map(json_list))
        .fetch_all(&self.pool)
        .await
    }

    /// Active memories of `scope` seen most recently, PROFILE first: what a prompt carries
    /// beside the search hits (who the person is, what came up lately). Read by index.
    pub async fn background_memories(&self, chat_id: i64, limit: usize) -> Result<Vec<MemoryRow>> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        sqlx::query_as::<_, MemoryRow>(
            "SELECT m.*, c.channel, c.external_chat_id FROM (
                SELECT * FROM (SELECT * FROM memories WHERE chat_id = ?1 AND archived = 0
                               ORDER BY last_seen_at DESC LIMIT ?2)
                UNION
                SELECT * FROM (SELECT * FROM memories WHERE chat_id IS NULL AND archived = 0
                               ORDER BY last_seen_at DESC LIMIT ?2)
             ) m LEFT JOIN chats c ON c.id = m.chat_id
             ORDER BY m.category = 'PROFILE' DESC, m.last_seen_at DESC, m.id DESC LIMIT ?2",
        )
        .bind(chat_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await
    }

    /// How many active memories a chat's prompt could draw on (its own and the global ones).
    pub async fn count_injectable(&self, chat_id: i64) -> Result<i64> {
        // Kept by triggers (migration 0007); global is scope 0.
        sqlx::query_scalar(
            "SELECT COALESCE((SELECT n FROM memory_active_counts WHERE scope = ?1), 0)
                  + COALESCE((SELECT n FROM memory_active_counts WHERE scope = 0), 0)",
        )
        .bind(chat_id)
        .fetch_one(&self.pool)
        .await
    }

    /// Computes `search_text` for rows written before it existed, a chunk per transaction.
    /// A no-op once done.
    pub(super) async fn search_backlog(&self) -> Result<()> {
        for (table, column) in [("memories", "content"), ("messages", "text")] {
            loop {
                let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
                let rows: Vec<(i64, String)> = sqlx::query_as(&format!(
                    "SELECT id, {column} FROM {table} WHERE search_text IS NULL ORDER BY id LIMIT ?1"
                ))
                .bind(BACKLOG_CHUNK)
                .fetch_all(&mut *tx)
                .await?;
                if rows.is_empty() {
                    break;
                }
                for (id, text) in &rows {
                    let search = if table == "messages" {
                        message_search_text(text, true)
                    } else {
                        search_text(text)
                    };
                    sqlx::query(&format!(
                        "UPDATE {table} SET search_text = ?2 WHERE id = ?1"
                    ))
                    .bind(id)
                    .bind(search)
                    .execute(&mut *tx)
                    .await?;
                }
                tx.commit().await?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_and_acknowledgements_are_not_searchable() {
        assert_eq!(message_search_text("/memories", true), "");
        assert_eq!(message_search_text("  /forget 3", true), "");
        assert_eq!(message_search_text("Noted. Saved memory #1: x", false), "");
        assert_eq!(message_search_text("My dog is Rex", true), "dog rex");
        assert_eq!(
            message_search_text("我住在东京", true),
            "我住 住在 在东 东京"
        );
    }
}
