//! [User Timing](https://w3c.github.io/user-timing/): the `PerformanceMark` and
//! `PerformanceMeasure` interfaces, and the steps of `mark()` and `measure()` that make their
//! entries.

use boa_engine::{
    class::{Class, ClassBuilder},
    property::Attribute,
    Context, JsData, JsError, JsObject, JsResult, JsValue,
};
use boa_gc::{Finalize, Trace};
use boa_webidl::{
    self as webidl, arg, js_key, type_error, Dictionary, Member, INTERFACE_ATTRIBUTES,
};

use crate::entry::{clone_detail, new_entry, this_entry, Entry, EntryKind};
use crate::state::{class_prototype, current_state, relative_now, with_state};

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
pub(crate) fn new_mark(
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

/// The `(DOMString or PerformanceMeasureOptions) startOrMeasureOptions` argument: the
/// dictionary, or the string.
fn to_measure_options(
    start_or_options: JsValue,
    ctx: &mut Context,
) -> JsResult<(Option<MeasureOptions>, Option<JsValue>)> {
    // Overload resolution of (DOMString or PerformanceMeasureOptions): undefined, null and
    // objects are the dictionary, anything else the string.
    if !(start_or_options.is_null_or_undefined() || start_or_options.is_object()) {
        let start = webidl::to_dom_string(&start_or_options, ctx)?;
        return Ok((None, Some(JsValue::from(start))));
    }
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
    let options = MeasureOptions {
        detail,
        start,
        duration,
        end,
    };
    Ok((Some(options), None))
}

/// [measure()](https://w3c.github.io/user-timing/#dom-performance-measure).
pub(crate) fn measure(state: &JsObject, args: &[JsValue], ctx: &mut Context) -> JsResult<JsObject> {
    let name = webidl::to_dom_string(&arg(args, 0), ctx)?;
    // Overload resolution of (DOMString or PerformanceMeasureOptions): undefined, null and
    // objects are the dictionary, anything else the string.
    let (options, start_string) = to_measure_options(arg(args, 1), ctx)?;
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

/// The `PerformanceMark` interface object.
#[derive(Debug, Trace, Finalize, JsData)]
pub struct PerformanceMarkInterface;

/// [detail](https://w3c.github.io/user-timing/#dom-performancemark-detail)
fn mark_detail(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let e = this_entry(this, Some(EntryKind::Mark), "PerformanceMark")?;
    let detail = e.borrow().data().detail.clone();
    Ok(detail)
}

impl Class for PerformanceMarkInterface {
    const NAME: &'static str = "PerformanceMark";
    const LENGTH: usize = 1;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(
            class,
            &[
                Member::to_string_tag("PerformanceMark"),
                Member::attribute("detail", mark_detail),
            ],
        )
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

/// [detail](https://w3c.github.io/user-timing/#dom-performancemeasure-detail)
fn measure_detail(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let e = this_entry(this, Some(EntryKind::Measure), "PerformanceMeasure")?;
    let detail = e.borrow().data().detail.clone();
    Ok(detail)
}

impl Class for PerformanceMeasureInterface {
    const NAME: &'static str = "PerformanceMeasure";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(
            class,
            &[
                Member::to_string_tag("PerformanceMeasure"),
                Member::attribute("detail", measure_detail),
            ],
        )
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        Err(webidl::illegal_constructor())
    }
}
