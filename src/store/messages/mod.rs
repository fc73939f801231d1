//! Messages as they were said, by people and by the bot.

use sqlx::FromRow;

use super::db::{Conn, Pool, on_conn};
use super::inline::Query;
use super::search::injectable_count;
use super::{ChatRow, Result, SessionId, Store, now_ms, on_pool};

/// A turn's history before its message `$1`, at most `$2` rows, newest first: what was said
/// before it in its session and the bot's answers given since (a message stored while the turn
/// before it ran — sent quickly after another — is answered knowing that answer), and no
/// message sent after it. Read backwards along the session's index and stopped at the limit,
/// however long the session (ordered by anything but the id, both backends read and sorted the
/// whole session on every turn: 24 ms a turn at 50,000 messages). The columns are
/// [`MessageRow`]'s, in its order (`MessageRow::read_in_order`), not the search text (nor, on
/// PostgreSQL, its `tsvector`).
macro_rules! history_before {
    () => {
        concat!(
            "SELECT ",
            message_columns!(),
            " FROM messages
             WHERE session_id = (SELECT session_id FROM messages WHERE id = $1)
               AND id <> $1 AND (id < $1 OR is_from_bot)
             ORDER BY id DESC LIMIT $2"
        )
    };
}

/// [`MessageRow`]'s columns, in the order `MessageRow::read_in_order` reads them.
macro_rules! message_columns {
    () => {
        "id, chat_id, session_id, sender_id, sender_name, is_from_bot, text, platform_message_id,
         platform_thread_id, created_at, needs_reply, replied_at"
    };
}

/// The messages of channel `$1` owed an answer, sent at or after `$2`, oldest first, with their
/// chats. Its condition is the owed messages' index's own (`needs_reply AND replied_at IS
/// NULL`), which SQLite needs to use that index.
const AWAITING_REPLY: &str =
    "SELECT m.*, c.external_chat_id AS chat_external_id, c.title AS chat_title,
            c.is_group AS chat_is_group, c.created_at AS chat_created_at
     FROM messages m JOIN chats c ON c.id = m.chat_id
     WHERE c.channel = $1 AND m.needs_reply AND m.replied_at IS NULL AND m.created_at >= $2
     ORDER BY m.id";

#[derive(Debug, Clone, FromRow, serde::Deserialize)]
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

impl MessageRow {
    /// How many columns `message_columns!` lists: what a row has after them starts here.
    const COLUMNS: usize = 12;

    /// The row `r`, whose first [`Self::COLUMNS`] columns are [`MessageRow`]'s in its order (as
    /// `message_columns!` lists them), read by position. A column read by name is looked up
    /// among the row's columns by comparing names, each time: for a turn's history and its
    /// message that was 67 lookups a message and 5.5 % of the daemon's instructions
    /// (callgrind, 2026-11-29).
    fn read_in_order(r: &rusqlite::Row<'_>) -> rusqlite::Result<Self> {
        Ok(Self {
            id: r.get(0)?,
            chat_id: r.get(1)?,
            session_id: r.get(2)?,
            sender_id: r.get(3)?,
            sender_name: r.get(4)?,
            is_from_bot: r.get(5)?,
            text: r.get(6)?,
            platform_message_id: r.get(7)?,
            platform_thread_id: r.get(8)?,
            created_at: r.get(9)?,
            needs_reply: r.get(10)?,
            replied_at: r.get(11)?,
        })
    }
}

/// A turn started for a message ([`Store::start_turn`]).
#[derive(Debug, Clone)]
pub struct ReplyAttempt {
    pub message: MessageRow,
    pub chat: ChatRow,
    /// How many turns have started for it, this one included.
    pub attempt: i64,
    /// The memories that may be injected into its prompt: the chat's and the global ones.
    pub memories: i64,
    /// The last messages of its session up to it, oldest first (none when it has no session).
    pub history: Vec<MessageRow>,
}

/// A message's chat, read beside it as `chat_external_id`, `chat_title`, `chat_is_group` and
/// `chat_created_at`.
#[derive(FromRow)]
struct ChatColumns {
    chat_external_id: String,
    chat_title: Option<String>,
    chat_is_group: bool,
    chat_created_at: i64,
}

impl ChatColumns {
    /// The chat row of `message`, on `channel`.
    fn of(self, message: &MessageRow, channel: String) -> ChatRow {
        ChatRow {
            id: message.chat_id,
            channel,
            external_chat_id: self.chat_external_id,
            title: self.chat_title,
            is_group: self.chat_is_group,
            created_at: self.chat_created_at,
        }
    }
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
        let mut conn = self.writer.acquire().await?;
        let id = insert_message_in(conn.conn(), m).await;
        conn.finish(id)
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

    /// Starts a turn for message `id`: counts one more attempt and returns the message, its
    /// chat, how many turns there have been, the chat's memory count and its session's last
    /// `history_len` messages up to it (`None`: no such message). The reads come with the
    /// turn's first write: on SQLite in one transaction on the inline writer (`inline/`), on
    /// PostgreSQL in one statement (the history as a JSON array).
    pub async fn start_turn(&self, id: i64, history_len: u32) -> Result<Option<ReplyAttempt>> {
        #[derive(FromRow)]
        struct Row {
            #[sqlx(flatten)]
            message: MessageRow,
            reply_attempts: i64,
            chat_channel: String,
            #[sqlx(flatten)]
            chat: ChatColumns,
            memories: i64,
            /// The history, oldest first, as JSON (`NULL`: none).
            history: Option<String>,
        }
        // What a turn's start reads of its message (`messages`) and its chat. SQLite's
        // RETURNING may not name a joined table, but may hold subqueries.
        macro_rules! started {
            () => {
                concat!(
                    message_columns!(),
                    ", reply_attempts,
                       (SELECT c.channel FROM chats c WHERE c.id = messages.chat_id) AS chat_channel,
                       (SELECT c.external_chat_id FROM chats c WHERE c.id = messages.chat_id) AS chat_external_id,
                       (SELECT c.title FROM chats c WHERE c.id = messages.chat_id) AS chat_title,
                       (SELECT c.is_group FROM chats c WHERE c.id = messages.chat_id) AS chat_is_group,
                       (SELECT c.created_at FROM chats c WHERE c.id = messages.chat_id) AS chat_created_at, ",
                    injectable_count!("messages.chat_id"),
                    " AS memories"
                )
            };
        }
        macro_rules! count_attempt {
            () => {
                "UPDATE messages SET reply_attempts = reply_attempts + 1 WHERE id = $1"
            };
        }
        const COUNT_ATTEMPT: &str = count_attempt!();
        // On SQLite the update, then a read by the message's id: cheaper than `RETURNING`
        // there (see `INSERTED_ID`).
        const STARTED_SQLITE: &str = concat!("SELECT ", started!(), " FROM messages WHERE id = $1");
        // The message itself is the history's last row.
        let before = i64::from(history_len.saturating_sub(1));
        let with_message = move |mut history: Vec<MessageRow>, message: &MessageRow| {
            if history_len > 0 {
                history.push(message.clone());
            }
            history
        };
        if let Some(writer) = &self.inline {
            let mut start = Query::new(COUNT_ATTEMPT).bind(id);
            let history = Query::new(history_before!()).bind(id).bind(before);
            return writer
                .write(move |tx| {
                    start.on(COUNT_ATTEMPT).execute(tx)?;
                    // by position, as `started!` lists them: the message's columns, then the
                    // attempts, the chat's columns and the memory count
                    let Some((message, reply_attempts, chat, memories)) =
                        start.on(STARTED_SQLITE).first(tx, |r| {
                            let message = MessageRow::read_in_order(r)?;
                            let n = MessageRow::COLUMNS;
                            let chat = ChatColumns {
                                chat_external_id: r.get(n + 2)?,
                                chat_title: r.get(n + 3)?,
                                chat_is_group: r.get(n + 4)?,
                                chat_created_at: r.get(n + 5)?,
                            };
                            let chat = chat.of(&message, r.get(n + 1)?);
                            Ok((message, r.get(n)?, chat, r.get(n + 6)?))
                        })?
                    else {
                        return Ok(None);
                    };
                    let mut history = history.rows(tx, MessageRow::read_in_order)?;
                    history.reverse();
                    Ok(Some(ReplyAttempt {
                        history: with_message(history, &message),
                        message,
                        chat,
                        attempt: reply_attempts,
                        memories,
                    }))
                })
                .await;
        }
        let Pool::Postgres(writer) = &self.writer else {
            unreachable!("a SQLite store has an inline writer")
        };
        // The history in the same statement: its subquery reads the session as it was before
        // the update, which changes only the message's attempt count.
        const START_POSTGRES: &str = concat!(
            count_attempt!(),
            " RETURNING ",
            started!(),
            ", (SELECT json_agg(h ORDER BY h.id)::text FROM (",
            history_before!(),
            ") h) AS history"
        );
        let row: Option<Row> = sqlx::query_as(START_POSTGRES)
            .bind(id)
            .bind(before)
            .fetch_optional(writer)
            .await?;
        let Some(row) = row else { return Ok(None) };
        let history = match &row.history {
            Some(json) => super::from_json(json)?,
            None => Vec::new(),
        };
        Ok(Some(ReplyAttempt {
            chat: row.chat.of(&row.message, row.chat_channel),
            history: with_message(history, &row.message),
            message: row.message,
            attempt: row.reply_attempts,
            memories: row.memories,
        }))
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
            #[sqlx(flatten)]
            chat: ChatColumns,
        }
        let rows: Vec<Row> = on_pool!(&self.pool, c => sqlx::query_as(
            AWAITING_REPLY,
        )
        .bind(channel)
        .bind(since_ms)
        .fetch_all(c)
        .await)?;
        Ok(rows
            .into_iter()
            .map(|r| (r.chat.of(&r.message, channel.to_string()), r.message))
            .collect())
    }

    /// For each chat of `channel` where someone wrote since `since_ms`: the chat's external
    /// id, whether it is a group, and the platform's id of the last message stored from a
    /// person there — where a platform that does not replay what it sent while the bot was
    /// away picks up again. Oldest first (by that message). Each chat's message is found
    /// walking its index back from its newest (a maximum per chat over the messages since
    /// `since_ms` read every message row of that time, on every gateway session: 0.85 s at a
    /// million).
    pub async fn last_heard(
        &self,
        channel: &str,
        since_ms: i64,
    ) -> Result<Vec<(String, bool, String)>> {
        on_pool!(&self.pool, c => sqlx::query_as(
            "SELECT c.external_chat_id, c.is_group, m.platform_message_id
             FROM chats c
             JOIN messages m ON m.id = (SELECT l.id FROM messages l
                                        WHERE l.chat_id = c.id AND l.platform_message_id IS NOT NULL
                                          AND l.is_from_bot = FALSE
                                        ORDER BY l.id DESC LIMIT 1)
             WHERE c.channel = $1 AND m.created_at >= $2
             ORDER BY m.id",
        )
        .bind(channel)
        .bind(since_ms)
        .fetch_all(c)
        .await)
    }

    /// Whether someone else than `sender_id` wrote in the chat under `sender_name`: two
    /// members a group's memory must not name alike.
    pub async fn sender_name_shared(
        &self,
        chat_id: i64,
        sender_name: &str,
        sender_id: &str,
    ) -> Result<bool> {
        on_pool!(&self.pool, c => sqlx::query_scalar(
            "SELECT EXISTS (SELECT 1 FROM messages
                            WHERE chat_id = $1 AND sender_name = $2 AND sender_id <> $3
                              AND is_from_bot = FALSE)",
        )
        .bind(chat_id)
        .bind(sender_name)
        .bind(sender_id)
        .fetch_one(c)
        .await)
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
    static SQL: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let sql = SQL.get_or_init(|| insert_message_sql(1));
    on_conn!(conn.re(), c => bind_message!(sqlx::query_scalar::<_, i64>(sql), m)
        .fetch_optional(c)
        .await)
}

/// The columns a new message's values fill, in the order [`bind_message`] binds them.
pub(super) const MESSAGE_VALUES: [&str; 11] = [
    "chat_id",
    "session_id",
    "sender_id",
    "sender_name",
    "is_from_bot",
    "text",
    "platform_message_id",
    "created_at",
    "needs_reply",
    "platform_thread_id",
    "search_text",
];

/// Inserts a message whose values are the placeholders from `$first` on (see
/// [`bind_message`]); returns its id, or nothing when it was there already.
pub(super) fn insert_message_sql(first: usize) -> String {
    insert_message_sql_core(first) + " RETURNING id"
}

/// [`insert_message_sql`] without its `RETURNING`: on SQLite's inline writer,
/// [`INSERTED_ID`] reads the new id instead.
pub(super) fn insert_message_sql_core(first: usize) -> String {
    let places: Vec<String> = (first..first + MESSAGE_VALUES.len())
        .map(|n| format!("${n}"))
        .collect();
    format!(
        "INSERT INTO messages ({}) VALUES ({}) ON CONFLICT DO NOTHING",
        MESSAGE_VALUES.join(", "),
        places.join(", ")
    )
}

/// On SQLite, the id of the row the insert before inserted, if it inserted one: SQLite
/// gathers a `RETURNING` clause's rows in a temporary table opened and dropped for each
/// statement, which costs more than the insert's own work. (`changes()`: an insert that
/// found its row there already inserted nothing and left `last_insert_rowid()` as it was.)
pub(super) const INSERTED_ID: &str = "SELECT last_insert_rowid() WHERE changes() > 0";

/// `$q` with `$m`'s values bound next, in [`MESSAGE_VALUES`]' order (a sqlx query, or an
/// inline one, `inline/`).
macro_rules! bind_message {
    ($q:expr, $m:expr) => {
        $q.bind($m.chat_id)
            .bind($m.session_id)
            .bind($crate::store::text($m.sender_id))
            .bind($crate::store::text($m.sender_name))
            .bind($m.is_from_bot)
            .bind($crate::store::text($m.text))
            .bind($crate::store::text_opt($m.platform_message_id))
            .bind($m.created_at.unwrap_or_else($crate::store::now_ms))
            .bind($m.needs_reply)
            .bind($crate::store::text_opt($m.platform_thread_id))
            .bind($crate::store::search::message_search_text(
                $m.text,
                $m.searchable,
            ))
    };
}
pub(super) use bind_message;

#[cfg(test)]
mod tests;
