//! An upstream that plays production badly, for `drift` and `record`: an HTTP/1.1 server on a
//! free loopback port, one thread per connection, one request per connection, answered by
//! whatever the test's handler writes. It keeps every request it read (headers included) and
//! counts every connection, so that a test can tell that nothing reached it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::{Value, json};

/// One request as the upstream read it.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    /// The request target as sent: `/mcp?x=1`.
    pub path: String,
    /// Names in lower case.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }

    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }
}

type Handler = dyn Fn(&Request, &mut TcpStream) + Send + Sync;

/// The server; it stops accepting when dropped.
pub struct Upstream {
    address: SocketAddr,
    requests: Arc<Mutex<Vec<Request>>>,
    connections: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
}

impl Upstream {
    /// Serves every request with `handler`, which writes the whole answer.
    pub fn start(handler: impl Fn(&Request, &mut TcpStream) + Send + Sync + 'static) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("binds");
        let address = listener.local_addr().expect("an address");
        let requests = Arc::new(Mutex::new(Vec::new()));
        let connections = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let handler: Arc<Handler> = Arc::new(handler);
        let (kept, counted, stopped) = (
            Arc::clone(&requests),
            Arc::clone(&connections),
            Arc::clone(&stop),
        );
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stopped.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(mut stream) = stream else { continue };
                counted.fetch_add(1, Ordering::SeqCst);
                let (handler, kept) = (Arc::clone(&handler), Arc::clone(&kept));
                std::thread::spawn(move || {
                    if let Some(request) = read_request(&stream) {
                        kept.lock()
                            .unwrap_or_else(PoisonError::into_inner)
                            .push(request.clone());
                        handler(&request, &mut stream);
                    }
                });
            }
        });
        Self {
            address,
            requests,
            connections,
            stop,
        }
    }

    /// An upstream that speaks MCP over Streamable HTTP, as far as `drift` and `record` need:
    /// `initialize` (with a session id), notifications accepted, `resources/list` empty, and
    /// every other method answered by `answer` (its `result`).
    pub fn mcp(answer: impl Fn(&str, &Value) -> Value + Send + Sync + 'static) -> Self {
        Self::start(move |request, stream| mcp_answer(request, stream, &answer))
    }

    /// `http://127.0.0.1:PORT` and `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.address)
    }

    /// The port, for a URL written by hand.
    pub fn port(&self) -> u16 {
        self.address.port()
    }

    /// Every request read so far.
    pub fn requests(&self) -> Vec<Request> {
        self.requests
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// How many connections were accepted, whether or not a request came on them.
    pub fn connections(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }
}

impl Drop for Upstream {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wakes the accept loop, which then sees the flag.
        let _ = TcpStream::connect(self.address);
    }
}

/// The answer of an upstream that speaks MCP over Streamable HTTP, as far as `drift` and
/// `record` need: `initialize` (with a session id), notifications accepted, `resources/list`
/// empty, and every other method answered by `answer` (its `result`).
pub fn mcp_answer(
    request: &Request,
    stream: &mut TcpStream,
    answer: &dyn Fn(&str, &Value) -> Value,
) {
    if request.method != "POST" {
        respond(stream, "405 Method Not Allowed", "text/plain", b"");
        return;
    }
    let message = request.json();
    let (Some(id), Some(method)) = (message.get("id"), message["method"].as_str()) else {
        respond(stream, "202 Accepted", "text/plain", b"");
        return;
    };
    let params = &message["params"];
    let result = match method {
        "initialize" => json!({
            "protocolVersion": params["protocolVersion"],
            "capabilities": {"tools": {}, "resources": {}},
            "serverInfo": {"name": "careem-mcp", "version": "v1.0.0"}
        }),
        "resources/list" => json!({"resources": []}),
        _ => answer(method, params),
    };
    let body = json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string();
    let head = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nMcp-Session-Id: S1\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body.as_bytes());
}

/// A whole answer: status line, content type, length, and the body.
pub fn respond(stream: &mut TcpStream, status: &str, content_type: &str, body: &[u8]) {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body);
}

/// The head of an event stream that lasts as long as the connection.
pub fn event_stream(stream: &mut TcpStream) {
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n\
                Connection: close\r\n\r\n";
    let _ = stream.write_all(head.as_bytes());
}

/// Writes `chunk` again and again until the reader stops taking it (the connection is closed)
/// or `cap` bytes are written; returns how many were written.
pub fn flood(stream: &mut TcpStream, chunk: &[u8], cap: usize) -> usize {
    let mut written = 0;
    while written < cap {
        if stream.write_all(chunk).is_err() {
            break;
        }
        written += chunk.len();
    }
    written
}

fn read_request(stream: &TcpStream) -> Option<Request> {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut words = line.split_whitespace();
    let method = words.next()?.to_string();
    let path = words.next()?.to_string();
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).ok()?;
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (name, value) = line.split_once(':')?;
        headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
    }
    let length = headers
        .iter()
        .find(|(name, _)| name == "content-length")
        .and_then(|(_, value)| value.parse::<usize>().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some(Request {
        method,
        path,
        headers,
        body,
    })
}
