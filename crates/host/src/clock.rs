//! The virtual clock used when `HostOptions::virtual_time` is set.

use std::cell::Cell;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use boa_engine::context::time::{Clock, JsInstant};

/// How far the virtual clock moves when the host starts evaluating a script or module
/// ([`VirtualClock::tick`]): a real clock always advances between a realm's creation (its
/// time origin, `performance.timeOrigin`) and the first statement of a script run in it, and
/// between two scripts. One millisecond is ten times the resolution `performance.now()` is
/// coarsened to, so a script never reads `performance.now() === 0`.
pub(crate) const SCRIPT_TICK: Duration = Duration::from_millis(1);

/// A monotonic clock that only moves when the event loop or the host moves it.
///
/// `now()` starts at zero and advances only through [`VirtualClock::advance_to`] (the loop
/// jumping to the next due timer) and [`VirtualClock::tick`] (a script evaluation); the wall
/// clock seen by `Date` is the real time at creation plus the virtual time elapsed, so dates
/// stay plausible while timers run instantly.
///
/// Boa's own `FixedClock` would do for the monotonic part, but it reports its millisecond
/// counter as the Unix time too (so `Date.now()` would sit near 1970).
#[derive(Debug)]
pub(crate) struct VirtualClock {
    elapsed: Cell<Duration>,
    system_base_millis: i64,
}

impl VirtualClock {
    pub(crate) fn new() -> Self {
        let system_base_millis = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
        Self {
            elapsed: Cell::new(Duration::ZERO),
            system_base_millis,
        }
    }

    /// Move the clock forward by [`SCRIPT_TICK`] (saturating): the host calls it as it starts
    /// evaluating a script or a module, so time has passed since the realm was created and
    /// since the previous script, as on a real clock. Timers keep their order: each is due at
    /// a fixed point of this one clock.
    pub(crate) fn tick(&self) {
        self.elapsed
            .set(self.elapsed.get().saturating_add(SCRIPT_TICK));
    }

    /// Move the clock forward to `target` (never backward).
    pub(crate) fn advance_to(&self, target: JsInstant) {
        let nanos = target.nanos_since_epoch();
        let secs = u64::try_from(nanos / 1_000_000_000).unwrap_or(u64::MAX);
        // The remainder is below 1e9 and fits a u32.
        let sub = u32::try_from(nanos % 1_000_000_000).unwrap_or(0);
        let target = Duration::new(secs, sub);
        if target > self.elapsed.get() {
            self.elapsed.set(target);
        }
    }
}

impl Clock for VirtualClock {
    fn now(&self) -> JsInstant {
        let elapsed = self.elapsed.get();
        JsInstant::new(elapsed.as_secs(), elapsed.subsec_nanos())
    }

    fn system_time_millis(&self) -> i64 {
        let elapsed = i64::try_from(self.elapsed.get().as_millis()).unwrap_or(i64::MAX);
        self.system_base_millis.saturating_add(elapsed)
    }
}
