//! What a platform message is to the bot, and acting on that — the same on every platform;
//! only deciding (`<platform>/incoming.rs`) and sending differ.

use tokio_util::sync::CancellationToken;

use super::access::{Rate, SLOW_DOWN, StrangerNotices, stranger_notice};
pub use super::retry::retry_until;
use super::turn::TEXT_ONLY;
use super::workers::ChatWorkers;
use crate::agent::{Agent, IncomingMessage, Received};
use crate::store::now_ms;

#[derive(Debug)]
pub enum Decision {
    /// Not for us: other bots and our own echoes, chats not allowed, system noise.
    Ignore,
    /// A private message from someone not on the allowlist.
    Stranger {
        user_id: String,
    },
    /// A private message without text (a sticker, a bare photo, …).
    TextOnly,
    Message(IncomingMessage),
}

/// Runs a platform's `classify` on one update; should it panic (a bug meeting an input nobody
/// foresaw), the update is skipped with an error in the log instead of taking the channel —
/// and, as the update would come again after a restart, the daemon — down for good.
pub fn classify_safely(channel: &str, classify: impl FnOnce() -> Decision) -> Decision {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(classify)) {
        Ok(decision) => decision,
        Err(_) => {
            tracing::error!(
                channel,
                "an update could not be classified (a bug: please report it); skipped"
            );
            Decision::Ignore
        }
    }
}

/// Whether [`act`] got through with the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Acted {
    /// Handled: stored (and its answer queued), or nothing to store.
    Done,
    /// Shutdown came while the message could not be stored yet: the platform must offer it
    /// again (do not acknowledge it).
    NotStored,
}

/// Acts on `decision`: a stranger is told once a day (naming `allowlist_key`) and a text-only
/// sender is told so, both through `notify`; a message is stored, and the answer it is owed
/// queued on `workers`. Nothing of a stranger's is stored. A message that cannot be stored
/// (the database busy: another process holds its write lock) is retried until it is, or until
/// `shutdown` — never dropped. Callers may act on several messages at once: they are stored
/// and queued one at a time, in the order they came (the workers' intake lock).
pub async fn act(
    agent: &Agent,
    notices: &StrangerNotices,
    workers: &ChatWorkers,
    decision: Decision,
    allowlist_key: &str,
    notify: impl AsyncFnOnce(&str),
    shutdown: &CancellationToken,
) -> Acted {
    match decision {
        Decision::Ignore => {}
        Decision::Stranger { user_id } => {
            if notices
                .should_notify(agent.store(), &user_id, now_ms())
                .await
            {
                notify(&stranger_notice(&user_id, allowlist_key)).await;
            }
        }
        Decision::TextOnly => notify(TEXT_ONLY).await,
        Decision::Message(mut msg) => {
            let mut notice = None;
            let intake = workers.intake().await;
            if msg.is_group
                && msg.addressed
                && let Rate::Limited { tell } =
                    workers.check_rate(&msg.chat.to_string(), &msg.sender_id, now_ms())
            {
                // Kept as history (and for the reflector), not answered.
                msg.addressed = false;
                notice = tell.then_some(SLOW_DOWN);
            }
            let what = format!("store a message of {}", msg.chat);
            match retry_until(&what, shutdown, || agent.receive(&msg)).await {
                Some(Received::Pending(pending)) => {
                    if let Err(pending) = workers.try_dispatch(pending) {
                        // Its chat already waits on QUEUE_LIMIT answers: say so, and do not
                        // leave it owed for the next start either.
                        tracing::warn!(chat = %pending.chat, "a chat's queue is full; a message is not answered");
                        if let Err(e) = agent.mark_replied(&pending).await {
                            tracing::warn!(error = %e, "could not record a skipped answer");
                        }
                        notice = Some(QUEUE_FULL);
                    }
                }
                Some(Received::Stored | Received::Duplicate) => {}
                None => return Acted::NotStored,
            }
            drop(intake);
            if let Some(text) = notice {
                notify(text).await;
            }
        }
    }
    Acted::Done
}

/// What a sender is told when their chat already has a full queue of answers to wait for.
pub const QUEUE_FULL: &str = "I'm still answering the earlier messages in this chat, so I'll \
     skip this one; send it again once I've caught up.";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panicking_classification_skips_the_update() {
        let d = classify_safely("test", || panic!("an input nobody foresaw"));
        assert!(matches!(d, Decision::Ignore));
        let d = classify_safely("test", || Decision::TextOnly);
        assert!(matches!(d, Decision::TextOnly));
    }
}
