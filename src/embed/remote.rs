//! What the HTTP providers share: the LLM client's HTTP layer (timeouts, retries on 429/5xx
//! and connection failures, `Retry-After`, key redaction), a bearer key, and errors that name
//! the URL without its credentials.

use reqwest::header::{AUTHORIZATION, HeaderMap, HeaderValue};
use serde_json::Value;

use super::EmbedError;
use crate::llm::HttpSettings;
use crate::llm::http::Http;

pub(super) struct Remote {
    http: Http,
    url: url::Url,
}

impl Remote {
    /// A client for `url`; `api_key`, when not empty, goes out as a bearer token.
    pub fn new(
        provider: &'static str,
        url: String,
        api_key: &str,
        settings: HttpSettings,
    ) -> Result<Self, EmbedError> {
        let parsed = url::Url::parse(&url).map_err(|e| EmbedError::Config {
            key: "embedding_base_url",
            message: format!("not a valid URL (`{}`): {e}", without_credentials(&url)),
        })?;
        if !matches!(parsed.scheme(), "http" | "https") {
            return Err(EmbedError::Config {
                key: "embedding_base_url",
                message: format!(
                    "must be an http:// or https:// URL, got `{}`",
                    without_credentials(&url)
                ),
            });
        }
        let mut headers = HeaderMap::new();
        if !api_key.is_empty() {
            let mut value = HeaderValue::from_str(&format!("Bearer {api_key}")).map_err(|_| {
                EmbedError::Config {
                    key: "embedding_api_key",
                    message: "contains characters not allowed in an HTTP header".into(),
                }
            })?;
            value.set_sensitive(true);
            headers.insert(AUTHORIZATION, value);
        }
        let http = Http::new(provider, headers, api_key, settings).map_err(|message| {
            EmbedError::Config {
                key: "embedding_provider",
                message,
            }
        })?;
        Ok(Self { http, url: parsed })
    }

    /// POSTs `body` and reads the JSON answer (retrying as the LLM client does).
    pub async fn post_json(&self, body: &Value) -> Result<Value, EmbedError> {
        let resp = self
            .http
            .post(&self.url, body, false)
            .await
            .map_err(|e| self.error(e))?;
        self.http.json(resp).await.map_err(|e| self.error(e))
    }

    /// An unreadable answer, said like the HTTP layer says it.
    pub fn invalid(&self, detail: impl Into<String>) -> EmbedError {
        self.error(self.http.invalid(detail))
    }

    fn error(&self, cause: crate::llm::LlmError) -> EmbedError {
        EmbedError::Remote {
            url: without_credentials(self.url.as_str()),
            cause,
        }
    }
}

/// Each batch of at most `size` texts through `embed_batch`, one request after another, the
/// vectors in the order of `texts`.
pub(super) async fn in_batches<'a, F, Fut>(
    texts: &'a [String],
    size: usize,
    mut embed_batch: F,
) -> Result<Vec<Vec<f32>>, EmbedError>
where
    F: FnMut(&'a [String]) -> Fut,
    Fut: std::future::Future<Output = Result<Vec<Vec<f32>>, EmbedError>>,
{
    let mut out = Vec::with_capacity(texts.len());
    for batch in texts.chunks(size) {
        out.extend(embed_batch(batch).await?);
    }
    Ok(out)
}

/// `value` trimmed, or `default` when that leaves nothing.
pub(super) fn or_default<'a>(value: &'a str, default: &'a str) -> &'a str {
    match value.trim() {
        "" => default,
        v => v,
    }
}

/// The base URL with `default` for an empty one and no trailing slash.
pub(super) fn base_or<'a>(base: &'a str, default: &'a str) -> &'a str {
    or_default(base, default).trim_end_matches('/')
}

/// `url` without a `user:password@` part, for error messages.
fn without_credentials(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut u) if !u.username().is_empty() || u.password().is_some() => {
            let _ = u.set_username("");
            let _ = u.set_password(None);
            u.to_string()
        }
        _ => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_in_errors_carry_no_credentials() {
        assert_eq!(
            without_credentials("https://bob:hunter2@example.com/v1/embeddings"),
            "https://example.com/v1/embeddings"
        );
        assert_eq!(
            without_credentials("http://127.0.0.1:11434/api/embed"),
            "http://127.0.0.1:11434/api/embed"
        );
    }

    #[test]
    fn base_or_takes_the_default_and_drops_trailing_slashes() {
        assert_eq!(base_or(" ", "https://d/v1"), "https://d/v1");
        assert_eq!(base_or("http://h:1/v1/", "x"), "http://h:1/v1");
    }

    #[test]
    fn a_bad_url_or_key_is_a_config_error() {
        let settings = HttpSettings::default();
        let err = Remote::new("t", "ftp://h/x".into(), "", settings.clone())
            .err()
            .unwrap();
        assert!(err.to_string().starts_with("embedding_base_url:"), "{err}");
        let err = Remote::new("t", "http://h/x".into(), "bad\nkey", settings)
            .err()
            .unwrap();
        assert!(err.to_string().starts_with("embedding_api_key:"), "{err}");
        assert!(!err.to_string().contains("bad\nkey"));
    }
}
