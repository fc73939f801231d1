//! Jobs on a calendar, for the daemon (`mneme start`), on tokio-cron-scheduler, in
//! `schedule_timezone`: the reflector when `reflector_schedule` is set (otherwise its interval
//! timer, `schedule::reflector::spawn`, runs it), the lifecycle sweep (`lifecycle_schedule`), the
//! backup (`backup_schedule`, nightly at 03:00 by default) and the logs' pruning
//! (`log_retention_days`, daily at 04:00).
//!
//! Cron expressions have six fields (second minute hour day month weekday); the common
//! five-field form is accepted and runs at second 0 (`cron.rs`). A job never overlaps itself:
//! a tick that finds the previous run still going is skipped, and says so in the log. Every
//! run is recorded (`scheduled_jobs`: last start, end, outcome, next run) for `mneme usage`
//! and the console. The scheduler stops with the daemon, waiting a bounded time for a run
//! in progress.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use tokio_cron_scheduler::{Job, JobScheduler};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

pub use crate::config::cron::{describe, next_run, parse_cron, parse_timezone};

use crate::config::Config;
use crate::reflector::Reflector;
use crate::store::{Store, now_ms};

pub mod reflector;

/// One run of a job: its outcome, Err with a one-line reason.
type Work = Pin<Box<dyn Future<Output = Result<(), String>> + Send>>;

/// Lets a job run once at a time: a run that finds the previous one going is skipped.
#[derive(Clone, Default)]
pub struct OneAtATime(Arc<tokio::sync::Mutex<()>>);

impl OneAtATime {
    /// Runs `work` unless the last run is still going; `false` when skipped.
    pub async fn run(&self, job: &str, work: impl Future<Output = ()>) -> bool {
        match self.0.try_lock() {
            Ok(_running) => {
                work.await;
                true
            }
            Err(_) => {
                tracing::warn!(job, "the previous run is still going; this one is skipped");
                false
            }
        }
    }
}

/// Runs `work` as job `name` unless its last run is still going, recording the run: its
/// start, its end with the outcome, and the next run (`next` from the end time).
pub async fn run_recorded(
    store: &Store,
    name: &str,
    once: &OneAtATime,
    next: impl Fn(i64) -> Option<i64>,
    work: impl Future<Output = Result<(), String>>,
) -> bool {
    // With several replicas on one database, the scheduled jobs are the lease holder's.
    if !store.lease_book().allows(crate::store::SCHEDULE) {
        tracing::debug!(
            job = name,
            "another replica holds the schedule; not run here"
        );
        return false;
    }
    once.run(name, async {
        if let Err(e) = store.job_started(name, now_ms()).await {
            tracing::warn!(job = name, error = %e, "could not record the job's start");
        }
        let outcome = work.await;
        if let Err(e) = &outcome {
            tracing::error!(job = name, error = %e, "scheduled job failed");
        }
        let end = now_ms();
        if let Err(e) = store
            .job_finished(
                name,
                end,
                outcome.as_ref().err().map(String::as_str),
                next(end),
            )
            .await
        {
            tracing::warn!(job = name, error = %e, "could not record the job's end");
        }
    })
    .await
}

/// The running scheduler; [`Scheduler::stop`] ends it.
pub struct Scheduler {
    inner: JobScheduler,
    runs: TaskTracker,
    store: Store,
}

/// When the logs are pruned (`log_retention_days`): daily at 04:00.
const PRUNE_SCHEDULE: &str = "0 0 4 * * *";

/// One pruning of the logs: what is older than `days` days before `now`.
pub async fn prune_logs(store: &Store, days: i64, now: i64) -> Result<(), String> {
    let pruned = store
        .prune_logs(now - days * 86_400_000)
        .await
        .map_err(|e| format!("pruning the logs: {e}"))?;
    tracing::info!(
        injections = pruned.injections,
        reflector_runs = pruned.reflector_runs,
        usage_rolled_up = pruned.usage_rolled_up,
        days,
        "logs pruned"
    );
    Ok(())
}

/// How long `stop` waits for a run in progress (the daemon has 10 s in all).
const STOP_WAIT: Duration = Duration::from_secs(6);

impl Scheduler {
    /// Starts the calendar jobs the config asks for. `reflector` is the reflector when it is
    /// on; with `reflector_schedule` set it runs here (a catch-up pass now, then on the
    /// schedule). `shutdown` interrupts a reflector pass.
    pub async fn start(
        config: Arc<Config>,
        store: Store,
        reflector: Option<Arc<Reflector>>,
        shutdown: CancellationToken,
    ) -> anyhow::Result<Self> {
        let tz = parse_timezone(&config.schedule_timezone).map_err(anyhow::Error::msg)?;
        let mut me = Self {
            inner: JobScheduler::new().await?,
            runs: TaskTracker::new(),
            store: store.clone(),
        };
        let sweep_with_pass = config.lifecycle_schedule.trim().is_empty();
        match reflector {
            Some(reflector) if !config.reflector_schedule.trim().is_empty() => {
                let once = OneAtATime::default();
                let make = move || -> Work {
                    let (r, token) = (reflector.clone(), shutdown.clone());
                    Box::pin(async move { reflector::scheduled_pass(&r, &token).await })
                };
                let expr = me
                    .add(
                        &store,
                        tz,
                        "reflector",
                        &config.reflector_schedule,
                        once.clone(),
                        make.clone(),
                    )
                    .await?;
                // catch up on what arrived while the daemon was down
                let store = store.clone();
                me.runs.spawn(async move {
                    run_recorded(
                        &store,
                        "reflector",
                        &once,
                        |t| next_run(&expr, tz, t),
                        make(),
                    )
                    .await;
                });
            }
            // off, or on its interval (`schedule::reflector::spawn`, which records it)
            _ if !config.reflector_enabled => store.job_unscheduled("reflector").await?,
            _ => {}
        }
        if sweep_with_pass {
            store.job_unscheduled("lifecycle").await?;
        } else {
            let memories = crate::memories::Memories::new(
                crate::memories::retrieval::Retriever::new(&config, store.clone(), None),
            );
            let policy = crate::reflector::Policy::from_config(&config);
            let make = move || -> Work {
                let (memories, policy) = (memories.clone(), policy.clone());
                Box::pin(async move { reflector::sweep(&memories, &policy, now_ms()).await })
            };
            me.add(
                &store,
                tz,
                "lifecycle",
                &config.lifecycle_schedule,
                OneAtATime::default(),
                make,
            )
            .await?;
        }
        if config.log_retention_days == 0 {
            store.job_unscheduled("prune_logs").await?;
        } else {
            let (days, store2) = (i64::from(config.log_retention_days), store.clone());
            let make = move || -> Work {
                let store = store2.clone();
                Box::pin(async move { prune_logs(&store, days, now_ms()).await })
            };
            me.add(
                &store,
                tz,
                "prune_logs",
                PRUNE_SCHEDULE,
                OneAtATime::default(),
                make,
            )
            .await?;
        }
        let postgres = store.backend() == crate::store::Backend::Postgres;
        if postgres && !config.backup_schedule.trim().is_empty() {
            tracing::info!(
                "backup_schedule is not used on PostgreSQL: back the database up with pg_dump"
            );
        }
        if config.backup_schedule.trim().is_empty() || postgres {
            store.job_unscheduled("backup").await?;
        } else {
            let (config2, store2) = (config.clone(), store.clone());
            let make = move || -> Work {
                let (config, store) = (config2.clone(), store2.clone());
                Box::pin(async move {
                    let keep = config.backup_keep as usize;
                    let folder = crate::backup::make_backup(&config, &store, keep)
                        .await
                        .map_err(|e| format!("{e:#}"))?;
                    tracing::info!(folder = %folder.display(), "scheduled backup done");
                    Ok(())
                })
            };
            me.add(
                &store,
                tz,
                "backup",
                &config.backup_schedule,
                OneAtATime::default(),
                make,
            )
            .await?;
        }
        me.inner.start().await?;
        Ok(me)
    }

    /// Adds job `name` on `schedule` (cron) and records it; the six-field expression back.
    async fn add(
        &mut self,
        store: &Store,
        tz: chrono_tz::Tz,
        name: &'static str,
        schedule: &str,
        once: OneAtATime,
        make: impl Fn() -> Work + Clone + Send + Sync + 'static,
    ) -> anyhow::Result<String> {
        let expr = parse_cron(schedule).map_err(|e| anyhow::anyhow!("{name}_schedule: {e}"))?;
        let (store2, runs, expr2) = (store.clone(), self.runs.clone(), expr.clone());
        let job = Job::new_async_tz(expr.as_str(), tz, move |_id, _scheduler| {
            let (store, once, make, expr) =
                (store2.clone(), once.clone(), make.clone(), expr2.clone());
            let run = runs.track_future(async move {
                run_recorded(&store, name, &once, |t| next_run(&expr, tz, t), make()).await;
            });
            Box::pin(async move {
                run.await;
            })
        })?;
        self.inner.add(job).await?;
        store
            .job_scheduled(
                name,
                &format!("{expr} ({tz})"),
                next_run(&expr, tz, now_ms()),
            )
            .await?;
        tracing::info!(job = name, schedule = %expr, timezone = %tz, "scheduled");
        Ok(expr)
    }

    /// Stops the calendar and waits (a few seconds at most) for a run in progress.
    pub async fn stop(mut self) {
        if let Err(e) = self.inner.shutdown().await {
            tracing::warn!(error = %e, "the scheduler did not stop cleanly");
        }
        self.runs.close();
        if tokio::time::timeout(STOP_WAIT, self.runs.wait())
            .await
            .is_err()
        {
            tracing::warn!("a scheduled job was still running at shutdown; it is abandoned");
            if let Err(e) = self.store.jobs_abandoned(now_ms()).await {
                tracing::warn!(error = %e, "cannot record the abandoned job");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_run_still_going_makes_the_next_tick_skip_not_run_twice() {
        let once = OneAtATime::default();
        let (started_tx, started_rx) = tokio::sync::oneshot::channel();
        let (finish_tx, finish_rx) = tokio::sync::oneshot::channel::<()>();
        let long = tokio::spawn({
            let once = once.clone();
            async move {
                once.run("job", async {
                    let _ = started_tx.send(());
                    let _ = finish_rx.await;
                })
                .await
            }
        });
        started_rx.await.unwrap();
        assert!(
            !once.run("job", async {}).await,
            "skipped while the first runs"
        );
        finish_tx.send(()).unwrap();
        assert!(long.await.unwrap());
        assert!(
            once.run("job", async {}).await,
            "runs again once the first is done"
        );
    }
}
