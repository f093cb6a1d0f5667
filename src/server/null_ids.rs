//! rmcp answers a stdio line that is JSON but not a JSON-RPC message with `-32600` and no `id`
//! member at all; JSON-RPC 2.0 wants `"id": null` when the request's id cannot be known, and
//! strict clients drop a response without one. This writer puts it in: every line rmcp writes
//! that starts `{"jsonrpc":"2.0","error":` is such an answer (an error with an id serialises
//! the id before the error), and gains `"id":null`.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use tokio::io::AsyncWrite;

const WITHOUT_ID: &[u8] = br#"{"jsonrpc":"2.0","error":"#;
const WITH_NULL_ID: &[u8] = br#"{"jsonrpc":"2.0","id":null,"error":"#;

/// Holds what rmcp writes until it flushes (it flushes after every message), then writes it
/// on with the missing ids added.
pub struct NullIds<W> {
    inner: W,
    pending: Vec<u8>,
    written: usize,
}

impl<W> NullIds<W> {
    pub fn new(inner: W) -> Self {
        Self {
            inner,
            pending: Vec::new(),
            written: 0,
        }
    }
}

impl<W: AsyncWrite + Unpin> NullIds<W> {
    fn poll_drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if self.written == 0 {
            self.pending = patch(&self.pending);
        }
        while self.written < self.pending.len() {
            let n =
                ready!(Pin::new(&mut self.inner).poll_write(cx, &self.pending[self.written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.written += n;
        }
        self.pending.clear();
        self.written = 0;
        Poll::Ready(Ok(()))
    }
}

impl<W: AsyncWrite + Unpin> AsyncWrite for NullIds<W> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if this.written > 0 {
            ready!(this.poll_drain(cx))?;
        }
        this.pending.extend_from_slice(buf);
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.poll_drain(cx))?;
        Pin::new(&mut this.inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.poll_drain(cx))?;
        Pin::new(&mut this.inner).poll_shutdown(cx)
    }
}

/// Each line starting [`WITHOUT_ID`] starts [`WITH_NULL_ID`] instead.
fn patch(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    for (i, line) in bytes.split(|b| *b == b'\n').enumerate() {
        if i > 0 {
            out.push(b'\n');
        }
        match line.strip_prefix(WITHOUT_ID) {
            Some(rest) => {
                out.extend_from_slice(WITH_NULL_ID);
                out.extend_from_slice(rest);
            }
            None => out.extend_from_slice(line),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_errors_without_an_id_gain_a_null_one() {
        let cases: [(&str, &str); 3] = [
            (
                "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32600}}\n",
                "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600}}\n",
            ),
            (
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{}}\n{\"jsonrpc\":\"2.0\",\"error\":{}}\n",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{}}\n{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{}}\n",
            ),
            (
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\n",
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\n",
            ),
        ];
        for (written, want) in cases {
            assert_eq!(String::from_utf8(patch(written.as_bytes())).unwrap(), want);
        }
    }
}
