//! From a Discord message to what the agent should do with it.

use serenity::model::channel::{Message, MessageType};
use serenity::model::user::User;

use super::Shared;
use super::places::Place;
use crate::agent::IncomingMessage;
use crate::base::ChatKey;
use crate::channels::access::allows;
use crate::channels::intake::Decision;
use crate::store::now_ms;

/// What `m` is; `place` is its channel as looked up beforehand (`places`).
pub(super) fn classify(shared: &Shared, m: &Message, place: Option<Place>) -> Decision {
    // Discord echoes every message the bot sends back as MESSAGE_CREATE.
    if m.author.bot || m.author.id == shared.bot_id || m.webhook_id.is_some() {
        return Decision::Ignore;
    }
    // Joins, pins, "started a thread" and the like are not conversation.
    if !matches!(m.kind, MessageType::Regular | MessageType::InlineReply) {
        return Decision::Ignore;
    }
    let config = &shared.config;
    let user_id = m.author.id.to_string();
    let (is_group, addressed, chat_title) = if m.guild_id.is_none() {
        if !allows(&config.allowed_user_ids, &user_id) {
            return Decision::Stranger { user_id };
        }
        (false, true, None)
    } else {
        if config.allowed_channels.is_empty() {
            return Decision::Ignore; // no guild channel allowed (and none was looked up)
        }
        let allowed = allows(&config.allowed_channels, &m.channel_id.to_string())
            || place
                .as_ref()
                .and_then(|p| p.thread_parent)
                .is_some_and(|parent| allows(&config.allowed_channels, &parent.to_string()));
        if !allowed {
            return Decision::Ignore;
        }
        let addressed = config.no_mention || mentions_bot(shared, m) || replies_to_bot(shared, m);
        (true, addressed, place.map(|p| p.name))
    };
    let text = render_mentions(&m.content, &m.mentions);
    if text.trim().is_empty() {
        return if is_group {
            Decision::Ignore
        } else {
            Decision::TextOnly
        };
    }
    // A message replayed long after it was sent (a resume after a long outage) is kept, but
    // answered only if still fresh.
    let sent_at = (m.timestamp.unix_timestamp_nanos() / 1_000_000) as i64;
    let fresh = now_ms() - sent_at <= i64::from(config.answer_backlog_mins) * 60_000;
    Decision::Message(IncomingMessage {
        chat: ChatKey::new(super::CHANNEL, m.channel_id.to_string()),
        chat_title,
        sender_id: user_id,
        sender_name: sender_name(m),
        text,
        is_group,
        addressed: addressed && fresh,
        platform_message_id: Some(m.id.to_string()),
        // A thread is a chat of its own (its channel id), so no thread id is needed to answer.
        platform_thread_id: None,
        sent_at: Some(sent_at),
    })
}

/// The server nickname, else the display name, else the username.
fn sender_name(m: &Message) -> String {
    m.member
        .as_ref()
        .and_then(|member| member.nick.clone())
        .or_else(|| m.author.global_name.clone())
        .filter(|n| !n.trim().is_empty())
        .unwrap_or_else(|| m.author.name.clone())
}

fn mentions_bot(shared: &Shared, m: &Message) -> bool {
    let id = shared.bot_id.get();
    m.mentions.iter().any(|u| u.id == shared.bot_id)
        || m.content.contains(&format!("<@{id}>"))
        || m.content.contains(&format!("<@!{id}>"))
}

fn replies_to_bot(shared: &Shared, m: &Message) -> bool {
    m.referenced_message
        .as_ref()
        .is_some_and(|r| r.author.id == shared.bot_id)
}

/// `<@123>` / `<@!123>` of the users Discord resolved become `@username`: readable for the
/// model and the history, and the remember fast path strips a leading one.
fn render_mentions(content: &str, mentions: &[User]) -> String {
    let mut text = content.to_string();
    for u in mentions {
        let name = format!("@{}", u.name);
        text = text
            .replace(&format!("<@{}>", u.id), &name)
            .replace(&format!("<@!{}>", u.id), &name);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::render_mentions;
    use serenity::model::user::User;

    fn user(id: u64, name: &str) -> User {
        let mut u = User::default();
        u.id = id.into();
        u.name = name.to_string();
        u
    }

    #[test]
    fn resolved_mentions_become_usernames() {
        let users = [user(42, "mneme"), user(7, "bob")];
        assert_eq!(
            render_mentions("<@42> remember <@!7> likes tea; <@99> too", &users),
            "@mneme remember @bob likes tea; <@99> too"
        );
        assert_eq!(render_mentions("", &users), "");
    }
}
