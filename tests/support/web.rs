//! The web channel under test: in-process on a free port in front of an agent whose model is
//! the fake LLM (`Web`), or the real `mneme start` with only the web chat.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use reqwest::StatusCode;
use reqwest::header::CONTENT_TYPE;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use mneme::agent::Agent;
use mneme::base::{Category, MemoryScope, Source};
use mneme::channels::Channel;
use mneme::channels::web::WebChannel;
use mneme::config::{Secret, WebConfig};
use mneme::llm::Metered;
use mneme::store::{NewMemory, Store};

use super::{FakeLlm, config};

/// A free port on 127.0.0.1 for a server the test starts later, below Linux's ephemeral range
/// (32768–60999). A port the kernel hands out for `bind(0)` is one it also hands out as the
/// local port of an outgoing connection, so between its release here and the server's bind a
/// test's own client could take it (seen in CI: "webhook_listen … is already in use"). Ports
/// below the range are only ever taken by a bind that names them: each process walks them from
/// a start of its own, and a port found bound is skipped.
pub fn free_port() -> u16 {
    use std::sync::atomic::{AtomicU32, Ordering};
    const FIRST: u32 = 20_000;
    const SPAN: u32 = 12_000;
    static NEXT: AtomicU32 = AtomicU32::new(u32::MAX);
    let seed = || {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        (std::process::id().wrapping_mul(7_919) ^ nanos) % SPAN
    };
    let _ = NEXT.compare_exchange(u32::MAX, seed(), Ordering::Relaxed, Ordering::Relaxed);
    for _ in 0..SPAN {
        let port = FIRST + NEXT.fetch_add(1, Ordering::Relaxed) % SPAN;
        let port = u16::try_from(port).expect("a port");
        if std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
    panic!("no free port between {FIRST} and {}", FIRST + SPAN)
}

/// A config with only the web channel, on `port`, without a token and without the reflector.
pub fn web_only_yaml(llm: &FakeLlm, dir: &Path, port: u16) -> String {
    format!(
        "data_dir: {}\nllm_base_url: {}\nmodel: fake-model\nllm_timeout_secs: 5\nllm_max_retries: 1\nreflector_enabled: false\n\
         {}channels:\n  web:\n    enabled: true\n    host: 127.0.0.1\n    port: {port}\n",
        dir.join("data").display(),
        llm.url,
        super::postgres::database_url(dir)
            .map(|url| format!("database_url: \"{url}\"\n"))
            .unwrap_or_default(),
    )
}

/// The real `mneme start` with only the web chat on a free port (plus `extra` config lines),
/// once `/healthz` answers: the daemon, its base URL and its config file.
pub async fn web_daemon(
    llm: &FakeLlm,
    dir: &Path,
    extra: &str,
) -> (super::Daemon, String, std::path::PathBuf) {
    let port = free_port();
    let yaml = format!("{}{extra}", web_only_yaml(llm, dir, port));
    let config = super::binary::write_config(dir, &yaml);
    let daemon = super::Daemon::start(&config, "mneme=info");
    let base = format!("http://127.0.0.1:{port}");
    wait_healthy(&base).await;
    (daemon, base, config)
}

/// Polls `/healthz` until it answers 200, 15 s at most.
pub async fn wait_healthy(base: &str) {
    let client = reqwest::Client::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    loop {
        if let Ok(r) = client.get(format!("{base}/healthz")).send().await
            && r.status() == 200
        {
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "{base} never became healthy"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

pub const TOKEN: &str = "test-token-4f1c9a7e2b";

/// A web channel serving a fresh agent.
pub struct Web {
    pub agent: Arc<Agent>,
    pub base: String,
    pub token: Option<String>,
    pub http: reqwest::Client,
    pub shutdown: CancellationToken,
    pub task: tokio::task::JoinHandle<anyhow::Result<()>>,
}

impl Web {
    pub async fn start(llm: &FakeLlm, dir: &Path, token: &str) -> Self {
        let config = Arc::new(config(llm, dir, "reflector_enabled: false\n"));
        let store = Store::open(&config.database_url()).await.unwrap();
        let provider = Metered::wrap(mneme::llm::from_config(&config).unwrap(), "chat");
        let agent = Arc::new(Agent::new(config, store, provider));
        let channel = WebChannel::bind(&WebConfig {
            enabled: true,
            host: "127.0.0.1".into(),
            port: 0,
            auth_token: Secret::new(token),
        })
        .unwrap();
        let base = format!("http://{}", channel.local_addr());
        let shutdown = CancellationToken::new();
        let (a, stop) = (agent.clone(), shutdown.clone());
        let task = tokio::spawn(async move { channel.run(a, stop).await });
        Self {
            agent,
            base,
            token: (!token.is_empty()).then(|| token.to_string()),
            http: reqwest::Client::new(),
            shutdown,
            task,
        }
    }

    pub fn req(&self, method: reqwest::Method, path: &str) -> reqwest::RequestBuilder {
        let r = self.http.request(method, format!("{}{path}", self.base));
        match &self.token {
            Some(t) => r.bearer_auth(t),
            None => r,
        }
    }

    pub fn get(&self, path: &str) -> reqwest::RequestBuilder {
        self.req(reqwest::Method::GET, path)
    }

    pub async fn get_json(&self, path: &str) -> (StatusCode, Value) {
        json_of(self.get(path).send().await.unwrap()).await
    }

    pub async fn send_json(&self, method: &str, path: &str, body: Value) -> (StatusCode, Value) {
        let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        json_of(self.req(method, path).json(&body).send().await.unwrap()).await
    }

    /// Sends a chat message; returns the events of the reply stream and in which network chunk
    /// each arrived.
    pub async fn chat(&self, id: &str, text: &str) -> Vec<Sse> {
        let resp = self
            .req(reqwest::Method::POST, &format!("/api/chats/{id}/messages"))
            .json(&json!({ "text": text }))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), 200);
        assert_eq!(resp.headers()["x-accel-buffering"], "no");
        assert!(
            resp.headers()[CONTENT_TYPE]
                .to_str()
                .unwrap()
                .starts_with("text/event-stream")
        );
        read_events(resp).await
    }

    /// The texts of conversation `id`'s history (`GET /api/chats/{id}/messages`), oldest
    /// first.
    pub async fn history_texts(&self, id: &str) -> Vec<String> {
        let (status, history) = self.get_json(&format!("/api/chats/{id}/messages")).await;
        assert_eq!(status, StatusCode::OK, "{history}");
        history["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["text"].as_str().unwrap().to_string())
            .collect()
    }

    /// The final `reply` event of a chat message.
    pub async fn say(&self, id: &str, text: &str) -> Value {
        let events = self.chat(id, text).await;
        let last = events.last().expect("some event");
        assert_eq!(last.event, "reply", "{events:?}");
        last.data.clone()
    }

    pub async fn stop(self) {
        self.shutdown.cancel();
        tokio::time::timeout(Duration::from_secs(10), self.task)
            .await
            .expect("the web channel stops in time")
            .unwrap()
            .unwrap();
    }
}

#[derive(Debug)]
pub struct Sse {
    pub event: String,
    pub data: Value,
    pub chunk: usize,
}

pub async fn read_events(resp: reqwest::Response) -> Vec<Sse> {
    let mut out = Vec::new();
    let mut buffer = String::new();
    let mut chunks = resp.bytes_stream();
    let mut n = 0;
    while let Some(chunk) = tokio::time::timeout(Duration::from_secs(15), chunks.next())
        .await
        .expect("the stream goes on")
    {
        n += 1;
        buffer.push_str(std::str::from_utf8(&chunk.unwrap()).unwrap());
        while let Some(end) = buffer.find("\n\n") {
            let block: String = buffer.drain(..end + 2).collect();
            let (mut event, mut data) = (String::from("message"), String::new());
            for line in block.lines() {
                if let Some(v) = line.strip_prefix("event: ") {
                    event = v.to_string();
                } else if let Some(v) = line.strip_prefix("data: ") {
                    data.push_str(v);
                }
            }
            if !data.is_empty() {
                out.push(Sse {
                    event,
                    data: serde_json::from_str(&data).unwrap(),
                    chunk: n,
                });
            }
        }
    }
    out
}

pub async fn json_of(resp: reqwest::Response) -> (StatusCode, Value) {
    let status = resp.status();
    let text = resp.text().await.unwrap();
    let value =
        serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON ({status}): {text}"));
    (status, value)
}

/// Asserts that a reply stream ended telling the page the server is stopping.
pub fn assert_told_stopping(events: &[Sse]) {
    let last = events.last().expect("an event");
    assert_eq!(last.event, "error", "{events:?}");
    assert!(
        error_of(&last.data).starts_with("The server is stopping before this answer was ready."),
        "{events:?}"
    );
}

pub fn error_of(v: &Value) -> &str {
    v["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error in {v}"))
}

pub async fn insert(store: &Store, scope: MemoryScope, content: &str, archived: bool) -> i64 {
    store
        .insert_memory(&NewMemory {
            scope,
            category: Category::Knowledge,
            content: content.into(),
            subject: None,
            confidence: 0.8,
            source: Source::Explicit,
            source_message_ids: vec![],
            created_at: None,
            last_seen_at: None,
            archived,
            key: None,
        })
        .await
        .unwrap()
}
