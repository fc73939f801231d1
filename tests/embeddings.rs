//! The local embedding model with the real all-MiniLM-L6-v2 files: correctness against
//! independently computed values, ranking, batching, truncation, loading errors, and the
//! one-time download against a fake file server.
//!
//! The model files are found by `support::fake_embeddings::test_model_dir` (see there); without
//! them these tests skip, or fail under CI.

#![cfg(feature = "local-embeddings")]

mod support;

use std::path::Path;
use std::sync::Arc;

use mneme::config::Config;
use mneme::embed::{EmbedError, Embedder, LocalEmbedder, LocalWeights};
use support::fake_embeddings::{Fault, ModelServer, test_model_dir};
use tokio::sync::OnceCell;

/// The model as `mneme` runs it (its default: f32 weights, 8-bit copies for short passes),
/// loaded once for the whole test binary.
async fn model() -> Option<Arc<LocalEmbedder>> {
    static MODEL: OnceCell<Arc<LocalEmbedder>> = OnceCell::const_new();
    loaded_once(&MODEL, None).await
}

/// The same model with its weights as stored (f32) only: what the reference values check
/// exactly.
async fn exact_model() -> Option<Arc<LocalEmbedder>> {
    static MODEL: OnceCell<Arc<LocalEmbedder>> = OnceCell::const_new();
    loaded_once(&MODEL, Some(LocalWeights::F32)).await
}

/// The test model in `cell`, loaded on first use with `weights` (`None`: `LocalEmbedder::load`'s
/// default); `None` without the model files.
async fn loaded_once(
    cell: &'static OnceCell<Arc<LocalEmbedder>>,
    weights: Option<LocalWeights>,
) -> Option<Arc<LocalEmbedder>> {
    let dir = test_model_dir()?;
    let loaded = cell
        .get_or_init(|| async {
            let name = "all-MiniLM-L6-v2".to_string();
            let model = match weights {
                None => LocalEmbedder::load(&dir, name).await,
                Some(weights) => LocalEmbedder::load_with(&dir, name, weights).await,
            };
            Arc::new(model.expect("the test model loads"))
        })
        .await;
    Some(loaded.clone())
}

fn texts(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn max_abs_diff(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

const LONG_SENTENCE: &str =
    "The reflector reads what was said and keeps structured memory up to date. ";

/// Reference embeddings computed independently of this crate: tests/reference/minilm_reference.py
/// implements BERT WordPiece tokenization, the 6-layer encoder, mean pooling and L2
/// normalisation from scratch in numpy (float64) over the same model.safetensors, checking
/// its token ids against the Python `tokenizers` package; these are the first 8 components
/// it printed. The third text is LONG_SENTENCE 30 times (450 tokens), cut at 256.
fn references() -> Vec<(String, [f32; 8])> {
    vec![
        (
            "User's dog is named Rex".into(),
            [
                -0.046827, -0.036818, 0.034341, 0.011933, -0.065574, -0.068473, 0.084967, 0.032817,
            ],
        ),
        (
            "我的狗叫旺财。".into(),
            [
                0.034864, 0.062766, 0.059485, 0.017928, 0.034767, 0.009889, 0.163520, 0.014052,
            ],
        ),
        (
            LONG_SENTENCE.repeat(30),
            [
                -0.050384, -0.032628, -0.015865, 0.029199, -0.004024, -0.037150, -0.016061,
                -0.014354,
            ],
        ),
    ]
}

/// The encoder itself (layers, attention mask, pooling, truncation), with f32 weights, against
/// an independent implementation.
#[tokio::test]
async fn matches_independently_computed_sentence_transformers_embeddings() {
    let Some(model) = exact_model().await else {
        return;
    };
    assert_eq!(model.provider(), "local");
    assert_eq!(model.model(), "all-MiniLM-L6-v2");
    assert_eq!(model.dimension(), 384);
    assert_eq!(model.max_tokens(), 256);
    let refs = references();
    let inputs: Vec<String> = refs.iter().map(|(t, _)| t.clone()).collect();
    let vectors = model.embed(&inputs).await.unwrap();
    for ((text, expected), v) in refs.iter().zip(&vectors) {
        assert_eq!(v.len(), 384);
        let got = &v[..8];
        // float32 against float64: they agree to ~5e-7; 1e-5 is far below the size
        // of any real mistake (a wrong mask, pooling or truncation moves these by > 1e-2)
        assert!(
            max_abs_diff(got, expected) < 1e-5,
            "{:.40}: got {got:?}, reference {expected:?}",
            text
        );
    }
}

/// The 8-bit weights (which `mneme` runs short texts on; here on every text) give the f32
/// model's vectors within the quantization's error, for short and long texts, English and
/// Chinese, and padded batches.
#[tokio::test]
async fn eight_bit_weights_give_the_f32_models_vectors_within_a_small_error() {
    let (Some(dir), Some(f32)) = (test_model_dir(), exact_model().await) else {
        return;
    };
    let q8 = LocalEmbedder::load_with(&dir, "m".into(), LocalWeights::Q8)
        .await
        .unwrap();
    let mut inputs: Vec<String> = references().into_iter().map(|(t, _)| t).collect();
    inputs.extend(texts(&[
        "what's my dog called?",
        "The user moved to Osaka last spring and works at a bank near the station",
        "用户的生日是五月一日。",
        "x",
    ]));
    let (a, b) = (
        q8.embed(&inputs).await.unwrap(),
        f32.embed(&inputs).await.unwrap(),
    );
    for ((text, a), b) in inputs.iter().zip(&a).zip(&b) {
        let cosine = dot(a, b);
        assert!(
            cosine > 0.998,
            "{text:.40}: cosine {cosine} to the f32 vector"
        );
        assert!(max_abs_diff(a, b) < 0.01, "{text:.40}");
    }
    // and the reference values, within that error
    for ((text, expected), v) in references().iter().zip(&a) {
        assert!(max_abs_diff(&v[..8], expected) < 0.01, "{text:.40}");
    }

    // What `mneme` runs takes the 8-bit path for a short text alone and f32 for the rest.
    let mixed = model().await.unwrap();
    let question = texts(&["what's my dog called?"]);
    let (m, q) = (
        mixed.embed(&question).await.unwrap(),
        q8.embed(&question).await.unwrap(),
    );
    assert!(max_abs_diff(&m[0], &q[0]) < 1e-6, "a question alone: 8-bit");
    let (m, f) = (
        mixed.embed(&inputs).await.unwrap(),
        f32.embed(&inputs).await.unwrap(),
    );
    for ((text, m), f) in inputs.iter().zip(&m).zip(&f) {
        assert!(max_abs_diff(m, f) < 1e-5, "{text:.40} in a batch: f32");
    }
}

#[tokio::test]
async fn vectors_are_384_dimensional_and_unit_length() {
    let Some(model) = model().await else { return };
    let vectors = model
        .embed(&texts(&["hello", "", "   ", "🦀 emoji and ümlauts", "x"]))
        .await
        .unwrap();
    assert_eq!(vectors.len(), 5);
    for v in &vectors {
        assert_eq!(v.len(), 384);
        let norm = dot(v, v).sqrt();
        assert!((norm - 1.0).abs() < 1e-5, "norm {norm}");
        assert!(v.iter().all(|x| x.is_finite()));
    }
    assert!(model.embed(&[]).await.unwrap().is_empty());
}

/// `question` is closer to `paraphrase` than to `unrelated`.
async fn assert_ranks(model: &LocalEmbedder, question: &str, paraphrase: &str, unrelated: &str) {
    let v = model
        .embed(&texts(&[question, paraphrase, unrelated]))
        .await
        .unwrap();
    let (near, far) = (dot(&v[0], &v[1]), dot(&v[0], &v[2]));
    assert!(
        near > far + 0.05,
        "{question:?}: {paraphrase:?} scored {near}, {unrelated:?} scored {far}"
    );
}

#[tokio::test]
async fn a_paraphrase_ranks_above_an_unrelated_fact() {
    let Some(model) = model().await else { return };
    assert_ranks(
        &model,
        "what's my dog called?",
        "User's dog is named Rex",
        "User works at a bank",
    )
    .await;
    assert_ranks(
        &model,
        "Where do I live these days?",
        "The user moved to Osaka last spring",
        "The user prefers Rust examples with tests",
    )
    .await;
    // all-MiniLM-L6-v2 is an English model: most Chinese characters are [UNK] to it, so it
    // ranks Chinese on the characters it knows. These two it gets right; many it does not
    // (README: use a multilingual model or a remote provider for Chinese).
    assert_ranks(
        &model,
        "我的狗叫什么名字？",
        "用户的狗叫旺财。",
        "用户在银行工作。",
    )
    .await;
    assert_ranks(
        &model,
        "我的生日是什么时候？",
        "用户的生日是五月一日。",
        "用户在银行工作。",
    )
    .await;
}

/// A text's vector does not depend on the batch it is embedded in: exactly with f32 weights;
/// as `mneme` runs (a short text alone goes through the 8-bit weights, a batch through f32)
/// within the 8-bit error, far below what a wrong mask or order would move (> 0.05).
#[tokio::test]
async fn batching_gives_the_same_vectors_as_one_by_one() {
    let (Some(q8), Some(f32)) = (model().await, exact_model().await) else {
        return;
    };
    for (model, tolerance) in [(f32, 1e-5), (q8, 0.01)] {
        // 40 texts of very different lengths: two batches, each padded to its longest text
        let inputs: Vec<String> = (0..40)
            .map(|i| format!("Fact {i}: {}", "the user likes long walks ".repeat(i % 7)))
            .collect();
        let together = model.embed(&inputs).await.unwrap();
        assert_eq!(together.len(), inputs.len());
        for (text, batched) in inputs.iter().zip(&together) {
            let alone = model.embed(std::slice::from_ref(text)).await.unwrap();
            let diff = max_abs_diff(batched, &alone[0]);
            assert!(diff < tolerance, "{text:?} differs by {diff} in a batch");
        }
        // order is the caller's, whatever the batching did: the same text twice is the same
        // vector
        let mixed = model
            .embed(&texts(&["b", &inputs[39], "a", "b"]))
            .await
            .unwrap();
        assert!(max_abs_diff(&mixed[0], &mixed[3]) < 1e-6);
        assert!(max_abs_diff(&mixed[1], &together[39]) < tolerance);
    }
}

#[tokio::test]
async fn text_past_256_tokens_is_cut() {
    let Some(model) = model().await else { return };
    let long = LONG_SENTENCE.repeat(30);
    let longer = format!("{long} And then something entirely different about bananas.");
    let v = model.embed(&[long, longer]).await.unwrap();
    assert!(max_abs_diff(&v[0], &v[1]) < 1e-6);
}

/// Copies the test model into a temp folder, then lets `spoil` change it.
fn spoiled_copy(spoil: impl FnOnce(&Path)) -> Option<tempfile::TempDir> {
    let src = test_model_dir()?;
    let dir = tempfile::tempdir().unwrap();
    for f in mneme::embed::MODEL_FILES {
        std::fs::copy(src.join(f), dir.path().join(f)).unwrap();
    }
    spoil(dir.path());
    Some(dir)
}

#[tokio::test]
async fn unreadable_model_files_give_clear_errors() {
    let Some(dir) = spoiled_copy(|d| std::fs::write(d.join("model.safetensors"), b"junk").unwrap())
    else {
        return;
    };
    let err = LocalEmbedder::load(dir.path(), "m".into())
        .await
        .err()
        .unwrap();
    assert!(matches!(err, EmbedError::Model { .. }), "{err}");
    let text = err.to_string();
    assert!(text.contains(&dir.path().display().to_string()), "{text}");
    assert!(text.contains("model.safetensors"), "{text}");

    let dir =
        spoiled_copy(|d| std::fs::write(d.join("config.json"), "{\"hidden_size\": 384}").unwrap())
            .unwrap();
    let text = LocalEmbedder::load(dir.path(), "m".into())
        .await
        .err()
        .unwrap()
        .to_string();
    assert!(
        text.contains("config.json") && text.contains("missing field"),
        "{text}"
    );

    let dir = spoiled_copy(|d| {
        std::fs::create_dir(d.join("1_Pooling")).unwrap();
        let cls = r#"{"pooling_mode_cls_token": true, "pooling_mode_mean_tokens": false}"#;
        std::fs::write(d.join("1_Pooling/config.json"), cls).unwrap();
    })
    .unwrap();
    let text = LocalEmbedder::load(dir.path(), "m".into())
        .await
        .err()
        .unwrap()
        .to_string();
    assert!(text.contains("only mean pooling is supported"), "{text}");

    let dir = spoiled_copy(|d| {
        let config = std::fs::read_to_string(d.join("config.json")).unwrap();
        let roberta = config.replace(r#""model_type": "bert""#, r#""model_type": "roberta""#);
        std::fs::write(d.join("config.json"), roberta).unwrap();
    })
    .unwrap();
    let text = LocalEmbedder::load(dir.path(), "m".into())
        .await
        .err()
        .unwrap()
        .to_string();
    assert!(text.contains("model_type `roberta`"), "{text}");

    let dir = spoiled_copy(|d| std::fs::remove_file(d.join("tokenizer.json")).unwrap()).unwrap();
    let err = LocalEmbedder::load(dir.path(), "m".into())
        .await
        .err()
        .unwrap();
    assert!(
        matches!(&err, EmbedError::MissingFiles { missing, .. } if missing == &["tokenizer.json"]),
        "{err}"
    );
}

#[tokio::test]
async fn a_folders_sentence_bert_config_sets_the_token_limit() {
    let Some(dir) = spoiled_copy(|d| {
        std::fs::write(
            d.join("sentence_bert_config.json"),
            r#"{"max_seq_length": 128}"#,
        )
        .unwrap()
    }) else {
        return;
    };
    let model = LocalEmbedder::load_with(dir.path(), "m".into(), LocalWeights::F32)
        .await
        .unwrap();
    assert_eq!(model.max_tokens(), 128);
    // the long reference text is now cut at 128 tokens: no longer the 256-token reference
    let v = model.embed(&[LONG_SENTENCE.repeat(30)]).await.unwrap();
    assert!(max_abs_diff(&v[0][..8], &references()[2].1) > 1e-3);
}

fn local_config(dir: &Path, extra: &str) -> Result<Config, String> {
    let yaml = format!(
        "model: m\nllm_base_url: http://127.0.0.1:1/v1\ndata_dir: data\nembedding_provider: local\n{extra}"
    );
    Config::from_yaml(&yaml, &dir.join("config.yaml"), &[])
        .map(|l| l.config)
        .map_err(|e| e.to_string())
}

#[tokio::test]
async fn embedding_model_may_name_a_folder_relative_to_the_config() {
    let Some(src) = test_model_dir() else { return };
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("models/minilm");
    std::fs::create_dir_all(&folder).unwrap();
    for f in mneme::embed::MODEL_FILES {
        std::fs::copy(src.join(f), folder.join(f)).unwrap();
    }
    let config = local_config(dir.path(), "embedding_model: models/minilm\n").unwrap();
    let embedder = mneme::embed::from_config(&config).await.unwrap().unwrap();
    assert_eq!(embedder.provider(), "local");
    assert_eq!(embedder.model(), "minilm");
    let v = embedder.embed(&texts(&["hello"])).await.unwrap();
    assert_eq!(v[0].len(), 384);
    // nothing was downloaded for it
    assert!(!dir.path().join("data/models").exists());

    let err = local_config(dir.path(), "embedding_model: models/nope\n").unwrap_err();
    assert!(
        err.contains("embedding_model: the model folder")
            && err.contains("models/nope lacks config.json, tokenizer.json, model.safetensors"),
        "{err}"
    );
    let err = local_config(dir.path(), "embedding_dim: 768\n").unwrap_err();
    assert!(
        err.contains("embedding_dim: all-MiniLM-L6-v2 makes 384"),
        "{err}"
    );
}

#[tokio::test]
async fn the_default_model_is_downloaded_once_into_data_dir() {
    let Some(src) = test_model_dir() else { return };
    let server = ModelServer::start(&src, &[]).await;
    let dir = tempfile::tempdir().unwrap();
    let config =
        local_config(dir.path(), &format!("embedding_base_url: {}\n", server.url)).unwrap();

    let embedder = mneme::embed::from_config(&config).await.unwrap().unwrap();
    assert_eq!(embedder.model(), "all-MiniLM-L6-v2");
    let model_dir = dir.path().join("data/models/all-MiniLM-L6-v2");
    for f in mneme::embed::MODEL_FILES {
        assert_eq!(
            std::fs::read(model_dir.join(f)).unwrap(),
            std::fs::read(src.join(f)).unwrap(),
            "{f} arrived whole"
        );
        assert_eq!(server.requests_for(f), 1);
    }
    assert_eq!(
        std::fs::read_dir(&model_dir).unwrap().count(),
        3,
        "no leftovers"
    );
    let v = embedder
        .embed(&texts(&["User's dog is named Rex"]))
        .await
        .unwrap();
    // (8-bit weights: within their error of the f32 reference)
    assert!(max_abs_diff(&v[0][..8], &references()[0].1) < 0.01);

    // a second start finds the files and asks for nothing
    mneme::embed::from_config(&config).await.unwrap().unwrap();
    for f in mneme::embed::MODEL_FILES {
        assert_eq!(server.requests_for(f), 1);
    }
}

/// A download that fails for `file` in `fault`'s way: a clear error, and the folder holds
/// nothing that could pass for that file — the next start tries again.
async fn failed_download(file: &str, fault: Fault) {
    let Some(src) = test_model_dir() else { return };
    let server = ModelServer::start(&src, &[(file, fault)]).await;
    let dir = tempfile::tempdir().unwrap();
    let config =
        local_config(dir.path(), &format!("embedding_base_url: {}\n", server.url)).unwrap();
    let err = mneme::embed::from_config(&config).await.err().unwrap();
    let text = err.to_string();
    let model_dir = dir.path().join("data/models/all-MiniLM-L6-v2");
    assert!(matches!(err, EmbedError::Download { .. }), "{text}");
    assert!(
        text.contains(&format!("cannot download {file} from {}{file}", server.url)),
        "{text}"
    );
    assert!(text.contains(&model_dir.display().to_string()), "{text}");
    assert!(
        text.contains("config.json, tokenizer.json and model.safetensors"),
        "{text}"
    );
    let left: Vec<String> = std::fs::read_dir(&model_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(!left.contains(&file.to_string()), "{left:?}");
    assert!(
        left.iter().all(|f| !f.starts_with('.')),
        "partial file left: {left:?}"
    );
    assert_eq!(
        mneme::config::model_files::missing_files(&model_dir),
        [file],
        "the files before it are kept"
    );

    // with the server fixed, the next start fetches only what is missing
    let fixed = ModelServer::start(&src, &[]).await;
    let config = local_config(dir.path(), &format!("embedding_base_url: {}\n", fixed.url)).unwrap();
    mneme::embed::from_config(&config).await.unwrap().unwrap();
    assert_eq!(fixed.requests_for(file), 1);
    assert_eq!(fixed.requests_for("config.json"), 0);
}

#[tokio::test]
async fn a_404_leaves_no_file_that_looks_complete() {
    failed_download("model.safetensors", Fault::Missing).await;
    let Some(src) = test_model_dir() else { return };
    let server = ModelServer::start(&src, &[("model.safetensors", Fault::Missing)]).await;
    let dir = tempfile::tempdir().unwrap();
    let config =
        local_config(dir.path(), &format!("embedding_base_url: {}\n", server.url)).unwrap();
    let text = mneme::embed::from_config(&config)
        .await
        .err()
        .unwrap()
        .to_string();
    assert!(text.contains("HTTP 404"), "{text}");
}

#[tokio::test]
async fn a_broken_transfer_leaves_no_half_file() {
    failed_download("model.safetensors", Fault::BrokenTransfer).await;
}
