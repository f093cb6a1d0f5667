//! The same JSON-RPC request id twice at once over stdio or legacy SSE. rmcp's service keeps one
//! entry per pending request id: a second request with an id still pending replaces the
//! first's, the first answer sent takes that entry (and cancels the second request), and the
//! other answer is dropped. Streamable HTTP refuses such a request before rmcp sees it
//! (`duplicate_ids.rs`); stdio and legacy SSE are transports this server hands to rmcp itself,
//! so this wraps them: a request whose id is pending never reaches rmcp and is answered at once
//! with [`refusal`]'s `-32600`, through the same transport, as production's Go SDK answers it.
//!
//! An id is pending from its request until the answer with that id is handed to the transport
//! (freed just before it is written, so a client that reuses an id once answered is never
//! refused), or until the client cancels it: rmcp sends no answer for a cancelled request.

use std::collections::HashSet;

use rmcp::RoleServer;
use rmcp::model::{ClientJsonRpcMessage, ClientNotification, RequestId, ServerJsonRpcMessage};
use rmcp::transport::Transport;

use super::duplicate_ids::refusal;

/// A server transport whose client requests have ids unique among those pending.
pub(crate) struct UniqueIds<T> {
    inner: T,
    /// rmcp takes `&mut` for both directions and never polls them at once: no lock needed.
    pending: HashSet<RequestId>,
}

impl<T> UniqueIds<T> {
    pub(crate) fn new(inner: T) -> Self {
        Self {
            inner,
            pending: HashSet::new(),
        }
    }
}

impl<T: Transport<RoleServer>> Transport<RoleServer> for UniqueIds<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: ServerJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let answered = match &item {
            ServerJsonRpcMessage::Response(response) => Some(&response.id),
            ServerJsonRpcMessage::Error(error) => error.id.as_ref(),
            ServerJsonRpcMessage::Request(_) | ServerJsonRpcMessage::Notification(_) => None,
        };
        if let Some(id) = answered {
            self.pending.remove(id);
        }
        self.inner.send(item)
    }

    /// Cancel-safe as rmcp needs it (it polls this inside a `select!`): once the inner transport
    /// has given a message, nothing here waits before it is handed on or answered.
    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        loop {
            let message = self.inner.receive().await?;
            match &message {
                ClientJsonRpcMessage::Request(request) => {
                    if !self.pending.insert(request.id.clone()) {
                        self.refuse(request.id.clone());
                        continue;
                    }
                }
                ClientJsonRpcMessage::Notification(notification) => {
                    if let ClientNotification::CancelledNotification(cancelled) =
                        &notification.notification
                        && let Some(id) = &cancelled.params.request_id
                    {
                        self.pending.remove(id);
                    }
                }
                ClientJsonRpcMessage::Response(_) | ClientJsonRpcMessage::Error(_) => {}
            }
            return Some(message);
        }
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}

impl<T: Transport<RoleServer>> UniqueIds<T> {
    /// Answers a duplicate on its own task: the write may wait for the transport while this
    /// goes on reading. The answer bypasses [`Transport::send`] above, so the first request's
    /// id stays pending.
    fn refuse(&mut self, id: RequestId) {
        tracing::debug!(%id, "a request id already pending: refused");
        let answer = self.inner.send(refusal(id));
        tokio::spawn(async move {
            if let Err(error) = answer.await {
                tracing::debug!("cannot answer a duplicate request id: {error}");
            }
        });
    }
}
