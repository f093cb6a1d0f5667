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

use super::secrets::{Secrets, without_password};
use super::size_in_words;
use super::transport::{self, Client, RemoteAccess, answer};
use super::{load, scratch_folder, write_empty};
use crate::engine::{EngineConfig, Surface};
use crate::server::{ServerOptions, WireProfile, start_http};

/// How much of production `drift` reads before the server counts as misbehaving: every page
/// of every list, and the bytes of everything listed and read, as JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    pub pages: usize,
    pub bytes: usize,
}

impl Default for Bounds {
    fn default() -> Self {
        Self {
            pages: DEFAULT_MAX_PAGES,
            bytes: DEFAULT_MAX_BYTES,
        }
    }
}

/// The default of [`Bounds::pages`].
pub const DEFAULT_MAX_PAGES: usize = 1000;
/// The default of [`Bounds::bytes`]: production's whole surface is about 1 MiB.
pub const DEFAULT_MAX_BYTES: usize = 64 << 20;

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

/// Production's side, read over `via` from `url` with `reach`'s headers and limits, within
/// `bounds`. The error never shows a credential: the URL's password and the headers' values
/// are masked, even where the server echoes them.
pub async fn production(
    url: &str,
    via: Upstream,
    reach: &RemoteAccess,
    bounds: Bounds,
) -> Result<Surface, Unreachable> {
    let secrets = Secrets::of(url, &reach.headers);
    let unreachable = |detail: String| Unreachable {
        url: without_password(url),
        detail: secrets.mask(&reach.refusals.explain(detail)),
    };
    let client = match via {
        Upstream::Http => transport::http_reaching(url, reach).await,
        Upstream::Sse => transport::sse_reaching(url, reach).await,
    }
    .map_err(unreachable)?;
    let surface = surface(&client, reach.timeout, bounds)
        .await
        .map_err(unreachable);
    close(client).await;
    surface
}

/// The project's side: its tool files served by a server of our own speaking `wire` (the
/// release production speaks, so that only the files' differences show), read as production
/// is.
pub async fn project(config: &EngineConfig, wire: WireProfile) -> anyhow::Result<Surface> {
    let scratch = scratch_folder()?;
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
    let reach = RemoteAccess::default();
    let read = async {
        let client = transport::http_reaching(&url, &reach).await?;
        let surface = surface(&client, reach.timeout, Bounds::default()).await;
        close(client).await;
        surface
    }
    .await;
    server.shutdown().await;
    read.map_err(|detail| anyhow::anyhow!("reading the project's own server at {url}: {detail}"))
}

/// `initialize`, every page of `tools/list` and `resources/list`, and each resource read,
/// within `bounds`.
async fn surface(client: &Client, limit: Duration, bounds: Bounds) -> Result<Surface, String> {
    let mut budget = Budget::new(bounds);
    let initialize = client
        .peer_info()
        .ok_or_else(|| "initialize: the session has no initialize result".to_string())
        .and_then(|info| json_of("initialize", &*info))?;
    budget.spend("initialize", &initialize)?;
    let mut tools = BTreeMap::new();
    for tool in all_pages("tools/list", limit, &mut budget, |cursor| async move {
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
    for resource in all_pages("resources/list", limit, &mut budget, |cursor| async move {
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
        let read = json_of(&step, &read)?;
        budget.spend(&step, &read)?;
        let value = json!({
            "listed": json_of("resources/list", &resource)?,
            "read": read,
        });
        resources.insert(resource.uri.clone(), value);
    }
    Ok(Surface {
        initialize,
        tools,
        resources,
    })
}

/// What is left of [`Bounds`] while production is read.
#[derive(Debug)]
struct Budget {
    bounds: Bounds,
    bytes: usize,
}

impl Budget {
    fn new(bounds: Bounds) -> Self {
        Self { bounds, bytes: 0 }
    }

    /// Counts `value`'s JSON against the byte bound; past it, an error naming the bound.
    fn spend(&mut self, step: &str, value: &Value) -> Result<(), String> {
        self.spend_bytes(step, value.to_string().len())
    }

    fn spend_bytes(&mut self, step: &str, bytes: usize) -> Result<(), String> {
        self.bytes = self.bytes.saturating_add(bytes);
        if self.bytes > self.bounds.bytes {
            return Err(format!(
                "{step}: more than {} read in all (raise the bound with --max-bytes)",
                size_in_words(self.bounds.bytes)
            ));
        }
        Ok(())
    }
}

/// Every item of a paginated list, each page within `limit`, every item counted against
/// `budget`; a cursor seen before, more pages than the bound or more bytes in all is the
/// server misbehaving.
async fn all_pages<T, F, Fut>(
    step: &str,
    limit: Duration,
    budget: &mut Budget,
    mut page: F,
) -> Result<Vec<T>, String>
where
    T: Serialize,
    F: FnMut(Option<String>) -> Fut,
    Fut: Future<Output = Result<(Vec<T>, Option<String>), rmcp::ServiceError>>,
{
    let mut items = Vec::new();
    let mut cursor = None;
    let mut seen = Vec::new();
    for _ in 0..budget.bounds.pages {
        let (found, next) = answer(step, limit, page(cursor)).await?;
        for item in found {
            budget.spend(step, &json_of(step, &item)?)?;
            items.push(item);
        }
        match next {
            None => return Ok(items),
            Some(next) if seen.contains(&next) => {
                return Err(format!(
                    "{step}: the cursor {next:?} came back a second time"
                ));
            }
            Some(next) => {
                budget.spend_bytes(step, next.len())?;
                seen.push(next.clone());
                cursor = Some(next);
            }
        }
    }
    Err(format!(
        "{step}: more than {} pages (raise the bound with --max-pages)",
        budget.bounds.pages
    ))
}

fn json_of(step: &str, value: &impl Serialize) -> Result<Value, String> {
    serde_json::to_value(value).map_err(|error| format!("{step}: {error}"))
}

async fn close(client: Client) {
    if let Err(error) = client.cancel().await {
        tracing::debug!("closing the session: {error}");
    }
}
