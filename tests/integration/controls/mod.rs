//! Sequences, delays and faults forced through the overrides file, as real MCP clients see
//! them over Streamable HTTP, legacy SSE and stdio (docs/CONTROLS.md).

mod cli;
mod stories;

use std::sync::Arc;
use std::time::Duration;

use careem_mcp::engine::{Engine, EngineConfig, Journal, JournalEntry as Entry, read_journal};
use careem_mcp::server::{RunningServer, ServerOptions, start_http};
use futures::StreamExt;
use rmcp::ServiceExt;
use rmcp::model::{
    CallToolRequestParams, ClientJsonRpcMessage, ClientRequest, Request, ServerJsonRpcMessage,
    ServerResult,
};
use rmcp::service::{PeerRequestOptions, RoleClient, RunningService, ServiceError};
use rmcp::transport::{ConfigureCommandExt, StreamableHttpClientTransport, TokioChildProcess};
use serde_json::Value;

use crate::support::{BIN, Project};

pub type Client = RunningService<RoleClient, ()>;

/// The seed every server of these tests runs with, so that drawn delays and faults repeat.
pub const SEED: &str = "7";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    Http,
    Sse,
    Stdio,
}

pub const TRANSPORTS: [Transport; 3] = [Transport::Http, Transport::Sse, Transport::Stdio];

/// A project with its overrides file, an HTTP server (Streamable HTTP and SSE) running in
/// process over it, and the binary for stdio; all journal to `.run/calls.jsonl`.
pub struct Rig {
    pub project: Project,
    server: RunningServer,
}

impl Rig {
    pub async fn start(overrides: &Value) -> Self {
        let project = Project::copy_of_repo();
        project.write(".run/overrides.json", &overrides.to_string());
        let config = EngineConfig {
            tools_dir: project.path().join("tools"),
            overrides: project.path().join(".run/overrides.json"),
            clock: None,
            seed: SEED.parse().ok(),
        };
        let journal = Journal::open(&project.path().join(".run/calls.jsonl")).expect("journal");
        let engine = Engine::load(config)
            .expect("the repo's tools load")
            .with_journal(journal);
        let server = start_http(
            Arc::new(engine),
            ServerOptions {
                port: 0,
                ..ServerOptions::default()
            },
        )
        .await
        .expect("the server starts");
        Self { project, server }
    }

    pub fn force(&self, overrides: &Value) {
        self.project
            .write(".run/overrides.json", &overrides.to_string());
    }

    /// A new MCP session over `transport` (for stdio, a new server process).
    pub async fn connect(&self, transport: Transport) -> Client {
        match transport {
            Transport::Http => {
                ().serve(StreamableHttpClientTransport::from_uri(self.server.url()))
                    .await
                    .expect("the client initializes over Streamable HTTP")
            }
            Transport::Sse => {
                ().serve(sse_transport(&self.server.sse_url()).await)
                    .await
                    .expect("the client initializes over SSE")
            }
            Transport::Stdio => {
                let project = self.project.path().to_path_buf();
                let command = tokio::process::Command::new(BIN).configure(|command| {
                    command
                        .current_dir(&project)
                        .env("NO_COLOR", "1")
                        .args(["--seed", SEED, "serve", "--stdio"]);
                });
                let (transport, _stderr) = TokioChildProcess::builder(command)
                    .stderr(std::process::Stdio::null())
                    .spawn()
                    .expect("the binary starts");
                ().serve(transport)
                    .await
                    .expect("the client initializes over stdio")
            }
        }
    }

    pub fn journal(&self) -> Vec<Entry> {
        read_journal(&self.project.path().join(".run/calls.jsonl")).expect("the journal reads")
    }

    /// The journal once it has at least `count` entries, waiting up to 20 s for them.
    pub async fn journal_with(&self, count: usize) -> Vec<Entry> {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        loop {
            let entries = self.journal();
            if entries.len() >= count || tokio::time::Instant::now() > deadline {
                return entries;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// What a client saw of one call.
#[derive(Debug)]
pub enum Seen {
    Result(Value),
    Failed(ServiceError),
}

impl Seen {
    pub fn result(&self) -> &Value {
        match self {
            Self::Result(value) => value,
            Self::Failed(error) => panic!("expected a result, got {error}"),
        }
    }

    pub fn error(&self) -> &ServiceError {
        match self {
            Self::Result(value) => panic!("expected a failure, got {value}"),
            Self::Failed(error) => error,
        }
    }
}

/// A `tools/call` that the client gives up on (and cancels) after `timeout`.
pub async fn call_within(client: &Client, tool: &str, args: Value, timeout: Duration) -> Seen {
    let Value::Object(arguments) = args else {
        panic!("arguments are an object")
    };
    let params = CallToolRequestParams::new(tool.to_string()).with_arguments(arguments);
    let request = ClientRequest::CallToolRequest(Request::new(params));
    let sent = client
        .peer()
        .send_request_with_option(request, PeerRequestOptions::with_timeout(timeout))
        .await;
    let answered = match sent {
        Ok(handle) => handle.await_response().await,
        Err(error) => Err(error),
    };
    match answered {
        Ok(ServerResult::CallToolResult(result)) => {
            Seen::Result(serde_json::to_value(result).expect("serialises"))
        }
        Ok(other) => panic!("not a call result: {other:?}"),
        Err(error) => Seen::Failed(error),
    }
}

pub async fn call(client: &Client, tool: &str, args: Value) -> Seen {
    call_within(client, tool, args, Duration::from_secs(30)).await
}

/// rmcp has no legacy SSE client: this is one, as a `(Sink, Stream)` pair rmcp serves over.
/// A POST that is not accepted fails the send with its status and body, as a client library
/// reports it.
async fn sse_transport(
    url: &str,
) -> (
    impl futures::Sink<ClientJsonRpcMessage, Error = std::io::Error> + Send + Unpin + 'static,
    impl futures::Stream<Item = ServerJsonRpcMessage> + Send + Unpin + 'static,
) {
    let http = reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("an HTTP client");
    let response = http.get(url).send().await.expect("the SSE stream opens");
    let mut events = sse_stream::SseStream::from_bytes_stream(response.bytes_stream());
    let endpoint = loop {
        let event = events
            .next()
            .await
            .expect("an endpoint event")
            .expect("a readable event");
        if event.event.as_deref() == Some("endpoint") {
            break event.data.unwrap_or_default();
        }
    };
    let base = url.trim_end_matches("/sse").to_string();
    let post_url = format!("{base}{endpoint}");
    // A refused POST answers its request with an error naming the status and body, as a
    // client library reports a failed HTTP request.
    let (refusals, refused) = tokio::sync::mpsc::unbounded_channel::<ServerJsonRpcMessage>();
    let sink = futures::sink::unfold(
        (http, post_url, refusals),
        |(http, post_url, refusals), message: ClientJsonRpcMessage| async move {
            let id = match &message {
                ClientJsonRpcMessage::Request(request) => Some(request.id.clone()),
                _ => None,
            };
            let refusal = match http.post(&post_url).json(&message).send().await {
                Ok(response) if response.status().is_success() => None,
                Ok(response) => {
                    let status = response.status();
                    let body = response.text().await.unwrap_or_default();
                    Some(format!("HTTP {status}: {body}"))
                }
                Err(error) => Some(format!("HTTP request failed: {error}")),
            };
            if let (Some(text), Some(id)) = (refusal, id) {
                let error = rmcp::ErrorData::new(rmcp::model::ErrorCode(-32000), text, None);
                let _ = refusals.send(ServerJsonRpcMessage::error(error, Some(id)));
            }
            Ok::<_, std::io::Error>((http, post_url, refusals))
        },
    );
    let messages = events
        .take_while(|event| futures::future::ready(event.is_ok()))
        .filter_map(|event| async move {
            let event = event.ok()?;
            if event.event.as_deref().unwrap_or("message") != "message" {
                return None;
            }
            serde_json::from_str::<ServerJsonRpcMessage>(&event.data?).ok()
        });
    let refused = tokio_stream::wrappers::UnboundedReceiverStream::new(refused);
    let messages = futures::stream::select(
        messages
            .map(Some)
            .chain(futures::stream::once(async { None })),
        refused.map(Some),
    )
    .take_while(|message| futures::future::ready(message.is_some()))
    .filter_map(futures::future::ready);
    (Box::pin(sink), Box::pin(messages))
}
