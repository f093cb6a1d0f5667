//! What stops a program that would not stop by itself (docs/FORMAT.md, "Bounds"): a deadline
//! for the call, a budget of evaluation steps, and a limit on how deep its evaluation may
//! recurse. A program is evaluated by jaq as iterators that call each other; every term it
//! evaluates asks for the look-up table of the compiled program first, so the table is handed
//! out here ([`Run`]'s [`HasLut`]) and each hand-out is a step that the [`Meter`] counts and
//! checks. A program past a limit is unwound at that step, as salsa cancels a query
//! (`resume_unwind`: no panic message, nothing printed), and [`metered`] turns the unwinding
//! into the [`Limit`] it reached. Nothing shared is in the middle of a change when it unwinds:
//! the compiled program is read-only and every value it made is its own.

use std::cell::Cell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use jaq_core::data::{DataT, HasLut};
use jaq_core::{Cv, Exn, Lut, ValX, ValXs};
use jaq_json::Val;

/// The deadline a call's programs get when none is set: far longer than any program of the
/// shipped world takes (a few milliseconds), short enough that a program that never ends costs
/// its call a few seconds.
pub const DEFAULT_DEADLINE: Duration = Duration::from_secs(5);

/// How many steps one program may take: the shipped world's heaviest takes about 7,000. A
/// step makes at most one value of the program's own, so this also bounds how many values a
/// program holds (`[range(1e9)]` stops at this count, 16 bytes each) and how deep they nest
/// (a level takes two steps at least).
pub const STEPS: u64 = 500_000;

/// The stack of a program's thread (`pool.rs`): reserved, and used only as a program
/// recurses. Besides [`EVALUATION_STACK`], it holds what runs without taking steps on a value
/// nested as deep as [`STEPS`] allows: dropping, printing (`tojson`, 4 KiB a level in a debug
/// build) or comparing it.
pub const STACK: usize = 1 << 30;

/// How much of [`STACK`] the evaluation itself may use: `def f: 1 + f; f` stops here.
const EVALUATION_STACK: usize = 64 << 20;

/// How often, in steps, the clock is read: well under a millisecond apart.
const CLOCK_EVERY: u64 = 1 << 10;

/// The deadline in milliseconds, for the whole process (`--jq-deadline`).
static DEADLINE_MS: AtomicU64 = AtomicU64::new(DEFAULT_DEADLINE.as_millis() as u64);

/// Sets how long a call's programs may run, for every call this process answers from now on.
pub fn set_deadline(deadline: Duration) {
    let ms = u64::try_from(deadline.as_millis())
        .unwrap_or(u64::MAX)
        .max(1);
    DEADLINE_MS.store(ms, Ordering::Relaxed);
}

/// How long a call's programs may run.
pub fn deadline() -> Duration {
    Duration::from_millis(DEADLINE_MS.load(Ordering::Relaxed))
}

/// When a call's programs must have given their values.
#[derive(Debug, Clone, Copy)]
pub struct Deadline {
    pub at: Instant,
    /// How long the call had, for the message.
    pub after: Duration,
}

impl Deadline {
    /// The deadline of a call that starts now.
    pub fn from_now() -> Self {
        let after = deadline();
        Self {
            at: Instant::now() + after,
            after,
        }
    }
}

/// The limit a program reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Limit {
    #[error(
        "the call's programs ran past the deadline of {} (--jq-deadline)",
        seconds(*.0)
    )]
    Deadline(Duration),
    #[error("the program took more than {STEPS} steps")]
    Steps,
    #[error("the program recursed too deep")]
    Depth,
}

fn seconds(duration: Duration) -> String {
    let ms = duration.as_millis();
    if ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        format!("{ms} ms")
    }
}

/// One program's run: its steps left, its deadline and where its stack started.
pub struct Meter {
    left: Cell<u64>,
    deadline: Deadline,
    /// The stack's address when the run started; stacks grow down.
    top: usize,
}

/// The steps a run took go to the debug log, so that how much of a rule a call computes shows.
impl Drop for Meter {
    fn drop(&mut self) {
        tracing::debug!(
            steps = STEPS - self.left.get(),
            "a jq program took its steps"
        );
    }
}

impl Meter {
    /// A meter for a program about to run on this thread.
    pub fn new(deadline: Deadline) -> Self {
        Self {
            left: Cell::new(STEPS),
            deadline,
            top: stack_address(),
        }
    }

    /// Counts one step; unwinds the program when it reached a limit.
    #[inline]
    pub fn step(&self) {
        let left = self.left.get();
        if left == 0 {
            stop(Limit::Steps);
        }
        self.left.set(left - 1);
        if left.is_multiple_of(CLOCK_EVERY) {
            self.check_clock();
        }
        if self.top.saturating_sub(stack_address()) > EVALUATION_STACK {
            stop(Limit::Depth);
        }
    }

    /// Unwinds the program when its deadline passed.
    pub fn check_clock(&self) {
        if Instant::now() >= self.deadline.at {
            stop(Limit::Deadline(self.deadline.after));
        }
    }
}

/// About where the stack is now: the address of a local.
#[inline(always)]
fn stack_address() -> usize {
    let here = 0u8;
    std::ptr::from_ref(std::hint::black_box(&here)) as usize
}

fn stop(limit: Limit) -> ! {
    panic::resume_unwind(Box::new(limit))
}

/// Why a run ended without a value of its own: a limit, or a panic inside jaq (whose message
/// the panic hook wrote to stderr).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Stopped {
    #[error(transparent)]
    Limit(#[from] Limit),
    #[error("the program panicked: {0}")]
    Panicked(String),
}

/// What `run` gives, or the limit it reached.
pub fn metered<T>(run: impl FnOnce() -> T) -> Result<T, Stopped> {
    panic::catch_unwind(AssertUnwindSafe(run)).map_err(|payload| {
        match payload.downcast::<Limit>() {
            Ok(limit) => Stopped::Limit(*limit),
            Err(payload) => Stopped::Panicked(
                payload
                    .downcast_ref::<&str>()
                    .map(ToString::to_string)
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_default(),
            ),
        }
    })
}

/// The data kind of metered programs: jaq's JSON values, and a [`Run`] beside the table.
pub struct Metered;

impl DataT for Metered {
    type V<'a> = Val;
    type Data<'a> = Run<'a>;
}

/// What a metered program's natives see: the compiled program's table and the run's meter.
#[derive(Clone, Copy)]
pub struct Run<'a> {
    pub lut: &'a Lut<Metered>,
    pub meter: &'a Meter,
}

impl<'a> HasLut<'a, Metered> for Run<'a> {
    fn lut(&self) -> &'a Lut<Metered> {
        self.meter.step();
        self.lut
    }
}

/// The most a string given to `fromjson` may nest: jq's own limit. jaq's reader recurses once
/// per level, so a string of a million `[` would overflow any stack in one step.
pub const FROMJSON_DEPTH: usize = 10_000;

/// Natives that replace jaq's where jaq's would escape the meter.
pub fn natives() -> impl Iterator<Item = jaq_core::native::Fun<Metered>> {
    use jaq_core::native::{run, v};
    [
        run::<Metered>(("range", v(3), range_native)),
        run::<Metered>(("fromjson", v(0), fromjson_native)),
    ]
    .into_iter()
}

/// A metered program's value type, as jaq's natives name it.
type Value<'a> = <Metered as DataT>::V<'a>;

/// jaq's `range/3` yields its values without a step between them: this one takes a step for
/// each, so that `[range(1e9)]` stops.
fn range_native(mut cv: Cv<'_, Metered>) -> ValXs<'_, Value<'_>> {
    let by = cv.0.pop_var();
    let to = cv.0.pop_var();
    let from = cv.0.pop_var();
    let meter = cv.0.data().meter;
    Box::new(range(from, to, by).inspect(move |_| meter.step()))
}

fn fromjson_native(cv: Cv<'_, Metered>) -> ValXs<'_, Value<'_>> {
    let meter = cv.0.data().meter;
    Box::new(fromjson(&cv.1, meter).into_iter())
}

/// The names [`natives`] replaces.
pub const REPLACED: &[&str] = &["range", "fromjson"];

/// jaq's `range($from; $to; $by)`: from `from`, by `by`, while short of `to`.
fn range<'a>(from: Val, to: Val, by: Val) -> impl Iterator<Item = ValX<'a, Val>> {
    use std::cmp::Ordering::{Equal, Greater, Less};
    let direction = by.partial_cmp(&Val::from(0isize)).unwrap_or(Equal);
    let mut next = Some(Ok(from));
    std::iter::from_fn(move || match next.take()? {
        Ok(x) => {
            let more = match direction {
                Greater => x < to,
                Less => x > to,
                Equal => x != to,
            };
            more.then(|| {
                next = Some((x.clone() + by.clone()).map_err(Exn::from));
                Ok(x)
            })
        }
        Err(error) => Some(Err(error)),
    })
}

/// jq's `fromjson`, refusing a text nested deeper than [`FROMJSON_DEPTH`] before it is read.
fn fromjson<'a>(input: &Val, meter: &Meter) -> Vec<ValX<'a, Val>> {
    let bytes = match input.try_as_utf8_bytes_owned() {
        Ok(bytes) => bytes,
        Err(error) => return vec![Err(Exn::from(error))],
    };
    let fail = |why: String| Exn::from(jaq_core::Error::str(why));
    if nesting(&bytes) > FROMJSON_DEPTH {
        return vec![Err(fail(format!(
            "cannot parse a string nested deeper than {FROMJSON_DEPTH} levels as JSON"
        )))];
    }
    jaq_json::read::parse_many(&bytes)
        .map(|value| {
            meter.step();
            value.map_err(|e| fail(format!("cannot parse {input} as JSON: {e}")))
        })
        .collect()
}

/// The deepest nesting of brackets and braces in a JSON text, strings skipped.
fn nesting(text: &[u8]) -> usize {
    let (mut depth, mut deepest, mut in_string, mut escaped) = (0usize, 0, false, false);
    for &byte in text {
        match (in_string, escaped, byte) {
            (true, true, _) => escaped = false,
            (true, false, b'\\') => escaped = true,
            (true, false, b'"') => in_string = false,
            (true, false, _) => {}
            (false, _, b'"') => in_string = true,
            (false, _, b'[' | b'{') => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            (false, _, b']' | b'}') => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}
