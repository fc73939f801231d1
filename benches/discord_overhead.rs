//! Per-message overhead of the bot itself over Discord: a DM dispatched by the fake gateway
//! until the answer's `POST /channels/{id}/messages` arrives at the fake REST API, with a fake
//! LLM that answers at once. Includes the gateway frame (serenity's parsing and its task per
//! event), the intake's ordering, storing, prompt building, the typing call, two loopback HTTP
//! calls (LLM, create message) and the delivery bookkeeping.
//! `cargo bench --bench discord_overhead`.

#[path = "../tests/support/mod.rs"]
#[allow(unused_imports)] // dead_code is allowed inside support itself
mod support;

use support::*;

const MESSAGES: usize = 300;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        println!("discord_overhead: run with `cargo bench --bench discord_overhead`");
        return;
    }
    let llm = FakeLlm::start().await;
    llm.fallback(openai_text("ok"));
    // a long heartbeat interval keeps heartbeats out of the samples
    let dc = FakeDiscord::start_with_heartbeat(60_000).await;
    let dir = tempfile::tempdir().unwrap();
    let bot = ChannelBot::discord(&llm, &dc, dir.path(), "").await;

    // 20 warm-up rounds first: connections, tokenizer, page cache
    let (median, p99) = latency(20, MESSAGES, |i| {
        let dc = dc.clone();
        async move {
            let before = dc.posted().len();
            dc.dm(FakeDiscord::FRIEND, &format!("message number {i}"));
            dc.wait_posted(before + 1).await;
        }
    })
    .await;
    println!(
        "discord per-message overhead over {MESSAGES} messages: median {median:.2?}, p99 {p99:.2?}"
    );
    let _ = bot.stop().await;
}
