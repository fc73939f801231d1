//! The HTTP part shared by providers: timeouts, retries with backoff that honour
//! `Retry-After`, and error texts that never carry the key.

use std::pin::Pin;
use std::time::Duration;

use eventsource_stream::{Event, EventStreamError, Eventsource};

use super::sse::Fault;
use futures_util::{Stream, StreamExt};
use reqwest::header::{HeaderMap, HeaderValue, RETRY_AFTER};
use reqwest::{Client, Response, StatusCode, Url};
use serde_json::Value;

use super::LlmError;

#[derive(Debug, Clone)]
pub struct HttpSettings {
    /// Whole-request limit (a streaming answer: the longest silence between two chunks).
    pub timeout: Duration,
    /// Extra attempts after a 429, a 5xx or a failed connection.
    pub max_retries: u32,
    /// First backoff; doubled on each retry, with jitter.
    pub base_backoff: Duration,
    /// Upper bound on any one wait, including a server's `Retry-After`.
    pub max_backoff: Duration,
    /// The longest a streamed answer is read for, however steadily it keeps coming (a model
    /// caught in a loop of empty events would otherwise hold its chat's turn for good).
    pub stream_limit: Duration,
}

/// A streamed answer may take this many times the longest silence (`llm_timeout_secs`).
pub const STREAM_LIMIT_FACTOR: u32 = 10;

impl Default for HttpSettings {
    fn default() -> Self {
        Self {
            timeout: Duration::from_secs(120),
            max_retries: 3,
            base_backoff: Duration::from_millis(500),
            max_backoff: Duration::from_secs(60),
            stream_limit: Duration::from_secs(120) * STREAM_LIMIT_FACTOR,
        }
    }
}

/// A JSON-over-HTTP client bound to one provider and key (also used by `embed`).
pub(crate) struct Http {
    client: Client,
    pub provider: &'static str,
    pub settings: HttpSettings,
    /// Kept only to scrub it from any text that could reach a log or a user.
    secret: String,
}

/// A provider's endpoint, parsed once for all its requests (given a string, reqwest parses it
/// again for each). The text is not repeated in the error: it may hold credentials.
pub(crate) fn endpoint(key: &str, url: &str) -> Result<Url, String> {
    Url::parse(url).map_err(|e| format!("{key}: not a valid URL: {e}"))
}

impl Http {
    pub fn new(
        provider: &'static str,
        headers: HeaderMap,
        secret: &str,
        settings: HttpSettings,
    ) -> Result<Self, String> {
        let client = Client::builder()
            .default_headers(headers)
            .connect_timeout(Duration::from_secs(10).min(settings.timeout))
            .user_agent(concat!("mneme/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| format!("{provider}: cannot build the HTTP client: {e}"))?;
        Ok(Self {
            client,
            provider,
            settings,
            secret: secret.to_string(),
        })
    }

    /// Removes the key from a text, should a server or a library echo it.
    /// `text` fit for a log line or a reply: the key replaced, and control characters (a
    /// provider's error body may hold NUL, ESC, newlines) shown as U+FFFD rather than written
    /// into the log or a terminal.
    pub fn redact(&self, text: &str) -> String {
        let text: String = text
            .chars()
            .map(|c| if c.is_control() { '\u{FFFD}' } else { c })
            .collect();
        if self.secret.len() >= 4 {
            text.replace(&self.secret, "[redacted]")
        } else {
            text
        }
    }

    fn network_error(&self, e: &reqwest::Error) -> LlmError {
        if e.is_timeout() {
            return LlmError::Timeout {
                provider: self.provider,
                after: self.settings.timeout,
            };
        }
        // The error's source chain says why (refused, DNS, TLS); the URL holds nothing secret,
        // but the text goes through `redact` all the same.
        let mut detail = e.to_string();
        let mut source = std::error::Error::source(e);
        while let Some(s) = source {
            detail = format!("{detail}: {s}");
            source = s.source();
        }
        LlmError::Network {
            provider: self.provider,
            detail: self.redact(&detail),
        }
    }

    /// POSTs `body` (which asks for a streamed answer) to `url` as [`Http::post`] does, for
    /// the answer's server-sent events.
    pub async fn post_events(
        &self,
        url: &Url,
        body: &(impl serde::Serialize + ?Sized),
    ) -> Result<Events<'_>, LlmError> {
        let resp = self.post(url, body, true).await?;
        Ok(Events {
            http: self,
            inner: Box::pin(super::sse::whole_lines(resp.bytes_stream()).eventsource()),
            seen: 0,
            until: tokio::time::Instant::now() + self.settings.stream_limit,
        })
    }

    /// POSTs `body` to `url`, retrying 429/5xx and connection failures. `streaming` lifts the
    /// whole-request timeout (the caller bounds the silence between chunks instead).
    pub async fn post(
        &self,
        url: &Url,
        body: &(impl serde::Serialize + ?Sized),
        streaming: bool,
    ) -> Result<Response, LlmError> {
        let mut attempt = 0;
        loop {
            let mut req = self.client.post(url.clone()).json(body);
            if !streaming {
                req = req.timeout(self.settings.timeout);
            }
            let result = if streaming {
                // Bound the wait for the response head; chunks are bounded by the caller.
                match tokio::time::timeout(self.settings.timeout, req.send()).await {
                    Ok(r) => r,
                    Err(_) => {
                        return Err(LlmError::Timeout {
                            provider: self.provider,
                            after: self.settings.timeout,
                        });
                    }
                }
            } else {
                req.send().await
            };
            let retries_left = attempt < self.settings.max_retries;
            match result {
                Ok(resp) if resp.status().is_success() => return Ok(resp),
                Ok(resp) => {
                    let status = resp.status();
                    let retryable =
                        status == StatusCode::TOO_MANY_REQUESTS || status.is_server_error();
                    // a server asking for a longer wait than any this client makes (a quota
                    // spent for the day) is answered now, not after a silent minute per retry
                    let asked = retry_after(resp.headers());
                    let too_long = asked.is_some_and(|w| w > self.settings.max_backoff);
                    if retryable && retries_left && !too_long {
                        let wait = asked
                            .unwrap_or_else(|| self.backoff(attempt))
                            .min(self.settings.max_backoff);
                        tracing::warn!(provider = self.provider, %status, ?wait, attempt, "LLM request failed; retrying");
                        tokio::time::sleep(wait).await;
                    } else {
                        // only its start is shown: the rest is not read
                        let (body, _) = read_up_to(resp, MAX_ERROR_BYTES).await.unwrap_or_default();
                        let text = String::from_utf8_lossy(&body);
                        return Err(LlmError::Status {
                            provider: self.provider,
                            status: status.as_u16(),
                            detail: self.redact(&error_detail(&text)),
                        });
                    }
                }
                Err(e) if e.is_connect() && retries_left => {
                    let wait = self.backoff(attempt);
                    tracing::warn!(
                        provider = self.provider,
                        ?wait,
                        attempt,
                        "LLM server unreachable; retrying"
                    );
                    tokio::time::sleep(wait).await;
                }
                Err(e) => return Err(self.network_error(&e)),
            }
            attempt += 1;
        }
    }

    /// Reads a whole JSON body (within the request's timeout), of at most [`MAX_BODY_BYTES`].
    pub async fn json(&self, resp: Response) -> Result<Value, LlmError> {
        let announced = resp.content_length();
        let (bytes, whole) = if announced.is_some_and(|n| n > MAX_BODY_BYTES as u64) {
            (Vec::new(), false)
        } else {
            read_up_to(resp, MAX_BODY_BYTES)
                .await
                .map_err(|e| self.network_error(&e))?
        };
        if !whole {
            return Err(self.invalid(format!(
                "the answer is longer than {} MiB",
                MAX_BODY_BYTES >> 20
            )));
        }
        serde_json::from_slice(&bytes).map_err(|e| LlmError::InvalidResponse {
            provider: self.provider,
            detail: format!(
                "not JSON ({e}): {}",
                self.redact(&snippet(&String::from_utf8_lossy(&bytes)))
            ),
        })
    }

    pub fn invalid(&self, detail: impl Into<String>) -> LlmError {
        LlmError::InvalidResponse {
            provider: self.provider,
            detail: self.redact(&detail.into()),
        }
    }

    pub fn timeout(&self) -> LlmError {
        LlmError::Timeout {
            provider: self.provider,
            after: self.settings.timeout,
        }
    }

    pub fn stream_error(&self, e: impl std::fmt::Display) -> LlmError {
        LlmError::Network {
            provider: self.provider,
            detail: self.redact(&format!("stream broke off: {e}")),
        }
    }

    fn backoff(&self, attempt: u32) -> Duration {
        let base = self
            .settings
            .base_backoff
            .saturating_mul(1 << attempt.min(10));
        let jitter = base.mul_f64(fastrand::f64() * 0.25);
        (base + jitter).min(self.settings.max_backoff)
    }
}

/// The most bytes a whole (not streamed) answer is read for: a model's answer is a few KB, a
/// batch of embeddings a few MB; past it the answer is refused, not read into memory for ever.
pub const MAX_BODY_BYTES: usize = super::sse::MAX_STREAM_BYTES;
/// The most of an error's body read: only its start is shown.
const MAX_ERROR_BYTES: usize = 64 << 10;

/// `resp`'s body up to `limit` bytes, and whether that was all of it (what lies past the
/// limit is not read).
async fn read_up_to(mut resp: Response, limit: usize) -> Result<(Vec<u8>, bool), reqwest::Error> {
    let announced = resp.content_length().and_then(|n| usize::try_from(n).ok());
    let mut body = Vec::with_capacity(announced.unwrap_or(0).min(limit));
    while let Some(chunk) = resp.chunk().await? {
        if body.len() + chunk.len() > limit {
            let room = limit - body.len();
            body.extend_from_slice(&chunk[..room]);
            return Ok((body, false));
        }
        body.extend_from_slice(&chunk);
    }
    Ok((body, true))
}

/// `Retry-After` in seconds (the HTTP-date form is rare for APIs and treated as absent); a
/// wait too long for any clock reads as the longest there is (so: longer than any waited for).
fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let value: &HeaderValue = headers.get(RETRY_AFTER)?;
    let secs: f64 = value.to_str().ok()?.trim().parse().ok()?;
    (secs.is_finite() && secs >= 0.0)
        .then(|| Duration::try_from_secs_f64(secs).unwrap_or(Duration::MAX))
}

/// The provider's own error message when the body has one, else the start of the body.
fn error_detail(body: &str) -> String {
    if let Ok(v) = serde_json::from_str::<Value>(body) {
        let msg = v
            .pointer("/error/message")
            .or_else(|| v.pointer("/error"))
            .or_else(|| v.pointer("/message"))
            .and_then(Value::as_str);
        if let Some(m) = msg {
            return snippet(m);
        }
    }
    if body.trim().is_empty() {
        "(empty body)".to_string()
    } else {
        snippet(body)
    }
}

fn snippet(s: &str) -> String {
    const MAX: usize = 300;
    let s = s.trim();
    match s.char_indices().nth(MAX) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

type EventItem = Result<Event, EventStreamError<Fault>>;

/// A streamed answer's server-sent events ([`Http::post_events`]), each waited for at most
/// the timeout: the longest silence allowed.
pub struct Events<'h> {
    http: &'h Http,
    inner: Pin<Box<dyn Stream<Item = EventItem> + Send + 'h>>,
    /// Events read so far.
    pub seen: usize,
    /// When the answer must have ended ([`HttpSettings::stream_limit`]).
    until: tokio::time::Instant,
}

impl Events<'_> {
    /// The next event, or `None` once the stream has ended.
    pub async fn next(&mut self) -> Result<Option<Event>, LlmError> {
        let silence = self.http.settings.timeout;
        let left = self
            .until
            .saturating_duration_since(tokio::time::Instant::now());
        let next = tokio::time::timeout(silence.min(left), self.inner.next())
            .await
            .map_err(|_| {
                if left < silence {
                    LlmError::Timeout {
                        provider: self.http.provider,
                        after: self.http.settings.stream_limit,
                    }
                } else {
                    self.http.timeout()
                }
            })?;
        let Some(event) = next else { return Ok(None) };
        self.seen += 1;
        event.map(Some).map_err(|e| match e {
            // the connection broke: as any network failure
            EventStreamError::Transport(Fault::Transport(e)) => self.http.stream_error(e),
            // what came is no answer: bytes that are not UTF-8, a line or a stream too long
            EventStreamError::Transport(fault) => self.http.invalid(fault.to_string()),
            EventStreamError::Utf8(e) => self
                .http
                .invalid(format!("the event stream is not UTF-8: {e}")),
            EventStreamError::Parser(e) => self.http.invalid(format!("the event stream: {e}")),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_reads_seconds() {
        let mut h = HeaderMap::new();
        h.insert(RETRY_AFTER, HeaderValue::from_static("2"));
        assert_eq!(retry_after(&h), Some(Duration::from_secs(2)));
        h.insert(
            RETRY_AFTER,
            HeaderValue::from_static("Wed, 21 Oct 2015 07:28:00 GMT"),
        );
        assert_eq!(retry_after(&h), None);
        for (asked, read) in [
            ("1e20", Some(Duration::MAX)),
            ("0.5", Some(Duration::from_millis(500))),
            ("-1", None),
            ("NaN", None),
            ("inf", None),
        ] {
            h.insert(RETRY_AFTER, HeaderValue::from_static(asked));
            assert_eq!(retry_after(&h), read, "{asked}");
        }
    }

    #[test]
    fn error_detail_prefers_the_providers_message() {
        assert_eq!(
            error_detail(r#"{"error":{"message":"model not found"}}"#),
            "model not found"
        );
        assert_eq!(error_detail(""), "(empty body)");
        assert_eq!(error_detail(&"x".repeat(1000)).chars().count(), 301);
    }

    #[test]
    fn redact_scrubs_the_key() {
        let http = Http::new(
            "openai",
            HeaderMap::new(),
            "sk-secret-123",
            HttpSettings::default(),
        )
        .unwrap();
        assert_eq!(http.redact("bad key sk-secret-123!"), "bad key [redacted]!");
        assert_eq!(
            http.redact("bad\u{0}\u{1}\u{1b}[31m\nkey"),
            "bad\u{FFFD}\u{FFFD}\u{FFFD}[31m\u{FFFD}key"
        );
    }
}
