//! The memory term index: an indexed dedup check decides exactly what a scan of the chat
//! decides, and stays right through inserts, refinements, archiving and deletion.

mod support;

use std::collections::HashSet;

use mneme::base::{Category, ChatKey, MemoryScope, Source};
use mneme::memory::{dedup, text};
use mneme::store::{NewMemory, Store};

const WORDS: &[&str] = &[
    "alice", "likes", "green", "tea", "tokyo", "osaka", "cat", "dog", "piano", "rust", "garden",
    "river", "train", "book", "summer", "red", "volvo", "kids", "yoga", "chess", "喜欢", "绿茶",
];

fn memory(scope: MemoryScope, content: &str, archived: bool) -> NewMemory {
    NewMemory {
        scope,
        category: Category::Knowledge,
        content: content.into(),
        subject: None,
        confidence: 0.7,
        source: Source::Tool,
        source_message_ids: vec![],
        created_at: None,
        last_seen_at: None,
        archived,
        key: None,
    }
}

fn sentence(rng: &mut fastrand::Rng) -> String {
    // "alice" and "likes" in most facts, as a person's name is in real ones
    let mut words = vec!["alice", "likes"];
    for _ in 0..rng.usize(1..6) {
        words.push(WORDS[rng.usize(2..WORDS.len())]);
    }
    words.join(" ")
}

/// The closest near-duplicate by scanning every active memory of the chat, with its
/// similarity (rows equally close are equally right).
async fn by_scan(store: &Store, chat_id: i64, fact: &str) -> Option<(i64, f64)> {
    let rows = store.rank_rows(chat_id, false).await.unwrap();
    let terms = text::term_set(fact);
    let sets: Vec<(HashSet<String>, i64)> = rows
        .iter()
        .map(|m| (text::term_set(&m.content), m.id))
        .collect();
    dedup::best_duplicate(
        &terms,
        sets.iter().map(|(s, id)| (s, (*id, s))),
        dedup::JACCARD_THRESHOLD,
    )
    .map(|(id, s)| (id, text::jaccard(&terms, s)))
}

async fn by_index(store: &Store, chat_id: i64, fact: &str) -> Option<(i64, f64)> {
    let terms = text::term_set(fact);
    let rows = store
        .dedup_candidates(MemoryScope::Chat(chat_id), &terms, dedup::JACCARD_THRESHOLD)
        .await
        .unwrap();
    dedup::closest(&terms, &rows, |m| &m.content, dedup::JACCARD_THRESHOLD)
        .map(|m| (m.id, text::jaccard(&terms, &text::term_set(&m.content))))
}

/// Asserts the index and a scan find equally close duplicates for every fact; returns how
/// many facts had one.
async fn index_agrees_with_scan(store: &Store, chat_id: i64, facts: &[String]) -> usize {
    let mut found = 0;
    for fact in facts {
        let scan = by_scan(store, chat_id, fact).await;
        let index = by_index(store, chat_id, fact).await;
        assert_eq!(
            index.map(|h| h.1),
            scan.map(|h| h.1),
            "{fact}: {index:?} {scan:?}"
        );
        found += usize::from(index.is_some());
    }
    found
}

async fn store_with_chat(dir: &tempfile::TempDir, name: &str) -> (Store, i64) {
    let store = Store::open(&support::database_url(dir.path()))
        .await
        .unwrap();
    let chat = store
        .ensure_chat(&ChatKey::new("cli", name), false, None)
        .await
        .unwrap();
    (store, chat.id)
}

#[tokio::test]
async fn the_index_decides_what_a_scan_decides() {
    let dir = tempfile::tempdir().unwrap();
    let (store, chat_id) = store_with_chat(&dir, "a").await;
    let other = store
        .ensure_chat(&ChatKey::new("cli", "b"), false, None)
        .await
        .unwrap();
    let mut rng = fastrand::Rng::with_seed(3);
    let scope = MemoryScope::Chat(chat_id);
    let mut batch: Vec<NewMemory> = (0..300)
        .map(|i| memory(scope, &sentence(&mut rng), i % 17 == 0))
        .collect();
    // the other chat's and global memories are never candidates
    batch.extend((0..50).map(|_| memory(MemoryScope::Chat(other.id), &sentence(&mut rng), false)));
    batch.extend((0..50).map(|_| memory(MemoryScope::Global, &sentence(&mut rng), false)));
    let ids = store.insert_memories(&batch).await.unwrap();

    // the index follows every change of content and state
    store
        .refine_memory(
            ids[1],
            "alice likes volvo chess yoga",
            Category::Profile,
            0.9,
        )
        .await
        .unwrap();
    store.delete_memory(ids[2]).await.unwrap();
    store
        .import_memories(&[memory(scope, "alice likes osaka river red", false)])
        .await
        .unwrap();
    store
        .insert_memory(&memory(scope, "我喜欢喝绿茶", false))
        .await
        .unwrap();

    let facts: Vec<String> = (0..200)
        .map(|i| {
            if i % 3 == 0 {
                batch[rng.usize(0..300)].content.clone()
            } else {
                sentence(&mut rng)
            }
        })
        .collect();
    let found = index_agrees_with_scan(&store, chat_id, &facts).await;
    assert!(found > 60, "the probes found duplicates: {found}");
    assert_eq!(
        by_index(&store, chat_id, "alice likes volvo chess yoga").await,
        Some((ids[1], 1.0))
    );
    assert!(by_index(&store, chat_id, "我很喜欢喝绿茶").await.is_some());
}

#[tokio::test]
async fn rare_words_beside_a_name_in_every_memory_find_the_same_duplicates() {
    // A private chat's memories all name the person: "alice" and "likes" are in every row,
    // so the lookup reads only the rare words' postings (prefix filtering).
    let dir = tempfile::tempdir().unwrap();
    let (store, chat_id) = store_with_chat(&dir, "a").await;
    let scope = MemoryScope::Chat(chat_id);
    let mut rng = fastrand::Rng::with_seed(9);
    let vocab: Vec<String> = (0..400).map(|i| format!("thing{i}")).collect();
    let rare = |rng: &mut fastrand::Rng| {
        let n = rng.usize(1..4);
        let words: Vec<&str> = (0..n)
            .map(|_| vocab[rng.usize(0..vocab.len())].as_str())
            .collect();
        format!("alice likes {}", words.join(" "))
    };
    let batch: Vec<NewMemory> = (0..1500)
        .map(|_| memory(scope, &rare(&mut rng), false))
        .collect();
    store.insert_memories(&batch).await.unwrap();
    let facts: Vec<String> = (0..60)
        .map(|i| {
            if i % 2 == 0 {
                batch[rng.usize(0..batch.len())].content.clone()
            } else {
                rare(&mut rng)
            }
        })
        .collect();
    let found = index_agrees_with_scan(&store, chat_id, &facts).await;
    assert!(found >= 30, "the probes found duplicates: {found}");
}
