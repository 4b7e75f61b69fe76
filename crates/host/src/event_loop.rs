//! The HTML-style event loop (a Boa `JobExecutor`) and the promise rejection tracker.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, VecDeque};
use std::future::Future;
use std::ops::ControlFlow;
use std::pin::Pin;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context as TaskContext, Poll, Wake, Waker};
use std::thread::Thread;
use std::time::{Duration, Instant};

use boa_engine::builtins::error::Error as ErrorData;
use boa_engine::builtins::promise::PromiseState;
use boa_engine::builtins::promise::{OperationType, Promise};
use boa_engine::builtins::proxy::Proxy;
use boa_engine::context::time::{JsDuration, JsInstant};
use boa_engine::context::HostHooks;
use boa_engine::job::{
    GenericJob, IntervalJob, Job, JobExecutor, NativeAsyncJob, PromiseJob, TimeoutJob,
};
use boa_engine::object::builtins::{JsPromise, JsWeakMap};
use boa_engine::object::JsObject;
use boa_engine::property::{PropertyDescriptor, PropertyKey};
use boa_engine::{js_string, Context, JsError, JsResult, JsString, JsSymbol, JsValue};
use boa_web::boa_dom::DomException;

use crate::clock::VirtualClock;
use crate::outcome::{HostError, LoopOutcome};
use crate::signals::Signal;
use crate::worker_group::{self, Wake as GroupWake};

/// When a bounded event-loop run stops with work pending: a wall-clock `deadline` and/or a
/// caller's `budget` check (e.g. CPU time spent). Both are checked at the same points: after
/// every [`DEADLINE_CHECK_INTERVAL`] microtasks, before each task. Waiting (for a timer or a
/// wake-up) is bounded by the deadline only: a loop that waits spends no budget.
pub(crate) struct Stop<'a> {
    pub(crate) deadline: Option<Instant>,
    pub(crate) budget: Option<&'a mut dyn FnMut() -> bool>,
}

impl Stop<'_> {
    /// Stop at `deadline` only.
    pub(crate) fn at(deadline: Option<Instant>) -> Self {
        Self {
            deadline,
            budget: None,
        }
    }

    fn is_bounded(&self) -> bool {
        self.deadline.is_some() || self.budget.is_some()
    }

    /// Whether the deadline passed or the budget is spent.
    fn passed(&mut self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.budget.as_mut().is_some_and(|spent| spent())
    }
}

/// Call the program's listeners for `signal` (a task of the event loop).
fn dispatch_signal(signal: Signal, context: &mut Context) {
    let Some(event_loop) = context.downcast_job_executor::<EventLoop>() else {
        return;
    };
    let dispatcher = event_loop
        .shared
        .process
        .borrow()
        .as_ref()
        .map(|(_, d)| d.clone());
    if let Some(dispatcher) = dispatcher {
        let name = JsString::from(signal.name());
        if let Err(error) = dispatcher.call(&JsValue::undefined(), &[name.into()], context) {
            event_loop.shared.report_exception(error, context);
        }
    }
}

/// The DOM's "report the exception" hook: record it on the host that owns `context`.
pub(crate) fn report_listener_exception(error: JsValue, context: &mut Context) {
    if let Some(event_loop) = context.downcast_job_executor::<EventLoop>() {
        event_loop
            .shared
            .report_exception(JsError::from_opaque(error), context);
    }
}

/// How many microtasks run between two deadline checks.
const DEADLINE_CHECK_INTERVAL: u32 = 1024;

/// State shared by the event loop, the host hooks and the `Host`.
#[derive(Default)]
pub(crate) struct Shared {
    pub(crate) print_errors: bool,
    /// Errors reported since the last `Host::take_errors`.
    pub(crate) errors: RefCell<Vec<HostError>>,
    /// HTML's "about-to-be-notified rejected promises list".
    about_to_be_notified: RefCell<Vec<JsObject<Promise>>>,
    /// The promises of the notification in progress not handled yet (a `Handle` operation
    /// removes one: HTML's `[[PromiseIsHandled]]` check before each event).
    being_notified: RefCell<Vec<JsObject<Promise>>>,
    /// HTML's "outstanding rejected promises weak set" (a `WeakMap` to `true`).
    outstanding: RefCell<Option<JsWeakMap>>,
    /// `(error, message, filename, lineno, colno) => notCanceled`: fires an `ErrorEvent`
    /// named `error` at the global (see `error_event.js`).
    error_dispatcher: RefCell<Option<JsObject>>,
    /// `(type, promise, reason) => notCanceled`: fires a `PromiseRejectionEvent` at the
    /// global (see `error_event.js`).
    rejection_dispatcher: RefCell<Option<JsObject>>,
    /// Set while the error event is being dispatched: an exception reported meanwhile (a
    /// throwing `error` listener) is recorded without firing another event.
    in_error_dispatch: Cell<bool>,
    /// In a worker: `(message) => undefined`, which hands an exception the worker's global
    /// did not handle to the `Worker` object in the creator (instead of recording it here).
    error_forwarder: RefCell<Option<JsObject>>,
    /// The code `process.exit(code)` asked for: the loop stops and drops its work, and
    /// nothing more is reported.
    pub(crate) exit: Cell<Option<i32>>,
    /// `process` and `(signalName) => undefined`, which calls its signal listeners.
    pub(crate) process: RefCell<Option<(JsObject, JsObject)>>,
}

impl Shared {
    pub(crate) fn new(print_errors: bool) -> Self {
        Self {
            print_errors,
            ..Self::default()
        }
    }

    fn record(&self, mut error: HostError) {
        if self.exit.get().is_some() {
            return;
        }
        let (HostError::Uncaught { message, stack }
        | HostError::UnhandledRejection { message, stack }) = &mut error;
        if let Some(hint) = crate::commonjs_hint::commonjs_hint(message, stack.as_deref()) {
            message.push_str(&hint);
        }
        if self.print_errors {
            eprintln!("{}", error);
        }
        self.errors.borrow_mut().push(error);
    }

    /// Set the functions that fire the global's `error` event and its
    /// `unhandledrejection`/`rejectionhandled` events, and the outstanding rejected promises
    /// weak set.
    pub(crate) fn set_dispatchers(
        &self,
        error: JsObject,
        rejection: JsObject,
        outstanding: JsWeakMap,
    ) {
        *self.error_dispatcher.borrow_mut() = Some(error);
        *self.rejection_dispatcher.borrow_mut() = Some(rejection);
        *self.outstanding.borrow_mut() = Some(outstanding);
    }

    /// Fire a `PromiseRejectionEvent` named `event_type` at the global: whether no listener
    /// canceled it (true without a dispatcher).
    fn fire_rejection(
        &self,
        event_type: &str,
        promise: &JsObject,
        reason: JsValue,
        context: &mut Context,
    ) -> bool {
        let dispatcher = self.rejection_dispatcher.borrow().clone();
        let Some(dispatcher) = dispatcher else {
            return true;
        };
        // The dispatcher catches in JS whatever it could throw.
        let not_canceled = dispatcher.call(
            &JsValue::undefined(),
            &[
                JsString::from(event_type).into(),
                promise.clone().into(),
                reason,
            ],
            context,
        );
        !matches!(not_canceled, Ok(v) if v == JsValue::from(false))
    }

    /// Set the worker's error forwarder (see `error_forwarder`).
    pub(crate) fn set_error_forwarder(&self, forwarder: JsObject) {
        *self.error_forwarder.borrow_mut() = Some(forwarder);
    }

    /// Record, once, the hard limit that stopped the script (crate::limits).
    pub(crate) fn report_stop(&self, context: &Context) {
        if let Some(message) = crate::limits::stop_report(context) {
            self.record(HostError::Uncaught {
                message,
                stack: None,
            });
        }
    }

    /// [Report an exception](https://html.spec.whatwg.org/multipage/webappapis.html#report-an-exception)
    /// that escaped a script or a job: fire an `ErrorEvent` (cancelable, `error` = the
    /// exception) at the global; unless a listener canceled it, record it (and print it).
    pub(crate) fn report_exception(&self, error: JsError, context: &mut Context) {
        if self.exit.get().is_some() {
            // `process.exit()` unwinds with an uncatchable error: not an error of the program.
            return;
        }
        let value = match error.into_opaque(context) {
            Ok(value) => value,
            // An engine error (runtime limit, ...) has no JS value: nothing to fire.
            Err(error) => {
                // A script stopped by a hard limit (crate::limits): one report naming it.
                if crate::limits::is_stop(&error) && crate::limits::exceeded(context).is_some() {
                    self.report_stop(context);
                    return;
                }
                self.record(HostError::Uncaught {
                    message: error.to_string(),
                    stack: None,
                });
                return;
            }
        };
        let (message, stack) = describe(&value, context);
        let dispatcher = self.error_dispatcher.borrow().clone();
        if let Some(dispatcher) = dispatcher.filter(|_| !self.in_error_dispatch.get()) {
            // The location: the innermost frame of an Error's stack ("" and 0 otherwise).
            let (filename, lineno, colno) = stack
                .as_deref()
                .and_then(error_location)
                .unwrap_or_default();
            self.in_error_dispatch.set(true);
            // The dispatcher catches in JS whatever it could throw.
            let not_canceled = dispatcher.call(
                &JsValue::undefined(),
                &[
                    value,
                    JsString::from(message.as_str()).into(),
                    JsString::from(filename.as_str()).into(),
                    lineno.into(),
                    colno.into(),
                ],
                context,
            );
            self.in_error_dispatch.set(false);
            // "If notHandled is false, then the error is handled."
            if matches!(not_canceled, Ok(v) if v == JsValue::from(false)) {
                return;
            }
        }
        // In a worker, "report the exception" continues at the Worker object.
        let forwarder = self.error_forwarder.borrow().clone();
        if let Some(forwarder) = forwarder {
            // The forwarder catches in JS whatever it could throw.
            let sent = forwarder.call(
                &JsValue::undefined(),
                &[JsString::from(message.as_str()).into()],
                context,
            );
            if sent.is_ok() {
                return;
            }
        }
        self.record(HostError::Uncaught { message, stack });
    }

    /// [Notify about rejected promises](https://html.spec.whatwg.org/multipage/webappapis.html#notify-about-rejected-promises)
    /// at the end of a microtask checkpoint.
    // NOTE: HTML queues a global task (DOM manipulation task source) for the events; here
    // they fire at the end of the checkpoint itself, so `Host::run_microtasks` reports
    // rejections and the order against timers is the host's fixed one (HTML leaves the order
    // of different task sources to the user agent). Listeners run as in that task: their
    // microtasks run before the checkpoint ends.
    fn notify_about_rejected_promises(&self, context: &mut Context) {
        // 1-3. Let list be a clone of the about-to-be-notified rejected promises list; if it
        //      is empty, return; empty the list.
        let list = std::mem::take(&mut *self.about_to_be_notified.borrow_mut());
        if list.is_empty() {
            return;
        }
        *self.being_notified.borrow_mut() = list.clone();
        // 4. (The task:) for each promise p of list:
        for promise in list {
            // 1. If p.[[PromiseIsHandled]] is true, continue.
            let handled = !self.being_notified.borrow().contains(&promise);
            if handled {
                continue;
            }
            let object: JsObject = promise.clone().upcast();
            let Ok(js_promise) = JsPromise::from_object(object.clone()) else {
                continue;
            };
            let PromiseState::Rejected(reason) = js_promise.state() else {
                continue;
            };
            // 2. Let notCanceled be the result of firing an event named unhandledrejection
            //    at global, using PromiseRejectionEvent, with the cancelable attribute
            //    initialized to true, the promise attribute initialized to p, and the reason
            //    attribute initialized to p.[[PromiseResult]].
            let not_canceled =
                self.fire_rejection("unhandledrejection", &object, reason.clone(), context);
            // 3. If notCanceled is true, then the user agent may report
            //    p.[[PromiseResult]] to a developer console.
            if not_canceled {
                let (message, stack) = describe(&reason, context);
                self.record(HostError::UnhandledRejection { message, stack });
            }
            // 4. If p.[[PromiseIsHandled]] is false, then append p to global's outstanding
            //    rejected promises weak set.
            let still_unhandled = {
                let mut being = self.being_notified.borrow_mut();
                match being.iter().position(|p| *p == promise) {
                    Some(i) => {
                        being.remove(i);
                        true
                    }
                    None => false,
                }
            };
            let outstanding = self.outstanding.borrow().clone();
            if let (true, Some(outstanding)) = (still_unhandled, outstanding) {
                let _ = outstanding.set(&object, JsValue::from(true), context);
            }
        }
        self.being_notified.borrow_mut().clear();
    }

    fn has_pending_rejections(&self) -> bool {
        !self.about_to_be_notified.borrow().is_empty()
    }

    pub(crate) fn clear(&self) {
        let list = std::mem::take(&mut *self.about_to_be_notified.borrow_mut());
        drop(list);
        let list = std::mem::take(&mut *self.being_notified.borrow_mut());
        drop(list);
        drop(self.error_dispatcher.borrow_mut().take());
        drop(self.rejection_dispatcher.borrow_mut().take());
        drop(self.outstanding.borrow_mut().take());
        drop(self.error_forwarder.borrow_mut().take());
        drop(self.process.borrow_mut().take());
    }
}

/// The intrinsic `get Error.prototype.stack` (captured at host creation, before any script
/// can replace the accessor): a native function that reads the `[[ErrorData]]` slot only.
pub(crate) struct ErrorStackGetter(pub(crate) Option<JsObject>);

/// Wrap the intrinsic `Error.prototype.stack` getter so that positions on the first line of
/// a CommonJS file are the file's columns (`cjs::fix_stack_columns`: the module wrapper
/// comes first on that line), and capture the result into the context's data. The wrapper
/// is a native function named `get stack` too, and runs no user code.
pub(crate) fn capture_error_stack_getter(context: &mut Context) {
    let proto = context.intrinsics().constructors().error().prototype();
    let descriptor = own_property(&proto, &js_string!("stack").into());
    let intrinsic = descriptor
        .as_ref()
        .and_then(|d| d.get().and_then(JsValue::as_object));
    let Some(intrinsic) = intrinsic else {
        context.insert_data(ErrorStackGetter(None));
        return;
    };
    let getter = boa_engine::object::FunctionObjectBuilder::new(
        context.realm(),
        boa_engine::NativeFunction::from_copy_closure_with_captures(
            |this, args, intrinsic: &JsObject, context| {
                let stack = intrinsic.call(this, args, context)?;
                let fixed = stack.as_string().and_then(|s| {
                    crate::cjs_wrapper::fix_stack_columns(&s.to_std_string_escaped(), context)
                });
                Ok(fixed.map_or(stack, |s| JsString::from(s.as_str()).into()))
            },
            intrinsic.clone(),
        ),
    )
    .name(js_string!("get stack"))
    .length(0)
    .build();
    let setter = descriptor.as_ref().and_then(|d| d.set().cloned());
    let mut replaced = PropertyDescriptor::builder()
        .get(getter.clone())
        .enumerable(false)
        .configurable(true);
    if let Some(setter) = setter {
        replaced = replaced.set(setter);
    }
    let installed = proto
        .define_property_or_throw(js_string!("stack"), replaced, context)
        .is_ok();
    let getter: JsObject = if installed { getter.into() } else { intrinsic };
    context.insert_data(ErrorStackGetter(Some(getter)));
}

/// A message (and, for an Error object, a stack) describing an exception or rejection reason,
/// without running any user code: no `toString`, `Symbol.toPrimitive`, getter or Proxy trap.
///
/// * A primitive is formatted directly (`String(value)`; a symbol as `Symbol(description)`).
/// * An error-like object ([`is_error_like`]) reads as `Error.prototype.toString` would, but
///   takes `name` and `message` from data properties only (its own, else the nearest on its
///   prototype chain, such as `TypeError.prototype.name`); a `DOMException` from its slots.
///   Its stack is its own data property `stack`, else the `[[ErrorData]]` backtrace.
/// * Any other object reads `[object Tag]` (`Function`, `Array`, `Error` or `Object`; a string
///   `Symbol.toStringTag` found as a data property on its chain overrides it).
pub(crate) fn describe(value: &JsValue, context: &mut Context) -> (String, Option<String>) {
    let Some(object) = value.as_object() else {
        let message = if let Some(s) = value.as_string() {
            s.to_std_string_escaped()
        } else if value.is_symbol() {
            value.display().to_string()
        } else {
            // Number, BigInt, boolean, null, undefined: ToString runs no user code.
            value.to_string(context).map_or_else(
                |_| value.display().to_string(),
                |s| s.to_std_string_escaped(),
            )
        };
        return (message, None);
    };
    if !is_error_like(&object, context) {
        return (object_tag(&object), None);
    }
    let message = if let Some(e) = object.downcast_ref::<DomException>() {
        error_to_string(
            &e.name().to_std_string_escaped(),
            &e.message().to_std_string_escaped(),
        )
    } else {
        let name = data_string_on_chain(&object, "name").unwrap_or_else(|| "Error".into());
        let message = data_string_on_chain(&object, "message").unwrap_or_default();
        error_to_string(&name, &message)
    };
    let own_stack = own_property(&object, &js_string!("stack").into()).and_then(|d| {
        if d.is_data_descriptor() {
            d.value().and_then(JsValue::as_string)
        } else {
            None
        }
    });
    let stack = own_stack
        .or_else(|| {
            if !object.is::<ErrorData>() {
                return None;
            }
            let getter = context.get_data::<ErrorStackGetter>()?.0.clone()?;
            getter
                .call(&object.clone().into(), &[], context)
                .ok()?
                .as_string()
        })
        .map(|s| s.to_std_string_escaped().trim_end().to_owned());
    (message, stack)
}

/// The innermost frame's location in a Boa stack trace (`    at f (file:line:col)`, or
/// `    at file:line:col`): `(filename, lineno, colno)`.
pub(crate) fn error_location(stack: &str) -> Option<(String, u32, u32)> {
    let line = stack
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("at "))?;
    let place = match (line.rfind('('), line.strip_suffix(')')) {
        (Some(open), Some(body)) => body.get(open + 1..)?,
        _ => line.strip_prefix("at ")?,
    };
    let mut parts = place.rsplitn(3, ':');
    let colno = parts.next()?.parse().ok()?;
    let lineno = parts.next()?.parse().ok()?;
    let filename = parts.next()?.to_owned();
    Some((filename, lineno, colno))
}

/// `Error.prototype.toString`'s joining of a name and a message.
fn error_to_string(name: &str, message: &str) -> String {
    match (name.is_empty(), message.is_empty()) {
        (true, _) => message.to_owned(),
        (false, true) => name.to_owned(),
        (false, false) => format!("{name}: {message}"),
    }
}

/// `object`'s own property `key`, read from its property storage: no internal method (so no
/// Proxy trap) runs.
fn own_property(object: &JsObject, key: &PropertyKey) -> Option<PropertyDescriptor> {
    object.try_borrow().ok()?.properties().get(key)
}

/// Whether `object` is a Proxy (whose own property storage says nothing about it).
fn is_proxy(object: &JsObject) -> bool {
    object.is::<Proxy>()
}

/// The string value of the data property `key` on `object` or the nearest object of its
/// prototype chain that has one (accessors are skipped, never called; a Proxy ends the walk).
fn data_string_on_chain(object: &JsObject, key: &str) -> Option<String> {
    let key: PropertyKey = JsString::from(key).into();
    let mut current = Some(object.clone());
    // Bounded walk (prototype chains are acyclic, but stay defensive).
    for _ in 0..10_000 {
        let o = current?;
        if is_proxy(&o) {
            return None;
        }
        if let Some(d) = own_property(&o, &key) {
            if d.is_data_descriptor() {
                return d
                    .value()
                    .and_then(JsValue::as_string)
                    .map(|s| s.to_std_string_escaped());
            }
        }
        current = o.prototype();
    }
    None
}

/// `[object Tag]` for a non-error object, from internal slots and data properties only.
fn object_tag(object: &JsObject) -> String {
    let tag_key: PropertyKey = JsSymbol::to_string_tag().into();
    let mut current = Some(object.clone());
    for _ in 0..10_000 {
        let Some(o) = current else { break };
        if is_proxy(&o) {
            break;
        }
        if let Some(d) = own_property(&o, &tag_key) {
            if let Some(tag) = d.value().and_then(JsValue::as_string) {
                return format!("[object {}]", tag.to_std_string_escaped());
            }
            break;
        }
        current = o.prototype();
    }
    let builtin = if object.is_callable() {
        "Function"
    } else if !is_proxy(object) && object.is_array() {
        "Array"
    } else {
        "Object"
    };
    format!("[object {builtin}]")
}

/// An Error instance, or an object inheriting from `Error.prototype` (a `DOMException`, an
/// instance of a subclass). Reads prototype slots only: no user code runs.
fn is_error_like(object: &JsObject, context: &Context) -> bool {
    if object.is::<ErrorData>() {
        return true;
    }
    let error_prototype = context.intrinsics().constructors().error().prototype();
    let mut current = object.prototype();
    // Bounded walk (prototype chains are acyclic, but stay defensive).
    for _ in 0..10_000 {
        match current {
            Some(proto) if proto == error_prototype => return true,
            Some(proto) => current = proto.prototype(),
            None => return false,
        }
    }
    false
}

/// The host hooks: only the rejection tracker differs from Boa's defaults.
pub(crate) struct Hooks {
    pub(crate) shared: Rc<Shared>,
}

impl HostHooks for Hooks {
    /// [HostPromiseRejectionTracker](https://html.spec.whatwg.org/multipage/webappapis.html#the-hostpromiserejectiontracker-implementation).
    fn promise_rejection_tracker(
        &self,
        promise: &JsObject<Promise>,
        operation: OperationType,
        context: &mut Context,
    ) {
        let shared = &self.shared;
        match operation {
            // 7. If operation is "reject": append promise to the about-to-be-notified
            //    rejected promises list.
            OperationType::Reject => {
                if crate::loader::is_facade_failure(promise, context) {
                    return;
                }
                shared
                    .about_to_be_notified
                    .borrow_mut()
                    .push(promise.clone());
            }
            // 8. If operation is "handle":
            OperationType::Handle => {
                // 1. If the about-to-be-notified rejected promises list contains promise,
                //    then remove promise from that list and return.
                {
                    let mut list = shared.about_to_be_notified.borrow_mut();
                    if let Some(i) = list.iter().rposition(|p| p == promise) {
                        list.remove(i);
                        return;
                    }
                }
                // (A promise of the notification in progress is now handled.)
                {
                    let mut being = shared.being_notified.borrow_mut();
                    if let Some(i) = being.iter().position(|p| p == promise) {
                        being.remove(i);
                        return;
                    }
                }
                // 2. If the outstanding rejected promises weak set does not contain
                //    promise, then return.
                let Some(outstanding) = shared.outstanding.borrow().clone() else {
                    return;
                };
                let object: JsObject = promise.clone().upcast();
                if !outstanding.has(&object, context).unwrap_or(false) {
                    return;
                }
                // 3. Remove promise from the outstanding rejected promises weak set.
                let _ = outstanding.delete(&object, context);
                // 4. Queue a global task on the DOM manipulation task source to fire an
                //    event named rejectionhandled at global, using PromiseRejectionEvent,
                //    with the promise attribute initialized to promise, and the reason
                //    attribute initialized to promise.[[PromiseResult]].
                let reason = match JsPromise::from_object(object.clone()).map(|p| p.state()) {
                    Ok(PromiseState::Rejected(reason)) => reason,
                    _ => JsValue::undefined(),
                };
                let job = GenericJob::new(
                    move |context| {
                        if let Some(event_loop) = context.downcast_job_executor::<EventLoop>() {
                            let shared = event_loop.shared.clone();
                            shared.fire_rejection("rejectionhandled", &object, reason, context);
                        }
                        Ok(JsValue::undefined())
                    },
                    context.realm().clone(),
                );
                context.enqueue_job(job.into());
            }
        }
    }
}

/// A task of the event loop (timers and generic jobs).
enum Task {
    Timeout(TimeoutJob),
    Interval(IntervalJob),
    Generic(GenericJob),
}

impl Task {
    fn cancelled(&self) -> bool {
        match self {
            Task::Timeout(t) => t.cancelled(),
            Task::Interval(i) => i.cancelled(),
            Task::Generic(_) => false,
        }
    }
}

type RunningFuture<'a> = Box<dyn Future<Output = JsResult<JsValue>> + Unpin + 'a>;

/// How a turn of the loop ends: start the next one, or return.
enum TurnEnd {
    /// Begin the next turn (from the checks at its top).
    Again,
    /// The loop returns this.
    Done(LoopOutcome),
}

/// What the turns of one `run_loop_inner` call share: the loop's waker and the async jobs
/// started and not finished (`true`: a `FinalizationRegistry` cleanup).
struct Turn<'a> {
    waker: Arc<LoopWaker>,
    task_waker: Waker,
    running: Vec<(RunningFuture<'a>, bool)>,
}

/// The waker given to async jobs: it flags the loop and unparks its thread.
struct LoopWaker {
    woken: AtomicBool,
    thread: Thread,
}

impl Wake for LoopWaker {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }
    fn wake_by_ref(self: &Arc<Self>) {
        self.woken.store(true, Ordering::SeqCst);
        self.thread.unpark();
    }
}

/// The host's `JobExecutor`: an HTML-style event loop.
///
/// * `PromiseJob`s form the microtask queue (FIFO), drained completely at every checkpoint;
/// * `process.nextTick` callbacks form the next-tick queue (FIFO), as Node's: a checkpoint
///   drains it completely, then the microtask queue, and again while ticks were queued;
/// * `TimeoutJob`/`IntervalJob`/`GenericJob` are tasks keyed by (due time, insertion number);
///   a `GenericJob` is due at once;
/// * `NativeAsyncJob`s (and `FinalizationRegistry` cleanups) are futures polled by
///   `run_event_loop` when woken.
pub(crate) struct EventLoop {
    pub(crate) shared: Rc<Shared>,
    microtasks: RefCell<VecDeque<PromiseJob>>,
    /// The next-tick queue: `process.nextTick(callback, ...args)`.
    ticks: RefCell<VecDeque<(JsObject, Vec<JsValue>)>>,
    tasks: RefCell<BTreeMap<(JsInstant, u64), Task>>,
    next_seq: Cell<u64>,
    /// Async jobs not started yet.
    async_jobs: RefCell<Vec<NativeAsyncJob>>,
    /// FinalizationRegistry cleanup jobs not started yet.
    cleanup_jobs: RefCell<Vec<NativeAsyncJob>>,
    virtual_clock: Option<Rc<VirtualClock>>,
    /// Set while `run_loop` or `run_microtasks` runs (so a re-entrant call does nothing).
    running: Cell<bool>,
    /// The worker group this loop belongs to (messages from other threads), if any.
    pub(crate) group: RefCell<Option<Arc<worker_group::Group>>>,
    /// Process signals delivered from other threads (`SignalHandle`).
    pub(crate) signals: Arc<crate::signals::SignalState>,
}

impl EventLoop {
    pub(crate) fn new(shared: Rc<Shared>, virtual_clock: Option<Rc<VirtualClock>>) -> Self {
        Self {
            shared,
            microtasks: RefCell::default(),
            ticks: RefCell::default(),
            tasks: RefCell::default(),
            next_seq: Cell::new(0),
            async_jobs: RefCell::default(),
            cleanup_jobs: RefCell::default(),
            virtual_clock,
            running: Cell::new(false),
            group: RefCell::new(None),
            signals: Arc::default(),
        }
    }

    /// A script or module is about to be evaluated: with the virtual clock, time moves on by
    /// one [`crate::clock::SCRIPT_TICK`] (a real clock moves by itself).
    pub(crate) fn script_tick(&self) {
        if let Some(clock) = &self.virtual_clock {
            clock.tick();
        }
    }

    fn insert_task(&self, due: JsInstant, task: Task) {
        let seq = self.next_seq.get();
        self.next_seq.set(seq.wrapping_add(1));
        self.tasks.borrow_mut().insert((due, seq), task);
    }

    /// Drop every queued job (used when the host is dropped).
    pub(crate) fn clear(&self) {
        let microtasks = std::mem::take(&mut *self.microtasks.borrow_mut());
        let ticks = std::mem::take(&mut *self.ticks.borrow_mut());
        let tasks = std::mem::take(&mut *self.tasks.borrow_mut());
        let async_jobs = std::mem::take(&mut *self.async_jobs.borrow_mut());
        let cleanup_jobs = std::mem::take(&mut *self.cleanup_jobs.borrow_mut());
        drop((microtasks, ticks, tasks, async_jobs, cleanup_jobs));
    }

    /// `process.nextTick`: queue `callback` (called with `args`) on the next-tick queue.
    pub(crate) fn queue_tick(&self, callback: JsObject, args: Vec<JsValue>) {
        self.ticks.borrow_mut().push_back((callback, args));
    }

    /// `Host::run_microtasks`: a checkpoint, unless one (or the loop) is already running
    /// (HTML: "if the event loop's performing a microtask checkpoint is true, return").
    pub(crate) fn run_microtasks(&self, context: &mut Context) {
        if self.running.replace(true) {
            return;
        }
        self.checkpoint(context, &mut Stop::at(None));
        self.running.set(false);
    }

    /// Perform a microtask checkpoint: run the next-tick queue and the microtasks until both
    /// are empty, report the promises that stayed rejected without a handler, clear the
    /// kept-alive WeakRef targets. As Node's `processTicksAndRejections`: every queued tick
    /// runs (ticks queued by ticks included), then every microtask (ticks queued by
    /// microtasks wait for the end of that drain), and so on. Returns `false` if `stop`
    /// passed first (what remains stays queued).
    fn checkpoint(&self, context: &mut Context, stop: &mut Stop<'_>) -> bool {
        let mut since_check = 0u32;
        // Whether the microtask queue is being drained (ticks wait until it is empty).
        let mut draining = false;
        loop {
            let tick = if draining {
                None
            } else {
                self.ticks.borrow_mut().pop_front()
            };
            let result = match tick {
                Some((callback, args)) => Some(
                    callback
                        .call(&JsValue::undefined(), &args, context)
                        .map(drop),
                ),
                None => {
                    let next = self.microtasks.borrow_mut().pop_front();
                    draining = next.is_some();
                    next.map(|job| job.call(context).map(drop))
                }
            };
            match result {
                Some(result) => {
                    if let Err(error) = result {
                        self.shared.report_exception(error, context);
                    }
                    if self.shared.exit.get().is_some() {
                        return true;
                    }
                    if context.interrupt_handle().is_interrupted() {
                        return false;
                    }
                    if stop.is_bounded() {
                        since_check += 1;
                        if since_check >= DEADLINE_CHECK_INTERVAL {
                            since_check = 0;
                            if stop.passed() {
                                return false;
                            }
                        }
                    }
                }
                None => {
                    if !self.ticks.borrow().is_empty() {
                        continue;
                    }
                    if !self.shared.has_pending_rejections() {
                        break;
                    }
                    // The events' listeners can queue microtasks and reject more promises:
                    // the loop goes on until both lists are empty.
                    self.shared.notify_about_rejected_promises(context);
                    if stop.passed() {
                        return false;
                    }
                }
            }
        }
        context.clear_kept_objects();
        true
    }

    /// Remove cancelled timers from the front and return the next due time.
    fn next_due(&self) -> Option<JsInstant> {
        let mut tasks = self.tasks.borrow_mut();
        loop {
            let entry = tasks.first_entry()?;
            if entry.get().cancelled() {
                drop(entry.remove());
                continue;
            }
            return Some(entry.key().0);
        }
    }

    /// Take the first task if it is due at `now`.
    fn pop_due(&self, now: JsInstant) -> Option<Task> {
        let mut tasks = self.tasks.borrow_mut();
        loop {
            let entry = tasks.first_entry()?;
            if entry.get().cancelled() {
                drop(entry.remove());
                continue;
            }
            if entry.key().0 > now {
                return None;
            }
            return Some(entry.remove());
        }
    }

    fn run_task(&self, task: Task, context: &mut Context) {
        let result = match task {
            Task::Timeout(job) => job.call(context),
            Task::Generic(job) => job.call(context),
            Task::Interval(job) => {
                let result = job.call(context);
                // HTML re-runs the timer initialization steps after the callback; a
                // cancelled interval (clearInterval in its own callback) is dropped.
                if !job.cancelled() {
                    let due = due_after(context.clock().now(), job.interval());
                    self.insert_task(due, Task::Interval(job));
                }
                result
            }
        };
        if let Err(error) = result {
            self.shared.report_exception(error, context);
        }
    }

    /// Is any work (apart from FinalizationRegistry cleanups) pending?
    pub(crate) fn has_pending_work(&self) -> bool {
        self.has_microtasks() || !self.async_jobs.borrow().is_empty() || self.next_due().is_some()
    }

    /// Run the event loop until idle or until `stop` passes.
    pub(crate) fn run_loop(&self, context: &mut Context, mut stop: Stop<'_>) -> LoopOutcome {
        if self.running.replace(true) {
            // Re-entrant call (a native function calling `Context::run_jobs`): the outer loop
            // will get to the queued work.
            return LoopOutcome::Idle;
        }
        let outcome = self.run_loop_inner(&RefCell::new(context), &mut stop, None);
        self.running.set(false);
        outcome
    }

    /// Run the event loop until `future` is ready (`None` if `deadline` passed first, or on
    /// a re-entrant call). A pending `future` keeps the loop alive.
    pub(crate) fn run_until<F: Future>(
        &self,
        context: &mut Context,
        mut future: Pin<&mut F>,
        deadline: Option<Instant>,
    ) -> Option<F::Output> {
        if self.running.replace(true) {
            return None;
        }
        let mut output = None;
        let mut poll = |cx: &mut TaskContext<'_>| {
            if let Poll::Ready(v) = future.as_mut().poll(cx) {
                output = Some(v);
            }
            output.is_some()
        };
        let mut stop = Stop::at(deadline);
        let _ = self.run_loop_inner(&RefCell::new(context), &mut stop, Some(&mut poll));
        self.running.set(false);
        output
    }

    fn run_loop_inner(
        &self,
        context: &RefCell<&mut Context>,
        stop: &mut Stop<'_>,
        mut until: Option<&mut dyn FnMut(&mut TaskContext<'_>) -> bool>,
    ) -> LoopOutcome {
        let waker = Arc::new(LoopWaker {
            woken: AtomicBool::new(true),
            thread: std::thread::current(),
        });
        self.signals.set_thread(std::thread::current());
        let mut turn = Turn {
            task_waker: Waker::from(waker.clone()),
            waker,
            running: Vec::new(),
        };
        loop {
            if let ControlFlow::Break(TurnEnd::Done(outcome)) =
                self.turn(context, stop, &mut until, &mut turn)
            {
                return outcome;
            }
        }
    }

    /// One turn of the loop: the checks that end the run, a microtask checkpoint, then the
    /// first source of work that has some (async jobs, native futures, `until`, a message,
    /// one due task), or else the wait for the next.
    fn turn<'a>(
        &self,
        context: &'a RefCell<&mut Context>,
        stop: &mut Stop<'_>,
        until: &mut Option<&mut dyn FnMut(&mut TaskContext<'_>) -> bool>,
        turn: &mut Turn<'a>,
    ) -> ControlFlow<TurnEnd> {
        self.interruptions(context)?;
        // 1. Microtask checkpoint.
        if !self.checkpoint(&mut context.borrow_mut(), stop) {
            if context.borrow().interrupt_handle().is_interrupted() {
                return self.stopped_by_limit(context);
            }
            return ControlFlow::Break(TurnEnd::Done(LoopOutcome::DeadlineReached));
        }
        // 2. Start new async jobs and poll the woken ones (a task).
        self.poll_async_jobs(context, turn)?;
        // 2a. The native futures of boa_streams' async adapters that were woken (from
        //     any thread: their waker wakes this loop's waker), and the steps Rust
        //     consumers queued (a task).
        let native =
            boa_web::boa_streams::native::poll_tasks(&mut context.borrow_mut(), &turn.task_waker);
        if native.ran > 0 {
            return ControlFlow::Break(TurnEnd::Again);
        }
        // The future `run_until` waits for, polled when the loop is woken (its waker is
        // the loop's): done once it is ready.
        if let Some(poll) = until.as_mut() {
            if poll(&mut TaskContext::from_waker(&turn.task_waker)) {
                return ControlFlow::Break(TurnEnd::Done(LoopOutcome::Idle));
            }
        }
        // 2b. A message from another thread for one of this context's ports (a task).
        let external = self.group.borrow().as_ref().and_then(|g| g.take());
        if let Some(port) = external {
            boa_web::boa_html::message::deliver_message(port, &mut context.borrow_mut());
            return ControlFlow::Break(TurnEnd::Again);
        }
        let live_futures = turn.running.iter().any(|(_, cleanup)| !cleanup);
        if stop.passed() {
            let pending = self.has_pending_work() || native.pending > 0 || live_futures;
            return ControlFlow::Break(TurnEnd::Done(if pending {
                LoopOutcome::DeadlineReached
            } else {
                LoopOutcome::Idle
            }));
        }
        // 3. Run one due task.
        let now = context.borrow().clock().now();
        if let Some(task) = self.pop_due(now) {
            self.run_task(task, &mut context.borrow_mut());
            return ControlFlow::Break(TurnEnd::Again);
        }
        // 4. Nothing to do now: idle, or wait for the next timer / a wake-up.
        // A pending native future keeps the loop alive (it waits for the future's waker).
        let live_async = live_futures || native.pending > 0 || until.is_some();
        self.wait_for_work(now, stop.deadline, live_async, &turn.waker)
    }

    /// The checks at the top of a turn: a terminated worker, `process.exit()`, a delivered
    /// signal, a hard limit's stop.
    fn interruptions(&self, context: &RefCell<&mut Context>) -> ControlFlow<TurnEnd> {
        // A terminated worker runs nothing more (HTML "terminate a worker": its queued
        // tasks are discarded).
        if self
            .group
            .borrow()
            .as_ref()
            .is_some_and(|g| g.is_terminated())
        {
            return ControlFlow::Break(TurnEnd::Done(LoopOutcome::Idle));
        }
        // `process.exit()`: the run ends, pending work is dropped.
        if self.shared.exit.get().is_some() {
            self.clear();
            return ControlFlow::Break(TurnEnd::Done(LoopOutcome::Idle));
        }
        // A process signal with listeners (a task).
        if let Some(signal) = self.signals.take_pending() {
            dispatch_signal(signal, &mut context.borrow_mut());
            return ControlFlow::Break(TurnEnd::Again);
        }
        // A script stopped by a hard limit (crate::limits) runs nothing more: its
        // queued jobs and timers are discarded.
        if context.borrow().interrupt_handle().is_interrupted() {
            return self.stopped_by_limit(context);
        }
        ControlFlow::Continue(())
    }

    /// A hard limit stopped the script: report it once, drop the queued work, return.
    fn stopped_by_limit(&self, context: &RefCell<&mut Context>) -> ControlFlow<TurnEnd> {
        self.shared.report_stop(&context.borrow());
        self.clear();
        ControlFlow::Break(TurnEnd::Done(LoopOutcome::Idle))
    }

    /// Start the async jobs queued since the last turn and, if any started or the loop's
    /// waker fired, poll the running ones; a new turn when one completed or queued a
    /// microtask.
    fn poll_async_jobs<'a>(
        &self,
        context: &'a RefCell<&mut Context>,
        turn: &mut Turn<'a>,
    ) -> ControlFlow<TurnEnd> {
        let new_async = std::mem::take(&mut *self.async_jobs.borrow_mut());
        let new_cleanup = std::mem::take(&mut *self.cleanup_jobs.borrow_mut());
        let started = !new_async.is_empty() || !new_cleanup.is_empty();
        for job in new_async {
            turn.running.push((Box::new(job.call(context)), false));
        }
        for job in new_cleanup {
            turn.running.push((Box::new(job.call(context)), true));
        }
        if !(started || turn.waker.woken.swap(false, Ordering::SeqCst)) {
            return ControlFlow::Continue(());
        }
        let mut cx = TaskContext::from_waker(&turn.task_waker);
        let mut completed = false;
        let mut i = 0;
        while i < turn.running.len() {
            let poll = match turn.running.get_mut(i) {
                Some((future, _)) => Pin::new(future).poll(&mut cx),
                None => break,
            };
            match poll {
                Poll::Pending => i += 1,
                Poll::Ready(result) => {
                    completed = true;
                    drop(turn.running.swap_remove(i));
                    if let Err(error) = result {
                        self.shared
                            .report_exception(error, &mut context.borrow_mut());
                    }
                }
            }
        }
        if completed || self.has_microtasks() {
            return ControlFlow::Break(TurnEnd::Again);
        }
        ControlFlow::Continue(())
    }

    /// Nothing to run now (`now` on the context's clock): end the run when nothing can come
    /// (a worker group member first waits for the group), else wait for the next timer or a
    /// wake-up (or jump the virtual clock to the timer), up to `deadline`.
    fn wait_for_work(
        &self,
        now: JsInstant,
        deadline: Option<Instant>,
        live_async: bool,
        waker: &LoopWaker,
    ) -> ControlFlow<TurnEnd> {
        let next_due = self.next_due();
        if next_due.is_none() && !live_async && !self.has_microtasks() {
            if self.async_jobs.borrow().is_empty() && self.cleanup_jobs.borrow().is_empty() {
                // A member of a worker group waits for messages from the other threads
                // until the whole group is idle.
                let group = self.group.borrow().clone();
                let outcome = match group.map(|group| group.wait_idle(deadline)) {
                    Some(GroupWake::Message) => return ControlFlow::Break(TurnEnd::Again),
                    None | Some(GroupWake::Quiescent | GroupWake::Terminated) => LoopOutcome::Idle,
                    Some(GroupWake::Deadline) => LoopOutcome::DeadlineReached,
                };
                return ControlFlow::Break(TurnEnd::Done(outcome));
            }
            return ControlFlow::Break(TurnEnd::Again);
        }
        if waker.woken.load(Ordering::SeqCst) {
            return ControlFlow::Break(TurnEnd::Again);
        }
        if let (Some(clock), Some(due)) = (&self.virtual_clock, next_due) {
            // Virtual time: jump to the next timer instead of sleeping.
            clock.advance_to(due);
            return ControlFlow::Break(TurnEnd::Again);
        }
        let mut wait: Option<Duration> = next_due.map(|due| (due - now).into());
        if let Some(deadline) = deadline {
            let left = deadline.saturating_duration_since(Instant::now());
            wait = Some(wait.map_or(left, |w| w.min(left)));
        }
        match wait {
            Some(wait) => std::thread::park_timeout(wait),
            None => std::thread::park(),
        }
        ControlFlow::Break(TurnEnd::Again)
    }

    fn has_microtasks(&self) -> bool {
        !self.microtasks.borrow().is_empty() || !self.ticks.borrow().is_empty()
    }

    /// Run, now, the async jobs queued since `mark` (and those they queue): `require()` of an
    /// ES module loads its graph synchronously. The host's module loader answers at once, so
    /// each loading job finishes on its first poll; one that does not is dropped (its graph
    /// then stays unloaded, which the caller reports).
    pub(crate) fn run_loading_jobs_since(&self, mark: usize, context: &mut Context) {
        let waker = Waker::noop();
        let mut cx = TaskContext::from_waker(waker);
        // Bounded: each round takes every job queued since `mark`; a graph of n modules
        // queues at most one job per import.
        for _ in 0..100_000 {
            let jobs = {
                let mut queue = self.async_jobs.borrow_mut();
                if queue.len() <= mark {
                    return;
                }
                queue.split_off(mark)
            };
            for job in jobs {
                let cell = RefCell::new(&mut *context);
                let mut future = Box::pin(job.call(&cell));
                if let Poll::Ready(Err(error)) = future.as_mut().poll(&mut cx) {
                    drop(future);
                    self.shared.report_exception(error, context);
                }
            }
        }
    }

    /// How many async jobs are queued (the `mark` of `run_loading_jobs_since`).
    pub(crate) fn queued_async_jobs(&self) -> usize {
        self.async_jobs.borrow().len()
    }
}

/// `now + delay`, saturating: `JsInstant + JsDuration` panics on overflow, and script picks
/// the delays (`AbortSignal.timeout(2 ** 53 - 1)` is about 2.9e5 years). With the virtual
/// clock, time jumps to each due timer, so a chain of such timers reaches the end of
/// `Duration` after about two million steps. A saturated timer is due at the end of time.
fn due_after(now: JsInstant, delay: JsDuration) -> JsInstant {
    let nanos = now.nanos_since_epoch();
    let now = Duration::new(
        u64::try_from(nanos / 1_000_000_000).unwrap_or(u64::MAX),
        // The remainder is below 1e9 and fits a u32.
        u32::try_from(nanos % 1_000_000_000).unwrap_or(0),
    );
    let due = now
        .checked_add(Duration::from(delay))
        .unwrap_or(Duration::MAX);
    JsInstant::new(due.as_secs(), due.subsec_nanos())
}

impl JobExecutor for EventLoop {
    fn enqueue_job(self: Rc<Self>, job: Job, context: &mut Context) {
        match job {
            Job::PromiseJob(job) => self.microtasks.borrow_mut().push_back(job),
            Job::TimeoutJob(job) => {
                let due = due_after(context.clock().now(), job.timeout());
                self.insert_task(due, Task::Timeout(job));
            }
            Job::IntervalJob(job) => {
                let due = due_after(context.clock().now(), job.interval());
                self.insert_task(due, Task::Interval(job));
            }
            Job::GenericJob(job) => {
                let due = context.clock().now();
                self.insert_task(due, Task::Generic(job));
            }
            Job::AsyncJob(job) => self.async_jobs.borrow_mut().push(job),
            Job::FinalizationRegistryCleanupJob(job) => self.cleanup_jobs.borrow_mut().push(job),
            // `Job` is non-exhaustive: a kind added by a later Boa cannot be run by this loop;
            // say so rather than drop it silently.
            _ => self.shared.record(HostError::Uncaught {
                message: "boa_streams_host: a job of an unsupported kind was dropped".into(),
                stack: None,
            }),
        }
    }

    fn run_jobs(self: Rc<Self>, context: &mut Context) -> JsResult<()> {
        self.run_loop(context, Stop::at(None));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn due_after_saturates_instead_of_overflowing() {
        let late = JsInstant::new(u64::MAX - 5, 999_999_999);
        let due = due_after(late, JsDuration::from_millis(u64::MAX));
        assert_eq!(due.nanos_since_epoch(), Duration::MAX.as_nanos());
        let due = due_after(
            JsInstant::new(10, 500_000_000),
            JsDuration::from_millis(1_500),
        );
        assert_eq!(due.nanos_since_epoch(), 12_000_000_000);
    }

    #[test]
    fn error_location_reads_the_innermost_frame() {
        assert_eq!(
            error_location("    at f (/tmp/a b.js:1:21)\n    at <main> (/tmp/a b.js:2:8)\n"),
            Some(("/tmp/a b.js".to_owned(), 1, 21))
        );
        assert_eq!(
            error_location("    at main.js:3:4"),
            Some(("main.js".to_owned(), 3, 4))
        );
        assert_eq!(error_location("    at <native>"), None);
        assert_eq!(error_location("no frames"), None);
    }
}
