//! Shared test scaffolding, one file per concern: a throwaway project and the binary run in
//! it, rmcp's client over each transport, a server in process, raw HTTP, the SSE client, the
//! binary as a child process, raw TCP connections, the journeys' agent and the points at the
//! world's edges, and the one polling helper.

mod agent;
mod client;
mod edges;
mod fixture;
mod http;
mod process;
mod project;
mod raw_http;
mod sockets;
pub mod sse;
pub mod upstream;
mod wait;

pub use agent::{Agent, time};
pub use client::{
    Client, assert_marina, assert_marina_result, at_marina, call, http_client, is_error, marina,
    marina_call, sse_client, stdio_client,
};
pub use edges::{Unserved, dubai_pin, unserved_points};
pub use fixture::Fixture;
pub use http::{ACCEPT, Raw, address, http, jsonrpc};
#[cfg(target_os = "linux")]
pub use process::rss_kib;
#[cfg(unix)]
pub use process::{JournalPipe, kill_term, make_fifo, terminate_cleanly};
pub use process::{
    Lines, Process, StdioServer, large_search, lines_of, serve_binary, serve_command,
    start_announced,
};
pub use project::{
    BIN, OK, Project, Run, broken_project, command_in, engine, files_under, repo, tally_project,
    tally_tool, tool_file,
};
pub use raw_http::{RawRequest, RawResponse, raw_exchange};
#[cfg(target_os = "linux")]
pub use sockets::sockets;
pub use sockets::{closed_by_server, connect, read_until_closed};
pub use upstream::Upstream;
pub use wait::{wait_until, wait_until_async};
