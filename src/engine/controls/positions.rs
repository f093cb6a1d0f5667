//! Where each MCP session stands in each tool's controls: the number of calls it has made of
//! the tool since the tool's entry last changed. Sequences step through it, and the draws for
//! delays and fault rates are keyed on it, so that an agent run sees the whole story from its
//! first step and the same draws under the same `--seed`, whatever other sessions do.

use std::collections::HashMap;
use std::sync::Mutex;

/// Counters kept before the least recently used are forgotten: sessions end without saying
/// so, and a long run must not grow without bound.
const MAX_COUNTERS: usize = 16_384;

#[derive(Debug, Default)]
pub struct Positions {
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    counters: HashMap<(Option<String>, String), Counter>,
    /// Ticks on every call, to find the least recently used counters.
    clock: u64,
}

#[derive(Debug)]
struct Counter {
    /// The tool's entry text the count belongs to.
    entry: String,
    next: u64,
    used: u64,
}

/// One session's place in one tool's entry, as [`Positions::snapshot`] reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    pub session: Option<String>,
    pub tool: String,
    /// Calls made since the entry last changed: the next call is at this position.
    pub calls: u64,
}

impl Positions {
    /// This call's position (0 for the first) for `session` (`None`: the one stdio or
    /// in-process session) and `tool`, whose entry now reads `entry`; a changed entry counts
    /// from 0 again.
    pub fn advance(&self, session: Option<&str>, tool: &str, entry: &str) -> u64 {
        let mut inner = self
            .inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        inner.clock += 1;
        let used = inner.clock;
        let key = (session.map(str::to_string), tool.to_string());
        let counter = inner.counters.entry(key).or_insert_with(|| Counter {
            entry: entry.to_string(),
            next: 0,
            used,
        });
        if counter.entry != entry {
            counter.entry = entry.to_string();
            counter.next = 0;
        }
        let position = counter.next;
        counter.next += 1;
        counter.used = used;
        if inner.counters.len() > MAX_COUNTERS {
            inner.forget_oldest();
        }
        position
    }

    /// Forgets a session that has ended.
    pub fn forget_session(&self, session: &str) {
        let mut inner = self
            .inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        inner
            .counters
            .retain(|(owner, _), _| owner.as_deref() != Some(session));
    }

    /// Where every session stands now, by session then tool.
    pub fn snapshot(&self) -> Vec<Position> {
        let inner = self
            .inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut positions: Vec<Position> = inner
            .counters
            .iter()
            .map(|((session, tool), counter)| Position {
                session: session.clone(),
                tool: tool.clone(),
                calls: counter.next,
            })
            .collect();
        positions.sort_by(|a, b| (&a.session, &a.tool).cmp(&(&b.session, &b.tool)));
        positions
    }
}

impl Inner {
    /// Drops the older half, so that the scan runs once per many calls, not on each.
    fn forget_oldest(&mut self) {
        let mut ages: Vec<u64> = self.counters.values().map(|c| c.used).collect();
        let middle = ages.len() / 2;
        let (_, cutoff, _) = ages.select_nth_unstable(middle);
        let cutoff = *cutoff;
        self.counters.retain(|_, counter| counter.used >= cutoff);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counted_per_session_and_tool_and_restarted_by_a_changed_entry() {
        let positions = Positions::default();
        let calls = [
            (Some("s1"), "t", "e1", 0),
            (Some("s1"), "t", "e1", 1),
            (Some("s2"), "t", "e1", 0),
            (Some("s1"), "u", "e1", 0),
            (None, "t", "e1", 0),
            (Some("s1"), "t", "e1", 2),
            (Some("s1"), "t", "e2", 0),
            (Some("s1"), "t", "e2", 1),
        ];
        for (session, tool, entry, want) in calls {
            assert_eq!(
                positions.advance(session, tool, entry),
                want,
                "{session:?} {tool} {entry}"
            );
        }
        positions.forget_session("s1");
        assert_eq!(positions.advance(Some("s1"), "t", "e2"), 0);
        assert_eq!(positions.snapshot().len(), 3);
    }

    #[test]
    fn bounded_by_forgetting_the_least_recently_used() {
        let positions = Positions::default();
        positions.advance(Some("kept"), "t", "e");
        for n in 0..MAX_COUNTERS + 10 {
            positions.advance(Some(&n.to_string()), "t", "e");
            if n % 100 == 0 {
                positions.advance(Some("kept"), "t", "e");
            }
        }
        let snapshot = positions.snapshot();
        assert!(snapshot.len() <= MAX_COUNTERS);
        assert!(
            snapshot
                .iter()
                .any(|p| p.session.as_deref() == Some("kept")),
            "a session in use is kept"
        );
    }
}
