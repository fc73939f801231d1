//! What the web console reads and changes: chats with their counts, a person's edit of a
//! memory, a conversation's recent messages.

use serde::Serialize;
use sqlx::FromRow;

use super::memories::{SELECT, rewrite};
use super::{MessageRow, Result, Store, on_conn, on_pool};
use crate::base::{Category, MemoryRow};

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

impl Store {
    /// Every chat with its message and active-memory counts, most recently active first.
    pub async fn chat_summaries(&self) -> Result<Vec<ChatSummary>> {
        on_pool!(&self.pool, c => sqlx::query_as::<_, ChatSummary>(
            "SELECT * FROM (
                SELECT c.id, c.created_at, c.channel || ':' || c.external_chat_id AS chat, c.title, c.is_group,
                       (SELECT COUNT(*) FROM messages m WHERE m.chat_id = c.id) AS messages,
                       (SELECT COUNT(*) FROM memories m WHERE m.chat_id = c.id AND m.archived = FALSE) AS memories,
                       (SELECT MAX(created_at) FROM messages m WHERE m.chat_id = c.id) AS last_message_at
                FROM chats c) AS s
             ORDER BY COALESCE(last_message_at, created_at) DESC, id DESC",
        )
        .fetch_all(c)
        .await)
    }

    /// A person's correction of a memory: new wording and category. Unlike `refine_memory`
    /// (the same fact seen again) it neither reinforces confidence nor marks it seen; the
    /// indexes follow the new wording (`memories::rewrite`). Returns the updated row, `None`
    /// if there is none.
    pub async fn edit_memory(
        &self,
        id: i64,
        content: &str,
        category: Category,
    ) -> Result<Option<MemoryRow>> {
        let mut tx = self.writer.begin_write().await?;
        if !rewrite(&mut tx.conn(), id, content, category, None).await? {
            return Ok(None);
        }
        let updated = on_conn!(tx.conn(), c => sqlx::query_as::<_, MemoryRow>(&format!("{SELECT} WHERE m.id = $1"))
            .bind(id)
            .fetch_one(c)
            .await)?;
        tx.commit().await?;
        Ok(Some(updated))
    }

    /// The last `limit` messages of a chat across its sessions, oldest first.
    pub async fn recent_messages(&self, chat_id: i64, limit: u32) -> Result<Vec<MessageRow>> {
        let mut rows = on_pool!(&self.pool, c => sqlx::query_as::<_, MessageRow>(
            "SELECT * FROM messages WHERE chat_id = $1 ORDER BY id DESC LIMIT $2",
        )
        .bind(chat_id)
        .bind(i64::from(limit))
        .fetch_all(c)
        .await)?;
        rows.reverse();
        Ok(rows)
    }
}
