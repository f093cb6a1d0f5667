//! Raw HTTP, for what a client library hides: exact JSON, status codes and headers.

use std::net::SocketAddr;

use serde_json::{Value, json};

/// What a Streamable HTTP client accepts.
pub const ACCEPT: &str = "application/json, text/event-stream";

/// An HTTP client that ignores any proxy settings of whoever runs the tests.
pub fn http() -> reqwest::Client {
    reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("an HTTP client")
}

/// The socket address of a served URL (`http://127.0.0.1:PORT/…`).
pub fn address(url: &str) -> SocketAddr {
    let authority = url
        .strip_prefix("http://")
        .and_then(|rest| rest.split('/').next())
        .expect("an http:// URL");
    authority.parse().expect("a numeric address")
}

/// The JSON-RPC message in a response body: plain JSON, or in an SSE `data:` line.
pub fn jsonrpc(body: &str) -> Option<Value> {
    if let Ok(value) = serde_json::from_str::<Value>(body) {
        return Some(value);
    }
    body.lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .filter_map(|data| serde_json::from_str::<Value>(data.trim()).ok())
        .find(|value| value.get("jsonrpc").is_some())
}

/// A Streamable HTTP session driven by hand.
pub struct Raw {
    pub url: String,
    pub session: String,
    pub version: String,
}

impl Raw {
    /// Initializes a session by hand at `url` asking for `version`; the raw `initialize`
    /// answer too.
    pub async fn initialize(url: String, version: &str) -> (Self, Value) {
        let params = json!({"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}});
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params});
        let response = http()
            .post(&url)
            .header("accept", ACCEPT)
            .header("content-type", "application/json")
            .body(body.to_string())
            .send()
            .await
            .expect("initialize answers");
        assert_eq!(response.status(), 200);
        let session = response
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .expect("stateful: an Mcp-Session-Id is issued")
            .to_string();
        let message = jsonrpc(&response.text().await.expect("a body")).expect("JSON-RPC");
        let raw = Self {
            url,
            session,
            version: message["result"]["protocolVersion"]
                .as_str()
                .expect("a negotiated version")
                .to_string(),
        };
        let initialized = raw
            .send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        assert_eq!(initialized.status(), 202);
        (raw, message)
    }

    /// A POST with exactly these headers and body, on `session` if any; the status and body.
    pub async fn post(
        &self,
        session: Option<&str>,
        content_type: &str,
        accept: &str,
        body: Vec<u8>,
    ) -> (u16, String) {
        let mut request = http()
            .post(&self.url)
            .header("accept", accept)
            .header("content-type", content_type)
            .body(body);
        if let Some(session) = session {
            request = request
                .header("mcp-session-id", session)
                .header("mcp-protocol-version", &self.version);
        }
        let response = request.send().await.expect("the server answers");
        let status = response.status().as_u16();
        (status, response.text().await.unwrap_or_default())
    }

    /// A message on this session, as a client sends it.
    pub async fn send(&self, message: &Value) -> reqwest::Response {
        self.on_session(http().post(&self.url))
            .header("accept", ACCEPT)
            .header("content-type", "application/json")
            .body(message.to_string())
            .send()
            .await
            .expect("the server answers")
    }

    /// `request` with this session's headers.
    pub fn on_session(&self, request: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        request
            .header("mcp-session-id", &self.session)
            .header("mcp-protocol-version", &self.version)
    }

    /// One request on this session; the JSON-RPC answer and, separately, the body's text.
    pub async fn request(&self, id: u64, method: &str, params: Value) -> (Value, String) {
        let response = self
            .send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        assert_eq!(response.status(), 200, "{method}");
        let body = response.text().await.expect("a body");
        (jsonrpc(&body).expect("a JSON-RPC answer"), body)
    }
}
