//! Test support shared by the integration tests: fake servers and a ready agent.
#![allow(dead_code)] // each test binary uses a different part

pub mod fake_llm;
pub mod fake_telegram;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use mneme::agent::{Agent, IncomingMessage, Outcome, Reply};
use mneme::config::Config;
use mneme::store::{ChatKey, Store};

pub use fake_llm::*;
pub use fake_telegram::*;

/// Serves `app` on a free port of 127.0.0.1 for the rest of the test.
pub async fn serve(app: axum::Router) -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind a fake server");
    let addr = listener.local_addr().expect("bound address");
    tokio::spawn(async move {
        axum::serve(listener, app)
            .await
            .expect("fake server serves");
    });
    addr
}

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
        platform_thread_id: None,
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

/// The config lines that enable Telegram against `tg` (user 100 and group -1001 allowed).
pub fn telegram_yaml(tg: &FakeTelegram) -> String {
    format!(
        "  telegram:\n    enabled: true\n    bot_token: \"{}\"\n    api_url: {}\n    allowed_user_ids: [100]\n    allowed_groups: [-1001]\n",
        tg.token, tg.url
    )
}

/// A Telegram channel running in-process on a `TestBot`.
pub struct TelegramBot {
    pub bot: TestBot,
    shutdown: tokio_util::sync::CancellationToken,
    task: tokio::task::JoinHandle<anyhow::Result<()>>,
}

impl TelegramBot {
    /// `extra` holds top-level config lines.
    pub async fn start(llm: &FakeLlm, tg: &FakeTelegram, dir: &Path, extra: &str) -> Self {
        use mneme::channels::Channel;
        let bot = TestBot::start(llm, dir, &format!("{}{extra}", telegram_yaml(tg))).await;
        let channel =
            mneme::channels::telegram::TelegramChannel::new(&bot.agent.config().channels.telegram)
                .unwrap();
        let shutdown = tokio_util::sync::CancellationToken::new();
        let (agent, stop) = (bot.agent.clone(), shutdown.clone());
        let task = tokio::spawn(async move { channel.run(agent, stop).await });
        Self {
            bot,
            shutdown,
            task,
        }
    }

    /// Stops the channel as SIGTERM would, and waits for it.
    pub async fn stop(self) -> TestBot {
        self.shutdown.cancel();
        tokio::time::timeout(std::time::Duration::from_secs(15), self.task)
            .await
            .expect("the channel stops in time")
            .expect("the channel task does not panic")
            .expect("the channel ends cleanly");
        self.bot.agent.store().close().await;
        self.bot
    }

    pub fn is_running(&self) -> bool {
        !self.task.is_finished()
    }
}
