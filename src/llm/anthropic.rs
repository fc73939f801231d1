//! Anthropic's messages API.

use async_trait::async_trait;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Value, json};

use super::anthropic_stream::Accumulator;
use super::http::{Http, HttpSettings};
use super::{DeltaSink, LlmError, LlmProvider, LlmRequest, LlmResponse, Role, ToolCall, Usage};

pub const DEFAULT_BASE_URL: &str = "https://api.anthropic.com";
const API_VERSION: &str = "2023-06-01";

pub struct AnthropicProvider {
    http: Http,
    url: reqwest::Url,
}

impl AnthropicProvider {
    pub fn new(base_url: &str, api_key: &str, settings: HttpSettings) -> Result<Self, String> {
        let base = if base_url.is_empty() {
            DEFAULT_BASE_URL
        } else {
            base_url
        }
        .trim_end_matches('/');
        let mut headers = HeaderMap::new();
        let mut key = HeaderValue::from_str(api_key)
            .map_err(|_| "api_key contains characters not allowed in an HTTP header".to_string())?;
        key.set_sensitive(true);
        headers.insert(HeaderName::from_static("x-api-key"), key);
        headers.insert(
            HeaderName::from_static("anthropic-version"),
            HeaderValue::from_static(API_VERSION),
        );
        let url = if base.ends_with("/v1") {
            format!("{base}/messages")
        } else {
            format!("{base}/v1/messages")
        };
        Ok(Self {
            http: Http::new("anthropic", headers, api_key, settings)?,
            url: super::http::endpoint("llm_base_url", &url)?,
        })
    }
}

#[async_trait]
impl LlmProvider for AnthropicProvider {
    fn name(&self) -> &'static str {
        "anthropic"
    }

    async fn complete(&self, req: &LlmRequest) -> Result<LlmResponse, LlmError> {
        let resp = self
            .http
            .post(&self.url, &request_body(req, false), false)
            .await?;
        let body = self.http.json(resp).await?;
        parse_response(&body).map_err(|e| self.http.invalid(e))
    }

    /// The answer as it streams: `llm_timeout_secs` bounds each wait for the next event, not
    /// the whole answer.
    async fn complete_streaming(
        &self,
        req: &LlmRequest,
        on_delta: DeltaSink<'_>,
    ) -> Result<LlmResponse, LlmError> {
        let body = request_body(req, true);
        let mut events = self.http.post_events(&self.url, &body).await?;
        let mut acc = Accumulator::default();
        while !acc.finished {
            let Some(event) = events.next().await? else {
                return Err(self.http.invalid(match events.seen {
                    0 => "the answer is not an event stream (no event in it)",
                    _ => "the stream ended before the answer was complete (no message_stop)",
                }));
            };
            let data: Value = serde_json::from_str(&event.data)
                .map_err(|e| self.http.invalid(format!("stream event is not JSON: {e}")))?;
            if let Some(piece) = acc.push(&data).map_err(|e| self.http.invalid(e))? {
                on_delta(&piece);
            }
        }
        Ok(acc.finish())
    }
}

/// The request's body; the tools are the text their [`super::ToolSet`] wrote once.
#[derive(Serialize)]
pub(super) struct RequestBody<'a> {
    model: &'a str,
    max_tokens: u32,
    system: &'a str,
    messages: Vec<Value>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    stream: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    tools: Option<&'a RawValue>,
}

/// Messages as Anthropic wants them: content blocks, tool results as user turns, roles
/// alternating (consecutive turns of one role are merged), starting with the user.
pub(super) fn request_body(req: &LlmRequest, stream: bool) -> RequestBody<'_> {
    let mut turns: Vec<(&'static str, Vec<Value>)> = Vec::new();
    for m in &req.messages {
        let (role, mut blocks) = match m.role {
            Role::User => ("user", text_block(&m.content)),
            Role::Assistant => {
                let mut blocks = text_block(&m.content);
                blocks.extend(m.tool_calls.iter().map(|c| {
                    let input = c
                        .arguments
                        .clone()
                        .unwrap_or_else(|raw| json!({"_invalid_json": raw}));
                    json!({"type": "tool_use", "id": c.id, "name": c.name, "input": input})
                }));
                ("assistant", blocks)
            }
            Role::Tool => (
                "user",
                vec![json!({
                    "type": "tool_result",
                    "tool_use_id": m.tool_call_id.as_deref().unwrap_or_default(),
                    "content": m.content,
                })],
            ),
        };
        if blocks.is_empty() {
            continue;
        }
        match turns.last_mut() {
            Some((last, existing)) if *last == role => existing.append(&mut blocks),
            None if role == "assistant" => {} // the conversation must open with the user
            _ => turns.push((role, blocks)),
        }
    }
    let messages: Vec<Value> = turns
        .into_iter()
        .map(|(role, content)| json!({"role": role, "content": content}))
        .collect();
    RequestBody {
        model: &req.model,
        max_tokens: req.max_tokens,
        system: &req.system,
        messages,
        stream,
        tools: (!req.tools.is_empty()).then(|| req.tools.anthropic_json()),
    }
}

fn text_block(text: &str) -> Vec<Value> {
    if text.trim().is_empty() {
        Vec::new()
    } else {
        vec![json!({"type": "text", "text": text})]
    }
}

pub(super) fn parse_response(body: &Value) -> Result<LlmResponse, String> {
    let blocks = body
        .get("content")
        .and_then(Value::as_array)
        .ok_or_else(|| "no content array in the answer".to_string())?;
    let mut text = String::new();
    let mut tool_calls = Vec::new();
    for (i, block) in blocks.iter().enumerate() {
        match block.get("type").and_then(Value::as_str) {
            Some("text") => text.push_str(
                block
                    .get("text")
                    .and_then(Value::as_str)
                    .unwrap_or_default(),
            ),
            Some("tool_use") => tool_calls.push(ToolCall {
                id: block
                    .get("id")
                    .and_then(Value::as_str)
                    .map_or_else(|| format!("toolu_{i}"), str::to_string),
                name: block
                    .get("name")
                    .and_then(Value::as_str)
                    .ok_or_else(|| format!("content[{i}] tool_use has no name"))?
                    .to_string(),
                arguments: Ok(block.get("input").cloned().unwrap_or_else(|| json!({}))),
            }),
            _ => {} // thinking and other block types carry nothing for the user
        }
    }
    Ok(LlmResponse {
        text,
        tool_calls,
        cut_off: body.get("stop_reason").and_then(Value::as_str) == Some("max_tokens"),
        usage: {
            let tokens = |key| {
                let usage = body.get("usage");
                usage.and_then(|u| u.get(key)).and_then(Value::as_u64)
            };
            Usage {
                input_tokens: tokens("input_tokens").unwrap_or(0),
                output_tokens: tokens("output_tokens").unwrap_or(0),
            }
        },
    })
}

#[cfg(test)]
mod tests {
    use super::super::ChatMessage;
    use super::*;

    #[test]
    fn stopping_at_max_tokens_marks_the_answer_cut_off() {
        let answer = |stop: &str| {
            json!({"content": [{"type": "tool_use", "id": "t", "name": "write_memory",
                "input": {"scope": "chat", "content": "half"}}], "stop_reason": stop})
        };
        assert!(parse_response(&answer("max_tokens")).unwrap().cut_off);
        assert!(!parse_response(&answer("tool_use")).unwrap().cut_off);
        assert!(!parse_response(&answer("end_turn")).unwrap().cut_off);
    }

    #[test]
    fn turns_alternate_and_open_with_the_user() {
        let call = ToolCall {
            id: "t1".into(),
            name: "read_memory".into(),
            arguments: Ok(json!({"scope": "chat"})),
        };
        let mut with_tool = ChatMessage::assistant("");
        with_tool.tool_calls.push(call);
        let req = LlmRequest {
            model: "m".into(),
            system: "sys".into(),
            messages: vec![
                ChatMessage::assistant("stale greeting"),
                ChatMessage::user("a"),
                ChatMessage::user("b"),
                with_tool,
                ChatMessage::tool_result("t1", "memory text"),
            ],
            tools: Vec::new().into(),
            max_tokens: 10,
        };
        let body = serde_json::to_value(request_body(&req, false)).unwrap();
        assert!(body.get("tools").is_none() && body.get("stream").is_none());
        let msgs = body["messages"].as_array().unwrap();
        assert_eq!(msgs.len(), 3);
        assert_eq!(msgs[0]["role"], "user");
        assert_eq!(msgs[0]["content"].as_array().unwrap().len(), 2);
        assert_eq!(msgs[1]["content"][0]["type"], "tool_use");
        assert_eq!(msgs[2]["content"][0]["tool_use_id"], "t1");
    }
}
