//! `careem-mcp verify`.

use crate::cli::Status;
use crate::cli::args::{GlobalArgs, VerifyArgs};

pub fn run(_global: &GlobalArgs, _args: &VerifyArgs) -> anyhow::Result<Status> {
    anyhow::bail!("verify is not available in this build")
}
