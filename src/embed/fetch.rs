//! Fetching the default local model's files once, over plain HTTP(S).
//!
//! Each file is streamed to a hidden temporary name in the model's folder and renamed into
//! place only when complete, so a crash, a dropped connection or a full disk never leaves a
//! file that looks finished; leftovers of an interrupted download are removed next time.

use std::path::Path;
use std::time::Duration;

use futures_util::StreamExt;
use tokio::io::AsyncWriteExt;

use super::EmbedError;
use crate::config::model_files::{DEFAULT_DOWNLOAD_BASE, missing_files};

/// Temporary files start with this (and end in a random suffix).
const PARTIAL_PREFIX: &str = ".download-";

/// Makes sure `dir` holds the model files, downloading the missing ones from `base_url`
/// (or Hugging Face when empty).
pub(super) async fn ensure_default_model(dir: &Path, base_url: &str) -> Result<(), EmbedError> {
    let missing = missing_files(dir);
    if missing.is_empty() {
        return Ok(());
    }
    let base = if base_url.trim().is_empty() {
        DEFAULT_DOWNLOAD_BASE
    } else {
        base_url.trim()
    };
    let failed = |file: &'static str, url: &str, detail: String| EmbedError::Download {
        file,
        url: url.to_string(),
        dir: dir.to_path_buf(),
        detail,
    };
    tokio::fs::create_dir_all(dir)
        .await
        .map_err(|e| failed(missing[0], base, format!("cannot create the folder: {e}")))?;
    remove_leftovers(dir).await;
    let client = reqwest::Client::builder()
        .connect_timeout(Duration::from_secs(15))
        .read_timeout(Duration::from_secs(60))
        .user_agent(concat!("mneme/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| {
            failed(
                missing[0],
                base,
                format!("cannot build an HTTP client: {e}"),
            )
        })?;
    for file in missing {
        let url = format!("{}/{file}", base.trim_end_matches('/'));
        tracing::info!(%url, dir = %dir.display(), "downloading an embedding model file (once)");
        download(&client, &url, dir, file)
            .await
            .map_err(|detail| failed(file, &url, detail))?;
    }
    debug_assert!(missing_files(dir).is_empty());
    Ok(())
}

/// One file: to a temporary name, flushed to disk, then renamed to `dir/file`.
async fn download(
    client: &reqwest::Client,
    url: &str,
    dir: &Path,
    file: &str,
) -> Result<(), String> {
    let resp = client.get(url).send().await.map_err(|e| chain(&e))?;
    let status = resp.status();
    if !status.is_success() {
        return Err(format!("HTTP {status}"));
    }
    let expected = resp.content_length();
    let partial = dir.join(format!("{PARTIAL_PREFIX}{file}-{:016x}", fastrand::u64(..)));
    let result = write_body(resp, &partial, expected).await;
    let result = match result {
        Ok(()) => tokio::fs::rename(&partial, dir.join(file))
            .await
            .map_err(|e| format!("cannot move the finished file into place: {e}")),
        Err(e) => Err(e),
    };
    if result.is_err() {
        let _ = tokio::fs::remove_file(&partial).await;
    }
    result
}

async fn write_body(
    resp: reqwest::Response,
    path: &Path,
    expected: Option<u64>,
) -> Result<(), String> {
    let mut out = tokio::fs::File::create(path)
        .await
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let mut body = resp.bytes_stream();
    let mut written = 0u64;
    while let Some(chunk) = body.next().await {
        let chunk = chunk.map_err(|e| format!("the transfer broke off: {}", chain(&e)))?;
        out.write_all(&chunk)
            .await
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        written += chunk.len() as u64;
    }
    if let Some(expected) = expected
        && written != expected
    {
        return Err(format!(
            "got {written} of {expected} bytes; the transfer broke off"
        ));
    }
    if written == 0 {
        return Err("the server sent an empty file".into());
    }
    out.sync_all()
        .await
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(())
}

/// Deletes temporary files an interrupted download left in `dir`: those untouched for a
/// while (a download running in another process right now keeps writing to its own).
async fn remove_leftovers(dir: &Path) {
    const STALE: Duration = Duration::from_secs(300);
    let Ok(mut entries) = tokio::fs::read_dir(dir).await else {
        return;
    };
    while let Ok(Some(entry)) = entries.next_entry().await {
        let partial = entry
            .file_name()
            .to_string_lossy()
            .starts_with(PARTIAL_PREFIX);
        let stale = entry
            .metadata()
            .await
            .and_then(|m| m.modified())
            .is_ok_and(|t| t.elapsed().is_ok_and(|age| age > STALE));
        if partial && stale {
            let _ = tokio::fs::remove_file(entry.path()).await;
        }
    }
}

/// A reqwest error with its causes (refused, DNS, TLS, …).
fn chain(e: &reqwest::Error) -> String {
    let mut text = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        text = format!("{text}: {s}");
        source = s.source();
    }
    text
}
