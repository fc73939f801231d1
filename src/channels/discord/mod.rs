//! Discord: a serenity gateway client (events in) and its REST client (answers out), against
//! `channels.discord.api_url`.
//!
//! Data path: serenity hands each MESSAGE_CREATE to the [`gateway`] handler, which only
//! forwards it to the intake loop here, in Discord's order within each channel ([`order`]);
//! the loop decides what the message is
//! ([`incoming::classify`]), stores it through [`Agent::receive`] and queues owed answers on a
//! per-chat worker ([`send::answer`]), which marks the message replied once delivered.
//!
//! Exactly once: a message is stored under its Discord id (unique per chat), so a replay after
//! a resume, or a redelivery, is recognised and not answered again; an owed answer keeps its
//! `needs_reply` mark until delivered, and on start-up answers owed from before a crash or
//! shutdown (younger than `answer_backlog_mins`) are given. Nothing is started from the
//! gateway's READY, which serenity repeats after every re-identify.
//!
//! A chat is a Discord channel: `discord:<channel id>` for a DM channel, a guild channel, or a
//! thread (a thread is a channel with its own id, so each thread keeps its own conversation;
//! access follows its parent channel).

mod catch_up;
mod gateway;
mod incoming;
mod order;
mod places;
mod send;

use std::sync::Arc;

use async_trait::async_trait;
use futures_util::future::join_all;
use serenity::http::Http;
use serenity::model::channel::Message;
use serenity::model::id::UserId;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::access::StrangerNotices;
use super::intake::{self, Acted, Decision, retry_until};
use super::notice_out::NoticeOut;
use super::workers::{ChatWorkers, DRAIN_TIMEOUT};
use super::{Channel, redact};
use crate::agent::Agent;
use crate::config::DiscordConfig;

const CHANNEL: &str = "discord";

/// A message from the gateway, with what its channel is (looked up in the event's task).
type Arrival = (Message, Option<places::Place>);
/// At most this many yields while gathering a burst, so a steady stream cannot stall it.
const BURST_ROUNDS: usize = 8;

pub struct DiscordChannel {
    config: DiscordConfig,
}

/// What the intake loop and the chat workers share.
struct Shared {
    http: Arc<Http>,
    agent: Arc<Agent>,
    config: DiscordConfig,
    /// The bot's user id and @username: to see mentions, replies, and our own echoes.
    bot_id: UserId,
    bot_name: String,
    notices: StrangerNotices,
    /// The notices above, and the others outside any turn, on their way.
    notice_out: NoticeOut,
}

impl Shared {
    /// Error text fit for logs: serenity's errors carry URLs and Discord's messages, never the
    /// token (it travels in a header), but scrub it anyway in case a proxy echoes it.
    fn redact(&self, e: &dyn std::fmt::Display) -> String {
        redact(&e.to_string(), self.config.bot_token.expose())
    }
}

impl DiscordChannel {
    /// The config was validated on load (`channels.discord.api_url` is an http(s) URL).
    pub fn new(config: &DiscordConfig) -> anyhow::Result<Self> {
        Ok(Self {
            config: config.clone(),
        })
    }
}

#[async_trait]
impl Channel for DiscordChannel {
    fn name(&self) -> &'static str {
        CHANNEL
    }

    async fn run(&self, agent: Arc<Agent>, shutdown: CancellationToken) -> anyhow::Result<()> {
        // The bot has one gateway session: one replica holds it.
        let gateway = crate::store::DISCORD_GATEWAY;
        super::run_under_lease(&agent, CHANNEL, gateway, &shutdown, |stop| {
            self.session(agent.clone(), stop)
        })
        .await
    }
}

impl DiscordChannel {
    /// One gateway session, until `shutdown` (also cancelled when the gateway lease is lost).
    async fn session(&self, agent: Arc<Agent>, shutdown: CancellationToken) -> anyhow::Result<()> {
        let Some(me) = gateway::whoami(&self.config, agent.channel_status(), &shutdown).await?
        else {
            return Ok(());
        };
        let (intake_tx, mut intake) = mpsc::unbounded_channel();
        let (readies_tx, mut readies) = mpsc::unbounded_channel();
        let status = agent.channel_status().clone();
        let places = Arc::new(places::Places::default());
        let lineup = Arc::new(order::Lineup::new(intake_tx.clone()));
        let mut gateway = gateway::Gateway::connect(
            &self.config,
            lineup.clone(),
            readies_tx,
            status,
            places.clone(),
        )
        .await?;
        let shared = Arc::new(Shared {
            http: gateway.http(),
            agent,
            config: self.config.clone(),
            bot_id: me.id,
            bot_name: me.name.clone(),
            notices: StrangerNotices::new(CHANNEL),
            notice_out: NoticeOut::new(CHANNEL),
        });
        tracing::info!(bot = %shared.bot_name, "discord: signed in");

        let answerer = shared.clone();
        let group_rate = shared.agent.config().group_rate_limit_per_min;
        let workers = ChatWorkers::new(CHANNEL, move |pending| {
            let shared = answerer.clone();
            async move { send::answer(&shared, &pending).await }
        })
        .with_group_rate(group_rate)
        .coordinated(shared.agent.clone(), self.config.answer_backlog_mins);
        // Answers owed from before the restart (a crash or shutdown between storing and
        // delivering). Done here, once, not on READY: READY comes again after a re-identify.
        workers
            .dispatch_owed(&shared.agent, self.config.answer_backlog_mins, &shutdown)
            .await;
        // What a new session does not replay, read after each READY.
        let catching_up = {
            let (shared, backlog) = (shared.clone(), self.config.answer_backlog_mins);
            tokio::spawn(async move {
                while readies.recv().await.is_some() {
                    let store = shared.agent.store();
                    catch_up::catch_up(&shared.http, store, &places, backlog, &intake_tx).await;
                }
            })
        };

        // The intake stops between batches, never inside one, so no message is half taken.
        let stop = shutdown.child_token();
        let (result, left) = tokio::join!(
            async {
                let r = tokio::select! {
                    r = gateway.finished() => r,
                    () = stop.cancelled() => Ok(()),
                };
                stop.cancel();
                r
            },
            take_in(&shared, &mut intake, &lineup, &workers, &stop),
        );
        // No new turns. Answers in flight finish while the gateway says goodbye; messages that
        // arrived but were not taken in yet are stored and left owed for the next start.
        // A new session does not replay what this one received, so those are stored now,
        // retried while the database is busy, within the drain time.
        let store_rest = async {
            catching_up.abort();
            gateway.close().await;
            intake.close();
            let never = CancellationToken::new();
            for m in left {
                store_only(&shared, &m, &never).await;
            }
            while let Ok(m) = intake.try_recv() {
                store_only(&shared, &m, &never).await;
            }
        };
        let (stored, ()) = tokio::join!(
            tokio::time::timeout(DRAIN_TIMEOUT, store_rest),
            workers.drain()
        );
        if stored.is_err() {
            tracing::warn!("discord: shutdown cut short storing the last messages received");
        }
        if result.is_err() {
            let why = "the gateway connection ended (see the log)";
            shared.agent.channel_status().down(CHANNEL, why);
        }
        result
    }
}

/// The intake loop: messages from the gateway, in Discord's order within each channel
/// (`order`), stored and dispatched, until `stop`; returns the messages taken off the queue
/// but not stored yet (held back, or the database was busy when `stop` came).
async fn take_in(
    shared: &Arc<Shared>,
    intake: &mut mpsc::UnboundedReceiver<Arrival>,
    lineup: &order::Lineup,
    workers: &ChatWorkers,
    stop: &CancellationToken,
) -> Vec<Arrival> {
    let mut held: Vec<order::Held> = Vec::new();
    let unstored =
        |held: Vec<order::Held>| -> Vec<Arrival> { held.into_iter().map(|h| h.arrival).collect() };
    loop {
        // A new message, or the end of the longest hold.
        let first = tokio::select! {
            m = intake.recv() => match m {
                Some(m) => Some(m),
                None => return unstored(held),
            },
            () = until(order::hold_ends(&held)) => None,
            () = stop.cancelled() => return unstored(held),
        };
        let now = std::time::Instant::now();
        if let Some(arrival) = first {
            held.push(order::Held::new(arrival, now));
        }
        // serenity runs each event's handler as its own task, and on a multi-threaded runtime
        // those tasks of a burst (several messages read at once, the replay after a resume)
        // start in any order. Yield while more of the burst lands, so that it is stored
        // together; `order` holds back a message an older one of its channel is still behind.
        for _ in 0..BURST_ROUNDS {
            tokio::task::yield_now().await;
            if !order::hold_queued(intake, &mut held, now) {
                break;
            }
        }
        let mut batch = lineup.take_ready(intake, &mut held, now);
        if batch.is_empty() {
            continue;
        }
        // Discord's order: message ids (snowflakes) grow with time.
        batch.sort_by_key(|(m, _)| m.id);
        // Lined up in that order, then stored together (one transaction).
        let lined: Vec<_> = batch
            .iter()
            .map(|(m, place)| {
                let decision = intake::classify_safely(CHANNEL, || {
                    incoming::classify(shared, m, place.clone())
                });
                intake::line_up(workers, decision)
            })
            .collect();
        let acted = join_all(
            batch
                .iter()
                .zip(lined)
                .map(|((m, _), lined)| finish(shared, workers, m, lined, stop)),
        )
        .await;
        let mut left: Vec<Arrival> = batch
            .into_iter()
            .zip(acted)
            .filter(|(_, acted)| *acted == Acted::NotStored)
            .map(|(m, _)| m)
            .collect();
        if !left.is_empty() {
            left.extend(unstored(held));
            return left;
        }
    }
}

/// Waits until `when`, or forever.
async fn until(when: Option<std::time::Instant>) {
    match when {
        Some(when) => tokio::time::sleep_until(when.into()).await,
        None => std::future::pending().await,
    }
}

/// Waits for a lined-up message to be stored and its answer queued; tells the sender what
/// they are to be told.
async fn finish(
    shared: &Arc<Shared>,
    workers: &ChatWorkers,
    m: &Message,
    lined: intake::Lined,
    stop: &CancellationToken,
) -> Acted {
    let channel = m.channel_id;
    let notify = |text: String| {
        let sender = Arc::clone(shared);
        shared
            .notice_out
            .spawn(async move { send::notice(&sender, channel, &text).await });
    };
    let key = "channels.discord.allowed_user_ids";
    intake::act(
        &shared.agent,
        &shared.notices,
        workers,
        lined,
        key,
        notify,
        stop,
    )
    .await
}

/// Stores `m` if it is for us, without answering it now (at shutdown): it is answered on the
/// next start.
async fn store_only(shared: &Shared, (m, place): &Arrival, stop: &CancellationToken) -> Acted {
    let decision =
        intake::classify_safely(CHANNEL, || incoming::classify(shared, m, place.clone()));
    if let Decision::Message(msg) = decision {
        let what = format!("store a message of {}", msg.chat);
        let stored = retry_until(&what, stop, || shared.agent.receive(&msg));
        if stored.await.is_none() {
            return Acted::NotStored;
        }
    }
    Acted::Done
}
