//! Who may talk to the bot, and telling strangers so — once a day at most, across restarts.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::store::Store;

const DAY_MS: i64 = 86_400_000;
/// `channel_state` key prefix of the time a stranger was last told.
const NOTICE_KEY: &str = "stranger_notice:";

/// An allowlist from the config: ids, or `"*"` for everyone. Empty allows nobody.
pub fn allows(list: &[String], id: &str) -> bool {
    list.iter().any(|a| a == "*" || a == id)
}

/// Remembers which strangers were told today that the bot is private: in memory, and in the
/// store so that a restart does not tell them again.
pub struct StrangerNotices {
    channel: &'static str,
    last: Mutex<HashMap<String, i64>>,
}

impl StrangerNotices {
    pub fn new(channel: &'static str) -> Self {
        Self {
            channel,
            last: Mutex::default(),
        }
    }

    /// True when `user` has not been told within the last day (and records that they are
    /// now). A store that cannot be read or written costs at most one notice too many.
    pub async fn should_notify(&self, store: &Store, user: &str, now_ms: i64) -> bool {
        if !self.not_told_in_memory(user, now_ms) {
            return false;
        }
        let key = format!("{NOTICE_KEY}{user}");
        match store.channel_state(self.channel, &key).await {
            Ok(Some(v)) => {
                if let Ok(at) = v.parse::<i64>()
                    && now_ms - at < DAY_MS
                {
                    self.lock().insert(user.to_string(), at);
                    return false;
                }
            }
            Ok(None) => {}
            Err(e) => {
                tracing::warn!(error = %e, "stranger notices: cannot read when this user was told")
            }
        }
        let recorded = async {
            store
                .set_channel_state(self.channel, &key, &now_ms.to_string())
                .await?;
            // Strangers come and go: keep only the last day's.
            store
                .forget_channel_state(self.channel, NOTICE_KEY, now_ms - DAY_MS)
                .await
        };
        if let Err(e) = recorded.await {
            tracing::warn!(error = %e, "stranger notices: cannot record that this user was told");
        }
        true
    }

    /// The in-memory check (and record): true when not told within the last day.
    fn not_told_in_memory(&self, user: &str, now_ms: i64) -> bool {
        let mut last = self.lock();
        if last.len() > 10_000 {
            last.retain(|_, at| now_ms - *at < DAY_MS);
        }
        match last.get(user) {
            Some(at) if now_ms - at < DAY_MS => false,
            _ => {
                last.insert(user.to_string(), now_ms);
                true
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, i64>> {
        self.last.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The reply a stranger gets.
pub fn stranger_notice(user_id: &str, config_key: &str) -> String {
    format!(
        "Sorry, this bot is private. Your user id is {user_id}; the owner can let you in by adding it to {config_key}."
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allowlists() {
        let ids = vec!["42".to_string()];
        assert!(allows(&ids, "42"));
        assert!(!allows(&ids, "43"));
        assert!(!allows(&[], "42"), "empty allows nobody");
        assert!(allows(&["*".to_string()], "anyone"));
    }

    #[tokio::test]
    async fn strangers_are_told_once_a_day_even_across_restarts() {
        let store = Store::open("sqlite::memory:").await.unwrap();
        let n = StrangerNotices::new("telegram");
        assert!(n.should_notify(&store, "7", 0).await);
        assert!(!n.should_notify(&store, "7", DAY_MS - 1).await);
        assert!(n.should_notify(&store, "8", 10).await);
        // A restart: a new, empty memory, the same store.
        let after_restart = StrangerNotices::new("telegram");
        assert!(!after_restart.should_notify(&store, "7", 1_000).await);
        assert!(!after_restart.should_notify(&store, "8", 2_000).await);
        assert!(after_restart.should_notify(&store, "7", DAY_MS + 1).await);
        // Another channel's strangers are its own.
        assert!(
            StrangerNotices::new("discord")
                .should_notify(&store, "8", 3_000)
                .await
        );
    }
}
