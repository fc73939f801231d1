//! Anthropic's streamed answer (`"stream": true`), put together event by event: text blocks
//! reported as they grow, tool calls assembled from their pieces of JSON, the stop reason and
//! the usage from the first and last events. Pure: each event's JSON in, the answer out.

use serde_json::{Value, json};

use super::{LlmResponse, ToolCall, Usage};

/// A content block as it arrives.
enum Block {
    Text(String),
    Tool {
        id: String,
        name: String,
        json: String,
    },
    /// Thinking and other kinds: nothing for the user.
    Other,
}

#[derive(Default)]
pub(super) struct Accumulator {
    blocks: Vec<(u64, Block)>,
    usage: Usage,
    stop_reason: Option<String>,
    /// `message_stop` came: the answer is whole.
    pub(super) finished: bool,
}

impl Accumulator {
    /// Takes one event's data; returns text to report as it arrives. Every event names its
    /// type inside its data, so the SSE event name is not needed.
    pub(super) fn push(&mut self, event: &Value) -> Result<Option<String>, String> {
        let kind = event
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or_default();
        match kind {
            "message_start" => {
                let usage = event.get("message").and_then(|m| m.get("usage"));
                self.usage.input_tokens = count(usage, "input_tokens");
                self.usage.output_tokens = count(usage, "output_tokens");
            }
            "content_block_start" => {
                let index = index(event)?;
                let block = event.get("content_block").unwrap_or(&Value::Null);
                let started = match block.get("type").and_then(Value::as_str) {
                    Some("text") => Block::Text(str_of(block, "text").to_string()),
                    Some("tool_use") => Block::Tool {
                        id: str_of(block, "id").to_string(),
                        name: str_of(block, "name").to_string(),
                        // a complete input here (some servers send it whole) is its own JSON
                        json: match block.get("input") {
                            Some(input) if input.as_object().is_some_and(|o| !o.is_empty()) => {
                                input.to_string()
                            }
                            _ => String::new(),
                        },
                    },
                    _ => Block::Other,
                };
                let text = match &started {
                    Block::Text(t) if !t.is_empty() => Some(t.clone()),
                    _ => None,
                };
                self.blocks.push((index, started));
                return Ok(text);
            }
            "content_block_delta" => {
                let index = index(event)?;
                let delta = event.get("delta").unwrap_or(&Value::Null);
                let block = self
                    .blocks
                    .iter_mut()
                    .rev()
                    .find(|(i, _)| *i == index)
                    .map(|(_, b)| b)
                    .ok_or_else(|| format!("a delta for content block {index}, never started"))?;
                match (block, delta.get("type").and_then(Value::as_str)) {
                    (Block::Text(text), Some("text_delta")) => {
                        let piece = str_of(delta, "text");
                        text.push_str(piece);
                        return Ok((!piece.is_empty()).then(|| piece.to_string()));
                    }
                    (Block::Tool { json, .. }, Some("input_json_delta")) => {
                        json.push_str(str_of(delta, "partial_json"));
                    }
                    _ => {}
                }
            }
            "message_delta" => {
                if let Some(reason) = field(event, "delta", "stop_reason").and_then(Value::as_str) {
                    self.stop_reason = Some(reason.to_string());
                }
                if let Some(n) = field(event, "usage", "output_tokens").and_then(Value::as_u64) {
                    self.usage.output_tokens = n;
                }
            }
            "message_stop" => self.finished = true,
            "error" => {
                let message = field(event, "error", "message")
                    .and_then(Value::as_str)
                    .unwrap_or("no message");
                let kind = field(event, "error", "type")
                    .and_then(Value::as_str)
                    .unwrap_or("error");
                return Err(format!("the stream reported an error ({kind}): {message}"));
            }
            // ping, content_block_stop, and kinds added later
            _ => {}
        }
        Ok(None)
    }

    /// The whole answer.
    pub(super) fn finish(self) -> LlmResponse {
        let mut text = String::new();
        let mut tool_calls = Vec::new();
        for (i, (_, block)) in self.blocks.into_iter().enumerate() {
            match block {
                Block::Text(t) => text.push_str(&t),
                Block::Tool { id, name, json } => {
                    let arguments = if json.trim().is_empty() {
                        Ok(json!({}))
                    } else {
                        serde_json::from_str(&json).map_err(|_| json)
                    };
                    tool_calls.push(ToolCall {
                        id: if id.is_empty() {
                            format!("toolu_{i}")
                        } else {
                            id
                        },
                        name,
                        arguments,
                    });
                }
                Block::Other => {}
            }
        }
        LlmResponse {
            text,
            tool_calls,
            cut_off: self.stop_reason.as_deref() == Some("max_tokens"),
            usage: self.usage,
        }
    }
}

fn index(event: &Value) -> Result<u64, String> {
    event
        .get("index")
        .and_then(Value::as_u64)
        .ok_or_else(|| "a content block event without an index".to_string())
}

/// `v[outer][inner]`, reached with `get` (a JSON pointer unescapes its path at every step, and
/// this runs on every streamed event).
fn field<'a>(v: &'a Value, outer: &str, inner: &str) -> Option<&'a Value> {
    v.get(outer)?.get(inner)
}

fn str_of<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or_default()
}

fn count(usage: Option<&Value>, key: &str) -> u64 {
    usage
        .and_then(|u| u.get(key))
        .and_then(Value::as_u64)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(events: &[Value]) -> (Vec<String>, Result<LlmResponse, String>) {
        let mut acc = Accumulator::default();
        let mut pieces = Vec::new();
        for e in events {
            match acc.push(e) {
                Ok(Some(p)) => pieces.push(p),
                Ok(None) => {}
                Err(e) => return (pieces, Err(e)),
            }
        }
        assert!(acc.finished, "no message_stop");
        (pieces, Ok(acc.finish()))
    }

    #[test]
    fn text_arrives_piece_by_piece_and_tool_calls_whole() {
        let (pieces, answer) = run(&[
            json!({"type": "message_start", "message": {"usage": {"input_tokens": 25, "output_tokens": 1}}}),
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
            json!({"type": "ping"}),
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Let me "}}),
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "save that."}}),
            json!({"type": "content_block_stop", "index": 0}),
            json!({"type": "content_block_start", "index": 1, "content_block": {"type": "tool_use", "id": "toolu_9", "name": "write_memory", "input": {}}}),
            json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "{\"scope\": \"ch"}}),
            json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "at\", \"content\": \"x\"}"}}),
            json!({"type": "content_block_stop", "index": 1}),
            json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 17}}),
            json!({"type": "message_stop"}),
        ]);
        assert_eq!(pieces, ["Let me ", "save that."]);
        let answer = answer.unwrap();
        assert_eq!(answer.text, "Let me save that.");
        assert_eq!(answer.tool_calls.len(), 1);
        let call = &answer.tool_calls[0];
        assert_eq!(
            (call.id.as_str(), call.name.as_str()),
            ("toolu_9", "write_memory")
        );
        assert_eq!(
            call.arguments.as_ref().unwrap(),
            &json!({"scope": "chat", "content": "x"})
        );
        assert_eq!(
            (answer.usage.input_tokens, answer.usage.output_tokens),
            (25, 17)
        );
        assert!(!answer.cut_off);
    }

    #[test]
    fn a_cut_tool_call_keeps_its_raw_text_and_max_tokens_marks_it_cut() {
        let (_, answer) = run(&[
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "t", "name": "write_memory", "input": {}}}),
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "{\"content\": \"half"}}),
            json!({"type": "message_delta", "delta": {"stop_reason": "max_tokens"}}),
            json!({"type": "message_stop"}),
        ]);
        let answer = answer.unwrap();
        assert!(answer.cut_off);
        assert_eq!(
            answer.tool_calls[0].arguments,
            Err("{\"content\": \"half".to_string())
        );
    }

    #[test]
    fn an_error_event_and_a_delta_without_its_block_are_errors() {
        let mut acc = Accumulator::default();
        let err = acc
            .push(&json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}))
            .unwrap_err();
        assert!(
            err.contains("overloaded_error") && err.contains("Overloaded"),
            "{err}"
        );
        let err = acc
            .push(&json!({"type": "content_block_delta", "index": 3, "delta": {"type": "text_delta", "text": "x"}}))
            .unwrap_err();
        assert!(err.contains("never started"), "{err}");
    }
}
