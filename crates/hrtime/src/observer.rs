//! [Performance Timeline](https://w3c.github.io/performance-timeline/) observers:
//! `PerformanceObserver`, `PerformanceObserverEntryList`, "queue a PerformanceEntry" and the
//! PerformanceObserver task.
//!
//! Each global (realm) keeps its list of registered performance observers and its
//! "performance observer task queued flag" in its `PerformanceState`; an observer belongs
//! to the global of the realm it was constructed in. The PerformanceObserver task is a
//! `GenericJob`, which an HTML-like event loop (the host's) runs as a task: after the
//! microtask checkpoint of the task or script that queued the entry.

use std::cell::{Cell, RefCell};

use boa_engine::{
    class::{Class, ClassBuilder},
    job::GenericJob,
    object::builtins::JsArray,
    property::Attribute,
    Context, JsData, JsError, JsObject, JsResult, JsString, JsValue, NativeFunction,
};
use boa_gc::{Finalize, GcRefCell, Trace};

use boa_webidl::{
    self as webidl, arg, js_key, type_error, Dictionary, Member, INTERFACE_ATTRIBUTES,
};

use crate::entry::{filter_entries, Entry};
use crate::state::{class_prototype, current_state, with_state, HrRealm};

/// The entry types this implementation supports (the registry's `entryType` values it
/// implements, in alphabetical order): the frozen array of supported entry types.
pub(crate) const SUPPORTED_ENTRY_TYPES: [&str; 2] = ["mark", "measure"];

/// A [PerformanceObserver](https://w3c.github.io/performance-timeline/#the-performanceobserver-interface)'s
/// observer type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ObserverType {
    Undefined,
    Single,
    Multiple,
}

/// A `PerformanceObserverInit` as kept in an options list (the members that matter once
/// `observe()` has validated it).
#[derive(Debug, Clone)]
struct ObserverInit {
    entry_types: Option<Vec<String>>,
    type_: Option<String>,
}

impl ObserverInit {
    /// Does this item name `entry_type` as its `type` or in its `entryTypes`?
    fn names(&self, entry_type: &str) -> bool {
        self.type_.as_deref() == Some(entry_type)
            || self
                .entry_types
                .as_ref()
                .is_some_and(|types| types.iter().any(|t| t == entry_type))
    }
}

/// The internal slots of a `PerformanceObserver`.
#[derive(Trace, Finalize, JsData)]
pub(crate) struct Observer {
    /// The observer callback.
    callback: JsObject,
    /// The state of the observer's relevant global.
    state: JsObject,
    /// The observer buffer.
    buffer: GcRefCell<Vec<JsObject>>,
    #[unsafe_ignore_trace]
    observer_type: Cell<ObserverType>,
    /// The options list of this observer's registered performance observer (empty while it
    /// is not registered).
    #[unsafe_ignore_trace]
    options: RefCell<Vec<ObserverInit>>,
    /// The "requires dropped entries" flag.
    #[unsafe_ignore_trace]
    requires_dropped_entries: Cell<bool>,
}

fn this_observer(this: &JsValue) -> JsResult<JsObject<Observer>> {
    webidl::brand::<Observer>(this, "PerformanceObserver")
}

/// [Queue a PerformanceEntry](https://w3c.github.io/performance-timeline/#dfn-queue-a-performanceentry)
/// `entry` (of `entry_type`) of the global whose state is `state`.
pub(crate) fn queue_a_performance_entry(
    state: &JsObject,
    entry: &JsObject,
    entry_type: &str,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. Let interested observers be an initially empty set of PerformanceObserver objects.
    // 2. Let entryType be newEntry's entryType value.
    // 3. Let relevantGlobal be newEntry's relevant global object (`state`).
    let registered = with_state(state, |s| s.observers.borrow().clone())?;
    // 4. (relevantGlobal has no associated document: navigationId stays as it is.)
    // 5. For each registered performance observer regObs in relevantGlobal's list: if its
    //    options list contains an item whose entryTypes includes entryType or whose type
    //    is entryType, append regObs's observer to interested observers.
    // 6. For each observer in interested observers, append newEntry to its observer buffer.
    for observer in &registered {
        if let Some(o) = observer.downcast_ref::<Observer>() {
            if o.options.borrow().iter().any(|item| item.names(entry_type)) {
                o.buffer.borrow_mut().push(entry.clone());
            }
        }
    }
    // 7-10. Add newEntry to the relevant performance entry tuple's buffer if it is not full.
    // NOTE: "mark" and "measure" are the only entry types, and User Timing adds their
    // entries to the performance entry buffer itself (mark()/measure() step 3, whose buffer
    // has no maxBufferSize); adding it here too would add it twice.
    // 11. Queue the PerformanceObserver task with relevantGlobal as input.
    queue_the_performance_observer_task(state, ctx)
}

/// [Queue the PerformanceObserver task](https://w3c.github.io/performance-timeline/#dfn-queue-the-performanceobserver-task)
/// of the global whose state is `state`.
fn queue_the_performance_observer_task(state: &JsObject, ctx: &mut Context) -> JsResult<()> {
    // 1. If relevantGlobal's performance observer task queued flag is set, terminate.
    // 2. Set it.
    let already = with_state(state, |s| s.observer_task_queued.replace(true))?;
    if already {
        return Ok(());
    }
    // 3. Queue a task on the performance timeline task source.
    let state = state.clone();
    let job = GenericJob::new(
        move |ctx| {
            performance_observer_task(&state, ctx)?;
            Ok(JsValue::undefined())
        },
        ctx.realm().clone(),
    );
    ctx.enqueue_job(job.into());
    Ok(())
}

/// The steps of the task queued by [`queue_the_performance_observer_task`].
fn performance_observer_task(state: &JsObject, ctx: &mut Context) -> JsResult<()> {
    // 1. Unset performance observer task queued flag of relevantGlobal.
    // 2. Let notifyList be a copy of relevantGlobal's list of registered performance
    //    observer objects.
    let notify_list = with_state(state, |s| {
        s.observer_task_queued.set(false);
        s.observers.borrow().clone()
    })?;
    // 3. For each registered performance observer object registeredObserver in notifyList:
    for observer in notify_list {
        let Some(po) = observer.downcast_ref::<Observer>() else {
            continue;
        };
        // 3.1 Let po be registeredObserver's observer.
        // 3.2 Let entries be a copy of po's observer buffer.
        // 3.4 Empty po's observer buffer.
        let entries = std::mem::take(&mut *po.buffer.borrow_mut());
        // 3.3 If entries is empty, return.
        // NOTE: the spec's "return" would end the whole task at the first observer with
        // nothing new, so later observers would miss their entries; every engine (and the
        // tests of observers of different types) skips to the next observer instead.
        if entries.is_empty() {
            continue;
        }
        // 3.6 Let droppedEntriesCount be null.
        // 3.7 If po's requires dropped entries is set:
        let dropped = if po.requires_dropped_entries.replace(false) {
            // 3.7.1 Set droppedEntriesCount to 0.
            // 3.7.2 For each item in registeredObserver's options list, for each entry
            //       type named by it, add its entry buffer's dropped entries count.
            // NOTE: the buffers of "mark" and "measure" have no maxBufferSize, so they
            // never drop an entry: the count stays 0.
            // 3.7.3 Set po's requires dropped entries to false.
            Some(0)
        } else {
            None
        };
        let callback = po.callback.clone();
        drop(po);
        // 3.5 Let observerEntryList be a new PerformanceObserverEntryList with its entry
        //     list set to entries.
        let list = new_entry_list(entries, ctx)?;
        // 3.8 Let callbackOptions be a PerformanceObserverCallbackOptions with its
        //     droppedEntriesCount set to droppedEntriesCount if it is not null.
        let options = JsObject::with_object_proto(ctx.intrinsics());
        if let Some(count) = dropped {
            options.create_data_property_or_throw(js_key!("droppedEntriesCount"), count, ctx)?;
        }
        // 3.9 Call po's observer callback with « observerEntryList, po, callbackOptions »
        //     and po as the callback this value. If this throws an exception, report the
        //     exception.
        let this = JsValue::from(observer.clone());
        let result = webidl::call_catching(
            &callback,
            &this,
            &[list.into(), this.clone(), options.into()],
            ctx,
        );
        if let Err(caught) = result {
            boa_dom::report_exception(caught, ctx);
        }
    }
    Ok(())
}

/// The `PerformanceObserver` interface object.
///
/// ```
/// use boa_engine::{Context, Source};
///
/// let mut context = Context::default();
/// boa_hrtime::register(&mut context).unwrap();
/// context
///     .eval(Source::from_bytes(
///         "globalThis.seen = [];
///          new PerformanceObserver((list) => seen.push(...list.getEntries().map(e => e.name)))
///            .observe({ type: 'mark' });
///          performance.mark('a');",
///     ))
///     .unwrap();
/// context.run_jobs().unwrap();
/// let seen = context.eval(Source::from_bytes("seen.join()")).unwrap();
/// assert_eq!(seen.as_string().unwrap().to_std_string_escaped(), "a");
/// ```
#[derive(Debug, Trace, Finalize, JsData)]
pub struct PerformanceObserverInterface;

/// [observe(options)](https://w3c.github.io/performance-timeline/#observe-method)
fn observe_method(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let observer = this_observer(this)?;
    observe(&observer, &arg(args, 0), ctx)?;
    Ok(JsValue::undefined())
}

/// [disconnect()](https://w3c.github.io/performance-timeline/#disconnect-method)
fn disconnect_method(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let observer = this_observer(this)?;
    disconnect(&observer)?;
    Ok(JsValue::undefined())
}

/// [takeRecords()](https://w3c.github.io/performance-timeline/#takerecords-method)
fn take_records(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let observer = this_observer(this)?;
    // The takeRecords() method must return a copy of this's observer buffer, and also empty
    // this's observer buffer.
    let entries = std::mem::take(&mut *observer.borrow().data().buffer.borrow_mut());
    let values: Vec<JsValue> = entries.into_iter().map(JsValue::from).collect();
    Ok(JsArray::from_iter(values, ctx).into())
}

/// [supportedEntryTypes](https://w3c.github.io/performance-timeline/#supportedentrytypes-attribute):
/// `[SameObject] static readonly attribute FrozenArray<DOMString> supportedEntryTypes;`
fn get_supported_entry_types(_: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    // Return the relevant global's frozen array of supported entry types (made once per
    // realm, so always the same object).
    ctx.realm()
        .host_defined()
        .get::<HrRealm>()
        .map(|r| JsValue::from(r.supported_entry_types.clone()))
        .ok_or_else(|| type_error("Performance is not registered in this realm"))
}

/// The row of the static attribute `supportedEntryTypes` (a static accessor on the interface
/// object).
fn supported_entry_types(class: &mut ClassBuilder<'_>) -> JsResult<()> {
    let getter = webidl::function(
        class.context(),
        "get supportedEntryTypes",
        0,
        NativeFunction::from_fn_ptr(get_supported_entry_types),
    );
    class.static_accessor(
        js_key!("supportedEntryTypes"),
        Some(getter),
        None,
        Attribute::ENUMERABLE | Attribute::CONFIGURABLE,
    );
    Ok(())
}

impl Class for PerformanceObserverInterface {
    const NAME: &'static str = "PerformanceObserver";
    const LENGTH: usize = 1;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(
            class,
            &[
                Member::to_string_tag("PerformanceObserver"),
                Member::operation("observe", 0, observe_method),
                Member::operation("disconnect", 0, disconnect_method),
                Member::operation("takeRecords", 0, take_records),
                Member::install(supported_entry_types),
            ],
        )
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        Err(webidl::illegal_constructor())
    }

    /// `new PerformanceObserver(callback)`.
    fn construct(new_target: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsObject> {
        webidl::limits_catchable((|| -> JsResult<JsObject> {
            webidl::require_new(new_target, "PerformanceObserver")?;
            webidl::required_arguments(args, 1, "PerformanceObserver", "constructor")?;
            // PerformanceObserverCallback: a callback function, so anything not callable is
            // a TypeError.
            let Some(callback) = arg(args, 0).as_callable() else {
                return Err(type_error(
                    "Failed to construct 'PerformanceObserver': The callback provided as parameter 1 is not a function.",
                ));
            };
            let proto = webidl::prototype_from_new_target::<Self>(new_target, ctx)?;
            // The constructor steps: set this's observer callback to callback, and its
            // relevant global is the current global.
            let state = current_state(ctx)?;
            Ok(JsObject::from_proto_and_data(
                Some(proto),
                Observer {
                    callback,
                    state,
                    buffer: GcRefCell::new(Vec::new()),
                    observer_type: Cell::new(ObserverType::Undefined),
                    options: RefCell::new(Vec::new()),
                    requires_dropped_entries: Cell::new(false),
                },
            ))
        })())
    }
}

/// `sequence<DOMString>` conversion of `value`.
fn to_sequence_of_strings(value: &JsValue, ctx: &mut Context) -> JsResult<Vec<String>> {
    let Some(object) = value.as_object() else {
        return Err(type_error(
            "Failed to execute 'observe' on 'PerformanceObserver': entryTypes is not a sequence",
        ));
    };
    let Some(method) = webidl::sequence::get_iterator_method(&object, ctx)? else {
        return Err(type_error(
            "Failed to execute 'observe' on 'PerformanceObserver': entryTypes is not iterable",
        ));
    };
    webidl::create_sequence_from_iterable(value, &method, ctx, |v, ctx| {
        Ok(webidl::to_dom_string(&v, ctx)?.to_std_string_lossy())
    })
}

fn invalid_modification(message: &str, ctx: &mut Context) -> JsError {
    match webidl::create_dom_exception(
        &format!("Failed to execute 'observe' on 'PerformanceObserver': {message}"),
        "InvalidModificationError",
        ctx,
    ) {
        Ok(e) => JsError::from_opaque(e),
        Err(e) => e,
    }
}

/// A converted `PerformanceObserverInit` (each member `None` when absent).
struct ObserveOptions {
    buffered: Option<bool>,
    entry_types: Option<Vec<String>>,
    type_: Option<String>,
}

impl ObserveOptions {
    /// Convert the PerformanceObserverInit (members in lexicographic order: buffered,
    /// entryTypes, type).
    fn convert(options: &JsValue, ctx: &mut Context) -> JsResult<Self> {
        let dict = Dictionary::new(options, "PerformanceObserverInit")?;
        let buffered = dict.get(js_key!("buffered"), ctx)?.map(|v| v.to_boolean());
        let entry_types = match dict.get(js_key!("entryTypes"), ctx)? {
            Some(v) => Some(to_sequence_of_strings(&v, ctx)?),
            None => None,
        };
        let type_ = match dict.get(js_key!("type"), ctx)? {
            Some(v) => Some(webidl::to_dom_string(&v, ctx)?.to_std_string_lossy()),
            None => None,
        };
        Ok(Self {
            buffered,
            entry_types,
            type_,
        })
    }
}

/// [observe(options)](https://w3c.github.io/performance-timeline/#observe-method).
fn observe(observer: &JsObject<Observer>, options: &JsValue, ctx: &mut Context) -> JsResult<()> {
    let ObserveOptions {
        buffered,
        entry_types,
        type_,
    } = ObserveOptions::convert(options, ctx)?;
    let fail = |message: &str| {
        type_error(format!(
            "Failed to execute 'observe' on 'PerformanceObserver': {message}"
        ))
    };
    // 1. Let relevantGlobal be this's relevant global object.
    let state = observer.borrow().data().state.clone();
    // 2. If options's entryTypes and type members are both omitted, throw a TypeError.
    if entry_types.is_none() && type_.is_none() {
        return Err(fail("either entryTypes or type must be given"));
    }
    // 3. If options's entryTypes is present and any other member is also present, throw a
    //    TypeError.
    if entry_types.is_some() && (type_.is_some() || buffered.is_some()) {
        return Err(fail("entryTypes cannot be given with type or buffered"));
    }
    // 4. Update or check this's observer type:
    let observer_type = observer.borrow().data().observer_type.get();
    let observer_type = match observer_type {
        // 4.1 If it is "undefined": "multiple" if entryTypes is present, "single" if type
        //     is present.
        ObserverType::Undefined if entry_types.is_some() => ObserverType::Multiple,
        ObserverType::Undefined => ObserverType::Single,
        // 4.2 If it is "single" and entryTypes is present, throw an
        //     InvalidModificationError.
        ObserverType::Single if entry_types.is_some() => {
            return Err(invalid_modification(
                "this observer observes one type; it cannot observe entryTypes",
                ctx,
            ))
        }
        // 4.3 If it is "multiple" and type is present, throw an InvalidModificationError.
        ObserverType::Multiple if type_.is_some() => {
            return Err(invalid_modification(
                "this observer observes entryTypes; it cannot observe a single type",
                ctx,
            ))
        }
        other => other,
    };
    {
        let data = observer.borrow();
        let o = data.data();
        o.observer_type.set(observer_type);
        // 5. Set this's requires dropped entries to true.
        o.requires_dropped_entries.set(true);
    }
    let registered = with_state(&state, |s| {
        s.observers
            .borrow()
            .iter()
            .any(|r| r == &observer.clone().upcast())
    })?;
    if let Some(entry_types) = entry_types {
        // 6. If this's observer type is "multiple":
        return observe_multiple(observer, &state, registered, entry_types);
    }
    // 7. Otherwise ("single"):
    let Some(entry_type) = type_ else {
        return Ok(());
    };
    observe_single(observer, &state, registered, entry_type, buffered, ctx)
}

/// Add `observer` to the list of registered performance observer objects of the global whose
/// state is `state` (its options list is already set).
fn register_observer(observer: &JsObject<Observer>, state: &JsObject) -> JsResult<()> {
    with_state(state, |s| {
        s.observers.borrow_mut().push(observer.clone().upcast());
    })
}

/// Step 6 of [observe(options)](https://w3c.github.io/performance-timeline/#observe-method):
/// this's observer type is "multiple".
fn observe_multiple(
    observer: &JsObject<Observer>,
    state: &JsObject,
    registered: bool,
    entry_types: Vec<String>,
) -> JsResult<()> {
    // 6.1-6.2 Remove from entry types the types that are not supported.
    // NOTE: the spec's "SHOULD notify developers" (a console warning) is left out: a library
    // prints nothing, and the removal is observable only through which entries arrive.
    let kept: Vec<String> = entry_types
        .into_iter()
        .filter(|t| SUPPORTED_ENTRY_TYPES.contains(&t.as_str()))
        .collect();
    // 6.3 If the result is empty, abort these steps.
    if kept.is_empty() {
        return Ok(());
    }
    // 6.4 If relevantGlobal's list has a registered observer for this, replace its options
    //     list with « options ».
    // 6.5 Otherwise, register this with « options ».
    *observer.borrow().data().options.borrow_mut() = vec![ObserverInit {
        entry_types: Some(kept),
        type_: None,
    }];
    if !registered {
        register_observer(observer, state)?;
    }
    Ok(())
}

/// Step 7 of [observe(options)](https://w3c.github.io/performance-timeline/#observe-method):
/// this's observer type is "single".
fn observe_single(
    observer: &JsObject<Observer>,
    state: &JsObject,
    registered: bool,
    entry_type: String,
    buffered: Option<bool>,
    ctx: &mut Context,
) -> JsResult<()> {
    // 7.2 If options's type is not supported, abort these steps (no console warning, as
    //     above).
    if !SUPPORTED_ENTRY_TYPES.contains(&entry_type.as_str()) {
        return Ok(());
    }
    let item = ObserverInit {
        entry_types: None,
        type_: Some(entry_type.clone()),
    };
    {
        let data = observer.borrow();
        let mut list = data.data().options.borrow_mut();
        if registered {
            // 7.3.1 If obs's options list has an item of the same type, replace it.
            // 7.3.2 Otherwise, append options to it.
            match list
                .iter_mut()
                .find(|i| i.type_.as_deref() == Some(entry_type.as_str()))
            {
                Some(existing) => *existing = item,
                None => list.push(item),
            }
        } else {
            // 7.4 Otherwise, register this with « options ».
            *list = vec![item];
        }
    }
    if !registered {
        register_observer(observer, state)?;
    }
    // 7.5 If options's buffered flag is set:
    if buffered == Some(true) {
        // 7.5.1 Let tuple be the relevant performance entry tuple of type and
        //       relevantGlobal.
        // 7.5.2 For each entry in tuple's performance entry buffer, if should add entry
        //       (always, for marks and measures), append it to this's observer buffer.
        let entries: Vec<JsObject> = with_state(state, |s| {
            s.buffer
                .borrow()
                .iter()
                .filter(|e| {
                    e.downcast_ref::<Entry>()
                        .is_some_and(|e| e.kind.entry_type() == entry_type)
                })
                .cloned()
                .collect()
        })?;
        observer.borrow().data().buffer.borrow_mut().extend(entries);
        // 7.5.3 Queue the PerformanceObserver task with relevantGlobal as input.
        queue_the_performance_observer_task(state, ctx)?;
    }
    Ok(())
}

/// [disconnect()](https://w3c.github.io/performance-timeline/#disconnect-method).
fn disconnect(observer: &JsObject<Observer>) -> JsResult<()> {
    let object: JsObject = observer.clone().upcast();
    let data = observer.borrow();
    let o = data.data();
    // 1. Remove this from the list of registered performance observer objects of the
    //    relevant global object.
    with_state(&o.state, |s| {
        s.observers.borrow_mut().retain(|r| r != &object)
    })?;
    // 2. Set this's observer buffer to empty.
    o.buffer.borrow_mut().clear();
    // 3. Set this's options list to empty.
    o.options.borrow_mut().clear();
    Ok(())
}

/// A `PerformanceObserverEntryList`'s entry list.
#[derive(Trace, Finalize, JsData)]
pub(crate) struct EntryList {
    entries: Vec<JsObject>,
}

fn new_entry_list(entries: Vec<JsObject>, ctx: &mut Context) -> JsResult<JsObject> {
    let proto = class_prototype::<PerformanceObserverEntryListInterface>(ctx)?;
    Ok(JsObject::from_proto_and_data(
        Some(proto),
        EntryList { entries },
    ))
}

fn this_entry_list(this: &JsValue) -> JsResult<Vec<JsObject>> {
    let list = webidl::brand::<EntryList>(this, "PerformanceObserverEntryList")?;
    let entries = list.borrow().data().entries.clone();
    Ok(entries)
}

/// The `PerformanceObserverEntryList` interface object (not constructible: an observer's
/// callback gets one).
///
/// ```
/// use boa_engine::{Context, Source};
///
/// let mut context = Context::default();
/// boa_hrtime::register(&mut context).unwrap();
/// context
///     .eval(Source::from_bytes(
///         "globalThis.names = '';
///          new PerformanceObserver((list) => {
///            names = list.getEntriesByType('measure').map(e => e.name).join();
///          }).observe({ entryTypes: ['mark', 'measure'] });
///          performance.mark('a'); performance.measure('m', 'a');",
///     ))
///     .unwrap();
/// context.run_jobs().unwrap();
/// let names = context.eval(Source::from_bytes("names")).unwrap();
/// assert_eq!(names.as_string().unwrap().to_std_string_escaped(), "m");
/// ```
#[derive(Debug, Trace, Finalize, JsData)]
pub struct PerformanceObserverEntryListInterface;

/// [getEntries()](https://w3c.github.io/performance-timeline/#dom-performanceobserverentrylist-getentries)
fn list_get_entries(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let entries = this_entry_list(this)?;
    filter_entries(entries, None, None, ctx)
}

/// [getEntriesByType(type)](https://w3c.github.io/performance-timeline/#dom-performanceobserverentrylist-getentriesbytype)
fn list_get_entries_by_type(
    this: &JsValue,
    args: &[JsValue],
    ctx: &mut Context,
) -> JsResult<JsValue> {
    let entries = this_entry_list(this)?;
    webidl::required_arguments(args, 1, "PerformanceObserverEntryList", "getEntriesByType")?;
    let entry_type = webidl::to_dom_string(&arg(args, 0), ctx)?;
    filter_entries(entries, None, Some(entry_type), ctx)
}

/// [getEntriesByName(name, type)](https://w3c.github.io/performance-timeline/#dom-performanceobserverentrylist-getentriesbyname)
fn list_get_entries_by_name(
    this: &JsValue,
    args: &[JsValue],
    ctx: &mut Context,
) -> JsResult<JsValue> {
    let entries = this_entry_list(this)?;
    webidl::required_arguments(args, 1, "PerformanceObserverEntryList", "getEntriesByName")?;
    let name = webidl::to_dom_string(&arg(args, 0), ctx)?;
    let entry_type: Option<JsString> = match args.get(1) {
        Some(v) if !v.is_undefined() => Some(webidl::to_dom_string(v, ctx)?),
        _ => None,
    };
    filter_entries(entries, Some(name), entry_type, ctx)
}

impl Class for PerformanceObserverEntryListInterface {
    const NAME: &'static str = "PerformanceObserverEntryList";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        // Each returns the result of filter buffer by name and type with this's entry list.
        webidl::define(
            class,
            &[
                Member::to_string_tag("PerformanceObserverEntryList"),
                Member::operation("getEntries", 0, list_get_entries),
                Member::operation("getEntriesByType", 1, list_get_entries_by_type),
                Member::operation("getEntriesByName", 1, list_get_entries_by_name),
            ],
        )
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        Err(webidl::illegal_constructor())
    }
}
