//! Chat commands, the same in every channel: /memories, /forget, /reset, /usage, /help.

use std::fmt::Write;

use super::{Agent, Reply, ReplyKind, TurnContext};
use crate::base::MemoryScope;
use crate::memories::MemoryError;
use crate::store::MemoryFilter;

/// Most memories `/memories` lists in one reply.
const LIST_LIMIT: usize = 50;

pub const HELP: &str = "I'm Mneme, an assistant that remembers.\n\
\n\
• Just talk to me; in groups, @mention me or reply to my message.\n\
• remember <fact> (or 记住…) saves a fact right away.\n\
• /memories — what I remember in this chat, with ids\n\
• /forget ID — delete one memory\n\
• /reset — start a fresh conversation (memories are kept)\n\
• /usage — tokens used in this chat\n\
• /help — this message";

/// The commands, for "did you mean" on a typo.
const COMMANDS: &[&str] = &[
    "memories", "forget", "reset", "new", "usage", "help", "start",
];

/// True when `text` is answered as a chat command (a known one, or an unknown one with a
/// hint): `/word…`, the word of letters, digits and `_` (so a path like /etc/hosts is not).
pub fn is_command(text: &str) -> bool {
    parse(text).is_some()
}

/// A command's name (lowercase, without the `@bot` Telegram appends in groups:
/// `/memories@mneme_bot`) and its argument, when `text` is one — after any leading mentions,
/// as a server channel writes it (`@mneme /memories`). A path like /etc/hosts or a lone slash
/// is a message, not a command.
fn parse(text: &str) -> Option<(String, &str)> {
    let rest = crate::memory::remember::strip_mentions(text.trim()).strip_prefix('/')?;
    let (word, arg) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let name = word.split('@').next().unwrap_or_default().to_lowercase();
    let is_word = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    is_word.then(|| (name, arg.trim()))
}

/// Answers `text` if it is a command; `None` lets the message go on to the fast path or model.
pub(super) async fn handle(
    agent: &Agent,
    ctx: &TurnContext,
    text: &str,
) -> anyhow::Result<Option<Reply>> {
    let Some((name, arg)) = parse(text) else {
        return Ok(None);
    };
    let text = match name.as_str() {
        "memories" => memories(agent, ctx).await?,
        "forget" => forget(agent, ctx, arg).await?,
        "reset" | "new" => {
            agent.store.start_session(ctx.chat.id).await?;
            "Started a fresh conversation. What I remember stays; /memories shows it.".to_string()
        }
        "usage" => usage(agent, ctx).await?,
        "help" => HELP.to_string(),
        "start" => format!("Hello! {HELP}"),
        other => match crate::base::suggest::closest(other, COMMANDS.iter().copied()) {
            Some(meant) => format!(
                "I don't know the command /{other}. Did you mean /{meant}? /help lists what I understand."
            ),
            None => format!("I don't know the command /{other}. /help lists what I understand."),
        },
    };
    Ok(Some(Reply {
        text,
        kind: ReplyKind::Command,
    }))
}

async fn memories(agent: &Agent, ctx: &TurnContext) -> anyhow::Result<String> {
    // At most LIST_LIMIT rows are read, however many the chat holds.
    let limit = Some(LIST_LIMIT as u32);
    let mut rows = agent
        .store
        .list_memories(&MemoryFilter {
            scope: Some(MemoryScope::Chat(ctx.chat.id)),
            limit,
            ..MemoryFilter::default()
        })
        .await?;
    rows.extend(
        agent
            .store
            .list_memories(&MemoryFilter {
                scope: Some(MemoryScope::Global),
                limit,
                ..MemoryFilter::default()
            })
            .await?,
    );
    let total = usize::try_from(agent.store.count_injectable(ctx.chat.id).await?).unwrap_or(0);
    if rows.is_empty() {
        return Ok(
            "I don't remember anything here yet. Say \"remember …\" to teach me something.".into(),
        );
    }
    let mut out = format!("What I remember here ({total}):\n");
    for m in rows.iter().take(LIST_LIMIT) {
        let scope = if m.chat_id.is_some() { "" } else { " (global)" };
        let _ = writeln!(out, "#{} [{}]{scope} {}", m.id, m.category, m.content);
    }
    if total > LIST_LIMIT {
        let _ = writeln!(
            out,
            "… and {} more (`mneme memory list --chat {}` shows all)",
            total - LIST_LIMIT,
            ctx.key
        );
    }
    out.push_str("/forget ID deletes one.");
    Ok(out)
}

async fn forget(agent: &Agent, ctx: &TurnContext, arg: &str) -> anyhow::Result<String> {
    let Ok(id) = arg.trim_start_matches('#').parse::<i64>() else {
        return Ok("Usage: /forget ID — the ids are in /memories.".into());
    };
    let actor = crate::memories::Actor::Chat {
        chat_id: ctx.chat.id,
        is_group: ctx.chat.is_group,
        is_control: ctx.is_control,
    };
    Ok(match agent.memories.forget(&actor, id).await {
        Ok(memory) => format!("Forgot memory #{id}: {}", memory.content),
        Err(MemoryError::NotFound(_)) => {
            format!("There is no memory #{id} in this chat. /memories lists the ids.")
        }
        Err(MemoryError::Forbidden(_)) => {
            format!("Memory #{id} is global; it can only be forgotten from a control chat.")
        }
        Err(e) => return Err(e.into()),
    })
}

async fn usage(agent: &Agent, ctx: &TurnContext) -> anyhow::Result<String> {
    let rows = agent.store.usage_by_chat(Some(ctx.chat.id)).await?;
    let mut out = String::new();
    if rows.is_empty() {
        out.push_str("No model calls in this chat yet.\n");
    } else {
        out.push_str("Tokens used in this chat:\n");
        for r in &rows {
            let _ = writeln!(
                out,
                "• {} ({}): {} calls, {} in / {} out",
                r.model, r.purpose, r.calls, r.input_tokens, r.output_tokens
            );
        }
    }
    if let Some(log) = agent.store.last_injection(ctx.chat.id).await? {
        let _ = writeln!(
            out,
            "Last prompt: {} of {} memories injected ({} tokens).",
            log.selected, log.candidates, log.tokens
        );
    }
    Ok(out.trim_end().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_may_follow_mentions() {
        assert_eq!(parse("/memories"), Some(("memories".into(), "")));
        assert_eq!(parse("@mneme /memories"), Some(("memories".into(), "")));
        assert_eq!(parse("<@9000> /forget 3"), Some(("forget".into(), "3")));
        assert_eq!(parse("/memories@mneme_bot"), Some(("memories".into(), "")));
        assert_eq!(parse("@mneme /etc/hosts is broken"), None);
        assert_eq!(parse("@mneme what is /reset for?"), None);
    }
}
