//! The reflector on the daemon's clock (`mneme start`).
//!
//! `reflector_interval_mins` (the default) runs here on a tokio interval: a pass is awaited
//! before the next tick is, so passes never overlap, and `MissedTickBehavior::Delay` makes a
//! pass longer than the period push the next one back instead of firing a burst; shutdown is
//! one `select!` on the token. With `reflector_schedule` set, the calendar
//! (`super`) runs [`scheduled_pass`] instead. Either way every pass is recorded as
//! the `reflector` job (last run, next run).

use std::sync::Arc;
use std::time::Duration;

use tokio::task::JoinHandle;
use tokio::time::MissedTickBehavior;
use tokio_util::sync::CancellationToken;

use super::{OneAtATime, run_recorded};
use crate::config::Config;
use crate::llm::LlmProvider;
use crate::memories::Memories;
use crate::memories::retrieval::Retriever;
use crate::reflector::{Policy, Reflector};
use crate::store::now_ms;

/// Starts the reflector's interval schedule: a pass now (to catch up on what arrived while
/// the daemon was down), then one every `reflector_interval_mins`, until `shutdown` is
/// cancelled. With `reflector_enabled: false`, or a `reflector_schedule` (the calendar runs
/// it then), the returned task ends at once.
pub fn spawn(
    config: Arc<Config>,
    retriever: Retriever,
    llm: Arc<dyn LlmProvider>,
    shutdown: CancellationToken,
) -> JoinHandle<()> {
    if !config.reflector_enabled {
        tracing::info!("reflector disabled (reflector_enabled: false)");
        return tokio::spawn(async {});
    }
    if !config.reflector_schedule.trim().is_empty() {
        return tokio::spawn(async {});
    }
    let reflector = Arc::new(Reflector::with_retriever(&config, retriever, llm));
    let period = reflector.settings().interval;
    spawn_every(reflector, period, shutdown)
}

/// [`spawn`] with any period. Cancelling `shutdown` abandons an LLM call in flight (its batch
/// is retried next start), lets a batch being stored finish, and ends the task.
pub fn spawn_every(
    reflector: Arc<Reflector>,
    period: Duration,
    shutdown: CancellationToken,
) -> JoinHandle<()> {
    tokio::spawn(async move {
        let store = reflector.store().clone();
        let schedule = match period.as_secs() {
            s if s >= 60 && s % 60 == 0 => format!("every {} min", s / 60),
            s => format!("every {s} s"),
        };
        if let Err(e) = store
            .job_scheduled("reflector", &schedule, Some(now_ms()))
            .await
        {
            tracing::warn!(error = %e, "could not record the reflector's schedule");
        }
        let once = OneAtATime::default();
        let step = i64::try_from(period.as_millis()).unwrap_or(i64::MAX);
        let mut ticks = tokio::time::interval(period);
        ticks.set_missed_tick_behavior(MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                biased;
                () = shutdown.cancelled() => break,
                _ = ticks.tick() => {}
            }
            let work = scheduled_pass(&reflector, &shutdown);
            run_recorded(
                &store,
                "reflector",
                &once,
                |end| end.checked_add(step),
                work,
            )
            .await;
        }
        tracing::info!("reflector stopped");
    })
}

/// One pass of the daemon's schedule, in its own task (a bug panicking in one pass costs that
/// pass, not the schedule), logged and counted; Err with a one-line reason.
pub async fn scheduled_pass(
    reflector: &Arc<Reflector>,
    shutdown: &CancellationToken,
) -> Result<(), String> {
    let (r, token) = (reflector.clone(), shutdown.clone());
    let started = std::time::Instant::now();
    let pass = tokio::spawn(async move { r.scheduled_pass(now_ms(), &token).await });
    match pass.await {
        Ok(Ok(report)) => {
            record_metrics(started.elapsed(), &report);
            let failed = report.chats.iter().filter(|c| c.failure.is_some()).count();
            tracing::info!(
                chats = report.chats.len(),
                failed,
                backing_off = report.backing_off.len(),
                archived = report.lifecycle.stale + report.lifecycle.over_cap,
                "reflector pass done"
            );
            match (failed, &report.lifecycle_error) {
                (0, None) => Ok(()),
                (0, Some(e)) => Err(format!("lifecycle sweep failed: {e}")),
                (n, _) => Err(format!("{n} of {} chats failed", report.chats.len())),
            }
        }
        Ok(Err(e)) => Err(format!("pass failed: {e}")),
        Err(e) => {
            tracing::error!(error = %e, "reflector pass panicked; the schedule goes on");
            Err(format!("pass panicked: {e}"))
        }
    }
}

/// The lifecycle sweep on its own (`lifecycle_schedule`): archive what has faded, enforce
/// the caps, then merge duplicates that slipped through (consolidation).
pub async fn sweep(memories: &Memories, policy: &Policy, now: i64) -> Result<(), String> {
    let report = crate::reflector::lifecycle_sweep(memories.store(), policy, now)
        .await
        .map_err(|e| format!("lifecycle sweep failed: {e}"))?;
    let done = memories
        .consolidate_all()
        .await
        .map_err(|e| format!("consolidation failed: {e}"))?;
    tracing::info!(
        stale = report.stale,
        over_cap = report.over_cap,
        merged = done.merged,
        replaced = done.replaced,
        "lifecycle sweep done"
    );
    Ok(())
}

/// A finished pass in the process's metrics: its duration, each chat's outcome, the facts it
/// handled.
fn record_metrics(took: std::time::Duration, report: &crate::reflector::PassReport) {
    use crate::reflector::Failure;
    let metrics = crate::metrics::metrics();
    metrics.reflector_pass(took);
    for chat in &report.chats {
        let outcome = match &chat.failure {
            None => "ok",
            Some(Failure::Llm(_)) => "llm_error",
            Some(Failure::Parse(_)) => "parse_error",
            Some(Failure::Store(_)) => "store_error",
            Some(Failure::Bug(_)) => "bug",
            Some(Failure::Interrupted) => "interrupted",
        };
        let s = &chat.stats;
        metrics.reflector_chat_run(
            outcome,
            &[
                ("extracted", s.extracted),
                ("inserted", s.inserted),
                ("updated", s.updated),
                ("superseded", s.superseded),
                ("skipped", s.skipped),
            ],
        );
    }
}
