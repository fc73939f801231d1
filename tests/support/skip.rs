//! A test whose prerequisite this machine lacks (model files, Chromium, a Docker engine…)
//! either fails, under `CI`, or skips visibly: it says so on stderr and, when the README's test
//! command (`scripts/test`) runs it, adds a line to `$MNEME_SKIP_LOG`, which the script prints
//! at the end — `cargo test` alone hides a passing test's stderr.

use std::io::Write;

/// Call when the test cannot run here, then return from the test. Panics under `CI`.
pub fn skip_or_fail(what: &str, how_to_get_it: &str) {
    let test = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string();
    let binary = std::env::current_exe()
        .ok()
        .and_then(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .map(|stem| {
            stem.rsplit_once('-')
                .map_or(stem.clone(), |(name, _)| name.to_string())
        })
        .unwrap_or_default();
    if std::env::var_os("CI").is_some() {
        panic!("{binary}::{test} needs {what}, and CI must provide it: {how_to_get_it}");
    }
    let line = format!("{binary}::{test}: needs {what} ({how_to_get_it})");
    eprintln!("SKIPPED {line}");
    if let Some(log) = std::env::var_os("MNEME_SKIP_LOG") {
        // One short append per skip: concurrent tests' lines do not interleave.
        if let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
        {
            let _ = writeln!(f, "{line}");
        }
    }
}
