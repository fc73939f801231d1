//! The part of answering that is the same on every platform: run the turn while the typing
//! indicator is kept up, and turn a failed turn into an honest reply.

use std::convert::Infallible;
use std::future::Future;
use std::time::Duration;

use crate::agent::{Agent, Answer, Pending};

/// What a user is told when their turn failed; their message is stored either way.
pub const TURN_FAILED: &str =
    "Sorry, something went wrong on my side. Your message is saved; please try again.";

/// What a private chat is told about a message without text (a sticker, a bare photo, …).
pub const TEXT_ONLY: &str = "I can only read text messages for now.";

/// How long a turn runs before the typing indicator goes up. An answer sooner feels instant
/// and needs none (Telegram asks bots to show a chat action only when the answer takes a
/// noticeable time): a command or a remembered fact costs no call to the platform. And the
/// indicator's request (in a burst of new chats, each a new connection to the platform) does
/// not compete with the message's way to the model, which it would only hold up.
pub const TYPING_AFTER: Duration = Duration::from_millis(100);

/// A reply to deliver, with what its turn left to write once it is delivered
/// ([`Delivery::finish`]). Holds the chat's turn until then.
pub struct Delivery {
    /// `None`: the turn failed; the reply is [`TURN_FAILED`].
    answer: Option<Answer>,
}

impl From<Answer> for Delivery {
    fn from(answer: Answer) -> Self {
        Self {
            answer: Some(answer),
        }
    }
}

/// Runs the turn for `pending` with `typing` — a loop refreshing the platform's typing
/// indicator — beside it from [`TYPING_AFTER`] on, and returns the reply to deliver. The loop
/// is dropped (stopped) the moment the turn ends. `None`: not to be delivered from here,
/// because the chat's turn was lost meanwhile (several replicas: see [`Agent::holds_turn`]);
/// another replica gives the answer.
pub async fn reply_text(
    agent: &Agent,
    pending: &Pending,
    typing: impl Future<Output = Infallible>,
) -> Option<Delivery> {
    let typing = async {
        tokio::time::sleep(TYPING_AFTER).await;
        typing.await
    };
    let result = tokio::select! {
        r = agent.answer_first(pending) => r,
        never = typing => match never {},
    };
    let delivery = match result {
        Ok(answer) => Delivery::from(answer),
        Err(e) => {
            tracing::error!(chat = %pending.chat, error = %format!("{e:#}"), "turn failed");
            Delivery { answer: None }
        }
    };
    if !agent.holds_turn(pending).await {
        tracing::warn!(chat = %pending.chat, "the chat's turn was lost while answering (its lock connection dropped); the answer is left to the replica that holds it");
        delivery.finish(agent, pending, false).await;
        return None;
    }
    Some(delivery)
}

/// How long a part of an answer is retried through the network's and the platform's passing
/// trouble before the answer is left owed (to be answered again at the next start, or by
/// another replica): long enough for the platform to come back from a restart. The chat's
/// later answers wait behind it, in order.
pub const ANSWER_WITHIN: Duration = Duration::from_secs(300);
/// How long a notice outside any turn is retried, from a task of its own
/// (`channels::notice_out`): the intake does not wait for it.
pub const NOTICE_WITHIN: Duration = Duration::from_secs(10);

/// The wait after failed attempt `attempt` (from 1) to send a part: 1 s doubling to a minute.
pub fn resend_after(attempt: u32) -> Duration {
    Duration::from_secs(1 << attempt.saturating_sub(1).min(6)).min(Duration::from_secs(60))
}

/// How sending a reply (or one of its chunks) ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sent {
    Delivered,
    /// Not delivered for now (the network, the platform's server errors, rate limits past the
    /// attempts): the message stays owed, to be answered again after a restart or by another
    /// replica.
    Failed,
    /// Refused for good: the bot was blocked or removed, the chat is gone, it may not post
    /// there. Asking the model again would only be refused again, so the message is done
    /// with (the answer is kept in the chat's history all the same).
    Refused,
}

impl Sent {
    /// True when the message is done with: delivered, or refused for good.
    pub fn done(self) -> bool {
        self != Self::Failed
    }
}

/// How long a delivered answer's record is retried (the database busy: another process's long
/// write, such as an import) before it is left; then the answer may be given again after a
/// restart. Meanwhile the chat's next answers wait, as they would for the database anyway.
const RECORD_WITHIN: std::time::Duration = std::time::Duration::from_secs(300);

impl Delivery {
    /// The text to deliver.
    pub fn text(&self) -> &str {
        self.answer.as_ref().map_or(TURN_FAILED, |a| &a.reply.text)
    }

    /// Writes what the turn left (its answer, usage and injection) and, when the message is
    /// `done` with (its reply delivered, or refused for good: [`Sent::done`]), marks `pending`
    /// replied in the same write, retrying while the database is busy: a delivery not
    /// recorded would be answered again after a restart. Otherwise the message stays owed and
    /// the records are written once (an error is logged).
    pub async fn finish(self, agent: &Agent, pending: &Pending, done: bool) {
        if !done {
            if let Some(answer) = &self.answer
                && let Err(e) = agent.delivered(pending, answer, false).await
            {
                tracing::warn!(chat = %pending.chat, error = %e, "could not record an undelivered turn");
            }
            return;
        }
        let never = tokio_util::sync::CancellationToken::new();
        let mut tried = false;
        let record = super::retry::retry_until("record a delivered answer", &never, || {
            let again = std::mem::replace(&mut tried, true);
            let answer = self.answer.as_ref();
            async move {
                // A write that failed may have committed (its acknowledgement lost): the
                // mark, written with the records, says whether it did.
                if again && agent.was_replied(pending).await? {
                    return Ok(());
                }
                match answer {
                    Some(answer) => agent.delivered(pending, answer, true).await,
                    None => agent.mark_replied(pending).await,
                }
            }
        });
        if tokio::time::timeout(RECORD_WITHIN, record).await.is_err() {
            tracing::error!(chat = %pending.chat, "could not record a delivered answer; it may be given again after a restart");
        }
    }
}
