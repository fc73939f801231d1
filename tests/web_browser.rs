//! The page in real headless Chromium (Debian's `chromium`, driven by playwright-core from
//! `tests/browser/`), against the real `mneme start` with only the web chat enabled and the
//! fake model streaming on 127.0.0.1: a streamed reply, `remember …` then the memory in the
//! console, forgetting it, the conversation after a reload.
//!
//! Needs /usr/bin/chromium, `node`, and `npm ci` run in tests/browser (`.ci/run` sees to all
//! three). Without them the test says what is missing and skips — or fails when `CI` is set.

mod support;

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use support::binary::write_config;
use support::web::{free_port, wait_healthy, web_only_yaml};
use support::*;

const CHROMIUM: &str = "/usr/bin/chromium";

/// What the browser test needs and this machine lacks, with how to get it.
fn missing_tools(browser_dir: &Path) -> Vec<&'static str> {
    let mut missing = Vec::new();
    if !Path::new(CHROMIUM).exists() {
        missing.push("Chromium at /usr/bin/chromium: apt-get install -y chromium chromium-driver");
    }
    let node = std::process::Command::new("node")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if !node.is_ok_and(|s| s.success()) {
        missing.push("Node.js: apt-get install -y nodejs npm");
    }
    if !browser_dir.join("node_modules/playwright-core").is_dir() {
        missing.push("playwright-core: (cd tests/browser && npm ci)");
    }
    missing
}

#[tokio::test(flavor = "multi_thread")]
async fn the_page_streams_a_reply_remembers_and_forgets_in_chromium() {
    let browser_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/browser");
    let missing = missing_tools(&browser_dir);
    if !missing.is_empty() {
        let list = missing.join("\n  ");
        if std::env::var_os("CI").is_some() {
            panic!("the browser test needs, and CI must install (.ci/run does):\n  {list}");
        }
        eprintln!("SKIPPED the browser test: this machine lacks\n  {list}");
        return;
    }

    let llm = FakeLlm::start().await;
    let pieces = [
        "Here is ",
        "the **streamed** ",
        "reply, ",
        "with <b>raw</b> ",
        "HTML kept as text.",
    ];
    llm.fallback(openai_stream_paced(&pieces, Duration::from_millis(150)));
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let config = write_config(dir.path(), &web_only_yaml(&llm, dir.path(), port));
    let daemon = Daemon::start(&config, "mneme=info");
    let base = format!("http://127.0.0.1:{port}");
    wait_healthy(&base).await;

    let mut node = tokio::process::Command::new("node");
    node.arg(browser_dir.join("chat.mjs"))
        .env("MNEME_URL", &base)
        .env("MNEME_EXPECT_REPLY", pieces.concat())
        .stdin(Stdio::null())
        .kill_on_drop(true);
    let run = tokio::time::timeout(Duration::from_secs(120), node.output())
        .await
        .expect("the browser test finishes within 2 minutes")
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    let log = daemon.terminate().await;
    assert!(
        run.status.success() && stdout.contains("browser: all steps passed"),
        "browser test failed ({})\n--- stdout\n{stdout}\n--- stderr\n{stderr}\n--- mneme log\n{log}",
        run.status
    );
}
