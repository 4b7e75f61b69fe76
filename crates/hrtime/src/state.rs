//! A global's time: its time origin, coarsened relative times, and the per-realm state
//! (the performance entry buffer and the registered observers) every interface reads.

use std::cell::Cell;

use boa_engine::{class::Class, context::time::JsInstant, Context, JsData, JsObject, JsResult};
use boa_gc::{Finalize, GcRefCell, Trace};
use boa_webidl::type_error;

/// The resolution times are coarsened to, in microseconds (the HR Time value for a context
/// that is not cross-origin isolated).
pub const TIME_RESOLUTION_MICROS: u64 = 100;

/// A global's time state and its performance entry buffer (the `ext` object of the
/// `performance` EventTarget; also kept in the realm).
#[derive(Trace, Finalize, JsData)]
pub(crate) struct PerformanceState {
    /// The [time origin](https://w3c.github.io/hr-time/#dfn-time-origin) on the context clock.
    #[unsafe_ignore_trace]
    pub(crate) origin: JsInstant,
    /// The time origin as Unix time in milliseconds (`timeOrigin`).
    pub(crate) origin_unix_ms: f64,
    /// The [performance entry buffer](https://w3c.github.io/performance-timeline/#dfn-performance-entry-buffer)
    /// (marks and measures, in insertion order).
    pub(crate) buffer: GcRefCell<Vec<JsObject>>,
    /// The id the next entry gets.
    pub(crate) next_id: Cell<u64>,
    /// The [list of registered performance observer objects](https://w3c.github.io/performance-timeline/#list-of-registered-performance-observer-objects)
    /// (the `PerformanceObserver`s; each keeps its own options list).
    pub(crate) observers: GcRefCell<Vec<JsObject>>,
    /// The [performance observer task queued flag](https://w3c.github.io/performance-timeline/#dfn-performance-observer-task-queued-flag).
    pub(crate) observer_task_queued: Cell<bool>,
}

/// The per-realm state: the global's `performance` object and its state.
#[derive(Trace, Finalize, JsData)]
pub(crate) struct HrRealm {
    pub(crate) performance: JsObject,
    pub(crate) state: JsObject,
    /// The global's frozen array of supported entry types (`supportedEntryTypes`).
    pub(crate) supported_entry_types: JsObject,
}

pub(crate) fn realm_state(ctx: &Context) -> Option<JsObject> {
    ctx.realm()
        .host_defined()
        .get::<HrRealm>()
        .map(|r| r.state.clone())
}

/// Coarsen a duration in nanoseconds to [`TIME_RESOLUTION_MICROS`], in milliseconds.
pub(crate) fn coarsen(nanos: u128) -> f64 {
    let step = u128::from(TIME_RESOLUTION_MICROS) * 1000;
    let coarse = nanos / step * step;
    coarse as f64 / 1_000_000.0
}

/// The [relative high resolution time](https://w3c.github.io/hr-time/#dfn-relative-high-resolution-time)
/// of now from `origin`, coarsened.
pub(crate) fn relative_now(origin: JsInstant, ctx: &Context) -> f64 {
    let now = ctx.clock().now();
    if now < origin {
        return 0.0;
    }
    coarsen((now - origin).as_nanos())
}

/// The [current high resolution time](https://w3c.github.io/hr-time/#dfn-current-high-resolution-time)
/// of the current realm (milliseconds since its time origin, coarsened), or `None` if
/// [`register`](crate::register) has not run in it.
///
/// ```
/// let mut context = boa_engine::Context::default();
/// assert!(boa_hrtime::current_high_resolution_time(&context).is_none());
/// boa_hrtime::register(&mut context).unwrap();
/// assert!(boa_hrtime::current_high_resolution_time(&context).unwrap() >= 0.0);
/// ```
pub fn current_high_resolution_time(ctx: &Context) -> Option<f64> {
    let state = realm_state(ctx)?;
    let origin = state.downcast_ref::<PerformanceState>()?.origin;
    Some(relative_now(origin, ctx))
}

pub(crate) fn with_state<R>(
    state: &JsObject,
    f: impl FnOnce(&PerformanceState) -> R,
) -> JsResult<R> {
    let s = state
        .downcast_ref::<PerformanceState>()
        .ok_or_else(|| type_error("not a performance state"))?;
    Ok(f(&s))
}

/// The current realm's state, for the steps that use "the current global object".
pub(crate) fn current_state(ctx: &Context) -> JsResult<JsObject> {
    realm_state(ctx).ok_or_else(|| type_error("Performance is not registered in this realm"))
}

/// The prototype of the interface `C` in the current realm.
pub(crate) fn class_prototype<C: Class>(ctx: &Context) -> JsResult<JsObject> {
    ctx.get_global_class::<C>()
        .map(|c| c.prototype())
        .ok_or_else(|| type_error(format!("{} is not registered", C::NAME)))
}
