//! One chat's part of a pass: its backlog, batch by batch, each batch stored together with
//! the cursor or not at all.

use std::time::Instant;

use tokio_util::sync::CancellationToken;

use super::apply::{self, Dedup, Embedded, Fact};
use super::batch::{self, Batch};
use super::{ChatReport, Failure, Reflector, attribute, gate, parse, prompt};
use crate::base::bug::contained;
use crate::llm::{ChatMessage, LlmRequest};
use crate::store::{ChatRow, DueChat, RunStats, Tokens};

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
        set_aside: 0,
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
    // Dedup methods the batches used ("cosine", or "jaccard" when embedding failed).
    let mut methods = std::collections::BTreeSet::new();
    // What the run record says besides a failure: batches set aside.
    let mut notes: Vec<String> = Vec::new();
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
        let reflected = contained(
            "a reflector batch",
            reflect_batch(r, chat, &batch, cursor, now, cancel),
        )
        .await
        .unwrap_or_else(|bug| Err(Failure::Bug(bug.to_string())));
        match reflected {
            Ok(Some((stats, method))) => {
                methods.insert(method);
                report.stats += stats;
                report.batches += 1;
                cursor = batch.last_id;
            }
            // Another pass (another process) stored this batch meanwhile: its run says so.
            Ok(None) => break,
            Err(failure @ (Failure::Parse(_) | Failure::Bug(_))) => {
                let why = failure.to_string();
                let what = if matches!(failure, Failure::Bug(_)) {
                    "tries that met a bug"
                } else {
                    "unreadable answers"
                };
                match set_aside(r, chat, &batch, cursor, now, &why).await {
                    Ok(SetAside::Done) => {
                        report.set_aside += 1;
                        notes.push(format!(
                            "messages {}..={} set aside after {} {what} ({why})",
                            cursor + 1,
                            batch.last_id,
                            r.settings.max_parse_failures
                        ));
                        cursor = batch.last_id;
                    }
                    Ok(SetAside::NotYet) => report.failure = Some(failure),
                    Ok(SetAside::Moved) => break,
                    Err(e) => report.failure = Some(Failure::Store(e.to_string())),
                }
            }
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
    let parse_ok = !matches!(report.failure, Some(Failure::Parse(_))) && report.set_aside == 0;
    if methods.is_empty() {
        methods.insert(if r.retriever.embedder().is_some() {
            "cosine"
        } else {
            "jaccard"
        });
    }
    let method = methods.into_iter().collect::<Vec<_>>().join("+");
    if let Some(failure) = &report.failure {
        notes.push(failure.to_string());
    }
    let error = (!notes.is_empty()).then(|| notes.join("; "));
    let finished = now.saturating_add(i64::try_from(clock.elapsed().as_millis()).unwrap_or(0));
    if let Err(e) = r
        .store
        .finish_run(
            run_id,
            finished,
            report.stats,
            &method,
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

enum SetAside {
    /// Set aside; the cursor is past it.
    Done,
    /// Not as many failures yet: the batch is retried (with backoff).
    NotYet,
    /// The cursor had moved (another process stored the batch).
    Moved,
}

/// Counts an unreadable answer for the batch at `cursor`; at `max_parse_failures` in a row,
/// sets the batch aside (recorded with `why`) and moves the cursor past it.
async fn set_aside(
    r: &Reflector,
    chat: &ChatRow,
    batch: &Batch,
    cursor: i64,
    now: i64,
    why: &str,
) -> Result<SetAside, sqlx::Error> {
    let failures = r.store.record_parse_failure(chat.id, now).await?;
    if failures < r.settings.max_parse_failures {
        return Ok(SetAside::NotYet);
    }
    let moved = r
        .store
        .set_aside_batch(chat.id, cursor, batch.last_id, failures, why, now)
        .await?;
    if moved {
        tracing::warn!(
            chat = %chat.key(), after = cursor, last = batch.last_id, failures,
            "reflector: a batch the model keeps answering unreadably is set aside; reflection goes on past it"
        );
        Ok(SetAside::Done)
    } else {
        Ok(SetAside::Moved)
    }
}

/// One batch: ask, check, store with the cursor at `batch.last_id` if it is still at
/// `cursor`. `Ok(None)` when the cursor had moved (the batch was stored by someone else);
/// else what it did and the dedup method it used.
async fn reflect_batch(
    r: &Reflector,
    chat: &ChatRow,
    batch: &Batch,
    cursor: i64,
    now: i64,
    cancel: &CancellationToken,
) -> Result<Option<(RunStats, &'static str)>, Failure> {
    let mut stats = RunStats::default();
    let mut facts: Vec<Fact> = Vec::new();
    // A batch of only the assistant's words and commands holds no facts: no call needed.
    if batch.has_user_lines() {
        let answer = ask(r, chat, batch, cancel).await?;
        let parsed = parse::parse_answer(&answer).map_err(|e| Failure::Parse(e.to_string()))?;
        stats.extracted = (parsed.facts.len() + parsed.invalid) as i64;
        stats.skipped = parsed.invalid as i64;
        if parsed.invalid > 0 {
            tracing::info!(
                chat_id = chat.id,
                skipped = parsed.invalid,
                "reflector: elements of the answer skipped: not a fact (no content or category, a bare string…), or past the {} taken from one answer",
                parse::MAX_FACTS_PER_ANSWER
            );
        }
        for raw in &parsed.facts {
            let checked = gate::check(raw).and_then(|fact| {
                let provenance = attribute::attribute(&fact, &batch.lines, chat.is_group)?;
                Ok(Fact {
                    fact,
                    provenance,
                    embedding: None,
                })
            });
            match checked {
                Ok(fact) => facts.push(fact),
                Err(reason) => {
                    stats.skipped += 1;
                    tracing::info!(chat_id = chat.id, %reason, "reflector: fact dropped");
                }
            }
        }
    }
    let mut dedup = Dedup::Terms;
    if let Some(embedder) = r.retriever.embedder()
        && !facts.is_empty()
    {
        match embed_facts(r, chat.id, &mut facts, cancel).await {
            Ok(()) => {
                dedup = Dedup::Cosine {
                    model: embedder.model(),
                }
            }
            Err(Failure::Interrupted) => return Err(Failure::Interrupted),
            Err(e) => {
                tracing::warn!(chat_id = chat.id, error = %e, "reflector: facts not embedded; dedup by terms for this batch")
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
    let applied = apply::apply(&mut tx, chat.id, &facts, dedup, &r.settings.policy, now)
        .await
        .map_err(store_failure)?;
    tx.commit(batch.last_id, now).await.map_err(store_failure)?;
    stats.inserted = applied.inserted;
    stats.updated = applied.updated;
    stats.superseded = applied.superseded;
    Ok(Some((stats, dedup.method())))
}

/// Most stored memories each fact is compared with by meaning.
const NEAREST: usize = 8;

/// Embeds the facts and looks up each one's nearest stored memories of the chat — before
/// the batch's transaction, so the write lock is not held meanwhile.
async fn embed_facts(
    r: &Reflector,
    chat_id: i64,
    facts: &mut [Fact],
    cancel: &CancellationToken,
) -> Result<(), Failure> {
    let Some(embedder) = r.retriever.embedder() else {
        return Ok(());
    };
    let texts: Vec<String> = facts.iter().map(|f| f.fact.content.clone()).collect();
    let call = tokio::time::timeout(EMBED_TIMEOUT, embedder.embed(&texts));
    let vectors = tokio::select! {
        v = call => match v {
            Ok(Ok(v)) if v.len() == facts.len() => v,
            Ok(Ok(v)) => return Err(Failure::Llm(format!("the embedder returned {} vectors for {} facts", v.len(), facts.len()))),
            Ok(Err(e)) => return Err(Failure::Llm(e.to_string())),
            Err(_) => return Err(Failure::Llm(format!("no embeddings within {}s", EMBED_TIMEOUT.as_secs()))),
        },
        () = cancel.cancelled() => return Err(Failure::Interrupted),
    };
    for (fact, vector) in facts.iter_mut().zip(vectors) {
        let nearest = r
            .retriever
            .nearest(&[chat_id], &vector, NEAREST)
            .await
            .map_err(|e| Failure::Store(e.to_string()))?;
        fact.embedding = Some(Embedded { vector, nearest });
    }
    Ok(())
}

/// Longest wait for a batch's embeddings before it is deduplicated by terms instead.
const EMBED_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

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
        tools: Vec::new().into(),
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
            Tokens {
                input: response.usage.input_tokens,
                output: response.usage.output_tokens,
            },
        )
        .await;
    if let Err(e) = usage {
        tracing::warn!(error = %e, "could not record LLM usage");
    }
    Ok(response.text)
}
