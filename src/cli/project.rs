//! The project folder and the paths that follow from it. An MCP client starts a stdio server in
//! a folder of its own choosing, so every subcommand derives `tools/`, the overrides file and
//! the journal from one project folder, here and only here: `scenario` and `calls` run in the
//! project then agree with a server started anywhere with `--project`.

use std::path::{Path, PathBuf};

use anyhow::bail;

use super::args::GlobalArgs;

/// Where a command finds the tool files and the `.run/` files.
#[derive(Debug, Clone)]
pub struct Paths {
    /// The project folder as named; empty for the current folder.
    project: PathBuf,
    project_named: bool,
    tools_named: bool,
    pub tools: PathBuf,
    pub overrides: PathBuf,
    pub journal: PathBuf,
    /// Whether the overrides file was named (option or environment) rather than derived: `verify
    /// --url` writes a running server's overrides file only when told which one it reads.
    pub overrides_named: bool,
}

pub fn resolve(global: &GlobalArgs) -> Paths {
    derive(
        global.project.as_deref(),
        global.tools.as_deref(),
        global.overrides.as_deref(),
        global.journal.as_deref(),
    )
}

/// `<project>/tools`, `<project>/.run/overrides.json` and `<project>/.run/calls.jsonl`, each
/// replaced by the path named for it; a relative name is taken from the project folder.
pub fn derive(
    project: Option<&Path>,
    tools: Option<&Path>,
    overrides: Option<&Path>,
    journal: Option<&Path>,
) -> Paths {
    let base = project.unwrap_or(Path::new(""));
    let under =
        |named: Option<&Path>, default: &str| base.join(named.unwrap_or(Path::new(default)));
    Paths {
        project: base.to_path_buf(),
        project_named: project.is_some(),
        tools_named: tools.is_some(),
        tools: under(tools, "tools"),
        overrides: under(overrides, ".run/overrides.json"),
        journal: under(journal, ".run/calls.jsonl"),
        overrides_named: overrides.is_some(),
    }
}

impl Paths {
    /// The tools folder, or an error that names the folder used and how to name the project:
    /// a bare "not found" leaves a user whose client started the server elsewhere guessing.
    pub fn tools(&self) -> anyhow::Result<&Path> {
        if self.tools.is_dir() {
            return Ok(&self.tools);
        }
        if self.tools_named {
            bail!(
                "no tools folder at {} (named by --tools or CAREEM_MCP_TOOLS)",
                shown(&self.tools)
            );
        }
        let which = if self.project_named {
            "the project folder named by --project or CAREEM_MCP_PROJECT"
        } else {
            "the current folder, as no project was named"
        };
        bail!(
            "no tools folder in {} ({which})\n  point at the project with `--project DIR` or \
             CAREEM_MCP_PROJECT=DIR; give MCP clients an absolute path",
            shown(&self.project)
        )
    }
}

/// A path as an absolute one, for messages: a relative path says nothing about which folder it
/// was taken from.
pub fn shown(path: &Path) -> String {
    let absolute = if path.as_os_str().is_empty() {
        std::env::current_dir()
    } else {
        std::path::absolute(path)
    };
    absolute
        .unwrap_or_else(|_| path.to_path_buf())
        .display()
        .to_string()
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
            let paths = derive(project.map(Path::new), tools.map(Path::new), None, None);
            assert_eq!(
                [
                    paths.tools.as_path(),
                    paths.overrides.as_path(),
                    paths.journal.as_path()
                ],
                [want_tools, want_overrides, want_journal].map(Path::new),
                "{project:?} {tools:?}"
            );
        }
        let named = derive(
            Some(Path::new("/p")),
            None,
            Some(Path::new("o.json")),
            Some(Path::new("/j.jsonl")),
        );
        assert_eq!(
            (named.overrides.as_path(), named.journal.as_path()),
            (Path::new("/p/o.json"), Path::new("/j.jsonl"))
        );
        assert!(named.overrides_named);
    }
}
