//! A scripted LLM server on 127.0.0.1 speaking the OpenAI chat-completions and the Anthropic
//! messages wire formats, so the real reqwest-based providers are exercised.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::{Value, json};
use tokio::sync::Notify;

/// One scripted answer.
#[derive(Clone)]
pub enum Answer {
    /// 200 with this JSON body.
    Json(Value),
    /// This status, an optional `Retry-After`, and a body.
    Status(u16, Option<&'static str>, String),
    /// 200 with a body that is not JSON.
    Garbage(&'static str),
    /// Never answers.
    Hang,
    /// 200 `text/event-stream` with these `data:` payloads.
    Stream(Vec<String>),
    /// The same, one payload at a time with `Duration` between them, as a model streams.
    Paced(Vec<String>, Duration),
    /// Waits until the gate is opened, then gives the inner answer.
    Gated(Arc<Notify>, Box<Answer>),
    /// Gives the inner answer after `Duration`, as a model takes time to answer; other
    /// requests are served meanwhile (the wait is the request's own).
    Delayed(Duration, Box<Answer>),
}

/// A request the server received.
#[derive(Debug, Clone)]
pub struct Seen {
    pub path: String,
    pub headers: HeaderMap,
    pub body: Value,
}

impl Seen {
    /// The system prompt, in either wire format.
    pub fn system(&self) -> String {
        if let Some(s) = self.body.get("system").and_then(Value::as_str) {
            return s.to_string();
        }
        self.body["messages"][0]["content"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    }
    /// All message contents after the system prompt, as text (OpenAI format).
    pub fn message_texts(&self) -> Vec<String> {
        self.body["messages"]
            .as_array()
            .map(|m| {
                m.iter()
                    .skip(1)
                    .map(|m| m["content"].as_str().unwrap_or_default().to_string())
                    .collect()
            })
            .unwrap_or_default()
    }
}

struct Raw {
    path: String,
    headers: HeaderMap,
    body: String,
}

impl Raw {
    fn parse(&self) -> Seen {
        Seen {
            path: self.path.clone(),
            headers: self.headers.clone(),
            body: serde_json::from_str(&self.body).unwrap_or(Value::Null),
        }
    }
}

#[derive(Default)]
struct Inner {
    script: Mutex<VecDeque<Answer>>,
    fallback: Mutex<Option<Answer>>,
    /// The requests as they came: bodies are parsed only when asked for ([`FakeLlm::requests`]),
    /// so that under load the fake spends no CPU on the daemon's requests beyond taking them in
    /// (a real model's server is not on the machine's cores).
    seen: Mutex<Vec<Raw>>,
    /// When each of `seen` arrived, same order.
    arrivals: Mutex<Vec<Instant>>,
    /// When each of `seen` was answered (its response handed to the server to send), same
    /// order; `None` until then.
    answered: Mutex<Vec<Option<Instant>>>,
    arrived: Notify,
}

#[derive(Clone)]
pub struct FakeLlm {
    /// Base URL for OpenAI-style clients (ends in /v1).
    pub url: String,
    /// Base URL for the Anthropic client.
    pub root: String,
    inner: Arc<Inner>,
}

impl FakeLlm {
    pub async fn start() -> Self {
        let inner = Arc::new(Inner::default());
        let app = Router::new()
            .route("/v1/chat/completions", post(handle))
            .route("/v1/messages", post(handle))
            .with_state(inner.clone());
        let addr = super::serve(app).await;
        Self {
            url: format!("http://{addr}/v1"),
            root: format!("http://{addr}"),
            inner,
        }
    }

    /// Queues answers, given in order.
    pub fn script(&self, answers: impl IntoIterator<Item = Answer>) -> &Self {
        self.inner.script.lock().unwrap().extend(answers);
        self
    }

    /// The answer used once the script is empty (without one: HTTP 500 "script exhausted").
    pub fn fallback(&self, answer: Answer) -> &Self {
        *self.inner.fallback.lock().unwrap() = Some(answer);
        self
    }

    pub fn requests(&self) -> Vec<Seen> {
        self.inner
            .seen
            .lock()
            .unwrap()
            .iter()
            .map(Raw::parse)
            .collect()
    }

    /// The requests with the time each arrived and the time it was answered (`None`: not
    /// yet): how long the model took is the time between them.
    pub fn requests_timed(&self) -> Vec<(Instant, Option<Instant>, Seen)> {
        let seen = self.inner.seen.lock().unwrap();
        let arrivals = self.inner.arrivals.lock().unwrap();
        let answered = self.inner.answered.lock().unwrap();
        (arrivals.iter().zip(answered.iter()).zip(seen.iter()))
            .map(|((at, done), seen)| (*at, *done, seen.parse()))
            .collect()
    }

    pub fn request_count(&self) -> usize {
        self.inner.seen.lock().unwrap().len()
    }

    /// Waits (up to 10 s) until at least `n` requests have arrived.
    pub async fn wait_for_requests(&self, n: usize) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        loop {
            let arrived = self.inner.arrived.notified();
            if self.request_count() >= n {
                return;
            }
            if tokio::time::timeout_at(deadline, arrived).await.is_err() {
                panic!("expected {n} LLM requests, got {}", self.request_count());
            }
        }
    }
}

async fn handle(
    State(inner): State<Arc<Inner>>,
    uri: axum::http::Uri,
    headers: HeaderMap,
    body: String,
) -> Response {
    let at = Instant::now();
    let index = {
        // one lock over all three, so that they stay in the same order
        let mut seen = inner.seen.lock().unwrap();
        seen.push(Raw {
            path: uri.path().to_string(),
            headers,
            body,
        });
        inner.arrivals.lock().unwrap().push(at);
        inner.answered.lock().unwrap().push(None);
        seen.len() - 1
    };
    inner.arrived.notify_waiters();
    let next = inner.script.lock().unwrap().pop_front();
    let answer = next.or_else(|| inner.fallback.lock().unwrap().clone());
    let response = match answer {
        Some(a) => respond(a).await,
        None => (StatusCode::INTERNAL_SERVER_ERROR, "script exhausted").into_response(),
    };
    inner.answered.lock().unwrap()[index] = Some(Instant::now());
    response
}

pub async fn respond(answer: Answer) -> Response {
    match answer {
        Answer::Json(v) => axum::Json(v).into_response(),
        Answer::Status(code, retry_after, body) => {
            let mut resp = (StatusCode::from_u16(code).unwrap(), body).into_response();
            if let Some(r) = retry_after {
                resp.headers_mut().insert("retry-after", r.parse().unwrap());
            }
            resp
        }
        Answer::Garbage(text) => ([("content-type", "application/json")], text).into_response(),
        Answer::Hang => std::future::pending().await,
        Answer::Stream(events) => {
            let mut text = String::new();
            for e in events {
                text.push_str(&format!("data: {e}\n\n"));
            }
            ([("content-type", "text/event-stream")], Body::from(text)).into_response()
        }
        Answer::Paced(events, gap) => {
            let chunks = futures_util::stream::unfold(
                (events.into_iter(), true),
                move |(mut rest, first)| async move {
                    let event = rest.next()?;
                    if !first {
                        tokio::time::sleep(gap).await;
                    }
                    let chunk = axum::body::Bytes::from(format!("data: {event}\n\n"));
                    Some((Ok::<_, std::convert::Infallible>(chunk), (rest, false)))
                },
            );
            (
                [("content-type", "text/event-stream")],
                Body::from_stream(chunks),
            )
                .into_response()
        }
        Answer::Gated(gate, inner) => {
            gate.notified().await;
            Box::pin(respond(*inner)).await
        }
        Answer::Delayed(delay, inner) => {
            tokio::time::sleep(delay).await;
            Box::pin(respond(*inner)).await
        }
    }
}

/// An OpenAI answer with text.
pub fn openai_text(text: &str) -> Answer {
    Answer::Json(json!({
        "id": "chatcmpl-1", "object": "chat.completion", "model": "fake",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 11, "completion_tokens": 5, "total_tokens": 16}
    }))
}

/// [`openai_text`] given after `delay`: every answer of a model that takes that long.
pub fn openai_text_after(text: &str, delay: Duration) -> Answer {
    Answer::Delayed(delay, Box::new(openai_text(text)))
}

/// [`openai_text`] from a model slow enough for the typing indicator to go up (it does once a
/// turn has run `channels::turn::TYPING_AFTER`): for the tests that look for it.
pub fn openai_text_slowly(text: &str) -> Answer {
    openai_text_after(text, mneme::channels::turn::TYPING_AFTER * 3)
}

/// An OpenAI answer asking for one tool call.
pub fn openai_tool_call(name: &str, arguments: &str) -> Answer {
    Answer::Json(json!({
        "id": "chatcmpl-2", "object": "chat.completion", "model": "fake",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": null, "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": name, "arguments": arguments}}
        ]}, "finish_reason": "tool_calls"}],
        "usage": {"prompt_tokens": 20, "completion_tokens": 7, "total_tokens": 27}
    }))
}

/// An OpenAI streamed answer: text pieces, then usage, then [DONE].
pub fn openai_stream(pieces: &[&str]) -> Answer {
    let mut events: Vec<String> = pieces
        .iter()
        .map(|p| json!({"choices": [{"index": 0, "delta": {"content": p}}]}).to_string())
        .collect();
    events.push(
        json!({"choices": [], "usage": {"prompt_tokens": 9, "completion_tokens": 3}}).to_string(),
    );
    events.push("[DONE]".into());
    Answer::Stream(events)
}

/// [`openai_stream`] with `gap` between the pieces.
pub fn openai_stream_paced(pieces: &[&str], gap: Duration) -> Answer {
    match openai_stream(pieces) {
        Answer::Stream(events) => Answer::Paced(events, gap),
        _ => unreachable!("openai_stream streams"),
    }
}

pub fn anthropic_text(text: &str) -> Answer {
    Answer::Json(json!({
        "id": "msg_1", "type": "message", "role": "assistant", "model": "fake",
        "content": [{"type": "text", "text": text}],
        "stop_reason": "end_turn",
        "usage": {"input_tokens": 12, "output_tokens": 4}
    }))
}

pub fn anthropic_tool_use(name: &str, input: Value) -> Answer {
    Answer::Json(json!({
        "id": "msg_2", "type": "message", "role": "assistant", "model": "fake",
        "content": [{"type": "text", "text": "Let me save that."}, {"type": "tool_use", "id": "toolu_1", "name": name, "input": input}],
        "stop_reason": "tool_use",
        "usage": {"input_tokens": 30, "output_tokens": 9}
    }))
}

/// An Anthropic streamed answer (each event's data; the fake sends no event names, which the
/// client does not need): the text in pieces, then one tool call whose input comes in two
/// pieces of JSON when `tool` is given, then the stop reason and usage.
pub fn anthropic_stream(pieces: &[&str], tool: Option<(&str, Value)>) -> Answer {
    let mut events = vec![
        json!({"type": "message_start", "message": {"id": "msg_s", "type": "message", "role": "assistant",
            "content": [], "model": "fake", "usage": {"input_tokens": 21, "output_tokens": 1}}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        json!({"type": "ping"}),
    ];
    events.extend(pieces.iter().map(|p| {
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": p}})
    }));
    events.push(json!({"type": "content_block_stop", "index": 0}));
    let stop = if let Some((name, input)) = tool {
        let text = input.to_string();
        let (head, tail) = text.split_at(text.len() / 2);
        events.push(json!({"type": "content_block_start", "index": 1,
            "content_block": {"type": "tool_use", "id": "toolu_s", "name": name, "input": {}}}));
        for part in [head, tail] {
            events.push(json!({"type": "content_block_delta", "index": 1,
                "delta": {"type": "input_json_delta", "partial_json": part}}));
        }
        events.push(json!({"type": "content_block_stop", "index": 1}));
        "tool_use"
    } else {
        "end_turn"
    };
    events.push(json!({"type": "message_delta", "delta": {"stop_reason": stop}, "usage": {"output_tokens": 8}}));
    events.push(json!({"type": "message_stop"}));
    Answer::Stream(events.iter().map(Value::to_string).collect())
}
