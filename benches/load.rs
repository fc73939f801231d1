//! The daemon under load, as users run it: the release `mneme start` (Telegram only; web chat,
//! embeddings and reflector off) against the fake Telegram Bot API and a fake LLM on 127.0.0.1
//! whose every answer takes 200 ms. 100 private chats at once, each sending 5 messages one after
//! the other (the next once the answer to the last reached sendMessage): through the webhook
//! (updates POSTed with the secret header), then through long polling (getUpdates).
//!
//! Prints the wall time against the LLM-bound ideal (messages per chat × LLM time), the
//! overhead per message excluding the LLM (the model's own time is what the fake LLM took, from
//! the request's arrival to its answer: 200 ms and its timer's wake-up), the time before the
//! LLM call, resident memory idle
//! and after the load, and whether every message was answered exactly once. Asserts nothing
//! about time. `cargo bench --bench load`; MNEME_LOAD_CHATS, MNEME_LOAD_MESSAGES and
//! MNEME_LOAD_LLM_MS change the load. With MNEME_BENCH_DATABASE_URL (a PostgreSQL server, as
//! `MNEME_TEST_DATABASE_URL`; `scripts/test-prepare` writes one to target/test-database-url) the
//! rows are repeated on PostgreSQL, each on a fresh database, and once more with two replicas on
//! one database, each chat's updates POSTed to the replicas in turn (as a balancer would).
//! MNEME_LOAD_ROWS=webhook (a word of the row names) runs only the matching rows; with
//! MNEME_LOAD_PERF=DIR each row's daemons are sampled by `perf record -g` during the load, one
//! `DIR/<row>.data` per row, for `perf report`; with MNEME_LOAD_TIMELINE=1 the daemons log each
//! message's stages and each row prints where the time went between them (`support/timeline.rs`).
//!
//! The first row is the floor: the same load through a bare relay (`support/relay.rs`: webhook
//! in, one model request, `sendMessage`; no store, no prompt) in place of the daemon.

#[path = "../tests/support/mod.rs"]
#[allow(unused_imports)] // dead_code is allowed inside support itself
mod support;

#[path = "support/measure.rs"]
#[allow(dead_code)] // model_dir is for the other benches
mod measure;
#[path = "support/relay.rs"]
mod relay;
#[path = "support/stats.rs"]
mod stats;
#[path = "support/timeline.rs"]
mod timeline;

use std::collections::HashMap;
use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::mpsc::UnboundedReceiver;

use measure::rss_mb;
use stats::{cpu_secs, ms, p50s, percentiles, postgres_cpu_secs, switches};
use support::binary::{command, write_config};
use support::web::free_port;
use support::*;

const SECRET: &str = "load-bench-Secret_0123456789";
/// Longest wait for one answer before the chat gives up (and the row says so).
const ANSWER_DEADLINE: Duration = Duration::from_secs(30);
/// Telegram user (and private chat) id of chat 0.
const FIRST_USER: i64 = 1000;

#[derive(Clone, Copy)]
struct Load {
    chats: usize,
    messages: usize,
    llm: Duration,
}

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Webhook,
    Polling,
}

/// One message: its token, its number in the chat, when it was handed over (the POST sent, or
/// the update queued for getUpdates), when the webhook answered 200, and when its answer
/// reached sendMessage (or what went wrong).
struct Sample {
    /// Its chat's Telegram id.
    chat: i64,
    token: String,
    round: usize,
    posted: Instant,
    acked: Option<Instant>,
    answered: Result<Instant, String>,
}

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// What every chat of a row shares.
struct Row {
    load: Load,
    mode: Mode,
    tg: FakeTelegram,
    /// Each replica's webhook (one unless the row has replicas).
    hook_urls: Vec<String>,
    client: reqwest::Client,
}

/// One chat: `load.messages` messages, each after the answer to the one before.
async fn chat(row: Arc<Row>, c: usize, mut answers: UnboundedReceiver<Instant>) -> Vec<Sample> {
    let (tg, user) = (&row.tg, FIRST_USER + c as i64);
    let mut samples = Vec::new();
    for round in 0..row.load.messages {
        let token = format!("[c{c}m{round}]");
        let text = format!("message {token}: what do you remember about my garden?");
        let (posted, mut acked) = (Instant::now(), None);
        let handed = if row.mode == Mode::Webhook {
            let update = tg.update(tg.private_message(user, &text));
            // Round robin over the replicas, as a balancer in front of them would do.
            let hook = &row.hook_urls[(c + round) % row.hook_urls.len()];
            let post = (row.client.post(hook)).header("X-Telegram-Bot-Api-Secret-Token", SECRET);
            match post.json(&update).send().await {
                Ok(r) if r.status() == 200 => {
                    acked = Some(Instant::now());
                    Ok(())
                }
                Ok(r) => Err(format!("the webhook answered {}", r.status())),
                Err(e) => Err(format!("the webhook POST failed: {e}")),
            }
        } else {
            tg.private_text(user, &text);
            Ok(())
        };
        let answered = match handed {
            Ok(()) => tokio::time::timeout(ANSWER_DEADLINE, answers.recv())
                .await
                .ok()
                .flatten()
                .ok_or(format!("no answer within {ANSWER_DEADLINE:?}")),
            Err(e) => Err(e),
        };
        let failed = answered.is_err();
        samples.push(Sample {
            chat: user,
            token,
            round,
            posted,
            acked,
            answered,
        });
        if failed {
            break; // the chat stops here; the row reports it
        }
    }
    samples
}

/// One row: `replicas` daemons on one database started, loaded, stopped (or, with `bare`, the
/// relay in place of the daemon). `Err` when one did not start.
async fn row(
    load: Load,
    mode: Mode,
    database_url: Option<&str>,
    replicas: usize,
    bare: bool,
) -> Result<(), String> {
    let llm = FakeLlm::start().await;
    llm.fallback(openai_text_after("Noted, thank you.", load.llm));
    let tg = FakeTelegram::start().await;
    let dir = tempfile::tempdir().unwrap();
    let (mut children, mut pids, mut logs, mut hook_urls) = (vec![], vec![], vec![], vec![]);
    for replica in 0..replicas {
        let home = dir.path().join(format!("replica-{replica}"));
        std::fs::create_dir_all(&home).unwrap();
        let port = free_port();
        let hook_url = format!("http://127.0.0.1:{port}/telegram/updates");
        let mut extra = format!(
            "  telegram:\n    enabled: true\n    bot_token: \"{}\"\n    api_url: {}\n    allowed_user_ids: [\"*\"]\n",
            tg.token, tg.url
        );
        if mode == Mode::Webhook {
            extra += &format!(
                "    mode: webhook\n    webhook_url: {hook_url}\n    webhook_secret: {SECRET}\n    webhook_listen: 127.0.0.1:{port}\n"
            );
        }
        extra += "reflector_enabled: false\nembedding_provider: none\n";
        if let Some(url) = database_url {
            extra += &format!("database_url: {}\n", serde_json::json!(url));
        }
        let config = write_config(&home, &config_yaml(&llm, &home, &extra));
        let log_path = home.join("daemon.log");
        let mut daemon = if bare {
            let settings = relay::Settings {
                listen: format!("127.0.0.1:{port}"),
                webhook_url: hook_url.clone(),
                secret: SECRET.into(),
                llm_url: llm.url.clone(),
                api_url: tg.url.clone(),
                token: tg.token.clone(),
            };
            let mut cmd = tokio::process::Command::new(std::env::current_exe().unwrap());
            cmd.env(relay::ENV, serde_json::to_string(&settings).unwrap())
                .kill_on_drop(true);
            cmd
        } else {
            let mut cmd = command(&config, &["start"]);
            if timeline_wanted() {
                cmd.env("MNEME_LOG", timeline::FILTER);
            }
            cmd
        };
        let child = daemon
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log_path).unwrap())
            .spawn()
            .unwrap();
        pids.push(child.id().unwrap());
        children.push(child);
        logs.push(log_path);
        hook_urls.push(hook_url);
    }
    let ready = tg.wait_until("the daemons ready", |t| match mode {
        Mode::Webhook => t.calls("setWebhook").len() >= replicas,
        Mode::Polling => !t.calls("getUpdates").is_empty(),
    });
    let exited = futures_util::future::select_all(children.iter_mut().map(|c| Box::pin(c.wait())));
    tokio::select! {
        () = ready => {}
        (status, i, _) = exited => {
            let log = std::fs::read_to_string(&logs[i]).unwrap_or_default();
            let lines = || log.lines().map(str::trim).filter(|l| !l.is_empty());
            let why = lines().find(|l| l.to_lowercase().contains("error")).or_else(|| lines().next_back());
            return Err(format!("the daemon exited at start ({}): {}", status.unwrap(), why.unwrap_or("")));
        }
    }
    let rss = |pids: &[u32]| -> Vec<String> {
        pids.iter()
            .map(|p| format!("{:.1}", rss_mb(Some(*p))))
            .collect()
    };
    let idle_mb = rss(&pids);
    let pid_texts: Vec<String> = pids.iter().map(u32::to_string).collect();
    let daemon_cpu = || pid_texts.iter().map(|p| cpu_secs(p)).sum::<f64>();
    let cpu_before = cpu_secs("self");
    let daemon_cpu_before = daemon_cpu();
    let server_cpu_before = postgres_cpu_secs();
    let daemon_switches = || {
        (pid_texts.iter().map(|p| switches(p))).fold((0, 0, 0), |(v, i, t), (v2, i2, t2)| {
            (v + v2, i + i2, t + t2)
        })
    };
    let switches_before = daemon_switches();
    let backend = match (bare, database_url) {
        (true, _) => "relay",
        (false, None) => "sqlite",
        (false, Some(_)) => "postgres",
    };
    let perf = perf_record(&pid_texts, mode, backend, replicas);

    // Each chat waits for its own answers; one task hands them out as the fake takes them.
    let mut on_sent = tg.on_sent();
    let (mut routes, mut inboxes) = (HashMap::new(), Vec::new());
    for c in 0..load.chats {
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        routes.insert(FIRST_USER + c as i64, tx);
        inboxes.push(rx);
    }
    let router = tokio::spawn(async move {
        while let Some(sent) = on_sent.recv().await {
            if let Some(route) = routes.get(&sent.chat_id) {
                let _ = route.send(sent.at);
            }
        }
    });
    let client = reqwest::Client::new();
    let shared = Arc::new(Row {
        load,
        mode,
        tg: tg.clone(),
        hook_urls,
        client,
    });
    let started = Instant::now();
    let chats: Vec<_> = (inboxes.into_iter().enumerate())
        .map(|(c, inbox)| tokio::spawn(chat(shared.clone(), c, inbox)))
        .collect();
    let mut samples = Vec::new();
    for chat in chats {
        samples.extend(chat.await.unwrap());
    }
    let answered = |s: &Sample| s.answered.as_ref().ok().copied();
    let wall = samples.iter().filter_map(answered).max().unwrap_or(started) - started;
    let loaded_mb = rss(&pids);
    let daemon_cpu = daemon_cpu() - daemon_cpu_before;
    let switches_after = daemon_switches();
    let bench_cpu = cpu_secs("self") - cpu_before;
    let server_cpu = postgres_cpu_secs() - server_cpu_before;
    if let Some(mut perf) = perf {
        let _ = std::process::Command::new("kill")
            .args(["-INT", &perf.id().to_string()])
            .status();
        let _ = perf.wait();
    }
    router.abort();
    let mut exits = Vec::new();
    for (child, pid) in children.iter_mut().zip(&pid_texts) {
        let _ = std::process::Command::new("kill")
            .args(["-TERM", pid])
            .status();
        exits.push(
            match tokio::time::timeout(Duration::from_secs(15), child.wait()).await {
                Ok(status) => status.unwrap().to_string(),
                Err(_) => "still running 15 s after SIGTERM".into(),
            },
        );
    }
    let exit = exits.join(", ");

    // Each message's LLM request, found by its token in the newest message of the request:
    // when it arrived at the fake and when the fake answered it.
    let mut asked: HashMap<String, Vec<(Instant, Option<Instant>)>> = HashMap::new();
    let requests = llm.requests_timed();
    for (at, done, request) in &requests {
        let newest = request.message_texts().pop().unwrap_or_default();
        if let Some(token) = newest.split_once("[c").and_then(|(_, t)| t.split_once(']')) {
            asked
                .entry(format!("[c{}]", token.0))
                .or_default()
                .push((*at, *done));
        }
    }
    // The overhead excludes the model's own time: from its request's arrival at the fake to
    // the fake's answer (its timer's wake-up included), else the nominal `load.llm`.
    let (mut overhead, mut before, mut after, mut ack, mut model) =
        (vec![], vec![], vec![], vec![], vec![]);
    let mut by_round = vec![vec![]; load.messages];
    for s in &samples {
        let Some(done) = answered(s) else {
            ack.extend(s.acked.map(|a| ms(a - s.posted)));
            continue;
        };
        let first = asked.get(&s.token).and_then(|a| a.first());
        let took = match first {
            Some((at, Some(llm_done))) => ms(*llm_done - *at),
            _ => ms(load.llm),
        };
        model.push(took);
        overhead.push(ms(done - s.posted) - took);
        by_round[s.round].push(ms(done - s.posted) - took);
        if let Some((at, _)) = first {
            before.push(ms(*at - s.posted));
            after.push(ms(done - *at) - took);
        }
        ack.extend(s.acked.map(|a| ms(a - s.posted)));
    }
    let total = load.chats * load.messages;
    let (wall, ideal) = (
        wall.as_secs_f64(),
        (load.llm * load.messages as u32).as_secs_f64(),
    );
    let share = 100.0 * ideal / wall.max(1e-9);
    println!("  wall {wall:.2} s for {total} messages; ideal {ideal:.2} s: {share:.0} % of it");
    println!("  overhead excl. LLM    {}", percentiles(overhead));
    println!("  the model's own time  {}", percentiles(model));
    println!("  before the LLM call   {}", percentiles(before));
    println!("  after the LLM answer  {}", percentiles(after));
    if mode == Mode::Webhook {
        println!("  webhook 200 after     {}", percentiles(ack));
    }
    let rounds = p50s(&mut by_round);
    println!(
        "  overhead p50 by message number (1st, 2nd, …): {} ms",
        rounds.join(" / ")
    );
    println!(
        "  RSS idle {} MB, after the load {} MB",
        idle_mb.join(" + "),
        loaded_mb.join(" + ")
    );
    let per_message = 1000.0 * daemon_cpu / total as f64;
    println!(
        "  CPU during the load: daemon {daemon_cpu:.2} s ({per_message:.1} ms per message), this bench and its fakes {bench_cpu:.2} s"
    );
    if database_url.is_some() {
        let per_message = 1000.0 * server_cpu / total as f64;
        println!(
            "  CPU of the PostgreSQL server during the load: {server_cpu:.2} s ({per_message:.1} ms per message)"
        );
    }
    let per = |after: u64, before: u64| after.saturating_sub(before) as f64 / total as f64;
    println!(
        "  daemon context switches per message: {:.1} voluntary, {:.1} involuntary ({} threads)",
        per(switches_after.0, switches_before.0),
        per(switches_after.1, switches_before.1),
        switches_after.2
    );

    // Exactly once: sendMessage per chat, LLM requests per message.
    let sent = tg.sent();
    let ids = FIRST_USER..FIRST_USER + load.chats as i64;
    let mut wrong: Vec<String> = (ids.clone())
        .map(|id| (id, sent.iter().filter(|s| s.chat_id == id).count()))
        .filter(|(_, n)| *n != load.messages)
        .map(|(id, n)| format!("chat {id}: {n}"))
        .collect();
    let stray = sent.iter().filter(|s| !ids.contains(&s.chat_id)).count();
    if stray > 0 {
        wrong.push(format!("{stray} to other chats"));
    }
    let n = requests.len();
    let twice = asked.values().filter(|a| a.len() > 1).count();
    if wrong.is_empty() {
        println!(
            "  every message answered exactly once ({} sendMessage)",
            sent.len()
        );
    } else {
        let first: Vec<&str> = wrong.iter().take(8).map(String::as_str).collect();
        println!(
            "  MISMATCH, answers per chat (want {}): {}",
            load.messages,
            first.join(", ")
        );
    }
    if twice > 0 || n != total || asked.len() != total {
        let found = asked.len();
        println!(
            "  LLM: {n} requests for {total} messages, {found} found by token, {twice} asked twice"
        );
    }
    for s in samples.iter().filter(|s| s.answered.is_err()).take(5) {
        println!("  {}: {}", s.token, s.answered.as_ref().unwrap_err());
    }
    let log: String = logs
        .iter()
        .map(|l| std::fs::read_to_string(l).unwrap_or_default())
        .collect();
    let bad: Vec<&str> = (log.lines())
        .filter(|l| l.contains(" WARN ") || l.contains(" ERROR "))
        .collect();
    println!(
        "  daemon: {exit} after SIGTERM; {} WARN/ERROR log lines",
        bad.len()
    );
    for line in bad.iter().take(3) {
        println!("    {}", line.chars().take(220).collect::<String>());
    }
    if timeline_wanted() && !bare {
        // The bench's own stages on the daemons' clock: each message handed over, and its
        // request's arrival at the fake model.
        let (now, wall_now) = (Instant::now(), std::time::SystemTime::now());
        let epoch_us = |at: Instant| {
            let wall = wall_now - now.saturating_duration_since(at);
            let since = wall
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap_or_default();
            i64::try_from(since.as_micros()).unwrap_or(i64::MAX)
        };
        let mut stamps = Vec::new();
        for s in &samples {
            stamps.push((s.chat.to_string(), "posted", epoch_us(s.posted)));
            if let Some((at, _)) = asked.get(&s.token).and_then(|a| a.first()) {
                stamps.push((s.chat.to_string(), "at model", epoch_us(*at)));
            }
        }
        timeline::print(&log, &stamps);
    }
    Ok(())
}

/// Whether MNEME_LOAD_TIMELINE asks for each message's stages (see `support/timeline.rs`).
fn timeline_wanted() -> bool {
    std::env::var_os("MNEME_LOAD_TIMELINE").is_some_and(|v| !v.is_empty())
}

/// With MNEME_LOAD_PERF set, `perf record -g` on the daemons (`pids`) until it is sent SIGINT.
fn perf_record(
    pids: &[String],
    mode: Mode,
    backend: &str,
    replicas: usize,
) -> Option<std::process::Child> {
    let dir = std::env::var("MNEME_LOAD_PERF")
        .ok()
        .filter(|d| !d.is_empty())?;
    std::fs::create_dir_all(&dir).ok()?;
    let name = format!(
        "{backend}-{}-{replicas}.data",
        if mode == Mode::Webhook {
            "webhook"
        } else {
            "polling"
        },
    );
    let out = std::path::Path::new(&dir).join(name);
    let child = std::process::Command::new("perf")
        .args(["record", "-q", "-F", "1999", "-g", "-o"])
        .arg(&out)
        .args(["-p", &pids.join(",")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    match child {
        Ok(child) => {
            // perf attaches in a moment; the load is short.
            std::thread::sleep(Duration::from_millis(300));
            Some(child)
        }
        Err(e) => {
            println!("  perf not run: {e}");
            None
        }
    }
}

fn main() {
    if relay::run_if_asked() {
        return;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(bench());
}

async fn bench() {
    if !std::env::args().any(|a| a == "--bench") {
        println!("load: run with `cargo bench --bench load`");
        return;
    }
    let load = Load {
        chats: env_or("MNEME_LOAD_CHATS", 100),
        messages: env_or("MNEME_LOAD_MESSAGES", 5).max(1),
        llm: Duration::from_millis(env_or("MNEME_LOAD_LLM_MS", 200) as u64),
    };
    println!(
        "load: {} chats at once × {} messages each, LLM {} ms per answer (the release `mneme start`)",
        load.chats,
        load.messages,
        load.llm.as_millis()
    );
    let postgres = std::env::var("MNEME_BENCH_DATABASE_URL")
        .ok()
        .filter(|u| !u.is_empty());
    let mut rows = vec![
        (
            "Floor: a bare relay, webhook",
            Mode::Webhook,
            false,
            1,
            true,
        ),
        ("SQLite, webhook", Mode::Webhook, false, 1, false),
        ("SQLite, long polling", Mode::Polling, false, 1, false),
    ];
    if postgres.is_some() {
        rows.push(("PostgreSQL, webhook", Mode::Webhook, true, 1, false));
        rows.push(("PostgreSQL, long polling", Mode::Polling, true, 1, false));
        let two = "PostgreSQL, two replicas, webhook";
        rows.push((two, Mode::Webhook, true, 2, false));
    }
    let only = std::env::var("MNEME_LOAD_ROWS").unwrap_or_default();
    let only = only.to_lowercase();
    let wanted = |name: &str| {
        only.split(',')
            .any(|w| name.to_lowercase().contains(w.trim()))
    };
    for (name, mode, on_postgres, replicas, bare) in rows {
        if !wanted(name) {
            continue;
        }
        println!("{name}");
        // Each PostgreSQL row on a database of its own.
        let database = (on_postgres)
            .then(|| support::postgres::scratch_database(postgres.clone().unwrap_or_default()));
        if let Err(why) = row(load, mode, database.as_deref(), replicas, bare).await {
            println!("  did not run: {why}");
        }
    }
}
