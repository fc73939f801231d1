//! Jobs on a calendar, for the daemon (`mneme start`): the backup (`backup_schedule`, nightly
//! at 03:00 by default) in `schedule_timezone`, on tokio-cron-scheduler.
//!
//! Cron expressions have six fields (second minute hour day month weekday); the common
//! five-field form is accepted and runs at second 0. A job never overlaps itself: a tick that
//! finds the previous run still going is skipped, and says so in the log. The scheduler stops
//! with the daemon. (The reflector keeps its own timer, `reflector_interval_mins`.)

use std::future::Future;
use std::sync::Arc;

use croner::parser::{CronParser, Seconds};
use tokio_cron_scheduler::{Job, JobScheduler};

use crate::config::Config;
use crate::store::Store;

/// `expr` as a six-field cron expression, or why it is not one.
pub fn parse_cron(expr: &str) -> Result<String, String> {
    let fields = expr.split_whitespace().count();
    let six = match fields {
        5 => format!("0 {}", expr.trim()),
        6 | 7 => expr.split_whitespace().collect::<Vec<_>>().join(" "),
        n => {
            return Err(format!(
                "`{expr}` has {n} fields; expected 6 (second minute hour day month weekday) or 5 (without the second)"
            ));
        }
    };
    CronParser::builder()
        .seconds(Seconds::Required)
        .dom_and_dow(true)
        .build()
        .parse(&six)
        .map_err(|e| format!("`{expr}` is not a cron expression: {e}"))?;
    Ok(six)
}

/// An IANA time zone name (`UTC`, `Europe/Lisbon`).
pub fn parse_timezone(name: &str) -> Result<chrono_tz::Tz, String> {
    name.trim().parse::<chrono_tz::Tz>().map_err(|_| {
        format!("`{name}` is not a time zone name; use an IANA name such as UTC or Europe/Lisbon")
    })
}

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

/// The running scheduler; [`Scheduler::stop`] ends it.
pub struct Scheduler {
    inner: JobScheduler,
}

impl Scheduler {
    /// Starts the calendar jobs the config asks for (none when `backup_schedule` is empty).
    pub async fn start(config: Arc<Config>, store: Store) -> anyhow::Result<Self> {
        let tz = parse_timezone(&config.schedule_timezone).map_err(anyhow::Error::msg)?;
        let inner = JobScheduler::new().await?;
        if !config.backup_schedule.trim().is_empty() {
            let expr = parse_cron(&config.backup_schedule).map_err(anyhow::Error::msg)?;
            let once = OneAtATime::default();
            let job = Job::new_async_tz(expr.as_str(), tz, move |_id, _scheduler| {
                let (config, store, once) = (config.clone(), store.clone(), once.clone());
                Box::pin(async move {
                    once.run("backup", async {
                        let keep = config.backup_keep as usize;
                        match crate::backup::make_backup(&config, &store, keep).await {
                            Ok(folder) => tracing::info!(folder = %folder.display(), "scheduled backup done"),
                            Err(e) => tracing::error!(error = %format!("{e:#}"), "scheduled backup failed"),
                        }
                    })
                    .await;
                })
            })?;
            inner.add(job).await?;
            tracing::info!(schedule = %expr, timezone = %tz, "backups scheduled");
        }
        inner.start().await?;
        Ok(Self { inner })
    }

    pub async fn stop(mut self) {
        if let Err(e) = self.inner.shutdown().await {
            tracing::warn!(error = %e, "the scheduler did not stop cleanly");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cron_expressions_with_and_without_seconds() {
        assert_eq!(parse_cron("0 */15 * * * *").unwrap(), "0 */15 * * * *");
        assert_eq!(parse_cron(" 30 3 * * * ").unwrap(), "0 30 3 * * *");
        assert!(parse_cron("every night").unwrap_err().contains("fields"));
        assert!(
            parse_cron("0 99 * * * *")
                .unwrap_err()
                .contains("not a cron expression")
        );
        assert_eq!(
            parse_timezone("Europe/Lisbon").unwrap(),
            chrono_tz::Europe::Lisbon
        );
        assert!(parse_timezone("Mars/Olympus").is_err());
    }

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
