//! Embedding providers behind one trait. (The providers themselves arrive with the `embed`
//! branch; until then only `none` is available.)

use std::sync::Arc;

use async_trait::async_trait;

use crate::config::Config;

#[derive(Debug, thiserror::Error)]
pub enum EmbedError {
    #[error("embedding_provider `{0}` is not available in this build")]
    Unavailable(String),
    #[error("{0}")]
    Other(String),
}

#[async_trait]
pub trait Embedder: Send + Sync {
    /// `local`, `openai` or `ollama`.
    fn provider(&self) -> &'static str;
    /// The model's name as stored beside every vector.
    fn model(&self) -> &str;
    /// One L2-normalised vector per text, in order.
    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError>;
}

/// Scales `v` to unit length (a zero vector stays zero).
pub fn l2_normalize(v: &mut [f32]) {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        v.iter_mut().for_each(|x| *x /= norm);
    }
}

/// The embedder the config names; `Ok(None)` for `embedding_provider: none`.
pub async fn from_config(config: &Config) -> Result<Option<Arc<dyn Embedder>>, EmbedError> {
    match config.embedding_provider.as_str() {
        "none" | "" => Ok(None),
        other => Err(EmbedError::Unavailable(other.to_string())),
    }
}
