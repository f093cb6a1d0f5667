//! `tools/call` over the wire: the menu over Streamable HTTP with 1, 8 and 32 concurrent
//! sessions, in static mode and in stateful mode (a read), a call that changes the world in
//! stateful mode, stdio with one session, and a plain axum route that answers the same bytes
//! (the ceiling), all in this run on this machine. The client is `http.rs`: one kept-alive
//! connection per session, on one client thread.

use std::io::{BufRead, BufReader, Write};
use std::net::SocketAddr;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::http::{Connection, Response};
use crate::server::{Project, Server};
use crate::stats::{Summary, report};
use crate::targets::{Bound, Target};

/// Requests per concurrency level, after a warm-up of a tenth as many.
const REQUESTS: usize = 6_000;
const LEVELS: [usize; 3] = [1, 8, 32];
const STDIO_REQUESTS: usize = 4_000;
/// Calls that change the world, at 8 sessions: each is persisted before its answer.
const WRITES: usize = 2_000;
/// Production's stack as the issue "Performance, round three" measured it on the reference
/// machine at 32 sessions (Go SDK v1.6.1 answering the menu from memory: 6.4k–7.1k req/s, 10–12 %
/// of that run's plain-axum ceiling). The bench cannot run Go; `../shared/go-peer/` builds it.
const GO_REQS_PER_SECOND: f64 = 6_750.0;
const GO_SHARE_OF_CEILING: f64 = 0.11;

pub const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"careem-mcp-bench","version":"0"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
const ARGUMENTS: &str = r#"{"restaurant_id":30101,"latitude":25.0866,"longitude":55.1474}"#;

fn call_body(id: u64) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"food_get_restaurant_menu","arguments":{ARGUMENTS}}}}}"#
    )
}

/// One client: a connection and, for MCP, its session headers.
pub struct Caller {
    conn: Connection,
    headers: String,
    next_id: u64,
}

impl Caller {
    /// `initialize` and `notifications/initialized` on a new connection.
    pub async fn mcp(addr: SocketAddr) -> Self {
        let mut conn = Connection::open(addr).await.expect("connect");
        let init = conn
            .post("/mcp", "", INITIALIZE.as_bytes())
            .await
            .expect("initialize");
        assert_eq!(init.status, 200, "initialize");
        let session = init
            .header("mcp-session-id")
            .expect("a session id")
            .to_string();
        let message = init.message();
        let version = message["result"]["protocolVersion"]
            .as_str()
            .expect("a protocol version")
            .to_string();
        let headers = format!("Mcp-Session-Id: {session}\r\nMCP-Protocol-Version: {version}\r\n");
        let done = conn
            .post("/mcp", &headers, INITIALIZED.as_bytes())
            .await
            .expect("initialized");
        assert!(done.status < 300, "initialized: {}", done.status);
        Self {
            conn,
            headers,
            next_id: 1,
        }
    }

    /// A plain connection, for the ceiling route.
    async fn plain(addr: SocketAddr) -> Self {
        Self {
            conn: Connection::open(addr).await.expect("connect"),
            headers: String::new(),
            next_id: 1,
        }
    }

    pub async fn call(&mut self) -> Response {
        self.send(Request::Call).await
    }

    async fn send(&mut self, request: Request) -> Response {
        let body = match request {
            Request::Call => call_body(self.next_id),
            Request::Ping => format!(
                r#"{{"jsonrpc":"2.0","id":{},"method":"ping"}}"#,
                self.next_id
            ),
            // The seed basket's second line, its quantity 1 and 2 by turns: every call changes
            // the world.
            Request::Write => format!(
                r#"{{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{{"name":"cart_update_item","arguments":{{"basket_item_id":990002,"quantity":{}}}}}}}"#,
                self.next_id,
                1 + self.next_id % 2
            ),
        };
        self.next_id += 1;
        self.conn
            .post("/mcp", &self.headers, body.as_bytes())
            .await
            .expect("a response")
    }
}

/// What the load sends: the menu call, `ping` (the SDK's own floor: no tool, no engine, an
/// 86-byte answer), or a call that changes the world (stateful mode).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Request {
    Call,
    Ping,
    Write,
}

/// A menu answer, checked in full (used once per session, outside the timed loop).
fn check_answer(response: &Response) {
    assert_eq!(response.status, 200);
    let message = response.message();
    let result = &message["result"];
    // The Go SDK leaves `isError` out when it is false.
    assert_eq!(result.get("isError"), None, "{message}");
    assert_eq!(
        result["structuredContent"]["restaurant"]["name"]["value"],
        "Shawarma Station"
    );
}

pub struct Load {
    pub requests: usize,
    pub wall: Duration,
    pub latency: Summary,
    pub failures: usize,
}

impl Load {
    pub fn rate(&self) -> f64 {
        self.requests as f64 / self.wall.as_secs_f64()
    }
}

/// `total` calls spread over `sessions` concurrent callers, each waiting for its answer before
/// sending the next.
async fn drive(mut callers: Vec<Caller>, total: usize, request: Request) -> Load {
    let least = match request {
        Request::Call => 1_000,
        Request::Write => 500,
        Request::Ping => 20,
    };
    let warm_up = total / 10 / callers.len();
    for caller in &mut callers {
        check_answer(&caller.call().await);
        for _ in 0..warm_up {
            caller.send(request).await;
        }
    }
    let per = total / callers.len();
    let started = Instant::now();
    let tasks: Vec<_> = callers
        .into_iter()
        .map(|mut caller| {
            tokio::spawn(async move {
                let mut latencies = Vec::with_capacity(per);
                let mut failures = 0;
                for _ in 0..per {
                    let sent = Instant::now();
                    let response = caller.send(request).await;
                    latencies.push(sent.elapsed());
                    // A full parse would cost the client more than the ceiling route costs the
                    // server; the full check ran once per session above.
                    if response.status != 200 || response.body.len() < least {
                        failures += 1;
                    }
                }
                (latencies, failures)
            })
        })
        .collect();
    let mut latencies = Vec::with_capacity(total);
    let mut failures = 0;
    for task in tasks {
        let (mine, failed) = task.await.expect("a caller");
        latencies.extend(mine);
        failures += failed;
    }
    Load {
        requests: latencies.len(),
        wall: started.elapsed(),
        latency: Summary::new(latencies),
        failures,
    }
}

fn figures(load: &Load, cpu: Option<Duration>) -> String {
    let cpu = cpu.map_or(String::new(), |cpu| {
        format!(
            "  server CPU {:>6.1} µs/req",
            cpu.as_secs_f64() * 1e6 / load.requests as f64
        )
    });
    let failed = if load.failures > 0 {
        format!("  FAILURES {}", load.failures)
    } else {
        String::new()
    };
    format!(
        "{:>7.0} req/s  p50 {:>9}  p99 {:>9}{cpu}{failed}",
        load.rate(),
        crate::stats::micros(load.latency.median()),
        crate::stats::micros(load.latency.p99()),
    )
}

/// One level's figures: requests per second and the server's CPU per request.
#[derive(Clone, Copy)]
struct Measured {
    rate: f64,
    cpu: Duration,
}

/// One configuration of the server, measured at each of `levels` with `total` requests.
#[allow(clippy::too_many_arguments)]
fn measure_server(
    runtime: &tokio::runtime::Runtime,
    label: &str,
    pid: u32,
    addr: SocketAddr,
    mcp: bool,
    request: Request,
    levels: &[usize],
    total: usize,
) -> Vec<Measured> {
    let mut measured = Vec::new();
    for &sessions in levels {
        let load = runtime.block_on(async {
            let mut callers = Vec::new();
            for _ in 0..sessions {
                callers.push(if mcp {
                    Caller::mcp(addr).await
                } else {
                    Caller::plain(addr).await
                });
            }
            let before = crate::server::cpu_time(pid);
            let load = drive(callers, total, request).await;
            (load, crate::server::cpu_time(pid) - before)
        });
        let (load, cpu) = load;
        report(
            &format!(
                "{label}, {sessions:>2} session{}",
                if sessions == 1 { "" } else { "s" }
            ),
            &figures(&load, Some(cpu)),
        );
        measured.push(Measured {
            rate: load.rate(),
            cpu: cpu / u32::try_from(load.requests.max(1)).unwrap_or(u32::MAX),
        });
    }
    measured
}

pub fn run() -> Vec<Target> {
    println!(
        "protocol (tools/call food_get_restaurant_menu; {REQUESTS} requests per level; client: one thread, one connection per session; TCP_NODELAY both ends)"
    );
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    println!("  server: {}", crate::server::bin());
    let project = Project::new();

    // As users run it: journal on, one info line per call on stderr.
    let server = Server::start(&project, &[], &[]);
    let captured = runtime.block_on(async {
        let mut caller = Caller::mcp(server.addr).await;
        let response = caller.call().await;
        check_answer(&response);
        response
    });
    let measure = |label: &str, server: &Server, request: Request, levels: &[usize], total| {
        measure_server(
            &runtime,
            label,
            server.pid(),
            server.addr,
            true,
            request,
            levels,
            total,
        )
    };
    let http = measure(
        "streamable HTTP (serve)",
        &server,
        Request::Call,
        &LEVELS,
        REQUESTS,
    );
    let ping = measure(
        "streamable HTTP ping (the SDK's floor)",
        &server,
        Request::Ping,
        &LEVELS,
        REQUESTS,
    );
    drop(server);

    // Stateful mode: the menu reads the run's world; cart_update_item changes it.
    let stateful = Project::new();
    let server = Server::start(&stateful, &["--stateful"], &[]);
    let read = measure(
        "streamable HTTP (serve --stateful), a read",
        &server,
        Request::Call,
        &LEVELS,
        REQUESTS,
    );
    let write = measure(
        "streamable HTTP (serve --stateful), a write",
        &server,
        Request::Write,
        &[8],
        WRITES,
    );
    drop(server);

    // The ceiling: a plain axum route answering the captured bytes, in its own process.
    let ceiling = Ceiling::start(&captured);
    let plain = measure_server(
        &runtime,
        "plain axum route (ceiling)",
        ceiling.pid(),
        ceiling.addr,
        false,
        Request::Call,
        &LEVELS,
        REQUESTS,
    );
    drop(ceiling);

    stdio(&project);

    println!(
        "  response: {} bytes of {}",
        captured.body.len(),
        captured.header("content-type").unwrap_or("?")
    );
    for (i, sessions) in LEVELS.iter().enumerate() {
        println!(
            "  ratio to ceiling at {sessions:>2} sessions: serve {:>3.0} %, stateful read {:>3.0} %, ping {:>3.0} %",
            100.0 * http[i].rate / plain[i].rate,
            100.0 * read[i].rate / plain[i].rate,
            100.0 * ping[i].rate / plain[i].rate
        );
    }
    let share = |m: &[Measured]| 100.0 * m[2].rate / plain[2].rate;
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    vec![
        Target::new(
            "HTTP tools/call at 32 sessions, share of the ceiling",
            share(&http),
            "%",
            Bound::AtLeast(40.0),
        ),
        Target::new(
            "the same in stateful mode, a read",
            share(&read),
            "%",
            Bound::AtLeast(40.0),
        ),
        Target::new(
            "server CPU per tools/call at 8 sessions",
            us(http[1].cpu),
            "µs",
            Bound::AtMost(40.0),
        ),
        Target::new(
            "a stateful write's CPU, in static calls' (8 sessions)",
            write[0].cpu.as_secs_f64() / http[1].cpu.as_secs_f64().max(f64::MIN_POSITIVE),
            "×",
            Bound::AtMost(2.0),
        ),
        Target::new(
            format!("req/s at 32 sessions, in Go v1.6.1's ({GO_REQS_PER_SECOND} req/s)"),
            http[2].rate / GO_REQS_PER_SECOND,
            "×",
            Bound::AtLeast(5.0),
        ),
        Target::new(
            format!(
                "share of the ceiling at 32, in Go v1.6.1's ({:.0} %)",
                GO_SHARE_OF_CEILING * 100.0
            ),
            share(&http) / (GO_SHARE_OF_CEILING * 100.0),
            "×",
            Bound::AtLeast(5.0),
        ),
    ]
}

/// One session over `serve --stdio`, calls one after the other.
fn stdio(project: &Project) {
    let mut child = project
        .command()
        .args(["serve", "--stdio", "--journal"])
        .arg(project.journal())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    let pid = child.id();
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    let mut exchange = |message: &str, answer: bool, line: &mut String| {
        stdin.write_all(message.as_bytes()).expect("write");
        stdin.write_all(b"\n").expect("write");
        stdin.flush().expect("flush");
        if answer {
            line.clear();
            stdout.read_line(line).expect("read");
        }
    };
    exchange(INITIALIZE, true, &mut line);
    assert!(line.contains("protocolVersion"), "{line}");
    exchange(INITIALIZED, false, &mut line);
    exchange(&call_body(1), true, &mut line);
    let first: Value = serde_json::from_str(&line).expect("JSON");
    assert_eq!(first["result"].get("isError"), None, "{first}");
    for id in 0..STDIO_REQUESTS as u64 / 10 {
        exchange(&call_body(id + 2), true, &mut line);
    }
    let before = crate::server::cpu_time(pid);
    let started = Instant::now();
    let mut latencies = Vec::with_capacity(STDIO_REQUESTS);
    let mut failures = 0;
    for id in 0..STDIO_REQUESTS as u64 {
        let sent = Instant::now();
        exchange(&call_body(id + 10_000), true, &mut line);
        latencies.push(sent.elapsed());
        if !line.contains("\"result\"") {
            failures += 1;
        }
    }
    let load = Load {
        requests: STDIO_REQUESTS,
        wall: started.elapsed(),
        latency: Summary::new(latencies),
        failures,
    };
    let cpu = crate::server::cpu_time(pid) - before;
    drop(stdin);
    let _ = child.wait();
    report(
        "stdio (serve --stdio),  1 session",
        &figures(&load, Some(cpu)),
    );
}

/// The ceiling server: this bench binary re-run as a plain axum app (see `main.rs`).
struct Ceiling {
    child: std::process::Child,
    addr: SocketAddr,
    _body: tempfile::NamedTempFile,
}

impl Ceiling {
    fn start(captured: &Response) -> Self {
        let mut body = tempfile::NamedTempFile::new().expect("a temporary file");
        body.write_all(&captured.body).expect("write");
        let content_type = captured
            .header("content-type")
            .unwrap_or("text/event-stream");
        let mut command = std::process::Command::new(std::env::current_exe().expect("this bench"));
        command.arg(CEILING_ARG).arg(body.path()).arg(content_type);
        // Drained by a thread, as `Server` drains `serve`'s: the log line goes to a pipe.
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the ceiling server starts");
        let stderr = child.stderr.take().expect("piped stderr");
        std::thread::spawn(move || {
            std::io::copy(&mut BufReader::new(stderr), &mut std::io::sink())
        });
        let mut announced = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut announced)
            .expect("the ceiling's address");
        Self {
            child,
            addr: announced.trim().parse().expect("an address"),
            _body: body,
        }
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Ceiling {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub const CEILING_ARG: &str = "--ceiling-server";

/// `POST /mcp` answered with fixed bytes by a plain axum route, on the same runtime flavour
/// and with `TCP_NODELAY` as `serve`: the most any HTTP server on this stack can do here.
pub fn ceiling_server(body_path: &str, content_type: &str) {
    use axum::body::Bytes;
    use axum::http::header;
    use axum::serve::ListenerExt;

    let body = Bytes::from(std::fs::read(body_path).expect("the captured body"));
    let content_type = content_type.to_string();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        println!("{}", listener.local_addr().expect("an address"));
        let listener = listener.tap_io(|tcp| {
            let _ = tcp.set_nodelay(true);
        });
        let app = axum::Router::new().route(
            "/mcp",
            axum::routing::post(move |_request: Bytes| {
                let body = body.clone();
                let content_type = content_type.clone();
                async move {
                    (
                        [
                            (header::CONTENT_TYPE, content_type),
                            (header::CACHE_CONTROL, "no-cache".to_string()),
                        ],
                        body,
                    )
                }
            }),
        );
        axum::serve(listener, app).await.expect("serve");
    });
}
