//! `/api/calls`: the journal's entries, newest first; its live stream; clearing it.
//!
//! Entries are passed on as the JSON lines the journal holds, not re-serialised through
//! [`crate::engine::journal::Entry`], so a field the journal gains shows up in the page as is.

use std::convert::Infallible;
use std::fs::File;
use std::path::Path;
use std::time::Duration;

use axum::Json;
use axum::extract::{Query, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use futures::Stream;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;

use super::{ApiError, blocking};
use crate::dashboard::Dashboard;
use crate::engine::{Follower, journal};

/// How many of the latest calls the page starts with.
const SNAPSHOT: usize = 500;
/// How often the stream looks for new lines: "within a second" with room to spare.
const POLL: Duration = Duration::from_millis(250);

#[derive(Debug, Deserialize)]
pub(super) struct ListQuery {
    limit: Option<usize>,
}

pub(super) async fn list(
    State(dashboard): State<Dashboard>,
    Query(query): Query<ListQuery>,
) -> Result<Json<Vec<Value>>, ApiError> {
    let limit = query.limit.unwrap_or(SNAPSHOT);
    blocking(move || {
        let (lines, _) = latest(&dashboard.journal, limit).map_err(|e| {
            ApiError::internal(format!("cannot read {}: {e}", dashboard.journal.display()))
        })?;
        Ok(Json(lines))
    })
    .await
}

/// The last `limit` entries, newest first, and a follower from just past them: harden's reader
/// of `calls --last` and `calls --follow`.
fn latest(path: &Path, limit: usize) -> std::io::Result<(Vec<Value>, Option<Follower>)> {
    let mut file = match File::open(path) {
        Ok(file) => file,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Ok((Vec::new(), None));
        }
        Err(error) => return Err(error),
    };
    let end = journal::complete_end(&mut file)?;
    let lines = journal::last_lines(&mut file.try_clone()?, end, Some(limit), |_| true)?;
    let entries = lines.iter().rev().filter_map(|l| parse(l)).collect();
    Ok((entries, Some(Follower::new(path, file, end))))
}

/// The journal emptied.
#[derive(Debug, Serialize)]
pub(super) struct Cleared {
    cleared: bool,
}

pub(super) async fn clear(State(dashboard): State<Dashboard>) -> Result<Json<Cleared>, ApiError> {
    blocking(move || {
        journal::clear(&dashboard.journal).map_err(|e| {
            ApiError::internal(format!("cannot clear {}: {e}", dashboard.journal.display()))
        })?;
        Ok(Json(Cleared { cleared: true }))
    })
    .await
}

/// Server-sent events: `snapshot` (the latest calls, newest first) once, then `call` for each
/// new line and `cleared` when the journal was emptied or replaced.
pub(super) async fn stream(
    State(dashboard): State<Dashboard>,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let (sender, receiver) = mpsc::channel(64);
    tokio::spawn(follow(dashboard, sender));
    Sse::new(ReceiverStream::new(receiver)).keep_alive(KeepAlive::default())
}

/// Feeds one page's stream until the page leaves or the dashboard stops.
async fn follow(dashboard: Dashboard, sender: mpsc::Sender<Result<Event, Infallible>>) {
    let path = dashboard.journal.clone();
    let first = tokio::task::spawn_blocking(move || latest(&path, SNAPSHOT)).await;
    let (snapshot, mut follower) = match first {
        Ok(Ok(found)) => found,
        Ok(Err(error)) => {
            tracing::warn!(path = %dashboard.journal.display(), "dashboard: cannot read the journal: {error}");
            (Vec::new(), None)
        }
        Err(error) => {
            tracing::warn!("dashboard: the journal reader failed: {error}");
            return;
        }
    };
    if sender
        .send(Ok(event("snapshot", &Value::Array(snapshot))))
        .await
        .is_err()
    {
        return;
    }
    let mut size = journal_size(&dashboard.journal);
    let mut ticks = tokio::time::interval(POLL);
    loop {
        tokio::select! {
            () = dashboard.shutdown.cancelled() => return,
            () = sender.closed() => return,
            _ = ticks.tick() => {}
        }
        // A journal that did not exist yet is followed from its start once it does.
        if follower.is_none() {
            follower = File::open(&dashboard.journal)
                .ok()
                .map(|file| Follower::new(&dashboard.journal, file, 0));
        }
        let Some(mut current) = follower.take() else {
            continue;
        };
        let polled = tokio::task::spawn_blocking(move || (current.poll(), current)).await;
        let Ok((lines, back)) = polled else { return };
        follower = Some(back);
        let mut events = Vec::new();
        // The follower starts over by itself; the page is told so it drops what it shows.
        let now = journal_size(&dashboard.journal);
        if now < size {
            events.push(event("cleared", &json!({})));
        }
        size = now;
        match lines {
            Ok(lines) => events.extend(
                lines
                    .iter()
                    .filter_map(|l| parse(l))
                    .map(|e| event("call", &e)),
            ),
            Err(error) => {
                tracing::warn!(path = %dashboard.journal.display(), "dashboard: cannot read the journal: {error}")
            }
        }
        for event in events {
            if sender.send(Ok(event)).await.is_err() {
                return;
            }
        }
    }
}

fn journal_size(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

fn event(name: &str, data: &Value) -> Event {
    Event::default().event(name).data(data.to_string())
}

/// A journal line as JSON; lines that are not a JSON object are skipped, as `calls` skips them.
fn parse(line: &[u8]) -> Option<Value> {
    serde_json::from_slice::<Value>(line)
        .ok()
        .filter(Value::is_object)
}
