//! Per-message overhead of the bot itself over Telegram: a private message pushed into the
//! fake Bot API until the answer's sendMessage arrives, with a fake LLM that answers at once.
//! Includes the long-poll wake-up, storing, prompt building, two loopback HTTP calls (LLM,
//! sendMessage) and the delivery bookkeeping. `cargo bench --bench telegram_overhead`.

#[path = "../tests/support/mod.rs"]
#[allow(unused_imports)] // dead_code is allowed inside support itself
mod support;

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

    // 20 warm-up rounds first: connections, tokenizer, page cache
    let (median, p99) = latency(20, MESSAGES, |i| {
        let tg = tg.clone();
        async move {
            let before = tg.sent().len();
            tg.private_text(100, &format!("message number {i}"));
            tg.wait_sent(before + 1).await;
        }
    })
    .await;
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
