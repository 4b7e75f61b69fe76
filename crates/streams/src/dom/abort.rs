//! [`AbortController`](https://dom.spec.whatwg.org/#interface-abortcontroller) and
//! [`AbortSignal`](https://dom.spec.whatwg.org/#interface-AbortSignal).
//!
//! An `AbortSignal` object's native data is an [`EventTargetData`] carrying an
//! [`AbortSignalState`]; the `AbortSignal` interface object and prototype come from the
//! marker class [`AbortSignalInterface`], its prototype chained to `EventTarget.prototype`.

use std::cell::Cell;
use std::collections::VecDeque;

use boa_engine::{
    class::{Class, ClassBuilder},
    job::{NativeJob, TimeoutJob},
    js_string,
    object::builtins::JsFunction,
    property::Attribute,
    Context, JsData, JsError, JsNativeError, JsObject, JsResult, JsSymbol, JsValue, NativeFunction,
};
use boa_gc::{Finalize, Gc, GcRefCell, Trace};

use super::event_target::{self, EventTargetData, Listener};
use super::{event, exception, report_exception};
use crate::webidl::{self, arg};

/// An abort algorithm.
#[derive(Trace, Finalize)]
pub(crate) enum AbortAlgorithm {
    /// A JS function called with no arguments (from the Rust API).
    Js(JsFunction),
    /// "Remove an event listener with eventTarget and listener" (the `signal` option).
    RemoveListener {
        target: JsObject,
        listener: Gc<Listener>,
    },
}

/// The AbortSignal-specific slots of an event target.
#[derive(Trace, Finalize)]
pub(crate) struct AbortSignalState {
    /// The abort reason; `None` while not aborted (a signal is aborted when its reason is not
    /// undefined, and an aborted signal's reason is never undefined).
    reason: GcRefCell<Option<JsValue>>,
    algorithms: GcRefCell<VecDeque<(u64, AbortAlgorithm)>>,
    #[unsafe_ignore_trace]
    next_id: Cell<u64>,
    #[unsafe_ignore_trace]
    dependent: Cell<bool>,
    // NOTE: the DOM holds source and dependent signals weakly; strong (traced) references
    // are used here. A dependent signal thus lives as long as its sources. Unobservable
    // except for memory.
    source_signals: GcRefCell<Vec<JsObject>>,
    dependent_signals: GcRefCell<Vec<JsObject>>,
}

impl AbortSignalState {
    pub(crate) fn new() -> Self {
        Self {
            reason: GcRefCell::new(None),
            algorithms: GcRefCell::new(VecDeque::new()),
            next_id: Cell::new(1),
            dependent: Cell::new(false),
            source_signals: GcRefCell::new(Vec::new()),
            dependent_signals: GcRefCell::new(Vec::new()),
        }
    }

    pub(crate) fn reason(&self) -> Option<JsValue> {
        self.reason.borrow().clone()
    }

    pub(crate) fn is_aborted(&self) -> bool {
        self.reason.borrow().is_some()
    }
}

/// Whether `object` is an `AbortSignal`.
pub(crate) fn is_signal_object(object: &JsObject) -> bool {
    object
        .downcast_ref::<EventTargetData>()
        .is_some_and(|d| d.signal().is_some())
}

/// Run `f` on `signal`'s state (briefly borrowed; `f` must not run JS).
pub(crate) fn with_state<R>(
    signal: &JsObject,
    f: impl FnOnce(&AbortSignalState) -> R,
) -> Option<R> {
    let data = signal.downcast_ref::<EventTargetData>()?;
    data.signal().map(f)
}

/// Append an abort algorithm (no-op if aborted); returns its id (0 when not added).
pub(crate) fn add_algorithm(signal: &JsObject, algorithm: AbortAlgorithm) -> u64 {
    with_state(signal, |s| {
        // 1. If signal is aborted, then return.
        if s.is_aborted() {
            return 0;
        }
        // 2. Append algorithm to signal's abort algorithms.
        let id = s.next_id.get();
        s.next_id.set(id + 1);
        s.algorithms.borrow_mut().push_back((id, algorithm));
        id
    })
    .unwrap_or(0)
}

/// Remove the abort algorithm with `id`.
pub(crate) fn remove_algorithm(signal: &JsObject, id: u64) {
    with_state(signal, |s| {
        s.algorithms.borrow_mut().retain(|(i, _)| *i != id);
    });
}

/// The number of abort algorithms `signal` holds (0 if not a signal).
#[cfg(test)]
pub(crate) fn algorithm_count(signal: &JsObject) -> usize {
    with_state(signal, |s| s.algorithms.borrow().len()).unwrap_or(0)
}

/// Create a new `AbortSignal` object in the current realm.
pub(crate) fn create_signal(context: &mut Context) -> JsResult<JsObject> {
    let proto = context
        .get_global_class::<AbortSignalInterface>()
        .ok_or_else(|| JsNativeError::typ().with_message("AbortSignal is not registered"))?
        .prototype();
    Ok(JsObject::from_proto_and_data(
        Some(proto),
        EventTargetData::new_signal(),
    ))
}

/// [signal abort](https://dom.spec.whatwg.org/#abortsignal-signal-abort)
pub(crate) fn signal_abort(
    signal: &JsObject,
    reason: JsValue,
    context: &mut Context,
) -> JsResult<()> {
    // 1. If signal is aborted, then return.
    if with_state(signal, AbortSignalState::is_aborted).unwrap_or(true) {
        return Ok(());
    }
    // 2. Set signal's abort reason to reason if it is given; otherwise to a new
    //    "AbortError" DOMException.
    let reason = if reason.is_undefined() {
        exception::create("signal is aborted without reason", "AbortError", context)?.into()
    } else {
        reason
    };
    let dependents = with_state(signal, |s| {
        *s.reason.borrow_mut() = Some(reason.clone());
        s.dependent_signals.borrow().clone()
    })
    .unwrap_or_default();
    // 3. Let dependentSignalsToAbort be a new list.
    let mut to_abort = Vec::new();
    // 4. For each dependentSignal of signal's dependent signals:
    for dependent in dependents {
        // 4.1 If dependentSignal is not aborted, then:
        let newly = with_state(&dependent, |s| {
            if s.is_aborted() {
                return false;
            }
            // 4.1.1 Set dependentSignal's abort reason to signal's abort reason.
            *s.reason.borrow_mut() = Some(reason.clone());
            true
        })
        .unwrap_or(false);
        // 4.1.2 Append dependentSignal to dependentSignalsToAbort.
        if newly {
            to_abort.push(dependent);
        }
    }
    // 5. Run the abort steps for signal.
    run_abort_steps(signal, context)?;
    // 6. For each dependentSignal of dependentSignalsToAbort, run the abort steps for
    //    dependentSignal.
    for dependent in to_abort {
        run_abort_steps(&dependent, context)?;
    }
    Ok(())
}

/// [run the abort steps](https://dom.spec.whatwg.org/#run-the-abort-steps)
fn run_abort_steps(signal: &JsObject, context: &mut Context) -> JsResult<()> {
    // 1. For each algorithm of signal's abort algorithms: run algorithm.
    // 2. Empty signal's abort algorithms.
    // NOTE: taken one at a time so an algorithm removed by an earlier one does not run.
    loop {
        let next = with_state(signal, |s| s.algorithms.borrow_mut().pop_front()).flatten();
        let Some((_, algorithm)) = next else { break };
        match &algorithm {
            AbortAlgorithm::Js(f) => {
                if let Err(err) = webidl::call_catching(f, &JsValue::undefined(), &[], context) {
                    report_exception(err, context);
                }
            }
            AbortAlgorithm::RemoveListener { target, listener } => {
                event_target::remove_an_event_listener(target, listener);
            }
        }
    }
    // 3. Fire an event named abort at signal.
    let event = event::create_trusted_event("abort", context)?;
    let Ok(event) = event.downcast::<event::EventData>() else {
        return Ok(());
    };
    let Ok(data) = signal.clone().downcast::<EventTargetData>() else {
        return Ok(());
    };
    event_target::dispatch(&event, &event_target::Target::own(data), context)?;
    Ok(())
}

/// [create a dependent abort signal](https://dom.spec.whatwg.org/#create-a-dependent-abort-signal)
fn create_dependent_abort_signal(
    signals: &[JsObject],
    context: &mut Context,
) -> JsResult<JsObject> {
    // 1. Let resultSignal be a new object implementing signalInterface using realm.
    let result = create_signal(context)?;
    // 2. For each signal of signals: if signal is aborted, then set resultSignal's abort
    //    reason to signal's abort reason and return resultSignal.
    for signal in signals {
        if let Some(reason) = with_state(signal, AbortSignalState::reason).flatten() {
            with_state(&result, |s| *s.reason.borrow_mut() = Some(reason));
            return Ok(result);
        }
    }
    // 3. Set resultSignal's dependent to true.
    with_state(&result, |s| s.dependent.set(true));
    // 4. For each signal of signals:
    for signal in signals {
        let (dependent, sources) = with_state(signal, |s| {
            (s.dependent.get(), s.source_signals.borrow().clone())
        })
        .unwrap_or((false, Vec::new()));
        let to_link = if dependent {
            // 4.2 Otherwise, for each sourceSignal of signal's source signals: (assert not
            //     aborted and not dependent) link it.
            sources
        } else {
            // 4.1 If signal's dependent is false: link signal itself.
            vec![signal.clone()]
        };
        for source in to_link {
            // Append source to resultSignal's source signals (a set) and resultSignal to
            // source's dependent signals.
            let added = with_state(&result, |s| {
                let mut list = s.source_signals.borrow_mut();
                if list.iter().any(|o| JsObject::equals(o, &source)) {
                    false
                } else {
                    list.push(source.clone());
                    true
                }
            })
            .unwrap_or(false);
            if added {
                with_state(&source, |s| {
                    let mut dependents = s.dependent_signals.borrow_mut();
                    // NOTE: dependents that are already aborted are skipped by "signal abort"
                    // (step 4.1); dropping them here only bounds the list's growth.
                    dependents
                        .retain(|d| !with_state(d, AbortSignalState::is_aborted).unwrap_or(true));
                    dependents.push(result.clone());
                });
            }
        }
    }
    // 5. Return resultSignal.
    Ok(result)
}

/// Convert a value to `sequence<AbortSignal>` (WebIDL: iterate with @@iterator).
fn to_signal_sequence(value: &JsValue, context: &mut Context) -> JsResult<Vec<JsObject>> {
    let not_iterable = || webidl::type_error("AbortSignal.any: argument is not iterable");
    // 1. If V is not an Object, throw a TypeError.
    let Some(object) = value.as_object() else {
        return Err(not_iterable());
    };
    // 2. Let method be ? GetMethod(V, @@iterator). 3. If undefined, throw a TypeError.
    let method = object.get(JsSymbol::iterator(), context)?;
    if method.is_null_or_undefined() {
        return Err(not_iterable());
    }
    let Some(method) = method.as_callable() else {
        return Err(not_iterable());
    };
    // GetIteratorFromMethod.
    let iterator = method.call(value, &[], context)?;
    let Some(iterator) = iterator.as_object() else {
        return Err(webidl::type_error("iterator is not an object"));
    };
    let next = iterator.get(js_string!("next"), context)?;
    let mut out = Vec::new();
    loop {
        // IteratorStepValue.
        let Some(next_fn) = next.as_callable() else {
            return Err(webidl::type_error("iterator.next is not a function"));
        };
        let result = next_fn.call(&iterator.clone().into(), &[], context)?;
        let Some(result) = result.as_object() else {
            return Err(webidl::type_error("iterator result is not an object"));
        };
        if result.get(js_string!("done"), context)?.to_boolean() {
            break;
        }
        let item = result.get(js_string!("value"), context)?;
        match item.as_object() {
            Some(o) if is_signal_object(&o) => out.push(o),
            _ => {
                return Err(webidl::type_error(
                    "AbortSignal.any: an element is not an AbortSignal",
                ))
            }
        }
    }
    Ok(out)
}

fn this_signal(this: &JsValue) -> JsResult<JsObject<EventTargetData>> {
    let target = webidl::brand::<EventTargetData>(this, "AbortSignal")?;
    if target.borrow().data().signal().is_none() {
        return Err(webidl::type_error("'this' is not a AbortSignal object"));
    }
    Ok(target)
}

/// The `AbortSignal` interface object (instances are [`EventTargetData`] with signal state).
#[derive(Debug, Trace, Finalize, JsData)]
pub struct AbortSignalInterface;

impl Class for AbortSignalInterface {
    const NAME: &'static str = "AbortSignal";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = webidl::INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::static_operation(
            class,
            "abort",
            0,
            NativeFunction::from_fn_ptr(|_, args, context| {
                // 1. Let signal be a new AbortSignal object.
                let signal = create_signal(context)?;
                // 2. Set signal's abort reason to reason if it is given; otherwise to a new
                //    "AbortError" DOMException.
                let reason = arg(args, 0);
                let reason = if reason.is_undefined() {
                    exception::create("signal is aborted without reason", "AbortError", context)?
                        .into()
                } else {
                    reason
                };
                with_state(&signal, |s| *s.reason.borrow_mut() = Some(reason));
                // 3. Return signal.
                Ok(signal.into())
            }),
        );
        webidl::static_operation(
            class,
            "timeout",
            1,
            NativeFunction::from_fn_ptr(|_, args, context| {
                if args.is_empty() {
                    return Err(webidl::type_error(
                        "AbortSignal.timeout: 1 argument required, but only 0 present",
                    ));
                }
                let ms = webidl::to_enforce_range_u64(&arg(args, 0), "milliseconds", context)?;
                // 1. Let signal be a new AbortSignal object.
                let signal = create_signal(context)?;
                // 3. Run steps after a timeout given global, "AbortSignal-timeout",
                //    milliseconds, and: queue a global task on the timer task source to
                //    signal abort given signal and a new "TimeoutError" DOMException.
                // NOTE: the timeout job is itself a task; aborting in it directly instead of
                // queueing one more task is indistinguishable for script.
                let captured = signal.clone();
                let job = NativeJob::new(move |context| {
                    let reason = exception::create("signal timed out", "TimeoutError", context)?;
                    signal_abort(&captured, reason.into(), context)?;
                    Ok(JsValue::undefined())
                });
                context.enqueue_job(TimeoutJob::new(job, ms).into());
                // 4. Return signal.
                Ok(signal.into())
            }),
        );
        webidl::static_operation(
            class,
            "any",
            1,
            NativeFunction::from_fn_ptr(|_, args, context| {
                if args.is_empty() {
                    return Err(webidl::type_error(
                        "AbortSignal.any: 1 argument required, but only 0 present",
                    ));
                }
                let signals = to_signal_sequence(&arg(args, 0), context)?;
                // Return the result of creating a dependent abort signal from signals using
                // AbortSignal and the current realm.
                Ok(create_dependent_abort_signal(&signals, context)?.into())
            }),
        );
        webidl::attribute(
            class,
            "aborted",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let signal = this_signal(this)?;
                let aborted = signal
                    .borrow()
                    .data()
                    .signal()
                    .is_some_and(AbortSignalState::is_aborted);
                Ok(aborted.into())
            }),
            None,
        );
        webidl::attribute(
            class,
            "reason",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let signal = this_signal(this)?;
                let reason = signal
                    .borrow()
                    .data()
                    .signal()
                    .and_then(AbortSignalState::reason);
                Ok(reason.unwrap_or_default())
            }),
            None,
        );
        webidl::operation(
            class,
            "throwIfAborted",
            0,
            NativeFunction::from_fn_ptr(|this, _, _| {
                let signal = this_signal(this)?;
                let reason = signal
                    .borrow()
                    .data()
                    .signal()
                    .and_then(AbortSignalState::reason);
                // If this is aborted, then throw this's abort reason.
                match reason {
                    Some(r) => Err(JsError::from_opaque(r)),
                    None => Ok(JsValue::undefined()),
                }
            }),
        );
        webidl::attribute(
            class,
            "onabort",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let signal = this_signal(this)?;
                Ok(event_target::get_event_handler(&signal, "abort"))
            }),
            Some(NativeFunction::from_fn_ptr(|this, args, _| {
                let signal = this_signal(this)?;
                if args.is_empty() {
                    return Err(webidl::type_error("onabort setter needs a value"));
                }
                event_target::set_event_handler(&signal, "abort", &arg(args, 0));
                Ok(JsValue::undefined())
            })),
        );
        webidl::to_string_tag(class, "AbortSignal");
        Ok(())
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        Err(webidl::illegal_constructor())
    }

    fn construct(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsObject> {
        Err(webidl::illegal_constructor())
    }
}

/// An `AbortController`'s slots.
#[derive(Trace, Finalize, JsData)]
pub struct AbortControllerData {
    signal: JsObject,
}

impl Class for AbortControllerData {
    const NAME: &'static str = "AbortController";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = webidl::INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::attribute(
            class,
            "signal",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let c = webidl::brand::<AbortControllerData>(this, "AbortController")?;
                let signal = c.borrow().data().signal.clone();
                Ok(signal.into())
            }),
            None,
        );
        webidl::operation(
            class,
            "abort",
            0,
            NativeFunction::from_fn_ptr(|this, args, context| {
                let c = webidl::brand::<AbortControllerData>(this, "AbortController")?;
                let signal = c.borrow().data().signal.clone();
                // Signal abort on this's signal with reason if it is given.
                signal_abort(&signal, arg(args, 0), context)?;
                Ok(JsValue::undefined())
            }),
        );
        webidl::to_string_tag(class, "AbortController");
        Ok(())
    }

    /// `new AbortController()`: 1. Let signal be a new AbortSignal object. 2. Set this's
    /// signal to signal.
    fn data_constructor(_: &JsValue, _: &[JsValue], context: &mut Context) -> JsResult<Self> {
        Ok(Self {
            signal: create_signal(context)?,
        })
    }
}

/// Register `AbortSignal` (inheriting from `EventTarget`) and `AbortController`.
pub(crate) fn register(context: &mut Context) -> JsResult<()> {
    context.register_global_class::<AbortSignalInterface>()?;
    context.register_global_class::<AbortControllerData>()?;
    let target = context
        .get_global_class::<EventTargetData>()
        .ok_or_else(|| JsNativeError::typ().with_message("EventTarget is not registered"))?;
    let signal = context
        .get_global_class::<AbortSignalInterface>()
        .ok_or_else(|| JsNativeError::typ().with_message("AbortSignal is not registered"))?;
    // interface AbortSignal : EventTarget
    signal.prototype().set_prototype(Some(target.prototype()));
    signal
        .constructor()
        .set_prototype(Some(target.constructor()));
    Ok(())
}
