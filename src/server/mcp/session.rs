//! One client's session, on any transport: whether it has initialized, and the calls it has
//! pending (a request id in use, a call a `notifications/cancelled` can stop).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

use crate::engine::{Engine, Origin, RunName};
use crate::server::jsonrpc::Id;

#[derive(Debug)]
pub(crate) struct Session {
    /// The id a client names the session by (none over stdio): the journal's and the controls'
    /// session.
    id: Option<Arc<str>>,
    origin: Origin,
    /// The engine of the session's run: its overrides, positions and journal.
    engine: Arc<Engine>,
    /// The run the session belongs to (`/mcp/<run>`); `None` for the default run.
    run: Option<RunName>,
    initialized: Mutex<bool>,
    /// `clientInfo` of its `initialize`, as `name/version`: who the session's client is.
    client: Mutex<Option<String>>,
    pending: Mutex<HashMap<Id, Entered>>,
    serial: std::sync::atomic::AtomicU64,
    /// Told when the call that arrived last has written its journal line.
    last_turn: Mutex<Option<oneshot::Receiver<()>>>,
    /// Cancelled when the session ends: its calls still running stop.
    ended: CancellationToken,
}

/// A call's place in its session's journal: its line is written after the line of the call
/// that arrived before it, so that the journal follows arrival order even when calls are
/// answered at once. Dropping it lets the next call write.
#[derive(Debug)]
pub(crate) struct JournalSlot {
    previous: Option<oneshot::Receiver<()>>,
    _done: oneshot::Sender<()>,
}

impl JournalSlot {
    /// Resolves once every call that arrived before this one has written its line (or gone).
    pub(crate) async fn come(&mut self) {
        if let Some(previous) = self.previous.take() {
            let _ = previous.await;
        }
    }
}

/// A pending call as its session keeps it: what a `notifications/cancelled` for its id
/// reaches.
#[derive(Debug)]
struct Entered {
    serial: u64,
    cancelled: CancellationToken,
    withdrawn: Arc<AtomicBool>,
}

/// A call's place among its session's pending requests, given back when dropped.
#[derive(Debug)]
pub(crate) struct Pending {
    session: Arc<Session>,
    id: Id,
    serial: u64,
    /// Cancelled when the client cancels the call or the session ends, whichever comes first.
    pub(crate) cancelled: CancellationToken,
    /// Set, before `cancelled` is cancelled, when the client cancelled the call: which of the
    /// two ended it, decided where it happens rather than read from two tokens after the fact
    /// (the session's end cancels `cancelled` too, between any two such reads).
    withdrawn: Arc<AtomicBool>,
}

impl Pending {
    /// Whether the client cancelled the call (`notifications/cancelled`), as opposed to its
    /// session ending; meaningful once `cancelled` is.
    pub(crate) fn is_withdrawn(&self) -> bool {
        self.withdrawn.load(Ordering::Acquire)
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        let mut pending = self.session.pending();
        // A cancelled call gave its id up already; it may be another call's by now.
        if pending
            .get(&self.id)
            .is_some_and(|entered| entered.serial == self.serial)
        {
            pending.remove(&self.id);
        }
    }
}

impl Session {
    pub(crate) fn new(
        id: Option<Arc<str>>,
        origin: Origin,
        engine: Arc<Engine>,
        run: Option<RunName>,
    ) -> Arc<Self> {
        Arc::new(Self {
            id,
            origin,
            engine,
            run,
            initialized: Mutex::new(false),
            client: Mutex::default(),
            pending: Mutex::default(),
            serial: std::sync::atomic::AtomicU64::new(0),
            last_turn: Mutex::default(),
            ended: CancellationToken::new(),
        })
    }

    pub(crate) fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    pub(crate) fn origin(&self) -> Origin {
        self.origin
    }

    pub(crate) fn engine(&self) -> &Arc<Engine> {
        &self.engine
    }

    pub(crate) fn run(&self) -> Option<&RunName> {
        self.run.as_ref()
    }

    pub(crate) fn is_initialized(&self) -> bool {
        *self
            .initialized
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// The session has initialized, its client naming itself `client`.
    pub(crate) fn mark_initialized(&self, client: Option<String>) {
        *self
            .initialized
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = true;
        *self.client.lock().unwrap_or_else(PoisonError::into_inner) = client;
    }

    /// The session's client as `name/version`, once it has initialized.
    pub(crate) fn client(&self) -> Option<String> {
        self.client
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn pending(&self) -> std::sync::MutexGuard<'_, HashMap<Id, Entered>> {
        self.pending.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Takes `id` for a call; `None` when a call of this session already has it.
    pub(crate) fn enter(self: &Arc<Self>, id: &Id) -> Option<Pending> {
        let mut pending = self.pending();
        if pending.contains_key(id) {
            return None;
        }
        let cancelled = self.ended.child_token();
        let serial = self
            .serial
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let withdrawn = Arc::new(AtomicBool::new(false));
        pending.insert(
            id.clone(),
            Entered {
                serial,
                cancelled: cancelled.clone(),
                withdrawn: Arc::clone(&withdrawn),
            },
        );
        Some(Pending {
            session: Arc::clone(self),
            id: id.clone(),
            serial,
            cancelled,
            withdrawn,
        })
    }

    /// The next place in the journal, taken as a call arrives.
    pub(crate) fn take_journal_slot(&self) -> JournalSlot {
        let (done, next) = oneshot::channel();
        let previous = self
            .last_turn
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .replace(next);
        JournalSlot {
            previous,
            _done: done,
        }
    }

    /// A `notifications/cancelled` for `id`: the call stops, withdrawn by its client, and its
    /// id is free at once. A call the session's end stopped already stays stopped by the end.
    pub(crate) fn cancel(&self, id: &Id) {
        let mut pending = self.pending();
        if let Some(call) = pending.remove(id)
            && !call.cancelled.is_cancelled()
        {
            call.withdrawn.store(true, Ordering::Release);
            call.cancelled.cancel();
        }
    }

    /// Ends the session: every call still running stops. Under the pending calls' lock, so
    /// that a cancellation comes wholly before or wholly after it.
    pub(crate) fn end(&self) {
        let _pending = self.pending();
        self.ended.cancel();
    }

    /// Ends the session as expired: its client's next session takes up its stories where
    /// they stood (docs/CONTROLS.md).
    pub(crate) fn expire(&self) {
        if let (Some(id), Some(client)) = (self.id(), self.client()) {
            self.engine.positions().carry(id, &client);
        }
        self.end();
    }

    /// Ends the session as expired along with its process (stdio, whose session has no id):
    /// its places are left on disk for its client's next process (docs/CONTROLS.md).
    pub(crate) async fn expire_process(&self) {
        if let Some(client) = self.client() {
            let engine = Arc::clone(&self.engine);
            let left = tokio::task::spawn_blocking(move || engine.carry_over(&client)).await;
            if let Err(error) = left {
                tracing::error!("leaving the session's places failed: {error}");
            }
        }
        self.end();
    }

    /// An engine on the repository's world, with no tools, for tests of what a session does.
    #[cfg(test)]
    pub(crate) fn bare_engine() -> Arc<Engine> {
        let config = crate::engine::EngineConfig {
            tools_dir: "tools".into(),
            overrides: "overrides.json".into(),
            clock: None,
            seed: None,
            stateful: false,
        };
        let (world, _) = crate::engine::world::World::load(&config.tools_dir, &[]);
        Arc::new(Engine::from_loaded(
            config,
            std::collections::BTreeMap::new(),
            Arc::new(world),
        ))
    }

    /// A stdio session of its own on [`Self::bare_engine`].
    #[cfg(test)]
    pub(crate) fn alone() -> Arc<Self> {
        Self::new(None, Origin::Stdio, Self::bare_engine(), None)
    }

    #[cfg(test)]
    pub(crate) fn has_ended(&self) -> bool {
        self.ended.is_cancelled()
    }

    pub(crate) async fn ended(&self) {
        self.ended.cancelled().await;
    }
}
