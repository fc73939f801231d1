//! `mneme usage`: what the bot spent and how its memory is doing.

use std::process::ExitCode;

use crate::store::{Store, now_ms};

pub async fn run(store: &Store) -> anyhow::Result<ExitCode> {
    let rows = store.usage_by_chat(None).await?;
    if rows.is_empty() {
        println!("No LLM calls recorded yet.");
    } else {
        const BACKGROUND: &str = "(background)";
        let chat = |r: &crate::store::UsageRow| r.chat.as_deref().unwrap_or(BACKGROUND).to_string();
        let model = |r: &crate::store::UsageRow| format!("{} ({})", r.model, r.provider);
        // Columns as wide as their longest value: chat keys run to 40 characters (web chats).
        let cw = rows
            .iter()
            .map(|r| chat(r).chars().count())
            .max()
            .unwrap_or(0)
            .max(4);
        let mw = rows
            .iter()
            .map(|r| model(r).chars().count())
            .max()
            .unwrap_or(0)
            .max(5);
        println!(
            "{:<cw$} {:<mw$} {:<10} {:>7} {:>12} {:>12}",
            "CHAT", "MODEL", "PURPOSE", "CALLS", "IN TOKENS", "OUT TOKENS"
        );
        for r in &rows {
            println!(
                "{:<cw$} {:<mw$} {:<10} {:>7} {:>12} {:>12}",
                chat(r),
                model(r),
                r.purpose,
                r.calls,
                r.input_tokens,
                r.output_tokens
            );
        }
    }
    let day = store.usage_summary(now_ms() - 86_400_000).await?;
    let pool = store.pool_counts(None).await?;
    println!();
    println!(
        "Memories: {} active ({} with confidence below 0.5), {} archived.",
        pool.active, pool.low_confidence, pool.archived
    );
    let vectors = store.vector_counts().await?;
    let waiting = store.embedding_queue_len().await?;
    if vectors.is_empty() {
        println!(
            "Embeddings: none stored (embedding_provider: none, or not run yet); search uses keywords."
        );
    } else {
        let per_model: Vec<String> = vectors
            .iter()
            .map(|(model, dim, n)| format!("{n} from {model} ({dim}-d)"))
            .collect();
        println!(
            "Embeddings: {}; {waiting} memories waiting for one.",
            per_model.join(", ")
        );
    }
    println!(
        "Reflector, last 24 h: {} runs ({} failed), {} facts extracted, {} inserted, {} updated, {} superseded, {} skipped.",
        day.reflector_runs,
        day.reflector_failures,
        day.reflector_extracted,
        day.reflector_inserted,
        day.reflector_updated,
        day.reflector_superseded,
        day.reflector_skipped
    );
    let set_aside = store.set_aside_batches(5).await?;
    if !set_aside.is_empty() {
        println!(
            "Reflector batches set aside (the model's answers were unreadable), newest first:"
        );
        for b in &set_aside {
            println!(
                "  {} messages #{} to #{}, after {} attempts, {}: {}",
                b.chat,
                b.after_message_id + 1,
                b.last_message_id,
                b.attempts,
                crate::memories::json::rfc3339(b.set_aside_at),
                b.error
            );
        }
    }
    let coverage = if day.injected_candidates > 0 {
        format!(
            "{:.0}%",
            100.0 * day.injected_selected as f64 / day.injected_candidates as f64
        )
    } else {
        "n/a".into()
    };
    println!(
        "Injection, last 24 h: {} prompts, {} of {} candidate memories injected ({coverage}).",
        day.injections, day.injected_selected, day.injected_candidates
    );
    print_jobs(&store.jobs().await?);
    Ok(ExitCode::SUCCESS)
}

/// Each scheduled job's last and next run.
fn print_jobs(jobs: &[crate::store::JobRow]) {
    if jobs.is_empty() {
        println!("Scheduled jobs: none recorded yet (`mneme start` records them).");
        return;
    }
    println!("Scheduled jobs:");
    for j in jobs {
        let last = match (j.last_started_at, j.last_finished_at) {
            (None, _) => "never run".to_string(),
            (Some(start), Some(end)) if end >= start => format!(
                "{} {} ({} s){}",
                if j.last_ok == Some(true) {
                    "ok"
                } else {
                    "failed"
                },
                crate::memories::json::rfc3339(start),
                (end - start + 500) / 1000,
                j.last_error
                    .as_deref()
                    .map(|e| format!(": {e}"))
                    .unwrap_or_default()
            ),
            (Some(start), _) => format!("running since {}", crate::memories::json::rfc3339(start)),
        };
        let next = j
            .next_run_at
            .map(crate::memories::json::rfc3339)
            .unwrap_or_else(|| "not planned".into());
        println!(
            "  {:<10} {:<28} last: {last}; next: {next}",
            j.name, j.schedule
        );
    }
}
