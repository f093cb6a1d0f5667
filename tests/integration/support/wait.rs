//! The one polling loop of the tests, for what sends no event to wait on: a file that fills,
//! a process that exits, a port that closes. Everything else waits for its event.

use std::time::{Duration, Instant};

/// How long a poll waits before it looks again.
pub const POLL: Duration = Duration::from_millis(20);

/// Asks `ready` until it gives a value, for at most `limit`; `None` if it never did.
pub fn wait_until<T>(limit: Duration, mut ready: impl FnMut() -> Option<T>) -> Option<T> {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(value) = ready() {
            return Some(value);
        }
        if Instant::now() >= deadline {
            return None;
        }
        std::thread::sleep(POLL);
    }
}

/// [`wait_until`] for a question that is asked asynchronously.
pub async fn wait_until_async<T, F>(limit: Duration, mut ready: impl FnMut() -> F) -> Option<T>
where
    F: Future<Output = Option<T>>,
{
    let deadline = Instant::now() + limit;
    loop {
        if let Some(value) = ready().await {
            return Some(value);
        }
        if Instant::now() >= deadline {
            return None;
        }
        tokio::time::sleep(POLL).await;
    }
}
