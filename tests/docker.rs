//! The image, built from the repository's Dockerfile and run in a real Docker engine
//! (`tests/support/docker.rs` says what stands in for the registry's images):
//! - a Telegram-only deployment configured without touching files in the container
//!   (`mneme init --set …` on the volume, secrets in `MNEME_*` variables): it runs as a
//!   non-root user, turns healthy with the web channel off, holds a conversation through the
//!   fake Bot API and fake model on the host, keeps its memory across `docker restart` and a new
//!   container on the same volume, stops cleanly on `docker stop` within 10 s, logs plain text;
//! - the README's Docker commands, run as written (names, volume and port made unique);
//! - `docker-compose.yml` brought up with Compose;
//! - `docker-compose.replicas.yml`: two replicas on PostgreSQL, one memory between them, one
//!   holder of the scheduled jobs.
//!
//! Needs a Docker engine; without one the tests skip visibly, or fail under `CI`.

mod support;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use support::docker::{Cleanup, IMAGE, docker, logs, unique, wait_healthy};
use support::skip::skip_or_fail;
use support::*;

/// The engine is there and the image is built; else the test skips (or fails under CI).
fn ready() -> bool {
    let outcome = support::docker::engine().and_then(|()| support::docker::image().clone());
    match outcome {
        Ok(()) => true,
        Err(what) => {
            if what.contains("failed") {
                panic!("{what}");
            }
            skip_or_fail(&what, "see README, Docker");
            false
        }
    }
}

/// The text of the first reply to `user` after `before` replies.
async fn reply_after(tg: &FakeTelegram, before: usize) -> String {
    tg.wait_sent(before + 1).await[before].visible()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_telegram_only_container_is_healthy_remembers_and_survives_restarts() {
    if !ready() {
        return;
    }
    let tg = FakeTelegram::start().await;
    let llm = FakeLlm::start().await;
    llm.fallback(openai_text("Hello from the model."));
    let mut cleanup = Cleanup::default();
    let volume = unique("mneme-test-telegram");
    cleanup.volumes.push(volume.clone());
    docker(&["volume", "create", &volume]);
    let mount = format!("{volume}:/data");

    // Configured from outside: init writes /data/config.yaml on the volume.
    let api_url = format!("channels.telegram.api_url={}", tg.url);
    let init = docker(&[
        "run",
        "--rm",
        "-v",
        &mount,
        IMAGE,
        "init",
        "--base-url",
        &llm.url,
        "--model",
        "fake-model",
        "--set",
        "channels.web.enabled=false",
        "--set",
        "channels.telegram.enabled=true",
        "--set",
        &api_url,
        "--set",
        "channels.telegram.allowed_user_ids=[42]",
    ]);
    assert!(init.contains("wrote /data/config.yaml"), "{init}");

    // The host's fakes listen on 127.0.0.1: the container shares the host's network.
    let token = format!("MNEME_TELEGRAM_BOT_TOKEN={}", tg.token);
    let start = |name: &str| {
        docker(&[
            "run",
            "-d",
            "--name",
            name,
            "--network",
            "host",
            "-v",
            &mount,
            "-e",
            &token,
            "--health-interval",
            "1s",
            IMAGE,
        ])
    };
    let first = unique("mneme-test-telegram");
    cleanup.containers.push(first.clone());
    start(&first);
    wait_healthy(&first, Duration::from_secs(60)).await;

    // Not root: the daemon (PID 1) runs as the image's `mneme` user.
    let status = docker(&["exec", &first, "cat", "/proc/1/status"]);
    let uid = status
        .lines()
        .find_map(|l| l.strip_prefix("Uid:"))
        .and_then(|u| u.split_whitespace().next())
        .expect("a Uid line");
    assert_eq!(uid, "10001", "{status}");

    tg.private_text(42, "remember my cat is called Tom");
    let saved = reply_after(&tg, 0).await;
    assert!(
        saved.starts_with("Noted. Saved memory #") && saved.ends_with("my cat is called Tom"),
        "{saved}"
    );
    tg.private_text(42, "hello there");
    assert_eq!(reply_after(&tg, 1).await, "Hello from the model.");

    // docker restart: stop (SIGTERM to PID 1), start again, healthy, the memory is there.
    docker(&["restart", &first]);
    wait_healthy(&first, Duration::from_secs(60)).await;
    tg.private_text(42, "/memories");
    let listed = reply_after(&tg, 2).await;
    assert!(listed.contains("my cat is called Tom"), "{listed}");

    // docker stop: a clean exit (0, not SIGKILL's 137) well within the 10 s grace.
    let stopping = Instant::now();
    docker(&["stop", &first]);
    let took = stopping.elapsed();
    let code = docker(&["inspect", "-f", "{{.State.ExitCode}}", &first]);
    let log = logs(&first);
    assert_eq!(code, "0", "exit code after docker stop; logs:\n{log}");
    assert!(took < Duration::from_secs(10), "docker stop took {took:?}");
    assert!(log.contains("stopped"), "{log}");
    // Plain text in `docker logs`: no terminal, so no colour codes.
    assert!(
        !log.contains('\u{1b}'),
        "ANSI escapes in docker logs:\n{log}"
    );

    // Nothing half-written: no write-ahead log left behind, and the database checks out.
    let files = docker(&[
        "run",
        "--rm",
        "-v",
        &mount,
        "--entrypoint",
        "ls",
        IMAGE,
        "-A",
        "/data/mneme.data",
    ]);
    assert!(
        !files.contains("mneme.db-wal"),
        "after a clean stop: {files}"
    );
    assert!(
        !files.contains("health.json"),
        "the heartbeat outlived the daemon: {files}"
    );
    let copy = tempfile::tempdir().unwrap();
    let db = copy.path().join("mneme.db");
    docker(&[
        "cp",
        &format!("{first}:/data/mneme.data/mneme.db"),
        db.to_str().unwrap(),
    ]);
    let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}?mode=ro", db.display()))
        .await
        .unwrap();
    let check: (String,) = sqlx::query_as("PRAGMA integrity_check")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(check.0, "ok");
    pool.close().await;

    // A new container on the same volume knows what the first one learned.
    docker(&["rm", &first]);
    let second = unique("mneme-test-telegram");
    cleanup.containers.push(second.clone());
    start(&second);
    wait_healthy(&second, Duration::from_secs(60)).await;
    tg.private_text(42, "/memories");
    let listed = reply_after(&tg, 3).await;
    assert!(listed.contains("my cat is called Tom"), "{listed}");
    let exported = docker(&["exec", &second, "mneme", "memory", "list", "--json"]);
    assert!(exported.contains("my cat is called Tom"), "{exported}");
}

/// The code block under README's "## Docker", line by line.
fn readme_docker_commands() -> Vec<String> {
    let readme = std::fs::read_to_string(support::docker::repo().join("README.md")).unwrap();
    let section = &readme[readme
        .find("\n## Docker\n")
        .expect("README has a Docker section")..];
    let block = &section[section.find("```sh\n").expect("a sh block") + 6..];
    let block = &block[..block.find("```").expect("the block ends")];
    block.lines().map(str::to_string).collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_readme_docker_commands_work_as_written() {
    if !ready() {
        return;
    }
    let mut cleanup = Cleanup::default();
    let volume = unique("mneme-test-readme");
    let container = unique("mneme-test-readme");
    cleanup.volumes.push(volume.clone());
    cleanup.containers.push(container.clone());
    let port = support::web::free_port();

    // The same commands with this run's names: image mneme → mneme:test (built above from the
    // same Dockerfile as the README's `docker build`), volume, container name and host port
    // unique so that nothing of the machine's own is touched.
    let mut script = String::from("set -euo pipefail\n");
    let commands = readme_docker_commands();
    assert!(
        commands
            .iter()
            .any(|c| c.starts_with("docker build -t mneme ."))
    );
    for line in commands.iter().filter(|l| !l.starts_with("docker build")) {
        let line = line
            .replace("mneme-data:/data", &format!("{volume}:/data"))
            .replace("--name mneme ", &format!("--name {container} "))
            .replace(
                "docker exec -i mneme ",
                &format!("docker exec -i {container} "),
            )
            .replace("127.0.0.1:10961:10961", &format!("127.0.0.1:{port}:10961"));
        // In a `docker run`, the word `mneme` left is the image.
        let is_run = line.starts_with("docker run ");
        let words: Vec<String> = line
            .split(' ')
            .map(|w| {
                if is_run && w == "mneme" {
                    IMAGE.to_string()
                } else {
                    w.to_string()
                }
            })
            .collect();
        script.push_str(&words.join(" "));
        script.push('\n');
    }
    script.push_str("echo \"TOKEN=$MNEME_WEB_AUTH_TOKEN\"\n");
    let mut bash = Command::new("bash")
        .args(["-c", &script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        // What the `mneme chat` line reads: a remember (no model call: the README's model
        // endpoint is not reachable from a test).
        let mut stdin = bash.stdin.take().unwrap();
        stdin.write_all(b"remember I prefer green tea\n").unwrap();
    }
    let out = bash.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "the README's commands failed:\n{script}\n--- stdout\n{stdout}\n--- stderr\n{stderr}"
    );
    assert!(stdout.contains("wrote /data/config.yaml"), "{stdout}");
    assert!(
        stdout.contains("Noted. Saved memory #1: I prefer green tea"),
        "{stdout}\n{stderr}"
    );
    let token = stdout
        .lines()
        .find_map(|l| l.strip_prefix("TOKEN="))
        .expect("the token line")
        .to_string();
    assert!(token.len() >= 24, "the README's token: {token:?}");

    // The image's own health check (10 s interval) turns the container healthy.
    wait_healthy(&container, Duration::from_secs(90)).await;
    let base = format!("http://127.0.0.1:{port}");
    let health = reqwest::get(format!("{base}/healthz")).await.unwrap();
    assert_eq!(health.status(), 200);
    // The memory the terminal chat saved is in the daemon's console, behind the token.
    let client = reqwest::Client::new();
    let refused = client
        .get(format!("{base}/api/memories"))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 401);
    let memories: serde_json::Value = client
        .get(format!("{base}/api/memories"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(
        memories.to_string().contains("I prefer green tea"),
        "{memories}"
    );
}

/// `docker-compose -f FILE -p PROJECT ARGS…` with `env`, failing the test with its output when
/// it fails; returns what it printed.
fn compose_run(
    file: &std::path::Path,
    project: &str,
    env: &[(&str, &str)],
    args: &[&str],
) -> String {
    let out = Command::new("docker-compose")
        .arg("-f")
        .arg(file)
        .args(["-p", project])
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "docker-compose {}:\n{text}",
        args.join(" ")
    );
    text
}

#[tokio::test(flavor = "multi_thread")]
async fn compose_brings_up_a_healthy_mneme_on_its_volume() {
    if !ready() {
        return;
    }
    let compose_present = Command::new("docker-compose")
        .arg("version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !compose_present {
        skip_or_fail("docker-compose", "apt-get install docker-compose");
        return;
    }
    let mut cleanup = Cleanup::default();
    let project = unique("mnemetest").replace('-', "");
    let file = support::docker::repo().join("docker-compose.yml");
    cleanup.compose.push((file.clone(), project.clone()));
    let port = support::web::free_port().to_string();
    let env = [
        ("MNEME_IMAGE", IMAGE),
        ("MNEME_PORT", &port),
        (
            "MNEME_WEB_AUTH_TOKEN",
            "compose-test-token-0123456789abcdef",
        ),
        ("MNEME_API_KEY", "sk-compose-test"),
    ];
    let compose = |args: &[&str]| compose_run(&file, &project, &env, args);
    let init = compose(&[
        "run",
        "--rm",
        "mneme",
        "init",
        "--model",
        "gpt-4o-mini",
        "--web-host",
        "0.0.0.0",
    ]);
    assert!(init.contains("wrote /data/config.yaml"), "{init}");
    compose(&["up", "-d"]);
    let id = compose(&["ps", "-q", "mneme"]).trim().to_string();
    wait_healthy(&id, Duration::from_secs(90)).await;
    let health = reqwest::get(format!("http://127.0.0.1:{port}/healthz"))
        .await
        .unwrap();
    assert_eq!(health.status(), 200);
    let stopping = Instant::now();
    compose(&["stop"]);
    assert!(stopping.elapsed() < Duration::from_secs(10));
    assert_eq!(docker(&["inspect", "-f", "{{.State.ExitCode}}", &id]), "0");
}

#[tokio::test(flavor = "multi_thread")]
async fn compose_brings_up_two_replicas_on_postgresql_sharing_one_memory() {
    if !ready() {
        return;
    }
    if let Err(what) = support::docker::postgres_image() {
        panic!("{what}");
    }
    let mut cleanup = Cleanup::default();
    let project = unique("mnemereplicas").replace('-', "");
    let file = support::docker::repo().join("docker-compose.replicas.yml");
    cleanup.compose.push((file.clone(), project.clone()));
    let ports = [
        support::web::free_port().to_string(),
        support::web::free_port().to_string(),
    ];
    let token = "replicas-test-token-0123456789abcdef";
    let env = [
        ("MNEME_IMAGE", IMAGE),
        ("POSTGRES_IMAGE", support::docker::POSTGRES_IMAGE),
        ("MNEME_PORT_A", &ports[0]),
        ("MNEME_PORT_B", &ports[1]),
        ("MNEME_WEB_AUTH_TOKEN", token),
        ("MNEME_DB_PASSWORD", "replicas-db-Password-42"),
        ("MNEME_API_KEY", "sk-compose-test"),
    ];
    let compose = |args: &[&str]| compose_run(&file, &project, &env, args);
    for replica in ["mneme-a", "mneme-b"] {
        let init = compose(&[
            "run",
            "--rm",
            "--no-deps",
            replica,
            "init",
            "--model",
            "gpt-4o-mini",
            "--web-host",
            "0.0.0.0",
        ]);
        assert!(init.contains("wrote /data/config.yaml"), "{init}");
    }
    compose(&["up", "-d"]);
    let ids: Vec<String> = ["mneme-a", "mneme-b"]
        .iter()
        .map(|r| compose(&["ps", "-q", r]).trim().to_string())
        .collect();
    for id in &ids {
        wait_healthy(id, Duration::from_secs(90)).await;
    }
    let client = reqwest::Client::new();
    let health = |port: String| {
        let client = client.clone();
        async move {
            let body: serde_json::Value = client
                .get(format!("http://127.0.0.1:{port}/healthz"))
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            body
        }
    };
    // One of the two runs the scheduled jobs.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (a, b) = (
            health(ports[0].clone()).await,
            health(ports[1].clone()).await,
        );
        let holds = |h: &serde_json::Value| h["leases"]["held"].to_string().contains("schedule");
        assert!(!(holds(&a) && holds(&b)), "both hold the schedule: {a} {b}");
        if holds(&a) || holds(&b) {
            assert_eq!(a["status"], "ok", "{a}");
            assert_eq!(b["status"], "ok", "{b}");
            break;
        }
        assert!(
            Instant::now() < deadline,
            "no replica holds the schedule: {a} {b}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // Remembered through one replica, known to the other: one database.
    let said = client
        .post(format!(
            "http://127.0.0.1:{}/api/chats/alice/messages",
            ports[0]
        ))
        .bearer_auth(token)
        .json(&serde_json::json!({"text": "remember I prefer green tea"}))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        said.contains("Saved memory #1: I prefer green tea"),
        "{said}"
    );
    let memories: serde_json::Value = client
        .get(format!("http://127.0.0.1:{}/api/memories", ports[1]))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(
        memories.to_string().contains("I prefer green tea"),
        "{memories}"
    );
    compose(&["stop"]);
    for id in &ids {
        assert_eq!(docker(&["inspect", "-f", "{{.State.ExitCode}}", id]), "0");
    }
}
