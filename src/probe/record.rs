//! `careem-mcp record`'s upstream: one MCP session with the real server, through which every
//! `tools/call` the agent makes is forwarded; the upstream's result goes back unchanged, and
//! the engine writes it as a scenario and journals the call.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::future::BoxFuture;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::{ErrorData, ServiceError};
use serde_json::Value;

use super::drift::{Unreachable, Upstream};
use super::transport::{self, Client, Reach};
use crate::engine::{Engine, INTERNAL_ERROR, RecordOptions, UpstreamCall};
use crate::server::{Forwarded, Forwarder};

/// Forwards calls to the upstream and records its answers.
pub struct Recorder {
    url: String,
    upstream: Arc<Client>,
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
/// request and are kept nowhere else.
pub async fn connect(
    url: &str,
    via: Upstream,
    reach: &Reach,
    engine: Arc<Engine>,
    recording: Recording,
) -> Result<Recorder, Unreachable> {
    let client = match via {
        Upstream::Http => transport::http_reaching(url, reach).await,
        Upstream::Sse => transport::sse_reaching(url, reach).await,
    }
    .map_err(|detail| Unreachable {
        url: url.to_string(),
        detail,
    })?;
    Ok(Recorder {
        url: url.to_string(),
        upstream: Arc::new(client),
        engine,
        options: Arc::new(recording.options),
        into: recording.into.map(Arc::new),
        timeout: reach.timeout,
    })
}

impl Forwarder for Recorder {
    fn forward(&self, call: Forwarded) -> BoxFuture<'static, Result<CallToolResult, ErrorData>> {
        let upstream = Arc::clone(&self.upstream);
        let engine = Arc::clone(&self.engine);
        let options = Arc::clone(&self.options);
        let into = self.into.clone();
        let (url, limit) = (self.url.clone(), self.timeout);
        Box::pin(async move {
            let started = Instant::now();
            let mut params = CallToolRequestParams::new(call.tool.clone());
            if let Some(arguments) = call.arguments.clone() {
                params = params.with_arguments(arguments);
            }
            let answered = tokio::time::timeout(limit, upstream.call_tool(params)).await;
            let result = match answered {
                Ok(Ok(result)) => result,
                Ok(Err(ServiceError::McpError(error))) => {
                    journal_unanswered(engine, call).await;
                    return Err(error);
                }
                Ok(Err(error)) => {
                    tracing::error!("{url}: tools/call {}: {error}", call.tool);
                    journal_unanswered(engine, call).await;
                    return Err(ErrorData::internal_error(INTERNAL_ERROR, None));
                }
                Err(_) => {
                    tracing::error!(
                        "{url}: tools/call {}: no answer within {limit:?}",
                        call.tool
                    );
                    journal_unanswered(engine, call).await;
                    return Err(ErrorData::internal_error(INTERNAL_ERROR, None));
                }
            };
            let micros = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
            let kept = result.clone();
            let recorded = tokio::task::spawn_blocking(move || {
                let text = text_of(&kept);
                let value = kept
                    .structured_content
                    .clone()
                    .or_else(|| serde_json::from_str::<Value>(&text).ok());
                let arguments = call.arguments.unwrap_or_default();
                let upstream_call = UpstreamCall {
                    transport: call.transport,
                    session: call.session.as_deref(),
                    tool: &call.tool,
                    arguments: &arguments,
                    value: value.as_ref(),
                    text: &text,
                    is_error: kept.is_error == Some(true),
                    micros,
                };
                engine.record_upstream(
                    &upstream_call,
                    &options,
                    into.as_deref().map(|p| p.as_path()),
                )
            })
            .await;
            if let Err(error) = recorded {
                tracing::error!("recording a call failed: {error}");
            }
            Ok(result)
        })
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

/// A call the upstream did not answer with a result is journalled as a call of no known tool
/// would be: what the agent did, with nothing recorded.
async fn journal_unanswered(engine: Arc<Engine>, call: Forwarded) {
    let journalled = tokio::task::spawn_blocking(move || {
        engine.record_unknown(
            call.transport,
            call.session.as_deref(),
            &call.tool,
            call.arguments,
        );
    })
    .await;
    if let Err(error) = journalled {
        tracing::error!("journalling a call failed: {error}");
    }
}
