//! Randomness for `uuid` and `rand:` placeholders: the thread's generator normally, a seeded
//! one under `--seed` so that agent test suites can snapshot responses.

use std::sync::Mutex;

use rand::{RngExt, SeedableRng, rngs::StdRng};

#[derive(Debug, Default)]
pub struct Entropy {
    seeded: Option<Mutex<StdRng>>,
}

impl Entropy {
    pub fn seeded(seed: u64) -> Self {
        Self {
            seeded: Some(Mutex::new(StdRng::seed_from_u64(seed))),
        }
    }

    pub fn in_range(&self, min: u64, max: u64) -> u64 {
        match &self.seeded {
            Some(rng) => lock(rng).random_range(min..=max),
            None => rand::rng().random_range(min..=max),
        }
    }

    pub fn uuid(&self) -> uuid::Uuid {
        let bytes: [u8; 16] = match &self.seeded {
            Some(rng) => lock(rng).random(),
            None => rand::rng().random(),
        };
        uuid::Builder::from_random_bytes(bytes).into_uuid()
    }
}

/// A poisoned generator is still a generator: randomness has no invariant to protect.
fn lock(rng: &Mutex<StdRng>) -> std::sync::MutexGuard<'_, StdRng> {
    rng.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
