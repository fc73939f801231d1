//! Ollama's native embeddings endpoint: `POST {base}/api/embed` (Ollama 0.3.4 or newer).

use async_trait::async_trait;
use serde_json::{Value, json};

use super::openai::floats;
use super::remote::{Remote, base_or, in_batches, or_default};
use super::{EmbedError, Embedder, vectors};
use crate::llm::HttpSettings;

pub const DEFAULT_BASE_URL: &str = "http://127.0.0.1:11434";
pub const DEFAULT_MODEL: &str = "nomic-embed-text";
/// Inputs per request: Ollama runs them one model batch after another anyway; this keeps
/// each request short enough to stay within the timeout on a slow machine.
pub const BATCH: usize = 32;

pub struct OllamaEmbedder {
    remote: Remote,
    model: String,
    /// `embedding_dim`: checked against what the model returns when not 0.
    dimensions: u32,
}

impl OllamaEmbedder {
    /// Empty `base_url` and `model` mean Ollama on this machine and `nomic-embed-text`.
    /// `api_key`, when set, is sent as a bearer token (for Ollama behind a proxy).
    pub fn new(
        base_url: &str,
        api_key: &str,
        model: &str,
        dimensions: u32,
        settings: HttpSettings,
    ) -> Result<Self, EmbedError> {
        let url = format!("{}/api/embed", base_or(base_url, DEFAULT_BASE_URL));
        Ok(Self {
            remote: Remote::new("ollama embeddings", url, api_key, settings)?,
            model: or_default(model, DEFAULT_MODEL).to_string(),
            dimensions,
        })
    }

    async fn embed_batch(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let answer = self
            .remote
            .post_json(&json!({"model": self.model, "input": texts}))
            .await?;
        let found = parse(&answer).map_err(|e| self.remote.invalid(e))?;
        vectors::checked(
            "ollama",
            &self.model,
            texts.len(),
            self.dimensions as usize,
            found,
        )
    }
}

#[async_trait]
impl Embedder for OllamaEmbedder {
    fn provider(&self) -> &'static str {
        "ollama"
    }

    fn model(&self) -> &str {
        &self.model
    }

    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        in_batches(texts, BATCH, |batch| self.embed_batch(batch)).await
    }
}

/// `{"embeddings": [[…], …]}`, in the order of the inputs.
fn parse(answer: &Value) -> Result<Vec<Vec<f32>>, String> {
    answer
        .get("embeddings")
        .and_then(Value::as_array)
        .ok_or("no `embeddings` array (is this Ollama 0.3.4 or newer?)")?
        .iter()
        .enumerate()
        .map(|(i, v)| floats(Some(v)).map_err(|e| format!("embeddings[{i}]: {e}")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_reads_embeddings_in_order() {
        let answer = json!({"model": "m", "embeddings": [[1.0, 2.0], [3.0, 4.0]]});
        assert_eq!(parse(&answer).unwrap(), [vec![1.0, 2.0], vec![3.0, 4.0]]);
        assert!(
            parse(&json!({"embedding": [1.0]}))
                .unwrap_err()
                .contains("no `embeddings`")
        );
        assert!(
            parse(&json!({"embeddings": [[1.0], [null]]}))
                .unwrap_err()
                .starts_with("embeddings[1]")
        );
    }
}
