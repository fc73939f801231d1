//! What a channel keeps across restarts (Telegram's polling offset, when a stranger was last
//! told the bot is private): small values by channel and key, shared by the replicas.

use super::inline::Query;
use super::{Result, Store, now_ms, on_pool};

const SET_STATE: &str = "INSERT INTO channel_state (channel, key, value, updated_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (channel, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at";

impl Store {
    /// A value a channel keeps across restarts.
    pub async fn channel_state(&self, channel: &str, key: &str) -> Result<Option<String>> {
        on_pool!(&self.pool, c => sqlx::query_scalar("SELECT value FROM channel_state WHERE channel = $1 AND key = $2")
            .bind(channel)
            .bind(key)
            .fetch_optional(c)
            .await)
    }

    /// Sets a value a channel keeps across restarts. On SQLite a write of the inline writer
    /// (`inline/`), so Telegram's offset, saved after each batch of updates, joins the
    /// transaction of the writes queued with it instead of taking the writer for a
    /// transaction of its own.
    pub async fn set_channel_state(&self, channel: &str, key: &str, value: &str) -> Result<()> {
        if let Some(writer) = &self.inline {
            let q = Query::new(SET_STATE)
                .bind(channel)
                .bind(key)
                .bind(super::text(value))
                .bind(now_ms());
            return writer.write(move |tx| q.execute(tx).map(|_| ())).await;
        }
        on_pool!(&self.writer, c => sqlx::query(SET_STATE)
        .bind(channel)
        .bind(key)
        .bind(super::text(value))
        .bind(now_ms())
        .execute(c)
        .await
        .map(|_| ()))
    }

    /// Sets `key` of `channel` to `value` at `now_ms` unless it was set at or after
    /// `unless_since` (by this process or another on the same database): true when this call
    /// set it. One statement, so of two replicas claiming at once exactly one gets it.
    pub async fn claim_channel_state(
        &self,
        channel: &str,
        key: &str,
        value: &str,
        now_ms: i64,
        unless_since: i64,
    ) -> Result<bool> {
        on_pool!(&self.writer, c => sqlx::query(
            "INSERT INTO channel_state (channel, key, value, updated_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (channel, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
             WHERE channel_state.updated_at < $5",
        )
        .bind(channel)
        .bind(key)
        .bind(super::text(value))
        .bind(now_ms)
        .bind(unless_since)
        .execute(c)
        .await
        .map(|r| r.rows_affected() == 1))
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::testing::backends;

    /// A value set is read back, by this store and by another opened on the same database
    /// afterwards (SQLite's inline writer commits it to the file), and setting it again
    /// replaces it.
    #[tokio::test]
    async fn a_value_set_is_read_back_and_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("state.db").display());
        let mut stores = backends().await;
        stores.push(Store::open(&url).await.unwrap());
        for store in stores {
            assert_eq!(store.channel_state("telegram", "k").await.unwrap(), None);
            store
                .set_channel_state("telegram", "k", "41")
                .await
                .unwrap();
            store
                .set_channel_state("telegram", "k", "42")
                .await
                .unwrap();
            store.set_channel_state("discord", "k", "7").await.unwrap();
            let read = store.channel_state("telegram", "k").await.unwrap();
            assert_eq!(read.as_deref(), Some("42"), "{:?}", store.backend());
            let read = store.channel_state("discord", "k").await.unwrap();
            assert_eq!(read.as_deref(), Some("7"), "{:?}", store.backend());
        }
        let reopened = Store::open(&url).await.unwrap();
        let read = reopened.channel_state("telegram", "k").await.unwrap();
        assert_eq!(read.as_deref(), Some("42"));
    }
}
