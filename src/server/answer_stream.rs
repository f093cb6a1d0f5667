//! The SSE stream that carries one answer of the direct path (`direct.rs`), framed as rmcp's
//! `sse_stream_response` frames its own: the priming event `0/N` (when rmcp sends one), then the
//! answer `1/N`, with rmcp's headers. A unit test holds the events to `sse_stream`'s bytes.

use std::convert::Infallible;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, header};
use axum::response::Response;
use futures::{FutureExt, StreamExt};
use rmcp::model::RequestId;
use sse_stream::Sse;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tokio_util::sync::CancellationToken;

use super::duplicate_ids::Pending;
use super::fast_path;
use super::guarded_body::holding;
use super::sessions::Ready;

/// The priming event of stream `number` (`0/N`), when rmcp sends one.
fn priming(retry: Option<Duration>, number: u64) -> Option<Bytes> {
    let retry = retry?;
    let millis = u64::try_from(retry.as_millis()).unwrap_or(u64::MAX);
    let event = Sse::default()
        .data("")
        .id(format!("0/{number}"))
        .retry(millis);
    Some(Bytes::from(event))
}

/// The answer's event in stream `number`: `index` is 1 after a priming event, else 0. Framed as
/// `sse_stream` frames rmcp's (`data`, then `id`), without copying the JSON into a `String`.
fn event(index: u64, number: u64, json: &[u8]) -> Bytes {
    let id = format!("\nid: {index}/{number}\n\n");
    let mut event = Vec::with_capacity(6 + json.len() + id.len());
    event.extend_from_slice(b"data: ");
    event.extend_from_slice(json);
    event.extend_from_slice(id.as_bytes());
    Bytes::from(event)
}

/// rmcp's answer to a request: an SSE stream of `body`, holding the request's id pending until
/// it has been sent.
fn sse(body: Body, pending: Pending) -> Response {
    let mut response = Response::new(holding(body, pending));
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert("x-accel-buffering", HeaderValue::from_static("no"));
    response
}

/// A stream answered at once: its priming event and the answer, in one piece.
pub(super) fn now(ready: &Ready, number: u64, json: &[u8], pending: Pending) -> Response {
    let answer = event(u64::from(ready.retry.is_some()), number, json);
    let events = match priming(ready.retry, number) {
        Some(priming) => [priming, answer].concat().into(),
        None => answer,
    };
    let body = futures::stream::once(async move { Ok::<_, Infallible>(events) });
    sse(Body::from_stream(body), pending)
}

/// A stream whose answer comes later: the priming event at once, the answer once `answering`
/// has it (`fast_path::answer_in_task`: cancellable, run to its end).
pub(super) fn later(
    ready: &Ready,
    id: RequestId,
    number: u64,
    pending: Pending,
    call: CancellationToken,
    answering: impl Future<Output = Vec<u8>> + Send + 'static,
) -> Response {
    let ticket = ready.calls().insert(id.clone(), call.clone());
    let index = u64::from(ready.retry.is_some());
    let (sender, receiver) = mpsc::channel::<Bytes>(1);
    let answering = answering.map(move |json| event(index, number, &json));
    let registered = (Arc::clone(ready.calls()), id, ticket);
    fast_path::answer_in_task(registered, call, answering, sender);
    let events = futures::stream::iter(priming(ready.retry, number))
        .chain(ReceiverStream::new(receiver))
        .map(Ok::<_, Infallible>);
    sse(Body::from_stream(events), pending)
}

#[cfg(test)]
mod tests {
    use rmcp::model::ServerJsonRpcMessage;

    use super::*;

    #[test]
    fn events_are_framed_as_rmcps_stream_frames_them() {
        let message = ServerJsonRpcMessage::response(
            rmcp::model::ServerResult::empty(()),
            RequestId::Number(4),
        );
        let json = serde_json::to_string(&message).unwrap();
        for (index, number) in [(0, 0), (1, 7), (1, 12_345)] {
            let rmcps = Sse::default()
                .data(json.clone())
                .id(format!("{index}/{number}"));
            assert_eq!(event(index, number, json.as_bytes()), Bytes::from(rmcps));
        }
        let rmcps = Sse::default().data("").id("0/3").retry(3000);
        assert_eq!(
            priming(Some(Duration::from_secs(3)), 3),
            Some(Bytes::from(rmcps))
        );
        assert_eq!(priming(None, 3), None);
    }
}
