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

use tokio::sync::mpsc::UnboundedSender;

use crate::config::Config;
use crate::llm::LlmProvider;
use crate::memory::files::MemoryFiles;
use crate::store::{ChatKey, ChatRow, NewMessage, SessionId, Store};

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

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    pub text: String,
    pub kind: ReplyKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The platform delivered this message before; nothing was done.
    Duplicate,
    /// Stored for history and the reflector; not addressed, so not answered.
    Stored,
    Reply(Reply),
}

/// Longest message the bot will answer (longer ones are stored and politely refused).
pub const MAX_INPUT_CHARS: usize = 32_000;

/// What a turn knows about where it runs.
struct TurnContext {
    chat: ChatRow,
    key: ChatKey,
    session: SessionId,
    message_id: i64,
    is_control: bool,
}

pub struct Agent {
    config: Arc<Config>,
    store: Store,
    llm: Arc<dyn LlmProvider>,
    files: MemoryFiles,
    locks: locks::ChatLocks,
}

impl Agent {
    pub fn new(config: Arc<Config>, store: Store, llm: Arc<dyn LlmProvider>) -> Self {
        let files = MemoryFiles::new(&config.runtime_dir());
        Self {
            config,
            store,
            llm,
            files,
            locks: locks::ChatLocks::default(),
        }
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Stores `msg` and answers it if addressed. Text of a model answer is also sent piece by
    /// piece to `deltas` as it streams in, when given.
    pub async fn handle(
        &self,
        msg: IncomingMessage,
        deltas: Option<&UnboundedSender<String>>,
    ) -> anyhow::Result<Outcome> {
        let chat_name = msg.chat.to_string();
        let _turn = self.locks.lock(&chat_name).await;

        let chat = self
            .store
            .ensure_chat(&msg.chat, msg.is_group, msg.chat_title.as_deref())
            .await?;
        let session = self.store.current_session(chat.id).await?;
        let stored = self
            .store
            .insert_message(&NewMessage {
                chat_id: chat.id,
                session_id: session,
                sender_id: &msg.sender_id,
                sender_name: &msg.sender_name,
                is_from_bot: false,
                text: &msg.text,
                platform_message_id: msg.platform_message_id.as_deref(),
                created_at: msg.sent_at,
            })
            .await?;
        let Some(message_id) = stored else {
            return Ok(Outcome::Duplicate);
        };
        let text = msg.text.trim();
        if !msg.addressed || text.is_empty() {
            return Ok(Outcome::Stored);
        }
        let ctx = TurnContext {
            is_control: self.config.is_control_chat(&chat_name),
            key: msg.chat.clone(),
            chat,
            session,
            message_id,
        };
        tracing::debug!(chat = %chat_name, message_id, "turn");

        if let Some(reply) = commands::handle(self, &ctx, text).await? {
            return Ok(Outcome::Reply(reply));
        }
        if let Some(reply) = fast_path::handle(self, &ctx, text).await? {
            self.store_bot_message(&ctx, &reply.text).await?;
            return Ok(Outcome::Reply(reply));
        }
        if text.chars().count() > MAX_INPUT_CHARS {
            return Ok(Outcome::Reply(Reply {
                text: format!(
                    "That message is too long for me to answer ({} characters; the limit is {MAX_INPUT_CHARS}). It is saved; send the part you want me to look at.",
                    text.chars().count()
                ),
                kind: ReplyKind::Error,
            }));
        }
        let reply = turn::run(self, &ctx, msg.is_group, deltas).await?;
        if reply.kind == ReplyKind::Model {
            self.store_bot_message(&ctx, &reply.text).await?;
        }
        Ok(Outcome::Reply(reply))
    }

    async fn store_bot_message(&self, ctx: &TurnContext, text: &str) -> anyhow::Result<i64> {
        let id = self
            .store
            .insert_message(&NewMessage {
                chat_id: ctx.chat.id,
                session_id: ctx.session,
                sender_id: "bot",
                sender_name: "Mneme",
                is_from_bot: true,
                text,
                platform_message_id: None,
                created_at: None,
            })
            .await?
            .ok_or_else(|| anyhow::anyhow!("bot message was not stored"))?;
        Ok(id)
    }
}
