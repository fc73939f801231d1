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
use axum::routing::{get, post};
use serde_json::{Value, json};
use tokio::sync::{Notify, mpsc};

mod gateway;
mod rest;

use gateway::{dispatch, serve_gateway};
use rest::{
    create_message, get_channel, get_gateway, get_me, list_messages, not_found, trigger_typing,
};

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

/// How the fake answers a message the bot posted once it has created it.
#[derive(Debug, Clone, Copy)]
pub enum AfterCreate {
    /// `502 Bad Gateway`, as Discord's edge answers now and then after the API took the
    /// message: the bot cannot know it went through.
    BadGateway,
    /// A 200 with the message holding a part this build of serenity cannot read (here its
    /// timestamp), as a message of a kind newer than the client would.
    Unreadable,
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
    /// While set, a websocket upgrade is answered `502 Bad Gateway` (a proxy in front of a
    /// gateway that cannot be reached).
    refusing: bool,
}

struct Inner {
    token: String,
    gateway_url: String,
    heartbeat_ms: u64,
    next_id: Mutex<u64>,
    channels: Mutex<HashMap<u64, Value>>,
    posted: Mutex<Vec<Posted>>,
    /// Every message in any channel, people's and the bot's, as the REST API lists them.
    history: Mutex<Vec<Value>>,
    typing: Mutex<Vec<u64>>,
    /// Every REST call: (method, path).
    calls: Mutex<Vec<(String, String)>>,
    /// Scripted failures per (method, route kind), e.g. ("POST", "messages").
    failures: Mutex<HashMap<(String, String), VecDeque<u16>>>,
    /// Scripted answers to the next messages the bot posts, once each is created.
    after_create: Mutex<VecDeque<AfterCreate>>,
    /// The bot's messages sent with `enforce_nonce`, by nonce: a second send with one of
    /// these nonces creates nothing and is answered with the first message, as Discord does
    /// within a few minutes.
    nonces: Mutex<HashMap<String, Value>>,
    gateway: Mutex<Gateway>,
    changed: Notify,
    /// While set, `GET /channels/{id}` waits for a permit of this semaphore.
    lookup_gate: Mutex<Option<Arc<tokio::sync::Semaphore>>>,
    /// Gates that still hold the lookups waiting at them, but no new ones.
    parked_gates: Mutex<Vec<Arc<tokio::sync::Semaphore>>>,
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
            history: Mutex::default(),
            typing: Mutex::default(),
            calls: Mutex::default(),
            failures: Mutex::default(),
            after_create: Mutex::default(),
            nonces: Mutex::default(),
            gateway: Mutex::default(),
            changed: Notify::new(),
            lookup_gate: Mutex::new(None),
            parked_gates: Mutex::new(Vec::new()),
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
            .route(
                "/api/v10/channels/{id}/messages",
                post(create_message).get(list_messages),
            )
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
        self.inner.history.lock().unwrap().push(message.clone());
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

    /// The next message the bot posts is created, then answered as `how` says.
    pub fn after_next_create(&self, how: AfterCreate) {
        self.inner.after_create.lock().unwrap().push_back(how);
    }

    /// Holds every channel lookup until `release_lookups`.
    pub fn hold_lookups(&self) {
        *self.inner.lookup_gate.lock().unwrap() = Some(Arc::new(tokio::sync::Semaphore::new(0)));
    }

    pub fn release_lookups(&self) {
        let parked = std::mem::take(&mut *self.inner.parked_gates.lock().unwrap());
        let gate = self.inner.lookup_gate.lock().unwrap().take();
        for gate in parked.into_iter().chain(gate) {
            gate.add_permits(1_000);
        }
    }

    /// Lets later channel lookups through while those held now stay held (until
    /// `release_lookups`).
    pub fn let_new_lookups_through(&self) {
        if let Some(gate) = self.inner.lookup_gate.lock().unwrap().take() {
            self.inner.parked_gates.lock().unwrap().push(gate);
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

    /// While `on`, every new gateway connection is refused with `502 Bad Gateway`.
    pub fn refuse_connections(&self, on: bool) {
        self.inner.gateway.lock().unwrap().refusing = on;
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
