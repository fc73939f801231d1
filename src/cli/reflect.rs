//! `mneme reflect [--chat CHANNEL:ID]`: one reflector pass now, and what it did per chat.

use std::process::ExitCode;

use clap::Args;
use tokio_util::sync::CancellationToken;

use super::open_store;
use crate::base::ChatKey;
use crate::config::Config;
use crate::memories::json::rfc3339;
use crate::memories::retrieval::Retriever;
use crate::reflector::{ChatReport, Failure, PassReport, Reflector, Target};
use crate::store::now_ms;

#[derive(Debug, Args)]
pub struct ReflectArgs {
    /// Only this chat (CHANNEL:ID), at once, even while it backs off after failures
    #[arg(long, value_name = "CHANNEL:ID")]
    pub chat: Option<String>,
}

pub async fn run(config: &Config, args: &ReflectArgs) -> anyhow::Result<ExitCode> {
    let target = match &args.chat {
        Some(name) => Target::Chat(
            name.parse::<ChatKey>()
                .map_err(|e| anyhow::anyhow!("--chat: {e}"))?,
        ),
        None => Target::Due,
    };
    if !config.reflector_enabled {
        eprintln!(
            "note: reflector_enabled is false, so `mneme start` runs no passes; running this one because you asked."
        );
    }
    let store = open_store(config).await?;
    let llm = crate::llm::from_config(config).map_err(anyhow::Error::msg)?;
    let retriever = Retriever::new(config, store.clone(), super::embedder(config).await);
    let reflector = Reflector::with_retriever(config, retriever, llm);
    let cancel = CancellationToken::new();
    let on_ctrl_c = cancel.clone();
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            on_ctrl_c.cancel();
        }
    });
    let report = reflector.run_pass(&target, now_ms(), &cancel).await;
    store.close().await;
    let report = report?;
    print(&report);
    if report.all_failed() {
        let llm_down = report
            .chats
            .iter()
            .find_map(|c| match &c.failure {
                Some(Failure::Llm(e)) => Some(e),
                _ => None,
            })
            .filter(|_| {
                report
                    .chats
                    .iter()
                    .all(|c| matches!(c.failure, Some(Failure::Llm(_))))
            });
        match llm_down {
            Some(e) => eprintln!(
                "error: the LLM could not be reached for any chat ({e}). Nothing is lost: the messages stay queued and are retried with backoff; check llm_base_url, model and api_key with `mneme check-config`."
            ),
            None => eprintln!(
                "error: no chat could be reflected (see above). Nothing is lost: the batches are retried with backoff."
            ),
        }
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

fn print(report: &PassReport) {
    if report.chats.is_empty() {
        println!("Nothing to reflect: no chat is due.");
    } else {
        // As wide as the longest chat key (web chats' run to 40 characters).
        let cw = report
            .chats
            .iter()
            .map(|c| c.chat.to_string().chars().count())
            .max()
            .unwrap_or(0)
            .max(4);
        println!(
            "{:<cw$} {:>8} {:>9} {:>8} {:>7} {:>10} {:>7}  RESULT",
            "CHAT", "MESSAGES", "EXTRACTED", "INSERTED", "UPDATED", "SUPERSEDED", "SKIPPED"
        );
        for c in &report.chats {
            let s = &c.stats;
            println!(
                "{:<cw$} {:>8} {:>9} {:>8} {:>7} {:>10} {:>7}  {}",
                c.chat.to_string(),
                s.messages_read,
                s.extracted,
                s.inserted,
                s.updated,
                s.superseded,
                s.skipped,
                result(c)
            );
        }
    }
    for (chat, at) in &report.backing_off {
        println!(
            "{chat}: backing off after failures until {}; `mneme reflect --chat {chat}` tries it now.",
            rfc3339(*at)
        );
    }
    let l = &report.lifecycle;
    println!(
        "Lifecycle: {} faded memories archived, {} over the caps archived, {} duplicates merged, \
         {} replaced by a newer fact stored beside them.",
        l.stale, l.over_cap, report.consolidated.merged, report.consolidated.replaced
    );
    if let Some(e) = &report.lifecycle_error {
        eprintln!("warning: the lifecycle sweep failed: {e}");
    }
}

fn result(c: &ChatReport) -> String {
    match (&c.failure, c.retry_at) {
        // Not ok: those messages will not become memories.
        (None, _) if c.set_aside > 0 => format!(
            "{} batch(es) set aside after unreadable answers (reflector_max_parse_failures in \
             a row): their messages are not reflected; `mneme usage` lists them",
            c.set_aside
        ),
        (None, _) if c.caught_up => "ok".into(),
        (None, _) => "ok (stored meanwhile by another pass)".into(),
        (Some(f), Some(at)) => format!("failed: {f}; retried after {}", rfc3339(at)),
        (Some(f), None) => format!("failed: {f}"),
    }
}
