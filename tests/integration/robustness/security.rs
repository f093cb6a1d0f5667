//! The security rules: loopback by default, no file outside the tools folder served because
//! of a client, and no path or parser detail in any error text a client sees.

#[cfg(unix)]
use std::time::Duration;

use careem_mcp::server::ServerOptions;
use rmcp::model::ErrorCode;
use rmcp::service::ServiceError;
use serde_json::json;

use super::INTERNAL_ERROR;
use crate::support::{ACCEPT, Fixture, Raw, assert_marina, call, marina, tool_file};
#[cfg(unix)]
use crate::support::{Project, kill_term, serve_binary};

#[tokio::test]
async fn the_server_binds_loopback_by_default() {
    assert_eq!(ServerOptions::default().host, "127.0.0.1");
    let fixture = Fixture::start().await;
    assert!(
        fixture.server.addr.ip().is_loopback(),
        "{}",
        fixture.server.addr
    );
}

#[cfg(unix)]
#[test]
fn serve_binds_loopback_by_default_and_warns_when_told_otherwise() {
    let project = Project::copy_of_repo();
    // (extra arguments, host in the URL, warned)
    let cases: [(&[&str], &str, bool); 3] = [
        (&[], "127.0.0.1", false),
        (&["--host", "localhost"], "127.0.0.1", false),
        (&["--host", "0.0.0.0"], "0.0.0.0", true),
    ];
    for (args, host, warned) in cases {
        let (mut process, url, mut stderr) = serve_binary(&project, args);
        assert!(
            url.starts_with(&format!("http://{host}:")),
            "{args:?}: {url}"
        );
        kill_term(&process);
        assert!(process.wait_for_exit(Duration::from_secs(10)).is_some());
        let stderr = stderr.lines();
        let warning = stderr.iter().any(|line| {
            line.contains("WARN")
                && line.contains("anyone who can reach this address can use the server")
        });
        assert_eq!(warning, warned, "{args:?}: {stderr:?}");
    }
}

#[tokio::test]
async fn no_file_outside_the_tools_folder_is_read_because_of_a_client() {
    let fixture = Fixture::start().await;
    // A valid tool file outside the tools folder: nothing a client sends can make it served.
    fixture.project.write(
        "outside.md",
        &tool_file(
            "outside",
            "## Scenario: ok\n\n```json response\n{\"v\": \"leaked\"}\n```\n",
        ),
    );
    let tools = fixture.project.path().join("tools");
    let absolute = fixture
        .project
        .path()
        .join("outside.md")
        .display()
        .to_string();
    let client = fixture.client().await;
    let names = [
        "outside",
        "../outside",
        "../outside.md",
        absolute.as_str(),
        "location/reverse_geocode",
        "location/reverse_geocode.md",
        "tools/location/reverse_geocode.md",
        "./reverse_geocode",
        "reverse_geocode/../../outside",
        "README",
        "/etc/passwd",
        "reverse_geocode\0",
        "REVERSE_GEOCODE",
    ];
    for name in names {
        match call(&client, name, json!({})).await {
            Err(ServiceError::McpError(error)) => {
                assert_eq!(error.code, ErrorCode::INVALID_PARAMS, "{name:?}");
                let quoted = careem_mcp::go::fmt::quote(name);
                assert_eq!(error.message, format!("unknown tool {quoted}"), "{name:?}");
            }
            other => panic!("{name:?}: expected unknown tool, got {other:?}"),
        }
    }
    // Argument values are data, never paths.
    let result = call(
        &client,
        "search_locations",
        json!({"query": "../../outside.md"}),
    )
    .await
    .expect("a result");
    assert!(!result.to_string().contains("leaked"));
    // Resources: the widget and nothing else.
    let read = client
        .read_resource(rmcp::model::ReadResourceRequestParams::new(format!(
            "file://{}",
            tools.join("location/reverse_geocode.md").display()
        )))
        .await;
    match read {
        Err(ServiceError::McpError(error)) => assert_eq!(error.code, ErrorCode::RESOURCE_NOT_FOUND),
        other => panic!("expected resource not found, got {other:?}"),
    }
    client.cancel().await.expect("closes");
}

#[tokio::test]
async fn error_texts_to_clients_carry_no_paths_or_parse_details() {
    let fixture = Fixture::start().await;
    let client = fixture.client().await;
    let relative = "tools/location/reverse_geocode.md";
    let original = fixture.project.read(relative);
    let root = fixture.project.path().display().to_string();
    // Each break would make a detailed diagnostic (file, line, serde's message) in the log.
    let broken = [
        original.replacen(
            "{\"latitude\": 25.0866, \"longitude\": 55.1474}",
            "{\"latitude\": , \"longitude\": 55.1474}",
            1,
        ),
        original.replacen("{{", "{{ tomorrow ", 1) + "\n{{ unknown }}\n",
        "---\ntool: reverse_geocode\n---\n## Definition\n".to_string(),
    ];
    for text in broken {
        fixture.project.write(relative, &text);
        let result = call(&client, "reverse_geocode", marina())
            .await
            .expect("a result");
        let wire = result.to_string();
        assert_eq!(result["content"][0]["text"], INTERNAL_ERROR, "{wire}");
        for secret in [
            root.as_str(),
            "tools/",
            ".md",
            "line",
            "column",
            "expected",
            "panicked",
        ] {
            assert!(!wire.contains(secret), "{secret:?} in {wire}");
        }
    }
    fixture.project.write(relative, &original);
    assert_marina(&client).await;
    client.cancel().await.expect("closes");

    // A body the server cannot read gets the Go SDK's words, nothing of this server's parser.
    let (raw, _) = Raw::initialize(fixture.url("/mcp"), "2025-06-18").await;
    for body in [
        &b"{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": }"[..],
        b"[1, 2",
        b"\"x\"",
    ] {
        let (_, text) = raw
            .post(
                Some(&raw.session),
                "application/json",
                ACCEPT,
                body.to_vec(),
            )
            .await;
        assert!(text.starts_with("malformed payload: "), "{text}");
        for word in ["line", "column", "serde", "expected value", "EOF while"] {
            assert!(!text.contains(word), "{word:?} in {text}");
        }
    }
}
