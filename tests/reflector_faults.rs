//! The reflector when things go wrong or pile up: unreadable answers, an LLM that is down, a
//! 1,000-message backlog, a write failing after the answer, the lifecycle on a moving clock,
//! the schedule and its shutdown.

mod support;

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use async_trait::async_trait;
use mneme::base::MemoryScope;
use mneme::llm::{LlmError, LlmProvider, LlmRequest, LlmResponse};
use mneme::memories::retrieval::Retriever;
use mneme::reflector::{Failure, Reflector, Target};
use mneme::store::Store;
use serde_json::json;
use support::reflector::*;
use support::*;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

#[tokio::test]
async fn garbage_keeps_the_cursor_and_the_batch_is_retried_then_stored() {
    let lab = Lab::new("").await;
    let chat = lab.chat("telegram:1", false).await;
    lab.say(&chat, "alice", "I play the cello in an orchestra")
        .await;
    let last = lab.say(&chat, "alice", "Rehearsals are on Tuesdays").await;
    lab.llm.script([
        openai_text("Sure! Alice plays the cello, I think."),
        Answer::Garbage("{\"choices\": [tru"),
        facts(json!([{"content": "Alice plays the cello in an orchestra", "category": "PROFILE", "supersedes_id": null}])),
    ]);

    let report = lab.pass(T0).await;
    let c = &report.chats[0];
    assert!(
        matches!(&c.failure, Some(Failure::Parse(e)) if e.contains("unparseable")),
        "{:?}",
        c.failure
    );
    assert_eq!(c.retry_at, Some(T0 + 15 * MIN), "backs off one interval");
    assert_eq!(lab.cursor(chat.id).await, 0);
    assert!(lab.contents(chat.id).await.is_empty());
    let run = &lab.runs(chat.id).await[0];
    assert!(!run.parse_ok);
    let error = run.error.as_deref().unwrap();
    assert!(error.contains("unparseable answer"), "{error}");
    assert!(
        !error.contains("cello"),
        "errors never quote what users said: {error}"
    );

    // before the backoff is over the chat is left alone
    let early = lab.pass(T0 + MIN).await;
    assert!(early.chats.is_empty());
    assert_eq!(early.backing_off.len(), 1);
    assert_eq!(lab.llm.request_count(), 1);

    // an answer the provider cannot even read: a failure too, the wait doubles
    let report = lab.pass(T0 + 15 * MIN).await;
    assert!(matches!(report.chats[0].failure, Some(Failure::Llm(_))));
    assert_eq!(report.chats[0].retry_at, Some(T0 + 45 * MIN));
    assert_eq!(
        lab.store.reflector_state(chat.id).await.unwrap().failures,
        2
    );

    let report = lab.pass(T0 + 45 * MIN).await;
    assert_eq!(report.chats[0].failure, None);
    assert_eq!(report.chats[0].stats.inserted, 1);
    assert_eq!(lab.cursor(chat.id).await, last);
    let state = lab.store.reflector_state(chat.id).await.unwrap();
    assert_eq!((state.failures, state.next_attempt_at), (0, 0));
    // the very same batch was asked each time
    let asked: Vec<_> = (0..3).map(|i| message_ids(&lab.prompt(i))).collect();
    assert_eq!(asked[0], asked[1]);
    assert_eq!(asked[0], asked[2]);
}

#[tokio::test]
async fn llm_down_backs_off_then_a_1000_message_backlog_is_caught_up_in_bounded_batches() {
    let lab = Lab::new("reflector_batch_messages: 40\nreflector_batch_tokens: 400\n").await;
    let chat = lab.chat("discord:2", false).await;
    let mut ids = Vec::new();
    for i in 0..1000 {
        let text = if i % 10 == 3 {
            "/usage".to_string()
        } else {
            format!("note {i}: today I practised scales and arpeggios on the piano for a while")
        };
        let sender = if i % 5 == 4 { "bot" } else { "alice" };
        ids.push(lab.say(&chat, sender, &text).await);
    }
    lab.llm
        .fallback(Answer::Status(503, None, "overloaded".into()));

    let down = lab.pass(T0).await;
    assert!(matches!(down.chats[0].failure, Some(Failure::Llm(ref e)) if e.contains("503")));
    assert!(
        lab.pass(T0 + 10 * MIN).await.chats.is_empty(),
        "backing off"
    );
    let down = lab.pass(T0 + 15 * MIN).await;
    assert_eq!(down.chats[0].retry_at, Some(T0 + 45 * MIN));
    assert_eq!(lab.llm.request_count(), 2);
    assert_eq!(lab.cursor(chat.id).await, 0);

    lab.llm.fallback(facts(json!([
        {"content": "Alice practises piano scales daily", "category": "PROFILE", "supersedes_id": null}
    ])));
    let up = lab.pass(T0 + 45 * MIN).await;
    let c = &up.chats[0];
    assert_eq!(c.failure, None);
    assert!(c.caught_up);
    assert_eq!(c.stats.messages_read, 1000);
    assert_eq!(lab.cursor(chat.id).await, *ids.last().unwrap());

    // every batch within both bounds; together they show each message once, in order
    let requests = lab.llm.requests();
    let mut shown = Vec::new();
    for req in &requests[2..] {
        let prompt = req.message_texts().join("\n");
        let lines = message_ids(&prompt);
        assert!(lines.len() <= 40, "{} messages", lines.len());
        let block = prompt.split("<messages>\n").nth(1).unwrap();
        let block = block.split("</messages>").next().unwrap();
        // the budget's measure: each line's tokens plus its newline
        let tokens: usize = block
            .lines()
            .map(|l| mneme::memory::tokens::count(l) + 1)
            .sum();
        assert!(tokens <= 400, "{tokens} tokens");
        shown.extend(lines);
    }
    let expected: Vec<i64> = ids
        .iter()
        .enumerate()
        .filter(|(i, _)| i % 10 != 3)
        .map(|(_, id)| *id)
        .collect();
    assert_eq!(shown, expected);
    assert_eq!(c.batches, requests.len() - 2);
    assert!(
        c.batches > 1000 / 40,
        "the token bound cut batches: {}",
        c.batches
    );
    // one fact, stated in every batch, stored once and reinforced since
    assert_eq!(lab.contents(chat.id).await.len(), 1);
    assert_eq!(c.stats.inserted, 1);
    assert_eq!(c.stats.updated as usize, c.batches - 1);
}

/// Answers instantly with nothing to remember, and records how many calls overlap.
#[derive(Default)]
struct CountingLlm {
    in_flight: AtomicUsize,
    most: AtomicUsize,
    calls: AtomicUsize,
    both_in: Notify,
}

#[async_trait]
impl LlmProvider for CountingLlm {
    fn name(&self) -> &'static str {
        "counting"
    }
    async fn complete(&self, _: &LlmRequest) -> Result<LlmResponse, LlmError> {
        let first = self.calls.fetch_add(1, Ordering::SeqCst) == 0;
        let partner = self.both_in.notified();
        tokio::pin!(partner);
        partner.as_mut().enable();
        let now = self.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        self.most.fetch_max(now, Ordering::SeqCst);
        if now >= 2 {
            self.both_in.notify_waiters();
        } else if first {
            // the first call waits (bounded) for a second one to overlap it
            let _ = tokio::time::timeout(Duration::from_secs(5), partner).await;
        }
        self.in_flight.fetch_sub(1, Ordering::SeqCst);
        Ok(LlmResponse {
            text: r#"{"memories":[]}"#.into(),
            ..LlmResponse::default()
        })
    }
}

#[tokio::test]
async fn chats_are_reflected_concurrently_up_to_the_bound() {
    let lab = Lab::new("reflector_concurrency: 2\n").await;
    for i in 0..5 {
        let chat = lab.chat(&format!("web:user{i}"), false).await;
        lab.say(&chat, "someone", "I enjoy hiking in the mountains")
            .await;
    }
    let llm = Arc::new(CountingLlm::default());
    let reflector = Reflector::new(&lab.config, lab.store.clone(), llm.clone());
    let report = reflector
        .run_pass(&Target::Due, T0, &CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(report.chats.len(), 5);
    assert!(report.chats.iter().all(|c| c.failure.is_none()));
    assert_eq!(llm.calls.load(Ordering::SeqCst), 5);
    assert_eq!(
        llm.most.load(Ordering::SeqCst),
        2,
        "two at a time, never more"
    );
}

/// Makes every write of the cursor fail, as a crash between the answer and the commit would.
async fn break_cursor_writes(store_path: &std::path::Path, broken: bool) {
    use sqlx::Connection;
    let url = format!("sqlite://{}", store_path.display());
    let mut conn = sqlx::SqliteConnection::connect(&url).await.unwrap();
    let sql = if broken {
        "CREATE TRIGGER crash_before_commit BEFORE INSERT ON memory_reflector_state
         BEGIN SELECT RAISE(ABORT, 'simulated crash before commit'); END"
    } else {
        "DROP TRIGGER crash_before_commit"
    };
    sqlx::query(sql).execute(&mut conn).await.unwrap();
    conn.close().await.unwrap();
}

#[tokio::test]
async fn a_write_failing_after_the_answer_leaves_nothing_and_the_next_pass_stores_once() {
    let lab = Lab::new("").await;
    let chat = lab.chat("telegram:3", false).await;
    lab.say(&chat, "alice", "I speak Portuguese and I teach yoga")
        .await;
    let answer = facts(json!([
        {"content": "Alice speaks Portuguese", "category": "PROFILE", "supersedes_id": null},
        {"content": "Alice teaches yoga", "category": "PROFILE", "supersedes_id": null},
    ]));
    lab.llm.script([answer.clone(), answer]);
    let db = lab.config.data_dir.join("mneme.db");

    // the facts are written in the batch's transaction, then the cursor write fails
    break_cursor_writes(&db, true).await;
    let report = lab.pass(T0).await;
    assert!(
        matches!(&report.chats[0].failure, Some(Failure::Store(e)) if e.contains("simulated crash")),
        "{:?}",
        report.chats[0].failure
    );
    assert_eq!(lab.llm.request_count(), 1);
    assert_eq!(lab.cursor(chat.id).await, 0);
    assert!(
        lab.memories(chat.id, true).await.is_empty(),
        "nothing half-written"
    );
    let terms: HashSet<String> = ["alice", "speaks", "portuguese"].map(String::from).into();
    let indexed = lab
        .store
        .dedup_candidates(MemoryScope::Chat(chat.id), &terms, 0.6)
        .await
        .unwrap();
    assert!(indexed.is_empty(), "no postings either");

    break_cursor_writes(&db, false).await;
    let report = lab.pass(T0 + MIN).await;
    assert_eq!(report.chats[0].failure, None);
    assert_eq!(report.chats[0].stats.inserted, 2);
    assert_eq!(
        lab.contents(chat.id).await,
        ["Alice speaks Portuguese", "Alice teaches yoga"]
    );
    assert!(lab.pass(T0 + 2 * MIN).await.chats.is_empty());
    assert_eq!(lab.llm.request_count(), 2, "stored exactly once");
}

#[tokio::test]
async fn decay_archives_faded_rows_unless_reinforced_and_profile_fades_slower() {
    let lab = Lab::new("").await;
    let chat = lab.chat("telegram:4", false).await;
    lab.say(
        &chat,
        "alice",
        "I'm vegetarian, our team runs Kubernetes, and I visited Lisbon in May",
    )
    .await;
    lab.llm.script([
        facts(json!([
            {"content": "Alice is vegetarian", "category": "PROFILE", "supersedes_id": null},
            {"content": "Alice's team runs Kubernetes", "category": "KNOWLEDGE", "supersedes_id": null},
            {"content": "Alice visited Lisbon in May", "category": "EVENT", "supersedes_id": null},
        ])),
        facts(json!([
            {"content": "Alice visited Lisbon in May", "category": "EVENT", "supersedes_id": null},
        ])),
    ]);
    lab.pass(T0).await;
    assert_eq!(lab.memories(chat.id, false).await.len(), 3);

    // 20 days on: faded a little, nothing old enough to archive
    assert_eq!(lab.pass(T0 + 20 * DAY).await.lifecycle.stale, 0);

    // 190 days on, Lisbon comes up again. The same pass archives what has faded: the
    // KNOWLEDGE fact (0.7 × 0.5^(190/90) ≈ 0.16 < 0.3, unseen for 190 days), but not Lisbon,
    // which faded as much and was just seen, nor the PROFILE fact, which fades slower
    lab.say(
        &chat,
        "alice",
        "Still dreaming about Lisbon, visited it in May",
    )
    .await;
    let report = lab.pass(T0 + 190 * DAY).await;
    assert_eq!(report.chats[0].stats.updated, 1);
    assert_eq!(report.lifecycle.stale, 1);
    assert_eq!(lab.pass(T0 + 200 * DAY).await.lifecycle.stale, 0);

    // 400 days on: Lisbon has faded again, unseen for 210 days; PROFILE still holds
    // (0.7 × 0.5^(400/365) ≈ 0.33)
    let report = lab.pass(T0 + 400 * DAY).await;
    assert_eq!(report.lifecycle.stale, 1);
    let all = lab.memories(chat.id, true).await;
    let state: Vec<_> = all
        .iter()
        .map(|m| (m.content.as_str(), m.archived, m.archived_at))
        .collect();
    assert_eq!(
        state,
        [
            ("Alice is vegetarian", false, None),
            ("Alice's team runs Kubernetes", true, Some(T0 + 190 * DAY)),
            ("Alice visited Lisbon in May", true, Some(T0 + 400 * DAY)),
        ]
    );
    let injectable = lab.store.injectable_memories(chat.id).await.unwrap();
    assert_eq!(injectable.len(), 1);
    assert_eq!(injectable[0].content, "Alice is vegetarian");
}

#[tokio::test]
async fn caps_archive_the_weakest_first() {
    let lab = Lab::new("memory_max_per_chat: 2\nmemory_max_total: 3\n").await;
    let a = lab.chat("telegram:5", false).await;
    lab.say(&a, "alice", "I knit scarves and I grow tomatoes")
        .await;
    lab.llm.script([facts(json!([
        {"content": "Alice knits scarves", "category": "PROFILE", "supersedes_id": null},
        {"content": "Alice grows tomatoes", "category": "PROFILE", "supersedes_id": null},
    ]))]);
    lab.pass(T0).await;

    // ten days on: a third fact, and the tomatoes again; the scarves are now the weakest
    lab.say(
        &a,
        "alice",
        "My tomatoes are ripe, and I started learning Go",
    )
    .await;
    lab.llm.script([facts(json!([
        {"content": "Alice grows tomatoes", "category": "PROFILE", "supersedes_id": null},
        {"content": "Alice is learning Go", "category": "KNOWLEDGE", "supersedes_id": null},
    ]))]);
    let report = lab.pass(T0 + 10 * DAY).await;
    assert_eq!(report.lifecycle.over_cap, 1);
    assert_eq!(
        lab.contents(a.id).await,
        ["Alice grows tomatoes", "Alice is learning Go"]
    );

    // another chat pushes the total over 3: the weakest anywhere goes
    let b = lab.chat("telegram:6", false).await;
    lab.say(&b, "bob", "I brew my own beer").await;
    lab.say(&b, "bob", "I also fly kites").await;
    lab.llm.script([facts(json!([
        {"content": "Bob brews his own beer", "category": "PROFILE", "supersedes_id": null},
        {"content": "Bob flies kites", "category": "PROFILE", "supersedes_id": null},
    ]))]);
    let report = lab.pass(T0 + 20 * DAY).await;
    assert_eq!(report.lifecycle.over_cap, 1);
    assert_eq!(lab.store.count_active_chat_memories().await.unwrap(), 3);
    // "learning Go" (KNOWLEDGE, fading faster, unseen for 10 days) was the weakest
    assert_eq!(lab.contents(a.id).await, ["Alice grows tomatoes"]);
}

#[tokio::test]
async fn the_schedule_reflects_on_its_own_and_stops_on_shutdown() {
    let lab = Lab::new("").await;
    let chat = lab.chat("web:alice", false).await;
    lab.say(&chat, "alice", "I am allergic to peanuts").await;
    lab.llm.script([facts(json!([
        {"content": "Alice is allergic to peanuts", "category": "PROFILE", "supersedes_id": null}
    ]))]);
    lab.llm.fallback(facts(json!([])));
    let reflector = Arc::new(Reflector::new(
        &lab.config,
        lab.store.clone(),
        mneme::llm::from_config(&lab.config).unwrap(),
    ));
    let shutdown = CancellationToken::new();
    let handle = mneme::schedule::reflector::spawn_every(
        reflector,
        Duration::from_millis(50),
        shutdown.clone(),
    );

    wait_until(|| async { lab.contents(chat.id).await.len() == 1 }).await;
    // later messages are picked up by a later tick
    let last = lab
        .say(&chat, "alice", "Also, I speak fluent Italian")
        .await;
    wait_until(|| async { lab.cursor(chat.id).await == last }).await;

    shutdown.cancel();
    tokio::time::timeout(Duration::from_secs(5), handle)
        .await
        .expect("the schedule stops promptly")
        .unwrap();
}

#[tokio::test]
async fn shutdown_abandons_a_hanging_call_and_leaves_the_batch_for_next_time() {
    let lab = Lab::new("").await;
    let chat = lab.chat("web:bob", false).await;
    lab.say(&chat, "bob", "I work as a carpenter").await;
    lab.llm.script([Answer::Hang]);
    let shutdown = CancellationToken::new();
    let handle = mneme::schedule::reflector::spawn(
        Arc::new(lab.config.clone()),
        Retriever::new(&lab.config, lab.store.clone(), None),
        mneme::llm::from_config(&lab.config).unwrap(),
        shutdown.clone(),
    );
    lab.llm.wait_for_requests(1).await;
    shutdown.cancel();
    tokio::time::timeout(Duration::from_secs(5), handle)
        .await
        .expect("no waiting for the model")
        .unwrap();
    assert_eq!(lab.cursor(chat.id).await, 0);
    let state = lab.store.reflector_state(chat.id).await.unwrap();
    assert_eq!(state.failures, 0, "a shutdown is not the chat's failure");
    let run = &lab.runs(chat.id).await[0];
    assert!(
        run.error.as_deref().unwrap().contains("interrupted"),
        "{run:?}"
    );

    // disabled: the schedule does nothing at all
    let off = Lab::new("reflector_enabled: false\n").await;
    let handle = mneme::schedule::reflector::spawn(
        Arc::new(off.config.clone()),
        Retriever::new(&off.config, off.store.clone(), None),
        mneme::llm::from_config(&off.config).unwrap(),
        CancellationToken::new(),
    );
    tokio::time::timeout(Duration::from_secs(5), handle)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(off.llm.request_count(), 0);
}

#[tokio::test]
async fn memories_from_before_the_index_are_indexed_at_open() {
    let lab = Lab::new("").await;
    let chat = lab.chat("cli:old", false).await;
    let db = lab.config.data_dir.join("mneme.db");
    // simulate a database from before migration 0002: a memory without postings, listed
    // in the backlog the migration fills
    {
        use sqlx::Connection;
        let mut conn = sqlx::SqliteConnection::connect(&format!("sqlite://{}", db.display()))
            .await
            .unwrap();
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO memories (chat_id, category, content, confidence, source, created_at, updated_at, last_seen_at)
             VALUES (?1, 'PROFILE', 'Alice plays the oboe', 0.8, 'explicit', 0, 0, 0) RETURNING id",
        )
        .bind(chat.id)
        .fetch_one(&mut conn)
        .await
        .unwrap();
        sqlx::query("INSERT INTO memory_terms_backlog (memory_id) VALUES (?1)")
            .bind(id)
            .execute(&mut conn)
            .await
            .unwrap();
    }
    let terms: HashSet<String> = ["alice", "plays", "oboe"].map(String::from).into();
    let scope = MemoryScope::Chat(chat.id);
    assert!(
        lab.store
            .dedup_candidates(scope, &terms, 0.6)
            .await
            .unwrap()
            .is_empty()
    );
    let reopened = Store::open(&lab.config.database_url()).await.unwrap();
    let found = reopened.dedup_candidates(scope, &terms, 0.6).await.unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].content, "Alice plays the oboe");
}

/// Polls `done` until it holds, failing after 10 s (no fixed sleeps: it returns as soon as
/// the condition does).
async fn wait_until<F, Fut>(done: F)
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while !done().await {
        assert!(
            tokio::time::Instant::now() < deadline,
            "condition not met within 10 s"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// One batch the model always answers with garbage does not stop the chat's reflection: after
/// `reflector_max_parse_failures` unreadable answers in a row it is set aside — recorded, and
/// shown by `mneme usage` — and the cursor moves on, so later messages are reflected.
#[tokio::test]
async fn a_batch_answered_with_garbage_again_and_again_is_set_aside() {
    let lab = Lab::new("reflector_max_parse_failures: 3\n").await;
    let chat = lab.chat("telegram:1", false).await;
    let poisoned = lab
        .say(&chat, "alice", "something the model chokes on")
        .await;
    lab.llm.script([
        openai_text("no JSON here"),
        openai_text("still none"),
        openai_text("{\"memories\": [oops"),
        facts(json!([{"content": "Alice lives in Lisbon", "category": "PROFILE", "supersedes_id": null}])),
    ]);
    let mut at = T0;
    for attempt in 1..=3 {
        let report = lab.pass(at).await;
        let c = &report.chats[0];
        if attempt < 3 {
            assert!(
                matches!(&c.failure, Some(Failure::Parse(_))),
                "{:?}",
                c.failure
            );
            assert_eq!(
                lab.cursor(chat.id).await,
                0,
                "the cursor stays before attempt 3"
            );
            at = c.retry_at.unwrap();
        } else {
            assert_eq!(c.failure, None, "the third failure sets the batch aside");
            assert_eq!(c.set_aside, 1);
            assert_eq!(lab.cursor(chat.id).await, poisoned);
        }
    }
    let run = lab.runs(chat.id).await.into_iter().next().unwrap();
    assert!(!run.parse_ok);
    assert!(
        run.error.as_deref().unwrap().contains("set aside"),
        "{run:?}"
    );
    let aside = lab.store.set_aside_batches(10).await.unwrap();
    assert_eq!(aside.len(), 1);
    assert_eq!((aside[0].last_message_id, aside[0].attempts), (poisoned, 3));
    let state = lab.store.reflector_state(chat.id).await.unwrap();
    assert_eq!((state.failures, state.next_attempt_at), (0, 0));

    // Reflection goes on with what comes next.
    let last = lab.say(&chat, "alice", "I live in Lisbon").await;
    let report = lab.pass(at + MIN).await;
    assert_eq!(report.chats[0].failure, None);
    assert_eq!(report.chats[0].stats.inserted, 1);
    assert_eq!(lab.cursor(chat.id).await, last);
    assert_eq!(lab.contents(chat.id).await, ["Alice lives in Lisbon"]);
}
