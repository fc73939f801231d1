//! The web channel: an axum server on `channels.web.host:port` (default 127.0.0.1:10961)
//! with the chat page, the memory console and the ops endpoints.
//!
//! | route | what | auth |
//! |---|---|---|
//! | `GET /`, `/app.js`, `/style.css` | the page (embedded; no data in it) | none |
//! | `GET /healthz` | database and channels, 200 or 503 | none |
//! | `GET /metrics` | Prometheus text | token when configured |
//! | `/api/…` | chat (`chat.rs`) and console (`console.rs`) | token when configured |
//!
//! Who may call it (`auth.rs`): with `auth_token` set, every API call and `/metrics` carry it as
//! a bearer token. Without one the server only listens on loopback (config validation and
//! [`WebChannel::bind`] refuse anything else), and — against other web pages in the same
//! browser (CSRF) and DNS rebinding — requests must name this server in `Host`, must not come
//! from another `Origin`, and must send JSON (`Content-Type: application/json`) to change
//! anything. There is no CORS layer, so browsers keep other origins out.

mod api;
mod assets;
mod auth;
mod chat;
mod console;
mod ops;
mod owed;

use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::get;
use tokio_util::sync::CancellationToken;

use super::Channel;
use super::serve::{Limits, serve};
use super::workers::DRAIN_TIMEOUT;
use crate::agent::Agent;
use crate::config::{Secret, WebConfig};
use crate::memory::files::MemoryFiles;

const CHANNEL: &str = "web";

/// Largest request body: a chat message (the agent's 32,000-character limit) or an AGENTS.md
/// (32 KiB), JSON-escaped, with room to spare.
pub const MAX_BODY_BYTES: usize = 256 * 1024;

/// What every handler shares.
struct AppState {
    agent: Arc<Agent>,
    /// The daemon's shutdown: a reply still streaming when it cuts connections off says so.
    shutdown: CancellationToken,
    files: MemoryFiles,
    /// `None`: no token configured (loopback only).
    token: Option<Secret>,
    /// `Host` values this server answers to when it has no token.
    allowed_hosts: Vec<String>,
}

type App = Arc<AppState>;

/// The web channel, bound to its port.
pub struct WebChannel {
    config: WebConfig,
    local_addr: SocketAddr,
    /// Taken by `run`.
    listener: Mutex<Option<std::net::TcpListener>>,
}

impl WebChannel {
    /// Checks that serving this config is safe and binds its address now, so that a port in
    /// use stops `mneme start` before anything else starts.
    pub fn bind(config: &WebConfig) -> anyhow::Result<Self> {
        let host = config.host.trim();
        let ip: IpAddr = if host == "localhost" {
            IpAddr::from([127, 0, 0, 1])
        } else {
            host.parse().map_err(|_| {
                anyhow::anyhow!(
                    "channels.web.host: must be an IP address or `localhost`, got `{host}`"
                )
            })?
        };
        if !ip.is_loopback() && config.auth_token.is_empty() {
            anyhow::bail!(
                "channels.web.host is {host}, which is reachable from other machines, and no auth token is set: \
                 refusing to start the web channel. Set channels.web.auth_token (or MNEME_WEB_AUTH_TOKEN) to a long random \
                 secret, or use host 127.0.0.1."
            );
        }
        let addr = SocketAddr::new(ip, config.port);
        let listener = std::net::TcpListener::bind(addr).map_err(|e| {
            if e.kind() == std::io::ErrorKind::AddrInUse {
                anyhow::anyhow!(
                    "channels.web.port: {addr} is already in use (another mneme, or another program); \
                     stop it or choose another port"
                )
            } else {
                anyhow::anyhow!("channels.web: cannot listen on {addr}: {e}")
            }
        })?;
        listener.set_nonblocking(true)?;
        let local_addr = listener.local_addr()?;
        Ok(Self {
            config: config.clone(),
            local_addr,
            listener: Mutex::new(Some(listener)),
        })
    }

    /// Where it listens (the real port when the config asked for port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// The `Host` header values a tokenless server accepts: its own address and the loopback
    /// names, with the port (a browser leaves the port out only for 80).
    fn allowed_hosts(&self) -> Vec<String> {
        let port = self.local_addr.port();
        let mut names = vec![
            "127.0.0.1".to_string(),
            "localhost".to_string(),
            "[::1]".to_string(),
        ];
        let configured = match self.config.host.trim() {
            h if h.contains(':') => format!("[{h}]"),
            h => h.to_string(),
        };
        if !names.contains(&configured) {
            names.push(configured);
        }
        let mut hosts: Vec<String> = names.iter().map(|n| format!("{n}:{port}")).collect();
        if port == 80 {
            hosts.extend(names);
        }
        hosts
    }
}

fn router(app: App) -> Router {
    let api = Router::new()
        .route("/info", get(console::info))
        .route("/chats", get(console::chats))
        .route(
            "/chats/{id}/messages",
            get(chat::history).post(chat::send_message),
        )
        .route("/memories", get(console::list_memories))
        .route("/memories/search", get(console::search_memories))
        .route("/memories/export", get(console::export_memories))
        .route(
            "/memories/{id}",
            get(console::show_memory)
                .patch(console::edit_memory)
                .delete(console::forget_memory),
        )
        .route(
            "/agents-md",
            get(console::read_agents_md).put(console::write_agents_md),
        )
        .route("/stats", get(console::stats))
        .fallback(api::not_found);
    Router::new()
        .route("/", get(assets::index))
        .route("/app.js", get(assets::script))
        .route("/style.css", get(assets::style))
        .route("/healthz", get(ops::healthz))
        .route("/metrics", get(ops::metrics_text))
        .nest("/api", api)
        .fallback(api::not_found)
        .layer(axum::middleware::from_fn(api::method_not_allowed_json))
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            auth::guard,
        ))
        .layer(axum::middleware::from_fn(auth::security_headers))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .with_state(app)
}

#[async_trait]
impl Channel for WebChannel {
    fn name(&self) -> &'static str {
        CHANNEL
    }

    async fn run(&self, agent: Arc<Agent>, shutdown: CancellationToken) -> anyhow::Result<()> {
        let listener = self
            .listener
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
            .ok_or_else(|| anyhow::anyhow!("the web channel runs once"))?;
        let listener = tokio::net::TcpListener::from_std(listener)?;
        let app = Arc::new(AppState {
            shutdown: shutdown.clone(),
            files: MemoryFiles::new(&agent.config().runtime_dir()),
            token: (!self.config.auth_token.is_empty()).then(|| self.config.auth_token.clone()),
            allowed_hosts: self.allowed_hosts(),
            agent: agent.clone(),
        });
        let auth = if app.token.is_some() {
            "bearer token required"
        } else {
            "no token: loopback only"
        };
        tracing::info!(address = %self.local_addr, auth, "web: listening on http://{}", self.local_addr);
        agent.channel_status().connected(CHANNEL);
        // Turns a shutdown cut off (their connection is gone): answered now, into the history
        // the page shows when it is opened again.
        let started_ms = crate::store::now_ms();
        let owed = tokio::spawn(owed::answer_cut_off(
            agent.clone(),
            started_ms,
            shutdown.clone(),
        ));
        // Several replicas: what another one left unanswered when it died.
        let sweeping = tokio::spawn(owed::sweep(agent.clone(), shutdown.clone()));

        let server = serve(listener, router(app), Limits::default(), shutdown.clone());
        let mut server = tokio::spawn(server);
        let result = tokio::select! {
            r = &mut server => r,
            () = shutdown.cancelled() => {
                // Replies streaming now finish (their turns are stored either way); a turn
                // that takes longer is cut off with the connection.
                match tokio::time::timeout(DRAIN_TIMEOUT, &mut server).await {
                    Ok(r) => r,
                    Err(_) => {
                        tracing::warn!("web: requests still open at shutdown were cut off");
                        server.abort();
                        Ok(())
                    }
                }
            }
        };
        let _ = owed.await;
        let _ = sweeping.await;
        // the server ends only at shutdown (a failed accept is waited out and tried again)
        result.map_err(|e| anyhow::anyhow!("web: the server task failed: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(host: &str, token: &str) -> WebConfig {
        WebConfig {
            enabled: true,
            host: host.into(),
            port: 0,
            auth_token: Secret::new(token),
        }
    }

    #[test]
    fn an_open_address_without_a_token_is_refused_before_binding() {
        for host in ["0.0.0.0", "::", "192.168.1.10"] {
            let err = WebChannel::bind(&config(host, "")).err().expect("refused");
            let text = err.to_string();
            assert!(text.contains("channels.web.auth_token"), "{text}");
            assert!(text.contains("MNEME_WEB_AUTH_TOKEN"), "{text}");
        }
    }

    #[test]
    fn a_port_in_use_names_the_key() {
        let first = WebChannel::bind(&config("127.0.0.1", "")).unwrap();
        let mut again = config("127.0.0.1", "");
        again.port = first.local_addr().port();
        let err = WebChannel::bind(&again).err().expect("in use");
        assert!(err.to_string().contains("channels.web.port"), "{err}");
        assert!(err.to_string().contains("already in use"), "{err}");
    }

    #[test]
    fn allowed_hosts_carry_the_port() {
        let web = WebChannel::bind(&config("127.0.0.1", "")).unwrap();
        let port = web.local_addr().port();
        let hosts = web.allowed_hosts();
        assert!(hosts.contains(&format!("127.0.0.1:{port}")));
        assert!(hosts.contains(&format!("localhost:{port}")));
        assert!(!hosts.iter().any(|h| h == "localhost"));
    }
}
