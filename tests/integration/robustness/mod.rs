//! Robustness, one file per concern (`docs/RELIABILITY.md`): bad input over all three
//! transports, tool and overrides files broken or hostile under a running server, connections,
//! sessions, streams, stdio's output, output and memory bounds, property tests of the parser, renderer and matcher, the
//! security rules, a bounded soak, shutdown, graceful or stuck, and hostile upstreams under
//! `drift` and `record`. Each test drives the real
//! binary and bounds time with deadlines (never a speed assertion). The soak and the tests that
//! bound memory by the server's own VmRSS are `#[ignore]`d: `.ci/run` runs them in a step of
//! their own (`cargo test --test integration -- --ignored`).

mod bad_input;
mod broken_files;
mod clock;
#[cfg(target_os = "linux")]
mod connections;
#[cfg(target_os = "linux")]
mod dashboard;
#[cfg(unix)]
mod duplicate_ids;
mod edits;
#[cfg(target_os = "linux")]
mod hostile_files;
#[cfg(unix)]
mod journal;
mod option_bounds;
mod output;
#[cfg(target_os = "linux")]
mod programs;
mod properties;
mod security;
#[cfg(target_os = "linux")]
mod sessions;
#[cfg(unix)]
mod shared_journal;
#[cfg(unix)]
mod shutdown;
mod soak;
#[cfg(target_os = "linux")]
mod stdio;
#[cfg(target_os = "linux")]
mod streams;
#[cfg(unix)]
mod stuck_shutdown;
mod upstreams;
mod windows_files;
mod wire_edges;
#[cfg(unix)]
mod world_files;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::support::Process;
use crate::support::{BIN, Project, Run};

/// How long any one bounded step may take before the test calls it a hang. Generous: the
/// machine is shared, and a hang is for ever.
pub const DEADLINE: Duration = Duration::from_secs(60);

/// Extra memory the server may hold after an attack: far below what each attack used to cost
/// (hundreds of MiB to GiB), far above what noise adds.
pub const SLACK_KIB: u64 = 96 * 1024;

/// Runs the binary with `args` in `project`, failing the test when it has not exited by the
/// deadline (the process is killed then).
pub fn run_bounded(project: &Project, args: &[&str]) -> Run {
    let out = tempfile::NamedTempFile::new().expect("a stdout file");
    let err = tempfile::NamedTempFile::new().expect("a stderr file");
    let child = Command::new(BIN)
        .current_dir(project.path())
        .env("NO_COLOR", "1")
        .env_remove("CAREEM_MCP_LOG")
        .args(args)
        .stdin(Stdio::null())
        .stdout(out.reopen().expect("reopen"))
        .stderr(err.reopen().expect("reopen"))
        .spawn()
        .expect("the binary starts");
    let mut process = Process(child);
    let status = process.wait_for_exit(DEADLINE);
    let read = |path: &Path| std::fs::read_to_string(path).unwrap_or_default();
    let stderr = read(err.path());
    let status = status.unwrap_or_else(|| panic!("`{}` did not end: {stderr}", args.join(" ")));
    Run {
        code: status.code().unwrap_or(-1),
        stdout: read(out.path()),
        stderr,
    }
}

/// What a client sees of any failure inside a call.
const INTERNAL_ERROR: &str = "internal server error";

/// `{"a": {"a": … 1 … }}`, `depth` objects deep.
fn nested(depth: usize) -> String {
    format!("{}1{}", r#"{"a":"#.repeat(depth), "}".repeat(depth))
}

/// A tools/call request as text, with the arguments spliced in as given.
fn call_text(tool: &str, arguments: &str) -> Vec<u8> {
    format!(
        r#"{{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments}}}}}"#
    )
    .into_bytes()
}
