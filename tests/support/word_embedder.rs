//! A deterministic embedder for testing the embedding plumbing (queue, backfill, index,
//! cosine dedup) without a model: each text becomes a bag of its terms hashed into 64
//! dimensions, after mapping a few synonyms onto one word, so "puppy called Rex" and "dog
//! named Rex" embed identically while sharing few terms. Real embeddings are tested against
//! the local model files in tests/embeddings.rs and tests/retrieval_model.rs.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use async_trait::async_trait;
use mneme::embed::{EmbedError, Embedder, l2_normalize};

pub const DIM: usize = 64;

const SYNONYMS: &[(&str, &str)] = &[
    ("puppy", "dog"),
    ("called", "named"),
    ("owns", "has"),
    ("hound", "dog"),
    ("city", "town"),
];

pub struct WordEmbedder {
    model: String,
    dim: usize,
    /// When set, every call fails (an embedder that is down).
    pub failing: AtomicBool,
    /// Texts embedded so far.
    pub embedded: AtomicUsize,
}

impl WordEmbedder {
    pub fn new(model: &str) -> Self {
        Self::with_dim(model, DIM)
    }

    pub fn with_dim(model: &str, dim: usize) -> Self {
        Self {
            model: model.into(),
            dim,
            failing: AtomicBool::new(false),
            embedded: AtomicUsize::new(0),
        }
    }

    pub fn vector(&self, text: &str) -> Vec<f32> {
        let mut v = vec![0.0f32; self.dim];
        for term in mneme::memory::text::terms(text) {
            let word = SYNONYMS
                .iter()
                .find(|(from, _)| *from == term)
                .map_or(term.as_str(), |(_, to)| to);
            // FNV-1a: stable across runs and platforms
            let mut h: u64 = 0xcbf29ce484222325;
            for b in word.bytes() {
                h = (h ^ u64::from(b)).wrapping_mul(0x100000001b3);
            }
            v[(h % self.dim as u64) as usize] += 1.0;
        }
        l2_normalize(&mut v);
        v
    }
}

#[async_trait]
impl Embedder for WordEmbedder {
    fn provider(&self) -> &'static str {
        "test"
    }

    fn model(&self) -> &str {
        &self.model
    }

    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        if self.failing.load(Ordering::SeqCst) {
            return Err(EmbedError::Inference("the test embedder is down".into()));
        }
        self.embedded.fetch_add(texts.len(), Ordering::SeqCst);
        Ok(texts.iter().map(|t| self.vector(t)).collect())
    }
}
