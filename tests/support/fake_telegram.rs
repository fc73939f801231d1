//! A fake Telegram Bot API on 127.0.0.1, speaking the real protocol closely enough for
//! teloxide: `POST /bot<token>/<method>` with JSON, method names case-insensitive,
//! `{"ok":true,"result":…}` answers, getUpdates with offset confirmation and long polling,
//! sendMessage returning a real Message and enforcing the 4096-character limit, scripted
//! failures (429 with retry_after, 500, or any status and description) and rejected HTML
//! entities. Bodies may be JSON or multipart/form-data (teloxide sends setWebhook so). The
//! webhook methods keep Telegram's rules: setWebhook checks the secret token's characters, and
//! while a webhook is set getUpdates fails with 409 Conflict until deleteWebhook.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::{Value, json};
use tokio::sync::Notify;

pub const BOT_ID: i64 = 999;
pub const BOT_USERNAME: &str = "mneme_bot";

/// A sendMessage the bot made.
#[derive(Debug, Clone)]
pub struct Sent {
    pub chat_id: i64,
    pub text: String,
    pub parse_mode: Option<String>,
    pub thread_id: Option<i64>,
    pub reply_to: Option<i64>,
    pub message_id: i64,
    /// When the fake received it.
    pub at: Instant,
}

impl Sent {
    /// The text as the user sees it (HTML tags removed, entities decoded).
    pub fn visible(&self) -> String {
        if self.parse_mode.as_deref() == Some("HTML") {
            visible_text(&self.text)
        } else {
            self.text.clone()
        }
    }
}

/// A scripted error: HTTP status, `retry_after` seconds, and a description (else a stock one).
type Failure = (u16, Option<u32>, Option<String>);

#[derive(Default)]
struct Inner {
    token: String,
    /// Updates not yet confirmed by a getUpdates with a higher offset.
    updates: Mutex<Vec<Value>>,
    next_update_id: Mutex<i64>,
    next_message_id: Mutex<i64>,
    sent: Mutex<Vec<Sent>>,
    actions: Mutex<Vec<Value>>,
    commands: Mutex<Vec<Value>>,
    /// Every call: (method lowercase, body).
    calls: Mutex<Vec<(String, Value)>>,
    failures: Mutex<HashMap<String, VecDeque<Failure>>>,
    /// Calls left to answer with an HTML page instead of the Bot API's JSON, by method.
    html_pages: Mutex<HashMap<String, u32>>,
    reject_html: Mutex<u32>,
    /// sendMessage answers left to give with a sent message teloxide cannot read.
    unreadable_sent: Mutex<u32>,
    /// The webhook set (setWebhook's parameters), if any.
    webhook: Mutex<Option<Value>>,
    changed: Notify,
    /// Listeners told of every sendMessage taken (`FakeTelegram::on_sent`).
    sent_listeners: Mutex<Vec<tokio::sync::mpsc::UnboundedSender<Sent>>>,
}

#[derive(Clone)]
pub struct FakeTelegram {
    /// Goes into `channels.telegram.api_url`.
    pub url: String,
    pub token: String,
    inner: Arc<Inner>,
}

impl FakeTelegram {
    pub async fn start() -> Self {
        let token = "123456:TEST-token-abcdefghijklmnop".to_string();
        let inner = Arc::new(Inner {
            token: token.clone(),
            next_update_id: Mutex::new(1),
            next_message_id: Mutex::new(1),
            ..Inner::default()
        });
        let app = Router::new()
            .route("/{bot}/{method}", post(handle))
            .with_state(inner.clone());
        let addr = super::serve(app).await;
        Self {
            url: format!("http://{addr}"),
            token,
            inner,
        }
    }

    fn next_message_id(&self) -> i64 {
        next_id(&self.inner.next_message_id)
    }

    /// Queues a raw update (its `update_id` is set unless `raw` already has one). Returns it.
    pub fn push_update(&self, mut update: Value) -> i64 {
        // Numbered under the queue's lock, so the queue stays in update-id order as
        // Telegram's does: a bot confirming an offset must not confirm an update that a
        // concurrent push numbered lower but queued later.
        let mut updates = self.inner.updates.lock().unwrap();
        let id = next_id(&self.inner.next_update_id);
        if update.get("update_id").is_none() && update.is_object() {
            update["update_id"] = json!(id);
        }
        updates.push(update);
        drop(updates);
        self.inner.changed.notify_waiters();
        id
    }

    /// A text message in a private chat from `user_id`. Returns the message id.
    pub fn private_text(&self, user_id: i64, text: &str) -> i64 {
        let message_id = self.next_message_id();
        self.push_update(json!({"message": {
            "message_id": message_id,
            "date": now_secs(),
            "chat": {"id": user_id, "type": "private", "first_name": "User"},
            "from": {"id": user_id, "is_bot": false, "first_name": "User"},
            "text": text,
        }}));
        message_id
    }

    /// A private text message sent `age_secs` ago. Returns the message id.
    pub fn next_old_private(&self, user_id: i64, text: &str, age_secs: i64) -> i64 {
        let message_id = self.next_message_id();
        self.push_update(json!({"message": {
            "message_id": message_id,
            "date": now_secs() - age_secs,
            "chat": {"id": user_id, "type": "private", "first_name": "User"},
            "from": {"id": user_id, "is_bot": false, "first_name": "User"},
            "text": text,
        }}));
        message_id
    }

    /// A private text message from `user_id` (not queued): for `update`, or to adjust first.
    pub fn private_message(&self, user_id: i64, text: &str) -> Value {
        json!({
            "message_id": self.next_message_id(),
            "date": now_secs(),
            "chat": {"id": user_id, "type": "private", "first_name": "User"},
            "from": {"id": user_id, "is_bot": false, "first_name": "User"},
            "text": text,
        })
    }

    /// An update carrying `message`, with the next update id, not queued: what Telegram would
    /// POST to a webhook.
    pub fn update(&self, message: Value) -> Value {
        json!({"update_id": next_id(&self.inner.next_update_id), "message": message})
    }

    /// Builds a group message; adjust fields before `push_message`.
    pub fn group_message(&self, chat_id: i64, user_id: i64, name: &str, text: &str) -> Value {
        json!({
            "message_id": self.next_message_id(),
            "date": now_secs(),
            "chat": {"id": chat_id, "type": "supergroup", "title": "Test group"},
            "from": {"id": user_id, "is_bot": false, "first_name": name},
            "text": text,
        })
    }

    /// Queues a message object as an update. Returns its message id.
    pub fn push_message(&self, message: Value) -> i64 {
        let id = message["message_id"].as_i64().unwrap_or_default();
        self.push_update(json!({"message": message}));
        id
    }

    /// The next call to `method` fails with `status` (429 carries `retry_after`).
    pub fn fail_next(&self, method: &str, status: u16, retry_after: Option<u32>) {
        self.inner
            .failures
            .lock()
            .unwrap()
            .entry(method.to_lowercase())
            .or_default()
            .push_back((status, retry_after, None));
    }

    /// The next `n` calls to `method` are answered 200 with an HTML page (a proxy's), not JSON.
    pub fn answer_html(&self, method: &str, n: u32) {
        self.inner
            .html_pages
            .lock()
            .unwrap()
            .insert(method.to_lowercase(), n);
    }

    /// The next call to `method` fails with `status` and Telegram's `description`.
    pub fn fail_next_with(&self, method: &str, status: u16, description: &str) {
        self.inner
            .failures
            .lock()
            .unwrap()
            .entry(method.to_lowercase())
            .or_default()
            .push_back((status, None, Some(description.to_string())));
    }

    /// The next `n` sendMessage calls take the message, and answer with it as sent in a chat
    /// of a type newer than teloxide (which teloxide cannot read at all).
    pub fn answer_sent_unreadably(&self, n: u32) {
        *self.inner.unreadable_sent.lock().unwrap() = n;
    }

    /// The webhook set now (setWebhook's parameters: `url`, `secret_token`, …), if any.
    pub fn webhook(&self) -> Option<Value> {
        self.inner.webhook.lock().unwrap().clone()
    }

    /// Sets a webhook as an earlier run in webhook mode would have left it.
    pub fn set_webhook(&self, url: &str) {
        *self.inner.webhook.lock().unwrap() = Some(json!({"url": url}));
    }

    /// The next `n` sendMessage calls with HTML are rejected as unparsable entities.
    pub fn reject_html(&self, n: u32) {
        *self.inner.reject_html.lock().unwrap() = n;
    }

    pub fn sent(&self) -> Vec<Sent> {
        self.inner.sent.lock().unwrap().clone()
    }

    /// Every sendMessage taken from now on, as it is taken: for waiting on many chats at once
    /// without re-reading `sent()` at every call.
    pub fn on_sent(&self) -> tokio::sync::mpsc::UnboundedReceiver<Sent> {
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        self.inner.sent_listeners.lock().unwrap().push(tx);
        rx
    }

    pub fn actions(&self) -> Vec<Value> {
        self.inner.actions.lock().unwrap().clone()
    }

    pub fn commands(&self) -> Vec<Value> {
        self.inner.commands.lock().unwrap().clone()
    }

    pub fn calls(&self, method: &str) -> Vec<Value> {
        let m = method.to_lowercase();
        self.inner
            .calls
            .lock()
            .unwrap()
            .iter()
            .filter(|(k, _)| *k == m)
            .map(|(_, v)| v.clone())
            .collect()
    }

    /// Waits (up to 15 s) until `cond` holds, re-checking whenever the fake sees a call.
    pub async fn wait_until(&self, what: &str, cond: impl Fn(&Self) -> bool) {
        let so_far = || format!("sent so far: {:#?}", self.sent());
        super::wait_notified(&self.inner.changed, what, || cond(self), so_far).await;
    }

    pub async fn wait_sent(&self, n: usize) -> Vec<Sent> {
        self.wait_until(&format!("{n} sent messages"), |t| t.sent().len() >= n)
            .await;
        self.sent()
    }

    /// Updates the bot has not confirmed yet (its offset is not past them).
    pub fn unconfirmed(&self) -> usize {
        self.inner.updates.lock().unwrap().len()
    }

    /// Waits until the bot has confirmed every update queued so far (polled past them).
    pub async fn wait_confirmed(&self) {
        self.wait_until("all updates confirmed", |t| {
            t.inner.updates.lock().unwrap().is_empty()
        })
        .await;
    }
}

fn next_id(counter: &Mutex<i64>) -> i64 {
    let mut c = counter.lock().unwrap();
    let id = *c;
    *c += 1;
    id
}

pub fn now_secs() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

fn ok(result: Value) -> Response {
    axum::Json(json!({"ok": true, "result": result})).into_response()
}

fn err(status: u16, description: &str, retry_after: Option<u32>) -> Response {
    let mut body = json!({"ok": false, "error_code": status, "description": description});
    if let Some(r) = retry_after {
        body["parameters"] = json!({"retry_after": r});
    }
    (StatusCode::from_u16(status).unwrap(), axum::Json(body)).into_response()
}

async fn handle(
    State(inner): State<Arc<Inner>>,
    Path((bot, method)): Path<(String, String)>,
    headers: HeaderMap,
    body: String,
) -> Response {
    if bot != format!("bot{}", inner.token) {
        return err(401, "Unauthorized", None);
    }
    let method = method.to_lowercase();
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let body: Value = if body.trim().is_empty() {
        json!({})
    } else if content_type.starts_with("multipart/form-data") {
        multipart_fields(content_type, &body).unwrap_or(json!({}))
    } else {
        serde_json::from_str(&body).unwrap_or(json!({}))
    };
    inner
        .calls
        .lock()
        .unwrap()
        .push((method.clone(), body.clone()));
    if let Some(left) = inner.html_pages.lock().unwrap().get_mut(&method)
        && *left > 0
    {
        *left -= 1;
        inner.changed.notify_waiters();
        return (
            [(header::CONTENT_TYPE, "text/html")],
            "<html><body>Service temporarily unavailable</body></html>",
        )
            .into_response();
    }
    let failure = inner
        .failures
        .lock()
        .unwrap()
        .get_mut(&method)
        .and_then(VecDeque::pop_front);
    let response = if let Some((status, retry_after, description)) = failure {
        let description = match (status, description) {
            (_, Some(d)) => d,
            (429, None) => format!(
                "Too Many Requests: retry after {}",
                retry_after.unwrap_or(1)
            ),
            _ => "Internal Server Error".to_string(),
        };
        err(status, &description, retry_after)
    } else {
        match method.as_str() {
            "getme" => ok(json!({
                "id": BOT_ID, "is_bot": true, "first_name": "Mneme", "username": BOT_USERNAME,
                "can_join_groups": true, "can_read_all_group_messages": false,
                "supports_inline_queries": false, "has_main_web_app": false
            })),
            "getupdates" if inner.webhook.lock().unwrap().is_some() => err(
                409,
                "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
                None,
            ),
            "getupdates" => return get_updates(&inner, &body).await,
            "setwebhook" => set_webhook(&inner, &body),
            "deletewebhook" => {
                let had = inner.webhook.lock().unwrap().take().is_some();
                let description = if had {
                    "Webhook was deleted"
                } else {
                    "Webhook is already deleted"
                };
                axum::Json(json!({"ok": true, "result": true, "description": description}))
                    .into_response()
            }
            "getwebhookinfo" => {
                let url = inner
                    .webhook
                    .lock()
                    .unwrap()
                    .as_ref()
                    .and_then(|w| w["url"].as_str().map(str::to_string))
                    .unwrap_or_default();
                let pending = inner.updates.lock().unwrap().len();
                ok(
                    json!({"url": url, "has_custom_certificate": false, "pending_update_count": pending}),
                )
            }
            "sendmessage" => send_message(&inner, &body),
            "sendchataction" => {
                inner.actions.lock().unwrap().push(body);
                ok(json!(true))
            }
            "setmycommands" => {
                *inner.commands.lock().unwrap() =
                    body["commands"].as_array().cloned().unwrap_or_default();
                ok(json!(true))
            }
            _ => err(404, "Not Found: method not found", None),
        }
    };
    inner.changed.notify_waiters();
    response
}

/// setWebhook as Telegram checks it: a URL (empty removes the webhook), a secret token of 1–256
/// characters of `A-Z a-z 0-9 _ -`.
fn set_webhook(inner: &Inner, body: &Value) -> Response {
    let Some(url) = body["url"].as_str() else {
        return err(
            400,
            "Bad Request: bad webhook: Failed to resolve host: Name or service not known",
            None,
        );
    };
    if let Some(secret) = body.get("secret_token") {
        let secret = secret.as_str().unwrap_or_default();
        let allowed = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
        if secret.is_empty() || secret.chars().count() > 256 || !secret.chars().all(allowed) {
            return err(
                400,
                "Bad Request: secret token contains unallowed characters",
                None,
            );
        }
    }
    let mut webhook = inner.webhook.lock().unwrap();
    let description = if url.is_empty() {
        *webhook = None;
        "Webhook was deleted"
    } else {
        *webhook = Some(body.clone());
        "Webhook was set"
    };
    axum::Json(json!({"ok": true, "result": true, "description": description})).into_response()
}

/// The fields of a multipart/form-data body as a JSON object: each a string, except those
/// holding JSON arrays or objects (the Bot API's JSON-serialized parameters), parsed.
fn multipart_fields(content_type: &str, body: &str) -> Option<Value> {
    let boundary = content_type
        .split(';')
        .find_map(|p| p.trim().strip_prefix("boundary="))?
        .trim_matches('"');
    let mut fields = serde_json::Map::new();
    for part in body.split(&format!("--{boundary}")).skip(1) {
        if part.starts_with("--") {
            break;
        }
        let (head, value) = part.trim_start_matches("\r\n").split_once("\r\n\r\n")?;
        let name = head
            .split(';')
            .find_map(|p| p.trim().strip_prefix("name="))?
            .lines()
            .next()?
            .trim_matches('"');
        let value = value.strip_suffix("\r\n").unwrap_or(value);
        let parsed = match value.trim_start().chars().next() {
            Some('[' | '{') => serde_json::from_str(value).unwrap_or(json!(value)),
            _ => json!(value),
        };
        fields.insert(name.to_string(), parsed);
    }
    Some(Value::Object(fields))
}

async fn get_updates(inner: &Inner, body: &Value) -> Response {
    let offset = body["offset"].as_i64().unwrap_or(0);
    let timeout = body["timeout"].as_u64().unwrap_or(0).min(30);
    // An offset confirms every update before it.
    inner
        .updates
        .lock()
        .unwrap()
        .retain(|u| u["update_id"].as_i64().is_some_and(|id| id >= offset));
    inner.changed.notify_waiters();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(timeout);
    loop {
        let changed = inner.changed.notified();
        let pending: Vec<Value> = inner.updates.lock().unwrap().clone();
        if !pending.is_empty() || tokio::time::Instant::now() >= deadline {
            return ok(Value::Array(pending));
        }
        let _ = tokio::time::timeout_at(deadline, changed).await;
    }
}

fn send_message(inner: &Inner, body: &Value) -> Response {
    let chat_id = body["chat_id"].as_i64().unwrap_or_default();
    let text = body["text"].as_str().unwrap_or_default().to_string();
    let parse_mode = body["parse_mode"].as_str().map(str::to_string);
    if parse_mode.as_deref() == Some("HTML") {
        let mut reject = inner.reject_html.lock().unwrap();
        if *reject > 0 {
            *reject -= 1;
            return err(
                400,
                "Bad Request: can't parse entities: Unsupported start tag \"x\" at byte offset 0",
                None,
            );
        }
    }
    let visible = if parse_mode.as_deref() == Some("HTML") {
        visible_text(&text)
    } else {
        text.clone()
    };
    if visible.encode_utf16().count() > 4096 {
        return err(400, "Bad Request: message is too long", None);
    }
    if visible.trim().is_empty() {
        return err(400, "Bad Request: message text is empty", None);
    }
    let message_id = next_id(&inner.next_message_id);
    let chat = if chat_id < 0 {
        json!({"id": chat_id, "type": "supergroup", "title": "Test group"})
    } else {
        json!({"id": chat_id, "type": "private", "first_name": "User"})
    };
    let sent = Sent {
        chat_id,
        text: text.clone(),
        parse_mode,
        thread_id: body["message_thread_id"].as_i64(),
        reply_to: body["reply_parameters"]["message_id"].as_i64(),
        message_id,
        at: Instant::now(),
    };
    inner
        .sent_listeners
        .lock()
        .unwrap()
        .retain(|l| l.send(sent.clone()).is_ok());
    inner.sent.lock().unwrap().push(sent);
    let mut as_sent = json!({
        "message_id": message_id,
        "date": now_secs(),
        "chat": chat,
        "from": {"id": BOT_ID, "is_bot": true, "first_name": "Mneme", "username": BOT_USERNAME},
        "text": visible,
    });
    let mut unreadable = inner.unreadable_sent.lock().unwrap();
    if *unreadable > 0 {
        *unreadable -= 1;
        as_sent["chat"]["type"] = json!("direct_messages");
    }
    ok(as_sent)
}

/// What Telegram shows for an HTML message: tags dropped, entities decoded.
fn visible_text(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}
