//! The daemon's calendar, as a user sees it: the reflector on `reflector_schedule` and the
//! lifecycle sweep on `lifecycle_schedule` run by themselves, `mneme usage` shows each job's
//! last and next run, `check-config` says which reflector setting is in force.

mod support;

use std::time::Duration;

use serde_json::json;
use support::binary::{mneme, write_config};
use support::reflector::{Lab, facts};
use support::web::{free_port, wait_healthy, web_only_yaml};
use support::*;

async fn job(db: &std::path::Path, name: &str) -> Option<(Option<bool>, Option<i64>, String)> {
    let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}?mode=ro", db.display()))
        .await
        .unwrap();
    let row = sqlx::query_as::<_, (Option<bool>, Option<i64>, String)>(
        "SELECT last_ok, next_run_at, schedule FROM scheduled_jobs WHERE name = ?1",
    )
    .bind(name)
    .fetch_optional(&pool)
    .await
    .unwrap_or(None);
    pool.close().await;
    row
}

#[tokio::test(flavor = "multi_thread")]
async fn reflector_and_sweep_run_on_their_cron_and_usage_shows_last_and_next_run() {
    let lab = Lab::new("").await;
    let chat = lab.chat("web:alice", false).await;
    lab.say(&chat, "alice", "I am allergic to peanuts").await;
    lab.llm.script([facts(json!([
        {"content": "Alice is allergic to peanuts", "category": "PROFILE", "supersedes_id": null}
    ]))]);
    lab.llm.fallback(facts(json!([])));
    lab.store.close().await;

    let port = free_port();
    let yaml = web_only_yaml(&lab.llm, lab.dir.path(), port).replace(
        "reflector_enabled: false\n",
        "reflector_schedule: \"* * * * * *\"\nlifecycle_schedule: \"*/2 * * * * *\"\n\
         backup_schedule: \"\"\nschedule_timezone: Asia/Tokyo\n",
    );
    let config = write_config(lab.dir.path(), &yaml);
    let checked = mneme(&config, &["check-config"], "").await;
    assert_eq!(checked.code, 0, "{}", checked.stderr);
    assert!(
        checked
            .stdout
            .contains("reflector: `* * * * * *` in Asia/Tokyo (reflector_schedule; reflector_interval_mins is not used)"),
        "{}",
        checked.stdout
    );
    assert!(
        checked.stdout.contains("backup: never"),
        "{}",
        checked.stdout
    );

    let daemon = Daemon::start(&config, "mneme=info");
    wait_healthy(&format!("http://127.0.0.1:{port}")).await;
    let db = lab.dir.path().join("data/mneme.db");
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let reflector = job(&db, "reflector").await;
        let lifecycle = job(&db, "lifecycle").await;
        if matches!(reflector, Some((Some(true), Some(_), _)))
            && matches!(lifecycle, Some((Some(true), Some(_), _)))
        {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "jobs never ran: {reflector:?} {lifecycle:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let listed = mneme(&config, &["memory", "list", "--chat", "web:alice"], "").await;
    assert!(
        listed.stdout.contains("Alice is allergic to peanuts"),
        "the cron pass reflected the chat: {}",
        listed.stdout
    );
    let usage = mneme(&config, &["usage"], "").await;
    assert_eq!(usage.code, 0, "{}", usage.stderr);
    for want in [
        "Scheduled jobs:",
        "reflector  * * * * * * (Asia/Tokyo)",
        "lifecycle  */2 * * * * * (Asia/Tokyo)",
        "last: ok ",
        "; next: ",
    ] {
        assert!(usage.stdout.contains(want), "{want:?} in\n{}", usage.stdout);
    }
    assert!(!usage.stdout.contains("backup "), "{}", usage.stdout);
    let log = daemon.terminate().await;
    assert!(!log.contains("panicked"), "{log}");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_interval_is_recorded_too_and_a_bad_schedule_is_named() {
    let llm = FakeLlm::start().await;
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let yaml = web_only_yaml(&llm, dir.path(), port).replace(
        "reflector_enabled: false\n",
        "reflector_interval_mins: 30\nlifecycle_schedule: \"\"\n",
    );
    let config = write_config(dir.path(), &yaml);
    let checked = mneme(&config, &["check-config"], "").await;
    for want in [
        "reflector: every 30 min (reflector_interval_mins; reflector_schedule is empty)",
        "lifecycle sweep: after every reflector pass",
        "backup: `0 0 3 * * *` in UTC, keeping 7",
    ] {
        assert!(
            checked.stdout.contains(want),
            "{want:?} in {}",
            checked.stdout
        );
    }
    let daemon = Daemon::start(&config, "mneme=info");
    wait_healthy(&format!("http://127.0.0.1:{port}")).await;
    let db = dir.path().join("data/mneme.db");
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while !matches!(job(&db, "reflector").await, Some((Some(true), Some(_), _))) {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the first pass is recorded"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let usage = mneme(&config, &["usage"], "").await;
    assert!(
        usage.stdout.contains("reflector  every 30 min"),
        "{}",
        usage.stdout
    );
    assert!(
        usage.stdout.contains("backup     0 0 3 * * * (UTC)"),
        "{}",
        usage.stdout
    );
    assert!(!usage.stdout.contains("lifecycle"), "{}", usage.stdout);
    daemon.terminate().await;

    let bad = yaml.replace(
        "reflector_interval_mins: 30\n",
        "reflector_interval_mins: 30\nreflector_schedule: \"*/15 * * *\"\n",
    );
    let config = write_config(dir.path(), &bad);
    let checked = mneme(&config, &["check-config"], "").await;
    assert_eq!(checked.code, 1);
    assert!(
        checked
            .stdout
            .contains("error: reflector_schedule: `*/15 * * *` has 4 fields"),
        "{}",
        checked.stdout
    );
}
