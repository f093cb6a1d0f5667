//! `careem-mcp drift` against a second careem-mcp that plays production: a copy of the tools
//! with one change of each kind planted in it, served over Streamable HTTP and legacy SSE.

use std::net::TcpListener;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use snapbox::{Assert, Data, Redactions};

use crate::support::{
    OK, Process, Project, Run, Upstream, files_under, repo, serve_binary, tool_file,
};

const GEOCODE: &str = "tools/location/reverse_geocode.md";
const SEARCH: &str = "tools/food/food_merchant_search.md";
const BOOK: &str = "tools/rides/ride_book.md";
const CLEAR: &str = "tools/cart/cart_clear.md";
const TOKEN: &str = "Authorization: Bearer tok-7f3a9c";

fn edit(project: &Project, path: &str, from: &str, to: &str) {
    let text = project.read(path);
    assert!(text.contains(from), "{path} has no {from:?}");
    project.write(path, &text.replacen(from, to, 1));
}

/// Production: the repository's tools with a reworded description, an added property, a tool
/// gone, a tool added and a changed `_meta`, served on a free port. Returns its `/mcp` URL.
fn production() -> (Project, Process, String) {
    let production = Project::copy_of_repo();
    edit(
        &production,
        GEOCODE,
        "\"description\": \"Look up the Careem location",
        "\"description\": \"Find the Careem location",
    );
    edit(
        &production,
        SEARCH,
        "\"properties\": {",
        "\"properties\": {\n      \"cuisine\": {\"type\": \"string\", \"description\": \"Only this cuisine.\"},",
    );
    edit(
        &production,
        BOOK,
        "\"openai/toolInvocation/invoking\": \"Booking your ride\"",
        "\"openai/toolInvocation/invoking\": \"Booking your Careem ride\"",
    );
    std::fs::remove_file(production.path().join(CLEAR)).expect("removes");
    production.write(
        "tools/rides/ride_rate_trip.md",
        &tool_file("ride_rate_trip", OK),
    );
    let (process, url, _stderr) = serve_binary(&production, &["--no-journal"]);
    (production, process, url)
}

fn sse_url(url: &str) -> String {
    url.strip_suffix("/mcp").expect("an /mcp URL").to_string() + "/sse"
}

/// Each difference of `drift --format json` as (subject, name, presence, paths).
fn found(run: &Run) -> Vec<(String, String, String, Vec<String>)> {
    let document = run.json();
    let text = |value: &Value, key: &str| value[key].as_str().unwrap_or_default().to_string();
    document["differences"]
        .as_array()
        .expect("a list of differences")
        .iter()
        .map(|d| {
            let paths = d["changes"]
                .as_array()
                .expect("changes")
                .iter()
                .map(|c| text(c, "path"))
                .collect();
            (
                text(d, "subject"),
                text(d, "name"),
                text(d, "presence"),
                paths,
            )
        })
        .collect()
}

fn planted() -> Vec<(String, String, String, Vec<String>)> {
    let row = |name: &str, presence: &str, paths: &[&str]| {
        (
            "tool".to_string(),
            name.to_string(),
            presence.to_string(),
            paths.iter().map(ToString::to_string).collect(),
        )
    };
    vec![
        row("cart_clear", "only_in_project", &[]),
        row(
            "food_merchant_search",
            "changed",
            &["/inputSchema/properties/cuisine"],
        ),
        row("reverse_geocode", "changed", &["/description"]),
        row(
            "ride_book",
            "changed",
            &["/_meta/openai~1toolInvocation~1invoking"],
        ),
        row("ride_rate_trip", "only_in_production", &[]),
    ]
}

#[test]
fn drift_finds_exactly_the_planted_differences_over_http_and_sse() {
    let (_production, _server, url) = production();
    let project = Project::copy_of_repo();
    let sse = sse_url(&url);
    for (transport, url) in [("http", url.as_str()), ("sse", sse.as_str())] {
        let run = project.run(&[
            "drift",
            "--url",
            url,
            "--transport",
            transport,
            "--header",
            TOKEN,
            "--format",
            "json",
        ]);
        assert_eq!(run.code, 1, "{transport}: {}{}", run.stdout, run.stderr);
        assert_eq!(found(&run), planted(), "{transport}: {}", run.stdout);
        let changes = &run.json()["differences"][3]["changes"][0];
        assert_eq!(changes["project"], "Booking your ride", "{transport}");
        assert_eq!(
            changes["production"], "Booking your Careem ride",
            "{transport}"
        );
        assert!(
            !run.stdout.contains("tok-7f3a9c") && !run.stderr.contains("tok-7f3a9c"),
            "{transport}: the token was shown"
        );
    }
}

#[test]
fn drift_names_a_changed_identity_and_widget() {
    let twin = Project::copy_of_repo();
    let args = [
        "--no-journal",
        "--server-version",
        "v1.1.0",
        "--widget-domain",
        "https://careem-widgets.pages.dev",
    ];
    let (_server, url, _) = serve_binary(&twin, &args);
    let run = Project::copy_of_repo().run(&["drift", "--url", &url, "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let subjects: Vec<(String, String, String)> = found(&run)
        .into_iter()
        .map(|(subject, name, _, paths)| (subject, name, paths[0].clone()))
        .collect();
    let want = [
        ("initialize", "initialize", "/serverInfo/version"),
        (
            "resource",
            "ui://careem-mcp-app",
            "/listed/_meta/openai~1widgetCSP/connect_domains/0",
        ),
    ]
    .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()));
    assert_eq!(subjects, want, "{}", run.stdout);
}

/// The text outside a file's ```json tool block: what `--write` must keep byte for byte.
fn outside_definition(text: &str) -> (String, String) {
    let start = text.find("```json tool\n").expect("a definition") + "```json tool\n".len();
    let end = start + text[start..].find("\n```\n").expect("its end");
    (text[..start].to_string(), text[end..].to_string())
}

#[test]
fn write_brings_the_files_in_line_and_lint_passes() {
    let (_production, _server, url) = production();
    let project = Project::copy_of_repo();
    let before: Vec<String> = [GEOCODE, SEARCH, BOOK]
        .iter()
        .map(|path| project.read(path))
        .collect();

    let written = project.run(&["drift", "--url", &url, "--write"]);
    assert_eq!(written.code, 1, "{}{}", written.stdout, written.stderr);
    for (path, before) in [GEOCODE, SEARCH, BOOK].iter().zip(&before) {
        let after = project.read(path);
        assert_ne!(&after, before, "{path} was not rewritten");
        assert_eq!(
            outside_definition(&after),
            outside_definition(before),
            "{path}: more than the definition changed"
        );
    }
    assert!(project.read(CLEAR).contains("tool: cart_clear"), "kept");
    assert!(
        written
            .stderr
            .contains("production no longer lists cart_clear"),
        "{}",
        written.stderr
    );
    let created = project.read("tools/rides/ride_rate_trip.md");
    assert!(
        created.contains("```json error\n{\"error\":\"internal server error\"}\n```"),
        "{created}"
    );

    let lint = project.run(&["lint"]);
    assert_eq!(lint.code, 0, "{}{}", lint.stdout, lint.stderr);
    let again = project.run(&["drift", "--url", &url, "--format", "json"]);
    let kept = vec![(
        "tool".to_string(),
        "cart_clear".to_string(),
        "only_in_project".to_string(),
        Vec::new(),
    )];
    assert_eq!(found(&again), kept, "{}", again.stdout);

    std::fs::remove_file(project.path().join(CLEAR)).expect("removes");
    assert_eq!(project.run(&["lint", "--write-source"]).code, 0);
    let none = project.run(&["drift", "--url", &url]);
    assert_eq!(none.code, 0, "{}{}", none.stdout, none.stderr);
}

#[test]
fn the_terminal_report_is_grouped_by_tool_with_both_values() {
    let (_production, _server, url) = production();
    let project = Project::copy_of_repo();
    let run = project.run(&["drift", "--url", &url, "--header", TOKEN]);
    let transcript = format!(
        "$ careem-mcp drift --url [URL] --header '{TOKEN}'\n? {}\n--- stdout\n{}--- stderr\n{}",
        run.code, run.stdout, run.stderr
    );
    let expected = repo().join("tests/integration/transcripts/drift-report.txt");
    let mut redactions = Redactions::new();
    redactions
        .insert("[PROJECT]", project.path().to_path_buf())
        .expect("a redaction");
    Assert::new()
        .action_env("SNAPSHOTS")
        .redact_with(redactions)
        .eq(transcript, Data::read_from(Path::new(&expected), None));
}

#[test]
fn a_server_that_is_down_slow_or_not_mcp_is_an_error_naming_url_and_step() {
    let (_production, _server, url) = production();
    let down = {
        let listener = TcpListener::bind("127.0.0.1:0").expect("binds");
        format!("http://{}/mcp", listener.local_addr().expect("an address"))
    };
    // Accepts connections and never answers.
    let silent = TcpListener::bind("127.0.0.1:0").expect("binds");
    let slow = format!("http://{}/mcp", silent.local_addr().expect("an address"));
    let health = url.replace("/mcp", "/health");
    let cases: [(&str, &str, &str); 5] = [
        (&down, "http", "initialize failed: Client error"),
        (&slow, "http", "initialize: no answer within 1s"),
        (&slow, "sse", "sent no `endpoint` event within 1s"),
        (
            &health,
            "http",
            "initialize failed: unexpected server response: HTTP 405",
        ),
        (
            &health,
            "sse",
            "ended its event stream before sending an `endpoint` event",
        ),
    ];
    let project = Project::copy_of_repo();
    for (url, transport, step) in cases {
        let run = project.run(&[
            "drift",
            "--url",
            url,
            "--transport",
            transport,
            "--timeout",
            "1",
        ]);
        assert_eq!(
            run.code, 2,
            "{url} {transport}: {}{}",
            run.stdout, run.stderr
        );
        assert!(
            run.stderr.starts_with(&format!("error: {url}: ")) && run.stderr.contains(step),
            "{url} {transport}: {}",
            run.stderr
        );
        assert!(run.stdout.is_empty(), "{}", run.stdout);
    }
    drop(silent);
}

/// Production of each release (a careem-mcp served with that profile) is named on drift's first
/// line and under `--format json`, and the project, served with the same profile, shows no
/// difference: the release's own rewriting of the definitions is not drift.
#[test]
fn drift_names_the_wire_profile_production_speaks() {
    let project = Project::copy_of_repo();
    for profile in ["go-sdk-1.6.1", "go-sdk-1.7.0", "go-sdk-1.7.0-stateless"] {
        let production = Project::copy_of_repo();
        let (_server, url, _stderr) =
            serve_binary(&production, &["--no-journal", "--wire", profile]);
        let run = project.run(&["drift", "--url", &url]);
        assert_eq!(run.code, 0, "{profile}: {}{}", run.stdout, run.stderr);
        let first = run.stdout.lines().next().unwrap_or_default();
        assert!(
            first.starts_with(&format!("wire: {profile} (")),
            "{profile}: {first}"
        );
        let run = project.run(&["drift", "--url", &url, "--format", "json"]);
        assert_eq!(run.json()["wire"]["profile"], profile, "{}", run.stdout);
    }
}

#[test]
fn write_refuses_names_it_cannot_give_a_file_and_writes_nothing() {
    let long = "x".repeat(303);
    let listed = ["ride_rate_trip".to_string(), "README".to_string(), long];
    let production = Upstream::mcp(move |method, _| {
        let tools: Vec<Value> = listed
            .iter()
            .map(|name| json!({"name": name, "inputSchema": {"type": "object"}}))
            .collect();
        if method == "tools/list" {
            json!({ "tools": tools })
        } else {
            json!({})
        }
    });
    let project = Project::copy_of_repo();
    let before: Vec<(PathBuf, String)> = files_under(project.path())
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            (path, text)
        })
        .collect();
    let run = project.run(&["drift", "--url", &production.url("/mcp"), "--write"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    for words in [
        "nothing was written",
        "\"README\": its file would be README.md, which the loader skips",
        "… (303 characters): longer than 128 characters",
    ] {
        assert!(run.stderr.contains(words), "{words}: {}", run.stderr);
    }
    let after: Vec<(PathBuf, String)> = files_under(project.path())
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            (path, text)
        })
        .collect();
    assert!(after == before, "files were written");
}
