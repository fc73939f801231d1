//! A fake Discord on 127.0.0.1, speaking the real protocols closely enough for serenity.
//!
//! REST (axum) under `/api/v10`: `GET /gateway` (which tells the client where the fake gateway
//! is), `GET /users/@me`, `GET /channels/{id}`, `POST /channels/{id}/messages` (enforcing the
//! 2000-character limit and echoing the bot's own message back over the gateway, as Discord
//! does) and `POST /channels/{id}/typing`; `Authorization: Bot <token>` is checked; scripted
//! failures (429 with `retry_after`, 5xx).
//!
//! Gateway (tokio-tungstenite): HELLO with a heartbeat interval, heartbeat ACKs, IDENTIFY →
//! READY (checking the token and the Message Content intent switch: 4004 / 4014), dispatches
//! with increasing `s` kept per session, RESUME replaying what the client missed then RESUMED
//! (or op 9 when the resume is refused), and the means to drop or close the connection.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::sync::{Notify, mpsc};
use tokio_tungstenite::tungstenite::Message as WsMessage;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

/// A message the bot posted.
#[derive(Debug, Clone)]
pub struct Posted {
    pub id: u64,
    pub channel_id: u64,
    pub content: String,
    /// The request body as sent (`allowed_mentions`, `message_reference`, …).
    pub body: Value,
    /// The message object the fake answered with (and echoed over the gateway).
    pub json: Value,
}

impl Posted {
    /// The id of the message this one replies to, if any.
    pub fn reply_to(&self) -> Option<u64> {
        self.body["message_reference"]["message_id"]
            .as_str()
            .and_then(|s| s.parse().ok())
            .or_else(|| self.body["message_reference"]["message_id"].as_u64())
    }
}

/// What the test tells a live gateway connection to do.
enum Command {
    Frame(String),
    Close(u16),
    /// Drop the TCP connection without a close handshake, as a network failure would.
    Drop,
}

struct Session {
    id: String,
    seq: u64,
    /// Every dispatch of the session, for replays on RESUME.
    log: Vec<(u64, String)>,
}

#[derive(Default)]
struct Gateway {
    session: Option<Session>,
    /// The connection that identified or resumed last, while it is up.
    live: Option<mpsc::UnboundedSender<Command>>,
    connections: u32,
    heartbeats: u32,
    identifies: Vec<Value>,
    resumes: Vec<Value>,
    sessions_started: u32,
    /// Off: IDENTIFY with the Message Content intent is closed with 4014.
    message_content_disabled: bool,
    resumes_to_reject: u32,
    replay_everything: bool,
}

struct Inner {
    token: String,
    gateway_url: String,
    heartbeat_ms: u64,
    next_id: Mutex<u64>,
    channels: Mutex<HashMap<u64, Value>>,
    posted: Mutex<Vec<Posted>>,
    typing: Mutex<Vec<u64>>,
    /// Every REST call: (method, path).
    calls: Mutex<Vec<(String, String)>>,
    /// Scripted failures per (method, route kind), e.g. ("POST", "messages").
    failures: Mutex<HashMap<(String, String), VecDeque<u16>>>,
    gateway: Mutex<Gateway>,
    changed: Notify,
    /// While set, `GET /channels/{id}` waits for a permit of this semaphore.
    lookup_gate: Mutex<Option<Arc<tokio::sync::Semaphore>>>,
    /// Channel lookups being held by the gate right now (a cancelled one counts off).
    lookups_held: std::sync::atomic::AtomicUsize,
}

#[derive(Clone)]
pub struct FakeDiscord {
    /// Goes into `channels.discord.api_url` (with `/api`, as the default has it).
    pub api_url: String,
    pub token: String,
    inner: Arc<Inner>,
}

impl FakeDiscord {
    pub const BOT_ID: u64 = 9000;
    pub const BOT_NAME: &str = "mneme";
    pub const GUILD: u64 = 5000;
    /// A guild channel on the test config's allowlist, and one that is not.
    pub const ALLOWED: u64 = 100;
    pub const OTHER: u64 = 200;
    /// A thread under `ALLOWED`, and one under `OTHER`.
    pub const THREAD: u64 = 300;
    pub const OTHER_THREAD: u64 = 400;
    /// The user the test config allows to DM the bot.
    pub const FRIEND: u64 = 42;

    pub async fn start() -> Self {
        Self::start_with_heartbeat(1000).await
    }

    pub async fn start_with_heartbeat(heartbeat_ms: u64) -> Self {
        let token = "MTIzNDU2Nzg5.fake-discord.token-abcdefghijklmnop".to_string();
        let gw = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind fake Discord gateway");
        let rest = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind fake Discord REST");
        let inner = Arc::new(Inner {
            token: token.clone(),
            gateway_url: format!("ws://{}", gw.local_addr().unwrap()),
            heartbeat_ms,
            next_id: Mutex::new(1_000_000),
            channels: Mutex::new(HashMap::new()),
            posted: Mutex::default(),
            typing: Mutex::default(),
            calls: Mutex::default(),
            failures: Mutex::default(),
            gateway: Mutex::default(),
            changed: Notify::new(),
            lookup_gate: Mutex::new(None),
            lookups_held: std::sync::atomic::AtomicUsize::new(0),
        });
        let fake = Self {
            api_url: format!("http://{}/api", rest.local_addr().unwrap()),
            token,
            inner: inner.clone(),
        };
        fake.add_channel(text_channel(Self::ALLOWED, "general", None));
        fake.add_channel(text_channel(Self::OTHER, "off-limits", None));
        fake.add_channel(thread(Self::THREAD, "plans", Self::ALLOWED));
        fake.add_channel(thread(Self::OTHER_THREAD, "secret plans", Self::OTHER));

        let app = Router::new()
            .route("/api/v10/gateway", get(get_gateway))
            .route("/api/v10/users/@me", get(get_me))
            .route("/api/v10/channels/{id}", get(get_channel))
            .route("/api/v10/channels/{id}/messages", post(create_message))
            .route("/api/v10/channels/{id}/typing", post(trigger_typing))
            .fallback(not_found)
            .with_state(inner.clone());
        tokio::spawn(async move { axum::serve(rest, app).await.expect("fake Discord serves") });
        tokio::spawn(async move {
            while let Ok((stream, _)) = gw.accept().await {
                tokio::spawn(serve_gateway(inner.clone(), stream));
            }
        });
        fake
    }

    pub fn add_channel(&self, channel: Value) {
        let id = channel["id"].as_str().unwrap().parse().unwrap();
        self.inner.channels.lock().unwrap().insert(id, channel);
    }

    fn next_id(&self) -> u64 {
        next_id(&self.inner)
    }

    // ---- messages from users ----

    /// The DM channel between `user` and the bot (created on first use).
    pub fn dm_channel(&self, user: u64) -> u64 {
        let id = 10_000 + user;
        self.add_channel(json!({
            "id": id.to_string(), "type": 1, "last_message_id": null,
            "recipients": [user_json(user, &format!("user{user}"), false)],
        }));
        id
    }

    /// A DM from `user` to the bot, to adjust before [`Self::push`].
    pub fn dm_message(&self, user: u64, text: &str) -> Value {
        let channel = self.dm_channel(user);
        self.message_json(
            channel,
            None,
            user_json(user, &format!("user{user}"), false),
            text,
        )
    }

    /// A DM from `user` to the bot, dispatched. Returns the message id.
    pub fn dm(&self, user: u64, text: &str) -> u64 {
        let m = self.dm_message(user, text);
        self.push(m)
    }

    /// A guild message from `user` in `channel`, to adjust before [`Self::push`]. Mentions of
    /// the bot (`<@9000>`) are resolved into `mentions`, as Discord does.
    pub fn guild_message(&self, channel: u64, user: u64, name: &str, text: &str) -> Value {
        let mut m = self.message_json(
            channel,
            Some(Self::GUILD),
            user_json(user, name, false),
            text,
        );
        m["member"] =
            json!({"roles": [], "joined_at": now(), "deaf": false, "mute": false, "nick": null});
        m
    }

    /// A guild message, dispatched. Returns the message id.
    pub fn say(&self, channel: u64, user: u64, name: &str, text: &str) -> u64 {
        let m = self.guild_message(channel, user, name, text);
        self.push(m)
    }

    /// A guild message replying to `to` (as Discord sends it: type 19, a reference and the
    /// referenced message). Returns the message id.
    pub fn reply(&self, to: &Value, user: u64, name: &str, text: &str) -> u64 {
        let channel = to["channel_id"].as_str().unwrap().parse().unwrap();
        let mut m = self.guild_message(channel, user, name, text);
        m["type"] = json!(19);
        m["message_reference"] = json!({
            "type": 0, "message_id": to["id"], "channel_id": to["channel_id"],
            "guild_id": Self::GUILD.to_string(),
        });
        m["referenced_message"] = to.clone();
        self.push(m)
    }

    fn message_json(&self, channel: u64, guild: Option<u64>, author: Value, text: &str) -> Value {
        let mut m = json!({
            "id": self.next_id().to_string(),
            "channel_id": channel.to_string(),
            "author": author,
            "content": text,
            "timestamp": now(),
            "edited_timestamp": null,
            "tts": false,
            "mention_everyone": false,
            "mentions": mentions(text),
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "pinned": false,
            "type": 0,
        });
        if let Some(g) = guild {
            m["guild_id"] = json!(g.to_string());
        }
        m
    }

    /// Dispatches a message object as MESSAGE_CREATE. Returns its id.
    pub fn push(&self, message: Value) -> u64 {
        let id = message["id"]
            .as_str()
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        self.dispatch("MESSAGE_CREATE", message);
        id
    }

    /// Sends a dispatch to the current session (buffered for a RESUME while disconnected).
    pub fn dispatch(&self, event: &str, data: Value) {
        dispatch(&self.inner, event, data);
    }

    // ---- what the bot did ----

    pub fn posted(&self) -> Vec<Posted> {
        self.inner.posted.lock().unwrap().clone()
    }

    pub fn typing(&self) -> Vec<u64> {
        self.inner.typing.lock().unwrap().clone()
    }

    /// REST calls so far whose "METHOD path" contains `what`.
    pub fn calls(&self, what: &str) -> usize {
        self.inner
            .calls
            .lock()
            .unwrap()
            .iter()
            .filter(|(m, p)| format!("{m} {p}").contains(what))
            .count()
    }

    pub fn identifies(&self) -> Vec<Value> {
        self.inner.gateway.lock().unwrap().identifies.clone()
    }

    pub fn resumes(&self) -> Vec<Value> {
        self.inner.gateway.lock().unwrap().resumes.clone()
    }

    pub fn heartbeats(&self) -> u32 {
        self.inner.gateway.lock().unwrap().heartbeats
    }

    pub fn connections(&self) -> u32 {
        self.inner.gateway.lock().unwrap().connections
    }

    pub fn sessions_started(&self) -> u32 {
        self.inner.gateway.lock().unwrap().sessions_started
    }

    // ---- scripting ----

    /// The next `method` call to a route of `kind` (`messages`, `typing`, `channel`, `me`,
    /// `gateway`) fails with `status`.
    pub fn fail_next(&self, method: &str, kind: &str, status: u16) {
        self.inner
            .failures
            .lock()
            .unwrap()
            .entry((method.to_string(), kind.to_string()))
            .or_default()
            .push_back(status);
    }

    /// Holds every channel lookup until `release_lookups`.
    pub fn hold_lookups(&self) {
        *self.inner.lookup_gate.lock().unwrap() = Some(Arc::new(tokio::sync::Semaphore::new(0)));
    }

    pub fn release_lookups(&self) {
        if let Some(gate) = self.inner.lookup_gate.lock().unwrap().take() {
            gate.add_permits(1_000);
        }
    }

    /// Channel lookups waiting at the gate now (the bot has not given up on them).
    pub fn lookups_held(&self) -> usize {
        self.inner
            .lookups_held
            .load(std::sync::atomic::Ordering::SeqCst)
    }

    /// As if "Message Content Intent" were switched off in the developer portal.
    pub fn disable_message_content(&self) {
        self.inner.gateway.lock().unwrap().message_content_disabled = true;
    }

    /// The next RESUME is refused (op 9, not resumable): the client must identify afresh.
    pub fn reject_next_resume(&self) {
        self.inner.gateway.lock().unwrap().resumes_to_reject += 1;
    }

    /// A RESUME replays the whole session, not only what the client missed (an at-least-once
    /// delivery, to prove the bot does not answer twice).
    pub fn replay_everything_on_resume(&self) {
        self.inner.gateway.lock().unwrap().replay_everything = true;
    }

    /// Drops the live gateway connection without a close frame.
    pub fn drop_connection(&self) {
        self.command(Command::Drop);
    }

    /// Closes the live gateway connection with `code`.
    pub fn close_connection(&self, code: u16) {
        self.command(Command::Close(code));
    }

    fn command(&self, c: Command) {
        let mut gw = self.inner.gateway.lock().unwrap();
        if let Some(live) = gw.live.take() {
            let _ = live.send(c);
        }
    }

    // ---- waiting ----

    /// Waits (up to 15 s) until `cond` holds, re-checking whenever the fake sees something.
    pub async fn wait_until(&self, what: &str, cond: impl Fn(&Self) -> bool) {
        let so_far = || {
            let posted: Vec<_> = self
                .posted()
                .into_iter()
                .map(|p| (p.channel_id, p.content))
                .collect();
            format!("posted so far: {posted:#?}")
        };
        super::wait_notified(&self.inner.changed, what, || cond(self), so_far).await;
    }

    pub async fn wait_posted(&self, n: usize) -> Vec<Posted> {
        self.wait_until(&format!("{n} posted messages"), |d| d.posted().len() >= n)
            .await;
        self.posted()
    }

    /// Waits until a client has identified (or resumed) and its connection is up.
    pub async fn wait_connected(&self) {
        self.wait_until("a gateway session", |d| {
            let gw = d.inner.gateway.lock().unwrap();
            gw.session.is_some() && gw.live.as_ref().is_some_and(|l| !l.is_closed())
        })
        .await;
    }
}

fn next_id(inner: &Inner) -> u64 {
    let mut n = inner.next_id.lock().unwrap();
    *n += 1;
    *n
}

fn now() -> String {
    chrono::Utc::now().to_rfc3339()
}

pub fn user_json(id: u64, name: &str, bot: bool) -> Value {
    json!({
        "id": id.to_string(), "username": name, "discriminator": "0",
        "global_name": null, "avatar": null, "bot": bot,
    })
}

fn bot_user() -> Value {
    user_json(FakeDiscord::BOT_ID, FakeDiscord::BOT_NAME, true)
}

pub fn text_channel(id: u64, name: &str, parent: Option<u64>) -> Value {
    json!({
        "id": id.to_string(), "type": 0, "guild_id": FakeDiscord::GUILD.to_string(),
        "name": name, "position": 0, "permission_overwrites": [], "nsfw": false,
        "parent_id": parent.map(|p| p.to_string()),
    })
}

pub fn thread(id: u64, name: &str, parent: u64) -> Value {
    json!({
        "id": id.to_string(), "type": 11, "guild_id": FakeDiscord::GUILD.to_string(),
        "name": name, "parent_id": parent.to_string(), "owner_id": "7",
        "thread_metadata": {"archived": false, "auto_archive_duration": 1440,
                            "archive_timestamp": now(), "locked": false},
    })
}

/// The users `<@id>` / `<@!id>` in `text` names, as Discord resolves them (only the bot is
/// known to this fake).
fn mentions(text: &str) -> Value {
    let bot = FakeDiscord::BOT_ID;
    if text.contains(&format!("<@{bot}>")) || text.contains(&format!("<@!{bot}>")) {
        json!([bot_user()])
    } else {
        json!([])
    }
}

fn dispatch(inner: &Inner, event: &str, data: Value) {
    {
        let mut gw = inner.gateway.lock().unwrap();
        let Gateway { session, live, .. } = &mut *gw;
        let session = session
            .as_mut()
            .expect("no gateway session yet: wait_connected() first");
        session.seq += 1;
        let frame = json!({"op": 0, "t": event, "s": session.seq, "d": data}).to_string();
        session.log.push((session.seq, frame.clone()));
        if let Some(live) = live {
            let _ = live.send(Command::Frame(frame));
        }
    }
    inner.changed.notify_waiters();
}

// ---- the gateway ----

async fn serve_gateway(inner: Arc<Inner>, stream: tokio::net::TcpStream) {
    // Frames go out at once, as a real gateway's do, so Nagle's delay is not measured as ours.
    let _ = stream.set_nodelay(true);
    let Ok(ws) = tokio_tungstenite::accept_async(stream).await else {
        return;
    };
    let (mut sink, mut source) = ws.split();
    let (tx, mut rx) = mpsc::unbounded_channel::<Command>();
    inner.gateway.lock().unwrap().connections += 1;
    let hello = json!({"op": 10, "d": {"heartbeat_interval": inner.heartbeat_ms}});
    if sink.send(WsMessage::Text(hello.to_string())).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            frame = source.next() => match frame {
                Some(Ok(WsMessage::Text(text))) => {
                    if let Ok(payload) = serde_json::from_str::<Value>(&text) {
                        on_client_frame(&inner, &tx, &payload);
                    }
                }
                // Keep reading after a close: that sends tungstenite's reply and ends the stream.
                Some(Ok(_)) => {}
                None | Some(Err(_)) => break,
            },
            command = rx.recv() => match command {
                Some(Command::Frame(text)) => {
                    if sink.send(WsMessage::Text(text)).await.is_err() {
                        break;
                    }
                }
                Some(Command::Close(code)) => {
                    let frame = CloseFrame { code: CloseCode::from(code), reason: "closed by the fake".into() };
                    let _ = sink.send(WsMessage::Close(Some(frame))).await;
                    break;
                }
                Some(Command::Drop) | None => break,
            },
        }
    }
    let mut gw = inner.gateway.lock().unwrap();
    if gw.live.as_ref().is_some_and(|l| l.same_channel(&tx)) {
        gw.live = None;
    }
    drop(gw);
    inner.changed.notify_waiters();
}

/// Answers one client frame through the connection's own queue, under the gateway lock, so
/// a dispatch from the test cannot slip in between a replay and its RESUMED.
fn on_client_frame(inner: &Inner, conn: &mpsc::UnboundedSender<Command>, payload: &Value) {
    let op = payload["op"].as_u64().unwrap_or(u64::MAX);
    let d = &payload["d"];
    let mut gw = inner.gateway.lock().unwrap();
    let out = match op {
        1 => {
            gw.heartbeats += 1;
            vec![Command::Frame(json!({"op": 11}).to_string())]
        }
        2 => {
            gw.identifies.push(d.clone());
            let token = d["token"].as_str().unwrap_or_default();
            let intents = d["intents"].as_u64().unwrap_or(0);
            if token.trim_start_matches("Bot ") != inner.token {
                vec![Command::Close(4004)]
            } else if gw.message_content_disabled && intents & (1 << 15) != 0 {
                vec![Command::Close(4014)]
            } else {
                gw.sessions_started += 1;
                let id = format!("session-{}", gw.sessions_started);
                let ready = json!({
                    "v": 10, "user": bot_user(), "session_id": id,
                    "guilds": [{"id": FakeDiscord::GUILD.to_string(), "unavailable": true}],
                    "resume_gateway_url": inner.gateway_url,
                    "application": {"id": FakeDiscord::BOT_ID.to_string(), "flags": 0},
                });
                let frame = json!({"op": 0, "t": "READY", "s": 1, "d": ready}).to_string();
                gw.session = Some(Session {
                    id,
                    seq: 1,
                    log: vec![(1, frame.clone())],
                });
                gw.live = Some(conn.clone());
                vec![Command::Frame(frame)]
            }
        }
        6 => {
            gw.resumes.push(d.clone());
            let session_id = d["session_id"].as_str().unwrap_or_default().to_string();
            let client_seq = d["seq"].as_u64().unwrap_or(0);
            let replay_everything = gw.replay_everything;
            let refuse = gw.resumes_to_reject > 0;
            gw.resumes_to_reject = gw.resumes_to_reject.saturating_sub(1);
            match gw.session.as_mut() {
                Some(s) if s.id == session_id && !refuse => {
                    let mut frames: Vec<Command> = s
                        .log
                        .iter()
                        .filter(|(seq, _)| replay_everything || *seq > client_seq)
                        .map(|(_, f)| Command::Frame(f.clone()))
                        .collect();
                    s.seq += 1;
                    let resumed = json!({"op": 0, "t": "RESUMED", "s": s.seq, "d": {}}).to_string();
                    s.log.push((s.seq, resumed.clone()));
                    frames.push(Command::Frame(resumed));
                    gw.live = Some(conn.clone());
                    frames
                }
                _ => vec![Command::Frame(json!({"op": 9, "d": false}).to_string())],
            }
        }
        _ => Vec::new(),
    };
    for command in out {
        let _ = conn.send(command);
    }
    drop(gw);
    inner.changed.notify_waiters();
}

// ---- REST ----

fn error(status: u16, code: u32, message: &str) -> Response {
    let body = json!({"message": message, "code": code});
    (StatusCode::from_u16(status).unwrap(), axum::Json(body)).into_response()
}

/// Records the call, checks the token and plays a scripted failure, if any.
fn before(
    inner: &Inner,
    headers: &HeaderMap,
    method: &str,
    path: String,
    kind: &str,
) -> Option<Response> {
    inner.calls.lock().unwrap().push((method.to_string(), path));
    inner.changed.notify_waiters();
    let auth = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    if kind != "gateway" && auth != format!("Bot {}", inner.token) {
        return Some(error(401, 0, "401: Unauthorized"));
    }
    let failure = inner
        .failures
        .lock()
        .unwrap()
        .get_mut(&(method.to_string(), kind.to_string()))
        .and_then(VecDeque::pop_front)?;
    Some(match failure {
        429 => {
            let body = json!({"message": "You are being rate limited.", "retry_after": 0.1, "global": false});
            let mut r = (StatusCode::TOO_MANY_REQUESTS, axum::Json(body)).into_response();
            r.headers_mut().insert("retry-after", "1".parse().unwrap());
            r
        }
        status => error(status, 0, "Internal Server Error"),
    })
}

async fn get_gateway(State(inner): State<Arc<Inner>>, headers: HeaderMap) -> Response {
    if let Some(r) = before(&inner, &headers, "GET", "/gateway".into(), "gateway") {
        return r;
    }
    axum::Json(json!({"url": inner.gateway_url})).into_response()
}

async fn get_me(State(inner): State<Arc<Inner>>, headers: HeaderMap) -> Response {
    if let Some(r) = before(&inner, &headers, "GET", "/users/@me".into(), "me") {
        return r;
    }
    let mut me = bot_user();
    me["verified"] = json!(true);
    me["mfa_enabled"] = json!(false);
    axum::Json(me).into_response()
}

async fn get_channel(
    State(inner): State<Arc<Inner>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    if let Some(r) = before(
        &inner,
        &headers,
        "GET",
        format!("/channels/{id}"),
        "channel",
    ) {
        return r;
    }
    let gate = inner.lookup_gate.lock().unwrap().clone();
    if let Some(gate) = gate {
        /// Counts a held lookup off however it ends (answered, or dropped by the client).
        struct Held<'a>(&'a std::sync::atomic::AtomicUsize);
        impl Drop for Held<'_> {
            fn drop(&mut self) {
                self.0.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
            }
        }
        inner
            .lookups_held
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        inner.changed.notify_waiters();
        let _held = Held(&inner.lookups_held);
        let _permit = gate.acquire().await;
    }
    let channel = id
        .parse::<u64>()
        .ok()
        .and_then(|id| inner.channels.lock().unwrap().get(&id).cloned());
    match channel {
        Some(c) => axum::Json(c).into_response(),
        None => error(404, 10003, "Unknown Channel"),
    }
}

async fn trigger_typing(
    State(inner): State<Arc<Inner>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    if let Some(r) = before(
        &inner,
        &headers,
        "POST",
        format!("/channels/{id}/typing"),
        "typing",
    ) {
        return r;
    }
    let Ok(id) = id.parse::<u64>() else {
        return error(404, 10003, "Unknown Channel");
    };
    inner.typing.lock().unwrap().push(id);
    inner.changed.notify_waiters();
    StatusCode::NO_CONTENT.into_response()
}

async fn create_message(
    State(inner): State<Arc<Inner>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: String,
) -> Response {
    if let Some(r) = before(
        &inner,
        &headers,
        "POST",
        format!("/channels/{id}/messages"),
        "messages",
    ) {
        return r;
    }
    let Some(channel) = id
        .parse::<u64>()
        .ok()
        .and_then(|id| inner.channels.lock().unwrap().get(&id).cloned())
    else {
        return error(404, 10003, "Unknown Channel");
    };
    let Ok(body) = serde_json::from_str::<Value>(&body) else {
        return error(400, 50109, "The request body contains invalid JSON.");
    };
    let content = body["content"].as_str().unwrap_or_default().to_string();
    if content.chars().count() > 2000 {
        return error(
            400,
            50035,
            "Invalid Form Body (content: Must be 2000 or fewer in length.)",
        );
    }
    if content.trim().is_empty() {
        return error(400, 50006, "Cannot send an empty message");
    }
    let message_id = next_id(&inner);
    let mut json = json!({
        "id": message_id.to_string(), "channel_id": channel["id"], "author": bot_user(),
        "content": content, "timestamp": now(), "edited_timestamp": null, "tts": false,
        "mention_everyone": false, "mentions": [], "mention_roles": [], "attachments": [],
        "embeds": [], "pinned": false, "type": 0,
    });
    if body["message_reference"].is_object() {
        json["type"] = json!(19);
        json["message_reference"] = body["message_reference"].clone();
    }
    let channel_id = channel["id"].as_str().unwrap().parse().unwrap();
    inner.posted.lock().unwrap().push(Posted {
        id: message_id,
        channel_id,
        content,
        body,
        json: json.clone(),
    });
    // Discord tells the bot about its own message too.
    let mut echo = json.clone();
    if let Some(guild) = channel.get("guild_id") {
        echo["guild_id"] = guild.clone();
    }
    if inner.gateway.lock().unwrap().session.is_some() {
        dispatch(&inner, "MESSAGE_CREATE", echo);
    }
    inner.changed.notify_waiters();
    axum::Json(json).into_response()
}

async fn not_found(
    State(inner): State<Arc<Inner>>,
    method: axum::http::Method,
    uri: axum::http::Uri,
) -> Response {
    inner
        .calls
        .lock()
        .unwrap()
        .push((method.to_string(), uri.path().to_string()));
    error(404, 0, "404: Not Found")
}
