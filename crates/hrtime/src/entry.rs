//! Performance entries: the native data of a `PerformanceMark` or `PerformanceMeasure`, the
//! [`PerformanceEntry`](https://w3c.github.io/performance-timeline/#the-performanceentry-interface)
//! interface, and [filter buffer by name and type](https://w3c.github.io/performance-timeline/#filter-buffer-by-name-and-type).

use boa_engine::{
    class::{Class, ClassBuilder},
    object::builtins::JsArray,
    property::Attribute,
    Context, JsData, JsObject, JsResult, JsString, JsValue,
};
use boa_gc::{Finalize, Trace};
use boa_webidl::{self as webidl, js_key, type_error, Member, INTERFACE_ATTRIBUTES};

use crate::state::with_state;

/// The kinds of entries: the entry types this implementation supports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EntryKind {
    /// A `PerformanceMark`.
    Mark,
    /// A `PerformanceMeasure`.
    Measure,
}

impl EntryKind {
    pub(crate) fn entry_type(self) -> &'static str {
        match self {
            Self::Mark => "mark",
            Self::Measure => "measure",
        }
    }
}

/// A `PerformanceEntry` (a `PerformanceMark` or a `PerformanceMeasure`).
#[derive(Trace, Finalize, JsData)]
pub(crate) struct Entry {
    #[unsafe_ignore_trace]
    pub(crate) kind: EntryKind,
    #[unsafe_ignore_trace]
    pub(crate) id: u64,
    #[unsafe_ignore_trace]
    pub(crate) name: JsString,
    pub(crate) start_time: f64,
    pub(crate) duration: f64,
    pub(crate) detail: JsValue,
}

pub(crate) fn this_entry(
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

pub(crate) fn new_entry(
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
pub(crate) fn clone_detail(value: &JsValue, ctx: &mut Context) -> JsResult<JsValue> {
    let record = boa_html::structured_clone::structured_serialize(value, ctx)?;
    boa_html::structured_clone::structured_deserialize(record, ctx)
}

/// [Filter buffer by name and type](https://w3c.github.io/performance-timeline/#filter-buffer-by-name-and-type):
/// the `entries` of `entry_type` named `name` (each if given), sorted by `startTime`.
pub(crate) fn filter_entries(
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

/// The `PerformanceEntry` interface object (not constructible).
#[derive(Debug, Trace, Finalize, JsData)]
pub struct PerformanceEntryInterface;

/// [id](https://w3c.github.io/performance-timeline/#dom-performanceentry-id)
fn id(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let e = this_entry(this, None, "PerformanceEntry")?;
    let id = e.borrow().data().id;
    Ok(JsValue::from(id as f64))
}

/// [name](https://w3c.github.io/performance-timeline/#dom-performanceentry-name)
fn name(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let e = this_entry(this, None, "PerformanceEntry")?;
    let name = e.borrow().data().name.clone();
    Ok(name.into())
}

/// [entryType](https://w3c.github.io/performance-timeline/#dom-performanceentry-entrytype)
fn entry_type(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let e = this_entry(this, None, "PerformanceEntry")?;
    let kind = e.borrow().data().kind;
    Ok(JsString::from(kind.entry_type()).into())
}

/// [startTime](https://w3c.github.io/performance-timeline/#dom-performanceentry-starttime)
fn start_time(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let e = this_entry(this, None, "PerformanceEntry")?;
    let t = e.borrow().data().start_time;
    Ok(JsValue::from(t))
}

/// [duration](https://w3c.github.io/performance-timeline/#dom-performanceentry-duration)
fn duration(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let e = this_entry(this, None, "PerformanceEntry")?;
    let d = e.borrow().data().duration;
    Ok(JsValue::from(d))
}

/// [navigationId](https://w3c.github.io/performance-timeline/#dom-performanceentry-navigationid)
// NOTE: navigationId identifies a Window's navigation; a host's global has none, and the
// attribute (not nullable) is 0 for every entry.
fn navigation_id(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    this_entry(this, None, "PerformanceEntry")?;
    Ok(JsValue::from(0))
}

/// [toJSON()](https://w3c.github.io/performance-timeline/#dom-performanceentry-tojson):
/// `[Default] object toJSON();`
fn to_json(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
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
}

impl Class for PerformanceEntryInterface {
    const NAME: &'static str = "PerformanceEntry";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(
            class,
            &[
                Member::to_string_tag("PerformanceEntry"),
                Member::attribute("id", id),
                Member::attribute("name", name),
                Member::attribute("entryType", entry_type),
                Member::attribute("startTime", start_time),
                Member::attribute("duration", duration),
                Member::attribute("navigationId", navigation_id),
                Member::operation("toJSON", 0, to_json),
            ],
        )
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        Err(webidl::illegal_constructor())
    }
}
