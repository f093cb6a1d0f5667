//! The admin API's bearer token: every request must carry `Authorization: Bearer <token>`
//! when the server was given one, which it must be whenever the admin listener is not on
//! loopback. The token is compared in constant time (`subtle`), so the time an answer takes
//! says nothing of how much of a guess was right.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use subtle::ConstantTimeEq;

use super::error::ApiError;

/// A token the admin API requires; never shown (its `Debug` hides it).
#[derive(Clone)]
pub struct Token(Arc<[u8]>);

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Token(…)")
    }
}

/// Why a text cannot be a token.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    #[error("the token is empty")]
    Empty,
    #[error(
        "the token has a character that cannot be sent in a header (visible ASCII only, no spaces)"
    )]
    Character,
}

impl Token {
    /// The token in `text` (a file's content or a variable's value), surrounding whitespace
    /// (a file's last newline) left out.
    ///
    /// # Errors
    ///
    /// Nothing is left, or it has a character a header cannot carry.
    pub fn new(text: &str) -> Result<Self, TokenError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(TokenError::Empty);
        }
        if !text.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(TokenError::Character);
        }
        Ok(Self(Arc::from(text.as_bytes())))
    }

    /// The token as a request sends it.
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.0).unwrap_or_default()
    }

    /// Whether `presented` is this token, in time that does not depend on where they differ.
    fn admits(&self, presented: &[u8]) -> bool {
        bool::from(self.0.as_ref().ct_eq(presented))
    }
}

/// Middleware for `axum::middleware::from_fn_with_state`: without a token every request
/// passes; with one, a request without `Authorization: Bearer <token>`, or with another
/// token, is answered 401 before any handler runs, so it changes nothing.
pub(crate) async fn require_token(
    State(token): State<Option<Token>>,
    request: Request,
    next: Next,
) -> Response {
    let Some(token) = token else {
        return next.run(request).await;
    };
    let presented = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| {
            let (scheme, rest) = value.trim().split_once(' ')?;
            scheme.eq_ignore_ascii_case("bearer").then(|| rest.trim())
        });
    let refusal = match presented {
        Some(presented) if token.admits(presented.as_bytes()) => {
            return next.run(request).await;
        }
        Some(_) => "the bearer token is not this server's admin token",
        None => {
            "this admin API needs a bearer token: send Authorization: Bearer <token> (the \
             server's --admin-token-file or CAREEM_MCP_ADMIN_TOKEN)"
        }
    };
    tracing::warn!(method = %request.method(), uri = %request.uri(), "admin: refused a request: {refusal}");
    let mut response = ApiError::new(StatusCode::UNAUTHORIZED, refusal).into_response();
    response.headers_mut().insert(
        header::WWW_AUTHENTICATE,
        HeaderValue::from_static("Bearer realm=\"careem-mcp admin\""),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_trimmed_and_checked() {
        let cases: &[(&str, Result<&str, TokenError>)] = &[
            ("s3cret\n", Ok("s3cret")),
            ("  abc-DEF_123.~+/=  ", Ok("abc-DEF_123.~+/=")),
            ("", Err(TokenError::Empty)),
            (" \n\t", Err(TokenError::Empty)),
            ("two words", Err(TokenError::Character)),
            ("tökén", Err(TokenError::Character)),
        ];
        for (text, want) in cases {
            let got = Token::new(text).map(|t| t.as_str().to_string());
            assert_eq!(got, want.clone().map(str::to_string), "{text:?}");
        }
    }

    #[test]
    fn only_the_same_bytes_are_admitted() {
        let token = Token::new("s3cret").unwrap();
        for (presented, admitted) in [
            ("s3cret", true),
            ("s3cre", false),
            ("s3cret!", false),
            ("S3cret", false),
            ("", false),
        ] {
            assert_eq!(token.admits(presented.as_bytes()), admitted, "{presented}");
        }
    }
}
