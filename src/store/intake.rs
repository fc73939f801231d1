//! Storing what people send, many messages in one write transaction (group commit).
//!
//! A burst (a webhook's concurrent requests, a getUpdates batch, a gateway replay) is stored
//! in one transaction: one commit instead of one per message. A message of a known chat, as
//! it was, with its session open — nearly every message — is one statement on PostgreSQL
//! (the insert finds its chat and session itself), and on SQLite the chat's open session
//! looked up, the insert and its id read back ([`OPEN_SESSION_OF`]). Otherwise (a
//! new chat, a changed title, no open session, a redelivery) the chat is made or brought up
//! to date and a session opened unless one is, in the same transaction, then the message is
//! inserted: on SQLite two statements more, on PostgreSQL one statement instead of the first.
//! SQLite runs the batch on its inline writer (`inline/`), on the async worker that asks.

use super::db::{Conn, on_conn};
use super::inline::Query;
use super::messages::INSERTED_ID;
use super::search::message_search_text;
use super::{Result, Store, now_ms};
use crate::base::ChatKey;

/// A person's message as a channel took it in.
#[derive(Debug, Clone, Copy)]
pub struct Arrival<'a> {
    pub chat: &'a ChatKey,
    pub is_group: bool,
    /// The chat's title as the platform gave it now; `None` keeps the known one.
    pub chat_title: Option<&'a str>,
    pub sender_id: &'a str,
    pub sender_name: &'a str,
    pub text: &'a str,
    pub platform_message_id: Option<&'a str>,
    pub platform_thread_id: Option<&'a str>,
    /// When the platform says it was sent; `None` = now.
    pub created_at: Option<i64>,
    pub needs_reply: bool,
}

/// A stored arrival: the new message's id and its chat's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::FromRow)]
pub struct Stored {
    pub id: i64,
    pub chat_id: i64,
}

impl Store {
    /// Stores `arrivals` in one write transaction, in their order. Each gets the new message's
    /// id and its chat's, or `None` when the platform had delivered that message id for its
    /// chat before (a redelivery). Either all are stored or, on an error, none.
    pub async fn store_arrivals(&self, arrivals: &[Arrival<'_>]) -> Result<Vec<Option<Stored>>> {
        if arrivals.is_empty() {
            return Ok(Vec::new());
        }
        if let Some(writer) = &self.inline {
            let mut arrivals: Vec<_> = arrivals.iter().map(inline_insert).collect();
            return writer
                .write(move |tx| store_inline(tx, &mut arrivals))
                .await;
        }
        let mut tx = self.writer.begin_write().await?;
        let mut ids = Vec::with_capacity(arrivals.len());
        for a in arrivals {
            let id = match insert_in_open_session(tx.conn(), a).await? {
                Some(id) => Some(id),
                None => insert_making_room_postgres(tx.conn(), a).await?,
            };
            ids.push(id);
        }
        tx.commit().await?;
        Ok(ids)
    }
}

/// The columns an arrival's insert fills: its chat and session, then [`arrival_values`].
macro_rules! arrival_columns {
    () => {
        "(chat_id, session_id, sender_id, sender_name, is_from_bot, text, platform_message_id,
          created_at, needs_reply, platform_thread_id, search_text)"
    };
}

/// An arrival's values after its chat and session, as [`arrival_columns`] lists them.
macro_rules! arrival_values {
    () => {
        "$3, $4, FALSE, $5, $6, $7, $8, $9, $10"
    };
}

/// The chat `c` and open session `s` an arrival goes into when the chat is known exactly as
/// the arrival describes it (`$1` channel, `$2` chat id, `$11` is_group, `$12` the title or
/// NULL); no row otherwise. Both backends' inserts find them by this.
macro_rules! open_session_of {
    () => {
        "FROM chats c JOIN sessions s ON s.chat_id = c.id AND s.ended_at IS NULL
          WHERE c.channel = $1 AND c.external_chat_id = $2 AND c.is_group = $11
            AND ($12 IS NULL OR c.title = $12)
          ORDER BY s.id DESC LIMIT 1"
    };
}

/// The insert of a message into its chat's open session ([`open_session_of`]); no row for a
/// redelivery. `WHERE` before `ON CONFLICT`: SQLite needs it to tell the upsert from a join's
/// `ON`.
macro_rules! insert_in_open_session_sql {
    () => {
        concat!(
            "INSERT INTO messages ",
            arrival_columns!(),
            "\n SELECT c.id, s.id, ",
            arrival_values!(),
            "\n ",
            open_session_of!(),
            "\n ON CONFLICT DO NOTHING\n RETURNING id, chat_id"
        )
    };
}

/// On SQLite, the chat and open session an arrival goes into ([`open_session_of`]). The
/// insert is then [`INSERT_VALUES`]: SQLite runs an `INSERT … SELECT` into a table with
/// triggers by first copying the rows into a temporary table (opened and dropped for each
/// arrival), which two statements do not need.
const OPEN_SESSION_OF: &str = concat!("SELECT c.id, s.id ", open_session_of!());

/// The arrival's insert into chat `$14`'s session `$15` ([`OPEN_SESSION_OF`]); nothing for a
/// redelivery. Its id is read after it by [`INSERTED_ID`].
const INSERT_VALUES: &str = concat!(
    "INSERT INTO messages ",
    arrival_columns!(),
    "\n VALUES ($14, $15, ",
    arrival_values!(),
    ")\n ON CONFLICT DO NOTHING"
);

/// The arrival's chat made or brought up to date (`$13` now).
macro_rules! upsert_chat_sql {
    () => {
        "INSERT INTO chats (channel, external_chat_id, title, is_group, created_at)
         VALUES ($1, $2, $12, $11, $13)
         ON CONFLICT (channel, external_chat_id) DO UPDATE
            SET title = COALESCE(excluded.title, chats.title), is_group = excluded.is_group"
    };
}

/// The arrival's chat's session opened unless one is (SQLite; after [`upsert_chat_sql`]).
macro_rules! open_session_sql {
    () => {
        "INSERT INTO sessions (chat_id, started_at)
         SELECT c.id, $13 FROM chats c
          WHERE c.channel = $1 AND c.external_chat_id = $2
            AND NOT EXISTS (SELECT 1 FROM sessions o WHERE o.chat_id = c.id AND o.ended_at IS NULL)"
    };
}

/// [`upsert_chat_sql`], [`open_session_sql`] and the insert as one PostgreSQL statement: its `WITH` clauses share a
/// snapshot, so the insert takes the session just opened, or else the open one.
const MAKING_ROOM_POSTGRES: &str = concat!(
    "WITH c AS (",
    upsert_chat_sql!(),
    "
        RETURNING id
     ), s AS (
        INSERT INTO sessions (chat_id, started_at)
        SELECT c.id, $13 FROM c
         WHERE NOT EXISTS (SELECT 1 FROM sessions o WHERE o.chat_id = c.id AND o.ended_at IS NULL)
        RETURNING id
     )
     INSERT INTO messages
        (chat_id, session_id, sender_id, sender_name, is_from_bot, text, platform_message_id,
         created_at, needs_reply, platform_thread_id, search_text)
     SELECT c.id,
            COALESCE((SELECT id FROM s),
                     (SELECT o.id FROM sessions o WHERE o.chat_id = c.id AND o.ended_at IS NULL
                       ORDER BY o.id DESC LIMIT 1)),
            $3, $4, FALSE, $5, $6, $7, $8, $9, $10
       FROM c
     ON CONFLICT DO NOTHING
     RETURNING id, chat_id"
);

/// `query` with an arrival's parameters `$1`…`$12` bound.
macro_rules! bind_arrival {
    ($query:expr, $a:expr) => {
        $query
            .bind(&$a.chat.channel)
            .bind(super::text(&$a.chat.external_id))
            .bind(super::text($a.sender_id))
            .bind(super::text($a.sender_name))
            .bind(super::text($a.text))
            .bind(super::text_opt($a.platform_message_id))
            .bind($a.created_at.unwrap_or_else(now_ms))
            .bind($a.needs_reply)
            .bind(super::text_opt($a.platform_thread_id))
            .bind(message_search_text($a.text, true))
            .bind($a.is_group)
            .bind(super::text_opt($a.chat_title))
    };
}

/// The one-statement insert: the message goes into its chat's open session when the chat is
/// known exactly as `a` describes it. `None`: no such chat or session, or a redelivery.
async fn insert_in_open_session(mut conn: Conn<'_>, a: &Arrival<'_>) -> Result<Option<Stored>> {
    on_conn!(conn.re(), c => bind_arrival!(sqlx::query_as(insert_in_open_session_sql!()), a)
        .fetch_optional(c)
        .await)
}

/// The chat made or brought up to date and its session opened, then the message inserted;
/// `None` for a redelivery. One statement, so one round trip to PostgreSQL (a burst of new
/// chats, the first round of a load, took four each).
async fn insert_making_room_postgres(conn: Conn<'_>, a: &Arrival<'_>) -> Result<Option<Stored>> {
    let Conn::Postgres(c) = conn else {
        unreachable!("a SQLite store has an inline writer")
    };
    bind_arrival!(sqlx::query_as(MAKING_ROOM_POSTGRES), a)
        .bind(now_ms())
        .fetch_optional(c)
        .await
}

/// An arrival's insert on the inline writer, its values bound (`$13` now), ready to queue.
fn inline_insert(a: &Arrival<'_>) -> Query<'static> {
    bind_arrival!(Query::new(OPEN_SESSION_OF), a).bind(now_ms())
}

/// [`Store::store_arrivals`] on SQLite, in `tx` ([`super::inline`]): each arrival's
/// [`inline_insert`]. May be run again (each query starts from its first statement).
fn store_inline(
    tx: &rusqlite::Connection,
    arrivals: &mut [Query<'static>],
) -> rusqlite::Result<Vec<Option<Stored>>> {
    let mut ids = Vec::with_capacity(arrivals.len());
    // `None` when the chat is not known as the arrival describes it or has no open session;
    // else what was stored (`None` for a redelivery).
    let insert = |q: &mut Query<'static>| -> rusqlite::Result<Option<Option<Stored>>> {
        let open = q
            .on(OPEN_SESSION_OF)
            .first(tx, |r| Ok((r.get(0)?, r.get(1)?)))?;
        let Some((chat_id, session_id)) = open else {
            return Ok(None);
        };
        q.set(14, chat_id)
            .set(15, session_id)
            .on(INSERT_VALUES)
            .execute(tx)?;
        let id = q.on(INSERTED_ID).first(tx, |r| r.get(0))?;
        Ok(Some(id.map(|id| Stored { id, chat_id })))
    };
    for q in arrivals {
        let stored = match insert(q)? {
            Some(stored) => stored,
            None => {
                q.on(upsert_chat_sql!()).execute(tx)?;
                q.on(open_session_sql!()).execute(tx)?;
                insert(q)?.flatten()
            }
        };
        ids.push(stored);
    }
    Ok(ids)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::store::db::on_pool;
    use crate::store::testing::backends;

    /// A person's message `id` saying `text` in private chat `chat`.
    pub(in crate::store) fn arrival<'a>(
        chat: &'a ChatKey,
        id: &'a str,
        text: &'a str,
    ) -> Arrival<'a> {
        Arrival {
            chat,
            is_group: false,
            chat_title: None,
            sender_id: "7",
            sender_name: "Ann",
            text,
            platform_message_id: Some(id),
            platform_thread_id: None,
            created_at: None,
            needs_reply: true,
        }
    }

    /// One batch holding every case: a new chat (made, with a session) and a second message
    /// of it, a known chat, a title change, a redelivery (of a message stored earlier and
    /// of one earlier in the same batch), and a chat whose session was ended.
    #[tokio::test]
    async fn a_batch_stores_each_message_once_in_its_chats_open_session() {
        for store in backends().await {
            let known = ChatKey::new("telegram", "1");
            let group = ChatKey::new("telegram", "-5");
            let fresh = ChatKey::new("telegram", "2");
            let first = store
                .store_arrivals(&[arrival(&known, "1", "hi")])
                .await
                .unwrap();
            assert!(first[0].is_some());
            let known_chat = store.find_chat(&known).await.unwrap().unwrap();
            let old_session = store.current_session(known_chat.id).await.unwrap();
            let renamed = Arrival {
                is_group: true,
                chat_title: Some("Book club"),
                ..arrival(&group, "1", "hello all")
            };

            let ids = store
                .store_arrivals(&[
                    arrival(&known, "2", "second"),
                    arrival(&known, "1", "hi"), // stored before
                    arrival(&fresh, "1", "new here"),
                    arrival(&fresh, "2", "again"),
                    arrival(&fresh, "2", "again"), // earlier in this batch
                    renamed,
                    Arrival {
                        chat_title: Some("Book club, 2026"),
                        ..renamed
                    },
                ])
                .await
                .unwrap();
            assert!(ids[0].is_some() && ids[2].is_some() && ids[3].is_some());
            assert_eq!((ids[1], ids[4]), (None, None), "redeliveries");
            assert!(ids[5].is_some());
            assert!(ids[6].is_none(), "same chat and message id: a redelivery");
            let stored: Vec<i64> = ids.iter().flatten().map(|s| s.id).collect();
            assert!(
                stored.windows(2).all(|w| w[0] < w[1]),
                "in order: {stored:?}"
            );

            let fresh_chat = store.find_chat(&fresh).await.unwrap().unwrap();
            // Each comes with its own chat's id, a chat made in the batch included.
            let chat_ids: Vec<i64> = ids.iter().flatten().map(|s| s.chat_id).collect();
            assert_eq!(chat_ids[..3], [known_chat.id, fresh_chat.id, fresh_chat.id]);
            assert_eq!(first[0].unwrap().chat_id, known_chat.id);
            let session = store.current_session(fresh_chat.id).await.unwrap();
            let history = store.session_history(session, i64::MAX, 10).await.unwrap();
            let texts: Vec<&str> = history.iter().map(|m| m.text.as_str()).collect();
            assert_eq!(texts, ["new here", "again"]);
            assert!(history.iter().all(|m| m.needs_reply && !m.is_from_bot));
            let group_chat = store.find_chat(&group).await.unwrap().unwrap();
            assert!(group_chat.is_group);
            assert_eq!(group_chat.title.as_deref(), Some("Book club, 2026"));

            // /new ends the session: the next message goes into a new one.
            let new_session = store.start_session(known_chat.id).await.unwrap();
            let id = store
                .store_arrivals(&[arrival(&known, "3", "fresh start")])
                .await
                .unwrap()[0]
                .unwrap()
                .id;
            let history = store
                .session_history(new_session, i64::MAX, 10)
                .await
                .unwrap();
            assert_eq!(history.iter().map(|m| m.id).collect::<Vec<_>>(), [id]);
            let old = store
                .session_history(old_session, i64::MAX, 10)
                .await
                .unwrap();
            assert_eq!(old.len(), 2, "hi and second stay in the old session");

            // A known chat with no open session at all: its next messages open exactly one.
            on_pool!(&store.writer, c => sqlx::query(
                "UPDATE sessions SET ended_at = 1 WHERE chat_id = $1 AND ended_at IS NULL",
            )
            .bind(known_chat.id)
            .execute(c)
            .await
            .map(|_| ()))
            .unwrap();
            let ids: Vec<i64> = store
                .store_arrivals(&[
                    arrival(&known, "5", "after a pause"),
                    arrival(&known, "6", "and more"),
                ])
                .await
                .unwrap()
                .into_iter()
                .map(|s| s.unwrap().id)
                .collect();
            let reopened = store.current_session(known_chat.id).await.unwrap();
            assert_ne!(reopened, new_session);
            let history = store.session_history(reopened, i64::MAX, 10).await.unwrap();
            assert_eq!(history.iter().map(|m| m.id).collect::<Vec<_>>(), ids);
        }
    }

    /// PostgreSQL: within a chat, ids are drawn in commit order. While a transaction holds a
    /// chat's new message, the chat's next message (the bot's answer, stored on another
    /// connection) waits for it instead of committing a larger id first, which a reflector
    /// pass in between would read and move its cursor past the earlier, still invisible one.
    #[tokio::test]
    async fn a_chats_messages_commit_in_id_order_on_postgres() {
        use std::time::Duration;

        use crate::store::NewMessage;
        use crate::store::db::Pool;

        let Some(store) = backends().await.into_iter().find(|s| s.pool.is_postgres()) else {
            return; // SQLite: one writer, ids commit in order (the skip is listed by backends)
        };
        let chat = ChatKey::new("telegram", "1");
        let first = store
            .store_arrivals(&[arrival(&chat, "1", "hi")])
            .await
            .unwrap()[0]
            .unwrap()
            .id;
        let row = store.find_chat(&chat).await.unwrap().unwrap();
        let session = store.current_session(row.id).await.unwrap();

        // A person's message, stored and not yet committed.
        let mut tx = store.writer.begin_write().await.unwrap();
        let open = insert_in_open_session(tx.conn(), &arrival(&chat, "2", "a new thing"))
            .await
            .unwrap()
            .unwrap()
            .id;
        // The bot's answer to the first message, stored meanwhile.
        let answer = tokio::spawn({
            let store = store.clone();
            async move {
                store
                    .insert_message(&NewMessage::from_bot(row.id, session, "hello"))
                    .await
                    .unwrap()
                    .unwrap()
            }
        });
        let Pool::Postgres(pg) = &store.pool else {
            unreachable!()
        };
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        loop {
            let waiting: i64 = sqlx::query_scalar(
                "SELECT COUNT(*) FROM pg_locks
                  WHERE locktype = 'advisory' AND NOT granted
                    AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
            )
            .fetch_one(pg)
            .await
            .unwrap();
            if waiting > 0 {
                break;
            }
            assert!(
                !answer.is_finished(),
                "the answer was committed while an earlier message of its chat was not"
            );
            assert!(
                tokio::time::Instant::now() < deadline,
                "the answer never waited"
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let seen = store.messages_after(row.id, first, 10).await.unwrap();
        assert!(seen.is_empty(), "nothing new is visible yet: {seen:?}");

        tx.commit().await.unwrap();
        let answered = answer.await.unwrap();
        assert!(answered > open, "the answer's id {answered} follows {open}");
        let seen = store.messages_after(row.id, first, 10).await.unwrap();
        let ids: Vec<i64> = seen.iter().map(|m| m.id).collect();
        assert_eq!(ids, [open, answered]);
    }
}
