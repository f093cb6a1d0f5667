//! Which Go SDK release a server's wire matches (`careem-mcp drift`'s first line): a few raw
//! requests over Streamable HTTP, each a question whose answer differs between releases —
//! whether `initialize` issues a session id, whether `server/discover` is answered and which
//! revisions it offers, whether a list result carries the cache hints.

use std::time::Duration;

use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderMap};

use super::redirects::Refusals;
use serde::Serialize;
use serde_json::{Value, json};

use super::transport::RemoteAccess;
use crate::server::WireProfile;

const SESSION_ID: &str = "mcp-session-id";
const PROTOCOL_VERSION: &str = "mcp-protocol-version";
const STREAM_OR_JSON: &str = "application/json, text/event-stream";

/// What the server's answers showed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Observed {
    /// `initialize` issued an `Mcp-Session-Id`.
    pub session_id: bool,
    /// `server/discover` was answered with a result (not refused).
    pub discover_answered: bool,
    /// The revisions `server/discover` offered, newest first.
    pub discover_versions: Vec<String>,
    /// `tools/list`'s result carried `ttlMs` and `cacheScope`.
    pub list_cache_hints: bool,
}

/// The release whose wire a server speaks, and what showed it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Release {
    /// The matching profile; `None` when the answers match no profile.
    pub profile: Option<WireProfile>,
    pub description: String,
    pub observed: Observed,
}

impl Release {
    /// The profile the observations match, if one does.
    #[must_use]
    pub fn of(observed: Observed) -> Self {
        let profile = matching(&observed);
        Self {
            profile,
            description: profile.map_or_else(
                || "matches no wire profile".to_string(),
                |profile| profile.describe().to_string(),
            ),
            observed,
        }
    }
}

/// The profile whose release answers as observed: each release's answers are whole, so every
/// observation must agree with it.
fn matching(observed: &Observed) -> Option<WireProfile> {
    let offers_2026 = observed
        .discover_versions
        .iter()
        .any(|version| version == "2026-07-28");
    WireProfile::ALL.into_iter().find(|profile| {
        observed.session_id != profile.is_stateless()
            && observed.discover_answered == profile.answers_discover()
            && observed.list_cache_hints == profile.answers_discover()
            && offers_2026 == profile.is_stateless()
    })
}

/// Asks the server at `url` (Streamable HTTP) the questions, with `reach`'s headers.
///
/// # Errors
///
/// The server cannot be reached, or its `initialize` is not answered with a result.
pub async fn observe(url: &str, reach: &RemoteAccess) -> Result<Observed, String> {
    let client = reqwest::Client::builder()
        .timeout(reach.timeout)
        .redirect(reach.refusals.policy())
        .build()
        .map_err(|error| format!("cannot make an HTTP client: {error}"))?;
    let ask = Ask {
        client: &client,
        url,
        headers: &reach.headers,
        refusals: &reach.refusals,
    };
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "careem-mcp-drift", "version": env!("CARGO_PKG_VERSION")}}});
    let (headers, answer) = ask.post(&initialize, &[]).await?;
    if answer
        .as_ref()
        .and_then(|answer| answer.get("result"))
        .is_none()
    {
        return Err(format!(
            "initialize was not answered with a result: {answer:?}"
        ));
    }
    let session = headers
        .get(SESSION_ID)
        .and_then(|value| value.to_str().ok())
        .map(str::to_string);
    let mut with_session = vec![(PROTOCOL_VERSION, "2025-11-25".to_string())];
    if let Some(id) = &session {
        with_session.push((SESSION_ID, id.clone()));
    }
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    ask.post(&initialized, &with_session).await?;
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let (_, listed) = ask.post(&list, &with_session).await?;
    let result = listed.as_ref().and_then(|answer| answer.get("result"));
    let list_cache_hints = result
        .is_some_and(|result| result.get("ttlMs").is_some() && result.get("cacheScope").is_some());
    let discover = json!({"jsonrpc": "2.0", "id": 3, "method": "server/discover", "params": {
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "careem-mcp-drift", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {}}}});
    let discover_headers = [
        (PROTOCOL_VERSION, "2026-07-28".to_string()),
        ("mcp-method", "server/discover".to_string()),
    ];
    let (_, discovered) = ask.post(&discover, &discover_headers).await?;
    let offered = discovered
        .as_ref()
        .and_then(|answer| answer.get("result"))
        .map(|result| {
            result["supportedVersions"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect::<Vec<_>>()
        });
    if let Some(id) = &session {
        ask.delete(id).await;
    }
    Ok(Observed {
        session_id: session.is_some(),
        discover_answered: offered.is_some(),
        discover_versions: offered.unwrap_or_default(),
        list_cache_hints,
    })
}

/// One server's questions, with the headers every request carries.
struct Ask<'a> {
    client: &'a reqwest::Client,
    url: &'a str,
    headers: &'a HeaderMap,
    refusals: &'a Refusals,
}

impl Ask<'_> {
    /// POSTs `message`; the answer's headers and its JSON-RPC message (from plain JSON or the
    /// first event of a stream), `None` when there is none (a 202, a plain-text refusal).
    async fn post(
        &self,
        message: &Value,
        extra: &[(&str, String)],
    ) -> Result<(HeaderMap, Option<Value>), String> {
        let mut request = self
            .client
            .post(self.url)
            .headers(self.headers.clone())
            .header(CONTENT_TYPE, "application/json")
            .header(ACCEPT, STREAM_OR_JSON)
            .body(message.to_string());
        for (name, value) in extra {
            request = request.header(*name, value);
        }
        let method = message["method"].as_str().unwrap_or_default();
        let response = request
            .send()
            .await
            .map_err(|error| self.refusals.explain(format!("{method}: {error}")))?;
        let headers = response.headers().clone();
        let text = response
            .text()
            .await
            .map_err(|error| format!("{method}: {error}"))?;
        Ok((headers, first_message(&text)))
    }

    async fn delete(&self, session: &str) {
        let sent = self
            .client
            .delete(self.url)
            .headers(self.headers.clone())
            .header(SESSION_ID, session)
            .timeout(Duration::from_secs(5))
            .send()
            .await;
        if let Err(error) = sent {
            tracing::debug!("ending the session: {error}");
        }
    }
}

/// The first JSON-RPC message of a body: the body itself when it is JSON, else the first
/// `data:` line of an event stream.
fn first_message(text: &str) -> Option<Value> {
    if let Ok(message) = serde_json::from_str::<Value>(text) {
        return Some(message).filter(Value::is_object);
    }
    text.lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .find_map(|data| serde_json::from_str::<Value>(data.trim()).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn observed(session: bool, discover: &[&str], hints: bool) -> Observed {
        Observed {
            session_id: session,
            discover_answered: !discover.is_empty(),
            discover_versions: discover.iter().map(|v| (*v).to_string()).collect(),
            list_cache_hints: hints,
        }
    }

    #[test]
    fn each_release_is_told_by_its_answers() {
        let stateful = ["2025-11-25", "2025-06-18"];
        let stateless = ["2026-07-28", "2025-11-25"];
        let cases = [
            (observed(true, &[], false), Some("go-sdk-1.6.1")),
            (observed(true, &stateful, true), Some("go-sdk-1.7.0")),
            (
                observed(false, &stateless, true),
                Some("go-sdk-1.7.0-stateless"),
            ),
            // A mix no release sends.
            (observed(true, &[], true), None),
            (observed(false, &[], false), None),
        ];
        for (observed, want) in cases {
            let found = Release::of(observed.clone()).profile.map(WireProfile::name);
            assert_eq!(found, want, "{observed:?}");
        }
    }

    #[test]
    fn messages_are_read_from_json_or_a_stream() {
        assert_eq!(first_message(r#"{"id":1}"#), Some(json!({"id": 1})));
        assert_eq!(
            first_message("event: message\ndata: {\"id\":2}\n\n"),
            Some(json!({"id": 2}))
        );
        assert_eq!(first_message("session not found\n"), None);
    }
}
