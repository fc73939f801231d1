//! A BERT sentence-transformers model on the CPU: the encoder of [`super::encoder`] (f32
//! dense weights, with 8-bit copies for short passes) and the tokenizer from `tokenizer.json`.
//! Blocking; the caller runs it off the async runtime.

use std::path::Path;

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::Config as BertConfig;
use serde::Deserialize;
use tokenizers::{Tokenizer, TruncationParams};

use super::encoder::{Encoder, Weights};
use super::pool;
use crate::config::model_files;
use crate::embed::{EmbedError, l2_normalize};

/// Tokens per text when the folder has no `sentence_bert_config.json`: all-MiniLM-L6-v2's
/// `max_seq_length` (it was trained on 128 and tuned to 256; longer texts are cut).
pub const MAX_TOKENS: usize = 256;

pub(super) struct Bert {
    model: Encoder,
    tokenizer: Tokenizer,
    pad_id: u32,
    pub dim: usize,
    pub max_tokens: usize,
}

impl Bert {
    /// Reads `config.json`, `tokenizer.json` and `model.safetensors` from `dir`; the dense
    /// layers' weights are held as `weights` says.
    pub fn load(dir: &Path, weights: Weights) -> Result<Self, EmbedError> {
        let bad = |detail: String| EmbedError::Model {
            dir: dir.to_path_buf(),
            detail,
        };
        let missing = model_files::missing_files(dir);
        if !missing.is_empty() {
            return Err(EmbedError::MissingFiles {
                dir: dir.to_path_buf(),
                missing,
                hint: "copy them there from the model's Hugging Face repository (or leave embedding_model empty to have all-MiniLM-L6-v2 downloaded)".into(),
            });
        }
        let config: BertConfig = read_json(dir, "config.json").map_err(&bad)?;
        let kind: ModelKind = read_json(dir, "config.json").map_err(&bad)?;
        if let Some(other) = kind.model_type.filter(|t| t != "bert") {
            return Err(bad(format!(
                "config.json says model_type `{other}`; only BERT models (model_type `bert`, like all-MiniLM-L6-v2 or all-MiniLM-L12-v2) can run locally"
            )));
        }
        check_pooling(dir).map_err(&bad)?;
        let max_tokens = max_tokens(dir, config.max_position_embeddings).map_err(&bad)?;

        let mut tokenizer = Tokenizer::from_file(dir.join("tokenizer.json"))
            .map_err(|e| bad(format!("tokenizer.json: {e}")))?;
        // tokenizer.json of all-MiniLM-L6-v2 pads every text to 128 and cuts at 128: pad per
        // batch instead (pooling reads the mask) and cut where the model was tuned.
        tokenizer.with_padding(None);
        tokenizer
            .with_truncation(Some(TruncationParams {
                max_length: max_tokens,
                ..TruncationParams::default()
            }))
            .map_err(|e| bad(format!("tokenizer.json: {e}")))?;
        let vocab = tokenizer.get_vocab_size(true);
        if vocab > config.vocab_size {
            return Err(bad(format!(
                "tokenizer.json has {vocab} tokens but config.json's vocab_size is {}: the files are not of one model",
                config.vocab_size
            )));
        }

        let weights_path = dir.join("model.safetensors");
        let bytes = std::fs::read(&weights_path)
            .map_err(|e| bad(format!("{}: {e}", weights_path.display())))?;
        let vb = VarBuilder::from_buffered_safetensors(bytes, DType::F32, &Device::Cpu)
            .map_err(|e| bad(format!("model.safetensors: {e}")))?;
        let model = Encoder::load(vb, &config, weights).map_err(|e| {
            bad(format!(
                "model.safetensors does not hold the BERT weights config.json describes: {e}"
            ))
        })?;
        Ok(Self {
            model,
            tokenizer,
            pad_id: config.pad_token_id as u32,
            dim: config.hidden_size,
            max_tokens,
        })
    }

    /// Token ids of each text ([CLS] … [SEP]), cut at `max_tokens`.
    pub fn tokenize(&self, texts: &[String]) -> Result<Vec<Vec<u32>>, EmbedError> {
        texts
            .iter()
            .map(|t| {
                self.tokenizer
                    .encode_fast(t.as_str(), true)
                    .map(|e| e.get_ids().to_vec())
                    .map_err(|e| EmbedError::Inference(format!("tokenizing: {e}")))
            })
            .collect()
    }

    /// The normalised sentence embeddings of one batch of tokenized texts.
    pub fn embed_batch(&self, rows: &[&[u32]]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let batch = pool::pad(rows, self.pad_id);
        if batch.rows == 0 {
            return Ok(Vec::new());
        }
        let hidden = self
            .forward(&batch)
            .map_err(|e| EmbedError::Inference(e.to_string()))?;
        let mut pooled = pool::mean_pool(&hidden, &batch.mask, batch.seq_len, self.dim);
        pooled.iter_mut().for_each(|v| l2_normalize(v));
        Ok(pooled)
    }

    /// The last hidden state, row-major `[rows, seq_len, dim]`.
    fn forward(&self, batch: &pool::Padded) -> candle_core::Result<Vec<f32>> {
        let shape = (batch.rows, batch.seq_len);
        let ids = Tensor::from_slice(&batch.ids, shape, &Device::Cpu)?;
        let mask = Tensor::from_slice(&batch.mask, shape, &Device::Cpu)?;
        let hidden = self.model.forward(&ids, &mask)?;
        hidden.flatten_all()?.to_vec1::<f32>()
    }
}

#[derive(Deserialize)]
struct ModelKind {
    model_type: Option<String>,
}

/// `max_seq_length` from `sentence_bert_config.json` when the folder has one, else
/// [`MAX_TOKENS`]; never more than the model's position embeddings.
fn max_tokens(dir: &Path, positions: usize) -> Result<usize, String> {
    #[derive(Deserialize)]
    struct SentenceBert {
        max_seq_length: usize,
    }
    const NAME: &str = "sentence_bert_config.json";
    let wanted = if dir.join(NAME).is_file() {
        read_json::<SentenceBert>(dir, NAME)?.max_seq_length
    } else {
        MAX_TOKENS
    };
    Ok(wanted.min(positions).max(2))
}

/// A folder from a sentence-transformers checkout says how it pools in
/// `1_Pooling/config.json`; only mean pooling is implemented (CLS pooling, as BGE models use,
/// would give vectors that look fine and rank badly). No such file: mean, as the default.
fn check_pooling(dir: &Path) -> Result<(), String> {
    #[derive(Deserialize)]
    struct Pooling {
        #[serde(default)]
        pooling_mode_mean_tokens: bool,
    }
    const NAME: &str = "1_Pooling/config.json";
    if dir.join(NAME).is_file() && !read_json::<Pooling>(dir, NAME)?.pooling_mode_mean_tokens {
        return Err(
            "1_Pooling/config.json asks for another pooling than the mean of the tokens; only mean pooling is supported"
                .into(),
        );
    }
    Ok(())
}

/// `dir/name` parsed; errors start with `name`.
fn read_json<T: serde::de::DeserializeOwned>(dir: &Path, name: &str) -> Result<T, String> {
    let text = std::fs::read_to_string(dir.join(name)).map_err(|e| format!("{name}: {e}"))?;
    serde_json::from_str(&text).map_err(|e| format!("{name}: {e}"))
}
