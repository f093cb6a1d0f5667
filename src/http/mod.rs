//! The hardened HTTP listener that `serve` and `dashboard` share, with nothing of MCP in it:
//! the accept loop and its caps and the guards in front of the routes (`listener`: the `Host`
//! and `Origin` guard, body limits and the body deadline), a response body that holds a value while it is sent
//! (`guarded_body`), freed memory handed back, the shutdown signal, [`bind`], and the answers
//! in Go's `http.Error` shape that the listener and the MCP routes refuse with (`plain`).
//!
//! It uses the engine's front door and nothing above it; `server/` and `dashboard/` stack its
//! layers in request order.

pub(crate) mod guarded_body;
pub(crate) mod listener;
pub(crate) mod memory;
pub(crate) mod plain;
mod shutdown_signal;

use tokio::net::TcpListener;

pub use listener::{ConnectionLimits, is_loopback};
pub use shutdown_signal::shutdown_signal;

/// Why an address could not be listened on.
#[derive(Debug, thiserror::Error)]
pub enum BindError {
    #[error(
        "{addr} is already in use: another program is listening there (choose another --port, or 0 for a free one)"
    )]
    AddrInUse { addr: String },
    #[error("cannot listen on {addr}")]
    Other {
        addr: String,
        #[source]
        source: std::io::Error,
    },
}

/// Listens on `host` (a name, an IPv4 or an IPv6 address, bracketed or not) and `port` (`0`
/// picks a free one).
///
/// # Errors
///
/// The address is in use, or cannot be listened on (not a local address).
pub async fn bind(host: &str, port: u16) -> Result<TcpListener, BindError> {
    let addr = if host.contains(':') && !host.starts_with('[') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    TcpListener::bind((host, port)).await.map_err(|source| {
        if source.kind() == std::io::ErrorKind::AddrInUse {
            BindError::AddrInUse { addr }
        } else {
            BindError::Other { addr, source }
        }
    })
}
