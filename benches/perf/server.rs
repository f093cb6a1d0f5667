//! The real binary as a user runs it (`careem-mcp serve`), started in a throwaway project with
//! a copy of the repository's tools, plus what `/proc` says about it (CPU time, memory).

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The binary cargo built for this bench, or `CAREEM_MCP_BENCH_BIN` (to compare builds of it,
/// e.g. another release profile, with the same client).
pub fn bin() -> String {
    std::env::var("CAREEM_MCP_BENCH_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_careem-mcp").to_string())
}

/// A throwaway project: the repository's tools, an overrides path and a journal path.
pub struct Project {
    dir: tempfile::TempDir,
}

impl Project {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().expect("temporary directory");
        crate::engine::copy_dir(&crate::repo().join("tools"), &dir.path().join("tools"));
        Self { dir }
    }

    /// The binary with the project's tools and overrides, and no `CAREEM_MCP_*` from outside.
    pub fn command(&self) -> Command {
        let mut command = Command::new(bin());
        for (key, _) in std::env::vars() {
            if key.starts_with("CAREEM_MCP_") {
                command.env_remove(key);
            }
        }
        command
            .current_dir(self.dir.path())
            .env("NO_COLOR", "1")
            .arg("--tools")
            .arg(self.dir.path().join("tools"))
            .arg("--overrides")
            .arg(self.dir.path().join(".run/overrides.json"));
        command
    }

    pub fn journal(&self) -> std::path::PathBuf {
        self.dir.path().join(".run/calls.jsonl")
    }
}

/// A running `serve` on 127.0.0.1 and a free port.
pub struct Server {
    child: Child,
    pub addr: SocketAddr,
    /// From just before the process was spawned to its "serving" line on stderr.
    pub announced_after: Duration,
    pub spawned_at: Instant,
}

impl Server {
    /// `serve --host 127.0.0.1 --port 0` plus `extra`; stderr is drained by a thread.
    pub fn start(project: &Project, extra: &[&str], env: &[(&str, &str)]) -> Self {
        let mut command = project.command();
        command
            .args(["serve", "--host", "127.0.0.1", "--port", "0", "--journal"])
            .arg(project.journal())
            .args(extra)
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let spawned_at = Instant::now();
        let mut child = command.spawn().expect("the binary starts");
        let stderr = child.stderr.take().expect("piped stderr");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut tx = Some(tx);
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if let Some(sender) = &tx
                    && let Some(addr) = announced_addr(&line)
                {
                    let _ = sender.send((addr, Instant::now()));
                    tx = None;
                }
            }
        });
        let (addr, at) = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("the server announces its address");
        Self {
            child,
            addr,
            announced_after: at - spawned_at,
            spawned_at,
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Resident memory in bytes.
    pub fn rss(&self) -> u64 {
        rss(self.pid())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `careem-mcp: serving 20 tools at http://127.0.0.1:PORT/mcp (Streamable HTTP), …`
fn announced_addr(line: &str) -> Option<SocketAddr> {
    let rest = &line[line.find("http://")? + "http://".len()..];
    rest[..rest.find("/mcp")?].parse().ok()
}

pub fn cpu_time(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<u64> = after
        .split_whitespace()
        .map(|f| f.parse().unwrap_or(0))
        .collect();
    let ticks = fields.get(11).copied().unwrap_or(0) + fields.get(12).copied().unwrap_or(0);
    Duration::from_secs_f64(ticks as f64 / clock_ticks() as f64)
}

/// `sysconf(_SC_CLK_TCK)`, 100 on Linux for as long as anyone remembers; `getconf` confirms.
fn clock_ticks() -> u64 {
    static TICKS: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *TICKS.get_or_init(|| {
        Command::new("getconf")
            .arg("CLK_TCK")
            .output()
            .ok()
            .and_then(|out| String::from_utf8_lossy(&out.stdout).trim().parse().ok())
            .unwrap_or(100)
    })
}

pub fn rss(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| {
            rest.trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<u64>()
                .ok()
        })
        .map_or(0, |kb| kb * 1024)
}

pub fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1024.0 * 1024.0))
}
