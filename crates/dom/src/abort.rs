//! [`AbortController`](https://dom.spec.whatwg.org/#interface-abortcontroller) and
//! [`AbortSignal`](https://dom.spec.whatwg.org/#interface-AbortSignal).
//!
//! An `AbortSignal` object's native data is an [`EventTargetData`] carrying a
//! `Gc<`[`AbortSignalState`]`>` as its [`SignalHooks`]; the `AbortSignal` interface object and prototype come from the
//! marker class [`AbortSignalInterface`], its prototype chained to `EventTarget.prototype`.
//!
//! The state is its own GC box (pointing back at its object) so that source and dependent
//! signals can refer to each other weakly ([`WeakGc`]), as the DOM Standard holds them:
//! Boa gives no weak handle to a `JsObject` itself.

use std::any::Any;
use std::cell::Cell;
use std::collections::{BTreeMap, HashSet};

use boa_engine::{
    class::{Class, ClassBuilder},
    job::{NativeJob, TimeoutJob},
    js_string,
    object::builtins::JsFunction,
    property::Attribute,
    Context, JsData, JsError, JsNativeError, JsObject, JsResult, JsSymbol, JsValue,
};
use boa_gc::{Finalize, Gc, GcRefCell, Trace, WeakGc};

use super::event;
use super::event_target::{self, EventTargetData, Listener, SignalHooks};
use super::report::report_exception;
use boa_webidl::exception;
use boa_webidl::{self as webidl, arg, Member};

/// An abort algorithm.
#[derive(Trace, Finalize)]
pub enum AbortAlgorithm {
    /// A JS function called with no arguments (from the Rust API).
    Js(JsFunction),
    /// "Remove an event listener with eventTarget and listener" (the `signal` option).
    RemoveListener {
        target: JsObject,
        listener: Gc<Listener>,
    },
}

/// One entry of a signal's dependent signals.
#[derive(Trace, Finalize)]
struct DependentEntry {
    /// The dependent signal, held weakly (the DOM's dependent signals is a weak set).
    weak: WeakGc<AbortSignalState>,
    /// The same signal held strongly while it must not be collected: it has `abort`
    /// listeners or abort algorithms ("AbortSignal garbage collection").
    strong: Option<Gc<AbortSignalState>>,
}

/// A signal's [dependent signals](https://dom.spec.whatwg.org/#abortsignal-dependent-signals):
/// an ordered weak set. Entries are keyed by insertion number (so iteration is insertion
/// order and one entry is found in O(log n)); entries whose signal was collected or aborted
/// are pruned when the map doubles in size since the last prune, so its size stays within a
/// constant factor of the live dependents' count.
#[derive(Trace, Finalize)]
struct DependentSet {
    entries: BTreeMap<u64, DependentEntry>,
    #[unsafe_ignore_trace]
    next_key: u64,
    #[unsafe_ignore_trace]
    prune_at: usize,
}

/// The smallest size at which a dependent set is pruned.
const MIN_PRUNE_AT: usize = 32;

impl DependentSet {
    fn new() -> Self {
        Self {
            entries: BTreeMap::new(),
            next_key: 0,
            prune_at: MIN_PRUNE_AT,
        }
    }

    /// Append `signal` (held weakly, or also strongly when `pinned`); returns its key.
    fn insert(&mut self, signal: &Gc<AbortSignalState>, pinned: bool) -> u64 {
        if self.entries.len() >= self.prune_at {
            self.prune();
        }
        let key = self.next_key;
        self.next_key += 1;
        self.entries.insert(
            key,
            DependentEntry {
                weak: WeakGc::new(signal),
                strong: pinned.then(|| signal.clone()),
            },
        );
        key
    }

    /// Drop the entries whose signal was collected or is aborted (an aborted dependent is
    /// skipped by "signal abort" step 4.1, so dropping it is unobservable).
    fn prune(&mut self) {
        self.entries.retain(|_, e| {
            e.weak
                .upgrade()
                .is_some_and(|s| s.reason.borrow().is_none())
        });
        self.prune_at = (self.entries.len() * 2).max(MIN_PRUNE_AT);
    }
}

/// A link from a dependent signal to one of its source signals.
#[derive(Trace, Finalize)]
struct SourceLink {
    /// The source signal, held weakly (the DOM's source signals is a weak set).
    source: WeakGc<AbortSignalState>,
    /// The key of the dependent's entry in the source's dependent signals.
    #[unsafe_ignore_trace]
    key: u64,
}

/// The AbortSignal-specific slots of an event target.
#[derive(Trace, Finalize)]
pub struct AbortSignalState {
    /// The `AbortSignal` object owning this state (set right after its creation).
    object: GcRefCell<Option<JsObject>>,
    /// The abort reason; `None` while not aborted (a signal is aborted when its reason is not
    /// undefined, and an aborted signal's reason is never undefined).
    reason: GcRefCell<Option<JsValue>>,
    /// The abort algorithms, keyed by their id (ids grow, so key order is append order).
    algorithms: GcRefCell<BTreeMap<u64, AbortAlgorithm>>,
    #[unsafe_ignore_trace]
    next_id: Cell<u64>,
    #[unsafe_ignore_trace]
    dependent: Cell<bool>,
    /// Whether this (dependent) signal's sources hold it strongly.
    #[unsafe_ignore_trace]
    pinned: Cell<bool>,
    source_signals: GcRefCell<Vec<SourceLink>>,
    dependent_signals: GcRefCell<DependentSet>,
}

impl AbortSignalState {
    fn new() -> Self {
        Self {
            object: GcRefCell::new(None),
            reason: GcRefCell::new(None),
            algorithms: GcRefCell::new(BTreeMap::new()),
            next_id: Cell::new(1),
            dependent: Cell::new(false),
            pinned: Cell::new(false),
            source_signals: GcRefCell::new(Vec::new()),
            dependent_signals: GcRefCell::new(DependentSet::new()),
        }
    }

    pub fn reason(&self) -> Option<JsValue> {
        self.reason.borrow().clone()
    }

    pub fn is_aborted(&self) -> bool {
        self.reason.borrow().is_some()
    }

    fn object(&self) -> Option<JsObject> {
        self.object.borrow().clone()
    }
}

/// An `AbortSignal`'s state as EventTarget's algorithms see it.
#[derive(Trace, Finalize)]
struct SignalSlot(Gc<AbortSignalState>);

impl SignalHooks for SignalSlot {
    fn is_aborted(&self) -> bool {
        self.0.is_aborted()
    }

    fn add_remove_listener_steps(
        &self,
        signal: &JsObject,
        target: JsObject,
        listener: Gc<Listener>,
    ) {
        add_algorithm_to(
            signal,
            &self.0,
            AbortAlgorithm::RemoveListener { target, listener },
        );
    }

    fn listeners_changed(&self, signal: &JsObject) {
        update_pin(signal, &self.0);
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Whether `object` is an `AbortSignal`.
pub fn is_signal_object(object: &JsObject) -> bool {
    object
        .downcast_ref::<EventTargetData>()
        .is_some_and(|d| d.signal().is_some())
}

/// `signal`'s state (the object is borrowed only briefly).
fn state_of(signal: &JsObject) -> Option<Gc<AbortSignalState>> {
    let data = signal.downcast_ref::<EventTargetData>()?;
    let slot = data.signal()?.as_any().downcast_ref::<SignalSlot>()?;
    Some(slot.0.clone())
}

/// Run `f` on `signal`'s state (`f` must not run JS).
pub fn with_state<R>(signal: &JsObject, f: impl FnOnce(&AbortSignalState) -> R) -> Option<R> {
    state_of(signal).map(|s| f(&s))
}

/// Whether `value` is an `AbortSignal` (brand check, no JS runs).
pub fn is_abort_signal(value: &JsValue) -> bool {
    value.as_object().is_some_and(|o| is_signal_object(&o))
}

/// `signal`'s aborted flag (false if `signal` is not an AbortSignal).
pub fn is_aborted(signal: &JsObject) -> bool {
    with_state(signal, AbortSignalState::is_aborted).unwrap_or(false)
}

/// `signal`'s abort reason (undefined if not aborted).
pub fn abort_reason(signal: &JsObject) -> JsValue {
    with_state(signal, AbortSignalState::reason)
        .flatten()
        .unwrap_or_default()
}

/// An abort algorithm's handle, to remove it later.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AbortAlgorithmId(pub u64);

/// [add](https://dom.spec.whatwg.org/#abortsignal-add) an abort algorithm: `algorithm` is
/// called with no arguments (this = undefined) when the signal aborts, before the `abort`
/// event fires. No-op (returns an id that removes nothing) if already aborted.
pub fn add_abort_algorithm(signal: &JsObject, algorithm: JsFunction) -> AbortAlgorithmId {
    let Some(state) = state_of(signal) else {
        return AbortAlgorithmId(0);
    };
    AbortAlgorithmId(add_algorithm_to(
        signal,
        &state,
        AbortAlgorithm::Js(algorithm),
    ))
}

/// [add](https://dom.spec.whatwg.org/#abortsignal-add) `algorithm` to `signal`, whose state
/// is `state`; returns its id (0 when not added).
fn add_algorithm_to(
    signal: &JsObject,
    state: &Gc<AbortSignalState>,
    algorithm: AbortAlgorithm,
) -> u64 {
    // 1. If signal is aborted, then return.
    if state.is_aborted() {
        return 0;
    }
    // 2. Append algorithm to signal's abort algorithms.
    let id = state.next_id.get();
    state.next_id.set(id + 1);
    state.algorithms.borrow_mut().insert(id, algorithm);
    update_pin(signal, state);
    id
}

/// [remove](https://dom.spec.whatwg.org/#abortsignal-remove) an abort algorithm.
pub fn remove_abort_algorithm(signal: &JsObject, id: AbortAlgorithmId) {
    let Some(state) = state_of(signal) else {
        return;
    };
    let removed = state.algorithms.borrow_mut().remove(&id.0);
    update_pin(signal, &state);
    drop(removed);
}

/// The number of abort algorithms currently added to `signal` (0 if not a signal; tests: no
/// leak after a pipe).
pub fn abort_algorithm_count(signal: &JsObject) -> usize {
    with_state(signal, |s| s.algorithms.borrow().len()).unwrap_or(0)
}

/// `(entries, live)`: how many entries `signal`'s dependent signals holds, and how many of
/// them still refer to a live signal (tests: the weak set stays bounded).
#[cfg(test)]
pub fn dependent_entry_counts(signal: &JsObject) -> (usize, usize) {
    with_state(signal, |s| {
        let set = s.dependent_signals.borrow();
        let live = set
            .entries
            .values()
            .filter(|e| e.weak.is_upgradable())
            .count();
        (set.entries.len(), live)
    })
    .unwrap_or((0, 0))
}

/// The number of `signal`'s source signals (tests: `any` chains stay flat).
#[cfg(test)]
pub fn source_count(signal: &JsObject) -> usize {
    with_state(signal, |s| s.source_signals.borrow().len()).unwrap_or(0)
}

/// [AbortSignal garbage collection](https://dom.spec.whatwg.org/#abort-signal-garbage-collection):
/// "A non-aborted dependent AbortSignal object must not be garbage collected while its source
/// signals is non-empty and it has registered event listeners for its abort event or its
/// abort algorithms is non-empty." Such a signal is held strongly by each of its (weakly
/// held) sources, so it lives exactly as long as one of them can still abort it.
fn update_pin(signal: &JsObject, state: &Gc<AbortSignalState>) {
    if !state.dependent.get() {
        return;
    }
    let wanted = !state.is_aborted()
        && (!state.algorithms.borrow().is_empty()
            || event_target::has_listener_for(signal, "abort"));
    if wanted == state.pinned.get() {
        return;
    }
    state.pinned.set(wanted);
    for link in state.source_signals.borrow().iter() {
        let Some(source) = link.source.upgrade() else {
            continue;
        };
        let mut set = source.dependent_signals.borrow_mut();
        if let Some(entry) = set.entries.get_mut(&link.key) {
            entry.strong = wanted.then(|| state.clone());
        }
    }
}

/// Create a new, non-aborted `AbortSignal` (the one an `AbortController` would own) in the
/// current realm.
pub fn create_abort_signal(context: &mut Context) -> JsResult<JsObject> {
    let proto = context
        .get_global_class::<AbortSignalInterface>()
        .ok_or_else(|| JsNativeError::typ().with_message("AbortSignal is not registered"))?
        .prototype();
    let state = Gc::new(AbortSignalState::new());
    let object: JsObject = JsObject::from_proto_and_data(
        Some(proto),
        EventTargetData::new_signal(Box::new(SignalSlot(state.clone()))),
    )
    .upcast();
    *state.object.borrow_mut() = Some(object.clone());
    Ok(object)
}

/// [signal abort](https://dom.spec.whatwg.org/#abortsignal-signal-abort): sets the reason
/// (`undefined` → a new "AbortError" DOMException), runs the abort algorithms in order, then
/// fires `abort` synchronously, then the dependent signals.
pub fn signal_abort(signal: &JsObject, reason: JsValue, context: &mut Context) -> JsResult<()> {
    let Some(state) = state_of(signal) else {
        return Ok(());
    };
    // 1. If signal is aborted, then return.
    if state.is_aborted() {
        return Ok(());
    }
    // 2. Set signal's abort reason to reason if it is given; otherwise to a new
    //    "AbortError" DOMException.
    let reason = if reason.is_undefined() {
        exception::create("signal is aborted without reason", "AbortError", context)?.into()
    } else {
        reason
    };
    *state.reason.borrow_mut() = Some(reason.clone());
    // NOTE: an aborted signal's dependent signals are never read again (step 1 returns
    // early), so the set is emptied here, releasing the dependents it kept alive.
    let dependents = std::mem::take(&mut state.dependent_signals.borrow_mut().entries);
    // 3. Let dependentSignalsToAbort be a new list.
    let mut to_abort = Vec::new();
    // 4. For each dependentSignal of signal's dependent signals:
    for entry in dependents.into_values() {
        // A collected dependent has no listeners or algorithms: skipping it is unobservable.
        let Some(dependent) = entry.weak.upgrade() else {
            continue;
        };
        // 4.1 If dependentSignal is not aborted, then:
        if dependent.is_aborted() {
            continue;
        }
        // 4.1.1 Set dependentSignal's abort reason to signal's abort reason.
        *dependent.reason.borrow_mut() = Some(reason.clone());
        // 4.1.2 Append dependentSignal to dependentSignalsToAbort.
        if let Some(object) = dependent.object() {
            to_abort.push(object);
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
    let Some(state) = state_of(signal) else {
        return Ok(());
    };
    // An aborted signal never aborts again: it need not be kept alive by its sources.
    update_pin(signal, &state);
    // 1. For each algorithm of signal's abort algorithms: run algorithm.
    // 2. Empty signal's abort algorithms.
    // NOTE: taken one at a time so an algorithm removed by an earlier one does not run.
    loop {
        let next = state.algorithms.borrow_mut().pop_first();
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

/// [Create a dependent abort signal](https://dom.spec.whatwg.org/#create-a-dependent-abort-signal)
/// from `signals` (an `AbortSignal` that aborts when any of them does; what `AbortSignal.any`
/// returns) in the current realm.
pub fn create_dependent_abort_signal(
    signals: &[JsObject],
    context: &mut Context,
) -> JsResult<JsObject> {
    // 1. Let resultSignal be a new object implementing signalInterface using realm.
    let result = create_abort_signal(context)?;
    let Some(result_state) = state_of(&result) else {
        return Ok(result);
    };
    let states: Vec<Gc<AbortSignalState>> = signals.iter().filter_map(state_of).collect();
    // 2. For each signal of signals: if signal is aborted, then set resultSignal's abort
    //    reason to signal's abort reason and return resultSignal.
    for signal in &states {
        if let Some(reason) = signal.reason() {
            *result_state.reason.borrow_mut() = Some(reason);
            return Ok(result);
        }
    }
    // 3. Set resultSignal's dependent to true.
    result_state.dependent.set(true);
    // resultSignal's source signals is a set: the addresses of the signals linked so far.
    let mut linked = HashSet::new();
    let mut link = |source: Gc<AbortSignalState>| {
        if !linked.insert(std::ptr::from_ref::<AbortSignalState>(&source) as usize) {
            return;
        }
        // Append source to resultSignal's source signals and resultSignal to source's
        // dependent signals.
        let key = source
            .dependent_signals
            .borrow_mut()
            .insert(&result_state, false);
        result_state.source_signals.borrow_mut().push(SourceLink {
            source: WeakGc::new(&source),
            key,
        });
    };
    // 4. For each signal of signals:
    for signal in states {
        if !signal.dependent.get() {
            // 4.1 If signal's dependent is false: append signal to resultSignal's source
            //     signals and resultSignal to signal's dependent signals.
            link(signal);
        } else {
            // 4.2 Otherwise, for each sourceSignal of signal's source signals: assert
            //     sourceSignal is not aborted and not dependent; append it to resultSignal's
            //     source signals and resultSignal to its dependent signals.
            // NOTE: a collected source can no longer abort anything; skipping it is
            // unobservable.
            let sources: Vec<Gc<AbortSignalState>> = signal
                .source_signals
                .borrow()
                .iter()
                .filter_map(|l| l.source.upgrade())
                .collect();
            for source in sources {
                link(source);
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

/// `this`'s abort reason; `None` while not aborted (brand check: `AbortSignal`).
fn this_reason(this: &JsValue) -> JsResult<Option<JsValue>> {
    let signal = this_signal(this)?;
    Ok(with_state(&signal.upcast(), AbortSignalState::reason).flatten())
}

/// [`AbortSignal.abort(reason)`](https://dom.spec.whatwg.org/#dom-abortsignal-abort)
fn abort(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    // 1. Let signal be a new AbortSignal object.
    let signal = create_abort_signal(context)?;
    // 2. Set signal's abort reason to reason if it is given; otherwise to a new "AbortError"
    //    DOMException.
    let reason = arg(args, 0);
    let reason = if reason.is_undefined() {
        exception::create("signal is aborted without reason", "AbortError", context)?.into()
    } else {
        reason
    };
    with_state(&signal, |s| *s.reason.borrow_mut() = Some(reason));
    // 3. Return signal.
    Ok(signal.into())
}

/// [`AbortSignal.timeout(milliseconds)`](https://dom.spec.whatwg.org/#dom-abortsignal-timeout)
fn timeout(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    if args.is_empty() {
        return Err(webidl::type_error(
            "AbortSignal.timeout: 1 argument required, but only 0 present",
        ));
    }
    let ms = webidl::to_enforce_range_u64(&arg(args, 0), "milliseconds", context)?;
    // 1. Let signal be a new AbortSignal object.
    let signal = create_abort_signal(context)?;
    // 3. Run steps after a timeout given global, "AbortSignal-timeout", milliseconds, and:
    //    queue a global task on the timer task source to signal abort given signal and a new
    //    "TimeoutError" DOMException.
    // NOTE: the timeout job is itself a task; aborting in it directly instead of queueing one
    // more task is indistinguishable for script.
    let captured = signal.clone();
    let job = NativeJob::new(move |context| {
        let reason = exception::create("signal timed out", "TimeoutError", context)?;
        signal_abort(&captured, reason.into(), context)?;
        Ok(JsValue::undefined())
    });
    context.enqueue_job(TimeoutJob::new(job, ms).into());
    // 4. Return signal.
    Ok(signal.into())
}

/// [`AbortSignal.any(signals)`](https://dom.spec.whatwg.org/#dom-abortsignal-any)
fn any(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    if args.is_empty() {
        return Err(webidl::type_error(
            "AbortSignal.any: 1 argument required, but only 0 present",
        ));
    }
    let signals = to_signal_sequence(&arg(args, 0), context)?;
    // Return the result of creating a dependent abort signal from signals using AbortSignal
    // and the current realm.
    Ok(create_dependent_abort_signal(&signals, context)?.into())
}

/// [`aborted`](https://dom.spec.whatwg.org/#dom-abortsignal-aborted)
fn get_aborted(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    Ok(this_reason(this)?.is_some().into())
}

/// [`reason`](https://dom.spec.whatwg.org/#dom-abortsignal-reason)
fn get_reason(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    Ok(this_reason(this)?.unwrap_or_default())
}

/// [`onabort`](https://dom.spec.whatwg.org/#handler-abortsignal-onabort) (getter)
fn get_onabort(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let signal = this_signal(this)?;
    Ok(event_target::get_event_handler(&signal, "abort"))
}

/// [`onabort`](https://dom.spec.whatwg.org/#handler-abortsignal-onabort) (setter)
fn set_onabort(this: &JsValue, args: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let signal = this_signal(this)?;
    if args.is_empty() {
        return Err(webidl::type_error("onabort setter needs a value"));
    }
    event_target::set_event_handler(&signal, "abort", &arg(args, 0));
    Ok(JsValue::undefined())
}

/// [`throwIfAborted()`](https://dom.spec.whatwg.org/#dom-abortsignal-throwifaborted)
fn throw_if_aborted(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    // If this is aborted, then throw this's abort reason.
    match this_reason(this)? {
        Some(r) => Err(JsError::from_opaque(r)),
        None => Ok(JsValue::undefined()),
    }
}

/// The `AbortSignal` interface object (instances are [`EventTargetData`] with signal state).
#[derive(Debug, Trace, Finalize, JsData)]
pub struct AbortSignalInterface;

impl Class for AbortSignalInterface {
    const NAME: &'static str = "AbortSignal";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = webidl::INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(
            class,
            &[
                Member::static_operation("abort", 0, abort),
                Member::static_operation("timeout", 1, timeout),
                Member::static_operation("any", 1, any),
                Member::attribute("aborted", get_aborted),
                Member::attribute("reason", get_reason),
                Member::writable_attribute("onabort", get_onabort, set_onabort),
                Member::operation("throwIfAborted", 0, throw_if_aborted),
                Member::to_string_tag("AbortSignal"),
            ],
        )
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

/// `this`'s signal (brand check: `AbortController`).
fn controller_signal(this: &JsValue) -> JsResult<JsObject> {
    let c = webidl::brand::<AbortControllerData>(this, "AbortController")?;
    let signal = c.borrow().data().signal.clone();
    Ok(signal)
}

/// [`signal`](https://dom.spec.whatwg.org/#dom-abortcontroller-signal)
fn get_signal(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    Ok(controller_signal(this)?.into())
}

/// [`abort(reason)`](https://dom.spec.whatwg.org/#dom-abortcontroller-abort)
fn controller_abort(this: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let signal = controller_signal(this)?;
    // Signal abort on this's signal with reason if it is given.
    signal_abort(&signal, arg(args, 0), context)?;
    Ok(JsValue::undefined())
}

impl Class for AbortControllerData {
    const NAME: &'static str = "AbortController";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = webidl::INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(
            class,
            &[
                Member::attribute("signal", get_signal),
                Member::operation("abort", 0, controller_abort),
                Member::to_string_tag("AbortController"),
            ],
        )
    }

    /// `new AbortController()`: 1. Let signal be a new AbortSignal object. 2. Set this's
    /// signal to signal.
    fn data_constructor(_: &JsValue, _: &[JsValue], context: &mut Context) -> JsResult<Self> {
        Ok(Self {
            signal: create_abort_signal(context)?,
        })
    }
}

/// Register `AbortSignal` (inheriting from `EventTarget`) and `AbortController`.
pub fn register(context: &mut Context) -> JsResult<()> {
    webidl::register_interface::<AbortSignalInterface>(context)?;
    webidl::register_interface::<AbortControllerData>(context)?;
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
