//! Injected faults as production's ingress shows them over HTTP: its 502, 503 and 504, the 404
//! of a session that ended, and a connection cut mid-answer. They fire in front of the SDK's
//! layer, as production's load balancer stands in front of its Go server; the faults the SDK's
//! layer answers (`-32603`, `hang`, a stdio process that ends) live in `mcp/calls.rs`.

use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;
use futures::StreamExt;
use serde_json::value::RawValue;
use tokio_util::sync::CancellationToken;

use super::mcp::{Mcp, PlannedCall, Session};
use super::plain;
use super::sessions::Sessions;
use crate::engine::{Fault, Origin};

/// What the ingress reaches of the server behind it: the MCP layer that journals, the session
/// table, and the shutdown that ends a wait.
#[derive(Clone, Copy)]
pub(crate) struct Ingress<'a> {
    mcp: &'a Mcp,
    sessions: &'a Sessions,
    shutdown: &'a CancellationToken,
}

impl<'a> Ingress<'a> {
    pub(crate) fn new(
        mcp: &'a Mcp,
        sessions: &'a Sessions,
        shutdown: &'a CancellationToken,
    ) -> Self {
        Self {
            mcp,
            sessions,
            shutdown,
        }
    }

    /// The one step of a call whose fault the ingress answers ([`PlannedCall::ingress_fault`]),
    /// the same over every HTTP transport: the plan's delay first (docs/CONTROLS.md), then the
    /// journal line, then the end of what the fault ends, then the ingress's answer. A shutdown
    /// during the delay answers 503, as an ingress whose upstream went away does.
    pub(crate) async fn serve_fault(
        self,
        session: &Arc<Session>,
        params: Option<&RawValue>,
        arrival: PlannedCall,
        fault: Fault,
    ) -> Response {
        let waited = self
            .mcp
            .delay_and_journal_fault(session, params, arrival, fault, self.shutdown)
            .await;
        if !waited {
            return ingress_answer(Fault::Http503);
        }
        // A session without an id (v1.7.0's stateless) lives for its POST alone.
        let Some(id) = session.id() else {
            return ingress_answer(fault);
        };
        match fault {
            Fault::SessionExpired => {
                session.expire();
                self.sessions.close(id);
            }
            // Over legacy SSE the connection the ingress cuts is the session's stream: the
            // POST went through, the answer never comes.
            Fault::Drop if session.origin() == Origin::Sse => {
                self.sessions.close(id);
                return plain::empty(StatusCode::ACCEPTED);
            }
            _ => {}
        }
        ingress_answer(fault)
    }
}

/// The ingress's answer to a faulted call.
fn ingress_answer(fault: Fault) -> Response {
    let (status, body) = match fault {
        Fault::Http502 => (
            StatusCode::BAD_GATEWAY,
            "upstream connect error or disconnect/reset before headers. reset reason: connection termination",
        ),
        Fault::Http503 => (StatusCode::SERVICE_UNAVAILABLE, "no healthy upstream"),
        Fault::Http504 => (StatusCode::GATEWAY_TIMEOUT, "upstream request timeout"),
        Fault::SessionExpired => {
            return plain::error(StatusCode::NOT_FOUND, "session not found");
        }
        Fault::Drop | Fault::Hang | Fault::InternalError => return broken_stream(),
    };
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain"));
    response
}

/// A POST's stream whose connection is reset before any event reaches the client.
fn broken_stream() -> Response {
    let body = futures::stream::once(async {
        Err::<Bytes, std::io::Error>(std::io::Error::new(
            std::io::ErrorKind::ConnectionReset,
            "connection reset",
        ))
    });
    super::sessions::stream(body.boxed(), None)
}
