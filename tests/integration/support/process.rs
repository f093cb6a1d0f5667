//! The real binary as a child process: killed when dropped, its output read as it comes, a
//! server found by the line that announces it, SIGTERM, and a journal that holds a call.

use std::io::Write;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{Project, wait_until};

/// How long a child may take to announce itself or to answer a line.
const START: Duration = Duration::from_secs(30);

/// The real binary, killed when dropped.
pub struct Process(pub Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Process {
    pub fn pid(&self) -> String {
        self.0.id().to_string()
    }

    /// The exit status, if it exits within `limit`.
    pub fn wait_for_exit(&mut self, limit: Duration) -> Option<ExitStatus> {
        wait_until(limit, || self.0.try_wait().expect("waits"))
    }
}

/// Each line of `reader` as it comes, read on a thread of its own. The thread keeps draining
/// after the receiver is gone, so a process writing to a pipe never blocks on it.
pub fn lines_of(reader: impl std::io::Read + Send + 'static) -> Receiver<String> {
    use std::io::BufRead;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(reader)
            .lines()
            .map_while(Result::ok)
        {
            let _ = tx.send(line);
        }
    });
    rx
}

/// The output of a process (its stderr, say): the lines read so far, and the rest as they come.
pub struct Lines {
    seen: Vec<String>,
    rest: Receiver<String>,
}

impl Lines {
    /// The lines of `reader`, read as they come.
    pub fn of(reader: impl std::io::Read + Send + 'static) -> Self {
        Self {
            seen: Vec::new(),
            rest: lines_of(reader),
        }
    }

    /// Every line so far.
    pub fn lines(&mut self) -> Vec<String> {
        self.seen.extend(self.rest.try_iter());
        self.seen.clone()
    }

    /// The first line, seen or still to come within `limit`, that `wanted` accepts.
    pub fn wait_for(&mut self, limit: Duration, wanted: impl Fn(&str) -> bool) -> Option<String> {
        let deadline = Instant::now() + limit;
        let mut looked = 0;
        loop {
            if let Some(line) = self.seen[looked..].iter().find(|line| wanted(line)) {
                return Some(line.clone());
            }
            looked = self.seen.len();
            let left = deadline.saturating_duration_since(Instant::now());
            self.seen.push(self.rest.recv_timeout(left).ok()?);
        }
    }
}

/// Starts `command` with its stderr piped, and reads it until a line starting with
/// `announce`: the process, the rest of that line, and its stderr.
pub fn start_announced(mut command: Command, announce: &str) -> (Process, String, Lines) {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    // Drained even when nobody listens any more: a server logs a line per call.
    let mut stderr = Lines::of(child.stderr.take().expect("stderr"));
    let process = Process(child);
    let Some(line) = stderr.wait_for(START, |line| line.starts_with(announce)) else {
        panic!("no {announce:?} line on stderr: {:?}", stderr.lines());
    };
    (process, line[announce.len()..].to_string(), stderr)
}

/// Starts `careem-mcp serve` with `args` in `project` and reads its stderr until the line that
/// names the URL: the process, the `/mcp` URL and its stderr.
pub fn serve_binary(project: &Project, args: &[&str]) -> (Process, String, Lines) {
    serve_command(project.command(), args)
}

/// As [`serve_binary`], for a `command` already set up (its environment, say).
pub fn serve_command(mut command: Command, args: &[&str]) -> (Process, String, Lines) {
    command.args(["serve", "--port", "0"]).args(args);
    let (process, rest, stderr) = start_announced(command, "careem-mcp: serving ");
    let url = rest
        .split_whitespace()
        .find(|word| word.starts_with("http://") && word.ends_with("/mcp"))
        .expect("the line names the /mcp URL")
        .to_string();
    (process, url, stderr)
}

/// Sends SIGTERM to `process`.
#[cfg(unix)]
pub fn kill_term(process: &Process) {
    let status = Command::new("kill")
        .args(["-TERM", &process.pid()])
        .status()
        .expect("kill runs");
    assert!(status.success());
}

/// Sends SIGTERM to `process` and checks that it shuts down cleanly: exit code 0 within
/// `limit`.
#[cfg(unix)]
pub fn terminate_cleanly(mut process: Process, limit: Duration) {
    kill_term(&process);
    let status = process.wait_for_exit(limit);
    assert!(status.is_some_and(|s| s.success()), "exits 0: {status:?}");
}

/// The resident memory of process `pid`, in KiB (0 when it cannot be read).
#[cfg(target_os = "linux")]
pub fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// `serve --stdio` driven by hand, line by line, for exact bytes in and out.
pub struct StdioServer {
    pub process: Process,
    stdin: Option<ChildStdin>,
    /// Every line the server writes to stdout, as it comes.
    pub lines: Receiver<String>,
}

impl StdioServer {
    /// Starts `command` (a `serve --stdio` command line) with stderr going to `stderr`.
    pub fn start(mut command: Command, stderr: impl Into<Stdio>) -> Self {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("the binary starts");
        let lines = lines_of(child.stdout.take().expect("stdout"));
        let stdin = child.stdin.take();
        Self {
            process: Process(child),
            stdin,
            lines,
        }
    }

    /// Writes `bytes` as one line.
    pub fn send(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).expect("writes");
        stdin.write_all(b"\n").expect("writes");
        stdin.flush().expect("flushes");
    }

    pub fn send_json(&mut self, message: &Value) {
        self.send(message.to_string().as_bytes());
    }

    /// The next message on stdout, which must be JSON-RPC.
    pub fn next(&self) -> Value {
        let line = self.lines.recv_timeout(START).expect("an answer in time");
        serde_json::from_str(&line).expect("stdout carries JSON-RPC only")
    }

    /// The `initialize` handshake.
    pub fn initialize(&mut self) {
        self.initialize_as("t", "1");
    }

    /// The `initialize` handshake of a client that names itself `name`, `version`.
    pub fn initialize_as(&mut self, name: &str, version: &str) {
        self.send_json(&json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": name, "version": version}}}));
        assert_eq!(self.next()["id"], 1, "initialized");
        self.send_json(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    }

    /// Closes stdin, which ends the session.
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }
}

/// Makes `path` a FIFO, replacing what was there.
#[cfg(unix)]
pub fn make_fifo(path: &std::path::Path) {
    let _ = std::fs::remove_file(path);
    let made = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", path.display());
}

/// A journal that is a pipe the test reads from, to hold a call in flight for as long as the
/// test needs: the server journals each call before answering it, and a call whose journal line
/// is larger than the pipe holds (64 KiB) waits in that write until the test drains the pipe.
/// Tool files cannot hold a call any more (they are read without blocking).
#[cfg(unix)]
pub struct JournalPipe {
    pub path: std::path::PathBuf,
    reader: std::fs::File,
}

#[cfg(unix)]
impl JournalPipe {
    pub fn new(project: &Project) -> Self {
        let path = project.path().join("calls.pipe");
        make_fifo(&path);
        // Read and write: opening a FIFO so never blocks (Linux), and the server's open for
        // writing then finds a reader at once.
        let reader = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .expect("the pipe opens");
        Self { path, reader }
    }

    /// Waits until a journal line has started to arrive: a call is inside its journal write.
    pub fn wait_for_a_call(&mut self) {
        use std::io::Read;
        let mut byte = [0u8; 1];
        self.reader
            .read_exact(&mut byte)
            .expect("a journal line starts");
        assert_eq!(byte[0], b'{');
    }

    /// Reads one whole journal line: the call writing it can finish.
    pub fn read_line(&mut self) {
        use std::io::Read;
        let mut byte = [0u8; 1];
        while byte[0] != b'\n' {
            self.reader
                .read_exact(&mut byte)
                .expect("a journal line arrives");
        }
    }

    /// Drains the pipe from now on, so that every held call completes.
    pub fn drain(self) {
        let mut reader = self.reader;
        std::thread::spawn(move || std::io::copy(&mut reader, &mut std::io::sink()));
    }
}

/// Arguments whose journal line is far larger than a pipe's 64 KiB.
pub fn large_search() -> Value {
    json!({"query": "x".repeat(100_000), "latitude": 25.0866, "longitude": 55.1474})
}
