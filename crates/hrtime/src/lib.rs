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

use std::cell::Cell;

use boa_engine::{
    class::{Class, ClassBuilder},
    context::time::JsInstant,
    object::builtins::JsArray,
    property::{Attribute, PropertyDescriptor},
    Context, JsData, JsError, JsNativeError, JsObject, JsResult, JsString, JsValue, NativeFunction,
};
use boa_gc::{Finalize, GcRefCell, Trace};

use boa_webidl::{self as webidl, arg, js_key, type_error, Dictionary, INTERFACE_ATTRIBUTES};

boa_webidl::runtime_extension!(
    /// A boa_runtime `RuntimeExtension` that registers HR Time and User Timing (see
    /// [`register`]).
    HrTimeExtension,
    register
);

/// The realm mark of [`register`].
#[derive(Debug, Default, Trace, Finalize, JsData)]
struct Registered;

mod observer;
pub use observer::{PerformanceObserverEntryListInterface, PerformanceObserverInterface};

#[cfg(test)]
mod test_support;
#[cfg(test)]
mod tests;

/// The resolution times are coarsened to, in microseconds (the HR Time value for a context
/// that is not cross-origin isolated).
pub const TIME_RESOLUTION_MICROS: u64 = 100;

/// The [timing attribute names](https://w3c.github.io/user-timing/#dfn-timing-attribute) of
/// the `PerformanceTiming` interface: `mark()` rejects them in a Window, and `measure()`
/// converts them through "convert a name to a timestamp", which throws outside a Window.
const PERFORMANCE_TIMING_NAMES: [&str; 21] = [
    "navigationStart",
    "unloadEventStart",
    "unloadEventEnd",
    "redirectStart",
    "redirectEnd",
    "fetchStart",
    "domainLookupStart",
    "domainLookupEnd",
    "connectStart",
    "connectEnd",
    "secureConnectionStart",
    "requestStart",
    "responseStart",
    "responseEnd",
    "domLoading",
    "domInteractive",
    "domContentLoadedEventStart",
    "domContentLoadedEventEnd",
    "domComplete",
    "loadEventStart",
    "loadEventEnd",
];

// ---------------------------------------------------------------------------------------
// Time
// ---------------------------------------------------------------------------------------

/// A global's time state and its performance entry buffer (the `ext` object of the
/// `performance` EventTarget; also kept in the realm).
#[derive(Trace, Finalize, JsData)]
struct PerformanceState {
    /// The [time origin](https://w3c.github.io/hr-time/#dfn-time-origin) on the context clock.
    #[unsafe_ignore_trace]
    origin: JsInstant,
    /// The time origin as Unix time in milliseconds (`timeOrigin`).
    origin_unix_ms: f64,
    /// The [performance entry buffer](https://w3c.github.io/performance-timeline/#dfn-performance-entry-buffer)
    /// (marks and measures, in insertion order).
    buffer: GcRefCell<Vec<JsObject>>,
    /// The id the next entry gets.
    next_id: Cell<u64>,
    /// The [list of registered performance observer objects](https://w3c.github.io/performance-timeline/#list-of-registered-performance-observer-objects)
    /// (the `PerformanceObserver`s; each keeps its own options list).
    observers: GcRefCell<Vec<JsObject>>,
    /// The [performance observer task queued flag](https://w3c.github.io/performance-timeline/#dfn-performance-observer-task-queued-flag).
    observer_task_queued: Cell<bool>,
}

/// The per-realm state: the global's `performance` object and its state.
#[derive(Trace, Finalize, JsData)]
struct HrRealm {
    performance: JsObject,
    state: JsObject,
    /// The global's frozen array of supported entry types (`supportedEntryTypes`).
    supported_entry_types: JsObject,
}

fn realm_state(ctx: &Context) -> Option<JsObject> {
    ctx.realm()
        .host_defined()
        .get::<HrRealm>()
        .map(|r| r.state.clone())
}

/// Coarsen a duration in nanoseconds to [`TIME_RESOLUTION_MICROS`], in milliseconds.
fn coarsen(nanos: u128) -> f64 {
    let step = u128::from(TIME_RESOLUTION_MICROS) * 1000;
    let coarse = nanos / step * step;
    coarse as f64 / 1_000_000.0
}

/// The [relative high resolution time](https://w3c.github.io/hr-time/#dfn-relative-high-resolution-time)
/// of now from `origin`, coarsened.
fn relative_now(origin: JsInstant, ctx: &Context) -> f64 {
    let now = ctx.clock().now();
    if now < origin {
        return 0.0;
    }
    coarsen((now - origin).as_nanos())
}

/// The [current high resolution time](https://w3c.github.io/hr-time/#dfn-current-high-resolution-time)
/// of the current realm (milliseconds since its time origin, coarsened), or `None` if
/// [`register`] has not run in it.
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

fn with_state<R>(state: &JsObject, f: impl FnOnce(&PerformanceState) -> R) -> JsResult<R> {
    let s = state
        .downcast_ref::<PerformanceState>()
        .ok_or_else(|| type_error("not a performance state"))?;
    Ok(f(&s))
}

/// The current realm's state, for the steps that use "the current global object".
fn current_state(ctx: &Context) -> JsResult<JsObject> {
    realm_state(ctx).ok_or_else(|| type_error("Performance is not registered in this realm"))
}

// ---------------------------------------------------------------------------------------
// Performance
// ---------------------------------------------------------------------------------------

/// The `Performance` interface object (instances are EventTargets whose `ext` is the
/// global's state).
#[derive(Debug, Trace, Finalize, JsData)]
pub struct PerformanceInterface;

/// The state of a `Performance` object `this`, else TypeError.
fn this_performance(this: &JsValue) -> JsResult<JsObject> {
    boa_dom::event_target_extra(this)
        .map(|(_, ext)| ext)
        .filter(|ext| ext.is::<PerformanceState>())
        .ok_or_else(|| type_error("'this' is not a Performance object"))
}

impl Class for PerformanceInterface {
    const NAME: &'static str = "Performance";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::to_string_tag(class, "Performance");
        // readonly attribute DOMHighResTimeStamp timeOrigin;
        webidl::attribute(
            class,
            "timeOrigin",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let state = this_performance(this)?;
                // The timeOrigin getter steps are to return this's relevant settings
                // object's time origin timestamp (the time origin as Unix time).
                with_state(&state, |s| JsValue::from(s.origin_unix_ms))
            }),
            None,
        );
        // DOMHighResTimeStamp now();
        webidl::operation(
            class,
            "now",
            0,
            NativeFunction::from_fn_ptr(|this, _, ctx| {
                let state = this_performance(this)?;
                // The now() method steps are to return the current high resolution time given
                // this's relevant global object.
                let origin = with_state(&state, |s| s.origin)?;
                Ok(JsValue::from(relative_now(origin, ctx)))
            }),
        );
        // [Default] object toJSON();
        webidl::operation(
            class,
            "toJSON",
            0,
            NativeFunction::from_fn_ptr(|this, _, ctx| {
                let state = this_performance(this)?;
                // The default toJSON steps: an object with each attribute's value (timeOrigin).
                let origin = with_state(&state, |s| s.origin_unix_ms)?;
                let result = JsObject::with_object_proto(ctx.intrinsics());
                result.create_data_property_or_throw(js_key!("timeOrigin"), origin, ctx)?;
                Ok(result.into())
            }),
        );
        // Performance Timeline: getEntries(), getEntriesByType(type),
        // getEntriesByName(name, optional type).
        webidl::operation(
            class,
            "getEntries",
            0,
            NativeFunction::from_fn_ptr(|this, _, ctx| {
                let state = this_performance(this)?;
                filter_buffer(&state, None, None, ctx)
            }),
        );
        webidl::operation(
            class,
            "getEntriesByType",
            1,
            NativeFunction::from_fn_ptr(|this, args, ctx| {
                let state = this_performance(this)?;
                required(args, 1, "getEntriesByType", "Performance")?;
                let entry_type = webidl::to_dom_string(&arg(args, 0), ctx)?;
                filter_buffer(&state, None, Some(entry_type), ctx)
            }),
        );
        webidl::operation(
            class,
            "getEntriesByName",
            1,
            NativeFunction::from_fn_ptr(|this, args, ctx| {
                let state = this_performance(this)?;
                required(args, 1, "getEntriesByName", "Performance")?;
                let name = webidl::to_dom_string(&arg(args, 0), ctx)?;
                let entry_type = match args.get(1) {
                    Some(v) if !v.is_undefined() => Some(webidl::to_dom_string(v, ctx)?),
                    _ => None,
                };
                filter_buffer(&state, Some(name), entry_type, ctx)
            }),
        );
        // User Timing.
        webidl::operation(
            class,
            "mark",
            1,
            NativeFunction::from_fn_ptr(|this, args, ctx| {
                let state = this_performance(this)?;
                required(args, 1, "mark", "Performance")?;
                // 1. Run the PerformanceMark constructor and let entry be the newly created
                //    object.
                let entry = new_mark(&arg(args, 0), &arg(args, 1), &state, None, ctx)?;
                // 2. Queue entry.
                observer::queue_a_performance_entry(&state, &entry, "mark", ctx)?;
                // 3. Add entry to the performance entry buffer.
                with_state(&state, |s| s.buffer.borrow_mut().push(entry.clone()))?;
                // 4. Return entry.
                Ok(entry.into())
            }),
        );
        webidl::operation(
            class,
            "clearMarks",
            0,
            NativeFunction::from_fn_ptr(|this, args, ctx| {
                let state = this_performance(this)?;
                clear(&state, EntryKind::Mark, args, ctx)
            }),
        );
        webidl::operation(
            class,
            "measure",
            1,
            NativeFunction::from_fn_ptr(|this, args, ctx| {
                let state = this_performance(this)?;
                required(args, 1, "measure", "Performance")?;
                let entry = measure(&state, args, ctx)?;
                // Queue entry, then add it to the performance entry buffer.
                observer::queue_a_performance_entry(&state, &entry, "measure", ctx)?;
                with_state(&state, |s| s.buffer.borrow_mut().push(entry.clone()))?;
                Ok(entry.into())
            }),
        );
        webidl::operation(
            class,
            "clearMeasures",
            0,
            NativeFunction::from_fn_ptr(|this, args, ctx| {
                let state = this_performance(this)?;
                clear(&state, EntryKind::Measure, args, ctx)
            }),
        );
        Ok(())
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        Err(webidl::illegal_constructor())
    }
}

fn required(args: &[JsValue], n: usize, method: &str, interface: &str) -> JsResult<()> {
    webidl::required_arguments(args, n, interface, method)
}

/// The entries of the buffer of `state` filtered by `name` and `entry_type`, in
/// chronological order of `startTime`
/// ([filter buffer map by name and type](https://w3c.github.io/performance-timeline/#filter-buffer-map-by-name-and-type)).
fn filter_buffer(
    state: &JsObject,
    name: Option<JsString>,
    entry_type: Option<JsString>,
    ctx: &mut Context,
) -> JsResult<JsValue> {
    let entries = with_state(state, |s| s.buffer.borrow().clone())?;
    filter_entries(entries, name, entry_type, ctx)
}

/// [Filter buffer by name and type](https://w3c.github.io/performance-timeline/#filter-buffer-by-name-and-type):
/// the `entries` of `entry_type` named `name` (each if given), sorted by `startTime`.
fn filter_entries(
    entries: Vec<JsObject>,
    name: Option<JsString>,
    entry_type: Option<JsString>,
    ctx: &mut Context,
) -> JsResult<JsValue> {
    let mut selected: Vec<(f64, JsObject)> = Vec::new();
    for object in entries {
        let Some(entry) = object.downcast_ref::<Entry>() else {
            continue;
        };
        if entry_type
            .as_ref()
            .is_some_and(|t| t.to_std_string_lossy() != entry.kind.entry_type())
        {
            continue;
        }
        if name.as_ref().is_some_and(|n| *n != entry.name) {
            continue;
        }
        let start = entry.start_time;
        drop(entry);
        selected.push((start, object));
    }
    // Sort results's entries in chronological order with respect to startTime (stable).
    selected.sort_by(|a, b| a.0.total_cmp(&b.0));
    let values: Vec<JsValue> = selected.into_iter().map(|(_, o)| o.into()).collect();
    Ok(JsArray::from_iter(values, ctx).into())
}

/// `clearMarks(markName)` / `clearMeasures(measureName)`: remove the entries of `kind` (all,
/// or those named by the argument) from the buffer.
fn clear(
    state: &JsObject,
    kind: EntryKind,
    args: &[JsValue],
    ctx: &mut Context,
) -> JsResult<JsValue> {
    let name = match args.first() {
        Some(v) if !v.is_undefined() => Some(webidl::to_dom_string(v, ctx)?),
        _ => None,
    };
    with_state(state, |s| {
        s.buffer.borrow_mut().retain(|object| {
            object
                .downcast_ref::<Entry>()
                .is_none_or(|e| e.kind != kind || name.as_ref().is_some_and(|n| *n != e.name))
        });
    })?;
    Ok(JsValue::undefined())
}

// ---------------------------------------------------------------------------------------
// Entries
// ---------------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum EntryKind {
    Mark,
    Measure,
}

impl EntryKind {
    fn entry_type(self) -> &'static str {
        match self {
            Self::Mark => "mark",
            Self::Measure => "measure",
        }
    }
}

/// A `PerformanceEntry` (a `PerformanceMark` or a `PerformanceMeasure`).
#[derive(Trace, Finalize, JsData)]
struct Entry {
    #[unsafe_ignore_trace]
    kind: EntryKind,
    #[unsafe_ignore_trace]
    id: u64,
    #[unsafe_ignore_trace]
    name: JsString,
    start_time: f64,
    duration: f64,
    detail: JsValue,
}

fn this_entry(
    this: &JsValue,
    kind: Option<EntryKind>,
    interface: &str,
) -> JsResult<JsObject<Entry>> {
    let entry = webidl::brand::<Entry>(this, interface)?;
    if kind.is_some_and(|k| entry.borrow().data().kind != k) {
        return Err(type_error(format!("'this' is not a {interface} object")));
    }
    Ok(entry)
}

fn new_entry(
    proto: JsObject,
    kind: EntryKind,
    name: JsString,
    start_time: f64,
    duration: f64,
    detail: JsValue,
    state: &JsObject,
) -> JsResult<JsObject> {
    let id = with_state(state, |s| {
        let id = s.next_id.get();
        s.next_id.set(id.saturating_add(1));
        id
    })?;
    Ok(JsObject::from_proto_and_data(
        Some(proto),
        Entry {
            kind,
            id,
            name,
            start_time,
            duration,
            detail,
        },
    ))
}

/// StructuredSerialize then StructuredDeserialize in the current realm (a `detail`).
fn clone_detail(value: &JsValue, ctx: &mut Context) -> JsResult<JsValue> {
    let record = boa_html::structured_clone::structured_serialize(value, ctx)?;
    boa_html::structured_clone::structured_deserialize(record, ctx)
}

/// A `double` (restricted) dictionary member or argument: ToNumber, non-finite is a TypeError.
fn to_restricted_double(value: &JsValue, what: &str, ctx: &mut Context) -> JsResult<f64> {
    let n = value.to_number(ctx)?;
    if !n.is_finite() {
        return Err(type_error(format!("{what} is not a finite number")));
    }
    Ok(n)
}

/// The [PerformanceMark constructor](https://w3c.github.io/user-timing/#the-performancemark-constructor)
/// steps: a new mark with prototype `proto` (or the current realm's `PerformanceMark.prototype`).
fn new_mark(
    name: &JsValue,
    options: &JsValue,
    state: &JsObject,
    proto: Option<JsObject>,
    ctx: &mut Context,
) -> JsResult<JsObject> {
    let name = webidl::to_dom_string(name, ctx)?;
    // Dictionary members in lexicographic order: detail, startTime.
    let dict = Dictionary::new(options, "PerformanceMarkOptions")?;
    let detail = dict.get(js_key!("detail"), ctx)?;
    let start_time = match dict.get(js_key!("startTime"), ctx)? {
        Some(v) => Some(to_restricted_double(&v, "startTime", ctx)?),
        None => None,
    };
    // 1. If the current global object is a Window object and markName uses the same name as
    //    a read only attribute in the PerformanceTiming interface, throw a SyntaxError.
    // NOTE: a host's global is not a Window; this step never applies.
    // 2. Create a new PerformanceMark object (entry) with the current global object's realm.
    // 3. Set entry's name attribute to markName.
    // 4. Set entry's entryType attribute to DOMString "mark".
    // 5. Set entry's startTime attribute as follows:
    let start_time = match start_time {
        // 5.1 If markOptions's startTime member exists, then:
        //   5.1.1 If markOptions's startTime is negative, throw a TypeError.
        Some(t) if t < 0.0 => {
            return Err(type_error(format!(
                "Failed to create mark '{}': startTime cannot be negative",
                name.to_std_string_lossy()
            )))
        }
        //   5.1.2 Otherwise, set entry's startTime to the value of markOptions's startTime.
        Some(t) => t,
        // 5.2 Otherwise, set it to the value that would be returned by the Performance
        //     object's now() method.
        None => {
            let origin = with_state(state, |s| s.origin)?;
            relative_now(origin, ctx)
        }
    };
    // 6. Set entry's duration attribute to 0.
    // 7. If markOptions's detail is null, set entry's detail to null.
    // 8. Otherwise: record = StructuredSerialize(detail); detail =
    //    StructuredDeserialize(record, the current realm).
    // NOTE: an absent detail (undefined) is null as well, as the User Timing tests and
    // every engine have it ("the detail is not provided ... return a null value").
    let detail = match detail {
        Some(v) if !v.is_null() => clone_detail(&v, ctx)?,
        _ => JsValue::null(),
    };
    let proto = match proto {
        Some(p) => p,
        None => class_prototype::<PerformanceMarkInterface>(ctx)?,
    };
    new_entry(proto, EntryKind::Mark, name, start_time, 0.0, detail, state)
}

fn class_prototype<C: Class>(ctx: &Context) -> JsResult<JsObject> {
    ctx.get_global_class::<C>()
        .map(|c| c.prototype())
        .ok_or_else(|| type_error(format!("{} is not registered", C::NAME)))
}

/// The members of a `PerformanceMeasureOptions` dictionary (each `None` when absent).
#[derive(Default)]
struct MeasureOptions {
    detail: Option<JsValue>,
    start: Option<JsValue>,
    duration: Option<f64>,
    end: Option<JsValue>,
}

/// A `(DOMString or DOMHighResTimeStamp)` member: a Number stays a (restricted) double,
/// anything else becomes a DOMString.
fn to_string_or_timestamp(value: JsValue, what: &str, ctx: &mut Context) -> JsResult<JsValue> {
    if value.is_number() {
        Ok(to_restricted_double(&value, what, ctx)?.into())
    } else {
        Ok(webidl::to_dom_string(&value, ctx)?.into())
    }
}

/// [measure()](https://w3c.github.io/user-timing/#dom-performance-measure).
fn measure(state: &JsObject, args: &[JsValue], ctx: &mut Context) -> JsResult<JsObject> {
    let name = webidl::to_dom_string(&arg(args, 0), ctx)?;
    // Overload resolution of (DOMString or PerformanceMeasureOptions): undefined, null and
    // objects are the dictionary, anything else the string.
    let start_or_options = arg(args, 1);
    let (options, start_string) =
        if start_or_options.is_null_or_undefined() || start_or_options.is_object() {
            let dict = Dictionary::new(&start_or_options, "PerformanceMeasureOptions")?;
            // Members in lexicographic order: detail, duration, end, start.
            let detail = dict.get(js_key!("detail"), ctx)?;
            let duration = match dict.get(js_key!("duration"), ctx)? {
                Some(v) => Some(to_restricted_double(&v, "duration", ctx)?),
                None => None,
            };
            let end = match dict.get(js_key!("end"), ctx)? {
                Some(v) => Some(to_string_or_timestamp(v, "end", ctx)?),
                None => None,
            };
            let start = match dict.get(js_key!("start"), ctx)? {
                Some(v) => Some(to_string_or_timestamp(v, "start", ctx)?),
                None => None,
            };
            (
                Some(MeasureOptions {
                    detail,
                    start,
                    duration,
                    end,
                }),
                None,
            )
        } else {
            (
                None,
                Some(JsValue::from(webidl::to_dom_string(
                    &start_or_options,
                    ctx,
                )?)),
            )
        };
    let end_mark = match args.get(2) {
        Some(v) if !v.is_undefined() => Some(JsValue::from(webidl::to_dom_string(v, ctx)?)),
        _ => None,
    };
    let fail = |message: &str| -> JsError {
        type_error(format!(
            "Failed to execute 'measure' on 'Performance': {message}"
        ))
    };
    // 1. If startOrMeasureOptions is a PerformanceMeasureOptions object and at least one of
    //    start, end, duration, and detail exist, run the following checks:
    if let Some(o) = &options {
        if o.start.is_some() || o.end.is_some() || o.duration.is_some() || o.detail.is_some() {
            // 1.1 If endMark is given, throw a TypeError.
            if end_mark.is_some() {
                return Err(fail(
                    "endMark cannot be given with a PerformanceMeasureOptions that has members",
                ));
            }
            // 1.2 If neither start nor end exists, throw a TypeError.
            if o.start.is_none() && o.end.is_none() {
                return Err(fail("start or end must be given"));
            }
            // 1.3 If start, duration, and end all exist, throw a TypeError.
            if o.start.is_some() && o.duration.is_some() && o.end.is_some() {
                return Err(fail("start, duration and end cannot all be given"));
            }
        }
    }
    // 2. Compute end time as follows:
    let end_time = if let Some(end_mark) = &end_mark {
        // 2.1 If endMark is given, convert a mark to a timestamp.
        convert_mark_to_timestamp(end_mark, state, ctx)?
    } else if let Some(end) = options.as_ref().and_then(|o| o.end.clone()) {
        // 2.2 Otherwise, if startOrMeasureOptions's end exists, convert it.
        convert_mark_to_timestamp(&end, state, ctx)?
    } else if let Some((start, duration)) = options
        .as_ref()
        .and_then(|o| Some((o.start.clone()?, o.duration?)))
    {
        // 2.3 Otherwise, if start and duration exist: start = convert(start), end =
        //     start + duration.
        convert_mark_to_timestamp(&start, state, ctx)? + duration
    } else {
        // 2.4 Otherwise, the value that would be returned by now().
        let origin = with_state(state, |s| s.origin)?;
        relative_now(origin, ctx)
    };
    // 3. Compute start time as follows:
    let start_time = if let Some(start) = options.as_ref().and_then(|o| o.start.clone()) {
        // 3.1 If start exists, convert it.
        convert_mark_to_timestamp(&start, state, ctx)?
    } else if let Some((duration, end)) = options
        .as_ref()
        .and_then(|o| Some((o.duration?, o.end.clone()?)))
    {
        // 3.2 Otherwise, if duration and end exist: end - duration.
        convert_mark_to_timestamp(&end, state, ctx)? - duration
    } else if let Some(start) = &start_string {
        // 3.3 Otherwise, if startOrMeasureOptions is a DOMString, convert it.
        convert_mark_to_timestamp(start, state, ctx)?
    } else {
        // 3.4 Otherwise, 0.
        0.0
    };
    // 4-7. A new PerformanceMeasure: name, "measure", startTime, duration end - start.
    // 8. If startOrMeasureOptions's detail is present: serialize and deserialize it;
    //    otherwise null.
    let detail = match options.and_then(|o| o.detail) {
        Some(d) => clone_detail(&d, ctx)?,
        None => JsValue::null(),
    };
    let proto = class_prototype::<PerformanceMeasureInterface>(ctx)?;
    new_entry(
        proto,
        EntryKind::Measure,
        name,
        start_time,
        end_time - start_time,
        detail,
        state,
    )
}

/// [Convert a mark to a timestamp](https://w3c.github.io/user-timing/#convert-a-mark-to-a-timestamp).
fn convert_mark_to_timestamp(mark: &JsValue, state: &JsObject, ctx: &mut Context) -> JsResult<f64> {
    if let Some(name) = mark.as_string() {
        let std = name.to_std_string_lossy();
        // 1. If mark is a DOMString and it has the same name as a read only attribute in the
        //    PerformanceTiming interface, return the result of converting a name to a
        //    timestamp, which ("If the global object is not a Window object, throw a
        //    TypeError") throws here.
        if PERFORMANCE_TIMING_NAMES.contains(&std.as_str()) {
            return Err(type_error(format!(
                "Failed to execute 'measure' on 'Performance': '{std}' is a PerformanceTiming attribute, which needs a Window"
            )));
        }
        // 2. Otherwise, if mark is a DOMString, the startTime of the most recent mark named
        //    mark in the buffer; if there is none, throw a SyntaxError.
        let found = with_state(state, |s| {
            s.buffer.borrow().iter().rev().find_map(|o| {
                let e = o.downcast_ref::<Entry>()?;
                (e.kind == EntryKind::Mark && e.name == name).then_some(e.start_time)
            })
        })?;
        return match found {
            Some(t) => Ok(t),
            None => Err(JsError::from_opaque(webidl::create_dom_exception(
                &format!("Failed to execute 'measure' on 'Performance': the mark '{std}' does not exist."),
                "SyntaxError",
                ctx,
            )?)),
        };
    }
    // 3. Otherwise, if mark is a DOMHighResTimeStamp: if it is negative, throw a TypeError;
    //    else return mark.
    let t = mark.as_number().unwrap_or(0.0);
    if t < 0.0 {
        return Err(type_error(
            "Failed to execute 'measure' on 'Performance': a timestamp cannot be negative",
        ));
    }
    Ok(t)
}

/// The `PerformanceEntry` interface object (not constructible).
#[derive(Debug, Trace, Finalize, JsData)]
pub struct PerformanceEntryInterface;

impl Class for PerformanceEntryInterface {
    const NAME: &'static str = "PerformanceEntry";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::to_string_tag(class, "PerformanceEntry");
        webidl::attribute(
            class,
            "id",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let e = this_entry(this, None, "PerformanceEntry")?;
                let id = e.borrow().data().id;
                Ok(JsValue::from(id as f64))
            }),
            None,
        );
        webidl::attribute(
            class,
            "name",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let e = this_entry(this, None, "PerformanceEntry")?;
                let name = e.borrow().data().name.clone();
                Ok(name.into())
            }),
            None,
        );
        webidl::attribute(
            class,
            "entryType",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let e = this_entry(this, None, "PerformanceEntry")?;
                let kind = e.borrow().data().kind;
                Ok(JsString::from(kind.entry_type()).into())
            }),
            None,
        );
        webidl::attribute(
            class,
            "startTime",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let e = this_entry(this, None, "PerformanceEntry")?;
                let t = e.borrow().data().start_time;
                Ok(JsValue::from(t))
            }),
            None,
        );
        webidl::attribute(
            class,
            "duration",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let e = this_entry(this, None, "PerformanceEntry")?;
                let d = e.borrow().data().duration;
                Ok(JsValue::from(d))
            }),
            None,
        );
        // NOTE: navigationId identifies a Window's navigation; a host's global has none, and
        // the attribute (not nullable) is 0 for every entry.
        webidl::attribute(
            class,
            "navigationId",
            NativeFunction::from_fn_ptr(|this, _, _| {
                this_entry(this, None, "PerformanceEntry")?;
                Ok(JsValue::from(0))
            }),
            None,
        );
        // [Default] object toJSON();
        webidl::operation(
            class,
            "toJSON",
            0,
            NativeFunction::from_fn_ptr(|this, _, ctx| {
                let e = this_entry(this, None, "PerformanceEntry")?;
                let (id, name, kind, start, duration) = {
                    let b = e.borrow();
                    let d = b.data();
                    (d.id, d.name.clone(), d.kind, d.start_time, d.duration)
                };
                let result = JsObject::with_object_proto(ctx.intrinsics());
                result.create_data_property_or_throw(js_key!("id"), id as f64, ctx)?;
                result.create_data_property_or_throw(js_key!("name"), name, ctx)?;
                result.create_data_property_or_throw(
                    js_key!("entryType"),
                    JsString::from(kind.entry_type()),
                    ctx,
                )?;
                result.create_data_property_or_throw(js_key!("startTime"), start, ctx)?;
                result.create_data_property_or_throw(js_key!("duration"), duration, ctx)?;
                result.create_data_property_or_throw(js_key!("navigationId"), 0, ctx)?;
                Ok(result.into())
            }),
        );
        Ok(())
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        Err(webidl::illegal_constructor())
    }
}

fn detail_getter(kind: EntryKind, interface: &'static str) -> NativeFunction {
    NativeFunction::from_copy_closure(move |this, _, _| {
        let e = this_entry(this, Some(kind), interface)?;
        let detail = e.borrow().data().detail.clone();
        Ok(detail)
    })
}

/// The `PerformanceMark` interface object.
#[derive(Debug, Trace, Finalize, JsData)]
pub struct PerformanceMarkInterface;

impl Class for PerformanceMarkInterface {
    const NAME: &'static str = "PerformanceMark";
    const LENGTH: usize = 1;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::to_string_tag(class, "PerformanceMark");
        webidl::attribute(
            class,
            "detail",
            detail_getter(EntryKind::Mark, "PerformanceMark"),
            None,
        );
        Ok(())
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        Err(webidl::illegal_constructor())
    }

    /// `new PerformanceMark(markName, markOptions)`.
    fn construct(new_target: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsObject> {
        webidl::limits_catchable((|| -> JsResult<JsObject> {
            webidl::require_new(new_target, "PerformanceMark")?;
            if args.is_empty() {
                return Err(type_error(
                    "Failed to construct 'PerformanceMark': 1 argument required, but only 0 present.",
                ));
            }
            let state = current_state(ctx)?;
            let name = arg(args, 0);
            let options = arg(args, 1);
            // Convert the arguments first, then GetPrototypeFromConstructor.
            let entry = new_mark(&name, &options, &state, None, ctx)?;
            let proto = webidl::prototype_from_new_target::<Self>(new_target, ctx)?;
            entry.set_prototype(Some(proto));
            Ok(entry)
        })())
    }
}

/// The `PerformanceMeasure` interface object (not constructible).
#[derive(Debug, Trace, Finalize, JsData)]
pub struct PerformanceMeasureInterface;

impl Class for PerformanceMeasureInterface {
    const NAME: &'static str = "PerformanceMeasure";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::to_string_tag(class, "PerformanceMeasure");
        webidl::attribute(
            class,
            "detail",
            detail_getter(EntryKind::Measure, "PerformanceMeasure"),
            None,
        );
        Ok(())
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        Err(webidl::illegal_constructor())
    }
}

// ---------------------------------------------------------------------------------------
// Registration
// ---------------------------------------------------------------------------------------

fn inherit<C: Class, P: Class>(ctx: &Context) -> JsResult<()> {
    let child = ctx
        .get_global_class::<C>()
        .ok_or_else(|| type_error(format!("{} is not registered", C::NAME)))?;
    let parent = ctx
        .get_global_class::<P>()
        .ok_or_else(|| type_error(format!("{} is not registered", P::NAME)))?;
    child.prototype().set_prototype(Some(parent.prototype()));
    child
        .constructor()
        .set_prototype(Some(parent.constructor()));
    Ok(())
}

/// Register `Performance`, `PerformanceEntry`, `PerformanceMark`, `PerformanceMeasure` and
/// the global `performance` (a `[Replaceable]` accessor) on the context's current realm, after
/// what they depend on (boa_dom's `EventTarget`, boa_html's structured clone). The realm's
/// time origin is the context clock's time now. Registering twice does nothing the second
/// time.
///
/// ```
/// let mut context = boa_engine::Context::default();
/// boa_hrtime::register(&mut context).unwrap();
/// let v = context
///     .eval(boa_engine::Source::from_bytes("performance instanceof EventTarget"))
///     .unwrap();
/// assert_eq!(v.as_boolean(), Some(true));
/// ```
pub fn register(ctx: &mut Context) -> JsResult<()> {
    if !boa_webidl::first_registration::<Registered>(ctx) {
        return Ok(());
    }
    boa_dom::register(ctx)?;
    boa_html::register(ctx)?;
    webidl::register_interface::<PerformanceInterface>(ctx)?;
    webidl::register_interface::<PerformanceEntryInterface>(ctx)?;
    webidl::register_interface::<PerformanceMarkInterface>(ctx)?;
    webidl::register_interface::<PerformanceMeasureInterface>(ctx)?;
    webidl::register_interface::<PerformanceObserverInterface>(ctx)?;
    webidl::register_interface::<PerformanceObserverEntryListInterface>(ctx)?;
    let (target_proto, target_constructor) = boa_dom::event_target_class(ctx)
        .ok_or_else(|| JsNativeError::typ().with_message("EventTarget is not registered"))?;
    let performance_class = ctx
        .get_global_class::<PerformanceInterface>()
        .ok_or_else(|| type_error("Performance is not registered"))?;
    performance_class
        .prototype()
        .set_prototype(Some(target_proto));
    performance_class
        .constructor()
        .set_prototype(Some(target_constructor));
    inherit::<PerformanceMarkInterface, PerformanceEntryInterface>(ctx)?;
    inherit::<PerformanceMeasureInterface, PerformanceEntryInterface>(ctx)?;

    // The time origin: now, on the context's clock.
    let origin = ctx.clock().now();
    let origin_unix_ms = ctx.clock().system_time_millis() as f64;
    let state = JsObject::from_proto_and_data(
        None,
        PerformanceState {
            origin,
            origin_unix_ms,
            buffer: GcRefCell::new(Vec::new()),
            next_id: Cell::new(1),
            observers: GcRefCell::new(Vec::new()),
            observer_task_queued: Cell::new(false),
        },
    );
    // The frozen array of supported entry types, made once per global.
    let supported = JsArray::from_iter(
        observer::SUPPORTED_ENTRY_TYPES
            .iter()
            .map(|t| JsValue::from(JsString::from(*t))),
        ctx,
    );
    let supported_entry_types: JsObject = supported.into();
    supported_entry_types.set_integrity_level(boa_engine::object::IntegrityLevel::Frozen, ctx)?;
    let performance = boa_dom::new_event_target_with(performance_class.prototype(), state.clone());
    ctx.realm().host_defined_mut().insert(HrRealm {
        performance: performance.clone(),
        state,
        supported_entry_types,
    });

    // partial interface mixin WindowOrWorkerGlobalScope {
    //   [Replaceable] readonly attribute Performance performance; };
    let getter = webidl::function(
        ctx,
        "get performance",
        0,
        NativeFunction::from_fn_ptr(|_, _, ctx| {
            Ok(ctx
                .realm()
                .host_defined()
                .get::<HrRealm>()
                .map(|r| JsValue::from(r.performance.clone()))
                .unwrap_or_default())
        }),
    );
    let setter = webidl::function(
        ctx,
        "set performance",
        1,
        NativeFunction::from_fn_ptr(|this, args, ctx| {
            // [Replaceable]: CreateDataPropertyOrThrow(this, "performance", V).
            let target = match this.as_object() {
                Some(o) => o.clone(),
                None => ctx.global_object(),
            };
            target.create_data_property_or_throw(js_key!("performance"), arg(args, 0), ctx)?;
            Ok(JsValue::undefined())
        }),
    );
    ctx.global_object().define_property_or_throw(
        js_key!("performance"),
        PropertyDescriptor::builder()
            .get(getter)
            .set(setter)
            .enumerable(true)
            .configurable(true),
        ctx,
    )?;
    Ok(())
}
