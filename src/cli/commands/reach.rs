//! How `drift` and `record` reach a server someone else runs: the headers from `--header` (or
//! `CAREEM_MCP_HEADER`) and `--header-file`, the time limit and the event bound. A line of the
//! header file that does not parse is named by its number, never quoted.

use anyhow::{Context, bail};
use reqwest::header::HeaderMap;

use crate::cli::args::{ReachArgs, parse_header};
use crate::engine::absolute;
use crate::probe::RemoteAccess;

pub fn reach(args: &ReachArgs) -> anyhow::Result<RemoteAccess> {
    let mut headers: HeaderMap = args
        .headers
        .iter()
        .flat_map(|lines| lines.0.iter().cloned())
        .collect();
    if let Some(path) = &args.header_file {
        let shown = absolute(path);
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read the header file {}", shown.display()))?;
        for (index, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            match parse_header(line) {
                Ok((name, value)) => {
                    headers.append(name, value);
                }
                Err(why) => bail!(
                    "{} line {} (not shown: it may hold a secret): {why}",
                    shown.display(),
                    index + 1
                ),
            }
        }
    }
    Ok(RemoteAccess {
        headers,
        timeout: args.timeout,
        max_event: args.max_event_size,
        ..RemoteAccess::default()
    })
}
