//! Telegram webhook mode (`channels.telegram.mode: webhook`): the channel registers its webhook
//! with the fake Bot API and takes updates as Telegram POSTs them, over real HTTP on 127.0.0.1;
//! and polling mode removes a webhook left behind.

mod support;

use std::sync::Arc;

use mneme::health::ChannelState;
use reqwest::StatusCode;
use serde_json::{Value, json};
use support::binary::{mneme, write_config};
use support::web::free_port;
use support::*;

const SECRET: &str = "webhook-Secret_0123456789";
const PATH: &str = "/telegram/updates";

/// Where the webhook server of a test bot listens, and a client to POST to it as Telegram does.
struct Hook {
    url: String,
    client: reqwest::Client,
}

impl Hook {
    /// A free port, and the config lines (under `channels.telegram`) for webhook mode there.
    fn new() -> (Self, String) {
        let port = free_port();
        let url = format!("http://127.0.0.1:{port}{PATH}");
        let yaml = format!(
            "    mode: webhook\n    webhook_url: {url}\n    webhook_secret: {SECRET}\n    webhook_listen: 127.0.0.1:{port}\n"
        );
        let hook = Self {
            url,
            client: reqwest::Client::new(),
        };
        (hook, yaml)
    }

    /// POSTs `body` (JSON when it is a JSON value, else as it is) with `secret` in Telegram's
    /// header, if any; returns the status.
    async fn post(&self, secret: Option<&str>, body: &Value) -> StatusCode {
        let text = match body {
            Value::String(raw) => raw.clone(),
            json => json.to_string(),
        };
        let mut request = self
            .client
            .post(&self.url)
            .header("content-type", "application/json")
            .body(text);
        if let Some(secret) = secret {
            request = request.header("X-Telegram-Bot-Api-Secret-Token", secret);
        }
        request.send().await.expect("the webhook answers").status()
    }

    /// POSTs a well-formed update with the right secret.
    async fn deliver(&self, update: &Value) -> StatusCode {
        self.post(Some(SECRET), update).await
    }
}

async fn setup() -> (FakeLlm, FakeTelegram, tempfile::TempDir) {
    (
        FakeLlm::start().await,
        FakeTelegram::start().await,
        tempfile::tempdir().unwrap(),
    )
}

/// A bot in webhook mode against `tg`, once the fake has its webhook.
async fn webhook_bot(
    llm: &FakeLlm,
    tg: &FakeTelegram,
    dir: &std::path::Path,
) -> (TelegramBot, Hook) {
    let (hook, yaml) = Hook::new();
    let bot = TelegramBot::start(llm, tg, dir, &yaml).await;
    tg.wait_until("the webhook set", |t| t.webhook().is_some())
        .await;
    (bot, hook)
}

fn telegram_state(bot: &TelegramBot) -> Option<ChannelState> {
    bot.bot
        .agent
        .channel_status()
        .snapshot()
        .get("telegram")
        .cloned()
}

#[tokio::test]
async fn the_webhook_is_registered_and_a_message_is_answered_once_even_when_redelivered() {
    let (llm, tg, dir) = setup().await;
    llm.script([openai_text("hello back"), openai_text("second answer")]);
    let (bot, hook) = webhook_bot(&llm, &tg, dir.path()).await;

    let set = tg.webhook().unwrap();
    assert_eq!(set["url"], hook.url.as_str());
    assert_eq!(set["secret_token"], SECRET);
    assert_eq!(set["allowed_updates"], json!(["message", "edited_message"]));
    assert_eq!(set["drop_pending_updates"], "false", "{set}");
    assert!(
        tg.calls("getUpdates").is_empty(),
        "a webhook bot does not poll"
    );
    assert!(tg.calls("deleteWebhook").is_empty());
    eventually("the channel connected", || async {
        telegram_state(&bot) == Some(ChannelState::Connected)
    })
    .await;

    let update = tg.update(tg.private_message(100, "hello"));
    assert_eq!(hook.deliver(&update).await, StatusCode::OK);
    // 200 means stored: the message is there the moment the answer is.
    assert_eq!(
        stored_texts(&bot.bot.agent, "telegram:100")
            .await
            .first()
            .map(String::as_str),
        Some("hello")
    );
    let sent = tg.wait_sent(1).await;
    assert_eq!(
        (sent[0].chat_id, sent[0].visible().as_str()),
        (100, "hello back")
    );

    // Telegram delivers the same update again (it missed our 200): stored once, not answered
    // again. The next message is answered after anything the redelivery could have caused.
    assert_eq!(hook.deliver(&update).await, StatusCode::OK);
    let next = tg.update(tg.private_message(100, "and now?"));
    assert_eq!(hook.deliver(&next).await, StatusCode::OK);
    let sent = tg.wait_sent(2).await;
    let texts: Vec<String> = sent.iter().map(|s| s.visible()).collect();
    assert_eq!(texts, ["hello back", "second answer"]);
    assert_eq!(llm.request_count(), 2);
    let user_texts: Vec<String> = stored_texts(&bot.bot.agent, "telegram:100")
        .await
        .into_iter()
        .filter(|t| t == "hello" || t == "and now?")
        .collect();
    assert_eq!(
        user_texts,
        ["hello", "and now?"],
        "the redelivery is not stored twice"
    );
    wait_nothing_owed(&bot.bot.agent, "telegram").await;
    bot.stop().await;
}

#[tokio::test]
async fn requests_without_the_secret_are_refused_and_nothing_is_stored() {
    let (llm, tg, dir) = setup().await;
    llm.script([openai_text("only this one")]);
    let (bot, hook) = webhook_bot(&llm, &tg, dir.path()).await;

    let forged = tg.update(tg.private_message(100, "forged: wrong secret"));
    assert_eq!(
        hook.post(Some("webhook-Secret_0123456780"), &forged).await,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        hook.post(Some("nope"), &forged).await,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(hook.post(Some(""), &forged).await, StatusCode::UNAUTHORIZED);
    let anonymous = tg.update(tg.private_message(100, "forged: no secret"));
    assert_eq!(hook.post(None, &anonymous).await, StatusCode::UNAUTHORIZED);
    // Only POST, and only on the webhook's path.
    let get = hook.client.get(&hook.url).send().await.unwrap();
    assert_eq!(get.status(), StatusCode::METHOD_NOT_ALLOWED);
    let elsewhere = hook
        .client
        .post(hook.url.replace(PATH, "/other"))
        .header("X-Telegram-Bot-Api-Secret-Token", SECRET)
        .body(forged.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(elsewhere.status(), StatusCode::NOT_FOUND);

    // A real update afterwards is the only thing stored and answered.
    let real = tg.update(tg.private_message(100, "the real one"));
    assert_eq!(hook.deliver(&real).await, StatusCode::OK);
    let sent = tg.wait_sent(1).await;
    assert_eq!(sent[0].visible(), "only this one");
    assert_eq!(llm.requests()[0].message_texts(), ["the real one"]);
    let stored = stored_texts(&bot.bot.agent, "telegram:100").await;
    assert!(
        stored.iter().all(|t| !t.starts_with("forged")),
        "{stored:?}"
    );
    assert_eq!(tg.sent().len(), 1);
    bot.stop().await;
}

#[tokio::test]
async fn unreadable_bodies_are_acknowledged_and_the_bot_goes_on() {
    let (llm, tg, dir) = setup().await;
    llm.fallback(openai_text("still here"));
    let (bot, hook) = webhook_bot(&llm, &tg, dir.path()).await;
    let junk = [
        json!("not json at all"),
        json!("{\"update_id\": 1, \"message\": "),
        json!([1, 2, 3]),
        json!({"no_update_id": true}),
        json!({"update_id": "seven", "message": {}}),
        // An update whose message teloxide cannot read, and one of a kind we do not serve.
        json!({"update_id": 900, "message": {"message_id": "x", "chat": 5}}),
        json!({"update_id": 901, "something_new": {"a": [1, {"b": null}]}}),
        json!({"update_id": 902, "edited_message": {"message_id": 1, "date": now_secs(), "edit_date": now_secs(),
            "chat": {"id": 100, "type": "private", "first_name": "User"},
            "from": {"id": 100, "is_bot": false, "first_name": "User"}, "text": "edited"}}),
        json!(""),
    ];
    for body in &junk {
        // 200: Telegram would deliver a refused body again and again.
        assert_eq!(hook.deliver(body).await, StatusCode::OK, "{body}");
    }
    let update = tg.update(tg.private_message(100, "hello after the junk"));
    assert_eq!(hook.deliver(&update).await, StatusCode::OK);
    let sent = tg.wait_sent(1).await;
    assert_eq!(sent[0].visible(), "still here");
    assert_eq!(llm.request_count(), 1);
    assert!(bot.is_running());
    bot.stop().await;
}

/// An update with an entity type newer than teloxide is stored and answered with its text
/// (the webhook reads updates as polling does: `channels/telegram/lenient.rs`).
#[tokio::test]
async fn an_entity_this_build_cannot_read_does_not_cost_the_text() {
    let (llm, tg, dir) = setup().await;
    llm.script([openai_text("got it")]);
    let (bot, hook) = webhook_bot(&llm, &tg, dir.path()).await;
    let mut m = tg.private_message(100, "see the future");
    m["entities"] = json!([{"type": "future_spoiler", "offset": 4, "length": 3}]);
    assert_eq!(hook.deliver(&tg.update(m)).await, StatusCode::OK);
    assert_eq!(
        stored_texts(&bot.bot.agent, "telegram:100").await.first(),
        Some(&"see the future".to_string())
    );
    let sent = tg.wait_sent(1).await;
    assert_eq!(sent[0].visible(), "got it");
    assert_eq!(llm.requests()[0].message_texts(), ["see the future"]);
    bot.stop().await;
}

#[tokio::test]
async fn a_quick_burst_in_one_chat_is_answered_in_order() {
    let (llm, tg, dir) = setup().await;
    // The first turn is held until the rest have all arrived, so they queue behind it.
    let gate = Arc::new(tokio::sync::Notify::new());
    llm.script([Answer::Gated(
        gate.clone(),
        Box::new(openai_text("answer 0")),
    )]);
    llm.script((1..5).map(|i| openai_text(&format!("answer {i}"))));
    let (bot, hook) = webhook_bot(&llm, &tg, dir.path()).await;
    for i in 0..5 {
        let update = tg.update(tg.private_message(100, &format!("message {i}")));
        assert_eq!(hook.deliver(&update).await, StatusCode::OK);
    }
    llm.wait_for_requests(1).await;
    gate.notify_one();
    let sent = tg.wait_sent(5).await;
    let answers: Vec<String> = sent.iter().map(|s| s.visible()).collect();
    assert_eq!(
        answers,
        (0..5).map(|i| format!("answer {i}")).collect::<Vec<_>>()
    );
    let asked: Vec<String> = llm
        .requests()
        .iter()
        .map(|r| r.message_texts().last().cloned().unwrap_or_default())
        .collect();
    assert_eq!(
        asked,
        (0..5).map(|i| format!("message {i}")).collect::<Vec<_>>()
    );
    wait_nothing_owed(&bot.bot.agent, "telegram").await;
    bot.stop().await;
}

#[tokio::test]
async fn a_webhook_telegram_refuses_marks_the_channel_down_until_it_takes_it() {
    let (llm, tg, dir) = setup().await;
    for _ in 0..3 {
        tg.fail_next_with(
            "setWebhook",
            400,
            "Bad Request: bad webhook: Failed to resolve host: Name or service not known",
        );
    }
    let (hook, yaml) = Hook::new();
    let bot = TelegramBot::start(&llm, &tg, dir.path(), &yaml).await;
    // down from the first refusal on, saying why (Telegram's words)
    eventually("the channel down", || async {
        matches!(telegram_state(&bot), Some(ChannelState::Down(why))
            if why.contains("Telegram refuses the webhook, retrying: ")
                && why.contains("Failed to resolve host"))
    })
    .await;
    assert!(tg.webhook().is_none());
    tg.wait_until("the webhook set at the fourth try", |t| {
        t.webhook().is_some()
    })
    .await;
    eventually("the channel connected", || async {
        telegram_state(&bot) == Some(ChannelState::Connected)
    })
    .await;
    assert_eq!(tg.calls("setWebhook").len(), 4);
    assert_eq!(tg.webhook().unwrap()["url"], hook.url.as_str());
    bot.stop().await;
}

#[tokio::test]
async fn polling_removes_a_webhook_left_from_webhook_mode() {
    let (llm, tg, dir) = setup().await;
    llm.script([openai_text("polled")]);
    // While a webhook is set the fake, like Telegram, refuses getUpdates with 409 Conflict.
    tg.set_webhook("https://bot.example.com/telegram/updates");
    let bot = TelegramBot::start(&llm, &tg, dir.path(), "").await;
    tg.private_text(100, "hi");
    let sent = tg.wait_sent(1).await;
    assert_eq!(sent[0].visible(), "polled");
    let deletes = tg.calls("deleteWebhook");
    assert_eq!(deletes.len(), 1);
    assert_ne!(
        deletes[0]["drop_pending_updates"], true,
        "pending updates are kept"
    );
    assert!(tg.webhook().is_none());
    assert!(tg.calls("setWebhook").is_empty());
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_daemon_serves_a_webhook_and_stops_on_sigterm() {
    let (llm, tg, dir) = setup().await;
    llm.script([openai_text("from the webhook daemon")]);
    let (hook, yaml) = Hook::new();
    let config = dir.path().join("config.yaml");
    // The reflector's catch-up pass at start would race the turn for the one scripted answer.
    let lines = format!("{}{yaml}reflector_enabled: false\n", telegram_yaml(&tg));
    std::fs::write(&config, config_yaml(&llm, dir.path(), &lines)).unwrap();
    let daemon = Daemon::start(&config, "mneme=debug");
    tg.wait_until("the webhook set", |t| t.webhook().is_some())
        .await;
    let update = tg.update(tg.private_message(100, "hi daemon"));
    assert_eq!(hook.deliver(&update).await, StatusCode::OK);
    let sent = tg.wait_sent(1).await;
    assert_eq!(sent[0].visible(), "from the webhook daemon");
    assert_eq!(
        hook.post(Some("wrong"), &update).await,
        StatusCode::UNAUTHORIZED
    );

    let stderr = daemon.terminate().await;
    assert!(
        !stderr.contains(SECRET),
        "the webhook secret never reaches the logs"
    );
    assert!(!stderr.contains(&tg.token), "nor the bot token");
    assert!(stderr.contains("refused a webhook request"), "{stderr}");
    assert!(stderr.contains("shutting down"), "{stderr}");
}

#[tokio::test(flavor = "multi_thread")]
async fn check_config_explains_what_webhook_mode_needs() {
    let llm = FakeLlm::start().await;
    let dir = tempfile::tempdir().unwrap();
    let check = |telegram: &str| {
        let yaml = config_yaml(
            &llm,
            dir.path(),
            &format!("  telegram:\n    enabled: true\n    bot_token: \"1:x\"\n{telegram}"),
        );
        let path = write_config(dir.path(), &yaml);
        async move { mneme(&path, &["check-config"], "").await }
    };

    let run = check(&format!(
        "    mode: webhook\n    webhook_secret: {SECRET}\n"
    ))
    .await;
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stdout
            .contains("error: channels.telegram.webhook_url: required when mode is webhook"),
        "{}",
        run.stdout
    );

    let run = check("    mode: webhook\n    webhook_url: https://bot.example.com/tg\n    webhook_secret: \"not/allowed here\"\n").await;
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stdout.contains("error: channels.telegram.webhook_secret: may only hold the characters A-Z, a-z, 0-9, _ and -"),
        "{}",
        run.stdout
    );
    assert!(
        !run.stdout.contains("not/allowed here"),
        "the secret is not echoed"
    );

    let run = check("    mode: webhok\n").await;
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stdout.contains(
            "error: channels.telegram.mode: must be `polling` or `webhook`, got `webhok`; did you mean `webhook`?"
        ),
        "{}",
        run.stdout
    );

    let run = check("    mode: webhook\n    webhook_url: https://bot.example.com/tg\n    webhook_listen: \"0.0.0.0\"\n").await;
    assert_eq!(run.code, 1, "{}", run.stdout);
    for needle in [
        "error: channels.telegram.webhook_secret: required when mode is webhook",
        "error: channels.telegram.webhook_listen: must be an IP address and a port",
    ] {
        assert!(
            run.stdout.contains(needle),
            "{needle} missing from:\n{}",
            run.stdout
        );
    }

    let run = check(&format!(
        "    mode: webhook\n    webhook_url: https://bot.example.com/tg\n    webhook_secret: {SECRET}\n    webhook_listen: 0.0.0.0:8443\n"
    ))
    .await;
    assert_eq!(run.code, 0, "{}", run.stdout);
}
