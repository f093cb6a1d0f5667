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
//! refused), or until the client cancels it with `notifications/cancelled`.
//!
//! rmcp knows each request by an id of this wrapper's own, never reused, put back into the
//! answer: a cancelled call may still be running when the client reuses its id, and rmcp, which
//! drops a cancelled call's answer by its id, would otherwise send that stale answer for the new
//! request and drop the new one's.

use std::collections::HashMap;

use rmcp::RoleServer;
use rmcp::model::{ClientJsonRpcMessage, ClientNotification, RequestId, ServerJsonRpcMessage};
use rmcp::transport::Transport;

use super::duplicate_ids::refusal;

/// A server transport whose client requests have ids unique among those pending.
///
/// rmcp takes `&mut` for both directions and never polls them at once: no lock needed.
pub(crate) struct UniqueIds<T> {
    inner: T,
    /// Each pending request's id, as the client sent it, to the id rmcp knows it by.
    pending: HashMap<RequestId, RequestId>,
    /// The way back, from rmcp's id to the client's.
    clients: HashMap<RequestId, RequestId>,
    next: i64,
}

impl<T> UniqueIds<T> {
    pub(crate) fn new(inner: T) -> Self {
        Self {
            inner,
            pending: HashMap::new(),
            clients: HashMap::new(),
            next: 0,
        }
    }

    /// The id rmcp knows the client's new request `id` by; `None` when `id` is pending.
    fn track(&mut self, id: &RequestId) -> Option<RequestId> {
        if self.pending.contains_key(id) {
            return None;
        }
        let own = RequestId::Number(self.next);
        self.next += 1;
        self.pending.insert(id.clone(), own.clone());
        self.clients.insert(own.clone(), id.clone());
        Some(own)
    }

    /// Frees the request rmcp knows as `own`: the client's id for it, if it was pending.
    fn free(&mut self, own: &RequestId) -> Option<RequestId> {
        let id = self.clients.remove(own)?;
        self.pending.remove(&id);
        Some(id)
    }
}

impl<T: Transport<RoleServer>> Transport<RoleServer> for UniqueIds<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        mut item: ServerJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let answered = match &mut item {
            ServerJsonRpcMessage::Response(response) => Some(&mut response.id),
            ServerJsonRpcMessage::Error(error) => error.id.as_mut(),
            ServerJsonRpcMessage::Request(_) | ServerJsonRpcMessage::Notification(_) => None,
        };
        if let Some(id) = answered
            && let Some(client) = self.free(id)
        {
            *id = client;
        }
        self.inner.send(item)
    }

    /// Cancel-safe as rmcp needs it (it polls this inside a `select!`): once the inner transport
    /// has given a message, nothing here waits before it is handed on or answered.
    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        loop {
            let mut message = self.inner.receive().await?;
            match &mut message {
                ClientJsonRpcMessage::Request(request) => {
                    let Some(own) = self.track(&request.id) else {
                        self.refuse(request.id.clone());
                        continue;
                    };
                    request.id = own;
                }
                ClientJsonRpcMessage::Notification(notification) => {
                    if let ClientNotification::CancelledNotification(cancelled) =
                        &mut notification.notification
                        && let Some(id) = &mut cancelled.params.request_id
                    {
                        // A request no longer pending is unknown to rmcp, whose ids are ours.
                        let Some(own) = self.pending.get(id).cloned() else {
                            continue;
                        };
                        self.free(&own);
                        *id = own;
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

#[cfg(test)]
mod tests {
    use futures::StreamExt;
    use rmcp::transport::sink_stream::SinkStreamTransport;
    use serde_json::{Value, json};
    use tokio::sync::mpsc;
    use tokio_stream::wrappers::ReceiverStream;
    use tokio_util::sync::PollSender;

    use super::*;

    /// The wrapper over a pair of channels: what the client sends, what it receives.
    struct Wired {
        ids: UniqueIds<
            SinkStreamTransport<
                PollSender<ServerJsonRpcMessage>,
                ReceiverStream<ClientJsonRpcMessage>,
            >,
        >,
        client: mpsc::Sender<ClientJsonRpcMessage>,
        answers: ReceiverStream<ServerJsonRpcMessage>,
    }

    impl Wired {
        fn new() -> Self {
            let (client, from_client) = mpsc::channel(8);
            let (to_client, answers) = mpsc::channel(8);
            let inner = SinkStreamTransport::new(
                PollSender::new(to_client),
                ReceiverStream::new(from_client),
            );
            Self {
                ids: UniqueIds::new(inner),
                client,
                answers: ReceiverStream::new(answers),
            }
        }

        /// Sends `message` as the client, and what rmcp then receives (nothing, when the
        /// wrapper kept it back).
        async fn receive(&mut self, message: Value) -> Option<Value> {
            let message = serde_json::from_value(message).unwrap();
            self.client.send(message).await.unwrap();
            let ping = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
            self.client
                .send(serde_json::from_value(ping.clone()).unwrap())
                .await
                .unwrap();
            let got = serde_json::to_value(self.ids.receive().await.unwrap()).unwrap();
            if got == ping {
                return None;
            }
            assert_eq!(
                serde_json::to_value(self.ids.receive().await.unwrap()).unwrap(),
                ping
            );
            Some(got)
        }

        /// rmcp answers `id`; what the client gets.
        async fn answer(&mut self, id: i64) -> Value {
            let answer = json!({"jsonrpc": "2.0", "id": id, "result": {}});
            self.ids
                .send(serde_json::from_value(answer).unwrap())
                .await
                .unwrap();
            self.next().await
        }

        async fn next(&mut self) -> Value {
            serde_json::to_value(self.answers.next().await.unwrap()).unwrap()
        }
    }

    fn request(id: Value) -> Value {
        json!({"jsonrpc": "2.0", "id": id, "method": "ping"})
    }

    fn cancel(id: Value) -> Value {
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": id}})
    }

    #[tokio::test]
    async fn rmcp_sees_ids_of_its_own_and_the_client_its_own_ids_back() {
        let mut wired = Wired::new();
        assert_eq!(wired.receive(request(json!(7))).await.unwrap()["id"], 0);
        assert_eq!(wired.receive(request(json!("7"))).await.unwrap()["id"], 1);
        // A duplicate never reaches rmcp; the client is answered -32600.
        assert_eq!(wired.receive(request(json!(7))).await, None);
        let refused = wired.next().await;
        assert_eq!(
            (refused["id"].clone(), refused["error"]["code"].clone()),
            (json!(7), json!(-32600))
        );
        assert_eq!(wired.answer(0).await["id"], 7);
        // Answered, 7 is free: a new request, a new id for rmcp.
        assert_eq!(wired.receive(request(json!(7))).await.unwrap()["id"], 2);
        // Cancelled, "7" is free; rmcp gets the cancel under its own id.
        assert_eq!(
            wired.receive(cancel(json!("7"))).await.unwrap()["params"]["requestId"],
            1
        );
        assert_eq!(wired.receive(request(json!("7"))).await.unwrap()["id"], 3);
        // A cancel of nothing pending is nothing to rmcp (whose 2 is another request).
        assert_eq!(wired.receive(cancel(json!(2))).await, None);
        // The new "7" is answered under the client's id.
        assert_eq!(wired.answer(3).await["id"], "7");
    }
}
