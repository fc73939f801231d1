//! What a guild channel is: its name, and for a thread, its parent. A MESSAGE_CREATE says
//! neither, and without the GUILDS intent no channel list arrives either, so the answer comes
//! from `GET /channels/{id}` once per channel and is kept.
//!
//! Looked up in the gateway's event tasks (serenity runs each event as a task of its own),
//! before a message reaches the intake loop: a slow lookup delays only the messages of that
//! channel, never the intake of others.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use serenity::http::Http;
use serenity::model::channel::{Channel, ChannelType};
use serenity::model::id::{ChannelId, GuildId};

/// Channels remembered at most; past that the memory starts afresh (a lookup is cheap).
const MAX_KNOWN: usize = 10_000;
/// A lookup slower than this counts as failed: the intake must not stall on it.
const LOOKUP_TIMEOUT: Duration = Duration::from_secs(10);

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Place {
    pub name: String,
    /// For a thread: the channel it belongs to. `None` for anything else.
    pub thread_parent: Option<ChannelId>,
    /// The server it is in (a message fetched over REST does not say).
    pub guild_id: GuildId,
}

#[derive(Default)]
pub(super) struct Places {
    /// The gateway client's REST client, once it exists.
    http: OnceLock<Arc<Http>>,
    known: Mutex<HashMap<ChannelId, Place>>,
}

impl Places {
    pub fn set_http(&self, http: Arc<Http>) {
        let _ = self.http.set(http);
    }

    /// The place a message needs classifying: none for a DM, and none looked up at all while
    /// no guild channel is allowed.
    pub async fn for_message(
        &self,
        m: &serenity::model::channel::Message,
        allowed_channels: &[String],
    ) -> Option<Place> {
        if m.guild_id.is_none() || allowed_channels.is_empty() {
            return None;
        }
        self.get(m.channel_id).await
    }

    /// The channel `id`, or `None` when Discord could not tell us (logged; asked again next
    /// time, so a passing failure does not stick).
    pub async fn get(&self, id: ChannelId) -> Option<Place> {
        if let Some(p) = self.lock().get(&id) {
            return Some(p.clone());
        }
        let http = self.http.get()?;
        let place = match tokio::time::timeout(LOOKUP_TIMEOUT, http.get_channel(id)).await {
            Ok(Ok(Channel::Guild(c))) => Place {
                thread_parent: is_thread(c.kind).then_some(c.parent_id).flatten(),
                guild_id: c.guild_id,
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
