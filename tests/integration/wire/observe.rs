//! What a client can observe of an answer, and how two answers differ in it: the masks and
//! comparisons of the recording (tests/fixtures/wire/README.md), applied alike to production's
//! recorded answers and to the served binary's.

use serde_json::{Value, json};

/// The headers a client acts on; the rest are not compared.
const OBSERVED: [&str; 3] = ["content-type", "allow", "mcp-session-id"];

/// The shape of a session id: `base32-26` (the Go SDK's), `uuid`, or `other-N`.
pub fn sid_shape(id: &str) -> String {
    let shapes = [
        ("base32-26", r"^[A-Z2-7]{26}$"),
        (
            "uuid",
            r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$",
        ),
    ];
    shapes
        .iter()
        .find(|(_, pattern)| {
            regex::Regex::new(pattern)
                .expect("a valid pattern")
                .is_match(id)
        })
        .map_or_else(
            || format!("other-{}", id.chars().count()),
            |(shape, _)| shape.to_string(),
        )
}

/// A step's answer with the session ids masked: `{status, headers, body, sid_shape}`, and the
/// `events` of an event stream.
pub fn masked_step(
    status: Option<u16>,
    headers: &[(String, String)],
    body: &str,
    sid: Option<&str>,
    sids: &[String],
) -> Value {
    let mask = |text: &str| {
        sids.iter()
            .filter(|sid| !sid.is_empty())
            .fold(text.to_string(), |text, sid| {
                text.replace(sid.as_str(), "<sid>")
            })
    };
    let masked_body = mask(body);
    let headers: Vec<Value> = headers
        .iter()
        .map(|(name, value)| {
            let value = match name.as_str() {
                "date" => "<date>".to_string(),
                "content-length" if masked_body != body => "<masked>".to_string(),
                _ => mask(value),
            };
            json!([name, value])
        })
        .collect();
    let event_stream = headers.iter().any(|h| {
        h[0] == "content-type" && h[1].as_str().is_some_and(|v| v.contains("event-stream"))
    });
    let mut step = json!({
        "status": status,
        "headers": headers,
        "body": masked_body,
        "sid_shape": sid.map(sid_shape),
    });
    if event_stream {
        step["events"] = sse_events(&masked_body);
    }
    step
}

/// The events of an event-stream body: each a list of `[field, value]`, comments as
/// `["comment", text]`.
pub fn sse_events(text: &str) -> Value {
    let blank_line = regex::Regex::new(r"\r?\n\r?\n").expect("a valid pattern");
    let events: Vec<Value> = blank_line
        .split(text)
        .filter(|block| !block.trim().is_empty())
        .map(|block| {
            let fields: Vec<Value> = block
                .split('\n')
                .map(|line| {
                    let line = line.strip_suffix('\r').unwrap_or(line);
                    if let Some(comment) = line.strip_prefix(':') {
                        return json!(["comment", comment.trim()]);
                    }
                    let (name, value) = line.split_once(':').unwrap_or((line, ""));
                    json!([name, value.strip_prefix(' ').unwrap_or(value)])
                })
                .collect();
            Value::Array(fields)
        })
        .collect();
    Value::Array(events)
}

/// The JSON-RPC messages of a step's answer: each `data` field of its events, or its body;
/// what is not JSON stays text.
fn messages(step: &Value) -> Vec<Value> {
    let parse = |text: &str| serde_json::from_str(text).unwrap_or_else(|_| json!(text));
    if let Some(events) = step.get("events").and_then(Value::as_array) {
        return events
            .iter()
            .flat_map(|event| event.as_array().into_iter().flatten())
            .filter(|field| field[0] == "data")
            .filter_map(|field| field[1].as_str())
            .filter(|data| !data.trim().is_empty())
            .map(parse)
            .collect();
    }
    let body = step["body"].as_str().unwrap_or_default();
    if body.trim().is_empty() {
        Vec::new()
    } else {
        vec![parse(body)]
    }
}

/// A message with what the two servers' data make differ left out: a tool result as its keys,
/// `isError`, content types and whether its text escapes `& < >` as Go does; a resource list
/// as its URIs; a tool list as its tools' names, sorted.
pub fn envelope(message: &Value) -> Value {
    let Some(result) = message.get("result").and_then(Value::as_object) else {
        return message.clone();
    };
    let mut out = message.clone();
    if let Some(content) = result.get("content") {
        let items: Vec<&Value> = content.as_array().into_iter().flatten().collect();
        let text: String = items
            .iter()
            .filter_map(|item| item.get("text").and_then(Value::as_str))
            .collect();
        let escaped = ["\\u0026", "\\u003c", "\\u003e"]
            .iter()
            .any(|escape| text.contains(escape))
            || !text.contains(['&', '<', '>']);
        let mut keys: Vec<&String> = result.keys().collect();
        keys.sort();
        let content_types: Vec<Value> = items
            .iter()
            .filter(|item| item.is_object())
            .map(|item| item.get("type").cloned().unwrap_or(Value::Null))
            .collect();
        out["result"] = json!({
            "keys": keys,
            "isError": result.get("isError").cloned().unwrap_or(json!("<absent>")),
            "content_types": content_types,
            "text_escapes_html": escaped,
        });
    } else if let Some(resources) = result.get("resources").and_then(Value::as_array) {
        let uris: Vec<Value> = resources
            .iter()
            .map(|r| r.get("uri").cloned().unwrap_or(Value::Null))
            .collect();
        out["result"]["resources"] = Value::Array(uris);
    } else if let Some(tools) = result.get("tools").and_then(Value::as_array) {
        let mut names: Vec<String> = tools
            .iter()
            .map(|t| {
                t.get("name")
                    .and_then(Value::as_str)
                    .unwrap_or("<unnamed>")
                    .to_string()
            })
            .collect();
        names.sort();
        out["result"]["tools"] = json!(names);
    }
    out
}

fn envelopes(messages: &[Value]) -> Vec<Value> {
    messages.iter().map(envelope).collect()
}

/// One difference between production's answer and the binary's.
fn differ(what: &str, production: impl ToString, here: impl ToString) -> String {
    format!(
        "{what}\n      production: {}\n      here:       {}",
        production.to_string(),
        here.to_string()
    )
}

/// The observed headers of a step, by name.
fn observed_headers(step: &Value) -> Vec<(String, Value)> {
    let mut headers: Vec<(String, Value)> = Vec::new();
    for header in step["headers"].as_array().into_iter().flatten() {
        let name = header[0].as_str().unwrap_or_default().to_string();
        if OBSERVED.contains(&name.as_str()) {
            headers.retain(|(n, _)| *n != name);
            headers.push((name, header[1].clone()));
        }
    }
    headers
}

/// How two steps of an HTTP probe differ for a client; empty when they do not.
fn step_differences(want: &Value, got: &Value) -> Vec<String> {
    let mut out = Vec::new();
    if want["status"] != got["status"] {
        out.push(differ("status", &want["status"], &got["status"]));
    }
    let (wanted, gotten) = (observed_headers(want), observed_headers(got));
    for name in OBSERVED {
        let find = |headers: &[(String, Value)]| {
            headers
                .iter()
                .find(|(n, _)| n == name)
                .map_or(Value::Null, |(_, v)| v.clone())
        };
        let (w, g) = (find(&wanted), find(&gotten));
        if w != g {
            out.push(differ(&format!("header {name}"), w, g));
        }
    }
    if want["sid_shape"] != got["sid_shape"] {
        out.push(differ(
            "session id shape",
            &want["sid_shape"],
            &got["sid_shape"],
        ));
    }
    let (wm, gm) = (envelopes(&messages(want)), envelopes(&messages(got)));
    if wm != gm {
        out.push(differ("messages", json!(wm), json!(gm)));
    } else if want.get("events").is_some() || got.get("events").is_some() {
        let fields = |step: &Value| -> Value {
            let events = step.get("events").and_then(Value::as_array);
            json!(
                events
                    .into_iter()
                    .flatten()
                    .map(|event| event
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(|field| field[0].clone())
                        .collect::<Vec<_>>())
                    .collect::<Vec<_>>()
            )
        };
        let (wf, gf) = (fields(want), fields(got));
        if wf != gf {
            out.push(differ("SSE event fields", wf, gf));
        }
    }
    out
}

/// How the binary's record of a probe differs from production's, for a client.
pub fn differences(want: &Value, got: &Value) -> Vec<String> {
    match want["transport"].as_str() {
        Some("http") => {
            let setup = usize::try_from(want["setup"].as_u64().unwrap_or(0)).unwrap_or(0);
            let steps = |record: &Value| -> Vec<Value> {
                record["steps"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default()
                    .into_iter()
                    .skip(setup)
                    .collect()
            };
            let (ws, gs) = (steps(want), steps(got));
            let mut out = Vec::new();
            if ws.len() != gs.len() {
                out.push(differ("steps answered", ws.len(), gs.len()));
            }
            for (number, (w, g)) in ws.iter().zip(&gs).enumerate() {
                let prefix = if ws.len() > 1 {
                    format!("step {}: ", number + 1)
                } else {
                    String::new()
                };
                out.extend(
                    step_differences(w, g)
                        .into_iter()
                        .map(|d| format!("{prefix}{d}")),
                );
            }
            out
        }
        Some("sse") => {
            let mut out = Vec::new();
            for key in ["endpoint", "sid_shape", "posts"] {
                if want[key] != got[key] {
                    out.push(differ(key, &want[key], &got[key]));
                }
            }
            out.extend(message_differences(want, got, 0));
            out
        }
        _ => {
            let about_initialize = ["stdio: initialize and ping"];
            // The handshake's answer, when the probe opens with one, is not its subject.
            let handshake = want["messages"][0]["result"].get("serverInfo").is_some();
            let skip = usize::from(
                handshake
                    && !about_initialize.contains(&want["probe"].as_str().unwrap_or_default()),
            );
            message_differences(want, got, skip)
        }
    }
}

/// The `messages` of two records compared by envelope, the first `skip` left out.
fn message_differences(want: &Value, got: &Value, skip: usize) -> Vec<String> {
    let of = |record: &Value| -> Vec<Value> {
        let all = record["messages"].as_array().cloned().unwrap_or_default();
        envelopes(&all.into_iter().skip(skip).collect::<Vec<_>>())
    };
    let (wm, gm) = (of(want), of(got));
    if wm == gm {
        Vec::new()
    } else {
        vec![differ("messages", json!(wm), json!(gm))]
    }
}
