//! The intake's group commit: messages taken in at the same time are stored together.
//!
//! A message is put in line first ([`IntakeLine::line_up`], no waiting: the order of these
//! calls is the order messages are stored and their answers queued). Then whoever gets the
//! intake's turn (a fair lock) stores everything in line at that moment in one write
//! transaction ([`Agent::receive_all`]) and queues the answers, in line order; those whose
//! messages it took find them done when their turn comes. One at a time, so a chat's answers
//! are queued in the order its messages were stored; a burst of a hundred webhook requests
//! costs a few commits instead of a hundred.

use std::sync::Mutex;

use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

use super::access::{Rate, SLOW_DOWN};
use super::retry::retry_until;
use crate::agent::{Agent, IncomingMessage, Pending, Received};
use crate::store::now_ms;

/// Where the answers owed to stored messages go: the chat workers.
pub trait Answers {
    /// Whether `sender` may be answered in group `chat` now (the group rate limit).
    fn check_rate(&self, chat: &str, sender: &str, now_ms: i64) -> Rate;
    /// Queues an answer, or hands it back when its chat's queue is full.
    fn try_dispatch(&self, pending: Pending) -> Result<(), Box<Pending>>;
}

/// What a sender is told when their chat already has a full queue of answers to wait for.
pub const QUEUE_FULL: &str = "I'm still answering the earlier messages in this chat, so I'll \
     skip this one; send it again once I've caught up.";

/// Messages waiting to be stored, and the turn to store them.
#[derive(Default)]
pub struct IntakeLine {
    waiting: Mutex<Vec<Waiting>>,
    turn: tokio::sync::Mutex<()>,
}

struct Waiting {
    msg: IncomingMessage,
    done: oneshot::Sender<Taken>,
}

/// A message's place in line; [`IntakeLine::take_in`] waits for it to be stored.
pub struct Ticket {
    done: oneshot::Receiver<Taken>,
}

/// What became of a message in line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Taken {
    /// Stored (or stored before: a redelivery) and its answer, if owed, queued; the sender is
    /// to be told `notice` (a group's rate limit, a full queue).
    Stored { notice: Option<&'static str> },
    /// Shutdown came while the database could not take it: not stored.
    NotStored,
}

impl IntakeLine {
    /// Puts `msg` in line behind the messages already there.
    pub fn line_up(&self, msg: IncomingMessage) -> Ticket {
        let (done, rx) = oneshot::channel();
        lock(&self.waiting).push(Waiting { msg, done });
        Ticket { done: rx }
    }

    /// Waits until the ticket's message is stored and its answer queued on `answers`: by this
    /// call, storing everything in line with it, or by an earlier one that took it along.
    /// A message that cannot be stored (another process holds the database's write lock) is
    /// retried until it is, or until `shutdown`.
    pub async fn take_in(
        &self,
        agent: &Agent,
        answers: &impl Answers,
        ticket: Ticket,
        shutdown: &CancellationToken,
    ) -> Taken {
        let Ticket { mut done } = ticket;
        let turn = self.turn.lock().await;
        match done.try_recv() {
            Ok(taken) => return taken,
            // Whoever took it along was stopped before it was done (its request went away):
            // whether it is stored is not known here, so it counts as not stored (a platform
            // gives it again, and a stored one is then found a redelivery).
            Err(oneshot::error::TryRecvError::Closed) => return Taken::NotStored,
            // Still in line (an earlier turn takes only what is in line when it starts, and
            // answers all it took before letting go).
            Err(oneshot::error::TryRecvError::Empty) => {}
        }
        let batch = std::mem::take(&mut *lock(&self.waiting));
        store_batch(agent, answers, batch, shutdown).await;
        drop(turn);
        done.await.unwrap_or(Taken::NotStored)
    }
}

/// Stores `batch` in one transaction and queues the answers owed, in order; tells each
/// waiting caller what became of its message.
async fn store_batch(
    agent: &Agent,
    answers: &impl Answers,
    batch: Vec<Waiting>,
    shutdown: &CancellationToken,
) {
    let mut notices = vec![None; batch.len()];
    let mut msgs = Vec::with_capacity(batch.len());
    let mut dones = Vec::with_capacity(batch.len());
    for (i, Waiting { mut msg, done }) in batch.into_iter().enumerate() {
        if msg.is_group
            && msg.addressed
            && let Rate::Limited { tell } =
                answers.check_rate(&msg.chat.to_string(), &msg.sender_id, now_ms())
        {
            // Kept as history (and for the reflector), not answered.
            msg.addressed = false;
            notices[i] = tell.then_some(SLOW_DOWN);
        }
        msgs.push(msg);
        dones.push(done);
    }
    let what = match msgs.as_slice() {
        [one] => format!("store a message of {}", one.chat),
        many => format!("store {} messages", many.len()),
    };
    let Some(received) = retry_until(&what, shutdown, || agent.receive_all(&msgs)).await else {
        for done in dones {
            // A receiver gone only means its request went away.
            let _ = done.send(Taken::NotStored);
        }
        return;
    };
    for m in &msgs {
        timeline!(m.chat.external_id, "stored");
    }
    for ((received, done), mut notice) in received.into_iter().zip(dones).zip(notices) {
        if let Received::Pending(pending) = received
            && let Err(pending) = answers.try_dispatch(pending)
        {
            // Its chat already waits on QUEUE_LIMIT answers: say so, and do not leave it
            // owed for the next start either.
            tracing::warn!(chat = %pending.chat, "a chat's queue is full; a message is not answered");
            if let Err(e) = agent.mark_replied(&pending).await {
                tracing::warn!(error = %e, "could not record a skipped answer");
            }
            notice = Some(QUEUE_FULL);
        }
        let _ = done.send(Taken::Stored { notice });
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use super::*;
    use crate::base::ChatKey;
    use crate::channels::workers::ChatWorkers;
    use crate::config::Config;
    use crate::llm::{LlmError, LlmProvider, LlmRequest, LlmResponse};
    use crate::store::Store;

    /// Intake never calls the model.
    struct NoModel;

    #[async_trait::async_trait]
    impl LlmProvider for NoModel {
        fn name(&self) -> &'static str {
            "none"
        }
        async fn complete(&self, _: &LlmRequest) -> Result<LlmResponse, LlmError> {
            Err(LlmError::Timeout {
                provider: "none",
                after: Duration::ZERO,
            })
        }
    }

    fn message(chat: &str, id: usize) -> IncomingMessage {
        IncomingMessage {
            chat: chat.parse::<ChatKey>().unwrap(),
            chat_title: None,
            sender_id: "7".into(),
            sender_name: "Ann".into(),
            text: format!("message {id}"),
            is_group: false,
            addressed: true,
            platform_message_id: Some(id.to_string()),
            platform_thread_id: None,
            sent_at: None,
        }
    }

    /// Callers that line up at once are stored together, each once, in line order, and each
    /// chat's answers are queued in that order (8 a chat: its queue's limit); a redelivery in
    /// the burst is not answered.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_burst_is_stored_in_line_order_and_answered_once_each() {
        let dir = tempfile::tempdir().unwrap();
        let config = Config {
            data_dir: dir.path().to_path_buf(),
            ..Config::default()
        };
        let store = Store::open("sqlite::memory:").await.unwrap();
        let agent = Agent::new(Arc::new(config), store.clone(), Arc::new(NoModel));
        let answered = Arc::new(Mutex::new(Vec::<Pending>::new()));
        let log = answered.clone();
        let workers = ChatWorkers::new("telegram", move |p: Pending| {
            let log = log.clone();
            async move { lock(&log).push(p) }
        });
        let stop = CancellationToken::new();

        let chats = ["telegram:1", "telegram:2", "telegram:3"];
        let mut burst: Vec<IncomingMessage> = (0..24).map(|i| message(chats[i % 3], i)).collect();
        burst.push(message("telegram:2", 4)); // a redelivery of message 4
        let tickets: Vec<Ticket> = burst.iter().map(|m| workers.line_up(m.clone())).collect();
        let taken = futures_util::future::join_all(
            tickets
                .into_iter()
                .map(|t| workers.take_in(&agent, t, &stop)),
        )
        .await;
        assert!(
            taken.iter().all(|t| *t == Taken::Stored { notice: None }),
            "{taken:?}"
        );

        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        while lock(&answered).len() < 24 {
            assert!(tokio::time::Instant::now() < deadline, "answers queued");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        workers.drain().await;
        let answered = lock(&answered).clone();
        assert_eq!(answered.len(), 24, "each once, the redelivery not");
        for chat in chats {
            let chat_row = store
                .find_chat(&chat.parse().unwrap())
                .await
                .unwrap()
                .unwrap();
            let stored = store.messages_after(chat_row.id, 0, 100).await.unwrap();
            let texts: Vec<String> = stored.iter().map(|m| m.text.clone()).collect();
            let expected: Vec<String> = (0..24)
                .filter(|i| chats[i % 3] == chat)
                .map(|i| format!("message {i}"))
                .collect();
            assert_eq!(texts, expected, "{chat}: stored once each, in line order");
            let ids: Vec<i64> = answered
                .iter()
                .filter(|p| p.chat.to_string() == chat)
                .map(|p| p.message_id)
                .collect();
            let stored_ids: Vec<i64> = stored.iter().map(|m| m.id).collect();
            assert_eq!(ids, stored_ids, "{chat}: answered in the order stored");
        }
    }
}
