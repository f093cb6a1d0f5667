//! The two sides `careem-mcp drift` compares, both read through an MCP session: production
//! (a URL, with the headers it needs) and the project (its tools behind a server of our own on
//! a free loopback port, so that the project's side is exactly what `serve` advertises).

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use rmcp::model::{PaginatedRequestParams, ReadResourceRequestParams};
use serde::Serialize;
use serde_json::{Value, json};

use super::transport::{self, Client, Reach, answer};
use super::{Scratch, load, write_empty};
use crate::engine::{EngineConfig, Surface};
use crate::server::{ServerOptions, WireProfile, start_http};

/// How many pages of a list are read before the server counts as misbehaving.
const MAX_PAGES: usize = 1000;

/// The transports production may be reached over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Upstream {
    /// Streamable HTTP at the URL (`…/mcp`).
    Http,
    /// Legacy HTTP+SSE: the URL is the event stream's (`…/sse`).
    Sse,
}

/// A step of reading a server that failed, and why; the message names the URL and the step.
#[derive(Debug, thiserror::Error)]
#[error("{url}: {detail}")]
pub struct Unreachable {
    pub url: String,
    pub detail: String,
}

/// Production's side, read over `via` from `url` with `reach`'s headers and time limit.
pub async fn production(url: &str, via: Upstream, reach: &Reach) -> Result<Surface, Unreachable> {
    let unreachable = |detail: String| Unreachable {
        url: url.to_string(),
        detail,
    };
    let client = match via {
        Upstream::Http => transport::http_reaching(url, reach).await,
        Upstream::Sse => transport::sse_reaching(url, reach).await,
    }
    .map_err(unreachable)?;
    let surface = surface(&client, reach.timeout).await.map_err(unreachable);
    close(client).await;
    surface
}

/// The project's side: its tool files served by a server of our own speaking `wire` (the
/// release production speaks, so that only the files' differences show), read as production
/// is.
pub async fn project(config: &EngineConfig, wire: WireProfile) -> anyhow::Result<Surface> {
    let scratch = Scratch::create()?;
    let config = EngineConfig {
        overrides: scratch.path().join("overrides.json"),
        ..config.clone()
    };
    write_empty(&config.overrides)?;
    let engine = Arc::new(load(&config)?);
    let server = start_http(
        engine,
        ServerOptions {
            port: 0,
            wire,
            ..ServerOptions::default()
        },
    )
    .await
    .context("cannot start a server on the project's tool files")?;
    let url = server.url();
    let reach = Reach::default();
    let read = async {
        let client = transport::http_reaching(&url, &reach).await?;
        let surface = surface(&client, reach.timeout).await;
        close(client).await;
        surface
    }
    .await;
    server.shutdown().await;
    read.map_err(|detail| anyhow::anyhow!("reading the project's own server at {url}: {detail}"))
}

/// `initialize`, every page of `tools/list` and `resources/list`, and each resource read.
async fn surface(client: &Client, limit: Duration) -> Result<Surface, String> {
    let initialize = client
        .peer_info()
        .ok_or_else(|| "initialize: the session has no initialize result".to_string())
        .and_then(|info| json_of("initialize", &*info))?;
    let mut tools = BTreeMap::new();
    for tool in all_pages("tools/list", limit, |cursor| async move {
        let page = client
            .list_tools(Some(PaginatedRequestParams::default().with_cursor(cursor)))
            .await?;
        Ok((page.tools, page.next_cursor))
    })
    .await?
    {
        let value = json_of("tools/list", &tool)?;
        if tools.insert(tool.name.to_string(), value).is_some() {
            return Err(format!("tools/list lists {} twice", tool.name));
        }
    }
    let mut resources = BTreeMap::new();
    for resource in all_pages("resources/list", limit, |cursor| async move {
        let page = client
            .list_resources(Some(PaginatedRequestParams::default().with_cursor(cursor)))
            .await?;
        Ok((page.resources, page.next_cursor))
    })
    .await?
    {
        let step = format!("resources/read {}", resource.uri);
        let params = ReadResourceRequestParams::new(resource.uri.clone());
        let read = answer(&step, limit, client.read_resource(params)).await?;
        let value = json!({
            "listed": json_of("resources/list", &resource)?,
            "read": json_of(&step, &read)?,
        });
        resources.insert(resource.uri.clone(), value);
    }
    Ok(Surface {
        initialize,
        tools,
        resources,
    })
}

/// Every item of a paginated list, each page within `limit`; a cursor seen before, or more
/// than [`MAX_PAGES`] pages, is the server misbehaving.
async fn all_pages<T, F, Fut>(step: &str, limit: Duration, mut page: F) -> Result<Vec<T>, String>
where
    F: FnMut(Option<String>) -> Fut,
    Fut: Future<Output = Result<(Vec<T>, Option<String>), rmcp::ServiceError>>,
{
    let mut items = Vec::new();
    let mut cursor = None;
    let mut seen = Vec::new();
    for _ in 0..MAX_PAGES {
        let (found, next) = answer(step, limit, page(cursor)).await?;
        items.extend(found);
        match next {
            None => return Ok(items),
            Some(next) if seen.contains(&next) => {
                return Err(format!(
                    "{step}: the cursor {next:?} came back a second time"
                ));
            }
            Some(next) => {
                seen.push(next.clone());
                cursor = Some(next);
            }
        }
    }
    Err(format!("{step}: more than {MAX_PAGES} pages"))
}

fn json_of(step: &str, value: &impl Serialize) -> Result<Value, String> {
    serde_json::to_value(value).map_err(|error| format!("{step}: {error}"))
}

async fn close(client: Client) {
    if let Err(error) = client.cancel().await {
        tracing::debug!("closing the session: {error}");
    }
}
