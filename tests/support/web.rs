//! Running `mneme start` with only the web chat, for the daemon and browser tests.

use std::path::Path;
use std::time::Duration;

use super::FakeLlm;

/// A free port on 127.0.0.1 (bound and released; nothing else on a test machine takes it in
/// between).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A config with only the web channel, on `port`, without a token and without the reflector.
pub fn web_only_yaml(llm: &FakeLlm, dir: &Path, port: u16) -> String {
    format!(
        "data_dir: {}\nllm_base_url: {}\nmodel: fake-model\nllm_timeout_secs: 5\nllm_max_retries: 1\nreflector_enabled: false\n\
         channels:\n  web:\n    enabled: true\n    host: 127.0.0.1\n    port: {port}\n",
        dir.join("data").display(),
        llm.url
    )
}

/// Polls `/healthz` until it answers 200, 15 s at most.
pub async fn wait_healthy(base: &str) {
    let client = reqwest::Client::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    loop {
        if let Ok(r) = client.get(format!("{base}/healthz")).send().await
            && r.status() == 200
        {
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "{base} never became healthy"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
