//! `serve --stdio`: one session over the process's standard streams. stdout carries protocol
//! messages only; every log goes to stderr through `tracing`.

use std::sync::Arc;

use rmcp::ServiceExt;
use rmcp::transport::async_rw::AsyncRwTransport;

use super::handler::Handler;
use super::null_ids::NullIds;
use super::unique_ids::UniqueIds;
use super::{ServerError, ServerOptions};
use crate::engine::{Engine, Origin};

/// Serves until the client closes stdin, the session fails, or `shutdown` resolves (SIGTERM):
/// then the calls in flight finish and answer before the session ends.
///
/// # Errors
///
/// A tool's definition cannot be advertised as written, the client went away before
/// `initialize`, or the session task failed.
pub async fn serve_stdio(
    engine: Arc<Engine>,
    options: ServerOptions,
    shutdown: impl Future<Output = ()>,
) -> Result<(), ServerError> {
    let handler = Handler::new(engine, &options)?.labelled(Origin::Stdio, None);
    let in_flight = handler.in_flight();
    // Pipes, as MCP clients launch servers, are driven by the IO reactor; anything else falls
    // back to tokio's blocking stdio.
    let (reader, writer) = rmcp::transport::stdio_pipes();
    let transport = AsyncRwTransport::new_server(reader, NullIds::new(writer));
    let service = handler
        .serve(UniqueIds::new(transport))
        .await
        .map_err(|error| ServerError::StdioStart(Box::new(error)))?;
    let cancel = service.cancellation_token();
    let waiting = service.waiting();
    tokio::pin!(waiting);
    let reason = tokio::select! {
        reason = &mut waiting => reason,
        () = shutdown => {
            tracing::info!("shutting down");
            super::drain(&in_flight).await;
            cancel.cancel();
            waiting.await
        }
    }
    .map_err(ServerError::StdioRun)?;
    tracing::debug!("stdio session ended: {reason:?}");
    Ok(())
}
