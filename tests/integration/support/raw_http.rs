//! HTTP/1.1 written byte for byte over a socket and read as it comes, for requests an HTTP
//! client library will not send as they are: no `Accept` at all (reqwest adds `*/*`), a
//! foreign `Host`, a method a client never uses. The answer's body is decoded as its framing
//! says (`Content-Length`, chunked, or until the server closes) and read up to a deadline, so a
//! stream that stays open gives what it sent so far.

use std::io::{self, BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// One request: the method, the path, the headers in the order they are written (nothing is
/// added to them but `Content-Length` when there is a body), and the body.
pub struct RawRequest<'a> {
    pub method: &'a str,
    pub path: &'a str,
    pub headers: Vec<(String, String)>,
    pub body: Option<Vec<u8>>,
}

impl RawRequest<'_> {
    fn bytes(&self) -> Vec<u8> {
        let mut head = format!("{} {} HTTP/1.1\r\n", self.method, self.path);
        for (name, value) in &self.headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        if let Some(body) = &self.body {
            head.push_str(&format!("Content-Length: {}\r\n", body.len()));
        }
        head.push_str("\r\n");
        let mut bytes = head.into_bytes();
        bytes.extend_from_slice(self.body.as_deref().unwrap_or_default());
        bytes
    }
}

/// An answer whose status line and headers have arrived; its body is still to be read.
pub struct RawResponse {
    pub status: u16,
    /// Every header as sent, names lower-cased.
    pub headers: Vec<(String, String)>,
    body: Body,
}

impl RawResponse {
    /// The value of header `name` (lower case), the last one if it repeats.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .rev()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }

    /// Reads the body until it ends or `limit` has passed: the bytes and whether it ended.
    pub fn body_within(&mut self, limit: Duration) -> (Vec<u8>, bool) {
        let (bytes, ended) = self.body_to_end(limit);
        (bytes, ended.is_ok())
    }

    /// Reads the body until it ends or `limit` has passed: the bytes, and how the reading
    /// stopped: at the body's own end, or with an error (the connection cut, or the deadline).
    pub fn body_to_end(&mut self, limit: Duration) -> (Vec<u8>, io::Result<()>) {
        let deadline = Instant::now() + limit;
        let mut bytes = Vec::new();
        loop {
            match self.body.read_chunk(deadline) {
                Ok(Some(chunk)) => bytes.extend_from_slice(&chunk),
                Ok(None) => return (bytes, Ok(())),
                Err(error) => return (bytes, Err(error)),
            }
        }
    }

    /// Reads more of the body into `bytes` until `done` accepts all of it, the body ends or
    /// `limit` has passed; whether `done` accepted it.
    pub fn body_into(
        &mut self,
        bytes: &mut Vec<u8>,
        limit: Duration,
        done: impl Fn(&[u8]) -> bool,
    ) -> bool {
        let deadline = Instant::now() + limit;
        while !done(bytes) {
            match self.body.read_chunk(deadline) {
                Ok(Some(chunk)) => bytes.extend_from_slice(&chunk),
                Ok(None) | Err(_) => return false,
            }
        }
        true
    }
}

/// Sends `request` to `addr` and reads the status line and headers, within `limit`.
pub fn raw_exchange(
    addr: SocketAddr,
    request: &RawRequest,
    limit: Duration,
) -> io::Result<RawResponse> {
    let deadline = Instant::now() + limit;
    let mut stream = TcpStream::connect_timeout(&addr, limit)?;
    stream.set_write_timeout(Some(limit))?;
    stream.write_all(&request.bytes())?;
    let mut reader = BufReader::new(stream);
    let status_line = read_line(&mut reader, deadline)?;
    let status = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .ok_or_else(|| invalid(format!("not a status line: {status_line:?}")))?;
    let mut headers = Vec::new();
    loop {
        let line = read_line(&mut reader, deadline)?;
        if line.is_empty() {
            break;
        }
        let (name, value) = line
            .split_once(':')
            .ok_or_else(|| invalid(format!("not a header: {line:?}")))?;
        headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
    }
    let value = |name: &str| {
        headers
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value): &(String, String)| value.to_ascii_lowercase())
    };
    let framing = if request.method == "HEAD" || matches!(status, 100..=199 | 204 | 304) {
        Framing::Length(0)
    } else if value("transfer-encoding").is_some_and(|v| v.contains("chunked")) {
        Framing::Chunked { left: 0 }
    } else if let Some(length) = value("content-length").and_then(|v| v.parse().ok()) {
        Framing::Length(length)
    } else {
        Framing::UntilClose
    };
    Ok(RawResponse {
        status,
        headers,
        body: Body { reader, framing },
    })
}

enum Framing {
    /// This many bytes are still to come.
    Length(u64),
    /// `left` bytes of the current chunk are still to come; 0 before a chunk's size line.
    Chunked {
        left: u64,
    },
    UntilClose,
    Ended,
}

struct Body {
    reader: BufReader<TcpStream>,
    framing: Framing,
}

impl Body {
    /// The next bytes of the body; `None` at its end; an error at the deadline.
    fn read_chunk(&mut self, deadline: Instant) -> io::Result<Option<Vec<u8>>> {
        match self.framing {
            Framing::Ended | Framing::Length(0) => Ok(None),
            Framing::Length(left) => {
                let chunk = read_some(&mut self.reader, deadline, left)?;
                self.framing = if chunk.is_empty() {
                    Framing::Ended
                } else {
                    Framing::Length(left - chunk.len() as u64)
                };
                Ok((!chunk.is_empty()).then_some(chunk))
            }
            Framing::UntilClose => {
                let chunk = read_some(&mut self.reader, deadline, u64::MAX)?;
                if chunk.is_empty() {
                    self.framing = Framing::Ended;
                    return Ok(None);
                }
                Ok(Some(chunk))
            }
            Framing::Chunked { left: 0 } => {
                let size_line = read_line(&mut self.reader, deadline)?;
                let size = size_line.split(';').next().unwrap_or_default().trim();
                let size = u64::from_str_radix(size, 16)
                    .map_err(|_| invalid(format!("not a chunk size: {size_line:?}")))?;
                if size == 0 {
                    self.framing = Framing::Ended;
                    return Ok(None);
                }
                self.framing = Framing::Chunked { left: size };
                self.read_chunk(deadline)
            }
            Framing::Chunked { left } => {
                let chunk = read_some(&mut self.reader, deadline, left)?;
                if chunk.is_empty() {
                    self.framing = Framing::Ended;
                    return Ok(None);
                }
                let left = left - chunk.len() as u64;
                if left == 0 {
                    read_line(&mut self.reader, deadline)?;
                }
                self.framing = Framing::Chunked { left };
                Ok(Some(chunk))
            }
        }
    }
}

/// Up to `most` bytes, as soon as any have arrived; empty when the server has closed.
fn read_some(
    reader: &mut BufReader<TcpStream>,
    deadline: Instant,
    most: u64,
) -> io::Result<Vec<u8>> {
    set_deadline(reader, deadline)?;
    let available = reader.fill_buf()?;
    let take = available
        .len()
        .min(usize::try_from(most).unwrap_or(usize::MAX));
    let chunk = available[..take].to_vec();
    reader.consume(take);
    Ok(chunk)
}

/// One CRLF-terminated line, without its terminator.
fn read_line(reader: &mut BufReader<TcpStream>, deadline: Instant) -> io::Result<String> {
    let mut line = Vec::new();
    loop {
        set_deadline(reader, deadline)?;
        let available = reader.fill_buf()?;
        if available.is_empty() {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        match available.iter().position(|&byte| byte == b'\n') {
            Some(end) => {
                line.extend_from_slice(&available[..end]);
                reader.consume(end + 1);
                break;
            }
            None => {
                line.extend_from_slice(available);
                let taken = available.len();
                reader.consume(taken);
            }
        }
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    String::from_utf8(line).map_err(|e| invalid(e.to_string()))
}

fn set_deadline(reader: &BufReader<TcpStream>, deadline: Instant) -> io::Result<()> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err(io::ErrorKind::TimedOut.into());
    }
    reader.get_ref().set_read_timeout(Some(left))
}

fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message)
}
