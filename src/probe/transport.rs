//! The three ways verify reaches a server, each ending in the same rmcp client: Streamable
//! HTTP, legacy HTTP+SSE (a small client transport, since rmcp has none), and stdio through the
//! binary itself.

use std::collections::VecDeque;
use std::process::Stdio;
use std::sync::{Arc, LazyLock, Mutex, PoisonError};
use std::time::Duration;

use futures::StreamExt;
use regex::Regex;
use reqwest::header::{AUTHORIZATION, HeaderMap};
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::service::RunningService;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess, Transport};
use rmcp::{RoleClient, ServiceExt};
use sse_stream::SseStream;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::bounded::{self, BoundedError};
use super::redirects::Refusals;
use super::secrets::{Secrets, userinfo_as_header};
use crate::engine::EngineConfig;

/// A connected, initialised MCP session, whatever carries it.
pub type Client = RunningService<RoleClient, ()>;

/// How long connecting and the `initialize` handshake may take before the server counts as
/// unreachable.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(20);
/// How many lines of a stdio child's stderr are kept to explain a failed start.
const STDERR_LINES: usize = 20;

/// How a client reaches a server that someone else runs: the headers every request carries
/// (production's `Authorization`), how long connecting and the handshake may take, and the
/// largest event or JSON body read from it.
#[derive(Debug, Clone)]
pub struct RemoteAccess {
    pub headers: HeaderMap,
    pub timeout: Duration,
    /// The most bytes one SSE event (its lines together) or one JSON answer may hold; past it
    /// the stream or the request fails instead of growing memory.
    pub max_event: usize,
    /// The redirects the clients made from these settings refused: every client follows a
    /// redirect on the upstream's origin only.
    pub refusals: Refusals,
}

/// The default of [`RemoteAccess::max_event`]: an answer larger than a tool file may be (8 MiB) could
/// not be recorded anyway, and production's answers are a few KiB.
pub const DEFAULT_MAX_EVENT: usize = 8 << 20;

impl Default for RemoteAccess {
    fn default() -> Self {
        Self {
            headers: HeaderMap::new(),
            timeout: CONNECT_TIMEOUT,
            max_event: DEFAULT_MAX_EVENT,
            refusals: Refusals::default(),
        }
    }
}

impl RemoteAccess {
    /// `url` without user and password, and these reach settings with the `Basic`
    /// credential they make (unless an `Authorization` header is given already): the URL the
    /// HTTP client holds, and may show in an error or a log line, then holds no secret.
    fn for_url(&self, url: &str) -> (String, Self) {
        let mut reach = self.clone();
        let Some((bare, basic)) = userinfo_as_header(url) else {
            return (url.to_string(), reach);
        };
        if !reach.headers.contains_key(AUTHORIZATION) {
            reach.headers.insert(AUTHORIZATION, basic);
        }
        (bare, reach)
    }

    fn client(&self) -> Result<reqwest::Client, String> {
        reqwest::Client::builder()
            .default_headers(self.headers.clone())
            .connect_timeout(self.timeout)
            .redirect(self.refusals.policy())
            .build()
            .map_err(|error| format!("cannot build an HTTP client: {}", root_cause(&error)))
    }
}

pub async fn http(url: &str) -> Result<Client, String> {
    http_reaching(url, &RemoteAccess::default()).await
}

/// Legacy SSE at `url` with no extra headers: verify's own servers, and the clients of the
/// project's tests.
pub async fn sse(url: &str) -> Result<Client, String> {
    sse_reaching(url, &RemoteAccess::default()).await
}

/// Streamable HTTP at `url`, every request carrying `reach`'s headers.
pub async fn http_reaching(url: &str, reach: &RemoteAccess) -> Result<Client, String> {
    let (url, reach) = &reach.for_url(url);
    let mut config = StreamableHttpClientTransportConfig::with_uri(url.as_str());
    config.max_sse_event_size = reach.max_event;
    config.max_json_response_size = reach.max_event;
    let transport = StreamableHttpClientTransport::with_client(reach.client()?, config);
    handshake(reach.timeout, ().serve(transport)).await
}

/// Legacy SSE at `url`: the endpoint its `endpoint` event names receives the messages, when it
/// is on the same origin (scheme, host and port) as `url`; every request carries `reach`'s
/// headers, and no event may pass `reach.max_event`.
pub async fn sse_reaching(url: &str, reach: &RemoteAccess) -> Result<Client, String> {
    let (bare, reach) = reach.for_url(url);
    let secrets = Arc::new(Secrets::of(url, &reach.headers));
    let (url, limit) = (bare.as_str(), reach.timeout);
    let connecting = SseClient::connect(reach.client()?, url, reach.max_event, secrets);
    let transport = tokio::time::timeout(limit, connecting)
        .await
        .map_err(|_| format!("GET {url} sent no `endpoint` event within {limit:?}"))?
        .map_err(|error| error.to_string())?;
    handshake(limit, ().serve(transport)).await
}

/// Starts `careem-mcp serve --stdio` from this very executable, on the same tools and
/// overrides file, and connects to it. The child's environment is cleared of `CAREEM_MCP_*`
/// settings (but the log filter) so that it serves exactly what the in-process server does.
pub async fn stdio(config: &EngineConfig) -> Result<Client, String> {
    let exe = std::env::current_exe()
        .map_err(|error| format!("cannot find this executable to start it: {error}"))?;
    let mut command = tokio::process::Command::new(&exe);
    command
        .arg("--tools")
        .arg(&config.tools_dir)
        .arg("--overrides")
        .arg(&config.overrides);
    if let Some(clock) = config.clock {
        command.arg("--clock").arg(clock.to_rfc3339());
    }
    if let Some(seed) = config.seed {
        command.arg("--seed").arg(seed.to_string());
    }
    command.args(["serve", "--stdio", "--no-journal"]);
    for (key, _) in std::env::vars_os() {
        let key = key.to_string_lossy();
        if key.starts_with("CAREEM_MCP_") && key != "CAREEM_MCP_LOG" {
            command.env_remove(key.as_ref());
        }
    }
    let (child, stderr) = TokioChildProcess::builder(command)
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|error| format!("cannot start {}: {error}", exe.display()))?;
    let tail = StderrTail::default();
    if let Some(stderr) = stderr {
        tail.follow(stderr);
    }
    handshake(CONNECT_TIMEOUT, ().serve(child))
        .await
        .map_err(|error| {
            let lines = tail.lines();
            if lines.is_empty() {
                error
            } else {
                format!("{error}; the server's stderr ended with: {lines}")
            }
        })
}

/// The `initialize` handshake within `limit`; a failure says what went wrong underneath
/// ("Connection refused"), not only that a request failed.
async fn handshake<E: std::error::Error>(
    limit: Duration,
    connecting: impl Future<Output = Result<Client, E>>,
) -> Result<Client, String> {
    match tokio::time::timeout(limit, connecting).await {
        Ok(Ok(client)) => Ok(client),
        Ok(Err(error)) => Err(format!("initialize failed: {}", plain(&root_cause(&error)))),
        Err(_) => Err(format!("initialize: no answer within {limit:?}")),
    }
}

/// A request's answer within `limit`, or why there was none, in words for a finding.
pub(super) async fn answer<T, E: std::fmt::Display>(
    what: &str,
    limit: Duration,
    request: impl Future<Output = Result<T, E>>,
) -> Result<T, String> {
    match tokio::time::timeout(limit, request).await {
        Ok(Ok(answer)) => Ok(answer),
        Ok(Err(error)) => Err(format!("{what} failed: {error}")),
        Err(_) => Err(format!("{what}: no answer within {limit:?}")),
    }
}

/// rmcp's words for a failed handshake without the transport's type name around them:
/// `Send message error Transport [rmcp::…<…>] error: X, when send initialize request` is X.
fn plain(message: &str) -> String {
    static WRAPPER: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"^Send message error Transport \[.*?\] error: (?s)(.*?)(, when send \w+ request)?$",
        )
        .expect("the pattern is valid")
    });
    WRAPPER
        .captures(message)
        .and_then(|found| found.get(1))
        .map_or_else(
            || message.to_string(),
            |inner| inner.as_str().trim_end_matches([':', ' ']).to_string(),
        )
}

/// The innermost cause, which says what went wrong ("Connection refused") where reqwest's
/// own message only says that a request failed.
fn root_cause(error: &dyn std::error::Error) -> String {
    let mut cause = error;
    while let Some(source) = cause.source() {
        cause = source;
    }
    cause.to_string()
}

/// The last lines a stdio child wrote to stderr; everything else it logs is dropped.
#[derive(Debug, Clone, Default)]
struct StderrTail(Arc<Mutex<VecDeque<String>>>);

impl StderrTail {
    fn follow(&self, stderr: tokio::process::ChildStderr) {
        let kept = Arc::clone(&self.0);
        tokio::spawn(async move {
            let mut lines = BufReader::new(stderr).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                let mut kept = kept.lock().unwrap_or_else(PoisonError::into_inner);
                if kept.len() == STDERR_LINES {
                    kept.pop_front();
                }
                kept.push_back(line);
            }
        });
    }

    fn lines(&self) -> String {
        let kept = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        kept.iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .join(" | ")
    }
}

#[derive(Debug, thiserror::Error)]
pub enum SseError {
    #[error("{url}: {cause}")]
    Http { url: String, cause: String },
    #[error("{url} answered {status}")]
    Status {
        url: String,
        status: reqwest::StatusCode,
    },
    #[error("{url} ended its event stream before sending an `endpoint` event")]
    NoEndpoint { url: String },
    #[error("{url} sent an `endpoint` event that is not a URL path: {data:?}")]
    BadEndpoint { url: String, data: String },
    #[error(
        "{url} sent an `endpoint` event naming another origin ({origin}); nothing is sent there, \
         since every request carries the headers meant for {url}"
    )]
    ForeignEndpoint { url: String, origin: String },
    #[error("{url}: {error} before its `endpoint` event (raise the bound with --max-event-size)")]
    EndpointTooLarge { url: String, error: String },
    #[error("cannot encode a message: {0}")]
    Encode(#[from] serde_json::Error),
}

/// The client side of legacy HTTP+SSE (MCP 2024-11-05): one `GET` whose first event names
/// the endpoint, then a `POST` there for each client message, while server messages arrive as
/// `message` events on the open stream. A request whose `POST` is refused is answered with an
/// error naming the status and the body (`HTTP 404 Not Found: session not found`), as client
/// libraries report a failed HTTP request, so the caller learns why instead of waiting; the
/// body is cut at [`REFUSAL_LIMIT`] and any credential it echoes is masked. An endpoint on
/// another origin is refused before any request is sent, as the TypeScript SDK refuses it:
/// the headers are meant for the server at the URL given, and only for it.
struct SseClient {
    http: reqwest::Client,
    endpoint: reqwest::Url,
    incoming: mpsc::Receiver<ServerJsonRpcMessage>,
    /// Where a refused request's error joins the server's messages; weak, so that the
    /// messages end when the stream does.
    refusals: mpsc::WeakSender<ServerJsonRpcMessage>,
    reader: JoinHandle<()>,
    /// POSTs go out one at a time, so that the server sees messages in the order sent.
    order: Arc<tokio::sync::Mutex<()>>,
    secrets: Arc<Secrets>,
}

/// How much of a refused request's body is kept to explain the refusal.
const REFUSAL_LIMIT: usize = 4096;

impl SseClient {
    async fn connect(
        http: reqwest::Client,
        url: &str,
        max_event: usize,
        secrets: Arc<Secrets>,
    ) -> Result<Self, SseError> {
        let http_error = |error: reqwest::Error| SseError::Http {
            url: url.to_string(),
            cause: root_cause(&error),
        };
        let base = reqwest::Url::parse(url).map_err(|_| SseError::BadEndpoint {
            url: url.to_string(),
            data: url.to_string(),
        })?;
        let response = http
            .get(base.clone())
            .header(reqwest::header::ACCEPT, "text/event-stream")
            .send()
            .await
            .map_err(http_error)?;
        if !response.status().is_success() {
            return Err(SseError::Status {
                url: url.to_string(),
                status: response.status(),
            });
        }
        let mut events = SseStream::from_bytes_stream(bounded::events_within(
            response.bytes_stream(),
            max_event,
        ));
        let data = loop {
            match events.next().await {
                Some(Ok(event)) if event.event.as_deref() == Some("endpoint") => {
                    break event.data.unwrap_or_default();
                }
                Some(Ok(_)) => {}
                Some(Err(error)) => {
                    return Err(match too_large(&error) {
                        Some(error) => SseError::EndpointTooLarge {
                            url: url.to_string(),
                            error,
                        },
                        None => SseError::NoEndpoint {
                            url: url.to_string(),
                        },
                    });
                }
                None => {
                    return Err(SseError::NoEndpoint {
                        url: url.to_string(),
                    });
                }
            }
        };
        let endpoint = base.join(data.trim()).map_err(|_| SseError::BadEndpoint {
            url: url.to_string(),
            data: data.clone(),
        })?;
        if endpoint.origin() != base.origin() {
            return Err(SseError::ForeignEndpoint {
                url: url.to_string(),
                origin: endpoint.origin().ascii_serialization(),
            });
        }
        let (sender, incoming) = mpsc::channel(64);
        let refusals = sender.downgrade();
        let source = secrets.mask(url);
        let reader = tokio::spawn(async move {
            while let Some(event) = events.next().await {
                let event = match event {
                    Ok(event) => event,
                    Err(error) => {
                        let why = too_large(&error).unwrap_or_else(|| error.to_string());
                        tracing::warn!("{source}: the event stream ended: {why}");
                        break;
                    }
                };
                if event.event.as_deref().is_some_and(|name| name != "message") {
                    continue;
                }
                let Some(data) = event.data else { continue };
                match serde_json::from_str::<ServerJsonRpcMessage>(&data) {
                    Ok(message) => {
                        if sender.send(message).await.is_err() {
                            break;
                        }
                    }
                    // Ending the stream makes the waiting request fail instead of hang.
                    Err(error) => {
                        tracing::warn!("{source}: a message that is not JSON-RPC: {error}");
                        break;
                    }
                }
            }
        });
        Ok(Self {
            http,
            endpoint,
            incoming,
            refusals,
            reader,
            order: Arc::default(),
            secrets,
        })
    }
}

impl Drop for SseClient {
    fn drop(&mut self) {
        self.reader.abort();
    }
}

impl Transport<RoleClient> for SseClient {
    type Error = SseError;

    fn send(
        &mut self,
        item: ClientJsonRpcMessage,
    ) -> impl Future<Output = Result<(), SseError>> + Send + 'static {
        let http = self.http.clone();
        let endpoint = self.endpoint.clone();
        let order = Arc::clone(&self.order);
        let refusals = self.refusals.clone();
        let secrets = Arc::clone(&self.secrets);
        async move {
            let body = serde_json::to_vec(&item)?;
            let _turn = order.lock().await;
            let response = http
                .post(endpoint.clone())
                .header(reqwest::header::CONTENT_TYPE, "application/json")
                .body(body)
                .send()
                .await
                .map_err(|error| SseError::Http {
                    url: endpoint.to_string(),
                    cause: root_cause(&error),
                })?;
            let status = response.status();
            if status.is_success() {
                return Ok(());
            }
            let (ClientJsonRpcMessage::Request(request), Some(refusals)) =
                (item, refusals.upgrade())
            else {
                return Err(SseError::Status {
                    url: endpoint.to_string(),
                    status,
                });
            };
            let body = prefix(response, REFUSAL_LIMIT).await;
            let text = secrets.mask(&format!("HTTP {status}: {}", body.trim_end()));
            let error = rmcp::ErrorData::new(rmcp::model::ErrorCode(-32000), text, None);
            let _ = refusals
                .send(ServerJsonRpcMessage::error(error, Some(request.id)))
                .await;
            Ok(())
        }
    }

    fn receive(&mut self) -> impl Future<Output = Option<ServerJsonRpcMessage>> + Send {
        self.incoming.recv()
    }

    async fn close(&mut self) -> Result<(), SseError> {
        self.reader.abort();
        Ok(())
    }
}

/// Why an event stream ended, when it was an event past the bound.
fn too_large(error: &sse_stream::Error) -> Option<String> {
    let sse_stream::Error::Body(inner) = error else {
        return None;
    };
    match inner.downcast_ref::<BoundedError>() {
        Some(too_large @ BoundedError::TooLarge(_)) => Some(too_large.to_string()),
        _ => None,
    }
}

/// The first `limit` bytes of a response's body (fewer when it ends first), as text.
async fn prefix(response: reqwest::Response, limit: usize) -> String {
    let mut body = Vec::new();
    let mut chunks = response.bytes_stream();
    while body.len() < limit {
        match chunks.next().await {
            Some(Ok(chunk)) => body.extend_from_slice(&chunk),
            Some(Err(_)) | None => break,
        }
    }
    body.truncate(limit);
    String::from_utf8_lossy(&body).into_owned()
}

/// The legacy SSE URL of a server whose Streamable HTTP endpoint is `url` (`…/mcp` → `…/sse`).
pub fn sse_url_of(url: &str) -> Option<String> {
    let trimmed = url.trim_end_matches('/');
    trimmed
        .strip_suffix("/mcp")
        .map(|base| format!("{base}/sse"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_handshake_is_told_without_rmcps_type_names() {
        let cases = [
            (
                "Send message error Transport [rmcp::transport::worker::WorkerTransport<rmcp::X<reqwest::Client>>] error: Client error: error sending request for url (http://h/mcp), when send initialize request",
                "Client error: error sending request for url (http://h/mcp)",
            ),
            (
                "Send message error Transport [a<b>] error: unexpected server response: HTTP 405 Method Not Allowed: , when send initialize request",
                "unexpected server response: HTTP 405 Method Not Allowed",
            ),
            (
                "connection closed: initialize response",
                "connection closed: initialize response",
            ),
        ];
        for (message, want) in cases {
            assert_eq!(plain(message), want, "{message}");
        }
    }

    #[test]
    fn the_sse_url_sits_beside_the_mcp_url() {
        let cases = [
            (
                "http://127.0.0.1:8787/mcp",
                Some("http://127.0.0.1:8787/sse"),
            ),
            ("http://host/prefix/mcp/", Some("http://host/prefix/sse")),
            ("http://host/other", None),
        ];
        for (url, want) in cases {
            assert_eq!(sse_url_of(url).as_deref(), want, "{url}");
        }
    }
}
