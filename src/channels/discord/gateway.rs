//! The serenity side: the REST client, the gateway connection and what its failures mean.
//!
//! serenity keeps the connection up by itself: it heartbeats, resumes a dropped session
//! (Discord then replays what was missed) and re-identifies when a resume is refused. The
//! handler here only forwards messages, so none of that can lose or double anything.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use serenity::builder::CreateAllowedMentions;
use serenity::client::{ClientBuilder, Context, EventHandler};
use serenity::gateway::ConnectionStage;
use serenity::gateway::ShardStageUpdateEvent;
use serenity::gateway::{GatewayError, ShardManager};
use serenity::http::{Http, HttpBuilder, HttpError};
use serenity::model::channel::Message;
use serenity::model::event::ResumedEvent;
use serenity::model::gateway::{GatewayIntents, Ready};
use serenity::model::user::CurrentUser;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::order::Lineup;
use super::places::Places;
use crate::channels::redact;
use crate::config::DiscordConfig;
use crate::health::ChannelStatus;

/// Discord's own host; any other `api_url` is a proxy or a test server.
const DISCORD: &str = "https://discord.com";
/// Where to switch on the privileged intent the bot needs.
const PORTAL: &str = "https://discord.com/developers/applications";
/// How long closing the gateway may take at shutdown.
const CLOSE_TIMEOUT: Duration = Duration::from_secs(3);
/// A first READY slower than this is worth a warning (serenity keeps trying meanwhile).
const READY_WARNING: Duration = Duration::from_secs(30);
/// How often the connection's stage is looked at: serenity does not always say when it drops
/// (a connection cut without a close frame whose reconnects then fail).
const STAGE_CHECK: Duration = Duration::from_secs(3);

/// Messages in guild channels and DMs, with their text (a privileged intent).
pub(super) fn intents() -> GatewayIntents {
    GatewayIntents::GUILD_MESSAGES
        | GatewayIntents::DIRECT_MESSAGES
        | GatewayIntents::MESSAGE_CONTENT
}

/// The base serenity's `HttpBuilder::proxy` wants in place of `https://discord.com`, or `None`
/// for Discord itself. serenity ignores a proxy while its rate limiter is on, so a proxy base
/// also switches the limiter off: a proxy (or a test server) is in charge of limits then.
fn proxy_base(api_url: &str) -> Option<String> {
    let url = api_url.trim().trim_end_matches('/');
    // serenity appends `/api/v10/…` itself: drop an `/api` or `/api/vN` the user wrote
    let base = match url.rsplit_once("/api/v") {
        Some((base, v)) if !v.is_empty() && v.chars().all(|c| c.is_ascii_digit()) => base,
        _ => url.strip_suffix("/api").unwrap_or(url),
    };
    (base != DISCORD).then(|| base.to_string())
}

/// A REST client with timeouts, so no call can hang the intake or a worker.
fn http(config: &DiscordConfig) -> anyhow::Result<Http> {
    let client = reqwest::Client::builder()
        .connect_timeout(Duration::from_secs(10))
        .timeout(Duration::from_secs(30))
        .build()?;
    let mut builder = HttpBuilder::new(config.bot_token.expose())
        .client(client)
        // Belt and braces: every send sets its own allowed_mentions too.
        .default_allowed_mentions(CreateAllowedMentions::new());
    if let Some(base) = proxy_base(&config.api_url) {
        builder = builder.proxy(base).ratelimiter_disabled(true);
    }
    Ok(builder.build())
}

/// The bot's own user (`GET /users/@me`), retried with backoff until it answers or we are
/// told to stop; meanwhile `status` says why the channel is down. A refused token is reported
/// at once: retrying does not heal it.
pub(super) async fn whoami(
    config: &DiscordConfig,
    status: &ChannelStatus,
    shutdown: &CancellationToken,
) -> anyhow::Result<Option<CurrentUser>> {
    let http = http(config)?;
    let mut wait = Duration::from_secs(1);
    loop {
        match http.get_current_user().await {
            Ok(me) => return Ok(Some(me)),
            Err(serenity::Error::Http(HttpError::UnsuccessfulRequest(r)))
                if r.status_code.as_u16() == 401 =>
            {
                anyhow::bail!(
                    "discord: the bot token was refused (401 Unauthorized); check channels.discord.bot_token or MNEME_DISCORD_BOT_TOKEN (Developer Portal → your application → Bot → Reset Token)"
                );
            }
            Err(e) => {
                let error = redact(&e.to_string(), config.bot_token.expose());
                tracing::warn!(%error, ?wait, "discord: GET /users/@me failed; retrying");
                let why = match &e {
                    serenity::Error::Http(HttpError::UnsuccessfulRequest(r)) => {
                        format!("Discord answers it with {}", r.status_code)
                    }
                    serenity::Error::Http(HttpError::Request(_)) => {
                        "cannot reach Discord's API (channels.discord.api_url)".to_string()
                    }
                    _ => "see the log".to_string(),
                };
                status.down(
                    super::CHANNEL,
                    format!("GET /users/@me failed, retrying: {why}"),
                );
            }
        }
        tokio::select! {
            () = tokio::time::sleep(wait) => {}
            () = shutdown.cancelled() => return Ok(None),
        }
        wait = (wait * 2).min(Duration::from_secs(30));
    }
}

/// Forwards messages to the intake loop; everything else is logging. Each call runs as its
/// own task (serenity's choice), so this does nothing that could race; the order of a
/// channel's messages is kept by `order`.
struct Handler {
    /// Where messages go, in Discord's order within a channel (`order`).
    lineup: Arc<Lineup>,
    ready: watch::Sender<bool>,
    /// Told of every READY: a session started afresh, which replays nothing (`catch_up`).
    readies: mpsc::UnboundedSender<()>,
    status: Arc<ChannelStatus>,
    places: Arc<Places>,
    allowed_channels: Vec<String>,
}

#[async_trait]
impl EventHandler for Handler {
    async fn message(&self, _ctx: Context, message: Message) {
        // Here, in this event's own task, not in the intake loop: see `places`.
        let place = self
            .places
            .for_message(&message, &self.allowed_channels)
            .await;
        // Fails only once the intake has closed at shutdown; the message is then Discord's
        // to forget, as any message sent while the bot is down.
        self.lineup.deliver((message, place));
    }

    /// Comes after IDENTIFY — at start, and again whenever serenity had to re-identify — so it
    /// only reports, and gives the shard the collector that keeps the order (`order`).
    async fn ready(&self, ctx: Context, ready: Ready) {
        ctx.shard.add_collector(self.lineup.collector());
        tracing::info!(bot = %ready.user.name, guilds = ready.guilds.len(), "discord: gateway ready");
        self.ready.send_replace(true);
        self.status.connected(super::CHANNEL);
        let _ = self.readies.send(());
    }

    async fn resume(&self, _ctx: Context, _: ResumedEvent) {
        tracing::info!("discord: gateway session resumed");
        self.status.connected(super::CHANNEL);
    }

    /// A connection that drops is down until serenity has it back (READY or RESUMED).
    async fn shard_stage_update(&self, _ctx: Context, event: ShardStageUpdateEvent) {
        if event.old == ConnectionStage::Connected && event.new != ConnectionStage::Connected {
            self.status
                .down(super::CHANNEL, "gateway connection lost; reconnecting");
        }
    }
}

/// The running gateway connection.
pub(super) struct Gateway {
    http: Arc<Http>,
    shards: Arc<ShardManager>,
    task: Option<JoinHandle<Result<(), serenity::Error>>>,
    /// [`watch_stage`], ended with the connection.
    watch: JoinHandle<()>,
}

impl Drop for Gateway {
    fn drop(&mut self) {
        self.watch.abort();
    }
}

/// Marks Discord down once the connection has been anything but connected at two looks in a
/// row, after it was first ready: serenity reports a drop it sees (`shard_stage_update`), but
/// not one whose reconnects fail quietly (the network cut, the gateway refusing the upgrade).
/// READY or RESUMED marks it connected again.
async fn watch_stage(
    shards: Arc<ShardManager>,
    was_ready: watch::Receiver<bool>,
    status: Arc<ChannelStatus>,
) {
    let mut tick = tokio::time::interval(STAGE_CHECK);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut away = 0u32;
    loop {
        tick.tick().await;
        let connected = (shards.runners.lock().await)
            .values()
            .any(|r| r.stage == ConnectionStage::Connected);
        away = if connected { 0 } else { away + 1 };
        if away == 2 && *was_ready.borrow() {
            status.down(super::CHANNEL, "gateway connection lost; reconnecting");
        }
    }
}

impl Gateway {
    /// Asks `GET /gateway` where to connect (serenity does) and starts the connection.
    pub(super) async fn connect(
        config: &DiscordConfig,
        lineup: Arc<Lineup>,
        readies: mpsc::UnboundedSender<()>,
        status: Arc<ChannelStatus>,
        places: Arc<Places>,
    ) -> anyhow::Result<Self> {
        // One REST client (ours: timeouts, proxy) for the gateway code and for us, so rate
        // limits are tracked in one place.
        let (ready, mut is_ready) = watch::channel(false);
        let was_ready = ready.subscribe();
        let watched_status = status.clone();
        let mut client = ClientBuilder::new_with_http(http(config)?, intents())
            .event_handler(Handler {
                lineup,
                ready,
                readies,
                status,
                places: places.clone(),
                allowed_channels: config.allowed_channels.clone(),
            })
            .await
            .map_err(|e| {
                let e = redact(&e.to_string(), config.bot_token.expose());
                anyhow::anyhow!("discord: cannot set up the client: {e}")
            })?;
        let http = client.http.clone();
        places.set_http(http.clone());
        let shards = client.shard_manager.clone();
        let task = tokio::spawn(async move { client.start().await });
        let watch = tokio::spawn(watch_stage(shards.clone(), was_ready, watched_status));
        // serenity retries a gateway it cannot reach quietly, every few seconds: say so once.
        tokio::spawn(async move {
            let first_ready = is_ready.wait_for(|ready| *ready);
            if tokio::time::timeout(READY_WARNING, first_ready)
                .await
                .is_err()
            {
                tracing::warn!(
                    "discord: no gateway connection after {READY_WARNING:?}; still trying (is the gateway reachable from here?)"
                );
            }
        });
        Ok(Self {
            http,
            shards,
            task: Some(task),
            watch,
        })
    }

    pub(super) fn http(&self) -> Arc<Http> {
        self.http.clone()
    }

    /// Resolves when the connection has ended for good: an error only a person can fix.
    pub(super) async fn finished(&mut self) -> anyhow::Result<()> {
        let Some(task) = self.task.as_mut() else {
            return std::future::pending().await;
        };
        let result = task.await;
        self.task = None;
        match result {
            Ok(Ok(())) => anyhow::bail!("discord: the gateway connection stopped"),
            Ok(Err(e)) => Err(explain(e)),
            Err(e) => anyhow::bail!("discord: the gateway task failed: {e}"),
        }
    }

    /// Closes the connection (briefly waiting for Discord to acknowledge), unless it has
    /// already ended by itself.
    pub(super) async fn close(mut self) {
        let Some(task) = self.task.take() else { return };
        if tokio::time::timeout(CLOSE_TIMEOUT, self.shards.shutdown_all())
            .await
            .is_err()
        {
            tracing::debug!("discord: the gateway did not acknowledge the close in time");
        }
        task.abort();
    }
}

/// What a gateway failure means and what to do about it.
fn explain(e: serenity::Error) -> anyhow::Error {
    match e {
        serenity::Error::Gateway(GatewayError::DisallowedGatewayIntents) => anyhow::anyhow!(
            "discord: the gateway refused the connection (close code 4014, disallowed intents): this bot may not read message content yet. \
             Open {PORTAL}, choose the application, go to Bot → Privileged Gateway Intents, switch on \"Message Content Intent\", save, and start mneme again."
        ),
        serenity::Error::Gateway(GatewayError::InvalidAuthentication) => anyhow::anyhow!(
            "discord: the gateway refused the bot token (close code 4004); check channels.discord.bot_token or MNEME_DISCORD_BOT_TOKEN"
        ),
        serenity::Error::Gateway(GatewayError::InvalidGatewayIntents) => anyhow::anyhow!(
            "discord: the gateway refused the intents as invalid (close code 4013); this is a bug in mneme, please report it"
        ),
        other => anyhow::anyhow!("discord: the gateway connection failed: {other}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proxy_base_replaces_discord_com_and_never_doubles_api() {
        assert_eq!(proxy_base("https://discord.com/api"), None);
        assert_eq!(proxy_base("https://discord.com/api/"), None);
        assert_eq!(proxy_base("https://discord.com/api/v10"), None);
        assert_eq!(
            proxy_base("http://127.0.0.1:8080/api/v10/").as_deref(),
            Some("http://127.0.0.1:8080")
        );
        assert_eq!(
            proxy_base("http://127.0.0.1:8080/api").as_deref(),
            Some("http://127.0.0.1:8080")
        );
        assert_eq!(
            proxy_base("http://proxy.local:3000").as_deref(),
            Some("http://proxy.local:3000")
        );
    }

    #[test]
    fn the_4014_message_names_the_switch() {
        let text = explain(serenity::Error::Gateway(
            GatewayError::DisallowedGatewayIntents,
        ))
        .to_string();
        assert!(text.contains("Message Content Intent"), "{text}");
        assert!(text.contains("4014"), "{text}");
        assert!(text.contains(PORTAL), "{text}");
    }

    #[test]
    fn intents_include_message_content() {
        assert!(intents().contains(GatewayIntents::MESSAGE_CONTENT));
        assert!(intents().contains(GatewayIntents::DIRECT_MESSAGES));
        assert!(intents().contains(GatewayIntents::GUILD_MESSAGES));
    }
}
