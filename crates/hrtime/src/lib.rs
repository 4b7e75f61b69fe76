//! # boa_hrtime
//!
//! [High Resolution Time](https://w3c.github.io/hr-time/) (`Performance`, `performance.now()`,
//! `performance.timeOrigin`), the
//! [Performance Timeline](https://w3c.github.io/performance-timeline/) (`PerformanceEntry`,
//! `getEntries()`, `getEntriesByType()`, `getEntriesByName()`, `PerformanceObserver`,
//! `PerformanceObserverEntryList`) and
//! [User Timing](https://w3c.github.io/user-timing/) (`mark()`, `measure()`, `clearMarks()`,
//! `clearMeasures()`, `PerformanceMark`, `PerformanceMeasure`) for Boa.
//!
//! ```
//! use boa_engine::{Context, Source};
//!
//! let mut context = Context::default();
//! boa_hrtime::register(&mut context).unwrap();
//! let n = context
//!     .eval(Source::from_bytes(
//!         "performance.mark('a'); performance.measure('m', 'a');
//!          performance.getEntries().map(e => e.entryType).join()",
//!     ))
//!     .unwrap();
//! assert_eq!(n.as_string().unwrap().to_std_string_escaped(), "mark,measure");
//! ```
//!
//! # Time origin and resolution
//!
//! Each realm [`register`] runs on gets its own time origin: the context clock's `now()` at
//! registration (a worker's context, registered when the worker starts, so gets its own).
//! `timeOrigin` is the context clock's Unix time at that moment, in milliseconds. Times follow
//! the context's [`Clock`](boa_engine::context::time::Clock), so a host's virtual clock moves
//! them too.
//!
//! [Coarsen time](https://w3c.github.io/hr-time/#dfn-coarsen-time): a host is not
//! cross-origin isolated, so the spec's resolution for that case applies: times are coarsened
//! down to a multiple of [`TIME_RESOLUTION_MICROS`] (100 microseconds), without jitter.

#![warn(missing_docs)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

mod entry;
mod observer;
mod performance;
mod registration;
mod state;
mod user_timing;

pub use entry::PerformanceEntryInterface;
pub use observer::{PerformanceObserverEntryListInterface, PerformanceObserverInterface};
pub use performance::PerformanceInterface;
pub use registration::register;
pub use state::{current_high_resolution_time, TIME_RESOLUTION_MICROS};
pub use user_timing::{PerformanceMarkInterface, PerformanceMeasureInterface};

boa_webidl::runtime_extension!(
    /// A boa_runtime `RuntimeExtension` that registers HR Time and User Timing (see
    /// [`register`]).
    HrTimeExtension,
    register
);

#[cfg(test)]
mod test_support;
#[cfg(test)]
mod tests;
