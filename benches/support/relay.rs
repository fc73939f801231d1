//! The load bench's floor: the least any Telegram bot does for a message, in a process of its
//! own like the daemon. It takes the webhook's POST (secret checked, JSON read), answers 200,
//! asks the model (one OpenAI-style request with the message, JSON read) and sends the answer
//! (`sendMessage`) — with the daemon's crates (axum, reqwest, serde_json, a multi-threaded
//! tokio runtime) and nothing else: no database, no history, no memory, no prompt. Its share
//! of the ideal is what this machine, the bench and its fakes leave to any bot; the daemon's
//! distance from it is what Mneme's own work costs.
//!
//! The bench starts it as its own executable with [`ENV`] set to the relay's settings.

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// Set (to [`Settings`] as JSON) in the environment of the bench's own executable started
/// as the relay.
pub const ENV: &str = "MNEME_LOAD_RELAY";

#[derive(Serialize, Deserialize)]
pub struct Settings {
    /// Where the webhook listens (`127.0.0.1:PORT`) and its full URL.
    pub listen: String,
    pub webhook_url: String,
    pub secret: String,
    /// The model's OpenAI-style base URL (`…/v1`).
    pub llm_url: String,
    /// The Bot API's base URL and the bot's token.
    pub api_url: String,
    pub token: String,
}

struct Relay {
    settings: Settings,
    http: reqwest::Client,
}

/// Runs the relay when this process was started as one (until it is killed); else `false`.
pub fn run_if_asked() -> bool {
    let Ok(settings) = std::env::var(ENV) else {
        return false;
    };
    let settings: Settings = serde_json::from_str(&settings).expect("relay settings");
    // As the daemon builds its runtime (`src/main.rs`).
    let runtime = tokio::runtime::Runtime::new().expect("a tokio runtime");
    runtime.block_on(serve(settings));
    true
}

async fn serve(settings: Settings) {
    let listener = tokio::net::TcpListener::bind(&settings.listen)
        .await
        .expect("the relay's port");
    let relay = Arc::new(Relay {
        settings,
        http: reqwest::Client::new(),
    });
    let app = Router::new()
        .route("/telegram/updates", post(update))
        .with_state(relay.clone());
    let server = tokio::spawn(async move { axum::serve(listener, app).await });
    // Listening: tell "Telegram" where to send updates, as the daemon does.
    let hook = json!({"url": relay.settings.webhook_url, "secret_token": relay.settings.secret});
    (relay.http.post(relay.method("setWebhook")))
        .json(&hook)
        .send()
        .await
        .expect("setWebhook");
    let _ = server.await;
}

impl Relay {
    fn method(&self, name: &str) -> String {
        format!(
            "{}/bot{}/{name}",
            self.settings.api_url, self.settings.token
        )
    }
}

async fn update(State(relay): State<Arc<Relay>>, headers: HeaderMap, body: Bytes) -> StatusCode {
    let secret = headers.get("X-Telegram-Bot-Api-Secret-Token");
    if secret.and_then(|s| s.to_str().ok()) != Some(relay.settings.secret.as_str()) {
        return StatusCode::UNAUTHORIZED;
    }
    let Ok(update) = serde_json::from_slice::<Value>(&body) else {
        return StatusCode::BAD_REQUEST;
    };
    let message = &update["message"];
    let (Some(chat), Some(text)) = (message["chat"]["id"].as_i64(), message["text"].as_str())
    else {
        return StatusCode::OK;
    };
    tokio::spawn(answer(relay, chat, text.to_string()));
    StatusCode::OK
}

async fn answer(relay: Arc<Relay>, chat: i64, text: String) {
    let request = json!({
        "model": "fake-model",
        "messages": [
            {"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": text},
        ],
    });
    let url = format!("{}/chat/completions", relay.settings.llm_url);
    let reply = match relay.http.post(url).json(&request).send().await {
        Ok(r) => r.json::<Value>().await.ok(),
        Err(_) => None,
    };
    let Some(reply) = reply else { return };
    let Some(text) = reply["choices"][0]["message"]["content"].as_str() else {
        return;
    };
    let sent = json!({"chat_id": chat, "text": text});
    let _ = relay
        .http
        .post(relay.method("sendMessage"))
        .json(&sent)
        .send()
        .await;
}
