//! What a platform message is to the bot, and acting on that — the same on every platform;
//! only deciding (`<platform>/incoming.rs`) and sending differ.

use tokio_util::sync::CancellationToken;

use super::access::{StrangerNotices, stranger_notice};
pub use super::group_commit::{QUEUE_FULL, Taken, Ticket};
pub use super::retry::retry_until;
use super::turn::TEXT_ONLY;
use super::workers::ChatWorkers;
use crate::agent::{Agent, IncomingMessage};
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

/// A [`Decision`] whose message, if any, is in line to be stored ([`line_up`]).
pub enum Lined {
    Ignore,
    Stranger { user_id: String },
    TextOnly,
    Message(Ticket),
}

/// Puts `decision`'s message in line on `workers`, without waiting: messages are stored, and
/// their answers queued, in the order of these calls. A caller with several updates at hand
/// lines them all up, then [`act`]s on them side by side, so they are stored together.
pub fn line_up(workers: &ChatWorkers, decision: Decision) -> Lined {
    match decision {
        Decision::Ignore => Lined::Ignore,
        Decision::Stranger { user_id } => Lined::Stranger { user_id },
        Decision::TextOnly => Lined::TextOnly,
        Decision::Message(msg) => Lined::Message(workers.line_up(msg)),
    }
}

/// Acts on `lined`: a stranger is told once a day (naming `allowlist_key`) and a text-only
/// sender is told so, both through `notify`; a message is stored, and the answer it is owed
/// queued on `workers` (see `group_commit`). Nothing of a stranger's is stored. A message that
/// cannot be stored (the database busy: another process holds its write lock) is retried
/// until it is, or until `shutdown` — never dropped. `notify` hands its notice on without
/// waiting for the platform to take it (`notice_out`): the intake goes on meanwhile.
pub async fn act(
    agent: &Agent,
    notices: &StrangerNotices,
    workers: &ChatWorkers,
    lined: Lined,
    allowlist_key: &str,
    notify: impl FnOnce(String),
    shutdown: &CancellationToken,
) -> Acted {
    match lined {
        Lined::Ignore => {}
        Lined::Stranger { user_id } => {
            if notices
                .should_notify(agent.store(), &user_id, now_ms())
                .await
            {
                notify(stranger_notice(&user_id, allowlist_key));
            }
        }
        Lined::TextOnly => notify(TEXT_ONLY.to_string()),
        Lined::Message(ticket) => match workers.take_in(agent, ticket, shutdown).await {
            Taken::Stored { notice } => {
                if let Some(text) = notice {
                    notify(text.to_string());
                }
            }
            Taken::NotStored => return Acted::NotStored,
        },
    }
    Acted::Done
}

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
