//! A minimal HTTP/1.1 client over one kept-alive connection: just enough for MCP's POSTs and
//! `/health`, with as little client work per request as possible so that the figures are the
//! server's (a full client such as reqwest costs more CPU per request than the ceiling route).

use std::net::SocketAddr;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

pub struct Connection {
    stream: TcpStream,
    host: String,
    buf: Vec<u8>,
}

pub struct Response {
    pub status: u16,
    headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// The JSON-RPC message in the body: the body itself, or the last non-empty `data:` of an
    /// event stream.
    pub fn message(&self) -> serde_json::Value {
        let text = std::str::from_utf8(&self.body).expect("UTF-8 body");
        let json = if self
            .header("content-type")
            .is_some_and(|t| t.starts_with("text/event-stream"))
        {
            text.lines()
                .filter_map(|line| line.strip_prefix("data:"))
                .map(str::trim)
                .rfind(|data| !data.is_empty())
                .unwrap_or("null")
        } else {
            text
        };
        serde_json::from_str(json).unwrap_or(serde_json::Value::Null)
    }
}

impl Connection {
    pub async fn open(addr: SocketAddr) -> std::io::Result<Self> {
        let stream = TcpStream::connect(addr).await?;
        stream.set_nodelay(true)?;
        Ok(Self {
            stream,
            host: addr.to_string(),
            buf: Vec::with_capacity(16 * 1024),
        })
    }

    pub async fn get(&mut self, path: &str) -> std::io::Result<Response> {
        let head = format!("GET {path} HTTP/1.1\r\nHost: {}\r\n\r\n", self.host);
        self.stream.write_all(head.as_bytes()).await?;
        self.read_response().await
    }

    /// A JSON POST that accepts JSON and an event stream, as MCP clients send them.
    pub async fn post(
        &mut self,
        path: &str,
        extra_headers: &str,
        body: &[u8],
    ) -> std::io::Result<Response> {
        let mut request = format!(
            "POST {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n{extra_headers}Content-Length: {}\r\n\r\n",
            self.host,
            body.len()
        )
        .into_bytes();
        request.extend_from_slice(body);
        self.stream.write_all(&request).await?;
        self.read_response().await
    }

    async fn fill(&mut self) -> std::io::Result<()> {
        let mut chunk = [0u8; 16 * 1024];
        let n = self.stream.read(&mut chunk).await?;
        if n == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        self.buf.extend_from_slice(&chunk[..n]);
        Ok(())
    }

    async fn read_response(&mut self) -> std::io::Result<Response> {
        let end = loop {
            if let Some(at) = find(&self.buf, b"\r\n\r\n") {
                break at;
            }
            self.fill().await?;
        };
        let head = String::from_utf8_lossy(&self.buf[..end]).into_owned();
        self.buf.drain(..end + 4);
        let mut lines = head.split("\r\n");
        let status: u16 = lines
            .next()
            .and_then(|line| line.split(' ').nth(1))
            .and_then(|code| code.parse().ok())
            .ok_or(std::io::ErrorKind::InvalidData)?;
        let headers: Vec<(String, String)> = lines
            .filter_map(|line| line.split_once(':'))
            .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
            .collect();
        let mut response = Response {
            status,
            headers,
            body: Vec::new(),
        };
        if status == 204 || status == 304 || (100..200).contains(&status) {
            return Ok(response);
        }
        if let Some(length) = response.header("content-length") {
            let length: usize = length
                .parse()
                .map_err(|_| std::io::ErrorKind::InvalidData)?;
            while self.buf.len() < length {
                self.fill().await?;
            }
            response.body = self.buf.drain(..length).collect();
        } else if response
            .header("transfer-encoding")
            .is_some_and(|t| t.eq_ignore_ascii_case("chunked"))
        {
            response.body = self.read_chunked().await?;
        } else {
            return Err(std::io::Error::other("a response without a length"));
        }
        Ok(response)
    }

    async fn read_chunked(&mut self) -> std::io::Result<Vec<u8>> {
        let mut body = Vec::new();
        loop {
            let line_end = loop {
                if let Some(at) = find(&self.buf, b"\r\n") {
                    break at;
                }
                self.fill().await?;
            };
            let size_text = String::from_utf8_lossy(&self.buf[..line_end]).into_owned();
            let size = usize::from_str_radix(size_text.split(';').next().unwrap_or("").trim(), 16)
                .map_err(|_| std::io::ErrorKind::InvalidData)?;
            self.buf.drain(..line_end + 2);
            if size == 0 {
                // No trailers from these servers: just the final CRLF.
                while self.buf.len() < 2 {
                    self.fill().await?;
                }
                self.buf.drain(..2);
                return Ok(body);
            }
            while self.buf.len() < size + 2 {
                self.fill().await?;
            }
            body.extend_from_slice(&self.buf[..size]);
            self.buf.drain(..size + 2);
        }
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}
