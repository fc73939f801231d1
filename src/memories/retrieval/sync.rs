//! Keeping vectors up to date, in the background: every memory the triggers queued (new,
//! reworded, or all of them after a model change) is embedded in batches, off the reply path.
//! The queue is a table, so a backfill interrupted by a restart resumes where it stopped; an
//! embedder that fails backs off and retries, and meanwhile search simply has fewer vectors.

use std::time::Duration;

use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::Retriever;
use crate::base::bug::contained;

/// Memories embedded per call.
pub const BATCH: usize = 32;
/// How often an idle sync looks at the queue for memories written by another process.
const IDLE_POLL: Duration = Duration::from_secs(5);
/// First and longest wait after the embedder failed.
const BACKOFF_START: Duration = Duration::from_secs(2);
const BACKOFF_MAX: Duration = Duration::from_secs(300);

/// What a round of embedding did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Synced {
    pub embedded: usize,
    /// Queued memories left (another process may add more meanwhile).
    pub left: i64,
}

/// Queues every active memory lacking a vector from the embedder's model at its dimension
/// (a new model or dimension re-embeds everything). Embeds one probe text to learn the
/// dimension. Returns how many were queued.
pub async fn queue_stale(retriever: &Retriever) -> Result<u64, String> {
    let Some(embedder) = retriever.embedder() else {
        return Ok(0);
    };
    let probe = retriever
        .embed_one("dimension probe")
        .await?
        .ok_or("no embedder")?;
    retriever
        .store()
        .queue_stale_embeddings(embedder.model(), probe.len())
        .await
        .map_err(|e| e.to_string())
}

/// Embeds queued memories, a batch at a time, until the queue is empty or `max` are done.
/// Stops at the first failure (what was stored stays).
pub async fn embed_pending(retriever: &Retriever, max: usize) -> Result<Synced, String> {
    let Some(embedder) = retriever.embedder() else {
        return Ok(Synced::default());
    };
    let store = retriever.store();
    let mut done = Synced::default();
    while done.embedded < max {
        let batch = store
            .pending_embeddings(BATCH.min(max - done.embedded))
            .await
            .map_err(|e| e.to_string())?;
        if batch.is_empty() {
            break;
        }
        let texts: Vec<String> = batch.iter().map(|p| p.content.clone()).collect();
        let vectors = embedder.embed(&texts).await.map_err(|e| e.to_string())?;
        if vectors.len() != batch.len() {
            return Err(format!(
                "the embedder returned {} vectors for {} texts",
                vectors.len(),
                batch.len()
            ));
        }
        let items: Vec<_> = batch.into_iter().zip(vectors).collect();
        store
            .store_embeddings(embedder.model(), &items)
            .await
            .map_err(|e| e.to_string())?;
        // Counted as handled even when a memory changed meanwhile (it is queued again).
        done.embedded += items.len();
    }
    done.left = store
        .embedding_queue_len()
        .await
        .map_err(|e| e.to_string())?;
    Ok(done)
}

/// Runs the sync until `shutdown`: queue what is stale, then embed the queue whenever it has
/// something. `None` without an embedder.
pub fn spawn(retriever: Retriever, shutdown: CancellationToken) -> Option<JoinHandle<()>> {
    retriever.embedder()?;
    Some(tokio::spawn(async move {
        run(&retriever, &shutdown).await;
    }))
}

async fn run(retriever: &Retriever, shutdown: &CancellationToken) {
    let mut backoff = BACKOFF_START;
    let model = retriever
        .embedder()
        .map(|e| format!("{}:{}", e.provider(), e.model()))
        .unwrap_or_default();
    // First learn the dimension and queue what the current model has not embedded.
    loop {
        let attempt = tokio::select! {
            r = contained("queueing memories to embed", queue_stale(retriever)) => {
                r.unwrap_or_else(|bug| Err(bug.to_string()))
            }
            () = shutdown.cancelled() => return,
        };
        match attempt {
            Ok(n) => {
                if n > 0 {
                    tracing::info!(model = %model, memories = n, "embedding memories that have no vector from this model yet");
                }
                break;
            }
            Err(e) => {
                tracing::warn!(model = %model, error = %e, retry_in_s = backoff.as_secs(), "embeddings unavailable; memory search uses keywords until they work");
                if !pause(shutdown, backoff).await {
                    return;
                }
                backoff = (backoff * 2).min(BACKOFF_MAX);
            }
        }
    }
    backoff = BACKOFF_START;
    loop {
        let round = tokio::select! {
            r = contained("embedding memories", embed_pending(retriever, BATCH * 8)) => {
                r.unwrap_or_else(|bug| Err(bug.to_string()))
            }
            () = shutdown.cancelled() => return,
        };
        match round {
            Ok(s) if s.embedded > 0 => {
                backoff = BACKOFF_START;
                tracing::debug!(embedded = s.embedded, left = s.left, "embeddings synced");
                if s.left > 0 {
                    continue;
                }
            }
            Ok(_) => backoff = BACKOFF_START,
            Err(e) => {
                tracing::warn!(model = %model, error = %e, retry_in_s = backoff.as_secs(), "embedding memories failed; will retry");
                if !pause(shutdown, backoff).await {
                    return;
                }
                backoff = (backoff * 2).min(BACKOFF_MAX);
                continue;
            }
        }
        tokio::select! {
            () = retriever.inner.written.notified() => {}
            () = tokio::time::sleep(IDLE_POLL) => {}
            () = shutdown.cancelled() => return,
        }
    }
}

/// Waits `d` unless shut down first; false on shutdown.
async fn pause(shutdown: &CancellationToken, d: Duration) -> bool {
    tokio::select! {
        () = tokio::time::sleep(d) => true,
        () = shutdown.cancelled() => false,
    }
}
