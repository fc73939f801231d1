//! Retrieval's figures: quality (recall@5 on a labelled English and Chinese set, for BM25
//! alone, vectors alone and the hybrid), and speed at 1k / 10k / 100k memories in one chat
//! (hybrid search p50/p99, BM25-only search, prompt build, the first search's vector load,
//! and the process's memory), and a turn's start in a chat of as many messages.
//!
//! `cargo bench --bench retrieval` (release). Vectors come from the local all-MiniLM-L6-v2
//! files (`$MNEME_TEST_MODEL_DIR`, else `target/test-models/all-MiniLM-L6-v2`, which
//! `.ci/run` prepares); without them only the BM25 figures are printed. Embedding 100k
//! memories for real would take minutes, so the filler's vectors are real embeddings of
//! 2,000 distinct filler sentences, reused with a little noise: their similarities to a query
//! are those of real text, at the size being measured. No network, no LLM calls. With
//! `MNEME_BENCH_DATABASE_URL` (a PostgreSQL server, as the load bench takes it) the quality
//! figures are repeated on a fresh database there; `MNEME_BENCH_QUALITY_ONLY=1` stops after
//! them.

#[path = "support/measure.rs"]
mod measure;
#[path = "support/retrieval_set.rs"]
mod retrieval_set;

use measure::{model_dir, rss_mb, status_mb};
use std::sync::Arc;
use std::time::{Duration, Instant};

use mneme::agent::Agent;
use mneme::base::{Category, ChatKey, MemoryScope, Source};
use mneme::config::Config;
use mneme::embed::{Embedder, l2_normalize};
use mneme::memories::retrieval::Retriever;
use mneme::store::{NewMemory, PendingEmbedding, SearchScope, Store};

const SIZES: [usize; 3] = [1_000, 10_000, 100_000];
/// Distinct filler sentences embedded for real.
const REAL_FILLER: usize = 2_000;

const NAMES: &[&str] = &[
    "Sam", "Priya", "Jonas", "Mei", "Omar", "Lucia", "Kenji", "Ava", "Tom", "Ines",
];
const VERBS: &[&str] = &[
    "bought",
    "repaired",
    "talked about",
    "is planning",
    "visited",
    "cleaned",
    "borrowed",
    "painted",
    "sold",
    "photographed",
    "lost",
    "found",
    "recommended",
    "cooked",
    "ordered",
];
const THINGS: &[&str] = &[
    "a new laptop",
    "the garden fence",
    "a trip to Lisbon",
    "the kitchen shelves",
    "a vintage camera",
    "the bike's brakes",
    "a chess set",
    "a pasta recipe",
    "the living room",
    "a concert ticket",
    "the family dog's collar",
    "a pair of hiking boots",
    "the tax forms",
    "a bread maker",
    "the neighbour's ladder",
    "a jazz record",
    "the car's tyres",
    "a birthday cake",
    "the team slides",
    "an old piano",
    "the backup drive",
    "a houseplant",
    "the holiday photos",
    "a standing desk",
];
const WHEN: &[&str] = &[
    "last Monday",
    "yesterday",
    "in spring",
    "after work",
    "on the weekend",
    "this morning",
    "before the meeting",
    "in January",
    "at the market",
    "with friends",
];
const ZH: &[&str] = &[
    "上周买了一台新电脑",
    "周末去爬山",
    "修好了自行车",
    "做了一个蛋糕",
    "看了一场电影",
    "在公园散步",
    "学会了做饺子",
    "换了新手机",
    "去了海边",
    "参加了朋友的婚礼",
];

fn filler(i: usize) -> String {
    if i % 10 == 9 {
        return format!(
            "{}{}（第{}天）",
            NAMES[i % NAMES.len()],
            ZH[(i / 10) % ZH.len()],
            i
        );
    }
    format!(
        "{} {} {} {} (note {i})",
        NAMES[i % NAMES.len()],
        VERBS[(i / 3) % VERBS.len()],
        THINGS[(i / 7) % THINGS.len()],
        WHEN[(i / 11) % WHEN.len()],
    )
}

fn config(dir: &std::path::Path, extra: &str) -> Config {
    let yaml = format!(
        "data_dir: {}\nmodel: bench\nllm_base_url: http://127.0.0.1:9/v1\nmemory_max_per_chat: 0\nchannels:\n  web:\n    enabled: false\n{extra}",
        dir.join("data").display()
    );
    Config::from_yaml(&yaml, &dir.join("c.yaml"), &[])
        .unwrap_or_else(|e| panic!("{e}"))
        .config
}

fn stats(mut samples: Vec<Duration>) -> (Duration, Duration) {
    samples.sort();
    let median = samples[samples.len() / 2];
    let p99 = samples[(samples.len() * 99 / 100).min(samples.len() - 1)];
    (median, p99)
}

fn memory(chat: i64, category: Category, content: String) -> NewMemory {
    NewMemory {
        scope: MemoryScope::Chat(chat),
        category,
        content,
        subject: None,
        confidence: 0.8,
        source: Source::Reflector,
        source_message_ids: vec![],
        created_at: None,
        last_seen_at: None,
        archived: false,
        key: None,
    }
}

/// A chat holding `n` filler memories and the labelled facts; with an embedder, every memory
/// gets a vector (filler: real vectors of `REAL_FILLER` sentences, reused with noise).
async fn setup(
    dir: &std::path::Path,
    n: usize,
    embedder: Option<&Arc<dyn Embedder>>,
) -> (Store, i64) {
    let url = format!("sqlite://{}", dir.join("mneme.db").display());
    setup_at(&url, n, embedder).await
}

/// [`setup`] on the database at `url`.
async fn setup_at(url: &str, n: usize, embedder: Option<&Arc<dyn Embedder>>) -> (Store, i64) {
    let store = Store::open(url).await.unwrap();
    let chat = store
        .ensure_chat(&ChatKey::new("cli", "bench"), false, None)
        .await
        .unwrap()
        .id;
    let facts = retrieval_set::ENGLISH.iter().chain(retrieval_set::CHINESE);
    let mut rows: Vec<NewMemory> = facts
        .map(|(fact, _)| memory(chat, Category::Profile, fact.to_string()))
        .collect();
    rows.extend((0..n).map(|i| {
        memory(
            chat,
            [Category::Knowledge, Category::Event][i % 2],
            filler(i),
        )
    }));
    // The labelled facts at places of their own among the filler, not first: a ranking that
    // fell back on the table's order (PostgreSQL's did, 2026-11-30) is not rewarded for it.
    fastrand::Rng::with_seed(7).shuffle(&mut rows);
    for chunk in rows.chunks(10_000) {
        store.insert_memories(chunk).await.unwrap();
    }
    let Some(embedder) = embedder else {
        return (store, chat);
    };
    let real: Vec<String> = (0..REAL_FILLER.min(n)).map(filler).collect();
    let real_vectors = embedder.embed(&real).await.unwrap();
    let mut rng = fastrand::Rng::with_seed(3);
    loop {
        let batch = store.pending_embeddings(5_000).await.unwrap();
        if batch.is_empty() {
            break;
        }
        let mut facts: Vec<(PendingEmbedding, Vec<f32>)> = Vec::new();
        let mut items: Vec<(PendingEmbedding, Vec<f32>)> = Vec::new();
        for p in batch {
            match p
                .content
                .rsplit_once("(note ")
                .or_else(|| p.content.rsplit_once("（第"))
            {
                Some((_, tail)) => {
                    let i: usize = tail
                        .trim_end_matches([')', '）', '天'])
                        .parse()
                        .unwrap_or(0);
                    let mut v = real_vectors[i % real_vectors.len()].clone();
                    v.iter_mut().for_each(|x| *x += (rng.f32() - 0.5) * 0.02);
                    l2_normalize(&mut v);
                    items.push((p, v));
                }
                None => facts.push((p, Vec::new())),
            }
        }
        if !facts.is_empty() {
            let texts: Vec<String> = facts.iter().map(|(p, _)| p.content.clone()).collect();
            let vectors = embedder.embed(&texts).await.unwrap();
            items.extend(facts.into_iter().map(|(p, _)| p).zip(vectors));
        }
        store
            .store_embeddings(embedder.model(), &items)
            .await
            .unwrap();
    }
    (store, chat)
}

/// Share of `set`'s questions whose fact is among the top 5 results, and the questions
/// missed with what came first instead.
async fn recall_at_5(retriever: &Retriever, chat: i64, set: &[(&str, &str)]) -> (f64, Vec<String>) {
    let mut found = 0;
    let mut missed = Vec::new();
    for (fact, question) in set {
        let hits = retriever
            .search(SearchScope::Chat(chat), question, 5)
            .await
            .unwrap()
            .hits;
        if hits.iter().any(|h| h.memory.content == *fact) {
            found += 1;
        } else {
            let first = hits
                .first()
                .map_or("nothing", |h| h.memory.content.as_str());
            missed.push(format!("{question:?} (first: {first:?})"));
        }
    }
    (found as f64 / set.len() as f64, missed)
}

fn main() {
    // As `mneme` itself does first thing (see `pin_thread_count`).
    // SAFETY: no other thread exists yet.
    #[cfg(feature = "local-embeddings")]
    unsafe {
        mneme::embed::pin_thread_count()
    };
    tokio::runtime::Runtime::new()
        .expect("a runtime")
        .block_on(run());
}

async fn run() {
    if !std::env::args().any(|a| a == "--bench") {
        println!("retrieval: run with `cargo bench --bench retrieval`");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let embedder: Option<Arc<dyn Embedder>> = match model_dir() {
        Some(dir) => {
            let c = config(
                tmp.path(),
                &format!(
                    "embedding_provider: local\nembedding_model: {}\n",
                    dir.display()
                ),
            );
            let t = Instant::now();
            match mneme::embed::from_config(&c).await {
                Ok(e) => {
                    println!("local model loaded in {:.0?}", t.elapsed());
                    e
                }
                Err(e) => {
                    println!("no local model ({e}): BM25 figures only");
                    None
                }
            }
        }
        None => {
            println!(
                "model files not found (run .ci/run or set MNEME_TEST_MODEL_DIR): BM25 figures only"
            );
            None
        }
    };

    // Quality: the labelled facts among 1,000 filler memories, on SQLite and, with
    // MNEME_BENCH_DATABASE_URL (a PostgreSQL server), on a fresh database there too.
    let postgres = std::env::var("MNEME_BENCH_DATABASE_URL")
        .ok()
        .filter(|u| !u.trim().is_empty());
    for backend in ["SQLite", "PostgreSQL"] {
        let dir = tempfile::tempdir().unwrap();
        let (store, chat) = match (backend, &postgres) {
            ("SQLite", _) => setup(dir.path(), 1_000, embedder.as_ref()).await,
            (_, Some(server)) => {
                let url = mneme::store::testing::create_scratch_database(server.trim())
                    .await
                    .unwrap();
                setup_at(&url, 1_000, embedder.as_ref()).await
            }
            (_, None) => continue,
        };
        println!(
            "\nrecall@5 among 1,000 other memories on {backend} ({} English, {} Chinese questions)",
            retrieval_set::ENGLISH.len(),
            retrieval_set::CHINESE.len()
        );
        println!("{:<10} {:>8} {:>8}", "ranking", "English", "Chinese");
        let variants: &[(&str, &str)] = &[
            ("bm25", "search:\n  vector: false\n"),
            ("vector", "search:\n  bm25: false\n"),
            ("hybrid", ""),
        ];
        for (name, extra) in variants {
            if *name != "bm25" && embedder.is_none() {
                continue;
            }
            let c = config(dir.path(), extra);
            let r = Retriever::new(&c, store.clone(), embedder.clone());
            let (en, en_missed) = recall_at_5(&r, chat, retrieval_set::ENGLISH).await;
            let (zh, zh_missed) = recall_at_5(&r, chat, retrieval_set::CHINESE).await;
            println!("{name:<10} {:>7.0}% {:>7.0}%", en * 100.0, zh * 100.0);
            for m in en_missed.iter().chain(&zh_missed) {
                println!("           missed {m}");
            }
        }
        store.close().await;
    }

    if std::env::var_os("MNEME_BENCH_QUALITY_ONLY").is_some() {
        return;
    }
    println!(
        "\n{:<34} {:>8} {:>10} {:>10}",
        "operation", "memories", "median", "p99"
    );
    let questions: Vec<&str> = retrieval_set::ENGLISH
        .iter()
        .chain(retrieval_set::CHINESE)
        .map(|(_, q)| *q)
        .collect();
    // `MNEME_BENCH_SIZES=100000` (comma-separated) measures only those sizes.
    let sizes: Vec<usize> = std::env::var("MNEME_BENCH_SIZES")
        .ok()
        .map(|v| v.split(',').filter_map(|n| n.trim().parse().ok()).collect())
        .filter(|v: &Vec<usize>| !v.is_empty())
        .unwrap_or_else(|| SIZES.to_vec());
    for n in sizes {
        let dir = tempfile::tempdir().unwrap();
        let t = Instant::now();
        let (store, chat) = setup(dir.path(), n, embedder.as_ref()).await;
        let filled = t.elapsed();
        let before = rss_mb(None);
        reset_peak_rss();
        let c = config(dir.path(), "");
        let retriever = Retriever::new(&c, store.clone(), embedder.clone());
        let t = Instant::now();
        let first = retriever
            .search(SearchScope::Chat(chat), "what's my dog called?", 10)
            .await
            .unwrap();
        let cold = t.elapsed();
        // What holding the scope's vectors costs, at most while loading them and after, before
        // the bench reads them all for its exact check (below), which leaves copies of its own.
        let (loading_peak, loaded) = (peak_rss_mb(), rss_mb(None));
        let rex = first
            .hits
            .iter()
            .position(|h| h.memory.content == "User's dog is named Rex");
        println!(
            "{:<34} {n:>8} {:>10}",
            "\"what's my dog called?\" → Rex at",
            rex.map_or("not in top 10".to_string(), |p| format!("#{}", p + 1))
        );
        let runs = if n >= 100_000 { 60 } else { 200 };
        let print = |what: &str, s: (Duration, Duration)| {
            println!("{what:<34} {n:>8} {:>10.2?} {:>10.2?}", s.0, s.1)
        };
        if embedder.is_some() {
            println!(
                "{:<34} {n:>8} {:>10.2?}",
                "first search (loads the vectors)", cold
            );
        }

        let mut samples = Vec::with_capacity(runs);
        for i in 0..runs {
            let t = Instant::now();
            retriever
                .search(SearchScope::Chat(chat), questions[i % questions.len()], 10)
                .await
                .unwrap();
            samples.push(t.elapsed());
        }
        let label = if embedder.is_some() {
            "hybrid search (incl. query embedding)"
        } else {
            "search (BM25 only)"
        };
        print(label, stats(samples));

        if let Some(e) = &embedder {
            let mut samples = Vec::with_capacity(runs);
            for i in 0..runs {
                let q = vec![questions[i % questions.len()].to_string()];
                let t = Instant::now();
                e.embed(&q).await.unwrap();
                samples.push(t.elapsed());
            }
            print("  of which: embedding the query", stats(samples));
            let bm25 = Retriever::new(
                &config(dir.path(), "search:\n  vector: false\n"),
                store.clone(),
                None,
            );
            let mut samples = Vec::with_capacity(runs);
            for i in 0..runs {
                let t = Instant::now();
                bm25.search(SearchScope::Chat(chat), questions[i % questions.len()], 10)
                    .await
                    .unwrap();
                samples.push(t.elapsed());
            }
            print("search, BM25 only", stats(samples));

            // The vector ranking alone, the query embedded beforehand: the scan of the scope's
            // codes and the candidates' exact vectors read back.
            let vectors: Vec<Vec<f32>> = {
                let texts: Vec<String> = questions.iter().map(|q| q.to_string()).collect();
                e.embed(&texts).await.unwrap()
            };
            let mut samples = Vec::with_capacity(runs);
            for i in 0..runs {
                let t = Instant::now();
                retriever
                    .nearest(&[chat], &vectors[i % vectors.len()], 40)
                    .await
                    .unwrap();
                samples.push(t.elapsed());
            }
            print("nearest 40 (query embedded before)", stats(samples));

            // How many of the exact 40 nearest (every stored vector's cosine) the index finds:
            // its 8-bit codes choose the candidates the stored vectors rank.
            let stored = store
                .vectors_since(chat, e.model(), vectors[0].len(), 0, usize::MAX)
                .await
                .unwrap()
                .vectors;
            let (mut found, mut wanted) = (0usize, 0usize);
            for v in &vectors {
                let mut exact: Vec<(i64, f32)> = stored
                    .iter()
                    .map(|s| {
                        (
                            s.memory_id,
                            s.vector.iter().zip(v).map(|(a, b)| a * b).sum(),
                        )
                    })
                    .collect();
                exact.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
                let got: Vec<i64> = retriever
                    .nearest(&[chat], v, 40)
                    .await
                    .unwrap()
                    .into_iter()
                    .map(|(id, _)| id)
                    .collect();
                wanted += 40.min(exact.len());
                found += exact
                    .iter()
                    .take(40)
                    .filter(|(id, _)| got.contains(id))
                    .count();
            }
            println!(
                "{:<34} {n:>8} {:>9.1}%",
                "nearest 40: exact 40 found",
                100.0 * found as f64 / wanted.max(1) as f64
            );

            let bm25_agent = Agent::with_retriever(
                Arc::new(config(dir.path(), "search:\n  vector: false\n")),
                mneme::llm::from_config(&c).unwrap(),
                bm25.clone(),
            );
            let key = ChatKey::new("cli", "bench");
            let row = store.find_chat(&key).await.unwrap().unwrap();
            let mut samples = Vec::with_capacity(runs);
            for i in 0..runs {
                let t = Instant::now();
                bm25_agent
                    .build_prompt(&row, &key, questions[i % questions.len()])
                    .await
                    .unwrap();
                samples.push(t.elapsed());
            }
            print("prompt build, BM25 only", stats(samples));
        }

        let llm = mneme::llm::from_config(&c).unwrap();
        let agent = Agent::with_retriever(Arc::new(c), llm, retriever.clone());
        let key = ChatKey::new("cli", "bench");
        let row = store.find_chat(&key).await.unwrap().unwrap();
        let mut samples = Vec::with_capacity(runs);
        for i in 0..runs {
            let t = Instant::now();
            let parts = agent
                .build_prompt(&row, &key, questions[i % questions.len()])
                .await
                .unwrap();
            samples.push(t.elapsed());
            assert!(parts.selection.omitted > 0);
        }
        print("prompt build", stats(samples));

        // A turn's start in a chat whose session holds as many messages: the attempt counted,
        // the chat, its memory count and its history's last 40 read in one write.
        let texts: Vec<String> = (0..n).map(filler).collect();
        let mut last = 0;
        for chunk in texts.chunks(1_000) {
            let arrivals: Vec<mneme::store::Arrival> = chunk
                .iter()
                .map(|text| mneme::store::Arrival {
                    chat: &key,
                    is_group: false,
                    chat_title: None,
                    sender_id: "1",
                    sender_name: "Ann",
                    text,
                    platform_message_id: None,
                    platform_thread_id: None,
                    created_at: None,
                    needs_reply: false,
                })
                .collect();
            let stored = store.store_arrivals(&arrivals).await.unwrap();
            last = stored.last().unwrap().unwrap().id;
        }
        let mut samples = Vec::with_capacity(runs);
        for _ in 0..runs {
            let t = Instant::now();
            let turn = store.start_turn(last, 40).await.unwrap().unwrap();
            samples.push(t.elapsed());
            assert_eq!(turn.history.len(), 40);
        }
        print("turn start, N messages in session", stats(samples));
        println!(
            "{:<34} {n:>8} {:>9.0} MB   ({:.0} MB before it, at most {:.0} MB during it; filled in {:.1?})",
            "resident memory after 1st search", loaded, before, loading_peak, filled
        );
        println!(
            "{:<34} {n:>8} {:>9.0} MB   (with the exact check's copies of every vector)",
            "resident memory at the end",
            rss_mb(None),
        );
        store.close().await;
    }
}

/// Starts the process's peak resident memory (`VmHWM`) again from what it holds now.
fn reset_peak_rss() {
    // "5" resets the peak (Linux's proc(5), `clear_refs`); without it the peak is the run's.
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// The process's peak resident memory since [`reset_peak_rss`], in MB.
fn peak_rss_mb() -> f64 {
    status_mb(None, "VmHWM")
}
