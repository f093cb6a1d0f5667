//! How production's Go SDK refuses a method it does not serve, where the recordings are silent
//! and the peers were probed (tests/fixtures/wire/silent/): which methods pass the gate that
//! holds requests until `initialize`, how v1.7.0's jsonrpc2 layer rewords every "method not
//! found", and which refusal comes first over stdio, where no transport checks a request
//! before the session's handler does.

use super::Session;
use super::per_request::{self, Protocol};
use crate::server::WireProfile;
use crate::server::jsonrpc::{METHOD_NOT_FOUND, Method, Refusal, Request, RpcError, UNCODED};

/// The methods v1.6.1's `ServerSession.handle` answers before `initialize`.
const BEFORE_INITIALIZE_161: [&str; 3] = ["initialize", "ping", "notifications/initialized"];

/// The methods v1.7.0's `ServerSession.handle` names in one `case`: protocol 2026-07-28
/// removed them (-32601 under it), and under an older protocol they skip the gate, so they
/// are answered before `initialize` too.
const REMOVED_IN_2026: [&str; 7] = [
    "initialize",
    "ping",
    "notifications/initialized",
    "notifications/roots/list_changed",
    "logging/setLevel",
    "resources/subscribe",
    "resources/unsubscribe",
];

/// Whether `method` is answered in a session that has not initialized.
pub(crate) fn answered_before_initialize(profile: WireProfile, method: &str) -> bool {
    if profile.answers_discover() {
        REMOVED_IN_2026.contains(&method)
    } else {
        BEFORE_INITIALIZE_161.contains(&method)
    }
}

/// The gate's refusal of `method` in a session that has not initialized.
pub(crate) fn before_initialize(method: &str) -> RpcError {
    RpcError::new(
        UNCODED,
        format!(
            "method {} is invalid during session initialization",
            crate::go::fmt::quote(method)
        ),
    )
}

/// `error`, the answer to `method`, as the release writes it: v1.7.0's jsonrpc2
/// `processResult` turns every -32601 a handler returns into `method not found: "<method>"`,
/// its own words and data dropped; v1.6.1 writes the handler's error as it is.
pub(crate) fn as_written(profile: WireProfile, method: &str, error: RpcError) -> RpcError {
    if error.code == METHOD_NOT_FOUND && profile.not_handled_is_method_not_found() {
        RpcError::new(
            METHOD_NOT_FOUND,
            format!("method not found: {}", crate::go::fmt::quote(method)),
        )
    } else {
        error
    }
}

/// The answer over stdio to `request`, which failed the SDK's `checkRequest` with `refusal`.
/// There the session's handler checks first: v1.7.0's per-request `_meta`, then the gate
/// until `initialize`, and only then the method table.
pub(crate) fn over_stdio(
    profile: WireProfile,
    session: &Session,
    request: &Request,
    refusal: &Refusal,
) -> RpcError {
    let protocol = if profile.answers_discover() {
        match per_request::protocol(request.params.as_deref()) {
            Ok(protocol) => protocol,
            Err(error) => return error,
        }
    } else {
        Protocol::Session
    };
    match protocol {
        Protocol::PerRequest { version, .. }
            if !profile.header_versions().contains(&version.as_str()) =>
        {
            per_request::unsupported_version(&version, profile.header_versions())
        }
        Protocol::Session
            if !session.is_initialized()
                && !answered_before_initialize(profile, &request.method) =>
        {
            before_initialize(&request.method)
        }
        _ => refusal.rpc_error(profile),
    }
}

/// Every refusal of a method the table holds no function for, in the SDK's words,
/// after its admission (`Mcp::admit`); the release's jsonrpc2 layer may reword it ([`as_written`]).
pub(crate) fn not_served(method: Method, name: &str) -> RpcError {
    let message = match method {
        Method::ResourcesSubscribe => {
            "method not found: server does not support resource subscriptions".to_string()
        }
        _ => format!("method not found: {}", crate::go::fmt::quote(name)),
    };
    RpcError::new(METHOD_NOT_FOUND, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v1_7_0_rewords_method_not_found_and_v1_6_1_keeps_it() {
        let error = || {
            RpcError::new(
                METHOD_NOT_FOUND,
                "method not found: server does not support resource subscriptions",
            )
        };
        for (profile, want) in [
            (
                WireProfile::GoSdk161,
                "method not found: server does not support resource subscriptions",
            ),
            (
                WireProfile::GoSdk170,
                r#"method not found: "resources/subscribe""#,
            ),
            (
                WireProfile::GoSdk170Stateless,
                r#"method not found: "resources/subscribe""#,
            ),
        ] {
            let written = as_written(profile, "resources/subscribe", error());
            assert_eq!(written.message, want, "{profile}");
        }
        let other = RpcError::new(UNCODED, "duplicate \"initialize\" received");
        let written = as_written(WireProfile::GoSdk170, "initialize", other.clone());
        assert_eq!(written, other);
    }

    #[test]
    fn the_gate_lets_through_what_each_release_names() {
        let cases = [
            ("ping", true, true),
            ("initialize", true, true),
            ("logging/setLevel", false, true),
            ("resources/subscribe", false, true),
            ("notifications/roots/list_changed", false, true),
            ("tools/list", false, false),
            ("foo/bar", false, false),
        ];
        for (method, v161, v170) in cases {
            assert_eq!(
                answered_before_initialize(WireProfile::GoSdk161, method),
                v161,
                "{method}"
            );
            assert_eq!(
                answered_before_initialize(WireProfile::GoSdk170, method),
                v170,
                "{method}"
            );
        }
    }
}
