//! Local embedding figures: model load time and throughput (sentences per second) at batch
//! sizes 1, 8 and 32, medians of several runs, for the weights `mneme` runs (f32, 8-bit for
//! short passes), 8-bit only and f32 only; and how far the 8-bit vectors are from the f32
//! ones. Prints figures; asserts nothing about time.
//!
//! `cargo bench --bench embed`. Needs the all-MiniLM-L6-v2 files: `$MNEME_TEST_MODEL_DIR`, else
//! target/test-models/all-MiniLM-L6-v2 (`bash scripts/test-model` puts them there).

#[cfg(feature = "local-embeddings")]
mod bench {
    use std::path::{Path, PathBuf};
    use std::time::{Duration, Instant};

    use mneme::embed::{Embedder, LocalEmbedder, LocalWeights};

    const RUNS: usize = 5;

    fn model_dir() -> Option<PathBuf> {
        let dir = match std::env::var_os("MNEME_TEST_MODEL_DIR") {
            Some(d) if !d.is_empty() => PathBuf::from(d),
            _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("target/test-models/all-MiniLM-L6-v2"),
        };
        let missing = mneme::config::model_files::missing_files(&dir);
        if missing.is_empty() {
            return Some(dir);
        }
        println!(
            "embed bench skipped: {} lacks {} (run `bash scripts/test-model`, or set MNEME_TEST_MODEL_DIR)",
            dir.display(),
            missing.join(", ")
        );
        None
    }

    /// Memory-like facts of 8 to 20 tokens, all different.
    fn facts(n: usize) -> Vec<String> {
        let who = [
            "The user",
            "Alice",
            "Bob's sister",
            "The team lead",
            "My landlord",
        ];
        let what = [
            "moved to Osaka last spring",
            "prefers Rust examples with tests",
            "has a dog named Rex who hates the vacuum cleaner",
            "works at a bank near the central station",
            "is allergic to peanuts and shellfish",
            "plays the cello in a community orchestra on Thursdays",
            "wants the weekly report every Friday before noon",
        ];
        (0..n)
            .map(|i| {
                format!(
                    "{} {} (note {i}).",
                    who[i % who.len()],
                    what[(i / who.len()) % what.len()]
                )
            })
            .collect()
    }

    fn median(mut xs: Vec<Duration>) -> Duration {
        xs.sort();
        xs[xs.len() / 2]
    }

    pub async fn run() {
        let Some(dir) = model_dir() else { return };
        let mut loads = Vec::new();
        for _ in 0..RUNS {
            let t = Instant::now();
            LocalEmbedder::load(&dir, "all-MiniLM-L6-v2".into())
                .await
                .expect("model loads");
            loads.push(t.elapsed());
        }
        println!(
            "model load (config, tokenizer, 90 MB of weights): median {:.0} ms over {RUNS}",
            median(loads).as_secs_f64() * 1e3
        );

        let short = facts(128);
        let long: Vec<String> = (0..64)
            .map(|i| format!("{} {}", i, short[i..i + 8].join(" ")))
            .collect();
        let questions: Vec<String> = [
            "what's my dog called?",
            "where do I live?",
            "when is my birthday?",
            "what do I do for work?",
            "which car do I drive?",
            "what am I allergic to?",
            "who is my sister?",
            "what instrument do I play?",
        ]
        .iter()
        .cycle()
        .take(64)
        .map(|q| q.to_string())
        .collect();
        let mut vectors = Vec::new();
        for weights in [LocalWeights::F32AndQ8, LocalWeights::Q8, LocalWeights::F32] {
            let model = LocalEmbedder::load_with(&dir, "all-MiniLM-L6-v2".into(), weights)
                .await
                .expect("model loads");
            model.embed(&short[..32]).await.expect("warm-up");
            println!();
            println!("dense weights {weights:?}");
            println!("{:<34} {:>14} {:>16}", "texts", "batch size", "sentences/s");
            for (label, texts, batches) in [
                ("questions (7-10 tokens)", &questions, &[1][..]),
                ("short facts (8-20 tokens)", &short, &[1, 8, 32][..]),
                ("long notes (~110 tokens)", &long, &[1, 8, 32][..]),
            ] {
                for &batch in batches {
                    let mut times = Vec::new();
                    for _ in 0..RUNS {
                        let t = Instant::now();
                        for chunk in texts.chunks(batch) {
                            model.embed(chunk).await.expect("embeds");
                        }
                        times.push(t.elapsed());
                    }
                    let rate = texts.len() as f64 / median(times).as_secs_f64();
                    println!("{label:<34} {batch:>14} {rate:>16.0}");
                }
            }
            if weights != LocalWeights::F32AndQ8 {
                let all: Vec<String> = questions[..8]
                    .iter()
                    .chain(&short)
                    .chain(&long)
                    .cloned()
                    .collect();
                vectors.push(model.embed(&all).await.expect("embeds"));
            }
        }
        let cosines: Vec<f32> = vectors[0]
            .iter()
            .zip(&vectors[1])
            .map(|(a, b)| a.iter().zip(b).map(|(x, y)| x * y).sum())
            .collect();
        let mean = cosines.iter().sum::<f32>() / cosines.len() as f32;
        let min = cosines.iter().copied().fold(f32::INFINITY, f32::min);
        println!();
        println!(
            "8-bit vs f32 weights, the same {} texts: cosine mean {mean:.5}, min {min:.5}",
            cosines.len()
        );
    }
}

fn main() {
    // As `mneme` itself does first thing (see `pin_thread_count`).
    // SAFETY: no other thread exists yet.
    #[cfg(feature = "local-embeddings")]
    unsafe {
        mneme::embed::pin_thread_count()
    };
    #[cfg(feature = "local-embeddings")]
    tokio::runtime::Runtime::new()
        .expect("a runtime")
        .block_on(bench::run());
    #[cfg(not(feature = "local-embeddings"))]
    println!("embed bench skipped: built without the local-embeddings feature");
}
