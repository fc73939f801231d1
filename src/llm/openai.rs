//! Any OpenAI-compatible chat-completions endpoint: OpenAI, OpenRouter, Ollama, vLLM, ….

use std::collections::BTreeMap;

use async_trait::async_trait;
use reqwest::header::{AUTHORIZATION, HeaderMap, HeaderValue};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Value, json};

use super::http::{Http, HttpSettings};
use super::{
    ChatMessage, DeltaSink, LlmError, LlmProvider, LlmRequest, LlmResponse, Role, ToolCall, Usage,
};

pub const DEFAULT_BASE_URL: &str = "https://api.openai.com/v1";

pub struct OpenAiProvider {
    http: Http,
    url: reqwest::Url,
}

impl OpenAiProvider {
    pub fn new(base_url: &str, api_key: &str, settings: HttpSettings) -> Result<Self, String> {
        let base = if base_url.is_empty() {
            DEFAULT_BASE_URL
        } else {
            base_url
        };
        let mut headers = HeaderMap::new();
        if !api_key.is_empty() {
            let mut value = HeaderValue::from_str(&format!("Bearer {api_key}")).map_err(|_| {
                "api_key contains characters not allowed in an HTTP header".to_string()
            })?;
            value.set_sensitive(true);
            headers.insert(AUTHORIZATION, value);
        }
        Ok(Self {
            http: Http::new("openai", headers, api_key, settings)?,
            url: super::http::endpoint(
                "llm_base_url",
                &format!("{}/chat/completions", base.trim_end_matches('/')),
            )?,
        })
    }
}

#[async_trait]
impl LlmProvider for OpenAiProvider {
    fn name(&self) -> &'static str {
        "openai"
    }

    async fn complete(&self, req: &LlmRequest) -> Result<LlmResponse, LlmError> {
        let resp = self
            .http
            .post(&self.url, &request_body(req, false), false)
            .await?;
        let body = self.http.json(resp).await?;
        parse_response(&body).map_err(|e| self.http.invalid(e))
    }

    async fn complete_streaming(
        &self,
        req: &LlmRequest,
        on_delta: DeltaSink<'_>,
    ) -> Result<LlmResponse, LlmError> {
        let mut events = self
            .http
            .post_events(&self.url, &request_body(req, true))
            .await?;
        let mut acc = StreamAccumulator::default();
        loop {
            let Some(event) = events.next().await? else {
                // Ended without `[DONE]`: complete only if the answer said it was finished.
                if acc.finished {
                    break;
                }
                return Err(self.http.invalid(match events.seen {
                    0 => "the answer is not an event stream (no event in it)".to_string(),
                    _ => "the stream ended before the answer was complete (no finish_reason, no [DONE])".to_string(),
                }));
            };
            if event.data.trim() == "[DONE]" {
                break;
            }
            let chunk: Value = serde_json::from_str(&event.data)
                .map_err(|e| self.http.invalid(format!("stream chunk is not JSON: {e}")))?;
            if let Some(delta) = acc.push(&chunk).map_err(|e| self.http.invalid(e))? {
                on_delta(&delta);
            }
        }
        Ok(acc.finish())
    }
}

/// The request's body, written straight from `req` (no JSON tree built and dropped per call:
/// the prompt, the history and the tools' schemas are the largest things a turn sends).
pub(super) struct RequestBody<'a> {
    req: &'a LlmRequest,
    stream: bool,
}

pub(super) fn request_body(req: &LlmRequest, stream: bool) -> RequestBody<'_> {
    RequestBody { req, stream }
}

impl Serialize for RequestBody<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let req = self.req;
        let mut body = s.serialize_map(None)?;
        body.serialize_entry("model", &req.model)?;
        body.serialize_entry("messages", &Messages(req))?;
        body.serialize_entry("max_tokens", &req.max_tokens)?;
        if !req.tools.is_empty() {
            body.serialize_entry("tools", req.tools.openai_json())?;
        }
        if self.stream {
            body.serialize_entry("stream", &true)?;
            body.serialize_entry("stream_options", &json!({"include_usage": true}))?;
        }
        body.end()
    }
}

/// The system prompt, then the conversation.
struct Messages<'a>(&'a LlmRequest);

impl Serialize for Messages<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let system = std::iter::once(Message::System(&self.0.system));
        s.collect_seq(system.chain(self.0.messages.iter().map(Message::Chat)))
    }
}

enum Message<'a> {
    System(&'a str),
    Chat(&'a ChatMessage),
}

impl Serialize for Message<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut out = s.serialize_map(None)?;
        match *self {
            Message::System(text) => {
                out.serialize_entry("role", "system")?;
                out.serialize_entry("content", text)?;
            }
            Message::Chat(m) => match m.role {
                Role::User => {
                    out.serialize_entry("role", "user")?;
                    out.serialize_entry("content", &m.content)?;
                }
                Role::Assistant if m.tool_calls.is_empty() => {
                    out.serialize_entry("role", "assistant")?;
                    out.serialize_entry("content", &m.content)?;
                }
                Role::Assistant => {
                    out.serialize_entry("role", "assistant")?;
                    let content = (!m.content.is_empty()).then_some(&m.content);
                    out.serialize_entry("content", &content)?;
                    let calls: Vec<Value> = (m.tool_calls.iter())
                        .map(|c| {
                            json!({
                                "id": c.id,
                                "type": "function",
                                "function": {"name": c.name, "arguments": c.arguments_text()},
                            })
                        })
                        .collect();
                    out.serialize_entry("tool_calls", &calls)?;
                }
                Role::Tool => {
                    out.serialize_entry("role", "tool")?;
                    let id = m.tool_call_id.as_deref().unwrap_or_default();
                    out.serialize_entry("tool_call_id", id)?;
                    out.serialize_entry("content", &m.content)?;
                }
            },
        }
        out.end()
    }
}

fn parse_arguments(raw: &str) -> Result<Value, String> {
    if raw.trim().is_empty() {
        return Ok(json!({}));
    }
    serde_json::from_str(raw).map_err(|_| raw.to_string())
}

// Fields are reached with `get`, not `pointer`: a pointer's path is unescaped into new
// strings at every step, and these run on every answer and every streamed chunk.
fn first_choice(v: &Value) -> Option<&Value> {
    v.get("choices")?.get(0)
}

/// A tool call's `function.name` or `function.arguments`.
fn function_field<'a>(call: &'a Value, key: &str) -> Option<&'a str> {
    call.get("function")?.get(key)?.as_str()
}

fn parse_usage(v: &Value) -> Usage {
    let usage = v.get("usage");
    let tokens = |key| usage.and_then(|u| u.get(key)).and_then(Value::as_u64);
    Usage {
        input_tokens: tokens("prompt_tokens").unwrap_or(0),
        output_tokens: tokens("completion_tokens").unwrap_or(0),
    }
}

pub(super) fn parse_response(body: &Value) -> Result<LlmResponse, String> {
    let message = first_choice(body)
        .and_then(|c| c.get("message"))
        .ok_or_else(|| format!("no choices[0].message in {}", truncate(&body.to_string())))?;
    let text = message
        .get("content")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let mut tool_calls = Vec::new();
    for (i, call) in message
        .get("tool_calls")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        let name = function_field(call, "name")
            .ok_or_else(|| format!("tool_calls[{i}] has no function name"))?;
        let args = function_field(call, "arguments").unwrap_or("{}");
        tool_calls.push(ToolCall {
            id: call
                .get("id")
                .and_then(Value::as_str)
                .map_or_else(|| format!("call_{i}"), str::to_string),
            name: name.to_string(),
            arguments: parse_arguments(args),
        });
    }
    Ok(LlmResponse {
        text,
        tool_calls,
        usage: parse_usage(body),
        cut_off: first_choice(body)
            .and_then(|c| c.get("finish_reason"))
            .and_then(Value::as_str)
            == Some("length"),
    })
}

fn truncate(s: &str) -> String {
    s.chars().take(200).collect()
}

/// Builds one answer from streamed chunks: text deltas and tool-call fragments by index.
#[derive(Default)]
pub(super) struct StreamAccumulator {
    text: String,
    calls: BTreeMap<u64, (String, String, String)>,
    usage: Usage,
    /// A chunk gave the answer's `finish_reason`: nothing more of it is to come.
    finished: bool,
    /// That reason was the token limit (`length`).
    cut_off: bool,
}

impl StreamAccumulator {
    /// Takes one chunk; returns the text it added, if any.
    pub fn push(&mut self, chunk: &Value) -> Result<Option<String>, String> {
        if let Some(err) = chunk.get("error") {
            let msg = err
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("error in stream");
            return Err(msg.to_string());
        }
        if chunk.get("usage").is_some_and(|u| !u.is_null()) {
            self.usage = parse_usage(chunk);
        }
        let choice = first_choice(chunk);
        if let Some(reason) = choice
            .and_then(|c| c.get("finish_reason"))
            .and_then(Value::as_str)
        {
            self.finished = true;
            self.cut_off = reason == "length";
        }
        let Some(delta) = choice.and_then(|c| c.get("delta")) else {
            return Ok(None);
        };
        for call in delta
            .get("tool_calls")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let index = call.get("index").and_then(Value::as_u64).unwrap_or(0);
            let entry = self.calls.entry(index).or_default();
            if let Some(id) = call.get("id").and_then(Value::as_str) {
                entry.0 = id.to_string();
            }
            if let Some(name) = function_field(call, "name") {
                entry.1.push_str(name);
            }
            if let Some(args) = function_field(call, "arguments") {
                entry.2.push_str(args);
            }
        }
        match delta.get("content").and_then(Value::as_str) {
            Some(text) if !text.is_empty() => {
                self.text.push_str(text);
                Ok(Some(text.to_string()))
            }
            _ => Ok(None),
        }
    }

    pub fn finish(self) -> LlmResponse {
        LlmResponse {
            text: self.text,
            tool_calls: self
                .calls
                .into_iter()
                .map(|(i, (id, name, args))| ToolCall {
                    id: if id.is_empty() {
                        format!("call_{i}")
                    } else {
                        id
                    },
                    name,
                    arguments: parse_arguments(&args),
                })
                .collect(),
            usage: self.usage,
            cut_off: self.cut_off,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::{ToolCall, ToolSpec};

    /// The body as the chat-completions API reads it: the system prompt first, each role's
    /// fields, a tool call's turn with no text as `null` content, the tools as functions.
    #[test]
    fn the_request_body_is_the_api_s_json() {
        let mut calling = ChatMessage::assistant("");
        calling.tool_calls = vec![ToolCall {
            id: "c1".into(),
            name: "read_memory".into(),
            arguments: Ok(json!({"scope": "chat"})),
        }];
        let req = LlmRequest {
            model: "m".into(),
            system: "be brief".into(),
            messages: vec![
                ChatMessage::user("hi"),
                calling,
                ChatMessage::tool_result("c1", "notes"),
                ChatMessage::assistant("hello"),
            ],
            tools: vec![ToolSpec {
                name: "read_memory",
                description: "read",
                parameters: json!({"type": "object"}),
            }]
            .into(),
            max_tokens: 9,
        };
        let body = serde_json::to_value(request_body(&req, true)).unwrap();
        assert_eq!(
            body,
            json!({
                "model": "m",
                "max_tokens": 9,
                "messages": [
                    {"role": "system", "content": "be brief"},
                    {"role": "user", "content": "hi"},
                    {"role": "assistant", "content": null, "tool_calls": [
                        {"id": "c1", "type": "function",
                         "function": {"name": "read_memory", "arguments": "{\"scope\":\"chat\"}"}}
                    ]},
                    {"role": "tool", "tool_call_id": "c1", "content": "notes"},
                    {"role": "assistant", "content": "hello"},
                ],
                "tools": [{"type": "function", "function": {
                    "name": "read_memory", "description": "read", "parameters": {"type": "object"}
                }}],
                "stream": true,
                "stream_options": {"include_usage": true},
            })
        );
        let req = LlmRequest {
            tools: Vec::new().into(),
            ..req
        };
        let body = serde_json::to_value(request_body(&req, false)).unwrap();
        for absent in ["tools", "stream", "stream_options"] {
            assert!(body.get(absent).is_none(), "{absent}: {body}");
        }
    }

    #[test]
    fn stream_accumulates_text_and_tool_fragments() {
        let mut acc = StreamAccumulator::default();
        let chunks = [
            json!({"choices":[{"delta":{"content":"Hel"}}]}),
            json!({"choices":[{"delta":{"content":"lo"}}]}),
            json!({"choices":[{"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"read_memory","arguments":"{\"sco"}}]}}]}),
            json!({"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"pe\":\"chat\"}"}}]}}]}),
            json!({"choices":[],"usage":{"prompt_tokens":7,"completion_tokens":3}}),
        ];
        let deltas: Vec<_> = chunks.iter().filter_map(|c| acc.push(c).unwrap()).collect();
        assert_eq!(deltas, ["Hel", "lo"]);
        assert!(!acc.finished, "no finish_reason yet");
        acc.push(&json!({"choices":[{"delta":{},"finish_reason":"tool_calls"}]}))
            .unwrap();
        assert!(acc.finished);
        let r = acc.finish();
        assert_eq!(r.text, "Hello");
        assert_eq!(r.tool_calls[0].name, "read_memory");
        assert_eq!(r.tool_calls[0].arguments, Ok(json!({"scope":"chat"})));
        assert_eq!(
            r.usage,
            Usage {
                input_tokens: 7,
                output_tokens: 3
            }
        );
    }

    #[test]
    fn finishing_for_length_marks_the_answer_cut_off() {
        let answer = |reason: &str| json!({"choices":[{"message":{"content":"half an answ"},"finish_reason":reason}]});
        assert!(parse_response(&answer("length")).unwrap().cut_off);
        assert!(!parse_response(&answer("stop")).unwrap().cut_off);
        let mut acc = StreamAccumulator::default();
        acc.push(&json!({"choices":[{"delta":{"content":"half"}}]}))
            .unwrap();
        acc.push(&json!({"choices":[{"delta":{},"finish_reason":"length"}]}))
            .unwrap();
        assert!(acc.finish().cut_off);
    }

    #[test]
    fn invalid_tool_arguments_are_kept_raw() {
        let body = json!({"choices":[{"message":{"content":null,"tool_calls":[{"id":"x","type":"function","function":{"name":"write_memory","arguments":"{oops"}}]}}]});
        let r = parse_response(&body).unwrap();
        assert_eq!(r.tool_calls[0].arguments, Err("{oops".to_string()));
        assert!(parse_response(&json!({"choices":[]})).is_err());
    }
}
