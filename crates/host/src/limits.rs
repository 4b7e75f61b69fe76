//! Hard limits for untrusted scripts: a CPU-time budget and a heap budget.
//!
//! [`Host::set_limits`](../struct.Host.html#method.set_limits) arms them for the scripts a
//! [`Host`](../struct.Host.html) runs. A script over a budget is stopped wherever it is (a
//! tight loop, a long native call such as `Array.prototype.fill`, an endless promise chain):
//! the engine ends it with an error script cannot catch (the engine series' interrupt hook,
//! third_party/boa patch 0001), the event loop discards the host's pending jobs and timers,
//! the error is recorded as a [`HostError::Uncaught`](../enum.HostError.html#variant.Uncaught)
//! whose message names the limit, and
//! [`Host::limit_exceeded`](../struct.Host.html#method.limit_exceeded) says which limit it
//! was. The process stays alive; the `Host` can be dropped and a new one created.
//!
//! - **CPU time** ([`Limits::cpu_time`]): the CPU time the script thread spends from the call
//!   to [`Host::set_limits`](../struct.Host.html#method.set_limits) on (on Linux with glibc,
//!   the thread's CPU clock: time spent waiting for a timer or the network does not count;
//!   elsewhere, wall-clock time). A watchdog thread checks it every 1 to 10 ms (a tenth of
//!   the budget).
//! - **Heap** ([`Limits::max_heap_bytes`]): an allocation that script asks for at once and
//!   that would not fit (an `ArrayBuffer` or typed array, `String.prototype.repeat`'s result)
//!   throws a catchable `RangeError`; when the heap in use passes the limit, the script is
//!   stopped. The heap in use is what [`CountingAllocator`] counts if the program installed
//!   it as its global allocator (all memory of the process, the `boa-streams` binary does),
//!   else the engine collector's own accounting (the garbage-collected boxes only: the
//!   elements of arrays and the characters of strings are not counted, so a script that
//!   keeps strings in an array can outgrow the limit).
//!
//! Limits cover the `Host`'s own thread; workers (`new Worker`) run on their own threads
//! without them (the heap counted by [`CountingAllocator`] includes theirs).
//!
//! On the stock Boa 0.22 engine (without the series) nothing can stop a running script from
//! outside: only `Host::run_event_loop_with_budget` between jobs, Boa's per-loop iteration
//! limit and `HostHooks::max_buffer_size` exist there.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use boa_engine::error::EngineError;
use boa_engine::vm::InterruptHandle;
use boa_engine::{Context, JsError};

/// The budgets of [`Host::set_limits`](../struct.Host.html#method.set_limits) (`None`: no
/// limit).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Limits {
    /// CPU time the script thread may spend (see the [module docs](self)).
    pub cpu_time: Option<Duration>,
    /// Bytes the heap may hold (see the [module docs](self)).
    pub max_heap_bytes: Option<usize>,
}

/// Which limit stopped a script.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitExceeded {
    /// The CPU-time budget was spent.
    CpuTime {
        /// The budget.
        limit: Duration,
    },
    /// The heap passed its limit.
    Heap {
        /// The limit in bytes.
        limit: usize,
        /// The bytes in use when the script was stopped.
        in_use: usize,
    },
}

impl std::fmt::Display for LimitExceeded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::CpuTime { limit } => write!(
                f,
                "LimitExceeded: CPU time limit of {} ms exceeded; the script was stopped",
                limit.as_millis()
            ),
            Self::Heap { limit, in_use } => write!(
                f,
                "LimitExceeded: heap limit of {} MiB exceeded ({} MiB in use); the script was stopped",
                limit >> 20,
                in_use >> 20
            ),
        }
    }
}

impl std::error::Error for LimitExceeded {}

/// Bytes allocated and not yet freed through [`CountingAllocator`].
static IN_USE: AtomicUsize = AtomicUsize::new(0);
/// Whether [`CountingAllocator`] is the global allocator (it has allocated once).
static COUNTING: AtomicBool = AtomicBool::new(false);

/// A global allocator that counts the bytes in use (the system allocator underneath), so
/// that [`Limits::max_heap_bytes`] covers all memory: install it in the program.
///
/// ```no_run
/// #[global_allocator]
/// static ALLOCATOR: boa_streams_host::limits::CountingAllocator =
///     boa_streams_host::limits::CountingAllocator;
///
/// fn main() {
///     assert!(boa_streams_host::limits::heap_in_use().is_some());
/// }
/// ```
///
/// Counting costs one relaxed atomic add per allocation and per free. Allocations never fail
/// because of the limit (a failed allocation aborts a Rust process): the limit stops the
/// script instead.
#[derive(Debug, Clone, Copy, Default)]
pub struct CountingAllocator;

// SAFETY: every method forwards to the system allocator with the same arguments; the counter
// is bookkeeping only.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            IN_USE.fetch_add(layout.size(), Ordering::Relaxed);
            if !COUNTING.load(Ordering::Relaxed) {
                COUNTING.store(true, Ordering::Relaxed);
            }
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            IN_USE.fetch_add(layout.size(), Ordering::Relaxed);
            if !COUNTING.load(Ordering::Relaxed) {
                COUNTING.store(true, Ordering::Relaxed);
            }
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) };
        IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            if new_size >= layout.size() {
                IN_USE.fetch_add(new_size - layout.size(), Ordering::Relaxed);
            } else {
                IN_USE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        new
    }
}

/// The bytes in use as [`CountingAllocator`] counts them, or `None` if it is not the
/// program's global allocator.
///
/// ```
/// // This doctest's program does not install the allocator.
/// assert_eq!(boa_streams_host::limits::heap_in_use(), None);
/// ```
#[must_use]
pub fn heap_in_use() -> Option<usize> {
    COUNTING
        .load(Ordering::Relaxed)
        .then(|| IN_USE.load(Ordering::Relaxed))
}

/// The heap in use for [`Limits::max_heap_bytes`]: the counting allocator's figure, else the
/// collector's.
fn heap_now() -> usize {
    heap_in_use().unwrap_or_else(boa_gc::allocated_bytes)
}

/// What the watchdog shares with the host.
struct Watch {
    stop: AtomicBool,
    exceeded: Mutex<Option<LimitExceeded>>,
    /// Set once the host has recorded the limit's error (one report per stop).
    reported: AtomicBool,
}

/// The armed limits of a host, kept in its context (dropped with it: the watchdog stops).
pub(crate) struct Armed {
    limits: Limits,
    watch: Arc<Watch>,
    watchdog: Option<JoinHandle<()>>,
}

impl Drop for Armed {
    fn drop(&mut self) {
        self.watch.stop.store(true, Ordering::Relaxed);
        if let Some(watchdog) = self.watchdog.take() {
            watchdog.thread().unpark();
            let _ = watchdog.join();
        }
        if self.limits.max_heap_bytes.is_some() {
            boa_gc::set_heap_limit(None, None);
        }
    }
}

/// The CPU time the thread that created it has spent.
struct CpuClock {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    clock: libc::clockid_t,
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    start: Instant,
}

impl CpuClock {
    /// The clock of the calling thread (`None` if the system has none).
    fn of_this_thread() -> Option<Self> {
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        {
            let mut clock: libc::clockid_t = 0;
            // SAFETY: pthread_self is the calling thread, alive; `clock` is a valid out
            // pointer.
            let r = unsafe { libc::pthread_getcpuclockid(libc::pthread_self(), &mut clock) };
            (r == 0).then_some(Self { clock })
        }
        #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
        {
            Some(Self {
                start: Instant::now(),
            })
        }
    }

    /// CPU time spent (wall time since creation where there is no thread clock).
    fn now(&self) -> Option<Duration> {
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        {
            let mut ts = libc::timespec {
                tv_sec: 0,
                tv_nsec: 0,
            };
            // SAFETY: `ts` is a valid out pointer. The clock id stays valid while the thread
            // lives; the watchdog is joined before the host (on that thread) goes.
            let r = unsafe { libc::clock_gettime(self.clock, &mut ts) };
            (r == 0).then(|| {
                Duration::new(
                    u64::try_from(ts.tv_sec).unwrap_or(0),
                    u32::try_from(ts.tv_nsec).unwrap_or(0),
                )
            })
        }
        #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
        {
            Some(self.start.elapsed())
        }
    }
}

/// Arm `limits` on `context` (see `Host::set_limits`).
pub(crate) fn arm(context: &mut Context, limits: Limits) {
    // Drop the previous watchdog first (it could interrupt the new run).
    drop(context.remove_data::<Armed>());
    let handle = context.interrupt_handle();
    handle.reset();
    context.set_heap_limit(limits.max_heap_bytes);
    if limits == Limits::default() {
        return;
    }
    let watch = Arc::new(Watch {
        stop: AtomicBool::new(false),
        exceeded: Mutex::new(None),
        reported: AtomicBool::new(false),
    });
    let clock = limits.cpu_time.and_then(|_| CpuClock::of_this_thread());
    let tick = limits.cpu_time.map_or(Duration::from_millis(5), |t| {
        (t / 10).clamp(Duration::from_millis(1), Duration::from_millis(10))
    });
    let watchdog = {
        let watch = watch.clone();
        std::thread::Builder::new()
            .name("boa-streams-limits".into())
            .spawn(move || watchdog(&watch, &handle, limits, clock.as_ref(), tick))
            .ok()
    };
    context.insert_data(Armed {
        limits,
        watch,
        watchdog,
    });
}

/// The watchdog's loop: interrupts the script once a budget is spent.
fn watchdog(
    watch: &Watch,
    handle: &InterruptHandle,
    limits: Limits,
    clock: Option<&CpuClock>,
    tick: Duration,
) {
    let started = Instant::now();
    let base = clock.and_then(CpuClock::now);
    while !watch.stop.load(Ordering::Relaxed) {
        let over = if let (Some(limit), Some(clock), Some(base)) = (limits.cpu_time, clock, base) {
            clock
                .now()
                .is_some_and(|now| now.saturating_sub(base) >= limit)
                .then_some(LimitExceeded::CpuTime { limit })
        } else if let Some(limit) = limits.cpu_time {
            (started.elapsed() >= limit).then_some(LimitExceeded::CpuTime { limit })
        } else {
            None
        };
        let over = over.or_else(|| {
            let limit = limits.max_heap_bytes?;
            let in_use = heap_in_use()?;
            (in_use > limit).then_some(LimitExceeded::Heap { limit, in_use })
        });
        if let Some(over) = over {
            if let Ok(mut exceeded) = watch.exceeded.lock() {
                exceeded.get_or_insert(over);
            }
            handle.interrupt();
            return;
        }
        std::thread::park_timeout(tick);
    }
}

/// The limit that stopped the script of `context`'s host.
pub(crate) fn exceeded(context: &Context) -> Option<LimitExceeded> {
    let armed = context.get_data::<Armed>()?;
    if !context.interrupt_handle().is_interrupted() {
        return None;
    }
    let recorded = armed.watch.exceeded.lock().ok().and_then(|e| *e);
    // The engine's own heap check (after a collection) interrupts without the watchdog.
    recorded.or_else(|| {
        armed
            .limits
            .max_heap_bytes
            .map(|limit| LimitExceeded::Heap {
                limit,
                in_use: heap_now(),
            })
    })
}

/// Whether `error` is the engine's error for a stopped script (an interrupt or the heap
/// limit).
pub(crate) fn is_stop(error: &JsError) -> bool {
    matches!(
        error.as_engine(),
        Some(EngineError::Interrupted | EngineError::HeapLimit)
    )
}

/// For the host's error reporting, once per stop: the message naming the limit that stopped
/// the script (`None` if no limit did, or if it was already reported).
pub(crate) fn stop_report(context: &Context) -> Option<String> {
    let armed = context.get_data::<Armed>()?;
    let exceeded = exceeded(context)?;
    (!armed.watch.reported.swap(true, Ordering::Relaxed)).then(|| exceeded.to_string())
}
