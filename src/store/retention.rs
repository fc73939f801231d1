//! Pruning the logs that grow a row a turn or a pass, after `log_retention_days`: the prompt
//! injection log and the reflector's run records lose their old rows (each chat's newest is
//! kept, whatever its age, for `/memories` and `mneme usage`), and the token log is rolled up
//! instead, so that its totals per chat, provider, model and purpose stay exact.
//!
//! Everything goes in batches of [`BATCH`] rows, each a transaction of its own, so that a first
//! run on a large database never holds the writer for long: a message waits for one batch at
//! most. A batch's ids are read first and then written by id, so that what is summed and what
//! is deleted are the same rows on either backend.

use super::{Result, Store, json_list, on_conn, on_pool};

/// Rows per batch (one transaction each).
const BATCH: i64 = 5_000;

/// What one pruning did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Pruned {
    /// Prompt injection records deleted.
    pub injections: u64,
    /// Reflector run records deleted.
    pub reflector_runs: u64,
    /// Token records folded into per-chat, per-model totals.
    pub usage_rolled_up: u64,
}

/// A log a chat's rows of which are deleted past the cutoff, but for each chat's newest.
struct Log {
    table: &'static str,
    time: &'static str,
}

const INJECTIONS: Log = Log {
    table: "memory_injection_logs",
    time: "created_at",
};
const REFLECTOR_RUNS: Log = Log {
    table: "memory_reflector_runs",
    time: "started_at",
};

/// Rows given as a JSON list of ids (`$1`), in this backend's words.
const IDS: &str = "SELECT CAST(value AS BIGINT) FROM json_each($1)";

impl Store {
    /// Prunes what is older than `cutoff` (ms since the epoch) from the injection log and the
    /// reflector's runs, and rolls the token log's older rows up.
    pub async fn prune_logs(&self, cutoff: i64) -> Result<Pruned> {
        Ok(Pruned {
            injections: self.prune_log(&INJECTIONS, cutoff).await?,
            reflector_runs: self.prune_log(&REFLECTOR_RUNS, cutoff).await?,
            usage_rolled_up: self.roll_up_usage(cutoff).await?,
        })
    }

    /// Ids of the next batch: `select` with `$1` the cutoff, `$2` a bound, `$3` the batch size.
    async fn batch(&self, select: &str, cutoff: i64, bound: &str) -> Result<Vec<i64>> {
        let sql = self.pool.sql(select);
        on_pool!(&self.pool, c => sqlx::query_scalar(&sql)
            .bind(cutoff)
            .bind(bound)
            .bind(BATCH)
            .fetch_all(c)
            .await)
    }

    async fn prune_log(&self, log: &Log, cutoff: i64) -> Result<u64> {
        let Log { table, time } = log;
        // each chat's newest row, as it is now: rows written later are newer still
        let newest: Vec<i64> = on_pool!(&self.pool, c => sqlx::query_scalar(&format!(
            "SELECT MAX(id) FROM {table} GROUP BY chat_id"
        ))
        .fetch_all(c)
        .await)?;
        let select = format!(
            "SELECT id FROM {table} WHERE {time} < $1
             AND id NOT IN (SELECT CAST(value AS BIGINT) FROM json_each($2)) LIMIT $3"
        );
        let delete = self
            .pool
            .sql(&format!("DELETE FROM {table} WHERE id IN ({IDS})"))
            .into_owned();
        let newest = json_list(&newest);
        let mut deleted = 0;
        loop {
            let ids = self.batch(&select, cutoff, &newest).await?;
            if ids.is_empty() {
                return Ok(deleted);
            }
            deleted += on_pool!(&self.writer, c => sqlx::query(&delete)
                .bind(json_list(&ids))
                .execute(c)
                .await
                .map(|done| done.rows_affected()))?;
        }
    }

    /// Folds the token records older than `cutoff` into one row per chat, provider, model and
    /// purpose (its `calls` the calls it stands for, its time the newest folded), a batch at
    /// a time: each batch's sums are inserted and its rows deleted in one transaction, so
    /// the totals are the same before, during and after. Rows written while it runs (ids past
    /// the last one at its start) are not touched, and neither are the sums it writes; the
    /// next run folds those again with what has aged since.
    async fn roll_up_usage(&self, cutoff: i64) -> Result<u64> {
        let last: Option<i64> = on_pool!(&self.pool, c => sqlx::query_scalar(
            "SELECT MAX(id) FROM llm_usage",
        )
        .fetch_one(c)
        .await)?;
        let Some(last) = last else { return Ok(0) };
        let select = "SELECT id FROM llm_usage
             WHERE created_at < $1 AND id <= CAST($2 AS BIGINT) LIMIT $3";
        let fold = self.pool.sql(&format!(
            "INSERT INTO llm_usage (chat_id, provider, model, purpose, input_tokens, output_tokens, created_at, calls)
             SELECT chat_id, provider, model, purpose, CAST(SUM(input_tokens) AS BIGINT),
                    CAST(SUM(output_tokens) AS BIGINT), MAX(created_at), CAST(SUM(calls) AS BIGINT)
             FROM llm_usage WHERE id IN ({IDS})
             GROUP BY chat_id, provider, model, purpose"
        )).into_owned();
        let delete = self
            .pool
            .sql(&format!("DELETE FROM llm_usage WHERE id IN ({IDS})"))
            .into_owned();
        let mut folded = 0;
        loop {
            let ids = self.batch(select, cutoff, &last.to_string()).await?;
            if ids.is_empty() {
                return Ok(folded);
            }
            let ids = json_list(&ids);
            let mut tx = self.writer.begin_write().await?;
            on_conn!(tx.conn(), c => sqlx::query(&fold)
                .bind(&ids)
                .execute(c)
                .await
                .map(|_| ()))?;
            folded += on_conn!(tx.conn(), c => sqlx::query(&delete)
                .bind(&ids)
                .execute(c)
                .await
                .map(|done| done.rows_affected()))?;
            tx.commit().await?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::ChatKey;
    use crate::store::testing::backends;
    use crate::store::{InjectionLog, RunStats, Tokens};

    const DAY: i64 = 86_400_000;

    impl Store {
        async fn count(&self, table: &str) -> i64 {
            on_pool!(&self.pool, c => sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table}"))
                .fetch_one(c)
                .await)
            .unwrap()
        }

        async fn age_all(&self, table: &str, time: &str, at: i64) {
            on_pool!(&self.writer, c => sqlx::query(&format!("UPDATE {table} SET {time} = $1"))
                .bind(at)
                .execute(c)
                .await
                .map(|_| ()))
            .unwrap();
        }

        async fn injection(&self, chat_id: i64, selected: i64) {
            on_pool!(&self.writer, c => sqlx::query(
                "INSERT INTO memory_injection_logs (chat_id, created_at, candidates, selected, omitted, tokens)
                 VALUES ($1, 0, 9, $2, 0, 10)",
            )
            .bind(chat_id)
            .bind(selected)
            .execute(c)
            .await
            .map(|_| ()))
            .unwrap();
        }
    }

    /// Old rows go but each chat's newest; the token totals are the same after, and a second
    /// pruning folds the first one's sums with what aged since, keeping one row a group.
    #[tokio::test]
    async fn old_log_rows_go_and_the_token_totals_stay() {
        for store in backends().await {
            let chats = [
                store
                    .ensure_chat(&ChatKey::new("telegram", "1"), false, None)
                    .await
                    .unwrap(),
                store
                    .ensure_chat(&ChatKey::new("discord", "2"), false, None)
                    .await
                    .unwrap(),
            ];
            let now = crate::store::now_ms();
            // 7,000 token records (more than a batch), over two chats, two models, no chat
            for k in 0..7_000i64 {
                let chat = match k % 3 {
                    0 => Some(chats[0].id),
                    1 => Some(chats[1].id),
                    _ => None,
                };
                let model = if k % 2 == 0 { "m-a" } else { "m-b" };
                let tokens = Tokens {
                    input: 10 + k as u64 % 7,
                    output: 1 + k as u64 % 5,
                };
                store
                    .record_usage(chat, "openai", model, "chat", tokens)
                    .await
                    .unwrap();
            }
            store
                .age_all("llm_usage", "created_at", now - 40 * DAY)
                .await;
            for k in 0..6 {
                store.injection(chats[k % 2].id, k as i64).await;
            }
            store
                .age_all("memory_injection_logs", "created_at", now - 40 * DAY)
                .await;
            let run = store.start_run(chats[0].id, now - 40 * DAY).await.unwrap();
            store
                .finish_run(
                    run,
                    now - 40 * DAY,
                    RunStats::default(),
                    "jaccard",
                    true,
                    None,
                )
                .await
                .unwrap();
            store.start_run(chats[0].id, now - 39 * DAY).await.unwrap();
            // and recent ones, which stay
            store
                .record_usage(
                    Some(chats[0].id),
                    "openai",
                    "m-a",
                    "chat",
                    Tokens {
                        input: 5,
                        output: 5,
                    },
                )
                .await
                .unwrap();
            let before = store.usage_by_chat(None).await.unwrap();

            let pruned = store.prune_logs(now - 30 * DAY).await.unwrap();
            assert_eq!(
                pruned,
                Pruned {
                    injections: 4,
                    reflector_runs: 1,
                    usage_rolled_up: 7_000
                }
            );
            assert_eq!(
                store.usage_by_chat(None).await.unwrap(),
                before,
                "totals kept"
            );
            // one newest injection per chat, the selected count of each chat's last
            assert_eq!(store.count("memory_injection_logs").await, 2);
            assert_eq!(
                store.last_injection(chats[1].id).await.unwrap(),
                Some(InjectionLog {
                    candidates: 9,
                    selected: 5,
                    omitted: 0,
                    tokens: 10
                })
            );
            assert_eq!(store.count("memory_reflector_runs").await, 1);
            // sums: at most one a group a batch (two batches), and the recent record
            let rows = store.count("llm_usage").await;
            assert!((7..=13).contains(&rows), "{rows} rows");

            // a second pruning, later: the sums fold into one a group, the recent row too
            let pruned = store.prune_logs(now + 400 * DAY).await.unwrap();
            assert_eq!(pruned.injections, 0, "each chat's newest stays");
            assert_eq!(pruned.usage_rolled_up as i64, rows);
            assert_eq!(
                store.usage_by_chat(None).await.unwrap(),
                before,
                "totals kept"
            );
            assert_eq!(
                store.count("llm_usage").await,
                6,
                "3 chats (one none) × 2 models"
            );
            // nothing older: nothing to do
            let again = store.prune_logs(now - 400 * DAY).await.unwrap();
            assert_eq!(again, Pruned::default());
        }
    }
}
