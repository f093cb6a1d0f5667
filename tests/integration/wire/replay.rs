//! A probe's requests sent to the served binary, and its answers recorded as the recording
//! keeps them (the masks applied). Each answer is read to its own end: an open stream is ended
//! by what ends it for production too (a `DELETE` of its session, the close of stdin), or
//! followed until it carries every answer awaited and the answer to one more `ping`; the time
//! limits only stop a server that never gets there.

use std::net::SocketAddr;
use std::process::Stdio;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::observe::{masked_step, sid_shape, sse_events};
use super::probes::{Body, Request, Session, Step};
use crate::support::{Project, RawRequest, RawResponse, StdioServer, raw_exchange};

/// How long an answer may take to arrive, or to end.
const LIMIT: Duration = Duration::from_secs(10);

/// The id of the `ping` that marks the end of a legacy SSE probe on its stream.
const LAST: &str = "wire-probe-last";

/// The record of probe `name`, sent to the server at `addr` (HTTP and SSE) or to
/// `serve --stdio --wire <wire>` in `project`.
pub fn replay(
    name: &str,
    request: &Request,
    addr: SocketAddr,
    project: &Project,
    wire: &str,
) -> Value {
    match request {
        Request::Http { setup, steps } => {
            json!({"probe": name, "transport": "http", "setup": setup, "steps": http(addr, steps)})
        }
        Request::Sse(messages) => {
            let mut record = sse(addr, messages);
            record["probe"] = json!(name);
            record["transport"] = json!("sse");
            record
        }
        Request::Stdio(messages) => {
            json!({"probe": name, "transport": "stdio", "messages": stdio(project, wire, messages)})
        }
    }
}

/// The steps of an HTTP probe on one session, each answer masked.
fn http(addr: SocketAddr, steps: &[Step]) -> Vec<Value> {
    let mut session: Option<String> = None;
    let mut sids: Vec<String> = Vec::new();
    let mut answers = Vec::new();
    for step in steps {
        let answer = http_step(addr, step, session.as_deref());
        match &answer {
            Ok((_, headers, _)) => {
                let sid = header(headers, "mcp-session-id");
                if let Some(sid) = &sid {
                    session.get_or_insert_with(|| sid.clone());
                    sids.push(sid.clone());
                }
                answers.push((answer, sid));
            }
            Err(_) => answers.push((answer, None)),
        }
    }
    answers
        .into_iter()
        .map(|(answer, sid)| match answer {
            Ok((status, headers, body)) => {
                masked_step(Some(status), &headers, &body, sid.as_deref(), &sids)
            }
            Err(error) => masked_step(None, &[], &format!("<{:?}>", error.kind()), None, &sids),
        })
        .collect()
}

fn header(headers: &[(String, String)], name: &str) -> Option<String> {
    headers
        .iter()
        .rev()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.clone())
}

type Answer = (u16, Vec<(String, String)>, String);

/// One step: its request as the recording wrote it, and the whole answer. A standalone GET
/// stream that opens is ended by deleting its session, as production ends it.
fn http_step(addr: SocketAddr, step: &Step, session: Option<&str>) -> std::io::Result<Answer> {
    let mut headers: Vec<(String, String)> = Vec::new();
    if !step.extra.iter().any(|(name, _)| *name == "Host") {
        headers.push(("Host".into(), addr.to_string()));
    }
    if let Some(content_type) = step.content_type {
        headers.push(("Content-Type".into(), content_type.into()));
    }
    if let Some(accept) = step.accept {
        headers.push(("Accept".into(), accept.into()));
    }
    let session = match step.session {
        Session::Without => None,
        Session::Probe => session,
        Session::Given(id) => Some(id),
    };
    if let Some(session) = session {
        headers.push(("Mcp-Session-Id".into(), session.into()));
    }
    if let Some(version) = step.protocol_version {
        headers.push(("MCP-Protocol-Version".into(), version.into()));
    }
    headers.extend(
        step.extra
            .iter()
            .map(|(name, value)| (name.to_string(), value.to_string())),
    );
    let body = step.body.as_ref().map(|body| match body {
        Body::Json(value) => value.to_string().into_bytes(),
        Body::Text(text) => text.as_bytes().to_vec(),
    });
    let request = RawRequest {
        method: step.method,
        path: "/mcp",
        headers,
        body,
    };
    let mut response = raw_exchange(addr, &request, LIMIT)?;
    let stream = response
        .header("content-type")
        .is_some_and(|v| v.contains("event-stream"));
    if let (true, Some(session)) = (
        step.method == "GET" && response.status == 200 && stream,
        session,
    ) {
        end_session(addr, session);
    }
    let (bytes, _) = response.body_within(LIMIT);
    Ok((
        response.status,
        response.headers,
        String::from_utf8_lossy(&bytes).into_owned(),
    ))
}

/// `DELETE /mcp` of `session`, which ends its streams.
fn end_session(addr: SocketAddr, session: &str) {
    let request = RawRequest {
        method: "DELETE",
        path: "/mcp",
        headers: vec![
            ("Host".into(), addr.to_string()),
            ("Mcp-Session-Id".into(), session.into()),
        ],
        body: None,
    };
    if let Ok(mut response) = raw_exchange(addr, &request, LIMIT) {
        response.body_within(LIMIT);
    }
}

/// A POST to `path` on the legacy SSE transport; its status.
fn sse_post(addr: SocketAddr, path: &str, message: &Value) -> Option<u16> {
    let request = RawRequest {
        method: "POST",
        path,
        headers: vec![
            ("Host".into(), addr.to_string()),
            ("Content-Type".into(), "application/json".into()),
        ],
        body: Some(message.to_string().into_bytes()),
    };
    let mut response = raw_exchange(addr, &request, LIMIT).ok()?;
    response.body_within(LIMIT);
    Some(response.status)
}

/// The data of every event in `text`, keeping those named `message` or not named at all when
/// `messages_only`.
fn event_data(text: &str, messages_only: bool) -> Vec<String> {
    let events = sse_events(text);
    let mut data = Vec::new();
    for event in events.as_array().into_iter().flatten() {
        let fields = event.as_array().cloned().unwrap_or_default();
        let named = |name: &str| fields.iter().any(|f| f[0] == "event" && f[1] == name);
        let unnamed = !fields.iter().any(|f| f[0] == "event");
        if messages_only && !(named("message") || unnamed) {
            continue;
        }
        data.extend(
            fields
                .iter()
                .filter(|f| f[0] == "data")
                .filter_map(|f| f[1].as_str().map(str::to_string)),
        );
    }
    data
}

/// Whether `bytes` hold a whole event.
fn has_event(bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(bytes);
    text.contains("\n\n") || text.contains("\r\n\r\n")
}

/// A legacy SSE probe: the stream opened, `messages` POSTed to the endpoint it announces, and
/// the stream followed until it carries the answer to each request the endpoint accepted and to
/// one more `ping` sent after them (so that an answer nobody awaits shows too, if it comes first).
fn sse(addr: SocketAddr, messages: &[Value]) -> Value {
    let request = RawRequest {
        method: "GET",
        path: "/sse",
        headers: vec![
            ("Host".into(), addr.to_string()),
            ("Accept".into(), "text/event-stream".into()),
        ],
        body: None,
    };
    let mut stream: Option<RawResponse> = raw_exchange(addr, &request, LIMIT).ok();
    let mut text = Vec::new();
    if let Some(stream) = stream.as_mut() {
        stream.body_into(&mut text, LIMIT, has_event);
    }
    let endpoint = event_data(&String::from_utf8_lossy(&text), false)
        .into_iter()
        .next();
    let path = endpoint.as_deref().map(|endpoint| {
        let without_origin = endpoint.split_once("://").map_or(endpoint, |(_, rest)| {
            rest.find('/').map_or("/", |slash| &rest[slash..])
        });
        without_origin.to_string()
    });
    let mut posts = Vec::new();
    if let Some(path) = &path {
        // The ids whose answers the stream is to carry: each request the endpoint accepted.
        let mut awaited: Vec<Value> = Vec::new();
        for message in messages {
            let status = sse_post(addr, path, message);
            posts.extend(status);
            if status.is_some_and(|s| s < 300) && message.get("method").is_some() {
                awaited.extend(message.get("id").cloned());
            }
        }
        let last = json!({"jsonrpc": "2.0", "id": LAST, "method": "ping"});
        if sse_post(addr, path, &last).is_some_and(|status| status < 300) {
            awaited.push(json!(LAST));
        }
        if let Some(stream) = stream.as_mut() {
            stream.body_into(&mut text, LIMIT, |bytes| {
                let answered: Vec<Value> = event_data(&String::from_utf8_lossy(bytes), true)
                    .iter()
                    .filter_map(|data| serde_json::from_str::<Value>(data).ok())
                    .map(|message| message["id"].clone())
                    .collect();
                awaited.iter().all(|id| answered.contains(id))
            });
        }
    }
    let answers: Vec<Value> = event_data(&String::from_utf8_lossy(&text), true)
        .iter()
        .filter(|data| !data.trim().is_empty())
        .filter_map(|data| serde_json::from_str::<Value>(data).ok())
        .filter(|message| message["id"] != LAST)
        .collect();
    let answers = if answers.len() > 1 {
        answers[1..].to_vec()
    } else {
        answers
    };
    let id = regex::Regex::new(r"(?i)(session_?id=)([^&\s]+)").expect("a valid pattern");
    let endpoint = endpoint.unwrap_or_default();
    let shape = id.captures(&endpoint).map(|c| sid_shape(&c[2]));
    json!({
        "endpoint": id.replace(&endpoint, "${1}<sid>"),
        "sid_shape": shape,
        "posts": posts,
        "messages": answers,
    })
}

/// A stdio probe: `messages` written one a line to `serve --stdio`, and every line it writes
/// until each request is answered and, stdin closed, it exits.
fn stdio(project: &Project, wire: &str, messages: &[Value]) -> Vec<Value> {
    let mut command = project.command();
    command.args(["serve", "--stdio", "--wire", wire]);
    let mut server = StdioServer::start(command, Stdio::null());
    for message in messages {
        server.send_json(message);
    }
    // A held `subscriptions/listen` is answered only when cancelled: its answer is not awaited,
    // and closing stdin ends it, as the session's end does.
    let mut waiting: Vec<&Value> = messages
        .iter()
        .filter(|m| m.get("id").is_some())
        .filter(|m| {
            m.get("method")
                .is_some_and(|method| method != "subscriptions/listen")
        })
        .map(|m| &m["id"])
        .collect();
    let mut out = Vec::new();
    let deadline = Instant::now() + LIMIT;
    let mut closed = false;
    loop {
        if waiting.is_empty() && !closed {
            server.close_stdin();
            closed = true;
        }
        let left = deadline.saturating_duration_since(Instant::now());
        match server.lines.recv_timeout(left) {
            Ok(line) => {
                let message = serde_json::from_str::<Value>(&line).unwrap_or(json!("<not JSON>"));
                if message.get("method").is_none() {
                    waiting.retain(|id| **id != message["id"]);
                }
                out.push(message);
            }
            Err(RecvTimeoutError::Disconnected) => break,
            Err(RecvTimeoutError::Timeout) if closed => break,
            Err(RecvTimeoutError::Timeout) => waiting.clear(),
        }
    }
    out
}
