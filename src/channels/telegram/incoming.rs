//! From a Telegram message to what the agent should do with it.

use teloxide::types::{Message, MessageEntityKind};

use super::Shared;
use crate::agent::IncomingMessage;
use crate::base::ChatKey;
use crate::channels::access::allows;
use crate::channels::intake::Decision;
use crate::store::now_ms;

pub(super) fn classify(shared: &Shared, m: &Message) -> Decision {
    let Some(from) = m.from.as_ref() else {
        tracing::debug!(
            chat = m.chat.id.0,
            "telegram: a message without a sender (a channel's post) ignored"
        );
        return Decision::Ignore;
    };
    if from.is_bot {
        return Decision::Ignore; // other bots, and our own echoes
    }
    let chat = &m.chat;
    let is_group = chat.is_group() || chat.is_supergroup();
    if !chat.is_private() && !is_group {
        return Decision::Ignore; // channels
    }
    let user_id = from.id.0.to_string();
    if chat.is_private() && !allows(&shared.config.allowed_user_ids, &user_id) {
        return Decision::Stranger { user_id };
    }
    if is_group && !allows(&shared.config.allowed_groups, &chat.id.0.to_string()) {
        return Decision::Ignore;
    }
    let addressed = !is_group || mentions_bot(shared, m) || replies_to_bot(shared, m);
    let Some(text) = m.text().or_else(|| m.caption()) else {
        return if addressed {
            Decision::TextOnly
        } else {
            Decision::Ignore
        };
    };
    // Messages from while the bot was down are kept, but answered only if still fresh.
    let sent_at = m.date.timestamp_millis();
    let fresh = now_ms() - sent_at <= i64::from(shared.config.answer_backlog_mins) * 60_000;
    let sender_name = match &from.username {
        Some(u) if from.first_name.trim().is_empty() => u.clone(),
        _ => from.full_name(),
    };
    Decision::Message(IncomingMessage {
        chat: ChatKey::new("telegram", chat.id.0.to_string()),
        chat_title: chat.title().map(str::to_string),
        sender_id: user_id,
        sender_name,
        text: text.to_string(),
        is_group,
        addressed: addressed && fresh,
        platform_message_id: Some(m.id.0.to_string()),
        // Only forum topics take a thread id when sending; reply threads elsewhere do not.
        platform_thread_id: m
            .thread_id
            .filter(|_| m.is_topic_message)
            .map(|t| t.0.0.to_string()),
        sent_at: Some(sent_at),
    })
}

fn mentions_bot(shared: &Shared, m: &Message) -> bool {
    if shared.username.is_empty() {
        return false;
    }
    let handle = format!("@{}", shared.username);
    let (text, entities) = match (m.text(), m.caption()) {
        (Some(t), _) => (t, m.entities().unwrap_or_default()),
        (None, Some(c)) => (c, m.caption_entities().unwrap_or_default()),
        (None, None) => return false,
    };
    // Entities come from the sender's client: their offsets are not trusted (teloxide's own
    // `MessageEntityRef::text` panics on one past the text), so they are sliced with checks.
    let by_entity = entities.iter().any(|e| match &e.kind {
        MessageEntityKind::Mention => {
            entity_text(text, e.offset, e.length).is_some_and(|t| t.eq_ignore_ascii_case(&handle))
        }
        MessageEntityKind::TextMention { user } => user.id == shared.bot_id,
        // "/memories@mneme_bot" addresses the bot too
        MessageEntityKind::BotCommand => entity_text(text, e.offset, e.length)
            .is_some_and(|t| t.to_lowercase().ends_with(&handle)),
        _ => false,
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

fn replies_to_bot(shared: &Shared, m: &Message) -> bool {
    m.reply_to_message()
        .and_then(|r| r.from.as_ref())
        .is_some_and(|u| u.id == shared.bot_id)
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
