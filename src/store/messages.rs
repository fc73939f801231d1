//! Messages as they were said, by people and by the bot.

use sqlx::FromRow;

use super::db::{Conn, on_conn};
use super::search::message_search_text;
use super::{ChatRow, Result, SessionId, Store, now_ms, on_pool};

#[derive(Debug, Clone, FromRow)]
pub struct MessageRow {
    pub id: i64,
    pub chat_id: i64,
    pub session_id: Option<i64>,
    pub sender_id: String,
    pub sender_name: String,
    pub is_from_bot: bool,
    pub text: String,
    pub platform_message_id: Option<String>,
    pub platform_thread_id: Option<String>,
    pub created_at: i64,
    pub needs_reply: bool,
    pub replied_at: Option<i64>,
}

#[derive(Debug, Clone)]
pub struct NewMessage<'a> {
    pub chat_id: i64,
    pub session_id: SessionId,
    pub sender_id: &'a str,
    pub sender_name: &'a str,
    pub is_from_bot: bool,
    pub text: &'a str,
    pub platform_message_id: Option<&'a str>,
    pub platform_thread_id: Option<&'a str>,
    /// When the platform says it was sent; `None` = now.
    pub created_at: Option<i64>,
    /// Addressed to the bot: an answer is owed until `mark_replied`.
    pub needs_reply: bool,
    /// Found by `memory_search`. False for the bot's acknowledgements; chat commands never are.
    pub searchable: bool,
}

impl<'a> NewMessage<'a> {
    /// The bot's own message in `session_id` of chat `chat_id`: owes no answer, searchable.
    pub fn from_bot(chat_id: i64, session_id: SessionId, text: &'a str) -> Self {
        Self {
            chat_id,
            session_id,
            sender_id: "bot",
            sender_name: "Mneme",
            is_from_bot: true,
            text,
            platform_message_id: None,
            platform_thread_id: None,
            created_at: None,
            needs_reply: false,
            searchable: true,
        }
    }
}

impl Store {
    /// Stores a message. Returns `None` when the platform already delivered this message id
    /// for this chat (a redelivery), so the caller can skip it.
    pub async fn insert_message(&self, m: &NewMessage<'_>) -> Result<Option<i64>> {
        insert_message_in(self.writer.acquire().await?.conn(), m).await
    }

    /// The last `limit` messages of a session up to message `up_to` (inclusive), oldest first.
    pub async fn session_history(
        &self,
        session_id: SessionId,
        up_to: i64,
        limit: u32,
    ) -> Result<Vec<MessageRow>> {
        let mut rows = on_pool!(&self.pool, c => sqlx::query_as::<_, MessageRow>(
            "SELECT * FROM messages WHERE session_id = $1 AND id <= $2 ORDER BY id DESC LIMIT $3",
        )
        .bind(session_id)
        .bind(up_to)
        .bind(i64::from(limit))
        .fetch_all(c)
        .await)?;
        rows.reverse();
        Ok(rows)
    }

    /// Messages of a chat with ids in `(after_id, ..]`, oldest first, at most `limit`.
    pub async fn messages_after(
        &self,
        chat_id: i64,
        after_id: i64,
        limit: u32,
    ) -> Result<Vec<MessageRow>> {
        on_pool!(&self.pool, c => sqlx::query_as::<_, MessageRow>(
            "SELECT * FROM messages WHERE chat_id = $1 AND id > $2 ORDER BY id LIMIT $3",
        )
        .bind(chat_id)
        .bind(after_id)
        .bind(i64::from(limit))
        .fetch_all(c)
        .await)
    }

    /// Searchable messages of a chat with ids in `from..=to`, oldest first, at most `limit`
    /// (commands and the bot's acknowledgements are left out, as search leaves them out).
    pub async fn messages_between(
        &self,
        chat_id: i64,
        from: i64,
        to: i64,
        limit: u32,
    ) -> Result<Vec<MessageRow>> {
        on_pool!(&self.pool, c => sqlx::query_as::<_, MessageRow>(
            "SELECT * FROM messages WHERE chat_id = $1 AND id BETWEEN $2 AND $3
               AND COALESCE(search_text, '') != '' ORDER BY id LIMIT $4",
        )
        .bind(chat_id)
        .bind(from)
        .bind(to)
        .bind(i64::from(limit))
        .fetch_all(c)
        .await)
    }

    pub async fn message(&self, id: i64) -> Result<Option<MessageRow>> {
        on_pool!(&self.pool, c => sqlx::query_as::<_, MessageRow>("SELECT * FROM messages WHERE id = $1")
            .bind(id)
            .fetch_optional(c)
            .await)
    }

    /// Records that the answer to message `id` was delivered.
    pub async fn mark_replied(&self, id: i64) -> Result<()> {
        on_pool!(&self.writer, c => sqlx::query("UPDATE messages SET replied_at = $2 WHERE id = $1")
            .bind(id)
            .bind(now_ms())
            .execute(c)
            .await
            .map(|_| ()))
    }

    /// Counts one more turn started for message `id`; returns the message and how many turns
    /// there have been (`None`: no such message).
    pub async fn begin_reply_attempt(&self, id: i64) -> Result<Option<(MessageRow, i64)>> {
        #[derive(FromRow)]
        struct Attempt {
            #[sqlx(flatten)]
            message: MessageRow,
            reply_attempts: i64,
        }
        let row: Option<Attempt> = on_pool!(&self.writer, c => sqlx::query_as(
            "UPDATE messages SET reply_attempts = reply_attempts + 1 WHERE id = $1 RETURNING *",
        )
        .bind(id)
        .fetch_optional(c)
        .await)?;
        Ok(row.map(|a| (a.message, a.reply_attempts)))
    }

    /// Messages of `channel` still owed an answer, sent at or after `since_ms`, oldest first,
    /// each with its chat (one query, however many are owed).
    pub async fn awaiting_reply(
        &self,
        channel: &str,
        since_ms: i64,
    ) -> Result<Vec<(ChatRow, MessageRow)>> {
        #[derive(FromRow)]
        struct Row {
            #[sqlx(flatten)]
            message: MessageRow,
            chat_external_id: String,
            chat_title: Option<String>,
            chat_is_group: bool,
            chat_created_at: i64,
        }
        let rows: Vec<Row> = on_pool!(&self.pool, c => sqlx::query_as(
            "SELECT m.*, c.external_chat_id AS chat_external_id, c.title AS chat_title,
                    c.is_group AS chat_is_group, c.created_at AS chat_created_at
             FROM messages m JOIN chats c ON c.id = m.chat_id
             WHERE c.channel = $1 AND m.needs_reply = TRUE AND m.replied_at IS NULL AND m.created_at >= $2
             ORDER BY m.id",
        )
        .bind(channel)
        .bind(since_ms)
        .fetch_all(c)
        .await)?;
        Ok(rows
            .into_iter()
            .map(|r| {
                let chat = ChatRow {
                    id: r.message.chat_id,
                    channel: channel.to_string(),
                    external_chat_id: r.chat_external_id,
                    title: r.chat_title,
                    is_group: r.chat_is_group,
                    created_at: r.chat_created_at,
                };
                (chat, r.message)
            })
            .collect())
    }

    /// A value a channel keeps across restarts.
    pub async fn channel_state(&self, channel: &str, key: &str) -> Result<Option<String>> {
        on_pool!(&self.pool, c => sqlx::query_scalar("SELECT value FROM channel_state WHERE channel = $1 AND key = $2")
            .bind(channel)
            .bind(key)
            .fetch_optional(c)
            .await)
    }

    pub async fn set_channel_state(&self, channel: &str, key: &str, value: &str) -> Result<()> {
        on_pool!(&self.writer, c => sqlx::query(
            "INSERT INTO channel_state (channel, key, value, updated_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (channel, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
        )
        .bind(channel)
        .bind(key)
        .bind(super::text(value))
        .bind(now_ms())
        .execute(c)
        .await
        .map(|_| ()))
    }

    /// Deletes `channel`'s values whose key starts with `key_prefix` and that were last set
    /// before `before_ms`.
    pub async fn forget_channel_state(
        &self,
        channel: &str,
        key_prefix: &str,
        before_ms: i64,
    ) -> Result<()> {
        on_pool!(&self.writer, c => sqlx::query(
            "DELETE FROM channel_state
             WHERE channel = $1 AND substr(key, 1, length($2)) = $2 AND updated_at < $3",
        )
        .bind(channel)
        .bind(key_prefix)
        .bind(before_ms)
        .execute(c)
        .await
        .map(|_| ()))
    }

    pub async fn count_messages(&self, chat_id: i64) -> Result<i64> {
        on_pool!(&self.pool, c => sqlx::query_scalar("SELECT COUNT(*) FROM messages WHERE chat_id = $1")
            .bind(chat_id)
            .fetch_one(c)
            .await)
    }
}

/// [`Store::insert_message`] on `conn` (a transaction's, for one that stores more).
pub(super) async fn insert_message_in(
    mut conn: Conn<'_>,
    m: &NewMessage<'_>,
) -> Result<Option<i64>> {
    on_conn!(conn.re(), c => sqlx::query_scalar(
        "INSERT INTO messages
            (chat_id, session_id, sender_id, sender_name, is_from_bot, text, platform_message_id, created_at, needs_reply, platform_thread_id, search_text)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         ON CONFLICT DO NOTHING
         RETURNING id",
    )
    .bind(m.chat_id)
    .bind(m.session_id)
    .bind(super::text(m.sender_id))
    .bind(super::text(m.sender_name))
    .bind(m.is_from_bot)
    .bind(super::text(m.text))
    .bind(super::text_opt(m.platform_message_id))
    .bind(m.created_at.unwrap_or_else(now_ms))
    .bind(m.needs_reply)
    .bind(super::text_opt(m.platform_thread_id))
    .bind(message_search_text(m.text, m.searchable))
    .fetch_optional(c)
    .await)
}
