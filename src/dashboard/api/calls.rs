//! `/api/calls`: the journal's entries, newest first; its live stream; clearing it.
//!
//! Entries are passed on as the JSON lines the journal holds, not re-serialised through
//! [`crate::engine::journal::Entry`], so a field the journal gains shows up in the page as is.

use std::convert::Infallible;
use std::time::Duration;

use axum::Json;
use axum::extract::{Query, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use futures::Stream;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;

use super::{ApiError, blocking};
use crate::dashboard::Dashboard;
use crate::engine::journal::{self, Tail};

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
        let mut tail = Tail::from_start(&dashboard.journal);
        let lines = tail
            .read_new()
            .map_err(|e| {
                ApiError::internal(format!("cannot read {}: {e}", dashboard.journal.display()))
            })?
            .lines;
        Ok(Json(newest_first(&lines, limit)))
    })
    .await
}

pub(super) async fn clear(State(dashboard): State<Dashboard>) -> Result<Json<Value>, ApiError> {
    blocking(move || {
        journal::clear(&dashboard.journal).map_err(|e| {
            ApiError::internal(format!("cannot clear {}: {e}", dashboard.journal.display()))
        })?;
        Ok(Json(json!({"cleared": true})))
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
    let mut tail = Tail::from_start(&dashboard.journal);
    let mut first = true;
    let mut ticks = tokio::time::interval(POLL);
    loop {
        tokio::select! {
            () = dashboard.shutdown.cancelled() => return,
            () = sender.closed() => return,
            _ = ticks.tick() => {}
        }
        let (read, back) = match tokio::task::spawn_blocking(move || (tail.read_new(), tail)).await
        {
            Ok(done) => done,
            Err(error) => {
                tracing::warn!("dashboard: the journal reader failed: {error}");
                return;
            }
        };
        tail = back;
        let new = match read {
            Ok(new) => new,
            Err(error) => {
                tracing::warn!(path = %dashboard.journal.display(), "dashboard: cannot read the journal: {error}");
                continue;
            }
        };
        let mut events = Vec::new();
        if first {
            events.push(event(
                "snapshot",
                &Value::Array(newest_first(&new.lines, SNAPSHOT)),
            ));
            first = false;
        } else {
            if new.restarted {
                events.push(event("cleared", &json!({})));
            }
            events.extend(
                new.lines
                    .iter()
                    .filter_map(|l| parse(l))
                    .map(|e| event("call", &e)),
            );
        }
        for event in events {
            if sender.send(Ok(event)).await.is_err() {
                return;
            }
        }
    }
}

fn event(name: &str, data: &Value) -> Event {
    Event::default().event(name).data(data.to_string())
}

/// A journal line as JSON; lines that are not a JSON object are skipped, as `calls` skips them.
fn parse(line: &str) -> Option<Value> {
    serde_json::from_str::<Value>(line)
        .ok()
        .filter(Value::is_object)
}

fn newest_first(lines: &[String], limit: usize) -> Vec<Value> {
    lines
        .iter()
        .rev()
        .filter_map(|l| parse(l))
        .take(limit)
        .collect()
}
