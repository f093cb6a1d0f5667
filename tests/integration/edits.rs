//! An edit of a tool file, the overrides file, a world data file or a world module is seen by
//! a running server on its next call, however it is made. Files are read again only when their
//! stamp (device, inode, size, modification time) says they may have changed, or while they
//! are within the racy window of two seconds after a write (docs/PERFORMANCE.md); the world
//! folder's stamps are taken only when the kernel reported a change in its folders. Each case below is one a stamp check gets
//! wrong if it ignores what the case changes, or one the kernel does not report, and the test
//! checks first that the edit changes exactly that part of the stamp.

use std::fs::File;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use careem_mcp::engine::world::WATCH_AFTER;
use serde_json::{Value, json};

use crate::support::{
    Client, Project, call, http_client, serve_binary, terminate_cleanly, tool_file,
    wait_until_async,
};

/// How an edit reaches the file.
#[derive(Debug, Clone, Copy)]
enum Edit {
    /// Rewritten in place with a change of the same length, its modification time set back to
    /// what it was, and called again at once: the stamp is unchanged, and only the racy window
    /// (the file was written under two seconds ago) has it read again.
    InPlaceWithinTheWindow,
    /// As [`Edit::InPlaceWithinTheWindow`], but called again only once the file has settled:
    /// the read before the edit was made within the window, so it cannot vouch for the file
    /// afterwards.
    InPlaceCalledAfterTheWindow,
    /// A new file of the same size and modification time, both settled, renamed over the old:
    /// only the inode changes.
    Rename,
    /// The file is a symlink to a settled file, swapped atomically to a link to another of the
    /// same size and modification time: only the inode the path resolves to changes.
    SymlinkSwap,
    /// The file is a symlink to a file outside `tools/`, rewritten in place as
    /// [`Edit::InPlaceWithinTheWindow`] is: nothing in the folder that holds the link changes,
    /// so the kernel reports nothing there (engine/world/watch.rs).
    SymlinkTargetInPlace,
    /// The file is a hard link to a file outside `tools/`, rewritten in place through that
    /// other name as [`Edit::InPlaceWithinTheWindow`] is: the kernel reports it in the other
    /// name's folder only.
    HardLinkInPlace,
}

/// The files an edit is made to.
#[derive(Debug, Clone, Copy)]
enum Target {
    /// `tools/echo.md`, whose answer is the version.
    ToolFile,
    /// `.run/overrides.json`, which forces the `pick` tool's scenario named by the version.
    Overrides,
    /// `tools/world/echo.json`, whose version the `from_world` tool's jq program answers.
    WorldData,
    /// `tools/world/rules/echo.jq`, a module whose definition gives the version, which the
    /// `from_module` tool's jq program loads and answers.
    WorldModule,
}

/// The versions a case writes: one and two have the same length, so a target's text for one
/// has the size of its text for two.
const VERSIONS: [&str; 3] = ["zero", "one", "two"];

/// Long enough ago that a file with this modification time has settled.
fn settled_time(age_secs: u64) -> SystemTime {
    SystemTime::now() - Duration::from_secs(age_secs)
}

impl Target {
    const ALL: [Self; 4] = [
        Self::ToolFile,
        Self::Overrides,
        Self::WorldData,
        Self::WorldModule,
    ];

    fn relative(self) -> &'static str {
        match self {
            Self::ToolFile => "tools/echo.md",
            Self::Overrides => ".run/overrides.json",
            Self::WorldData => "tools/world/echo.json",
            Self::WorldModule => "tools/world/rules/echo.jq",
        }
    }

    fn text(self, version: &str) -> String {
        match self {
            Self::ToolFile => tool_file(
                "echo",
                &format!(
                    "## Scenario: answer\n\n```json response\n{{\"v\": \"{version}\"}}\n```\n"
                ),
            ),
            Self::Overrides => format!("{{\"pick\": \"{version}\"}}"),
            Self::WorldData => format!("{{\"v\": \"{version}\"}}"),
            Self::WorldModule => format!("def echo_v: \"{version}\";\n"),
        }
    }

    /// The version the target's tool answers with now.
    async fn answer(self, client: &Client) -> String {
        let tool = match self {
            Self::ToolFile => "echo",
            Self::Overrides => "pick",
            Self::WorldData => "from_world",
            Self::WorldModule => "from_module",
        };
        let result = call(client, tool, json!({}))
            .await
            .expect("the tool answers");
        let Value::String(v) = &result["structuredContent"]["v"] else {
            panic!("no v in {result}");
        };
        v.clone()
    }
}

/// The parts of a file's stamp as the server takes it (through a symlink).
fn stamp(path: &Path) -> [u128; 4] {
    let metadata = std::fs::metadata(path).expect("the file is there");
    let modified = metadata
        .modified()
        .expect("a modification time")
        .duration_since(SystemTime::UNIX_EPOCH)
        .expect("after 1970")
        .as_nanos();
    [
        metadata.dev().into(),
        metadata.ino().into(),
        metadata.len().into(),
        modified,
    ]
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

/// Writes `text` to a new file at `path` modified at `at`.
fn write_at(path: &Path, text: &str, at: SystemTime) {
    std::fs::write(path, text).expect("written");
    touch(path, at);
}

/// Makes `path` a symlink to `target`, atomically (a new link renamed over it).
fn link(path: &Path, target: &Path) {
    let swap = path.with_extension("link");
    std::os::unix::fs::symlink(target, &swap).expect("linked");
    std::fs::rename(&swap, path).expect("swapped");
}

impl Edit {
    const ALL: [Self; 6] = [
        Self::InPlaceWithinTheWindow,
        Self::InPlaceCalledAfterTheWindow,
        Self::Rename,
        Self::SymlinkSwap,
        Self::SymlinkTargetInPlace,
        Self::HardLinkInPlace,
    ];

    /// Where the case keeps a file of its own for `target` (outside `tools/`).
    fn aside(project: &Project, target: Target, name: &str) -> PathBuf {
        project.path().join(format!("{target:?}-{name}"))
    }

    /// Puts `target` at version one as the case needs it before its first call.
    fn prepare(self, project: &Project, target: Target) {
        let path = project.path().join(target.relative());
        let text = target.text(VERSIONS[1]);
        match self {
            Self::InPlaceWithinTheWindow | Self::InPlaceCalledAfterTheWindow => {
                std::fs::write(&path, text).expect("written");
            }
            Self::Rename => {
                let new = Self::aside(project, target, "new");
                write_at(&new, &text, settled_time(600));
                std::fs::rename(&new, &path).expect("renamed");
            }
            Self::SymlinkSwap => {
                let one = Self::aside(project, target, "one");
                write_at(&one, &text, settled_time(600));
                link(&path, &one);
            }
            Self::SymlinkTargetInPlace => {
                let one = Self::aside(project, target, "one");
                std::fs::write(&one, text).expect("written");
                link(&path, &one);
            }
            Self::HardLinkInPlace => {
                let one = Self::aside(project, target, "one");
                std::fs::write(&one, text).expect("written");
                std::fs::remove_file(&path).expect("removed");
                std::fs::hard_link(&one, &path).expect("linked");
            }
        }
    }

    /// Brings `target` to version two, and says which parts of its stamp changed.
    fn apply(self, project: &Project, target: Target) -> Vec<&'static str> {
        let path = project.path().join(target.relative());
        let text = target.text(VERSIONS[2]);
        let before = stamp(&path);
        let modified = std::fs::metadata(&path)
            .and_then(|metadata| metadata.modified())
            .expect("a modification time");
        match self {
            Self::InPlaceWithinTheWindow | Self::InPlaceCalledAfterTheWindow => {
                write_at(&path, &text, modified);
            }
            Self::Rename => {
                let new = Self::aside(project, target, "new");
                write_at(&new, &text, modified);
                std::fs::rename(&new, &path).expect("renamed");
            }
            Self::SymlinkSwap => {
                let two = Self::aside(project, target, "two");
                write_at(&two, &text, modified);
                link(&path, &two);
            }
            Self::SymlinkTargetInPlace | Self::HardLinkInPlace => {
                write_at(&Self::aside(project, target, "one"), &text, modified);
            }
        }
        let after = stamp(&path);
        ["device", "inode", "size", "modified"]
            .into_iter()
            .zip(before.into_iter().zip(after))
            .filter(|(_, (before, after))| before != after)
            .map(|(part, _)| part)
            .collect()
    }

    /// The parts of the stamp the edit changes: what the stamp check must not ignore.
    fn changes(self) -> Vec<&'static str> {
        match self {
            Self::InPlaceWithinTheWindow
            | Self::InPlaceCalledAfterTheWindow
            | Self::SymlinkTargetInPlace
            | Self::HardLinkInPlace => vec![],
            Self::Rename | Self::SymlinkSwap => vec!["inode"],
        }
    }

    /// Waits, when the case calls again only after the window, until every target settled.
    async fn before_the_second_call(self, project: &Project) {
        if !matches!(self, Self::InPlaceCalledAfterTheWindow) {
            return;
        }
        let settled = |target: Target| {
            let path = project.path().join(target.relative());
            let modified = std::fs::metadata(path).and_then(|m| m.modified());
            modified.is_ok_and(|modified| {
                SystemTime::now()
                    .duration_since(modified)
                    .is_ok_and(|age| age > Duration::from_millis(2_100))
            })
        };
        wait_until_async(Duration::from_secs(10), || async {
            Target::ALL.into_iter().all(settled).then_some(())
        })
        .await
        .expect("the files settle");
    }
}

/// A project whose targets are at version zero, settled.
fn project() -> Project {
    let project = Project::empty();
    project.write(
        "tools/from_world.md",
        &tool_file(
            "from_world",
            "## Scenario: answer\n\n```jq response\n{v: .data.echo.v}\n```\n",
        ),
    );
    project.write(
        "tools/from_module.md",
        &tool_file(
            "from_module",
            "## Scenario: answer\n\n```jq response\ninclude \"echo\"; {v: echo_v}\n```\n",
        ),
    );
    project.write(
        "tools/pick.md",
        &tool_file(
            "pick",
            &VERSIONS
                .map(|v| {
                    format!("## Scenario: {v}\n\n```json response\n{{\"v\": \"{v}\"}}\n```\n\n")
                })
                .concat(),
        ),
    );
    for target in Target::ALL {
        let path = project.path().join(target.relative());
        project.write(target.relative(), &target.text(VERSIONS[0]));
        touch(&path, settled_time(1200));
    }
    project
}

#[tokio::test(flavor = "multi_thread")]
async fn every_kind_of_edit_is_seen_on_the_next_call() {
    let mut unseen = Vec::new();
    for edit in Edit::ALL {
        let project = project();
        let (server, url, _stderr) = serve_binary(&project, &[]);
        let client = http_client(&url).await;
        for target in Target::ALL {
            edit.prepare(&project, target);
            assert_eq!(
                target.answer(&client).await,
                VERSIONS[1],
                "{edit:?} {target:?}: before"
            );
        }
        // Enough calls that the world folder is watched, not only stamped.
        for _ in 0..WATCH_AFTER {
            Target::WorldData.answer(&client).await;
        }
        for target in Target::ALL {
            let changed = edit.apply(&project, target);
            assert_eq!(
                changed,
                edit.changes(),
                "{edit:?} {target:?}: the stamp's parts that changed"
            );
        }
        edit.before_the_second_call(&project).await;
        for target in Target::ALL {
            let after = target.answer(&client).await;
            if after != VERSIONS[2] {
                unseen.push(format!("{edit:?} of the {target:?}: still {after:?}"));
            }
        }
        drop(client);
        terminate_cleanly(server, Duration::from_secs(30));
    }
    assert!(
        unseen.is_empty(),
        "edits not seen on the next call: {unseen:#?}"
    );
}
