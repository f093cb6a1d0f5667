//! `careem-mcp serve`: the engine behind MCP until SIGINT or SIGTERM (or, with `--stdio`, until
//! stdin closes); calls in flight finish first.

use std::sync::Arc;

use anyhow::bail;

use super::{admin_token, load_engine, run_layout};
use crate::admin::{AdminOptions, DEFAULT_MAX_STREAMS};
use crate::cli::Status;
use crate::cli::args::{GlobalArgs, ServeArgs};
use crate::engine::{Engine, JournalStatus, ProjectLayout, Runs, absolute};
use crate::http::{ConnectionLimits, is_loopback};
use crate::server::{AdminListener, Ended, Forwarder, ServerOptions, run_until_signal};

pub fn run(
    global: &GlobalArgs,
    layout: &ProjectLayout,
    args: &ServeArgs,
) -> anyhow::Result<Status> {
    let run = match &global.run {
        Some(run) if !args.stdio => bail!(
            "one HTTP server serves every run: point clients at /mcp/{run} (or /sse/{run}); \
             --run picks the run of `serve --stdio`"
        ),
        run => run.as_ref(),
    };
    let shown = run_layout(global, layout)?;
    let runs = Arc::new(
        Runs::new(load_engine(global, layout, args.no_journal)?, layout)
            .with_max_runs(args.max_runs),
    );
    let engine = runs.get(run);
    serve(global, engine, Some(runs), &shown, args, None)
}

/// Serves `engine` (and `runs`, at `/mcp/<run>`) as `args` say, `layout` naming its files;
/// `forwarder`, when given, answers the tool calls.
pub fn serve(
    global: &GlobalArgs,
    engine: Arc<Engine>,
    runs: Option<Arc<Runs>>,
    layout: &ProjectLayout,
    args: &ServeArgs,
    forwarder: Option<Arc<dyn Forwarder>>,
) -> anyhow::Result<Status> {
    // On stderr, before anything else: a client starts the server in a folder of its own
    // choosing, and these show which files `scenario` and `calls` must agree with.
    eprintln!("careem-mcp: tools {}", absolute(&layout.tools).display());
    eprintln!(
        "careem-mcp: overrides {}",
        absolute(&layout.overrides).display()
    );
    let journal = absolute(&layout.journal);
    match engine.journal_status() {
        JournalStatus::Off => eprintln!("careem-mcp: journal off (--no-journal)"),
        JournalStatus::Open => eprintln!("careem-mcp: journal {}", journal.display()),
        JournalStatus::Unavailable(why) => eprintln!(
            "careem-mcp: journal none: cannot open {} ({why}); calls are not journalled until it \
             can be opened, which each call tries again",
            journal.display()
        ),
        JournalStatus::Refused(why) => bail!(
            "the journal {} is {why}: give --journal a file, or --no-journal",
            journal.display()
        ),
    }
    if forwarder.is_none() {
        eprintln!(
            "careem-mcp: {}",
            world_line(&engine, layout, runs.is_some() && !args.stdio)
        );
    }
    let connections = ConnectionLimits {
        max_connections: args.max_connections,
        header_timeout: args.header_timeout,
        body_timeout: args.body_timeout,
    };
    let admin = match &args.admin {
        None => None,
        Some(addr) => {
            let token = admin_token(global)?;
            if token.is_none() && !is_loopback(&addr.host) {
                bail!(
                    "--admin {addr} is not on loopback: whoever reaches it could steer every \
                     run. Give the admin API a token with --admin-token-file FILE or \
                     CAREEM_MCP_ADMIN_TOKEN"
                );
            }
            let runs = runs
                .clone()
                .unwrap_or_else(|| Arc::new(Runs::new(Arc::clone(&engine), layout)));
            Some(AdminListener {
                runs,
                options: AdminOptions {
                    host: addr.host.clone(),
                    port: addr.port,
                    allowed_hosts: args.allowed_hosts.clone(),
                    token,
                    connections,
                    max_streams: DEFAULT_MAX_STREAMS,
                },
            })
        }
    };
    let token_required = admin
        .as_ref()
        .is_some_and(|admin| admin.options.token.is_some());
    let options = ServerOptions {
        host: args.host.clone(),
        port: args.port,
        server_name: args.server_name.clone(),
        server_version: args.server_version.clone(),
        widget_domain: args.widget_domain.trim_end_matches('/').to_string(),
        allowed_hosts: args.allowed_hosts.clone(),
        no_output_schema: args.no_output_schema,
        no_meta: args.no_meta,
        session_idle: args.session_idle,
        max_sessions: args.max_sessions,
        connections,
        runs,
        forwarder,
        wire: args.wire,
        verbose: args.verbose,
    };
    let tools = engine.tools().len();
    // "Sessions" here are HTTP's (`Mcp-Session-Id`), kept apart from the world line's memory.
    let sessions = if args.wire.is_stateless() {
        "no HTTP sessions"
    } else {
        "HTTP sessions with Mcp-Session-Id"
    };
    eprintln!("careem-mcp: wire {} ({sessions})", args.wire.name());
    let ended = run_until_signal(engine, options, args.stdio, admin, |listening| {
        // The admin line first: whoever waits for the "serving" line finds both.
        if let Some(addr) = listening.admin {
            let token = if token_required {
                "bearer token required"
            } else {
                "no token"
            };
            eprintln!(
                "careem-mcp: admin API at http://{addr} ({token}; /openapi.json describes it)"
            );
        }
        if let Some(addr) = listening.mcp {
            let base = format!("http://{addr}");
            eprintln!(
                "careem-mcp: serving {tools} tools at {base}/mcp (Streamable HTTP), {base}/sse (legacy SSE), {base}/health"
            );
        }
    })?;
    // A stdio server that the `drop` fault ended exits as a crashed Go server does: status 2.
    Ok(match ended {
        Ended::Stopped | Ended::SessionExpired => Status::Success,
        Ended::Crashed => Status::Failure,
    })
}

/// Whether the world remembers what calls change (`--stateful`), and where: the run's
/// `world.json`, beside its overrides file; with `every_run`, the default run's and each
/// other run's, in its folder.
fn world_line(engine: &Engine, layout: &ProjectLayout, every_run: bool) -> String {
    if !engine.config().stateful {
        return "world not remembered: every call answers from the seed world at the run's \
                clock (serve --stateful remembers each run's world)"
            .to_string();
    }
    let own = absolute(engine.world_store().path());
    if every_run {
        format!(
            "world remembered (--stateful): the default run's in {}, each other run's in {}",
            own.display(),
            absolute(&layout.runs_dir().join("<run>").join("world.json")).display()
        )
    } else {
        format!("world remembered (--stateful) in {}", own.display())
    }
}
