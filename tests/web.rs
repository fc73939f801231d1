//! The web channel over HTTP, in-process: a `WebChannel` on a free port of 127.0.0.1 in front of
//! an agent whose model is the fake LLM. The page, who may call it and what is refused, the
//! streamed reply, health and metrics; and `mneme start` serving the web chat alone. The memory
//! console's endpoints are in `web_console.rs`.

mod support;

use std::time::Duration;

use reqwest::StatusCode;
use reqwest::header::{CONTENT_TYPE, HOST, ORIGIN};
use serde_json::json;

use mneme::channels::web::WebChannel;
use mneme::config::{Secret, WebConfig};
use support::binary::{mneme, write_config};
use support::web::*;
use support::*;

#[tokio::test(flavor = "multi_thread")]
async fn the_page_is_served_with_a_strict_policy() {
    let llm = FakeLlm::start().await;
    let dir = tempfile::tempdir().unwrap();
    let web = Web::start(&llm, dir.path(), "").await;
    let page = web.get("/").send().await.unwrap();
    assert_eq!(page.status(), 200);
    let h = page.headers().clone();
    assert!(h[CONTENT_TYPE].to_str().unwrap().starts_with("text/html"));
    let csp = h["content-security-policy"].to_str().unwrap();
    assert!(csp.contains("default-src 'self'"), "{csp}");
    assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
    assert!(!csp.contains("unsafe-inline"), "{csp}");
    assert_eq!(h["x-content-type-options"], "nosniff");
    assert_eq!(h["x-frame-options"], "DENY");
    let html = page.text().await.unwrap();
    assert!(html.contains("<script src=\"/app.js\""), "no inline script");
    assert!(!html.contains("<script>"), "no inline script");
    let js = web.get("/app.js").send().await.unwrap();
    assert!(
        js.headers()[CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("text/javascript")
    );
    assert!(js.text().await.unwrap().contains("function renderMarkdown"));
    let css = web.get("/style.css").send().await.unwrap();
    assert!(
        css.headers()[CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("text/css")
    );
    let (status, body) = web.get_json("/nope").await;
    assert_eq!(status, 404);
    assert_eq!(error_of(&body), "no such endpoint");
    web.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_tokenless_server_answers_only_its_own_name_and_origin() {
    let llm = FakeLlm::start().await;
    let dir = tempfile::tempdir().unwrap();
    let web = Web::start(&llm, dir.path(), "").await;
    let port = web.base.rsplit(':').next().unwrap().to_string();

    // DNS rebinding: a page at evil.example whose name now points at 127.0.0.1.
    let resp = web
        .get("/api/info")
        .header(HOST, format!("evil.example:{port}"))
        .send()
        .await
        .unwrap();
    let (status, body) = json_of(resp).await;
    assert_eq!(status, StatusCode::MISDIRECTED_REQUEST);
    assert!(error_of(&body).contains("Host header"), "{body}");
    // Even the page and the health check: nothing answers under a foreign name.
    let resp = web
        .get("/healthz")
        .header(HOST, "evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::MISDIRECTED_REQUEST);
    for host in [format!("localhost:{port}"), format!("127.0.0.1:{port}")] {
        let resp = web
            .get("/api/info")
            .header(HOST, host)
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), 200);
    }

    // CSRF: another site's page posting through the browser.
    for origin in ["http://evil.example", "null", "https://127.0.0.1:1"] {
        let resp = web
            .req(reqwest::Method::POST, "/api/chats/alice/messages")
            .header(ORIGIN, origin)
            .json(&json!({ "text": "hi" }))
            .send()
            .await
            .unwrap();
        let (status, body) = json_of(resp).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{origin}");
        assert!(error_of(&body).contains("other web sites"), "{body}");
    }
    let resp = web
        .get("/api/info")
        .header(ORIGIN, web.base.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200, "the page's own origin is fine");
    // A form can post text/plain without a preflight: refused.
    let resp = web
        .req(reqwest::Method::POST, "/api/chats/alice/messages")
        .header(CONTENT_TYPE, "text/plain")
        .body(r#"{"text":"hi"}"#)
        .send()
        .await
        .unwrap();
    let (status, body) = json_of(resp).await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert!(error_of(&body).contains("application/json"), "{body}");
    assert_eq!(llm.request_count(), 0, "nothing reached the model");
    web.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn with_a_token_every_api_call_and_metrics_need_it() {
    let llm = FakeLlm::start().await;
    let dir = tempfile::tempdir().unwrap();
    let web = Web::start(&llm, dir.path(), TOKEN).await;
    let anon = reqwest::Client::new();
    for path in [
        "/api/info",
        "/api/chats",
        "/api/memories",
        "/api/memories/search?q=x",
        "/api/memories/export",
        "/api/agents-md",
        "/api/stats",
        "/api/chats/alice/messages",
        "/metrics",
    ] {
        for auth in [
            None,
            Some("Bearer wrong-token"),
            Some("Bearer test-token-4f1c9a7e2"),
        ] {
            let mut req = anon.get(format!("{}{path}", web.base));
            if let Some(a) = auth {
                req = req.header("authorization", a);
            }
            let resp = req.send().await.unwrap();
            assert_eq!(resp.status(), StatusCode::UNAUTHORIZED, "{path} {auth:?}");
            assert!(resp.headers().contains_key("www-authenticate"));
            let text = resp.text().await.unwrap();
            assert!(text.contains("Authorization: Bearer"), "{text}");
            assert!(!text.contains(TOKEN), "the token is never echoed");
        }
    }
    let resp = anon
        .post(format!("{}/api/chats/alice/messages", web.base))
        .json(&json!({ "text": "remember I like tea" }))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::UNAUTHORIZED);
    // The page and the health check are public; they hold no data.
    for path in ["/", "/app.js", "/healthz"] {
        let resp = anon
            .get(format!("{}{path}", web.base))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), 200, "{path}");
    }
    // With the token: any Host (a reverse proxy's name), and the global files are editable.
    let resp = web
        .get("/api/info")
        .header(HOST, "mneme.example.org")
        .send()
        .await
        .unwrap();
    let (status, info) = json_of(resp).await;
    assert_eq!(status, 200);
    assert_eq!(info["token_configured"], true);
    assert_eq!(info["global_editable"], true);
    let metrics = web.get("/metrics").send().await.unwrap();
    assert_eq!(metrics.status(), 200);
    let stored = web
        .agent
        .store()
        .find_chat(&"web:alice".parse().unwrap())
        .await
        .unwrap();
    assert!(stored.is_none(), "nothing was stored for refused requests");
    web.stop().await;
}

#[test]
fn an_open_host_without_a_token_refuses_to_start() {
    let err = WebChannel::bind(&WebConfig {
        enabled: true,
        host: "0.0.0.0".into(),
        port: 0,
        auth_token: Secret::default(),
    })
    .err()
    .expect("refused before binding");
    let text = err.to_string();
    assert!(text.contains("refusing to start"), "{text}");
    assert!(text.contains("channels.web.auth_token"), "{text}");
}

#[tokio::test(flavor = "multi_thread")]
async fn bad_input_gets_a_clear_json_error_and_changes_nothing() {
    let llm = FakeLlm::start().await;
    let dir = tempfile::tempdir().unwrap();
    let web = Web::start(&llm, dir.path(), "").await;
    let long_id = "x".repeat(65);
    for id in ["...", "a%20b", "a%2Fb", "%E5%90%8D", long_id.as_str()] {
        let (status, body) = web
            .send_json(
                "POST",
                &format!("/api/chats/{id}/messages"),
                json!({"text": "hi"}),
            )
            .await;
        assert_eq!(status, 400, "{id}");
        assert!(error_of(&body).contains("conversation id"), "{body}");
        let (status, _) = web.get_json(&format!("/api/chats/{id}/messages")).await;
        assert_eq!(status, 400, "{id}");
    }
    let post = |body: &'static str| {
        web.req(reqwest::Method::POST, "/api/chats/alice/messages")
            .header(CONTENT_TYPE, "application/json")
            .body(body)
    };
    let (status, body) = json_of(post("{not json").send().await.unwrap()).await;
    assert_eq!(status, 400);
    assert!(error_of(&body).contains("not valid JSON"), "{body}");
    // a list is no object, though serde would read one as the struct
    let (status, body) = json_of(post(r#"["hi"]"#).send().await.unwrap()).await;
    assert_eq!(status, 422);
    assert!(error_of(&body).contains("a JSON object"), "{body}");
    let (status, body) = json_of(post(r#"{"txt":"hi"}"#).send().await.unwrap()).await;
    assert_eq!(status, 422);
    assert!(error_of(&body).contains("text"), "{body}");
    let (status, body) = json_of(post(r#"{"text":"   "}"#).send().await.unwrap()).await;
    assert_eq!(status, 400);
    assert!(error_of(&body).contains("empty"), "{body}");
    let (status, _) = json_of(
        web.req(reqwest::Method::POST, "/api/chats/alice/messages")
            .body(r#"{"text":"hi"}"#)
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 415, "no content type");
    // a method the endpoint does not take: a JSON error too
    let resp = web
        .req(reqwest::Method::DELETE, "/api/chats/alice/messages")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 405);
    let (_, body) = json_of(resp).await;
    assert!(
        error_of(&body).contains("DELETE is not taken here"),
        "{body}"
    );
    let huge = json!({ "text": "a".repeat(300 * 1024) });
    let (status, body) = web
        .send_json("POST", "/api/chats/alice/messages", huge)
        .await;
    assert_eq!(status, 413);
    assert!(error_of(&body).contains("KiB"), "{body}");
    // a query string the endpoint cannot read is a JSON error too
    for query in ["limit=abc", "limit=-1"] {
        let (status, body) = web
            .get_json(&format!("/api/chats/alice/messages?{query}"))
            .await;
        assert_eq!(status, 400, "{query}");
        assert!(
            error_of(&body).starts_with("the query string is not what this endpoint takes: limit"),
            "{body}"
        );
    }

    let (status, body) = web
        .send_json("PATCH", "/api/memories/999", json!({"content": "x y"}))
        .await;
    assert_eq!(status, 404);
    assert_eq!(error_of(&body), "no memory #999");
    let (status, _) = web
        .send_json("DELETE", "/api/memories/999", json!({}))
        .await;
    assert_eq!(status, 404);
    let (status, body) = web
        .send_json("PATCH", "/api/memories/abc", json!({"content": "x"}))
        .await;
    assert_eq!(status, 400);
    assert!(error_of(&body).contains("not a memory id"), "{body}");
    let (status, body) = web.get_json("/api/memories?chat=web:nobody").await;
    assert_eq!(status, 404);
    assert!(
        error_of(&body).contains("no chat named web:nobody"),
        "{body}"
    );
    let (status, body) = web.get_json("/api/memories?chat=irc:1").await;
    assert_eq!(status, 400);
    assert!(error_of(&body).contains("CHANNEL:ID"), "{body}");
    let (status, body) = web.get_json("/api/memories?category=FOO").await;
    assert_eq!(status, 400);
    assert!(error_of(&body).contains("PROFILE"), "{body}");
    let (status, body) = web.get_json("/api/memories/search?q=").await;
    assert_eq!(status, 400);
    assert!(error_of(&body).contains("`q`"), "{body}");
    let (status, _) = web.get_json("/api/agents-md?chat=web:nobody").await;
    assert_eq!(status, 404);

    assert_eq!(llm.request_count(), 0);
    let chats = web.agent.store().list_chats().await.unwrap();
    assert!(chats.is_empty(), "nothing stored: {chats:?}");
    web.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_reply_streams_as_deltas_in_order_then_the_whole_reply() {
    let llm = FakeLlm::start().await;
    llm.script([openai_stream_paced(
        &["Hello", ", ", "**web**", " user"],
        Duration::from_millis(40),
    )]);
    let dir = tempfile::tempdir().unwrap();
    let web = Web::start(&llm, dir.path(), "").await;
    let events = web.chat("alice", "hi there").await;
    let deltas: Vec<&str> = events
        .iter()
        .filter(|e| e.event == "delta")
        .map(|e| e.data["text"].as_str().unwrap())
        .collect();
    assert_eq!(deltas, ["Hello", ", ", "**web**", " user"]);
    let last = events.last().unwrap();
    assert_eq!(last.event, "reply");
    assert_eq!(
        last.data,
        json!({"text": "Hello, **web** user", "kind": "model"})
    );
    assert!(
        events[0].chunk < last.chunk,
        "the first piece arrived before the reply was complete: {events:?}"
    );
    assert_eq!(
        events.iter().filter(|e| e.event == "reply").count(),
        1,
        "{events:?}"
    );

    // Stored like any channel's messages: the history shows both, and the model saw the text.
    let (status, history) = web.get_json("/api/chats/alice/messages").await;
    assert_eq!(status, 200);
    assert_eq!(history["chat"], "web:alice");
    let msgs = history["messages"].as_array().unwrap();
    assert_eq!(msgs.len(), 2, "{history}");
    assert_eq!(
        (msgs[0]["role"].as_str(), msgs[0]["text"].as_str()),
        (Some("user"), Some("hi there"))
    );
    assert_eq!(
        (msgs[1]["role"].as_str(), msgs[1]["text"].as_str()),
        (Some("assistant"), Some("Hello, **web** user"))
    );
    assert!(
        llm.requests()[0]
            .message_texts()
            .iter()
            .any(|t| t == "hi there")
    );
    let (_, empty) = web.get_json("/api/chats/new-one/messages").await;
    assert_eq!(empty["messages"], json!([]));

    // The model failing is an `error`-kind reply, the message kept.
    llm.script([Answer::Status(500, None, "boom".into())]);
    let reply = web.say("alice", "again?").await;
    assert_eq!(reply["kind"], "error");
    assert!(
        reply["text"].as_str().unwrap().contains("HTTP 500"),
        "{reply}"
    );
    let (_, history) = web.get_json("/api/chats/alice/messages").await;
    assert_eq!(history["messages"].as_array().unwrap().len(), 3);
    web.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn healthz_names_what_is_down() {
    let llm = FakeLlm::start().await;
    let dir = tempfile::tempdir().unwrap();
    let web = Web::start(&llm, dir.path(), TOKEN).await;
    let anon = reqwest::Client::new();
    let health = || async {
        json_of(
            anon.get(format!("{}/healthz", web.base))
                .send()
                .await
                .unwrap(),
        )
        .await
    };
    // The channel marks itself connected as it starts serving.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let (status, body) = health().await;
        if status == 200 {
            assert_eq!(
                body,
                json!({"status": "ok", "database": "ok", "channels": {"web": "connected"},
                       "leases": {"held": [], "wanted": []}})
            );
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "{body}");
        tokio::task::yield_now().await;
    }
    let status = web.agent.channel_status();
    status.expect("telegram");
    let (code, body) = health().await;
    assert_eq!(code, 503);
    assert_eq!(body["status"], "unavailable");
    assert_eq!(body["channels"]["telegram"], "down: not connected yet");
    status.connected("telegram");
    assert_eq!(health().await.0, 200);
    status.down("discord", "gateway connection lost; reconnecting");
    let (code, body) = health().await;
    assert_eq!(code, 503);
    assert_eq!(
        body["channels"]["discord"],
        "down: gateway connection lost; reconnecting"
    );
    status.connected("discord");
    assert_eq!(health().await.0, 200);

    web.agent.store().close().await;
    let (code, body) = health().await;
    assert_eq!(code, 503);
    assert_eq!(body["database"], "down: the database does not answer");
    assert!(!body.to_string().contains(TOKEN));
    web.stop().await;
}

/// A NUL in the model's text streams as it is kept and delivered: as U+FFFD, in the pieces,
/// the reply and the history alike.
#[tokio::test(flavor = "multi_thread")]
async fn a_nul_streams_as_it_is_kept() {
    let llm = FakeLlm::start().await;
    llm.fallback(openai_stream(&["nul \u{0} here", " and \u{0}"]));
    let dir = tempfile::tempdir().unwrap();
    let web = Web::start(&llm, dir.path(), "").await;
    let events = web.chat("nul", "hi").await;
    let streamed: String = events
        .iter()
        .filter(|e| e.event == "delta")
        .map(|e| e.data["text"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(streamed, "nul \u{FFFD} here and \u{FFFD}", "{events:?}");
    assert_eq!(events.last().unwrap().data["text"], streamed.as_str());
    assert_eq!(web.history_texts("nul").await, ["hi", streamed.as_str()]);
    web.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn metrics_count_a_turn_its_model_call_and_the_memory_pool() {
    let llm = FakeLlm::start().await;
    llm.script([
        openai_stream(&["fine, thanks"]),
        Answer::Status(400, None, "bad request".into()),
    ]);
    let dir = tempfile::tempdir().unwrap();
    let web = Web::start(&llm, dir.path(), "").await;
    web.say("metrics", "how are you?").await;
    web.say("metrics", "and now?").await;
    web.say("metrics", "remember I like metrics").await;
    let resp = web.get("/metrics").send().await.unwrap();
    assert_eq!(resp.status(), 200);
    assert!(
        resp.headers()[CONTENT_TYPE]
            .to_str()
            .unwrap()
            .contains("openmetrics-text")
    );
    let text = resp.text().await.unwrap();
    // Other tests of this binary share the process's metrics: check presence and lower bounds.
    let value = |series: &str| -> f64 {
        text.lines()
            .find_map(|l| l.strip_prefix(series)?.trim().parse().ok())
            .unwrap_or_else(|| panic!("no {series} in\n{text}"))
    };
    assert!(value("mneme_messages_received_total{channel=\"web\"}") >= 3.0);
    assert!(value("mneme_replies_sent_total{channel=\"web\",kind=\"model\"}") >= 1.0);
    assert!(value("mneme_replies_sent_total{channel=\"web\",kind=\"error\"}") >= 1.0);
    assert!(value("mneme_replies_sent_total{channel=\"web\",kind=\"remembered\"}") >= 1.0);
    assert!(value("mneme_turn_duration_seconds_count{channel=\"web\"}") >= 3.0);
    assert!(
        value("mneme_llm_request_duration_seconds_count{provider=\"openai\",purpose=\"chat\"}")
            >= 2.0
    );
    assert!(
        value("mneme_llm_errors_total{provider=\"openai\",purpose=\"chat\",error=\"status\"}")
            >= 1.0
    );
    assert_eq!(
        value("mneme_memories{state=\"active\"}"),
        1.0,
        "this agent's pool, read now"
    );
    assert_eq!(value("mneme_memories{state=\"archived\"}"), 0.0);
    assert!(text.contains("# TYPE mneme_reflector_pass_duration_seconds histogram"));
    assert!(text.contains("# TYPE mneme_turn_duration_seconds histogram"));
    assert!(value("mneme_channel_up{channel=\"web\"}") >= 0.0);
    web.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn mneme_start_serves_the_web_chat_alone_and_stops_cleanly() {
    let llm = FakeLlm::start().await;
    llm.fallback(openai_stream(&["Hello from ", "the daemon"]));
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let config = write_config(dir.path(), &web_only_yaml(&llm, dir.path(), port));
    let daemon = Daemon::start(&config, "mneme=info");
    let base = format!("http://127.0.0.1:{port}");
    wait_healthy(&base).await;
    let resp = reqwest::Client::new()
        .post(format!("{base}/api/chats/daemon/messages"))
        .json(&json!({"text": "hello?"}))
        .send()
        .await
        .unwrap();
    let events = read_events(resp).await;
    assert_eq!(events.last().unwrap().data["text"], "Hello from the daemon");

    // A second daemon on the same port says which key to change.
    let other = tempfile::tempdir().unwrap();
    let config2 = write_config(other.path(), &web_only_yaml(&llm, other.path(), port));
    let run = mneme(&config2, &["start"], "").await;
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("channels.web.port"), "{}", run.stderr);
    assert!(run.stderr.contains("already in use"), "{}", run.stderr);

    // A second daemon on the same SQLite data, on another port, is refused too: both would
    // answer, reflect and back up. (On PostgreSQL that is a replica.)
    if !support::postgres::enabled() {
        let config3 = write_config(other.path(), &web_only_yaml(&llm, dir.path(), free_port()));
        let run = mneme(&config3, &["start"], "").await;
        assert_eq!(run.code, 1, "{}", run.stderr);
        assert!(
            run.stderr.contains("another `mneme start` (pid "),
            "{}",
            run.stderr
        );
    }

    // What the container's HEALTHCHECK runs.
    let check = mneme(&config, &["healthcheck"], "").await;
    assert_eq!(check.code, 0, "{}", check.stderr);
    assert!(
        check.stdout.contains(r#""status":"ok""#),
        "{}",
        check.stdout
    );

    let log = daemon.terminate().await;
    assert!(log.contains("web: listening on http://127.0.0.1:"), "{log}");
    let check = mneme(&config, &["healthcheck"], "").await;
    assert_eq!(check.code, 1);
    assert!(
        check.stderr.contains("is `mneme start` running?"),
        "{}",
        check.stderr
    );
}

/// A reply not ready when the daemon stops: the page is told so in an `error` event before
/// the stream ends, instead of the stream just stopping (the message is answered at the next
/// start, below).
#[tokio::test]
async fn a_reply_not_ready_at_shutdown_ends_its_stream_saying_so() {
    let llm = FakeLlm::start().await;
    // streamed slowly: never silent for long, never done before the shutdown's drain time
    let pieces = vec!["word "; 30];
    llm.fallback(openai_stream_paced(&pieces, Duration::from_secs(1)));
    let dir = tempfile::tempdir().unwrap();
    let web = Web::start(&llm, dir.path(), "").await;
    let resp = web
        .req(reqwest::Method::POST, "/api/chats/alice/messages")
        .json(&json!({"text": "a slow one"}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    eventually("the model asked", || async { llm.request_count() >= 1 }).await;
    web.shutdown.cancel();
    let events = read_events(resp).await;
    assert_told_stopping(&events);
    web.stop().await;
}

/// A message sent while the chat's last answer is still coming is stored at once, not when its
/// turn comes: it is in the history straight away, no turn starts for it once the daemon is
/// stopping, and the next start answers both in order — the second's turn knowing the first's
/// answer.
#[tokio::test]
async fn a_message_waiting_behind_an_answer_is_kept_through_a_stop() {
    let llm = FakeLlm::start().await;
    let gate = std::sync::Arc::new(tokio::sync::Notify::new());
    llm.script([Answer::Gated(
        gate.clone(),
        Box::new(openai_text("never given")),
    )]);
    llm.fallback(openai_text("an owed answer"));
    let dir = tempfile::tempdir().unwrap();
    let web = Web::start(&llm, dir.path(), "").await;
    let send = |text: &str| {
        web.req(reqwest::Method::POST, "/api/chats/alice/messages")
            .json(&json!({ "text": text }))
            .send()
    };
    let first = send("first").await.unwrap();
    assert_eq!(first.status(), 200);
    eventually("the model asked", || async { llm.request_count() >= 1 }).await;
    let second = send("second").await.unwrap();
    assert_eq!(second.status(), 200);
    assert_eq!(
        web.history_texts("alice").await,
        ["first", "second"],
        "stored before its turn"
    );

    web.shutdown.cancel();
    let events = read_events(second).await;
    assert_told_stopping(&events);
    drop(first);
    let agent = web.agent.clone();
    web.stop().await;
    assert_eq!(llm.request_count(), 1, "no turn started once stopping");
    agent.store().close().await;

    let web = Web::start(&llm, dir.path(), "").await;
    wait_nothing_owed(&web.agent, "web").await;
    assert_eq!(
        web.history_texts("alice").await,
        ["first", "second", "an owed answer", "an owed answer"],
        "in the order they were said"
    );
    let requests = llm.requests();
    assert_eq!(requests.len(), 3);
    assert_eq!(
        requests[2].message_texts(),
        ["first", "an owed answer", "second"],
        "the second's turn knows the first's answer"
    );
    web.stop().await;
}

/// A web turn that a shutdown cut off (stored, owed, its connection gone) is answered at the
/// next start, into the history the page shows.
#[tokio::test]
async fn a_turn_cut_off_by_a_shutdown_is_answered_after_the_restart() {
    use mneme::agent::Received;
    let llm = FakeLlm::start().await;
    llm.fallback(openai_text("here is the owed answer"));
    let dir = tempfile::tempdir().unwrap();
    {
        // What a shutdown in the middle of a web turn leaves behind.
        let bot = TestBot::start(&llm, dir.path(), "reflector_enabled: false\n").await;
        let owed = bot
            .agent
            .receive(&private("web:alice", "are you still there?"))
            .await
            .unwrap();
        assert!(matches!(owed, Received::Pending(_)));
        bot.agent.store().close().await;
    }
    let web = Web::start(&llm, dir.path(), "").await;
    wait_nothing_owed(&web.agent, "web").await;
    assert_eq!(
        web.history_texts("alice").await,
        ["are you still there?", "here is the owed answer"]
    );
    assert_eq!(llm.request_count(), 1);
    web.stop().await;
}

/// An owed web message whose answer fails at the next start (the model refusing the request)
/// reached nobody: it is not marked answered but stays owed, and a later start answers it.
#[tokio::test]
async fn an_owed_answer_that_fails_at_start_stays_owed() {
    use mneme::agent::Received;
    let llm = FakeLlm::start().await;
    let dir = tempfile::tempdir().unwrap();
    {
        let bot = TestBot::start(&llm, dir.path(), "reflector_enabled: false\n").await;
        for (chat, text) in [("web:alice", "still there?"), ("web:bob", "hello?")] {
            let owed = bot.agent.receive(&private(chat, text)).await.unwrap();
            assert!(matches!(owed, Received::Pending(_)));
        }
        bot.agent.store().close().await;
    }
    // oldest first: alice's answer fails, then bob's is given
    llm.script([
        Answer::Status(400, None, r#"{"error":{"message":"bad request"}}"#.into()),
        openai_text("bob's answer"),
    ]);
    let web = Web::start(&llm, dir.path(), "").await;
    eventually("bob answered", || async {
        web.history_texts("bob").await.len() == 2
    })
    .await;
    assert_eq!(web.history_texts("alice").await, ["still there?"]);
    let owed = web.agent.awaiting_reply("web", 0).await.unwrap();
    assert_eq!(owed.len(), 1, "alice's message is still owed");
    assert_eq!(owed[0].chat.to_string(), "web:alice");
    let agent = web.agent.clone();
    web.stop().await;
    agent.store().close().await;

    llm.fallback(openai_text("alice's answer"));
    let web = Web::start(&llm, dir.path(), "").await;
    wait_nothing_owed(&web.agent, "web").await;
    assert_eq!(
        web.history_texts("alice").await,
        ["still there?", "alice's answer"]
    );
    web.stop().await;
}
