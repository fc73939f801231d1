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
    /// Every chat with its message and active-memory counts, most recently active first
    /// (by its newest message stored). The newest message is found at the end of the chat's
    /// index and the memories counted by their triggers: only the messages are counted, along
    /// the index (a maximum of `created_at`, which no index holds, read every message row of
    /// every chat: 1.8 s at a million messages).
    pub async fn chat_summaries(&self) -> Result<Vec<ChatSummary>> {
        on_pool!(&self.pool, c => sqlx::query_as::<_, ChatSummary>(
            "SELECT * FROM (
                SELECT c.id, c.created_at, c.channel || ':' || c.external_chat_id AS chat, c.title, c.is_group,
                       (SELECT COUNT(*) FROM messages m WHERE m.chat_id = c.id) AS messages,
                       COALESCE((SELECT n FROM memory_active_counts WHERE scope = c.id), 0) AS memories,
                       (SELECT m.created_at FROM messages m WHERE m.chat_id = c.id
                        ORDER BY m.id DESC LIMIT 1) AS last_message_at
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

#[cfg(test)]
mod tests {
    use crate::base::{ChatKey, MemoryScope};
    use crate::store::Store;
    use crate::store::testing::{backends, said_at};
    use crate::store::tests::fact;

    async fn said(store: &Store, chat: &ChatKey, at: i64) {
        let arrival = said_at(chat, false, None, at);
        store.store_arrivals(&[arrival]).await.unwrap()[0].unwrap();
    }

    /// The chat list counts each chat's messages and active memories (not archived ones, not
    /// the global ones) and puts the chat whose newest message is newest first, a chat with
    /// none by when it was made.
    #[tokio::test]
    async fn chats_are_summed_up_newest_first() {
        for store in backends().await {
            let (a, b, quiet) = (
                ChatKey::new("telegram", "1"),
                ChatKey::new("discord", "2"),
                ChatKey::new("web", "3"),
            );
            for at in [1_000, 2_000, 3_000] {
                said(&store, &a, at).await;
            }
            said(&store, &b, 5_000).await;
            said(&store, &b, 6_000).await;
            let quiet_row = store.ensure_chat(&quiet, false, None).await.unwrap();
            let a_row = store.find_chat(&a).await.unwrap().unwrap();
            let kept = fact(MemoryScope::Chat(a_row.id), "Ann likes tea");
            store.insert_memory(&kept).await.unwrap();
            let gone = fact(MemoryScope::Chat(a_row.id), "Ann likes coffee");
            let gone = store.insert_memory(&gone).await.unwrap();
            store.archive_memories(&[gone], 4_000).await.unwrap();
            let global = fact(MemoryScope::Global, "The office is in Lyon");
            store.insert_memory(&global).await.unwrap();

            let chats = store.chat_summaries().await.unwrap();
            let seen: Vec<(&str, i64, i64, Option<i64>)> = chats
                .iter()
                .map(|c| (c.chat.as_str(), c.messages, c.memories, c.last_message_at))
                .collect();
            assert_eq!(
                seen,
                [
                    ("web:3", 0, 0, None),
                    ("discord:2", 2, 0, Some(6_000)),
                    ("telegram:1", 3, 1, Some(3_000)),
                ],
                "the quiet chat was made now, after every message's time"
            );
            assert!(quiet_row.created_at > 6_000);
        }
    }
}
