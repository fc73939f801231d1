//! Who may call the server, and the headers every answer carries.

use axum::extract::{Request, State};
use axum::http::header::{self, HeaderValue};
use axum::http::{HeaderMap, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use subtle::ConstantTimeEq;

use super::App;
use super::api::ApiError;

/// Scripts and styles only from this server (none inline), no framing, no plugins.
const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
    connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// Paths anyone who reaches the server may get: the page itself (no data in it) and the
/// health check (no secrets in it).
fn is_public(path: &str) -> bool {
    matches!(path, "/" | "/app.js" | "/style.css" | "/healthz")
}

/// Runs before every handler. With a token configured: the API and `/metrics` need it.
/// Without one (the server is on loopback): the request must name this server in `Host` and
/// must not come from another origin, which keeps other web pages — including ones that
/// rebind their DNS name to 127.0.0.1 — from driving the bot through the browser.
pub(super) async fn guard(State(app): State<App>, req: Request, next: Next) -> Response {
    let headers = req.headers();
    match &app.token {
        Some(token) => {
            if !is_public(req.uri().path()) && !bearer_matches(headers, token.expose()) {
                let mut resp = ApiError::new(
                    StatusCode::UNAUTHORIZED,
                    "this server needs its access token: send `Authorization: Bearer <token>` \
                     (channels.web.auth_token / MNEME_WEB_AUTH_TOKEN)",
                )
                .into_response();
                resp.headers_mut().insert(
                    header::WWW_AUTHENTICATE,
                    HeaderValue::from_static("Bearer realm=\"mneme\""),
                );
                return resp;
            }
        }
        None => {
            let host = headers
                .get(header::HOST)
                .and_then(|h| h.to_str().ok())
                .unwrap_or_default()
                .to_ascii_lowercase();
            if !app.allowed_hosts.contains(&host) {
                return ApiError::new(
                    StatusCode::MISDIRECTED_REQUEST,
                    format!(
                        "this server answers only as {} (Host header `{}` refused); set channels.web.auth_token to serve other names",
                        app.allowed_hosts[0],
                        host.chars().take(100).collect::<String>()
                    ),
                )
                .into_response();
            }
            if let Some(origin) = headers.get(header::ORIGIN) {
                let same = origin
                    .to_str()
                    .ok()
                    .and_then(|o| o.strip_prefix("http://"))
                    .is_some_and(|o| o.eq_ignore_ascii_case(&host));
                if !same {
                    return ApiError::forbidden("requests from other web sites are refused")
                        .into_response();
                }
            }
        }
    }
    next.run(req).await
}

/// True when the request carries `Authorization: Bearer <token>`. The comparison takes the
/// same time wherever the first difference is, so timing does not reveal the token.
fn bearer_matches(headers: &HeaderMap, token: &str) -> bool {
    let Some(given) = headers
        .get(header::AUTHORIZATION)
        .and_then(|h| h.to_str().ok())
        // The scheme's name is case-insensitive (RFC 9110, 11.1).
        .and_then(|h| h.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| token)
    else {
        return false;
    };
    bool::from(given.trim().as_bytes().ct_eq(token.as_bytes()))
}

/// Headers on every answer: a strict content policy, no sniffing, no framing, no referrer,
/// and no caching of API data.
pub(super) async fn security_headers(req: Request, next: Next) -> Response {
    let is_api = req.uri().path().starts_with("/api/");
    let mut resp = next.run(req).await;
    let h = resp.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    if is_api {
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    resp
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_auth(value: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::AUTHORIZATION, value.parse().unwrap());
        h
    }

    #[test]
    fn only_the_exact_bearer_token_passes() {
        let token = "s3cret-token-value";
        assert!(bearer_matches(
            &with_auth("Bearer s3cret-token-value"),
            token
        ));
        assert!(!bearer_matches(
            &with_auth("Bearer s3cret-token-valuE"),
            token
        ));
        assert!(!bearer_matches(&with_auth("Bearer s3cret"), token));
        assert!(!bearer_matches(
            &with_auth("Basic s3cret-token-value"),
            token
        ));
        assert!(!bearer_matches(&with_auth("s3cret-token-value"), token));
        // the scheme's name in any case
        assert!(bearer_matches(
            &with_auth("bearer s3cret-token-value"),
            token
        ));
        assert!(bearer_matches(
            &with_auth("BEARER s3cret-token-value"),
            token
        ));
        assert!(!bearer_matches(&HeaderMap::new(), token));
    }
}
