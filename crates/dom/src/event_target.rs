//! [`EventTarget`](https://dom.spec.whatwg.org/#interface-eventtarget): listeners, dispatch
//! (no tree: targets have no parents), and HTML event handler attributes (`onabort`).
//!
//! [`EventTargetData`] is the native data of every event target, including `AbortSignal`s
//! (which carry their [`SignalHooks`]): Boa gives each object one native data type, and an
//! `AbortSignal` must pass `EventTarget`'s brand checks.
//!
//! EventTarget's own algorithms consult an `AbortSignal` (the `signal` option of
//! `addEventListener`, the signal's garbage-collection rule) only through [`SignalHooks`],
//! which the abort module implements: the base interface names nothing of the derived one.

use std::any::Any;
use std::cell::Cell;

use boa_engine::{
    class::{Class, ClassBuilder},
    property::{Attribute, PropertyDescriptor},
    Context, JsData, JsError, JsObject, JsResult, JsString, JsValue,
};
use boa_gc::{Finalize, Gc, GcRefCell, Trace};

use super::event::{self, EventData, AT_TARGET, NONE};
use super::report::report_exception;
use boa_webidl::exception;
use boa_webidl::{self as webidl, arg, Dictionary, Member};

/// What EventTarget's own algorithms need of an
/// [`AbortSignal`](https://dom.spec.whatwg.org/#interface-AbortSignal): the `signal` option of
/// [add an event listener](https://dom.spec.whatwg.org/#add-an-event-listener) and
/// [AbortSignal garbage collection](https://dom.spec.whatwg.org/#abort-signal-garbage-collection),
/// which depends on the signal's `abort` listeners. An `AbortSignal`'s [`EventTargetData`]
/// carries an implementation (the abort module's), given to [`EventTargetData::new_signal`].
///
/// ```
/// let mut context = boa_engine::Context::default();
/// boa_dom::register(&mut context).unwrap();
/// let signal = boa_dom::create_abort_signal(&mut context).unwrap();
/// let aborted = |signal: &boa_engine::JsObject| {
///     let data = signal.downcast_ref::<boa_dom::EventTargetData>().unwrap();
///     data.signal().map(boa_dom::SignalHooks::is_aborted)
/// };
/// assert_eq!(aborted(&signal), Some(false));
/// boa_dom::signal_abort(&signal, 1.into(), &mut context).unwrap();
/// assert_eq!(aborted(&signal), Some(true));
/// ```
pub trait SignalHooks: Trace + Any {
    /// Whether the signal is aborted.
    fn is_aborted(&self) -> bool;

    /// [Add](https://dom.spec.whatwg.org/#abortsignal-add) to `signal` (the object carrying
    /// these hooks) the abort steps "remove an event listener with `target` and `listener`".
    fn add_remove_listener_steps(
        &self,
        signal: &JsObject,
        target: JsObject,
        listener: Gc<Listener>,
    );

    /// `signal`'s event listener list changed.
    fn listeners_changed(&self, signal: &JsObject);

    /// The implementation, for its owner to downcast.
    fn as_any(&self) -> &dyn Any;
}

/// Run `f` on the [`SignalHooks`] of `object`, if it is an `AbortSignal` (`f` must not run
/// JS: the object stays borrowed).
fn with_signal<R>(object: &JsObject, f: impl FnOnce(&dyn SignalHooks) -> R) -> Option<R> {
    let data = object.downcast_ref::<EventTargetData>()?;
    data.signal.as_deref().map(f)
}

/// The listeners of `target` changed: tell it if it is an `AbortSignal`.
fn listeners_changed(target: &JsObject) {
    with_signal(target, |signal| signal.listeners_changed(target));
}

/// An [event listener](https://dom.spec.whatwg.org/#concept-event-listener).
#[derive(Trace, Finalize)]
pub struct Listener {
    event_type: JsString,
    callback: ListenerCallback,
    #[unsafe_ignore_trace]
    capture: bool,
    #[unsafe_ignore_trace]
    passive: bool,
    #[unsafe_ignore_trace]
    once: bool,
    signal: Option<JsObject>,
    #[unsafe_ignore_trace]
    removed: Cell<bool>,
}

/// What a listener calls.
#[derive(Trace, Finalize)]
pub enum ListenerCallback {
    /// An `EventListener` callback object (a function, or an object with `handleEvent`).
    Js(JsObject),
    /// The [event handler processing algorithm](https://html.spec.whatwg.org/multipage/webappapis.html#the-event-handler-processing-algorithm)
    /// of the target's event handler for this event type.
    Handler,
}

/// An [event handler](https://html.spec.whatwg.org/multipage/webappapis.html#event-handlers)
/// (`onabort`): its value and the listener it registered when first activated.
#[derive(Trace, Finalize)]
struct EventHandler {
    event_type: JsString,
    value: Option<JsObject>,
    listener: Option<Gc<Listener>>,
}

/// The native data of an `EventTarget` (and of an `AbortSignal`).
#[derive(Trace, Finalize, JsData)]
pub struct EventTargetData {
    listeners: GcRefCell<Vec<Gc<Listener>>>,
    handlers: GcRefCell<Vec<EventHandler>>,
    /// An `AbortSignal`'s hooks (its state).
    signal: Option<Box<dyn SignalHooks>>,
    /// The state of an event target interface defined outside this module (`FileReader`, a
    /// `MessagePort`'s port), as a native object script never sees.
    ext: Option<JsObject>,
}

impl Default for EventTargetData {
    fn default() -> Self {
        Self::new()
    }
}

impl EventTargetData {
    /// A plain event target.
    pub fn new() -> Self {
        Self {
            listeners: GcRefCell::new(Vec::new()),
            handlers: GcRefCell::new(Vec::new()),
            signal: None,
            ext: None,
        }
    }

    /// An event target of another interface, whose state is the native object `ext`.
    pub fn with_ext(ext: JsObject) -> Self {
        Self {
            listeners: GcRefCell::new(Vec::new()),
            handlers: GcRefCell::new(Vec::new()),
            signal: None,
            ext: Some(ext),
        }
    }

    /// The state object given to [`Self::with_ext`].
    pub fn ext(&self) -> Option<&JsObject> {
        self.ext.as_ref()
    }

    /// An `AbortSignal`'s data, with its hooks.
    pub fn new_signal(signal: Box<dyn SignalHooks>) -> Self {
        Self {
            listeners: GcRefCell::new(Vec::new()),
            handlers: GcRefCell::new(Vec::new()),
            signal: Some(signal),
            ext: None,
        }
    }

    /// The `AbortSignal` hooks, if this target is an `AbortSignal`.
    pub fn signal(&self) -> Option<&dyn SignalHooks> {
        self.signal.as_deref()
    }
}

/// Add an event listener that calls `callback` for `event_type` (an internal algorithm's
/// handler, e.g. the cross-realm transforms' message handlers on their ports).
pub fn add_internal_listener(
    target: &JsObject<EventTargetData>,
    event_type: &str,
    callback: JsObject,
) {
    add_an_event_listener(
        target,
        Listener {
            event_type: JsString::from(event_type),
            callback: ListenerCallback::Js(callback),
            capture: false,
            passive: false,
            once: false,
            signal: None,
            removed: Cell::new(false),
        },
    );
}

/// Whether `target`'s event listener list holds a (not removed) listener for `event_type`.
pub fn has_listener_for(target: &JsObject, event_type: &str) -> bool {
    let Some(data) = target.downcast_ref::<EventTargetData>() else {
        return false;
    };
    let event_type = JsString::from(event_type);
    let found = data
        .listeners
        .borrow()
        .iter()
        .any(|l| !l.removed.get() && l.event_type == event_type);
    found
}

/// An event target as dispatch sees it: the object script sees (`object`: `this`,
/// `event.target`) and the object holding its listeners (`data`). They differ only for the
/// global object, whose listeners live in a hidden holder (the global object's native data
/// belongs to the engine).
#[derive(Clone)]
pub struct Target {
    /// The object script sees.
    pub object: JsObject,
    /// The object holding its listeners.
    pub data: JsObject<EventTargetData>,
}

impl Target {
    /// A target that holds its own listeners.
    pub fn own(data: JsObject<EventTargetData>) -> Self {
        Self {
            object: data.clone().upcast(),
            data,
        }
    }
}

/// The EventTarget `this`: an object implementing EventTarget, or the global object (also
/// when `this` is undefined or null, as for operations on a `[Global]` interface's chain).
fn this_target(this: &JsValue, context: &mut Context) -> JsResult<Target> {
    if let Some(o) = this.as_object() {
        if let Ok(data) = o.clone().downcast::<EventTargetData>() {
            return Ok(Target::own(data));
        }
    }
    let global = context.global_object();
    let is_global = match this.as_object() {
        Some(o) => JsObject::equals(&o, &global),
        None => this.is_null_or_undefined(),
    };
    if is_global {
        if let Some(data) = global_target_data(context) {
            return Ok(Target {
                object: global,
                data,
            });
        }
    }
    Err(webidl::type_error("'this' is not an EventTarget object"))
}

/// Flattened `(AddEventListenerOptions or boolean)` / `(EventListenerOptions or boolean)`.
struct FlatOptions {
    capture: bool,
    passive: Option<bool>,
    once: bool,
    signal: Option<JsObject>,
}

/// Convert the `options` argument and [flatten more](https://dom.spec.whatwg.org/#event-flatten-more)
/// it (or just [flatten](https://dom.spec.whatwg.org/#concept-flatten-options) it when `more`
/// is false: `removeEventListener` reads only `capture`).
fn flatten_options(options: &JsValue, more: bool, context: &mut Context) -> JsResult<FlatOptions> {
    let mut flat = FlatOptions {
        capture: false,
        passive: None,
        once: false,
        signal: None,
    };
    // Union conversion: undefined, null and objects convert to the dictionary; anything
    // else to boolean.
    if !options.is_null_or_undefined() && !options.is_object() {
        // 1. If options is a boolean, then return options.
        flat.capture = options.to_boolean();
        return Ok(flat);
    }
    let dict = Dictionary::new(options, "EventListenerOptions")?;
    // Dictionary members in order: capture (EventListenerOptions), then once, passive,
    // signal (AddEventListenerOptions).
    flat.capture = dict.get_bool(webidl::js_key!("capture"), false, context)?;
    if !more {
        return Ok(flat);
    }
    flat.once = dict.get_bool(webidl::js_key!("once"), false, context)?;
    flat.passive = dict
        .get(webidl::js_key!("passive"), context)?
        .map(|v| v.to_boolean());
    if let Some(signal) = dict.get(webidl::js_key!("signal"), context)? {
        match signal.as_object() {
            Some(o) if with_signal(&o, |_| ()).is_some() => flat.signal = Some(o),
            _ => {
                return Err(webidl::type_error(
                    "Failed to read the 'signal' property from 'AddEventListenerOptions': not an AbortSignal",
                ))
            }
        }
    }
    Ok(flat)
}

/// Convert an `EventListener?` argument.
fn to_listener_callback(value: &JsValue) -> JsResult<Option<JsObject>> {
    if value.is_null_or_undefined() {
        return Ok(None);
    }
    value
        .as_object()
        .map(Some)
        .ok_or_else(|| webidl::type_error("The callback provided as parameter 2 is not an object"))
}

/// [add an event listener](https://dom.spec.whatwg.org/#add-an-event-listener)
pub fn add_an_event_listener(target: &JsObject<EventTargetData>, listener: Listener) {
    // 2. If listener's signal is not null and is aborted, then return.
    if let Some(signal) = &listener.signal {
        if with_signal(signal, |s| s.is_aborted()).unwrap_or(false) {
            return;
        }
    }
    // 3. If listener's callback is null, then return.
    // NOTE: callbacks are never null here: the caller returns before building the listener.
    // 4. If listener's passive is null, then set it to the default passive value (false: no
    //    node targets exist here).
    let signal = listener.signal.clone();
    let listener = Gc::new(listener);
    {
        let data = target.borrow();
        let mut list = data.data().listeners.borrow_mut();
        // 5. If eventTarget's event listener list does not contain an event listener whose
        //    type is listener's type, callback is listener's callback, and capture is
        //    listener's capture, then append listener to eventTarget's event listener list.
        let duplicate = list.iter().any(|l| {
            l.event_type == listener.event_type
                && l.capture == listener.capture
                && match (&l.callback, &listener.callback) {
                    (ListenerCallback::Js(a), ListenerCallback::Js(b)) => JsObject::equals(a, b),
                    _ => false,
                }
        });
        if !duplicate {
            list.push(listener.clone());
        }
    }
    listeners_changed(&target.clone().upcast());
    // 6. If listener's signal is not null, then add the following abort steps to it:
    //    remove an event listener with eventTarget and listener.
    if let Some(signal) = signal {
        with_signal(&signal, |hooks| {
            hooks.add_remove_listener_steps(&signal, target.clone().upcast(), listener);
        });
    }
}

/// [remove an event listener](https://dom.spec.whatwg.org/#remove-an-event-listener)
pub fn remove_an_event_listener(target: &JsObject, listener: &Gc<Listener>) {
    let Some(data) = target.downcast_ref::<EventTargetData>() else {
        return;
    };
    // 2. Set listener's removed to true and remove listener from eventTarget's event
    //    listener list.
    listener.removed.set(true);
    data.listeners
        .borrow_mut()
        .retain(|l| !Gc::ptr_eq(l, listener));
    drop(data);
    listeners_changed(target);
}

/// [dispatch](https://dom.spec.whatwg.org/#concept-event-dispatch) `event` to `target`, a
/// target with no parent, no shadow tree and no activation behavior.
pub fn dispatch(
    event: &JsObject<EventData>,
    target: &Target,
    context: &mut Context,
) -> JsResult<bool> {
    // 1. Set event's dispatch flag.
    event.borrow().data().update(|f| f.dispatch = true);
    // 2-5. targetOverride is target; relatedTarget is null; touch targets are empty.
    // 5.4 Append to an event path with event, target, targetOverride, relatedTarget, touch
    //     targets, and false (the only struct: there is no parent).
    event.borrow().data().update(|f| f.has_path = true);
    // 5.13 For each struct in event's path, in reverse order: the struct's shadow-adjusted
    //      target is non-null, so set eventPhase to AT_TARGET and invoke with "capturing".
    event.borrow().data().update(|f| f.phase = AT_TARGET);
    invoke(event, target, Phase::Capturing, context);
    // 5.14 For each struct in event's path: the shadow-adjusted target is non-null, so set
    //      eventPhase to AT_TARGET and invoke with "bubbling".
    event.borrow().data().update(|f| f.phase = AT_TARGET);
    invoke(event, target, Phase::Bubbling, context);
    // 6. Set event's eventPhase attribute to NONE.
    // 7. Set event's currentTarget attribute to null.
    // 8. Set event's path to the empty list.
    // 11. Unset event's dispatch flag, stop propagation flag, and stop immediate propagation
    //     flag.
    let data = event.borrow();
    data.data().set_current_target(None);
    data.data().update(|f| {
        f.phase = NONE;
        f.has_path = false;
        f.dispatch = false;
        f.stop_propagation = false;
        f.stop_immediate_propagation = false;
    });
    // 12. Return false if event's canceled flag is set; otherwise true.
    Ok(!data.data().flags().canceled)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Capturing,
    Bubbling,
}

/// [invoke](https://dom.spec.whatwg.org/#concept-event-listener-invoke) for the single path
/// struct.
fn invoke(event: &JsObject<EventData>, target: &Target, phase: Phase, context: &mut Context) {
    // 1. Set event's target to the shadow-adjusted target of the last struct in event's path
    //    that is either struct or preceding struct, whose shadow-adjusted target is non-null.
    // 4. If event's stop propagation flag is set, then return.
    // 5. Initialize event's currentTarget attribute to struct's invocation target.
    {
        let data = event.borrow();
        data.data().set_target(Some(target.object.clone()));
        if data.data().flags().stop_propagation {
            return;
        }
        data.data().set_current_target(Some(target.object.clone()));
    }
    // 6. Let listeners be a clone of event's currentTarget attribute value's event listener
    //    list.
    let listeners: Vec<Gc<Listener>> = target.data.borrow().data().listeners.borrow().clone();
    // 7. Let found be the result of running inner invoke with event, listeners, phase.
    // 8. (Legacy event type renaming only applies to trusted animation/transition events.)
    inner_invoke(event, target, &listeners, phase, context);
}

/// [inner invoke](https://dom.spec.whatwg.org/#concept-event-listener-inner-invoke)
fn inner_invoke(
    event: &JsObject<EventData>,
    current_target: &Target,
    listeners: &[Gc<Listener>],
    phase: Phase,
    context: &mut Context,
) -> bool {
    let event_type = event.borrow().data().event_type();
    // 1. Let found be false.
    let mut found = false;
    // 2. For each listener of listeners, whose removed is false:
    for listener in listeners {
        if listener.removed.get() {
            continue;
        }
        // 2.1 If event's type attribute value is not listener's type, then continue.
        if listener.event_type != event_type {
            continue;
        }
        // 2.2 Set found to true.
        found = true;
        // 2.3 If phase is "capturing" and listener's capture is false, then continue.
        if phase == Phase::Capturing && !listener.capture {
            continue;
        }
        // 2.4 If phase is "bubbling" and listener's capture is true, then continue.
        if phase == Phase::Bubbling && listener.capture {
            continue;
        }
        // 2.5 If listener's once is true, then remove an event listener given event's
        //     currentTarget attribute value and listener.
        if listener.once {
            remove_an_event_listener(&current_target.data.clone().upcast(), listener);
        }
        // 2.6-2.8 (window.event is not exposed.) If listener's passive is true, then set
        //     event's in passive listener flag.
        if listener.passive {
            event
                .borrow()
                .data()
                .update(|f| f.in_passive_listener = true);
        }
        // 2.10 Call a user object's operation with listener's callback, "handleEvent",
        //      « event », and event's currentTarget attribute value. If this throws an
        //      exception, report it.
        call_listener(listener, event, current_target, context);
        // 2.11 Unset event's in passive listener flag.
        event
            .borrow()
            .data()
            .update(|f| f.in_passive_listener = false);
        // 2.13 If event's stop immediate propagation flag is set, then break.
        if event.borrow().data().flags().stop_immediate_propagation {
            break;
        }
    }
    // 3. Return found.
    found
}

/// Call a listener's callback; exceptions are reported, never propagated.
fn call_listener(
    listener: &Listener,
    event: &JsObject<EventData>,
    current_target: &Target,
    context: &mut Context,
) {
    let event_value: JsValue = event.clone().upcast().into();
    // The callback, `handleEvent`'s getter and an event handler run inside webidl::catching
    // (their exception is reported, engine bug native-catch-stack).
    let result = webidl::catching(context, |context| match &listener.callback {
        ListenerCallback::Js(callback) => {
            call_user_object_operation(callback, event_value, &current_target.object, context)
        }
        ListenerCallback::Handler => {
            event_handler_processing(&listener.event_type, event, current_target, context)
        }
    });
    if let Err(err) = result {
        report_exception(err, context);
    }
}

/// [call a user object's operation](https://webidl.spec.whatwg.org/#call-a-user-objects-operation)
/// `handleEvent` with `« event »` and `this` = the current target.
fn call_user_object_operation(
    callback: &JsObject,
    event: JsValue,
    current_target: &JsObject,
    context: &mut Context,
) -> JsResult<()> {
    // 7. If ! IsCallable(O) is false, then: get O.handleEvent, TypeError if not callable,
    //    and call it with this = O. Otherwise call O with this = thisArg.
    if callback.is_callable() {
        callback.call(&current_target.clone().into(), &[event], context)?;
        return Ok(());
    }
    let handle = callback.get(webidl::js_key!("handleEvent"), context)?;
    let Some(handle) = handle.as_callable() else {
        return Err(webidl::type_error("handleEvent is not a function"));
    };
    handle.call(&callback.clone().into(), &[event], context)?;
    Ok(())
}

/// The [event handler processing algorithm](https://html.spec.whatwg.org/multipage/webappapis.html#the-event-handler-processing-algorithm).
fn event_handler_processing(
    event_type: &JsString,
    event: &JsObject<EventData>,
    current_target: &Target,
    context: &mut Context,
) -> JsResult<()> {
    // 1. Let callback be the result of getting the current value of the event handler.
    let callback = {
        let data = current_target.data.borrow();
        let handlers = data.data().handlers.borrow();
        handlers
            .iter()
            .find(|h| &h.event_type == event_type)
            .and_then(|h| h.value.clone())
    };
    // 2. If callback is null, then return.
    let Some(callback) = callback else {
        return Ok(());
    };
    // 4. Let return value be the callback return value: invoke callback with « event » and
    //    this = event's currentTarget ([LegacyTreatNonObjectAsNull]: a non-callable object
    //    returns undefined).
    if !callback.is_callable() {
        return Ok(());
    }
    let event_value: JsValue = event.clone().upcast().into();
    let result = callback.call(
        &current_target.object.clone().into(),
        &[event_value],
        context,
    )?;
    // 5. Process return value: if it is false, set the canceled flag.
    if result.as_boolean() == Some(false) {
        event.borrow().data().set_canceled_flag();
    }
    Ok(())
}

/// The getter of an event handler IDL attribute (`onabort`).
pub fn get_event_handler(target: &JsObject<EventTargetData>, event_type: &str) -> JsValue {
    let name = JsString::from(event_type);
    let data = target.borrow();
    let handlers = data.data().handlers.borrow();
    handlers
        .iter()
        .find(|h| h.event_type == name)
        .and_then(|h| h.value.clone())
        .map_or(JsValue::null(), Into::into)
}

/// The setter of an event handler IDL attribute (`onabort`).
pub fn set_event_handler(target: &JsObject<EventTargetData>, event_type: &str, value: &JsValue) {
    enum Step {
        Activate,
        Deactivate(Gc<Listener>),
        Nothing,
    }
    let name = JsString::from(event_type);
    // [LegacyTreatNonObjectAsNull]: a non-object converts to null.
    let value = value.as_object();
    let step = {
        let data = target.borrow();
        let mut handlers = data.data().handlers.borrow_mut();
        if !handlers.iter().any(|h| h.event_type == name) {
            handlers.push(EventHandler {
                event_type: name.clone(),
                value: None,
                listener: None,
            });
        }
        let Some(handler) = handlers.iter_mut().find(|h| h.event_type == name) else {
            return;
        };
        let activate = value.is_some();
        // Set the event handler's value to the given value (or null).
        handler.value = value;
        match (activate, handler.listener.is_some()) {
            // Activate: 1. If eventHandler's listener is not null, then return.
            (true, true) => Step::Nothing,
            (true, false) => Step::Activate,
            // Deactivate: set eventHandler's listener to null after removing it.
            (false, true) => handler
                .listener
                .take()
                .map_or(Step::Nothing, Step::Deactivate),
            (false, false) => Step::Nothing,
        }
    };
    match step {
        Step::Deactivate(listener) => {
            // Remove an event listener with eventTarget and listener.
            remove_an_event_listener(&target.clone().upcast(), &listener);
        }
        Step::Activate => {
            // 2-4. Let listener run the event handler processing algorithm; add it (no
            //      signal, no duplicate possible: append it).
            let listener = Gc::new(Listener {
                event_type: name.clone(),
                callback: ListenerCallback::Handler,
                capture: false,
                passive: false,
                once: false,
                signal: None,
                removed: Cell::new(false),
            });
            let data = target.borrow();
            data.data().listeners.borrow_mut().push(listener.clone());
            let mut handlers = data.data().handlers.borrow_mut();
            if let Some(h) = handlers.iter_mut().find(|h| h.event_type == name) {
                // 5. Set eventHandler's listener to listener.
                h.listener = Some(listener);
            }
            drop(handlers);
            drop(data);
            listeners_changed(&target.clone().upcast());
        }
        Step::Nothing => {}
    }
}

/// [`addEventListener(type, callback, options)`](https://dom.spec.whatwg.org/#dom-eventtarget-addeventlistener)
fn add_event_listener(
    this: &JsValue,
    args: &[JsValue],
    context: &mut Context,
) -> JsResult<JsValue> {
    let target = this_target(this, context)?;
    if args.len() < 2 {
        return Err(webidl::type_error(format!(
            "addEventListener: 2 arguments required, but only {} present",
            args.len()
        )));
    }
    let event_type = webidl::to_dom_string(&arg(args, 0), context)?;
    let callback = to_listener_callback(&arg(args, 1))?;
    // 1. Let capture, passive, once, and signal be the result of flattening more options.
    let flat = flatten_options(&arg(args, 2), true, context)?;
    // 2. Add an event listener with this and an event listener whose type is type, callback
    //    is callback, capture is capture, passive is passive, once is once, and signal is
    //    signal.
    let Some(callback) = callback else {
        return Ok(JsValue::undefined());
    };
    add_an_event_listener(
        &target.data,
        Listener {
            event_type,
            callback: ListenerCallback::Js(callback),
            capture: flat.capture,
            passive: flat.passive.unwrap_or(false),
            once: flat.once,
            signal: flat.signal,
            removed: Cell::new(false),
        },
    );
    Ok(JsValue::undefined())
}

/// [`removeEventListener(type, callback, options)`](https://dom.spec.whatwg.org/#dom-eventtarget-removeeventlistener)
fn remove_event_listener(
    this: &JsValue,
    args: &[JsValue],
    context: &mut Context,
) -> JsResult<JsValue> {
    let target = this_target(this, context)?;
    if args.len() < 2 {
        return Err(webidl::type_error(format!(
            "removeEventListener: 2 arguments required, but only {} present",
            args.len()
        )));
    }
    let event_type = webidl::to_dom_string(&arg(args, 0), context)?;
    let callback = to_listener_callback(&arg(args, 1))?;
    // 1. Let capture be the result of flattening options.
    let flat = flatten_options(&arg(args, 2), false, context)?;
    let Some(callback) = callback else {
        return Ok(JsValue::undefined());
    };
    // 2. If this's event listener list contains an event listener whose type is type,
    //    callback is callback, and capture is capture, then remove an event listener with
    //    this and that event listener.
    let found = {
        let data = target.data.borrow();
        let list = data.data().listeners.borrow();
        list.iter()
            .find(|l| {
                l.event_type == event_type
                    && l.capture == flat.capture
                    && matches!(&l.callback, ListenerCallback::Js(c) if JsObject::equals(c, &callback))
            })
            .cloned()
    };
    if let Some(listener) = found {
        remove_an_event_listener(&target.data.upcast(), &listener);
    }
    Ok(JsValue::undefined())
}

/// [`dispatchEvent(event)`](https://dom.spec.whatwg.org/#dom-eventtarget-dispatchevent)
fn dispatch_event(this: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let target = this_target(this, context)?;
    if args.is_empty() {
        return Err(webidl::type_error(
            "dispatchEvent: 1 argument required, but only 0 present",
        ));
    }
    let Some(event) = event::as_event(&arg(args, 0)) else {
        return Err(webidl::type_error(
            "dispatchEvent: parameter 1 is not of type 'Event'",
        ));
    };
    // 1. If event's dispatch flag is set, or if its initialized flag is not set, then throw
    //    an "InvalidStateError" DOMException.
    let flags = event.borrow().data().flags();
    if flags.dispatch || !flags.initialized {
        let e = exception::create(
            "The event is already being dispatched or is not initialized",
            "InvalidStateError",
            context,
        )?;
        return Err(JsError::from_opaque(e.into()));
    }
    // 2. Initialize event's isTrusted attribute to false.
    event.borrow().data().update(|f| f.is_trusted = false);
    // 3. Return the result of dispatching event to this.
    let result = dispatch(&event, &target, context)?;
    Ok(result.into())
}

impl Class for EventTargetData {
    const NAME: &'static str = "EventTarget";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = webidl::INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(
            class,
            &[
                Member::operation("addEventListener", 2, add_event_listener),
                Member::operation("removeEventListener", 2, remove_event_listener),
                Member::operation("dispatchEvent", 1, dispatch_event),
                Member::to_string_tag("EventTarget"),
            ],
        )
    }

    /// `new EventTarget()`.
    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        Ok(Self::new())
    }
}

// ---------------------------------------------------------------------------------------
// Event targets of interfaces defined in other modules (FileReader)
// ---------------------------------------------------------------------------------------

/// A new event target object with prototype `proto` whose state is `extra` (see
/// [`event_target_extra`]).
pub fn new_event_target_with(proto: JsObject, extra: JsObject) -> JsObject {
    JsObject::from_proto_and_data(Some(proto), EventTargetData::with_ext(extra))
}

/// The event target `value` and its `extra` state, if it was made by
/// [`new_event_target_with`].
pub fn event_target_extra(value: &JsValue) -> Option<(JsObject<EventTargetData>, JsObject)> {
    let target = value
        .as_object()?
        .clone()
        .downcast::<EventTargetData>()
        .ok()?;
    let extra = target.borrow().data().ext().cloned()?;
    Some((target, extra))
}

/// The `EventTarget` interface's prototype and constructor in the current realm.
pub fn event_target_class(context: &Context) -> Option<(JsObject, JsObject)> {
    let class = context.get_global_class::<EventTargetData>()?;
    Some((class.prototype(), class.constructor()))
}

/// [Fire an event](https://dom.spec.whatwg.org/#concept-event-fire) named `event_type` at
/// `target` (a trusted `Event`).
pub fn fire_event(
    target: &JsObject<EventTargetData>,
    event_type: &str,
    context: &mut Context,
) -> JsResult<()> {
    let event = event::create_trusted_event(event_type, context)?;
    let Ok(event) = event.downcast::<EventData>() else {
        return Ok(());
    };
    dispatch(&event, &Target::own(target.clone()), context)?;
    Ok(())
}

/// The listeners of a realm's global object (in the realm's `host_defined`): the global
/// object is an EventTarget, as a worker's global is, but its own native data belongs to the
/// engine.
#[derive(Trace, Finalize, JsData)]
struct GlobalTarget(JsObject<EventTargetData>);

/// The listener holder of the current realm's global object.
pub fn global_target_data(context: &Context) -> Option<JsObject<EventTargetData>> {
    context
        .realm()
        .host_defined()
        .get::<GlobalTarget>()
        .map(|g| g.0.clone())
}

/// Register `EventTarget`, and the listener holder of the realm's global object.
pub fn register(context: &mut Context) -> JsResult<()> {
    let global_target = JsObject::new(context.root_shape(), None, EventTargetData::new());
    context
        .realm()
        .host_defined_mut()
        .insert(GlobalTarget(global_target));
    webidl::register_interface::<EventTargetData>(context)
}

/// Give the global object `EventTarget`'s operations: the very functions of
/// `EventTarget.prototype`, as own non-enumerable properties.
pub fn install_on_global(context: &mut Context) -> JsResult<()> {
    // The global object's EventTarget operations: the very functions of
    // `EventTarget.prototype`, as own properties (its prototype chain stays untouched: test
    // harnesses identify a shell / ShadowRealm global by `Object.prototype` being its
    // prototype).
    let global = context.global_object();
    if let Some(target) = context.get_global_class::<EventTargetData>() {
        let proto = target.prototype();
        for name in ["addEventListener", "removeEventListener", "dispatchEvent"] {
            let f = proto.get(JsString::from(name), context)?;
            global.define_property_or_throw(
                JsString::from(name),
                PropertyDescriptor::builder()
                    .value(f)
                    .writable(true)
                    .enumerable(false)
                    .configurable(true),
                context,
            )?;
        }
    }
    Ok(())
}
