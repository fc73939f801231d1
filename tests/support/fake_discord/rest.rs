//! The fake REST API's handlers under `/api/v10`.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::{AfterCreate, Inner, Posted, bot_user, dispatch, next_id, now};

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
        // what Discord says to a bot a user takes no DMs from
        403 => error(403, 50007, "Cannot send messages to this user"),
        status => error(status, 0, "Internal Server Error"),
    })
}

pub(super) async fn get_gateway(State(inner): State<Arc<Inner>>, headers: HeaderMap) -> Response {
    if let Some(r) = before(&inner, &headers, "GET", "/gateway".into(), "gateway") {
        return r;
    }
    axum::Json(json!({"url": inner.gateway_url})).into_response()
}

pub(super) async fn get_me(State(inner): State<Arc<Inner>>, headers: HeaderMap) -> Response {
    if let Some(r) = before(&inner, &headers, "GET", "/users/@me".into(), "me") {
        return r;
    }
    let mut me = bot_user();
    me["verified"] = json!(true);
    me["mfa_enabled"] = json!(false);
    axum::Json(me).into_response()
}

pub(super) async fn get_channel(
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

pub(super) async fn trigger_typing(
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

pub(super) async fn create_message(
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
    // Discord's nonce: a string or an integer, at most 25 characters.
    let nonce = match &body["nonce"] {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    };
    if nonce.as_ref().is_some_and(|n| n.len() > 25) {
        return error(
            400,
            50035,
            "Invalid Form Body (nonce: Must be 25 or fewer in length.)",
        );
    }
    let enforced = nonce.filter(|_| body["enforce_nonce"] == json!(true));
    if let Some(first) = enforced
        .as_ref()
        .and_then(|n| inner.nonces.lock().unwrap().get(n).cloned())
    {
        return axum::Json(first).into_response();
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
    inner.history.lock().unwrap().push(json.clone());
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
    if let Some(nonce) = enforced {
        inner.nonces.lock().unwrap().insert(nonce, json.clone());
    }
    inner.changed.notify_waiters();
    match inner.after_create.lock().unwrap().pop_front() {
        None => axum::Json(json).into_response(),
        Some(AfterCreate::BadGateway) => error(502, 0, "Bad Gateway"),
        Some(AfterCreate::Unreadable) => {
            let mut unreadable = json;
            unreadable["timestamp"] = json!("not a time");
            axum::Json(unreadable).into_response()
        }
    }
}

/// `GET /channels/{id}/messages?after=ID&limit=N`: the channel's messages after `after`,
/// newest first, at most `limit` (50 unless given); like Discord's, without `guild_id`.
pub(super) async fn list_messages(
    State(inner): State<Arc<Inner>>,
    Path(id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    if let Some(r) = before(
        &inner,
        &headers,
        "GET",
        format!("/channels/{id}/messages"),
        "list",
    ) {
        return r;
    }
    let number = |v: &Value| v.as_str().and_then(|s| s.parse::<u64>().ok()).unwrap_or(0);
    let after: u64 = q.get("after").and_then(|a| a.parse().ok()).unwrap_or(0);
    let limit: usize = q.get("limit").and_then(|l| l.parse().ok()).unwrap_or(50);
    let mut found: Vec<Value> = (inner.history.lock().unwrap())
        .iter()
        .filter(|m| m["channel_id"].as_str() == Some(id.as_str()) && number(&m["id"]) > after)
        .cloned()
        .collect();
    found.sort_by_key(|m| number(&m["id"]));
    found.truncate(limit);
    found.reverse();
    for m in &mut found {
        if let Some(m) = m.as_object_mut() {
            m.remove("guild_id");
        }
    }
    axum::Json(Value::Array(found)).into_response()
}

pub(super) async fn not_found(
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
