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
    session: Arc<Session>,
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
    pub(crate) async fn result(self) -> Option<Vec<u8>> {
        let Some(held) = self.held else {
            return Some(self.result);
        };
        tokio::select! {
            biased;
            () = self.session.ended() => None,
            () = held.cancelled.cancelled() => Some(self.result),
        }
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
            session: Arc::clone(session),
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
    use super::*;

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
