//! Web answers owed: those a shutdown cut off, given at the next start, and — where several
//! replicas share a PostgreSQL database — those a replica left when it died, given by another.
//!
//! A web turn holds its chat's turn across replicas (as every channel's does) after its place
//! in this process's line, always in that order; the sweep lines up the same way, so it never
//! answers a message this process is answering or is about to, and takes a chat's turn only
//! when no live replica holds it.

use std::sync::Arc;
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use super::CHANNEL;
use crate::agent::{Agent, Pending, Place, ReplyKind};
use crate::channels::intake::retry_until;
use crate::channels::turn::Delivery;
use crate::channels::workers::backlog_since;
use crate::store::now_ms;

/// How old a web message cut off by a shutdown may be and still be answered at the next start.
const OWED_WITHIN_MINS: u32 = 60;

/// How often a replica looks for web answers another one left, and how old a message must be
/// to count: one just stored is its own request's to answer.
const SWEEP_EVERY: Duration = Duration::from_secs(3);

/// What taking a chat's turn across replicas gave.
pub(super) enum Turn {
    /// Taken, and the message is still owed: this process answers it, then gives it back.
    Owed,
    /// Taken, but the message was answered meanwhile (by another replica); given back.
    Answered,
    /// Another replica holds it (not waited for), or the database could not tell.
    Busy,
    /// The daemon is stopping.
    Stopping,
}

/// Takes `pending`'s chat turn across replicas (a process holding its place in the chat's line
/// here): while another replica holds it, waits when `wait` (that one gives it back, or dies
/// and its lock with it), else says [`Turn::Busy`]. Always free on SQLite.
pub(super) async fn take(
    agent: &Agent,
    pending: &Pending,
    shutdown: &CancellationToken,
    wait: bool,
) -> Turn {
    let store = agent.store();
    let mut pause = Duration::from_millis(25);
    loop {
        match store.try_take_turn(pending.chat_id).await {
            Ok(true) => break,
            Ok(false) if !wait => return Turn::Busy,
            Ok(false) => {}
            Err(e) if !wait => {
                tracing::debug!(chat = %pending.chat, error = %e, "web: cannot take a chat's turn");
                return Turn::Busy;
            }
            Err(e) => {
                tracing::debug!(chat = %pending.chat, error = %e, "web: cannot take a chat's turn yet")
            }
        }
        tokio::select! {
            () = tokio::time::sleep(pause) => {}
            () = shutdown.cancelled() => return Turn::Stopping,
        }
        pause = (pause * 2).min(Duration::from_secs(1));
    }
    match store.is_owed(pending.message_id).await {
        Ok(true) => Turn::Owed,
        Ok(false) => {
            give_back(agent, pending).await;
            Turn::Answered
        }
        Err(e) => {
            tracing::warn!(chat = %pending.chat, error = %e, "web: cannot tell whether a message is still owed");
            give_back(agent, pending).await;
            Turn::Busy
        }
    }
}

/// Gives `pending`'s chat turn back (nothing on SQLite).
pub(super) async fn give_back(agent: &Agent, pending: &Pending) {
    if let Err(e) = agent.store().end_turn(pending.chat_id).await {
        tracing::warn!(chat = %pending.chat, error = %e, "web: could not give a chat's turn back; its connection is renewed");
    }
}

/// Answers the web messages a shutdown cut off, oldest first, until done or `shutdown`: those
/// stored before `started_ms`, when this start began serving. A message stored since is
/// answered by its own request; looking for owed answers may take a while (a database busy at
/// start) and would otherwise find it mid-turn and answer it twice. Replicas starting together
/// each find the same message: it is answered under its chat's turn, only while still owed.
pub(super) async fn answer_cut_off(
    agent: Arc<Agent>,
    started_ms: i64,
    shutdown: CancellationToken,
) {
    let since = backlog_since(OWED_WITHIN_MINS);
    let owed = retry_until("find the web answers owed", &shutdown, || {
        agent.overdue(CHANNEL, since, started_ms)
    })
    .await
    .unwrap_or_default();
    for pending in owed {
        if !answer_in_turn(&agent, &pending, &shutdown, true).await {
            return;
        }
    }
}

/// Every [`SWEEP_EVERY`], where several replicas answer: the web messages owed for longer
/// than that whose chat no live replica is answering (the one that stored it died) are
/// answered here, into the history the page shows when it is opened again.
pub(super) async fn sweep(agent: Arc<Agent>, shutdown: CancellationToken) {
    if !agent.store().coordinates_turns() {
        return;
    }
    let mut ticks = tokio::time::interval(SWEEP_EVERY);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = ticks.tick() => {}
            () = shutdown.cancelled() => return,
        }
        let before = now_ms() - i64::try_from(SWEEP_EVERY.as_millis()).unwrap_or(i64::MAX);
        let owed = match agent
            .overdue(CHANNEL, backlog_since(OWED_WITHIN_MINS), before)
            .await
        {
            Ok(owed) => owed,
            Err(e) => {
                tracing::debug!(error = %e, "web: could not look for owed answers");
                continue;
            }
        };
        for pending in owed {
            if !answer_in_turn(&agent, &pending, &shutdown, false).await {
                return;
            }
        }
    }
}

/// Answers `pending` in its place in the chat's line and under its chat's turn across
/// replicas (waited for when `wait`), if still owed then. `false` once the daemon is stopping.
async fn answer_in_turn(
    agent: &Arc<Agent>,
    pending: &Pending,
    shutdown: &CancellationToken,
    wait: bool,
) -> bool {
    let place = agent.line_up(&pending.chat);
    let held = tokio::select! {
        held = place.take() => held,
        () = shutdown.cancelled() => return false,
    };
    match take(agent, pending, shutdown, wait).await {
        Turn::Owed => {}
        Turn::Answered | Turn::Busy => return true,
        Turn::Stopping => return false,
    }
    tracing::info!(chat = %pending.chat, "web: answering a message whose answer was cut off");
    let answered = tokio::select! {
        r = agent.answer_first_in(Place::Held(held), pending) => Some(r),
        () = shutdown.cancelled() => None,
    };
    match answered {
        // The reply goes into the chat's history, marked delivered; the page shows it. A
        // failed answer (the model did not answer) reaches nobody: the message stays owed,
        // tried again by the next sweep or start until its tries are used up.
        Some(Ok(answer)) => {
            let given = answer.reply.kind != ReplyKind::Error;
            if !given {
                tracing::warn!(chat = %pending.chat, reply = %answer.reply.text, "web: an owed answer failed; tried again later");
            }
            Delivery::from(answer).finish(agent, pending, given).await
        }
        Some(Err(e)) => {
            tracing::warn!(chat = %pending.chat, error = %e, "web: an owed answer failed; tried again later")
        }
        None => {}
    }
    give_back(agent, pending).await;
    !shutdown.is_cancelled()
}
