//! For the operator: `GET /healthz` (is the bot up?) and `GET /metrics` (Prometheus).

use axum::Json;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value, json};

use super::App;
use crate::channels::status::ChannelState;
use crate::metrics::{CONTENT_TYPE, metrics};

/// 200 when the database answers and every enabled channel is connected, else 503; the body
/// says which part is down (and never anything secret).
pub(super) async fn healthz(State(app): State<App>) -> Response {
    let database = match app.agent.store().ping().await {
        Ok(()) => "ok".to_string(),
        Err(e) => {
            tracing::warn!(error = %e, "healthz: the database does not answer");
            "down: the database does not answer".to_string()
        }
    };
    let mut healthy = database == "ok";
    let mut channels = Map::new();
    for (name, state) in app.agent.channel_status().snapshot() {
        healthy &= state.is_up();
        let text = match state {
            ChannelState::Connected => "connected".to_string(),
            ChannelState::Starting => "down: not connected yet".to_string(),
            ChannelState::Down(why) => format!("down: {why}"),
        };
        channels.insert(name.to_string(), Value::String(text));
    }
    let status = if healthy {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    let body = json!({
        "status": if healthy { "ok" } else { "unavailable" },
        "database": database,
        "channels": channels,
    });
    (status, [(header::CACHE_CONTROL, "no-store")], Json(body)).into_response()
}

/// The process's metrics; the memory pool is counted now.
pub(super) async fn metrics_text(State(app): State<App>) -> Response {
    match app.agent.store().pool_counts(None).await {
        Ok(p) => metrics().set_memory_counts(p.active, p.archived, p.low_confidence),
        Err(e) => tracing::warn!(error = %e, "metrics: cannot count memories"),
    }
    (
        [
            (header::CONTENT_TYPE, CONTENT_TYPE),
            (header::CACHE_CONTROL, "no-store"),
        ],
        metrics().encode(),
    )
        .into_response()
}
