//! `subscriptions/listen` as SDK v1.7.0 answers it (SEP-2575): the client names the
//! notifications it wants on a stream of their own; the server acknowledges those it agrees
//! to send (`notifications/subscriptions/acknowledged`), then answers at once when it agreed
//! to none, or holds the request open until the client cancels it (`notifications/cancelled`:
//! then the result follows), leaves, or the session or the server ends (then nothing follows).
//! This server's tools and resources never change, so a held request carries nothing but its
//! acknowledgement.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::per_request::{META_SERVER_INFO, Protocol};
use super::session::{Pending, Session};
use super::{Mcp, Reply, id_in_use, params};
use crate::go::json::{self as go_json, Escaping};
use crate::server::jsonrpc::{INVALID_PARAMS, Id, Request, RpcError, error_message};

const META_SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

/// A `subscriptions/listen` the server took: its acknowledgement, then its result.
#[derive(Debug)]
pub(crate) struct Listening {
    acknowledged: Vec<u8>,
    result: Vec<u8>,
    /// The request's place among the session's pending ones while the subscription is held.
    held: Option<Pending>,
}

impl Listening {
    /// `notifications/subscriptions/acknowledged`, the first message of the answer.
    pub(crate) fn acknowledged(&self) -> &[u8] {
        &self.acknowledged
    }

    /// Whether the request stays open after its acknowledgement.
    pub(crate) fn is_held(&self) -> bool {
        self.held.is_some()
    }

    /// The result, once the subscription ends: at once when none is held; when held, once
    /// the client cancels it. `None` when the session ends first (nobody reads it then).
    /// Which of the two came first is what the cancellation recorded as it happened, never a
    /// race between watching the session and watching the call: the session's end cancels
    /// the call's token too, and may do so between two such looks.
    pub(crate) async fn result(self) -> Option<Vec<u8>> {
        let Some(held) = self.held else {
            return Some(self.result);
        };
        held.cancelled.cancelled().await;
        held.is_withdrawn().then_some(self.result)
    }
}

/// SDK v1.7.0's `NotificationSubscriptions`, as read from the request and as acknowledged:
/// each field an opt-in, left out when not asked for or not agreed to.
#[derive(Debug, Default, Deserialize, Serialize)]
struct Notifications {
    #[serde(
        default,
        rename = "toolsListChanged",
        skip_serializing_if = "is_false",
        deserialize_with = "null_is_zero"
    )]
    tools_list_changed: bool,
    #[serde(
        default,
        rename = "promptsListChanged",
        skip_serializing_if = "is_false",
        deserialize_with = "null_is_zero"
    )]
    prompts_list_changed: bool,
    #[serde(
        default,
        rename = "resourcesListChanged",
        skip_serializing_if = "is_false",
        deserialize_with = "null_is_zero"
    )]
    resources_list_changed: bool,
    #[serde(
        default,
        rename = "resourceSubscriptions",
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "null_is_zero"
    )]
    resource_subscriptions: Vec<Option<String>>,
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_false(value: &bool) -> bool {
    !value
}

/// Go leaves a field at its zero value when the JSON says `null`.
fn null_is_zero<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Ok(Option::<T>::deserialize(deserializer)?.unwrap_or_default())
}

impl Notifications {
    /// What the server agrees to send of what was asked, as the SDK's `allowedSubscriptions`
    /// does from its capabilities: tool list changes always (there are tools), resource list
    /// changes when it lists a resource; no prompts, no resource subscriptions.
    fn allowed(&self, resources: bool) -> Self {
        Self {
            tools_list_changed: self.tools_list_changed,
            resources_list_changed: self.resources_list_changed && resources,
            ..Self::default()
        }
    }

    fn any(&self) -> bool {
        self.tools_list_changed
            || self.prompts_list_changed
            || self.resources_list_changed
            || !self.resource_subscriptions.is_empty()
    }
}

#[derive(Serialize)]
struct Acknowledged<'a> {
    jsonrpc: &'static str,
    method: &'static str,
    params: AcknowledgedParams<'a>,
}

#[derive(Serialize)]
struct AcknowledgedParams<'a> {
    #[serde(rename = "_meta")]
    meta: SubscriptionMeta<'a>,
    notifications: Notifications,
}

#[derive(Serialize)]
struct SubscriptionMeta<'a> {
    #[serde(rename = "io.modelcontextprotocol/subscriptionId")]
    id: &'a Id,
}

/// `SubscriptionsListenResult`; under protocol 2026-07-28 `resultType` first and the server
/// named in `_meta`, whose keys Go writes sorted.
#[derive(Serialize)]
struct ListenResult {
    #[serde(rename = "resultType", skip_serializing_if = "Option::is_none")]
    result_type: Option<&'static str>,
    #[serde(rename = "_meta")]
    meta: serde_json::Map<String, serde_json::Value>,
}

impl Mcp {
    /// `subscriptions/listen`, admitted under `protocol`.
    pub(super) fn listen(
        &self,
        session: &Arc<Session>,
        request: &Request,
        protocol: &Protocol,
    ) -> Reply {
        #[derive(Deserialize)]
        struct Listen {
            #[serde(default)]
            notifications: Option<Notifications>,
        }
        let Some(id) = request.id.clone() else {
            return Reply::None;
        };
        let refused = |error: &RpcError| Reply::Message(error_message(Some(&id), error));
        let listen: Listen = match params(
            request.params.as_deref(),
            &request.method,
            "mcp.SubscriptionsListenParams",
        ) {
            Ok(listen) => listen,
            Err(error) => return refused(&error),
        };
        let Some(asked) = listen.notifications else {
            return refused(&RpcError::new(
                INVALID_PARAMS,
                "invalid params: missing required 'notifications' field",
            ));
        };
        let Some(pending) = session.enter(&id) else {
            return refused(&id_in_use(&id));
        };
        let allowed = asked.allowed(self.widget.is_some());
        let held = allowed.any().then_some(pending);
        Reply::Listening(Listening {
            acknowledged: acknowledgement(&id, allowed),
            result: self.listen_result(&id, protocol),
            held,
        })
    }

    fn listen_result(&self, id: &Id, protocol: &Protocol) -> Vec<u8> {
        let mut meta = serde_json::Map::new();
        let per_request = matches!(protocol, Protocol::PerRequest { .. });
        if per_request {
            meta.insert(
                META_SERVER_INFO.to_string(),
                serde_json::json!({"name": self.name, "version": self.version}),
            );
        }
        meta.insert(
            META_SUBSCRIPTION_ID.to_string(),
            serde_json::to_value(id).unwrap_or_default(),
        );
        let result = ListenResult {
            result_type: per_request.then_some("complete"),
            meta,
        };
        crate::server::jsonrpc::result_message(id, &go_json::to_vec(&result, Escaping::Envelope))
    }
}

fn acknowledgement(id: &Id, notifications: Notifications) -> Vec<u8> {
    go_json::to_vec(
        &Acknowledged {
            jsonrpc: "2.0",
            method: "notifications/subscriptions/acknowledged",
            params: AcknowledgedParams {
                meta: SubscriptionMeta { id },
                notifications,
            },
        },
        Escaping::Envelope,
    )
}

#[cfg(test)]
mod tests {
    use std::sync::PoisonError;
    use std::task::{Context, Poll, RawWaker, RawWakerVTable, Waker};

    use super::*;

    /// A held listen for id "t" of a session of its own.
    fn held() -> (Arc<Session>, Listening) {
        let session = Session::alone();
        let id = Id::Text("t".into());
        let listening = Listening {
            acknowledged: Vec::new(),
            result: b"result".to_vec(),
            held: session.enter(&id),
        };
        (session, listening)
    }

    /// What happens to a held listen, in order.
    #[derive(Clone, Copy, Debug)]
    enum Step {
        /// The client cancels it (`notifications/cancelled`).
        Cancel,
        /// The session ends.
        End,
        /// Its result is polled once.
        Poll,
    }

    #[test]
    fn a_held_listen_answers_when_its_client_cancelled_it_first_whenever_it_is_polled() {
        use Step::{Cancel, End, Poll as Polled};
        // (steps, then polled to the end: the result written)
        let cases: [(&[Step], bool); 6] = [
            (&[Cancel], true),
            (&[Polled, Cancel], true),
            (&[End], false),
            (&[Polled, End], false),
            (&[Cancel, End], true),
            (&[End, Cancel], false),
        ];
        for (steps, written) in cases {
            let (session, listening) = held();
            let mut result = Box::pin(listening.result());
            let mut context = Context::from_waker(Waker::noop());
            for step in steps {
                match step {
                    Step::Cancel => session.cancel(&Id::Text("t".into())),
                    Step::End => session.end(),
                    Step::Poll => assert!(result.as_mut().poll(&mut context).is_pending()),
                }
            }
            let Poll::Ready(answer) = result.as_mut().poll(&mut context) else {
                panic!("{steps:?}: still held");
            };
            assert_eq!(answer.is_some(), written, "{steps:?}");
        }
    }

    /// The session [`ENDING`] ends, once it is set.
    static TO_END: std::sync::Mutex<Option<Arc<Session>>> = std::sync::Mutex::new(None);

    /// A waker that ends [`TO_END`] when one of its copies is dropped. tokio drops a task's
    /// old waker inside a poll, when the task is polled again with another one: there the
    /// session ends as it does when another worker thread ends it while the listen's task is
    /// being polled.
    const ENDING: RawWakerVTable = RawWakerVTable::new(
        |_| RawWaker::new(std::ptr::null(), &ENDING),
        |_| {},
        |_| {},
        |_| {
            let session = TO_END.lock().unwrap_or_else(PoisonError::into_inner).take();
            if let Some(session) = session {
                session.end();
            }
        },
    );

    #[test]
    fn a_held_listen_whose_session_ends_while_it_is_polled_answers_nothing() {
        let (session, listening) = held();
        let mut result = Box::pin(listening.result());
        // SAFETY: the vtable's functions ignore the data pointer, null here.
        let ending = unsafe { Waker::from_raw(RawWaker::new(std::ptr::null(), &ENDING)) };
        assert!(
            result
                .as_mut()
                .poll(&mut Context::from_waker(&ending))
                .is_pending()
        );
        *TO_END.lock().unwrap_or_else(PoisonError::into_inner) = Some(Arc::clone(&session));
        let mut context = Context::from_waker(Waker::noop());
        let answer = (0..2)
            .find_map(|_| match result.as_mut().poll(&mut context) {
                Poll::Ready(answer) => Some(answer),
                Poll::Pending => None,
            })
            .expect("answered once the session ended");
        assert!(
            session.has_ended(),
            "the session ended while the listen was polled"
        );
        assert_eq!(answer, None, "nothing follows the session's end");
    }

    #[test]
    fn what_is_acknowledged_of_each_ask() {
        // (asked, the widget listed, acknowledged)
        let cases = [
            (r#"{}"#, true, r#"{}"#),
            (
                r#"{"toolsListChanged":true}"#,
                false,
                r#"{"toolsListChanged":true}"#,
            ),
            (
                r#"{"resourcesListChanged":true}"#,
                true,
                r#"{"resourcesListChanged":true}"#,
            ),
            (r#"{"resourcesListChanged":true}"#, false, r#"{}"#),
            (
                r#"{"promptsListChanged":true,"resourceSubscriptions":["x"]}"#,
                true,
                r#"{}"#,
            ),
            (
                r#"{"toolsListChanged":null,"resourceSubscriptions":null,"other":1}"#,
                true,
                r#"{}"#,
            ),
        ];
        for (asked, widget, want) in cases {
            let asked: Notifications = serde_json::from_str(asked).expect(asked);
            let allowed = asked.allowed(widget);
            assert_eq!(allowed.any(), want != "{}", "{want}");
            let written = String::from_utf8(acknowledgement(&Id::Text("s".into()), allowed));
            let want = format!(
                r#"{{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{{"_meta":{{"io.modelcontextprotocol/subscriptionId":"s"}},"notifications":{want}}}}}"#
            );
            assert_eq!(written.as_deref(), Ok(want.as_str()));
        }
    }
}
