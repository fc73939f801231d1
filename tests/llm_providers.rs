//! The real providers against the fake LLM server: formats, streaming, retries, errors.

mod support;

use std::time::Duration;

use mneme::llm::{
    AnthropicProvider, ChatMessage, HttpSettings, LlmError, LlmProvider, LlmRequest,
    OpenAiProvider, ToolCall,
};
use serde_json::json;
use support::*;

const KEY: &str = "sk-test-key-0123456789";

fn settings(timeout_ms: u64, retries: u32) -> HttpSettings {
    HttpSettings {
        timeout: Duration::from_millis(timeout_ms),
        max_retries: retries,
        base_backoff: Duration::from_millis(1),
        max_backoff: Duration::from_millis(50),
        stream_limit: Duration::from_millis(timeout_ms) * 10,
    }
}

fn request() -> LlmRequest {
    LlmRequest {
        model: "fake-model".into(),
        system: "You are a test.".into(),
        messages: vec![ChatMessage::user("hello")],
        tools: vec![mneme::llm::ToolSpec {
            name: "read_memory",
            description: "read",
            parameters: json!({"type": "object", "properties": {"scope": {"type": "string"}}}),
        }]
        .into(),
        max_tokens: 100,
    }
}

fn openai(llm: &FakeLlm, timeout_ms: u64, retries: u32) -> OpenAiProvider {
    OpenAiProvider::new(&llm.url, KEY, settings(timeout_ms, retries)).unwrap()
}

#[tokio::test]
async fn openai_plain_answer_and_wire_format() {
    let llm = FakeLlm::start().await;
    llm.script([openai_text("Hi there")]);
    let r = openai(&llm, 5000, 0).complete(&request()).await.unwrap();
    assert_eq!(r.text, "Hi there");
    assert!(r.tool_calls.is_empty());
    assert_eq!((r.usage.input_tokens, r.usage.output_tokens), (11, 5));

    let seen = &llm.requests()[0];
    assert_eq!(seen.path, "/v1/chat/completions");
    assert_eq!(seen.headers["authorization"], format!("Bearer {KEY}"));
    assert_eq!(seen.body["model"], "fake-model");
    assert_eq!(
        seen.body["messages"][0],
        json!({"role": "system", "content": "You are a test."})
    );
    assert_eq!(
        seen.body["messages"][1],
        json!({"role": "user", "content": "hello"})
    );
    assert_eq!(seen.body["tools"][0]["type"], "function");
    assert_eq!(seen.body["tools"][0]["function"]["name"], "read_memory");
    assert!(seen.body.get("stream").is_none());
}

#[tokio::test]
async fn openai_tool_call_round_trip_format() {
    let llm = FakeLlm::start().await;
    llm.script([
        openai_tool_call("read_memory", r#"{"scope":"chat"}"#),
        openai_text("done"),
    ]);
    let provider = openai(&llm, 5000, 0);
    let mut req = request();
    let first = provider.complete(&req).await.unwrap();
    assert_eq!(
        first.tool_calls,
        [ToolCall {
            id: "call_1".into(),
            name: "read_memory".into(),
            arguments: Ok(json!({"scope": "chat"}))
        }]
    );
    let mut asked = ChatMessage::assistant("");
    asked.tool_calls = first.tool_calls;
    req.messages.push(asked);
    req.messages
        .push(ChatMessage::tool_result("call_1", "(empty)"));
    assert_eq!(provider.complete(&req).await.unwrap().text, "done");

    let second = &llm.requests()[1].body["messages"];
    assert_eq!(
        second[2]["tool_calls"][0]["function"]["arguments"],
        r#"{"scope":"chat"}"#
    );
    assert_eq!(
        second[3],
        json!({"role": "tool", "tool_call_id": "call_1", "content": "(empty)"})
    );
}

#[tokio::test]
async fn openai_streaming_reports_pieces() {
    let llm = FakeLlm::start().await;
    llm.script([openai_stream(&["Hel", "lo ", "world"])]);
    let mut pieces = Vec::new();
    let r = openai(&llm, 5000, 0)
        .complete_streaming(&request(), &mut |p: &str| pieces.push(p.to_string()))
        .await
        .unwrap();
    assert_eq!(pieces, ["Hel", "lo ", "world"]);
    assert_eq!(r.text, "Hello world");
    assert_eq!(r.usage.output_tokens, 3);
    let body = &llm.requests()[0].body;
    assert_eq!(body["stream"], true);
    assert_eq!(body["stream_options"]["include_usage"], true);
}

/// A stream that ends without `[DONE]` or a `finish_reason` was cut off: an error, not an
/// answer (the part received would otherwise be kept as if it were whole); one that ends after
/// its `finish_reason` is whole; a body with no event at all is not an answer.
#[tokio::test]
async fn openai_streaming_refuses_a_cut_off_answer() {
    let llm = FakeLlm::start().await;
    let piece = |p: &str| json!({"choices": [{"index": 0, "delta": {"content": p}}]}).to_string();
    let finished = json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]});
    llm.script([
        Answer::Stream(vec![piece("partial answer that gets ")]),
        Answer::Stream(vec![piece("whole"), finished.to_string()]),
        Answer::Garbage("<html>oops</html>"),
    ]);
    let model = openai(&llm, 5000, 0);
    let mut pieces = Vec::new();
    let cut = model
        .complete_streaming(&request(), &mut |p: &str| pieces.push(p.to_string()))
        .await
        .unwrap_err()
        .to_string();
    assert!(
        cut.contains("the stream ended before the answer was complete"),
        "{cut}"
    );
    assert_eq!(pieces, ["partial answer that gets "]);
    let whole = model
        .complete_streaming(&request(), &mut |_: &str| {})
        .await
        .unwrap();
    assert_eq!(whole.text, "whole");
    let html = model
        .complete_streaming(&request(), &mut |_: &str| {})
        .await
        .unwrap_err()
        .to_string();
    assert!(html.contains("not an event stream"), "{html}");
}

#[tokio::test]
async fn retries_after_429_honouring_retry_after() {
    let llm = FakeLlm::start().await;
    llm.script([
        Answer::Status(
            429,
            Some("0"),
            r#"{"error":{"message":"slow down"}}"#.into(),
        ),
        Answer::Status(503, None, "overloaded".into()),
        openai_text("finally"),
    ]);
    let r = openai(&llm, 5000, 3).complete(&request()).await.unwrap();
    assert_eq!(r.text, "finally");
    assert_eq!(llm.request_count(), 3);
}

/// A `Retry-After` longer than the longest wait the client makes (60 s) is not waited for:
/// the 429 is the answer at once, not a minute of silence per retry.
#[tokio::test]
async fn a_retry_after_past_the_longest_wait_is_answered_at_once() {
    let llm = FakeLlm::start().await;
    llm.fallback(Answer::Status(
        429,
        Some("99999999"),
        r#"{"error":{"message":"daily quota spent"}}"#.into(),
    ));
    let err = openai(&llm, 5000, 3)
        .complete(&request())
        .await
        .unwrap_err();
    assert_eq!(llm.request_count(), 1, "no retry");
    assert!(
        matches!(err, LlmError::Status { status: 429, .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("daily quota spent"), "{err}");
}

/// A `Retry-After` too long for any clock (a broken or hostile endpoint, or a proxy before
/// it) is the longest wait of all: answered at once, like a spent quota, not a panic.
#[tokio::test]
async fn a_retry_after_too_long_for_any_clock_is_answered_at_once() {
    let llm = FakeLlm::start().await;
    llm.fallback(Answer::Status(429, Some("1e20"), "slow down".into()));
    let err = openai(&llm, 5000, 3)
        .complete(&request())
        .await
        .unwrap_err();
    assert_eq!(llm.request_count(), 1, "no retry");
    assert_eq!(err.to_string(), "openai: HTTP 429: slow down");
}

/// An answer larger than any model's or embedder's is refused once the limit is read, and an
/// error's body is read only as far as its start is shown.
#[tokio::test]
async fn an_endless_answer_is_refused_at_the_body_limit() {
    let llm = FakeLlm::start().await;
    let huge = format!(
        "{{\"pad\": \"{}\"}}",
        "x".repeat(mneme::llm::MAX_BODY_BYTES)
    );
    llm.script([
        Answer::Status(200, None, huge.clone()),
        Answer::Status(400, None, huge),
        openai_text("still here"),
    ]);
    let provider = openai(&llm, 20_000, 0);
    let err = provider.complete(&request()).await.unwrap_err();
    assert_eq!(
        err.to_string(),
        "openai: unreadable answer: the answer is longer than 64 MiB"
    );
    let err = provider.complete(&request()).await.unwrap_err();
    assert!(
        matches!(err, LlmError::Status { status: 400, .. }),
        "{err:?}"
    );
    assert!(err.to_string().ends_with("xxx…"), "{err}");
    assert_eq!(
        provider.complete(&request()).await.unwrap().text,
        "still here"
    );
}

#[tokio::test]
async fn a_500_becomes_an_error_naming_provider_and_status_but_not_the_key() {
    let llm = FakeLlm::start().await;
    llm.fallback(Answer::Status(
        500,
        None,
        format!(r#"{{"error":{{"message":"boom for key {KEY}"}}}}"#),
    ));
    let err = openai(&llm, 5000, 1)
        .complete(&request())
        .await
        .unwrap_err();
    assert_eq!(llm.request_count(), 2, "one retry");
    assert!(
        matches!(err, LlmError::Status { status: 500, .. }),
        "{err:?}"
    );
    let text = err.to_string();
    assert!(text.starts_with("openai: HTTP 500"), "{text}");
    assert!(!text.contains(KEY), "{text}");
    assert!(text.contains("[redacted]"), "{text}");
}

#[tokio::test]
async fn client_errors_are_not_retried() {
    let llm = FakeLlm::start().await;
    llm.fallback(Answer::Status(
        401,
        None,
        r#"{"error":{"message":"bad key"}}"#.into(),
    ));
    let err = openai(&llm, 5000, 3)
        .complete(&request())
        .await
        .unwrap_err();
    assert_eq!(llm.request_count(), 1);
    assert_eq!(err.to_string(), "openai: HTTP 401: bad key");
}

#[tokio::test]
async fn a_hanging_server_times_out() {
    let llm = FakeLlm::start().await;
    llm.fallback(Answer::Hang);
    let err = openai(&llm, 300, 0).complete(&request()).await.unwrap_err();
    assert!(matches!(err, LlmError::Timeout { .. }), "{err:?}");
    let err = openai(&llm, 300, 0)
        .complete_streaming(&request(), &mut |_: &str| {})
        .await
        .unwrap_err();
    assert!(matches!(err, LlmError::Timeout { .. }), "{err:?}");
}

/// A stream whose events keep coming, each well within the longest silence, is still read for
/// no longer than `stream_limit`: a model looping on empty events cannot hold its chat's turn.
#[tokio::test]
async fn a_stream_that_never_ends_is_cut_at_the_stream_limit() {
    let llm = FakeLlm::start().await;
    let pieces = vec![""; 400];
    llm.script([openai_stream_paced(&pieces, Duration::from_millis(10))]);
    let model = OpenAiProvider::new(
        &llm.url,
        KEY,
        HttpSettings {
            stream_limit: Duration::from_millis(500),
            ..settings(1000, 0)
        },
    )
    .unwrap();
    let started = std::time::Instant::now();
    let err = model
        .complete_streaming(&request(), &mut |_: &str| {})
        .await
        .unwrap_err();
    // the paced answer takes 4 s; it is given up at the limit, not at its end
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    assert!(
        matches!(err, LlmError::Timeout { after, .. } if after == Duration::from_millis(500)),
        "{err:?}"
    );

    // the same answer within the limit is read whole
    llm.script([openai_stream_paced(
        &["a", "b", "c"],
        Duration::from_millis(10),
    )]);
    let whole = model
        .complete_streaming(&request(), &mut |_: &str| {})
        .await
        .unwrap();
    assert_eq!(whole.text, "abc");
}

#[tokio::test]
async fn malformed_json_is_a_clear_error() {
    let llm = FakeLlm::start().await;
    llm.script([
        Answer::Garbage("{not json"),
        Answer::Json(json!({"choices": []})),
    ]);
    let provider = openai(&llm, 5000, 0);
    let err = provider.complete(&request()).await.unwrap_err();
    assert!(
        err.to_string()
            .starts_with("openai: unreadable answer: not JSON"),
        "{err}"
    );
    let err = provider.complete(&request()).await.unwrap_err();
    assert!(err.to_string().contains("no choices[0].message"), "{err}");
}

#[tokio::test]
async fn unreachable_server_is_a_network_error() {
    // bind then drop: the port is (almost certainly) closed
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let provider = OpenAiProvider::new(
        &format!("http://127.0.0.1:{port}/v1"),
        KEY,
        settings(2000, 1),
    )
    .unwrap();
    let err = provider.complete(&request()).await.unwrap_err();
    assert!(matches!(err, LlmError::Network { .. }), "{err:?}");
    assert!(err.user_summary().contains("could not be reached"));
}

#[tokio::test]
async fn anthropic_text_and_tool_use() {
    let llm = FakeLlm::start().await;
    llm.script([
        anthropic_tool_use("write_memory", json!({"scope": "chat", "content": "x"})),
        anthropic_text("ok"),
    ]);
    let provider = AnthropicProvider::new(&llm.root, KEY, settings(5000, 0)).unwrap();
    let first = provider.complete(&request()).await.unwrap();
    assert_eq!(first.text, "Let me save that.");
    assert_eq!(first.tool_calls[0].name, "write_memory");
    assert_eq!(
        first.tool_calls[0].arguments,
        Ok(json!({"scope": "chat", "content": "x"}))
    );
    assert_eq!(
        (first.usage.input_tokens, first.usage.output_tokens),
        (30, 9)
    );
    let second = provider.complete(&request()).await.unwrap();
    assert_eq!(second.text, "ok");

    let seen = &llm.requests()[0];
    assert_eq!(seen.path, "/v1/messages");
    assert_eq!(seen.headers["x-api-key"], KEY);
    assert_eq!(seen.headers["anthropic-version"], "2023-06-01");
    assert_eq!(seen.body["system"], "You are a test.");
    assert_eq!(
        seen.body["messages"][0]["content"][0],
        json!({"type": "text", "text": "hello"})
    );
    assert_eq!(seen.body["tools"][0]["input_schema"]["type"], "object");
}

#[tokio::test]
async fn anthropic_errors_name_the_provider() {
    let llm = FakeLlm::start().await;
    llm.fallback(Answer::Status(
        529,
        None,
        r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#.into(),
    ));
    let provider = AnthropicProvider::new(&llm.root, KEY, settings(5000, 1)).unwrap();
    let err = provider.complete(&request()).await.unwrap_err();
    assert_eq!(err.to_string(), "anthropic: HTTP 529: Overloaded");
    assert_eq!(llm.request_count(), 2);
}

#[tokio::test]
async fn anthropic_streams_text_as_it_comes_and_assembles_tool_calls() {
    let llm = FakeLlm::start().await;
    llm.script([
        anthropic_stream(
            &["Saving ", "that."],
            Some(("write_memory", json!({"scope": "chat", "content": "x"}))),
        ),
        anthropic_stream(&["Done", "."], None),
        // not a stream at all, and a stream cut before its end
        anthropic_text("plain"),
        Answer::Stream(vec![
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}).to_string(),
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "half"}}).to_string(),
        ]),
    ]);
    let provider = AnthropicProvider::new(&llm.root, KEY, settings(5000, 0)).unwrap();
    let mut pieces = Vec::new();
    let first = provider
        .complete_streaming(&request(), &mut |p: &str| pieces.push(p.to_string()))
        .await
        .unwrap();
    assert_eq!(pieces, ["Saving ", "that."]);
    assert_eq!(first.text, "Saving that.");
    assert_eq!(first.tool_calls[0].name, "write_memory");
    assert_eq!(
        first.tool_calls[0].arguments,
        Ok(json!({"scope": "chat", "content": "x"}))
    );
    assert_eq!(
        (first.usage.input_tokens, first.usage.output_tokens),
        (21, 8)
    );
    assert_eq!(llm.requests()[0].body["stream"], true);

    let second = provider
        .complete_streaming(&request(), &mut |_: &str| {})
        .await
        .unwrap();
    assert_eq!(second.text, "Done.");
    assert!(second.tool_calls.is_empty());

    let not_a_stream = provider
        .complete_streaming(&request(), &mut |_: &str| {})
        .await
        .unwrap_err();
    assert!(
        not_a_stream.to_string().contains("anthropic"),
        "{not_a_stream}"
    );
    let cut = provider
        .complete_streaming(&request(), &mut |_: &str| {})
        .await
        .unwrap_err();
    assert!(cut.to_string().contains("no message_stop"), "{cut}");
    // the plain calls do not ask for a stream
    provider.complete(&request()).await.unwrap_err();
    assert!(llm.requests()[4].body.get("stream").is_none());
}
