//! Prompt build time with 1k and 10k structured memories in one chat, and the "remember"
//! fast path (its near-duplicate check) at the same sizes.
//!
//! `cargo bench --bench prompt_build` prints medians and p99 over repeated runs; figures
//! are in README.md. No network: the LLM provider is configured but never called.

use std::sync::Arc;
use std::time::{Duration, Instant};

use mneme::agent::{Agent, IncomingMessage};
use mneme::config::Config;
use mneme::store::{Category, ChatKey, MemoryScope, NewMemory, Source, Store};

const WORDS: &[&str] = &[
    "tea", "coffee", "rust", "python", "dog", "cat", "tokyo", "osaka", "garden", "piano",
    "bicycle", "train", "mountain", "river", "birthday", "meeting", "project", "deadline",
    "recipe", "movie", "book", "holiday", "doctor", "school", "football", "guitar", "painting",
    "camera", "kitchen", "window", "summer", "winter", "喜欢", "绿茶", "东京", "工作", "周末",
    "朋友",
];

fn fact(rng: &mut fastrand::Rng, i: usize) -> String {
    let n = 6 + rng.usize(0..8);
    let words: Vec<&str> = (0..n).map(|_| WORDS[rng.usize(0..WORDS.len())]).collect();
    format!("fact {i}: {}", words.join(" "))
}

fn stats(mut samples: Vec<Duration>) -> (Duration, Duration) {
    samples.sort();
    let median = samples[samples.len() / 2];
    let p99 = samples[(samples.len() * 99 / 100).min(samples.len() - 1)];
    (median, p99)
}

async fn setup(n: usize) -> (tempfile::TempDir, Arc<Agent>, ChatKey) {
    let dir = tempfile::tempdir().unwrap();
    let yaml = format!(
        "data_dir: {}\nmodel: bench\nllm_base_url: http://127.0.0.1:9/v1\nchannels:\n  web:\n    enabled: false\n",
        dir.path().join("data").display()
    );
    let config = Config::from_yaml(&yaml, &dir.path().join("c.yaml"), &[])
        .unwrap()
        .config;
    let store = Store::open(&config.database_url()).await.unwrap();
    let key = ChatKey::new("cli", "bench");
    let chat = store.ensure_chat(&key, false, None).await.unwrap();
    let mut rng = fastrand::Rng::with_seed(7);
    let memories: Vec<NewMemory> = (0..n)
        .map(|i| NewMemory {
            scope: MemoryScope::Chat(chat.id),
            category: [Category::Profile, Category::Knowledge, Category::Event][i % 3],
            content: fact(&mut rng, i),
            subject: None,
            confidence: 0.5 + (i % 5) as f64 / 10.0,
            source: Source::Reflector,
            source_message_ids: vec![],
            created_at: None,
            last_seen_at: None,
            archived: false,
            key: None,
        })
        .collect();
    store.import_memories(&memories).await.unwrap();
    let llm = mneme::llm::from_config(&config).unwrap();
    (dir, Arc::new(Agent::new(Arc::new(config), store, llm)), key)
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    // `cargo test --benches` runs this with --test-ish flags; only run for real under `cargo bench`.
    if !std::env::args().any(|a| a == "--bench") {
        println!("prompt_build: run with `cargo bench --bench prompt_build`");
        return;
    }
    println!(
        "{:<28} {:>8} {:>12} {:>12}",
        "operation", "memories", "median", "p99"
    );
    for n in [1_000, 10_000] {
        let (_dir, agent, key) = setup(n).await;
        let chat = agent.store().find_chat(&key).await.unwrap().unwrap();
        let query = "what do I like to drink on summer holiday with my dog in tokyo?";
        // warm the tokenizer and the page cache
        agent.build_prompt(&chat, &key, query).await.unwrap();
        let runs = if n >= 10_000 { 30 } else { 100 };
        let mut samples = Vec::with_capacity(runs);
        for _ in 0..runs {
            let t = Instant::now();
            let parts = agent.build_prompt(&chat, &key, query).await.unwrap();
            samples.push(t.elapsed());
            assert!(parts.selection.omitted > 0);
        }
        let (median, p99) = stats(samples);
        println!(
            "{:<28} {:>8} {:>12.2?} {:>12.2?}",
            "prompt build", n, median, p99
        );

        let mut rng = fastrand::Rng::with_seed(99);
        let mut samples = Vec::with_capacity(runs);
        for i in 0..runs {
            let msg = IncomingMessage {
                chat: key.clone(),
                chat_title: None,
                sender_id: "u".into(),
                sender_name: "u".into(),
                text: format!("remember {}", fact(&mut rng, n + i)),
                is_group: false,
                addressed: true,
                platform_message_id: None,
                platform_thread_id: None,
                sent_at: None,
            };
            let t = Instant::now();
            agent.handle(msg, None).await.unwrap();
            samples.push(t.elapsed());
        }
        let (median, p99) = stats(samples);
        println!(
            "{:<28} {:>8} {:>12.2?} {:>12.2?}",
            "remember (dedup + insert)", n, median, p99
        );
    }
}
