//! The calls being answered now, over every transport, so that a shutdown lets them finish
//! before it ends their sessions, then cuts those still running (each answers `-32603` at once,
//! whatever it waits for), so that no client waits on a server that is going away.

use std::sync::Arc;

use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

#[derive(Debug, Clone)]
pub(crate) struct InFlight {
    count: Arc<watch::Sender<usize>>,
    cut: CancellationToken,
}

/// One call, counted until dropped (answered, cancelled or panicked).
#[derive(Debug)]
pub(crate) struct InFlightGuard(InFlight);

impl Drop for InFlightGuard {
    fn drop(&mut self) {
        self.0
            .count
            .send_modify(|count| *count = count.saturating_sub(1));
    }
}

impl Default for InFlight {
    fn default() -> Self {
        Self {
            count: Arc::new(watch::Sender::new(0)),
            cut: CancellationToken::new(),
        }
    }
}

impl InFlight {
    pub(crate) fn enter(&self) -> InFlightGuard {
        self.count.send_modify(|count| *count += 1);
        InFlightGuard(self.clone())
    }

    /// Resolves once no call is running.
    pub(crate) async fn drained(&self) {
        let mut count = self.count.subscribe();
        // The sender lives as long as `self`, so waiting cannot fail.
        let _ = count.wait_for(|count| *count == 0).await;
    }

    /// Answers every call still running, and every call from now on, with `-32603`.
    pub(crate) fn cut(&self) {
        self.cut.cancel();
    }

    pub(crate) async fn cut_off(&self) {
        self.cut.cancelled().await;
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[tokio::test]
    async fn calls_are_counted_until_their_guard_drops() {
        let in_flight = InFlight::default();
        in_flight.drained().await;
        let guard = in_flight.enter();
        let waiting = tokio::spawn({
            let in_flight = in_flight.clone();
            async move { in_flight.drained().await }
        });
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished(), "a call is still running");
        drop(guard);
        tokio::time::timeout(Duration::from_secs(5), waiting)
            .await
            .expect("drained once the call ends")
            .expect("the task ran");
    }
}
