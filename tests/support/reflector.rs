//! A reflector over a fresh database and the fake LLM, with a clock the test controls.

use std::sync::Arc;

use mneme::base::{Category, ChatKey, MemoryRow, MemoryScope, Source};
use mneme::config::Config;
use mneme::embed::Embedder;
use mneme::memories::retrieval::Retriever;
use mneme::reflector::{PassReport, Reflector, Target};
use mneme::store::{ChatRow, MemoryFilter, NewMemory, NewMessage, RunRecord, Store};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::{Answer, FakeLlm, config_yaml, openai_text};

/// A fixed "now" for tests: 2027-01-15, far from any real clock.
pub const T0: i64 = 1_800_000_000_000;
pub const MIN: i64 = 60_000;
pub const DAY: i64 = 86_400_000;

/// The model's answer carrying these memories (a JSON list).
pub fn facts(memories: Value) -> Answer {
    openai_text(&json!({ "memories": memories }).to_string())
}

/// A config for the fake LLM without client retries, so a failure is one request.
pub fn reflector_yaml(llm: &FakeLlm, dir: &std::path::Path, extra: &str) -> String {
    config_yaml(llm, dir, extra).replace("llm_max_retries: 1\n", "llm_max_retries: 0\n")
}

pub struct Lab {
    pub llm: FakeLlm,
    pub dir: tempfile::TempDir,
    pub config: Config,
    pub store: Store,
    pub reflector: Reflector,
}

impl Lab {
    pub async fn new(extra: &str) -> Self {
        let llm = FakeLlm::start().await;
        let dir = tempfile::tempdir().unwrap();
        let yaml = reflector_yaml(&llm, dir.path(), extra);
        let config = Config::from_yaml(&yaml, &dir.path().join("config.yaml"), &[])
            .expect("test config is valid")
            .config;
        let store = Store::open(&config.database_url()).await.unwrap();
        let provider = mneme::llm::from_config(&config).unwrap();
        let reflector = Reflector::new(&config, store.clone(), provider);
        Self {
            llm,
            dir,
            config,
            store,
            reflector,
        }
    }

    /// The same, with a reflector that compares facts by meaning through `embedder`.
    pub async fn with_embedder(extra: &str, embedder: Arc<dyn Embedder>) -> Self {
        let mut lab = Self::new(extra).await;
        let provider = mneme::llm::from_config(&lab.config).unwrap();
        let retriever = Retriever::new(&lab.config, lab.store.clone(), Some(embedder));
        lab.reflector = Reflector::with_retriever(&lab.config, retriever, provider);
        lab
    }

    pub async fn chat(&self, name: &str, is_group: bool) -> ChatRow {
        let key: ChatKey = name.parse().unwrap();
        self.store.ensure_chat(&key, is_group, None).await.unwrap()
    }

    /// Stores a message from `sender` (`bot` = the assistant); returns its id.
    pub async fn say(&self, chat: &ChatRow, sender: &str, text: &str) -> i64 {
        self.store_message(chat, sender, text, false).await
    }

    /// `sender` says "remember {fact}", and the fact is stored as the fast path stores it
    /// (explicit, from that message); returns the memory's id.
    pub async fn remembered(&self, chat: &ChatRow, sender: &str, fact: &str) -> i64 {
        let message = self.say(chat, sender, &format!("remember {fact}")).await;
        let memory = NewMemory {
            scope: MemoryScope::Chat(chat.id),
            category: Category::Profile,
            content: fact.into(),
            subject: None,
            confidence: 0.9,
            source: Source::Explicit,
            source_message_ids: vec![message],
            created_at: None,
            last_seen_at: None,
            archived: false,
            key: None,
        };
        self.store.insert_memory(&memory).await.unwrap()
    }

    /// Stores a message addressed to the bot (owed an answer), as every message of a private
    /// chat is; returns its id.
    pub async fn say_to_bot(&self, chat: &ChatRow, sender: &str, text: &str) -> i64 {
        self.store_message(chat, sender, text, true).await
    }

    async fn store_message(
        &self,
        chat: &ChatRow,
        sender: &str,
        text: &str,
        addressed: bool,
    ) -> i64 {
        let session = self.store.current_session(chat.id).await.unwrap();
        let is_bot = sender == "bot";
        let (id, name) = if is_bot {
            ("bot".to_string(), "Mneme")
        } else {
            (format!("id-{sender}"), sender)
        };
        self.store
            .insert_message(&NewMessage {
                chat_id: chat.id,
                session_id: session,
                sender_id: &id,
                sender_name: name,
                is_from_bot: is_bot,
                text,
                platform_message_id: None,
                platform_thread_id: None,
                created_at: None,
                needs_reply: addressed && sender != "bot",
                searchable: true,
            })
            .await
            .unwrap()
            .unwrap()
    }

    /// A scheduled-style pass over every due chat at `now`.
    pub async fn pass(&self, now: i64) -> PassReport {
        self.reflector
            .run_pass(&Target::Due, now, &CancellationToken::new())
            .await
            .unwrap()
    }

    pub async fn pass_chat(&self, chat: &str, now: i64) -> PassReport {
        self.reflector
            .run_pass(
                &Target::Chat(chat.parse().unwrap()),
                now,
                &CancellationToken::new(),
            )
            .await
            .unwrap()
    }

    /// A chat's memories, oldest first; archived ones too when `archived`.
    pub async fn memories(&self, chat_id: i64, archived: bool) -> Vec<MemoryRow> {
        self.store
            .list_memories(&MemoryFilter {
                scope: Some(MemoryScope::Chat(chat_id)),
                include_archived: archived,
                ..MemoryFilter::default()
            })
            .await
            .unwrap()
    }

    pub async fn contents(&self, chat_id: i64) -> Vec<String> {
        self.memories(chat_id, false)
            .await
            .into_iter()
            .map(|m| m.content)
            .collect()
    }

    pub async fn cursor(&self, chat_id: i64) -> i64 {
        self.store
            .reflector_state(chat_id)
            .await
            .unwrap()
            .last_message_id
    }

    /// The chat's run records, newest first.
    pub async fn runs(&self, chat_id: i64) -> Vec<RunRecord> {
        self.store.reflector_runs(Some(chat_id), 100).await.unwrap()
    }

    /// The user message (batch and memories) of the `n`-th request to the model.
    pub fn prompt(&self, n: usize) -> String {
        self.llm.requests()[n].message_texts().join("\n")
    }
}

/// The `#ID` of every message line in a reflector prompt, in order.
pub fn message_ids(prompt: &str) -> Vec<i64> {
    let block = prompt
        .split("<messages>\n")
        .nth(1)
        .and_then(|rest| rest.split("</messages>").next())
        .unwrap_or_default();
    block
        .lines()
        .filter_map(|l| l.strip_prefix('#')?.split(' ').next()?.parse().ok())
        .collect()
}
