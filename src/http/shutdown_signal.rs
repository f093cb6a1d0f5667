//! SIGINT or SIGTERM, whichever comes first: what ends `serve` and `dashboard` (each then
//! shuts down in its own order: `serve` lets the calls in flight finish first). Where SIGTERM
//! cannot be listened for, SIGINT alone.

pub async fn shutdown_signal() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut terminate =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(signal) => signal,
                Err(error) => {
                    tracing::warn!("cannot listen for SIGTERM: {error}");
                    let _ = interrupt.await;
                    return;
                }
            };
        tokio::select! {
            _ = interrupt => {}
            _ = terminate.recv() => {}
        }
    }
    #[cfg(not(unix))]
    let _ = interrupt.await;
}
