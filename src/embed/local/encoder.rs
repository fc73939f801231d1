//! The BERT encoder: the same layers as candle-transformers' `BertModel`, with every dense
//! layer's weight also held as 8-bit codes (`int8.rs`: one scale per block of 32), made when
//! the model loads. A short forward pass (a query, a short fact: at most [`SHORT_TOKENS`]
//! tokens in all) runs on the 8-bit copies, anything larger on the f32 weights.
//!
//! Why both: a few tokens make each dense layer a thin matrix product that mostly reads its
//! weights (42 MB as f32, 11 MB as 8-bit codes for all-MiniLM-L6-v2), and there the 8-bit
//! products, on one thread, win: their dense layers take ~3.3 ms for 12 tokens where
//! candle's Q8_0 kernels took ~6.1 ms while keeping a second core spinning. With more tokens
//! the arithmetic dominates and candle's f32 kernels (on every core) are faster, so batches
//! and long texts (the background embedding, import) keep them. The copies cost 11 MB. The
//! embeddings, layer norms, biases and attention stay f32. The two paths' vectors agree to a
//! cosine of 0.9986 or more, 0.9996 on average (`tests/embeddings.rs` checks > 0.998, and the
//! f32 path against independent reference values; `cargo bench --bench embed` prints the
//! speeds and the agreement).

use candle_core::quantized::QMatMul;
use candle_core::{DType, Module, Result, Tensor};
use candle_nn::{Embedding, LayerNorm, VarBuilder};
use candle_transformers::models::bert::{Config, HiddenAct};

use super::int8::Int8Matrix;

/// Forward passes of at most this many tokens (rows × padded length) run on the 8-bit
/// weights: measured, the 8-bit path is faster up to about a dozen tokens and slower beyond.
pub const SHORT_TOKENS: usize = 12;

/// How the dense layers' weights are held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Weights {
    /// As stored (f32) only: the reference the 8-bit path is measured against.
    F32,
    /// f32, plus 8-bit copies for short passes (where a layer's input width is a multiple
    /// of 32, as in every BERT size). What `mneme` runs.
    F32AndQ8,
    /// 8-bit for every pass, long ones too (f32 where a layer cannot be quantized): what the
    /// tests and the bench compare with f32.
    Q8,
}

pub(super) struct Encoder {
    words: Embedding,
    positions: Embedding,
    /// Token type 0's row: every text here is one segment.
    segment: Tensor,
    norm: LayerNorm,
    layers: Vec<Layer>,
    heads: usize,
    act: HiddenAct,
}

struct Layer {
    /// Query, key and value as one `[3·hidden, hidden]` product.
    qkv: Linear,
    attention_out: Linear,
    attention_norm: LayerNorm,
    intermediate: Linear,
    out: Linear,
    out_norm: LayerNorm,
}

impl Encoder {
    /// The weights under `bert.`, the model type's prefix, or none (sentence-transformers'
    /// files have none).
    pub fn load(vb: VarBuilder, config: &Config, weights: Weights) -> Result<Self> {
        let mut prefixes = vec!["bert".to_string()];
        prefixes.extend(config.model_type.clone());
        let vb = prefixes
            .into_iter()
            .map(|p| vb.pp(p))
            .find(|vb| vb.contains_tensor("embeddings.word_embeddings.weight"))
            .unwrap_or(vb);
        let hidden = config.hidden_size;
        if config.num_attention_heads == 0 || !hidden.is_multiple_of(config.num_attention_heads) {
            candle_core::bail!(
                "hidden_size {hidden} is not a multiple of num_attention_heads {}",
                config.num_attention_heads
            );
        }
        let emb = vb.pp("embeddings");
        let embedding = |n: usize, name: &str| -> Result<Embedding> {
            Ok(Embedding::new(
                emb.get((n, hidden), &format!("{name}.weight"))?,
                hidden,
            ))
        };
        let token_types = emb.get(
            (config.type_vocab_size, hidden),
            "token_type_embeddings.weight",
        )?;
        let layers = (0..config.num_hidden_layers)
            .map(|i| Layer::load(vb.pp(format!("encoder.layer.{i}")), config, weights))
            .collect::<Result<_>>()?;
        Ok(Self {
            words: embedding(config.vocab_size, "word_embeddings")?,
            positions: embedding(config.max_position_embeddings, "position_embeddings")?,
            segment: token_types.get(0)?,
            norm: layer_norm(emb.pp("LayerNorm"), config)?,
            layers,
            heads: config.num_attention_heads,
            act: config.hidden_act,
        })
    }

    /// The last hidden state `[rows, seq_len, hidden]` of `ids` `[rows, seq_len]`, padding
    /// masked out by `mask` (1 for a token, 0 for padding).
    pub fn forward(&self, ids: &Tensor, mask: &Tensor) -> Result<Tensor> {
        let (rows, seq_len) = ids.dims2()?;
        let short = rows * seq_len <= SHORT_TOKENS;
        let positions = Tensor::arange(0u32, seq_len as u32, ids.device())?;
        let xs = self
            .words
            .forward(ids)?
            .broadcast_add(&self.positions.forward(&positions)?)?
            .broadcast_add(&self.segment)?;
        let mut xs = self.norm.forward(&xs)?;
        // 0 where attended, f32::MIN where padding: added to the scores before the softmax.
        let bias = ((mask.to_dtype(DType::F32)? - 1.0)? * f64::from(f32::MAX))?
            .unsqueeze(1)?
            .unsqueeze(1)?;
        for layer in &self.layers {
            xs = layer.forward(&xs, &bias, self.heads, self.act, short)?;
        }
        Ok(xs)
    }
}

impl Layer {
    fn load(vb: VarBuilder, config: &Config, weights: Weights) -> Result<Self> {
        let hidden = config.hidden_size;
        let inner = config.intermediate_size;
        let attention = vb.pp("attention");
        let this = attention.pp("self");
        let (mut w, mut b) = (Vec::new(), Vec::new());
        for name in ["query", "key", "value"] {
            w.push(this.pp(name).get((hidden, hidden), "weight")?);
            b.push(this.pp(name).get(hidden, "bias")?);
        }
        let qkv = linear_from(Tensor::cat(&w, 0)?, Tensor::cat(&b, 0)?, weights)?;
        Ok(Self {
            qkv,
            attention_out: linear(attention.pp("output.dense"), hidden, hidden, weights)?,
            attention_norm: layer_norm(attention.pp("output.LayerNorm"), config)?,
            intermediate: linear(vb.pp("intermediate.dense"), hidden, inner, weights)?,
            out: linear(vb.pp("output.dense"), inner, hidden, weights)?,
            out_norm: layer_norm(vb.pp("output.LayerNorm"), config)?,
        })
    }

    fn forward(
        &self,
        xs: &Tensor,
        bias: &Tensor,
        heads: usize,
        act: HiddenAct,
        short: bool,
    ) -> Result<Tensor> {
        let (rows, seq_len, hidden) = xs.dims3()?;
        let head_dim = hidden / heads;
        // [rows, seq, 3, heads, head_dim] → three [rows, heads, seq, head_dim].
        let qkv = self
            .qkv
            .forward(xs, short)?
            .reshape((rows, seq_len, 3, heads, head_dim))?;
        let part = |i: usize| {
            qkv.narrow(2, i, 1)?
                .squeeze(2)?
                .transpose(1, 2)?
                .contiguous()
        };
        let (q, k, v) = (part(0)?, part(1)?, part(2)?);
        let scores = (q.matmul(&k.t()?)? / (head_dim as f64).sqrt())?.broadcast_add(bias)?;
        let probs = candle_nn::ops::softmax_last_dim(&scores)?;
        let context = probs
            .matmul(&v)?
            .transpose(1, 2)?
            .contiguous()?
            .reshape((rows, seq_len, hidden))?;
        let xs = self
            .attention_norm
            .forward(&(self.attention_out.forward(&context, short)? + xs)?)?;
        let inner = self.intermediate.forward(&xs, short)?;
        let inner = match act {
            HiddenAct::Gelu => inner.gelu_erf()?,
            HiddenAct::GeluApproximate => inner.gelu()?,
            HiddenAct::Relu => inner.relu()?,
        };
        self.out_norm
            .forward(&(self.out.forward(&inner, short)? + xs)?)
    }
}

fn linear(vb: VarBuilder, inputs: usize, outputs: usize, weights: Weights) -> Result<Linear> {
    linear_from(
        vb.get((outputs, inputs), "weight")?,
        vb.get(outputs, "bias")?,
        weights,
    )
}

/// A dense layer `x·Wᵀ + b` with `W` held as `weights` says.
fn linear_from(weight: Tensor, bias: Tensor, weights: Weights) -> Result<Linear> {
    let int8 = |w: &Tensor| -> Result<Option<Int8Matrix>> {
        let (rows, cols) = w.dims2()?;
        Ok(Int8Matrix::quantize(
            &w.flatten_all()?.to_vec1::<f32>()?,
            rows,
            cols,
        ))
    };
    let weight = match weights {
        Weights::F32 => Dense::F32(QMatMul::Tensor(weight)),
        // A layer whose input width is not a multiple of the block stays f32.
        Weights::Q8 => match int8(&weight)? {
            Some(q) => Dense::Int8(q),
            None => Dense::F32(QMatMul::Tensor(weight)),
        },
        Weights::F32AndQ8 => match int8(&weight)? {
            Some(int8) => Dense::Both {
                int8,
                f32: QMatMul::Tensor(weight),
            },
            None => Dense::F32(QMatMul::Tensor(weight)),
        },
    };
    let bias_values = bias.to_vec1::<f32>()?;
    Ok(Linear {
        weight,
        bias,
        bias_values,
    })
}

/// `x·Wᵀ + b`.
struct Linear {
    weight: Dense,
    bias: Tensor,
    /// `bias` as values, for the 8-bit product (which adds it itself).
    bias_values: Vec<f32>,
}

/// A dense layer's `W`: as f32, as 8-bit codes, or both (the codes for short passes).
enum Dense {
    F32(QMatMul),
    Int8(Int8Matrix),
    Both { f32: QMatMul, int8: Int8Matrix },
}

impl Linear {
    fn forward(&self, xs: &Tensor, short: bool) -> Result<Tensor> {
        let f32 = match &self.weight {
            Dense::Both { int8, .. } if short => return self.forward_int8(int8, xs),
            Dense::Int8(int8) => return self.forward_int8(int8, xs),
            Dense::Both { f32, .. } | Dense::F32(f32) => f32,
        };
        f32.forward(xs)?.broadcast_add(&self.bias)
    }

    fn forward_int8(&self, int8: &Int8Matrix, xs: &Tensor) -> Result<Tensor> {
        let mut shape = xs.dims().to_vec();
        match shape.last_mut() {
            Some(last) if *last == int8.cols() => *last = int8.rows(),
            _ => candle_core::bail!(
                "a dense layer of {} inputs was given {:?}",
                int8.cols(),
                xs.dims()
            ),
        }
        let out = int8.matmul(&xs.flatten_all()?.to_vec1::<f32>()?, &self.bias_values);
        Tensor::from_vec(out, shape, xs.device())
    }
}

fn layer_norm(vb: VarBuilder, config: &Config) -> Result<LayerNorm> {
    let size = config.hidden_size;
    Ok(LayerNorm::new(
        vb.get(size, "weight")?,
        vb.get(size, "bias")?,
        config.layer_norm_eps,
    ))
}
