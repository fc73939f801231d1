//! Whose turn it is to answer a chat, when several replicas share one PostgreSQL database.
//!
//! Any replica may store a chat's message (the Telegram webhook behind a load balancer), so
//! two could answer one chat at once, out of order, or the same message twice. A chat's
//! answers are given under its turn lock — a session advisory lock, all of one process's on
//! one connection of their own (held locks cost no pooled connection while the model thinks) —
//! and the holder answers the chat's owed messages oldest first, each only while it is still
//! owed. When a replica dies its connection ends and PostgreSQL releases its locks: another
//! replica takes the chat over. On SQLite (one process) the locks are not needed: the chat
//! workers keep each chat's order already.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use sqlx::Connection;
use sqlx::postgres::{PgConnectOptions, PgConnection};

use super::db::{Pool, on_pool};
use super::{MessageRow, Result, Store};

/// One process's turn locks on PostgreSQL: the connection that holds them, opened on first
/// use and again after it failed (which released whatever it held), and which of its
/// sessions took each chat's turn.
pub struct TurnLocks {
    options: Arc<PgConnectOptions>,
    session: tokio::sync::Mutex<Session>,
    /// Chats whose turn this process took, each with the number of the session it took it on.
    taken: Mutex<HashMap<i64, u64>>,
}

/// The lock connection, if open, and its number: each new connection gets the next one.
#[derive(Default)]
struct Session {
    conn: Option<PgConnection>,
    number: u64,
}

/// The messages of chat `$1` still owed an answer, sent at or after `$2` (ms).
macro_rules! owed_in_chat_sql {
    () => {
        "FROM messages
         WHERE chat_id = $1 AND needs_reply AND replied_at IS NULL AND created_at >= $2"
    };
}

/// The advisory lock key of chat `chat_id`'s turn: apart from the leases' hashed keys.
fn turn_key(chat_id: i64) -> i64 {
    0x4d4e_0000_0000_0000 | (chat_id & 0x0000_ffff_ffff_ffff)
}

impl TurnLocks {
    pub fn new(options: Arc<PgConnectOptions>) -> Self {
        Self {
            options,
            session: tokio::sync::Mutex::default(),
            taken: Mutex::default(),
        }
    }

    /// Runs `sql` (with chat `chat_id`'s turn key as `$1`) on the lock connection: its answer,
    /// and the number of the connection that gave it.
    async fn run(&self, sql: &str, chat_id: i64) -> Result<(bool, u64)> {
        let key = turn_key(chat_id);
        self.on_conn(async |conn| sqlx::query_scalar(sql).bind(key).fetch_one(conn).await)
            .await
    }

    /// Runs `query` on the lock connection: its result, and the number of the connection.
    async fn on_conn<T>(
        &self,
        query: impl AsyncFnOnce(&mut PgConnection) -> Result<T>,
    ) -> Result<(T, u64)> {
        let mut session = self.session.lock().await;
        if session.conn.is_none() {
            session.conn = Some(PgConnection::connect_with(&self.options).await?);
            session.number += 1;
        }
        let done = query(session.conn.as_mut().expect("connected above")).await;
        if done.is_err() {
            // Whatever this connection held is gone with it.
            if let Some(conn) = session.conn.take() {
                let _ = conn.close().await;
            }
        }
        Ok((done?, session.number))
    }

    fn taken(&self) -> std::sync::MutexGuard<'_, HashMap<i64, u64>> {
        self.taken.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Store {
    /// Whether answers need turn locks: several processes may answer this database's chats.
    pub fn coordinates_turns(&self) -> bool {
        self.turns.is_some()
    }

    /// Takes chat `chat_id`'s turn for this process if no other process has it. Always true
    /// on SQLite.
    pub async fn try_take_turn(&self, chat_id: i64) -> Result<bool> {
        let Some(locks) = &self.turns else {
            return Ok(true);
        };
        let (got, session) = locks
            .run("SELECT pg_try_advisory_lock($1)", chat_id)
            .await?;
        if got {
            locks.taken().insert(chat_id, session);
        }
        Ok(got)
    }

    /// Whether this process still holds chat `chat_id`'s turn: the lock connection that took it
    /// is alive. Always true on SQLite. A session advisory lock lasts as long as its session,
    /// and goes with it: a connection dropped while the model thought (an idle timeout on the
    /// way to the server) has let another replica take the chat. So one round trip on the lock
    /// connection tells — it answers, and is the connection the turn was taken on — without
    /// reading the server's lock table. An error means the connection is gone, so not held.
    pub async fn holds_turn(&self, chat_id: i64) -> Result<bool> {
        let Some(locks) = &self.turns else {
            return Ok(true);
        };
        let Some(took) = locks.taken().get(&chat_id).copied() else {
            return Ok(false);
        };
        let ping = async |conn: &mut PgConnection| sqlx::query("SELECT 1").execute(conn).await;
        let (_, session) = locks.on_conn(ping).await?;
        Ok(session == took)
    }

    /// Gives chat `chat_id`'s turn back.
    pub async fn end_turn(&self, chat_id: i64) -> Result<()> {
        if let Some(locks) = &self.turns {
            locks.taken().remove(&chat_id);
            locks.run("SELECT pg_advisory_unlock($1)", chat_id).await?;
        }
        Ok(())
    }

    /// Gives chat `chat_id`'s turn back unless the chat owes an answer (sent at or after
    /// `since_ms`) to a message not in `given`: then keeps it and says so (`true`), for the
    /// holder to answer that one too. One round trip where reading what is owed and giving the
    /// turn back took two. `false` also when the turn was no longer held (its connection
    /// was lost: another replica may hold it now). Always `false` on SQLite (no turn to keep).
    pub async fn keep_turn_if_owed(
        &self,
        chat_id: i64,
        since_ms: i64,
        given: &[i64],
    ) -> Result<bool> {
        let Some(locks) = &self.turns else {
            return Ok(false);
        };
        let key = turn_key(chat_id);
        let query = async |conn: &mut PgConnection| {
            // NULL: kept (more is owed); otherwise whether the lock was held and is given back.
            sqlx::query_scalar::<_, Option<bool>>(concat!(
                "SELECT CASE WHEN EXISTS (SELECT 1 ",
                owed_in_chat_sql!(),
                " AND NOT (id = ANY($3))) THEN NULL ELSE pg_advisory_unlock($4) END"
            ))
            .bind(chat_id)
            .bind(since_ms)
            .bind(given)
            .bind(key)
            .fetch_one(conn)
            .await
        };
        let (released, session) = locks.on_conn(query).await?;
        let kept = released.is_none();
        let mut taken = locks.taken();
        if !kept || taken.get(&chat_id) != Some(&session) {
            // Given back, or lost with the connection it was taken on: not this process's now.
            taken.remove(&chat_id);
            return Ok(false);
        }
        Ok(true)
    }

    /// Whether message `id` still waits for its answer.
    pub async fn is_owed(&self, id: i64) -> Result<bool> {
        let owed: Option<bool> = on_pool!(&self.pool, c => sqlx::query_scalar(
            "SELECT needs_reply AND replied_at IS NULL FROM messages WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(c)
        .await)?;
        Ok(owed.unwrap_or(false))
    }

    /// The messages of chat `chat_id` still owed an answer, sent at or after `since_ms`,
    /// oldest first.
    pub async fn owed_in_chat(&self, chat_id: i64, since_ms: i64) -> Result<Vec<MessageRow>> {
        on_pool!(&self.pool, c => sqlx::query_as::<_, MessageRow>(
            concat!("SELECT * ", owed_in_chat_sql!(), " ORDER BY id"),
        )
        .bind(chat_id)
        .bind(since_ms)
        .fetch_all(c)
        .await)
    }
}

/// The turn locks of a pool: PostgreSQL's, or none.
pub(super) fn for_pool(pool: &Pool) -> Option<Arc<TurnLocks>> {
    match pool {
        Pool::Postgres(p) => Some(Arc::new(TurnLocks::new(p.connect_options()))),
        Pool::Sqlite(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turn_keys_are_per_chat_and_apart_from_lease_keys() {
        assert_ne!(turn_key(1), turn_key(2));
        assert_ne!(turn_key(1), super::super::leases::lock_key("schedule"));
    }

    /// A store on PostgreSQL and the turn locks of another process on its database; `None`
    /// without PostgreSQL (SQLite: one process, always its turn; the skip is listed by
    /// `backends`).
    async fn store_and_replica() -> Option<(Store, TurnLocks)> {
        let store = (crate::store::testing::backends().await)
            .into_iter()
            .find(|s| s.coordinates_turns())?;
        let Pool::Postgres(pg) = &store.pool else {
            unreachable!()
        };
        let replica = TurnLocks::new(pg.connect_options());
        Some((store, replica))
    }

    /// A turn is kept while its chat owes an answer the holder has not given, and given back
    /// (free for another process) once it owes none.
    #[tokio::test]
    async fn a_turn_is_kept_while_its_chat_owes_an_answer_not_given() {
        let Some((store, replica)) = store_and_replica().await else {
            return;
        };
        let chat = crate::base::ChatKey::new("telegram", "1");
        let stored = store
            .store_arrivals(&[crate::store::intake::tests::arrival(&chat, "1", "hi")])
            .await
            .unwrap()[0]
            .unwrap();
        assert!(store.try_take_turn(stored.chat_id).await.unwrap());
        assert!(
            store
                .keep_turn_if_owed(stored.chat_id, 0, &[])
                .await
                .unwrap(),
            "kept: an answer not given is owed"
        );
        assert!(store.holds_turn(stored.chat_id).await.unwrap());
        assert!(
            !store
                .keep_turn_if_owed(stored.chat_id, 0, &[stored.id])
                .await
                .unwrap(),
            "given back: the one owed was given"
        );
        assert!(!store.holds_turn(stored.chat_id).await.unwrap());
        let (free, _) = replica
            .run("SELECT pg_try_advisory_lock($1)", stored.chat_id)
            .await
            .unwrap();
        assert!(free, "another process takes it");
        assert!(
            !store
                .keep_turn_if_owed(stored.chat_id, 0, &[])
                .await
                .unwrap(),
            "not kept when not held"
        );
    }

    /// A turn is held while its lock connection lives. When that connection is cut (here by
    /// the server), the process no longer holds the turn, says so, and another replica may
    /// take it.
    #[tokio::test]
    async fn a_turn_is_lost_with_its_lock_connection() {
        let Some((store, replica)) = store_and_replica().await else {
            return;
        };
        let Pool::Postgres(pg) = &store.pool else {
            unreachable!()
        };
        assert!(store.try_take_turn(7).await.unwrap());
        assert!(store.holds_turn(7).await.unwrap());
        assert!(!store.holds_turn(8).await.unwrap(), "only the chat taken");
        assert!(
            !replica
                .run("SELECT pg_try_advisory_lock($1)", 7)
                .await
                .unwrap()
                .0,
            "another process waits for it"
        );

        let cut: bool = sqlx::query_scalar(
            "SELECT pg_terminate_backend(pid) FROM pg_locks
              WHERE locktype = 'advisory' AND granted AND objsubid = 1
                AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                AND classid::bigint * 4294967296 + objid::bigint = $1",
        )
        .bind(turn_key(7))
        .fetch_one(pg)
        .await
        .unwrap();
        assert!(cut);
        assert!(
            !matches!(store.holds_turn(7).await, Ok(true)),
            "the cut connection's lock is not held"
        );
        assert!(
            !store.holds_turn(7).await.unwrap(),
            "nor on a new connection"
        );
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while !replica
            .run("SELECT pg_try_advisory_lock($1)", 7)
            .await
            .unwrap()
            .0
        {
            // The server ends the cut backend (and releases its locks) asynchronously.
            assert!(
                std::time::Instant::now() < deadline,
                "the turn was never freed"
            );
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
    }
}
