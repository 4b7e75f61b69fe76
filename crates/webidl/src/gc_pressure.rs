//! Memory pressure the collector does not see: every `ArrayBuffer` data block the library
//! creates is counted here, and a full collection is forced once enough of it was made since the
//! last collection.
//!
//! Boa 0.22's collector starts a collection when the bytes of GC boxes allocated since the last
//! one pass its threshold; an `ArrayBuffer`'s data block is a plain allocation it does not
//! count, and the engine offers no way to report external memory (`GcConfig` is private in
//! boa_gc 0.22). A stream that hands script one 64 KiB `Uint8Array` per chunk while allocating
//! few GC boxes per chunk (the fast paths allocate no promise per chunk) therefore leaves the
//! dead blocks of the chunks already read to pile up: more memory from the OS, more page faults,
//! worse cache use (measured in `docs/perf/findings.md`, "Issue 12, fourth round").
//!
//! The one mechanism: the library makes its `ArrayBuffer` objects only through this module's
//! constructors ([`new_array_buffer`], [`zeroed_array_buffer`], and [`adopt_array_buffer`] for
//! a block moved out of another buffer, which adds no memory). The crate's `clippy.toml`
//! disallows `JsArrayBuffer::from_byte_block` and `JsArrayBuffer::new` everywhere else, so no
//! call site can forget to count. The counter is reset by every collection, the engine's own
//! included (a sentinel GC box's finalizer tells), so a script that allocates many GC objects
//! anyway never pays for an extra one.
//!
//! The budget between forced collections is [`MIN_BUDGET`], raised for a large heap: a full
//! collection costs time proportional to the live heap, so the budget after a forced collection
//! is the bytes the library makes in about [`BUDGET_PER_COLLECTION_NS`] times that
//! collection's duration (this thread's CPU time, smoothed) at [`BYTES_PER_NS`] (bounded by
//! [`MAX_BUDGET`]). With the small heaps
//! of stream pipelines this is [`MIN_BUDGET`].
//!
//! NOTE: a forced collection is visible to script only through `WeakRef`/`FinalizationRegistry`
//! (Boa 0.22 has both), whose timing ECMAScript leaves to the implementation; it is the same
//! with the fast paths on and off (every mode makes the same buffers), no library step waits
//! for one, and the difftest's programs use neither. It happens only immediately
//! before the constructors' own GC allocation, where boa_gc's allocator may run a collection
//! by itself: it adds no new point where a collection can happen, and callers already hold no
//! `GcRefCell` borrow there. During a collection's sweep (`!boa_gc::finalizer_safe()`, where
//! no GC allocation may happen either) it is skipped.

use std::cell::Cell;
use std::time::{Duration, Instant};

use boa_engine::object::builtins::{AlignedVec, JsArrayBuffer};
use boa_engine::{Context, JsResult};
use boa_gc::{Finalize, Gc, Trace};

/// The least number of counted bytes between two forced collections (measured on
/// `DecompressionStream`: 4 MiB has the fewest cache misses and page faults; a collection of a
/// small heap costs about 1.3M instructions, ≈0.2% of decompressing 4 MiB).
pub const MIN_BUDGET: usize = 4 << 20;

/// The most: memory stays bounded however long a collection takes.
pub const MAX_BUDGET: usize = 256 << 20;

/// The rate the budget assumes the library makes buffer data at (a copy plus the codec's or
/// the encoder's work on each byte: about 1 GB/s).
pub const BYTES_PER_NS: u64 = 1;

/// The budget lets a collection cost at most 1/this of the time spent making the bytes.
pub const BUDGET_PER_COLLECTION_NS: u64 = 4;

thread_local! {
    /// Counted bytes since the last collection.
    static SINCE_COLLECTION: Cell<usize> = const { Cell::new(0) };
    /// The current budget.
    static BUDGET: Cell<usize> = const { Cell::new(MIN_BUDGET) };
    /// Whether a sentinel box is waiting for the next collection.
    static SENTINEL_ARMED: Cell<bool> = const { Cell::new(false) };
    /// Set by the sentinel's finalizer: a collection ran since the sentinel was made.
    static COLLECTED: Cell<bool> = const { Cell::new(false) };
    /// The smoothed duration of a forced collection, in ns (0: none yet).
    static COLLECTION_NS: Cell<u64> = const { Cell::new(0) };
    /// Collections this module forced (for tests and measurements).
    static FORCED: Cell<u64> = const { Cell::new(0) };
}

/// A GC box nothing references: the next collection finalizes it.
#[derive(Trace)]
struct Sentinel;

impl Finalize for Sentinel {
    fn finalize(&self) {
        COLLECTED.with(|c| c.set(true));
    }
}

/// Count `bytes` of new `ArrayBuffer` data and collect if the budget is spent. Called only
/// right before the caller's GC allocation (see the module's NOTE).
fn report(bytes: usize) {
    if bytes == 0 {
        return;
    }
    let mut since = SINCE_COLLECTION.with(Cell::get);
    if COLLECTED.with(|c| c.replace(false)) {
        // The engine (or this module) collected since the sentinel was made: the blocks
        // counted before it that were dead are freed.
        since = 0;
        SENTINEL_ARMED.with(|a| a.set(false));
    }
    since = since.saturating_add(bytes);
    if since > BUDGET.with(Cell::get) && boa_gc::finalizer_safe() {
        let took = timed(boa_gc::force_collect);
        FORCED.with(|f| f.set(f.get() + 1));
        BUDGET.with(|b| b.set(budget_after(smoothed(took))));
        COLLECTED.with(|c| c.set(false));
        SENTINEL_ARMED.with(|a| a.set(false));
        since = 0;
    }
    SINCE_COLLECTION.with(|s| s.set(since));
    if !SENTINEL_ARMED.with(|a| a.replace(true)) {
        drop(Gc::new(Sentinel));
    }
}

/// The time `f` took: this thread's CPU time where the platform has it (time spent waiting for
/// a core on a loaded machine is not the collection's cost), wall time otherwise.
fn timed(f: impl FnOnce()) -> Duration {
    let wall = Instant::now();
    let cpu = thread_cpu_ns();
    f();
    match (cpu, thread_cpu_ns()) {
        (Some(a), Some(b)) => Duration::from_nanos(b.saturating_sub(a)),
        _ => wall.elapsed(),
    }
}

/// CPU time consumed by the calling thread, in ns (`CLOCK_THREAD_CPUTIME_ID`).
#[cfg(unix)]
fn thread_cpu_ns() -> Option<u64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the call only writes it.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return None;
    }
    let secs = u64::try_from(ts.tv_sec).ok()?;
    let nanos = u64::try_from(ts.tv_nsec).ok()?;
    Some(secs.saturating_mul(1_000_000_000).saturating_add(nanos))
}

/// No thread CPU clock here: wall time is used.
#[cfg(not(unix))]
fn thread_cpu_ns() -> Option<u64> {
    None
}

/// The collection time the budget follows: a faster collection lowers it at once, a slower
/// one raises it by a quarter of the difference (a thread preempted during one collection
/// does not inflate the budget; a heap that really grew raises it within a few collections).
fn smoothed(took: Duration) -> Duration {
    let new = u64::try_from(took.as_nanos()).unwrap_or(u64::MAX);
    let ns = COLLECTION_NS.with(|c| {
        let old = c.get();
        let ns = if old == 0 || new <= old {
            new
        } else {
            old + (new - old) / 4
        };
        c.set(ns);
        ns
    });
    Duration::from_nanos(ns)
}

/// The budget after a forced collection that took `took`.
fn budget_after(took: Duration) -> usize {
    let ns = u64::try_from(took.as_nanos()).unwrap_or(u64::MAX);
    let bytes = ns
        .saturating_mul(BUDGET_PER_COLLECTION_NS)
        .saturating_mul(BYTES_PER_NS);
    usize::try_from(bytes)
        .unwrap_or(usize::MAX)
        .clamp(MIN_BUDGET, MAX_BUDGET)
}

/// A new `ArrayBuffer` owning `block`, whose bytes are new memory (a copy, codec output, a
/// deserialized clone): counted.
#[allow(clippy::disallowed_methods)] // the one place that may call it
#[inline]
pub fn new_array_buffer(block: AlignedVec<u8>, ctx: &mut Context) -> JsResult<JsArrayBuffer> {
    report(block.len());
    JsArrayBuffer::from_byte_block(block, ctx)
}

/// `Construct(%ArrayBuffer%, « len »)`: a new zero-filled `ArrayBuffer`: counted.
#[allow(clippy::disallowed_methods)] // the one place that may call it
#[inline]
pub fn zeroed_array_buffer(len: usize, ctx: &mut Context) -> JsResult<JsArrayBuffer> {
    report(len);
    JsArrayBuffer::new(len, ctx)
}

/// A new `ArrayBuffer` owning `block`, moved out of another buffer of this heap that is now
/// detached (TransferArrayBuffer): no new memory, not counted.
#[allow(clippy::disallowed_methods)] // the one place that may call it
#[inline]
pub fn adopt_array_buffer(block: AlignedVec<u8>, ctx: &mut Context) -> JsResult<JsArrayBuffer> {
    JsArrayBuffer::from_byte_block(block, ctx)
}

/// Count `bytes` of `ArrayBuffer` data blocks this module did not make (a script's
/// `slice()`, the engine's own constructors) that a native consumer took and will drop: a
/// byte stream's chunks copied out by a Rust reader (an HTTP response body written to a
/// socket) are dead once copied, and without this count the collector, which does not see
/// data blocks, lets them pile up. May force a collection, so call it only where no
/// `GcRefCell` borrow is held and no JS runs (e.g. in a native future's poll, between
/// jobs); during a collection's sweep it only counts.
///
/// ```
/// use boa_webidl::gc_pressure::{counted_since_collection, count_foreign_block};
///
/// boa_gc::force_collect();
/// let before = counted_since_collection();
/// count_foreign_block(1000);
/// assert_eq!(counted_since_collection(), before + 1000);
/// ```
#[inline]
pub fn count_foreign_block(bytes: usize) {
    report(bytes);
}

/// How many collections this thread's counter forced so far.
///
/// ```
/// let before = boa_webidl::gc_pressure::forced_collections();
/// assert!(boa_webidl::gc_pressure::forced_collections() >= before);
/// ```
pub fn forced_collections() -> u64 {
    FORCED.with(Cell::get)
}

/// The bytes counted on this thread since the last collection (forced or the engine's own):
/// what the next `ArrayBuffer` made through this module adds to.
///
/// ```
/// use boa_engine::{object::builtins::AlignedVec, Context};
/// use boa_webidl::gc_pressure::{counted_since_collection, new_array_buffer};
///
/// let mut context = Context::default();
/// boa_gc::force_collect();
/// let before = counted_since_collection();
/// let _buffer = new_array_buffer(AlignedVec::from_slice(64, &[1, 2, 3]), &mut context).unwrap();
/// assert_eq!(counted_since_collection(), before + 3);
/// ```
pub fn counted_since_collection() -> usize {
    if COLLECTED.with(Cell::get) {
        0
    } else {
        SINCE_COLLECTION.with(Cell::get)
    }
}

#[cfg(test)]
mod tests;
