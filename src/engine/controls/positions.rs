//! Where each MCP session stands in each tool's controls: the number of calls it has made of
//! the tool since the tool's entry last changed. Sequences step through it, and the draws for
//! delays and fault rates are keyed on it and on the session's ordinal (the order in which
//! sessions made their first controlled call), so that an agent run sees the whole story from
//! its first step, and under `--seed` the same draws on every run, each session its own.
//!
//! A session that a `fault:session-expired` ends hands its places to its client: the next
//! session of the same client (the key the server gives, see docs/CONTROLS.md) continues the
//! story, and its draws, where the ended one stopped, instead of meeting the fault again.
//! A stdio server's session ends with its process, so its places ([`Places`]) are handed out
//! to be kept on disk ([`super::carried`]) and handed back to the client's next process.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

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
    /// Each session's ordinal, given at its first controlled call.
    sessions: HashMap<Option<String>, Ordinal>,
    next_ordinal: u64,
    /// What sessions ended by a fault left for their client's next session, by client.
    carried: HashMap<String, Places>,
    /// Ticks on every call, to find the least recently used counters.
    clock: u64,
}

#[derive(Debug, Clone, Copy)]
struct Ordinal {
    value: u64,
    used: u64,
}

/// What a session ended by a fault leaves for its client's next session: its ordinal and its
/// place in each tool's entry. Serialisable, so that a stdio server's places outlive its
/// process.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Places {
    #[serde(default)]
    ordinal: Option<u64>,
    #[serde(default)]
    tools: BTreeMap<String, Left>,
}

/// One tool's place left by an ended session: the entry text it counts in, the next position.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Left {
    entry: String,
    next: u64,
}

impl Places {
    /// Whether nothing is left: no ordinal and no tool.
    fn is_empty(&self) -> bool {
        self.ordinal.is_none() && self.tools.is_empty()
    }
}

#[derive(Debug)]
struct Counter {
    /// The tool's entry text the count belongs to.
    entry: String,
    next: u64,
    used: u64,
}

/// One call's place: its session's ordinal and its position in the tool's entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    /// 0 for the first session that made a controlled call, 1 for the next, and so on.
    pub session: u64,
    /// The call's position (0 for the first) since the tool's entry last changed.
    pub call: u64,
}

/// One session's place in one tool's entry, as [`Positions::snapshot`] reports it.
#[cfg(test)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    pub session: Option<String>,
    pub tool: String,
    /// Calls made since the entry last changed: the next call is at this position.
    pub calls: u64,
}

impl Positions {
    /// [`Positions::advance_for`] for a session of no known client.
    #[cfg(test)]
    pub fn advance(&self, session: Option<&str>, tool: &str, entry: &str) -> Place {
        self.advance_for(session, None, tool, entry)
    }

    /// This call's place for `session` (`None`: the one stdio or in-process session) of
    /// `client` and `tool`, whose entry now reads `entry`; a changed entry counts from 0 again.
    /// A session new to a tool takes over what an ended session of the same client left for it
    /// ([`Positions::carry`]).
    pub fn advance_for(
        &self,
        session: Option<&str>,
        client: Option<&str>,
        tool: &str,
        entry: &str,
    ) -> Place {
        let mut inner = self.lock();
        inner.clock += 1;
        let used = inner.clock;
        let owner = session.map(str::to_string);
        let ordinal = inner.ordinal(&owner, client, used);
        let key = (owner, tool.to_string());
        if !inner.counters.contains_key(&key)
            && let Some(left) = client.and_then(|c| inner.take_carried(c, tool))
        {
            let counter = Counter {
                entry: left.entry,
                next: left.next,
                used,
            };
            inner.counters.insert(key.clone(), counter);
        }
        let counter = inner.counters.entry(key).or_insert_with(|| Counter {
            entry: entry.to_string(),
            next: 0,
            used,
        });
        if counter.entry != entry {
            counter.entry = entry.to_string();
            counter.next = 0;
        }
        let call = counter.next;
        counter.next += 1;
        counter.used = used;
        if inner.counters.len() > MAX_COUNTERS {
            inner.forget_oldest();
        }
        Place {
            session: ordinal,
            call,
        }
    }

    /// Ends `session` and leaves its places for the next session of `client`: a
    /// `fault:session-expired` ended it, and the client that initializes again goes on with
    /// the story past that step.
    pub fn carry(&self, session: &str, client: &str) {
        let mut inner = self.lock();
        let places = inner.end(&Some(session.to_string()));
        inner.keep(client, places);
    }

    /// Ends `session` (`None`: a stdio server's) and gives back its places, for a client's
    /// next session in another process ([`Positions::receive`] there).
    pub fn leave(&self, session: Option<&str>) -> Places {
        self.lock().end(&session.map(str::to_string))
    }

    /// Keeps `places`, left by an ended session of `client` in another process, for the
    /// client's next session here, as [`Positions::carry`] keeps an ended session's own.
    pub fn receive(&self, client: &str, places: Places) {
        self.lock().keep(client, places);
    }

    /// Where every session stands now, by session then tool.
    #[cfg(test)]
    pub fn snapshot(&self) -> Vec<Position> {
        let inner = self.lock();
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

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Inner {
    /// The session's ordinal: its own, the one its client's ended session left, or the next.
    fn ordinal(&mut self, owner: &Option<String>, client: Option<&str>, used: u64) -> u64 {
        if let Some(ordinal) = self.sessions.get_mut(owner) {
            ordinal.used = used;
            return ordinal.value;
        }
        let carried = client
            .and_then(|c| self.carried.get_mut(c))
            .and_then(|carried| carried.ordinal.take());
        let value = carried.unwrap_or_else(|| {
            self.next_ordinal += 1;
            self.next_ordinal - 1
        });
        self.sessions.insert(owner.clone(), Ordinal { value, used });
        value
    }

    fn take_carried(&mut self, client: &str, tool: &str) -> Option<Left> {
        let carried = self.carried.get_mut(client)?;
        let left = carried.tools.remove(tool);
        if carried.is_empty() {
            self.carried.remove(client);
        }
        left
    }

    /// Ends the session `owner`: its ordinal and counters, taken out.
    fn end(&mut self, owner: &Option<String>) -> Places {
        let ordinal = self.sessions.remove(owner).map(|o| o.value);
        let tools: Vec<String> = self
            .counters
            .keys()
            .filter(|(s, _)| s == owner)
            .map(|(_, tool)| tool.clone())
            .collect();
        let tools = tools
            .into_iter()
            .filter_map(|tool| {
                let counter = self.counters.remove(&(owner.clone(), tool.clone()))?;
                let left = Left {
                    entry: counter.entry,
                    next: counter.next,
                };
                Some((tool, left))
            })
            .collect();
        Places { ordinal, tools }
    }

    /// Keeps `places` for `client`'s next session, within the bound on what is kept.
    fn keep(&mut self, client: &str, places: Places) {
        self.carried.insert(client.to_string(), places);
        if self.carried.len() > MAX_COUNTERS {
            self.carried.clear();
        }
    }

    /// Drops the older half, so that the scan runs once per many calls, not on each.
    fn forget_oldest(&mut self) {
        let mut ages: Vec<u64> = self.counters.values().map(|c| c.used).collect();
        let middle = ages.len() / 2;
        let (_, cutoff, _) = ages.select_nth_unstable(middle);
        let cutoff = *cutoff;
        self.counters.retain(|_, counter| counter.used >= cutoff);
        self.sessions.retain(|_, ordinal| ordinal.used >= cutoff);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sessions_are_numbered_in_the_order_they_first_call() {
        let positions = Positions::default();
        let order = [
            (Some("a"), 0),
            (Some("b"), 1),
            (Some("a"), 0),
            (None, 2),
            (Some("c"), 3),
        ];
        for (session, want) in order {
            assert_eq!(
                positions.advance(session, "t", "e").session,
                want,
                "{session:?}"
            );
        }
    }

    #[test]
    fn a_session_ended_by_a_fault_leaves_its_places_to_its_clients_next_session() {
        let positions = Positions::default();
        let advance = |session, client| positions.advance_for(Some(session), client, "t", "e");
        assert_eq!(
            advance("s1", Some("agent/1")),
            Place {
                session: 0,
                call: 0
            }
        );
        assert_eq!(
            advance("s1", Some("agent/1")),
            Place {
                session: 0,
                call: 1
            }
        );
        assert_eq!(
            advance("other", Some("other/1")),
            Place {
                session: 1,
                call: 0
            }
        );
        positions.carry("s1", "agent/1");
        // Another client starts its own story; the same client goes on with its own.
        assert_eq!(
            advance("s3", Some("other/1")),
            Place {
                session: 2,
                call: 0
            }
        );
        assert_eq!(
            advance("s2", Some("agent/1")),
            Place {
                session: 0,
                call: 2
            }
        );
        assert_eq!(
            advance("s2", Some("agent/1")),
            Place {
                session: 0,
                call: 3
            }
        );
        // Taken once: a later session of the client starts afresh.
        assert_eq!(
            advance("s4", Some("agent/1")),
            Place {
                session: 3,
                call: 0
            }
        );
    }

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
                positions.advance(session, tool, entry).call,
                want,
                "{session:?} {tool} {entry}"
            );
        }
        positions.leave(Some("s1"));
        assert_eq!(positions.advance(Some("s1"), "t", "e2").call, 0);
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
