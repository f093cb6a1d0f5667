//! The program threads: every jq program runs on one of a few threads of the process's own,
//! never on the thread that asks for its value, so that a program's stack is [`STACK`] deep
//! whatever thread asked, and a server's async workers never run one.
//!
//! A program stops itself at its deadline (`bounds.rs` reads the clock every thousand steps or
//! so). What could still keep its thread is a single step that takes long (one jq builtin on a
//! huge value): the caller waits until the deadline and a [`GRACE`] after it, then gives up on
//! it, so a call, and the run's lock it may hold, is never held longer. The thread given up on
//! no longer counts toward [`THREADS`], so a new thread takes its place; the threads given up
//! on are at most [`GIVEN_UP`], past which callers wait for the busy ones. The threads are
//! started as programs come, so a process that runs none starts none.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Condvar, LazyLock, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::bounds::{Deadline, STACK};

/// How long after its deadline a caller still waits for a program: the time to unwind and
/// drop what it made.
pub const GRACE: Duration = Duration::from_millis(500);

/// How many programs run at once: the machine's cores, at least two.
static THREADS: LazyLock<usize> = LazyLock::new(|| {
    std::thread::available_parallelism()
        .map_or(2, std::num::NonZero::get)
        .max(2)
});

/// How many threads may be running programs their callers gave up on.
const GIVEN_UP: usize = 8;

/// A program to run, and its fate: read and changed under the pool's lock only.
type Job = (Box<dyn FnOnce() + Send>, Arc<AtomicU8>);

/// A job's fate: its caller waits for it.
const RUNNING: u8 = 0;
/// Given up on by its caller, and another thread may take its thread's place.
const REPLACED: u8 = 1;

#[derive(Default)]
struct Pool {
    state: Mutex<State>,
    work: Condvar,
}

#[derive(Default)]
struct State {
    queue: VecDeque<Job>,
    /// Threads that count toward [`THREADS`].
    threads: usize,
    /// Of those, the ones waiting for a job.
    idle: usize,
    /// Threads running a job given up on, in place of which another was started.
    given_up: usize,
}

static POOL: LazyLock<Pool> = LazyLock::new(Pool::default);

impl Pool {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn submit(&'static self, job: Job) {
        let mut state = self.lock();
        state.queue.push_back(job);
        if state.idle > 0 {
            self.work.notify_one();
        } else if state.threads < *THREADS {
            self.start(&mut state);
        }
    }

    /// Starts a thread; without one the queued jobs wait for a busy thread.
    fn start(&'static self, state: &mut State) {
        let started = std::thread::Builder::new()
            .name("jq".to_string())
            .stack_size(STACK)
            .spawn(move || self.serve());
        match started {
            Ok(_) => state.threads += 1,
            Err(error) => tracing::error!("cannot start a thread for jq programs: {error}"),
        }
    }

    fn serve(&'static self) {
        let mut state = self.lock();
        loop {
            let Some((job, fate)) = state.queue.pop_front() else {
                state.idle += 1;
                state = self.work.wait(state).unwrap_or_else(|e| e.into_inner());
                state.idle -= 1;
                continue;
            };
            drop(state);
            job();
            state = self.lock();
            if fate.load(Ordering::Relaxed) == REPLACED {
                // Another thread took this one's place: it serves on only if there is room.
                state.given_up -= 1;
                if state.threads >= *THREADS {
                    return;
                }
                state.threads += 1;
            }
        }
    }
}

/// `job`'s value, computed on a program thread; `None` when it was not done by `deadline`
/// and [`GRACE`] after it.
pub fn run<T: Send + 'static>(
    deadline: Deadline,
    job: impl FnOnce() -> T + Send + 'static,
) -> Option<T> {
    let pool: &'static Pool = &POOL;
    let (send, receive) = mpsc::sync_channel(1);
    let fate = Arc::new(AtomicU8::new(RUNNING));
    pool.submit((
        Box::new(move || {
            // When the caller gave up, the value is dropped here.
            let _ = send.send(job());
        }),
        Arc::clone(&fate),
    ));
    let wait = (deadline.at + GRACE).saturating_duration_since(Instant::now());
    match receive.recv_timeout(wait) {
        Ok(value) => Some(value),
        Err(RecvTimeoutError::Disconnected) => None,
        Err(RecvTimeoutError::Timeout) => {
            let mut state = pool.lock();
            if let Ok(value) = receive.try_recv() {
                return Some(value);
            }
            tracing::warn!("a jq program still running past its deadline: its call gives up on it");
            // Past GIVEN_UP, the thread keeps its place and the callers wait for it.
            if state.given_up < GIVEN_UP {
                fate.store(REPLACED, Ordering::Relaxed);
                state.given_up += 1;
                state.threads -= 1;
                if !state.queue.is_empty() && state.idle == 0 {
                    pool.start(&mut state);
                }
            }
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_caller_gives_up_on_a_stuck_job_and_the_threads_carry_on() {
        let soon = Duration::from_millis(50);
        let deadline = Deadline {
            at: Instant::now() + soon,
            after: soon,
        };
        let started = Instant::now();
        assert_eq!(
            run(deadline, || std::thread::sleep(Duration::from_secs(3))),
            None
        );
        assert!(started.elapsed() < soon + GRACE + Duration::from_secs(1));
        // As many jobs as THREADS, each waiting for all the others: they meet only if a new
        // thread took the place of the one still asleep.
        let meeting = Arc::new(std::sync::Barrier::new(*THREADS));
        let callers: Vec<_> = (0..*THREADS)
            .map(|n| {
                let meeting = Arc::clone(&meeting);
                std::thread::spawn(move || {
                    run(Deadline::from_now(), move || {
                        meeting.wait();
                        n
                    })
                })
            })
            .collect();
        let answers: Vec<Option<usize>> = callers.into_iter().map(|c| c.join().unwrap()).collect();
        assert_eq!(answers, (0..*THREADS).map(Some).collect::<Vec<_>>());
    }
}
