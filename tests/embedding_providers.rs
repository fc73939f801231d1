//! The OpenAI-compatible and Ollama embedders against a fake server on 127.0.0.1: wire
//! format, ordering, batching, `dimensions`, retries, and errors that never show the key.

mod support;

use std::time::Duration;

use mneme::config::Config;
use mneme::embed::{EmbedError, Embedder, OllamaEmbedder, OpenAiEmbedder, l2_normalize};
use mneme::llm::HttpSettings;
use serde_json::json;
use support::Answer;
use support::fake_embeddings::{FakeEmbeddings, fake_vector, openai_vectors};

const KEY: &str = "sk-embed-secret-0123456789";

fn settings() -> HttpSettings {
    HttpSettings {
        timeout: Duration::from_secs(5),
        max_retries: 2,
        base_backoff: Duration::from_millis(1),
        max_backoff: Duration::from_millis(20),
        stream_limit: Duration::from_secs(50),
    }
}

fn texts(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("memory number {i}")).collect()
}

fn normalized(text: &str, dim: usize) -> Vec<f32> {
    let mut v = fake_vector(text, dim);
    l2_normalize(&mut v);
    v
}

fn openai(fake: &FakeEmbeddings, dim: u32) -> OpenAiEmbedder {
    OpenAiEmbedder::new(&fake.openai_url, KEY, "", dim, settings()).unwrap()
}

#[tokio::test]
async fn openai_sends_the_request_and_orders_vectors_by_index() {
    let fake = FakeEmbeddings::start().await;
    let embedder = openai(&fake, 0);
    assert_eq!(embedder.provider(), "openai");
    assert_eq!(embedder.model(), "text-embedding-3-small");
    let inputs = texts(3);
    let vectors = embedder.embed(&inputs).await.unwrap();
    // the fake answers `data` in reverse order; the vectors come back in the texts' order
    for (text, v) in inputs.iter().zip(&vectors) {
        assert_eq!(v, &normalized(text, FakeEmbeddings::DEFAULT_DIM));
    }
    let seen = fake.requests();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].path, "/v1/embeddings");
    assert_eq!(
        seen[0].body,
        json!({"model": "text-embedding-3-small", "input": inputs})
    );
    assert_eq!(
        seen[0].headers["authorization"].to_str().unwrap(),
        format!("Bearer {KEY}")
    );
    assert!(embedder.embed(&[]).await.unwrap().is_empty());
    assert_eq!(fake.requests().len(), 1, "nothing to embed, nothing sent");
}

#[tokio::test]
async fn openai_batches_large_inputs_and_keeps_their_order() {
    let fake = FakeEmbeddings::start().await;
    let inputs = texts(200);
    let vectors = openai(&fake, 0).embed(&inputs).await.unwrap();
    let sizes: Vec<usize> = fake
        .requests()
        .iter()
        .map(|r| r.body["input"].as_array().unwrap().len())
        .collect();
    assert_eq!(sizes, [96, 96, 8]);
    assert_eq!(vectors.len(), 200);
    for (text, v) in inputs.iter().zip(&vectors) {
        assert_eq!(v, &normalized(text, FakeEmbeddings::DEFAULT_DIM));
    }
}

#[tokio::test]
async fn openai_sends_dimensions_when_embedding_dim_is_set() {
    let fake = FakeEmbeddings::start().await;
    let vectors = openai(&fake, 256).embed(&texts(2)).await.unwrap();
    assert_eq!(fake.requests()[0].body["dimensions"], 256);
    assert!(vectors.iter().all(|v| v.len() == 256));
}

#[tokio::test]
async fn a_wrong_dimension_is_a_clear_error() {
    let fake = FakeEmbeddings::start().await;
    fake.script([openai_vectors(&[vec![1.0; 1536]])]);
    let err = openai(&fake, 256).embed(&texts(1)).await.err().unwrap();
    assert!(matches!(err, EmbedError::Dimension { .. }), "{err}");
    assert_eq!(
        err.to_string(),
        "openai embeddings: the model `text-embedding-3-small` returned 1536-dimensional vectors \
         but embedding_dim is 256; set embedding_dim to 1536 (or 0 to take what the model gives)"
    );
}

#[tokio::test]
async fn a_server_error_is_retried() {
    let fake = FakeEmbeddings::start().await;
    fake.script([Answer::Status(500, None, "overloaded".into())]);
    let vectors = openai(&fake, 0).embed(&texts(2)).await.unwrap();
    assert_eq!(vectors.len(), 2);
    assert_eq!(fake.requests().len(), 2);

    fake.script([
        Answer::Status(429, Some("0"), "slow down".into()),
        Answer::Status(503, None, "still".into()),
        Answer::Status(503, None, "and still".into()),
    ]);
    let err = openai(&fake, 0).embed(&texts(1)).await.err().unwrap();
    assert_eq!(fake.requests().len(), 5, "one try and two retries");
    assert!(err.to_string().contains("HTTP 503: and still"), "{err}");
}

#[tokio::test]
async fn unauthorized_names_provider_and_status_but_never_the_key() {
    let fake = FakeEmbeddings::start().await;
    fake.script([Answer::Status(
        401,
        None,
        json!({"error": {"message": format!("Incorrect API key provided: {KEY}")}}).to_string(),
    )]);
    let err = openai(&fake, 0).embed(&texts(1)).await.err().unwrap();
    let text = err.to_string();
    assert!(text.starts_with("openai embeddings: HTTP 401"), "{text}");
    assert!(
        text.contains("Incorrect API key provided: [redacted]"),
        "{text}"
    );
    assert!(
        text.contains(&format!("{}/embeddings", fake.openai_url)),
        "{text}"
    );
    assert!(
        !text.contains(KEY) && !format!("{err:?}").contains(KEY),
        "{text}"
    );
    assert_eq!(fake.requests().len(), 1, "a 401 is not retried");
}

#[tokio::test]
async fn malformed_answers_are_clear_errors() {
    let fake = FakeEmbeddings::start().await;
    fake.script([
        Answer::Garbage("{\"data\": [oops"),
        Answer::Json(json!({"data": [{"index": 0, "embedding": [0.1, 0.2]}]})),
        Answer::Json(json!({"data": [{"index": 0, "embedding": [0.0, 0.0]}]})),
    ]);
    let embedder = openai(&fake, 0);
    let err = embedder.embed(&texts(1)).await.err().unwrap().to_string();
    assert!(
        err.starts_with("openai embeddings: unreadable answer: not JSON"),
        "{err}"
    );
    let err = embedder.embed(&texts(2)).await.err().unwrap().to_string();
    assert!(err.contains("no embedding for text 1"), "{err}");
    let err = embedder.embed(&texts(1)).await.err().unwrap().to_string();
    assert_eq!(
        err,
        "openai embeddings: unusable answer: vector 0 is all zeros"
    );
}

#[tokio::test]
async fn ollama_embeds_and_normalises() {
    let fake = FakeEmbeddings::start().await;
    let embedder = OllamaEmbedder::new(&fake.ollama_url, "", "", 0, settings()).unwrap();
    assert_eq!(embedder.provider(), "ollama");
    assert_eq!(embedder.model(), "nomic-embed-text");
    let inputs = texts(40);
    let vectors = embedder.embed(&inputs).await.unwrap();
    for (text, v) in inputs.iter().zip(&vectors) {
        assert_eq!(v, &normalized(text, FakeEmbeddings::DEFAULT_DIM));
        let norm: f32 = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-6);
    }
    let seen = fake.requests();
    assert_eq!(seen.len(), 2, "batches of 32");
    assert_eq!(seen[0].path, "/api/embed");
    assert_eq!(seen[0].body["model"], "nomic-embed-text");
    assert_eq!(seen[1].body["input"].as_array().unwrap().len(), 8);
    assert!(seen[0].headers.get("authorization").is_none());
}

#[tokio::test]
async fn ollama_errors_are_clear() {
    let fake = FakeEmbeddings::start().await;
    fake.script([
        Answer::Status(
            404,
            None,
            json!({"error": "model \"nomic-embed-text\" not found, try pulling it first"})
                .to_string(),
        ),
        Answer::Json(json!({"embedding": [1.0, 2.0]})),
    ]);
    let embedder = OllamaEmbedder::new(&fake.ollama_url, "", "", 8, settings()).unwrap();
    let err = embedder.embed(&texts(1)).await.err().unwrap().to_string();
    assert!(
        err.starts_with(
            "ollama embeddings: HTTP 404: model \"nomic-embed-text\" not found, try pulling it first"
        ),
        "{err}"
    );
    let err = embedder.embed(&texts(1)).await.err().unwrap().to_string();
    assert!(err.contains("no `embeddings` array"), "{err}");
    // embedding_dim is checked for Ollama too (the fake makes 8)
    let wrong = OllamaEmbedder::new(&fake.ollama_url, "", "", 768, settings()).unwrap();
    let err = wrong.embed(&texts(1)).await.err().unwrap().to_string();
    assert!(
        err.contains("returned 8-dimensional vectors but embedding_dim is 768"),
        "{err}"
    );
}

fn config(yaml: &str, env: &[(&'static str, String)]) -> Result<Config, String> {
    let base = "model: m\nllm_base_url: http://127.0.0.1:1/v1\nllm_max_retries: 0\n";
    Config::from_yaml(
        &format!("{base}{yaml}"),
        std::path::Path::new("config.yaml"),
        env,
    )
    .map(|l| l.config)
    .map_err(|e| e.to_string())
}

#[tokio::test]
async fn from_config_builds_the_named_provider() {
    let fake = FakeEmbeddings::start().await;
    let none = config("", &[]).unwrap();
    assert!(mneme::embed::from_config(&none).await.unwrap().is_none());

    let c = config(
        &format!(
            "embedding_provider: openai\nembedding_base_url: {}\nembedding_model: my-embedder\nembedding_dim: 16\n",
            fake.openai_url
        ),
        &[("MNEME_EMBEDDING_API_KEY", KEY.to_string())],
    )
    .unwrap();
    let e = mneme::embed::from_config(&c).await.unwrap().unwrap();
    assert_eq!((e.provider(), e.model()), ("openai", "my-embedder"));
    assert_eq!(e.embed(&texts(1)).await.unwrap()[0].len(), 16);
    let seen = fake.requests();
    assert_eq!(
        seen[0].headers["authorization"].to_str().unwrap(),
        format!("Bearer {KEY}"),
        "the key from the environment"
    );

    let c = config(
        &format!(
            "embedding_provider: ollama\nembedding_base_url: {}/\nembedding_model: mxbai-embed-large\n",
            fake.ollama_url
        ),
        &[],
    )
    .unwrap();
    let e = mneme::embed::from_config(&c).await.unwrap().unwrap();
    assert_eq!((e.provider(), e.model()), ("ollama", "mxbai-embed-large"));
    e.embed(&texts(1)).await.unwrap();
    assert_eq!(fake.requests().last().unwrap().path, "/api/embed");
}

#[test]
fn config_checks_name_the_embedding_keys() {
    let err = config("embedding_provider: cohere\n", &[]).unwrap_err();
    assert!(
        err.contains(
            "embedding_provider: must be one of none, openai, ollama, local; got `cohere`"
        ),
        "{err}"
    );
    let err = config("embedding_provider: openai\n", &[]).unwrap_err();
    assert!(
        err.contains("embedding_api_key: required for the OpenAI API; set it here or in MNEME_EMBEDDING_API_KEY"),
        "{err}"
    );
    let err = config(
        "embedding_provider: openai\nembedding_base_url: https://api.example.com/v1\n",
        &[],
    )
    .unwrap_err();
    assert!(
        err.contains("embedding_api_key: required for https://api.example.com/v1"),
        "{err}"
    );
    let err = config(
        "embedding_provider: ollama\nembedding_base_url: \"localhost:11434\"\n",
        &[],
    )
    .unwrap_err();
    assert!(
        err.contains(
            "embedding_base_url: must be an http:// or https:// URL, got `localhost:11434`"
        ),
        "{err}"
    );
    // a key from the environment, a server on this machine, or Ollama: no key needed
    config(
        "embedding_provider: openai\n",
        &[("MNEME_EMBEDDING_API_KEY", KEY.into())],
    )
    .unwrap();
    config(
        "embedding_provider: openai\nembedding_base_url: http://192.168.1.5:8080/v1\n",
        &[],
    )
    .unwrap();
    config("embedding_provider: ollama\n", &[]).unwrap();
}
