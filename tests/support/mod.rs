//! Test support shared by the integration tests: fake servers and a ready agent.
#![allow(dead_code)] // each test binary uses a different part

pub mod binary;
pub mod fake_llm;
pub mod reflector;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use mneme::agent::{Agent, IncomingMessage, Outcome, Reply};
use mneme::config::Config;
use mneme::store::{ChatKey, Store};

pub use fake_llm::*;

/// The YAML of a config that talks to `llm` and keeps its data in `dir`.
pub fn config_yaml(llm: &FakeLlm, dir: &Path, extra: &str) -> String {
    format!(
        "data_dir: {}\nllm_base_url: {}\nmodel: fake-model\nllm_timeout_secs: 5\nllm_max_retries: 1\n\
         channels:\n  web:\n    enabled: false\n{extra}",
        dir.join("data").display(),
        llm.url
    )
}

pub fn config(llm: &FakeLlm, dir: &Path, extra: &str) -> Config {
    let yaml = config_yaml(llm, dir, extra);
    Config::from_yaml(&yaml, &dir.join("config.yaml"), &[])
        .expect("test config is valid")
        .config
}

/// An agent over a fresh data dir (or the given one, to simulate a restart).
pub struct TestBot {
    pub agent: Arc<Agent>,
    pub dir: PathBuf,
}

impl TestBot {
    pub async fn start(llm: &FakeLlm, dir: &Path, extra: &str) -> Self {
        let config = Arc::new(config(llm, dir, extra));
        let store = Store::open(&config.database_url())
            .await
            .expect("store opens");
        let provider = mneme::llm::from_config(&config).expect("provider");
        Self {
            agent: Arc::new(Agent::new(config, store, provider)),
            dir: dir.to_path_buf(),
        }
    }

    pub async fn say(&self, chat: &str, text: &str) -> Reply {
        match self.send(private(chat, text)).await {
            Outcome::Reply(r) => r,
            other => panic!("expected a reply to {text:?}, got {other:?}"),
        }
    }

    pub async fn send(&self, msg: IncomingMessage) -> Outcome {
        self.agent.handle(msg, None).await.expect("turn runs")
    }

    pub fn data_dir(&self) -> PathBuf {
        self.dir.join("data")
    }
}

/// A private message from "alice" in `chat` (`CHANNEL:ID`).
pub fn private(chat: &str, text: &str) -> IncomingMessage {
    IncomingMessage {
        chat: chat.parse::<ChatKey>().expect("chat name"),
        chat_title: None,
        sender_id: "u1".into(),
        sender_name: "alice".into(),
        text: text.into(),
        is_group: false,
        addressed: true,
        platform_message_id: None,
        sent_at: None,
    }
}

/// A group message from `sender`, addressed to the bot or not.
pub fn group(chat: &str, sender: &str, text: &str, addressed: bool) -> IncomingMessage {
    IncomingMessage {
        sender_id: format!("id-{sender}"),
        sender_name: sender.into(),
        is_group: true,
        addressed,
        ..private(chat, text)
    }
}
