//! Text embeddings for memory retrieval: one vector per text, L2-normalised, from one of
//! three providers behind the [`Embedder`] trait.
//!
//! - `local` ([`LocalEmbedder`]): a BERT sentence-transformers model (all-MiniLM-L6-v2 by
//!   default) run in-process with candle; its files live in `<data_dir>/models/…` and are
//!   fetched once (`config::model_files`, `fetch`), or in a folder `embedding_model` names.
//! - `openai` ([`OpenAiEmbedder`]): any OpenAI-compatible `POST /embeddings`.
//! - `ollama` ([`OllamaEmbedder`]): Ollama's `POST /api/embed`.
//!
//! Remote providers share the LLM client's HTTP layer (timeouts, retries on 429/5xx, key
//! redaction); [`vectors`] checks what comes back before anyone stores it.

#[cfg(feature = "local-embeddings")]
mod fetch;
#[cfg(feature = "local-embeddings")]
mod local;

mod ollama;
mod openai;
mod remote;
mod vectors;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

pub use crate::config::model_files::{DEFAULT_LOCAL_MODEL, LocalModel, MODEL_FILES};
#[cfg(feature = "local-embeddings")]
pub use local::{LocalEmbedder, MAX_TOKENS, Weights as LocalWeights, pin_thread_count};
pub use ollama::OllamaEmbedder;
pub use openai::OpenAiEmbedder;
pub use vectors::l2_normalize;

use crate::config::Config;
use crate::llm::{HttpSettings, LlmError};

/// What can go wrong getting embeddings. Messages say what to do and never carry a key.
#[derive(Debug, thiserror::Error)]
pub enum EmbedError {
    /// A setting this build or provider cannot work with.
    #[error("{key}: {message}")]
    Config { key: &'static str, message: String },
    /// The embedding server failed, timed out or answered something unreadable.
    #[error("{cause} (POST {url})")]
    Remote { url: String, cause: LlmError },
    /// Vectors of another length than `embedding_dim` asks for.
    #[error(
        "{provider} embeddings: the model `{model}` returned {got}-dimensional vectors but embedding_dim is {expected}; set embedding_dim to {got} (or 0 to take what the model gives)"
    )]
    Dimension {
        provider: &'static str,
        model: String,
        expected: usize,
        got: usize,
    },
    /// An answer that parsed but cannot be used: too few vectors, empty, NaN, mixed lengths.
    #[error("{provider} embeddings: unusable answer: {detail}")]
    InvalidVectors {
        provider: &'static str,
        detail: String,
    },
    /// The local model's folder lacks files.
    #[error("local embeddings: {} lacks {}; {hint}", dir.display(), missing.join(", "))]
    MissingFiles {
        dir: PathBuf,
        missing: Vec<&'static str>,
        hint: String,
    },
    /// Fetching the default local model failed; nothing half-written was left behind.
    #[error(
        "local embeddings: cannot download {file} from {url}: {detail}. Put config.json, tokenizer.json and model.safetensors of all-MiniLM-L6-v2 into {} yourself, or set embedding_base_url to a server that has them",
        dir.display()
    )]
    Download {
        file: &'static str,
        url: String,
        dir: PathBuf,
        detail: String,
    },
    /// The local model's files are there but cannot be read or do not fit together.
    #[error("local embeddings: cannot load the model in {}: {detail}", dir.display())]
    Model { dir: PathBuf, detail: String },
    /// The local model failed while running (a bug or an exhausted machine, not bad input).
    #[error("local embeddings: inference failed: {0}")]
    Inference(String),
}

#[async_trait::async_trait]
pub trait Embedder: Send + Sync {
    /// `local`, `openai` or `ollama`.
    fn provider(&self) -> &'static str;
    /// The model's name as stored beside every vector (e.g. `all-MiniLM-L6-v2`,
    /// `text-embedding-3-small`). A different name than the stored one means re-embedding.
    fn model(&self) -> &str;
    /// One vector per text, in order; each L2-normalised (so cosine = dot product), all the
    /// same dimension. Any number of texts: implementations batch internally.
    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError>;
}

/// The embedder the config names; `Ok(None)` for `embedding_provider: none`.
///
/// For `local` this loads the model (and, the first time, downloads all-MiniLM-L6-v2 into
/// `<data_dir>/models/`), which takes a second or more: call it once at start-up.
pub async fn from_config(config: &Config) -> Result<Option<Arc<dyn Embedder>>, EmbedError> {
    let settings = HttpSettings {
        timeout: Duration::from_secs(config.llm_timeout_secs),
        max_retries: config.llm_max_retries,
        ..HttpSettings::default()
    };
    let base = config.embedding_base_url.trim();
    let key = config.embedding_api_key.expose().trim();
    let model = config.embedding_model.trim();
    let dim = config.embedding_dim;
    let embedder: Arc<dyn Embedder> = match config.embedding_provider.as_str() {
        "none" => return Ok(None),
        "openai" => Arc::new(OpenAiEmbedder::new(base, key, model, dim, settings)?),
        "ollama" => Arc::new(OllamaEmbedder::new(base, key, model, dim, settings)?),
        "local" => local_from_config(config).await?,
        other => {
            return Err(EmbedError::Config {
                key: "embedding_provider",
                message: format!("must be one of none, openai, ollama, local; got `{other}`"),
            });
        }
    };
    Ok(Some(embedder))
}

#[cfg(feature = "local-embeddings")]
async fn local_from_config(config: &Config) -> Result<Arc<dyn Embedder>, EmbedError> {
    let model = LocalModel::from_config(config);
    if let LocalModel::Default { dir } = &model {
        fetch::ensure_default_model(dir, config.embedding_base_url.trim()).await?;
    }
    let embedder = LocalEmbedder::load(model.dir(), model.name()).await?;
    let expected = config.embedding_dim as usize;
    if expected != 0 && expected != embedder.dimension() {
        return Err(EmbedError::Dimension {
            provider: "local",
            model: model.name(),
            expected,
            got: embedder.dimension(),
        });
    }
    Ok(Arc::new(embedder))
}

#[cfg(not(feature = "local-embeddings"))]
async fn local_from_config(_config: &Config) -> Result<Arc<dyn Embedder>, EmbedError> {
    Err(EmbedError::Config {
        key: "embedding_provider",
        message: crate::config::model_files::NOT_BUILT.to_string(),
    })
}
