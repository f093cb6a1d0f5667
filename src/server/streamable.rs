//! Streamable HTTP at `/mcp`, checked and answered in the Go SDK's order: media types, the
//! session, the method, the protocol version, then the body; one path per request, in the
//! request's own task, each answer an `event: message` on the POST's own stream.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::body::{Body, Bytes};
use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method as HttpMethod, StatusCode, header};
use axum::response::Response;
use futures::StreamExt;
use futures::future::Either;
use futures::stream::{BoxStream, FuturesOrdered};
use tokio_util::sync::CancellationToken;

use super::faults::Ingress;
use super::jsonrpc::{self, Message, Method};
use super::mcp::{DEFAULT_HEADER_VERSION, Mcp, PlannedCall, Reply, Session, ToolCall};
use super::plain;
use super::profile::WireProfile;
use super::sessions::{OpenSession, Sessions};
use super::sessions::{SESSION_ID, stream};
use super::streams::Streams;
use super::{standard_headers, stateless};
use crate::engine::Origin;
use crate::engine::RunName;

const PROTOCOL_VERSION: &str = "mcp-protocol-version";
const LAST_EVENT_ID: &str = "last-event-id";

/// What `/mcp` needs.
#[derive(Debug, Clone)]
pub(crate) struct Streamable {
    pub(crate) mcp: Arc<Mcp>,
    pub(crate) sessions: Arc<Sessions>,
    pub(crate) streams: Arc<Streams>,
    pub(crate) shutdown: CancellationToken,
}

pub(crate) async fn handle(State(http): State<Streamable>, request: Request) -> Response {
    serve(http, None, request).await
}

/// `/mcp/<run>`: the same, in the run's world; a name that is no run name is no path.
pub(crate) async fn handle_run(
    State(http): State<Streamable>,
    Path(run): Path<String>,
    request: Request,
) -> Response {
    match run.parse::<RunName>() {
        Ok(run) if http.mcp.runs_served() => serve(http, Some(run), request).await,
        _ => plain::not_found(),
    }
}

/// One request to `/mcp`, as the SDK's handler takes it: the checks every request passes, in
/// its order, the session it names, then one function per HTTP method.
async fn serve(http: Streamable, run: Option<RunName>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let headers = &parts.headers;
    if let Some(refused) = check_headers(http.mcp.profile(), &parts.method, headers) {
        return refused;
    }
    let session_id = headers
        .get(SESSION_ID)
        .and_then(|value| value.to_str().ok())
        .filter(|id| !id.is_empty() && !http.mcp.profile().is_stateless())
        .map(str::to_string);
    let live = match &session_id {
        Some(id) => match http.sessions.get(id) {
            // A session is found only at the path of its own run, and only if it is one of
            // this transport's: the SDK keeps legacy SSE sessions apart.
            Some(live)
                if live.session.run() == run.as_ref() && live.session.origin() == Origin::Http =>
            {
                Some(live)
            }
            _ => return plain::error(StatusCode::NOT_FOUND, "session not found"),
        },
        None => None,
    };
    match parts.method {
        HttpMethod::GET => serve_get(&http, live, headers),
        HttpMethod::POST => serve_post(&http, live, run, headers, body).await,
        HttpMethod::DELETE => serve_delete(&http, session_id.as_deref()),
        _ => {
            let mut refused = plain::error(StatusCode::METHOD_NOT_ALLOWED, "Method Not Allowed");
            refused
                .headers_mut()
                .insert(header::ALLOW, HeaderValue::from_static("GET, POST, DELETE"));
            refused
        }
    }
}

/// The checks of every request's headers before its session is looked up, in the SDK's
/// order: the version header (v1.7.0 checks it first), the stateless transport's, the
/// `Content-Type` of a POST, the `Accept` of any method but DELETE.
fn check_headers(
    profile: WireProfile,
    method: &HttpMethod,
    headers: &HeaderMap,
) -> Option<Response> {
    if profile.checks_version_first()
        && let Some(refused) = headers
            .get(PROTOCOL_VERSION)
            .and_then(|value| unsupported(&String::from_utf8_lossy(value.as_bytes()), profile))
    {
        return Some(refused);
    }
    if profile.is_stateless()
        && let Some(refused) = stateless::refused(
            method,
            base_media_type(headers) == "application/json",
            accepts(headers),
        )
    {
        return Some(refused);
    }
    if method == HttpMethod::POST && base_media_type(headers) != "application/json" {
        return Some(plain::error(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Content-Type must be 'application/json'",
        ));
    }
    let (json_ok, stream_ok) = accepts(headers);
    if method == HttpMethod::GET {
        if !stream_ok {
            return Some(plain::error(
                StatusCode::BAD_REQUEST,
                "Accept must contain 'text/event-stream' for GET requests",
            ));
        }
    } else if (!json_ok || !stream_ok) && method != HttpMethod::DELETE {
        return Some(plain::error(
            StatusCode::BAD_REQUEST,
            "Accept must contain both 'application/json' and 'text/event-stream'",
        ));
    }
    None
}

/// The version a request's header names, or the one a header that names none stands for.
fn header_version(headers: &HeaderMap) -> String {
    match headers.get(PROTOCOL_VERSION) {
        None => DEFAULT_HEADER_VERSION.to_string(),
        Some(value) => String::from_utf8_lossy(value.as_bytes()).into_owned(),
    }
}

/// DELETE: the session named ends.
fn serve_delete(http: &Streamable, session_id: Option<&str>) -> Response {
    let Some(id) = session_id else {
        return plain::error(
            StatusCode::BAD_REQUEST,
            "Bad Request: DELETE requires an Mcp-Session-Id header",
        );
    };
    http.sessions.close(id);
    plain::empty(StatusCode::NO_CONTENT)
}

/// GET: the session's standalone stream.
fn serve_get(http: &Streamable, live: Option<Arc<OpenSession>>, headers: &HeaderMap) -> Response {
    let Some(live) = live else {
        return plain::error(
            StatusCode::BAD_REQUEST,
            "Bad Request: GET requires an Mcp-Session-Id header",
        );
    };
    let profile = http.mcp.profile();
    if let Some(refused) = unsupported(&header_version(headers), profile) {
        return refused;
    }
    standalone(&live, headers, &http.streams, profile)
}

/// POST: its messages, read whole and checked, answered on the POST's own stream; the
/// ingress answers a call's fault in front of them.
async fn serve_post(
    http: &Streamable,
    live: Option<Arc<OpenSession>>,
    run: Option<RunName>,
    headers: &HeaderMap,
    body: Body,
) -> Response {
    let profile = http.mcp.profile();
    let version = header_version(headers);
    if let Some(refused) = unsupported(&version, profile) {
        return refused;
    }
    if headers.contains_key(LAST_EVENT_ID) {
        return plain::error(
            StatusCode::BAD_REQUEST,
            "can't send Last-Event-ID for POST request",
        );
    }
    // The body was read whole (within the size limit and the body timeout) in front.
    let body = match axum::body::to_bytes(body, usize::MAX).await {
        Ok(body) => body,
        Err(_) => return plain::error(StatusCode::BAD_REQUEST, "failed to read body"),
    };
    let (requests, batch) = match read_post(profile, headers, &version, &body) {
        Posted::Requests { requests, batch } => (requests, batch),
        Posted::Refused(refused) => return refused,
    };
    let session = match &live {
        Some(live) => Arc::clone(&live.session),
        None => {
            let Some(engine) = http.mcp.engine_of(run.as_ref()).await else {
                return plain::not_found();
            };
            if profile.is_stateless() {
                stateless::session(engine, run, &requests, &version)
            } else {
                Sessions::fresh(Origin::Http, engine, run)
            }
        }
    };
    if !requests.iter().any(|(request, _)| request.is_call()) {
        for (request, method) in requests {
            let _ = http.mcp.handle(&session, request, method, None).await;
        }
        return plain::empty(StatusCode::ACCEPTED);
    }
    // Calls arrive in order; the ingress answers its faults in front of the SDK, for a call
    // of a live session.
    let mut arrivals: Vec<Option<PlannedCall>> = Vec::with_capacity(requests.len());
    let faults_served = !batch && (live.is_some() || profile.is_stateless());
    for (request, method) in &requests {
        let arrival = (*method == Method::ToolsCall && session.is_initialized())
            .then(|| ToolCall::name_of(request.params.as_deref()))
            .flatten()
            .map(|name| http.mcp.arrive(&session, &name));
        if faults_served
            && let Some(fault) = arrival.as_ref().and_then(PlannedCall::ingress_fault)
            && let Some(arrival) = arrival
        {
            let ingress = Ingress::new(&http.mcp, &http.sessions, &http.shutdown);
            let params = request.params.as_deref();
            return ingress.serve_fault(&session, params, arrival, fault).await;
        }
        arrivals.push(arrival);
    }
    let initialize = requests
        .iter()
        .any(|(request, _)| request.method == "initialize");
    let answers: FuturesOrdered<_> = requests
        .into_iter()
        .zip(arrivals)
        .map(|((request, method), arrival)| {
            let (mcp, session) = (Arc::clone(&http.mcp), Arc::clone(&session));
            async move { mcp.handle(&session, request, method, arrival).await }
        })
        .collect();
    match live {
        None => answer_new_session(http, session, answers, &version, initialize).await,
        Some(_) => {
            let id = initialize
                .then(|| session.id().map(str::to_string))
                .flatten();
            let ended = Arc::clone(&session);
            let (streams, shutdown) = (Arc::clone(&http.streams), http.shutdown.clone());
            let events = answers
                .flat_map(move |reply| events_of(reply, &streams, &shutdown))
                .take_until(async move { ended.ended().await });
            stream(events.boxed(), id.as_deref())
        }
    }
}

/// What a POST's body holds, as the SDK reads it.
enum Posted {
    /// Its JSON-RPC requests, each with its method, and whether they came as a batch.
    Requests {
        requests: Vec<(jsonrpc::Request, Method)>,
        batch: bool,
    },
    /// What the SDK answers a body it refuses.
    Refused(Response),
}

/// A POST's body read as the SDK reads it: the messages, a batch only before 2025-06-18, each
/// request's envelope checked and, under v1.7.0, its 2026-07-28 headers; responses dropped.
fn read_post(profile: WireProfile, headers: &HeaderMap, version: &str, body: &Bytes) -> Posted {
    if body.is_empty() {
        return Posted::Refused(plain::error(
            StatusCode::BAD_REQUEST,
            "POST requires a non-empty body",
        ));
    }
    let (messages, batch) = match jsonrpc::read_batch(body) {
        Ok(read) => read,
        Err(error) => {
            return Posted::Refused(plain::error(
                StatusCode::BAD_REQUEST,
                &format!("malformed payload: {error}"),
            ));
        }
    };
    if batch && version >= "2025-06-18" {
        return Posted::Refused(plain::error(
            StatusCode::BAD_REQUEST,
            &format!(
                "JSON-RPC batching is not supported in 2025-06-18 and later (request version: {version})"
            ),
        ));
    }
    let single = messages.len() == 1;
    let header = headers
        .get(PROTOCOL_VERSION)
        .map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned());
    let mut requests = Vec::with_capacity(messages.len());
    for message in messages {
        let Message::Request(request) = message else {
            continue;
        };
        match jsonrpc::check(&request, profile) {
            Ok(method) => {
                if profile.answers_discover()
                    && let Some(refused) = standard_headers::per_request(
                        &request,
                        method,
                        header.as_deref(),
                        version,
                        profile.is_stateless(),
                    )
                {
                    return Posted::Refused(refused);
                }
                requests.push((request, method));
            }
            Err(refusal) if profile.answers_discover() => {
                return Posted::Refused(standard_headers::refused(&request, &refusal, version));
            }
            Err(refusal) => {
                return Posted::Refused(plain::error(
                    StatusCode::BAD_REQUEST,
                    &refusal.to_string(),
                ));
            }
        }
    }
    if let ([(request, _)], true, false) = (requests.as_slice(), single, batch)
        && profile.answers_discover()
        && let Some(refused) = standard_headers::standard(headers, request, version)
    {
        return Posted::Refused(refused);
    }
    Posted::Requests { requests, batch }
}

/// The answers of a POST that opened a session, answered whole first: so that the session is
/// in the table (when `initialize` succeeded) before its id goes out, and ended otherwise, as
/// the SDK ends it.
async fn answer_new_session(
    http: &Streamable,
    session: Arc<Session>,
    mut answers: FuturesOrdered<impl Future<Output = Reply>>,
    version: &str,
    initialize: bool,
) -> Response {
    let mut replies = Vec::new();
    while let Some(reply) = answers.next().await {
        if matches!(reply, Reply::Message(_) | Reply::Listening(_)) {
            replies.push(reply);
        }
    }
    if let [Reply::Message(message)] = replies.as_mut_slice()
        && let Some(status) = standard_headers::error_status(version, message)
    {
        session.end();
        return standard_headers::json_answer(status, std::mem::take(message));
    }
    let (streams, shutdown) = (Arc::clone(&http.streams), http.shutdown.clone());
    let events =
        futures::stream::iter(replies).flat_map(move |reply| events_of(reply, &streams, &shutdown));
    if http.mcp.profile().is_stateless() {
        // Its session ends with its stream, which a held `subscriptions/listen` keeps open.
        let ends = EndsSession(session);
        let events = events.map(move |event| {
            let _ = &ends;
            event
        });
        return stream(events.boxed(), None);
    }
    let id = if session.is_initialized() {
        let id = session.id().map(str::to_string);
        http.sessions.admit(Arc::clone(&session));
        id
    } else {
        session.end();
        None
    };
    stream(events.boxed(), id.filter(|_| initialize).as_deref())
}

/// Ends a POST's own session when the stream that answers it is dropped.
struct EndsSession(Arc<Session>);

impl Drop for EndsSession {
    fn drop(&mut self) {
        self.0.end();
    }
}

/// An event of a POST's stream, as the body writes it.
type Event = Result<Bytes, std::io::Error>;

/// A reply of one message (or none) as a stream.
type OneEvent = futures::stream::Iter<std::option::IntoIter<Event>>;

/// One reply's events on a POST's stream. A held `subscriptions/listen` takes a place among
/// the long-lived streams, as a standalone GET stream does: it ends when its subscription
/// does, when the server shuts down, or, with an error that closes its connection, when a
/// newer stream displaces it.
fn events_of(
    reply: Reply,
    streams: &Arc<Streams>,
    shutdown: &CancellationToken,
) -> Either<OneEvent, BoxStream<'static, Event>> {
    // A message (every call's answer) is one event, unboxed; only a listen is a stream.
    let listening = match reply {
        Reply::Message(message) => {
            return Either::Left(futures::stream::iter(Some(Ok(event(&message)))));
        }
        Reply::None | Reply::Exit(_) => return Either::Left(futures::stream::iter(None)),
        Reply::Listening(listening) => listening,
    };
    let acknowledged = Ok(event(listening.acknowledged()));
    let slot = listening.is_held().then(|| streams.take());
    let shutdown = shutdown.clone();
    let ended = futures::stream::once(async move {
        let displaced = async {
            match &slot {
                Some(slot) => slot.ended.cancelled().await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            biased;
            result = listening.result() => result.map(|result| Ok(event(&result))),
            () = shutdown.cancelled() => None,
            () = displaced => Some(Err(super::streams::displaced())),
        }
    })
    .filter_map(std::future::ready);
    Either::Right(futures::stream::iter([acknowledged]).chain(ended).boxed())
}

/// The standalone GET stream: one per session, open until the session or the client ends.
fn standalone(
    live: &Arc<OpenSession>,
    headers: &HeaderMap,
    streams: &Arc<Streams>,
    profile: WireProfile,
) -> Response {
    if let Some(value) = headers.get(LAST_EVENT_ID) {
        let text = String::from_utf8_lossy(value.as_bytes());
        let well_formed = text
            .split_once('_')
            .is_some_and(|(_, index)| !index.contains('_') && index.parse::<u64>().is_ok());
        let refusal = if well_formed {
            "stream replay unsupported".to_string()
        } else {
            format!("malformed Last-Event-ID {}", crate::go::fmt::quote(&text))
        };
        return plain::error(StatusCode::BAD_REQUEST, &refusal);
    }
    if live.standalone.swap(true, Ordering::AcqRel) {
        return plain::error(
            StatusCode::CONFLICT,
            "stream ID conflicts with ongoing stream",
        );
    }
    let (open, slot) = (StandaloneOpen(Arc::clone(live)), streams.take());
    // v1.7.0 writes a comment at once, so that a proxy passes the headers on.
    let primed = futures::stream::iter(
        profile
            .primes_standalone_stream()
            .then(|| Ok(Bytes::from_static(b": ok\n\n"))),
    );
    let events = futures::stream::once(async move {
        let displaced = tokio::select! {
            () = open.0.session.ended() => false,
            () = slot.ended.cancelled() => true,
        };
        drop((open, slot));
        displaced
    })
    .filter_map(|displaced| {
        std::future::ready(displaced.then(|| Err::<Bytes, _>(super::streams::displaced())))
    });
    stream(primed.chain(events).boxed(), None)
}

/// Marks the session's standalone stream closed when the body that holds it is dropped.
struct StandaloneOpen(Arc<OpenSession>);

impl Drop for StandaloneOpen {
    fn drop(&mut self) {
        self.0.standalone.store(false, Ordering::Release);
    }
}

/// The refusal of a header version `profile`'s release does not know; v1.7.0 lets any from
/// 2026-07-28 on through, for the per-request checks to judge.
fn unsupported(version: &str, profile: WireProfile) -> Option<Response> {
    let known = profile.header_versions();
    let passes = known.contains(&version)
        || (profile.answers_discover() && standard_headers::is_2026(version));
    (!passes).then(|| {
        plain::error(
            StatusCode::BAD_REQUEST,
            &format!(
                "Bad Request: Unsupported protocol version (supported versions: {})",
                known.join(",")
            ),
        )
    })
}

/// One message as the SDK frames it on a stream.
pub(crate) fn event(message: &[u8]) -> Bytes {
    let mut out = Vec::with_capacity(message.len() + 24);
    out.extend_from_slice(b"event: message\ndata: ");
    out.extend_from_slice(message);
    out.extend_from_slice(b"\n\n");
    Bytes::from(out)
}

/// Go's `mime.ParseMediaType(...)`'s media type, lower-cased; empty when it does not parse.
fn base_media_type(headers: &HeaderMap) -> String {
    let Some(value) = headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
    else {
        return String::new();
    };
    let base = value.split(';').next().unwrap_or_default().trim();
    let valid = base.split_once('/').is_some_and(|(kind, sub)| {
        !kind.is_empty() && !sub.is_empty() && !sub.contains('/') && !base.contains(' ')
    });
    if valid {
        base.to_ascii_lowercase()
    } else {
        String::new()
    }
}

/// The SDK's reading of every `Accept` header: which of its two media types it admits.
fn accepts(headers: &HeaderMap) -> (bool, bool) {
    let (mut json, mut stream) = (false, false);
    for value in headers.get_all(header::ACCEPT) {
        let text = String::from_utf8_lossy(value.as_bytes());
        for token in text.split(',') {
            let base = token.split(';').next().unwrap_or_default().trim();
            match base.to_ascii_lowercase().as_str() {
                "application/json" | "application/*" => json = true,
                "text/event-stream" | "text/*" => stream = true,
                "*/*" => (json, stream) = (true, true),
                _ => {}
            }
        }
    }
    (json, stream)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_headers_are_read_as_the_sdk_reads_them() {
        let cases = [
            ("application/json, text/event-stream", (true, true)),
            ("*/*", (true, true)),
            ("application/*, text/*", (true, true)),
            ("application/json", (true, false)),
            ("text/event-stream;q=0.9", (false, true)),
            ("text/html", (false, false)),
        ];
        for (accept, want) in cases {
            let mut headers = HeaderMap::new();
            headers.insert(header::ACCEPT, HeaderValue::from_static(accept));
            assert_eq!(accepts(&headers), want, "{accept}");
        }
    }

    #[test]
    fn content_types_are_read_as_go_parses_them() {
        let cases = [
            ("application/json", "application/json"),
            ("Application/JSON; charset=utf-8", "application/json"),
            ("text/plain", "text/plain"),
            ("application json", ""),
        ];
        for (given, want) in cases {
            let mut headers = HeaderMap::new();
            headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(given));
            assert_eq!(base_media_type(&headers), want, "{given}");
        }
    }
}
