//! The Discord channel (the real serenity client) against the fake Discord REST API and
//! gateway, and the fake LLM.

mod support;

use mneme::base::ChatKey;
use serde_json::json;
use support::*;

type D = FakeDiscord;

async fn setup() -> (FakeLlm, FakeDiscord, tempfile::TempDir) {
    (
        FakeLlm::start().await,
        FakeDiscord::start().await,
        tempfile::tempdir().unwrap(),
    )
}

/// Nothing the bot sends may ping anyone through its text.
fn assert_no_pings(posted: &[Posted]) {
    for p in posted {
        let am = &p.body["allowed_mentions"];
        assert_eq!(am["parse"], json!([]), "parse must be empty: {}", p.body);
        for list in ["users", "roles"] {
            assert!(
                am[list].as_array().is_none_or(Vec::is_empty),
                "no {list} allowed: {}",
                p.body
            );
        }
    }
}

#[tokio::test]
async fn a_dm_turn() {
    let (llm, dc, dir) = setup().await;
    llm.script([openai_text_slowly("Hi there, **friend**")]);
    let bot = ChannelBot::discord(&llm, &dc, dir.path(), "").await;
    let intents = dc.identifies()[0]["intents"].as_u64().unwrap();
    for (bit, name) in [
        (9, "GUILD_MESSAGES"),
        (12, "DIRECT_MESSAGES"),
        (15, "MESSAGE_CONTENT"),
    ] {
        assert!(intents & (1 << bit) != 0, "{name} intent requested");
    }

    dc.dm(D::FRIEND, "hello");
    let posted = dc.wait_posted(1).await;
    let dm = dc.dm_channel(D::FRIEND);
    assert_eq!(posted[0].channel_id, dm);
    assert_eq!(
        posted[0].content, "Hi there, **friend**",
        "Discord renders markdown itself"
    );
    assert_eq!(posted[0].reply_to(), None, "DM answers do not quote");
    assert!(
        dc.typing().contains(&dm),
        "typing indicator while the turn ran"
    );
    assert_eq!(llm.requests()[0].message_texts(), ["hello"]);
    assert!(
        llm.requests()[0]
            .system()
            .contains(&format!("`discord:{dm}`")),
        "{}",
        llm.requests()[0].system()
    );

    // the remember fast path and commands work over Discord too, without the model
    dc.dm(D::FRIEND, "remember I prefer short answers");
    dc.dm(D::FRIEND, "/memories");
    let posted = dc.wait_posted(3).await;
    assert_eq!(
        posted[1].content,
        "Noted. Saved memory #1: I prefer short answers"
    );
    assert!(
        posted[2]
            .content
            .contains("#1 [PROFILE] I prefer short answers"),
        "{}",
        posted[2].content
    );
    assert_eq!(llm.request_count(), 1);
    assert_no_pings(&posted);
    // the bot's own messages come back over the gateway and are not taken for the user's
    // (messages are taken in order: once the answer to the last is out, its echo was seen)
    dc.dm(D::FRIEND, "/help");
    dc.wait_posted(4).await;
    let mut stored = stored_texts(&bot.bot.agent, &format!("discord:{dm}")).await;
    stored.sort();
    assert_eq!(
        stored,
        [
            "/help",
            "/memories",
            "Hi there, **friend**",
            "Noted. Saved memory #1: I prefer short answers",
            "hello",
            "remember I prefer short answers",
        ],
        "each once; command answers are not part of the history"
    );
    bot.stop().await;
}

#[tokio::test]
async fn strangers_are_told_once_and_nothing_is_stored() {
    let (llm, dc, dir) = setup().await;
    llm.fallback(openai_text("hello friend"));
    let bot = ChannelBot::discord(&llm, &dc, dir.path(), "").await;
    dc.dm(555, "hi");
    dc.dm(555, "hello??");
    // Messages are taken in batches, in order, a batch once the one before is handled
    // (whether the stranger is told decided, the notice handed to a task of its own): the
    // friend's message may share the strangers' batch, but not a second one sent after the
    // first was answered. Once that one is answered, every notice is decided.
    dc.dm(D::FRIEND, "hi");
    let answers = |n: usize| {
        move |d: &D| {
            d.posted()
                .iter()
                .filter(|p| p.content == "hello friend")
                .count()
                == n
        }
    };
    dc.wait_until("the friend's answer", answers(1)).await;
    dc.dm(D::FRIEND, "still there?");
    dc.wait_until("the friend's second answer", answers(2))
        .await;
    let stranger = dc.dm_channel(555);
    dc.wait_until("the stranger's notice", |d| {
        d.posted().iter().any(|p| p.channel_id == stranger)
    })
    .await;
    let posted = dc.posted();
    let notices: Vec<_> = posted.iter().filter(|p| p.channel_id == stranger).collect();
    assert_eq!(notices.len(), 1, "one notice per day: {posted:#?}");
    assert!(
        notices[0].content.contains("private") && notices[0].content.contains("555"),
        "{}",
        notices[0].content
    );
    assert!(
        notices[0]
            .content
            .contains("channels.discord.allowed_user_ids")
    );
    assert_eq!(llm.request_count(), 2, "only the friend reached the model");
    assert_no_pings(&posted);
    let stranger_chat = format!("discord:{}", dc.dm_channel(555));
    assert!(
        stored_texts(&bot.bot.agent, &stranger_chat)
            .await
            .is_empty()
    );
    bot.stop().await;
}

#[tokio::test]
async fn guild_channels_answer_only_when_addressed() {
    let (llm, dc, dir) = setup().await;
    llm.fallback(openai_text("Yes?"));
    let bot = ChannelBot::discord(&llm, &dc, dir.path(), "").await;

    dc.say(D::ALLOWED, 7, "bob", "morning all");
    dc.say(
        D::OTHER,
        7,
        "bob",
        "<@9000> hello from a channel not allowed",
    );
    let mention = dc.say(D::ALLOWED, 8, "carol", "<@9000> what's up?");
    let posted = dc.wait_posted(1).await;
    assert_eq!(posted[0].channel_id, D::ALLOWED);
    assert_eq!(
        posted[0].reply_to(),
        Some(mention),
        "guild answers reference the message"
    );
    assert_eq!(
        llm.requests()[0].message_texts(),
        ["\"bob\": morning all", "\"carol\": @mneme what's up?"]
    );

    // a reply to one of the bot's messages addresses it; a reply to someone else does not
    dc.reply(&posted[0].json, 7, "bob", "and you?");
    let other = dc.guild_message(D::ALLOWED, 7, "bob", "agreed");
    dc.reply(&other, 8, "carol", "me too");
    // remember after a mention takes the fast path
    dc.say(
        D::ALLOWED,
        8,
        "carol",
        "<@9000> remember the group meets on Fridays",
    );
    let posted = dc.wait_posted(3).await;
    dc.say(D::ALLOWED, 7, "bob", "<@!9000> ping");
    let posted_after = dc.wait_posted(4).await;
    assert_eq!(posted.len(), 3, "{posted:#?}");
    assert_eq!(posted[1].content, "Yes?");
    assert_eq!(
        posted[2].content,
        "Noted. Saved memory #1: the group meets on Fridays"
    );
    assert_eq!(
        posted_after.len(),
        4,
        "a nickname mention addresses the bot too"
    );
    assert_eq!(llm.request_count(), 3);
    assert_no_pings(&posted_after);
    // a command after the mention, as a server channel writes it, is a command
    dc.say(D::ALLOWED, 8, "carol", "<@9000> /memories");
    let listed = dc.wait_posted(5).await;
    assert!(
        listed[4].content.contains("the group meets on Fridays"),
        "{}",
        listed[4].content
    );
    assert_eq!(llm.request_count(), 3, "no model call for a command");
    // the author of the answered message is notified, as with any reply; nobody else
    assert_eq!(
        posted[0].body["allowed_mentions"]["replied_user"],
        json!(true)
    );

    let store = bot.bot.agent.store();
    let chat = store
        .find_chat(&ChatKey::new("discord", D::ALLOWED.to_string()))
        .await
        .unwrap()
        .unwrap();
    assert!(chat.is_group);
    assert_eq!(chat.title.as_deref(), Some("general"));
    assert!(
        stored_texts(&bot.bot.agent, &format!("discord:{}", D::OTHER))
            .await
            .is_empty(),
        "a channel not allowed is not stored"
    );
    assert!(
        stored_texts(&bot.bot.agent, &format!("discord:{}", D::ALLOWED))
            .await
            .contains(&"me too".to_string()),
        "unaddressed messages are stored"
    );
    bot.stop().await;
}

#[tokio::test]
async fn no_mention_answers_everything_in_allowed_channels() {
    let (llm, dc, dir) = setup().await;
    llm.fallback(openai_text("noted"));
    let bot = ChannelBot::discord(&llm, &dc, dir.path(), "    no_mention: true\n").await;
    dc.say(D::ALLOWED, 7, "bob", "morning all");
    dc.say(D::OTHER, 7, "bob", "not here though");
    dc.say(D::ALLOWED, 7, "bob", "anyone?");
    let posted = dc.wait_posted(2).await;
    assert!(posted.iter().all(|p| p.channel_id == D::ALLOWED));
    assert_eq!(llm.request_count(), 2);
    bot.stop().await;
}

#[tokio::test]
async fn threads_follow_their_parent_channel_and_are_answered_in_the_thread() {
    let (llm, dc, dir) = setup().await;
    llm.fallback(openai_text_slowly("In the thread."));
    let bot = ChannelBot::discord(&llm, &dc, dir.path(), "").await;
    dc.say(D::OTHER_THREAD, 7, "bob", "<@9000> not here");
    let asked = dc.say(D::THREAD, 7, "bob", "<@9000> hi");
    let posted = dc.wait_posted(1).await;
    assert_eq!(posted[0].channel_id, D::THREAD, "answered in the thread");
    assert_eq!(posted[0].reply_to(), Some(asked));
    assert!(dc.typing().contains(&D::THREAD));
    // the thread is a conversation of its own
    dc.say(D::ALLOWED, 7, "bob", "<@9000> and in the channel?");
    let posted = dc.wait_posted(2).await;
    assert_eq!(posted[1].channel_id, D::ALLOWED);
    assert_eq!(
        llm.requests()[1].message_texts(),
        ["\"bob\": @mneme and in the channel?"]
    );
    assert_eq!(
        dc.calls(&format!("GET /channels/{}", D::THREAD)),
        1,
        "looked up once, then known"
    );
    assert!(
        stored_texts(&bot.bot.agent, &format!("discord:{}", D::OTHER_THREAD))
            .await
            .is_empty()
    );
    let thread = bot
        .bot
        .agent
        .store()
        .find_chat(&ChatKey::new("discord", D::THREAD.to_string()))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(thread.title.as_deref(), Some("plans"));
    bot.stop().await;
}

#[tokio::test]
async fn a_long_reply_arrives_in_ordered_chunks_under_the_limit_with_balanced_code() {
    let (llm, dc, dir) = setup().await;
    let long = long_reply(30, 60);
    assert!(long.chars().count() > 5000, "{}", long.chars().count());
    llm.script([openai_text(&long)]);
    let bot = ChannelBot::discord(&llm, &dc, dir.path(), "").await;
    let asked = dc.say(D::ALLOWED, 7, "bob", "<@9000> plan please");
    dc.wait_until("the last chunk", |d| {
        d.posted()
            .iter()
            .any(|p| p.content.ends_with("That's all."))
    })
    .await;
    let posted = dc.posted();
    assert!(posted.len() >= 3, "{} chunks", posted.len());
    for (i, p) in posted.iter().enumerate() {
        assert!(p.content.chars().count() <= 2000, "chunk {i} too long");
        let fences = p
            .content
            .lines()
            .filter(|l| l.trim_start().starts_with("```"))
            .count();
        assert_eq!(
            fences % 2,
            0,
            "balanced fences in chunk {i}:\n{}",
            p.content
        );
        let expected = if i == 0 { Some(asked) } else { None };
        assert_eq!(
            p.reply_to(),
            expected,
            "only the first chunk references the question"
        );
    }
    assert_no_pings(&posted);
    // Each chunk is its own message to Discord: its nonce, enforced, is its alone.
    let nonces: std::collections::HashSet<_> = posted
        .iter()
        .map(|p| {
            assert_eq!(p.body["enforce_nonce"], json!(true), "{}", p.body);
            p.body["nonce"].as_str().expect("a nonce").to_string()
        })
        .collect();
    assert_eq!(nonces.len(), posted.len(), "{nonces:?}");
    let all: Vec<_> = posted.iter().map(|p| p.content.as_str()).collect();
    assert_nothing_lost(&long, &all.join("\n"));
    bot.stop().await;
}

#[tokio::test]
async fn model_text_cannot_ping_anyone() {
    let (llm, dc, dir) = setup().await;
    llm.script([openai_text("@everyone look, @here too: <@123> and <@&456>")]);
    let bot = ChannelBot::discord(&llm, &dc, dir.path(), "").await;
    dc.dm(D::FRIEND, "say something loud");
    let posted = dc.wait_posted(1).await;
    assert_eq!(
        posted[0].content,
        "@everyone look, @here too: <@123> and <@&456>"
    );
    assert_no_pings(&posted);
    assert_eq!(
        posted[0].body["allowed_mentions"]["replied_user"],
        json!(false),
        "a DM answer is no reply, so nobody is notified either"
    );
    bot.stop().await;
}

#[tokio::test]
async fn a_dropped_connection_resumes_and_nothing_is_answered_twice() {
    let (llm, dc, dir) = setup().await;
    llm.fallback(openai_text("answer"));
    let bot = ChannelBot::discord(&llm, &dc, dir.path(), "").await;
    dc.dm(D::FRIEND, "first");
    dc.wait_posted(1).await;
    dc.wait_until("a heartbeat", |d| d.heartbeats() >= 1).await;

    // Discord replays on RESUME; this fake replays the whole session, the first message too
    dc.replay_everything_on_resume();
    dc.drop_connection();
    dc.dm(D::FRIEND, "while you were away");
    dc.wait_until("the resume", |d| d.resumes().len() == 1)
        .await;
    dc.wait_posted(2).await;
    dc.wait_connected().await;
    dc.dm(D::FRIEND, "after");
    dc.wait_posted(3).await;
    // a clean close with a resumable code resumes too
    dc.close_connection(4000);
    dc.wait_until("the second resume", |d| d.resumes().len() == 2)
        .await;
    dc.wait_connected().await;
    dc.dm(D::FRIEND, "and again");
    dc.wait_posted(4).await;

    let texts: Vec<_> = llm
        .requests()
        .iter()
        .map(|r| r.message_texts().last().cloned().unwrap())
        .collect();
    assert_eq!(
        texts,
        ["first", "while you were away", "after", "and again"]
    );
    assert_eq!(dc.posted().len(), 4, "{:#?}", dc.posted());
    assert_eq!(dc.sessions_started(), 1, "resumed, never re-identified");
    assert_eq!(dc.resumes()[0]["session_id"], "session-1");
    assert!(bot.is_running());
    bot.stop().await;
}

#[tokio::test]
async fn a_refused_resume_identifies_again_and_keeps_serving() {
    // serenity spaces IDENTIFYs 5 s apart (Discord's rule), so this test takes about that long.
    let (llm, dc, dir) = setup().await;
    llm.script([openai_text("owed answer"), openai_text("fresh answer")]);
    // an answer owed from before a crash: given once, although READY comes twice
    let dm = dc.dm_channel(D::FRIEND);
    let bot = TestBot::start(&llm, dir.path(), &discord_yaml(&dc, "")).await;
    let mut owed = private(&format!("discord:{dm}"), "did you get this?");
    owed.platform_message_id = Some("77".into());
    let received = bot.agent.receive(&owed).await.unwrap();
    assert!(matches!(received, mneme::agent::Received::Pending(_)));
    bot.agent.store().close().await;

    let bot = ChannelBot::discord(&llm, &dc, dir.path(), "").await;
    dc.wait_posted(1).await;
    dc.reject_next_resume();
    dc.drop_connection();
    dc.wait_until("a second session", |d| d.sessions_started() == 2)
        .await;
    dc.wait_connected().await;
    dc.dm(D::FRIEND, "still there?");
    let posted = dc.wait_posted(2).await;
    assert_eq!(posted[0].content, "owed answer");
    assert_eq!(posted[1].content, "fresh answer");
    assert_eq!(llm.request_count(), 2);
    assert!(bot.is_running());
    let bot = bot.stop().await;
    assert_eq!(dc.posted().len(), 2, "nothing answered twice");
    drop(bot);
}

/// What people write while the bot has no session, when it then has to identify afresh (its
/// resume refused: Discord replays nothing), is read over REST after the new READY — in a DM
/// and in a server channel — stored and answered once each, in order.
#[tokio::test]
async fn what_a_new_session_does_not_replay_is_caught_up() {
    let (llm, dc, dir) = setup().await;
    llm.fallback(openai_text("answer"));
    let bot = ChannelBot::discord(&llm, &dc, dir.path(), "").await;
    dc.dm(D::FRIEND, "before");
    dc.say(D::ALLOWED, 7, "bob", "<@9000> before, in the channel");
    dc.wait_posted(2).await;
    dc.wait_until("a heartbeat", |d| d.heartbeats() >= 1).await;

    dc.reject_next_resume();
    dc.drop_connection();
    dc.dm(D::FRIEND, "while you were away");
    dc.dm(D::FRIEND, "and this too");
    dc.say(D::ALLOWED, 7, "bob", "<@9000> away, in the channel");
    dc.say(D::ALLOWED, 7, "bob", "not for the bot");
    dc.wait_until("a second session", |d| d.sessions_started() == 2)
        .await;
    dc.wait_posted(5).await;
    dc.wait_connected().await;
    dc.dm(D::FRIEND, "after");
    dc.wait_posted(6).await;

    let texts: Vec<String> = llm
        .requests()
        .iter()
        .map(|r| r.message_texts().last().cloned().unwrap())
        .collect();
    let asked = |text: &str| texts.iter().filter(|t| t.contains(text)).count();
    for text in [
        "while you were away",
        "and this too",
        "away, in the channel",
        "after",
    ] {
        assert_eq!(asked(text), 1, "{text}: {texts:?}");
    }
    let order = |text: &str| texts.iter().position(|t| t.contains(text)).unwrap();
    assert!(order("while you were away") < order("and this too"));
    let channel = stored_texts(&bot.bot.agent, &format!("discord:{}", D::ALLOWED)).await;
    assert!(
        channel.iter().any(|t| t.contains("not for the bot")),
        "kept, not answered: {channel:?}"
    );
    assert_eq!(llm.request_count(), 6, "{texts:?}");
    assert!(bot.is_running());
    bot.stop().await;
    assert_eq!(dc.posted().len(), 6, "nothing answered twice");
}

#[tokio::test]
async fn a_restart_does_not_answer_a_redelivered_message() {
    let (llm, dc, dir) = setup().await;
    llm.fallback(openai_text("answer"));
    let bot = ChannelBot::discord(&llm, &dc, dir.path(), "").await;
    let dm = dc.dm_channel(D::FRIEND);
    let first = dc.dm_message(D::FRIEND, "first");
    dc.push(first.clone());
    dc.wait_posted(1).await;
    bot.stop().await;

    let bot = ChannelBot::discord(&llm, &dc, dir.path(), "").await;
    dc.push(first); // the same message id again
    dc.dm(D::FRIEND, "second");
    dc.wait_posted(2).await;
    assert_eq!(dc.posted().len(), 2);
    assert_eq!(llm.request_count(), 2);
    // An answer is kept with its delivered mark, just after it was posted.
    wait_nothing_owed(&bot.bot.agent, "discord").await;
    assert_eq!(
        stored_texts(&bot.bot.agent, &format!("discord:{dm}")).await,
        ["first", "answer", "second", "answer"]
    );
    bot.stop().await;
}

#[tokio::test]
async fn a_missing_message_content_intent_is_reported_clearly() {
    let (llm, dc, dir) = setup().await;
    dc.disable_message_content();
    let bot = ChannelBot::discord_unconnected(&llm, &dc, dir.path(), "").await;
    let error = bot
        .ended()
        .await
        .expect_err("the channel cannot run")
        .to_string();
    assert!(error.contains("4014"), "{error}");
    assert!(error.contains("Message Content Intent"), "{error}");
    assert!(error.contains("developer"), "{error}");
    assert!(!error.contains(&dc.token));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_daemon_stops_and_says_which_switch_to_turn_on_for_4014() {
    let (llm, dc, dir) = setup().await;
    dc.disable_message_content();
    let config = dir.path().join("config.yaml");
    std::fs::write(
        &config,
        config_yaml(&llm, dir.path(), &discord_yaml(&dc, "")),
    )
    .unwrap();
    let (status, stderr) = Daemon::start(&config, "mneme=info").exited().await;
    assert!(!status.success());
    assert!(stderr.contains("Message Content Intent"), "{stderr}");
}

/// Discord's server error when the bot asks who it is does not stop the channel: it retries,
/// `/healthz` says why it is down meanwhile, and then it connects.
#[tokio::test(flavor = "multi_thread")]
async fn a_server_error_at_start_is_retried_and_shown_in_health() {
    let (llm, dc, dir) = setup().await;
    dc.fail_next("GET", "me", 502);
    let bot = ChannelBot::discord_unconnected(&llm, &dc, dir.path(), "").await;
    assert_eq!(
        wait_down(&bot.bot.agent, "discord").await,
        "GET /users/@me failed, retrying: Discord answers it with 502 Bad Gateway"
    );
    dc.wait_connected().await;
    bot.stop().await;
}

/// A connection cut off without a close frame whose reconnects then fail (the gateway
/// unreachable behind a proxy answering 502) is shown down in `/healthz`, though serenity says
/// nothing of it, and connected again once the gateway answers.
#[tokio::test(flavor = "multi_thread")]
async fn a_gateway_that_cannot_be_reached_again_is_shown_down() {
    let (llm, dc, dir) = setup().await;
    let bot = ChannelBot::discord(&llm, &dc, dir.path(), "").await;
    dc.wait_connected().await;
    dc.refuse_connections(true);
    dc.drop_connection();
    assert_eq!(
        wait_down(&bot.bot.agent, "discord").await,
        "gateway connection lost; reconnecting"
    );
    dc.refuse_connections(false);
    eventually("discord connected again", || async {
        let states = bot.bot.agent.channel_status().snapshot();
        states.get("discord").is_some_and(|s| s.is_up())
    })
    .await;
    bot.stop().await;
}

#[tokio::test]
async fn a_wrong_token_is_reported_clearly() {
    let (llm, dc, dir) = setup().await;
    let mut wrong = dc.clone();
    wrong.token = "MTIzNDU2Nzg5.wrong.token-0000000000".into();
    let bot = ChannelBot::discord_unconnected(&llm, &wrong, dir.path(), "").await;
    let error = bot
        .ended()
        .await
        .expect_err("the channel cannot run")
        .to_string();
    assert!(error.contains("bot_token"), "{error}");
    assert!(!error.contains(&wrong.token));
    assert_eq!(dc.calls("GET /gateway"), 0, "stopped before the gateway");
}

#[tokio::test]
async fn attachments_stickers_system_and_malformed_messages_never_crash() {
    let (llm, dc, dir) = setup().await;
    llm.fallback(openai_text("still here"));
    let bot = ChannelBot::discord(&llm, &dc, dir.path(), "    no_mention: true\n").await;
    let mut image = dc.dm_message(D::FRIEND, "");
    image["attachments"] = image_attachment();
    dc.push(image);
    let mut sticker = dc.dm_message(D::FRIEND, "");
    sticker["sticker_items"] = json!([{"id": "2", "name": "wave", "format_type": 1}]);
    dc.push(sticker);
    // in a guild channel an image alone is skipped, even with no_mention
    let mut guild_image = dc.guild_message(D::ALLOWED, 7, "bob", "");
    guild_image["attachments"] = image_attachment();
    dc.push(guild_image);
    // a member joining, a pin: system messages
    let mut join = dc.guild_message(D::ALLOWED, 7, "bob", "");
    join["type"] = json!(7);
    dc.push(join);
    // from another bot, and from a webhook
    let mut other_bot = dc.guild_message(D::ALLOWED, 8, "otherbot", "beep");
    other_bot["author"]["bot"] = json!(true);
    dc.push(other_bot);
    let mut hook = dc.guild_message(D::ALLOWED, 9, "hook", "news");
    hook["webhook_id"] = json!("999");
    dc.push(hook);
    // malformed dispatches
    dc.dispatch(
        "MESSAGE_CREATE",
        json!({"id": "not a number", "content": 5}),
    );
    dc.dispatch("MESSAGE_CREATE", json!(null));
    dc.dispatch("SOMETHING_NEW", json!({"a": [1, {"b": null}]}));
    dc.dm(
        D::FRIEND,
        "\u{0}\u{1}\u{202e}bidi\u{fffd} hello after the junk",
    );
    // The notices go out beside the intake (notice_out), so they may come after the answer.
    let text_only = |posted: &[Posted]| {
        posted
            .iter()
            .filter(|p| p.content == "I can only read text messages for now.")
            .count()
    };
    dc.wait_until("the answer after the junk, and two notices", |d| {
        let posted = d.posted();
        posted.iter().any(|p| p.content == "still here") && text_only(&posted) >= 2
    })
    .await;
    let posted = dc.posted();
    assert_eq!(
        text_only(&posted),
        2,
        "the image and the sticker DM: {posted:#?}"
    );
    assert_eq!(posted.len(), 3, "nothing for the guild noise: {posted:#?}");
    assert_eq!(llm.request_count(), 1);
    assert_no_pings(&posted);
    assert!(bot.is_running());
    bot.stop().await;
}

fn image_attachment() -> serde_json::Value {
    json!([{"id": "1", "filename": "cat.png", "size": 10, "url": "https://x/cat.png", "proxy_url": "https://x/cat.png"}])
}

// Multi-threaded like the daemon: serenity's per-event tasks can then run out of order.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_is_taken_in_order() {
    let (llm, dc, dir) = setup().await;
    llm.fallback(openai_text("ok"));
    let bot = ChannelBot::discord(&llm, &dc, dir.path(), "").await;
    for i in 0..8 {
        dc.dm(D::FRIEND, &format!("message {i}"));
    }
    dc.wait_posted(8).await;
    let last: Vec<_> = llm
        .requests()
        .iter()
        .map(|r| r.message_texts().last().cloned().unwrap())
        .collect();
    let expected: Vec<_> = (0..8).map(|i| format!("message {i}")).collect();
    assert_eq!(last, expected);
    bot.stop().await;
}

/// serenity hands each gateway event to a task of its own, so a message whose channel is
/// still being looked up reaches the intake after a later one of the same channel. The later
/// one waits for it, and the model is asked in the order the two were sent; a DM meanwhile,
/// in a channel of its own, waits for neither.
#[tokio::test(flavor = "multi_thread")]
async fn a_message_waits_for_an_older_one_of_its_channel_still_on_its_way() {
    let (llm, dc, dir) = setup().await;
    llm.fallback(openai_text("ok"));
    let bot = ChannelBot::discord(&llm, &dc, dir.path(), "").await;
    dc.hold_lookups();
    dc.say(D::ALLOWED, 7, "bob", "<@9000> first");
    dc.wait_until("the first message's lookup is held", |d| {
        d.lookups_held() == 1
    })
    .await;
    dc.let_new_lookups_through();
    dc.say(D::ALLOWED, 7, "bob", "<@9000> second");
    dc.wait_until("the second message's lookup was asked", |d| {
        d.calls("GET /channels/100") == 2
    })
    .await;
    // Answered while the first message is still held at its lookup.
    dc.dm(D::FRIEND, "in between");
    let posted = dc.wait_posted(1).await;
    assert_eq!(posted[0].channel_id, dc.dm_channel(D::FRIEND));
    assert_eq!(dc.lookups_held(), 1);

    dc.release_lookups();
    dc.wait_posted(3).await;
    let asked: Vec<String> = (llm.requests().iter())
        .map(|r| r.message_texts().last().cloned().unwrap())
        .filter(|text| !text.contains("in between"))
        .collect();
    assert_eq!(asked.len(), 2, "{asked:?}");
    assert!(
        asked[0].contains("first") && asked[1].contains("second"),
        "{asked:?}"
    );
    bot.stop().await;
}

#[tokio::test]
async fn rate_limits_and_server_errors_are_survived() {
    let (llm, dc, dir) = setup().await;
    llm.script([openai_text_slowly("made it")]);
    dc.fail_next("POST", "messages", 429);
    dc.fail_next("POST", "typing", 500);
    dc.fail_next("GET", "channel", 500);
    let bot = ChannelBot::discord(&llm, &dc, dir.path(), "").await;
    dc.say(D::ALLOWED, 7, "bob", "<@9000> are you there?");
    let posted = dc.wait_posted(1).await;
    assert_eq!(posted[0].content, "made it");
    assert_eq!(
        dc.calls("POST /channels/100/messages"),
        2,
        "retried after the 429"
    );
    assert!(
        dc.calls("POST /channels/100/typing") >= 1,
        "the typing indicator was tried; its failure did not fail the turn"
    );
    bot.stop().await;
}

/// An answer whose reply was lost after Discord took it (a 502 from Discord's edge) is sent
/// again with the same nonce: Discord creates nothing the second time, so it is posted once.
#[tokio::test]
async fn an_answer_sent_again_after_its_reply_was_lost_is_posted_once() {
    let (llm, dc, dir) = setup().await;
    llm.script([openai_text("only once")]);
    dc.after_next_create(AfterCreate::BadGateway);
    let bot = ChannelBot::discord(&llm, &dc, dir.path(), "").await;
    dc.say(D::ALLOWED, 7, "bob", "<@9000> are you there?");
    dc.wait_until("the answer sent again", |d| {
        d.calls("POST /channels/100/messages") == 2
    })
    .await;
    wait_nothing_owed(&bot.bot.agent, "discord").await;
    let posted: Vec<_> = dc.posted().into_iter().map(|p| p.content).collect();
    assert_eq!(posted, ["only once"]);
    assert_eq!(llm.request_count(), 1);
    bot.stop().await;
}

/// Discord took the answer, but its reply holds what this build of serenity cannot read: the
/// answer is delivered all the same, not owed and sent again at the next start.
#[tokio::test]
async fn an_answer_discord_took_is_sent_once_whatever_its_reply_holds() {
    let (llm, dc, dir) = setup().await;
    llm.fallback(openai_text("answer"));
    dc.after_next_create(AfterCreate::Unreadable);
    let bot = ChannelBot::discord(&llm, &dc, dir.path(), "").await;
    let dm = dc.dm_channel(D::FRIEND);
    dc.dm(D::FRIEND, "first");
    dc.wait_posted(1).await;
    wait_nothing_owed(&bot.bot.agent, "discord").await;
    bot.stop().await;

    let bot = ChannelBot::discord(&llm, &dc, dir.path(), "").await;
    dc.dm(D::FRIEND, "second");
    dc.wait_posted(2).await;
    wait_nothing_owed(&bot.bot.agent, "discord").await;
    let sends = dc.calls(&format!("POST /channels/{dm}/messages"));
    assert_eq!(sends, 2, "each answer sent once");
    assert_eq!(llm.request_count(), 2);
    bot.stop().await;
}

/// An answer Discord refuses for good (a 4xx: here a user who takes no DMs from the bot) is
/// kept, and its message is done with: asking the model again would only be refused again.
#[tokio::test]
async fn an_answer_refused_for_good_is_not_owed() {
    let (llm, dc, dir) = setup().await;
    llm.script([openai_text("you will not see this")]);
    dc.fail_next("POST", "messages", 403);
    let bot = ChannelBot::discord(&llm, &dc, dir.path(), "").await;
    dc.say(D::ALLOWED, 7, "bob", "<@9000> are you there?");
    let agent = bot.bot.agent.clone();
    eventually("the refused answer kept", || {
        let agent = agent.clone();
        async move {
            let texts = stored_texts(&agent, &format!("discord:{}", D::ALLOWED)).await;
            texts.last().map(String::as_str) == Some("you will not see this")
        }
    })
    .await;
    wait_nothing_owed(&agent, "discord").await;
    assert_eq!(dc.calls("POST /channels/100/messages"), 1, "not sent again");
    assert_eq!(llm.request_count(), 1);
    bot.stop().await;
}

/// A person's reply quoting another bot's message built with component kinds newer than
/// serenity 0.12 (Discord's 2025 "components v2": a container of text displays) is read and
/// answered: serenity reads components leniently, so the message is not lost to them.
#[tokio::test]
async fn a_reply_quoting_newer_components_is_read() {
    let (llm, dc, dir) = setup().await;
    llm.fallback(openai_text("answered"));
    let bot = ChannelBot::discord(&llm, &dc, dir.path(), "").await;
    let mut card = dc.guild_message(D::ALLOWED, 55, "otherbot", "");
    card["author"]["bot"] = json!(true);
    card["flags"] = json!(1 << 15);
    card["components"] =
        json!([{"type": 17, "components": [{"type": 10, "content": "Poll results"}]}]);
    dc.reply(&card, 7, "bob", "<@9000> what do you make of this?");
    dc.say(D::ALLOWED, 7, "bob", "<@9000> and now?");
    dc.wait_posted(2).await;
    let asked: Vec<String> = llm
        .requests()
        .iter()
        .map(|r| r.message_texts().last().cloned().unwrap_or_default())
        .collect();
    assert_eq!(asked.len(), 2, "{asked:?}");
    assert!(asked[0].ends_with("what do you make of this?"), "{asked:?}");
    assert!(asked[1].ends_with("and now?"), "{asked:?}");
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_daemon_serves_discord_and_stops_on_sigterm() {
    let (llm, dc, dir) = setup().await;
    llm.script([openai_text("from the daemon")]);
    let config = dir.path().join("config.yaml");
    std::fs::write(
        &config,
        // the reflector's catch-up pass at start would race the turn for the one scripted answer
        config_yaml(
            &llm,
            dir.path(),
            &format!("{}reflector_enabled: false\n", discord_yaml(&dc, "")),
        ),
    )
    .unwrap();
    // serenity's own logs too: the token must not show even at debug level
    let daemon = Daemon::start(&config, "mneme=debug,serenity=debug");
    dc.wait_connected().await;
    dc.dm(D::FRIEND, "hi daemon");
    let posted = dc.wait_posted(1).await;
    assert_eq!(posted[0].content, "from the daemon");

    let stderr = daemon.terminate().await;
    assert!(
        !stderr.contains(&dc.token),
        "the bot token never reaches the logs"
    );
    assert!(stderr.contains("shutting down"), "{stderr}");
    assert!(!stderr.contains("telegram"), "Telegram stays off: {stderr}");
}

#[tokio::test]
async fn telegram_and_discord_run_side_by_side_on_one_memory() {
    use mneme::channels::Channel;
    let (llm, dc, dir) = setup().await;
    let tg = FakeTelegram::start().await;
    llm.fallback(openai_text("hello from one brain"));
    let yaml = format!("{}{}", telegram_yaml(&tg), discord_yaml(&dc, ""));
    let bot = TestBot::start(&llm, dir.path(), &yaml).await;
    let config = &bot.agent.config().channels;
    let channels: Vec<Box<dyn Channel>> = vec![
        Box::new(mneme::channels::telegram::TelegramChannel::new(&config.telegram).unwrap()),
        Box::new(mneme::channels::discord::DiscordChannel::new(&config.discord).unwrap()),
    ];
    let shutdown = tokio_util::sync::CancellationToken::new();
    let mut running = tokio::task::JoinSet::new();
    for channel in channels {
        let (agent, stop) = (bot.agent.clone(), shutdown.clone());
        running.spawn(async move { channel.run(agent, stop).await });
    }
    dc.wait_connected().await;
    // a fact told on Telegram…
    tg.private_text(100, "remember my cat is called Miso");
    tg.wait_sent(1).await;
    dc.dm(D::FRIEND, "hi");
    tg.private_text(100, "hi");
    dc.wait_posted(1).await;
    tg.wait_sent(2).await;
    assert_eq!(dc.posted()[0].content, "hello from one brain");
    let store = bot.agent.store();
    for chat in [
        "telegram:100".to_string(),
        format!("discord:{}", dc.dm_channel(D::FRIEND)),
    ] {
        assert!(
            store
                .find_chat(&chat.parse::<ChatKey>().unwrap())
                .await
                .unwrap()
                .is_some(),
            "{chat}"
        );
    }
    // …is that chat's, and the Discord chat does not see it (privacy per chat)
    let discord_prompt = llm
        .requests()
        .into_iter()
        .find(|r| r.system().contains("`discord:"))
        .unwrap()
        .system();
    assert!(!discord_prompt.contains("Miso"), "{discord_prompt}");
    shutdown.cancel();
    while let Some(done) = running.join_next().await {
        done.unwrap().unwrap();
    }
}

/// Looking up what a channel is (a thread of an allowed channel?) happens beside the intake,
/// not in it: while Discord is slow to answer for one channel, a DM is still answered.
#[tokio::test(flavor = "multi_thread")]
async fn a_slow_channel_lookup_does_not_hold_up_other_messages() {
    let (llm, dc, dir) = setup().await;
    llm.fallback(openai_text("Answered."));
    let bot = ChannelBot::discord(&llm, &dc, dir.path(), "").await;
    dc.hold_lookups();
    let unknown = 777;
    dc.say(unknown, D::FRIEND, "friend", "hello from somewhere else");
    dc.wait_until("the lookup is held", |d| d.lookups_held() == 1)
        .await;
    dc.dm(D::FRIEND, "hello");
    let posted = dc.wait_posted(1).await;
    assert_eq!(posted[0].content, "Answered.");
    assert_eq!(
        dc.lookups_held(),
        1,
        "the DM was answered while the lookup was still pending"
    );
    dc.release_lookups();
    dc.wait_until("the lookup answered", |d| d.lookups_held() == 0)
        .await;
    // Not an allowed channel (Discord says it does not know it): ignored, nothing stored.
    dc.dm(D::FRIEND, "again");
    dc.wait_posted(2).await;
    let store = bot.bot.agent.store();
    let other = ChatKey::new("discord", unknown.to_string());
    assert!(store.find_chat(&other).await.unwrap().is_none());
    bot.stop().await;
}
