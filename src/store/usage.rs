//! Accounting: LLM tokens, prompt injections, reflector runs.

use sqlx::FromRow;

use super::db::{Conn, on_conn};
use super::messages::insert_message_in;
use super::{NewMessage, Result, Store, now_ms, on_pool};

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

/// The tokens one model call took.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tokens {
    pub input: u64,
    pub output: u64,
}

/// What a model turn leaves to record, written at once by [`Store::record_turn`].
#[derive(Debug, Clone, Copy)]
pub struct TurnRecord<'a> {
    pub chat_id: i64,
    pub provider: &'a str,
    pub model: &'a str,
    /// What its prompt injected.
    pub injection: InjectionLog,
    /// Each model call's tokens (several when the model used tools).
    pub calls: &'a [Tokens],
    /// The answer to keep in the conversation, if the turn has one.
    pub answer: Option<&'a NewMessage<'a>>,
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
        tokens: Tokens,
    ) -> Result<()> {
        let mut conn = self.writer.acquire().await?;
        insert_usage(conn.conn(), chat_id, provider, model, purpose, tokens).await
    }

    /// A model turn's records in one write transaction: its prompt's injection, each model
    /// call's tokens (purpose `chat`) and its answer; returns the answer's message id. Every
    /// turn writes through SQLite's one writer connection, where turns queue under load: one
    /// transaction instead of a write each (the injection used to be written before the model
    /// call, then each call's tokens, then the answer).
    pub async fn record_turn(&self, turn: &TurnRecord<'_>) -> Result<Option<i64>> {
        let mut tx = self.writer.begin_inserts().await?;
        insert_injection(tx.conn(), turn.chat_id, turn.injection).await?;
        for &tokens in turn.calls {
            let chat = Some(turn.chat_id);
            insert_usage(tx.conn(), chat, turn.provider, turn.model, "chat", tokens).await?;
        }
        let answer = match turn.answer {
            Some(m) => insert_message_in(tx.conn(), m).await?,
            None => None,
        };
        tx.commit().await?;
        Ok(answer)
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

async fn insert_usage(
    mut conn: Conn<'_>,
    chat_id: Option<i64>,
    provider: &str,
    model: &str,
    purpose: &str,
    tokens: Tokens,
) -> Result<()> {
    on_conn!(conn.re(), c => sqlx::query(
        "INSERT INTO llm_usage (chat_id, provider, model, purpose, input_tokens, output_tokens, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(chat_id)
    .bind(super::text(provider))
    .bind(super::text(model))
    .bind(purpose)
    .bind(i64::try_from(tokens.input).unwrap_or(i64::MAX))
    .bind(i64::try_from(tokens.output).unwrap_or(i64::MAX))
    .bind(now_ms())
    .execute(c)
    .await
    .map(|_| ()))
}

async fn insert_injection(mut conn: Conn<'_>, chat_id: i64, log: InjectionLog) -> Result<()> {
    on_conn!(conn.re(), c => sqlx::query(
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::ChatKey;
    use crate::store::testing::backends;

    #[tokio::test]
    async fn a_turn_is_recorded_at_once_with_its_answer_or_without_one() {
        for store in backends().await {
            let chat = store
                .ensure_chat(&ChatKey::new("telegram", "1"), false, None)
                .await
                .unwrap();
            let session = store.current_session(chat.id).await.unwrap();
            let injection = InjectionLog {
                candidates: 9,
                selected: 3,
                omitted: 1,
                tokens: 120,
            };
            let calls = [
                Tokens {
                    input: 100,
                    output: 7,
                },
                Tokens {
                    input: 140,
                    output: 20,
                },
            ];
            let answer = NewMessage::from_bot(chat.id, session, "Rex, your dog.");
            let turn = TurnRecord {
                chat_id: chat.id,
                provider: "openai",
                model: "m",
                injection,
                calls: &calls,
                answer: Some(&answer),
            };
            let id = store.record_turn(&turn).await.unwrap().unwrap();
            assert_eq!(
                store.message(id).await.unwrap().unwrap().text,
                "Rex, your dog."
            );
            assert_eq!(
                store.last_injection(chat.id).await.unwrap(),
                Some(injection)
            );
            let usage = store.usage_by_chat(Some(chat.id)).await.unwrap();
            assert_eq!(usage.len(), 1);
            let u = &usage[0];
            assert_eq!((u.purpose.as_str(), u.calls), ("chat", 2));
            assert_eq!((u.input_tokens, u.output_tokens), (240, 27));

            // A turn that failed: its injection and tokens, no message.
            let failed = TurnRecord {
                injection: InjectionLog::default(),
                calls: &[],
                answer: None,
                ..turn
            };
            assert_eq!(store.record_turn(&failed).await.unwrap(), None);
            assert_eq!(
                store.last_injection(chat.id).await.unwrap(),
                Some(InjectionLog::default())
            );
            let history = store.session_history(session, i64::MAX, 10).await.unwrap();
            assert_eq!(history.len(), 1, "only the answer: {history:?}");
        }
    }
}
