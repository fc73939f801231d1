//! Accounting: LLM tokens, prompt injections, reflector runs.

use sqlx::FromRow;

use super::{Result, Store, now_ms, on_pool};

/// Tokens spent by one chat (or the background, `chat` = None) on one model.
#[derive(Debug, Clone, FromRow)]
pub struct UsageRow {
    pub chat: Option<String>,
    pub provider: String,
    pub model: String,
    pub purpose: String,
    pub calls: i64,
    pub input_tokens: i64,
    pub output_tokens: i64,
}

/// What one prompt build injected.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct InjectionLog {
    pub candidates: i64,
    pub selected: i64,
    pub omitted: i64,
    pub tokens: i64,
}

/// Totals since a point in time.
#[derive(Debug, Clone, Default, FromRow)]
pub struct UsageSummary {
    pub reflector_runs: i64,
    pub reflector_failures: i64,
    pub reflector_extracted: i64,
    pub reflector_inserted: i64,
    pub reflector_updated: i64,
    pub reflector_superseded: i64,
    pub reflector_skipped: i64,
    pub injections: i64,
    pub injected_candidates: i64,
    pub injected_selected: i64,
}

impl Store {
    pub async fn record_usage(
        &self,
        chat_id: Option<i64>,
        provider: &str,
        model: &str,
        purpose: &str,
        input_tokens: u64,
        output_tokens: u64,
    ) -> Result<()> {
        on_pool!(&self.writer, c => sqlx::query(
            "INSERT INTO llm_usage (chat_id, provider, model, purpose, input_tokens, output_tokens, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(chat_id)
        .bind(super::text(provider))
        .bind(super::text(model))
        .bind(purpose)
        .bind(i64::try_from(input_tokens).unwrap_or(i64::MAX))
        .bind(i64::try_from(output_tokens).unwrap_or(i64::MAX))
        .bind(now_ms())
        .execute(c)
        .await
        .map(|_| ()))
    }

    /// Token usage grouped by chat, provider, model and purpose; one chat only when given.
    pub async fn usage_by_chat(&self, chat_id: Option<i64>) -> Result<Vec<UsageRow>> {
        on_pool!(&self.pool, c => sqlx::query_as::<_, UsageRow>(
            "SELECT CASE WHEN c.id IS NULL THEN NULL ELSE c.channel || ':' || c.external_chat_id END AS chat,
                    u.provider, u.model, u.purpose, COUNT(*) AS calls,
                    CAST(SUM(u.input_tokens) AS BIGINT) AS input_tokens, CAST(SUM(u.output_tokens) AS BIGINT) AS output_tokens
             FROM llm_usage u LEFT JOIN chats c ON c.id = u.chat_id
             WHERE $1 IS NULL OR u.chat_id = $1
             GROUP BY u.chat_id, c.id, c.channel, c.external_chat_id, u.provider, u.model, u.purpose
             ORDER BY chat, u.model",
        )
        .bind(chat_id)
        .fetch_all(c)
        .await)
    }

    pub async fn log_injection(&self, chat_id: i64, log: InjectionLog) -> Result<()> {
        on_pool!(&self.writer, c => sqlx::query(
            "INSERT INTO memory_injection_logs (chat_id, created_at, candidates, selected, omitted, tokens)
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(chat_id)
        .bind(now_ms())
        .bind(log.candidates)
        .bind(log.selected)
        .bind(log.omitted)
        .bind(log.tokens)
        .execute(c)
        .await
        .map(|_| ()))
    }

    pub async fn last_injection(&self, chat_id: i64) -> Result<Option<InjectionLog>> {
        let row: Option<(i64, i64, i64, i64)> = on_pool!(&self.pool, c => sqlx::query_as(
            "SELECT candidates, selected, omitted, tokens FROM memory_injection_logs
             WHERE chat_id = $1 ORDER BY id DESC LIMIT 1",
        )
        .bind(chat_id)
        .fetch_optional(c)
        .await)?;
        Ok(
            row.map(|(candidates, selected, omitted, tokens)| InjectionLog {
                candidates,
                selected,
                omitted,
                tokens,
            }),
        )
    }

    /// Reflector and injection totals since `since_ms`.
    pub async fn usage_summary(&self, since_ms: i64) -> Result<UsageSummary> {
        on_pool!(&self.pool, c => sqlx::query_as::<_, UsageSummary>(
            "SELECT
                (SELECT COUNT(*) FROM memory_reflector_runs WHERE started_at >= $1) AS reflector_runs,
                (SELECT COUNT(*) FROM memory_reflector_runs WHERE started_at >= $1 AND error IS NOT NULL) AS reflector_failures,
                (SELECT CAST(COALESCE(SUM(extracted), 0) AS BIGINT) FROM memory_reflector_runs WHERE started_at >= $1) AS reflector_extracted,
                (SELECT CAST(COALESCE(SUM(inserted), 0) AS BIGINT) FROM memory_reflector_runs WHERE started_at >= $1) AS reflector_inserted,
                (SELECT CAST(COALESCE(SUM(updated), 0) AS BIGINT) FROM memory_reflector_runs WHERE started_at >= $1) AS reflector_updated,
                (SELECT CAST(COALESCE(SUM(superseded), 0) AS BIGINT) FROM memory_reflector_runs WHERE started_at >= $1) AS reflector_superseded,
                (SELECT CAST(COALESCE(SUM(skipped), 0) AS BIGINT) FROM memory_reflector_runs WHERE started_at >= $1) AS reflector_skipped,
                (SELECT COUNT(*) FROM memory_injection_logs WHERE created_at >= $1) AS injections,
                (SELECT CAST(COALESCE(SUM(candidates), 0) AS BIGINT) FROM memory_injection_logs WHERE created_at >= $1) AS injected_candidates,
                (SELECT CAST(COALESCE(SUM(selected), 0) AS BIGINT) FROM memory_injection_logs WHERE created_at >= $1) AS injected_selected",
        )
        .bind(since_ms)
        .fetch_one(c)
        .await)
    }
}
