//! Hardening (issue 14, `docs/RELIABILITY.md` §7): nothing a file, a client or a long run does
//! can hang the server or exhaust the machine. Each test drives the real binary, bounds the time
//! with deadlines (never a speed assertion), bounds memory by the server's own VmRSS, and shows
//! a normal client still served meanwhile.

#[cfg(target_os = "linux")]
mod connections;
#[cfg(target_os = "linux")]
mod dashboard;
#[cfg(unix)]
mod duplicate_ids;
mod edits;
#[cfg(target_os = "linux")]
mod files;
#[cfg(unix)]
mod journal;
mod output;
#[cfg(target_os = "linux")]
mod sessions;
#[cfg(unix)]
mod shared_journal;
#[cfg(unix)]
mod shutdown;

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
