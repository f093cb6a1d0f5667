//! The methods a Go SDK server receives, and its envelope check of each request: a method it
//! does not know, an id where none belongs (or none where one does), `params` left out.

use super::codes::{INVALID_REQUEST, METHOD_NOT_FOUND, UNCODED};
use super::message::{Request, RpcError};
use crate::server::WireProfile;

/// A method the server answers, as the SDK's table names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Method {
    Initialize,
    /// `server/discover`, protocol 2026-07-28's handshake (v1.7.0 only).
    Discover,
    Ping,
    ToolsList,
    ToolsCall,
    ResourcesList,
    ResourceTemplatesList,
    ResourcesRead,
    ResourcesSubscribe,
    ResourcesUnsubscribe,
    PromptsList,
    PromptsGet,
    Complete,
    SetLevel,
    Cancelled,
    Initialized,
    RootsListChanged,
    Progress,
    /// `subscriptions/listen`, protocol 2026-07-28's stream of notifications (v1.7.0 only).
    SubscriptionsListen,
}

impl Method {
    /// v1.7.0's methods, which v1.6.1's table does not hold.
    fn is_new_in_1_7_0(self) -> bool {
        matches!(self, Self::Discover | Self::SubscriptionsListen)
    }
}

/// Whether a method is a notification, and whether it may come without `params`.
#[derive(Debug, Clone, Copy)]
struct Flags {
    notification: bool,
    params_optional: bool,
}

const CALL: Flags = Flags {
    notification: false,
    params_optional: false,
};
const CALL_BARE: Flags = Flags {
    notification: false,
    params_optional: true,
};
const NOTE: Flags = Flags {
    notification: true,
    params_optional: false,
};
const NOTE_BARE: Flags = Flags {
    notification: true,
    params_optional: true,
};

const TABLE: [(&str, Method, Flags); 19] = [
    ("completion/complete", Method::Complete, CALL),
    ("initialize", Method::Initialize, CALL),
    ("server/discover", Method::Discover, CALL_BARE),
    ("ping", Method::Ping, CALL_BARE),
    ("prompts/list", Method::PromptsList, CALL_BARE),
    ("prompts/get", Method::PromptsGet, CALL),
    ("tools/list", Method::ToolsList, CALL_BARE),
    ("tools/call", Method::ToolsCall, CALL),
    ("resources/list", Method::ResourcesList, CALL_BARE),
    (
        "resources/templates/list",
        Method::ResourceTemplatesList,
        CALL_BARE,
    ),
    ("resources/read", Method::ResourcesRead, CALL),
    ("logging/setLevel", Method::SetLevel, CALL),
    ("resources/subscribe", Method::ResourcesSubscribe, CALL),
    ("resources/unsubscribe", Method::ResourcesUnsubscribe, CALL),
    ("subscriptions/listen", Method::SubscriptionsListen, CALL),
    ("notifications/cancelled", Method::Cancelled, NOTE_BARE),
    ("notifications/initialized", Method::Initialized, NOTE_BARE),
    (
        "notifications/roots/list_changed",
        Method::RootsListChanged,
        NOTE_BARE,
    ),
    ("notifications/progress", Method::Progress, NOTE),
];

/// A request the SDK refuses before any handler sees it. Over HTTP it is a plain-text 400 with
/// this text; over stdio a JSON-RPC error with [`Refusal::code`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum Refusal {
    #[error("JSON RPC not handled: {} unsupported", crate::go::fmt::quote(.0))]
    NotHandled(String),
    #[error("invalid request: unexpected id for {}", crate::go::fmt::quote(.0))]
    UnexpectedId(String),
    #[error("invalid request: missing id for {}", crate::go::fmt::quote(.0))]
    MissingId(String),
    #[error("invalid request: missing required \"params\"")]
    MissingParams,
}

impl Refusal {
    /// The JSON-RPC error a transport that answers in JSON-RPC (stdio) sends for it: v1.6.1's
    /// "not handled" carries code 0 and its own words, v1.7.0's is "method not found".
    pub(crate) fn rpc_error(&self, profile: WireProfile) -> RpcError {
        match self {
            Self::NotHandled(method) if profile.not_handled_is_method_not_found() => RpcError::new(
                METHOD_NOT_FOUND,
                format!("method not found: {}", crate::go::fmt::quote(method)),
            ),
            Self::NotHandled(_) => RpcError::new(UNCODED, self.to_string()),
            _ => RpcError::new(INVALID_REQUEST, self.to_string()),
        }
    }
}

/// The SDK's `checkRequest`, against the table of `profile`'s release.
pub(crate) fn check(request: &Request, profile: WireProfile) -> Result<Method, Refusal> {
    let Some((_, method, flags)) = TABLE
        .iter()
        .filter(|(_, method, _)| profile.answers_discover() || !method.is_new_in_1_7_0())
        .find(|(name, ..)| *name == request.method)
    else {
        return Err(Refusal::NotHandled(request.method.clone()));
    };
    if flags.notification && request.is_call() {
        return Err(Refusal::UnexpectedId(request.method.clone()));
    }
    if !flags.notification && !request.is_call() {
        return Err(Refusal::MissingId(request.method.clone()));
    }
    if !flags.params_optional && request.params.is_none() {
        return Err(Refusal::MissingParams);
    }
    Ok(*method)
}

#[cfg(test)]
mod tests {
    use super::super::message::{Id, Request};
    use super::*;

    fn request(method: &str, id: bool, params: bool) -> Request {
        Request {
            id: id.then_some(Id::Number(1)),
            method: method.to_string(),
            params: params.then(|| serde_json::value::RawValue::from_string("{}".into()).unwrap()),
        }
    }

    #[test]
    fn requests_are_checked_as_the_sdk_checks_them() {
        let cases = [
            ("ping", true, false, Ok(Method::Ping)),
            ("tools/call", true, true, Ok(Method::ToolsCall)),
            (
                "foo/bar",
                true,
                false,
                Err(r#"JSON RPC not handled: "foo/bar" unsupported"#),
            ),
            (
                "ping",
                false,
                false,
                Err(r#"invalid request: missing id for "ping""#),
            ),
            (
                "notifications/initialized",
                true,
                false,
                Err(r#"invalid request: unexpected id for "notifications/initialized""#),
            ),
            (
                "tools/call",
                true,
                false,
                Err(r#"invalid request: missing required "params""#),
            ),
        ];
        for (method, id, params, want) in cases {
            let got = check(&request(method, id, params), WireProfile::GoSdk161)
                .map_err(|refusal| refusal.to_string());
            assert_eq!(got, want.map_err(str::to_string), "{method}");
        }
    }

    #[test]
    fn discover_is_known_from_v1_7_0_on() {
        let discover = request("server/discover", true, false);
        assert!(check(&discover, WireProfile::GoSdk161).is_err());
        assert_eq!(
            check(&discover, WireProfile::GoSdk170),
            Ok(Method::Discover)
        );
        let refusal = Refusal::NotHandled("foo/bar".into());
        assert_eq!(refusal.rpc_error(WireProfile::GoSdk161).code, 0);
        assert_eq!(
            refusal.rpc_error(WireProfile::GoSdk170).message,
            r#"method not found: "foo/bar""#
        );
    }
}
