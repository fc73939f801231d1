//! Is the daemon healthy? One answer, given two ways: `GET /healthz` on the web channel, and a
//! heartbeat file `<data_dir>/health.json` that `mneme start` rewrites every few seconds — so
//! `mneme healthcheck` (the container's HEALTHCHECK) has something to ask when the web channel
//! is off, as in a Telegram-only deployment.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value, json};
use tokio_util::sync::CancellationToken;

use crate::memory::files::replace_file;
use crate::store::Store;

pub mod status;

pub use status::{ChannelState, ChannelStatus};

/// How often the heartbeat file is rewritten.
pub const HEARTBEAT_EVERY: Duration = Duration::from_secs(5);
/// A heartbeat older than this means the daemon is gone or stuck.
pub const HEARTBEAT_STALE_AFTER: Duration = Duration::from_secs(30);

/// The verdict and the body that explains it (never anything secret).
#[derive(Debug, Clone)]
pub struct Health {
    pub healthy: bool,
    pub body: Value,
}

/// Healthy when the database answers and every enabled channel is connected.
pub async fn check(store: &Store, channels_status: &ChannelStatus) -> Health {
    let database = match store.ping().await {
        Ok(()) => "ok".to_string(),
        Err(e) => {
            tracing::warn!(error = %e, "health: the database does not answer");
            "down: the database does not answer".to_string()
        }
    };
    let mut healthy = database == "ok";
    let mut channels = Map::new();
    for (name, state) in channels_status.snapshot() {
        healthy &= state.is_up();
        let text = match state {
            ChannelState::Connected => "connected".to_string(),
            ChannelState::Starting => "down: not connected yet".to_string(),
            ChannelState::Down(why) => format!("down: {why}"),
            ChannelState::Standby(why) => format!("standby: {why}"),
        };
        channels.insert(name.to_string(), Value::String(text));
    }
    let leases = store.lease_book();
    let body = json!({
        "status": if healthy { "ok" } else { "unavailable" },
        "database": database,
        "channels": channels,
        // Which of the one-replica-at-a-time jobs this process holds (several replicas on
        // PostgreSQL), of those it asks for.
        "leases": {"held": leases.held(), "wanted": leases.wanted()},
    });
    Health { healthy, body }
}

/// Where the daemon keeps its heartbeat.
pub fn heartbeat_path(data_dir: &Path) -> PathBuf {
    data_dir.join("health.json")
}

/// Rewrites the heartbeat every [`HEARTBEAT_EVERY`] until `shutdown`, then removes it, so a
/// stopped daemon is never reported healthy.
pub fn spawn_heartbeat(
    store: Store,
    channels_status: Arc<ChannelStatus>,
    path: PathBuf,
    shutdown: CancellationToken,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(HEARTBEAT_EVERY);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = shutdown.cancelled() => break,
                _ = tick.tick() => {}
            }
            let health = check(&store, &channels_status).await;
            let beat = json!({
                "written_at": unix_now(),
                "healthy": health.healthy,
                "health": health.body,
            });
            if let Err(e) = replace_file(&path, beat.to_string().as_bytes()) {
                tracing::warn!(path = %path.display(), error = %e, "cannot write the heartbeat file");
            }
        }
        let _ = std::fs::remove_file(&path);
    })
}

/// Reads a heartbeat: `Ok` with the daemon's last verdict while it is fresh, `Err` saying why
/// there is none to trust.
pub fn read_heartbeat(path: &Path, now_unix: u64) -> Result<Health, String> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            format!(
                "{} does not exist; is `mneme start` running?",
                path.display()
            )
        } else {
            format!("cannot read {}: {e}", path.display())
        }
    })?;
    let beat: Value = serde_json::from_str(&text)
        .map_err(|e| format!("{} is not a heartbeat: {e}", path.display()))?;
    let written_at = beat["written_at"]
        .as_u64()
        .ok_or_else(|| format!("{} has no written_at", path.display()))?;
    let age = now_unix.saturating_sub(written_at);
    if age > HEARTBEAT_STALE_AFTER.as_secs() {
        return Err(format!(
            "the daemon's last heartbeat is {age} s old; it has stopped or is stuck"
        ));
    }
    Ok(Health {
        healthy: beat["healthy"].as_bool().unwrap_or(false),
        body: beat["health"].clone(),
    })
}

pub fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fresh_heartbeat_is_trusted_and_a_stale_or_missing_one_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let path = heartbeat_path(dir.path());
        let missing = read_heartbeat(&path, 1_000).unwrap_err();
        assert!(missing.contains("is `mneme start` running?"), "{missing}");

        let body = json!({"status": "ok", "channels": {"telegram": "connected"}});
        let beat = json!({"written_at": 1_000, "healthy": true, "health": body});
        replace_file(&path, beat.to_string().as_bytes()).unwrap();
        let fresh = read_heartbeat(&path, 1_010).unwrap();
        assert!(fresh.healthy);
        assert_eq!(fresh.body["channels"]["telegram"], "connected");

        let stale = read_heartbeat(&path, 1_000 + HEARTBEAT_STALE_AFTER.as_secs() + 1).unwrap_err();
        assert!(stale.contains("stopped or is stuck"), "{stale}");

        std::fs::write(&path, "not json").unwrap();
        assert!(
            read_heartbeat(&path, 1_000)
                .unwrap_err()
                .contains("not a heartbeat")
        );
    }
}
