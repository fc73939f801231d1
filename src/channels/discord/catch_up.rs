//! What a new gateway session does not replay. Discord replays what the bot missed only when
//! a session is resumed; when serenity has to identify afresh (its reconnects failed: a network
//! cut, the gateway refusing for a while) or the daemon starts, what was written meanwhile
//! would never arrive. So on every READY, the chats where someone wrote within the answer
//! backlog are read over REST after the last message stored from them, into the same intake:
//! a message already stored is stored once (its Discord id is unique), and one older than the
//! backlog is kept but not answered, as on a resume.

use serenity::http::{Http, MessagePagination};
use serenity::model::channel::Message;
use serenity::model::id::{ChannelId, MessageId};
use tokio::sync::mpsc;

use super::Arrival;
use super::places::Places;
use crate::channels::workers::backlog_since;
use crate::store::Store;

/// Messages asked for at once (Discord's most).
const PAGE: u8 = 100;
/// Pages read per chat at most: a chat that wrote more than this while the bot was away has
/// its oldest of them left out (logged).
const MAX_PAGES: usize = 10;

/// Reads what each recently active chat wrote after its last stored message, oldest first,
/// into `intake`.
pub(super) async fn catch_up(
    http: &Http,
    store: &Store,
    places: &Places,
    backlog_mins: u32,
    intake: &mpsc::UnboundedSender<Arrival>,
) {
    let chats = match store
        .last_heard(super::CHANNEL, backlog_since(backlog_mins))
        .await
    {
        Ok(chats) => chats,
        Err(e) => {
            tracing::warn!(error = %e, "discord: cannot read which chats to catch up on");
            return;
        }
    };
    for (chat, is_group, last) in chats {
        let (Some(channel), Some(last)) = (snowflake(&chat), snowflake(&last)) else {
            continue;
        };
        let channel = ChannelId::new(channel);
        // A server channel's messages need their server (REST does not say): the place knows.
        let place = if is_group {
            match places.get(channel).await {
                Some(place) => Some(place),
                None => continue, // logged by the lookup
            }
        } else {
            None
        };
        let missed = match missed_since(http, channel, MessageId::new(last)).await {
            Ok(missed) => missed,
            Err(e) => {
                tracing::warn!(%channel, error = %e, "discord: cannot read what a chat wrote while away");
                continue;
            }
        };
        if !missed.is_empty() {
            tracing::info!(%channel, messages = missed.len(), "discord: catching up on messages a new session does not replay");
        }
        for mut m in missed {
            if let Some(place) = &place {
                m.guild_id = Some(place.guild_id);
            }
            if intake.send((m, place.clone())).is_err() {
                return; // the session is ending
            }
        }
    }
}

/// A Discord id: a nonzero number.
fn snowflake(text: &str) -> Option<u64> {
    text.parse().ok().filter(|id| *id != 0)
}

/// The messages of `channel` after `last`, oldest first, up to [`MAX_PAGES`] pages.
async fn missed_since(
    http: &Http,
    channel: ChannelId,
    last: MessageId,
) -> serenity::Result<Vec<Message>> {
    let mut all = Vec::new();
    let mut after = last;
    for _ in 0..MAX_PAGES {
        let mut page = http
            .get_messages(channel, Some(MessagePagination::After(after)), Some(PAGE))
            .await?;
        page.sort_by_key(|m| m.id);
        let full = page.len() >= usize::from(PAGE);
        match page.last() {
            Some(newest) => after = newest.id,
            None => return Ok(all),
        }
        all.extend(page);
        if !full {
            return Ok(all);
        }
    }
    tracing::warn!(%channel, read = all.len(), "discord: more was written while away than is caught up on; the later messages are left out");
    Ok(all)
}
