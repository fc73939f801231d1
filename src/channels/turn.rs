//! The part of answering that is the same on every platform: run the turn while the typing
//! indicator is kept up, and turn a failed turn into an honest reply.

use std::convert::Infallible;
use std::future::Future;

use crate::agent::{Agent, Pending};

/// What a user is told when their turn failed; their message is stored either way.
pub const TURN_FAILED: &str =
    "Sorry, something went wrong on my side. Your message is saved; please try again.";

/// What a private chat is told about a message without text (a sticker, a bare photo, …).
pub const TEXT_ONLY: &str = "I can only read text messages for now.";

/// Runs the turn for `pending` with `typing` — a loop refreshing the platform's typing
/// indicator — beside it, and returns the text to deliver. The loop is dropped (stopped) the
/// moment the turn ends. `None`: not to be delivered from here, because the chat's turn was
/// lost meanwhile (several replicas: see [`Agent::holds_turn`]); another replica gives the
/// answer.
pub async fn reply_text(
    agent: &Agent,
    pending: &Pending,
    typing: impl Future<Output = Infallible>,
) -> Option<String> {
    let result = tokio::select! {
        r = agent.respond(pending, None) => r,
        never = typing => match never {},
    };
    let text = match result {
        Ok(reply) => reply.text,
        Err(e) => {
            tracing::error!(chat = %pending.chat, error = %format!("{e:#}"), "turn failed");
            TURN_FAILED.to_string()
        }
    };
    if !agent.holds_turn(pending).await {
        tracing::warn!(chat = %pending.chat, "the chat's turn was lost while answering (its lock connection dropped); the answer is left to the replica that holds it");
        return None;
    }
    Some(text)
}

/// How long a delivered answer's record is retried (the database busy: another process's long
/// write, such as an import) before it is left; then the answer may be given again after a
/// restart. Meanwhile the chat's next answers wait, as they would for the database anyway.
const RECORD_WITHIN: std::time::Duration = std::time::Duration::from_secs(300);

/// Records that the answer to `pending` was delivered, retrying while the database is busy:
/// a delivery not recorded would be answered again after a restart.
pub async fn record_delivery(agent: &Agent, pending: &Pending) {
    let never = tokio_util::sync::CancellationToken::new();
    let record = super::retry::retry_until("record a delivered answer", &never, || {
        agent.mark_replied(pending)
    });
    if tokio::time::timeout(RECORD_WITHIN, record).await.is_err() {
        tracing::error!(chat = %pending.chat, "could not record a delivered answer; it may be given again after a restart");
    }
}
