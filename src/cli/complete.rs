//! Dynamic completion of tool and scenario names, read from the tools folder at the moment
//! the shell asks (`source <(COMPLETE=bash careem-mcp)`).

use std::path::PathBuf;

use clap_complete::CompletionCandidate;

use crate::engine::{LayoutPaths, ProjectLayout, catalog};

/// The tools folder as every subcommand resolves it, from the command line being completed.
fn tools_dir() -> PathBuf {
    let project = named("--project", "CAREEM_MCP_PROJECT");
    let tools = named("--tools", "CAREEM_MCP_TOOLS");
    ProjectLayout::derive(LayoutPaths {
        project: project.as_deref(),
        tools: tools.as_deref(),
        ..LayoutPaths::default()
    })
    .tools
}

/// `FLAG VALUE` or `FLAG=VALUE` on the command line being completed, else the variable `env`.
fn named(flag: &str, env: &str) -> Option<PathBuf> {
    let args: Vec<String> = std::env::args().collect();
    let inline = format!("{flag}=");
    args.iter()
        .position(|a| a == flag)
        .and_then(|i| args.get(i + 1).cloned())
        .or_else(|| {
            args.iter()
                .find_map(|a| a.strip_prefix(&inline).map(str::to_string))
        })
        .or_else(|| std::env::var(env).ok())
        .map(PathBuf::from)
}

pub fn tools() -> Vec<CompletionCandidate> {
    catalog::load(&tools_dir())
        .tools
        .into_keys()
        .map(CompletionCandidate::new)
        .collect()
}

/// The scenarios of the tool named on the command line being completed.
pub fn scenarios() -> Vec<CompletionCandidate> {
    let loaded = catalog::load(&tools_dir());
    let args: Vec<String> = std::env::args().collect();
    let named = args.iter().find(|a| loaded.tools.contains_key(a.as_str()));
    loaded
        .scenario_names(named.map(String::as_str))
        .map(CompletionCandidate::new)
        .collect()
}
