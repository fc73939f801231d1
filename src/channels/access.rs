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
    /// now). The record is claimed in the store in one statement, so that replicas sharing a
    /// database — each getting one of the stranger's messages at once — tell them once
    /// between them, and a restart does not tell them again. A store that cannot be written
    /// costs at most one notice too many.
    pub async fn should_notify(&self, store: &Store, user: &str, now_ms: i64) -> bool {
        if !self.not_told_in_memory(user, now_ms) {
            return false;
        }
        let key = format!("{NOTICE_KEY}{user}");
        let value = now_ms.to_string();
        match store
            .claim_channel_state(self.channel, &key, &value, now_ms, now_ms - DAY_MS)
            .await
        {
            Ok(false) => {
                // told by another replica, or before a restart: not again until a day after
                if let Ok(Some(at)) = store.channel_state(self.channel, &key).await
                    && let Ok(at) = at.parse::<i64>()
                {
                    self.lock().insert(user.to_string(), at);
                }
                return false;
            }
            Ok(true) => {}
            Err(e) => {
                tracing::warn!(error = %e, "stranger notices: cannot record that this user was told");
                return true;
            }
        }
        // Strangers come and go: keep only the last day's.
        if let Err(e) = store
            .forget_channel_state(self.channel, NOTICE_KEY, now_ms - DAY_MS)
            .await
        {
            tracing::warn!(error = %e, "stranger notices: cannot forget the old ones");
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

/// How many answers each person may ask for per minute in a group: a sliding window over the
/// times of their last requests, per chat and sender. Pure bookkeeping; the caller says what
/// "now" is.
pub struct SenderRate {
    per_min: u32,
    windows: HashMap<(String, String), Window>,
}

#[derive(Default)]
struct Window {
    /// Times of the requests allowed within the last minute.
    allowed: Vec<i64>,
    /// When the person was last told to slow down.
    told_at: Option<i64>,
}

const MINUTE_MS: i64 = 60_000;

/// What [`SenderRate::check`] decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rate {
    Allowed,
    /// Over the limit; `tell` is true once a minute at most (say so then).
    Limited {
        tell: bool,
    },
}

impl SenderRate {
    /// `per_min` 0 means no limit.
    pub fn new(per_min: u32) -> Self {
        Self {
            per_min,
            windows: HashMap::new(),
        }
    }

    pub fn check(&mut self, chat: &str, sender: &str, now_ms: i64) -> Rate {
        if self.per_min == 0 {
            return Rate::Allowed;
        }
        if self.windows.len() > 10_000 {
            self.windows
                .retain(|_, w| w.allowed.last().is_some_and(|t| now_ms - t < MINUTE_MS));
        }
        let w = self
            .windows
            .entry((chat.to_string(), sender.to_string()))
            .or_default();
        w.allowed.retain(|t| now_ms - t < MINUTE_MS);
        if w.allowed.len() < self.per_min as usize {
            w.allowed.push(now_ms);
            return Rate::Allowed;
        }
        let tell = w.told_at.is_none_or(|t| now_ms - t >= MINUTE_MS);
        if tell {
            w.told_at = Some(now_ms);
        }
        Rate::Limited { tell }
    }
}

/// What a person over the group rate limit is told, once a minute at most.
pub const SLOW_DOWN: &str = "You're asking faster than I answer in this group, so I'll skip \
     some of your messages for a minute (they are still kept as history).";

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

    #[test]
    fn each_sender_gets_a_few_answers_a_minute_per_group_and_is_told_once() {
        let mut r = SenderRate::new(2);
        assert_eq!(r.check("g", "bob", 0), Rate::Allowed);
        assert_eq!(r.check("g", "bob", 1_000), Rate::Allowed);
        assert_eq!(r.check("g", "bob", 2_000), Rate::Limited { tell: true });
        assert_eq!(r.check("g", "bob", 3_000), Rate::Limited { tell: false });
        // Others, and Bob elsewhere, are not held back by Bob here.
        assert_eq!(r.check("g", "carol", 3_000), Rate::Allowed);
        assert_eq!(r.check("h", "bob", 3_000), Rate::Allowed);
        // A minute after his first request, one slot is free again.
        assert_eq!(r.check("g", "bob", 60_000), Rate::Allowed);
        assert_eq!(r.check("g", "bob", 60_500), Rate::Limited { tell: false });
        assert_eq!(r.check("g", "bob", 61_200), Rate::Allowed);
        // Told again only a minute after the last time.
        assert_eq!(r.check("g", "bob", 62_100), Rate::Limited { tell: true });
        let mut off = SenderRate::new(0);
        assert!((0..100).all(|i| off.check("g", "bob", i) == Rate::Allowed));
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
        // Another replica on the same database, told of the same stranger at once: one
        // notice between them.
        for store in crate::store::testing::backends().await {
            let (a, b) = (
                StrangerNotices::new("telegram"),
                StrangerNotices::new("telegram"),
            );
            let (x, y) = tokio::join!(
                a.should_notify(&store, "9", 5_000),
                b.should_notify(&store, "9", 5_001)
            );
            assert!(x ^ y, "told {} times", u8::from(x) + u8::from(y));
            assert!(!a.should_notify(&store, "9", 6_000).await);
            assert!(!b.should_notify(&store, "9", 7_000).await);
        }
        // Another channel's strangers are its own.
        assert!(
            StrangerNotices::new("discord")
                .should_notify(&store, "8", 3_000)
                .await
        );
    }
}
