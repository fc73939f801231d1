//! The API's plumbing: JSON errors, JSON body and query extractors whose every refusal is a
//! JSON error too, and the names a request may use for chats.

use axum::Json;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Query, Request};
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde_json::json;

use super::MAX_BODY_BYTES;
use crate::base::{ChatKey, MemoryScope};
use crate::store::{ChatRow, Store};

/// Longest web conversation id.
pub const MAX_CONVERSATION_ID: usize = crate::base::MAX_WEB_ID;

/// An error answer: a status and `{"error": "…"}` saying what to do.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        Self {
            status,
            message: message.into(),
        }
    }
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message)
    }
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, message)
    }
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, message)
    }
    pub fn unprocessable(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(json!({ "error": self.message }))).into_response()
    }
}

/// Failures inside the server (the database): logged in full, answered in general terms.
impl From<anyhow::Error> for ApiError {
    fn from(e: anyhow::Error) -> Self {
        tracing::error!(error = %format!("{e:#}"), "web: request failed");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal error; the server log has the details",
        )
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> Self {
        anyhow::Error::from(e).into()
    }
}

pub type ApiResult<T> = Result<T, ApiError>;

/// `Json<T>` whose refusals (wrong content type, too large, malformed, wrong shape) are
/// JSON errors. Requiring `Content-Type: application/json` on every body is also what keeps
/// a plain HTML form on another site from posting here.
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        // Every body is an object: serde would read a struct from a list too (`["hi"]` as
        // `{"text": "hi"}`).
        let value = match Json::<serde_json::Value>::from_request(req, state).await {
            Ok(Json(v)) if v.is_object() => v,
            Ok(Json(_)) => {
                return Err(ApiError::unprocessable(
                    "the JSON has the wrong shape: the body is a JSON object",
                ));
            }
            Err(rejection) => return Err(json_refusal(rejection)),
        };
        serde_json::from_value(value)
            .map(Self)
            .map_err(|e| ApiError::unprocessable(format!("the JSON has the wrong shape: {e}")))
    }
}

/// Query parameters whose refusal is a JSON error too (axum's own is plain text).
pub struct ApiQuery<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for ApiQuery<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match Query::<T>::from_request_parts(parts, state).await {
            Ok(Query(v)) => Ok(Self(v)),
            Err(rejection) => Err(ApiError::bad_request(format!(
                "the query string is not what this endpoint takes: {}",
                query_problem(&rejection)
            ))),
        }
    }
}

/// What is wrong with a query string, without axum's "Failed to deserialize query string: ".
fn query_problem(rejection: &QueryRejection) -> String {
    let text = rejection.body_text();
    text.strip_prefix("Failed to deserialize query string: ")
        .unwrap_or(&text)
        .to_string()
}

fn json_refusal(rejection: JsonRejection) -> ApiError {
    match rejection {
        JsonRejection::MissingJsonContentType(_) => ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "send the body as JSON with `Content-Type: application/json`",
        ),
        JsonRejection::JsonSyntaxError(e) => {
            ApiError::bad_request(format!("the body is not valid JSON: {}", e.body_text()))
        }
        JsonRejection::JsonDataError(e) => {
            ApiError::unprocessable(format!("the JSON has the wrong shape: {}", e.body_text()))
        }
        JsonRejection::BytesRejection(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("the body is larger than {} KiB", MAX_BODY_BYTES / 1024),
            )
        }
        other => ApiError::new(other.status(), other.body_text()),
    }
}

/// A `limit` query parameter: `default` when absent, else 1 to `max`.
pub fn limit(raw: Option<u32>, default: u32, max: u32) -> ApiResult<u32> {
    match raw {
        None => Ok(default),
        Some(n) if (1..=max).contains(&n) => Ok(n),
        Some(n) => Err(ApiError::bad_request(format!(
            "`limit` is {n}; it is a whole number from 1 to {max}"
        ))),
    }
}

/// The answer for any path the server does not have.
pub async fn not_found() -> ApiError {
    ApiError::not_found("no such endpoint")
}

/// A method the endpoint does not take gets a JSON error too (naming the ones it takes when
/// the router says, in `Allow`).
pub async fn method_not_allowed_json(req: Request, next: axum::middleware::Next) -> Response {
    let method = req.method().clone();
    let resp = next.run(req).await;
    if resp.status() != StatusCode::METHOD_NOT_ALLOWED
        || resp
            .headers()
            .contains_key(axum::http::header::CONTENT_TYPE)
    {
        return resp;
    }
    let allow = resp
        .headers()
        .get(axum::http::header::ALLOW)
        .and_then(|v| v.to_str().ok())
        .filter(|v| !v.is_empty())
        .map(str::to_string);
    let message = match &allow {
        Some(allow) => format!("{method} is not taken here; this endpoint takes {allow}"),
        None => format!("{method} is not taken here; see README.md for the API"),
    };
    let mut json = ApiError::new(StatusCode::METHOD_NOT_ALLOWED, message).into_response();
    if let Some(v) = allow.and_then(|a| a.parse().ok()) {
        json.headers_mut().insert(axum::http::header::ALLOW, v);
    }
    json
}

/// A web conversation id as the page chose it: 1–64 of `A–Z a–z 0–9 - _ .`, not only dots.
/// The chat is `web:<id>`; its AGENTS.md folder name is the id itself.
pub fn conversation(id: &str) -> ApiResult<ChatKey> {
    if crate::base::is_external_id("web", id) {
        Ok(ChatKey::new("web", id))
    } else {
        Err(ApiError::bad_request(format!(
            "a conversation id is 1 to {MAX_CONVERSATION_ID} characters of letters, digits, `-`, `_` and `.`, not only dots"
        )))
    }
}

/// A chat named in a request (`CHANNEL:ID`), which must exist.
pub async fn existing_chat(store: &Store, name: &str) -> ApiResult<ChatRow> {
    let key: ChatKey = name
        .parse()
        .map_err(|e: crate::base::BadChatKey| ApiError::bad_request(e.to_string()))?;
    store
        .find_chat(&key)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no chat named {key}")))
}

/// `chat=global`, `chat=CHANNEL:ID`, or no `chat` (every scope).
pub async fn scope(store: &Store, chat: Option<&str>) -> ApiResult<Option<MemoryScope>> {
    match chat.map(str::trim).filter(|c| !c.is_empty()) {
        None => Ok(None),
        Some("global") => Ok(Some(MemoryScope::Global)),
        Some(name) => Ok(Some(MemoryScope::Chat(
            existing_chat(store, name).await?.id,
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversation_ids_are_plain_names() {
        for ok in ["alice", "c-1a2b", "a.b_c", "x".repeat(64).as_str()] {
            assert!(conversation(ok).is_ok(), "{ok}");
        }
        for bad in [
            "",
            ".",
            "..",
            "a/b",
            "../x",
            "a b",
            "名前",
            "a%2Fb",
            "x".repeat(65).as_str(),
        ] {
            assert!(conversation(bad).is_err(), "{bad:?}");
        }
    }
}
