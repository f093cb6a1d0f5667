//! `serve --stdio`: one session over the process's standard streams, one JSON-RPC message a
//! line. stdout carries protocol messages only; every log goes to stderr. A line that is not a
//! message is logged and skipped (the Go SDK would end the session: the one deliberate
//! difference, docs/MCP_SERVER.md). Calls are answered at once, as the SDK answers them, yet
//! take their sequence steps and journal lines in the order they arrive; answers wait in a
//! bounded queue, and reading stops while it is full.

use std::sync::Arc;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use super::ServerOptions;
use super::jsonrpc::{self, Message, Method, error_message};
use super::mcp::{Arrival, Mcp, Reply, Session};
use crate::engine::Engine;
use crate::engine::Origin;

/// A line longer than this is skipped, unread, as a body over the HTTP limit is refused.
const MAX_LINE: usize = super::routes::MAX_BODY_BYTES;
/// Answers waiting for stdout before reading stops.
const QUEUE: usize = 64;

/// Serves until the client closes stdin, stdout goes away, or `shutdown` resolves (SIGTERM):
/// then the calls in flight finish and answer before the session ends.
pub async fn serve_stdio(
    engine: Arc<Engine>,
    options: ServerOptions,
    shutdown: impl Future<Output = ()>,
) {
    let session = Session::new(None, Origin::Stdio, Arc::clone(&engine), None);
    let mcp = Arc::new(Mcp::new(engine, &options));
    let (answers, queue) = mpsc::channel::<Vec<u8>>(QUEUE);
    let gone = CancellationToken::new();
    let writer = tokio::spawn(write_answers(queue, gone.clone()));
    let mut reader = BufReader::new(tokio::io::stdin());
    let mut running = JoinSet::new();
    tokio::pin!(shutdown);
    loop {
        let line = tokio::select! {
            line = read_line(&mut reader) => line,
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
        handle(&mcp, &session, &line, permit, &mut running).await;
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
                    refused.push(error_message(Some(id), &refusal.rpc_error(mcp.profile())));
                }
            }
        }
    }
    if batch {
        let arrivals: Vec<Option<Arrival>> = checked
            .iter()
            .map(|(request, method)| arrival(mcp, session, request, *method))
            .collect();
        let (mcp, session) = (Arc::clone(mcp), Arc::clone(session));
        running.spawn(async move {
            let mut replies = refused;
            let answers = checked
                .into_iter()
                .zip(arrivals)
                .map(|((request, method), arrival)| mcp.answer(&session, request, method, arrival));
            for reply in futures::future::join_all(answers).await {
                match reply {
                    Reply::Message(message) => replies.push(message),
                    Reply::None => {}
                    // A fault that ends the process ends it from within a batch too.
                    Reply::Exit(status) => std::process::exit(status),
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
        deliver(mcp.answer(session, request, method, None).await, permit);
        return;
    }
    let arrival = arrival(mcp, session, &request, method);
    let (mcp, session) = (Arc::clone(mcp), Arc::clone(session));
    running.spawn(async move {
        let reply = mcp.answer(&session, request, method, arrival).await;
        deliver(reply, permit);
    });
}

/// A call's arrival, taken as it is read so that sequences and journal lines follow the order
/// of the lines.
fn arrival(
    mcp: &Mcp,
    session: &Session,
    request: &jsonrpc::Request,
    method: Method,
) -> Option<Arrival> {
    if method != Method::ToolsCall || !request.is_call() || !session.is_initialized() {
        return None;
    }
    let name = super::mcp::ToolCall::name_of(request.params.as_deref())?;
    Some(mcp.arrive(session, &name))
}

fn deliver(reply: Reply, permit: mpsc::OwnedPermit<Vec<u8>>) {
    match reply {
        Reply::Message(message) => {
            permit.send(message);
        }
        Reply::None => {}
        Reply::Exit(status) => std::process::exit(status),
    }
}

/// The next line of stdin, without its newline; `None` at the end. A line over [`MAX_LINE`]
/// is read past and skipped.
async fn read_line<R: tokio::io::AsyncBufRead + Unpin>(reader: &mut R) -> Option<Vec<u8>> {
    loop {
        let mut line = Vec::new();
        let mut over = false;
        loop {
            let buffer = match reader.fill_buf().await {
                Ok(buffer) => buffer,
                Err(error) => {
                    tracing::warn!("cannot read stdin: {error}");
                    return None;
                }
            };
            if buffer.is_empty() {
                return (!line.is_empty() && !over).then_some(line);
            }
            let (taken, done) = match buffer.iter().position(|byte| *byte == b'\n') {
                Some(at) => (at + 1, true),
                None => (buffer.len(), false),
            };
            if !over {
                line.extend_from_slice(&buffer[..taken]);
                if line.len() > MAX_LINE {
                    over = true;
                    line = Vec::new();
                }
            }
            reader.consume(taken);
            if done {
                break;
            }
        }
        if over {
            tracing::warn!("skipped a line longer than {MAX_LINE} bytes");
            continue;
        }
        while line
            .last()
            .is_some_and(|byte| matches!(byte, b'\n' | b'\r'))
        {
            line.pop();
        }
        if !line.iter().all(u8::is_ascii_whitespace) {
            return Some(line);
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
