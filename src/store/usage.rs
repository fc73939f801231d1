//! Accounting: LLM tokens, prompt injections, reflector runs.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex, PoisonError};

use sqlx::FromRow;

use super::db::{Conn, on_conn};
use super::inline::Query;
use super::messages::{
    INSERTED_ID, MESSAGE_VALUES, bind_message, insert_message_sql, insert_message_sql_core,
};
use super::{NewMessage, Result, Store, now_ms, on_pool};

/// `$q` with `$turn`'s values bound, as [`turn_statements`] numbers them (a sqlx query, or an inline
/// one, `inline/`).
macro_rules! bind_turn {
    ($q:expr, $turn:expr) => {{
        let turn = $turn;
        let log = turn.injection;
        let mut q = $q
            .bind(turn.chat_id)
            .bind(now_ms())
            .bind(log.candidates)
            .bind(log.selected)
            .bind(log.omitted)
            .bind(log.tokens)
            .bind(super::text(turn.provider))
            .bind(super::text(turn.model));
        for call in turn.calls {
            q = q
                .bind(stored_count(call.input))
                .bind(stored_count(call.output));
        }
        if let Some(m) = turn.answer {
            q = bind_message!(q, m);
        }
        if let Some(id) = turn.replied {
            q = q.bind(id);
        }
        q
    }};
}

/// Tokens spent by one chat (or the background, `chat` = None) on one model.
#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
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
    /// The message answered, when its answer has been delivered: marked replied in the same
    /// write ([`Store::mark_replied`]).
    pub replied: Option<i64>,
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
        let done = insert_usage(conn.conn(), chat_id, provider, model, purpose, tokens).await;
        conn.finish(done)
    }

    /// A model turn's records, written at once: its prompt's injection, each model call's
    /// tokens (purpose `chat`), its answer, and, once the answer was delivered, the answered
    /// message's mark; returns the answer's message id. On SQLite one transaction on the
    /// inline writer (`inline/`); on PostgreSQL one statement (atomic by itself), so one
    /// round trip to the server ([`turn_statements`]).
    pub async fn record_turn(&self, turn: &TurnRecord<'_>) -> Result<Option<i64>> {
        let sql = turn_sql(
            turn.calls.len(),
            turn.answer.is_some(),
            turn.replied.is_some(),
        );
        if let Some(writer) = &self.inline {
            // One set of values (one `now`) for every statement.
            let mut q = bind_turn!(Query::new(""), turn);
            return writer
                .write(move |tx| {
                    let mut answer = None;
                    for statement in &sql.statements {
                        answer = q
                            .on(statement.as_str())
                            .first(tx, |r| r.get::<_, i64>(0))?
                            .or(answer);
                    }
                    Ok(answer)
                })
                .await;
        }
        let mut conn = self.writer.acquire().await?;
        let answer = on_conn!(conn.conn(), c => bind_turn!(sqlx::query_scalar::<_, i64>(&sql.postgres), turn)
            .fetch_optional(c)
            .await);
        conn.finish(answer)
    }

    /// Token usage grouped by chat, provider, model and purpose; one chat only when given.
    pub async fn usage_by_chat(&self, chat_id: Option<i64>) -> Result<Vec<UsageRow>> {
        on_pool!(&self.pool, c => sqlx::query_as::<_, UsageRow>(
            "SELECT CASE WHEN c.id IS NULL THEN NULL ELSE c.channel || ':' || c.external_chat_id END AS chat,
                    u.provider, u.model, u.purpose, CAST(SUM(u.calls) AS BIGINT) AS calls,
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

/// The statements of [`Store::record_turn`] for `calls` model calls, with or without an
/// answer, with or without the answered message's `replied` mark, in order; the answer's
/// insert, whose id is the one row they return, last (`returning`: by its `RETURNING`
/// clause; else by [`INSERTED_ID`] after it, as SQLite's inline writer reads it). Their
/// values: `$1` chat id, `$2` now, `$3`–`$6` the injection, `$7` provider, `$8` model, then
/// each call's input and output tokens, then the answer's values as
/// [`super::messages::MESSAGE_VALUES`] orders them, then the answered message's id.
pub(super) fn turn_statements(
    calls: usize,
    answer: bool,
    replied: bool,
    returning: bool,
) -> Vec<String> {
    let mut statements = vec![
        "INSERT INTO memory_injection_logs (chat_id, created_at, candidates, selected, omitted, tokens)
         VALUES ($1, $2, $3, $4, $5, $6)"
            .to_string(),
    ];
    if calls > 0 {
        let rows: Vec<String> = (0..calls)
            .map(|k| format!("($1, $7, $8, 'chat', ${}, ${}, $2)", 9 + 2 * k, 10 + 2 * k))
            .collect();
        statements.push(format!(
            "INSERT INTO llm_usage (chat_id, provider, model, purpose, input_tokens, output_tokens, created_at)
         VALUES {}",
            rows.join(", ")
        ));
    }
    let mut next = 9 + 2 * calls;
    let answer = answer.then(|| {
        let insert = if returning {
            vec![insert_message_sql(next)]
        } else {
            vec![insert_message_sql_core(next), INSERTED_ID.to_string()]
        };
        next += MESSAGE_VALUES.len();
        insert
    });
    if replied {
        statements.push(format!(
            "UPDATE messages SET replied_at = $2 WHERE id = ${next}"
        ));
    }
    statements.extend(answer.into_iter().flatten());
    statements
}

/// [`turn_statements`] as one PostgreSQL statement: all but the last as data-modifying `WITH`
/// clauses, so the whole is one round trip and atomic by itself.
fn as_one_postgres_statement(statements: &[String]) -> String {
    let Some((last, before)) = statements.split_last() else {
        return String::new();
    };
    let with: Vec<String> = (before.iter().enumerate())
        .map(|(i, statement)| format!("w{i} AS ({statement})"))
        .collect();
    if with.is_empty() {
        last.clone()
    } else {
        format!("WITH {}\n{last}", with.join(",\n"))
    }
}

/// A turn's records as each backend runs them: SQLite's statements one after the other (the
/// answer's id read after its insert), PostgreSQL's one statement.
struct TurnSql {
    statements: Vec<String>,
    postgres: String,
}

/// The texts of a turn's records, written once for each shape a turn's records take (how
/// many model calls, with or without an answer and its delivered mark) and kept for the
/// process: every message's turn writes them. The shapes are few (a turn makes at most
/// `max_tool_iterations` model calls).
fn turn_sql(calls: usize, answer: bool, replied: bool) -> &'static TurnSql {
    type Written = HashMap<(usize, bool, bool), &'static TurnSql>;
    static WRITTEN: LazyLock<Mutex<Written>> = LazyLock::new(Mutex::default);
    let mut written = WRITTEN.lock().unwrap_or_else(PoisonError::into_inner);
    written.entry((calls, answer, replied)).or_insert_with(|| {
        let statements = turn_statements(calls, answer, replied, false);
        let postgres = as_one_postgres_statement(&turn_statements(calls, answer, replied, true));
        Box::leak(Box::new(TurnSql {
            statements,
            postgres,
        }))
    })
}

/// A token count as the database keeps it (a signed 64-bit column; saturating).
fn stored_count(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
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
    .bind(stored_count(tokens.input))
    .bind(stored_count(tokens.output))
    .bind(now_ms())
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
                replied: None,
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

            // A model call, then no answer (the tool loop ran out): its tokens are kept.
            let ran_out = TurnRecord {
                calls: &calls[..1],
                answer: None,
                ..turn
            };
            assert_eq!(store.record_turn(&ran_out).await.unwrap(), None);
            let u = &store.usage_by_chat(Some(chat.id)).await.unwrap()[0];
            assert_eq!((u.calls, u.input_tokens, u.output_tokens), (3, 340, 34));

            // All or nothing: an answer that cannot be stored (no such chat) takes the
            // injection and the tokens with it.
            let orphan = NewMessage::from_bot(chat.id + 999, session, "lost");
            let broken = TurnRecord {
                answer: Some(&orphan),
                ..turn
            };
            let before = store.injection_count(chat.id).await;
            assert!(store.record_turn(&broken).await.is_err());
            assert_eq!(store.injection_count(chat.id).await, before);
            let u = &store.usage_by_chat(Some(chat.id)).await.unwrap()[0];
            assert_eq!(u.calls, 3, "no tokens of the failed record");

            // A delivered answer: recorded together with the answered message's mark — or,
            // when the record fails, neither.
            let asked = store
                .insert_message(&NewMessage::from_bot(chat.id, session, "and my cat?"))
                .await
                .unwrap()
                .unwrap();
            let replied_at = |id| {
                let store = store.clone();
                async move { store.message(id).await.unwrap().unwrap().replied_at }
            };
            let broken = TurnRecord {
                replied: Some(asked),
                ..broken
            };
            assert!(store.record_turn(&broken).await.is_err());
            assert_eq!(replied_at(asked).await, None, "no mark without its record");
            let cat = NewMessage::from_bot(chat.id, session, "Tom.");
            let delivered = TurnRecord {
                answer: Some(&cat),
                replied: Some(asked),
                ..turn
            };
            let id = store.record_turn(&delivered).await.unwrap().unwrap();
            assert_eq!(store.message(id).await.unwrap().unwrap().text, "Tom.");
            assert!(replied_at(asked).await.is_some());
            // Without an answer too (a failed turn's apology was delivered).
            let other = store
                .insert_message(&NewMessage::from_bot(chat.id, session, "hello?"))
                .await
                .unwrap()
                .unwrap();
            let apology = TurnRecord {
                answer: None,
                replied: Some(other),
                ..turn
            };
            assert_eq!(store.record_turn(&apology).await.unwrap(), None);
            assert!(replied_at(other).await.is_some());
        }
    }

    impl Store {
        async fn injection_count(&self, chat_id: i64) -> i64 {
            on_pool!(&self.pool, c => sqlx::query_scalar(
                "SELECT COUNT(*) FROM memory_injection_logs WHERE chat_id = $1",
            )
            .bind(chat_id)
            .fetch_one(c)
            .await)
            .unwrap()
        }
    }

    /// SQLite gets the inserts one after the other, the answer's id read after its insert;
    /// PostgreSQL one statement whose last insert (the answer's, when there is one) returns
    /// the id.
    #[test]
    fn a_turn_is_its_statements_or_one_postgres_statement() {
        let pg = |calls, answer, replied| {
            as_one_postgres_statement(&turn_statements(calls, answer, replied, true))
        };
        let sqlite = turn_statements(2, true, false, false);
        assert_eq!(sqlite.len(), 4);
        assert!(
            sqlite[2].ends_with("ON CONFLICT DO NOTHING"),
            "{}",
            sqlite[2]
        );
        assert_eq!(sqlite[3], INSERTED_ID);
        // written once for each shape, the same texts
        let kept = turn_sql(2, true, false);
        assert!(std::ptr::eq(kept, turn_sql(2, true, false)));
        assert_eq!(
            (&kept.statements, &kept.postgres),
            (&sqlite, &pg(2, true, false))
        );
        assert!(
            sqlite[1]
                .contains("($1, $7, $8, 'chat', $9, $10, $2), ($1, $7, $8, 'chat', $11, $12, $2)")
        );
        assert!(
            sqlite[2].contains("VALUES ($13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23)")
        );
        let two = pg(2, true, false);
        assert!(
            two.starts_with("WITH w0 AS (INSERT INTO memory_injection_logs"),
            "{two}"
        );
        assert!(two.contains("w1 AS (INSERT INTO llm_usage"), "{two}");
        assert!(!two.contains(';'));
        assert!(
            two.ends_with("ON CONFLICT DO NOTHING RETURNING id"),
            "{two}"
        );
        assert!(pg(0, false, false).starts_with("INSERT INTO memory_injection_logs"));
        assert!(pg(1, false, false).ends_with("VALUES ($1, $7, $8, 'chat', $9, $10, $2)"));
        // With the delivered mark: its id after the answer's values; the answer's insert
        // still last (its id is what the statements return).
        let sqlite = turn_statements(1, true, true, true);
        assert_eq!(
            sqlite[2],
            "UPDATE messages SET replied_at = $2 WHERE id = $22"
        );
        assert!(sqlite[3].ends_with("ON CONFLICT DO NOTHING RETURNING id"));
        let marked = pg(1, true, true);
        assert!(
            marked.contains("w2 AS (UPDATE messages SET replied_at = $2 WHERE id = $22)"),
            "{marked}"
        );
        assert!(
            marked.ends_with("ON CONFLICT DO NOTHING RETURNING id"),
            "{marked}"
        );
        assert!(pg(0, false, true).ends_with("WHERE id = $9"));
    }
}
