//! `careem-mcp record`: `serve`, with every tool call answered by the upstream through
//! [`crate::probe::record`] and written as a scenario by the engine.

use std::sync::Arc;

use anyhow::Context;

use super::load_engine;
use super::reach::reach;
use super::serve::serve;
use crate::cli::Status;
use crate::cli::args::{GlobalArgs, RecordArgs, UpstreamTransport};
use crate::engine::{ProjectLayout, RecordOptions, absolute};
use crate::probe::drift::Upstream;
use crate::probe::record::{self, Recording};
use crate::server::runtime;

pub fn run(
    global: &GlobalArgs,
    layout: &ProjectLayout,
    args: &RecordArgs,
) -> anyhow::Result<Status> {
    let engine = Arc::new(load_engine(global, layout, args.serve.no_journal)?);
    let reach = reach(&args.reach)?;
    let via = match args.upstream_transport {
        UpstreamTransport::Http => Upstream::Http,
        UpstreamTransport::Sse => Upstream::Sse,
    };
    let recording = Recording {
        options: RecordOptions {
            template_times: args.template_times,
            redact: args.redact.iter().map(|f| f.trim().to_string()).collect(),
        },
        into: args.into.as_ref().map(|dir| layout.project.join(dir)),
    };
    // The upstream session lives on a runtime of its own, beside the server's, for as long as
    // the server runs.
    let upstream_runtime = runtime().context("cannot start the async runtime")?;
    let recorder = upstream_runtime.block_on(record::connect(
        &args.upstream,
        via,
        &reach,
        Arc::clone(&engine),
        recording.clone(),
    ))?;
    eprintln!("careem-mcp: forwarding tool calls to {}", recorder.url());
    match &recording.into {
        Some(dir) => eprintln!("careem-mcp: recording into {}", absolute(dir).display()),
        None => eprintln!(
            "careem-mcp: recording into {}",
            absolute(&layout.tools).display()
        ),
    }
    let served = serve(
        global,
        engine,
        None,
        layout,
        &args.serve,
        Some(Arc::new(recorder)),
    );
    upstream_runtime.shutdown_background();
    served
}
