//! The client side of MCP: SPEC §7's acceptance tests through a real MCP connection, over
//! Streamable HTTP, legacy SSE or stdio, against a server it starts or one already running.
//! Findings come back as plain data; `careem-mcp verify` prints them.

mod bounded;
mod checks;
pub(crate) mod drift;
mod finding;
pub(crate) mod record;
mod redirects;
pub(crate) mod release;
mod secrets;
mod transport;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context;

use crate::engine::{Engine, EngineConfig, Overrides, overrides};
use crate::server::{ServerOptions, start_http};
pub use bounded::size_in_words;
use checks::Target;
pub use finding::{Finding, Verdict, failed};
pub use secrets::{Secrets, without_password};
pub use transport::{DEFAULT_MAX_EVENT, RemoteAccess, sse};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    Http,
    Sse,
    Stdio,
}

impl Transport {
    pub const ALL: [Self; 3] = [Self::Http, Self::Sse, Self::Stdio];

    fn name(self) -> &'static str {
        match self {
            Self::Http => "http",
            Self::Sse => "sse",
            Self::Stdio => "stdio",
        }
    }
}

/// What to check, and where.
pub struct Plan {
    /// The project's tool files, clock and seed; its overrides file is the running server's.
    pub config: EngineConfig,
    pub transports: Vec<Transport>,
    /// A server that is already running, instead of one of our own.
    pub url: Option<String>,
    /// Whether the running server's overrides file was named, so that tests 9 and 11 may use it.
    pub overrides_given: bool,
}

/// Every check over every transport of the plan.
pub async fn run(plan: &Plan) -> anyhow::Result<Vec<Finding>> {
    match &plan.url {
        Some(url) => against_url(plan, url).await,
        None => in_process(&plan.config, &plan.transports).await,
    }
}

/// The default: the project's tools behind a server of our own on a free loopback port (and,
/// for stdio, behind the binary itself), reading a temporary overrides file so that the user's
/// `.run/overrides.json` is never touched.
async fn in_process(
    config: &EngineConfig,
    transports: &[Transport],
) -> anyhow::Result<Vec<Finding>> {
    let scratch = scratch_folder()?;
    let config = EngineConfig {
        overrides: scratch.path().join("overrides.json"),
        ..config.clone()
    };
    write_empty(&config.overrides)?;
    let engine = Arc::new(load(&config)?);
    // Started even for stdio alone: one code path, and a loopback port costs nothing.
    let server = start_http(
        Arc::clone(&engine),
        ServerOptions {
            port: 0,
            ..ServerOptions::default()
        },
    )
    .await
    .context("cannot start the server to verify")?;
    let target = Target {
        engine: &engine,
        overrides: Some(&config.overrides),
    };
    let mut findings = Vec::new();
    for &via in transports {
        let connected = match via {
            Transport::Http => transport::http(&server.url()).await,
            Transport::Sse => transport::sse(&server.sse_url()).await,
            Transport::Stdio => transport::stdio(&config).await,
        };
        findings.extend(suite(connected, &target, via).await?);
    }
    server.shutdown().await;
    Ok(findings)
}

/// `--url`: a server that is already running. Tests 9 and 11 write its overrides file, so they
/// run only when that file was named (`--overrides` or `CAREEM_MCP_OVERRIDES`); it is emptied
/// for the run and its content put back afterwards.
async fn against_url(plan: &Plan, url: &str) -> anyhow::Result<Vec<Finding>> {
    let engine = load(&plan.config)?;
    let overrides = plan
        .overrides_given
        .then_some(plan.config.overrides.as_path());
    // Put back when this function ends, however it ends.
    let _saved = overrides.map(SavedOverrides::take).transpose()?;
    let target = Target {
        engine: &engine,
        overrides,
    };
    let mut findings = Vec::new();
    for &via in &plan.transports {
        let connected = match via {
            Transport::Http => transport::http(url).await,
            Transport::Sse => match transport::sse_url_of(url) {
                Some(sse) => transport::sse(&sse).await,
                None => Err(format!(
                    "cannot tell the SSE endpoint of {url}: it does not end in /mcp"
                )),
            },
            Transport::Stdio => {
                findings.push(Finding {
                    check: "all",
                    transport: via.name(),
                    status: Verdict::Skip,
                    detail: "a server reached by --url has no stdio".to_string(),
                });
                continue;
            }
        };
        findings.extend(suite(connected, &target, via).await?);
    }
    Ok(findings)
}

/// One transport's run. A session that cannot be opened fails test 1; the rest cannot run.
async fn suite(
    connected: Result<transport::Client, String>,
    target: &Target<'_>,
    via: Transport,
) -> anyhow::Result<Vec<Finding>> {
    let client = match connected {
        Ok(client) => client,
        Err(detail) => {
            return Ok(vec![
                Finding {
                    check: checks::INITIALIZE,
                    transport: via.name(),
                    status: Verdict::Fail,
                    detail,
                },
                Finding {
                    check: "2-12",
                    transport: via.name(),
                    status: Verdict::Skip,
                    detail: "no MCP session".to_string(),
                },
            ]);
        }
    };
    if let Some(path) = target.overrides {
        write_empty(path)?;
    }
    let findings = checks::run(&client, target, via.name()).await;
    if let Err(error) = client.cancel().await {
        tracing::debug!("closing the {} session: {error}", via.name());
    }
    Ok(findings)
}

fn load(config: &EngineConfig) -> anyhow::Result<Engine> {
    Engine::load(config.clone()).with_context(|| {
        format!(
            "the tool files in {} have problems (run `careem-mcp lint`)",
            config.tools_dir.display()
        )
    })
}

fn write_empty(path: &Path) -> anyhow::Result<()> {
    overrides::write(path, &Overrides::new()).context("cannot prepare the overrides file")
}

/// A folder of our own under the system's temporary directory for a server of our own to
/// read its overrides from, removed when dropped.
fn scratch_folder() -> anyhow::Result<tempfile::TempDir> {
    tempfile::Builder::new()
        .prefix("careem-mcp-verify-")
        .tempdir()
        .context("cannot create a temporary folder")
}

/// A running server's overrides file as it was before verify emptied it; put back on drop.
struct SavedOverrides {
    path: PathBuf,
    bytes: Option<Vec<u8>>,
}

impl SavedOverrides {
    fn take(path: &Path) -> anyhow::Result<Self> {
        let bytes = match overrides::read_bytes(path) {
            Ok(bytes) => Some(bytes),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
            Err(error) => {
                return Err(error).with_context(|| format!("cannot read {}", path.display()));
            }
        };
        Ok(Self {
            path: path.to_path_buf(),
            bytes,
        })
    }
}

impl Drop for SavedOverrides {
    fn drop(&mut self) {
        let restored = match &self.bytes {
            Some(bytes) => overrides::put_back(&self.path, bytes),
            None => std::fs::remove_file(&self.path),
        };
        if let Err(error) = restored {
            tracing::warn!("cannot put back {}: {error}", self.path.display());
        }
    }
}
