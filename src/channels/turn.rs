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
/// moment the turn ends.
pub async fn reply_text(
    agent: &Agent,
    pending: &Pending,
    typing: impl Future<Output = Infallible>,
) -> String {
    let result = tokio::select! {
        r = agent.respond(pending, None) => r,
        never = typing => match never {},
    };
    match result {
        Ok(reply) => reply.text,
        Err(e) => {
            tracing::error!(chat = %pending.chat, error = %format!("{e:#}"), "turn failed");
            TURN_FAILED.to_string()
        }
    }
}
