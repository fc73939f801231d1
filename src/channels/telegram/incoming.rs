//! From a Telegram message to what the agent should do with it.
//!
//! A message is classified from [`Said`]: the parts of it the bot reads, whether `plain.rs`
//! read just those parts (a plain text message, in either mode) or teloxide read the whole
//! update (any other, through `lenient.rs`).

use teloxide::types::{Message, MessageEntityKind};

use super::Shared;
use crate::agent::IncomingMessage;
use crate::base::ChatKey;
use crate::channels::access::allows;
use crate::channels::intake::Decision;
use crate::store::now_ms;

/// The parts of a message the bot reads.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Said<'a> {
    pub message_id: i32,
    pub chat_id: i64,
    pub chat: ChatType,
    /// A group's title (a private chat has none).
    pub chat_title: Option<&'a str>,
    /// `None`: a channel's post.
    pub from: Option<Sender<'a>>,
    /// The text, or else the caption.
    pub text: Option<&'a str>,
    /// The marks in `text` that may address the bot; no others.
    pub marks: Vec<Mark>,
    /// The sender of the message it replies to.
    pub replies_to: Option<u64>,
    /// When it was sent, in ms.
    pub sent_at: i64,
    /// The forum topic it was posted in.
    pub topic: Option<i32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ChatType {
    Private,
    Group,
    Supergroup,
    Channel,
}

#[derive(Debug, PartialEq, Eq)]
pub(super) struct Sender<'a> {
    pub id: u64,
    pub is_bot: bool,
    pub first_name: &'a str,
    pub last_name: Option<&'a str>,
    pub username: Option<&'a str>,
}

impl Sender<'_> {
    /// As teloxide's `User::full_name`.
    fn full_name(&self) -> String {
        match self.last_name {
            Some(last) => format!("{} {last}", self.first_name),
            None => self.first_name.to_string(),
        }
    }
}

/// An entity of the text that may address the bot (offsets and lengths in UTF-16 units).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Mark {
    Mention { offset: usize, length: usize },
    TextMention { user: u64 },
    BotCommand { offset: usize, length: usize },
}

impl Mark {
    fn of(kind: &MessageEntityKind, offset: usize, length: usize) -> Option<Self> {
        match kind {
            MessageEntityKind::Mention => Some(Mark::Mention { offset, length }),
            MessageEntityKind::TextMention { user } => Some(Mark::TextMention { user: user.id.0 }),
            MessageEntityKind::BotCommand => Some(Mark::BotCommand { offset, length }),
            _ => None,
        }
    }
}

impl<'a> From<&'a Message> for Said<'a> {
    fn from(m: &'a Message) -> Self {
        let chat = &m.chat;
        let (text, entities) = match (m.text(), m.caption()) {
            (Some(t), _) => (Some(t), m.entities().unwrap_or_default()),
            (None, Some(c)) => (Some(c), m.caption_entities().unwrap_or_default()),
            (None, None) => (None, &[][..]),
        };
        Said {
            message_id: m.id.0,
            chat_id: chat.id.0,
            chat: if chat.is_private() {
                ChatType::Private
            } else if chat.is_group() {
                ChatType::Group
            } else if chat.is_supergroup() {
                ChatType::Supergroup
            } else {
                ChatType::Channel
            },
            chat_title: chat.title(),
            from: m.from.as_ref().map(|u| Sender {
                id: u.id.0,
                is_bot: u.is_bot,
                first_name: &u.first_name,
                last_name: u.last_name.as_deref(),
                username: u.username.as_deref(),
            }),
            text,
            marks: entities
                .iter()
                .filter_map(|e| Mark::of(&e.kind, e.offset, e.length))
                .collect(),
            replies_to: m
                .reply_to_message()
                .and_then(|r| r.from.as_ref())
                .map(|u| u.id.0),
            sent_at: m.date.timestamp_millis(),
            topic: m.thread_id.filter(|_| m.is_topic_message).map(|t| t.0.0),
        }
    }
}

pub(super) fn classify(shared: &Shared, m: &Said<'_>) -> Decision {
    let Some(from) = m.from.as_ref() else {
        tracing::debug!(
            chat = m.chat_id,
            "telegram: a message without a sender (a channel's post) ignored"
        );
        return Decision::Ignore;
    };
    if from.is_bot {
        return Decision::Ignore; // other bots, and our own echoes
    }
    let is_group = matches!(m.chat, ChatType::Group | ChatType::Supergroup);
    let is_private = m.chat == ChatType::Private;
    if !is_private && !is_group {
        return Decision::Ignore; // channels
    }
    let user_id = from.id.to_string();
    if is_private && !allows(&shared.config.allowed_user_ids, &user_id) {
        return Decision::Stranger { user_id };
    }
    if is_group && !allows(&shared.config.allowed_groups, &m.chat_id.to_string()) {
        return Decision::Ignore;
    }
    let addressed = !is_group || mentions_bot(shared, m) || replies_to_bot(shared, m);
    let Some(text) = m.text else {
        return if addressed {
            Decision::TextOnly
        } else {
            Decision::Ignore
        };
    };
    // Messages from while the bot was down are kept, but answered only if still fresh.
    let sent_at = m.sent_at;
    let fresh = now_ms() - sent_at <= i64::from(shared.config.answer_backlog_mins) * 60_000;
    let sender_name = match from.username {
        Some(u) if from.first_name.trim().is_empty() => u.to_string(),
        _ => from.full_name(),
    };
    Decision::Message(IncomingMessage {
        chat: ChatKey::new("telegram", m.chat_id.to_string()),
        chat_title: m.chat_title.map(str::to_string),
        sender_id: user_id,
        sender_name,
        text: text.to_string(),
        is_group,
        addressed: addressed && fresh,
        platform_message_id: Some(m.message_id.to_string()),
        // Only forum topics take a thread id when sending; reply threads elsewhere do not.
        platform_thread_id: m.topic.map(|t| t.to_string()),
        sent_at: Some(sent_at),
    })
}

fn mentions_bot(shared: &Shared, m: &Said<'_>) -> bool {
    if shared.username.is_empty() {
        return false;
    }
    let handle = format!("@{}", shared.username);
    let Some(text) = m.text else {
        return false;
    };
    // Entities come from the sender's client: their offsets are not trusted (teloxide's own
    // `MessageEntityRef::text` panics on one past the text), so they are sliced with checks.
    let by_entity = m.marks.iter().any(|mark| match *mark {
        Mark::Mention { offset, length } => {
            entity_text(text, offset, length).is_some_and(|t| t.eq_ignore_ascii_case(&handle))
        }
        Mark::TextMention { user } => user == shared.bot_id.0,
        // "/memories@mneme_bot" addresses the bot too
        Mark::BotCommand { offset, length } => {
            entity_text(text, offset, length).is_some_and(|t| t.to_lowercase().ends_with(&handle))
        }
    });
    by_entity || contains_handle(text, &handle)
}

/// The part of `text` an entity covers (`offset` and `length` in UTF-16 code units, as
/// Telegram counts), or `None` when it does not lie on character boundaries inside the text.
fn entity_text(text: &str, offset: usize, length: usize) -> Option<&str> {
    let end_units = offset.checked_add(length)?;
    let (mut start, mut end) = (None, None);
    let mut units = 0;
    for (i, c) in text.char_indices() {
        if units == offset {
            start = Some(i);
        }
        if units == end_units {
            end = Some(i);
        }
        units += c.len_utf16();
    }
    if units == offset {
        start = Some(text.len());
    }
    if units == end_units {
        end = Some(text.len());
    }
    text.get(start?..end?)
}

/// `@name` as a whole word, case-insensitively (clients that send no entities).
fn contains_handle(text: &str, handle: &str) -> bool {
    let lower = text.to_lowercase();
    lower.match_indices(handle).any(|(i, _)| {
        let after = lower[i + handle.len()..].chars().next();
        !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

fn replies_to_bot(shared: &Shared, m: &Said<'_>) -> bool {
    m.replies_to == Some(shared.bot_id.0)
}

#[cfg(test)]
mod tests {
    use super::{contains_handle, entity_text};

    #[test]
    fn entities_are_sliced_by_utf16_units_and_never_past_the_text() {
        assert_eq!(entity_text("hi @bot!", 3, 4), Some("@bot"));
        // 😀 is two UTF-16 units
        assert_eq!(entity_text("😀 @bot", 3, 4), Some("@bot"));
        assert_eq!(entity_text("😀 @bot", 1, 2), None, "inside a character");
        assert_eq!(
            entity_text("\u{202e}\u{202e}", 157, 3),
            None,
            "past the text"
        );
        assert_eq!(entity_text("abc", 0, usize::MAX), None);
        assert_eq!(entity_text("abc", 3, 0), Some(""));
    }

    #[test]
    fn handles_are_whole_words() {
        assert!(contains_handle("hey @Mneme_Bot, hi", "@mneme_bot"));
        assert!(contains_handle("@mneme_bot", "@mneme_bot"));
        assert!(!contains_handle("@mneme_bot2 hi", "@mneme_bot"));
        assert!(!contains_handle("mail x@mneme_botty", "@mneme_bot"));
    }
}
