//! Retrieval end to end: the full-text index follows every change, prompt injection finds the
//! right memory among thousands, the memory tools work from the agent loop against the fake
//! LLM, vectors are backfilled after a model change and kept in step with edits, and search
//! degrades to keywords when the embedder fails. (Real embeddings: tests/retrieval_model.rs.)

mod support;

use std::sync::Arc;
use std::sync::atomic::Ordering;

use mneme::agent::ReplyKind;
use mneme::base::{Category, ChatKey, MemoryScope};
use mneme::config::Config;
use mneme::embed::Embedder;
use mneme::memories::retrieval::{Retriever, sync};
use mneme::store::{NewMemory, SearchScope, Store};
use serde_json::{Value, json};
use support::reflector::{Lab, T0, facts};
use support::word_embedder::WordEmbedder;
use support::*;

/// `n` unremarkable facts about hobbies, places and plans.
fn filler(scope: MemoryScope, n: usize) -> Vec<NewMemory> {
    const SUBJECTS: &[&str] = &[
        "the garden",
        "the piano",
        "a bicycle",
        "the train",
        "a movie",
        "the kitchen",
        "football",
        "a painting",
    ];
    const VERBS: &[&str] = &[
        "likes",
        "fixed",
        "talked about",
        "plans to buy",
        "visited",
        "cleaned",
    ];
    (0..n)
        .map(|i| {
            let text = format!(
                "Friend {} {} {} on day {}",
                i % 97,
                VERBS[i % VERBS.len()],
                SUBJECTS[(i / 7) % SUBJECTS.len()],
                i
            );
            new_memory(scope, [Category::Knowledge, Category::Event][i % 2], &text)
        })
        .collect()
}

async fn store_at(dir: &std::path::Path) -> Store {
    Store::open(&support::database_url(dir)).await.unwrap()
}

async fn chat(store: &Store, name: &str) -> i64 {
    let key: ChatKey = name.parse().unwrap();
    store.ensure_chat(&key, false, None).await.unwrap().id
}

fn ids(found: &mneme::memories::retrieval::SearchResults) -> Vec<i64> {
    found.hits.iter().map(|h| h.memory.id).collect()
}

#[tokio::test]
async fn the_full_text_index_follows_edits_archives_and_deletes() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_at(dir.path()).await;
    let retriever = Retriever::new(&Config::default(), store.clone(), None);
    let alice = chat(&store, "cli:alice").await;
    let id = store
        .insert_memory(&new_memory(
            MemoryScope::Chat(alice),
            Category::Profile,
            "Alice's dogs are named Rex and Fido",
        ))
        .await
        .unwrap();
    let search = |q: &'static str| {
        let r = retriever.clone();
        async move { ids(&r.search(SearchScope::Chat(alice), q, 5).await.unwrap()) }
    };
    assert_eq!(
        search("what is my dog called?").await,
        [id],
        "stemming: dog finds dogs"
    );
    store
        .refine_memory(id, "Alice's cat is named Tom", Category::Profile, 0.8)
        .await
        .unwrap();
    assert!(
        search("dog").await.is_empty(),
        "the old words left the index"
    );
    assert_eq!(search("cat").await, [id]);
    store.archive_memories(&[id], T0).await.unwrap();
    assert!(
        search("cat").await.is_empty(),
        "archived memories are not found"
    );

    let other = store
        .insert_memory(&new_memory(
            MemoryScope::Chat(alice),
            Category::Knowledge,
            "The standup is at ten",
        ))
        .await
        .unwrap();
    assert_eq!(search("standup").await, [other]);
    store.delete_memory(other).await.unwrap();
    assert!(search("standup").await.is_empty());

    // Chinese and Japanese are matched by bigrams, question words left out.
    let tokyo = store
        .insert_memory(&new_memory(
            MemoryScope::Chat(alice),
            Category::Profile,
            "我住在东京",
        ))
        .await
        .unwrap();
    assert_eq!(search("我住在哪里？").await, [tokyo]);
}

#[tokio::test]
async fn rows_from_before_the_index_get_their_search_text_on_open() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_at(dir.path()).await;
    let alice = chat(&store, "cli:alice").await;
    let id = store
        .insert_memory(&new_memory(
            MemoryScope::Chat(alice),
            Category::Profile,
            "Alice plays the cello",
        ))
        .await
        .unwrap();
    store.close().await;
    // What a database from before migration 0003 looks like: no search text, nothing indexed.
    let pool = sqlx::SqlitePool::connect(&format!(
        "sqlite://{}",
        dir.path().join("mneme.db").display()
    ))
    .await
    .unwrap();
    sqlx::query("UPDATE memories SET search_text = NULL")
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    let store = store_at(dir.path()).await;
    let retriever = Retriever::new(&Config::default(), store, None);
    let found = retriever
        .search(SearchScope::Chat(alice), "cello", 5)
        .await
        .unwrap();
    assert_eq!(ids(&found), [id]);
}

#[tokio::test]
async fn the_prompt_carries_the_relevant_memory_among_thousands_and_nothing_of_other_chats() {
    let llm = FakeLlm::start().await;
    llm.fallback(openai_text("ok"));
    let dir = tempfile::tempdir().unwrap();
    let bot = TestBot::start(&llm, dir.path(), "memory_token_budget: 300\n").await;
    let store = bot.agent.store();
    let alice = chat(store, "cli:alice").await;
    let bob = chat(store, "cli:bob").await;
    store
        .insert_memories(&filler(MemoryScope::Chat(alice), 3000))
        .await
        .unwrap();
    for (chat, fact) in [
        (alice, "User's dog is named Rex"),
        (alice, "我的猫叫咪咪"),
        (bob, "Bob's dog is named Fido"),
    ] {
        store
            .insert_memory(&new_memory(
                MemoryScope::Chat(chat),
                Category::Profile,
                fact,
            ))
            .await
            .unwrap();
    }

    bot.say("cli:alice", "what's my dog called?").await;
    let system = llm.requests()[0].system();
    let block = memories_block(&system);
    let first = block.trim().lines().next().unwrap();
    assert_eq!(first, "[PROFILE] [chat] User's dog is named Rex", "{block}");
    assert!(
        !system.contains("Fido"),
        "another chat's memory in the prompt"
    );
    let omitted: usize = block
        .rsplit("(+")
        .next()
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no omitted count in {block}"));
    let shown = block.lines().filter(|l| l.starts_with('[')).count();
    assert_eq!(
        shown + omitted,
        3002,
        "every memory of the chat is shown or counted"
    );

    bot.say("cli:alice", "我的猫叫什么名字？").await;
    let system = llm.requests()[1].system();
    let block = memories_block(&system);
    assert_eq!(
        block.trim().lines().next().unwrap(),
        "[PROFILE] [chat] 我的猫叫咪咪"
    );
}

/// What the prompt's `<structured_memories>` block holds (the identity mentions the tag too).
fn memories_block(system: &str) -> String {
    let start = system.rfind("<structured_memories>\n").expect("the block") + 22;
    let end = system.rfind("</structured_memories>").expect("its end");
    system[start..end].to_string()
}

/// The tool result the model was sent in request `n`, for the call it made.
fn tool_result(llm: &FakeLlm, n: usize) -> String {
    let req = &llm.requests()[n];
    let messages = req.body["messages"].as_array().unwrap();
    let tool = messages.iter().rev().find(|m| m["role"] == "tool").unwrap();
    tool["content"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn the_memory_tools_work_from_the_agent_loop() {
    let llm = FakeLlm::start().await;
    let dir = tempfile::tempdir().unwrap();
    let bot = TestBot::start(&llm, dir.path(), "").await;
    llm.script([
        openai_tool_call(
            "memory_store",
            r#"{"content": "User's dog is named Rex", "category": "PROFILE", "key": "dog"}"#,
        ),
        openai_text("I'll remember Rex."),
        openai_tool_call("memory_search", r#"{"query": "dog name"}"#),
        openai_text("Your dog is Rex."),
        openai_tool_call("memory_forget", r#"{"key": "dog"}"#),
        openai_text("Forgotten."),
    ]);
    let reply = bot.say("cli:alice", "My dog is Rex, please note it").await;
    assert_eq!(
        (reply.text.as_str(), reply.kind),
        ("I'll remember Rex.", ReplyKind::Model)
    );
    let stored = tool_result(&llm, 1);
    assert!(
        stored.starts_with("Stored memory #")
            && stored.ends_with("(dog) (PROFILE): User's dog is named Rex"),
        "{stored}"
    );

    let reply = bot.say("cli:alice", "what's my dog called?").await;
    assert_eq!(reply.text, "Your dog is Rex.");
    assert!(
        llm.requests()[2]
            .system()
            .contains("[PROFILE] [chat] User's dog is named Rex"),
        "the stored fact is injected into the next prompt"
    );
    let found: Value = serde_json::from_str(&tool_result(&llm, 3)).unwrap();
    let first = &found["results"][0];
    assert_eq!(first["source"], "memory");
    assert_eq!(first["snippet"], "User's dog is named Rex");
    assert!(first["citation"].as_str().unwrap().starts_with("memory:"));
    let cited_message = found["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["source"] == "messages")
        .expect("the earlier message is found too");
    assert_eq!(cited_message["snippet"], "My dog is Rex, please note it");

    bot.say("cli:alice", "forget my dog").await;
    assert!(tool_result(&llm, 5).starts_with("Forgot memory #"));
    let (rows, _) = bot
        .agent
        .store()
        .visible_memories(chat(bot.agent.store(), "cli:alice").await, None, 10)
        .await
        .unwrap();
    assert!(rows.is_empty());
}

#[tokio::test]
async fn a_model_change_re_embeds_every_memory_in_the_background() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_at(dir.path()).await;
    let alice = chat(&store, "cli:alice").await;
    store
        .insert_memories(&filler(MemoryScope::Chat(alice), 100))
        .await
        .unwrap();
    store
        .insert_memory(&new_memory(
            MemoryScope::Global,
            Category::Knowledge,
            "The office dog is named Biscuit",
        ))
        .await
        .unwrap();
    let config = Config::default();

    let old = Arc::new(WordEmbedder::new("words-v1"));
    let retriever = Retriever::new(
        &config,
        store.clone(),
        Some(old.clone() as Arc<dyn Embedder>),
    );
    assert_eq!(
        sync::queue_stale(&retriever).await.unwrap(),
        0,
        "new rows are queued by trigger already"
    );
    let done = sync::embed_pending(&retriever, usize::MAX).await.unwrap();
    assert_eq!((done.embedded, done.left), (101, 0));
    assert_eq!(
        store.vector_counts().await.unwrap(),
        [("words-v1".to_string(), 64, 101)]
    );

    // Another model: everything is queued again and re-embedded, resumably.
    let new = Arc::new(WordEmbedder::with_dim("words-v2", 32));
    let retriever = Retriever::new(
        &config,
        store.clone(),
        Some(new.clone() as Arc<dyn Embedder>),
    );
    assert_eq!(sync::queue_stale(&retriever).await.unwrap(), 101);
    let part = sync::embed_pending(&retriever, 40).await.unwrap();
    assert_eq!((part.embedded, part.left), (40, 61), "interrupted midway");
    drop(retriever);
    let retriever = Retriever::new(
        &config,
        store.clone(),
        Some(new.clone() as Arc<dyn Embedder>),
    );
    assert_eq!(
        sync::queue_stale(&retriever).await.unwrap(),
        0,
        "the queue survived"
    );
    let rest = sync::embed_pending(&retriever, usize::MAX).await.unwrap();
    assert_eq!((rest.embedded, rest.left), (61, 0));
    assert_eq!(
        store.vector_counts().await.unwrap(),
        [("words-v2".to_string(), 32, 101)]
    );

    // The vector ranking finds by meaning: "puppy called" shares no term with the fact.
    let found = retriever
        .search(SearchScope::Chat(alice), "puppy called Biscuit?", 3)
        .await
        .unwrap();
    assert!(found.used_vector);
    assert_eq!(
        found.hits[0].memory.content,
        "The office dog is named Biscuit"
    );
    assert!(found.hits[0].stages.vector_rank == Some(1));
}

#[tokio::test]
async fn vectors_follow_edits_and_archives_and_other_processes_writes() {
    let dir = tempfile::tempdir().unwrap();
    let config = Config::default();
    let embedder: Arc<dyn Embedder> = Arc::new(WordEmbedder::new("words"));
    let store = store_at(dir.path()).await;
    let alice = chat(&store, "cli:alice").await;
    let mine = Retriever::new(&config, store.clone(), Some(embedder.clone()));
    // A second process on the same database (`mneme chat` beside `mneme start`).
    let theirs = Retriever::new(&config, store_at(dir.path()).await, Some(embedder.clone()));

    let id = store
        .insert_memory(&new_memory(
            MemoryScope::Chat(alice),
            Category::Profile,
            "Alice has a dog named Rex",
        ))
        .await
        .unwrap();
    sync::embed_pending(&mine, usize::MAX).await.unwrap();
    let nearest = |r: &Retriever, text: &str| {
        let (r, v) = (r.clone(), WordEmbedder::new("words").vector(text));
        async move { r.nearest(&[alice], &v, 5).await.unwrap() }
    };
    assert_eq!(
        nearest(&theirs, "puppy called Rex").await[0].0,
        id,
        "written by one, seen by the other"
    );

    store
        .refine_memory(id, "Alice has a cat named Tom", Category::Profile, 0.8)
        .await
        .unwrap();
    assert!(
        nearest(&theirs, "puppy called Rex").await.is_empty(),
        "an edit drops the old vector"
    );
    assert_eq!(
        store.embedding_queue_len().await.unwrap(),
        1,
        "and queues the new text"
    );
    sync::embed_pending(&mine, usize::MAX).await.unwrap();
    let hit = nearest(&theirs, "cat named Tom").await;
    assert_eq!(hit[0].0, id);
    // 3 of the fact's 4 terms: cosine 3 / √12
    assert!((hit[0].1 - 0.866).abs() < 0.01, "{hit:?}");

    store.archive_memories(&[id], T0).await.unwrap();
    assert!(
        nearest(&mine, "cat named Tom").await.is_empty(),
        "archived: no vector"
    );
    assert_eq!(store.embedding_queue_len().await.unwrap(), 0);
}

#[tokio::test]
async fn search_falls_back_to_keywords_when_the_embedder_fails() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_at(dir.path()).await;
    let alice = chat(&store, "cli:alice").await;
    let embedder = Arc::new(WordEmbedder::new("words"));
    let retriever = Retriever::new(
        &Config::default(),
        store.clone(),
        Some(embedder.clone() as Arc<dyn Embedder>),
    );
    let id = store
        .insert_memory(&new_memory(
            MemoryScope::Chat(alice),
            Category::Profile,
            "Alice's dog is named Rex",
        ))
        .await
        .unwrap();
    embedder.failing.store(true, Ordering::SeqCst);
    assert!(sync::embed_pending(&retriever, usize::MAX).await.is_err());
    assert_eq!(
        store.embedding_queue_len().await.unwrap(),
        1,
        "nothing lost: still queued"
    );
    let found = retriever
        .search(SearchScope::Chat(alice), "dog", 5)
        .await
        .unwrap();
    assert_eq!(ids(&found), [id]);
    assert!(!found.used_vector);
    assert!(found.vector_error.unwrap().contains("down"));
    // For a while, searches do not wait on the embedder again.
    embedder.failing.store(false, Ordering::SeqCst);
    let before = embedder.embedded.load(Ordering::SeqCst);
    let found = retriever
        .search(SearchScope::Chat(alice), "dog", 5)
        .await
        .unwrap();
    assert_eq!(ids(&found), [id]);
    assert!(found.vector_error.unwrap().contains("retrying within"));
    assert_eq!(
        embedder.embedded.load(Ordering::SeqCst),
        before,
        "the embedder was left alone"
    );
}

#[tokio::test]
async fn the_reflector_dedups_by_meaning_with_an_embedder() {
    let embedder = Arc::new(WordEmbedder::new("words"));
    let lab = Lab::with_embedder("", embedder.clone()).await;
    let chat = lab.chat("telegram:42", false).await;
    lab.say(&chat, "alice", "I have a dog, Rex").await;
    lab.llm.script([facts(json!([
        {"content": "Alice has a dog named Rex", "category": "PROFILE"}
    ]))]);
    lab.pass(T0).await;
    lab.say(&chat, "alice", "my puppy Rex is great").await;
    // Few shared terms (Jaccard 2/7), the same meaning: reinforced, not added.
    lab.llm.script([facts(json!([
        {"content": "Alice owns a puppy called Rex", "category": "PROFILE"}
    ]))]);
    let report = lab.pass(T0 + 1000).await;
    let stats = report.chats[0].stats;
    assert_eq!((stats.inserted, stats.updated), (0, 1), "{report:?}");
    // one memory, in the more specific of the two wordings
    assert_eq!(lab.contents(chat.id).await.len(), 1);
    let run = &lab.runs(chat.id).await[0];
    assert_eq!(run.dedup_method.as_deref(), Some("cosine"));
    let (model, _, n) = lab.store.vector_counts().await.unwrap().remove(0);
    assert_eq!(
        (model.as_str(), n),
        ("words", 1),
        "the inserted fact's vector was stored with it"
    );
    assert_eq!(lab.store.embedding_queue_len().await.unwrap(), 0);

    // With the embedder down, the batch is not lost: it is deduplicated by terms instead.
    embedder.failing.store(true, Ordering::SeqCst);
    lab.say(&chat, "alice", "I moved to Lisbon").await;
    lab.llm.script([facts(json!([
        {"content": "Alice lives in Lisbon", "category": "PROFILE"}
    ]))]);
    let report = lab.pass(T0 + 2000).await;
    assert_eq!(report.chats[0].stats.inserted, 1);
    assert_eq!(
        lab.runs(chat.id).await[0].dedup_method.as_deref(),
        Some("terms")
    );
}
