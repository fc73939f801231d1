//! For the operator: `GET /healthz` (is the bot up?) and `GET /metrics` (Prometheus).

use axum::Json;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::App;
use crate::metrics::{CONTENT_TYPE, metrics};

/// 200 when the database answers and every enabled channel is connected, else 503; the body
/// says which part is down (and never anything secret).
pub(super) async fn healthz(State(app): State<App>) -> Response {
    let health = crate::health::check(app.agent.store(), app.agent.channel_status()).await;
    let status = if health.healthy {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (
        status,
        [(header::CACHE_CONTROL, "no-store")],
        Json(health.body),
    )
        .into_response()
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
