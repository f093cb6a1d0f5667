//! Dynamic completion of tool and scenario names, read from the tools folder at the moment
//! the shell asks (`source <(COMPLETE=bash careem-mcp)`).

use std::path::PathBuf;

use clap_complete::CompletionCandidate;

use crate::engine::catalog;

fn tools_dir() -> PathBuf {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == "--tools")
        .and_then(|i| args.get(i + 1).cloned())
        .or_else(|| {
            args.iter()
                .find_map(|a| a.strip_prefix("--tools=").map(str::to_string))
        })
        .or_else(|| std::env::var("CAREEM_MCP_TOOLS").ok())
        .map_or_else(|| PathBuf::from("tools"), PathBuf::from)
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
        .files
        .iter()
        .filter(|parsed| named.is_none_or(|tool| &parsed.file.tool == tool))
        .flat_map(|parsed| {
            parsed
                .file
                .scenarios
                .iter()
                .map(|s| CompletionCandidate::new(&s.name))
        })
        .collect()
}
