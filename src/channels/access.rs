//! Who may talk to the bot, and telling strangers so — once a day at most.

use std::collections::HashMap;
use std::sync::Mutex;

const DAY_MS: i64 = 86_400_000;

/// An allowlist from the config: ids, or `"*"` for everyone. Empty allows nobody.
pub fn allows(list: &[String], id: &str) -> bool {
    list.iter().any(|a| a == "*" || a == id)
}

/// Remembers which strangers were told today that the bot is private.
#[derive(Default)]
pub struct StrangerNotices {
    last: Mutex<HashMap<String, i64>>,
}

impl StrangerNotices {
    /// True when `user` has not been told within the last day (and records that they are now).
    pub fn should_notify(&self, user: &str, now_ms: i64) -> bool {
        let mut last = self.last.lock().unwrap_or_else(|p| p.into_inner());
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

    #[test]
    fn strangers_are_told_once_a_day() {
        let n = StrangerNotices::default();
        assert!(n.should_notify("7", 0));
        assert!(!n.should_notify("7", DAY_MS - 1));
        assert!(n.should_notify("8", 10));
        assert!(n.should_notify("7", DAY_MS + 1));
    }
}
