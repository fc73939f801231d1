//! The page in real headless Chromium (Debian's `chromium`, driven by Python's `playwright` from
//! PyPI, `tests/browser/chat.py`), against the real `mneme start` with only the web chat enabled
//! and the fake model streaming on 127.0.0.1: a streamed reply, `remember …` then the memory in
//! the console, forgetting it, the conversation after a reload.
//!
//! Needs /usr/bin/chromium and a Python with `playwright` installed: `$MNEME_TEST_PYTHON`, else
//! `target/test-venv/bin/python3` (`scripts/test-prepare` makes it). Without them the test skips
//! visibly — or fails when `CI` is set.

mod support;

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use support::skip::skip_or_fail;
use support::web::web_daemon;
use support::*;

const CHROMIUM: &str = "/usr/bin/chromium";

/// The Python that has `playwright`.
fn python() -> PathBuf {
    match std::env::var_os("MNEME_TEST_PYTHON") {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("target/test-venv/bin/python3"),
    }
}

/// What the browser test needs and this machine lacks, with how to get it.
fn missing_tools(python: &Path) -> Vec<String> {
    let mut missing = Vec::new();
    if !Path::new(CHROMIUM).exists() {
        missing.push(format!(
            "Chromium at {CHROMIUM} (apt-get install -y chromium)"
        ));
    }
    let playwright = std::process::Command::new(python)
        .args(["-c", "import playwright.sync_api"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if !playwright.is_ok_and(|s| s.success()) {
        missing.push(format!(
            "Python's playwright in {} (bash scripts/test-prepare, or set MNEME_TEST_PYTHON)",
            python.display()
        ));
    }
    missing
}

#[tokio::test(flavor = "multi_thread")]
async fn the_page_streams_a_reply_remembers_and_forgets_in_chromium() {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/browser/chat.py");
    let python = python();
    let missing = missing_tools(&python);
    if !missing.is_empty() {
        skip_or_fail("a browser", &missing.join("; "));
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
    let (daemon, base, _config) = web_daemon(&llm, dir.path(), "").await;

    let mut browser = tokio::process::Command::new(&python);
    browser
        .arg(&script)
        .env("MNEME_URL", &base)
        .env("MNEME_EXPECT_REPLY", pieces.concat())
        .stdin(Stdio::null())
        .kill_on_drop(true);
    let run = tokio::time::timeout(Duration::from_secs(120), browser.output())
        .await
        .expect("the browser test finishes within 2 minutes")
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    let log = daemon.terminate().await;
    assert!(
        run.status.success() && stdout.contains("browser: all steps passed"),
        "browser test failed ({})\n--- stdout\n{stdout}\n--- stderr\n{stderr}\n--- mneme log\n{log}",
        run.status
    );
}
