//! A chat's public name, `CHANNEL:EXTERNAL_ID`.

use std::fmt;
use std::str::FromStr;

/// A chat's public name, `CHANNEL:EXTERNAL_ID` (e.g. `telegram:123`, `cli:default`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ChatKey {
    pub channel: String,
    pub external_id: String,
}

/// Channels a chat can belong to.
pub const CHANNELS: &[&str] = &["telegram", "discord", "web", "cli"];

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{}", describe_bad_chat_key(.0))]
pub struct BadChatKey(pub String);

fn describe_bad_chat_key(given: &str) -> String {
    let meant = given
        .split_once(':')
        .and_then(|(channel, id)| {
            super::suggest::closest(channel, CHANNELS.iter().copied()).map(|c| format!("{c}:{id}"))
        })
        .map(|key| format!(" (did you mean `{key}`?)"))
        .unwrap_or_default();
    format!(
        "`{given}` is not a chat name: expected CHANNEL:ID with CHANNEL one of telegram, discord, web, cli{meant}"
    )
}

impl ChatKey {
    pub fn new(channel: impl Into<String>, external_id: impl Into<String>) -> Self {
        Self {
            channel: channel.into(),
            external_id: external_id.into(),
        }
    }
}

impl fmt::Display for ChatKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.channel, self.external_id)
    }
}

impl FromStr for ChatKey {
    type Err = BadChatKey;
    fn from_str(s: &str) -> std::result::Result<Self, Self::Err> {
        match s.split_once(':') {
            Some((channel, id)) if CHANNELS.contains(&channel) && !id.trim().is_empty() => {
                Ok(Self::new(channel, id))
            }
            _ => Err(BadChatKey(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mistyped_channel_is_answered_with_the_chat_meant() {
        let err = "telegramm:123".parse::<ChatKey>().unwrap_err().to_string();
        assert!(err.ends_with("(did you mean `telegram:123`?)"), "{err}");
        let err = "irc:1".parse::<ChatKey>().unwrap_err().to_string();
        assert!(!err.contains("did you mean"), "{err}");
        assert_eq!(
            "web:alice".parse::<ChatKey>().unwrap(),
            ChatKey::new("web", "alice")
        );
    }
}
