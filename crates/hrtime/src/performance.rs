//! The [`Performance`](https://w3c.github.io/hr-time/#sec-performance) interface, with the
//! Performance Timeline's and User Timing's members on it.

use boa_engine::{
    class::{Class, ClassBuilder},
    property::Attribute,
    Context, JsData, JsObject, JsResult, JsString, JsValue,
};
use boa_gc::{Finalize, Trace};
use boa_webidl::{self as webidl, arg, js_key, type_error, Member, INTERFACE_ATTRIBUTES};

use crate::entry::{filter_entries, Entry, EntryKind};
use crate::observer;
use crate::state::{relative_now, with_state, PerformanceState};
use crate::user_timing;

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

/// [timeOrigin](https://w3c.github.io/hr-time/#dom-performance-timeorigin):
/// `readonly attribute DOMHighResTimeStamp timeOrigin;`
fn time_origin(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let state = this_performance(this)?;
    // The timeOrigin getter steps are to return this's relevant settings object's time
    // origin timestamp (the time origin as Unix time).
    with_state(&state, |s| JsValue::from(s.origin_unix_ms))
}

/// [now()](https://w3c.github.io/hr-time/#dom-performance-now):
/// `DOMHighResTimeStamp now();`
fn now(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let state = this_performance(this)?;
    // The now() method steps are to return the current high resolution time given this's
    // relevant global object.
    let origin = with_state(&state, |s| s.origin)?;
    Ok(JsValue::from(relative_now(origin, ctx)))
}

/// [toJSON()](https://w3c.github.io/hr-time/#dom-performance-tojson):
/// `[Default] object toJSON();`
fn to_json(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let state = this_performance(this)?;
    // The default toJSON steps: an object with each attribute's value (timeOrigin).
    let origin = with_state(&state, |s| s.origin_unix_ms)?;
    let result = JsObject::with_object_proto(ctx.intrinsics());
    result.create_data_property_or_throw(js_key!("timeOrigin"), origin, ctx)?;
    Ok(result.into())
}

/// [getEntries()](https://w3c.github.io/performance-timeline/#dom-performance-getentries)
fn get_entries(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let state = this_performance(this)?;
    filter_buffer(&state, None, None, ctx)
}

/// [getEntriesByType(type)](https://w3c.github.io/performance-timeline/#dom-performance-getentriesbytype)
fn get_entries_by_type(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let state = this_performance(this)?;
    required(args, 1, "getEntriesByType", "Performance")?;
    let entry_type = webidl::to_dom_string(&arg(args, 0), ctx)?;
    filter_buffer(&state, None, Some(entry_type), ctx)
}

/// [getEntriesByName(name, type)](https://w3c.github.io/performance-timeline/#dom-performance-getentriesbyname)
fn get_entries_by_name(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let state = this_performance(this)?;
    required(args, 1, "getEntriesByName", "Performance")?;
    let name = webidl::to_dom_string(&arg(args, 0), ctx)?;
    let entry_type = match args.get(1) {
        Some(v) if !v.is_undefined() => Some(webidl::to_dom_string(v, ctx)?),
        _ => None,
    };
    filter_buffer(&state, Some(name), entry_type, ctx)
}

/// [mark(markName, markOptions)](https://w3c.github.io/user-timing/#dom-performance-mark)
fn mark(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let state = this_performance(this)?;
    required(args, 1, "mark", "Performance")?;
    // 1. Run the PerformanceMark constructor and let entry be the newly created object.
    let entry = user_timing::new_mark(&arg(args, 0), &arg(args, 1), &state, None, ctx)?;
    // 2. Queue entry.
    observer::queue_a_performance_entry(&state, &entry, "mark", ctx)?;
    // 3. Add entry to the performance entry buffer.
    with_state(&state, |s| s.buffer.borrow_mut().push(entry.clone()))?;
    // 4. Return entry.
    Ok(entry.into())
}

/// [clearMarks(markName)](https://w3c.github.io/user-timing/#dom-performance-clearmarks)
fn clear_marks(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let state = this_performance(this)?;
    clear(&state, EntryKind::Mark, args, ctx)
}

/// [measure(measureName, startOrMeasureOptions, endMark)](https://w3c.github.io/user-timing/#dom-performance-measure)
fn measure(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let state = this_performance(this)?;
    required(args, 1, "measure", "Performance")?;
    let entry = user_timing::measure(&state, args, ctx)?;
    // Queue entry, then add it to the performance entry buffer.
    observer::queue_a_performance_entry(&state, &entry, "measure", ctx)?;
    with_state(&state, |s| s.buffer.borrow_mut().push(entry.clone()))?;
    Ok(entry.into())
}

/// [clearMeasures(measureName)](https://w3c.github.io/user-timing/#dom-performance-clearmeasures)
fn clear_measures(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let state = this_performance(this)?;
    clear(&state, EntryKind::Measure, args, ctx)
}

impl Class for PerformanceInterface {
    const NAME: &'static str = "Performance";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(
            class,
            &[
                Member::to_string_tag("Performance"),
                Member::attribute("timeOrigin", time_origin),
                Member::operation("now", 0, now),
                Member::operation("toJSON", 0, to_json),
                // Performance Timeline.
                Member::operation("getEntries", 0, get_entries),
                Member::operation("getEntriesByType", 1, get_entries_by_type),
                Member::operation("getEntriesByName", 1, get_entries_by_name),
                // User Timing.
                Member::operation("mark", 1, mark),
                Member::operation("clearMarks", 0, clear_marks),
                Member::operation("measure", 1, measure),
                Member::operation("clearMeasures", 0, clear_measures),
            ],
        )
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
