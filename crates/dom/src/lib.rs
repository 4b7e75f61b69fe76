//! # boa_dom
//!
//! The [DOM Standard](https://dom.spec.whatwg.org/) pieces the web APIs of this workspace
//! need and Boa lacks, as native host objects: `Event`, `CustomEvent`, `ProgressEvent` (XHR),
//! `EventTarget`, `AbortController`, `AbortSignal` (with `DOMException` from `boa_webidl`).
//!
//! ```
//! use boa_engine::{Context, Source};
//!
//! let mut context = Context::default();
//! boa_dom::register(&mut context).unwrap();
//! let reason = context
//!     .eval(Source::from_bytes(
//!         "const c = new AbortController(); let seen;
//!          c.signal.addEventListener('abort', (e) => { seen = e.type; });
//!          c.abort(); seen + ' ' + c.signal.reason.name",
//!     ))
//!     .unwrap();
//! assert_eq!(reason.as_string().unwrap().to_std_string_escaped(), "abort AbortError");
//! ```
//!
//! The Rust API below is what the streams modules (WritableStream's `controller.signal`,
//! pipeTo's `signal` option) build on: [`create_dom_exception`], [`create_abort_signal`],
//! [`is_abort_signal`], [`is_aborted`], [`abort_reason`], [`signal_abort`],
//! [`add_abort_algorithm`] / [`remove_abort_algorithm`]. Exceptions the DOM "reports"
//! (thrown by event listeners) go to the host through [`set_exception_reporter`].
//!
//! Also `CustomEvent` (WPT's EventTarget tests use it). The global object is an event target
//! too (see `register`).
//!
//! Layout, from the ground up: `report.rs` (the exception reporter hook), `event.rs`
//! (Event, CustomEvent), `event_target.rs` (EventTarget, dispatch, event handler attributes,
//! and the [`SignalHooks`] through which it consults an AbortSignal), `progress_event.rs`
//! (ProgressEvent), `abort.rs` (AbortSignal, which implements those hooks, and
//! AbortController). Each interface is a table of `boa_webidl::Member` rows.

#![warn(missing_docs)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

use boa_engine::{
    object::builtins::JsFunction, property::PropertyDescriptor, Context, JsObject, JsResult,
    JsString, JsValue,
};
use boa_gc::{Finalize, Trace};

mod abort;
mod event;
mod event_target;
mod progress_event;
mod report;

// For the event interfaces defined outside this module (FileReader, MessagePort, MessageEvent).
pub use boa_webidl::prototype_from_new_target;
pub use boa_webidl::{create_dom_exception, DomException};
pub use event::EventData;
pub use event::{create_event_object, event_init};
pub use event_target::EventTargetData;
pub use event_target::{
    add_internal_listener, dispatch, get_event_handler, global_target_data, set_event_handler,
    SignalHooks, Target,
};
pub use progress_event::fire_progress_event;
pub use report::{
    report_exception, report_exception_value, set_exception_reporter, ExceptionReporter,
};

/// Register `DOMException`, `Event`, `CustomEvent`, `EventTarget`, `AbortController`,
/// `AbortSignal`.
///
/// The global object becomes an EventTarget, as a worker's global is: `EventTarget`'s
/// methods accept it (and `undefined`/`null` as `this`), and it gets own non-enumerable
/// `addEventListener`, `removeEventListener` and `dispatchEvent` properties (the functions of
/// `EventTarget.prototype`), so `addEventListener(...)` and `globalThis.dispatchEvent(...)`
/// work.
pub fn register(context: &mut Context) -> JsResult<()> {
    if !boa_webidl::first_registration::<Registered>(context) {
        return Ok(());
    }
    boa_webidl::register(context)?;
    event::register(context)?;
    progress_event::register(context)?;
    event_target::register(context)?;
    abort::register(context)?;

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

/// Create a new, non-aborted `AbortSignal` (the one an `AbortController` would own).
pub fn create_abort_signal(context: &mut Context) -> JsResult<JsObject> {
    abort::create_signal(context)
}

/// [Create a dependent abort signal](https://dom.spec.whatwg.org/#create-a-dependent-abort-signal)
/// from `signals` (an `AbortSignal` that aborts when any of them does; what `AbortSignal.any`
/// returns) in the current realm.
pub fn create_dependent_abort_signal(
    signals: &[JsObject],
    context: &mut Context,
) -> JsResult<JsObject> {
    abort::create_dependent_abort_signal(signals, context)
}

/// Whether `value` is an `AbortSignal` (brand check, no JS runs).
pub fn is_abort_signal(value: &JsValue) -> bool {
    value
        .as_object()
        .is_some_and(|o| abort::is_signal_object(&o))
}

/// `signal`'s aborted flag (false if `signal` is not an AbortSignal).
pub fn is_aborted(signal: &JsObject) -> bool {
    abort::with_state(signal, |s| s.is_aborted()).unwrap_or(false)
}

/// `signal`'s abort reason (undefined if not aborted).
pub fn abort_reason(signal: &JsObject) -> JsValue {
    abort::with_state(signal, |s| s.reason())
        .flatten()
        .unwrap_or_default()
}

/// [signal abort](https://dom.spec.whatwg.org/#abortsignal-signal-abort): sets the reason
/// (`undefined` → a new "AbortError" DOMException), runs the abort algorithms in order, then
/// fires `abort` synchronously, then the dependent signals.
pub fn signal_abort(signal: &JsObject, reason: JsValue, context: &mut Context) -> JsResult<()> {
    abort::signal_abort(signal, reason, context)
}

/// An abort algorithm's handle, to remove it later.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AbortAlgorithmId(pub u64);

/// [add](https://dom.spec.whatwg.org/#abortsignal-add) an abort algorithm: `algorithm` is
/// called with no arguments (this = undefined) when the signal aborts, before the `abort`
/// event fires. No-op (returns an id that removes nothing) if already aborted.
pub fn add_abort_algorithm(signal: &JsObject, algorithm: JsFunction) -> AbortAlgorithmId {
    AbortAlgorithmId(abort::add_algorithm(
        signal,
        abort::AbortAlgorithm::Js(algorithm),
    ))
}

/// The number of abort algorithms currently added to `signal` (tests: no leak after a pipe).
pub fn abort_algorithm_count(signal: &JsObject) -> usize {
    abort::algorithm_count(signal)
}

/// [remove](https://dom.spec.whatwg.org/#abortsignal-remove) an abort algorithm.
pub fn remove_abort_algorithm(signal: &JsObject, id: AbortAlgorithmId) {
    abort::remove_algorithm(signal, id.0);
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
    event_target::dispatch(&event, &event_target::Target::own(target.clone()), context)?;
    Ok(())
}

boa_webidl::runtime_extension!(
    /// A boa_runtime `RuntimeExtension` that registers the DOM (see [`register`]).
    DomExtension,
    register
);

/// The realm mark of [`register`].
#[derive(Debug, Default, Trace, Finalize, boa_engine::JsData)]
struct Registered;

#[cfg(test)]
mod test_support;
#[cfg(test)]
mod tests;
