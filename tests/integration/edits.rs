//! An edit of a tool file or the overrides file is seen by a running server on its next call,
//! however it is made: in place with the same size and the same modification time (the racy
//! case a stamp alone would miss), by renaming a new file over the old, and by swapping a
//! symlink. Files are read again only when their stamp says they may have changed
//! (docs/PERFORMANCE.md); these are the cases that rule must not get wrong.

use std::fs::File;
use std::path::Path;
use std::time::{Duration, SystemTime};

use serde_json::{Value, json};

use crate::support::{
    Client, Project, call, http_client, serve_binary, terminate_cleanly, tool_file,
};

fn answer(text: &str) -> String {
    tool_file(
        "echo",
        &format!(
            "## Scenario: one\n\n```json response\n{{\"v\": \"{text}\"}}\n```\n\n\
             ## Scenario: two\n\n```json response\n{{\"v\": \"zzz\"}}\n```\n"
        ),
    )
}

async fn value(client: &Client) -> Value {
    call(client, "echo", json!({})).await.expect("echo answers")["structuredContent"]["v"].clone()
}

/// Sets `path`'s modification time to `at`.
fn touch(path: &Path, at: SystemTime) {
    File::options()
        .write(true)
        .open(path)
        .expect("the file opens")
        .set_modified(at)
        .expect("the time is set");
}

#[tokio::test(flavor = "multi_thread")]
async fn every_kind_of_edit_is_seen_on_the_next_call() {
    let project = Project::empty();
    let path = project.path().join("tools/echo.md");
    project.write("tools/echo.md", &answer("aaa"));
    // The same instant for both versions: the stamp is the same, so only the content tells.
    let instant = SystemTime::now() + Duration::from_secs(3600);
    touch(&path, instant);
    let (server, url, _stderr) = serve_binary(&project, &[]);
    let client = http_client(&url).await;
    assert_eq!(value(&client).await, "aaa");

    project.write("tools/echo.md", &answer("bbb"));
    touch(&path, instant);
    assert_eq!(
        value(&client).await,
        "bbb",
        "same size, same time, in place"
    );

    let new = project.path().join("tools/echo.new");
    std::fs::write(&new, answer("ccc")).expect("written");
    std::fs::rename(&new, &path).expect("renamed");
    assert_eq!(value(&client).await, "ccc", "renamed over the old file");

    #[cfg(unix)]
    {
        let (a, b) = (project.path().join("a.md"), project.path().join("b.md"));
        std::fs::write(&a, answer("ddd")).expect("written");
        std::fs::write(&b, answer("eee")).expect("written");
        let old = SystemTime::now() - Duration::from_secs(600);
        touch(&a, old);
        touch(&b, old);
        std::fs::remove_file(&path).expect("removed");
        std::os::unix::fs::symlink(&a, &path).expect("linked");
        assert_eq!(value(&client).await, "ddd", "a link to a settled file");
        assert_eq!(value(&client).await, "ddd", "and again, from its stamp");
        let swap = project.path().join("tools/echo.link");
        std::os::unix::fs::symlink(&b, &swap).expect("linked");
        std::fs::rename(&swap, &path).expect("swapped");
        assert_eq!(
            value(&client).await,
            "eee",
            "the link swapped to another file"
        );
    }

    let overrides = project.path().join(".run/overrides.json");
    project.write(".run/overrides.json", r#"{"echo": "two"}"#);
    touch(&overrides, instant);
    assert_eq!(value(&client).await, "zzz", "forced");
    project.write(".run/overrides.json", r#"{"echo": "one"}"#);
    touch(&overrides, instant);
    assert_eq!(
        value(&client).await,
        "eee",
        "the overrides file, same size and time"
    );
    drop(client);
    terminate_cleanly(server, Duration::from_secs(30));
}
