//! What a platform message is to the bot, and acting on that — the same on every platform;
//! only deciding (`<platform>/incoming.rs`) and sending differ.

use super::access::{StrangerNotices, stranger_notice};
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

/// Acts on `decision`: a stranger is told once a day (naming `allowlist_key`) and a text-only
/// sender is told so, both through `notify`; a message is stored, and the answer it is owed
/// queued on `workers`. Nothing of a stranger's is stored.
pub async fn act(
    agent: &Agent,
    notices: &StrangerNotices,
    workers: &mut ChatWorkers,
    decision: Decision,
    allowlist_key: &str,
    notify: impl AsyncFnOnce(&str),
) {
    match decision {
        Decision::Ignore => {}
        Decision::Stranger { user_id } => {
            if notices.should_notify(&user_id, now_ms()) {
                notify(&stranger_notice(&user_id, allowlist_key)).await;
            }
        }
        Decision::TextOnly => notify(TEXT_ONLY).await,
        Decision::Message(msg) => match agent.receive(&msg).await {
            Ok(Received::Pending(pending)) => workers.dispatch(pending),
            Ok(Received::Stored | Received::Duplicate) => {}
            Err(e) => tracing::error!(chat = %msg.chat, error = %e, "could not store a message"),
        },
    }
}
