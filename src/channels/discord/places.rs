//! What a guild channel is: its name, and for a thread, its parent. A MESSAGE_CREATE says
//! neither, and without the GUILDS intent no channel list arrives either, so the answer comes
//! from `GET /channels/{id}` once per channel and is kept.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serenity::http::Http;
use serenity::model::channel::{Channel, ChannelType};
use serenity::model::id::ChannelId;

/// Channels remembered at most; past that the memory starts afresh (a lookup is cheap).
const MAX_KNOWN: usize = 10_000;
/// A lookup slower than this counts as failed: the intake must not stall on it.
const LOOKUP_TIMEOUT: Duration = Duration::from_secs(10);

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Place {
    pub name: String,
    /// For a thread: the channel it belongs to. `None` for anything else.
    pub thread_parent: Option<ChannelId>,
}

pub(super) struct Places {
    http: Arc<Http>,
    known: Mutex<HashMap<ChannelId, Place>>,
}

impl Places {
    pub fn new(http: Arc<Http>) -> Self {
        Self {
            http,
            known: Mutex::new(HashMap::new()),
        }
    }

    /// The channel `id`, or `None` when Discord could not tell us (logged; asked again next
    /// time, so a passing failure does not stick).
    pub async fn get(&self, id: ChannelId) -> Option<Place> {
        if let Some(p) = self.lock().get(&id) {
            return Some(p.clone());
        }
        let place = match tokio::time::timeout(LOOKUP_TIMEOUT, self.http.get_channel(id)).await {
            Ok(Ok(Channel::Guild(c))) => Place {
                thread_parent: is_thread(c.kind).then_some(c.parent_id).flatten(),
                name: c.name,
            },
            Ok(Ok(_)) => return None, // a DM channel: not a guild place
            Ok(Err(e)) => {
                tracing::warn!(channel = %id, error = %e, "discord: cannot look up a channel");
                return None;
            }
            Err(_) => {
                tracing::warn!(channel = %id, "discord: looking up a channel timed out");
                return None;
            }
        };
        let mut known = self.lock();
        if known.len() >= MAX_KNOWN {
            known.clear();
        }
        known.insert(id, place.clone());
        Some(place)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<ChannelId, Place>> {
        self.known.lock().unwrap_or_else(|p| p.into_inner())
    }
}

fn is_thread(kind: ChannelType) -> bool {
    matches!(
        kind,
        ChannelType::PublicThread | ChannelType::PrivateThread | ChannelType::NewsThread
    )
}
