//! The daemon's calendar, as a user sees it: the reflector on `reflector_schedule` and the
//! lifecycle sweep on `lifecycle_schedule` run by themselves, `mneme usage` shows each job's
//! last and next run (the logs' pruning among them), `check-config` says which reflector
//! setting is in force.

mod support;

use std::time::Duration;

use serde_json::json;
use support::binary::{mneme, write_config};
use support::reflector::{Lab, facts};
use support::web::{free_port, wait_healthy, web_only_yaml};
use support::*;

/// How job `name` last went, when it runs next and on what schedule, as the database says.
async fn job(database_url: &str, name: &str) -> Option<(Option<bool>, Option<i64>, String)> {
    let store = mneme::store::Store::open(database_url).await.unwrap();
    let jobs = store.jobs().await.unwrap_or_default();
    store.close().await;
    jobs.into_iter()
        .find(|j| j.name == name)
        .map(|j| (j.last_ok, j.next_run_at, j.schedule))
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
         backup_schedule: \"\"\nschedule_timezone: Asia/Tokyo\nlog_retention_days: 0\n",
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
    let backup = if support::postgres::enabled() {
        "backup: not by Mneme on PostgreSQL"
    } else {
        "backup: never"
    };
    assert!(checked.stdout.contains(backup), "{}", checked.stdout);
    assert!(
        checked
            .stdout
            .contains("log pruning: never (log_retention_days is 0)"),
        "{}",
        checked.stdout
    );

    let daemon = Daemon::start(&config, "mneme=info");
    wait_healthy(&format!("http://127.0.0.1:{port}")).await;
    let db = lab.config.database_url();
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
    assert!(!usage.stdout.contains("prune_logs"), "{}", usage.stdout);
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
    let backup = if support::postgres::enabled() {
        "backup: not by Mneme on PostgreSQL (backup_schedule is not used): back it up with pg_dump"
    } else {
        "backup: `0 0 3 * * *` in UTC, keeping 7"
    };
    for want in [
        "reflector: every 30 min (reflector_interval_mins; reflector_schedule is empty)",
        "lifecycle sweep: after every reflector pass",
        "log pruning: daily at 04:00 in UTC, keeping 90 days (log_retention_days)",
        backup,
    ] {
        assert!(
            checked.stdout.contains(want),
            "{want:?} in {}",
            checked.stdout
        );
    }
    let daemon = Daemon::start(&config, "mneme=info");
    wait_healthy(&format!("http://127.0.0.1:{port}")).await;
    let db = support::postgres::database_url(dir.path())
        .unwrap_or_else(|| format!("sqlite://{}", dir.path().join("data/mneme.db").display()));
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
    // The nightly backup is SQLite's; PostgreSQL is backed up with pg_dump.
    assert_eq!(
        usage.stdout.contains("backup     0 0 3 * * * (UTC)"),
        !support::postgres::enabled(),
        "{}",
        usage.stdout
    );
    assert!(!usage.stdout.contains("lifecycle"), "{}", usage.stdout);
    // the logs' pruning, daily by default
    let prune = usage.stdout.lines().find(|l| l.contains("prune_logs"));
    assert!(
        prune.is_some_and(|l| l.contains("prune_logs 0 0 4 * * * (UTC) ")
            && l.contains("last: never run; next: ")),
        "{}",
        usage.stdout
    );
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
