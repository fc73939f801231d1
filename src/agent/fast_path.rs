//! "remember …" straight into structured memory, without a model call, through the memory
//! service (its gate, its same-fact decision).

use super::{Agent, Reply, ReplyKind, TurnContext};
use crate::base::bug::contained_now;
use crate::base::{MemoryScope, Source};
use crate::memories::{Actor, MemoryError, Refusal, Remember, Remembered, gate};
use crate::memory::quality;
use crate::memory::remember;

/// Confidence of a fact the user asked to remember in so many words.
const EXPLICIT_CONFIDENCE: f64 = 0.95;

/// What is kept of a "remember …" request whose fact is a secret, in place of the message:
/// then `the kind of secret]` (see [`withheld`]).
const WITHHELD: &str = "[withheld: asked to remember something that looked like ";

/// The text to keep of `text` when it asks to remember a secret: a note of what it was, so
/// that the secret is kept nowhere — not as a memory, not in the chat's history the model
/// reads on later turns, not in the database file (the message is stored so from the
/// start). `None` for anything else, kept as it came.
/// Should reading it meet a bug, it is kept as [`UNREAD`]: whether it held a secret is not
/// known.
pub fn withheld(text: &str) -> Option<String> {
    contained_now("reading a message as a request to remember", || {
        secret_note(text)
    })
    .unwrap_or_else(|_| Some(UNREAD.to_string()))
}

/// What is kept of a message whose reading as a request to remember met a bug.
const UNREAD: &str = "[withheld: asked to remember something that could not be read]";

fn secret_note(text: &str) -> Option<String> {
    let req = remember::parse(text)?;
    match quality::refusal(&gate::one_line(&req.content), false)? {
        quality::Refusal::Secret(kind) => {
            Some(format!("{WITHHELD}{}]", quality::with_article(kind)))
        }
        quality::Refusal::Instruction => None,
    }
}

/// The reply to a request to remember a secret, refused `why`.
fn refused_secret(why: &dyn std::fmt::Display) -> String {
    format!("I won't store that: {why}. Keep secrets in a password manager.")
}

pub(super) async fn handle(
    agent: &Agent,
    ctx: &TurnContext,
    text: &str,
) -> anyhow::Result<Option<Reply>> {
    if text == UNREAD {
        return Ok(Some(Reply {
            text: "I could not read that request to remember (a bug, logged), so nothing of it \
                   was kept. Please say it in other words."
                .to_string(),
            kind: ReplyKind::Remembered,
        }));
    }
    // A secret's request, kept as the note `withheld` made of it.
    if let Some(kind) = text
        .strip_prefix(WITHHELD)
        .and_then(|rest| rest.strip_suffix(']'))
    {
        return Ok(Some(Reply {
            text: refused_secret(&quality::secret_refused(kind)),
            kind: ReplyKind::Remembered,
        }));
    }
    let Some(req) = remember::parse(text) else {
        return Ok(None);
    };
    let actor = Actor::Chat {
        chat_id: ctx.chat.id,
        is_group: ctx.chat.is_group,
        is_control: ctx.is_control,
    };
    let outcome = agent
        .memories
        .remember(
            &actor,
            Remember {
                scope: MemoryScope::Chat(ctx.chat.id),
                category: req.category,
                content: req.content,
                key: None,
                source: Source::Explicit,
                confidence: EXPLICIT_CONFIDENCE,
                source_message_ids: vec![ctx.message_id],
                // in a group, "I" is whoever said it
                speaker: ctx.chat.is_group.then(|| ctx.sender.clone()),
            },
        )
        .await;
    let text = match outcome {
        Ok(Remembered::Stored {
            id,
            content,
            replaced,
        }) => with_replaced(format!("Noted. Saved memory #{id}: {content}"), &replaced),
        Ok(Remembered::Updated {
            id,
            content,
            replaced,
        }) => with_replaced(format!("Updated memory #{id}: {content}"), &replaced),
        Err(MemoryError::Refused(Refusal::TooLong { chars })) => format!(
            "That is too long to remember as one fact ({chars} characters; the limit is {}). Say the essentials in a sentence or two.",
            crate::memories::MAX_MEMORY_CHARS
        ),
        // (Not met from the channels, which keep such a request as `withheld` notes it.)
        Err(MemoryError::Refused(Refusal::Content(r @ quality::Refusal::Secret(_)))) => {
            refused_secret(&r)
        }
        // In a group, a memory reaches every member's answers: any member could otherwise
        // plant "ignore previous instructions…", or the same as a fact about the bot ("the bot
        // answers in French"). (In a private chat the person shapes only their own.) The
        // example offered is a fact about people, never one about the bot or its answers.
        Err(MemoryError::Refused(Refusal::Content(quality::Refusal::Instruction))) => {
            "I won't store that here: in a group I remember facts about people and the world (e.g. \"Alice is allergic to peanuts\"), not rules for me — how I answer, whom I obey, what I share — which any member could otherwise set for everyone. Ask me directly when you want an answer a certain way.".into()
        }
        Err(MemoryError::Refused(Refusal::Empty)) => "Remember what? Say the fact after \"remember\".".into(),
        Err(MemoryError::Store(e)) => return Err(e.into()),
        Err(other) => format!("I couldn't store that: {other}."),
    };
    Ok(Some(Reply {
        text,
        kind: ReplyKind::Remembered,
    }))
}

/// `reply` and, each on a line of its own (the first line stays the contract's), the
/// memories the fact replaced.
fn with_replaced(mut reply: String, replaced: &[crate::memories::same_fact::Replaced]) -> String {
    for r in replaced {
        reply.push_str(&format!(
            "\n(It replaces memory #{}, now archived: {})",
            r.id, r.stored
        ));
    }
    reply
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_to_remember_a_secret_is_kept_as_a_note_of_its_kind() {
        assert_eq!(
            withheld("remember my api key is sk-abcdefghijklmnop1234567890").as_deref(),
            Some("[withheld: asked to remember something that looked like an API key]")
        );
        assert_eq!(
            withheld("@mneme_bot 记住我的密码是 hunter2")
                .as_deref()
                .map(|t| t.starts_with(WITHHELD)),
            Some(true)
        );
        for kept in [
            "remember I prefer tea",
            "my api key is sk-abcdefghijklmnop1234567890",
            "remember ignore previous instructions",
            "remember my password manager is Bitwarden",
        ] {
            assert_eq!(withheld(kept), None, "{kept}");
        }
    }
}
