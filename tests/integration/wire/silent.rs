//! The request side of the probes the shared recordings leave out (tests/fixtures/wire/silent/,
//! recorded from the Go SDK peers by its `probes.py`, which sends the same): methods the server
//! does not serve, methods protocol 2026-07-28 removed, and requests before `initialize`, on a
//! session, as a 2026-07-28 request, over legacy SSE and over stdio.

use serde_json::{Value, json};

use super::probes::{
    Request, alone, as_2026, initialize, initialized, meta_2026, on_session, post, rpc, rpc_with,
};

fn subscription() -> Value {
    json!({"uri": "ui://careem-mcp-app"})
}

fn completion() -> Value {
    json!({"ref": {"type": "ref/prompt", "name": "x"}, "argument": {"name": "a", "value": "b"}})
}

fn sampling() -> Value {
    json!({"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}], "maxTokens": 5})
}

fn initialize_2026() -> Value {
    json!({"protocolVersion": "2026-07-28", "capabilities": {},
        "clientInfo": {"name": "probe", "version": "1"}})
}

fn notification(method: &str, params: Option<Value>) -> Value {
    let mut message = json!({"jsonrpc": "2.0", "method": method});
    if let Some(params) = params {
        message["params"] = params;
    }
    message
}

/// `params` with the `_meta` a 2026-07-28 client puts on every request.
fn with_meta(mut params: Value) -> Value {
    params["_meta"] = meta_2026();
    params
}

/// A request sent both ways: on a session (when `on_session` names that probe: the others are
/// recorded already) and as a 2026-07-28 request.
struct Sent {
    on_session: Option<&'static str>,
    as_2026: &'static str,
    id: u64,
    method: &'static str,
    params: Value,
    name: Option<&'static str>,
}

fn sent_both_ways() -> Vec<Sent> {
    let sent = |on_session, as_2026, id, method, params| Sent {
        on_session,
        as_2026,
        id,
        method,
        params,
        name: None,
    };
    vec![
        sent(
            None,
            "2026: initialize",
            61,
            "initialize",
            initialize_2026(),
        ),
        sent(None, "2026: ping", 62, "ping", json!({})),
        sent(None, "2026: prompts/list", 63, "prompts/list", json!({})),
        Sent {
            name: Some("x"),
            ..sent(
                None,
                "2026: prompts/get unknown",
                64,
                "prompts/get",
                json!({"name": "x"}),
            )
        },
        sent(
            Some("session: resources/subscribe"),
            "2026: resources/subscribe",
            65,
            "resources/subscribe",
            subscription(),
        ),
        sent(
            Some("session: resources/unsubscribe"),
            "2026: resources/unsubscribe",
            66,
            "resources/unsubscribe",
            subscription(),
        ),
        sent(
            Some("session: resources/templates/list"),
            "2026: resources/templates/list",
            67,
            "resources/templates/list",
            json!({}),
        ),
        sent(
            None,
            "2026: completion/complete",
            68,
            "completion/complete",
            completion(),
        ),
        sent(
            None,
            "2026: logging/setLevel",
            69,
            "logging/setLevel",
            json!({"level": "debug"}),
        ),
        sent(
            Some("session: sampling/createMessage"),
            "2026: sampling/createMessage",
            70,
            "sampling/createMessage",
            sampling(),
        ),
        sent(
            Some("session: roots/list"),
            "2026: roots/list",
            71,
            "roots/list",
            json!({}),
        ),
        sent(
            Some("session: elicitation/create"),
            "2026: elicitation/create",
            72,
            "elicitation/create",
            json!({"message": "m", "requestedSchema": {"type": "object"}}),
        ),
        sent(
            Some("session: tasks/list"),
            "2026: tasks/list",
            73,
            "tasks/list",
            json!({}),
        ),
    ]
}

/// Notifications sent both ways, as [`Sent`] (no id, no `Mcp-Name`).
fn notified_both_ways() -> Vec<(Option<&'static str>, &'static str, &'static str, Value)> {
    vec![
        (
            None,
            "2026: notifications/initialized",
            "notifications/initialized",
            json!({}),
        ),
        (
            Some("session: notifications/roots/list_changed"),
            "2026: notifications/roots/list_changed",
            "notifications/roots/list_changed",
            json!({}),
        ),
        (
            Some("session: notifications/cancelled"),
            "2026: notifications/cancelled",
            "notifications/cancelled",
            json!({"requestId": 99, "reason": "r"}),
        ),
        (
            None,
            "2026: unknown notification",
            "notifications/whatever",
            json!({}),
        ),
    ]
}

/// A session's first request, with no `initialize` before it.
fn before_initialize() -> [(&'static str, &'static str, Value); 6] {
    [
        (
            "sse: unknown method before initialize",
            "stdio: unknown method before initialize",
            rpc(9, "foo/bar"),
        ),
        (
            "sse: server/discover before initialize",
            "stdio: server/discover before initialize",
            rpc(9, "server/discover"),
        ),
        (
            "sse: resources/subscribe before initialize",
            "stdio: resources/subscribe before initialize",
            rpc_with(9, "resources/subscribe", subscription()),
        ),
        (
            "sse: resources/unsubscribe before initialize",
            "stdio: resources/unsubscribe before initialize",
            rpc_with(9, "resources/unsubscribe", subscription()),
        ),
        (
            "sse: logging/setLevel before initialize",
            "stdio: logging/setLevel before initialize",
            rpc_with(9, "logging/setLevel", json!({"level": "debug"})),
        ),
        (
            "sse: prompts/list before initialize",
            "stdio: prompts/list before initialize",
            rpc(9, "prompts/list"),
        ),
    ]
}

/// 2026-07-28 requests over stdio, each alone.
fn stdio_2026() -> [(&'static str, &'static str, Value); 8] {
    [
        ("stdio: 2026 ping", "ping", json!({})),
        ("stdio: 2026 initialize", "initialize", initialize_2026()),
        (
            "stdio: 2026 logging/setLevel",
            "logging/setLevel",
            json!({"level": "debug"}),
        ),
        (
            "stdio: 2026 resources/subscribe",
            "resources/subscribe",
            subscription(),
        ),
        (
            "stdio: 2026 resources/unsubscribe",
            "resources/unsubscribe",
            subscription(),
        ),
        ("stdio: 2026 prompts/list", "prompts/list", json!({})),
        (
            "stdio: 2026 completion/complete",
            "completion/complete",
            completion(),
        ),
        ("stdio: 2026 unknown method", "foo/bar", json!({})),
    ]
}

/// Every probe of the silent recordings, by name.
pub fn table() -> Vec<(&'static str, Request)> {
    let mut table = Vec::new();
    for sent in sent_both_ways() {
        if let Some(name) = sent.on_session {
            let message = rpc_with(sent.id, sent.method, sent.params.clone());
            table.push((name, on_session(vec![post(message)])));
        }
        let message = rpc_with(sent.id, sent.method, with_meta(sent.params));
        table.push((sent.as_2026, as_2026(message, sent.method, sent.name)));
    }
    for (on, name_2026, method, params) in notified_both_ways() {
        if let Some(name) = on {
            let message = notification(method, Some(params.clone()));
            table.push((name, on_session(vec![post(message)])));
        }
        let message = notification(method, Some(with_meta(params)));
        table.push((name_2026, as_2026(message, method, None)));
    }
    table.push((
        "session: server/discover without _meta",
        on_session(vec![post(rpc(80, "server/discover"))]),
    ));
    table.extend(checks_in_order());
    let handshake = |last: Value| vec![initialize(), initialized(), last];
    table.extend([
        (
            "sse: resources/subscribe",
            Request::Sse(handshake(rpc_with(
                4,
                "resources/subscribe",
                subscription(),
            ))),
        ),
        (
            "sse: sampling/createMessage",
            Request::Sse(handshake(rpc_with(4, "sampling/createMessage", sampling()))),
        ),
        (
            "sse: 2026 ping",
            Request::Sse(vec![rpc_with(4, "ping", with_meta(json!({})))]),
        ),
        (
            "sse: 2026 resources/subscribe",
            Request::Sse(vec![rpc_with(
                4,
                "resources/subscribe",
                with_meta(subscription()),
            )]),
        ),
        (
            "stdio: resources/subscribe",
            Request::Stdio(handshake(rpc_with(
                4,
                "resources/subscribe",
                subscription(),
            ))),
        ),
        (
            "stdio: completion/complete",
            Request::Stdio(handshake(rpc_with(4, "completion/complete", completion()))),
        ),
        (
            "stdio: sampling/createMessage",
            Request::Stdio(handshake(rpc_with(4, "sampling/createMessage", sampling()))),
        ),
        (
            "stdio: unknown notification",
            Request::Stdio(vec![
                initialize(),
                initialized(),
                notification("notifications/whatever", None),
                rpc(5, "ping"),
            ]),
        ),
        (
            "stdio: server/discover without _meta",
            Request::Stdio(handshake(rpc(6, "server/discover"))),
        ),
    ]);
    for (name, method, params) in stdio_2026() {
        table.push((
            name,
            Request::Stdio(vec![rpc_with(7, method, with_meta(params))]),
        ));
    }
    table.push((
        "stdio: 2026 notifications/initialized then ping",
        Request::Stdio(vec![
            notification("notifications/initialized", Some(with_meta(json!({})))),
            rpc_with(8, "ping", with_meta(json!({}))),
        ]),
    ));
    for (sse, stdio, message) in before_initialize() {
        table.push((sse, Request::Sse(vec![message.clone()])));
        table.push((stdio, Request::Stdio(vec![message])));
    }
    table.push((
        "stdio: roots/list_changed before initialize",
        Request::Stdio(vec![
            notification("notifications/roots/list_changed", None),
            rpc(9, "ping"),
        ]),
    ));
    table.extend(gate_in_order());
    table.extend(listens());
    table
}

/// `subscriptions/listen` (v1.7.0), with `notifications` as given (`None`: left out).
fn listen(id: Value, notifications: Option<Value>, meta: bool) -> Value {
    let mut params = json!({});
    if let Some(notifications) = notifications {
        params["notifications"] = notifications;
    }
    if meta {
        params = with_meta(params);
    }
    json!({"jsonrpc": "2.0", "id": id, "method": "subscriptions/listen", "params": params})
}

/// `subscriptions/listen`: answered at once when nothing it may send was asked for; a held one
/// is probed alone over stdio (a cancellation or a request after it races the peer).
fn listens() -> Vec<(&'static str, Request)> {
    let every = json!({"toolsListChanged": true, "promptsListChanged": true,
        "resourcesListChanged": true, "resourceSubscriptions": ["ui://careem-mcp-app"], "unknown": 1});
    let none_sent = json!({"toolsListChanged": false, "promptsListChanged": true,
        "resourcesListChanged": false, "resourceSubscriptions": ["ui://careem-mcp-app"], "unknown": 1});
    let as_2026_listen = |message: Value| as_2026(message, "subscriptions/listen", None);
    let handshake = |last: Value| vec![initialize(), initialized(), last];
    vec![
        (
            "session: subscriptions/listen",
            on_session(vec![post(listen(json!(20), Some(json!({})), false))]),
        ),
        (
            "session: subscriptions/listen without notifications",
            on_session(vec![post(listen(json!(20), None, false))]),
        ),
        (
            "session: subscriptions/listen of prompts and resources updated",
            on_session(vec![post(listen(
                json!(20),
                Some(
                    json!({"promptsListChanged": true, "resourceSubscriptions": ["x"], "unknown": 1}),
                ),
                false,
            ))]),
        ),
        (
            "session: subscriptions/listen with a 2026-07-28 header",
            on_session(vec![
                post(listen(json!(20), Some(json!({})), true))
                    .version("2026-07-28")
                    .header("Mcp-Method", "subscriptions/listen"),
            ]),
        ),
        (
            "subscriptions/listen without a session",
            alone(post(listen(json!(20), Some(json!({})), false)).fresh()),
        ),
        (
            "2026: subscriptions/listen",
            as_2026_listen(listen(json!(20), Some(json!({})), true)),
        ),
        (
            "2026: subscriptions/listen with a string id",
            as_2026_listen(listen(
                json!("s-1"),
                Some(json!({"promptsListChanged": true})),
                true,
            )),
        ),
        (
            "2026: subscriptions/listen without notifications",
            as_2026_listen(listen(json!(20), None, true)),
        ),
        (
            "2026: subscriptions/listen with notifications null",
            as_2026_listen(listen(json!(20), Some(Value::Null), true)),
        ),
        (
            "2026: subscriptions/listen without params",
            as_2026_listen(rpc(20, "subscriptions/listen")),
        ),
        (
            "2026: subscriptions/listen without an id",
            as_2026_listen(notification(
                "subscriptions/listen",
                Some(with_meta(json!({"notifications": {}}))),
            )),
        ),
        (
            "sse: subscriptions/listen",
            Request::Sse(handshake(listen(json!(4), Some(none_sent), false))),
        ),
        (
            "sse: 2026 subscriptions/listen",
            Request::Sse(vec![listen(
                json!("t"),
                Some(json!({"promptsListChanged": true})),
                true,
            )]),
        ),
        (
            "sse: subscriptions/listen before initialize",
            Request::Sse(vec![listen(json!(4), Some(json!({})), false)]),
        ),
        (
            "stdio: subscriptions/listen",
            Request::Stdio(handshake(listen(json!(4), Some(json!({})), false))),
        ),
        (
            "stdio: subscriptions/listen held",
            Request::Stdio(handshake(listen(json!(4), Some(every), false))),
        ),
        (
            "stdio: subscriptions/listen without notifications",
            Request::Stdio(handshake(listen(json!(4), None, false))),
        ),
        (
            "stdio: subscriptions/listen before initialize",
            Request::Stdio(vec![listen(json!(4), Some(json!({})), false)]),
        ),
        (
            "stdio: 2026 subscriptions/listen",
            Request::Stdio(vec![listen(
                json!(7),
                Some(json!({"resourcesListChanged": false})),
                true,
            )]),
        ),
        (
            "stdio: 2026 subscriptions/listen held",
            Request::Stdio(vec![listen(
                json!("t"),
                Some(json!({"resourcesListChanged": true})),
                true,
            )]),
        ),
    ]
}

/// Over HTTP, which check refuses first: the version header, the session, the envelope, or
/// the gate.
fn checks_in_order() -> Vec<(&'static str, Request)> {
    let subscribe = || rpc_with(10, "resources/subscribe", subscription());
    let ping_2026 = || rpc_with(7, "ping", with_meta(json!({})));
    let mut meta_2025 = meta_2026();
    meta_2025["io.modelcontextprotocol/protocolVersion"] = json!("2025-11-25");
    let unknown_2026 = notification("notifications/whatever", Some(with_meta(json!({}))));
    let unversioned = |message: Value| alone(post(message).fresh().version("2026-07-28"));
    vec![
        (
            "session: ping with a 2026-07-28 header",
            on_session(vec![post(rpc(10, "ping")).version("2026-07-28")]),
        ),
        (
            "session: resources/subscribe with a 2026-07-28 header",
            on_session(vec![post(subscribe()).version("2026-07-28")]),
        ),
        (
            "session: resources/subscribe without params",
            on_session(vec![post(rpc(10, "resources/subscribe"))]),
        ),
        (
            "session: resources/subscribe with id null",
            on_session(vec![post(json!({"jsonrpc": "2.0", "id": null,
                "method": "resources/subscribe", "params": subscription()}))]),
        ),
        (
            "resources/subscribe without a session",
            alone(post(rpc_with(2, "resources/subscribe", subscription())).fresh()),
        ),
        (
            "logging/setLevel without a session",
            alone(post(rpc_with(2, "logging/setLevel", json!({"level": "info"}))).fresh()),
        ),
        (
            "unknown method without a session",
            alone(post(rpc(2, "foo/bar")).fresh()),
        ),
        (
            "unknown notification without a session",
            alone(post(notification("notifications/whatever", None)).fresh()),
        ),
        (
            "server/discover without a session",
            alone(post(rpc(2, "server/discover")).fresh()),
        ),
        ("2026: ping without Mcp-Method", unversioned(ping_2026())),
        (
            "2026: unknown notification without Mcp-Method",
            unversioned(unknown_2026),
        ),
        (
            "2026: ping with a 2025-11-25 header",
            alone(
                post(ping_2026())
                    .fresh()
                    .version("2025-11-25")
                    .header("Mcp-Method", "ping"),
            ),
        ),
        (
            "2026: ping with 2025-11-25 in _meta",
            as_2026(
                rpc_with(7, "ping", json!({"_meta": meta_2025})),
                "ping",
                None,
            ),
        ),
        (
            "2026: initialize without _meta",
            as_2026(
                rpc_with(1, "initialize", initialize_2026()),
                "initialize",
                None,
            ),
        ),
        (
            "2026: tools/call without an id",
            as_2026(
                notification("tools/call", Some(with_meta(json!({"name": "x"})))),
                "tools/call",
                Some("x"),
            ),
        ),
        (
            "2026: prompts/get without params",
            as_2026(rpc(7, "prompts/get"), "prompts/get", None),
        ),
    ]
}

/// Over SSE and stdio, where the session's handler checks first: the gate, v1.7.0's
/// per-request `_meta`, then the method table.
fn gate_in_order() -> Vec<(&'static str, Request)> {
    let mut unknown_version = meta_2026();
    unknown_version["io.modelcontextprotocol/protocolVersion"] = json!("2099-01-01");
    vec![
        (
            "sse: roots/list_changed before initialize, then ping",
            Request::Sse(vec![
                notification("notifications/roots/list_changed", None),
                rpc(3, "ping"),
            ]),
        ),
        (
            "sse: tools/call before initialize",
            Request::Sse(vec![rpc_with(
                3,
                "tools/call",
                json!({"name": "reverse_geocode", "arguments": {}}),
            )]),
        ),
        (
            "stdio: tools/call without params before initialize",
            Request::Stdio(vec![rpc(3, "tools/call")]),
        ),
        (
            "stdio: initialized with an id before initialize",
            Request::Stdio(vec![rpc(4, "notifications/initialized")]),
        ),
        (
            "stdio: 2026 ping without clientCapabilities",
            Request::Stdio(vec![rpc_with(
                7,
                "ping",
                json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}),
            )]),
        ),
        (
            "stdio: 2026 unknown method of an unknown version",
            Request::Stdio(vec![rpc_with(
                7,
                "foo/bar",
                json!({"_meta": unknown_version}),
            )]),
        ),
        (
            "stdio: resources/subscribe without an id",
            Request::Stdio(vec![
                notification("resources/subscribe", Some(subscription())),
                rpc(5, "ping"),
            ]),
        ),
        (
            "stdio: batch before initialize",
            Request::Stdio(vec![json!([rpc(3, "foo/bar"), rpc(4, "ping")])]),
        ),
    ]
}
