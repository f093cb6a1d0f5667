//! The API's write rule, on top of the `Host`/`Origin` check it shares with `serve`
//! ([`crate::http::listener`]): a request that changes anything must declare a JSON body. A
//! page on another site can send a cross-site form post or a "simple" `fetch` without asking,
//! but never one with `Content-Type: application/json`: the browser first asks with a CORS
//! preflight, which neither the admin listener nor the dashboard ever grants.

use axum::extract::Request;
use axum::http::{Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

pub(crate) async fn writes_declare_json(request: Request, next: Next) -> Response {
    let reads = matches!(*request.method(), Method::GET | Method::HEAD);
    if reads || declares_json(&request) {
        return next.run(request).await;
    }
    tracing::warn!(method = %request.method(), uri = %request.uri(), "refused a write without a JSON content type");
    (
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        axum::Json(serde_json::json!({"error": "writes must send Content-Type: application/json"})),
    )
        .into_response()
}

fn declares_json(request: &Request) -> bool {
    request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"))
}
