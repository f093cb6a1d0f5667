//! The command line's shape: every subcommand and option, with the help text users read.

use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use chrono::{DateTime, Utc};
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};
use clap_complete::engine::ArgValueCandidates;
use reqwest::header::{HeaderName, HeaderValue};

use super::complete;
use crate::dashboard::DEFAULT_MAX_STREAMS;
use crate::engine::DEFAULT_MAX_RUNS;
use crate::engine::duration::{self, Unit};
use crate::engine::{Delay, Fault, RunName};
use crate::probe::drift::DEFAULT_MAX_PAGES;
use crate::server::{DEFAULT_MAX_SESSIONS, WireProfile};

/// Production careem-mcp, served from scenario files.
///
/// Point an MCP client at `careem-mcp serve` instead of production: the same server identity,
/// tools, schemas and widget, every call answered from the scenario files in `tools/`. No
/// network, no credentials. Force a tool into a scenario with `careem-mcp scenario`.
#[derive(Debug, Parser)]
#[command(name = "careem-mcp", version, about, long_about, max_term_width = 100)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Clone, Args)]
pub struct GlobalArgs {
    /// The project folder, which holds `tools/` and `.run/` (default: the current folder). MCP
    /// clients start servers in a folder of their own choosing: give them an absolute path.
    #[arg(long, global = true, value_name = "DIR", env = "CAREEM_MCP_PROJECT")]
    pub project: Option<PathBuf>,
    /// The folder of tool files (`**/*.md`, README.md excepted) [default: <project>/tools].
    /// Relative paths here and in --overrides and --journal are taken from the project folder.
    #[arg(long, global = true, value_name = "DIR", env = "CAREEM_MCP_TOOLS")]
    pub tools: Option<PathBuf>,
    /// The overrides file that forces scenarios, sequences, delays and faults (`careem-mcp
    /// scenario` writes it), read on every call [default: <project>/.run/overrides.json].
    #[arg(long, global = true, value_name = "PATH", env = "CAREEM_MCP_OVERRIDES")]
    pub overrides: Option<PathBuf>,
    /// The call journal, one JSON line per tool call [default: <project>/.run/calls.jsonl].
    #[arg(long, global = true, value_name = "PATH", env = "CAREEM_MCP_JOURNAL")]
    pub journal: Option<PathBuf>,
    /// The run to act on: its own overrides file and journal in `<project>/.run/runs/<NAME>/`,
    /// which clients reach at /mcp/<NAME> (or `serve --stdio --run NAME`). 1 to 64 of a-z,
    /// 0-9, `-` and `_` [default: the project's own .run/overrides.json and .run/calls.jsonl].
    #[arg(long, global = true, value_name = "NAME", env = "CAREEM_MCP_RUN", value_parser = RunName::from_str)]
    pub run: Option<RunName>,
    /// Rotate the journal once it would pass this size (bytes, or with KiB, MiB, GiB), keeping
    /// one rotated file beside it (`calls.jsonl.1`).
    #[arg(long, global = true, value_name = "SIZE", env = "CAREEM_MCP_JOURNAL_MAX_SIZE", default_value = "32MiB", value_parser = parse_size)]
    pub journal_max_size: u64,
    /// Freeze `now` at this RFC 3339 time (e.g. 2026-10-05T12:00:00Z), for reproducible responses.
    #[arg(long, global = true, value_name = "RFC3339", env = "CAREEM_MCP_CLOCK", value_parser = parse_clock)]
    pub clock: Option<DateTime<Utc>>,
    /// Make `uuid` and `rand:` placeholders deterministic with this seed.
    #[arg(long, global = true, value_name = "N", env = "CAREEM_MCP_SEED")]
    pub seed: Option<u64>,
    /// Make the world remember: what an agent does (a basket, an order, a ride) stays done for
    /// its run, shared by every process serving the run, until `careem-mcp reset`. Without it
    /// every call answers from the seed world, as SPEC's static scenarios do.
    #[arg(long, global = true, env = "CAREEM_MCP_STATEFUL", value_parser = clap::builder::FalseyValueParser::new())]
    pub stateful: bool,
    /// Stop a call's jq programs (a tool file's `jq when`, `jq update`, `jq response`) after
    /// this many seconds: the call answers `internal server error` and the log says which
    /// program. A program also stops after 500,000 steps, or when it recurses too deep.
    #[arg(
        long,
        global = true,
        value_name = "SECONDS",
        env = "CAREEM_MCP_JQ_DEADLINE",
        default_value = "5",
        value_parser = seconds()
    )]
    pub jq_deadline: Duration,
    /// A file holding the admin API's bearer token (its first line): what `serve --admin`
    /// requires of every request. Without it the token is CAREEM_MCP_ADMIN_TOKEN's value.
    #[arg(
        long,
        global = true,
        value_name = "PATH",
        env = "CAREEM_MCP_ADMIN_TOKEN_FILE"
    )]
    pub admin_token_file: Option<PathBuf>,
    /// Act on the server whose admin API is at this URL (`serve --admin`, docs/ADMIN.md)
    /// instead of the project's files: `scenario`, `scenarios`, `reset`, `clock`, `world`,
    /// `calls` and `grade`, with the same output and exit codes. The token is
    /// --admin-token-file's or CAREEM_MCP_ADMIN_TOKEN's.
    #[arg(long, global = true, value_name = "URL", env = "CAREEM_MCP_SERVER")]
    pub server: Option<String>,
}

/// An address to listen on: `HOST:PORT`, `[IPV6]:PORT`, or a port alone (on 127.0.0.1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListenAddr {
    pub host: String,
    /// `0` picks a free port.
    pub port: u16,
}

impl FromStr for ListenAddr {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let text = text.trim();
        let (host, port) = match text.rsplit_once(':') {
            Some((host, port)) => (host.trim_start_matches('[').trim_end_matches(']'), port),
            None => ("127.0.0.1", text),
        };
        let port = port.parse::<u16>().map_err(|_| {
            "expected HOST:PORT (e.g. 127.0.0.1:8790, 0.0.0.0:8790) or a port alone".to_string()
        })?;
        if host.is_empty() || host.contains(':') && !text.starts_with('[') {
            return Err("expected HOST:PORT, an IPv6 address in brackets ([::1]:8790)".to_string());
        }
        Ok(Self {
            host: host.to_string(),
            port,
        })
    }
}

impl std::fmt::Display for ListenAddr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.host.contains(':') {
            write!(f, "[{}]:{}", self.host, self.port)
        } else {
            write!(f, "{}:{}", self.host, self.port)
        }
    }
}

fn parse_size(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let digits = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(digits);
    let scale: u64 = match unit.trim() {
        "" | "B" => 1,
        "KiB" => 1 << 10,
        "MiB" => 1 << 20,
        "GiB" => 1 << 30,
        _ => return Err("expected a size such as 32MiB, 512KiB or 1048576".to_string()),
    };
    number
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(scale))
        .filter(|n| *n > 0)
        .ok_or_else(|| "expected a size such as 32MiB, 512KiB or 1048576".to_string())
}

fn parse_clock(text: &str) -> Result<DateTime<Utc>, String> {
    let at = DateTime::parse_from_rfc3339(text)
        .map(|t| t.to_utc())
        .map_err(|e| format!("expected an RFC 3339 time such as 2026-10-05T12:00:00Z: {e}"))?;
    crate::engine::tellable(at).map_err(|e| e.to_string())
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve MCP over Streamable HTTP (/mcp), legacy SSE (/sse) and /health, or over stdio.
    Serve(ServeArgs),
    /// Force a tool into a scenario or a sequence of them, slow it down, make it fail; `scenario
    /// <tool>` alone clears it.
    #[command(after_long_help = SCENARIO_EXAMPLES)]
    Scenario(ScenarioArgs),
    /// List scenarios: kind, match rule, which are forced now, and every entry of the
    /// overrides file (sequences, delays, faults) with its problems.
    Scenarios {
        /// Only this tool.
        #[arg(add = ArgValueCandidates::new(complete::tools))]
        tool: Option<String>,
    },
    /// Clear every entry of the overrides file: forced scenarios, sequences, delays, faults.
    Reset {
        /// With --run: delete the run's folder, its overrides file and journal with it.
        #[arg(long)]
        remove: bool,
    },
    /// Check every tool file and docs/SOURCE.md; print each problem with its place.
    Lint {
        /// Rewrite the table in docs/SOURCE.md from the tool files.
        #[arg(long)]
        write_source: bool,
        /// How problems are shown: `full` quotes the offending lines (the default on a
        /// terminal), `short` is one `path:line: scenario "name": message` line each (the
        /// default in a pipe), `json` is one array for machines.
        #[arg(long, value_enum)]
        format: Option<LintFormat>,
    },
    /// Run one tool call in process, exactly as the server would, and print the result.
    Call(CallArgs),
    /// Run the acceptance suite (SPEC §7 and the honesty check) against a real MCP connection.
    Verify(VerifyArgs),
    /// Compare a live MCP server (production) with the project: initialize, every tool, the
    /// widget resource; `--write` brings the tool files in line.
    #[command(after_long_help = DRIFT_EXAMPLES)]
    Drift(DriftArgs),
    /// Serve as `serve` does, answering each tool call by forwarding it to a live server and
    /// writing each new answer as a scenario.
    #[command(after_long_help = RECORD_EXAMPLES)]
    Record(RecordArgs),
    /// Show the call journal: what the agent actually called.
    Calls(CallsArgs),
    /// A browser page beside any running `serve`: live calls, scenarios, try a call, tools.
    Dashboard(DashboardArgs),
    /// Show or set the run's clock, which every process serving the run reads on its next call:
    /// order and ride lifecycles, slots and opening hours follow it.
    #[command(after_long_help = CLOCK_EXAMPLES)]
    Clock {
        #[command(subcommand)]
        change: Option<ClockChange>,
    },
    /// Show the run's world: the basket, the orders and rides with their status now, and the
    /// clock (what `serve --stateful` remembers).
    World {
        /// One JSON object for machines.
        #[arg(long)]
        json: bool,
    },
    /// Grade an agent's run by its end state: replay the expected actions on a fresh copy of
    /// the run's world and compare the two ends. Exit 0 when they agree, 1 when they differ, 2
    /// when grading could not run.
    #[command(after_long_help = GRADE_EXAMPLES)]
    Grade(GradeArgs),
    /// Write the tools as SPEC's format alone reads them: every computed scenario rendered for
    /// its sample arguments on the seed world, its times as `{{now±…}}` placeholders.
    #[command(after_long_help = EXPORT_HELP)]
    Export(ExportArgs),
    /// The task suite an agent is scored on (docs/TASKS.md): list the tasks, show one, make a
    /// run into a task's start, grade the run.
    #[command(after_long_help = TASKS_EXAMPLES)]
    Tasks(TasksArgs),
    /// Print a shell completion script.
    Completions { shell: clap_complete::Shell },
}

#[derive(Debug, Clone, Args)]
pub struct ExportArgs {
    /// The folder to write `tools/` into: a new or empty folder, outside the project. Serve it
    /// with any SPEC server, or `careem-mcp --project DIR serve`.
    #[arg(long, value_name = "DIR", required = true)]
    pub spec: PathBuf,
    /// Write into a folder that is not empty: its `tools/` is replaced whole, anything else in
    /// it is left as it is.
    #[arg(long)]
    pub force: bool,
}

const EXPORT_HELP: &str = "\
A reader of SPEC §2 alone refuses a file with a computed scenario (```jq response): it has no
response block. The export writes every tool file with SPEC's blocks only:

  - a template scenario (```json response / ```json error) as it is;
  - a computed one (```jq response / ```jq error) as the value it gives for its sample
    arguments (docs/FORMAT.md, \"Keeping scenarios honest\") on the seed world, at the clock's
    now (--clock, else `careem-mcp clock`, else the real time). Its times near now become
    placeholders ({{now+25m}}, {{now+1h@20m|hhmm}}, {{unixms}}), so that it answers with
    the time of each call, and the arguments it echoes become {{args.…}};
  - a ```jq when as a ```json match of the scenario's ```json sample (and its own match); a
    scenario with a ```jq when and no ```json sample is forced only, written after the others;
  - no ```jq update (the export has no state), no tools/world/.

Exit 0 when written, 2 when the tools have problems or the folder is refused.

Examples:
  careem-mcp export --spec ../careem-spec
      a folder that SPEC's reference server (or careem-mcp) serves
  careem-mcp clock set 2026-10-05T12:07:13Z && careem-mcp export --spec out --force
      rendered at a frozen clock off the slot boundaries, replacing out/tools";

#[derive(Debug, Clone, Args)]
pub struct GradeArgs {
    /// Files of expected actions (docs/GRADING.md), one verdict each.
    #[arg(required = true, value_name = "EXPECTED")]
    pub expected: Vec<PathBuf>,
    /// Grade every run whose name matches this pattern (`*` stands for any characters), e.g.
    /// 'task7-try*', and report the pass rate and pass^k.
    #[arg(long, value_name = "PATTERN")]
    pub runs: Option<String>,
    /// How verdicts are printed: `human`, `json` or `junit` (JUnit XML that CI systems read).
    #[arg(long, value_enum, default_value_t = GradeFormat::Human)]
    pub format: GradeFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GradeFormat {
    Human,
    Json,
    Junit,
}

const GRADE_EXAMPLES: &str = "\
Examples:
  careem-mcp grade --run task7 expected/task7.json
      did the agent of run task7 reach the state the expected actions reach?
  careem-mcp grade --runs 'task7-try*' expected/task7.json
      every try, the pass rate and pass^k
  careem-mcp grade --run task7 --format junit expected/task7.json > grade.xml
      a JUnit report for CI";

#[derive(Debug, Clone, Args)]
pub struct TasksArgs {
    /// The folder of task files, one `<id>.json` each [default: <project>/tasks].
    #[arg(long, global = true, value_name = "DIR", env = "CAREEM_MCP_TASKS_DIR", value_hint = clap::ValueHint::DirPath)]
    pub tasks_dir: Option<PathBuf>,
    /// `human`, or `json` for harnesses.
    #[arg(long, global = true, value_enum, default_value_t = TasksFormat::Human)]
    pub format: TasksFormat,
    #[command(subcommand)]
    pub command: TasksCommand,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TasksFormat {
    Human,
    Json,
}

#[derive(Debug, Clone, Subcommand)]
pub enum TasksCommand {
    /// Every task: its id, difficulty, tags and title.
    List,
    /// One task: the request, the start, and the expected file `grade` reads.
    Show {
        #[arg(value_name = "ID")]
        id: String,
    },
    /// Make a run (the task's id, or --run) into the task's start: forget what the run held,
    /// force its scenarios, seed its world at its clock; print the run's MCP path and the
    /// request.
    Start {
        #[arg(value_name = "ID")]
        id: String,
    },
    /// Grade a run (the task's id, or --run) against the task's expected actions and checks,
    /// as `grade` does. Exit 0 passed, 1 failed, 2 could not grade.
    Grade {
        #[arg(value_name = "ID")]
        id: String,
    },
}

const TASKS_EXAMPLES: &str = "\
Examples:
  careem-mcp tasks list
      every task, as a table
  careem-mcp tasks start food-nigiri-to-work --run nigiri-try1
      the run nigiri-try1 at the task's start; point the agent at /mcp/nigiri-try1
  careem-mcp tasks grade food-nigiri-to-work --run nigiri-try1
      did the agent reach the task's end state?
  careem-mcp tasks list --format json
      the tasks as JSON, for a harness";

/// How `careem-mcp clock` moves the run's clock.
#[derive(Debug, Clone, Subcommand)]
pub enum ClockChange {
    /// Freeze the clock at this instant (RFC 3339, e.g. 2026-10-05T12:00:00Z).
    Set {
        #[arg(value_name = "RFC3339", value_parser = parse_clock)]
        at: DateTime<Utc>,
    },
    /// Move the clock forward: a frozen clock by the duration, a running one ahead of the real
    /// time by it (units d, h, m, s: 90m, 1h30m, 2d).
    Advance {
        #[arg(value_name = "DURATION", allow_hyphen_values = true)]
        by: String,
    },
    /// Back to the real time.
    Real,
}

const CLOCK_EXAMPLES: &str = "\
Examples:
  careem-mcp clock set 2026-10-05T12:00:00Z
      freeze the run's time at noon UTC (4 pm in Dubai)
  careem-mcp clock advance 90m
      an order placed now is delivered; a ride booked now has arrived
  careem-mcp --run task7 clock advance 1h
      only run task7's clock moves
  careem-mcp clock real
      follow the real time again";

const SCENARIO_EXAMPLES: &str = "\
Examples:
  careem-mcp scenario ride_book payment-declined
      every ride_book answers payment-declined (SPEC §6)
  careem-mcp scenario ride_get_status searching driver-assigned arriving on-trip completed
      successive calls in each MCP session step through the ride; the last step repeats
  careem-mcp scenario ride_book payment-declined searching
      the first booking is declined, the retry succeeds
  careem-mcp scenario ride_book fault:http-503 searching
      the first booking fails with a 503, the retry succeeds
  careem-mcp scenario food_get_restaurant_menu --delay 2s
      normal answers, two seconds late
  careem-mcp scenario '*' --delay 200ms..1500ms
      every tool waits a random 0.2 to 1.5 s (the same draws under --seed)
  careem-mcp scenario '*' --fault http-502 --rate 0.2
      one call in five, on any tool, meets a 502 from the load balancer
  careem-mcp scenario ride_book
      ride_book back to normal selection
  careem-mcp reset
      every tool back to normal

Faults: http-502, http-503, http-504 (the load balancer's status and body), drop (the
connection closes; over stdio the process exits), hang (no answer until the client cancels),
session-expired (404 for the session; the client must initialize again), internal-error
(JSON-RPC -32603). The file's format: docs/CONTROLS.md.";

#[derive(Debug, Clone, Args)]
pub struct ScenarioArgs {
    /// The tool, e.g. ride_get_status, or '*' for the default of every tool (delay, fault and
    /// rate only).
    #[arg(add = ArgValueCandidates::new(complete::tools))]
    pub tool: String,
    /// The scenario to force, or several for a sequence (one per call, the last repeating). A
    /// step `fault:KIND` fails that call instead. Leave out, with no option, to clear the tool.
    #[arg(value_name = "STEP", add = ArgValueCandidates::new(complete::scenarios))]
    pub steps: Vec<String>,
    /// Wait this long before answering: `2s`, `800ms`, or a range drawn uniformly, `200ms..1500ms`.
    #[arg(long, value_name = "DURATION", value_parser = Delay::from_str)]
    pub delay: Option<Delay>,
    /// Fail every call (or one in `--rate`) this way instead of answering.
    #[arg(long, value_name = "KIND", value_parser = PossibleValuesParser::new(Fault::ALL.map(Fault::name)).try_map(|name| name.parse::<Fault>()))]
    pub fault: Option<Fault>,
    /// The probability, 0 to 1, that `--fault` fires on a call (the same draws under --seed).
    #[arg(long, value_name = "P", requires = "fault", value_parser = parse_rate)]
    pub rate: Option<f64>,
}

fn parse_rate(text: &str) -> Result<f64, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|rate| (0.0..=1.0).contains(rate))
        .ok_or_else(|| format!("expected a probability between 0 and 1, such as 0.2: {text:?}"))
}

#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// Speak MCP on stdin/stdout instead of HTTP (logs go to stderr).
    #[arg(long)]
    pub stdio: bool,
    /// The Go SDK release whose wire to speak: production's as last recorded (v1.6.1), v1.7.0,
    /// or v1.7.0 stateless (protocol 2026-07-28). `careem-mcp drift` says which one production
    /// speaks.
    #[arg(long, value_enum, env = "CAREEM_MCP_WIRE", default_value_t = WireProfile::default())]
    pub wire: WireProfile,
    /// Log every refused HTTP request on stderr: its method, path, status, the reason and the
    /// session it named.
    #[arg(short, long, env = "CAREEM_MCP_VERBOSE")]
    pub verbose: bool,
    /// The address to listen on. Anything but loopback exposes the server to the network.
    #[arg(long, env = "CAREEM_MCP_HOST", default_value = "127.0.0.1")]
    pub host: String,
    /// The port to listen on; 0 picks a free one.
    #[arg(long, env = "CAREEM_MCP_PORT", default_value_t = 8787)]
    pub port: u16,
    /// `serverInfo.name` in the initialize result.
    #[arg(
        long,
        env = "CAREEM_MCP_SERVER_NAME",
        default_value = "careem-mcp-service"
    )]
    pub server_name: String,
    /// `serverInfo.version` in the initialize result.
    #[arg(long, env = "CAREEM_MCP_SERVER_VERSION", default_value = "v1.0.0")]
    pub server_version: String,
    /// Where the widget bundle is loaded from.
    #[arg(
        long,
        env = "CAREEM_MCP_WIDGET_DOMAIN",
        default_value = "https://careem-mcp-app.pages.dev"
    )]
    pub widget_domain: String,
    /// Also accept this Host (e.g. a tunnel's, for ChatGPT); loopback names are always accepted.
    #[arg(
        long = "allowed-host",
        value_name = "HOST",
        env = "CAREEM_MCP_ALLOWED_HOSTS",
        value_delimiter = ','
    )]
    pub allowed_hosts: Vec<String>,
    /// Leave `outputSchema` out of the tool list.
    #[arg(long, env = "CAREEM_MCP_NO_OUTPUT_SCHEMA")]
    pub no_output_schema: bool,
    /// Leave `_meta` and the widget resource out.
    #[arg(long, env = "CAREEM_MCP_NO_META")]
    pub no_meta: bool,
    /// End HTTP sessions idle for this many seconds.
    #[arg(
        long,
        value_name = "SECONDS",
        env = "CAREEM_MCP_SESSION_IDLE",
        default_value = "1800",
        value_parser = seconds()
    )]
    pub session_idle: Duration,
    /// Keep at most this many HTTP sessions open, Streamable HTTP and SSE together; at the cap a
    /// new session ends the one idle longest, whose next request gets 404 `session not found`.
    #[arg(
        long,
        value_name = "N",
        env = "CAREEM_MCP_MAX_SESSIONS",
        default_value_t = DEFAULT_MAX_SESSIONS,
        value_parser = count()
    )]
    pub max_sessions: usize,
    /// Keep at most this many HTTP connections open; at the cap a new one displaces the one
    /// idle longest.
    #[arg(
        long,
        value_name = "N",
        env = "CAREEM_MCP_MAX_CONNECTIONS",
        default_value = "1024",
        value_parser = count()
    )]
    pub max_connections: usize,
    /// Close a connection that has sent no complete request headers for this many seconds
    /// (idle kept-alive connections included).
    #[arg(
        long,
        value_name = "SECONDS",
        env = "CAREEM_MCP_HEADER_TIMEOUT",
        default_value = "30",
        value_parser = seconds()
    )]
    pub header_timeout: Duration,
    /// Answer 408 to a request whose body is still incomplete after this many seconds.
    #[arg(
        long,
        value_name = "SECONDS",
        env = "CAREEM_MCP_BODY_TIMEOUT",
        default_value = "30",
        value_parser = seconds()
    )]
    pub body_timeout: Duration,
    /// Serve at most this many runs (/mcp/<run>, /sse/<run>): run folders and runs in use that
    /// made a call together. A new run past it gets 404 until one is removed (`reset --run NAME
    /// --remove`) or the sessions of a run without a folder end
    #[arg(
        long,
        value_name = "N",
        env = "CAREEM_MCP_MAX_RUNS",
        default_value_t = DEFAULT_MAX_RUNS,
        value_parser = count()
    )]
    pub max_runs: usize,
    /// Keep no journal.
    #[arg(long)]
    pub no_journal: bool,
    /// Serve the admin API (docs/ADMIN.md: every run's scenarios, reset, clock, world, calls and
    /// grade over HTTP) on this address of its own, `HOST:PORT` or a port; never on the MCP
    /// port. Anywhere but loopback it needs a token (--admin-token-file or
    /// CAREEM_MCP_ADMIN_TOKEN).
    #[arg(long, value_name = "ADDR", env = "CAREEM_MCP_ADMIN", value_parser = ListenAddr::from_str)]
    pub admin: Option<ListenAddr>,
}

/// The most a count option takes: far more sessions, connections, streams or runs than a
/// machine serves, and far fewer than the runtime's own limits (a semaphore holds
/// `usize::MAX >> 3` permits).
pub const MAX_COUNT: u64 = 1_000_000;

/// The most seconds a duration option takes: a year, well inside what the runtime's clock and
/// timers add to the present without overflowing.
pub const MAX_SECONDS: u64 = 365 * 24 * 60 * 60;

/// A count from 1 to [`MAX_COUNT`]; anything else is refused with exit 2.
fn count() -> impl TypedValueParser<Value = usize> {
    clap::builder::NonEmptyStringValueParser::new().try_map(|text| {
        bounded(&text, MAX_COUNT, "a count").map(|n| usize::try_from(n).unwrap_or(usize::MAX))
    })
}

/// A whole number of seconds from 1 to [`MAX_SECONDS`], as a bare number (`30`) or a duration
/// in the one grammar (`90s`, `2m`, `1d`: [`duration`]); anything else is refused with exit 2.
fn seconds() -> impl TypedValueParser<Value = Duration> {
    clap::builder::NonEmptyStringValueParser::new().try_map(|text| {
        let seconds = if text.trim().bytes().all(|b| b.is_ascii_digit()) {
            text.trim().parse::<u64>().ok()
        } else {
            let ms = duration::parse_in(&text, Unit::Second, "this option")
                .map_err(|error| error.to_string())?;
            u64::try_from(ms / 1_000).ok()
        };
        seconds
            .filter(|n| (1..=MAX_SECONDS).contains(n))
            .map(Duration::from_secs)
            .ok_or_else(|| {
                format!("expected a number of seconds (at most a year) from 1 to {MAX_SECONDS}")
            })
    })
}

/// A whole number from 1 to `max`, or why not.
fn bounded(text: &str, max: u64, what: &str) -> Result<u64, String> {
    text.trim()
        .parse::<u64>()
        .ok()
        .filter(|n| (1..=max).contains(n))
        .ok_or_else(|| format!("expected {what} from 1 to {max}"))
}

#[derive(Debug, Clone, Args)]
pub struct CallArgs {
    /// The tool to call.
    #[arg(add = ArgValueCandidates::new(complete::tools))]
    pub tool: String,
    /// The arguments as a JSON object, e.g. '{"restaurant_id": 30104, "latitude": 25.0866, "longitude": 55.1474}'.
    #[arg(value_name = "ARGS_JSON")]
    pub arguments: Option<String>,
    /// Force this scenario for this call only.
    #[arg(long, add = ArgValueCandidates::new(complete::scenarios))]
    pub scenario: Option<String>,
    /// Print compact JSON even on a terminal.
    #[arg(long)]
    pub compact: bool,
    /// Keep no journal.
    #[arg(long)]
    pub no_journal: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LintFormat {
    Full,
    Short,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TransportChoice {
    Http,
    Sse,
    Stdio,
    All,
}

#[derive(Debug, Clone, Args)]
pub struct VerifyArgs {
    /// Which transport to run the suite over.
    #[arg(long, value_enum, default_value = "http")]
    pub transport: TransportChoice,
    /// Check a server that is already running (its /mcp URL) instead of starting one. Tests 9
    /// and 11 force scenarios, so they run only when `--overrides` names that server's file.
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
    /// Print the results as JSON.
    #[arg(long)]
    pub json: bool,
}

const DRIFT_EXAMPLES: &str = "\
Examples:
  CAREEM_MCP_HEADER=\"Authorization: Bearer $TOKEN\" careem-mcp drift --url $PROD
      every difference, grouped by tool; exit 1 when there is one
  careem-mcp drift --url $PROD_SSE --transport sse --format json
      the same over legacy SSE, as data
  careem-mcp drift --url $PROD --header-file ~/.careem-headers --write
      rewrite changed definitions, create files for new tools, list tools production dropped

Reading stops at --max-pages pages of a list or --max-bytes in all, and no SSE event or JSON
answer may pass --max-event-size; the error says which bound was hit.

Exit codes: 0 nothing differs, 1 something differs, 2 the server could not be read.";

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum UpstreamTransport {
    /// Streamable HTTP; the URL ends in /mcp.
    Http,
    /// Legacy HTTP+SSE; the URL is the event stream's, ending in /sse.
    Sse,
}

const RECORD_EXAMPLES: &str = "\
Examples:
  CAREEM_MCP_HEADER=\"Authorization: Bearer $TOKEN\" careem-mcp record --upstream $PROD --stdio
      an MCP client talks to production through careem-mcp; each new answer becomes a scenario
  careem-mcp record --upstream $PROD --into recorded/ --template-times --redact phone,email
      scenarios go to copies of the tool files under recorded/, times near now become
      {{now±…}} placeholders, phone numbers and e-mail addresses are masked

The journal marks each forwarded call: `recorded` is new, known (the same match was recorded
before) or skipped. Headers are sent upstream only: never written to a file, the log or the
journal.";

#[derive(Debug, Clone, Args)]
pub struct RecordArgs {
    /// The live server that answers: its Streamable HTTP URL, or its SSE URL with
    /// `--upstream-transport sse`.
    #[arg(long, value_name = "URL")]
    pub upstream: String,
    #[command(flatten)]
    pub reach: ReachArgs,
    /// How to reach the upstream.
    #[arg(long, value_enum, default_value = "http")]
    pub upstream_transport: UpstreamTransport,
    /// Write scenarios into copies of the tool files under this folder, kept apart for
    /// review, instead of into the project's tool files.
    #[arg(long, value_name = "DIR")]
    pub into: Option<PathBuf>,
    /// Turn RFC 3339 times within two days of now into `{{now±…}}` placeholders.
    #[arg(long)]
    pub template_times: bool,
    /// Mask the values of these fields (any case) in recorded answers: phone numbers, e-mail
    /// addresses, tokens, names.
    #[arg(long, value_name = "FIELD,…", value_delimiter = ',')]
    pub redact: Vec<String>,
    #[command(flatten)]
    pub serve: ServeArgs,
}

/// `--wire`'s values are the profiles' names; the profile itself is the server's type.
impl ValueEnum for WireProfile {
    fn value_variants<'a>() -> &'a [Self] {
        &Self::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.name()))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DriftFormat {
    /// Grouped by tool, each place with both values.
    Text,
    /// One JSON document with the same content.
    Json,
}

#[derive(Debug, Clone, Args)]
pub struct DriftArgs {
    /// The live server to compare with: its Streamable HTTP URL, or its SSE URL with
    /// `--transport sse`.
    #[arg(long, value_name = "URL")]
    pub url: String,
    #[command(flatten)]
    pub reach: ReachArgs,
    /// How to reach the server.
    #[arg(long, value_enum, default_value = "http")]
    pub transport: UpstreamTransport,
    /// How differences are shown.
    #[arg(long, value_enum, default_value = "text")]
    pub format: DriftFormat,
    /// Rewrite the `## Definition` of every changed tool, create a file for every tool new in
    /// production; tools production no longer has are listed, never deleted.
    #[arg(long)]
    pub write: bool,
    /// Stop reading production after this many pages of one list.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_PAGES, value_parser = count())]
    pub max_pages: usize,
    /// Stop reading production once everything listed and read passes this size as JSON
    /// (bytes, or with KiB, MiB, GiB).
    #[arg(long, value_name = "SIZE", default_value = "64MiB", value_parser = parse_size_usize)]
    pub max_bytes: usize,
}

/// How `drift` and `record` reach a server someone else runs.
#[derive(Debug, Clone, Args)]
pub struct ReachArgs {
    /// A header every request carries, `'Name: value'` (repeatable), e.g. production's
    /// `Authorization`. Its value is never printed. The variable holds one a line and is read
    /// when no --header is given; it and --header-file keep a token off the command line, which
    /// other users can read.
    #[arg(
        long = "header",
        value_name = "NAME: VALUE",
        env = "CAREEM_MCP_HEADER",
        hide_env_values = true,
        value_parser = HeaderLines
    )]
    pub headers: Vec<Headers>,
    /// Read more headers from this file, `Name: value` one a line (blank lines and lines
    /// starting with `#` are skipped).
    #[arg(long, value_name = "PATH")]
    pub header_file: Option<PathBuf>,
    /// How long connecting, and each request after it (for `record`, each forwarded call), may
    /// take.
    #[arg(long, value_name = "SECONDS", default_value = "20", value_parser = seconds())]
    pub timeout: Duration,
    /// The largest SSE event or JSON answer read from the server (bytes, or with KiB, MiB,
    /// GiB); a larger one ends the stream or fails the request instead of filling memory.
    #[arg(long, value_name = "SIZE", default_value = "8MiB", value_parser = parse_size_usize)]
    pub max_event_size: usize,
}

fn parse_size_usize(text: &str) -> Result<usize, String> {
    parse_size(text).map(|size| usize::try_from(size).unwrap_or(usize::MAX))
}

/// The headers of one `--header` (or of `CAREEM_MCP_HEADER`, one a line).
#[derive(Debug, Clone)]
pub struct Headers(pub Vec<(HeaderName, HeaderValue)>);

/// Parses `--header`'s value without ever showing it: clap's own errors quote the value
/// whole, and a mistyped `Authorization Bearer …` would print the token.
#[derive(Debug, Clone, Copy)]
struct HeaderLines;

impl TypedValueParser for HeaderLines {
    type Value = Headers;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Headers, clap::Error> {
        let refuse = |why: &str| {
            let name = arg.map_or_else(|| "--header".to_string(), ToString::to_string);
            clap::Error::raw(
                clap::error::ErrorKind::ValueValidation,
                format!("invalid value for '{name}' (not shown: it may hold a secret): {why}\n"),
            )
            .with_cmd(cmd)
        };
        let text = value.to_str().ok_or_else(|| refuse("it is not UTF-8"))?;
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        if lines.is_empty() {
            return Err(refuse("it is empty"));
        }
        lines
            .into_iter()
            .map(parse_header)
            .collect::<Result<Vec<_>, _>>()
            .map(Headers)
            .map_err(|why| refuse(&why))
    }
}

/// `Name: value`, split at the first colon; the value is marked sensitive. The error quotes
/// neither part, since either may be a token typed in the wrong place.
pub fn parse_header(text: &str) -> Result<(HeaderName, HeaderValue), String> {
    let (name, value) = text
        .split_once(':')
        .ok_or_else(|| "expected 'Name: value', e.g. 'Authorization: Bearer …'".to_string())?;
    let name = HeaderName::from_bytes(name.trim().as_bytes())
        .map_err(|_| "the text before the first ':' is not a header name".to_string())?;
    let mut value = HeaderValue::from_str(value.trim())
        .map_err(|_| format!("the value of {name} is not a valid header value"))?;
    value.set_sensitive(true);
    Ok((name, value))
}

#[derive(Debug, Clone, Args)]
pub struct DashboardArgs {
    /// The address to listen on. Anything but loopback lets others steer your scenarios.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// The port to listen on; 0 picks a free one.
    #[arg(long, default_value_t = 8788)]
    pub port: u16,
    /// Open the dashboard in the default browser.
    #[arg(long)]
    pub open: bool,
    /// Also accept this Host, as `serve --allowed-host`; loopback names are always accepted.
    #[arg(long = "allowed-host", value_name = "HOST", value_delimiter = ',')]
    pub allowed_hosts: Vec<String>,
    /// Keep at most this many connections open, as `serve --max-connections`.
    #[arg(long, value_name = "N", default_value = "1024", value_parser = count())]
    pub max_connections: usize,
    /// Close a connection that has sent no complete request headers for this many seconds.
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = seconds())]
    pub header_timeout: Duration,
    /// Answer 408 to a request whose body is still incomplete after this many seconds.
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = seconds())]
    pub body_timeout: Duration,
    /// Keep at most this many live views (browser tabs following the calls) open; one more is
    /// refused with 503.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_STREAMS, value_parser = count())]
    pub max_streams: usize,
    /// A folder of expected files (docs/GRADING.md), one per run: `NAME.json` for the run
    /// NAME, `default.json` for the default run. The Live calls view then shows the run's
    /// verdict, graded again as its calls come.
    #[arg(long, value_name = "DIR", value_hint = clap::ValueHint::DirPath)]
    pub expected: Option<PathBuf>,
}

#[derive(Debug, Clone, Args)]
pub struct CallsArgs {
    /// Only calls of this tool.
    #[arg(long, add = ArgValueCandidates::new(complete::tools))]
    pub tool: Option<String>,
    /// Only calls of this session.
    #[arg(long)]
    pub session: Option<String>,
    /// Only the last N calls.
    #[arg(long, value_name = "N")]
    pub last: Option<usize>,
    /// Print the entries as JSON (an array).
    #[arg(long)]
    pub json: bool,
    /// Keep printing new calls as they come.
    #[arg(long, conflicts_with = "json")]
    pub follow: bool,
    /// Empty the journal.
    #[arg(long, conflicts_with_all = ["json", "follow", "tool", "session", "last"])]
    pub clear: bool,
    /// Every run's journal (the default run's too), with a run column.
    #[arg(long, conflicts_with_all = ["follow", "clear"])]
    pub all_runs: bool,
}
