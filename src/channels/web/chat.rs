//! The web chat: a message in, the reply streamed back as server-sent events; and a
//! conversation's history, so a reopened page shows it.
//!
//! Events of `POST /api/chats/{id}/messages`, each `data` a JSON object:
//! - `delta` `{"text"}` — a piece of the model's answer as it streams in (none for commands
//!   and `remember …`, which answer at once);
//! - `reply` `{"text","kind"}` — the whole reply, last; `kind` is `model`, `remembered`,
//!   `command` or `error` (the model could not answer; the message is stored anyway);
//! - `error` `{"error"}` — the turn itself failed; the message is stored.

use axum::extract::{Path, State};
use axum::response::IntoResponse;
use axum::response::sse::{Event, KeepAlive, Sse};
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::time::Duration;

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::api::{ApiError, ApiJson, ApiQuery, ApiResult, conversation};
use super::{App, owed};
use crate::agent::{Agent, IncomingMessage, Pending, Place, Received, ReplyKind};
use crate::base::ChatKey;
use crate::base::bug::contained;
use crate::channels::turn::TURN_FAILED;
use crate::channels::workers::DRAIN_TIMEOUT;
use crate::store::now_ms;

/// Most messages the history endpoint returns.
const MAX_HISTORY: u32 = 500;

#[derive(Deserialize)]
pub(super) struct SendBody {
    text: String,
}

pub(super) async fn send_message(
    State(app): State<App>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<SendBody>,
) -> ApiResult<impl IntoResponse> {
    let chat = conversation(&id)?;
    if body.text.trim().is_empty() {
        return Err(ApiError::bad_request("`text` is empty"));
    }
    let msg = IncomingMessage {
        chat,
        chat_title: None,
        sender_id: "web".into(),
        sender_name: "web user".into(),
        text: body.text,
        is_group: false,
        addressed: true,
        platform_message_id: None,
        platform_thread_id: None,
        sent_at: None,
    };
    // Stored before anything is streamed, while the chat's earlier turns may still run (its
    // place in their line taken first, so answers keep the order messages came): a message
    // waiting behind another answer is kept whatever becomes of the process, and a message
    // that cannot be stored is refused with the reason, not streamed as if it were kept.
    let agent = app.agent.clone();
    let place = agent.line_up(&msg.chat);
    let (events, rx) = mpsc::unbounded_channel();
    match agent.receive(&msg).await? {
        // Its own task: the turn finishes (and its reply is stored) even if the page goes away.
        Received::Pending(pending) => {
            tokio::spawn(run_turn(
                agent,
                place,
                pending,
                events,
                app.shutdown.clone(),
            ));
        }
        Received::Stored | Received::Duplicate => {
            let _ = events.send(event(
                "error",
                json!({ "error": "the message was stored but not answered" }),
            ));
        }
    }
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv()
            .await
            .map(|event| (Ok::<_, std::convert::Infallible>(event), rx))
    });
    let sse: Sse<_> = Sse::new(stream).keep_alive(KeepAlive::default());
    // Reverse proxies (nginx) would otherwise buffer the stream and show the reply at once.
    Ok(([("x-accel-buffering", "no")], sse))
}

/// What a page is told when the daemon stops before its reply was ready.
const STOPPING: &str = "The server is stopping before this answer was ready. Your message is \
     saved and will be answered when it is back: reopen the conversation then.";

/// Runs the turn, sending the model's text as it arrives and the reply at the end. A send
/// that fails only means the page stopped listening. A shutdown that would cut the stream off
/// (the turn not done within the drain time) ends it with an `error` event saying so first.
async fn run_turn(
    agent: std::sync::Arc<Agent>,
    place: Place,
    pending: Pending,
    events: mpsc::UnboundedSender<Event>,
    shutdown: CancellationToken,
) {
    let chat = pending.chat.clone();
    // No turn starts once the daemon is stopping: a message still waiting stays owed, for
    // the next start.
    let place = tokio::select! {
        turn = place.take() => Place::Held(turn),
        () = shutdown.cancelled() => {
            tracing::info!(chat = %chat, "web: a message waiting for its turn at shutdown is left for the next start");
            let _ = events.send(event("error", json!({ "error": STOPPING })));
            return;
        }
    };
    // Several replicas: the chat's turn across them too (after this place, as every web turn
    // takes them), so that a replica that dies mid-answer leaves it to another (`owed`)
    let coordinated = agent.store().coordinates_turns();
    if coordinated {
        let refused = match owed::take(&agent, &pending, &shutdown, true).await {
            owed::Turn::Owed => None,
            owed::Turn::Answered => Some(ANSWERED_ELSEWHERE),
            owed::Turn::Busy => Some(TURN_FAILED),
            owed::Turn::Stopping => Some(STOPPING),
        };
        if let Some(error) = refused {
            let _ = events.send(event("error", json!({ "error": error })));
            return;
        }
    }
    stream_turn(&agent, place, &pending, events, &shutdown).await;
    if coordinated {
        owed::give_back(&agent, &pending).await;
    }
}

/// What a page is told when its message was answered meanwhile by another replica (this one
/// waited for the chat's turn that long).
const ANSWERED_ELSEWHERE: &str =
    "This message was answered meanwhile by another server: reopen the conversation to see it.";

/// Runs the turn in `place`, streaming the answer to `events` (see [`run_turn`]).
async fn stream_turn(
    agent: &Agent,
    place: Place,
    pending: &Pending,
    events: mpsc::UnboundedSender<Event>,
    shutdown: &CancellationToken,
) {
    let chat = &pending.chat;
    let (deltas, mut pieces) = mpsc::unbounded_channel::<String>();
    // a bug met while answering is the turn's failure: the page is told, the message stays
    // owed (the sweep tries it again, and its turns are counted)
    let turn = async {
        contained("an answer", agent.respond_in(place, pending, Some(&deltas)))
            .await
            .unwrap_or_else(|bug| Err(anyhow::anyhow!(bug)))
    };
    tokio::pin!(turn);
    let cut_off = async {
        shutdown.cancelled().await;
        // just before the server gives up on the requests still open
        tokio::time::sleep(DRAIN_TIMEOUT.saturating_sub(Duration::from_secs(1))).await;
    };
    tokio::pin!(cut_off);
    let outcome = loop {
        tokio::select! {
            outcome = &mut turn => break outcome,
            Some(piece) = pieces.recv() => {
                let _ = events.send(event("delta", json!({ "text": piece })));
            }
            () = &mut cut_off => {
                tracing::info!(chat = %chat, "web: a reply was not ready at shutdown; the page is told");
                let _ = events.send(event("error", json!({ "error": STOPPING })));
                // The stream ends here; the turn goes on while the process does (else its
                // message stays owed, for the next start).
                drop(events);
                let _ = turn.await;
                return;
            }
        }
    };
    while let Ok(piece) = pieces.try_recv() {
        let _ = events.send(event("delta", json!({ "text": piece })));
    }
    let last = match outcome {
        Ok(reply) => event(
            "reply",
            json!({ "text": reply.text, "kind": kind_name(reply.kind) }),
        ),
        Err(e) => {
            tracing::error!(chat = %chat, error = %format!("{e:#}"), "web: turn failed");
            event("error", json!({ "error": TURN_FAILED }))
        }
    };
    let _ = events.send(last);
}

fn event(name: &str, data: serde_json::Value) -> Event {
    Event::default().event(name).data(data.to_string())
}

pub(super) fn kind_name(kind: ReplyKind) -> &'static str {
    match kind {
        ReplyKind::Model => "model",
        ReplyKind::Remembered => "remembered",
        ReplyKind::Command => "command",
        ReplyKind::Error => "error",
    }
}

#[derive(Deserialize)]
pub(super) struct HistoryQuery {
    limit: Option<u32>,
}

#[derive(Serialize)]
struct HistoryMessage {
    id: i64,
    /// `user` or `assistant`
    role: &'static str,
    text: String,
    /// Unix ms
    created_at: i64,
}

/// The conversation's last messages (across `/reset`s), oldest first; empty for a
/// conversation not started yet. Replies to commands and failed turns are not stored, so
/// they are not here.
pub(super) async fn history(
    State(app): State<App>,
    Path(id): Path<String>,
    ApiQuery(q): ApiQuery<HistoryQuery>,
) -> ApiResult<axum::Json<serde_json::Value>> {
    let key: ChatKey = conversation(&id)?;
    let limit = super::api::limit(q.limit, 200, MAX_HISTORY)?;
    let store = app.agent.store();
    let messages = match store.find_chat(&key).await? {
        None => Vec::new(),
        Some(chat) => store
            .recent_messages(chat.id, limit)
            .await?
            .into_iter()
            .map(|m| HistoryMessage {
                id: m.id,
                role: if m.is_from_bot { "assistant" } else { "user" },
                text: m.text,
                created_at: m.created_at,
            })
            .collect(),
    };
    Ok(axum::Json(json!({
        "chat": key.to_string(),
        "messages": messages,
        "now": now_ms(),
    })))
}
