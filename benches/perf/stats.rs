//! Timing summaries: every figure the benches print is one of these, so that they read alike.

use std::time::Duration;

/// Latencies of one measured loop, sorted.
pub struct Summary {
    sorted: Vec<Duration>,
}

impl Summary {
    pub fn new(mut samples: Vec<Duration>) -> Self {
        assert!(!samples.is_empty(), "a summary needs samples");
        samples.sort_unstable();
        Self { sorted: samples }
    }

    pub fn len(&self) -> usize {
        self.sorted.len()
    }

    /// The `q`-quantile (nearest rank), `q` in 0..=1.
    pub fn quantile(&self, q: f64) -> Duration {
        let rank = (q * self.sorted.len() as f64).ceil() as usize;
        self.sorted[rank.clamp(1, self.sorted.len()) - 1]
    }

    pub fn median(&self) -> Duration {
        self.quantile(0.5)
    }

    pub fn p99(&self) -> Duration {
        self.quantile(0.99)
    }

    pub fn min(&self) -> Duration {
        self.sorted[0]
    }

    pub fn mean(&self) -> Duration {
        self.sorted.iter().sum::<Duration>() / u32::try_from(self.sorted.len()).unwrap_or(u32::MAX)
    }

    /// `median 12.3 µs  p99 20.1 µs  min 11.0 µs  mean 12.9 µs  (n = 20000)`
    pub fn line(&self) -> String {
        format!(
            "median {:>9}  p99 {:>9}  min {:>9}  mean {:>9}  (n = {})",
            micros(self.median()),
            micros(self.p99()),
            micros(self.min()),
            micros(self.mean()),
            self.len()
        )
    }
}

/// A duration in microseconds with one decimal, or milliseconds above 10 ms.
pub fn micros(duration: Duration) -> String {
    let us = duration.as_secs_f64() * 1e6;
    if us >= 10_000.0 {
        format!("{:.1} ms", us / 1_000.0)
    } else {
        format!("{us:.1} µs")
    }
}

/// Prints one result line: a fixed-width label, then the figures.
pub fn report(label: &str, figures: &str) {
    println!("  {label:<44} {figures}");
}
