//! `/runs/{run}/calls`: the run's journal, as `careem-mcp calls` reads it; its live stream;
//! clearing it.
//!
//! The live stream passes entries on as the JSON lines the journal holds, not re-serialised
//! through [`Entry`], so a field the journal gains shows up in the page as is.

use std::convert::Infallible;
use std::fs::File;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures::Stream;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::sync::{Notify, mpsc};
use tokio_stream::wrappers::ReceiverStream;
use utoipa::{IntoParams, ToSchema};

use super::Admin;
use super::error::{ApiError, ErrorBody, blocking};
use super::run::InRun;
use crate::engine::journal::{Entry, JournalWatch};
use crate::engine::{Follower, absolute, journal};
use crate::http::memory::spawn_trimmer;

/// How many of the latest calls the live stream starts with.
const SNAPSHOT: usize = 500;
/// At most this many bytes of journal lines in a snapshot (the newest first): a journal of
/// large calls (64 KiB of arguments and of result each) would otherwise make every open page
/// hold a hundred MiB.
const SNAPSHOT_BYTES: usize = 2 * 1024 * 1024;
/// Events waiting for a reader that does not read: each is one journal line, at most ~200 KiB.
const QUEUED_EVENTS: usize = 8;
/// How often the stream looks for new lines without being told of a change: where the
/// journal's folder cannot be watched, "within a second" with room to spare.
const POLL: Duration = Duration::from_millis(250);
/// How often it looks anyway while the folder is watched.
const LOOK_AGAIN: Duration = Duration::from_secs(2);
/// How often the memory trimmer trims besides soon after streams end.
const TRIM_PERIOD: Duration = Duration::from_secs(10);

/// Which calls to read, as `careem-mcp calls` filters them.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct CallsQuery {
    /// Only the last N calls (after the other filters).
    last: Option<usize>,
    /// Only calls of this tool.
    tool: Option<String>,
    /// Only calls of this session.
    session: Option<String>,
}

/// The run's calls, oldest first, as `careem-mcp calls --json` prints them.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct CallsAnswer {
    /// The journal's path on the server.
    pub journal: String,
    /// Whether the run has a journal at all: none means no call was ever journalled there,
    /// which is not the same as no calls.
    pub found: bool,
    /// The journal's entries, one per call, as its lines hold them.
    #[schema(value_type = Vec<Object>)]
    pub calls: Vec<Entry>,
    /// Where the journal's writer lost lines (a full disk): each before the call at `before`
    /// (`calls.len()`: after the last).
    pub lost: Vec<Lost>,
}

/// Calls the journal's writer could not write, and where.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Lost {
    pub before: usize,
    pub time: String,
    pub lost: u64,
}

/// The run's journal, filtered as `careem-mcp calls` filters it.
#[utoipa::path(get, path = "/runs/{run}/calls", tag = "calls",
    params(("run" = String, Path, description = "The run; `default` for plain /mcp"), CallsQuery),
    responses((status = 200, body = CallsAnswer),
              (status = 404, description = "No such run", body = ErrorBody)))]
pub(crate) async fn list(
    run: InRun,
    Query(query): Query<CallsQuery>,
) -> Result<Json<CallsAnswer>, ApiError> {
    run.existing()?;
    blocking(move || {
        let path = &run.layout.journal;
        let keep = |entry: &Entry| {
            query.tool.as_ref().is_none_or(|t| &entry.tool == t)
                && query
                    .session
                    .as_ref()
                    .is_none_or(|s| entry.session.as_ref() == Some(s))
        };
        let recent = journal::recent(path, query.last, keep).map_err(|error| {
            ApiError::internal(format!("cannot read {}", path.display()), &error)
        })?;
        Ok(Json(CallsAnswer {
            journal: absolute(path).display().to_string(),
            found: recent.found,
            lost: recent
                .gaps
                .iter()
                .map(|(before, gap)| Lost {
                    before: *before,
                    time: gap.time.clone(),
                    lost: gap.lost,
                })
                .collect(),
            calls: recent.entries,
        }))
    })
    .await
}

/// The last `limit` entries, newest first and at most [`SNAPSHOT_BYTES`] of them, and a
/// follower from just past them: the reader of `calls --last` and `calls --follow`.
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
    let mut budget = SNAPSHOT_BYTES;
    let entries = lines
        .iter()
        .rev()
        .take_while(|line| {
            let fits = line.len() <= budget;
            budget = budget.saturating_sub(line.len());
            fits
        })
        .filter_map(|l| parse(l))
        .collect();
    Ok((entries, Some(Follower::new(path, file, end))))
}

/// The journal emptied.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Cleared {
    pub cleared: bool,
    /// The journal's path on the server.
    pub journal: String,
}

/// Empties the run's journal, as `careem-mcp calls --clear` does.
#[utoipa::path(delete, path = "/runs/{run}/calls", tag = "calls",
    params(("run" = String, Path, description = "The run; `default` for plain /mcp")),
    responses((status = 200, body = Cleared),
              (status = 404, description = "No such run", body = ErrorBody)))]
pub(crate) async fn clear(run: InRun) -> Result<Json<Cleared>, ApiError> {
    run.existing()?;
    blocking(move || {
        let path = &run.layout.journal;
        journal::clear(path).map_err(|error| {
            ApiError::internal(format!("cannot clear {}", path.display()), &error)
        })?;
        Ok(Json(Cleared {
            cleared: true,
            journal: path.display().to_string(),
        }))
    })
    .await
}

/// Server-sent events: `snapshot` (the latest calls, newest first) once, then `call` for each
/// new line and `cleared` when the journal was emptied. A rotation is not a clear: the calls
/// shown stay, and the new file's calls follow. A run with no journal yet is followed from its
/// first call. At most `max_streams` are open at once; one more is answered 503.
#[utoipa::path(get, path = "/runs/{run}/calls/stream", tag = "calls",
    params(("run" = String, Path, description = "The run; `default` for plain /mcp")),
    responses((status = 200, content_type = "text/event-stream",
               description = "`snapshot` (an array of entries, newest first), then `call` (one entry) and `cleared`"),
              (status = 503, description = "Too many streams are open", body = ErrorBody)))]
pub(crate) async fn stream(
    State(admin): State<Admin>,
    run: InRun,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let Ok(permit) = Arc::clone(&admin.streams).try_acquire_owned() else {
        return Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "{} live streams are open already: close one, or raise --max-streams",
                admin.max_streams
            ),
        ));
    };
    // What a stream held (its snapshot, the events a page left unread) is freed when it ends,
    // partly by the connection that wrote it, which may see its reader gone after the stream
    // does; glibc keeps freed pages in its arenas until told to give them back. So a trimmer
    // trims soon after streams end, and now and then besides.
    admin.trimmer.call_once(|| {
        spawn_trimmer(
            TRIM_PERIOD,
            Arc::clone(&admin.streams_ended),
            admin.shutdown.clone(),
        );
    });
    let (sender, receiver) = mpsc::channel(QUEUED_EVENTS);
    let journal = run.layout.journal.clone();
    tokio::spawn(async move {
        follow(&journal, &admin.shutdown, sender).await;
        drop(permit);
        admin.streams_ended.notify_one();
    });
    Ok(Sse::new(ReceiverStream::new(receiver)).keep_alive(KeepAlive::default()))
}

/// Feeds one stream until its reader leaves or the listener stops.
async fn follow(
    journal: &Path,
    shutdown: &tokio_util::sync::CancellationToken,
    sender: mpsc::Sender<Result<Event, Infallible>>,
) {
    let path = journal.to_path_buf();
    let first = tokio::task::spawn_blocking(move || latest(&path, SNAPSHOT)).await;
    let (snapshot, mut follower) = match first {
        Ok(Ok(found)) => found,
        Ok(Err(error)) => {
            tracing::warn!(path = %journal.display(), "admin: cannot read the journal: {error}");
            (Vec::new(), None)
        }
        Err(error) => {
            tracing::warn!("admin: the journal reader failed: {error}");
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
    let mut seen = Seen::of(journal);
    let changed = Arc::new(Notify::new());
    let wake = Arc::clone(&changed);
    let watch = JournalWatch::new(journal, move || wake.notify_one());
    let mut ticks = tokio::time::interval(match &watch {
        Ok(_) => LOOK_AGAIN,
        Err(error) => {
            tracing::warn!(path = %journal.display(), "admin: cannot watch the journal ({error}); looking every {POLL:?}");
            POLL
        }
    });
    loop {
        tokio::select! {
            () = shutdown.cancelled() => return,
            () = sender.closed() => return,
            () = changed.notified() => {}
            _ = ticks.tick() => {}
        }
        // A journal that did not exist yet is followed from its start once it does.
        if follower.is_none() {
            follower = File::open(journal)
                .ok()
                .map(|file| Follower::new(journal, file, 0));
        }
        let Some(mut current) = follower.take() else {
            continue;
        };
        let polled = tokio::task::spawn_blocking(move || (current.poll(), current)).await;
        let Ok((lines, back)) = polled else { return };
        follower = Some(back);
        let mut events = Vec::new();
        // The follower starts over by itself; the page is told so it drops what it shows.
        let now = Seen::of(journal);
        if now.cleared_since(seen) {
            events.push(event("cleared", &json!({})));
        }
        seen = now;
        match lines {
            Ok(lines) => events.extend(
                lines
                    .iter()
                    .filter_map(|l| parse(l))
                    .map(|e| event("call", &e)),
            ),
            Err(error) => {
                tracing::warn!(path = %journal.display(), "admin: cannot read the journal: {error}")
            }
        }
        for event in events {
            if sender.send(Ok(event)).await.is_err() {
                return;
            }
        }
    }
}

/// The file the journal's path names, and its size, at one poll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Seen {
    file: Option<(u64, u64)>,
    len: u64,
}

impl Seen {
    fn of(path: &Path) -> Self {
        match std::fs::metadata(path) {
            Ok(metadata) => Self {
                file: identity(&metadata),
                len: metadata.len(),
            },
            Err(_) => Self { file: None, len: 0 },
        }
    }

    /// Whether the journal was emptied between `before` and now: the same file, shorter. A
    /// path that names another file was rotated (or deleted and recreated), which is no clear.
    fn cleared_since(self, before: Self) -> bool {
        self.file.is_some() && self.file == before.file && self.len < before.len
    }
}

#[cfg(unix)]
fn identity(metadata: &std::fs::Metadata) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    Some((metadata.dev(), metadata.ino()))
}

/// Without inode numbers a file cannot be told from its successor: every shorter journal
/// counts as cleared.
#[cfg(not(unix))]
fn identity(_: &std::fs::Metadata) -> Option<(u64, u64)> {
    Some((0, 0))
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
