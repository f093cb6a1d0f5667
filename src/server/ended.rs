//! How a server's run ended, told to the CLI, which exits with it: a leaf, so that the
//! sessions that end a run and the runner that returns it name it without naming each other.

/// How a server's run ended: the CLI exits as it says. Only the CLI exits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// Told to stop (SIGINT, SIGTERM), or, over stdio, its client went away.
    Stopped,
    /// Over stdio, the overrides file's `drop` fault: the process ends as a crashed Go server
    /// does, with its status 2, at once.
    Crashed,
    /// Over stdio, the overrides file's `session-expired` fault: the process ends, status 0,
    /// at once, its session handed on to its client's next process.
    SessionExpired,
}
