//! Start-up (process start to `/health` answering), a whole stdio session as a desktop client
//! spawns one, and resident memory: idle, with 1,000 Streamable HTTP sessions open, and once
//! those sessions expired.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use crate::http::Connection;
use crate::protocol::INITIALIZE;
use crate::server::{Project, Server, mib};
use crate::stats::{Summary, micros, report};
use crate::targets::{Bound, Target};

const STARTS: usize = 15;
const SESSIONS: usize = 1_000;
const IDLE_SECONDS: u64 = 2;

pub fn run() -> Vec<Target> {
    println!("start-up and memory ({})", crate::server::bin());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let project = Project::new();

    let mut starts = Vec::new();
    let mut announced = Vec::new();
    for _ in 0..STARTS {
        let server = Server::start(&project, &[], &[]);
        let healthy = runtime.block_on(healthy_at(server.addr));
        starts.push(healthy - server.spawned_at);
        announced.push(server.announced_after);
    }
    let starts = Summary::new(starts);
    report("process start to /health answering", &starts.line());
    report(
        "  of which: to the \"serving\" line",
        &Summary::new(announced).line(),
    );

    let server = Server::start(
        &project,
        &["--session-idle", &IDLE_SECONDS.to_string()],
        &[],
    );
    runtime.block_on(healthy_at(server.addr));
    std::thread::sleep(Duration::from_millis(300));
    let idle = server.rss();
    report("RSS idle", &mib(idle));

    let opened = Instant::now();
    let ids = runtime.block_on(open_sessions(server.addr, SESSIONS));
    let took = opened.elapsed();
    std::thread::sleep(Duration::from_millis(200));
    let busy = server.rss();
    report(
        &format!("RSS after {SESSIONS} sessions opened, abandoned"),
        &format!("{}  (opened in {})", mib(busy), micros(took)),
    );

    // Every session idles out IDLE_SECONDS after its last message, and a request to a live
    // session keeps it alive: wait that long before looking, and between looks (bounded).
    let idle_period = Duration::from_secs(IDLE_SECONDS) + Duration::from_millis(1_500);
    let (first, last) = (ids[0].clone(), ids[ids.len() - 1].clone());
    let mut looks = 0;
    loop {
        std::thread::sleep(idle_period);
        looks += 1;
        let gone = runtime.block_on(async {
            session_gone(server.addr, &first).await && session_gone(server.addr, &last).await
        });
        if gone {
            break;
        }
        assert!(looks < 5, "sessions still alive after {looks} idle periods");
    }
    // The server hands freed memory back every --session-idle (at least every second).
    std::thread::sleep(Duration::from_secs(IDLE_SECONDS) + Duration::from_millis(500));
    let after = server.rss();
    report(
        &format!("RSS after they expired (--session-idle {IDLE_SECONDS})"),
        &format!(
            "{}  ({} after opening)",
            mib(after),
            micros(opened.elapsed())
        ),
    );

    drop(server);

    let (wall, cpu) = stdio_sessions(&project);
    report("whole stdio session, wall", &wall.line());
    report("whole stdio session, CPU", &cpu.line());

    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let in_mib = |bytes: u64| bytes as f64 / (1024.0 * 1024.0);
    vec![
        Target::new(
            "start-up to a healthy HTTP server (median)",
            ms(starts.median()),
            "ms",
            Bound::AtMost(20.0),
        ),
        Target::new(
            "a whole stdio session, wall (median)",
            ms(wall.median()),
            "ms",
            Bound::AtMost(25.0),
        ),
        Target::new(
            "a whole stdio session, CPU (median)",
            ms(cpu.median()),
            "ms",
            Bound::AtMost(30.0),
        ),
        Target::new("RSS idle", in_mib(idle), "MiB", Bound::AtMost(20.0)),
        Target::new(
            format!("RSS with {SESSIONS} sessions open"),
            in_mib(busy),
            "MiB",
            Bound::AtMost(30.0),
        ),
    ]
}

/// A whole stdio session as a desktop client spawns one, [`STARTS`] times: start,
/// `initialize`, `tools/list`, one menu call, end of input. Wall time from spawn to exit, and
/// the process's CPU time (user and system, from `wait4`).
#[allow(
    clippy::zombie_processes,
    reason = "each child is reaped by `wait_with_cpu`"
)]
fn stdio_sessions(project: &Project) -> (Summary, Summary) {
    use std::io::{BufRead, BufReader, Write};
    let messages = [
        (INITIALIZE, true),
        (
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            false,
        ),
        (r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#, true),
        (
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"food_get_restaurant_menu","arguments":{"restaurant_id":30101,"latitude":25.0866,"longitude":55.1474}}}"#,
            true,
        ),
    ];
    let mut walls = Vec::new();
    let mut cpus = Vec::new();
    for _ in 0..STARTS {
        let started = Instant::now();
        let mut child = project
            .command()
            .args(["serve", "--stdio"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("the binary starts");
        let mut stdin = child.stdin.take().expect("stdin");
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut line = String::new();
        for (message, answered) in messages {
            writeln!(stdin, "{message}").expect("write");
            if answered {
                line.clear();
                stdout.read_line(&mut line).expect("read");
                assert!(line.contains("\"result\""), "{line}");
            }
        }
        assert!(line.contains("Shawarma Station"), "{line}");
        drop(stdin);
        let cpu = wait_with_cpu(child.id());
        walls.push(started.elapsed());
        cpus.push(cpu);
    }
    (Summary::new(walls), Summary::new(cpus))
}

/// Waits for the child `pid` to exit and returns the CPU time it used.
fn wait_with_cpu(pid: u32) -> Duration {
    let mut status = 0;
    // SAFETY: `rusage` is plain data that `wait4` fills; `pid` is a child of this process
    // that nothing else waits for.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        let waited = libc::wait4(
            libc::pid_t::try_from(pid).expect("a pid"),
            &mut status,
            0,
            &mut usage,
        );
        assert_eq!(waited, libc::pid_t::try_from(pid).expect("a pid"), "wait4");
        usage
    };
    let time = |t: libc::timeval| {
        Duration::from_secs(u64::try_from(t.tv_sec).unwrap_or(0))
            + Duration::from_micros(u64::try_from(t.tv_usec).unwrap_or(0))
    };
    time(usage.ru_utime) + time(usage.ru_stime)
}

/// When `/health` first answers 200, polling as fast as connections allow (bounded).
async fn healthy_at(addr: SocketAddr) -> Instant {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Ok(mut conn) = Connection::open(addr).await
            && let Ok(response) = conn.get("/health").await
            && response.status == 200
        {
            return Instant::now();
        }
        assert!(Instant::now() < deadline, "no /health within 10 s");
        tokio::time::sleep(Duration::from_micros(200)).await;
    }
}

/// `initialize` only, `n` times over 8 connections; the sessions are never used again.
async fn open_sessions(addr: SocketAddr, n: usize) -> Vec<String> {
    let tasks: Vec<_> = (0..8)
        .map(|worker| {
            tokio::spawn(async move {
                let mut conn = Connection::open(addr).await.expect("connect");
                let mut ids = Vec::new();
                for _ in (worker..n).step_by(8) {
                    let response = conn
                        .post("/mcp", "", INITIALIZE.as_bytes())
                        .await
                        .expect("initialize");
                    assert_eq!(response.status, 200);
                    ids.push(
                        response
                            .header("mcp-session-id")
                            .expect("a session id")
                            .to_string(),
                    );
                }
                ids
            })
        })
        .collect();
    let mut ids = Vec::new();
    for task in tasks {
        ids.extend(task.await.expect("a worker"));
    }
    assert_eq!(ids.len(), n);
    ids
}

/// The server answers 404 for the session (it expired).
async fn session_gone(addr: SocketAddr, id: &str) -> bool {
    let Ok(mut conn) = Connection::open(addr).await else {
        return false;
    };
    let headers = format!("Mcp-Session-Id: {id}\r\nMCP-Protocol-Version: 2025-06-18\r\n");
    let ping = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    conn.post("/mcp", &headers, ping.as_bytes())
        .await
        .is_ok_and(|response| response.status == 404)
}
