//! Any OpenAI-compatible embeddings endpoint: `POST {base}/embeddings`.

use async_trait::async_trait;
use serde_json::{Value, json};

use super::remote::{Remote, base_or, in_batches, or_default};
use super::{EmbedError, Embedder, vectors};
use crate::llm::HttpSettings;

pub const DEFAULT_BASE_URL: &str = "https://api.openai.com/v1";
pub const DEFAULT_MODEL: &str = "text-embedding-3-small";
/// Inputs per request: well under OpenAI's 2048, and small enough that a batch of long
/// memories stays under its 300k tokens per request.
pub const BATCH: usize = 96;

pub struct OpenAiEmbedder {
    remote: Remote,
    model: String,
    /// `embedding_dim`: sent as `dimensions` and checked when not 0.
    dimensions: u32,
}

impl OpenAiEmbedder {
    /// Empty `base_url` and `model` mean OpenAI's own API and `text-embedding-3-small`.
    pub fn new(
        base_url: &str,
        api_key: &str,
        model: &str,
        dimensions: u32,
        settings: HttpSettings,
    ) -> Result<Self, EmbedError> {
        let url = format!("{}/embeddings", base_or(base_url, DEFAULT_BASE_URL));
        Ok(Self {
            remote: Remote::new("openai embeddings", url, api_key, settings)?,
            model: or_default(model, DEFAULT_MODEL).to_string(),
            dimensions,
        })
    }

    async fn embed_batch(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let mut body = json!({"model": self.model, "input": texts});
        if self.dimensions > 0 {
            body["dimensions"] = json!(self.dimensions);
        }
        let answer = self.remote.post_json(&body).await?;
        let found = parse(&answer, texts.len()).map_err(|e| self.remote.invalid(e))?;
        vectors::checked(
            "openai",
            &self.model,
            texts.len(),
            self.dimensions as usize,
            found,
        )
    }
}

#[async_trait]
impl Embedder for OpenAiEmbedder {
    fn provider(&self) -> &'static str {
        "openai"
    }

    fn model(&self) -> &str {
        &self.model
    }

    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        in_batches(texts, BATCH, |batch| self.embed_batch(batch)).await
    }
}

/// `data[].embedding`, put in the order of each item's `index` (the API does not promise
/// the order of `data`). Every index from 0 to `count - 1` must be there exactly once.
fn parse(answer: &Value, count: usize) -> Result<Vec<Vec<f32>>, String> {
    let data = answer
        .get("data")
        .and_then(Value::as_array)
        .ok_or("no `data` array")?;
    let mut slots: Vec<Option<Vec<f32>>> = vec![None; count];
    for (i, item) in data.iter().enumerate() {
        let index = match item.get("index") {
            None => i,
            Some(v) => v
                .as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| format!("data[{i}].index is not a whole number"))?,
        };
        let slot = slots
            .get_mut(index)
            .ok_or_else(|| format!("data[{i}].index is {index}, but {count} texts were sent"))?;
        if slot.is_some() {
            return Err(format!("index {index} appears twice in `data`"));
        }
        *slot =
            Some(floats(item.get("embedding")).map_err(|e| format!("data[{i}].embedding: {e}"))?);
    }
    slots
        .into_iter()
        .enumerate()
        .map(|(i, v)| v.ok_or_else(|| format!("no embedding for text {i} in `data`")))
        .collect()
}

/// A JSON array of numbers as `f32`s.
pub(super) fn floats(v: Option<&Value>) -> Result<Vec<f32>, String> {
    let items = v
        .and_then(Value::as_array)
        .ok_or("not an array of numbers")?;
    items
        .iter()
        .map(|x| {
            x.as_f64()
                .map(|f| f as f32)
                .ok_or_else(|| format!("`{x}` in the embedding is not a number"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_orders_by_index() {
        let answer = json!({"data": [
            {"index": 1, "embedding": [0.0, 1.0]},
            {"index": 0, "embedding": [1.0, 0.0]},
        ]});
        assert_eq!(parse(&answer, 2).unwrap(), [vec![1.0, 0.0], vec![0.0, 1.0]]);
    }

    #[test]
    fn parse_refuses_missing_duplicate_or_foreign_indexes() {
        let one = |index: u64| json!({"index": index, "embedding": [1.0]});
        let e = parse(&json!({"data": [one(0)]}), 2).unwrap_err();
        assert!(e.contains("no embedding for text 1"), "{e}");
        let e = parse(&json!({"data": [one(0), one(0)]}), 2).unwrap_err();
        assert!(e.contains("appears twice"), "{e}");
        let e = parse(&json!({"data": [one(0), one(5)]}), 2).unwrap_err();
        assert!(e.contains("index is 5, but 2 texts"), "{e}");
        let e = parse(&json!({"object": "list"}), 1).unwrap_err();
        assert!(e.contains("no `data`"), "{e}");
        let e = parse(&json!({"data": [{"index": 0, "embedding": "AAAA"}]}), 1).unwrap_err();
        assert!(e.contains("data[0].embedding: not an array"), "{e}");
        let e = parse(&json!({"data": [{"index": 0, "embedding": [1, "x"]}]}), 1).unwrap_err();
        assert!(e.contains("not a number"), "{e}");
    }
}
