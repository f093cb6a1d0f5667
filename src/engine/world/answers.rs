//! The values programs gave, kept for the next call that would run the same program on the same
//! document: a program is a function of its document, and what tells two documents apart is
//! the arguments, the state, and the per-call keys the program names (`names.rs`; the others
//! are left out of its document). A program that names `.random`, or that sees the state
//! before an update, is run on every call. The values are kept per reading of the world, so an
//! edit of its files lets them all go.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::Value;

/// How many values are kept; one more lets them all go, to be kept again as calls come.
const KEPT: usize = 64;

/// Which state a program ran on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StateId {
    /// The seed world's state.
    Seed,
    /// A reading of a run's `world.json` (`WorldStore::current`): readings of the same bytes
    /// share it.
    Stored(u64),
}

/// What a program's value depends on.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Key {
    pub program: u64,
    /// The arguments' compact JSON.
    pub args: Arc<str>,
    pub state: StateId,
    /// The run's clock, when the program names `.now`.
    pub now: Option<i64>,
    /// Whether the scenario was forced, when the program names `.forced`.
    pub forced: Option<bool>,
    /// The compact JSON of what the scenario's `jq when` gave, when the program names `.when`.
    pub when: Option<Arc<str>>,
    pub stateful: bool,
}

/// A program's value, and its compact JSON once asked for.
#[derive(Debug)]
pub struct Computed {
    value: Value,
    text: OnceLock<String>,
}

impl Computed {
    pub fn new(value: Value) -> Arc<Self> {
        Arc::new(Self {
            value,
            text: OnceLock::new(),
        })
    }

    pub fn value(&self) -> &Value {
        &self.value
    }

    /// The value's compact JSON, written once however many calls answer with it.
    pub fn text(&self) -> &str {
        self.text.get_or_init(|| self.value.to_string())
    }

    /// The value, copied only when it is kept for other calls too.
    pub fn into_value(self: Arc<Self>) -> Value {
        Arc::try_unwrap(self).map_or_else(|kept| kept.value.clone(), |own| own.value)
    }
}

#[derive(Debug, Default)]
pub struct Answers {
    kept: Mutex<HashMap<Key, Arc<Computed>>>,
}

impl Answers {
    pub fn get(&self, key: &Key) -> Option<Arc<Computed>> {
        self.kept().get(key).cloned()
    }

    pub fn keep(&self, key: Key, value: &Arc<Computed>) {
        let mut kept = self.kept();
        if kept.len() >= KEPT {
            kept.clear();
        }
        kept.insert(key, Arc::clone(value));
    }

    fn kept(&self) -> std::sync::MutexGuard<'_, HashMap<Key, Arc<Computed>>> {
        self.kept.lock().unwrap_or_else(|e| e.into_inner())
    }
}
