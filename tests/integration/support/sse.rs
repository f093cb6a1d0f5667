//! The tests' SSE reading, over `sse-stream`'s parser: the events of a stream (legacy SSE
//! sessions, the dashboard's live calls) and a legacy SSE session driven by hand. rmcp's client
//! over legacy SSE is the product's own (`careem_mcp::probe::sse`), which `verify` uses too.

use std::pin::Pin;
use std::time::Duration;

use futures::{Stream, StreamExt};
use serde_json::{Value, json};
use sse_stream::{Sse, SseStream};

use super::http;

/// How long a test waits for the next event before it calls the stream stuck.
const EVENT_TIMEOUT: Duration = Duration::from_secs(10);

type Parsed = Pin<Box<dyn Stream<Item = Result<Sse, sse_stream::Error>> + Send>>;

/// The events of an open SSE response, keep-alive comments and data-less events skipped.
pub struct Events {
    stream: Parsed,
}

impl Events {
    /// The events of `response`, which must be an event stream.
    pub fn of(response: reqwest::Response) -> Self {
        let content_type = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        assert!(
            content_type.starts_with("text/event-stream"),
            "an event stream: {content_type}"
        );
        Self {
            stream: Box::pin(SseStream::from_bytes_stream(response.bytes_stream())),
        }
    }

    /// The next event with data, as (name, data); `None` when the stream ends.
    pub async fn next_or_end(&mut self) -> Option<(String, String)> {
        let read = async {
            while let Some(event) = self.stream.next().await {
                let Ok(event) = event else { return None };
                if let Some(data) = event.data {
                    let name = event.event.unwrap_or_else(|| "message".to_string());
                    return Some((name, data));
                }
            }
            None
        };
        tokio::time::timeout(EVENT_TIMEOUT, read)
            .await
            .expect("an event, or the end, in time")
    }

    /// The next event with data, as (name, data).
    pub async fn next_event(&mut self) -> (String, String) {
        self.next_or_end().await.expect("the stream stays open")
    }

    /// The next event, which must be a JSON-RPC `message`.
    pub async fn next_message(&mut self) -> Value {
        let (event, data) = self.next_event().await;
        assert_eq!(event, "message");
        serde_json::from_str(&data).expect("the message is JSON")
    }

    /// The data of the next event named `name`, as JSON, skipping others.
    pub async fn next_named(&mut self, name: &str) -> Value {
        let find = async {
            loop {
                let (event, data) = self.next_event().await;
                if event == name {
                    return serde_json::from_str(&data).expect("event data is JSON");
                }
            }
        };
        tokio::time::timeout(EVENT_TIMEOUT, find)
            .await
            .unwrap_or_else(|_| panic!("no {name:?} event in time"))
    }

    /// Waits for the server to end the stream; false if it is still open after `limit`.
    pub async fn ended_within(&mut self, limit: Duration) -> bool {
        let end = async { while self.stream.next().await.is_some() {} };
        tokio::time::timeout(limit, end).await.is_ok()
    }
}

/// Opens `GET /sse` at `url` and reads the `endpoint` event: the stream and the URL to POST to.
pub async fn open(url: &str) -> (Events, String) {
    let response = http()
        .get(url)
        .header("accept", "text/event-stream")
        .send()
        .await
        .expect("/sse answers");
    assert_eq!(response.status(), 200);
    let mut events = Events::of(response);
    let (event, endpoint) = events.next_event().await;
    assert_eq!(event, "endpoint");
    // The stream's own path (`/sse`, `/sse/<run>`) with the session's id, as the Go SDK names it.
    let path = url.split_once("://").map_or(url, |(_, rest)| rest);
    let path = path.find('/').map_or("", |at| &path[at..]);
    assert!(
        endpoint.starts_with(&format!("{path}?sessionid=")),
        "{endpoint}"
    );
    let base = url.trim_end_matches(path);
    (events, format!("{base}{endpoint}"))
}

/// POSTs `body` to a legacy SSE endpoint; the status.
pub async fn post(endpoint: &str, body: impl Into<reqwest::Body>) -> u16 {
    http()
        .post(endpoint)
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .expect("the endpoint answers")
        .status()
        .as_u16()
}

/// An initialised legacy SSE session driven by hand: the stream, its POST endpoint and the
/// next request id.
pub struct Session {
    pub events: Events,
    pub endpoint: String,
    next_id: u64,
}

impl Session {
    /// Opens the stream at `url` (`…/sse`) and initialises the session.
    pub async fn open(url: &str) -> Self {
        let (events, endpoint) = open(url).await;
        let mut session = Self {
            events,
            endpoint,
            next_id: 1,
        };
        let init = session
            .request(
                "initialize",
                json!({"protocolVersion": "2024-11-05", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
            )
            .await;
        assert!(init["result"]["serverInfo"].is_object(), "{init}");
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        assert_eq!(post(&session.endpoint, initialized.to_string()).await, 202);
        session
    }

    /// Sends a request and reads the stream until its answer.
    pub async fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        assert_eq!(post(&self.endpoint, body.to_string()).await, 202);
        loop {
            let message = self.events.next_message().await;
            if message["id"] == id {
                return message;
            }
        }
    }
}
