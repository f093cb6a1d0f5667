//! Tool files and the overrides file broken, deleted or replaced under a running server:
//! the call answers as production does for a broken backend, other tools carry on, and the
//! next call after the mend is normal.

use std::path::Path;
#[cfg(unix)]
use std::process::Command;

use serde_json::json;

use super::INTERNAL_ERROR;
use crate::support::{Fixture, assert_marina, call, marina};

fn replace_with_directory(path: &Path) {
    std::fs::remove_file(path).expect("remove");
    std::fs::create_dir(path).expect("a directory in its place");
}

#[cfg(unix)]
fn running_as_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).trim() == "0")
}

#[cfg(unix)]
#[tokio::test]
async fn tool_files_broken_mid_run_answer_internal_server_error_and_mend() {
    let fixture = Fixture::start().await;
    let (broken_client, other_client) = (fixture.client().await, fixture.client().await);
    let relative = "tools/location/reverse_geocode.md";
    let path = fixture.project.path().join(relative);
    let original = fixture.project.read(relative);
    let broken_json = original.replacen(
        "{\"latitude\": 25.0866, \"longitude\": 55.1474}",
        "{\"latitude\": , \"longitude\": 55.1474}",
        1,
    );
    assert_ne!(broken_json, original);

    type Break = Box<dyn Fn(&Path)>;
    let write = |text: String| -> Break {
        Box::new(move |path: &Path| std::fs::write(path, &text).expect("write"))
    };
    // (what, how the file breaks)
    let mut cases: Vec<(&str, Break)> = vec![
        ("invalid JSON in a match block", write(broken_json)),
        ("empty", write(String::new())),
        (
            "frontmatter only",
            write("---\ntool: reverse_geocode\n---\n".to_string()),
        ),
        (
            "names another tool",
            write(original.replacen("tool: reverse_geocode", "tool: other", 1)),
        ),
        (
            "not UTF-8",
            write(String::from_utf8_lossy(b"\xff\xfe\x00garbage").into_owned()),
        ),
        (
            "deleted",
            Box::new(|path: &Path| std::fs::remove_file(path).expect("remove")),
        ),
        ("a directory in its place", Box::new(replace_with_directory)),
    ];
    if !running_as_root() {
        // As root (CI, this machine) permissions do not stop a read: the directory row covers
        // the same path (the read fails).
        use std::os::unix::fs::PermissionsExt;
        cases.push((
            "unreadable (chmod 000)",
            Box::new(|path: &Path| {
                std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o000))
                    .expect("chmod")
            }),
        ));
    }
    for (what, break_it) in cases {
        break_it(&path);
        let result = call(&broken_client, "reverse_geocode", marina())
            .await
            .expect("a result, not a protocol error");
        assert_eq!(
            (&result["isError"], &result["content"]),
            (
                &json!(true),
                &json!([{"type": "text", "text": INTERNAL_ERROR}])
            ),
            "{what}"
        );
        assert!(result.get("structuredContent").is_none(), "{what}");
        // Other tools, on another session, are untouched.
        let menu = call(
            &other_client,
            "food_get_restaurant_menu",
            json!({"restaurant_id": 30104, "latitude": 25.0866, "longitude": 55.1474}),
        )
        .await
        .expect("a result");
        assert_eq!(
            menu["structuredContent"]["restaurant"]["id"], 30104,
            "{what}"
        );
        // Mended, the next call is normal again.
        if path.is_dir() {
            std::fs::remove_dir(&path).expect("remove the directory");
        }
        if path.exists() {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        }
        std::fs::write(&path, &original).expect("restore");
        assert_marina(&broken_client).await;
    }
    broken_client.cancel().await.expect("closes");
    other_client.cancel().await.expect("closes");
    fixture.still_answers().await;
}

#[tokio::test]
async fn broken_overrides_files_mean_no_overrides() {
    let fixture = Fixture::start().await;
    let client = fixture.client().await;
    let overrides = fixture.project.path().join(".run/overrides.json");
    std::fs::create_dir_all(overrides.parent().expect("a parent")).expect("the folder");
    let menu = json!({"restaurant_id": 30104, "latitude": 25.0866, "longitude": 55.1474});
    let normal = "Morning Syrniki Café";
    let forced = "upstream-unavailable";
    // (what, file content or None for a directory, forced?)
    let cases: [(&str, Option<&str>, bool); 13] = [
        (
            "partial (cut off mid-write)",
            Some(r#"{"food_get_restaurant_menu": "upstream-unav"#),
            false,
        ),
        (
            "an array",
            Some(r#"["food_get_restaurant_menu", "upstream-unavailable"]"#),
            false,
        ),
        ("a string", Some(r#""upstream-unavailable""#), false),
        ("a number", Some("42"), false),
        ("null", Some("null"), false),
        ("empty", Some(""), false),
        (
            "a value that is not a string",
            Some(r#"{"food_get_restaurant_menu": 1}"#),
            false,
        ),
        (
            "a nested object",
            Some(r#"{"food_get_restaurant_menu": {"name": "upstream-unavailable"}}"#),
            false,
        ),
        (
            "only unknown tools",
            Some(r#"{"no_such_tool": "upstream-unavailable", "../etc": "x"}"#),
            false,
        ),
        (
            "an unknown scenario",
            Some(r#"{"food_get_restaurant_menu": "no-such-scenario"}"#),
            false,
        ),
        ("a directory in its place", None, false),
        (
            "unknown tools beside a good entry",
            Some(r#"{"no_such_tool": "x", "food_get_restaurant_menu": "UPSTREAM-UNAVAILABLE"}"#),
            true,
        ),
        (
            "valid again",
            Some(r#"{"food_get_restaurant_menu": "upstream-unavailable"}"#),
            true,
        ),
    ];
    for (what, content, is_forced) in cases {
        if overrides.is_dir() {
            std::fs::remove_dir(&overrides).expect("remove the directory");
        }
        match content {
            Some(text) => std::fs::write(&overrides, text).expect("write"),
            None => {
                let _ = std::fs::remove_file(&overrides);
                std::fs::create_dir(&overrides).expect("a directory");
            }
        }
        let result = call(&client, "food_get_restaurant_menu", menu.clone())
            .await
            .expect("a result");
        assert_eq!(result.get("isError"), None, "{what}");
        if is_forced {
            assert_eq!(
                result["structuredContent"]["error"],
                "failed to get restaurant menu: unexpected response status 503",
                "{what}: {forced}"
            );
        } else {
            assert_eq!(
                result["structuredContent"]["restaurant"]["name"]["value"], normal,
                "{what}"
            );
        }
    }
    client.cancel().await.expect("closes");
    fixture.still_answers().await;
}
