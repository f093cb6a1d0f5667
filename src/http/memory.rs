//! Handing freed memory back to the system. Sessions that expire free what they held, but
//! glibc's allocator keeps freed pages inside its arenas: a server that has held 1,000
//! abandoned sessions stays at ~72 MiB once every one of them has expired, and is back at
//! ~20 MiB after one `malloc_trim(0)`. So a server trims now and then, and soon after sessions
//! end; the admin API and the dashboard trim soon after a live stream closes.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

/// After a session ends, the time its tasks get to finish and free what they held; sessions
/// that end within it share one trim.
const SETTLE: Duration = Duration::from_secs(1);

/// Hands back what loading the tool files left behind: their parse is dropped once each
/// tool's definition is kept, and its freed pages (about ten times the files' size) would
/// otherwise stay in the arenas until the first periodic trim.
pub(crate) async fn trim_after_loading() {
    let _ = tokio::task::spawn_blocking(release_free_memory).await;
}

/// Trims every `period` (clamped to 1–60 s), and [`SETTLE`] after sessions end, until `stop`
/// is cancelled.
pub(crate) fn spawn_trimmer(period: Duration, ended: Arc<Notify>, stop: CancellationToken) {
    let period = period.clamp(Duration::from_secs(1), Duration::from_secs(60));
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(period);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        ticks.tick().await;
        loop {
            tokio::select! {
                () = stop.cancelled() => return,
                _ = ticks.tick() => {}
                () = ended.notified() => {
                    tokio::select! {
                        () = stop.cancelled() => return,
                        () = tokio::time::sleep(SETTLE) => {}
                    }
                }
            }
            // It walks the allocator's arenas under their locks: not on an async worker.
            let _ = tokio::task::spawn_blocking(release_free_memory).await;
        }
    });
}

/// Hands the allocator's free pages back to the system (the trimmer calls it). Blocking: it
/// walks the arenas under their locks.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn release_free_memory() {
    // SAFETY: glibc's `malloc_trim` takes the allocator's own locks and only returns pages
    // that hold no live allocation; it has no preconditions.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Other allocators return memory on their own, or offer no such call.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn release_free_memory() {}
