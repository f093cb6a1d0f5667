//! A project's layout: the tool files in `<project>/tools`, the overrides file in
//! `<project>/.run/overrides.json`, the journal in `<project>/.run/calls.jsonl`. An MCP client
//! starts a stdio server in a folder of its own choosing, so every part of careem-mcp derives
//! the three from one project folder, here and only here, and they agree wherever they run.

use std::path::{Path, PathBuf};

use crate::engine::run_files::RunFiles;
use crate::engine::run_name::RunName;

/// The default run's folder under the project, which holds every other run's folder too.
const RUN_FOLDER: &str = ".run";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectLayout {
    /// The project folder as named; empty for the current folder.
    pub project: PathBuf,
    pub tools: PathBuf,
    pub overrides: PathBuf,
    pub journal: PathBuf,
    /// Which parts were named rather than derived: a missing tools folder is explained by
    /// what named it, and `verify --url` writes a running server's overrides file only when
    /// told which one it reads.
    pub named: Named,
}

/// Which of the project folder, the tools folder and the overrides file were named.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Named {
    pub project: bool,
    pub tools: bool,
    pub overrides: bool,
}

/// The paths a user named (`--project`, `--tools`, `--overrides`, `--journal`); each left
/// `None` takes its usual place under the project folder.
#[derive(Debug, Clone, Copy, Default)]
pub struct LayoutPaths<'a> {
    pub project: Option<&'a Path>,
    pub tools: Option<&'a Path>,
    pub overrides: Option<&'a Path>,
    pub journal: Option<&'a Path>,
}

impl ProjectLayout {
    /// The layout under `paths.project` (the current folder when `None`), each part replaced by
    /// the path named for it; a relative name is taken from the project folder.
    pub fn derive(paths: LayoutPaths<'_>) -> Self {
        let LayoutPaths {
            project,
            tools,
            overrides,
            journal,
        } = paths;
        let base = project.unwrap_or(Path::new(""));
        let default_run = RunFiles::in_folder(base.join(RUN_FOLDER));
        let under = |named: Option<&Path>, default: &Path| {
            named.map_or_else(|| default.to_path_buf(), |named| base.join(named))
        };
        Self {
            project: base.to_path_buf(),
            tools: under(tools, &base.join("tools")),
            overrides: under(overrides, default_run.overrides()),
            journal: under(journal, &default_run.journal()),
            named: Named {
                project: project.is_some(),
                tools: tools.is_some(),
                overrides: overrides.is_some(),
            },
        }
    }
}

impl ProjectLayout {
    /// The files of this layout's run, in its overrides file's folder.
    pub fn run_files(&self) -> RunFiles {
        RunFiles::of_overrides(&self.overrides)
    }

    /// The folder that holds every run's folder: `<project>/.run/runs`.
    pub fn runs_dir(&self) -> PathBuf {
        self.project.join(RUN_FOLDER).join("runs")
    }

    /// The run's folder: `<project>/.run/runs/<run>`.
    pub fn run_dir(&self, run: &RunName) -> PathBuf {
        self.runs_dir().join(run.as_str())
    }

    /// The layout of a run: the same tools, the run's own overrides file and journal in its
    /// folder.
    #[must_use]
    pub fn for_run(&self, run: &RunName) -> Self {
        let files = RunFiles::in_folder(self.run_dir(run));
        Self {
            project: self.project.clone(),
            tools: self.tools.clone(),
            journal: files.journal(),
            overrides: files.overrides().to_path_buf(),
            named: Named {
                overrides: false,
                ..self.named
            },
        }
    }
}

/// `path` as an absolute one, for messages: a relative path says nothing about which folder it
/// was taken from (the empty path is the current folder).
#[must_use]
pub fn absolute(path: &Path) -> PathBuf {
    let absolute = if path.as_os_str().is_empty() {
        std::env::current_dir()
    } else {
        std::path::absolute(path)
    };
    absolute.unwrap_or_else(|_| path.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_path_follows_the_project_unless_named() {
        let cases: [(Option<&str>, Option<&str>, [&str; 3]); 5] = [
            (
                None,
                None,
                ["tools", ".run/overrides.json", ".run/calls.jsonl"],
            ),
            (
                Some("/p"),
                None,
                ["/p/tools", "/p/.run/overrides.json", "/p/.run/calls.jsonl"],
            ),
            (
                Some("/p"),
                Some("t"),
                ["/p/t", "/p/.run/overrides.json", "/p/.run/calls.jsonl"],
            ),
            (
                Some("/p"),
                Some("/elsewhere/t"),
                [
                    "/elsewhere/t",
                    "/p/.run/overrides.json",
                    "/p/.run/calls.jsonl",
                ],
            ),
            (
                None,
                Some("t"),
                ["t", ".run/overrides.json", ".run/calls.jsonl"],
            ),
        ];
        for (project, tools, [want_tools, want_overrides, want_journal]) in cases {
            let layout = ProjectLayout::derive(LayoutPaths {
                project: project.map(Path::new),
                tools: tools.map(Path::new),
                ..LayoutPaths::default()
            });
            assert_eq!(
                [
                    layout.tools.as_path(),
                    layout.overrides.as_path(),
                    layout.journal.as_path()
                ],
                [want_tools, want_overrides, want_journal].map(Path::new),
                "{project:?} {tools:?}"
            );
        }
        let named = ProjectLayout::derive(LayoutPaths {
            project: Some(Path::new("/p")),
            tools: None,
            overrides: Some(Path::new("o.json")),
            journal: Some(Path::new("/j.jsonl")),
        });
        assert_eq!(
            (named.overrides.as_path(), named.journal.as_path()),
            (Path::new("/p/o.json"), Path::new("/j.jsonl"))
        );
        let expected = Named {
            project: true,
            tools: false,
            overrides: true,
        };
        assert_eq!(named.named, expected);
    }

    #[test]
    fn a_run_keeps_the_tools_and_has_its_own_files_under_the_project() {
        let run: RunName = "ci-7".parse().expect("a run name");
        let cases: [(Option<&str>, Option<&str>, [&str; 3]); 3] = [
            (
                None,
                None,
                [
                    "tools",
                    ".run/runs/ci-7/overrides.json",
                    ".run/runs/ci-7/calls.jsonl",
                ],
            ),
            (
                Some("/p"),
                None,
                [
                    "/p/tools",
                    "/p/.run/runs/ci-7/overrides.json",
                    "/p/.run/runs/ci-7/calls.jsonl",
                ],
            ),
            (
                Some("/p"),
                Some("/t"),
                [
                    "/t",
                    "/p/.run/runs/ci-7/overrides.json",
                    "/p/.run/runs/ci-7/calls.jsonl",
                ],
            ),
        ];
        for (project, tools, want) in cases {
            let layout = ProjectLayout::derive(LayoutPaths {
                project: project.map(Path::new),
                tools: tools.map(Path::new),
                ..LayoutPaths::default()
            })
            .for_run(&run);
            assert_eq!(
                [
                    layout.tools.as_path(),
                    layout.overrides.as_path(),
                    layout.journal.as_path()
                ],
                want.map(Path::new),
                "{project:?} {tools:?}"
            );
            assert_eq!(
                layout.run_dir(&run),
                layout.overrides.parent().expect("the run's folder")
            );
        }
    }
}
