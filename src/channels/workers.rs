//! One worker task per chat: answers within a chat go out in the order the messages came,
//! while chats are answered concurrently. Shared by the platform channels.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;
use tokio::task::JoinSet;

use crate::agent::{Agent, Pending};
use crate::store::now_ms;

/// How long shutdown waits for answers in flight before leaving them for the next start
/// (they keep their `needs_reply` mark, so nothing is lost). Below the 10 s the daemon has.
pub const DRAIN_TIMEOUT: Duration = Duration::from_secs(8);

type Answer = Arc<dyn Fn(Pending) -> Pin<Box<dyn Future<Output = ()> + Send>> + Send + Sync>;

/// The oldest time (ms) an owed answer may have and still be given: `backlog_mins` ago.
pub fn backlog_since(backlog_mins: u32) -> i64 {
    now_ms() - i64::from(backlog_mins) * 60_000
}

pub struct ChatWorkers {
    channel: &'static str,
    answer: Answer,
    queues: HashMap<String, mpsc::UnboundedSender<Pending>>,
    tasks: JoinSet<()>,
}

impl ChatWorkers {
    /// `answer` runs the turn for one owed message and delivers it.
    pub fn new<F, Fut>(channel: &'static str, answer: F) -> Self
    where
        F: Fn(Pending) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        Self {
            channel,
            answer: Arc::new(move |p| Box::pin(answer(p))),
            queues: HashMap::new(),
            tasks: JoinSet::new(),
        }
    }

    /// Queues `pending` behind the answers its chat already owes.
    pub fn dispatch(&mut self, pending: Pending) {
        let chat = pending.chat.to_string();
        let pending = match self.queues.get(&chat) {
            Some(tx) => match tx.send(pending) {
                Ok(()) => return,
                // The worker is gone (it can only stop by panicking): start a new one.
                Err(mpsc::error::SendError(p)) => p,
            },
            None => pending,
        };
        let (tx, mut rx) = mpsc::unbounded_channel::<Pending>();
        let _ = tx.send(pending);
        self.queues.insert(chat, tx);
        let answer = self.answer.clone();
        self.tasks.spawn(async move {
            while let Some(p) = rx.recv().await {
                answer(p).await;
            }
        });
    }

    /// Queues the answers this channel still owes from before this start (a crash or shutdown
    /// came between storing and delivering), for messages at most `backlog_mins` old.
    pub async fn dispatch_owed(&mut self, agent: &Agent, backlog_mins: u32) -> anyhow::Result<()> {
        for pending in agent
            .awaiting_reply(self.channel, backlog_since(backlog_mins))
            .await?
        {
            self.dispatch(pending);
        }
        Ok(())
    }

    /// Closes the queues and lets answers in flight finish, for [`DRAIN_TIMEOUT`] at most.
    pub async fn drain(mut self) {
        self.queues.clear();
        let all = async { while self.tasks.join_next().await.is_some() {} };
        if tokio::time::timeout(DRAIN_TIMEOUT, all).await.is_err() {
            tracing::warn!(
                "{}: answers still running at shutdown are left for the next start",
                self.channel
            );
        }
    }
}
