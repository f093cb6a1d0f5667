//! The project folder as the command line names it (`--project`, `--tools`, `--overrides`,
//! `--journal` or their variables) and the engine's [`ProjectLayout`] that follows from it, for
//! every subcommand: `scenario` and `calls` run in the project then agree with a server
//! started anywhere with `--project`.

use std::path::{Path, PathBuf};

use anyhow::bail;

use super::args::GlobalArgs;
use crate::engine::ProjectLayout;

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

/// The project's layout ([`ProjectLayout`]), and which parts were named rather than derived.
pub fn resolve(global: &GlobalArgs) -> Paths {
    let layout = ProjectLayout::derive(
        global.project.as_deref(),
        global.tools.as_deref(),
        global.overrides.as_deref(),
        global.journal.as_deref(),
    );
    Paths {
        project: global.project.clone().unwrap_or_default(),
        project_named: global.project.is_some(),
        tools_named: global.tools.is_some(),
        tools: layout.tools,
        overrides: layout.overrides,
        journal: layout.journal,
        overrides_named: global.overrides.is_some(),
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
    use clap::Parser;

    use super::*;
    use crate::cli::Cli;

    #[test]
    fn only_an_overrides_file_named_counts_as_named() {
        let named = Cli::parse_from(["careem-mcp", "--overrides", "o.json", "reset"]);
        let derived = Cli::parse_from(["careem-mcp", "--project", "/p", "reset"]);
        let (named, derived) = (resolve(&named.global), resolve(&derived.global));
        assert!(named.overrides_named && !derived.overrides_named);
        assert_eq!(named.overrides, Path::new("o.json"));
    }
}
