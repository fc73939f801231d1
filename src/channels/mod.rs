//! Channels: where messages come from and replies go. Each turns its platform's updates into
//! [`IncomingMessage`](crate::agent::IncomingMessage)s for the one agent loop.

pub mod access;
pub mod split;
pub mod telegram;
pub mod terminal;

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
