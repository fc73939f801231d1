//! One worker task per chat: answers within a chat go out in the order the messages came,
//! while chats are answered concurrently. Shared by the platform channels.
//!
//! Bounded: a chat's queue holds at most [`QUEUE_LIMIT`] new messages (the channel tells the
//! sender to wait beyond that), and a worker idle for [`IDLE_AFTER`] ends, so a process that
//! has seen many chats does not keep a task and a queue for each of them.
//!
//! Shared (`&self`): the webhook takes many requests at once. Messages are lined up and
//! stored together ([`ChatWorkers::line_up`], [`ChatWorkers::take_in`]), their answers queued
//! in the order they were stored; dispatching and the owed-answer sweep do not wait for it.
//!
//! Where several replicas share a PostgreSQL database ([`ChatWorkers::coordinated`]), a chat's
//! answers are given under its turn lock (`store::turns`): the holder answers the chat's owed
//! messages oldest first, whichever replica stored them, so each is answered once and in order;
//! a replica that finds the lock taken waits for it, and [`Overdue`] finds what a replica that
//! died had stored but not answered, for [`ChatWorkers::dispatch_overdue`].

use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use super::access::{Rate, SenderRate};
use super::group_commit::{Answers, IntakeLine, Taken, Ticket};
use crate::agent::{Agent, IncomingMessage, MAX_REPLY_ATTEMPTS, Pending};
use crate::base::bug::contained;
use crate::store::now_ms;

/// How long shutdown waits for answers in flight before leaving them for the next start
/// (they keep their `needs_reply` mark, so nothing is lost). Below the 10 s the daemon has.
pub const DRAIN_TIMEOUT: Duration = Duration::from_secs(8);

/// New messages a chat may have waiting for an answer.
pub const QUEUE_LIMIT: usize = 8;
/// A worker with nothing to do for this long ends; the chat's next message starts a new one.
pub const IDLE_AFTER: Duration = Duration::from_secs(300);

type Answer = Arc<dyn Fn(Pending) -> Pin<Box<dyn Future<Output = ()> + Send>> + Send + Sync>;

/// The oldest time (ms) an owed answer may have and still be given: `backlog_mins` ago.
pub fn backlog_since(backlog_mins: u32) -> i64 {
    now_ms() - i64::from(backlog_mins) * 60_000
}

pub struct ChatWorkers {
    channel: &'static str,
    answer: Answer,
    /// Set where several replicas may answer (PostgreSQL): answers take the chat's turn.
    coordinator: Option<Coordinator>,
    idle_after: Duration,
    /// The queues and their tasks; held only to look up or start a queue, never across an
    /// await.
    inner: Mutex<Inner>,
    /// Messages waiting to be stored, stored together (see `group_commit`).
    intake: IntakeLine,
    /// Cancelled by [`ChatWorkers::drain`]: no turn starts after it (a message still queued
    /// stays owed, for the next start).
    closing: CancellationToken,
    /// Answers each person may ask for per minute in a group.
    rate: Mutex<SenderRate>,
}

#[derive(Default)]
struct Inner {
    queues: HashMap<String, Queue>,
    tasks: JoinSet<()>,
    /// Set by [`ChatWorkers::drain`]: nothing new is queued (what comes stays owed, for the
    /// next start).
    closed: bool,
}

/// What answering under turn locks needs.
#[derive(Clone)]
struct Coordinator {
    agent: Arc<Agent>,
    backlog_mins: u32,
    /// Messages queued or being answered here (so the sweep does not queue them again).
    in_flight: Arc<Mutex<HashSet<i64>>>,
}

impl Coordinator {
    fn in_flight(&self) -> std::sync::MutexGuard<'_, HashSet<i64>> {
        lock(&self.in_flight)
    }
}

/// Finds the answers owed on this channel that no replica is giving (coordinated workers).
pub struct Overdue {
    channel: &'static str,
    coordinator: Coordinator,
}

impl Overdue {
    /// The owed answers sent before `older_than` ago that no worker here has — a replica that
    /// stored them died, or took its turn just as this one let go.
    pub async fn find(&self, older_than: Duration) -> Vec<Pending> {
        let c = &self.coordinator;
        let before = now_ms() - i64::try_from(older_than.as_millis()).unwrap_or(i64::MAX);
        match c
            .agent
            .overdue(self.channel, backlog_since(c.backlog_mins), before)
            .await
        {
            Ok(owed) => {
                let known = c.in_flight();
                owed.into_iter()
                    .filter(|p| !known.contains(&p.message_id))
                    .collect()
            }
            Err(e) => {
                tracing::warn!(channel = self.channel, error = %e, "could not look for owed answers");
                Vec::new()
            }
        }
    }
}

impl Answers for ChatWorkers {
    fn check_rate(&self, chat: &str, sender: &str, now_ms: i64) -> Rate {
        ChatWorkers::check_rate(self, chat, sender, now_ms)
    }

    fn try_dispatch(&self, pending: Pending) -> Result<(), Box<Pending>> {
        ChatWorkers::try_dispatch(self, pending)
    }
}

/// A chat's queue: its sender, and how many answers wait in it.
struct Queue {
    tx: mpsc::UnboundedSender<Pending>,
    waiting: Arc<AtomicUsize>,
}

impl ChatWorkers {
    /// `answer` runs the turn for one owed message and delivers it.
    pub fn new<F, Fut>(channel: &'static str, answer: F) -> Self
    where
        F: Fn(Pending) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let answer = Arc::new(answer);
        Self {
            channel,
            answer: Arc::new(move |p| {
                let answer = answer.clone();
                Box::pin(async move { given_despite_bugs(channel, &*answer, p).await })
            }),
            coordinator: None,
            idle_after: IDLE_AFTER,
            inner: Mutex::default(),
            intake: IntakeLine::default(),
            rate: Mutex::new(SenderRate::new(0)),
            closing: CancellationToken::new(),
        }
    }

    /// The same, with `per_min` answers per person per minute in groups (0 = no limit).
    pub fn with_group_rate(self, per_min: u32) -> Self {
        *lock(&self.rate) = SenderRate::new(per_min);
        self
    }

    /// The same, answering under the chats' turn locks when `agent`'s database may be shared
    /// by several replicas (PostgreSQL); owed answers older than `backlog_mins` are not given.
    pub fn coordinated(mut self, agent: Arc<Agent>, backlog_mins: u32) -> Self {
        if agent.store().coordinates_turns() {
            self.coordinator = Some(Coordinator {
                agent,
                backlog_mins,
                in_flight: Arc::default(),
            });
        }
        self
    }

    /// The same, with idle workers retired after `idle_after` (tests).
    pub fn with_idle_after(mut self, idle_after: Duration) -> Self {
        self.idle_after = idle_after;
        self
    }

    /// Puts a new message in line to be stored (see `group_commit`): messages are stored,
    /// and their answers queued, in the order of these calls.
    pub fn line_up(&self, msg: IncomingMessage) -> Ticket {
        self.intake.line_up(msg)
    }

    /// Waits until `ticket`'s message is stored and its answer queued: stored together with
    /// whatever else is in line then. One store at a time for all chats: measured with the
    /// load bench on 2 cores, intakes side by side were slower, not faster (SQLite writes one
    /// at a time anyway; a PostgreSQL server shares the cores), and the turns' own reads and
    /// writes waited behind them.
    pub async fn take_in(
        &self,
        agent: &Agent,
        ticket: Ticket,
        shutdown: &CancellationToken,
    ) -> Taken {
        self.intake.take_in(agent, self, ticket, shutdown).await
    }

    /// Whether `sender` may be answered in group `chat` now (the group rate limit).
    pub fn check_rate(&self, chat: &str, sender: &str, now_ms: i64) -> Rate {
        lock(&self.rate).check(chat, sender, now_ms)
    }

    /// Queues a new message's answer, unless its chat already has [`QUEUE_LIMIT`] waiting:
    /// then it is handed back (boxed: the rare case), for the channel to say so.
    pub fn try_dispatch(&self, pending: Pending) -> Result<(), Box<Pending>> {
        let mut inner = lock(&self.inner);
        if let Some(q) = inner.queues.get(&pending.chat.to_string())
            && !q.tx.is_closed()
            && q.waiting.load(Ordering::SeqCst) >= QUEUE_LIMIT
        {
            return Err(Box::new(pending));
        }
        self.dispatch_locked(&mut inner, pending);
        Ok(())
    }

    /// Queues `pending` behind the answers its chat already owes.
    pub fn dispatch(&self, pending: Pending) {
        self.dispatch_locked(&mut lock(&self.inner), pending);
    }

    fn dispatch_locked(&self, inner: &mut Inner, pending: Pending) {
        if inner.closed {
            // Shutting down: it stays owed, and the next start answers it.
            tracing::debug!(chat = %pending.chat, "shutting down; an answer is left for the next start");
            return;
        }
        inner.reap();
        if let Some(c) = &self.coordinator {
            c.in_flight().insert(pending.message_id);
        }
        let chat = pending.chat.to_string();
        let pending = match inner.queues.get(&chat) {
            Some(q) => {
                q.waiting.fetch_add(1, Ordering::SeqCst);
                match q.tx.send(pending) {
                    Ok(()) => return,
                    // The worker ended (idle): start a new one.
                    Err(mpsc::error::SendError(p)) => p,
                }
            }
            None => pending,
        };
        let (tx, mut rx) = mpsc::unbounded_channel::<Pending>();
        let waiting = Arc::new(AtomicUsize::new(1));
        let _ = tx.send(pending);
        inner.queues.insert(
            chat,
            Queue {
                tx,
                waiting: waiting.clone(),
            },
        );
        let answer = self.answer.clone();
        let idle_after = self.idle_after;
        let coordinator = self.coordinator.clone();
        let closing = self.closing.clone();
        inner.tasks.spawn(async move {
            loop {
                let next = match tokio::time::timeout(idle_after, rx.recv()).await {
                    Ok(next) => next,
                    Err(_idle) => {
                        // Refuse new work, then finish what slipped in meanwhile.
                        rx.close();
                        rx.recv().await
                    }
                };
                let Some(p) = next else { break };
                if closing.is_cancelled() {
                    // Shutting down: no new turn; this one and those behind it stay owed.
                    break;
                }
                waiting.fetch_sub(1, Ordering::SeqCst);
                match &coordinator {
                    Some(c) => {
                        let id = p.message_id;
                        answer_in_turn(c, p, &answer, &closing).await;
                        c.in_flight().remove(&id);
                    }
                    None => answer(p).await,
                }
            }
        });
    }

    /// Chats with a live worker.
    pub fn live(&self) -> usize {
        let inner = lock(&self.inner);
        inner.queues.values().filter(|q| !q.tx.is_closed()).count()
    }

    /// Queues the answers this channel still owes from before this start (a crash or shutdown
    /// came between storing and delivering), for messages at most `backlog_mins` old. Finding
    /// them is retried while the database is busy, until `shutdown`.
    pub async fn dispatch_owed(
        &self,
        agent: &Agent,
        backlog_mins: u32,
        shutdown: &tokio_util::sync::CancellationToken,
    ) {
        let since = backlog_since(backlog_mins);
        let owed = super::retry::retry_until("find the answers owed", shutdown, || {
            agent.awaiting_reply(self.channel, since)
        })
        .await;
        for pending in owed.unwrap_or_default() {
            self.dispatch(pending);
        }
    }

    /// Where several replicas answer (coordinated), what finds the answers none is giving;
    /// `None` otherwise (SQLite: one process, nothing to sweep).
    pub fn overdue(&self) -> Option<Overdue> {
        self.coordinator.clone().map(|coordinator| Overdue {
            channel: self.channel,
            coordinator,
        })
    }

    /// Queues the answers [`Overdue::find`] found, unless a worker here took one meanwhile.
    pub fn dispatch_overdue(&self, owed: Vec<Pending>) {
        for pending in owed {
            let known = self
                .coordinator
                .as_ref()
                .is_some_and(|c| c.in_flight().contains(&pending.message_id));
            if !known {
                self.dispatch(pending);
            }
        }
    }

    /// Closes the queues and lets the answers being given finish, for [`DRAIN_TIMEOUT`] at
    /// most; no other turn starts. What is still queued, or dispatched afterwards, stays owed
    /// for the next start.
    pub async fn drain(&self) {
        self.closing.cancel();
        let mut tasks = {
            let mut inner = lock(&self.inner);
            inner.closed = true;
            inner.queues.clear();
            std::mem::take(&mut inner.tasks)
        };
        let all = async { while tasks.join_next().await.is_some() {} };
        if tokio::time::timeout(DRAIN_TIMEOUT, all).await.is_err() {
            tracing::warn!(
                "{}: answers still running at shutdown are left for the next start",
                self.channel
            );
        }
    }
}

impl Inner {
    /// Forgets the queues of workers that ended, and their finished tasks.
    fn reap(&mut self) {
        while self.tasks.try_join_next().is_some() {}
        if self.queues.len() > 64 {
            self.queues.retain(|_, q| !q.tx.is_closed());
        }
    }
}

/// A mutex's guard; a panic elsewhere while it was held does not make it unusable (what it
/// guards stays consistent: every change under it is one step).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Answers `pending` under its chat's turn lock (several replicas): once the lock is taken,
/// the chat's owed messages oldest first — this one among them, and any that another replica
/// stored — each once; while another replica holds it, waits, since that one answers the
/// chat's owed messages too (or dies, and its lock with it). Done once `pending` is no longer
/// owed. No answer starts once `closing`: the turn is given back, the rest stays owed.
async fn answer_in_turn(
    c: &Coordinator,
    pending: Pending,
    answer: &Answer,
    closing: &CancellationToken,
) {
    let store = c.agent.store();
    let mut wait = Duration::from_millis(25);
    let chat = pending.chat_id;
    let mut first = true;
    // The database failed since it last answered (it is down, or restarting): said once,
    // and asked less often — every chat with an answer owed is in this loop meanwhile, and
    // each ask is a connection attempt.
    let mut trouble = false;
    loop {
        // Whether it is still owed is asked only once the turn was not free: the holder of a
        // free turn reads what its chat owes anyway (one round trip less per answer).
        if !std::mem::take(&mut first) {
            match store.is_owed(pending.message_id).await {
                Ok(false) => return,
                Ok(true) => trouble = false,
                Err(e) if !trouble => {
                    trouble = true;
                    tracing::warn!(error = %e, chat = %pending.chat, "could not check an owed answer; retrying until the database answers");
                }
                Err(e) => {
                    tracing::debug!(error = %e, chat = %pending.chat, "could not check an owed answer; retrying")
                }
            }
        }
        let taken = store.try_take_turn(chat).await;
        if taken.is_err() {
            trouble = true;
        }
        if let Ok(true) = taken {
            let since = backlog_since(c.backlog_mins);
            let mut given = HashSet::new();
            loop {
                let owed = match store.owed_in_chat(chat, since).await {
                    Ok(owed) => owed,
                    Err(e) => {
                        tracing::warn!(error = %e, "could not read a chat's owed answers");
                        break;
                    }
                };
                for next in owed {
                    if closing.is_cancelled() {
                        break;
                    }
                    if given.insert(next.id) {
                        answer(pending.beside(next)).await;
                    }
                }
                if closing.is_cancelled() {
                    break;
                }
                // Not among them (sent before the backlog window, or read before it was
                // committed), yet still owed: it is this turn's to answer.
                if !given.contains(&pending.message_id)
                    && store.is_owed(pending.message_id).await.unwrap_or(false)
                {
                    given.insert(pending.message_id);
                    answer(pending.clone()).await;
                }
                // Given back, unless an answer came to be owed meanwhile (a message another
                // replica stored): then it is read and answered under the same turn.
                let answered: Vec<i64> = given.iter().copied().collect();
                match store.keep_turn_if_owed(chat, since, &answered).await {
                    Ok(true) => continue,
                    Ok(false) => return,
                    Err(e) => {
                        tracing::warn!(error = %e, "could not give a chat's turn back; its connection is renewed");
                        return;
                    }
                }
            }
            if let Err(e) = store.end_turn(chat).await {
                tracing::warn!(error = %e, "could not give a chat's turn back; its connection is renewed");
            }
            return;
        }
        tokio::time::sleep(wait).await;
        wait = (wait * 2).min(if trouble {
            TROUBLE_WAIT
        } else {
            Duration::from_millis(500)
        });
    }
}

/// Runs `answer` for `pending`; should it panic (a bug meeting something nobody foresaw), the
/// panic is logged and the answer run again, up to [`MAX_REPLY_ATTEMPTS`] times more: each
/// run counts a turn, so the last one tells the user the message could not be answered
/// ([`crate::agent::GAVE_UP`]) instead of meeting the bug once more. The chat's worker goes
/// on with its next message either way; what is still unanswered stays owed.
async fn given_despite_bugs<Fut: Future<Output = ()>>(
    channel: &'static str,
    answer: &impl Fn(Pending) -> Fut,
    pending: Pending,
) {
    for _ in 0..=MAX_REPLY_ATTEMPTS {
        if contained("an answer", answer(pending.clone()))
            .await
            .is_ok()
        {
            return;
        }
    }
    tracing::error!(
        channel,
        chat = %pending.chat,
        message_id = pending.message_id,
        "an answer kept meeting a bug; the message stays owed"
    );
}

/// Longest wait between a turn's tries while the database fails.
const TROUBLE_WAIT: Duration = Duration::from_secs(5);

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;
    use crate::base::ChatKey;

    fn pending(chat: &str, message_id: i64) -> Pending {
        let chat = chat.parse::<ChatKey>().unwrap();
        Pending {
            chat_id: chat.external_id.parse().unwrap(),
            chat,
            is_group: false,
            message_id,
            platform_message_id: None,
            platform_thread_id: None,
        }
    }

    /// Polls `cond` every few milliseconds for up to 5 s.
    async fn eventually(what: &str, cond: impl Fn() -> bool) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        while !cond() {
            assert!(tokio::time::Instant::now() < deadline, "timed out: {what}");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    #[tokio::test]
    async fn idle_workers_end_and_the_next_message_starts_a_new_one_in_order() {
        let answered = Arc::new(Mutex::new(Vec::new()));
        let log = answered.clone();
        let workers = ChatWorkers::new("test", move |p: Pending| {
            let log = log.clone();
            async move { log.lock().unwrap().push(p.message_id) }
        })
        .with_idle_after(Duration::from_millis(30));
        for id in 1..=3 {
            workers.dispatch(pending("telegram:1", id));
        }
        workers.dispatch(pending("telegram:2", 10));
        eventually("both workers retire", || workers.live() == 0).await;
        assert_eq!(*answered.lock().unwrap(), [1, 2, 3, 10]);

        workers.dispatch(pending("telegram:1", 4));
        eventually("a new worker answers", || {
            answered.lock().unwrap().len() == 5
        })
        .await;
        assert_eq!(answered.lock().unwrap()[4], 4);
        workers.drain().await;
    }

    /// A panic while answering is contained: the message is tried again (each try counts a
    /// turn, the last of which gives up with a reply), and the chat's next messages are
    /// answered by the same worker, in order.
    #[tokio::test]
    async fn an_answer_that_panics_is_tried_again_and_the_chat_goes_on() {
        let tries = Arc::new(Mutex::new(Vec::new()));
        let log = tries.clone();
        let workers = ChatWorkers::new("test", move |p: Pending| {
            let log = log.clone();
            async move {
                let tried = {
                    let mut log = log.lock().unwrap();
                    log.push(p.message_id);
                    log.iter().filter(|&&id| id == p.message_id).count()
                };
                tokio::task::yield_now().await;
                // 2 meets a bug twice, then is answered; 3 meets it every time
                if (p.message_id == 2 && tried <= 2) || p.message_id == 3 {
                    panic!("a bug in answering {}", p.message_id);
                }
            }
        });
        for id in 1..=4 {
            workers.dispatch(pending("telegram:1", id));
        }
        let all = 1 + 3 + (MAX_REPLY_ATTEMPTS as usize + 1) + 1;
        eventually("every try is made", || tries.lock().unwrap().len() == all).await;
        let mut expected = vec![1, 2, 2, 2];
        expected.extend(std::iter::repeat_n(3, MAX_REPLY_ATTEMPTS as usize + 1));
        expected.push(4);
        assert_eq!(*tries.lock().unwrap(), expected);
        assert_eq!(workers.live(), 1, "the chat's worker is still there");
        workers.dispatch(pending("telegram:1", 5));
        eventually("the next message", || {
            tries.lock().unwrap().last() == Some(&5)
        })
        .await;
        workers.drain().await;
    }

    #[tokio::test]
    async fn a_chat_queue_holds_a_bounded_number_of_new_messages() {
        let gate = Arc::new(tokio::sync::Semaphore::new(0));
        let open = gate.clone();
        let workers = ChatWorkers::new("test", move |_p: Pending| {
            let gate = gate.clone();
            async move {
                let _ = gate.acquire().await;
            }
        });
        workers.dispatch(pending("telegram:1", 0));
        // The first one is being answered (taken off the queue) once the queue has room again.
        eventually("the first turn starts", || {
            lock(&workers.inner).queues["telegram:1"]
                .waiting
                .load(Ordering::SeqCst)
                == 0
        })
        .await;
        for id in 1..=QUEUE_LIMIT as i64 {
            assert!(workers.try_dispatch(pending("telegram:1", id)).is_ok());
        }
        let refused = workers.try_dispatch(pending("telegram:1", 99)).unwrap_err();
        assert_eq!(refused.message_id, 99);
        // Another chat is not affected, and owed answers (dispatch) are never refused.
        assert!(workers.try_dispatch(pending("telegram:2", 1)).is_ok());
        workers.dispatch(pending("telegram:1", 100));
        open.add_permits(100);
        workers.drain().await;
    }

    #[tokio::test]
    async fn draining_finishes_the_answer_being_given_and_starts_no_other() {
        let answered = Arc::new(Mutex::new(Vec::new()));
        let started = Arc::new(tokio::sync::Notify::new());
        let open = Arc::new(tokio::sync::Semaphore::new(0));
        let (log, began, gate) = (answered.clone(), started.clone(), open.clone());
        let workers = ChatWorkers::new("test", move |p: Pending| {
            let (log, began, gate) = (log.clone(), began.clone(), gate.clone());
            async move {
                began.notify_one();
                gate.acquire().await.unwrap().forget();
                log.lock().unwrap().push(p.message_id)
            }
        });
        workers.dispatch(pending("telegram:1", 1));
        workers.dispatch(pending("telegram:1", 2));
        started.notified().await;
        // The shutdown begins while the first answer is being given; then it is done.
        tokio::join!(workers.drain(), async { open.add_permits(10) });
        assert_eq!(
            *answered.lock().unwrap(),
            [1],
            "the answer being given finishes; the one queued behind it stays owed"
        );
        // A message stored while shutting down stays owed: not answered here.
        workers.dispatch(pending("telegram:1", 2));
        assert!(workers.try_dispatch(pending("telegram:2", 3)).is_ok());
        assert_eq!(workers.live(), 0);
        tokio::task::yield_now().await;
        assert_eq!(*answered.lock().unwrap(), [1]);
    }
}
