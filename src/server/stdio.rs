//! `serve --stdio`: one session over the process's standard streams, one JSON-RPC message a
//! line. stdout carries protocol messages only; every log goes to stderr. A line that is not a
//! message is logged and skipped (the Go SDK would end the session: the one deliberate
//! difference, docs/MCP_SERVER.md). Calls are answered at once, as the SDK answers them, yet
//! take their sequence steps and journal lines in the order they arrive; answers wait in a
//! bounded queue, and reading stops while it is full.

use std::io;
use std::sync::{Arc, OnceLock};

use futures::StreamExt;
use tokio::io::{AsyncRead, AsyncWriteExt};
use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tokio_util::bytes::{Bytes, BytesMut};
use tokio_util::codec::{AnyDelimiterCodec, AnyDelimiterCodecError, Decoder, FramedRead};
use tokio_util::sync::CancellationToken;

use super::jsonrpc::{self, Message, Method, error_message};
use super::mcp::{Mcp, PlannedCall, Reply, Session, refusal};
use super::{Ended, ServerOptions};
use crate::engine::Engine;
use crate::engine::Origin;

/// A line longer than this is skipped, unread, as a body over the HTTP limit is refused.
const MAX_LINE: usize = super::routes::MAX_BODY_BYTES;
/// Answers waiting for stdout before reading stops.
const QUEUE: usize = 64;

/// Serves until the client closes stdin, stdout goes away, or `shutdown` resolves (SIGTERM):
/// then the calls in flight finish and answer before the session ends ([`Ended::Stopped`]).
/// A fault that ends the process ends the serving at once, with its journal line written: the
/// caller exits as it says, leaving the rest behind.
pub async fn serve_stdio(
    engine: Arc<Engine>,
    options: ServerOptions,
    shutdown: impl Future<Output = ()>,
) -> Ended {
    let ending = Arc::new(Ending::default());
    tokio::select! {
        biased;
        () = ending.now.cancelled() => ending.end.get().copied().unwrap_or(Ended::Stopped),
        () = serve(engine, options, shutdown, &ending) => Ended::Stopped,
    }
}

/// The end a fault asked for, and the signal that it did.
#[derive(Debug, Default)]
struct Ending {
    end: OnceLock<Ended>,
    now: CancellationToken,
}

impl Ending {
    fn end(&self, end: Ended) {
        let _ = self.end.set(end);
        self.now.cancel();
    }
}

async fn serve(
    engine: Arc<Engine>,
    options: ServerOptions,
    shutdown: impl Future<Output = ()>,
    ending: &Arc<Ending>,
) {
    let session = Session::new(None, Origin::Stdio, Arc::clone(&engine), None);
    let mcp = Arc::new(Mcp::new(engine, &options));
    let (answers, queue) = mpsc::channel::<Vec<u8>>(QUEUE);
    let gone = CancellationToken::new();
    let writer = tokio::spawn(write_answers(queue, gone.clone()));
    let mut lines = FramedRead::new(tokio::io::stdin(), LineCodec::new(MAX_LINE));
    let mut running = JoinSet::new();
    tokio::pin!(shutdown);
    loop {
        let line = tokio::select! {
            line = next_line(&mut lines) => line,
            () = &mut shutdown => {
                tracing::info!("shutting down");
                super::drain(mcp.in_flight()).await;
                break;
            }
            () = gone.cancelled() => break,
        };
        let Some(line) = line else {
            // stdin closed: the calls in flight finish first.
            let _ = tokio::time::timeout(super::SHUTDOWN_GRACE, mcp.in_flight().drained()).await;
            break;
        };
        let Ok(permit) = answers.clone().reserve_owned().await else {
            break;
        };
        handle(&mcp, &session, &line, permit, &mut running, ending).await;
        while running.try_join_next().is_some() {}
    }
    session.end();
    while tokio::time::timeout(super::SHUTDOWN_SETTLE, running.join_next())
        .await
        .ok()
        .flatten()
        .is_some()
    {}
    drop(answers);
    let _ = writer.await;
}

/// One line from the client: its answer queued on `permit`, each request on a task of its own.
async fn handle(
    mcp: &Arc<Mcp>,
    session: &Arc<Session>,
    line: &[u8],
    permit: mpsc::OwnedPermit<Vec<u8>>,
    running: &mut JoinSet<()>,
    ending: &Arc<Ending>,
) {
    let (messages, batch) = match jsonrpc::read_batch(line) {
        Ok(read) => read,
        Err(error) => {
            tracing::warn!("skipped a line that is not a JSON-RPC message: {error}");
            return;
        }
    };
    let mut checked = Vec::with_capacity(messages.len());
    let mut refused = Vec::new();
    for message in messages {
        let Message::Request(request) = message else {
            continue;
        };
        match jsonrpc::check(&request, mcp.profile()) {
            Ok(method) => checked.push((request, method)),
            Err(refusal) => {
                if let Some(id) = &request.id {
                    let error = refusal::over_stdio(mcp.profile(), session, &request, &refusal);
                    refused.push(error_message(Some(id), &error));
                }
            }
        }
    }
    if batch {
        let arrivals: Vec<Option<PlannedCall>> = checked
            .iter()
            .map(|(request, method)| arrival(mcp, session, request, *method))
            .collect();
        let (mcp, session, ending) = (Arc::clone(mcp), Arc::clone(session), Arc::clone(ending));
        running.spawn(async move {
            let mut replies = refused;
            let answers = checked
                .into_iter()
                .zip(arrivals)
                .map(|((request, method), arrival)| mcp.handle(&session, request, method, arrival));
            for reply in futures::future::join_all(answers).await {
                match reply {
                    Reply::Message(message) => replies.push(message),
                    Reply::Listening(listening) => {
                        replies.push(listening.acknowledged().to_vec());
                        replies.extend(listening.result().await);
                    }
                    Reply::None => {}
                    // A fault that ends the process ends it from within a batch too.
                    Reply::Exit(end) => return ending.end(end),
                }
            }
            if !replies.is_empty() {
                let mut array = b"[".to_vec();
                array.extend_from_slice(&replies.join(&b","[..]));
                array.push(b']');
                permit.send(array);
            }
        });
        return;
    }
    if let Some(refusal) = refused.pop() {
        permit.send(refusal);
        return;
    }
    let Some((request, method)) = checked.pop() else {
        return;
    };
    if method == Method::Initialize || !request.is_call() {
        // The SDK handles `initialize` and notifications in order, before what follows.
        deliver(
            mcp.handle(session, request, method, None).await,
            permit,
            ending,
        )
        .await;
        return;
    }
    if method == Method::SubscriptionsListen {
        // Taken in order (its id among the pending ones), so that a cancellation on a later
        // line finds it; only its wait runs on a task of its own.
        let reply = mcp.handle(session, request, method, None).await;
        let ending = Arc::clone(ending);
        running.spawn(async move { deliver(reply, permit, &ending).await });
        return;
    }
    let arrival = arrival(mcp, session, &request, method);
    let (mcp, session, ending) = (Arc::clone(mcp), Arc::clone(session), Arc::clone(ending));
    running.spawn(async move {
        let reply = mcp.handle(&session, request, method, arrival).await;
        deliver(reply, permit, &ending).await;
    });
}

/// A call's arrival, taken as it is read so that sequences and journal lines follow the order
/// of the lines.
fn arrival(
    mcp: &Mcp,
    session: &Session,
    request: &jsonrpc::Request,
    method: Method,
) -> Option<PlannedCall> {
    if method != Method::ToolsCall || !request.is_call() || !session.is_initialized() {
        return None;
    }
    let name = super::mcp::ToolCall::name_of(request.params.as_deref())?;
    Some(mcp.arrive(session, &name))
}

/// Writes a reply; a held `subscriptions/listen` writes its result only once it is cancelled,
/// and nothing more when the session ends first.
async fn deliver(reply: Reply, permit: mpsc::OwnedPermit<Vec<u8>>, ending: &Ending) {
    match reply {
        Reply::Message(message) => {
            permit.send(message);
        }
        Reply::Listening(listening) => {
            let answers = permit.send(listening.acknowledged().to_vec());
            if let Some(result) = listening.result().await {
                let _ = answers.send(result).await;
            }
        }
        Reply::None => {}
        Reply::Exit(end) => ending.end(end),
    }
}

/// One line of stdin as [`LineCodec`] frames it.
enum Line {
    /// A line, without its newline.
    Text(Bytes),
    /// A line over the bound, whose rest the codec skips.
    TooLong,
}

/// `AnyDelimiterCodec` on newlines, as rmcp's decoder frames stdio, with a line over the bound
/// handed on as [`Line::TooLong`] rather than as the error that would end the stream.
struct LineCodec(AnyDelimiterCodec);

impl LineCodec {
    /// Lines of at most `max` bytes with their newline.
    fn new(max: usize) -> Self {
        Self(AnyDelimiterCodec::new_with_max_length(
            b"\n".to_vec(),
            b"\n".to_vec(),
            max.saturating_sub(1),
        ))
    }
}

impl Decoder for LineCodec {
    type Item = Line;
    type Error = io::Error;

    fn decode(&mut self, buffer: &mut BytesMut) -> io::Result<Option<Line>> {
        lifted(self.0.decode(buffer))
    }

    fn decode_eof(&mut self, buffer: &mut BytesMut) -> io::Result<Option<Line>> {
        lifted(self.0.decode_eof(buffer))
    }
}

fn lifted(framed: Result<Option<Bytes>, AnyDelimiterCodecError>) -> io::Result<Option<Line>> {
    match framed {
        Ok(line) => Ok(line.map(Line::Text)),
        Err(AnyDelimiterCodecError::MaxChunkLengthExceeded) => Ok(Some(Line::TooLong)),
        Err(AnyDelimiterCodecError::Io(error)) => Err(error),
    }
}

/// The next line of `lines` that says something, without its line ending; `None` at the end
/// or when reading fails. Blank lines are passed over; a line over the bound is skipped with
/// a warning.
async fn next_line<R: AsyncRead + Unpin>(lines: &mut FramedRead<R, LineCodec>) -> Option<Bytes> {
    loop {
        match lines.next().await? {
            Ok(Line::Text(mut line)) => {
                let end = line.len() - line.iter().rev().take_while(|b| **b == b'\r').count();
                line.truncate(end);
                if !line.iter().all(u8::is_ascii_whitespace) {
                    return Some(line);
                }
            }
            Ok(Line::TooLong) => tracing::warn!("skipped a line longer than {MAX_LINE} bytes"),
            Err(error) => {
                tracing::warn!("cannot read stdin: {error}");
                return None;
            }
        }
    }
}

/// Writes each answer as a line; when stdout is gone (EPIPE), says so once and tells the
/// reader to stop.
async fn write_answers(mut queue: mpsc::Receiver<Vec<u8>>, gone: CancellationToken) {
    let mut stdout = tokio::io::stdout();
    while let Some(mut message) = queue.recv().await {
        message.push(b'\n');
        let written = async {
            stdout.write_all(&message).await?;
            stdout.flush().await
        };
        if let Err(error) = written.await {
            tracing::warn!("stdout is gone ({error}): ending the session");
            gone.cancel();
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every message line `input` holds, framed within `max` bytes a line.
    async fn lines_of(input: &[u8], max: usize) -> Vec<String> {
        let mut lines = FramedRead::new(input, LineCodec::new(max));
        let mut found = Vec::new();
        while let Some(line) = next_line(&mut lines).await {
            found.push(String::from_utf8_lossy(&line).into_owned());
        }
        found
    }

    #[tokio::test]
    async fn lines_lose_their_endings_blank_and_long_ones_are_skipped() {
        let input = b"abc\n\r\n \t\n0123456789\nfou\r\nxyzzy\n\nlast";
        assert_eq!(lines_of(input, 5).await, ["abc", "fou", "last"]);
        // A long last line without its newline is skipped too, and the bound counts the
        // newline: "abcd\n" is five bytes, "abcde\n" six.
        assert_eq!(
            lines_of(b"abcd\nabcde\nok\n0123456789", 5).await,
            ["abcd", "ok"]
        );
    }
}
