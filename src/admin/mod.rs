//! The admin API (docs/ADMIN.md): every control of a run over HTTP — its scenarios, reset,
//! clock, world, calls and grade — and the list of runs, for tests and harnesses that reach
//! the server's port but not its disk. `serve --admin ADDR` serves it on a listener of its own,
//! never on the MCP port, behind the `Host`/`Origin` guard, the JSON-writes rule and, when
//! given one, a bearer token; `/openapi.json` describes it. The dashboard serves the same
//! routes under `/api`, beside its page, so there is one API.
//!
//! Each handler acts through the engine's front door with the functions the CLI commands
//! call, and answers a `Serialize` struct whose schema is in the OpenAPI document. It never
//! prints; logs go through `tracing`.

mod calls;
mod clock;
mod error;
mod grade;
mod reset;
mod run;
mod runs;
mod scenarios;
mod token;
mod words;
mod world;
pub(crate) mod writes;

use std::net::SocketAddr;
use std::sync::{Arc, Once};
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::http::{StatusCode, header};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use tokio::sync::{Notify, Semaphore};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use tower::ServiceBuilder;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::engine::Runs;
use crate::http::listener::{self, BodyLimits, HostGuard, bound_bodies, guard_hosts};
use crate::http::{BindError, ConnectionLimits, bind};

pub use calls::{CallsAnswer, Cleared};
pub use clock::{ClockAnswer, ClockMove, clock_now, move_clock};
pub use error::ErrorBody;
pub(crate) use error::{ApiError, blocking};
pub(crate) use grade::verdict;
pub use grade::{Graded, Report};
pub(crate) use run::InRun;
pub use run::{DEFAULT_RUN, missing_run};
pub use runs::{REMOVE_NEEDS_RUN, Removed, RunsAnswer};
pub use scenarios::{EntrySet, ScenariosAnswer, StepsBody, listing};
pub use token::Token;
pub use words::force_refusal;

/// Request bodies above this are refused: the largest is an expected file or a "try a call".
pub const MAX_BODY_BYTES: usize = 1024 * 1024;
/// Live streams (`/runs/{run}/calls/stream`) open at once, by default.
pub const DEFAULT_MAX_STREAMS: usize = 16;
/// How long a shutdown waits for connections to finish their requests before it drops them.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// What every handler shares: the runs (the default run's engine and each run's, made on
/// first use) and the live streams' cap.
#[derive(Debug, Clone)]
pub struct Admin {
    runs: Arc<Runs>,
    /// Ends the live streams, so that a shutdown does not wait for readers to leave.
    shutdown: CancellationToken,
    /// One permit per live stream that may be open.
    streams: Arc<Semaphore>,
    max_streams: usize,
    /// Told whenever a live stream ends, for the memory trimmer.
    streams_ended: Arc<Notify>,
    /// Starts the memory trimmer with the first live stream.
    trimmer: Arc<Once>,
}

impl Admin {
    /// The API over `runs`, at most `max_streams` live streams open at once, every stream
    /// ended by `shutdown`.
    pub fn new(runs: Arc<Runs>, max_streams: usize, shutdown: CancellationToken) -> Self {
        let max_streams = max_streams.max(1);
        Self {
            runs,
            shutdown,
            streams: Arc::new(Semaphore::new(max_streams)),
            max_streams,
            streams_ended: Arc::new(Notify::new()),
            trimmer: Arc::new(Once::new()),
        }
    }

    pub(crate) fn runs(&self) -> &Arc<Runs> {
        &self.runs
    }
}

/// The document's frame: what the generated paths and schemas go into.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "careem-mcp admin API",
        description = "Every control of a run over HTTP: scenarios, reset, clock, world, calls and grade (docs/ADMIN.md). `{run}` is a run's name, `default` for the plain /mcp run. Writes send `Content-Type: application/json`. Errors are `{\"error\": \"…\"}` in the words the CLI prints.",
    ),
    modifiers(&BearerToken),
    security(("bearer" = [])),
    tags(
        (name = "runs", description = "The runs; a run reset or removed"),
        (name = "scenarios", description = "Forced scenarios, sequences, delays and faults (docs/CONTROLS.md)"),
        (name = "clock", description = "The run's clock"),
        (name = "world", description = "The run's world"),
        (name = "calls", description = "The run's journal"),
        (name = "grade", description = "The run graded by its end state (docs/GRADING.md)"),
    )
)]
struct ApiDoc;

/// The bearer token as the document's one security scheme.
struct BearerToken;

impl utoipa::Modify for BearerToken {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityScheme};
        openapi
            .components
            .get_or_insert_with(Default::default)
            .add_security_scheme(
                "bearer",
                SecurityScheme::Http(Http::new(HttpAuthScheme::Bearer)),
            );
    }
}

/// Every endpoint, and the OpenAPI document generated from the same handlers.
fn api() -> (Router<Admin>, utoipa::openapi::OpenApi) {
    let mut openapi = ApiDoc::openapi();
    openapi.info.version = env!("CARGO_PKG_VERSION").to_string();
    OpenApiRouter::with_openapi(openapi)
        .routes(routes!(runs::list))
        .routes(routes!(runs::remove))
        .routes(routes!(reset::reset))
        .routes(routes!(scenarios::list))
        .routes(routes!(scenarios::force, scenarios::clear))
        .routes(routes!(scenarios::set_entry))
        .routes(routes!(scenarios::set_steps))
        .routes(routes!(clock::show, clock::set, clock::real))
        .routes(routes!(clock::advance))
        .routes(routes!(world::show))
        .routes(routes!(calls::list, calls::clear))
        .routes(routes!(calls::stream))
        .routes(routes!(grade::grade))
        .split_for_parts()
}

/// The API's endpoints with their state, without any layer: the dashboard nests them under
/// `/api` behind its own.
pub(crate) fn routes(admin: Admin) -> Router {
    api().0.with_state(admin)
}

/// Where and how the admin listener listens.
#[derive(Debug, Clone)]
pub struct AdminOptions {
    pub host: String,
    /// `0` picks a free port.
    pub port: u16,
    /// Hosts admitted besides the loopback names, as `serve --allowed-host`.
    pub allowed_hosts: Vec<String>,
    /// Required of every request when given.
    pub token: Option<Token>,
    /// Timeouts and the cap on open connections, as `serve` has them.
    pub connections: ConnectionLimits,
    pub max_streams: usize,
}

/// Every route of the admin listener: the API, `/openapi.json`, JSON for every path and method
/// it does not have; in request order, the `Host`/`Origin` guard, the token, the JSON-writes
/// rule and the body limits.
pub fn app(admin: Admin, options: &AdminOptions) -> Router {
    let (routes, openapi) = api();
    let document = Arc::new(openapi.to_pretty_json().unwrap_or_default());
    let hosts = Arc::new(HostGuard::new(&options.allowed_hosts));
    let bodies = BodyLimits {
        max_bytes: MAX_BODY_BYTES,
        timeout: options.connections.body_timeout,
        too_large,
        too_slow,
    };
    routes
        .route(
            "/openapi.json",
            get(move || async move {
                (
                    [(header::CONTENT_TYPE, "application/json")],
                    document.as_str().to_string(),
                )
            }),
        )
        .fallback(error::no_endpoint)
        .method_not_allowed_fallback(error::wrong_method)
        .with_state(admin)
        .layer(
            ServiceBuilder::new()
                .layer(middleware::from_fn_with_state(hosts, guard_hosts))
                .layer(middleware::from_fn_with_state(
                    options.token.clone(),
                    token::require_token,
                ))
                .layer(middleware::from_fn(writes::writes_declare_json))
                .layer(middleware::from_fn_with_state(bodies, bound_bodies))
                .layer(DefaultBodyLimit::max(MAX_BODY_BYTES)),
        )
}

/// A body over [`MAX_BODY_BYTES`].
pub(crate) fn too_large() -> Response {
    (
        StatusCode::PAYLOAD_TOO_LARGE,
        Json(serde_json::json!({"error": "the request body is too large"})),
    )
        .into_response()
}

/// A body that did not arrive within the body timeout.
pub(crate) fn too_slow() -> Response {
    (
        StatusCode::REQUEST_TIMEOUT,
        Json(serde_json::json!({"error": "the request body did not arrive in time"})),
    )
        .into_response()
}

/// An admin listener started by [`start`]; dropping it stops it.
#[derive(Debug)]
pub struct RunningAdmin {
    pub addr: SocketAddr,
    shutdown: CancellationToken,
    task: Option<JoinHandle<()>>,
}

impl RunningAdmin {
    /// Ends the live streams and stops serving: connections get [`SHUTDOWN_GRACE`] to finish
    /// the request they are on, then are dropped.
    pub async fn shutdown(mut self) {
        self.shutdown.cancel();
        if let Some(mut task) = self.task.take()
            && tokio::time::timeout(SHUTDOWN_GRACE, &mut task)
                .await
                .is_err()
        {
            tracing::warn!("admin: connections still open after {SHUTDOWN_GRACE:?}; dropping them");
            task.abort();
        }
    }
}

impl Drop for RunningAdmin {
    fn drop(&mut self) {
        self.shutdown.cancel();
    }
}

/// Binds (port 0 picks a free port) and serves the API over `runs` in the background, through
/// the listener's accept loop (header and body timeouts, the connection cap); returns at once.
///
/// # Errors
///
/// The address cannot be bound.
pub async fn start(runs: Arc<Runs>, options: AdminOptions) -> Result<RunningAdmin, BindError> {
    let listener = bind(&options.host, options.port).await?;
    let addr = listener.local_addr().map_err(|source| BindError::Other {
        addr: format!("{}:{}", options.host, options.port),
        source,
    })?;
    let shutdown = CancellationToken::new();
    let admin = Admin::new(runs, options.max_streams, shutdown.clone());
    let router = app(admin, &options);
    let task = tokio::spawn(listener::serve(
        listener,
        router,
        options.connections,
        shutdown.clone(),
    ));
    Ok(RunningAdmin {
        addr,
        shutdown,
        task: Some(task),
    })
}
