//! "remember …" straight into structured memory, without a model call.

use super::{Agent, Reply, ReplyKind, TurnContext};
use crate::memory::dedup::JACCARD_THRESHOLD;
use crate::memory::quality;
use crate::memory::remember::{self, MAX_REMEMBER_CHARS};
use crate::store::{MemoryScope, NewMemory, Source};

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
    let reply = |text: String| {
        Ok(Some(Reply {
            text,
            kind: ReplyKind::Remembered,
        }))
    };
    let chars = req.content.chars().count();
    if chars > MAX_REMEMBER_CHARS {
        return reply(format!(
            "That is too long to remember as one fact ({chars} characters; the limit is {MAX_REMEMBER_CHARS}). Say the essentials in a sentence or two."
        ));
    }
    if quality::looks_like_secret(&req.content) {
        return reply(
            "I won't store that: it looks like a password, key or token. Keep secrets in a password manager.".into(),
        );
    }
    // In a group, a memory reaches every member's answers: any member could otherwise plant
    // "ignore previous instructions…". (In a private chat the person shapes only their own.)
    if ctx.chat.is_group && quality::reads_as_instruction(&req.content) {
        return reply(
            "I won't store that here: in a group I remember facts, and that reads as an instruction for how I should behave. Tell me the fact itself (e.g. \"the team prefers answers in French\").".into(),
        );
    }

    let scope = MemoryScope::Chat(ctx.chat.id);
    let duplicate = agent
        .store
        .near_duplicate(scope, &req.content, JACCARD_THRESHOLD)
        .await?;

    if let Some(id) = duplicate {
        agent
            .store
            .refine_memory(id, &req.content, req.category, EXPLICIT_CONFIDENCE)
            .await?;
        agent.retriever.memory_written();
        return reply(format!("Updated memory #{id}: {}", req.content));
    }
    let id = agent
        .store
        .insert_memory(&NewMemory {
            scope,
            category: req.category,
            content: req.content.clone(),
            subject: None,
            confidence: EXPLICIT_CONFIDENCE,
            source: Source::Explicit,
            source_message_ids: vec![ctx.message_id],
            created_at: None,
            last_seen_at: None,
            archived: false,
            key: None,
        })
        .await?;
    agent.retriever.memory_written();
    reply(format!("Noted. Saved memory #{id}: {}", req.content))
}
