//! `careem-mcp record`'s upstream: one MCP session with the real server, through which every
//! `tools/call` the agent makes is forwarded; the upstream's result goes back unchanged, and
//! the engine writes it as a scenario and journals the call.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use rmcp::ServiceError;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use serde_json::Value;
use serde_json::value::RawValue;

use super::drift::{Unreachable, Upstream};
use super::redirects::Refusals;
use super::secrets::{Secrets, without_password};
use super::transport::{self, Client, RemoteAccess};
use crate::engine::{Engine, INTERNAL_ERROR, RecordOptions, UpstreamAnswer, UpstreamCall};
use crate::server::{Forwarded, Forwarder, UpstreamError};

/// Forwards calls to the upstream and records its answers.
pub struct Recorder {
    /// The upstream's URL as messages show it, without its password.
    url: String,
    secrets: Arc<Secrets>,
    upstream: Arc<Client>,
    /// The redirects the upstream's client refused, which explain a call that failed.
    refusals: Refusals,
    engine: Arc<Engine>,
    options: Arc<RecordOptions>,
    into: Option<Arc<PathBuf>>,
    timeout: Duration,
}

impl std::fmt::Debug for Recorder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Recorder")
            .field("url", &self.url)
            .field("into", &self.into)
            .finish_non_exhaustive()
    }
}

/// Where recordings go and how they are cleaned.
#[derive(Debug, Clone)]
pub struct Recording {
    pub options: RecordOptions,
    /// A folder kept apart for review instead of the project's tool files.
    pub into: Option<PathBuf>,
}

/// Opens the session with the upstream at `url` over `via`; `reach`'s headers go with every
/// request and are kept nowhere else: every message masks them, and the URL's password.
pub async fn connect(
    url: &str,
    via: Upstream,
    reach: &RemoteAccess,
    engine: Arc<Engine>,
    recording: Recording,
) -> Result<Recorder, Unreachable> {
    let secrets = Secrets::of(url, &reach.headers);
    let client = match via {
        Upstream::Http => transport::http_reaching(url, reach).await,
        Upstream::Sse => transport::sse_reaching(url, reach).await,
    }
    .map_err(|detail| Unreachable {
        url: without_password(url),
        detail: secrets.mask(&reach.refusals.explain(detail)),
    })?;
    Ok(Recorder {
        url: without_password(url),
        secrets: Arc::new(secrets),
        upstream: Arc::new(client),
        refusals: reach.refusals.clone(),
        engine,
        options: Arc::new(recording.options),
        into: recording.into.map(Arc::new),
        timeout: reach.timeout,
    })
}

impl Recorder {
    /// The upstream's URL as messages show it, without its password.
    pub fn url(&self) -> &str {
        &self.url
    }
}

impl Forwarder for Recorder {
    fn forward(
        &self,
        call: &Forwarded,
    ) -> BoxFuture<'static, Result<Box<RawValue>, UpstreamError>> {
        let upstream = Arc::clone(&self.upstream);
        let (url, limit) = (self.url.clone(), self.timeout);
        let secrets = Arc::clone(&self.secrets);
        let refusals = self.refusals.clone();
        let mut params = CallToolRequestParams::new(call.tool.clone());
        if let Some(arguments) = call.arguments.clone() {
            params = params.with_arguments(arguments);
        }
        let tool = call.tool.clone();
        Box::pin(async move {
            let internal = || UpstreamError {
                code: i64::from(rmcp::model::ErrorCode::INTERNAL_ERROR.0),
                message: INTERNAL_ERROR.to_string(),
                data: None,
            };
            match tokio::time::timeout(limit, upstream.call_tool(params)).await {
                Ok(Ok(result)) => serde_json::value::to_raw_value(&result).map_err(|error| {
                    tracing::error!("{url}: tools/call {tool}: {error}");
                    internal()
                }),
                Ok(Err(ServiceError::McpError(error))) => Err(UpstreamError {
                    code: i64::from(error.code.0),
                    message: secrets.mask(&error.message),
                    data: error.data,
                }),
                Ok(Err(error)) => {
                    let error = secrets.mask(&refusals.explain(error.to_string()));
                    tracing::error!("{url}: tools/call {tool}: {error}");
                    Err(internal())
                }
                Err(_) => {
                    tracing::error!("{url}: tools/call {tool}: no answer within {limit:?}");
                    Err(internal())
                }
            }
        })
    }

    fn record(&self, call: Forwarded, answer: &Result<Box<RawValue>, UpstreamError>, micros: u64) {
        let arguments = call.arguments.unwrap_or_default();
        let result = answer
            .as_ref()
            .ok()
            .and_then(|raw| serde_json::from_str::<CallToolResult>(raw.get()).ok());
        // What is written and journalled never holds a credential the upstream echoed back;
        // the agent still gets the answer as it came.
        let text = result
            .as_ref()
            .map(|result| self.secrets.mask(&text_of(result)));
        let value = result.as_ref().and_then(|result| {
            result.structured_content.clone().or_else(|| {
                text.as_deref()
                    .and_then(|text| serde_json::from_str::<Value>(text).ok())
            })
        });
        let value = value.map(|value| self.secrets.mask_value(value));
        let failure;
        let answer = match (&result, &text, answer) {
            (Some(result), Some(text), _) => UpstreamAnswer::Result {
                value: value.as_ref(),
                text,
                is_error: result.is_error == Some(true),
            },
            (_, _, Err(error)) => {
                failure = error.message.clone();
                UpstreamAnswer::Failed(&failure)
            }
            _ => UpstreamAnswer::Failed("the upstream's result is not a tools/call result"),
        };
        let upstream_call = UpstreamCall {
            origin: call.origin,
            session: call.session.as_deref(),
            tool: &call.tool,
            arguments: &arguments,
            answer,
            micros,
        };
        self.engine.record_upstream(
            &upstream_call,
            &self.options,
            self.into.as_deref().map(PathBuf::as_path),
        );
    }
}

/// The result's one text content (several joined by newlines; none is empty).
fn text_of(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|content| content.as_text().map(|text| text.text.as_str()))
        .collect::<Vec<_>>()
        .join("\n")
}
