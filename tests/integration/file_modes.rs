//! Every file the binary replaces whole (the run's world, its clock, its overrides, a tool file
//! a recording adds to) gets the mode a plain create gives under the process's umask, as any
//! other file it makes: not the `0600` of the temporary file it was written as.

use std::fs::File;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};

use rmcp::ServiceExt;
use rmcp::transport::TokioChildProcess;
use serde_json::json;

use crate::record::upstream;
use crate::support::{Project, Run, call};

/// The umasks tried, and the mode each gives a new file.
const UMASKS: [(u32, u32); 2] = [(0o022, 0o644), (0o027, 0o640)];

/// `command` run under `umask`.
fn under(mut command: Command, umask: u32) -> Command {
    // SAFETY: `umask` is async-signal-safe and touches only the child.
    unsafe {
        command.pre_exec(move || {
            libc::umask(umask as libc::mode_t);
            Ok(())
        });
    }
    command
}

fn run(project: &Project, umask: u32, args: &[&str]) -> Run {
    let mut command = under(project.command(), umask);
    let run = Run::from(command.args(args).output().expect("the binary runs"));
    assert_eq!(run.code, 0, "{args:?}: {}{}", run.stdout, run.stderr);
    run
}

fn mode(project: &Project, relative: &str) -> u32 {
    let path = project.path().join(relative);
    let metadata = std::fs::metadata(&path).unwrap_or_else(|e| panic!("{relative}: {e}"));
    metadata.permissions().mode() & 0o777
}

#[test]
fn the_runs_files_get_the_umasks_mode() {
    let book = json!({"productId": 1101, "pickupLatitude": 25.0805, "pickupLongitude": 55.1403,
                      "dropoffLatitude": 25.1972, "dropoffLongitude": 55.2797})
    .to_string();
    let cases: [(&str, &[&str]); 3] = [
        (
            ".run/world.json",
            &["--stateful", "call", "ride_book", &book],
        ),
        (".run/clock.json", &["clock", "set", "2026-10-05T12:00:00Z"]),
        (
            ".run/overrides.json",
            &["scenario", "ride_book", "payment-declined"],
        ),
    ];
    for (umask, want) in UMASKS {
        let project = Project::copy_of_repo();
        for (file, args) in cases {
            run(&project, umask, args);
            assert_eq!(
                mode(&project, file),
                want,
                "{file} under umask {umask:03o}: {:03o}",
                mode(&project, file)
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_recording_gets_the_umasks_mode() {
    let (_upstream, _server, url) = upstream();
    for (umask, want) in UMASKS {
        let project = Project::copy_of_repo();
        let mut command = under(project.command(), umask);
        command.args([
            "record",
            "--upstream",
            &url,
            "--stdio",
            "--into",
            "recorded",
        ]);
        let log = File::create(project.path().join("record.log")).expect("a log file");
        let (transport, _) = TokioChildProcess::builder(tokio::process::Command::from(command))
            .stderr(Stdio::from(log))
            .spawn()
            .expect("the binary starts");
        let client = ().serve(transport).await.expect("the client initializes");
        let arguments = json!({"latitude": 25.3, "longitude": 55.4});
        call(&client, "reverse_geocode", arguments)
            .await
            .expect("an answer");
        client.cancel().await.expect("closes");
        let file = "recorded/location/reverse_geocode.md";
        assert_eq!(mode(&project, file), want, "{file} under umask {umask:03o}");
    }
}
