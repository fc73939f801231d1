//! Telegram, with teloxide against `channels.telegram.api_url`: updates come by long polling
//! (`polling.rs`, the default) or, with `mode: webhook`, as Telegram's POSTs to our webhook
//! server (`webhook.rs`); either way each goes through [`on_update`].
//!
//! Exactly once across restarts: each update's message is stored (deduplicated by chat and
//! message id) before the update is acknowledged (the poll offset saved, or the webhook's
//! 200), and a message owed an answer keeps that mark until the answer was delivered — on
//! start-up, owed answers younger than `answer_backlog_mins` are given. Each chat has its own
//! worker, so answers within a chat keep their order while chats run concurrently.

mod format;
mod incoming;
mod lenient;
mod plain;
mod polling;
mod send;
mod webhook;

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use teloxide::prelude::*;
use teloxide::types::{BotCommand, UpdateKind};
use teloxide::{ApiError, RequestError};
use tokio_util::sync::CancellationToken;

use super::access::StrangerNotices;
use super::intake::Acted;
use super::notice_out::NoticeOut;
use super::workers::ChatWorkers;
use super::{Channel, intake, redact};
use crate::agent::Agent;
use crate::config::TelegramConfig;

pub use format::to_html;

const CHANNEL: &str = "telegram";
/// The backoff reached after three failed calls in a row (getUpdates, setWebhook): the
/// channel counts as down.
const PERSISTENT_FAILURE: Duration = Duration::from_secs(4);

pub struct TelegramChannel {
    config: TelegramConfig,
    bot: Bot,
    /// `mode: webhook`: its settings and the server's socket, bound by [`TelegramChannel::new`].
    webhook: Option<webhook::Webhook>,
}

/// What the update intake and the chat workers share.
struct Shared {
    bot: Bot,
    agent: Arc<Agent>,
    config: TelegramConfig,
    /// Bot's @username (without @), lowercase, and user id: to see mentions and replies.
    username: String,
    bot_id: UserId,
    notices: StrangerNotices,
    /// The notices above, and the others outside any turn, on their way.
    notice_out: NoticeOut,
    /// The token, to scrub it from error texts (teloxide's URLs contain it).
    token: String,
}

impl Shared {
    fn redact(&self, e: &dyn std::fmt::Display) -> String {
        redact(&e.to_string(), &self.token)
    }
}

impl TelegramChannel {
    /// In webhook mode this binds `webhook_listen` now, so that an address in use stops
    /// `mneme start` before anything connects anywhere.
    pub fn new(config: &TelegramConfig) -> anyhow::Result<Self> {
        let url = reqwest::Url::parse(&config.api_url)
            .map_err(|e| anyhow::anyhow!("channels.telegram.api_url: {e}"))?;
        let bot = Bot::new(config.bot_token.expose()).set_api_url(url);
        let webhook = if config.is_webhook() {
            Some(webhook::Webhook::bind(config)?)
        } else {
            None
        };
        Ok(Self {
            config: config.clone(),
            bot,
            webhook,
        })
    }

    /// getMe, retried with backoff until it answers or we are told to stop. Only a refused
    /// token stops the channel; anything else (Telegram's server errors, a network that is
    /// down, an answer that is not a Bot API answer) is retried, and `/healthz` says which.
    async fn whoami(
        &self,
        agent: &Agent,
        shutdown: &CancellationToken,
    ) -> anyhow::Result<Option<teloxide::types::Me>> {
        let mut wait = Duration::from_secs(1);
        loop {
            match self.bot.get_me().await {
                Ok(me) => return Ok(Some(me)),
                Err(RequestError::Api(ApiError::InvalidToken)) => {
                    // A wrong token does not heal by retrying.
                    anyhow::bail!(
                        "telegram: getMe was refused (the bot token is not valid); check channels.telegram.bot_token"
                    );
                }
                Err(e) => {
                    tracing::warn!(error = %redact(&e.to_string(), self.config.bot_token.expose()), ?wait, "telegram: getMe failed; retrying");
                    agent.channel_status().down(CHANNEL, get_me_failed(&e));
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

/// Why getMe failed, in words fit for `/healthz` (no token, no URL).
fn get_me_failed(e: &RequestError) -> String {
    let why = match e {
        RequestError::Api(e) => format!("Telegram answers getMe with an error ({e})"),
        RequestError::Network(_) | RequestError::Io(_) => {
            "cannot reach the Bot API at channels.telegram.api_url".to_string()
        }
        // Not JSON at all (a proxy's error page): something stands between us and the Bot API.
        RequestError::InvalidJson { raw, .. }
            if serde_json::from_str::<serde_json::Value>(raw).is_err() =>
        {
            "the answer at channels.telegram.api_url is not the Bot API's (a web page: a proxy in the way, or the wrong address?)".to_string()
        }
        RequestError::InvalidJson { .. } => {
            "the Bot API's answer to getMe is not one this build reads (a server of one's own must speak the current Bot API)".to_string()
        }
        RequestError::RetryAfter(_) | RequestError::MigrateToChatId(_) => {
            "Telegram asks to wait before getMe".to_string()
        }
    };
    format!("getMe failed, retrying: {why}")
}

#[async_trait]
impl Channel for TelegramChannel {
    fn name(&self) -> &'static str {
        CHANNEL
    }

    async fn run(&self, agent: Arc<Agent>, shutdown: CancellationToken) -> anyhow::Result<()> {
        if self.webhook.is_some() {
            // Every replica serves the webhook: any of them takes any update.
            return self.session(agent, shutdown).await;
        }
        // Two pollers on one token make Telegram answer 409: one replica polls.
        let polling = crate::store::TELEGRAM_POLLING;
        super::run_under_lease(&agent, CHANNEL, polling, &shutdown, |stop| {
            self.session(agent.clone(), stop)
        })
        .await
    }
}

impl TelegramChannel {
    /// Serves until `shutdown` (in polling mode also cancelled when the polling lease is
    /// lost): getMe, the owed answers, then the updates.
    async fn session(&self, agent: Arc<Agent>, shutdown: CancellationToken) -> anyhow::Result<()> {
        let Some(me) = self.whoami(&agent, &shutdown).await? else {
            return Ok(());
        };
        let shared = Arc::new(Shared {
            bot: self.bot.clone(),
            username: me.user.username.clone().unwrap_or_default().to_lowercase(),
            bot_id: me.user.id,
            agent,
            config: self.config.clone(),
            notices: StrangerNotices::new(CHANNEL),
            notice_out: NoticeOut::new(CHANNEL),
            token: self.config.bot_token.expose().to_string(),
        });
        tracing::info!(bot = %shared.username, "telegram: connected");
        if self.webhook.is_none() {
            // A webhook counts as connected once Telegram has taken it.
            shared.agent.channel_status().connected(CHANNEL);
        }
        register_commands(&shared).await;

        let answerer = shared.clone();
        let group_rate = shared.agent.config().group_rate_limit_per_min;
        let workers = ChatWorkers::new(CHANNEL, move |pending| {
            let shared = answerer.clone();
            async move { send::answer(&shared, &pending).await }
        })
        .with_group_rate(group_rate)
        .coordinated(shared.agent.clone(), self.config.answer_backlog_mins);
        // Answers owed from before the restart (a crash between storing and delivering).
        workers
            .dispatch_owed(&shared.agent, self.config.answer_backlog_mins, &shutdown)
            .await;
        match &self.webhook {
            Some(hook) => hook.serve(shared, workers, shutdown).await,
            None => {
                polling::delete_webhook(&shared, &shutdown).await;
                polling::poll(&shared, &workers, &shutdown).await;
                workers.drain().await;
                Ok(())
            }
        }
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

/// The wait before the next try, doubling `backoff` up to 30 s.
fn next_backoff(backoff: &mut Duration) -> Duration {
    let wait = *backoff;
    *backoff = (*backoff * 2).min(Duration::from_secs(30));
    wait
}

/// An update as a mode read it: a plain text message read by `plain.rs` (most updates), or
/// anything else as teloxide read it (`lenient.rs`). One an update, moved once or
/// twice on its way to the intake: the variants' sizes do not matter.
#[allow(clippy::large_enum_variant)]
enum Read {
    Plain(plain::PlainUpdate),
    Update(Update),
}

/// One update through the intake, the same in both modes: the message classified, stored and
/// its answer queued on `workers` ([`line_up`], then [`finish`]; `Acted::NotStored`: shutdown
/// came before it could be stored, so it must not be acknowledged). Edits and update kinds we
/// do not serve are done with at once.
async fn on_update(
    shared: &Arc<Shared>,
    workers: &ChatWorkers,
    update: Read,
    shutdown: &CancellationToken,
) -> Acted {
    match line_up(shared, workers, update) {
        Some(in_line) => finish(shared, workers, in_line, shutdown).await,
        None => Acted::Done,
    }
}

/// An update whose message, if any, is in line to be stored.
struct InLine {
    lined: intake::Lined,
    chat_id: ChatId,
}

impl Read {
    /// The update's id.
    fn id(&self) -> u32 {
        match self {
            Read::Plain(plain) => plain.id(),
            Read::Update(update) => update.id.0,
        }
    }
}

/// Classifies `update` and puts its message in line on `workers` (no waiting: updates are
/// stored in the order of these calls). `None`: nothing in it to act on.
fn line_up(shared: &Shared, workers: &ChatWorkers, update: Read) -> Option<InLine> {
    let update = match update {
        Read::Plain(plain) => {
            timeline!(plain.chat_id(), "received");
            return Some(line_up_said(shared, workers, &plain.said()));
        }
        Read::Update(update) => update,
    };
    let message = match update.kind {
        UpdateKind::Message(m) => {
            timeline!(m.chat.id.0, "received");
            m
        }
        UpdateKind::EditedMessage(m) => {
            tracing::debug!(
                chat = m.chat.id.0,
                "telegram: edited message ignored (the original was handled)"
            );
            return None;
        }
        UpdateKind::Error(_) => {
            tracing::warn!(
                update = update.id.0,
                "telegram: an update teloxide could not read was skipped"
            );
            return None;
        }
        _ => return None,
    };
    Some(line_up_said(
        shared,
        workers,
        &incoming::Said::from(&message),
    ))
}

/// Classifies a message and puts it in line on `workers`.
fn line_up_said(shared: &Shared, workers: &ChatWorkers, said: &incoming::Said<'_>) -> InLine {
    let decision = intake::classify_safely(CHANNEL, || incoming::classify(shared, said));
    InLine {
        lined: intake::line_up(workers, decision),
        chat_id: ChatId(said.chat_id),
    }
}

/// Waits for a lined-up update to be stored and its answer queued; tells the sender what
/// they are to be told.
async fn finish(
    shared: &Arc<Shared>,
    workers: &ChatWorkers,
    in_line: InLine,
    shutdown: &CancellationToken,
) -> Acted {
    let InLine { lined, chat_id } = in_line;
    let notify = |text: String| {
        let sender = Arc::clone(shared);
        shared
            .notice_out
            .spawn(async move { send::plain(&sender, chat_id, &text).await });
    };
    let key = "channels.telegram.allowed_user_ids";
    intake::act(
        &shared.agent,
        &shared.notices,
        workers,
        lined,
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
    fn a_web_page_for_getme_is_named_as_such() {
        let answer = |raw: &str| RequestError::InvalidJson {
            source: std::sync::Arc::new(serde_json::from_str::<u8>("x").unwrap_err()),
            raw: raw.into(),
        };
        let page = get_me_failed(&answer("<html><body>Proxy error page</body></html>"));
        assert!(page.contains("is not the Bot API's (a web page"), "{page}");
        let old = get_me_failed(&answer(r#"{"ok":true,"result":{"id":1}}"#));
        assert!(old.contains("not one this build reads"), "{old}");
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
