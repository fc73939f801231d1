//! The one agent loop every channel feeds.
//!
//! [`Agent::handle`] takes a message from any channel, stores it, and — when the bot is
//! addressed — answers: a chat command, the "remember" fast path, or a model turn with the
//! memory tools. Turns of one chat run one at a time, in arrival order; chats run in parallel.

mod commands;
mod fast_path;
mod locks;
mod prompt;
mod tools;
mod turn;

use std::sync::Arc;
use std::time::Instant;

use tokio::sync::mpsc::UnboundedSender;

use crate::base::ChatKey;
use crate::config::Config;
use crate::embed::Embedder;
use crate::health::ChannelStatus;
use crate::llm::LlmProvider;
use crate::memories::Memories;
use crate::memories::retrieval::Retriever;
use crate::memory::files::MemoryFiles;
use crate::metrics::metrics;
use crate::store::{Arrival, ChatRow, NewMessage, SessionId, Store, TurnRecord};

pub use locks::Place;
pub use prompt::PromptParts;

/// A message as a channel hands it over.
#[derive(Debug, Clone)]
pub struct IncomingMessage {
    pub chat: ChatKey,
    pub chat_title: Option<String>,
    pub sender_id: String,
    pub sender_name: String,
    pub text: String,
    pub is_group: bool,
    /// Private chat, @mention, or a reply to the bot: the bot should answer.
    pub addressed: bool,
    /// The platform's id for the message, used to drop redeliveries.
    pub platform_message_id: Option<String>,
    /// The platform's thread or topic, so the answer goes to the same place.
    pub platform_thread_id: Option<String>,
    /// When the platform says it was sent (Unix ms); `None` = now.
    pub sent_at: Option<i64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplyKind {
    /// The model's answer.
    Model,
    /// The remember fast path; no model call.
    Remembered,
    /// A chat command such as /memories.
    Command,
    /// The model could not be reached or gave nothing usable.
    Error,
}

/// Turns started for one message before its answer is given up.
pub const MAX_REPLY_ATTEMPTS: i64 = 3;
/// What the user is told then.
pub const GAVE_UP: &str = "Sorry, I could not answer this message: my last attempts failed \
     before the answer reached you. Please send it again, or rephrase it.";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    pub text: String,
    pub kind: ReplyKind,
}

/// A reply not yet given ([`Agent::answer_first`]), with the records of its model turn still
/// to write ([`Agent::delivered`]). Holds the chat's turn: the chat's next turn starts once
/// this is dropped.
pub struct Answer {
    pub reply: Reply,
    records: Option<Records>,
    _turn: tokio::sync::OwnedMutexGuard<()>,
}

/// What a model turn leaves to write ([`Store::record_turn`]).
struct Records {
    chat_id: i64,
    session: SessionId,
    injection: crate::store::InjectionLog,
    calls: Vec<crate::store::Tokens>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The platform delivered this message before; nothing was done.
    Duplicate,
    /// Stored for history and the reflector; not addressed, so not answered.
    Stored,
    Reply(Reply),
}

/// What [`Agent::receive`] did with a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Received {
    /// The platform delivered this message before; nothing was done.
    Duplicate,
    /// Stored; not addressed to the bot, so nothing is owed.
    Stored,
    /// Stored and owed an answer: pass it to [`Agent::respond`].
    Pending(Pending),
}

/// A stored message waiting for its answer, with what a channel needs to deliver it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pending {
    pub chat: ChatKey,
    pub is_group: bool,
    /// `messages.id` of the message to answer.
    pub message_id: i64,
    pub platform_message_id: Option<String>,
    pub platform_thread_id: Option<String>,
    /// `chats.id` of `chat`: known wherever a message is stored or read back.
    pub chat_id: i64,
}

impl Pending {
    /// Stored message `m` of `chat`, to answer.
    pub fn of(chat: &ChatRow, m: crate::store::MessageRow) -> Self {
        Self {
            chat: chat.key(),
            is_group: chat.is_group,
            message_id: m.id,
            platform_message_id: m.platform_message_id,
            platform_thread_id: m.platform_thread_id,
            chat_id: chat.id,
        }
    }

    /// Another stored message `m` of this one's chat, to answer.
    pub fn beside(&self, m: crate::store::MessageRow) -> Self {
        Self {
            chat: self.chat.clone(),
            is_group: self.is_group,
            message_id: m.id,
            platform_message_id: m.platform_message_id,
            platform_thread_id: m.platform_thread_id,
            chat_id: self.chat_id,
        }
    }
}

/// Longest message the bot will answer (longer ones are stored and politely refused).
pub const MAX_INPUT_CHARS: usize = 32_000;

/// What a turn knows about where it runs.
struct TurnContext {
    chat: ChatRow,
    key: ChatKey,
    session: SessionId,
    message_id: i64,
    /// Who sent the message answered: in a group, a first-person fact they (or the model
    /// answering them) store is theirs (`Memories::remember`).
    sender: crate::memories::Speaker,
    is_control: bool,
    /// The session's last messages up to the one answered, oldest first.
    history: Vec<crate::store::MessageRow>,
    /// The memories that may be injected into its prompt (the chat's and the global ones).
    memories: i64,
}

pub struct Agent {
    config: Arc<Config>,
    store: Store,
    llm: Arc<dyn LlmProvider>,
    retriever: Retriever,
    memories: Memories,
    files: MemoryFiles,
    locks: locks::ChatLocks,
    channel_status: Arc<ChannelStatus>,
}

impl Agent {
    /// An agent finding memories by keywords only (no embedder); see [`Agent::with_embedder`].
    pub fn new(config: Arc<Config>, store: Store, llm: Arc<dyn LlmProvider>) -> Self {
        let retriever = Retriever::new(&config, store.clone(), None);
        Self::with_retriever(config, llm, retriever)
    }

    /// An agent whose memory search also compares embeddings from `embedder`.
    pub fn with_embedder(
        config: Arc<Config>,
        store: Store,
        llm: Arc<dyn LlmProvider>,
        embedder: Option<Arc<dyn Embedder>>,
    ) -> Self {
        let retriever = Retriever::new(&config, store, embedder);
        Self::with_retriever(config, llm, retriever)
    }

    pub fn with_retriever(
        config: Arc<Config>,
        llm: Arc<dyn LlmProvider>,
        retriever: Retriever,
    ) -> Self {
        let files = MemoryFiles::new(&config.runtime_dir());
        Self {
            config,
            store: retriever.store().clone(),
            llm,
            memories: Memories::new(retriever.clone()),
            retriever,
            files,
            locks: locks::ChatLocks::default(),
            channel_status: Arc::default(),
        }
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// How this agent finds memories; shared with the reflector and the embedding sync.
    pub fn retriever(&self) -> &Retriever {
        &self.retriever
    }

    /// The memory service: the one writer of structured memories.
    pub fn memories(&self) -> &Memories {
        &self.memories
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Which channels are connected; they report here, `/healthz` reads it.
    pub fn channel_status(&self) -> &Arc<ChannelStatus> {
        &self.channel_status
    }

    /// The model provider, shared with the background reflector.
    pub fn llm(&self) -> Arc<dyn LlmProvider> {
        self.llm.clone()
    }

    /// Stores `msg` and answers it if addressed. Text of a model answer is also sent piece by
    /// piece to `deltas` as it streams in, when given. For channels that print the reply at
    /// once; others use [`Agent::receive`] and [`Agent::respond`] to confirm delivery.
    pub async fn handle(
        &self,
        msg: IncomingMessage,
        deltas: Option<&UnboundedSender<String>>,
    ) -> anyhow::Result<Outcome> {
        // The place in the chat's line first, so concurrent callers keep arrival order; the
        // message is stored at once, not when its turn comes.
        let place = self.line_up(&msg.chat);
        let pending = match self.receive(&msg).await? {
            Received::Pending(p) => p,
            Received::Duplicate => return Ok(Outcome::Duplicate),
            Received::Stored => return Ok(Outcome::Stored),
        };
        let reply = self.respond_in(place, &pending, deltas).await?;
        Ok(Outcome::Reply(reply))
    }

    /// A place in `chat`'s line for a turn, taken now (see [`locks::ChatLocks::line_up`]):
    /// for a caller that stores its message before waiting for the turns before it.
    pub fn line_up(&self, chat: &ChatKey) -> Place {
        self.locks.line_up(&chat.to_string())
    }

    /// Answers a stored message when `place` comes up, marking it replied with its records:
    /// the reply is the caller's to print, given once it is returned.
    pub async fn respond_in(
        &self,
        place: Place,
        pending: &Pending,
        deltas: Option<&UnboundedSender<String>>,
    ) -> anyhow::Result<Reply> {
        let _turn = place.take().await;
        self.respond_locked(pending, deltas, true).await
    }

    /// Stores a message. When it is addressed to the bot, returns it as owed an answer.
    pub async fn receive(&self, msg: &IncomingMessage) -> anyhow::Result<Received> {
        let mut received = self.receive_all(std::slice::from_ref(msg)).await?;
        received
            .pop()
            .ok_or_else(|| anyhow::anyhow!("a stored message went missing"))
    }

    /// Stores `msgs` in one write transaction, in their order (all of them, or on an error
    /// none): one outcome per message, as [`Agent::receive`] gives it.
    pub async fn receive_all(&self, msgs: &[IncomingMessage]) -> anyhow::Result<Vec<Received>> {
        let needs_reply = |m: &IncomingMessage| m.addressed && !m.text.trim().is_empty();
        // A request to remember a secret is kept as a note of it, never as it came.
        let texts: Vec<Option<String>> =
            msgs.iter().map(|m| fast_path::withheld(&m.text)).collect();
        let arrivals: Vec<Arrival<'_>> = msgs
            .iter()
            .zip(&texts)
            .map(|(m, withheld)| Arrival {
                chat: &m.chat,
                is_group: m.is_group,
                chat_title: m.chat_title.as_deref(),
                sender_id: &m.sender_id,
                sender_name: &m.sender_name,
                text: withheld.as_deref().unwrap_or(&m.text),
                platform_message_id: m.platform_message_id.as_deref(),
                platform_thread_id: m.platform_thread_id.as_deref(),
                created_at: m.sent_at,
                needs_reply: needs_reply(m),
            })
            .collect();
        let ids = self.store.store_arrivals(&arrivals).await?;
        Ok(msgs
            .iter()
            .zip(ids)
            .map(|(msg, stored)| {
                if stored.is_some() {
                    metrics().message_received(&msg.chat.channel);
                }
                match stored {
                    None => Received::Duplicate,
                    Some(_) if !needs_reply(msg) => Received::Stored,
                    Some(stored) => Received::Pending(Pending {
                        chat: msg.chat.clone(),
                        is_group: msg.is_group,
                        message_id: stored.id,
                        platform_message_id: msg.platform_message_id.clone(),
                        platform_thread_id: msg.platform_thread_id.clone(),
                        chat_id: stored.chat_id,
                    }),
                }
            })
            .collect())
    }

    /// Answers a stored message: a command, the remember fast path, or a model turn. One
    /// answer at a time per chat, in the order asked. The caller delivers the reply and then
    /// calls [`Agent::mark_replied`].
    pub async fn respond(
        &self,
        pending: &Pending,
        deltas: Option<&UnboundedSender<String>>,
    ) -> anyhow::Result<Reply> {
        timeline!(pending.chat.external_id, "turn");
        let _turn = self.locks.lock(&pending.chat.to_string()).await;
        self.respond_locked(pending, deltas, false).await
    }

    /// [`Agent::respond`] for a channel that delivers the reply itself: a model turn's records
    /// (its answer, usage and injection) are not written yet but returned in the [`Answer`],
    /// for [`Agent::delivered`] to write together with the delivered mark once the reply was
    /// given. The reply goes out one write sooner, and the turn takes one write less. The
    /// chat's next turn waits for that write (the [`Answer`] holds the chat's turn).
    pub async fn answer_first(&self, pending: &Pending) -> anyhow::Result<Answer> {
        timeline!(pending.chat.external_id, "turn");
        let turn = self.locks.lock(&pending.chat.to_string()).await;
        self.answer_first_in(Place::Held(turn), pending).await
    }

    /// [`Agent::answer_first`] when `place` comes up (a caller that checks something in the
    /// chat's turn before answering holds it already).
    pub async fn answer_first_in(&self, place: Place, pending: &Pending) -> anyhow::Result<Answer> {
        let turn = place.take().await;
        let (reply, records) = self.answer_locked(pending, None).await?;
        Ok(Answer {
            reply,
            records,
            _turn: turn,
        })
    }

    /// Writes what `answer` left to write once its reply was `delivered` (or not: then the
    /// message stays owed, the records are kept all the same), and marks `pending` replied
    /// when it was. One write, all of it or nothing.
    pub async fn delivered(
        &self,
        pending: &Pending,
        answer: &Answer,
        delivered: bool,
    ) -> anyhow::Result<()> {
        let replied = delivered.then_some(pending.message_id);
        (self.write_turn(answer.records.as_ref(), &answer.reply, replied)).await?;
        Ok(())
    }

    /// Writes a turn's records, if it left any, with `replied`'s delivered mark; returns the
    /// answer's message id.
    async fn write_turn(
        &self,
        records: Option<&Records>,
        reply: &Reply,
        replied: Option<i64>,
    ) -> crate::store::Result<Option<i64>> {
        match (records, replied) {
            (Some(r), _) => self.record(r, reply, replied).await,
            (None, Some(id)) => self.store.mark_replied(id).await.map(|()| None),
            (None, None) => Ok(None),
        }
    }

    /// Writes a model turn's records with its `reply` (kept in the conversation when it is the
    /// model's answer), and `replied`'s delivered mark with them; returns the answer's message
    /// id.
    async fn record(
        &self,
        r: &Records,
        reply: &Reply,
        replied: Option<i64>,
    ) -> crate::store::Result<Option<i64>> {
        let message = (reply.kind == ReplyKind::Model)
            .then(|| NewMessage::from_bot(r.chat_id, r.session, &reply.text));
        let record = TurnRecord {
            chat_id: r.chat_id,
            provider: self.llm.name(),
            model: &self.config.model,
            injection: r.injection,
            calls: &r.calls,
            answer: message.as_ref(),
            replied,
        };
        self.store.record_turn(&record).await
    }

    /// Whether the answer to `pending` may still be given from here: always on SQLite; on
    /// PostgreSQL while this process holds its chat's turn (see `store::turns`), which it may
    /// have lost while the model thought. Not known (the check failed) counts as lost: the
    /// message stays owed, for whoever holds the turn.
    pub async fn holds_turn(&self, pending: &Pending) -> bool {
        if !self.store.coordinates_turns() {
            return true;
        }
        (self.store.holds_turn(pending.chat_id).await).unwrap_or_else(|e| {
            tracing::warn!(chat = %pending.chat, error = %e, "could not check the chat's turn");
            false
        })
    }

    /// Records that the answer to `pending` reached the user.
    pub async fn mark_replied(&self, pending: &Pending) -> anyhow::Result<()> {
        Ok(self.store.mark_replied(pending.message_id).await?)
    }

    /// Whether the answer to `pending` is recorded as delivered.
    pub async fn was_replied(&self, pending: &Pending) -> anyhow::Result<bool> {
        let message = self.store.message(pending.message_id).await?;
        Ok(message.is_some_and(|m| m.replied_at.is_some()))
    }

    /// Messages of `channel` still owed an answer (a crash or shutdown came between receiving
    /// and delivering), sent at or after `since_ms`, oldest first.
    pub async fn awaiting_reply(
        &self,
        channel: &str,
        since_ms: i64,
    ) -> anyhow::Result<Vec<Pending>> {
        self.overdue(channel, since_ms, i64::MAX).await
    }

    /// [`Agent::awaiting_reply`] sent before `before_ms` too: answers overdue.
    pub async fn overdue(
        &self,
        channel: &str,
        since_ms: i64,
        before_ms: i64,
    ) -> anyhow::Result<Vec<Pending>> {
        let rows = self.store.awaiting_reply(channel, since_ms).await?;
        Ok(rows
            .into_iter()
            .filter(|(_, m)| m.created_at < before_ms)
            .map(|(chat, m)| Pending::of(&chat, m))
            .collect())
    }

    /// [`Agent::answer_locked`] with a model turn's records written before the reply is given
    /// (the answer is kept before it is given; an error reply need not wait for its
    /// bookkeeping), and, when `mark`, the delivered mark in the same write: for a caller that
    /// gives the reply once it is returned.
    async fn respond_locked(
        &self,
        pending: &Pending,
        deltas: Option<&UnboundedSender<String>>,
        mark: bool,
    ) -> anyhow::Result<Reply> {
        let (reply, records) = self.answer_locked(pending, deltas).await?;
        let replied = mark.then_some(pending.message_id);
        let recorded = self.write_turn(records.as_ref(), &reply, replied).await;
        timeline!(pending.chat.external_id, "recorded");
        let answered = reply.kind == ReplyKind::Model;
        match recorded {
            Ok(Some(_)) => {}
            Ok(None) if !answered => {}
            Ok(None) => anyhow::bail!("bot message was not stored"),
            Err(e) if answered || records.is_none() => return Err(e.into()),
            Err(e) => {
                tracing::warn!(error = %e, "could not record the turn's usage");
                if let Some(id) = replied {
                    self.store.mark_replied(id).await?;
                }
            }
        }
        Ok(reply)
    }

    /// [`Agent::answer`], timed and counted for `/metrics`; a model turn's records are
    /// returned, not written.
    async fn answer_locked(
        &self,
        pending: &Pending,
        deltas: Option<&UnboundedSender<String>>,
    ) -> anyhow::Result<(Reply, Option<Records>)> {
        let started = Instant::now();
        let started_turn = self
            .store
            .start_turn(pending.message_id, self.config.max_history_messages)
            .await?
            .ok_or_else(|| anyhow::anyhow!("message {} is gone", pending.message_id))?;
        timeline!(pending.chat.external_id, "started");
        let attempt = started_turn.attempt;
        if attempt > MAX_REPLY_ATTEMPTS {
            // Turns for this message kept failing before their answer was delivered (a crash
            // while answering, a reply the platform refuses): stop re-running it.
            tracing::error!(
                chat = %pending.chat,
                message_id = pending.message_id,
                attempts = attempt - 1,
                "giving up on answering a message: every attempt failed before delivery"
            );
            self.store.mark_replied(pending.message_id).await?;
            metrics().turn_done(&pending.chat.channel, "error", started.elapsed());
            let reply = Reply {
                text: GAVE_UP.to_string(),
                kind: ReplyKind::Error,
            };
            return Ok((reply, None));
        }
        let (reply, records) = self.answer(pending, started_turn, deltas).await?;
        let kind = match reply.kind {
            ReplyKind::Model => "model",
            ReplyKind::Remembered => "remembered",
            ReplyKind::Command => "command",
            ReplyKind::Error => "error",
        };
        metrics().turn_done(&pending.chat.channel, kind, started.elapsed());
        Ok((reply, records))
    }

    /// Answers a started turn; a model turn's records are returned for the caller to write.
    async fn answer(
        &self,
        pending: &Pending,
        started_turn: crate::store::ReplyAttempt,
        deltas: Option<&UnboundedSender<String>>,
    ) -> anyhow::Result<(Reply, Option<Records>)> {
        let crate::store::ReplyAttempt {
            message,
            chat,
            memories,
            mut history,
            ..
        } = started_turn;
        let chat_name = pending.chat.to_string();
        let session = match message.session_id {
            Some(s) => s,
            None => {
                // A message stored before sessions existed: answered in the chat's session.
                let s = self.store.current_session(chat.id).await?;
                history = (self.store)
                    .session_history(s, message.id, self.config.max_history_messages)
                    .await?;
                s
            }
        };
        let ctx = TurnContext {
            is_control: self.config.is_control_chat(&chat_name),
            key: pending.chat.clone(),
            session,
            chat,
            message_id: message.id,
            sender: crate::memories::Speaker {
                name: message.sender_name.clone(),
                id: message.sender_id.clone(),
            },
            history,
            memories,
        };
        let text = message.text.trim();
        tracing::debug!(chat = %chat_name, message_id = message.id, "turn");

        if let Some(reply) = commands::handle(self, &ctx, text).await? {
            return Ok((reply, None));
        }
        if let Some(reply) = fast_path::handle(self, &ctx, text).await? {
            // An acknowledgement repeats the memory: not worth finding again in a search.
            self.store_bot_message(&ctx, &reply.text, false).await?;
            return Ok((reply, None));
        }
        if text.chars().count() > MAX_INPUT_CHARS {
            let reply = Reply {
                text: format!(
                    "That message is too long for me to answer ({} characters; the limit is {MAX_INPUT_CHARS}). It is saved; send the part you want me to look at.",
                    text.chars().count()
                ),
                kind: ReplyKind::Error,
            };
            return Ok((reply, None));
        }
        let turn = turn::run(self, &ctx, deltas).await?;
        timeline!(pending.chat.external_id, "answered");
        let records = Records {
            chat_id: ctx.chat.id,
            session: ctx.session,
            injection: turn.injection,
            calls: turn.calls,
        };
        Ok((turn.reply, Some(records)))
    }

    async fn store_bot_message(
        &self,
        ctx: &TurnContext,
        text: &str,
        searchable: bool,
    ) -> anyhow::Result<i64> {
        let id = self
            .store
            .insert_message(&bot_message(ctx, text, searchable))
            .await?
            .ok_or_else(|| anyhow::anyhow!("bot message was not stored"))?;
        Ok(id)
    }
}

/// The bot's message in `ctx`'s conversation.
fn bot_message<'a>(ctx: &TurnContext, text: &'a str, searchable: bool) -> NewMessage<'a> {
    NewMessage {
        searchable,
        ..NewMessage::from_bot(ctx.chat.id, ctx.session, text)
    }
}
