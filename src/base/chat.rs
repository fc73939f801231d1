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

/// Longest web conversation id.
pub const MAX_WEB_ID: usize = 64;

/// Whether `id` can name a chat of `channel`: a Telegram chat id is a nonzero integer (groups'
/// are negative), a Discord channel id a nonzero number, a web conversation 1 to
/// [`MAX_WEB_ID`] letters, digits, `-`, `_` and `.` (not only dots), a terminal conversation
/// any name without control characters.
pub fn is_external_id(channel: &str, id: &str) -> bool {
    match channel {
        "telegram" => id.parse::<i64>().is_ok_and(|n| n != 0),
        "discord" => id.parse::<u64>().is_ok_and(|n| n != 0),
        "web" => {
            !id.is_empty()
                && id.len() <= MAX_WEB_ID
                && id
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
                && !id.bytes().all(|b| b == b'.')
        }
        _ => !id.trim().is_empty() && !id.chars().any(char::is_control),
    }
}

/// What an id of `channel` looks like, for an error.
fn id_rule(channel: &str) -> &'static str {
    match channel {
        "telegram" => "a Telegram chat id is a whole number other than 0",
        "discord" => "a Discord channel id is a number other than 0",
        "web" => {
            "a web conversation id is 1 to 64 letters, digits, `-`, `_` and `.`, not only dots"
        }
        _ => "a terminal conversation's name has no control characters",
    }
}

fn describe_bad_chat_key(given: &str) -> String {
    if let Some((channel, _)) = given.split_once(':')
        && CHANNELS.contains(&channel)
    {
        return format!("`{given}` is not a chat name: {}", id_rule(channel));
    }
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
            Some((channel, id)) if CHANNELS.contains(&channel) && is_external_id(channel, id) => {
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

    #[test]
    fn each_channel_names_its_chats_its_own_way() {
        for ok in [
            "telegram:123",
            "telegram:-1001234",
            "discord:100000000000000001",
            "web:c-1a2b",
            "web:a.b_c",
            "cli:default",
            "cli:my notes",
        ] {
            assert!(ok.parse::<ChatKey>().is_ok(), "{ok}");
        }
        for (bad, says) in [
            ("telegram:abc", "whole number"),
            ("telegram:0", "whole number"),
            ("discord:-5", "Discord channel id"),
            ("web:../../etc", "web conversation id"),
            ("web:a/b", "web conversation id"),
            ("web:..", "not only dots"),
            ("cli:a\u{0}b", "control characters"),
            ("cli: ", "control characters"),
        ] {
            let err = bad.parse::<ChatKey>().unwrap_err().to_string();
            assert!(err.contains(says), "{bad}: {err}");
        }
    }
}
