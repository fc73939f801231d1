//! Passes on a timer, for the daemon (`mneme start`).
//!
//! A tokio interval rather than a cron scheduler: the schedule is one fixed period with no
//! calendar in it, so an interval says all there is to say without another dependency or a
//! scheduler thread; a pass is awaited before the next tick is, so passes never overlap, and
//! `MissedTickBehavior::Delay` makes a pass longer than the period push the next one back
//! instead of firing a burst to catch up; shutdown is one `select!` on the token; and tests
//! drive it with a short period directly.

use std::sync::Arc;
use std::time::Duration;

use tokio::task::JoinHandle;
use tokio::time::MissedTickBehavior;
use tokio_util::sync::CancellationToken;

use super::{Reflector, Target};
use crate::config::Config;
use crate::llm::LlmProvider;
use crate::retrieval::Retriever;
use crate::store::now_ms;

/// Starts the reflector's schedule: a pass now (to catch up on what arrived while the daemon
/// was down), then one every `reflector_interval_mins`, until `shutdown` is cancelled. With
/// `reflector_enabled: false` the returned task ends at once.
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
        let mut ticks = tokio::time::interval(period);
        ticks.set_missed_tick_behavior(MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                biased;
                () = shutdown.cancelled() => break,
                _ = ticks.tick() => {}
            }
            // Its own task, so that a bug panicking in one pass costs that pass, not the
            // schedule.
            let (r, token) = (reflector.clone(), shutdown.clone());
            let started = std::time::Instant::now();
            let pass =
                tokio::spawn(async move { r.run_pass(&Target::Due, now_ms(), &token).await });
            match pass.await {
                Ok(Ok(report)) => {
                    crate::metrics::metrics().reflector_pass(started.elapsed(), &report);
                    let failed = report.chats.iter().filter(|c| c.failure.is_some()).count();
                    tracing::info!(
                        chats = report.chats.len(),
                        failed,
                        backing_off = report.backing_off.len(),
                        archived = report.lifecycle.stale + report.lifecycle.over_cap,
                        "reflector pass done"
                    );
                }
                Ok(Err(e)) => tracing::warn!(error = %e, "reflector pass failed"),
                Err(e) => {
                    tracing::error!(error = %e, "reflector pass panicked; the schedule goes on")
                }
            }
        }
        tracing::info!("reflector stopped");
    })
}
