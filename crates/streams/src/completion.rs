//! Promises the stream algorithms pass around without allocating JS promises where script
//! cannot see them, shared by readable, writable, transform and pipe.
//!
//! A [`Completion`] is what an algorithm returns where the spec returns "a promise" (source
//! pull/cancel, sink write/close/abort, transform algorithms,
//! [`readable_stream_cancel`](crate::readable::readable_stream_cancel)): either a settled value
//! (the sync fast path), a Rust-side promise ([`RustPromise`]) or a real JS promise (a value
//! user code returned, or a promise script can see). [`invoke_promise_callback`] is the one
//! way a user callback returning `Promise<undefined>` is invoked.
//!
//! Reactions run in microtasks at exactly the position a JS promise reaction would take:
//! reacting to a settled completion enqueues a native microtask immediately; settling a pending
//! [`RustPromise`] enqueues one microtask per registered reaction, in registration order.

use boa_engine::{object::builtins::JsPromise, Context, JsObject, JsValue, NativeFunction};
use boa_gc::{Finalize, Gc, GcRefCell, Trace};

use crate::webidl::{
    self, arg, enqueue_microtask, promise_rejected_with, promise_resolved_with, StepFn,
};

/// The settlement of a promise: `Ok(value)` = fulfilled, `Err(reason)` = rejected.
pub type Settlement = Result<JsValue, JsValue>;

/// A reaction's steps: get the traced captures and the settlement.
pub type ReactionFn<C> = fn(&C, Settlement, &mut Context);

/// A boxed reaction (traced captures + a function pointer).
pub trait Reaction: Trace {
    /// Run the reaction's steps.
    fn run(self: Box<Self>, settlement: Settlement, ctx: &mut Context);
}

#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
struct FnReaction<C: Trace + 'static> {
    captures: C,
    #[unsafe_ignore_trace]
    step: ReactionFn<C>,
}

impl<C: Trace + 'static> Reaction for FnReaction<C> {
    fn run(self: Box<Self>, settlement: Settlement, ctx: &mut Context) {
        (self.step)(&self.captures, settlement, ctx);
    }
}

#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
enum ReactionSlot {
    /// Runs in its own microtask after settlement.
    Queued(Box<dyn Reaction>),
    /// Settles a JS promise synchronously with this one (the JS promise *is* this promise, as
    /// script sees it).
    Mirror { resolve: JsObject, reject: JsObject },
}

#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
enum RustPromiseState {
    Pending(Vec<ReactionSlot>),
    Fulfilled(JsValue),
    Rejected(JsValue),
}

/// A promise that lives in Rust: never visible to script, never looks up `then`.
#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
pub struct RustPromise {
    state: GcRefCell<RustPromiseState>,
    /// The resolving functions' [[AlreadyResolved]].
    #[unsafe_ignore_trace]
    already_resolved: std::cell::Cell<bool>,
}

/// The resolving functions of a [`RustPromise`] made by a NewPromiseResolveThenableJob: the
/// promise and their shared [[AlreadyResolved]] record.
#[derive(Clone, Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
struct ResolvingPair {
    promise: Gc<RustPromise>,
    #[unsafe_ignore_trace]
    already_resolved: std::rc::Rc<std::cell::Cell<bool>>,
}

impl RustPromise {
    /// "A new promise".
    pub fn new() -> Gc<Self> {
        Gc::new(Self {
            state: GcRefCell::new(RustPromiseState::Pending(Vec::new())),
            already_resolved: std::cell::Cell::new(false),
        })
    }

    /// Whether it is still pending.
    pub fn is_pending(&self) -> bool {
        matches!(*self.state.borrow(), RustPromiseState::Pending(_))
    }

    /// Resolve (`Ok`) or reject (`Err`) with a non-thenable value (no-op if already resolved):
    /// queue one microtask per reaction.
    pub fn settle(&self, settlement: Settlement, ctx: &mut Context) {
        if self.already_resolved.replace(true) {
            return;
        }
        self.settle_now(settlement, ctx);
    }

    fn settle_now(&self, settlement: Settlement, ctx: &mut Context) {
        let reactions = {
            let mut state = self.state.borrow_mut();
            if !matches!(*state, RustPromiseState::Pending(_)) {
                return;
            }
            let new = match &settlement {
                Ok(v) => RustPromiseState::Fulfilled(v.clone()),
                Err(e) => RustPromiseState::Rejected(e.clone()),
            };
            match std::mem::replace(&mut *state, new) {
                RustPromiseState::Pending(r) => r,
                _ => Vec::new(),
            }
        };
        for slot in reactions {
            match slot {
                ReactionSlot::Queued(r) => {
                    let s = settlement.clone();
                    enqueue_microtask(ctx, move |ctx| r.run(s, ctx));
                }
                ReactionSlot::Mirror { resolve, reject } => {
                    // The mirrored promise settles now, as this one does.
                    match &settlement {
                        Ok(v) => webidl::resolve_promise(&resolve, &reject, v.clone(), ctx),
                        Err(e) => webidl::reject_promise(&reject, e.clone(), ctx),
                    }
                }
            }
        }
    }

    /// "Resolve p with undefined".
    pub fn resolve_undefined(&self, ctx: &mut Context) {
        self.settle(Ok(JsValue::undefined()), ctx);
    }

    /// "Resolve p with `completion`" where `completion` is a promise: adopt its state with the
    /// same number of ticks as resolving a JS promise with a native promise (a
    /// NewPromiseResolveThenableJob, then a reaction).
    pub fn resolve_with(this: &Gc<Self>, completion: Completion, ctx: &mut Context) {
        if this.already_resolved.replace(true) {
            return;
        }
        let this = this.clone();
        // The PromiseResolveThenableJob.
        enqueue_microtask(ctx, move |ctx| {
            completion.upon(this, |p, s, ctx| p.settle_now(s, ctx), ctx);
        });
    }

    /// The promise resolve function's steps (ECMA-262 "Promise Resolve Functions", steps 7-16)
    /// with `resolution`: a non-object fulfills; an object's `then` is read once (a throwing
    /// getter rejects); a callable `then` is called in a NewPromiseResolveThenableJob with new
    /// resolving functions for this promise; otherwise the object fulfills.
    pub fn resolve_value(this: &Gc<Self>, resolution: JsValue, ctx: &mut Context) {
        // 7. If alreadyResolved.[[Value]] is true, return undefined.
        // 8. Set alreadyResolved.[[Value]] to true.
        if this.already_resolved.replace(true) {
            return;
        }
        Self::resolve_steps(this, resolution, ctx);
    }

    /// Steps 9-16 of the resolve function (step 9, resolving a promise with itself, cannot
    /// happen: a Rust promise is never a JS value).
    fn resolve_steps(this: &Gc<Self>, resolution: JsValue, ctx: &mut Context) {
        let then = match resolution_then(resolution.clone(), ctx) {
            ResolutionThen::Settled(result) => {
                this.settle_now(result, ctx);
                return;
            }
            ResolutionThen::Callable(then) => then,
        };
        // 15-16. Let job be NewPromiseResolveThenableJob(promise, resolution, thenJobCallback);
        //        HostEnqueuePromiseJob(job).
        let this = this.clone();
        enqueue_microtask(ctx, move |ctx| {
            // NewPromiseResolveThenableJob: 1. Let resolvingFunctions be
            // CreateResolvingFunctions(promiseToResolve).
            let pair = ResolvingPair {
                promise: this,
                already_resolved: std::rc::Rc::new(std::cell::Cell::new(false)),
            };
            let resolve = NativeFunction::from_copy_closure_with_captures(
                |_, args, pair: &ResolvingPair, ctx| {
                    if !pair.already_resolved.replace(true) {
                        RustPromise::resolve_steps(&pair.promise, arg(args, 0), ctx);
                    }
                    Ok(JsValue::undefined())
                },
                pair.clone(),
            )
            .to_js_function(ctx.realm());
            let reject = NativeFunction::from_copy_closure_with_captures(
                |_, args, pair: &ResolvingPair, ctx| {
                    if !pair.already_resolved.replace(true) {
                        pair.promise.settle_now(Err(arg(args, 0)), ctx);
                    }
                    Ok(JsValue::undefined())
                },
                pair.clone(),
            )
            .to_js_function(ctx.realm());
            // 2. Let thenCallResult be Completion(HostCallJobCallback(then, thenable,
            //    « resolvingFunctions.[[Resolve]], resolvingFunctions.[[Reject]] »)).
            // 3. If thenCallResult is an abrupt completion, return ? Call(
            //    resolvingFunctions.[[Reject]], undefined, « thenCallResult.[[Value]] »).
            let args = [resolve.into(), reject.into()];
            if let Err(e) = webidl::call_catching(&then, &resolution, &args, ctx) {
                let e = e.into_value();
                if !pair.already_resolved.replace(true) {
                    pair.promise.settle_now(Err(e), ctx);
                }
            }
        });
    }

    fn add(&self, slot: ReactionSlot, ctx: &mut Context) {
        let settled = {
            let mut state = self.state.borrow_mut();
            match &mut *state {
                RustPromiseState::Pending(list) => {
                    list.push(slot);
                    return;
                }
                RustPromiseState::Fulfilled(v) => Ok(v.clone()),
                RustPromiseState::Rejected(e) => Err(e.clone()),
            }
        };
        match slot {
            ReactionSlot::Queued(r) => enqueue_microtask(ctx, move |ctx| r.run(settled, ctx)),
            ReactionSlot::Mirror { resolve, reject } => match settled {
                Ok(v) => webidl::resolve_promise(&resolve, &reject, v, ctx),
                Err(e) => webidl::reject_promise(&reject, e, ctx),
            },
        }
    }
}

/// A promise as the stream algorithms see it.
#[derive(Clone, Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
pub enum Completion {
    /// Already fulfilled (e.g. "a promise resolved with undefined", or a sync fast path).
    Fulfilled(JsValue),
    /// Already rejected.
    Rejected(JsValue),
    /// A Rust-side promise.
    Rust(Gc<RustPromise>),
    /// A JS promise.
    Js(JsObject),
}

impl std::fmt::Debug for Completion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Fulfilled(_) => "Completion::Fulfilled",
            Self::Rejected(_) => "Completion::Rejected",
            Self::Rust(_) => "Completion::Rust",
            Self::Js(_) => "Completion::Js",
        })
    }
}

impl Completion {
    /// "A promise resolved with undefined".
    pub fn undefined() -> Self {
        Self::Fulfilled(JsValue::undefined())
    }

    /// "React" to this promise: run `step` with the settlement, in a microtask, at the position
    /// a JS promise reaction would run.
    pub(crate) fn upon<C: Trace + 'static>(
        self,
        captures: C,
        step: ReactionFn<C>,
        ctx: &mut Context,
    ) {
        match self {
            Self::Fulfilled(v) => enqueue_microtask(ctx, move |ctx| step(&captures, Ok(v), ctx)),
            Self::Rejected(e) => enqueue_microtask(ctx, move |ctx| step(&captures, Err(e), ctx)),
            Self::Rust(p) => p.add(
                ReactionSlot::Queued(Box::new(FnReaction { captures, step })),
                ctx,
            ),
            Self::Js(p) => react_js(&p, captures, step, ctx),
        }
    }

    /// "Upon fulfillment" / "upon rejection": [`Completion::upon`] with one step per outcome.
    pub(crate) fn upon_either<C: Trace + 'static>(
        self,
        captures: C,
        on_fulfilled: fn(JsValue, &C, &mut Context),
        on_rejected: fn(JsValue, &C, &mut Context),
        ctx: &mut Context,
    ) {
        self.upon(
            (captures, StepFn(on_fulfilled), StepFn(on_rejected)),
            |(captures, on_fulfilled, on_rejected), settlement, ctx| match settlement {
                Ok(v) => (on_fulfilled.0)(v, captures, ctx),
                Err(e) => (on_rejected.0)(e, captures, ctx),
            },
            ctx,
        );
    }

    /// The promise as a JS promise (for a JS-visible result). A pending Rust promise gets a
    /// JS promise that settles synchronously with it, so script sees the same timing.
    pub(crate) fn into_js_promise(self, ctx: &mut Context) -> JsObject {
        match self {
            Self::Fulfilled(v) => promise_resolved_with(v, ctx),
            Self::Rejected(e) => promise_rejected_with(e, ctx),
            Self::Js(p) => p,
            Self::Rust(p) => {
                let (promise, funcs) = JsPromise::new_pending(ctx);
                p.add(
                    ReactionSlot::Mirror {
                        resolve: funcs.resolve.into(),
                        reject: funcs.reject.into(),
                    },
                    ctx,
                );
                promise.into()
            }
        }
    }

    /// "The result of reacting to this promise with a fulfillment step that returns
    /// undefined" (rejections propagate).
    pub(crate) fn then_undefined(self, ctx: &mut Context) -> Completion {
        react(
            self,
            (),
            |(), s, _| match s {
                Ok(_) => StepResult::Value(JsValue::undefined()),
                Err(e) => StepResult::Throw(e),
            },
            ctx,
        )
    }
}

/// What reaction steps produce: a value, an exception, or a promise to adopt.
pub enum StepResult {
    Value(JsValue),
    Throw(JsValue),
    Promise(Completion),
}

/// A step function pointer that is `Trace` (it holds no GC data).
struct StepPtr<C>(fn(&C, Settlement, &mut Context) -> StepResult);

impl<C> Clone for StepPtr<C> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<C> Copy for StepPtr<C> {}
impl<C> boa_gc::Finalize for StepPtr<C> {}
// SAFETY: a function pointer holds no GC handles.
unsafe impl<C> boa_gc::Trace for StepPtr<C> {
    boa_gc::empty_trace!();
}

/// "The result of reacting to `promise`" with `step`: a new (Rust-side) promise resolved with
/// what the step returns (adopting a returned promise with the ticks a JS promise takes).
pub fn react<C: Trace + 'static>(
    promise: Completion,
    captures: C,
    step: fn(&C, Settlement, &mut Context) -> StepResult,
    ctx: &mut Context,
) -> Completion {
    let out = RustPromise::new();
    promise.upon(
        (out.clone(), captures, StepPtr(step)),
        |(out, captures, step), settlement, ctx| match (step.0)(captures, settlement, ctx) {
            StepResult::Value(v) => out.settle(Ok(v), ctx),
            StepResult::Throw(e) => out.settle(Err(e), ctx),
            StepResult::Promise(p) => RustPromise::resolve_with(out, p, ctx),
        },
        ctx,
    );
    Completion::Rust(out)
}

/// React to a JS promise with native steps (through `then`, so the reaction is ordered with
/// script reactions). The derived promise never rejects.
// NOTE: `JsPromise::then` reads `promise.constructor` (SpeciesConstructor); for promises this
// crate creates that is `%Promise.prototype%.constructor`, observable only by patching it.
fn react_js<C: Trace + 'static>(
    promise: &JsObject,
    captures: C,
    step: ReactionFn<C>,
    ctx: &mut Context,
) {
    let Ok(p) = JsPromise::from_object(promise.clone()) else {
        return;
    };
    // One shared cell so that the reaction runs once and the captures are traced.
    let cell = Gc::new(GcRefCell::new(Some(
        Box::new(FnReaction { captures, step }) as Box<dyn Reaction>,
    )));
    let on_fulfilled = NativeFunction::from_copy_closure_with_captures(
        |_, args, cell: &Gc<GcRefCell<Option<Box<dyn Reaction>>>>, ctx| {
            let r = cell.borrow_mut().take();
            if let Some(r) = r {
                r.run(Ok(arg(args, 0)), ctx);
            }
            Ok(JsValue::undefined())
        },
        cell.clone(),
    )
    .to_js_function(ctx.realm());
    let on_rejected = NativeFunction::from_copy_closure_with_captures(
        |_, args, cell: &Gc<GcRefCell<Option<Box<dyn Reaction>>>>, ctx| {
            let r = cell.borrow_mut().take();
            if let Some(r) = r {
                r.run(Err(arg(args, 0)), ctx);
            }
            Ok(JsValue::undefined())
        },
        cell,
    )
    .to_js_function(ctx.realm());
    // JsPromise::then reads `constructor` (SpeciesConstructor, see docs/engine-bugs
    // promise-then-species): through webidl::catching when that can run user code. Its
    // exception cannot be reported anywhere (the reaction is not registered).
    if webidl::lookup_runs_no_code(promise, "constructor") {
        let _not_registered = p.then(Some(on_fulfilled), Some(on_rejected), ctx);
    } else {
        let _not_registered = webidl::catching(ctx, |ctx| {
            p.then(Some(on_fulfilled), Some(on_rejected), ctx)
        });
    }
}

/// Invoke a callback returning `Promise<undefined>` and convert its result: "a promise resolved
/// with" the value, or a promise rejected with the exception. With fast paths on, a non-object
/// result or an exception becomes an already-settled [`Completion`] (its reactions take the
/// same microtask position as a reaction to the new promise would).
pub(crate) fn invoke_promise_callback(
    f: &JsObject,
    this: &JsValue,
    args: &[JsValue],
    ctx: &mut Context,
) -> Completion {
    match webidl::call_catching(f, this, args, ctx) {
        Ok(v) => completion_resolved_with(v, ctx),
        Err(e) => {
            let r = e.into_value();
            if crate::fast_paths() {
                Completion::Rejected(r)
            } else {
                Completion::Js(promise_rejected_with(r, ctx))
            }
        }
    }
}

/// What a promise resolve function does with `resolution` before any job is queued
/// (ECMA-262 "Promise Resolve Functions", steps 10-14), shared by every place the library
/// mirrors a resolve function.
enum ResolutionThen {
    /// Fulfilled with the value (not an object, or its `then` is not callable), or rejected
    /// with the exception of the `then` lookup.
    Settled(Result<JsValue, JsValue>),
    /// A callable `then`: the caller queues the NewPromiseResolveThenableJob.
    Callable(JsObject),
}

fn resolution_then(resolution: JsValue, ctx: &mut Context) -> ResolutionThen {
    // 10. If resolution is not an Object, then FulfillPromise(promise, resolution).
    let Some(object) = resolution.as_object() else {
        return ResolutionThen::Settled(Ok(resolution));
    };
    // 11. Let then be Completion(Get(resolution, "then")).
    // 12. If then is an abrupt completion, then RejectPromise(promise, then.[[Value]]).
    let then = match webidl::get_then(&object, ctx) {
        Ok(then) => then,
        Err(e) => return ResolutionThen::Settled(Err(e.into_value())),
    };
    // 13-14. If IsCallable(thenAction) is false, then FulfillPromise(promise, resolution).
    match then.as_callable() {
        Some(then) => ResolutionThen::Callable(then.clone()),
        None => ResolutionThen::Settled(Ok(resolution)),
    }
}

/// "A promise resolved with `value`" as a [`Completion`].
///
/// With fast paths on, the promise's resolve function is carried out in Rust: a non-object or
/// an object whose `then` is not callable fulfills at once (no promise is allocated), a
/// throwing `then` getter rejects, and a callable `then` gets a JS promise and the
/// NewPromiseResolveThenableJob (`then` called in a microtask with its resolving functions).
/// `Get(value, "then")` runs exactly once, as in the resolve function.
pub(crate) fn completion_resolved_with(value: JsValue, ctx: &mut Context) -> Completion {
    if !crate::fast_paths() {
        return Completion::Js(promise_resolved_with(value, ctx));
    }
    let then = match resolution_then(value.clone(), ctx) {
        ResolutionThen::Settled(Ok(v)) => return Completion::Fulfilled(v),
        ResolutionThen::Settled(Err(e)) => return Completion::Rejected(e),
        ResolutionThen::Callable(then) => then,
    };
    // 13-15. Let job be NewPromiseResolveThenableJob(promise, resolution, thenJobCallback);
    //        HostEnqueuePromiseJob(job).
    let capability = webidl::PromiseCapability::new(ctx);
    let promise = capability.promise.clone();
    webidl::enqueue_microtask(ctx, move |ctx| {
        let args = [
            capability.resolve.clone().into(),
            capability.reject.clone().into(),
        ];
        if let Err(e) = webidl::call_catching(&then, &value, &args, ctx) {
            capability.reject(e.into_value(), ctx);
        }
    });
    Completion::Js(promise)
}
