//! `careem-mcp serve`.

use crate::cli::Status;
use crate::cli::args::{GlobalArgs, ServeArgs};

pub fn run(_global: &GlobalArgs, _args: &ServeArgs) -> anyhow::Result<Status> {
    anyhow::bail!("serve is not available in this build")
}
