//! Chats and sessions.

use sqlx::FromRow;

use super::db::Conn;
use super::{Result, Store, now_ms, on_conn, on_pool};
use crate::base::ChatKey;

pub type SessionId = i64;

#[derive(Debug, Clone, FromRow)]
pub struct ChatRow {
    pub id: i64,
    pub channel: String,
    pub external_chat_id: String,
    pub title: Option<String>,
    pub is_group: bool,
    pub created_at: i64,
}

impl ChatRow {
    pub fn key(&self) -> ChatKey {
        ChatKey::new(&self.channel, &self.external_chat_id)
    }
}

impl Store {
    /// The chat's row, created on first sight. A known title is kept unless a new one is given.
    pub async fn ensure_chat(
        &self,
        key: &ChatKey,
        is_group: bool,
        title: Option<&str>,
    ) -> Result<ChatRow> {
        // Most messages come from a chat known as it is: read, and write only what changed
        // (a write is what every other writer waits for).
        if let Some(chat) = self.find_chat(key).await?
            && chat.is_group == is_group
            && title.is_none_or(|t| chat.title.as_deref() == Some(&*super::text(t)))
        {
            return Ok(chat);
        }
        let mut conn = self.writer.acquire().await?;
        let chat = upsert_chat(conn.conn(), key, is_group, title).await;
        conn.finish(chat)
    }

    pub async fn find_chat(&self, key: &ChatKey) -> Result<Option<ChatRow>> {
        on_pool!(&self.pool, p => sqlx::query_as::<_, ChatRow>(
            "SELECT * FROM chats WHERE channel = $1 AND external_chat_id = $2",
        )
        .bind(&key.channel)
        .bind(super::text(&key.external_id))
        .fetch_optional(p)
        .await)
    }

    pub async fn list_chats(&self) -> Result<Vec<ChatRow>> {
        on_pool!(&self.pool, p => sqlx::query_as::<_, ChatRow>("SELECT * FROM chats ORDER BY id")
            .fetch_all(p)
            .await)
    }

    /// The chat's open session, started if there is none.
    pub async fn current_session(&self, chat_id: i64) -> Result<SessionId> {
        let mut conn = self.pool.acquire().await?;
        let open = open_session(conn.conn(), chat_id).await;
        let open = conn.finish(open)?;
        match open {
            Some(id) => Ok(id),
            None => self.start_session(chat_id).await,
        }
    }

    /// Ends the open session (if any) and starts a new one: the model's history starts over.
    pub async fn start_session(&self, chat_id: i64) -> Result<SessionId> {
        let mut tx = self.writer.begin_write().await?;
        let id = start_session_in(tx.conn(), chat_id).await?;
        tx.commit().await?;
        Ok(id)
    }
}

/// The chat's row, made on first sight or brought up to date; a known title is kept unless a
/// new one is given.
pub(super) async fn upsert_chat(
    conn: Conn<'_>,
    key: &ChatKey,
    is_group: bool,
    title: Option<&str>,
) -> Result<ChatRow> {
    on_conn!(conn, c => sqlx::query_as::<_, ChatRow>(
        "INSERT INTO chats (channel, external_chat_id, title, is_group, created_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (channel, external_chat_id) DO UPDATE
            SET title = COALESCE(excluded.title, chats.title),
                is_group = excluded.is_group
         RETURNING *",
    )
    .bind(&key.channel)
    .bind(super::text(&key.external_id))
    .bind(super::text_opt(title))
    .bind(is_group)
    .bind(now_ms())
    .fetch_one(c)
    .await)
}

/// The chat's open session, if it has one.
pub(super) async fn open_session(conn: Conn<'_>, chat_id: i64) -> Result<Option<SessionId>> {
    on_conn!(conn, c => sqlx::query_scalar(
        "SELECT id FROM sessions WHERE chat_id = $1 AND ended_at IS NULL ORDER BY id DESC LIMIT 1",
    )
    .bind(chat_id)
    .fetch_optional(c)
    .await)
}

/// Ends the chat's open session (if any) and starts a new one, on `conn` (a write
/// transaction's).
pub(super) async fn start_session_in(mut conn: Conn<'_>, chat_id: i64) -> Result<SessionId> {
    let now = now_ms();
    on_conn!(conn.re(), c => {
        sqlx::query("UPDATE sessions SET ended_at = $2 WHERE chat_id = $1 AND ended_at IS NULL")
            .bind(chat_id)
            .bind(now)
            .execute(&mut *c)
            .await?;
        sqlx::query_scalar(
            "INSERT INTO sessions (chat_id, started_at) VALUES ($1, $2) RETURNING id",
        )
        .bind(chat_id)
        .bind(now)
        .fetch_one(&mut *c)
        .await
    })
}
