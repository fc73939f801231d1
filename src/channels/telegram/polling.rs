//! Long polling: getUpdates with the offset saved after each batch, so each update is taken
//! once across restarts.

use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use teloxide::RequestError;
use teloxide::prelude::*;
use teloxide::requests::{JsonRequest, Payload};
use teloxide::types::AllowedUpdate;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use futures_util::future::join_all;

use super::lenient::Lenient;
use super::{CHANNEL, PERSISTENT_FAILURE, Shared, finish, line_up, next_backoff};
use crate::channels::intake::{Acted, retry_until};
use crate::channels::workers::ChatWorkers;

/// Seconds a getUpdates call waits for news (teloxide's client gives up after 17 s).
const POLL_TIMEOUT_SECS: u32 = 10;
const OFFSET_KEY: &str = "next_update_id";

/// getUpdates, answered with updates read by [`Lenient`] (teloxide's own payload reads them
/// strictly, losing a message's text to a part of it this build cannot read).
#[derive(Serialize)]
struct GetUpdates {
    offset: i32,
    timeout: u32,
    allowed_updates: [AllowedUpdate; 2],
}

impl From<i32> for GetUpdates {
    fn from(offset: i32) -> Self {
        Self {
            offset,
            timeout: POLL_TIMEOUT_SECS,
            allowed_updates: [AllowedUpdate::Message, AllowedUpdate::EditedMessage],
        }
    }
}

impl Payload for GetUpdates {
    type Output = Vec<Lenient>;
    const NAME: &'static str = "GetUpdates";

    /// Long polling: the client waits at least this long for the answer.
    fn timeout_hint(&self) -> Option<Duration> {
        Some(Duration::from_secs(self.timeout.into()))
    }
}

/// Removes a webhook left from `mode: webhook` (Telegram refuses getUpdates with 409 Conflict
/// while one is set), keeping the updates it holds for getUpdates. A failure is only logged:
/// with no webhook set, polling works all the same.
pub(super) async fn delete_webhook(shared: &Shared, shutdown: &CancellationToken) {
    let request = shared.bot.delete_webhook().drop_pending_updates(false);
    let result = tokio::select! {
        r = request.send() => r,
        () = shutdown.cancelled() => return,
    };
    if let Err(e) = result {
        tracing::warn!(error = %shared.redact(&e), "telegram: deleteWebhook failed; if a webhook is still set, getUpdates will fail with 409 Conflict");
    }
}

/// The long-polling loop: updates in, stored, dispatched; the offset saved after each batch.
/// A batch's messages are stored together, in one transaction. The offset moves only past
/// updates whose messages are stored: while the database is busy the loop waits on the batch
/// at hand (and Telegram keeps the rest), and at shutdown a batch not stored yet is left for
/// Telegram to give again.
///
/// The next getUpdates goes out as soon as a batch is stored; the offset is saved beside the
/// loop ([`keep_saved`]), not before it. It is what the next getUpdates tells Telegram
/// anyway (which then forgets the updates before it), so the saved copy only spares a
/// restart the updates of the last batch — stored, so found again as redeliveries. Before,
/// each batch waited for that write too, behind every write the burst had queued.
pub(super) async fn poll(
    shared: &Arc<Shared>,
    workers: &ChatWorkers,
    shutdown: &CancellationToken,
) {
    let store = shared.agent.store();
    let read = retry_until("read the Telegram offset", shutdown, || {
        store.channel_state(CHANNEL, OFFSET_KEY)
    })
    .await;
    let Some(saved) = read else { return };
    let offset: i32 = saved.and_then(|v| v.parse().ok()).unwrap_or(0);
    let (offsets, to_save) = watch::channel(offset);
    let saver = tokio::spawn(keep_saved(shared.clone(), to_save, shutdown.clone()));
    poll_from(shared, workers, offset, &offsets, shutdown).await;
    // The last offset is saved before the channel stops (tried once even at shutdown).
    drop(offsets);
    let _ = saver.await;
}

/// [`poll`]'s loop from `offset`, each new offset handed to `offsets` once its batch is stored.
async fn poll_from(
    shared: &Arc<Shared>,
    workers: &ChatWorkers,
    mut offset: i32,
    offsets: &watch::Sender<i32>,
    shutdown: &CancellationToken,
) {
    let mut backoff = Duration::from_secs(1);
    loop {
        let request = JsonRequest::new(shared.bot.clone(), GetUpdates::from(offset));
        let result = tokio::select! {
            r = request.send() => r,
            () = shutdown.cancelled() => return,
        };
        let wait = match result {
            Ok(updates) => {
                backoff = Duration::from_secs(1);
                shared.agent.channel_status().connected(CHANNEL);
                let Some(last) = updates.last().map(|u| u.0.id()) else {
                    continue;
                };
                // Lined up in Telegram's order, then stored together (one transaction).
                let lined: Vec<_> = updates
                    .into_iter()
                    .filter_map(|Lenient(u)| line_up(shared, workers, u))
                    .collect();
                let acted = join_all(
                    lined
                        .into_iter()
                        .map(|in_line| finish(shared, workers, in_line, shutdown)),
                )
                .await;
                if acted.contains(&Acted::NotStored) {
                    return;
                }
                offset = next_offset(last);
                offsets.send_replace(offset);
                continue;
            }
            Err(RequestError::RetryAfter(secs)) => {
                tracing::warn!(
                    secs = secs.seconds(),
                    "telegram: rate limited on getUpdates"
                );
                secs.duration()
            }
            Err(RequestError::InvalidJson { raw, .. }) => {
                // A batch teloxide cannot read at all: skip past it rather than loop on it.
                match max_update_id(&raw) {
                    Some(last) => {
                        tracing::warn!(last, "telegram: skipping an unreadable batch of updates");
                        offset = next_offset(last);
                        offsets.send_replace(offset);
                        continue;
                    }
                    None => {
                        let start: String = raw.chars().take(200).collect();
                        let start = shared.redact(&start);
                        tracing::warn!(answer = %start, "telegram: unreadable getUpdates answer (not a batch of updates); retrying");
                        if backoff >= PERSISTENT_FAILURE {
                            let why = "getUpdates keeps giving answers that are not updates (see the log)";
                            shared.agent.channel_status().down(CHANNEL, why);
                        }
                        next_backoff(&mut backoff)
                    }
                }
            }
            Err(e) => {
                tracing::warn!(error = %shared.redact(&e), "telegram: getUpdates failed; retrying");
                if backoff >= PERSISTENT_FAILURE {
                    let why = "getUpdates keeps failing (see the log)";
                    shared.agent.channel_status().down(CHANNEL, why);
                }
                next_backoff(&mut backoff)
            }
        };
        tokio::select! {
            () = tokio::time::sleep(wait) => {}
            () = shutdown.cancelled() => return,
        }
    }
}

/// Saves each offset `offsets` is given, the latest when several came meanwhile, retrying
/// while the database is busy; ends once `offsets`' sender is gone and its last offset saved,
/// or at shutdown (the updates an unsaved offset would have confirmed are stored, so getting
/// them again is harmless).
async fn keep_saved(
    shared: Arc<Shared>,
    mut offsets: watch::Receiver<i32>,
    shutdown: CancellationToken,
) {
    let store = shared.agent.store();
    while offsets.changed().await.is_ok() {
        let value = offsets.borrow_and_update().to_string();
        let saved = retry_until("save the Telegram offset", &shutdown, || {
            store.set_channel_state(CHANNEL, OFFSET_KEY, &value)
        })
        .await;
        if saved.is_none() {
            return;
        }
    }
}

fn next_offset(last_update_id: u32) -> i32 {
    i32::try_from(last_update_id)
        .unwrap_or(i32::MAX - 1)
        .saturating_add(1)
}

/// The largest `update_id` in a raw getUpdates answer, if any can be found.
fn max_update_id(raw: &str) -> Option<u32> {
    let v: serde_json::Value = serde_json::from_str(raw).ok()?;
    v.get("result")?
        .as_array()?
        .iter()
        .filter_map(|u| u.get("update_id")?.as_u64())
        .filter_map(|id| u32::try_from(id).ok())
        .max()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unreadable_batches_are_skipped_by_their_ids() {
        assert_eq!(
            max_update_id(r#"{"ok":true,"result":[{"update_id":5},{"update_id":9,"x":1}]}"#),
            Some(9)
        );
        assert_eq!(max_update_id(r#"{"ok":true,"result":[{"nope":1}]}"#), None);
        assert_eq!(max_update_id("garbage"), None);
        assert_eq!(next_offset(9), 10);
    }
}
