//! The PostgreSQL backend in the integration tests. `scripts/test` runs the flows that touch
//! the database (Telegram, Discord, the reflector, memory search…) a second time with
//! `MNEME_TEST_BACKEND=postgres`: every test's config then names a fresh database on the
//! server of `MNEME_TEST_DATABASE_URL` (which `scripts/test-prepare` starts) instead of a
//! SQLite file.

/// Whether this run is the PostgreSQL one.
pub fn enabled() -> bool {
    std::env::var("MNEME_TEST_BACKEND").is_ok_and(|b| b == "postgres")
}

/// The database of the test data in `dir` when this is the PostgreSQL run (fresh the first
/// time `dir` asks, the same one after: a test restarting its bot finds its data), else
/// `None`. Panics when the run asks for PostgreSQL and names no server.
pub fn database_url(dir: &std::path::Path) -> Option<String> {
    static BY_DIR: std::sync::Mutex<Vec<(std::path::PathBuf, String)>> =
        std::sync::Mutex::new(Vec::new());
    enabled().then(|| {
        let mut known = BY_DIR.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, url)) = known.iter().find(|(d, _)| d == dir) {
            return url.clone();
        }
        let server = std::env::var("MNEME_TEST_DATABASE_URL").unwrap_or_default();
        assert!(
            !server.trim().is_empty(),
            "MNEME_TEST_BACKEND=postgres needs MNEME_TEST_DATABASE_URL (scripts/test-prepare starts a server)"
        );
        let url = scratch_database(server.trim().to_string());
        known.push((dir.to_path_buf(), url.clone()));
        url
    })
}

/// A fresh database on `server` (callable from sync and async code alike: it runs on a thread
/// of its own).
pub fn scratch_database(server: String) -> String {
    std::thread::spawn(move || {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime")
            .block_on(mneme::store::testing::create_scratch_database(&server))
            .expect("a scratch database on MNEME_TEST_DATABASE_URL's server")
    })
    .join()
    .expect("scratch database thread")
}

/// The test PostgreSQL server's URL (`MNEME_TEST_DATABASE_URL`), or `None` after saying why:
/// the test is then skipped, or fails under `CI`.
pub fn server() -> Option<String> {
    match std::env::var("MNEME_TEST_DATABASE_URL") {
        Ok(url) if !url.trim().is_empty() => Some(url.trim().to_string()),
        _ => {
            super::skip::skip_or_fail(
                "PostgreSQL (MNEME_TEST_DATABASE_URL)",
                "scripts/test-prepare starts one and scripts/test exports its URL",
            );
            None
        }
    }
}
