//! Start-up (process start to `/health` answering) and resident memory: idle, after 1,000
//! Streamable HTTP sessions opened and abandoned, and once those sessions expired.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use crate::http::Connection;
use crate::protocol::INITIALIZE;
use crate::server::{Project, Server, mib};
use crate::stats::{Summary, micros, report};

const STARTS: usize = 15;
const SESSIONS: usize = 1_000;
const IDLE_SECONDS: u64 = 2;

pub fn run() {
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

    let verdict = |ok: bool| if ok { "met" } else { "MISSED" };
    println!(
        "  targets: start-up <= 100 ms (median {}): {}; idle <= 30 MiB: {}; after expiry < 60 MiB: {}",
        micros(starts.median()),
        verdict(starts.median() <= Duration::from_millis(100)),
        verdict(idle <= 30 * 1024 * 1024),
        verdict(after < 60 * 1024 * 1024),
    );
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
