//! Webhook mode (`channels.telegram.mode: webhook`): Telegram POSTs each update to
//! `webhook_url`; a reverse proxy terminates TLS there and forwards to this server on
//! `webhook_listen`, which serves that URL's path (POST only).
//!
//! A request is answered 200 only once its update is done with: its message stored and its
//! answer queued, by the same intake the poll loop uses ([`on_update`]). Any other answer makes
//! Telegram deliver the update again later — what we want when the message could not be
//! stored (503: shutdown came while the database was busy). A redelivered update finds its
//! message stored already (unique per chat and message id) and is not answered twice.
//!
//! Per-chat order: requests are lined up in the order they came and stored in that order,
//! those that came together in one transaction (the chat workers' group commit), just as the
//! poll loop stores a batch of updates; answering, and the sweep for owed answers, do not wait
//! for it.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use subtle::ConstantTimeEq;
use teloxide::RequestError;
use teloxide::prelude::*;
// `Request` is axum's here; teloxide's trait only lends `send`.
use teloxide::requests::Request as _;
use teloxide::types::AllowedUpdate;
use tokio_util::sync::CancellationToken;

use super::{CHANNEL, Read, Shared, next_backoff, on_update};
use super::{lenient, plain};
use crate::channels::intake::Acted;
use crate::channels::redact;
use crate::channels::serve::{Limits, serve};
use crate::channels::workers::ChatWorkers;
use crate::config::{Secret, TelegramConfig};

/// The header Telegram sends `secret_token` in.
const SECRET_HEADER: &str = "x-telegram-bot-api-secret-token";
/// The largest body read; Telegram's updates are a few KiB.
const MAX_BODY_BYTES: usize = 1024 * 1024;
/// How long shutdown waits for the requests in flight (storing is quick, and a notice to a
/// stranger one Telegram call); with the workers' `DRAIN_TIMEOUT` after it, within the 10 s a
/// stopping daemon has.
const REQUESTS_AT_SHUTDOWN: Duration = Duration::from_secs(2);
/// How often a replica looks for answers owed by another that died (several replicas on
/// PostgreSQL; a no-op on SQLite), and how old such a message must be.
const SWEEP_EVERY: Duration = Duration::from_secs(2);

/// The webhook's settings and its listening socket, bound when the channel is made.
pub(super) struct Webhook {
    url: reqwest::Url,
    secret: Secret,
    addr: SocketAddr,
    /// Taken by `serve`.
    listener: std::sync::Mutex<Option<std::net::TcpListener>>,
}

/// What the request handler shares.
struct Hook {
    shared: Arc<Shared>,
    /// The path of `webhook_url`: the one path served.
    path: String,
    secret: Secret,
    /// The chat workers; once they drain (shutdown), a message stored is left owed for the
    /// next start.
    workers: ChatWorkers,
    shutdown: CancellationToken,
}

impl Webhook {
    /// Checks the webhook settings (validation did already; this never trusts it) and binds
    /// `webhook_listen`.
    pub(super) fn bind(config: &TelegramConfig) -> anyhow::Result<Self> {
        let url = reqwest::Url::parse(config.webhook_url.trim())
            .map_err(|e| anyhow::anyhow!("channels.telegram.webhook_url: {e}"))?;
        if config.webhook_secret.expose().is_empty() {
            anyhow::bail!("channels.telegram.webhook_secret: required when mode is webhook");
        }
        let listen = config.webhook_listen.trim();
        let addr: SocketAddr = listen.parse().map_err(|_| {
            anyhow::anyhow!(
                "channels.telegram.webhook_listen: must be an IP address and a port, got `{listen}`"
            )
        })?;
        let listener = std::net::TcpListener::bind(addr).map_err(|e| {
            if e.kind() == std::io::ErrorKind::AddrInUse {
                anyhow::anyhow!(
                    "channels.telegram.webhook_listen: {addr} is already in use (another mneme, \
                     or another program); stop it or choose another address"
                )
            } else {
                anyhow::anyhow!("channels.telegram.webhook_listen: cannot listen on {addr}: {e}")
            }
        })?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        Ok(Self {
            url,
            secret: config.webhook_secret.clone(),
            addr,
            listener: std::sync::Mutex::new(Some(listener)),
        })
    }

    /// Serves Telegram's requests until `shutdown`, registering the webhook with Telegram
    /// meanwhile; then lets the requests and answers in flight finish.
    pub(super) async fn serve(
        &self,
        shared: Arc<Shared>,
        workers: ChatWorkers,
        shutdown: CancellationToken,
    ) -> anyhow::Result<()> {
        let listener = self
            .listener
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
            .ok_or_else(|| anyhow::anyhow!("telegram: the webhook server runs once"))?;
        let listener = tokio::net::TcpListener::from_std(listener)?;
        let hook = Arc::new(Hook {
            shared: shared.clone(),
            path: self.url.path().to_string(),
            secret: self.secret.clone(),
            workers,
            shutdown: shutdown.clone(),
        });
        let app = Router::new().fallback(handle).with_state(hook.clone());
        let server = serve(listener, app, Limits::default(), shutdown.clone());
        // Serving at once: a webhook set before this start is called already.
        let mut server = tokio::spawn(server);
        tracing::info!(address = %self.addr, path = %hook.path, "telegram: webhook server listening");
        // Several replicas behind a load balancer: what one stored and did not answer (it
        // died) is picked up by the others. Looking does not hold up the webhook's requests:
        // only storing takes the intake's turn.
        let sweeper = hook.clone();
        let overdue = hook.workers.overdue();
        let sweeping = tokio::spawn(async move {
            let Some(overdue) = overdue else { return };
            let mut ticks = tokio::time::interval(SWEEP_EVERY);
            loop {
                tokio::select! {
                    _ = ticks.tick() => {}
                    () = sweeper.shutdown.cancelled() => return,
                }
                let owed = overdue.find(SWEEP_EVERY).await;
                sweeper.workers.dispatch_overdue(owed);
            }
        });
        set_webhook(&shared, &self.url, &self.secret, &shutdown).await;

        let result = tokio::select! {
            r = &mut server => r,
            () = shutdown.cancelled() => {
                match tokio::time::timeout(REQUESTS_AT_SHUTDOWN, &mut server).await {
                    Ok(r) => r,
                    Err(_) => {
                        tracing::warn!("telegram: webhook requests still open at shutdown were cut off (Telegram sends them again)");
                        server.abort();
                        Ok(())
                    }
                }
            }
        };
        sweeping.abort();
        // The requests are done with: the answers in flight may finish. A request still
        // storing now leaves its answer owed, for the next start.
        hook.workers.drain().await;
        // the server ends only at shutdown (a failed accept is waited out and tried again)
        result.map_err(|e| {
            shared
                .agent
                .channel_status()
                .down(CHANNEL, "the webhook server stopped");
            anyhow::anyhow!("telegram: the webhook server failed: {e}")
        })
    }
}

/// setWebhook, retried with backoff until Telegram takes it or shutdown; the channel is
/// connected once it did, and down while it keeps failing.
async fn set_webhook(
    shared: &Shared,
    url: &reqwest::Url,
    secret: &Secret,
    shutdown: &CancellationToken,
) {
    let scrub = |e: &dyn std::fmt::Display| redact(&shared.redact(e), secret.expose());
    let shown_url = redact(url.as_str(), &shared.token);
    let mut backoff = Duration::from_secs(1);
    loop {
        let request = shared
            .bot
            .set_webhook(url.clone())
            .secret_token(secret.expose())
            .allowed_updates([AllowedUpdate::Message, AllowedUpdate::EditedMessage])
            .drop_pending_updates(false);
        let result = tokio::select! {
            r = request.send() => r,
            () = shutdown.cancelled() => return,
        };
        let wait = match result {
            Ok(_) => {
                tracing::info!(url = %shown_url, "telegram: webhook set; Telegram sends updates there");
                shared.agent.channel_status().connected(CHANNEL);
                return;
            }
            Err(RequestError::RetryAfter(secs)) => {
                tracing::warn!(
                    secs = secs.seconds(),
                    "telegram: rate limited on setWebhook"
                );
                secs.duration()
            }
            Err(e) => {
                tracing::warn!(error = %scrub(&e), url = %shown_url, ?backoff, "telegram: setWebhook failed; retrying");
                // Not connected before the webhook is set: why not is worth saying at once.
                let why = match &e {
                    RequestError::Api(api) => {
                        format!("Telegram refuses the webhook, retrying: {}", scrub(api))
                    }
                    RequestError::Network(_) | RequestError::Io(_) => {
                        "setWebhook failed, retrying: cannot reach the Bot API at channels.telegram.api_url".to_string()
                    }
                    _ => "setWebhook failed, retrying (see the log)".to_string(),
                };
                shared.agent.channel_status().down(CHANNEL, why);
                next_backoff(&mut backoff)
            }
        };
        tokio::select! {
            () = tokio::time::sleep(wait) => {}
            () = shutdown.cancelled() => return,
        }
    }
}

/// Every request: only POSTs to the webhook's path carrying the secret get to the intake.
async fn handle(State(hook): State<Arc<Hook>>, request: Request) -> Response {
    if request.uri().path() != hook.path {
        return StatusCode::NOT_FOUND.into_response();
    }
    if request.method() != Method::POST {
        return (StatusCode::METHOD_NOT_ALLOWED, [(header::ALLOW, "POST")]).into_response();
    }
    if !secret_matches(request.headers(), &hook.secret) {
        tracing::warn!(
            "telegram: refused a webhook request without the right secret token (not from Telegram, or webhook_secret changed)"
        );
        return StatusCode::UNAUTHORIZED.into_response();
    }
    // A body that cannot be read or is not an update is answered 200 all the same: Telegram
    // would otherwise deliver it again and again (holding back the updates behind it), and
    // it will not become readable by being sent again.
    let body = match axum::body::to_bytes(request.into_body(), MAX_BODY_BYTES).await {
        Ok(body) => body,
        Err(e) => {
            tracing::warn!(error = %e, "telegram: a webhook request's body could not be read; skipped");
            return StatusCode::OK.into_response();
        }
    };
    let update = match plain::read(&body) {
        Some(plain) => Read::Plain(plain),
        None => match lenient::from_slice(&body) {
            Ok(update) => Read::Update(update),
            Err(e) => {
                tracing::warn!(error = %e, bytes = body.len(), "telegram: a webhook request that is not an update was skipped");
                return StatusCode::OK.into_response();
            }
        },
    };
    // In a task of its own: should Telegram hang up, the request's future is dropped, and
    // the intake it may be doing for other requests' messages too (see `group_commit`) —
    // storing them must not stop halfway.
    let intake = tokio::spawn(async move {
        on_update(&hook.shared, &hook.workers, update, &hook.shutdown).await
    });
    match intake.await.unwrap_or(Acted::NotStored) {
        Acted::Done => StatusCode::OK.into_response(),
        // Shutdown came while the database was busy: not stored, so Telegram must send it again.
        Acted::NotStored => StatusCode::SERVICE_UNAVAILABLE.into_response(),
    }
}

/// True when the request carries the webhook's secret token. The comparison takes the same
/// time wherever the first difference is, so timing does not reveal the secret.
fn secret_matches(headers: &HeaderMap, secret: &Secret) -> bool {
    let Some(given) = headers.get(SECRET_HEADER) else {
        return false;
    };
    let secret = secret.expose().as_bytes();
    !secret.is_empty() && bool::from(given.as_bytes().ct_eq(secret))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn only_the_exact_secret_passes() {
        let secret = Secret::new("s3cret-token_1");
        let with = |value: &str| {
            let mut h = HeaderMap::new();
            h.insert(SECRET_HEADER, HeaderValue::from_str(value).unwrap());
            h
        };
        assert!(secret_matches(&with("s3cret-token_1"), &secret));
        for wrong in ["s3cret-token_", "s3cret-token_12", "S3cret-token_1", ""] {
            assert!(!secret_matches(&with(wrong), &secret), "{wrong}");
        }
        assert!(!secret_matches(&HeaderMap::new(), &secret));
        assert!(
            !secret_matches(&with(""), &Secret::default()),
            "no secret, no entry"
        );
    }
}
