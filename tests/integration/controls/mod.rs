//! Sequences, delays and faults forced through the overrides file, as real MCP clients see
//! them over Streamable HTTP, legacy SSE and stdio (docs/CONTROLS.md).

mod cli;
mod stories;

use std::time::Duration;

use careem_mcp::engine::{Engine, EngineConfig, journal};
use careem_mcp::server::ServerOptions;
use rmcp::model::{CallToolRequestParams, ClientRequest, Request, ServerResult};
use rmcp::service::{PeerRequestOptions, ServiceError};
use serde_json::Value;

pub use crate::support::Client;
use crate::support::{Fixture, Project, http_client, sse_client, stdio_client, wait_until_async};

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
/// process over it, and the binary for stdio; all journal to `.run/calls.jsonl`. It is a
/// [`Fixture`] whose engine has the seed and a journal.
pub struct Rig(Fixture);

impl std::ops::Deref for Rig {
    type Target = Fixture;

    fn deref(&self) -> &Fixture {
        &self.0
    }
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
            stateful: false,
        };
        let journal =
            journal::Journal::open(&project.path().join(".run/calls.jsonl")).expect("journal");
        let engine = Engine::load(config)
            .expect("the repo's tools load")
            .with_journal(journal);
        Self(Fixture::serve(project, engine, ServerOptions::default()).await)
    }

    /// A new MCP session over `transport` (for stdio, a new server process).
    pub async fn connect(&self, transport: Transport) -> Client {
        match transport {
            Transport::Http => http_client(&self.server.url()).await,
            Transport::Sse => sse_client(&self.server.sse_url()).await,
            Transport::Stdio => {
                let mut command = self.project.command();
                command.args(["--seed", SEED, "serve", "--stdio"]);
                stdio_client(command).await
            }
        }
    }

    pub fn journal(&self) -> Vec<journal::Entry> {
        journal::read(&self.project.path().join(".run/calls.jsonl")).expect("the journal reads")
    }

    /// The journal once it has at least `count` entries, waiting up to 20 s for them.
    pub async fn journal_with(&self, count: usize) -> Vec<journal::Entry> {
        let full = wait_until_async(Duration::from_secs(20), || async {
            Some(self.journal()).filter(|entries| entries.len() >= count)
        })
        .await;
        full.unwrap_or_else(|| self.journal())
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
