//! The page and its front end, compiled into the binary (`include_str!`) so the dashboard works
//! offline with nothing to install or build: plain ES modules, one per view, no framework.

use axum::Router;
use axum::extract::Path;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

/// Every asset by the name the page asks for, with its content type.
const ASSETS: &[(&str, &str, &str)] = &[
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("assets/style.css"),
    ),
    ("app.js", JS, include_str!("assets/app.js")),
    ("api.js", JS, include_str!("assets/api.js")),
    ("dom.js", JS, include_str!("assets/dom.js")),
    ("json.js", JS, include_str!("assets/json.js")),
    ("calls.js", JS, include_str!("assets/calls.js")),
    ("scenarios.js", JS, include_str!("assets/scenarios.js")),
    ("controls.js", JS, include_str!("assets/controls.js")),
    ("try.js", JS, include_str!("assets/try.js")),
    ("tools.js", JS, include_str!("assets/tools.js")),
    ("world.js", JS, include_str!("assets/world.js")),
    ("verdict.js", JS, include_str!("assets/verdict.js")),
];

const JS: &str = "text/javascript; charset=utf-8";
const INDEX: &str = include_str!("assets/index.html");

/// Scripts and styles from this origin only, and no framing: another site can neither inject
/// into the page nor overlay it to trick a click on "force".
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                   connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

pub(super) fn routes() -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { page("text/html; charset=utf-8", INDEX) }),
        )
        .route("/assets/{name}", get(asset))
}

async fn asset(Path(name): Path<String>) -> Response {
    match ASSETS.iter().find(|(n, _, _)| *n == name) {
        Some((_, kind, body)) => page(kind, body),
        None => (StatusCode::NOT_FOUND, "Not Found").into_response(),
    }
}

fn page(kind: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CONTENT_SECURITY_POLICY, CSP),
            (header::X_FRAME_OPTIONS, "DENY"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}
