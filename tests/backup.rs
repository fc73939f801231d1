//! `mneme backup` and `mneme restore`, as a user runs them: a round trip that keeps every chat,
//! message, memory and AGENTS.md; a backup taken while the daemon writes; a restore refused
//! while the daemon runs, and refused for a file that is not a sound backup.

mod support;

use std::path::{Path, PathBuf};

use serde_json::json;
use support::binary::{mneme, write_config};
use support::web::web_daemon;
use support::*;

fn backup_folder(stdout: &str) -> PathBuf {
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix("backup: "))
        .unwrap_or_else(|| panic!("no backup line in {stdout:?}"));
    PathBuf::from(line.split(" (").next().unwrap())
}

async fn counts(db: &Path) -> (i64, i64, i64) {
    let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}?mode=ro", db.display()))
        .await
        .unwrap();
    let q = |sql: &'static str| sqlx::query_scalar::<_, i64>(sql).fetch_one(&pool);
    let out = (
        q("SELECT COUNT(*) FROM chats").await.unwrap(),
        q("SELECT COUNT(*) FROM messages").await.unwrap(),
        q("SELECT COUNT(*) FROM memories WHERE archived = 0")
            .await
            .unwrap(),
    );
    pool.close().await;
    out
}

#[tokio::test(flavor = "multi_thread")]
async fn backup_then_restore_keeps_every_chat_message_memory_and_agents_file() {
    let llm = FakeLlm::start().await;
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(
        dir.path(),
        &config_yaml(&llm, dir.path(), "backup_keep: 2\n"),
    );
    let data = dir.path().join("data");
    for (chat, text) in [
        ("default", "remember I prefer green tea"),
        ("work", "remember the standup is at 10"),
    ] {
        let run = mneme(&config, &["chat", "--chat", chat], &format!("{text}\n")).await;
        assert_eq!(run.code, 0, "{}", run.stderr);
    }
    let agents = data.join("runtime/groups/cli/default/AGENTS.md");
    std::fs::create_dir_all(agents.parent().unwrap()).unwrap();
    std::fs::write(&agents, "Answer in haiku.\n").unwrap();
    let before = counts(&data.join("mneme.db")).await;
    assert_eq!(before, (2, 4, 2));

    let run = mneme(&config, &["backup"], "").await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let folder = backup_folder(&run.stdout);
    assert!(folder.starts_with(data.join("backups")), "{folder:?}");
    assert!(folder.join("groups/cli/default/AGENTS.md").is_file());

    // Life goes on: a memory forgotten, one added, the AGENTS.md rewritten.
    assert_eq!(mneme(&config, &["memory", "forget", "1"], "").await.code, 0);
    assert_eq!(
        mneme(&config, &["chat"], "remember I switched to coffee\n")
            .await
            .code,
        0
    );
    std::fs::write(&agents, "Answer in limericks.\n").unwrap();

    let run = mneme(&config, &["restore", folder.to_str().unwrap()], "").await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(counts(&data.join("mneme.db")).await, before);
    assert_eq!(
        std::fs::read_to_string(&agents).unwrap(),
        "Answer in haiku.\n"
    );
    let list = mneme(&config, &["memory", "list", "--json"], "").await;
    assert!(
        list.stdout.contains("I prefer green tea") && !list.stdout.contains("coffee"),
        "{}",
        list.stdout
    );
    // What was replaced is kept aside, not deleted.
    let aside: Vec<PathBuf> = std::fs::read_dir(&data)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("replaced-")
        })
        .collect();
    assert_eq!(aside.len(), 1);
    assert!(aside[0].join("mneme.db").is_file());
    assert_eq!(
        std::fs::read_to_string(aside[0].join("groups/cli/default/AGENTS.md")).unwrap(),
        "Answer in limericks.\n"
    );

    // Rotation: backup_keep (2) are kept.
    for _ in 0..3 {
        assert_eq!(mneme(&config, &["backup"], "").await.code, 0);
    }
    let kept = std::fs::read_dir(data.join("backups")).unwrap().count();
    assert_eq!(kept, 2);

    // Not a backup: refused, nothing changed.
    let junk = dir.path().join("junk.db");
    std::fs::write(&junk, "not a database").unwrap();
    let run = mneme(&config, &["restore", junk.to_str().unwrap()], "").await;
    assert_ne!(run.code, 0);
    assert!(run.stderr.contains("not a usable backup"), "{}", run.stderr);
    assert_eq!(counts(&data.join("mneme.db")).await, before);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_backup_while_the_daemon_writes_and_no_restore_under_it() {
    let llm = FakeLlm::start().await;
    llm.fallback(openai_text("ok"));
    let dir = tempfile::tempdir().unwrap();
    let (daemon, base, config) = web_daemon(&llm, dir.path(), "").await;

    // The daemon keeps writing while the backup is taken.
    let writer = tokio::spawn({
        let base = base.clone();
        async move {
            let http = reqwest::Client::new();
            for i in 0..20 {
                let resp = http
                    .post(format!("{base}/api/chats/alice/messages"))
                    .header("content-type", "application/json")
                    .json(&json!({"text": format!("remember fact number {i}")}))
                    .send()
                    .await
                    .unwrap();
                assert_eq!(resp.status(), 200);
                let _ = resp.text().await;
            }
        }
    });
    let run = mneme(&config, &["backup"], "").await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    writer.await.unwrap();
    let folder = backup_folder(&run.stdout);
    mneme::store::check_database_file(&folder.join("mneme.db"))
        .await
        .unwrap();

    let run = mneme(&config, &["restore", folder.to_str().unwrap()], "").await;
    assert_ne!(run.code, 0);
    assert!(run.stderr.contains("a daemon is using"), "{}", run.stderr);
    let log = daemon.terminate().await;
    // Stopped: the heartbeat is gone and the restore goes ahead.
    let run = mneme(&config, &["restore", folder.to_str().unwrap()], "").await;
    assert_eq!(run.code, 0, "{}\n{log}", run.stderr);
}

/// The daemon backs up on `backup_schedule` by itself (a seconds-level cron here; nightly by
/// default), keeps `backup_keep`, and the scheduler stops with the daemon.
#[tokio::test(flavor = "multi_thread")]
async fn the_daemon_backs_up_on_its_schedule_and_stops_cleanly() {
    let llm = FakeLlm::start().await;
    let dir = tempfile::tempdir().unwrap();
    let extra =
        "backup_schedule: \"* * * * * *\"\nbackup_keep: 2\nschedule_timezone: Europe/Lisbon\n";
    let (daemon, _base, _config) = web_daemon(&llm, dir.path(), extra).await;
    let backups = dir.path().join("data/backups");
    let done = |n: usize| {
        std::fs::read_dir(&backups).map_or(0, |d| {
            d.filter_map(Result::ok)
                .filter(|e| e.file_name().to_string_lossy().starts_with("mneme-"))
                .count()
        }) >= n
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !done(2) {
        assert!(std::time::Instant::now() < deadline, "no scheduled backups");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let log = daemon.terminate().await;
    assert!(log.contains("job=\"backup\""), "{log}");
    assert!(log.contains("scheduled backup done"), "{log}");
    assert!(log.contains("stopped"), "{log}");
    let kept: Vec<_> = std::fs::read_dir(&backups)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with("mneme-"))
        .collect();
    assert!(kept.len() <= 2, "backup_keep: {kept:?}");
    for b in kept {
        mneme::store::check_database_file(&b.path().join("mneme.db"))
            .await
            .unwrap();
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn check_config_names_a_bad_schedule_or_time_zone() {
    let llm = FakeLlm::start().await;
    let dir = tempfile::tempdir().unwrap();
    let yaml = format!(
        "{}backup_schedule: \"at night\"\nschedule_timezone: Mars/Olympus\n",
        config_yaml(&llm, dir.path(), "")
    );
    let config = write_config(dir.path(), &yaml);
    let run = mneme(&config, &["check-config"], "").await;
    assert_eq!(run.code, 1);
    let out = format!("{}{}", run.stdout, run.stderr);
    assert!(
        out.contains("backup_schedule: `at night` has 2 fields"),
        "{out}"
    );
    assert!(
        out.contains("schedule_timezone: `Mars/Olympus` is not a time zone"),
        "{out}"
    );
}
