//! `embedding_provider: local`: a sentence-transformers BERT model in-process. Texts are
//! tokenized, grouped by length into batches, run through the model on blocking threads,
//! mean-pooled over the attention mask and L2-normalised — what sentence-transformers does.

mod bert;
mod encoder;
mod int8;
mod pool;

use std::path::Path;
use std::sync::Arc;

use async_trait::async_trait;

pub use bert::MAX_TOKENS;
pub use encoder::Weights;

use super::{EmbedError, Embedder};
use bert::Bert;

/// Texts per forward pass: large enough to use the matrix kernels well, small enough that a
/// batch of 256-token texts needs only ~100 MB of attention scores.
pub const BATCH: usize = 32;

/// Fixes the number of threads candle computes with, once, before any thread starts.
///
/// candle asks how many threads to use at every matrix product it hands to its f32 kernels,
/// and unless `RAYON_NUM_THREADS` is set that question reads and parses `/proc/cpuinfo`: about
/// a dozen times per embedded text, 0.5 ms of a short text's 4.5 ms. Setting the variable to
/// the answer candle would give (when the operator has not set it) keeps its choice and skips
/// the reads.
///
/// # Safety
///
/// Changes the process environment: call it while the process has one thread, first thing
/// in `main`, before any runtime or thread pool exists.
pub unsafe fn pin_thread_count() {
    const VAR: &str = "RAYON_NUM_THREADS";
    if std::env::var_os(VAR).is_some_and(|v| !v.is_empty()) {
        return;
    }
    let threads = candle_core::utils::get_num_threads();
    // SAFETY: the caller guarantees no other thread exists to read the environment meanwhile.
    unsafe { std::env::set_var(VAR, threads.to_string()) };
}

pub struct LocalEmbedder {
    bert: Arc<Bert>,
    name: String,
}

impl LocalEmbedder {
    /// Loads the model in `dir` (`config.json`, `tokenizer.json`, `model.safetensors`);
    /// `name` is what [`Embedder::model`] reports.
    pub async fn load(dir: &Path, name: String) -> Result<Self, EmbedError> {
        Self::load_with(dir, name, Weights::F32AndQ8).await
    }

    /// [`LocalEmbedder::load`] with the dense weights held as `weights` says (benches compare
    /// the 8-bit model with the f32 one).
    pub async fn load_with(dir: &Path, name: String, weights: Weights) -> Result<Self, EmbedError> {
        let dir = dir.to_path_buf();
        let bert = tokio::task::spawn_blocking(move || Bert::load(&dir, weights))
            .await
            .map_err(|e| EmbedError::Inference(format!("loading the model stopped: {e}")))??;
        tracing::info!(
            model = %name,
            dim = bert.dim,
            max_tokens = bert.max_tokens,
            "local embedding model loaded"
        );
        Ok(Self {
            bert: Arc::new(bert),
            name,
        })
    }

    /// Length of every vector (384 for all-MiniLM-L6-v2).
    pub fn dimension(&self) -> usize {
        self.bert.dim
    }

    /// Tokens of a text that count; the rest is cut.
    pub fn max_tokens(&self) -> usize {
        self.bert.max_tokens
    }
}

#[async_trait]
impl Embedder for LocalEmbedder {
    fn provider(&self) -> &'static str {
        "local"
    }

    fn model(&self) -> &str {
        &self.name
    }

    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let bert = self.bert.clone();
        let texts = texts.to_vec();
        tokio::task::spawn_blocking(move || embed_all(&bert, &texts))
            .await
            .map_err(|e| EmbedError::Inference(format!("the model stopped: {e}")))?
    }
}

/// Every text's vector, in the order given, computed batch by batch.
fn embed_all(bert: &Bert, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
    let tokens = bert.tokenize(texts)?;
    let lengths: Vec<usize> = tokens.iter().map(Vec::len).collect();
    let mut out: Vec<Vec<f32>> = vec![Vec::new(); texts.len()];
    for batch in pool::batches_by_length(&lengths, BATCH) {
        let rows: Vec<&[u32]> = batch.iter().map(|&i| tokens[i].as_slice()).collect();
        for (i, vector) in batch.into_iter().zip(bert.embed_batch(&rows)?) {
            out[i] = vector;
        }
    }
    Ok(out)
}
