//! The logs' pruning (`log_retention_days`, `Store::prune_logs`) on SQLite: a year of rows at a
//! million a log (prompt injections and token records of one chat), pruned to 90 days: how long
//! the first pruning takes, how long a write beside it waits (one token record every 5 ms),
//! how long the next day's pruning takes, and the file before and after `VACUUM`. Also a chat's
//! last injection (`/memories`) for a chat with none, with the log's chat index and without it.
//! Prints figures; asserts only that the token totals are the same after.

use mneme::base::ChatKey;
use sqlx::Connection;
use std::time::Instant;

const N: i64 = 1_000_000;

#[tokio::main]
async fn main() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.db");
    let url = format!("sqlite://{}", path.display());
    let store = mneme::store::Store::open(&url).await.unwrap();
    let busy = store
        .ensure_chat(&ChatKey::new("telegram", "1"), false, None)
        .await
        .unwrap();
    let quiet = store
        .ensure_chat(&ChatKey::new("telegram", "2"), false, None)
        .await
        .unwrap();
    let now = mneme::store::now_ms();
    let mut c = sqlx::SqliteConnection::connect(&url).await.unwrap();
    // a year of rows, evenly spread, all of the busy chat
    sqlx::query(&format!("WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM k WHERE i < {N})
        INSERT INTO memory_injection_logs (chat_id, created_at, candidates, selected, omitted, tokens)
        SELECT {}, {now} - (({N} - i) * 31536000000 / {N}), 20, 8, 2, 600 FROM k", busy.id)).execute(&mut c).await.unwrap();
    sqlx::query(&format!("WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM k WHERE i < {N})
        INSERT INTO llm_usage (chat_id, provider, model, purpose, input_tokens, output_tokens, created_at)
        SELECT {}, 'openai', CASE WHEN i % 2 = 0 THEN 'a' ELSE 'b' END, 'chat', 1000, 100, {now} - (({N} - i) * 31536000000 / {N}) FROM k", busy.id)).execute(&mut c).await.unwrap();
    let size = std::fs::metadata(&path).unwrap().len();
    println!(
        "rows: {N} injections, {N} token records; file {} MB",
        size / 1_000_000
    );
    let time = |t: Instant| t.elapsed().as_secs_f64() * 1000.0;
    for (label, drop) in [("with the index", false), ("without the index", true)] {
        if drop {
            sqlx::query("DROP INDEX memory_injection_logs_by_chat")
                .execute(&mut c)
                .await
                .unwrap();
        }
        let mut v = Vec::new();
        for _ in 0..7 {
            let t = Instant::now();
            let got = store.last_injection(quiet.id).await.unwrap();
            v.push(time(t));
            assert!(got.is_none());
        }
        v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        println!(
            "last injection of a chat with none, {label}: median {:.3} ms",
            v[3]
        );
        if drop {
            sqlx::query(
                "CREATE INDEX memory_injection_logs_by_chat ON memory_injection_logs (chat_id, id)",
            )
            .execute(&mut c)
            .await
            .unwrap();
        }
    }
    let before = store.usage_by_chat(None).await.unwrap();
    // a writer beside it: one token record every 5 ms, each write timed
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let (store2, stop2, quiet_id) = (store.clone(), stop.clone(), quiet.id);
    let probe = tokio::spawn(async move {
        let mut waits = Vec::new();
        while !stop2.load(std::sync::atomic::Ordering::Relaxed) {
            let t = Instant::now();
            store2
                .record_usage(
                    Some(quiet_id),
                    "openai",
                    "p",
                    "chat",
                    mneme::store::Tokens {
                        input: 1,
                        output: 1,
                    },
                )
                .await
                .unwrap();
            waits.push(t.elapsed().as_secs_f64() * 1000.0);
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        waits
    });
    let t = Instant::now();
    let pruned = store.prune_logs(now - 90 * 86_400_000).await.unwrap();
    println!(
        "first pruning (90 days kept of a year): {pruned:?} in {:.0} ms",
        time(t)
    );
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let mut waits = probe.await.unwrap();
    waits.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!(
        "a write beside it ({} writes): p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        waits.len(),
        waits[waits.len() / 2],
        waits[waits.len() * 99 / 100],
        waits[waits.len() - 1]
    );
    let mut before = before;
    before.extend(store.usage_by_chat(Some(quiet.id)).await.unwrap());
    before.sort_by(|a, b| (&a.chat, &a.model).cmp(&(&b.chat, &b.model)));
    let mut after = store.usage_by_chat(None).await.unwrap();
    after.sort_by(|a, b| (&a.chat, &a.model).cmp(&(&b.chat, &b.model)));
    assert_eq!(after, before);
    let t = Instant::now();
    let pruned = store.prune_logs(now - 89 * 86_400_000).await.unwrap();
    println!("a day later: {pruned:?} in {:.0} ms", time(t));
    sqlx::query("VACUUM").execute(&mut c).await.unwrap();
    println!(
        "file after VACUUM {} MB",
        std::fs::metadata(&path).unwrap().len() / 1_000_000
    );
    store.close().await;
}
