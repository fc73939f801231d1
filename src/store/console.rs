//! What the web console reads and changes: chats with their counts, the memory pool per
//! scope, a person's edit of a memory, a conversation's recent messages.

use serde::Serialize;
use sqlx::FromRow;

use super::memories::SELECT;
use super::search::search_text;
use super::{Category, MemoryRow, MemoryScope, MessageRow, Result, Store, memory_terms, now_ms};

/// A chat as the console lists it.
#[derive(Debug, Clone, FromRow, Serialize)]
pub struct ChatSummary {
    /// `CHANNEL:ID`
    pub chat: String,
    pub title: Option<String>,
    pub is_group: bool,
    pub messages: i64,
    /// Active memories of the chat.
    pub memories: i64,
    /// Unix ms of its newest message, if any.
    pub last_message_at: Option<i64>,
}

/// A memory pool's health.
#[derive(Debug, Clone, Copy, Default, FromRow, Serialize)]
pub struct PoolCounts {
    pub active: i64,
    pub archived: i64,
    /// Active memories with a stored confidence below 0.5.
    pub low_confidence: i64,
}

impl Store {
    /// Every chat with its message and active-memory counts, most recently active first.
    pub async fn chat_summaries(&self) -> Result<Vec<ChatSummary>> {
        sqlx::query_as::<_, ChatSummary>(
            "SELECT c.channel || ':' || c.external_chat_id AS chat, c.title, c.is_group,
                    (SELECT COUNT(*) FROM messages m WHERE m.chat_id = c.id) AS messages,
                    (SELECT COUNT(*) FROM memories m WHERE m.chat_id = c.id AND m.archived = 0) AS memories,
                    (SELECT MAX(created_at) FROM messages m WHERE m.chat_id = c.id) AS last_message_at
             FROM chats c
             ORDER BY COALESCE(last_message_at, c.created_at) DESC, c.id DESC",
        )
        .fetch_all(&self.pool)
        .await
    }

    /// The pool of one scope (`Some(Global)`: global memories only), or of every memory.
    pub async fn pool_counts(&self, scope: Option<MemoryScope>) -> Result<PoolCounts> {
        let filter = match scope {
            None => "1 = 1",
            Some(MemoryScope::Global) => "chat_id IS NULL",
            Some(MemoryScope::Chat(_)) => "chat_id = ?1",
        };
        sqlx::query_as::<_, PoolCounts>(&format!(
            "SELECT COALESCE(SUM(archived = 0), 0) AS active, COALESCE(SUM(archived = 1), 0) AS archived,
                    COALESCE(SUM(archived = 0 AND confidence < 0.5), 0) AS low_confidence
             FROM memories WHERE {filter}"
        ))
        .bind(scope.and_then(MemoryScope::chat_id))
        .fetch_one(&self.pool)
        .await
    }

    /// A person's correction of a memory: new wording and category. Unlike `refine_memory`
    /// (the same fact seen again) it neither reinforces confidence nor marks it seen; the
    /// term index follows the new wording. Returns the updated row, `None` if there is none.
    ///
    /// Every content change the console makes goes through here, so index upkeep for the
    /// memory's text (terms today; full-text and embeddings later) has one place to hook.
    pub async fn edit_memory(
        &self,
        id: i64,
        content: &str,
        category: Category,
    ) -> Result<Option<MemoryRow>> {
        let mut tx = self.pool.begin().await?;
        let row: Option<(Option<i64>, bool)> = sqlx::query_as(
            "UPDATE memories SET content = ?2, category = ?3, updated_at = ?4, search_text = ?5
             WHERE id = ?1 RETURNING chat_id, archived",
        )
        .bind(id)
        .bind(content)
        .bind(category)
        .bind(now_ms())
        .bind(search_text(content))
        .fetch_optional(&mut *tx)
        .await?;
        let Some((chat_id, archived)) = row else {
            return Ok(None);
        };
        if !archived {
            let scope = chat_id.map_or(MemoryScope::Global, MemoryScope::Chat);
            memory_terms::index(&mut tx, id, scope, content).await?;
        }
        let updated = sqlx::query_as::<_, MemoryRow>(&format!("{SELECT} WHERE m.id = ?1"))
            .bind(id)
            .fetch_one(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(Some(updated))
    }

    /// The last `limit` messages of a chat across its sessions, oldest first.
    pub async fn recent_messages(&self, chat_id: i64, limit: u32) -> Result<Vec<MessageRow>> {
        let mut rows = sqlx::query_as::<_, MessageRow>(
            "SELECT * FROM messages WHERE chat_id = ?1 ORDER BY id DESC LIMIT ?2",
        )
        .bind(chat_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.reverse();
        Ok(rows)
    }
}
