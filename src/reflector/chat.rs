//! One chat's part of a pass: its backlog, batch by batch, each batch stored together with
//! the cursor or not at all.

use std::time::Instant;

use tokio_util::sync::CancellationToken;

use super::apply::{self, DEDUP_METHOD, Fact};
use super::batch::{self, Batch};
use super::{ChatReport, Failure, Reflector, attribute, gate, parse, prompt};
use crate::llm::{ChatMessage, LlmRequest};
use crate::store::{ChatRow, DueChat, RunStats};

/// Works off `due`'s messages after its cursor until caught up, failed or cancelled, and
/// records the run. Never panics and never returns an error: failures are in the report.
pub(super) async fn reflect(
    r: &Reflector,
    due: DueChat,
    now: i64,
    cancel: &CancellationToken,
) -> ChatReport {
    let clock = Instant::now();
    let chat = &due.chat;
    let mut report = ChatReport {
        chat: chat.key(),
        stats: RunStats::default(),
        batches: 0,
        failure: None,
        retry_at: None,
        caught_up: false,
    };
    let run_id = match r.store.start_run(chat.id, now).await {
        Ok(id) => id,
        Err(e) => {
            tracing::warn!(chat = %report.chat, error = %e, "reflector: cannot record a run");
            report.failure = Some(Failure::Store(e.to_string()));
            return report;
        }
    };

    let mut cursor = due.state.last_message_id;
    while report.failure.is_none() {
        if cancel.is_cancelled() {
            report.failure = Some(Failure::Interrupted);
            break;
        }
        let batch = match r
            .store
            .messages_after(chat.id, cursor, r.settings.batch_messages)
            .await
        {
            Ok(messages) if messages.is_empty() => {
                report.caught_up = true;
                break;
            }
            Ok(messages) => batch::cut(&messages, r.settings.batch_tokens),
            Err(e) => {
                report.failure = Some(Failure::Store(e.to_string()));
                break;
            }
        };
        report.stats.messages_read += batch.messages as i64;
        match reflect_batch(r, chat, &batch, cursor, now, cancel).await {
            Ok(Some(stats)) => {
                report.stats += stats;
                report.batches += 1;
                cursor = batch.last_id;
            }
            // Another pass (another process) stored this batch meanwhile: its run says so.
            Ok(None) => break,
            Err(failure) => report.failure = Some(failure),
        }
    }

    if let Some(failure) = &report.failure {
        tracing::warn!(chat = %report.chat, error = %failure, "reflector: batch not stored; the cursor stays");
        if *failure != Failure::Interrupted {
            let backoff = |failures| r.settings.backoff_ms(failures);
            match r
                .store
                .record_reflection_failure(chat.id, now, backoff)
                .await
            {
                Ok(state) => report.retry_at = Some(state.next_attempt_at),
                Err(e) => {
                    tracing::warn!(chat = %report.chat, error = %e, "reflector: cannot record the failure")
                }
            }
        }
    }
    let parse_ok = !matches!(report.failure, Some(Failure::Parse(_)));
    let error = report.failure.as_ref().map(ToString::to_string);
    let finished = now.saturating_add(i64::try_from(clock.elapsed().as_millis()).unwrap_or(0));
    if let Err(e) = r
        .store
        .finish_run(
            run_id,
            finished,
            report.stats,
            DEDUP_METHOD,
            parse_ok,
            error.as_deref(),
        )
        .await
    {
        tracing::warn!(chat = %report.chat, error = %e, "reflector: cannot record the run");
    }
    let s = &report.stats;
    tracing::info!(
        chat = %report.chat, messages = s.messages_read, extracted = s.extracted, inserted = s.inserted,
        updated = s.updated, superseded = s.superseded, skipped = s.skipped, "reflector: chat done"
    );
    report
}

/// One batch: ask, check, store with the cursor at `batch.last_id` if it is still at
/// `cursor`. `Ok(None)` when the cursor had moved (the batch was stored by someone else).
async fn reflect_batch(
    r: &Reflector,
    chat: &ChatRow,
    batch: &Batch,
    cursor: i64,
    now: i64,
    cancel: &CancellationToken,
) -> Result<Option<RunStats>, Failure> {
    let mut stats = RunStats::default();
    let mut facts = Vec::new();
    // A batch of only the assistant's words and commands holds no facts: no call needed.
    if batch.has_user_lines() {
        let answer = ask(r, chat, batch, cancel).await?;
        let parsed = parse::parse_answer(&answer).map_err(|e| Failure::Parse(e.to_string()))?;
        stats.extracted = (parsed.facts.len() + parsed.invalid) as i64;
        stats.skipped = parsed.invalid as i64;
        for raw in &parsed.facts {
            let checked = gate::check(raw).and_then(|fact| {
                let provenance = attribute::attribute(&fact, &batch.lines, chat.is_group)?;
                Ok(Fact { fact, provenance })
            });
            match checked {
                Ok(fact) => facts.push(fact),
                Err(reason) => {
                    stats.skipped += 1;
                    tracing::debug!(chat_id = chat.id, %reason, "reflector: fact dropped");
                }
            }
        }
    }
    let store_failure = |e: sqlx::Error| Failure::Store(e.to_string());
    let Some(mut tx) = r
        .store
        .begin_reflection(chat.id, cursor)
        .await
        .map_err(store_failure)?
    else {
        return Ok(None);
    };
    let s = &r.settings;
    let applied = apply::apply(&mut tx, chat.id, &facts, s.dedup_threshold, &s.policy, now)
        .await
        .map_err(store_failure)?;
    tx.commit(batch.last_id, now).await.map_err(store_failure)?;
    stats.inserted = applied.inserted;
    stats.updated = applied.updated;
    stats.superseded = applied.superseded;
    Ok(Some(stats))
}

/// The model's answer to the batch, its usage recorded as `reflector`.
async fn ask(
    r: &Reflector,
    chat: &ChatRow,
    batch: &Batch,
    cancel: &CancellationToken,
) -> Result<String, Failure> {
    let context = r
        .store
        .context_memories(chat.id, &batch.terms(), r.settings.context_memories)
        .await
        .map_err(|e| Failure::Store(e.to_string()))?;
    let request = LlmRequest {
        model: r.settings.model.clone(),
        system: prompt::SYSTEM.to_string(),
        messages: vec![ChatMessage::user(prompt::user_content(
            &chat.key(),
            chat.is_group,
            &context,
            &batch.lines,
        ))],
        tools: Vec::new(),
        max_tokens: r.settings.max_tokens,
    };
    let response = tokio::select! {
        response = r.llm.complete(&request) => response.map_err(|e| Failure::Llm(e.to_string()))?,
        () = cancel.cancelled() => return Err(Failure::Interrupted),
    };
    // Logged before anything is written: the point a crash test waits for.
    tracing::debug!(
        chat_id = chat.id,
        chars = response.text.len(),
        "reflector: the model answered"
    );
    let usage = r
        .store
        .record_usage(
            Some(chat.id),
            r.llm.name(),
            &r.settings.model,
            "reflector",
            response.usage.input_tokens,
            response.usage.output_tokens,
        )
        .await;
    if let Err(e) = usage {
        tracing::warn!(error = %e, "could not record LLM usage");
    }
    Ok(response.text)
}
