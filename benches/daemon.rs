//! The daemon as a user runs it: the release `mneme start` (web channel only) against a fake
//! LLM on 127.0.0.1 that answers at once. Measures start-up (process spawn until `/healthz`
//! answers 200), resident memory idle and after 200 web chat turns, and shutdown (SIGTERM
//! until exit) — without embeddings, and with the local model when its files are present.
//!
//! `cargo bench --bench daemon` prints medians over 5 starts; figures are in README.md.

#[path = "../tests/support/mod.rs"]
#[allow(unused_imports)] // dead_code is allowed inside support itself
mod support;

use std::time::{Duration, Instant};

#[path = "support/measure.rs"]
mod measure;

use measure::{model_dir, rss_mb};
use support::web::{free_port, web_only_yaml};
use support::*;

const STARTS: usize = 5;
const TURNS: usize = 200;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

struct Run {
    startup_ms: f64,
    idle_mb: f64,
    loaded_mb: f64,
    shutdown_ms: f64,
}

async fn once(llm: &FakeLlm, extra: &str, turns: usize) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let yaml = format!("{}{extra}", web_only_yaml(llm, dir.path(), port));
    let config = dir.path().join("config.yaml");
    std::fs::write(&config, yaml).unwrap();
    let base = format!("http://127.0.0.1:{port}");
    let http = reqwest::Client::new();

    let started = Instant::now();
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_mneme"))
        .arg("--config")
        .arg(&config)
        .arg("start")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let pid = child.id().unwrap();
    loop {
        if let Ok(r) = http.get(format!("{base}/healthz")).send().await
            && r.status() == 200
        {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "never healthy");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let startup_ms = started.elapsed().as_secs_f64() * 1000.0;
    let idle_mb = rss_mb(Some(pid));

    for i in 0..turns {
        let body = http
            .post(format!("{base}/api/chats/bench/messages"))
            .json(&serde_json::json!({ "text": format!("message {i}: what do you remember about my garden?") }))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(body.contains("event: reply"), "{body}");
    }
    let loaded_mb = rss_mb(Some(pid));

    let stopping = Instant::now();
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = tokio::time::timeout(Duration::from_secs(15), child.wait())
        .await
        .expect("exits")
        .unwrap();
    assert!(status.success());
    Run {
        startup_ms,
        idle_mb,
        loaded_mb,
        shutdown_ms: stopping.elapsed().as_secs_f64() * 1000.0,
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        println!("daemon: run with `cargo bench --bench daemon`");
        return;
    }
    let llm = FakeLlm::start().await;
    llm.fallback(openai_text("I remember your garden has tomatoes."));
    let mut variants = vec![("embeddings off".to_string(), String::new())];
    match model_dir() {
        Some(dir) => variants.push((
            "local embeddings".into(),
            format!(
                "embedding_provider: local\nembedding_model: {}\n",
                dir.display()
            ),
        )),
        None => println!("(model files not found: only without embeddings)"),
    }
    println!(
        "{:<18} {:>12} {:>12} {:>14} {:>12}",
        "mneme start", "start-up", "idle RSS", "RSS after 200", "shutdown"
    );
    for (name, extra) in variants {
        let mut runs = Vec::new();
        for i in 0..STARTS {
            // the 200 turns once; the other starts measure start-up and shutdown only
            runs.push(once(&llm, &extra, if i == 0 { TURNS } else { 0 }).await);
        }
        let loaded = runs[0].loaded_mb;
        println!(
            "{name:<18} {:>9.0} ms {:>9.0} MB {:>11.0} MB {:>9.0} ms",
            median(runs.iter().map(|r| r.startup_ms).collect()),
            median(runs.iter().map(|r| r.idle_mb).collect()),
            loaded,
            median(runs.iter().map(|r| r.shutdown_ms).collect()),
        );
    }
}
