//! `--server URL`: the controls acting on a server's admin API ([`crate::admin`], docs/ADMIN.md)
//! instead of the project's files. Each function here asks the API for what the command's local
//! path reads from disk and hands it to the same printer, so the output and the exit code are
//! the same either way; a refusal comes back in the CLI's words (the API's `error` and its
//! `causes`) and ends the command as a local one would (`error: …`, exit 2).

use std::time::Duration;

use anyhow::{Context, anyhow, bail};
use futures::StreamExt;
use reqwest::Method;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::{admin_token, calls, clock, grade, scenario, scenarios, world};
use crate::admin::{
    CallsAnswer, ClockAnswer, ClockMove, EntrySet, ErrorBody, Removed, Report, RunsAnswer,
    ScenariosAnswer, StepsBody, Token,
};
use crate::cli::Status;
use crate::cli::args::{CallsArgs, ClockChange, Command, GlobalArgs, GradeArgs, ScenarioArgs};
use crate::engine::{RunName, WorldView};

/// How long one request may take; a stream (`calls --follow`) has no limit.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

/// A server's admin API, reached from this process.
pub struct Remote {
    base: String,
    token: Option<Token>,
    client: reqwest::Client,
    runtime: tokio::runtime::Runtime,
}

impl Remote {
    /// The admin API at `url` (`http://host:port`, a trailing `/` or not), sending `token`.
    ///
    /// # Errors
    ///
    /// The URL is not an http(s) URL, or the HTTP client cannot start.
    pub fn new(url: &str, token: Option<Token>) -> anyhow::Result<Self> {
        let base = url.trim().trim_end_matches('/').to_string();
        let parsed = reqwest::Url::parse(&base)
            .with_context(|| format!("--server {base}: not a URL (e.g. http://127.0.0.1:8790)"))?;
        if !matches!(parsed.scheme(), "http" | "https") {
            bail!("--server {base}: not an http:// or https:// URL");
        }
        let client = reqwest::Client::builder()
            .build()
            .context("cannot start an HTTP client")?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .context("cannot start an HTTP client")?;
        Ok(Self {
            base,
            token,
            client,
            runtime,
        })
    }

    fn request(&self, method: Method, path: &str) -> reqwest::RequestBuilder {
        let request = self
            .client
            .request(method, format!("{}{path}", self.base))
            .header("content-type", "application/json");
        match &self.token {
            Some(token) => request.bearer_auth(token.as_str()),
            None => request,
        }
    }

    /// Sends `request` and reads its answer as `T`; a refusal becomes the error the CLI prints.
    fn answer<T: DeserializeOwned>(&self, request: reqwest::RequestBuilder) -> anyhow::Result<T> {
        self.runtime.block_on(async {
            let response = request
                .timeout(REQUEST_TIMEOUT)
                .send()
                .await
                .with_context(|| format!("cannot reach the admin API at {}", self.base))?;
            let status = response.status();
            let text = response
                .text()
                .await
                .with_context(|| format!("the admin API at {} broke off its answer", self.base))?;
            if status.is_success() {
                return serde_json::from_str(&text).with_context(|| {
                    format!(
                        "the admin API at {} answered what it does not say",
                        self.base
                    )
                });
            }
            Err(refusal(&self.base, status, &text))
        })
    }

    fn get<T: DeserializeOwned>(&self, path: &str) -> anyhow::Result<T> {
        self.answer(self.request(Method::GET, path))
    }

    fn send<T: DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        body: &impl Serialize,
    ) -> anyhow::Result<T> {
        self.answer(self.request(method, path).json(body))
    }
}

/// A refusal as the CLI prints it: the API's `error`, its `causes` as `caused by` lines.
fn refusal(base: &str, status: reqwest::StatusCode, text: &str) -> anyhow::Error {
    let Ok(body) = serde_json::from_str::<ErrorBody>(text) else {
        return anyhow!("the admin API at {base} answered {status}: {}", text.trim());
    };
    let mut chain = body.causes.into_iter().rev();
    match chain.next() {
        None => anyhow!(body.error),
        Some(innermost) => chain
            .fold(anyhow!(innermost), anyhow::Error::context)
            .context(body.error),
    }
}

/// The command through the server's admin API at `url`, when it is one that acts there; `None`
/// for the others, which act here as ever.
pub fn dispatch(
    url: &str,
    global: &GlobalArgs,
    command: &Command,
) -> Option<anyhow::Result<Status>> {
    let connect = || Remote::new(url, admin_token(global)?);
    let run = global.run.as_ref();
    Some(match command {
        Command::Scenario(args) => connect().and_then(|r| set_scenario(&r, run, args)),
        Command::Scenarios { tool } => connect().and_then(|r| scenarios(&r, run, tool.as_deref())),
        Command::Reset { remove } => connect().and_then(|r| reset(&r, run, *remove)),
        Command::Clock { change } => connect().and_then(|r| clock(&r, run, change.clone())),
        Command::World { json } => connect().and_then(|r| world(&r, run, *json)),
        Command::Calls(args) => connect().and_then(|r| calls(&r, run, args)),
        Command::Grade(args) => connect().and_then(|r| grade(&r, run, args)),
        _ => return None,
    })
}

/// The API's path of a run: `/runs/default` for the default run.
fn run_path(run: Option<&RunName>) -> String {
    format!(
        "/runs/{}",
        run.map_or(crate::admin::DEFAULT_RUN, RunName::as_str)
    )
}

/// `scenario` through the API.
pub fn set_scenario(
    remote: &Remote,
    run: Option<&RunName>,
    args: &ScenarioArgs,
) -> anyhow::Result<Status> {
    let body = StepsBody {
        steps: args.steps.clone(),
        delay: args.delay.map(|delay| delay.to_string()),
        fault: args.fault.map(|fault| fault.name().to_string()),
        rate: args.rate,
    };
    let path = format!("{}/scenarios/{}/steps", run_path(run), encode(&args.tool));
    let set: EntrySet = remote.send(Method::PUT, &path, &body)?;
    scenario::said(&args.tool, set.entry.as_ref())
}

/// `reset` (and `reset --remove`) through the API.
pub fn reset(remote: &Remote, run: Option<&RunName>, remove: bool) -> anyhow::Result<Status> {
    if !remove {
        let _: Value = remote.send(
            Method::POST,
            &format!("{}/reset", run_path(run)),
            &json!({}),
        )?;
        return scenario::said_reset();
    }
    let Some(run) = run else {
        bail!(crate::admin::REMOVE_NEEDS_RUN);
    };
    let removed: Removed = remote.send(Method::DELETE, &run_path(Some(run)), &json!({}))?;
    scenario::said_removed(run, removed.removed, &removed.folder)
}

/// `scenarios` through the API.
pub fn scenarios(
    remote: &Remote,
    run: Option<&RunName>,
    only: Option<&str>,
) -> anyhow::Result<Status> {
    let mut path = format!("{}/scenarios", run_path(run));
    if let Some(tool) = only {
        path.push_str(&format!("?tool={}", encode(tool)));
    }
    let listed: ScenariosAnswer = remote.get(&path)?;
    scenarios::print(&listed)
}

/// `clock` through the API.
pub fn clock(
    remote: &Remote,
    run: Option<&RunName>,
    change: Option<ClockChange>,
) -> anyhow::Result<Status> {
    let path = format!("{}/clock", run_path(run));
    let answer: ClockAnswer = match change.map(clock::clock_move) {
        None => remote.get(&path)?,
        Some(ClockMove::Set(at)) => remote.send(Method::PUT, &path, &json!({ "at": at }))?,
        Some(ClockMove::Advance(by)) => remote.send(
            Method::POST,
            &format!("{path}/advance"),
            &json!({ "by": by }),
        )?,
        Some(ClockMove::Real) => remote.send(Method::DELETE, &path, &json!({}))?,
    };
    clock::print(answer.setting)
}

/// `world` through the API.
pub fn world(remote: &Remote, run: Option<&RunName>, json: bool) -> anyhow::Result<Status> {
    let view: WorldView = remote.get(&format!("{}/world", run_path(run)))?;
    world::print(&view, json)
}

/// `calls` through the API: read, cleared, every run's, or followed.
pub fn calls(remote: &Remote, run: Option<&RunName>, args: &CallsArgs) -> anyhow::Result<Status> {
    if args.all_runs {
        if let Some(run) = run {
            bail!("--all-runs reads every run's journal; leave out --run {run}");
        }
        let listed: RunsAnswer = remote.get("/runs")?;
        let runs = listed
            .runs
            .iter()
            .map(|name| name.parse::<RunName>())
            .collect::<Result<Vec<_>, _>>()
            .map_err(|error| anyhow!("the admin API listed a run that is not one: {error}"))?;
        let mut read = Vec::new();
        for run in std::iter::once(None).chain(runs.iter().map(Some)) {
            read.push((run.cloned(), journal(remote, run, args)?));
        }
        return calls::print_all_runs(read, args);
    }
    if args.clear {
        let cleared: crate::admin::Cleared = remote.send(
            Method::DELETE,
            &format!("{}/calls", run_path(run)),
            &json!({}),
        )?;
        eprintln!("cleared {}", cleared.journal);
        return Ok(Status::Success);
    }
    if args.follow {
        return follow(remote, run, args);
    }
    let read = journal(remote, run, args)?;
    calls::print(&read, args)
}

/// A run's journal through the API, filtered as `args` say.
fn journal(
    remote: &Remote,
    run: Option<&RunName>,
    args: &CallsArgs,
) -> anyhow::Result<calls::Read> {
    let mut query = Vec::new();
    if let Some(last) = args.last {
        query.push(format!("last={last}"));
    }
    if let Some(tool) = &args.tool {
        query.push(format!("tool={}", encode(tool)));
    }
    if let Some(session) = &args.session {
        query.push(format!("session={}", encode(session)));
    }
    let mut path = format!("{}/calls", run_path(run));
    if !query.is_empty() {
        path.push('?');
        path.push_str(&query.join("&"));
    }
    let answer: CallsAnswer = remote.get(&path)?;
    Ok(calls::Read {
        path: answer.journal.into(),
        found: answer.found,
        entries: answer.calls,
        gaps: answer
            .lost
            .into_iter()
            .map(|lost| {
                let gap = crate::engine::journal::Gap {
                    time: lost.time,
                    lost: lost.lost,
                };
                (lost.before, gap)
            })
            .collect(),
    })
}

/// `calls --follow` through the API's live stream: its snapshot is the table (filtered as
/// `args` say), then each new call a row as it comes, until interrupted.
fn follow(remote: &Remote, run: Option<&RunName>, args: &CallsArgs) -> anyhow::Result<Status> {
    let path = format!("{}/calls/stream", run_path(run));
    let request = remote.request(Method::GET, &path);
    remote.runtime.block_on(async {
        let response = request
            .send()
            .await
            .with_context(|| format!("cannot reach the admin API at {}", remote.base))?;
        let status = response.status();
        if !status.is_success() {
            let text = response.text().await.unwrap_or_default();
            return Err(refusal(&remote.base, status, &text));
        }
        let mut events = sse_stream::SseStream::from_bytes_stream(response.bytes_stream());
        while let Some(event) = events.next().await {
            let event = event.map_err(|error| anyhow!("the live stream broke off: {error}"))?;
            let data: Value = serde_json::from_str(event.data.as_deref().unwrap_or("null"))
                .context("the live stream sent what is not JSON")?;
            match event.event.as_deref() {
                Some("snapshot") => {
                    calls::print_snapshot(data, args)?;
                }
                Some("call") => calls::print_line(&data, args)?,
                _ => {}
            }
        }
        Ok(Status::Success)
    })
}

/// `grade` through the API: each run named (the runs matching `--runs` listed by the API) and
/// each expected file sent to it.
pub fn grade(remote: &Remote, run: Option<&RunName>, args: &GradeArgs) -> anyhow::Result<Status> {
    let names = match (&args.runs, run) {
        (Some(_), Some(_)) => bail!("name the runs with --run or with --runs, not both"),
        (Some(pattern), None) => {
            let listed: RunsAnswer = remote.get("/runs")?;
            let matching: Vec<String> = listed
                .runs
                .into_iter()
                .filter(|name| grade::matches(pattern, name))
                .collect();
            if matching.is_empty() {
                bail!("no run matches {pattern:?} at {}", remote.base);
            }
            matching
        }
        (None, run) => vec![
            run.map_or(crate::admin::DEFAULT_RUN, RunName::as_str)
                .to_string(),
        ],
    };
    if args.runs.is_none() {
        // A run that is not there is refused as the CLI refuses it, before any file is read.
        let _: CallsAnswer = remote.get(&format!("/runs/{}/calls?last=0", names[0]))?;
    }
    let expected = grade::read_all(&args.expected)?;
    let mut verdicts = Vec::new();
    for name in &names {
        for (path, text, _) in &expected {
            let target = format!(
                "/runs/{name}/grade?expected={}",
                encode(&path.display().to_string())
            );
            let request = remote.request(Method::POST, &target).body(text.clone());
            let report: Report = remote
                .answer(request)
                .map_err(|error| anyhow!("{}: {error:#}", path.display()))?;
            verdicts.extend(report.verdicts);
        }
    }
    grade::print(&Report::of(verdicts, names.len()), args.format)
}

/// `text` as one segment or query value of a URL.
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}
