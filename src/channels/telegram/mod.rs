//! Telegram: long polling with teloxide against `channels.telegram.api_url`.
//!
//! Exactly once across restarts: each update's message is stored (deduplicated by chat and
//! message id) before the update offset is saved, and a message owed an answer keeps that
//! mark until the answer was delivered — on start-up, owed answers younger than
//! `answer_backlog_mins` are given. Each chat has its own worker, so answers within a chat
//! keep their order while chats run concurrently.

mod format;
mod incoming;
mod send;

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use teloxide::RequestError;
use teloxide::prelude::*;
use teloxide::types::{AllowedUpdate, BotCommand, UpdateKind};
use tokio_util::sync::CancellationToken;

use super::access::StrangerNotices;
use super::intake::{Acted, retry_until};
use super::workers::ChatWorkers;
use super::{Channel, intake, redact};
use crate::agent::Agent;
use crate::config::TelegramConfig;

pub use format::to_html;

const CHANNEL: &str = "telegram";
/// Seconds a getUpdates call waits for news (teloxide's client gives up after 17 s).
const POLL_TIMEOUT_SECS: u32 = 10;
const OFFSET_KEY: &str = "next_update_id";
/// The backoff reached after three failed polls in a row: the channel counts as down.
const PERSISTENT_FAILURE: Duration = Duration::from_secs(4);

pub struct TelegramChannel {
    config: TelegramConfig,
    bot: Bot,
}

/// What the poll loop and the chat workers share.
struct Shared {
    bot: Bot,
    agent: Arc<Agent>,
    config: TelegramConfig,
    /// Bot's @username (without @), lowercase, and user id: to see mentions and replies.
    username: String,
    bot_id: UserId,
    notices: StrangerNotices,
    /// The token, to scrub it from error texts (teloxide's URLs contain it).
    token: String,
}

impl Shared {
    fn redact(&self, e: &dyn std::fmt::Display) -> String {
        redact(&e.to_string(), &self.token)
    }
}

impl TelegramChannel {
    pub fn new(config: &TelegramConfig) -> anyhow::Result<Self> {
        let url = reqwest::Url::parse(&config.api_url)
            .map_err(|e| anyhow::anyhow!("channels.telegram.api_url: {e}"))?;
        let bot = Bot::new(config.bot_token.expose()).set_api_url(url);
        Ok(Self {
            config: config.clone(),
            bot,
        })
    }

    /// getMe, retried with backoff until it answers or we are told to stop.
    async fn whoami(
        &self,
        shutdown: &CancellationToken,
    ) -> anyhow::Result<Option<teloxide::types::Me>> {
        let mut wait = Duration::from_secs(1);
        loop {
            match self.bot.get_me().await {
                Ok(me) => return Ok(Some(me)),
                Err(RequestError::Api(e)) => {
                    // A wrong token does not heal by retrying.
                    anyhow::bail!(
                        "telegram: getMe was refused ({e}); check channels.telegram.bot_token"
                    );
                }
                Err(e) => {
                    tracing::warn!(error = %redact(&e.to_string(), self.config.bot_token.expose()), ?wait, "telegram: getMe failed; retrying");
                }
            }
            tokio::select! {
                () = tokio::time::sleep(wait) => {}
                () = shutdown.cancelled() => return Ok(None),
            }
            wait = (wait * 2).min(Duration::from_secs(30));
        }
    }
}

#[async_trait]
impl Channel for TelegramChannel {
    fn name(&self) -> &'static str {
        CHANNEL
    }

    async fn run(&self, agent: Arc<Agent>, shutdown: CancellationToken) -> anyhow::Result<()> {
        let Some(me) = self.whoami(&shutdown).await? else {
            return Ok(());
        };
        let shared = Arc::new(Shared {
            bot: self.bot.clone(),
            username: me.user.username.clone().unwrap_or_default().to_lowercase(),
            bot_id: me.user.id,
            agent,
            config: self.config.clone(),
            notices: StrangerNotices::new(CHANNEL),
            token: self.config.bot_token.expose().to_string(),
        });
        tracing::info!(bot = %shared.username, "telegram: connected");
        shared.agent.channel_status().connected(CHANNEL);
        register_commands(&shared).await;

        let answerer = shared.clone();
        let group_rate = shared.agent.config().group_rate_limit_per_min;
        let mut workers = ChatWorkers::new(CHANNEL, move |pending| {
            let shared = answerer.clone();
            async move { send::answer(&shared, &pending).await }
        })
        .with_group_rate(group_rate);
        // Answers owed from before the restart (a crash between storing and delivering).
        workers
            .dispatch_owed(&shared.agent, self.config.answer_backlog_mins, &shutdown)
            .await;
        poll(&shared, &mut workers, &shutdown).await;
        workers.drain().await;
        Ok(())
    }
}

async fn register_commands(shared: &Shared) {
    let commands = [
        ("memories", "What I remember in this chat"),
        ("forget", "Forget one memory: /forget ID"),
        ("reset", "Start a fresh conversation (memories stay)"),
        ("usage", "Tokens used in this chat"),
        ("help", "What I can do"),
    ]
    .map(|(c, d)| BotCommand::new(c, d));
    if let Err(e) = shared.bot.set_my_commands(commands).await {
        tracing::warn!(error = %shared.redact(&e), "telegram: setMyCommands failed; commands still work, they are just not listed");
    }
}

/// The long-polling loop: updates in, stored, dispatched; the offset saved after each batch.
/// The offset moves only past updates whose messages are stored: while the database is busy
/// the loop waits on the update at hand (and Telegram keeps the rest), and at shutdown an
/// update not stored yet is left for Telegram to give again.
async fn poll(shared: &Arc<Shared>, workers: &mut ChatWorkers, shutdown: &CancellationToken) {
    let store = shared.agent.store();
    let read = retry_until("read the Telegram offset", shutdown, || {
        store.channel_state(CHANNEL, OFFSET_KEY)
    })
    .await;
    let Some(saved) = read else { return };
    let mut offset: i32 = saved.and_then(|v| v.parse().ok()).unwrap_or(0);
    let mut backoff = Duration::from_secs(1);
    loop {
        let request = shared
            .bot
            .get_updates()
            .offset(offset)
            .timeout(POLL_TIMEOUT_SECS)
            .allowed_updates([AllowedUpdate::Message, AllowedUpdate::EditedMessage]);
        let result = tokio::select! {
            r = request.send() => r,
            () = shutdown.cancelled() => return,
        };
        let wait = match result {
            Ok(updates) => {
                backoff = Duration::from_secs(1);
                shared.agent.channel_status().connected(CHANNEL);
                let Some(last) = updates.last().map(|u| u.id.0) else {
                    continue;
                };
                for update in updates {
                    if on_update(shared, workers, update, shutdown).await == Acted::NotStored {
                        return;
                    }
                }
                offset = next_offset(last);
                if !save_offset(shared, offset, shutdown).await {
                    return;
                }
                continue;
            }
            Err(RequestError::RetryAfter(secs)) => {
                tracing::warn!(
                    secs = secs.seconds(),
                    "telegram: rate limited on getUpdates"
                );
                secs.duration()
            }
            Err(RequestError::InvalidJson { raw, .. }) => {
                // A batch teloxide cannot read at all: skip past it rather than loop on it.
                match max_update_id(&raw) {
                    Some(last) => {
                        tracing::warn!(last, "telegram: skipping an unreadable batch of updates");
                        offset = next_offset(last);
                        if !save_offset(shared, offset, shutdown).await {
                            return;
                        }
                        continue;
                    }
                    None => {
                        tracing::warn!("telegram: unreadable getUpdates answer");
                        next_backoff(&mut backoff)
                    }
                }
            }
            Err(e) => {
                tracing::warn!(error = %shared.redact(&e), "telegram: getUpdates failed; retrying");
                if backoff >= PERSISTENT_FAILURE {
                    let why = "getUpdates keeps failing (see the log)";
                    shared.agent.channel_status().down(CHANNEL, why);
                }
                next_backoff(&mut backoff)
            }
        };
        tokio::select! {
            () = tokio::time::sleep(wait) => {}
            () = shutdown.cancelled() => return,
        }
    }
}

/// Saves the offset, retrying while the database is busy; `false` at shutdown (the updates
/// it would have confirmed are stored, so getting them again is harmless).
async fn save_offset(shared: &Shared, offset: i32, shutdown: &CancellationToken) -> bool {
    let store = shared.agent.store();
    let value = offset.to_string();
    retry_until("save the Telegram offset", shutdown, || {
        store.set_channel_state(CHANNEL, OFFSET_KEY, &value)
    })
    .await
    .is_some()
}

fn next_offset(last_update_id: u32) -> i32 {
    i32::try_from(last_update_id)
        .unwrap_or(i32::MAX - 1)
        .saturating_add(1)
}

fn next_backoff(backoff: &mut Duration) -> Duration {
    let wait = *backoff;
    *backoff = (*backoff * 2).min(Duration::from_secs(30));
    wait
}

/// The largest `update_id` in a raw getUpdates answer, if any can be found.
fn max_update_id(raw: &str) -> Option<u32> {
    let v: serde_json::Value = serde_json::from_str(raw).ok()?;
    v.get("result")?
        .as_array()?
        .iter()
        .filter_map(|u| u.get("update_id")?.as_u64())
        .filter_map(|id| u32::try_from(id).ok())
        .max()
}

async fn on_update(
    shared: &Arc<Shared>,
    workers: &mut ChatWorkers,
    update: Update,
    shutdown: &CancellationToken,
) -> Acted {
    let message = match update.kind {
        UpdateKind::Message(m) => m,
        UpdateKind::EditedMessage(m) => {
            tracing::debug!(
                chat = m.chat.id.0,
                "telegram: edited message ignored (the original was handled)"
            );
            return Acted::Done;
        }
        UpdateKind::Error(_) => {
            tracing::warn!(
                update = update.id.0,
                "telegram: an update teloxide could not read was skipped"
            );
            return Acted::Done;
        }
        _ => return Acted::Done,
    };
    let decision = intake::classify_safely(CHANNEL, || incoming::classify(shared, &message));
    let chat_id = message.chat.id;
    let notify = async |text: &str| send::plain(shared, chat_id, text).await;
    let key = "channels.telegram.allowed_user_ids";
    intake::act(
        &shared.agent,
        &shared.notices,
        workers,
        decision,
        key,
        notify,
        shutdown,
    )
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unreadable_batches_are_skipped_by_their_ids() {
        assert_eq!(
            max_update_id(r#"{"ok":true,"result":[{"update_id":5},{"update_id":9,"x":1}]}"#),
            Some(9)
        );
        assert_eq!(max_update_id(r#"{"ok":true,"result":[{"nope":1}]}"#), None);
        assert_eq!(max_update_id("garbage"), None);
        assert_eq!(next_offset(9), 10);
    }

    #[test]
    fn tokens_are_scrubbed() {
        let t = "123456:ABCDEF";
        assert_eq!(
            redact(
                "error sending request for url (http://x/bot123456:ABCDEF/GetMe)",
                t
            ),
            "error sending request for url (http://x/bot[token]/GetMe)"
        );
    }
}
