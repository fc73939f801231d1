//! `mneme memory import` figures: rows per second for 10k and 100k memories through the
//! memory service (every line through the gate, one transaction, term index, full-text index,
//! embedding queue and history kept by the same code as always), without embeddings — the
//! embedding after an import is the embedder's speed (`cargo bench --bench embed`). Median of
//! three runs on fresh databases. Then the consolidation that follows such an import: every
//! imported memory of one chat compared with the others (`Memories::consolidate`, pass after
//! pass until the mark reaches the last), one in ten a rewording to merge. Prints figures;
//! asserts nothing about time.

use std::time::{Duration, Instant};

use mneme::base::{Category, ChatKey, MemoryScope, Source};
use mneme::config::Config;
use mneme::memories::Memories;
use mneme::memories::consolidate::RULES;
use mneme::memories::import::ImportLine;
use mneme::memories::retrieval::Retriever;
use mneme::store::{MemoryFilter, NewMemory, Store};

const RUNS: usize = 3;

fn lines(n: usize) -> Vec<ImportLine> {
    let who = [
        "Alice", "Bob", "Chen", "Dana", "Eve", "Farid", "Gita", "Hugo",
    ];
    let what = [
        "likes green tea with lemon",
        "visited Osaka last spring",
        "works on the billing service",
        "has a dog named Rex",
        "prefers Rust examples with tests",
        "is learning the cello on Thursdays",
    ];
    (0..n)
        .map(|i| ImportLine {
            line: i + 1,
            chat: Some(ChatKey::new("telegram", (i % 50).to_string())),
            states_explicit: false,
            memory: NewMemory {
                scope: MemoryScope::Global,
                category: Category::Knowledge,
                content: format!(
                    "{} {} (note {i})",
                    who[i % who.len()],
                    what[(i / who.len()) % what.len()]
                ),
                subject: None,
                confidence: 0.8,
                source: Source::Explicit,
                source_message_ids: Vec::new(),
                created_at: None,
                last_seen_at: None,
                archived: false,
                key: None,
            },
        })
        .collect()
}

/// `n` memories of one chat, every tenth a rewording of the one before (one more ordinary
/// word: the same fact, to be merged).
fn one_chat(n: usize) -> Vec<ImportLine> {
    let mut lines = lines(n);
    for i in (9..n).step_by(10) {
        lines[i].memory.content = format!("{}, really", lines[i - 1].memory.content);
    }
    for l in &mut lines {
        l.chat = Some(ChatKey::new("telegram", "7"));
    }
    lines
}

/// The time to consolidate `n` freshly imported memories of one chat, and how many merged.
async fn consolidation(n: usize) -> (Duration, usize) {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("mneme.db").display());
    let store = Store::open(&url).await.unwrap();
    let memories = Memories::new(Retriever::new(&Config::default(), store.clone(), None));
    let done = memories
        .import(one_chat(n))
        .await
        .unwrap_or_else(|_| panic!("import refused"));
    assert_eq!(done.inserted, n);
    let scope = store.memory_scopes().await.unwrap()[0];
    let last = store
        .list_memories(&MemoryFilter::default())
        .await
        .unwrap()
        .iter()
        .map(|m| m.id)
        .max()
        .unwrap();
    let started = Instant::now();
    let mut merged = 0;
    while store.consolidated_up_to(scope, RULES).await.unwrap() < last {
        let done = memories.consolidate(scope).await.unwrap();
        assert_eq!(done.replaced, 0, "no imported fact replaces another");
        merged += done.merged;
    }
    let took = started.elapsed();
    store.close().await;
    (took, merged)
}

async fn once(n: usize) -> Duration {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("mneme.db").display());
    let store = Store::open(&url).await.unwrap();
    let memories = Memories::new(Retriever::new(&Config::default(), store.clone(), None));
    let input = lines(n);
    let started = Instant::now();
    let done = memories
        .import(input)
        .await
        .unwrap_or_else(|_| panic!("import refused"));
    let took = started.elapsed();
    assert_eq!(done.inserted, n);
    store.close().await;
    took
}

#[tokio::main]
async fn main() {
    if std::env::args().any(|a| a == "--test") {
        // `cargo test --benches` runs this in test mode: a small import, no figures
        once(200).await;
        let (_, merged) = consolidation(200).await;
        assert_eq!(merged, 20, "every rewording merged, nothing else");
        return;
    }
    println!("{:<8} {:>12} {:>12}", "memories", "median", "rows/s");
    for n in [10_000, 100_000] {
        let mut runs: Vec<Duration> = Vec::new();
        for _ in 0..RUNS {
            runs.push(once(n).await);
        }
        runs.sort();
        let median = runs[RUNS / 2];
        println!(
            "{n:<8} {:>12.2?} {:>12.0}",
            median,
            n as f64 / median.as_secs_f64()
        );
    }
    println!();
    println!(
        "{:<8} {:>14} {:>16} {:>8}",
        "memories", "consolidation", "per memory", "merged"
    );
    for n in [10_000, 30_000] {
        let (took, merged) = consolidation(n).await;
        println!(
            "{n:<8} {:>14.2?} {:>16.2?} {merged:>8}",
            took,
            took / n as u32
        );
    }
}
