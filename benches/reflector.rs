//! The reflector's costs: the dedup check of one extracted fact against 1k, 10k and 100k
//! memories in a chat (through the term index, and for comparison by scanning the chat), and
//! a pass over a 1,000-message backlog with a model that answers instantly.
//!
//! `cargo bench --bench reflector` prints medians and p99; figures are in README.md. No
//! network: the model is an `LlmProvider` implemented here.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use mneme::base::{Category, ChatKey, MemoryScope, Source};
use mneme::config::Config;
use mneme::llm::{LlmError, LlmProvider, LlmRequest, LlmResponse};
use mneme::memory::{dedup, text};
use mneme::reflector::{Reflector, Target};
use mneme::store::{NewMemory, NewMessage, Store, now_ms};
use tokio_util::sync::CancellationToken;

const THRESHOLD: f64 = dedup::JACCARD_THRESHOLD;
const NAMES: &[&str] = &[
    "Alice", "Bob", "Carol", "Dan", "Erin", "Frank", "Grace", "Heidi",
];
const VERBS: &[&str] = &[
    "likes", "owns", "visited", "studies", "prefers", "collects", "builds", "teaches", "plays",
    "cooks", "reads", "repairs",
];
const SYLLABLES: &[&str] = &[
    "ka", "ro", "mi", "ta", "sen", "do", "ri", "lu", "ne", "po", "var", "gel", "tin", "bo", "sha",
    "qui", "ze", "mar", "lo", "fen",
];
const HANZI: &[char] = &[
    '茶', '猫', '狗', '书', '山', '河', '车', '花', '鱼', '米', '画', '琴', '歌', '海', '城', '雪',
    '风', '石', '灯', '桥', '京', '阪', '林', '园', '学', '医', '厨', '球', '影', '诗',
];

/// Content words drawn with a Zipf skew (s = 1) over `size` ranks after skipping the
/// `skip` most frequent (standing for the stop words `memory::text` drops). Two shapes are
/// measured: a realistic one (50,000 words, the top 100 skipped) and a heavy head (5,000
/// words, none skipped: the commonest word is in half the memories), which makes the index
/// work harder than real text will.
struct Vocabulary {
    words: Vec<String>,
    /// Cumulative weights for the skewed draw.
    cumulative: Vec<f64>,
}

impl Vocabulary {
    fn new(size: usize, skip: usize) -> Self {
        // distinct pseudo-words: the rank written in base 20 with syllables as digits
        let words = (0..size)
            .map(|mut i| {
                let mut w = String::new();
                for _ in 0..4 {
                    w.push_str(SYLLABLES[i % SYLLABLES.len()]);
                    i /= SYLLABLES.len();
                }
                w
            })
            .collect();
        let mut total = 0.0;
        let cumulative = (skip + 1..=skip + size)
            .map(|rank| {
                total += 1.0 / rank as f64;
                total
            })
            .collect();
        Self { words, cumulative }
    }

    fn word(&self, rng: &mut fastrand::Rng) -> &str {
        let total = *self.cumulative.last().unwrap();
        let x = rng.f64() * total;
        let i = self.cumulative.partition_point(|c| *c < x);
        &self.words[i.min(self.words.len() - 1)]
    }

    fn fact(&self, rng: &mut fastrand::Rng) -> String {
        if rng.usize(0..10) == 0 {
            let n = 4 + rng.usize(0..6);
            let han: String = (0..n).map(|_| HANZI[rng.usize(0..HANZI.len())]).collect();
            return format!("{}喜欢{han}", NAMES[rng.usize(0..NAMES.len())]);
        }
        let n = 4 + rng.usize(0..6);
        let words: Vec<&str> = (0..n).map(|_| self.word(rng)).collect();
        // a chat's memories are mostly about its person: one name in most of them
        let name = if rng.usize(0..5) == 0 {
            NAMES[rng.usize(0..NAMES.len())]
        } else {
            NAMES[0]
        };
        format!(
            "{name} {} {}",
            VERBS[rng.usize(0..VERBS.len())],
            words.join(" ")
        )
    }
}

fn stats(mut samples: Vec<Duration>) -> (Duration, Duration) {
    samples.sort();
    let median = samples[samples.len() / 2];
    let p99 = samples[(samples.len() * 99 / 100).min(samples.len() - 1)];
    (median, p99)
}

fn config(dir: &std::path::Path) -> Config {
    let yaml = format!(
        "data_dir: {}\nmodel: bench\nllm_base_url: http://127.0.0.1:9/v1\nchannels:\n  web:\n    enabled: false\n",
        dir.join("data").display()
    );
    Config::from_yaml(&yaml, &dir.join("c.yaml"), &[])
        .unwrap()
        .config
}

fn memory(chat_id: i64, content: String) -> NewMemory {
    NewMemory {
        scope: MemoryScope::Chat(chat_id),
        category: Category::Profile,
        content,
        subject: None,
        confidence: 0.7,
        source: Source::Reflector,
        source_message_ids: vec![],
        created_at: None,
        last_seen_at: None,
        archived: false,
        key: None,
    }
}

/// Probe facts: half restate a stored fact with a word changed, half are new.
fn probes(stored: &[String], vocab: &Vocabulary, rng: &mut fastrand::Rng, n: usize) -> Vec<String> {
    (0..n)
        .map(|i| {
            if i % 2 == 0 {
                let mut words: Vec<&str> = stored[rng.usize(0..stored.len())].split(' ').collect();
                let at = rng.usize(0..words.len());
                words[at] = vocab.word(rng);
                words.join(" ")
            } else {
                vocab.fact(rng)
            }
        })
        .collect()
}

async fn bench_dedup() {
    println!(
        "{:<34} {:>8} {:>12} {:>12} {:>12}",
        "dedup check per fact", "memories", "median", "p99", "candidates"
    );
    let shapes = [
        ("realistic vocabulary", Vocabulary::new(50_000, 100), false),
        ("heavy-head vocabulary", Vocabulary::new(5_000, 0), true),
    ];
    for (shape, vocab, with_scan) in &shapes {
        println!("{shape}:");
        for n in [1_000, 10_000, 100_000] {
            bench_dedup_at(n, vocab, *with_scan).await;
        }
    }
}

async fn bench_dedup_at(n: usize, vocab: &Vocabulary, with_scan: bool) {
    let mut rng = fastrand::Rng::with_seed(7);
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&config(dir.path()).database_url())
        .await
        .unwrap();
    let chat = store
        .ensure_chat(&ChatKey::new("cli", "bench"), false, None)
        .await
        .unwrap();
    let stored: Vec<String> = (0..n).map(|_| vocab.fact(&mut rng)).collect();
    let t = Instant::now();
    store
        .insert_memories(
            &stored
                .iter()
                .map(|c| memory(chat.id, c.clone()))
                .collect::<Vec<_>>(),
        )
        .await
        .unwrap();
    let load = t.elapsed();
    let scope = MemoryScope::Chat(chat.id);
    let probes = probes(&stored, vocab, &mut rng, 400);

    let (mut samples, mut candidates, mut hits) = (Vec::new(), 0, 0);
    for p in &probes {
        let t = Instant::now();
        let terms = text::term_set(p);
        let rows = store
            .dedup_candidates(scope, &terms, THRESHOLD)
            .await
            .unwrap();
        let hit = dedup::closest(&terms, &rows, |m| &m.content, THRESHOLD);
        samples.push(t.elapsed());
        candidates += rows.len();
        hits += usize::from(hit.is_some());
    }
    let (median, p99) = stats(samples);
    println!(
        "{:<34} {:>8} {:>12.2?} {:>12.2?} {:>12.1}",
        "  term index (the reflector)",
        n,
        median,
        p99,
        candidates as f64 / probes.len() as f64
    );
    if with_scan {
        // the same decision by scanning every row of the chat, for comparison
        let runs = if n >= 100_000 { 5 } else { 40 };
        let mut scan = Vec::new();
        for p in probes.iter().take(runs) {
            let t = Instant::now();
            let terms = text::term_set(p);
            let rows = store.rank_rows(chat.id, false).await.unwrap();
            let sets: Vec<(HashSet<String>, i64)> = rows
                .iter()
                .map(|m| (text::term_set(&m.content), m.id))
                .collect();
            dedup::best_duplicate(&terms, sets.iter().map(|(s, id)| (s, *id)), THRESHOLD);
            scan.push(t.elapsed());
        }
        let (median, p99) = stats(scan);
        println!(
            "{:<34} {:>8} {:>12.2?} {:>12.2?} {:>12}",
            "  scan of the chat (for comparison)", n, median, p99, n
        );
    }
    println!(
        "    ({hits} of {} probes found a duplicate; bulk insert with postings {:.1?} per memory)",
        probes.len(),
        load / n as u32
    );
}

/// A model that answers at once: one fact per fourth person's line, words taken from it, so
/// facts repeat as topics do and dedup, inserts and reinforcement all happen.
struct InstantLlm;

#[async_trait]
impl LlmProvider for InstantLlm {
    fn name(&self) -> &'static str {
        "instant"
    }
    async fn complete(&self, req: &LlmRequest) -> Result<LlmResponse, LlmError> {
        let prompt = &req.messages[0].content;
        let facts: Vec<serde_json::Value> = prompt
            .lines()
            .filter(|l| l.contains(" user "))
            .step_by(4)
            .filter_map(|l| {
                let (_, said) = l.split_once("]: ")?;
                let words: Vec<&str> = said.split_whitespace().skip(1).take(6).collect();
                Some(serde_json::json!({
                    "content": format!("Alice {}", words.join(" ")),
                    "category": "PROFILE",
                    "supersedes_id": null
                }))
            })
            .collect();
        Ok(LlmResponse {
            text: serde_json::json!({ "memories": facts }).to_string(),
            ..LlmResponse::default()
        })
    }
}

async fn bench_backlog_pass() {
    println!();
    println!(
        "{:<34} {:>8} {:>12} {:>12} {:>8} {:>9}",
        "pass over a backlog", "messages", "median", "max", "batches", "inserted"
    );
    let mut rng = fastrand::Rng::with_seed(11);
    let vocab = Vocabulary::new(50_000, 100);
    let mut samples = Vec::new();
    let (mut batches, mut inserted) = (0, 0);
    for _ in 0..5 {
        let dir = tempfile::tempdir().unwrap();
        let config = config(dir.path());
        let store = Store::open(&config.database_url()).await.unwrap();
        let chat = store
            .ensure_chat(&ChatKey::new("telegram", "-100"), true, None)
            .await
            .unwrap();
        let session = store.current_session(chat.id).await.unwrap();
        for i in 0..1_000 {
            let bot = i % 5 == 4;
            let text = format!("I {}", vocab.fact(&mut rng).to_lowercase());
            store
                .insert_message(&NewMessage {
                    chat_id: chat.id,
                    session_id: session,
                    sender_id: if bot { "bot" } else { "u1" },
                    sender_name: if bot { "Mneme" } else { "alice" },
                    is_from_bot: bot,
                    text: &text,
                    platform_message_id: None,
                    platform_thread_id: None,
                    created_at: None,
                    needs_reply: false,
                    searchable: true,
                })
                .await
                .unwrap();
        }
        let reflector = Reflector::new(&config, store.clone(), Arc::new(InstantLlm));
        let t = Instant::now();
        let report = reflector
            .run_pass(&Target::Due, now_ms(), &CancellationToken::new())
            .await
            .unwrap();
        samples.push(t.elapsed());
        let c = &report.chats[0];
        assert!(c.failure.is_none() && c.caught_up);
        (batches, inserted) = (c.batches, c.stats.inserted);
    }
    let (median, _) = stats(samples.clone());
    println!(
        "{:<34} {:>8} {:>12.2?} {:>12.2?} {:>8} {:>9}",
        "  1 chat, instant model",
        1_000,
        median,
        samples.iter().max().unwrap(),
        batches,
        inserted
    );
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    // `cargo test --benches` runs this without --bench; only measure under `cargo bench`.
    if !std::env::args().any(|a| a == "--bench") {
        println!("reflector: run with `cargo bench --bench reflector`");
        return;
    }
    // REFLECTOR_BENCH=backlog (or dedup) runs one part
    let only = std::env::var("REFLECTOR_BENCH").unwrap_or_default();
    if only.is_empty() || only == "dedup" {
        bench_dedup().await;
    }
    if only.is_empty() || only == "backlog" {
        bench_backlog_pass().await;
    }
}
