//! The same JSON-RPC request id twice at once on one Streamable HTTP session. rmcp routes an
//! answer to the POST stream by its request id, so the second POST took over the first's route
//! and one of the two was never answered. JSON-RPC wants an id unique among a client's pending
//! requests, and production's Go SDK checks exactly that (`invalid request: request ID … already
//! in use`, code `-32600`); this answers the second request so, at once, and the first as
//! usual. An id is free again once its answer has been sent (or its POST dropped). stdio and
//! legacy SSE, whose transports this server owns, refuse the same way in `unique_ids.rs`, with
//! the answer [`refusal`] words here.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rmcp::model::{ErrorData, NumberOrString, RequestId, ServerJsonRpcMessage};
use serde::Deserialize;
use serde::de::IgnoredAny;

use super::guarded_body::holding;
use super::http::MAX_BODY_BYTES;
use super::sessions::session_of_post;

/// The request ids pending on each session, as `(session, id)`.
#[derive(Debug, Clone, Default)]
pub(crate) struct PendingIds(Arc<Mutex<HashSet<Key>>>);

type Key = (String, RequestId);

/// What this layer reads of a message: a request has a `method` and an `id`.
#[derive(Deserialize)]
struct Message {
    method: Option<IgnoredAny>,
    id: Option<RequestId>,
}

/// The answer to a request whose id is already pending, `-32600` in the words of production's
/// Go SDK (its JSON-RPC layer), on every transport.
pub(crate) fn refusal(id: RequestId) -> ServerJsonRpcMessage {
    let shown = match &id {
        NumberOrString::Number(number) => number.to_string(),
        NumberOrString::String(text) => serde_json::Value::from(&**text).to_string(),
    };
    let message = format!("invalid request: request ID {shown} already in use");
    ServerJsonRpcMessage::error(ErrorData::invalid_request(message, None), Some(id))
}

/// A request id pending on a session, freed when dropped.
pub(crate) struct Pending {
    ids: PendingIds,
    key: Key,
}

impl Drop for Pending {
    fn drop(&mut self) {
        self.ids.lock().remove(&self.key);
    }
}

impl PendingIds {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashSet<Key>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Marks `key` pending, unless it already is.
    pub(crate) fn take(&self, key: Key) -> Option<Pending> {
        self.lock().insert(key.clone()).then(|| Pending {
            ids: self.clone(),
            key,
        })
    }
}

/// Answers a request whose id is already pending on its session with `-32600`; counts every
/// other request's id as pending until its answer has been sent.
pub(crate) async fn refuse_duplicate_ids(
    State(pending): State<PendingIds>,
    request: Request,
    next: Next,
) -> Response {
    let Some(session) = session_of_post(&request) else {
        return next.run(request).await;
    };
    let (parts, body) = request.into_parts();
    // Already read whole (`http::read_bodies_in_time`): this only takes the bytes.
    let Ok(bytes) = axum::body::to_bytes(body, MAX_BODY_BYTES).await else {
        return (StatusCode::PAYLOAD_TOO_LARGE, "Payload Too Large").into_response();
    };
    let id = serde_json::from_slice::<Message>(&bytes)
        .ok()
        .filter(|message| message.method.is_some())
        .and_then(|message| message.id);
    let request = Request::from_parts(parts, Body::from(bytes));
    let Some(id) = id else {
        return next.run(request).await;
    };
    let Some(guard) = pending.take((session, id.clone())) else {
        tracing::debug!(%id, "a request id already pending on its session: refused");
        return axum::Json(refusal(id)).into_response();
    };
    next.run(request).await.map(|body| holding(body, guard))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_duplicate_is_answered_as_production_words_it() {
        let cases = [
            (
                RequestId::Number(7),
                r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"invalid request: request ID 7 already in use"}}"#,
            ),
            (
                RequestId::String("a\"b".into()),
                r#"{"jsonrpc":"2.0","id":"a\"b","error":{"code":-32600,"message":"invalid request: request ID \"a\\\"b\" already in use"}}"#,
            ),
        ];
        for (id, want) in cases {
            assert_eq!(serde_json::to_string(&refusal(id)).unwrap(), want);
        }
    }
}
