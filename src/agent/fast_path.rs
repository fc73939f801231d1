//! "remember …" straight into structured memory, without a model call, through the memory
//! service (its gate, its same-fact decision).

use super::{Agent, Reply, ReplyKind, TurnContext};
use crate::base::{MemoryScope, Source};
use crate::memories::{Actor, MemoryError, Refusal, Remember, Remembered};
use crate::memory::quality;
use crate::memory::remember;

/// Confidence of a fact the user asked to remember in so many words.
const EXPLICIT_CONFIDENCE: f64 = 0.95;

pub(super) async fn handle(
    agent: &Agent,
    ctx: &TurnContext,
    text: &str,
) -> anyhow::Result<Option<Reply>> {
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
            },
        )
        .await;
    let text = match outcome {
        Ok(Remembered::Stored { id, content }) => format!("Noted. Saved memory #{id}: {content}"),
        Ok(Remembered::Updated { id, content }) => format!("Updated memory #{id}: {content}"),
        Err(MemoryError::Refused(Refusal::TooLong { chars })) => format!(
            "That is too long to remember as one fact ({chars} characters; the limit is {}). Say the essentials in a sentence or two.",
            crate::memories::MAX_MEMORY_CHARS
        ),
        Err(MemoryError::Refused(Refusal::Content(r @ quality::Refusal::Secret(kind)))) => {
            // Nor in the chat's history: the model would read it on later turns.
            let withheld = format!("[withheld: asked to remember something that looked like {}]", quality::with_article(kind));
            agent.store().withhold_message_text(ctx.message_id, &withheld).await?;
            format!("I won't store that: {r}. Keep secrets in a password manager.")
        }
        // In a group, a memory reaches every member's answers: any member could otherwise
        // plant "ignore previous instructions…". (In a private chat the person shapes only
        // their own.)
        Err(MemoryError::Refused(Refusal::Content(quality::Refusal::Instruction))) => {
            "I won't store that here: in a group I remember facts, and that reads as an instruction for how I should behave. Tell me the fact itself (e.g. \"the team prefers answers in French\").".into()
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
