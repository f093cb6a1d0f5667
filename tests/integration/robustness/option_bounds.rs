//! Every duration and count option of `serve` and `dashboard` is held to what the runtime can
//! hold: out of range is refused at once with exit 2 and the range, and the largest value
//! accepted serves normally (a header timeout past the clock's range once made every
//! connection panic).

use super::run_bounded;
use crate::support::{Project, assert_marina, http, http_client, serve_binary, start_announced};

const YEAR: &str = "31536000";
const MILLION: &str = "1000000";

#[test]
fn out_of_range_durations_and_counts_are_refused_with_exit_2() {
    let project = Project::copy_of_repo();
    let serve = ["--session-idle", "--header-timeout", "--body-timeout"];
    let dashboard = ["--header-timeout", "--body-timeout"];
    let counts_serve = ["--max-sessions", "--max-connections"];
    let counts_dashboard = ["--max-connections", "--max-streams"];
    let too_many_seconds = ["0", "9223372036854775807", "31536001"];
    let too_many = ["0", "18446744073709551616", "1000001"];
    let mut cases: Vec<(&str, &str, &str, &str)> = Vec::new();
    for (command, options, values, range) in [
        ("serve", &serve[..], &too_many_seconds[..], YEAR),
        ("dashboard", &dashboard[..], &too_many_seconds[..], YEAR),
        ("serve", &counts_serve[..], &too_many[..], MILLION),
        ("dashboard", &counts_dashboard[..], &too_many[..], MILLION),
    ] {
        for option in options {
            for value in values {
                cases.push((command, option, value, range));
            }
        }
    }
    for (command, option, value, range) in cases {
        let run = run_bounded(&project, &[command, "--port", "0", option, value]);
        assert_eq!(run.code, 2, "{command} {option} {value}: {}", run.stderr);
        assert!(
            run.stderr
                .contains(&format!("invalid value '{value}' for '{option} "))
                && run.stderr.contains(&format!("from 1 to {range}")),
            "{command} {option} {value}: {}",
            run.stderr
        );
    }
}

#[tokio::test]
async fn the_largest_values_accepted_serve_normally() {
    let project = Project::copy_of_repo();
    let (_server, url, _stderr) = serve_binary(
        &project,
        &[
            "--no-journal",
            "--session-idle",
            YEAR,
            "--header-timeout",
            YEAR,
            "--body-timeout",
            YEAR,
            "--max-sessions",
            MILLION,
            "--max-connections",
            MILLION,
        ],
    );
    let client = http_client(&url).await;
    assert_marina(&client).await;

    let mut command = project.command();
    command.args([
        "dashboard",
        "--port",
        "0",
        "--header-timeout",
        YEAR,
        "--body-timeout",
        YEAR,
        "--max-connections",
        MILLION,
        "--max-streams",
        MILLION,
    ]);
    let (_dashboard, page, _stderr) = start_announced(command, "careem-mcp: dashboard at ");
    let page = page.split_whitespace().next().expect("the URL").to_string();
    let answer = http().get(&page).send().await.expect("the page answers");
    assert_eq!(answer.status(), 200);
}
