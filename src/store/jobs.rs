//! Scheduled jobs: when each last ran, how it went, when it runs next.

use sqlx::FromRow;

use super::{Result, Store, on_pool};

/// One job as `mneme usage` and the console show it.
#[derive(Debug, Clone, FromRow, serde::Serialize)]
pub struct JobRow {
    pub name: String,
    pub schedule: String,
    pub last_started_at: Option<i64>,
    pub last_finished_at: Option<i64>,
    pub last_ok: Option<bool>,
    pub last_error: Option<String>,
    pub next_run_at: Option<i64>,
}

impl Store {
    /// The job is scheduled (at start-up): its schedule and next run; its history stays.
    pub async fn job_scheduled(&self, name: &str, schedule: &str, next: Option<i64>) -> Result<()> {
        on_pool!(&self.writer, c => sqlx::query(
            "INSERT INTO scheduled_jobs (name, schedule, next_run_at) VALUES ($1, $2, $3)
             ON CONFLICT (name) DO UPDATE SET schedule = excluded.schedule, next_run_at = excluded.next_run_at",
        )
        .bind(name)
        .bind(schedule)
        .bind(next)
        .execute(c)
        .await
        .map(|_| ()))
    }

    /// A run of the job starts now.
    pub async fn job_started(&self, name: &str, now: i64) -> Result<()> {
        on_pool!(&self.writer, c => sqlx::query(
            "UPDATE scheduled_jobs SET last_started_at = $2, last_ok = NULL, last_error = NULL WHERE name = $1",
        )
        .bind(name)
        .bind(now)
        .execute(c)
        .await
        .map(|_| ()))
    }

    /// The run ended (`error` None when it went well); `next` is the next run.
    pub async fn job_finished(
        &self,
        name: &str,
        now: i64,
        error: Option<&str>,
        next: Option<i64>,
    ) -> Result<()> {
        on_pool!(&self.writer, c => sqlx::query(
            "UPDATE scheduled_jobs SET last_finished_at = $2, last_ok = $3, last_error = $4, next_run_at = $5
             WHERE name = $1",
        )
        .bind(name)
        .bind(now)
        .bind(error.is_none())
        .bind(super::text_opt(error))
        .bind(next)
        .execute(c)
        .await
        .map(|_| ()))
    }

    /// The runs still going when the daemon stopped without them: ended now, failed, so that
    /// `mneme usage` does not say "running since" with no daemon running.
    pub async fn jobs_abandoned(&self, now: i64) -> Result<()> {
        on_pool!(&self.writer, c => sqlx::query(
            "UPDATE scheduled_jobs SET last_finished_at = $1, last_ok = FALSE,
                 last_error = 'stopped at shutdown before it finished'
             WHERE last_started_at IS NOT NULL
               AND (last_finished_at IS NULL OR last_finished_at < last_started_at)",
        )
        .bind(now)
        .execute(c)
        .await
        .map(|_| ()))
    }

    /// The job is not scheduled any more (its config emptied): forget it.
    pub async fn job_unscheduled(&self, name: &str) -> Result<()> {
        on_pool!(&self.writer, c => sqlx::query("DELETE FROM scheduled_jobs WHERE name = $1")
            .bind(name)
            .execute(c)
            .await
            .map(|_| ()))
    }

    /// Every job, by name.
    pub async fn jobs(&self) -> Result<Vec<JobRow>> {
        on_pool!(&self.pool, c => sqlx::query_as::<_, JobRow>(
            "SELECT name, schedule, last_started_at, last_finished_at, last_ok, last_error, next_run_at
             FROM scheduled_jobs ORDER BY name",
        )
        .fetch_all(c)
        .await)
    }
}

#[cfg(test)]
mod tests {
    #[tokio::test]
    async fn a_run_cut_off_by_shutdown_is_not_left_running() {
        for store in crate::store::testing::backends().await {
            for name in ["lifecycle", "backup"] {
                store
                    .job_scheduled(name, "0 * * * * *", None)
                    .await
                    .unwrap();
                store.job_started(name, 1_000).await.unwrap();
            }
            store
                .job_finished("backup", 2_000, None, None)
                .await
                .unwrap();
            store.jobs_abandoned(3_000).await.unwrap();
            let jobs = store.jobs().await.unwrap();
            let got: Vec<_> = jobs
                .iter()
                .map(|j| (j.name.as_str(), j.last_finished_at, j.last_ok))
                .collect();
            assert_eq!(
                got,
                [
                    ("backup", Some(2_000), Some(true)),
                    ("lifecycle", Some(3_000), Some(false))
                ]
            );
            assert_eq!(
                jobs[1].last_error.as_deref(),
                Some("stopped at shutdown before it finished")
            );
        }
    }
}
