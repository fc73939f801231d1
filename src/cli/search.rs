//! `mneme memory search`: the agent's own retrieval, with what each stage made of every hit.

use std::io::Write;
use std::process::ExitCode;

use super::print::print_memory;
use crate::config::Config;
use crate::memories::json::MemoryJson;
use crate::memories::retrieval::{Retriever, SearchResults};
use crate::memory::rank::Stages;
use crate::store::{SearchScope, Store};

pub async fn run(
    config: &Config,
    store: &Store,
    scope: SearchScope,
    query: &str,
    limit: usize,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let embedder = match crate::embed::from_config(config).await {
        Ok(e) => e,
        Err(e) => {
            eprintln!("note: searching without embeddings: {e}");
            None
        }
    };
    let retriever = Retriever::new(config, store.clone(), embedder);
    let found = retriever.search(scope, query, limit).await?;
    let mut out = super::print::Visible(std::io::stdout().lock());
    if !json {
        eprintln!("{}", describe(config, &retriever, &found));
        if retriever.embedder().is_some() {
            let waiting = store.embedding_queue_len().await?;
            if waiting > 0 {
                eprintln!(
                    "note: {waiting} memories have no embedding yet (`mneme start` embeds them in the background); vector ranking cannot find those"
                );
            }
        }
    }
    for hit in &found.hits {
        if json {
            let mut value =
                serde_json::to_value(MemoryJson::from_row(&hit.memory, Some(hit.score)))?;
            value["stages"] = hit.stages.to_json();
            writeln!(out, "{value}")?;
        } else {
            print_memory(&mut out, &hit.memory, Some(hit.score), false)?;
            writeln!(out, "        {}", stages_text(&hit.stages))?;
        }
    }
    if !json && found.hits.is_empty() {
        eprintln!("no memory matches `{query}`");
    }
    Ok(ExitCode::SUCCESS)
}

/// One line saying which stages ran: `ranking: bm25 + vector (local:all-MiniLM-L6-v2) → RRF …`.
fn describe(config: &Config, retriever: &Retriever, found: &SearchResults) -> String {
    let s = &config.search;
    let mut lists = Vec::new();
    if found.used_bm25 {
        lists.push("bm25".to_string());
    }
    if found.used_vector
        && let Some(e) = retriever.embedder()
    {
        lists.push(format!("vector ({}:{})", e.provider(), e.model()));
    }
    if lists.is_empty() {
        lists.push("nothing (no keywords, no embeddings)".into());
    }
    let mut line = format!("ranking: {} → RRF k={}", lists.join(" + "), s.rrf_k);
    if s.decay {
        line.push_str(&format!(" → decay (half-life {} d)", s.half_life_days));
    }
    if s.mmr {
        line.push_str(&format!(" → MMR λ={}", s.mmr_lambda));
    }
    if let Some(e) = &found.vector_error {
        line.push_str(&format!("\nnote: vector ranking skipped: {e}"));
    }
    line
}

fn stages_text(s: &Stages) -> String {
    let bm25 = match (s.bm25_rank, s.bm25) {
        (Some(r), Some(b)) => format!("bm25 #{r} ({b:.2})"),
        _ => "bm25 —".into(),
    };
    let vector = match (s.vector_rank, s.cosine) {
        (Some(r), Some(c)) => format!("vector #{r} (cos {c:.3})"),
        (None, Some(c)) => format!("vector — (cos {c:.3})"),
        _ => "vector —".into(),
    };
    format!(
        "{bm25}  {vector}  rrf {:.4}  decay {:.2}  → #{}",
        s.rrf, s.decay, s.position
    )
}
