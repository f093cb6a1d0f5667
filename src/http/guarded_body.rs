//! A response body that holds a value until hyper has sent it all or dropped it (the client
//! went away): for what must last exactly as long as an answer, a stream included.

use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use http_body::{Frame, SizeHint};

/// `body`, holding `guard` until the body is dropped.
pub(crate) fn holding<G: Send + Unpin + 'static>(body: Body, guard: G) -> Body {
    Body::new(Guarded {
        body,
        _guard: guard,
    })
}

struct Guarded<G> {
    body: Body,
    _guard: G,
}

impl<G: Send + Unpin + 'static> http_body::Body for Guarded<G> {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.get_mut().body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}
