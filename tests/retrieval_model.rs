//! Retrieval with real embeddings from the local all-MiniLM-L6-v2 files (no API key, no
//! network): a paraphrase ranks above unrelated facts, the reflector's cosine dedup merges a
//! reworded fact but not a changed one, and search finds by meaning what keywords miss.
//!
//! The files are found at `$MNEME_TEST_MODEL_DIR`, else `target/test-models/all-MiniLM-L6-v2`
//! (`.ci/run` prepares them). Without them the tests are skipped with a message — except under
//! CI, where they fail.

mod support;

use std::sync::Arc;

use mneme::base::{Category, ChatKey, MemoryScope};
use mneme::config::Config;
use mneme::embed::Embedder;
use mneme::memories::retrieval::{Retriever, sync};
use mneme::store::{NewMemory, SearchScope, Store};
use serde_json::json;
use support::fake_embeddings::test_model_dir;
use support::new_memory;
use support::reflector::{Lab, T0, facts};

async fn local_embedder(dir: &std::path::Path) -> Arc<dyn Embedder> {
    let yaml = format!(
        "model: m\nllm_base_url: http://127.0.0.1:9/v1\nembedding_provider: local\nembedding_model: {}\n",
        dir.display()
    );
    let config = Config::from_yaml(&yaml, std::path::Path::new("config.yaml"), &[])
        .unwrap_or_else(|e| panic!("{e}"))
        .config;
    mneme::embed::from_config(&config)
        .await
        .unwrap_or_else(|e| panic!("{e}"))
        .expect("an embedder")
}

#[tokio::test]
async fn a_paraphrase_ranks_above_unrelated_facts() {
    let Some(dir) = test_model_dir() else { return };
    let embedder = local_embedder(&dir).await;
    let store = Store::open("sqlite::memory:").await.unwrap();
    let chat = store
        .ensure_chat(&ChatKey::new("cli", "alice"), false, None)
        .await
        .unwrap()
        .id;
    let contents = [
        "User's dog is named Rex",
        "User works at a bank in Zurich",
        "User likes green tea in the morning",
        "User's sister lives in Vancouver",
        "The team standup is at ten every weekday",
        "User plays the cello in an orchestra",
    ];
    let rows: Vec<NewMemory> = contents
        .iter()
        .map(|c| new_memory(MemoryScope::Chat(chat), Category::Profile, c))
        .collect();
    store.insert_memories(&rows).await.unwrap();
    let retriever = Retriever::new(&Config::default(), store.clone(), Some(embedder));
    let done = sync::embed_pending(&retriever, usize::MAX).await.unwrap();
    assert_eq!(done.embedded, contents.len());

    // Little or nothing in common with the fact's words: the vectors find it.
    for (question, expected) in [
        ("which pet do I have?", "User's dog is named Rex"),
        ("what is my job?", "User works at a bank in Zurich"),
        (
            "what instrument do I play?",
            "User plays the cello in an orchestra",
        ),
    ] {
        let found = retriever
            .search(SearchScope::Chat(chat), question, 3)
            .await
            .unwrap();
        assert!(found.used_vector);
        assert_eq!(found.hits[0].memory.content, expected, "for {question:?}");
        assert_eq!(found.hits[0].stages.vector_rank, Some(1));
    }
    let found = retriever
        .search(SearchScope::Chat(chat), "what's my dog called?", 6)
        .await
        .unwrap();
    let rex = &found.hits[0];
    assert_eq!(rex.memory.content, "User's dog is named Rex");
    assert!(rex.stages.bm25_rank == Some(1) && rex.stages.vector_rank == Some(1));
    let unrelated = found.hits.last().unwrap();
    assert!(
        rex.score > unrelated.score + 0.2,
        "{} vs {}",
        rex.score,
        unrelated.score
    );
}

#[tokio::test]
async fn the_reflector_merges_a_rewording_but_not_a_change() {
    let Some(dir) = test_model_dir() else { return };
    let lab = Lab::with_embedder("", local_embedder(&dir).await).await;
    let chat = lab.chat("telegram:7", false).await;
    lab.say(
        &chat,
        "alice",
        "I have a dog called Rex and I live in Tokyo",
    )
    .await;
    lab.llm.script([facts(json!([
        {"content": "Alice has a dog named Rex", "category": "PROFILE"},
        {"content": "Alice lives in Tokyo", "category": "PROFILE"}
    ]))]);
    lab.pass(T0).await;
    lab.say(&chat, "alice", "Rex is my puppy. Also, I live in Osaka now")
        .await;
    let ids: Vec<i64> = lab
        .memories(chat.id, false)
        .await
        .iter()
        .map(|m| m.id)
        .collect();
    lab.llm.script([facts(json!([
        {"content": "Alice's puppy is called Rex", "category": "PROFILE"},
        {"content": "Alice lives in Osaka", "category": "PROFILE", "supersedes_id": ids[1]}
    ]))]);
    let report = lab.pass(T0 + 1000).await;
    let stats = report.chats[0].stats;
    assert_eq!(
        (stats.updated, stats.inserted, stats.superseded),
        (1, 1, 1),
        "{report:?}"
    );
    assert_eq!(
        lab.contents(chat.id).await,
        ["Alice has a dog named Rex", "Alice lives in Osaka"]
    );
    assert_eq!(
        lab.runs(chat.id).await[0].dedup_method.as_deref(),
        Some("cosine")
    );
}
