//! Several `mneme start` processes on one PostgreSQL database: the work only one of them may
//! do for the bot — Telegram's long polling, the Discord gateway, the scheduled jobs — is held
//! under a lease by one replica at a time, `/healthz` says which, and when the holder dies
//! (SIGKILL) another takes over and nothing is answered twice.

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;
use support::binary::write_config;
use support::web::{free_port, wait_healthy};
use support::*;

use support::postgres::server;

/// One replica: its own data dir and web port, the shared database and `channels`.
struct Replica {
    daemon: Option<Daemon>,
    base: String,
    _dir: tempfile::TempDir,
}

impl Replica {
    async fn start(llm_url: &str, database: &str, channels: &str) -> Self {
        let replica = Self::spawn(llm_url, database, channels);
        wait_healthy(&replica.base).await;
        replica
    }

    /// Starts one without waiting for it to serve.
    fn spawn(llm_url: &str, database: &str, channels: &str) -> Self {
        Self::spawn_waiting(llm_url, database, channels, 5)
    }

    /// [`Replica::spawn`] waiting up to `llm_timeout_secs` for the model.
    fn spawn_waiting(llm_url: &str, database: &str, channels: &str, llm_timeout_secs: u32) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let port = free_port();
        let yaml = format!(
            "data_dir: {}\nllm_base_url: {}\nmodel: fake-model\nllm_timeout_secs: {llm_timeout_secs}\nllm_max_retries: 1\n\
             database_url: \"{database}\"\nreflector_enabled: false\n\
             channels:\n  web:\n    enabled: true\n    host: 127.0.0.1\n    port: {port}\n{channels}",
            dir.path().join("data").display(),
            llm_url,
        );
        let config = write_config(dir.path(), &yaml);
        let daemon = Daemon::start(&config, "mneme=info");
        let base = format!("http://127.0.0.1:{port}");
        Self {
            daemon: Some(daemon),
            base,
            _dir: dir,
        }
    }

    async fn health(&self) -> Value {
        reqwest::get(format!("{}/healthz", self.base))
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    }

    async fn holds(&self, lease: &str) -> bool {
        self.health().await["leases"]["held"]
            .as_array()
            .is_some_and(|held| held.iter().any(|l| l == lease))
    }

    async fn kill(&mut self) {
        self.daemon.take().unwrap().kill().await;
    }

    async fn stop(mut self) -> String {
        self.daemon.take().unwrap().terminate().await
    }
}

/// Waits until no message of `channel` is owed an answer in `database`.
async fn nothing_owed(database: &str, channel: &str) {
    let store = mneme::store::Store::open(database).await.unwrap();
    eventually("every delivery recorded", || {
        let store = store.clone();
        async move { store.awaiting_reply(channel, 0).await.unwrap().is_empty() }
    })
    .await;
    store.close().await;
}

/// Waits (up to 15 s) until exactly one of `replicas` holds `lease`; returns its index.
/// Never two at once.
async fn holder(replicas: &[&Replica], lease: &str) -> usize {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
    loop {
        let mut holders = Vec::new();
        for (i, r) in replicas.iter().enumerate() {
            if r.holds(lease).await {
                holders.push(i);
            }
        }
        assert!(holders.len() <= 1, "two replicas hold {lease}: {holders:?}");
        if let Some(i) = holders.first() {
            return *i;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "timed out waiting for a replica holding {lease}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn one_replica_polls_telegram_and_another_takes_over_when_it_is_killed() {
    let Some(server) = server() else { return };
    let database = postgres::scratch_database(server);
    let llm = FakeLlm::start().await;
    let tg = FakeTelegram::start().await;
    let channels = telegram_yaml(&tg);
    let a = Replica::start(&llm.url, &database, &channels).await;
    let b = Replica::start(&llm.url, &database, &channels).await;
    let mut replicas = [a, b];
    let first = holder(&[&replicas[0], &replicas[1]], "telegram-polling").await;
    let other = 1 - first;
    // Both are healthy: the other stands by, and says why.
    let standby = replicas[other].health().await;
    assert_eq!(standby["status"], "ok", "{standby}");
    assert!(
        standby["channels"]["telegram"]
            .as_str()
            .unwrap()
            .starts_with("standby: another replica holds the telegram-polling lease"),
        "{standby}"
    );
    // The scheduled jobs are one replica's too.
    holder(&[&replicas[0], &replicas[1]], "schedule").await;

    for i in 1..=3 {
        tg.private_text(100, &format!("remember fact {i}"));
    }
    tg.wait_sent(3).await;
    tg.wait_confirmed().await;
    // Killed between delivering an answer and recording it, a replica leaves that answer owed,
    // and the next one gives it again (Telegram's sendMessage cannot be made idempotent): this
    // test is about taking over, so it kills once every delivery is recorded.
    nothing_owed(&database, "telegram").await;

    replicas[first].kill().await;
    for i in 4..=6 {
        tg.private_text(100, &format!("remember fact {i}"));
    }
    let sent = tg.wait_sent(6).await;
    tg.wait_confirmed().await;
    // The survivor polls (it answered), and takes the scheduled jobs too; each lease is retried
    // on its own, so the schedule lease may come a moment after the polling one.
    assert!(replicas[other].holds("telegram-polling").await);
    holder(&[&replicas[other]], "schedule").await;
    // Every message answered once, in order.
    let texts: Vec<String> = sent.iter().map(|s| s.visible()).collect();
    assert_eq!(texts.len(), 6, "{texts:?}");
    for (i, text) in texts.iter().enumerate() {
        assert!(text.ends_with(&format!("fact {}", i + 1)), "{texts:?}");
    }
    assert!(replicas[other].daemon.is_some());
    let survivor = replicas.into_iter().nth(other).unwrap();
    let log = survivor.stop().await;
    // data_dir is made even though the database is elsewhere: the heartbeat lives there.
    assert!(!log.contains("cannot write the heartbeat"), "{log}");
}

#[tokio::test(flavor = "multi_thread")]
async fn one_replica_holds_the_discord_gateway_and_another_takes_over_when_it_is_killed() {
    let Some(server) = server() else { return };
    let database = postgres::scratch_database(server);
    let llm = FakeLlm::start().await;
    llm.fallback(openai_text("hello from a replica"));
    let dc = FakeDiscord::start().await;
    let channels = discord_yaml(&dc, "");
    let a = Replica::start(&llm.url, &database, &channels).await;
    let b = Replica::start(&llm.url, &database, &channels).await;
    let mut replicas = [a, b];
    let first = holder(&[&replicas[0], &replicas[1]], "discord-gateway").await;
    dc.wait_until("the holder identifies", |d| d.identifies().len() == 1)
        .await;
    dc.dm(FakeDiscord::FRIEND, "hi");
    dc.wait_until("the answer", |d| d.posted().len() == 1).await;
    nothing_owed(&database, "discord").await;
    // One session for the bot: the standby replica never connected.
    assert_eq!(dc.identifies().len(), 1);

    replicas[first].kill().await;
    let other = 1 - first;
    holder(&[&replicas[other]], "discord-gateway").await;
    dc.wait_until("the other replica identifies", |d| {
        d.identifies().len() == 2
    })
    .await;
    dc.dm(FakeDiscord::FRIEND, "still there?");
    dc.wait_until("the answer from the other replica", |d| {
        d.posted().len() == 2
    })
    .await;
    let survivor = replicas.into_iter().nth(other).unwrap();
    let log = survivor.stop().await;
    assert!(!log.contains("panicked"), "{log}");
}

/// An OpenAI-compatible model that answers "re: " and the user's last words, and can be held:
/// while held, answers wait (the turns asking stay before their delivery).
#[derive(Clone)]
struct EchoLlm {
    url: String,
    held: Arc<tokio::sync::watch::Sender<bool>>,
    waiting: Arc<AtomicUsize>,
}

impl EchoLlm {
    async fn start() -> Self {
        let (held, _) = tokio::sync::watch::channel(false);
        let me = Self {
            url: String::new(),
            held: Arc::new(held),
            waiting: Arc::default(),
        };
        let state = me.clone();
        let app = axum::Router::new().route(
            "/v1/chat/completions",
            axum::routing::post(move |body: axum::Json<Value>| {
                let state = state.clone();
                async move {
                    let said = body["messages"]
                        .as_array()
                        .and_then(|m| m.iter().rev().find(|m| m["role"] == "user"))
                        .and_then(|m| m["content"].as_str())
                        .unwrap_or_default()
                        .to_string();
                    state.waiting.fetch_add(1, Ordering::SeqCst);
                    let _ = state.held.subscribe().wait_for(|held| !*held).await;
                    state.waiting.fetch_sub(1, Ordering::SeqCst);
                    axum::Json(serde_json::json!({
                        "id": "chatcmpl-echo", "object": "chat.completion", "model": "echo",
                        "choices": [{"index": 0, "finish_reason": "stop",
                                     "message": {"role": "assistant", "content": format!("re: {said}")}}],
                        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
                    }))
                }
            }),
        );
        let addr = serve(app).await;
        Self {
            url: format!("http://{addr}/v1"),
            ..me
        }
    }
}

/// A round-robin load balancer on 127.0.0.1 in front of `backends` (base URLs): each POST goes
/// to the next one, or the one after when it does not answer (a balancer's health check).
async fn balancer(backends: Vec<String>) -> String {
    let next = Arc::new(AtomicUsize::new(0));
    let client = reqwest::Client::new();
    let app = axum::Router::new().fallback(
        move |uri: axum::http::Uri, headers: axum::http::HeaderMap, body: axum::body::Bytes| {
            let (next, client, backends) = (next.clone(), client.clone(), backends.clone());
            async move {
                for _ in 0..backends.len() {
                    let to = &backends[next.fetch_add(1, Ordering::SeqCst) % backends.len()];
                    let mut request = client
                        .post(format!("{to}{}", uri.path()))
                        .body(body.clone());
                    for (name, value) in &headers {
                        if name != "host" && name != "content-length" {
                            request = request.header(name, value);
                        }
                    }
                    if let Ok(response) = request.send().await {
                        return axum::http::StatusCode::from_u16(response.status().as_u16())
                            .unwrap_or(axum::http::StatusCode::BAD_GATEWAY);
                    }
                }
                axum::http::StatusCode::BAD_GATEWAY
            }
        },
    );
    format!("http://{}", serve(app).await)
}

/// What the fake Telegram was sent, by chat, as it arrives.
#[derive(Clone, Default)]
struct Inbox {
    by_chat: Arc<std::sync::Mutex<std::collections::HashMap<i64, Vec<String>>>>,
    total: Arc<AtomicUsize>,
    changed: Arc<tokio::sync::Notify>,
}

impl Inbox {
    fn collect(tg: &FakeTelegram) -> Self {
        let inbox = Self::default();
        let mut sent = tg.on_sent();
        let filling = inbox.clone();
        tokio::spawn(async move {
            while let Some(s) = sent.recv().await {
                filling
                    .by_chat
                    .lock()
                    .unwrap()
                    .entry(s.chat_id)
                    .or_default()
                    .push(s.visible());
                filling.total.fetch_add(1, Ordering::SeqCst);
                filling.changed.notify_waiters();
            }
        });
        inbox
    }

    fn of(&self, chat: i64) -> Vec<String> {
        self.by_chat
            .lock()
            .unwrap()
            .get(&chat)
            .cloned()
            .unwrap_or_default()
    }

    async fn wait(&self, what: &str, cond: impl Fn(&Self) -> bool) {
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(60);
        loop {
            let changed = self.changed.notified();
            if cond(self) {
                return;
            }
            if tokio::time::timeout_at(deadline, changed).await.is_err() {
                panic!("timed out waiting for {what}");
            }
        }
    }
}

/// The `channels` of a replica serving Telegram's webhook on `port` behind `front` (the URL
/// Telegram is given), allowing `users` (a YAML list's items).
fn webhook_channels(tg: &FakeTelegram, users: &str, front: &str, port: u16) -> String {
    format!(
        "  telegram:\n    enabled: true\n    bot_token: \"{}\"\n    api_url: {}\n    allowed_user_ids: [{users}]\n\
         \x20   mode: webhook\n    webhook_url: {front}/telegram/updates\n    webhook_secret: {SECRET}\n\
         \x20   webhook_listen: 127.0.0.1:{port}\n",
        tg.token, tg.url
    )
}

const CHATS: i64 = 100;
const MESSAGES: usize = 5;
const SECRET: &str = "replica-Secret_0123456789";

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_webhook_replicas_answer_every_message_once_in_order_while_one_is_killed() {
    let Some(server) = server() else { return };
    let database = postgres::scratch_database(server);
    let llm = EchoLlm::start().await;
    let tg = FakeTelegram::start().await;
    let inbox = Inbox::collect(&tg);
    let ports = [free_port(), free_port()];
    let front = balancer(
        ports
            .iter()
            .map(|p| format!("http://127.0.0.1:{p}"))
            .collect(),
    )
    .await;
    let users: Vec<String> = (1..=CHATS).map(|u| u.to_string()).collect();
    let mut replicas = Vec::new();
    for port in ports {
        let channels = webhook_channels(&tg, &users.join(", "), &front, port);
        replicas.push(Replica::start(&llm.url, &database, &channels).await);
    }
    tg.wait_until("the webhook set", |t| t.webhook().is_some())
        .await;

    // Telegram's side: each chat says five things, each after the answer to the one before;
    // an update is POSTed again until the balancer answers 200.
    let client = reqwest::Client::new();
    let mut chats = tokio::task::JoinSet::new();
    for chat in 1..=CHATS {
        let (tg, inbox, client, url) = (tg.clone(), inbox.clone(), client.clone(), front.clone());
        chats.spawn(async move {
            for i in 1..=MESSAGES {
                let text = format!("chat {chat} message {i}");
                let update = tg.update(tg.private_message(chat, &text));
                let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(60);
                loop {
                    let status = client
                        .post(format!("{url}/telegram/updates"))
                        .header("X-Telegram-Bot-Api-Secret-Token", SECRET)
                        .json(&update)
                        .send()
                        .await
                        .map(|r| r.status().as_u16());
                    if matches!(status, Ok(200)) {
                        break;
                    }
                    assert!(tokio::time::Instant::now() < deadline, "{text} never taken");
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                }
                let want = format!("re: {text}");
                inbox
                    .wait(&want, |inbox| inbox.of(chat).iter().any(|s| s == &want))
                    .await;
            }
        });
    }

    // Mid-load: the model holds its answers, so the turns in flight stay before delivery;
    // once deliveries stop, one replica is killed (SIGKILL), and the model answers again.
    let half = (CHATS as usize) * MESSAGES / 2;
    inbox
        .wait("half the answers", |i| {
            i.total.load(Ordering::SeqCst) >= half
        })
        .await;
    llm.held.send_replace(true);
    eventually("turns waiting on the model", || {
        let waiting = llm.waiting.clone();
        async move { waiting.load(Ordering::SeqCst) >= 10 }
    })
    .await;
    let mut last = inbox.total.load(Ordering::SeqCst);
    let mut still = 0;
    while still < 5 {
        tokio::time::sleep(std::time::Duration::from_millis(40)).await;
        let now = inbox.total.load(Ordering::SeqCst);
        still = if now == last { still + 1 } else { 0 };
        last = now;
    }
    replicas[0].kill().await;
    llm.held.send_replace(false);

    while let Some(done) = chats.join_next().await {
        done.expect("every chat is answered");
    }
    nothing_owed(&database, "telegram").await;
    for chat in 1..=CHATS {
        let want: Vec<String> = (1..=MESSAGES)
            .map(|i| format!("re: chat {chat} message {i}"))
            .collect();
        assert_eq!(
            inbox.of(chat),
            want,
            "chat {chat}: each answered once, in order"
        );
    }
    let survivor = replicas.pop().unwrap();
    let log = survivor.stop().await;
    assert!(!log.contains("panicked"), "{log}");
}

/// A replica whose turn-lock connection is cut while the model thinks (an idle timeout on the
/// way to the server does that) has lost the chat's turn with it: another replica takes the
/// chat and answers, and the first, once the model answers it too, gives nothing. One answer.
#[tokio::test(flavor = "multi_thread")]
async fn a_replica_that_lost_the_chats_turn_does_not_answer_too() {
    use sqlx::Connection;
    let Some(server) = server() else { return };
    let database = postgres::scratch_database(server);
    let llm = EchoLlm::start().await;
    let tg = FakeTelegram::start().await;
    let inbox = Inbox::collect(&tg);
    let ports = [free_port(), free_port()];
    let mut replicas = Vec::new();
    let front = format!("http://127.0.0.1:{}", ports[0]);
    for port in ports {
        let channels = webhook_channels(&tg, "1", &front, port);
        replicas.push(Replica::start(&llm.url, &database, &channels).await);
    }
    tg.wait_until("the webhook set", |t| t.webhook().is_some())
        .await;

    // The message reaches the first replica, whose turn waits on the model.
    llm.held.send_replace(true);
    let update = tg.update(tg.private_message(1, "hello"));
    let status = reqwest::Client::new()
        .post(format!("http://127.0.0.1:{}/telegram/updates", ports[0]))
        .header("X-Telegram-Bot-Api-Secret-Token", SECRET)
        .json(&update)
        .send()
        .await
        .unwrap()
        .status();
    assert_eq!(status, 200);
    eventually("the first replica's turn waits on the model", || {
        let waiting = llm.waiting.clone();
        async move { waiting.load(Ordering::SeqCst) >= 1 }
    })
    .await;

    // The server cuts the connection that holds the chat's turn lock (a chat's turn is the
    // advisory lock 0x4d4e_0000_0000_0000 | chat id, `store::turns`: its high half is this).
    // pg_locks shows the whole cluster: the tests beside this one hold turns of their own.
    let mut pg = sqlx::PgConnection::connect(&database).await.unwrap();
    let cut: Vec<bool> = sqlx::query_scalar(
        "SELECT pg_terminate_backend(pid) FROM pg_locks
          WHERE locktype = 'advisory' AND granted AND objsubid = 1 AND classid = 1296957440
            AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
    )
    .fetch_all(&mut pg)
    .await
    .unwrap();
    assert_eq!(cut, [true], "one connection holds the chat's turn");

    // The other replica finds the message owed, takes the chat's turn and asks the model.
    eventually("the second replica asks the model too", || {
        let waiting = llm.waiting.clone();
        async move { waiting.load(Ordering::SeqCst) >= 2 }
    })
    .await;
    llm.held.send_replace(false);
    inbox.wait("the answer", |i| i.of(1) == ["re: hello"]).await;
    nothing_owed(&database, "telegram").await;
    // The first replica's turn ends (at the latest when it stops) without delivering.
    let first = replicas.remove(0);
    let log = first.stop().await;
    assert_eq!(inbox.of(1), ["re: hello"], "answered once");
    assert!(log.contains("turn was lost"), "{log}");
    let log = replicas.pop().unwrap().stop().await;
    assert!(!log.contains("panicked"), "{log}");
}

/// Two processes reflecting one chat at once (`mneme reflect` beside another, or beside a
/// daemon on another machine): both ask the model, one stores the batch with the cursor, the
/// other finds the cursor moved and stores nothing — each fact once.
#[tokio::test(flavor = "multi_thread")]
async fn two_processes_reflecting_one_chat_store_each_fact_once() {
    use support::reflector::{Lab, facts, reflector_yaml};
    let Some(server) = server() else { return };
    let database = postgres::scratch_database(server);
    let extra = format!("database_url: \"{database}\"\n");
    let lab = Lab::new(&extra).await;
    let chat = lab.chat("telegram:7", false).await;
    lab.say(&chat, "alice", "I moved to Lisbon and I play the cello")
        .await;
    // Slow enough that both ask before either stores.
    lab.llm.fallback(Answer::Delayed(
        std::time::Duration::from_millis(1500),
        Box::new(facts(serde_json::json!([
            {"content": "Alice lives in Lisbon", "category": "PROFILE", "supersedes_id": null},
            {"content": "Alice plays the cello", "category": "PROFILE", "supersedes_id": null}
        ]))),
    ));
    let config = write_config(
        lab.dir.path(),
        &reflector_yaml(&lab.llm, lab.dir.path(), &extra),
    );
    let (one, two) = tokio::join!(
        support::binary::mneme(&config, &["reflect"], ""),
        support::binary::mneme(&config, &["reflect"], "")
    );
    assert_eq!(one.code, 0, "{}", one.stderr);
    assert_eq!(two.code, 0, "{}", two.stderr);
    assert!(lab.llm.request_count() >= 2, "both asked the model");
    let mut stored: Vec<String> = lab
        .memories(chat.id, false)
        .await
        .into_iter()
        .map(|m| m.content)
        .collect();
    stored.sort();
    assert_eq!(stored, ["Alice lives in Lisbon", "Alice plays the cello"]);
}

/// A web message a shutdown cut off is answered once at the next start, even when two
/// replicas start together: each looks for such messages, and the chat's turn lock lets one
/// answer while the other, once it gets the turn, finds nothing owed.
#[tokio::test(flavor = "multi_thread")]
async fn a_web_answer_a_shutdown_cut_off_is_given_once_by_replicas_starting_together() {
    let Some(server) = server() else { return };
    let database = postgres::scratch_database(server);
    let store = mneme::store::Store::open(&database).await.unwrap();
    let chat = store
        .ensure_chat(&"web:t11".parse().unwrap(), false, None)
        .await
        .unwrap();
    let session = store.current_session(chat.id).await.unwrap();
    store
        .insert_message(&mneme::store::NewMessage {
            chat_id: chat.id,
            session_id: session,
            sender_id: "web",
            sender_name: "you",
            is_from_bot: false,
            text: "hello, cut off by a restart",
            platform_message_id: None,
            platform_thread_id: None,
            created_at: None,
            needs_reply: true,
            searchable: true,
        })
        .await
        .unwrap();
    let llm = FakeLlm::start().await;
    // Slow enough that both replicas look for owed answers while the first one answers.
    llm.fallback(openai_text_after(
        "Hello again.",
        std::time::Duration::from_secs(4),
    ));
    let a = Replica::spawn(&llm.url, &database, "");
    let b = Replica::spawn(&llm.url, &database, "");
    wait_healthy(&a.base).await;
    wait_healthy(&b.base).await;
    nothing_owed(&database, "web").await;
    let logs = [a.stop().await, b.stop().await];
    assert_eq!(
        llm.request_count(),
        1,
        "the model was asked once: {logs:#?}"
    );

    let answers: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM messages WHERE chat_id = $1 AND is_from_bot")
            .bind(chat.id)
            .fetch_one(&mut *store_conn(&database).await)
            .await
            .unwrap();
    assert_eq!(answers, 1);
    store.close().await;
}

async fn store_conn(database: &str) -> Box<sqlx::PgConnection> {
    Box::new(
        <sqlx::PgConnection as sqlx::Connection>::connect(database)
            .await
            .unwrap(),
    )
}

/// Posts a web chat message to `base` without waiting for its answer (the stream stays open).
fn post_web(base: &str, conversation: &str, text: &str) -> tokio::task::JoinHandle<()> {
    let url = format!("{base}/api/chats/{conversation}/messages");
    let body = serde_json::json!({ "text": text });
    tokio::spawn(async move {
        if let Ok(resp) = reqwest::Client::new().post(url).json(&body).send().await {
            let _ = resp.bytes().await;
        }
    })
}

/// The answers stored in web conversation `conversation`.
async fn web_answers(database: &str, conversation: &str) -> i64 {
    sqlx::query_scalar(
        "SELECT COUNT(*) FROM messages m JOIN chats c ON c.id = m.chat_id \
         WHERE c.channel = 'web' AND c.external_chat_id = $1 AND m.is_from_bot",
    )
    .bind(conversation)
    .fetch_one(&mut *store_conn(database).await)
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_web_answer_a_killed_replica_was_giving_is_given_by_another_once() {
    let Some(server) = server() else { return };
    let database = postgres::scratch_database(server);
    let llm = FakeLlm::start().await;
    // The page's answers stream, slower than the other replica's look for owed answers
    // (every 3 s, at least 3 s old), so that it looks at least once while the first replica
    // answers; the other replica's answer, into the history, does not.
    let gap = std::time::Duration::from_millis(3500);
    llm.script([
        openai_stream_paced(&["Answered", " in turn", "."], gap),
        openai_stream_paced(&["Never", " finished", "."], gap),
        openai_text("Answered by the other replica."),
    ]);
    let mut a = Replica::spawn_waiting(&llm.url, &database, "", 20);
    let b = Replica::spawn_waiting(&llm.url, &database, "", 20);
    wait_healthy(&a.base).await;
    wait_healthy(&b.base).await;

    // Both alive: the replica answering holds the chat's turn, and the other one, finding
    // the message owed for longer than its look, leaves it alone.
    let first = post_web(&a.base, "t12", "first, answered by the replica it reached");
    first.await.unwrap();
    assert_eq!(llm.request_count(), 1, "the model was asked once");
    assert_eq!(web_answers(&database, "t12").await, 1);

    // The replica answering dies mid-answer: the other one gives it, once.
    let _second = post_web(&a.base, "t12", "second, cut off by a SIGKILL");
    llm.wait_for_requests(2).await;
    a.kill().await;
    nothing_owed(&database, "web").await;
    assert_eq!(web_answers(&database, "t12").await, 2);
    assert_eq!(
        llm.request_count(),
        3,
        "the killed replica's request and the other's"
    );
    let log = b.stop().await;
    assert!(
        log.contains("web: answering a message whose answer was cut off"),
        "{log}"
    );
}
