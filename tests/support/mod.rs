//! Test support shared by the integration tests: fake servers and a ready agent.
#![allow(dead_code)] // each test binary uses a different part

pub mod binary;
pub mod docker;
pub mod fake_discord;
pub mod fake_embeddings;
pub mod fake_llm;
pub mod fake_telegram;
pub mod postgres;
pub mod reflector;
pub mod skip;
pub mod web;
pub mod word_embedder;

use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::Notify;

use mneme::agent::{Agent, IncomingMessage, Outcome, Reply};
use mneme::base::ChatKey;
use mneme::config::Config;
use mneme::store::Store;

#[allow(unused_imports)] // only the Discord tests use them
pub use fake_discord::{AfterCreate, FakeDiscord, Posted};
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

/// Waits (up to 15 s) until `cond` holds, re-checking whenever `changed` is notified; on time-out
/// panics naming `what` and showing `so_far()`. The fakes' waits, without fixed sleeps.
pub async fn wait_notified(
    changed: &Notify,
    what: &str,
    cond: impl Fn() -> bool,
    so_far: impl Fn() -> String,
) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    loop {
        let notified = changed.notified();
        if cond() {
            return;
        }
        if tokio::time::timeout_at(deadline, notified).await.is_err() {
            panic!("timed out waiting for {what}; {}", so_far());
        }
    }
}

/// Polls `cond` (every 10 ms, up to 15 s) until it holds; panics naming `what` otherwise. For
/// state that no fake is told about (a row the bot writes after delivering).
pub async fn eventually<F: Future<Output = bool>>(what: &str, mut cond: impl FnMut() -> F) {
    let deadline = Instant::now() + Duration::from_secs(15);
    while !cond().await {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Polls `agent`'s channel status (every 5 ms, up to 30 s) until `channel` is down; returns
/// why, as `/healthz` shows it after `down: `.
pub async fn wait_down(agent: &Agent, channel: &str) -> String {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let now = agent.channel_status().snapshot().get(channel).cloned();
        if let Some(mneme::health::ChannelState::Down(why)) = now {
            return why;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "{channel} never went down: {now:?}"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// The texts of the messages stored for chat `chat` (`CHANNEL:ID`), oldest first; none when
/// the chat is not known.
pub async fn stored_texts(agent: &Agent, chat: &str) -> Vec<String> {
    let store = agent.store();
    let key: mneme::base::ChatKey = chat.parse().unwrap();
    let Some(chat) = store.find_chat(&key).await.unwrap() else {
        return Vec::new();
    };
    store
        .messages_after(chat.id, 0, 1000)
        .await
        .unwrap()
        .into_iter()
        .map(|m| m.text)
        .collect()
}

/// Waits until `channel` owes no answer: every delivered answer is recorded (the channel does
/// that just after delivering, so a test that saw the delivery polls for it).
pub async fn wait_nothing_owed(agent: &Arc<Agent>, channel: &str) {
    eventually(
        &format!("every {channel} answer recorded as delivered"),
        || {
            let agent = agent.clone();
            let channel = channel.to_string();
            async move { agent.awaiting_reply(&channel, 0).await.unwrap().is_empty() }
        },
    )
    .await;
}

/// The real `mneme start` on a config file, logging to a pipe.
pub struct Daemon {
    child: tokio::process::Child,
}

impl Daemon {
    /// Starts it with `MNEME_LOG=log_filter`.
    pub fn start(config: &Path, log_filter: &str) -> Self {
        let child = tokio::process::Command::new(env!("CARGO_BIN_EXE_mneme"))
            .arg("--config")
            .arg(config)
            .arg("start")
            .env("MNEME_LOG", log_filter)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("mneme starts");
        Self { child }
    }

    /// Sends SIGTERM and checks that it exits cleanly within 10 s. Returns what it logged.
    pub async fn terminate(self) -> String {
        let pid = self.child.id().expect("still running").to_string();
        let started = Instant::now();
        let sent = std::process::Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap();
        assert!(sent.success());
        let (status, stderr) = self.exited().await;
        assert!(status.success(), "clean exit: {status:?}\n{stderr}");
        assert!(started.elapsed() < Duration::from_secs(10));
        stderr
    }

    /// SIGKILL: gone at once, nothing said, nothing closed (a crashed machine, the OOM killer).
    pub async fn kill(mut self) {
        let pid = self.child.id().expect("still running").to_string();
        let sent = std::process::Command::new("kill")
            .args(["-KILL", &pid])
            .status()
            .unwrap();
        assert!(sent.success());
        let _ = self.child.wait().await;
    }

    /// Waits (10 s at most) for it to exit; returns how, and what it logged.
    pub async fn exited(mut self) -> (std::process::ExitStatus, String) {
        use tokio::io::AsyncReadExt;
        let status = tokio::time::timeout(Duration::from_secs(10), self.child.wait())
            .await
            .expect("exits within 10 s")
            .unwrap();
        let mut stderr = String::new();
        let mut pipe = self.child.stderr.take().unwrap();
        pipe.read_to_string(&mut stderr).await.unwrap();
        (status, stderr)
    }
}

/// Per-message latency for the overhead benches: `round(i)` sends one message and waits for
/// its answer; `warmup` untimed rounds come first. Returns the median and the 99th percentile.
pub async fn latency<F, Fut>(warmup: usize, count: usize, mut round: F) -> (Duration, Duration)
where
    F: FnMut(usize) -> Fut,
    Fut: Future<Output = ()>,
{
    for i in 0..warmup {
        round(i).await;
    }
    let mut samples = Vec::with_capacity(count);
    for i in warmup..warmup + count {
        let t = Instant::now();
        round(i).await;
        samples.push(t.elapsed());
    }
    samples.sort();
    (samples[count / 2], samples[count * 99 / 100])
}

/// A long model answer: `paragraphs` paragraphs, then a Rust code block of `code_lines` lines
/// (with `<`, `&&` and an emoji in each), then "That's all.".
pub fn long_reply(paragraphs: usize, code_lines: usize) -> String {
    let mut long = String::from("Here is the plan.\n\n");
    for i in 0..paragraphs {
        let words = "words and more words ".repeat(3);
        long.push_str(&format!("Paragraph {i}: {words}\n\n"));
    }
    long.push_str("```rust\n");
    for i in 0..code_lines {
        long.push_str(&format!(
            "let value_{i} = compute({i}) < limit && ok; // 😀\n"
        ));
    }
    long.push_str("```\n\nThat's all.");
    long
}

/// Every non-empty line of `original` outside fence markers appears in `delivered`, in order.
pub fn assert_nothing_lost(original: &str, delivered: &str) {
    let mut at = 0;
    let lines = original
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with("```"));
    for line in lines {
        let found = delivered[at..]
            .find(line)
            .unwrap_or_else(|| panic!("missing or out of order: {line}"));
        at += found + line.len();
    }
}

/// The YAML of a config that talks to `llm` and keeps its data in `dir` — and its database
/// there too, or, with `MNEME_TEST_BACKEND=postgres`, in a fresh PostgreSQL database.
pub fn config_yaml(llm: &FakeLlm, dir: &Path, extra: &str) -> String {
    format!(
        "data_dir: {}\nllm_base_url: {}\nmodel: fake-model\nllm_timeout_secs: 5\nllm_max_retries: 1\n\
         {}channels:\n  web:\n    enabled: false\n{extra}",
        dir.join("data").display(),
        llm.url,
        postgres::database_url(dir)
            .map(|url| format!("database_url: \"{url}\"\n"))
            .unwrap_or_default(),
    )
}

/// The database URL of a test's store in `dir`: a SQLite file there, or a fresh PostgreSQL
/// database with `MNEME_TEST_BACKEND=postgres`.
pub fn database_url(dir: &Path) -> String {
    postgres::database_url(dir)
        .unwrap_or_else(|| format!("sqlite://{}", dir.join("mneme.db").display()))
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

/// An active, explicit memory with confidence 0.8, to insert directly.
pub fn new_memory(
    scope: mneme::base::MemoryScope,
    category: mneme::base::Category,
    content: &str,
) -> mneme::store::NewMemory {
    mneme::store::NewMemory {
        scope,
        category,
        content: content.into(),
        subject: None,
        confidence: 0.8,
        source: mneme::base::Source::Explicit,
        source_message_ids: vec![],
        created_at: None,
        last_seen_at: None,
        archived: false,
        key: None,
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

/// The config lines that enable Discord against `dc`: user `FRIEND` may DM, channel `ALLOWED`
/// (and its threads) is served.
pub fn discord_yaml(dc: &FakeDiscord, extra: &str) -> String {
    format!(
        "  discord:\n    enabled: true\n    bot_token: \"{}\"\n    api_url: {}\n    allowed_user_ids: [{}]\n    allowed_channels: [\"{}\"]\n{extra}",
        dc.token,
        dc.api_url,
        FakeDiscord::FRIEND,
        FakeDiscord::ALLOWED
    )
}

/// A platform channel running in-process on a `TestBot`.
pub struct ChannelBot {
    pub bot: TestBot,
    shutdown: tokio_util::sync::CancellationToken,
    task: tokio::task::JoinHandle<anyhow::Result<()>>,
}

/// The name the Telegram tests know it by.
pub type TelegramBot = ChannelBot;

impl ChannelBot {
    /// Telegram against `tg`; `extra` holds top-level config lines.
    pub async fn start(llm: &FakeLlm, tg: &FakeTelegram, dir: &Path, extra: &str) -> Self {
        let bot = TestBot::start(llm, dir, &format!("{}{extra}", telegram_yaml(tg))).await;
        let channel =
            mneme::channels::telegram::TelegramChannel::new(&bot.agent.config().channels.telegram)
                .unwrap();
        Self::run(bot, channel)
    }

    /// Discord against `dc`, with `discord_extra` lines under `channels.discord`; returns once
    /// the bot's gateway session is up.
    pub async fn discord(llm: &FakeLlm, dc: &FakeDiscord, dir: &Path, discord_extra: &str) -> Self {
        let running = Self::discord_unconnected(llm, dc, dir, discord_extra).await;
        dc.wait_connected().await;
        // …and the bot has taken the session's READY in: its handler gives the shard the
        // collector that keeps each channel's order (a message sent before it is not noted).
        let agent = running.bot.agent.clone();
        eventually("the bot's READY handler", || {
            let agent = agent.clone();
            async move {
                let states = agent.channel_status().snapshot();
                states.get("discord") == Some(&mneme::health::ChannelState::Connected)
            }
        })
        .await;
        running
    }

    /// Discord against `dc`, without waiting for the gateway.
    pub async fn discord_unconnected(
        llm: &FakeLlm,
        dc: &FakeDiscord,
        dir: &Path,
        discord_extra: &str,
    ) -> Self {
        let bot = TestBot::start(llm, dir, &discord_yaml(dc, discord_extra)).await;
        let channel =
            mneme::channels::discord::DiscordChannel::new(&bot.agent.config().channels.discord)
                .unwrap();
        Self::run(bot, channel)
    }

    fn run(bot: TestBot, channel: impl mneme::channels::Channel + 'static) -> Self {
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

    /// Waits (up to 15 s) for the channel to end by itself, and returns how it ended.
    pub async fn ended(self) -> anyhow::Result<()> {
        let result = tokio::time::timeout(std::time::Duration::from_secs(15), self.task)
            .await
            .expect("the channel ends in time")
            .expect("the channel task does not panic");
        self.bot.agent.store().close().await;
        result
    }

    pub fn is_running(&self) -> bool {
        !self.task.is_finished()
    }
}

/// Memory `id`, which must be archived: the memory that superseded it and why (its history).
pub async fn superseded(store: &Store, id: i64) -> (i64, String) {
    assert!(store.get_memory(id).await.unwrap().unwrap().archived);
    let history = store.memory_history(id).await.unwrap();
    let event = history
        .iter()
        .find(|e| e.kind == "superseded")
        .expect("a superseded event");
    (
        event.other_id.expect("the superseding memory"),
        event.note.clone().unwrap_or_default(),
    )
}
