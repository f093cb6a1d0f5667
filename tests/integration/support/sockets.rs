//! Raw TCP for the connection tests: a connection that sends a fixed start, what arrives on it
//! until the server closes it, whether the server has closed it, and the sockets a process
//! holds (its listener and its connections among them).

use std::io::{ErrorKind, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

/// A connection to `addr` that has sent `sent`, and nothing more.
pub fn connect(addr: impl ToSocketAddrs, sent: &[u8]) -> TcpStream {
    let mut stream = TcpStream::connect(addr).expect("connects");
    stream.write_all(sent).expect("sends");
    stream
}

/// Reads until the server closes the connection (or resets it); fails the test when that does
/// not happen within `deadline`. Returns what arrived before.
pub fn read_until_closed(mut stream: TcpStream, deadline: Duration, what: &str) -> String {
    stream.set_nonblocking(false).expect("blocking");
    stream.set_read_timeout(Some(deadline)).expect("a timeout");
    let mut seen = Vec::new();
    let mut chunk = [0; 4096];
    loop {
        match stream.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => seen.extend_from_slice(&chunk[..n]),
            Err(error) if matches!(error.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                panic!("{what}: still open after {deadline:?}")
            }
            Err(_) => break,
        }
    }
    String::from_utf8_lossy(&seen).into_owned()
}

/// Whether the server has closed `stream` (without waiting).
pub fn closed_by_server(stream: &TcpStream) -> bool {
    stream.set_nonblocking(true).expect("non-blocking");
    let mut byte = [0; 1];
    match (&mut &*stream).read(&mut byte) {
        Ok(0) => true,
        Ok(_) => false,
        Err(error) => error.kind() != ErrorKind::WouldBlock,
    }
}

/// The sockets process `pid` holds.
#[cfg(target_os = "linux")]
pub fn sockets(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .expect("the process's descriptors")
        .filter_map(Result::ok)
        .filter_map(|entry| std::fs::read_link(entry.path()).ok())
        .filter(|target| target.to_string_lossy().starts_with("socket:"))
        .count()
}
