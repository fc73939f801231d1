//! Channels: where messages come from and replies go. Each turns its platform's updates into
//! [`IncomingMessage`](crate::agent::IncomingMessage)s for the one agent loop.

pub mod access;
pub mod discord;
mod group_commit;
pub mod intake;
pub mod notice_out;
mod retry;
pub(crate) mod serve;
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

/// Runs `session` whenever this process holds lease `name` (the work only one replica may do
/// for the bot: Telegram's polling, the Discord gateway), until `shutdown`. While another
/// replica holds it the channel is on standby; a lost lease ends the session as a shutdown
/// would (answers in flight finish, nothing taken in is lost) and waits for the lease again.
/// On SQLite the lease is held at once: one session, ended by `shutdown`.
pub async fn run_under_lease<F, Fut>(
    agent: &Agent,
    channel: &'static str,
    name: &'static str,
    shutdown: &CancellationToken,
    mut session: F,
) -> anyhow::Result<()>
where
    F: FnMut(CancellationToken) -> Fut,
    Fut: std::future::Future<Output = anyhow::Result<()>>,
{
    let mut lease = agent.store().lease(name, shutdown.clone());
    loop {
        if !lease.is_held() {
            agent
                .channel_status()
                .standby(channel, format!("another replica holds the {name} lease"));
            tracing::info!(
                channel,
                lease = name,
                "standby: another replica holds the lease"
            );
            if !lease.acquired().await || shutdown.is_cancelled() {
                return Ok(());
            }
        }
        let stop = shutdown.child_token();
        let mut watch = lease.clone();
        let on_loss = stop.clone();
        let guard = tokio::spawn(async move {
            watch.lost().await;
            on_loss.cancel();
        });
        let result = session(stop).await;
        guard.abort();
        if shutdown.is_cancelled() || result.is_err() {
            return result;
        }
        if lease.is_held() {
            // The session ended by itself (the platform closed it): start again, not at once.
            tracing::warn!(channel, "the session ended; starting it again");
            tokio::select! {
                () = tokio::time::sleep(std::time::Duration::from_secs(1)) => {}
                () = shutdown.cancelled() => return Ok(()),
            }
        } else {
            tracing::warn!(
                channel,
                lease = name,
                "the lease was lost; this replica stands by"
            );
        }
    }
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
