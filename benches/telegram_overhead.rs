//! Per-message overhead of the bot itself over Telegram: a private message pushed into the
//! fake Bot API until the answer's sendMessage arrives, with a fake LLM that answers at once.
//! Includes the long-poll wake-up, storing, prompt building, two loopback HTTP calls (LLM,
//! sendMessage) and the delivery bookkeeping. `cargo bench --bench telegram_overhead`.

#[path = "../tests/support/mod.rs"]
#[allow(unused_imports)]
mod support;

use std::time::Instant;

use support::*;

const MESSAGES: usize = 300;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        println!("telegram_overhead: run with `cargo bench --bench telegram_overhead`");
        return;
    }
    let llm = FakeLlm::start().await;
    llm.fallback(openai_text("ok"));
    let tg = FakeTelegram::start().await;
    let dir = tempfile::tempdir().unwrap();
    let bot = TelegramBot::start(&llm, &tg, dir.path(), "").await;

    // warm-up: connections, tokenizer, page cache
    for i in 0..20 {
        tg.private_text(100, &format!("warm {i}"));
        tg.wait_sent(i + 1).await;
    }
    let mut samples = Vec::with_capacity(MESSAGES);
    for i in 0..MESSAGES {
        let before = tg.sent().len();
        let t = Instant::now();
        tg.private_text(100, &format!("message number {i}"));
        tg.wait_sent(before + 1).await;
        samples.push(t.elapsed());
    }
    samples.sort();
    let median = samples[samples.len() / 2];
    let p99 = samples[samples.len() * 99 / 100];
    let rss = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .map(|l| l.trim_start_matches("VmRSS:").trim().to_string())
        })
        .unwrap_or_else(|| "n/a".into());
    println!(
        "telegram per-message overhead over {MESSAGES} messages: median {median:.2?}, p99 {p99:.2?}"
    );
    println!("(process RSS incl. fake servers: {rss})");
    let _ = bot.stop().await;
}
