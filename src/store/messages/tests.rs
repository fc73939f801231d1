use super::AWAITING_REPLY;
use crate::base::ChatKey;
use crate::store::testing::{backends, said_at};
use crate::store::{Arrival, NewMessage, SessionId, Store};

async fn stored(store: &Store, chat: &ChatKey, title: Option<&str>) -> i64 {
    let arrival = Arrival {
        chat,
        is_group: true,
        chat_title: title,
        sender_id: "7",
        sender_name: "Ann",
        text: "hello",
        platform_message_id: None,
        platform_thread_id: None,
        created_at: None,
        needs_reply: true,
    };
    store.store_arrivals(&[arrival]).await.unwrap()[0]
        .unwrap()
        .id
}

/// The inline writer reads a message's columns by position: as many as are listed.
#[test]
fn the_message_columns_are_as_many_as_read() {
    assert_eq!(
        message_columns!().split(',').count(),
        super::MessageRow::COLUMNS
    );
}

/// A turn's start counts the attempt and reads the message with its own chat, as the
/// chat's row has it (not another chat's).
#[tokio::test]
async fn a_reply_attempt_is_counted_and_comes_with_its_message_and_chat() {
    for store in backends().await {
        let (club, other) = (ChatKey::new("telegram", "-5"), ChatKey::new("discord", "9"));
        stored(&store, &other, Some("Elsewhere")).await;
        let id = stored(&store, &club, Some("Book club")).await;
        let chat = store.find_chat(&club).await.unwrap().unwrap();

        let first = store.start_turn(id, 10).await.unwrap().unwrap();
        assert_eq!(first.attempt, 1);
        assert_eq!(
            (first.message.id, first.message.text.as_str()),
            (id, "hello")
        );
        assert_eq!(first.message.chat_id, chat.id);
        let got = &first.chat;
        assert_eq!(
            (got.id, &got.channel, &got.external_chat_id, &got.title),
            (chat.id, &chat.channel, &chat.external_chat_id, &chat.title)
        );
        assert_eq!((got.is_group, got.created_at), (true, chat.created_at));

        let second = store.start_turn(id, 10).await.unwrap().unwrap();
        assert_eq!(second.attempt, 2);
        assert!(store.start_turn(id + 100, 10).await.unwrap().is_none());
    }
}

/// Answers delivered at once are recorded: those messages are owed no more, the others
/// still are.
#[tokio::test]
async fn answers_marked_delivered_are_owed_no_more() {
    for store in backends().await {
        let chat = ChatKey::new("telegram", "1");
        let mut ids = Vec::new();
        for _ in 0..5 {
            ids.push(stored(&store, &chat, None).await);
        }
        let marks = ids[..4].iter().map(|&id| store.mark_replied(id));
        for done in futures_util::future::join_all(marks).await {
            done.unwrap();
        }
        let owed: Vec<i64> = (store.awaiting_reply("telegram", 0).await.unwrap())
            .into_iter()
            .map(|(_, m)| m.id)
            .collect();
        assert_eq!(owed, [ids[4]]);
        for &id in &ids[..4] {
            assert!(!store.is_owed(id).await.unwrap());
        }
        assert!(store.is_owed(ids[4]).await.unwrap());
    }
}

/// A turn's start reads what the turn needs with it: its session's history up to the
/// message (oldest first, at most as many as asked, nothing after it or from another
/// session) and the memories the prompt may draw on (the chat's and the global ones).
#[tokio::test]
async fn a_turn_starts_with_its_history_and_memory_count() {
    use crate::base::MemoryScope;
    use crate::store::tests::fact;
    for store in backends().await {
        let (club, other) = (ChatKey::new("telegram", "-5"), ChatKey::new("discord", "9"));
        let elsewhere = stored(&store, &other, None).await;
        let ids = [
            stored(&store, &club, None).await,
            stored(&store, &club, None).await,
            stored(&store, &club, None).await,
        ];
        let later = stored(&store, &club, None).await;
        let chat = store.find_chat(&club).await.unwrap().unwrap();
        let theirs = store.find_chat(&other).await.unwrap().unwrap();
        store
            .insert_memory(&fact(MemoryScope::Chat(chat.id), "Alice likes tea"))
            .await
            .unwrap();
        store
            .insert_memory(&fact(MemoryScope::Global, "The office is in Lyon"))
            .await
            .unwrap();
        store
            .insert_memory(&fact(MemoryScope::Chat(theirs.id), "Bob likes zebras"))
            .await
            .unwrap();

        let turn = store.start_turn(ids[2], 2).await.unwrap().unwrap();
        let history: Vec<i64> = turn.history.iter().map(|m| m.id).collect();
        assert_eq!(history, [ids[1], ids[2]], "the last two up to it");
        assert!(!history.contains(&later) && !history.contains(&elsewhere));
        assert!(
            (turn.history.iter()).all(|m| m.chat_id == chat.id
                && (
                    m.sender_id.as_str(),
                    m.sender_name.as_str(),
                    m.text.as_str()
                ) == ("7", "Ann", "hello")
                && m.needs_reply
                && m.replied_at.is_none()),
            "each message as stored: {:?}",
            turn.history
        );
        assert_eq!(turn.memories, 2, "the chat's and the global one");
        assert_eq!(
            turn.memories,
            store.count_injectable(chat.id).await.unwrap()
        );

        let all = store.start_turn(ids[2], 10).await.unwrap().unwrap();
        assert_eq!(all.history.len(), 3);
        // An answer given after the message (to the one before it) is part of its history.
        let session: SessionId = turn.message.session_id.unwrap();
        let answer = (store.insert_message(&NewMessage::from_bot(chat.id, session, "sure")))
            .await
            .unwrap()
            .unwrap();
        let turn = store.start_turn(ids[2], 3).await.unwrap().unwrap();
        let history: Vec<i64> = turn.history.iter().map(|m| m.id).collect();
        assert_eq!(
            history,
            [ids[1], answer, ids[2]],
            "the answer since, the message last"
        );
        let turn = store.start_turn(ids[2], 1).await.unwrap().unwrap();
        assert_eq!(turn.history.len(), 1);
        assert_eq!(turn.history[0].id, ids[2]);
        let alone = store.start_turn(elsewhere, 10).await.unwrap().unwrap();
        let history: Vec<i64> = alone.history.iter().map(|m| m.id).collect();
        assert_eq!(history, [elsewhere]);
        assert_eq!(alone.memories, 2, "theirs and the global one");
    }
}

/// Where a platform picks up again: for each chat of the channel where a person wrote
/// since the time given, the platform's id of the newest message stored from a person
/// (not the bot's, not one without a platform id), oldest first.
#[tokio::test]
async fn the_last_message_heard_in_each_recent_chat() {
    for store in backends().await {
        let keys = ["1", "2", "3"].map(|id| ChatKey::new("discord", id));
        let elsewhere = ChatKey::new("telegram", "1");
        for arrival in [
            said_at(&keys[1], true, Some("20"), 5_000),
            said_at(&keys[0], false, Some("10"), 5_000),
            said_at(&keys[0], false, Some("11"), 6_000),
            said_at(&keys[0], false, None, 7_000),
            said_at(&keys[2], false, Some("30"), 1_000),
            said_at(&elsewhere, false, Some("40"), 9_000),
        ] {
            store.store_arrivals(&[arrival]).await.unwrap()[0].unwrap();
        }
        let first = store.find_chat(&keys[0]).await.unwrap().unwrap();
        let session: SessionId = store.current_session(first.id).await.unwrap();
        store
            .insert_message(&NewMessage::from_bot(first.id, session, "an answer"))
            .await
            .unwrap();
        let seen = store.last_heard("discord", 2_000).await.unwrap();
        assert_eq!(
            seen,
            [
                ("2".to_string(), true, "20".to_string()),
                ("1".to_string(), false, "11".to_string()),
            ]
        );
        assert_eq!(store.last_heard("discord", 0).await.unwrap().len(), 3);
    }
}

/// SQLite's plan for `sql` (`$n` parameters, bound to `params`), one line a step.
async fn sqlite_plan(sql: &str, params: (i64, i64)) -> Vec<String> {
    let store = Store::open("sqlite::memory:").await.unwrap();
    let writer = store.inline.as_ref().expect("SQLite writes inline");
    let sql = format!("EXPLAIN QUERY PLAN {sql}").replace('$', "?");
    writer
        .write(move |c| {
            let mut plan = c.prepare(&sql)?;
            let rows = plan.query_map(params, |r| r.get::<_, String>(3))?;
            rows.collect()
        })
        .await
        .unwrap()
}

/// A turn's history is read backwards along the session's index and stopped at its
/// limit: SQLite's plan sorts nothing, so a session of any length costs the same.
#[tokio::test]
async fn a_turns_history_does_not_sort_its_session() {
    let plan = sqlite_plan(history_before!(), (1, 40)).await;
    assert!(
        plan.iter().any(|step| step.contains("messages_by_session")),
        "{plan:?}"
    );
    assert!(
        !plan.iter().any(|step| step.contains("TEMP B-TREE")),
        "{plan:?}"
    );
}

/// The answers owed at a start are found through the owed messages' index, not by
/// reading every message.
#[tokio::test]
async fn the_answers_owed_are_found_by_their_index() {
    let plan = sqlite_plan(AWAITING_REPLY, (0, 0)).await.join("\n");
    assert!(
        plan.contains("USING INDEX messages_awaiting_reply"),
        "{plan}"
    );
}
