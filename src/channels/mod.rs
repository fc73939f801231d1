//! Channels: where messages come from and replies go. Each turns its platform's updates into
//! [`IncomingMessage`](crate::agent::IncomingMessage)s for the one agent loop.

pub mod access;
pub mod discord;

pub mod intake;
mod retry;
pub mod split;

pub mod telegram;
pub mod terminal;
pub mod turn;
pub mod web;
pub mod workers;

use std::sync::Arc;

use async_trait::async_trait;
use tokio_util::sync::CancellationToken;

use crate::agent::Agent;

#[async_trait]
pub trait Channel: Send + Sync {
    /// `telegram`, `discord`, `web` or `cli`: the first half of its chats' names.
    fn name(&self) -> &'static str;

    /// Serves until `shutdown` is cancelled or the source ends; finishes the turn in flight.
    async fn run(&self, agent: Arc<Agent>, shutdown: CancellationToken) -> anyhow::Result<()>;
}

/// `text` with the bot token replaced, for error texts that might carry it (a URL with the
/// token in it, a proxy echoing a header). Tokens too short to be real are left alone.
pub fn redact(text: &str, token: &str) -> String {
    if token.len() >= 6 {
        text.replace(token, "[token]")
    } else {
        text.to_string()
    }
}
