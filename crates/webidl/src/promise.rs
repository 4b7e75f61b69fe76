//! The promise vocabulary of the stream algorithms: every promise the Streams Standard (and
//! the WebIDL "promise" section it uses) speaks of, as one small set of types.
//!
//! | spec phrase | Rust |
//! | --- | --- |
//! | "a new promise" (script can see it) | [`PromiseCapability::new`] |
//! | "a new promise" the spec creates but script never sees | [`RustPromise::new`] |
//! | "a promise" an algorithm returns (source pull/cancel, sink write/close/abort, transform algorithms, start results) | [`Completion`] |
//! | "a promise resolved with `v`" | [`promise_resolved_with`] (a JS promise), `completion_resolved_with` (a [`Completion`], no allocation for a non-thenable) |
//! | "a promise rejected with `r`" | [`promise_rejected_with`] (a JS promise), [`Completion::Rejected`] |
//! | "resolve `p` with `v`" | [`PromiseCapability::resolve`], [`RustPromise::resolve_value`] (any value, `then` looked up), [`RustPromise::resolve_with`] (adopt a [`Completion`]), [`RustPromise::settle`] (a non-thenable) |
//! | "reject `p` with `r`" | [`PromiseCapability::reject`], [`RustPromise::settle`] with `Err(r)` |
//! | "upon fulfillment / upon rejection of `p`", "react to `p`" | [`Completion::upon`] / [`Completion::upon_either`] (steps), [`Reaction`] (the steps as a value) |
//! | "the result of reacting to `p`", "transforming `p` by" | [`react`] |
//! | "set `p`.\[\[PromiseIsHandled\]\] to true" | [`mark_as_handled`] |
//! | a promise-returning callback ("invoke", `Promise<undefined>`) | `invoke_promise_callback` |
//! | a JS-visible promise attribute (`writer.closed`, `writer.ready`, `reader.closed`) | [`PromiseSlot`] |
//! | "wait for all" (pipeTo's signal action) | a [`RustPromise`] settled by the last part (see `readable::pipe`) |
//! | the position a reaction to an already-settled promise takes | [`enqueue_microtask`] |
//!
//! The types, and why there are this many:
//!
//! - [`PromiseCapability`]: a JS promise with its resolving functions (script holds it).
//! - [`RustPromise`]: a promise that lives in Rust (script never sees it, it never looks up
//!   `then`), with its list of [`Reaction`]s.
//! - [`Completion`]: "a promise" as the algorithms pass it around: already settled (the sync
//!   fast path: no allocation), a [`RustPromise`] or a JS promise.
//! - [`Reaction`]: the one way to react with Rust steps: traced captures and a step function,
//!   run in their own microtask when the promise settles (or a JS promise settled at the same
//!   moment, the JS face of a Rust-side promise).
//! - [`PromiseSlot`]: a JS-visible promise attribute whose JS promise is only created when
//!   script reads it; Rust waits on it with the same [`Reaction`]s.
//! - [`Settlement`]: the outcome a reaction gets (`Ok` fulfilled, `Err` rejected).
//!
//! Reactions run in microtasks at exactly the position a JS promise reaction would take:
//! reacting to a settled completion enqueues a native microtask immediately; settling a
//! pending [`RustPromise`] or [`PromiseSlot`] enqueues one microtask per registered
//! [`Reaction`], in registration order; reacting to a JS promise goes through its `then`, so
//! the steps are ordered with script's reactions.

use std::cell::Cell;

use boa_engine::{
    object::builtins::JsPromise, Context, JsObject, JsResult, JsValue, NativeFunction,
};
use boa_gc::{Finalize, Gc, GcRefCell, Trace};

use crate::catching::{call_catching, catching};
use crate::convert::arg;
use crate::error::{own_error_value, Caught};
use crate::resolving::{get_then, lookup_runs_no_code, reject_promise, resolve_promise};

/// The settlement of a promise: `Ok(value)` = fulfilled, `Err(reason)` = rejected.
pub type Settlement = Result<JsValue, JsValue>;

// ---------------------------------------------------------------------------------------
// JS promises
// ---------------------------------------------------------------------------------------

/// A promise created by "a new promise", with its resolving functions kept so Rust can
/// settle it later. Trace it when stored in GC state.
#[derive(Debug, Clone, Trace, Finalize)]
pub struct PromiseCapability {
    /// The promise.
    pub promise: JsObject,
    /// Its resolve function.
    pub resolve: JsObject,
    /// Its reject function.
    pub reject: JsObject,
}

impl PromiseCapability {
    /// "A new promise".
    #[inline]
    pub fn new(ctx: &mut Context) -> Self {
        let (promise, funcs) = JsPromise::new_pending(ctx);
        Self {
            promise: promise.into(),
            resolve: funcs.resolve.into(),
            reject: funcs.reject.into(),
        }
    }

    /// "Resolve p with v". Can run user code (`Get(v, "then")`: a getter, a proxy trap), which
    /// then runs inside [`catching`]; the resolving functions themselves run with the
    /// library's limit margin, so they can always be called (see [`catching`]).
    ///
    /// A settlement is never dropped: if the resolve function cannot run, the promise is
    /// rejected with the (RangeError) error instead.
    // NOTE: one residual case cannot be settled: a `then` getter whose OWN code (not a call
    // into this library) exhausts the recursion limit. Boa's resolve function has already
    // consumed the resolving functions when the engine error comes back from the getter and
    // returns that error without rejecting, and Boa offers no other way to settle the promise;
    // see docs/engine-bugs/README.md (native-catch-stack).
    #[inline]
    pub fn resolve(&self, value: JsValue, ctx: &mut Context) {
        resolve_promise(&self.resolve, &self.reject, value, ctx);
    }

    /// "Reject p with r". Runs no user code.
    #[inline]
    pub fn reject(&self, reason: JsValue, ctx: &mut Context) {
        reject_promise(&self.reject, reason, ctx);
    }

    /// Settle with `settlement` ("resolve p with v" / "reject p with r").
    #[inline]
    pub fn settle(&self, settlement: Settlement, ctx: &mut Context) {
        match settlement {
            Ok(v) => self.resolve(v, ctx),
            Err(e) => self.reject(e, ctx),
        }
    }

    /// The promise as a value.
    #[inline]
    pub fn value(&self) -> JsValue {
        self.promise.clone().into()
    }
}

/// "A promise resolved with `value`": always a new promise (never `value` itself).
#[inline]
pub fn promise_resolved_with(value: JsValue, ctx: &mut Context) -> JsObject {
    let p = PromiseCapability::new(ctx);
    p.resolve(value, ctx);
    p.promise.clone()
}

/// "A promise rejected with `reason`".
#[inline]
pub fn promise_rejected_with(reason: JsValue, ctx: &mut Context) -> JsObject {
    let p = PromiseCapability::new(ctx);
    p.reject(reason, ctx);
    p.promise.clone()
}

/// "Set promise.\[\[PromiseIsHandled\]\] to true". Boa has no public setter: attaching a no-op
/// rejection reaction sets the flag.
// NOTE: this allocates one derived promise and, if `promise` rejects, queues one reaction job
// that runs a no-op; neither is observable by script.
pub fn mark_as_handled(promise: &JsObject, ctx: &mut Context) {
    if let Ok(p) = JsPromise::from_object(promise.clone()) {
        let noop = NativeFunction::from_fn_ptr(|_, _, _| Ok(JsValue::undefined()))
            .to_js_function(ctx.realm());
        // `then` reads `constructor` (see `react_js`): through `catching` when that runs code.
        if lookup_runs_no_code(promise, "constructor") {
            let _not_registered = p.then(None, Some(noop), ctx);
        } else {
            let _not_registered = catching(ctx, |ctx| p.then(None, Some(noop), ctx));
        }
    }
}

/// Enqueue native steps as a microtask (a `PromiseJob`): the position a reaction to an
/// already-settled promise would take. Used by the sync fast paths.
pub fn enqueue_microtask(ctx: &mut Context, f: impl FnOnce(&mut Context) + 'static) {
    let job = boa_engine::job::PromiseJob::new(move |ctx| {
        f(ctx);
        Ok(JsValue::undefined())
    });
    ctx.enqueue_job(job.into());
}

/// Run `step` upon settlement of "a promise resolved with" a promise that is already settled
/// with `settlement`, without making that new promise: in the third microtask from now, where
/// the reaction to the new promise would run (the NewPromiseResolveThenableJob, the reaction
/// to the settled promise that resolves the new one, then the reaction to the new one). For a
/// new promise that nothing else holds or reacts to (e.g. a start algorithm's startPromise).
// NOTE: the three jobs are enqueued exactly when the promise's would be (each by the previous
// one), and no other job can observe the promise in between: it exists only for this step.
pub fn upon_resolved_with_settled<C, F>(
    settlement: Settlement,
    captures: C,
    step: F,
    ctx: &mut Context,
) where
    C: Trace + 'static,
    F: Fn(&C, Settlement, &mut Context) + Copy + 'static,
{
    enqueue_microtask(ctx, move |ctx| {
        enqueue_microtask(ctx, move |ctx| {
            enqueue_microtask(ctx, move |ctx| step(&captures, settlement, ctx));
        });
    });
}

// ---------------------------------------------------------------------------------------
// Reactions
// ---------------------------------------------------------------------------------------

/// What happens when a promise settles: Rust steps in their own microtask, or a JS promise
/// settled at the same moment.
#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
pub enum Reaction {
    /// Rust steps with traced captures (see [`Reaction::new`]), run in a microtask enqueued
    /// when the promise settles: the position a reaction registered on it would take.
    Steps(Box<dyn ReactionSteps>),
    /// A JS promise settled synchronously with this one: the promise script holds for a
    /// Rust-side promise or request ("resolve p with v" on the JS promise).
    Promise(PromiseCapability),
}

/// The steps of a [`Reaction::Steps`]: traced captures and a step function, boxed (one
/// allocation, no JS function object).
pub trait ReactionSteps: Trace {
    /// Run the steps with the settlement.
    fn run(self: Box<Self>, settlement: Settlement, ctx: &mut Context);
}

/// [`ReactionSteps`] made by [`Reaction::new`].
#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
struct FnSteps<C: Trace + 'static, F: 'static> {
    captures: C,
    // A `Copy` closure holds no GC data (no GC handle is `Copy`).
    #[unsafe_ignore_trace]
    steps: F,
}

impl<C, F> ReactionSteps for FnSteps<C, F>
where
    C: Trace + 'static,
    F: Fn(&C, Settlement, &mut Context) + Copy + 'static,
{
    fn run(self: Box<Self>, settlement: Settlement, ctx: &mut Context) {
        (self.steps)(&self.captures, settlement, ctx);
    }
}

impl std::fmt::Debug for Reaction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Steps(_) => f.write_str("Reaction::Steps"),
            Self::Promise(p) => f.debug_tuple("Reaction::Promise").field(p).finish(),
        }
    }
}

impl Reaction {
    /// Steps `steps(&captures, settlement, ctx)`; `captures` is traced. `steps` is a function
    /// or a closure that captures nothing but `Copy` data (function pointers).
    pub fn new<C, F>(captures: C, steps: F) -> Self
    where
        C: Trace + 'static,
        F: Fn(&C, Settlement, &mut Context) + Copy + 'static,
    {
        Self::Steps(Box::new(FnSteps { captures, steps }))
    }

    /// "Upon fulfillment" / "upon rejection": one step per outcome.
    pub fn either<C: Trace + 'static>(
        captures: C,
        on_fulfilled: fn(JsValue, &C, &mut Context),
        on_rejected: fn(JsValue, &C, &mut Context),
    ) -> Self {
        Self::new(captures, move |c, settlement, ctx| match settlement {
            Ok(v) => on_fulfilled(v, c, ctx),
            Err(e) => on_rejected(e, c, ctx),
        })
    }

    /// The promise it reacts to settled: enqueue the steps as a microtask, or settle the JS
    /// promise now.
    #[inline]
    pub fn settle(self, settlement: Settlement, ctx: &mut Context) {
        match self {
            Self::Steps(_) => enqueue_microtask(ctx, move |ctx| self.run(settlement, ctx)),
            Self::Promise(p) => p.settle(settlement, ctx),
        }
    }

    /// Run now (inside the microtask of the reaction).
    fn run(self, settlement: Settlement, ctx: &mut Context) {
        match self {
            Self::Steps(steps) => steps.run(settlement, ctx),
            Self::Promise(p) => p.settle(settlement, ctx),
        }
    }

    /// React to a JS promise (through `then`, so the reaction is ordered with script
    /// reactions). The derived promise never rejects.
    // NOTE: `JsPromise::then` reads `promise.constructor` (SpeciesConstructor); for promises
    // this crate creates that is `%Promise.prototype%.constructor`, observable only by
    // patching it.
    fn react_js(self, promise: &JsObject, ctx: &mut Context) {
        let Ok(p) = JsPromise::from_object(promise.clone()) else {
            return;
        };
        // One shared cell so that the reaction runs once and the captures are traced.
        let cell = Gc::new(GcRefCell::new(Some(self)));
        let callback =
            |rejected: bool, cell: Gc<GcRefCell<Option<Reaction>>>, ctx: &mut Context| {
                NativeFunction::from_copy_closure_with_captures(
                    move |_, args, cell: &Gc<GcRefCell<Option<Reaction>>>, ctx| {
                        let r = cell.borrow_mut().take();
                        if let Some(r) = r {
                            let v = arg(args, 0);
                            r.run(if rejected { Err(v) } else { Ok(v) }, ctx);
                        }
                        Ok(JsValue::undefined())
                    },
                    cell,
                )
                .to_js_function(ctx.realm())
            };
        let on_fulfilled = callback(false, cell.clone(), ctx);
        let on_rejected = callback(true, cell, ctx);
        // JsPromise::then reads `constructor` (SpeciesConstructor, see docs/engine-bugs
        // promise-then-species): through catching when that can run user code. Its
        // exception cannot be reported anywhere (the reaction is not registered).
        if lookup_runs_no_code(promise, "constructor") {
            let _not_registered = p.then(Some(on_fulfilled), Some(on_rejected), ctx);
        } else {
            let _not_registered = catching(ctx, |ctx| {
                p.then(Some(on_fulfilled), Some(on_rejected), ctx)
            });
        }
    }
}

// ---------------------------------------------------------------------------------------
// Rust-side promises
// ---------------------------------------------------------------------------------------

/// A promise that lives in Rust: never visible to script, never looks up `then` (except
/// [`RustPromise::resolve_value`], which mirrors a resolve function on any value).
#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
pub struct RustPromise {
    /// `\[\[PromiseState\]\]` with its reactions or result, in one cell (one borrow flag, a
    /// small GC allocation: many of these are made per chunk).
    state: GcRefCell<RustPromiseState>,
    /// The resolving functions' \[\[AlreadyResolved\]\].
    #[unsafe_ignore_trace]
    already_resolved: Cell<bool>,
}

/// The state of a [`RustPromise`].
#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
enum RustPromiseState {
    /// Pending, with `\[\[PromiseFulfillReactions\]\]` / `\[\[PromiseRejectReactions\]\]`.
    Pending(Vec<Reaction>),
    /// Fulfilled (`Ok`) or rejected (`Err`).
    Settled(Settlement),
}

impl RustPromise {
    /// "A new promise".
    #[inline]
    pub fn new() -> Gc<Self> {
        Gc::new(Self {
            state: GcRefCell::new(RustPromiseState::Pending(Vec::new())),
            already_resolved: Cell::new(false),
        })
    }

    /// Whether it is still pending.
    #[inline]
    pub fn is_pending(&self) -> bool {
        matches!(*self.state.borrow(), RustPromiseState::Pending(_))
    }

    /// Resolve (`Ok`) or reject (`Err`) with a non-thenable value (no-op if already resolved):
    /// queue one microtask per reaction.
    #[inline]
    pub fn settle(&self, settlement: Settlement, ctx: &mut Context) {
        if self.already_resolved.replace(true) {
            return;
        }
        self.settle_now(settlement, ctx);
    }

    fn settle_now(&self, settlement: Settlement, ctx: &mut Context) {
        let reactions = {
            let mut state = self.state.borrow_mut();
            let RustPromiseState::Pending(reactions) = &mut *state else {
                return;
            };
            let reactions = std::mem::take(reactions);
            *state = RustPromiseState::Settled(settlement.clone());
            reactions
        };
        for reaction in reactions {
            reaction.settle(settlement.clone(), ctx);
        }
    }

    /// "Resolve p with undefined".
    #[inline]
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
    #[inline]
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
            Ok(Some(then)) => then,
            Ok(None) => return this.settle_now(Ok(resolution), ctx),
            Err(e) => return this.settle_now(Err(e), ctx),
        };
        // 15-16. Let job be NewPromiseResolveThenableJob(promise, resolution, thenJobCallback);
        //        HostEnqueuePromiseJob(job).
        let this = this.clone();
        enqueue_microtask(ctx, move |ctx| {
            // NewPromiseResolveThenableJob: 1. Let resolvingFunctions be
            // CreateResolvingFunctions(promiseToResolve): the promise and a new
            // [[AlreadyResolved]] record.
            let pair = (this, Gc::new(GcRefCell::new(false)));
            let resolving_function = |rejects: bool, pair: &(Gc<Self>, Gc<GcRefCell<bool>>)| {
                NativeFunction::from_copy_closure_with_captures(
                    move |_,
                          args,
                          (promise, already_resolved): &(Gc<Self>, Gc<GcRefCell<bool>>),
                          ctx| {
                        if !std::mem::replace(&mut *already_resolved.borrow_mut(), true) {
                            if rejects {
                                promise.settle_now(Err(arg(args, 0)), ctx);
                            } else {
                                RustPromise::resolve_steps(promise, arg(args, 0), ctx);
                            }
                        }
                        Ok(JsValue::undefined())
                    },
                    pair.clone(),
                )
            };
            let resolve = resolving_function(false, &pair).to_js_function(ctx.realm());
            let reject = resolving_function(true, &pair).to_js_function(ctx.realm());
            // 2. Let thenCallResult be Completion(HostCallJobCallback(then, thenable,
            //    « resolvingFunctions.[[Resolve]], resolvingFunctions.[[Reject]] »)).
            // 3. If thenCallResult is an abrupt completion, return ? Call(
            //    resolvingFunctions.[[Reject]], undefined, « thenCallResult.[[Value]] »).
            let args = [resolve.into(), reject.into()];
            if let Err(e) = call_catching(&then, &resolution, &args, ctx) {
                let e = e.into_value();
                let (promise, already_resolved) = pair;
                if !std::mem::replace(&mut *already_resolved.borrow_mut(), true) {
                    promise.settle_now(Err(e), ctx);
                }
            }
        });
    }

    /// Register `reaction` ("react"): run when the promise settles, or now (as a microtask for
    /// steps) if it already has.
    pub fn react(&self, reaction: Reaction, ctx: &mut Context) {
        let settled = match &mut *self.state.borrow_mut() {
            RustPromiseState::Pending(reactions) => {
                // Most promises get one reaction: room for exactly one first (a `Vec` would
                // reserve four), the usual doubling after that.
                if reactions.capacity() == 0 {
                    reactions.reserve_exact(1);
                }
                reactions.push(reaction);
                return;
            }
            RustPromiseState::Settled(settlement) => settlement.clone(),
        };
        reaction.settle(settled, ctx);
    }
}

// ---------------------------------------------------------------------------------------
// Completions
// ---------------------------------------------------------------------------------------

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
    #[inline]
    pub fn undefined() -> Self {
        Self::Fulfilled(JsValue::undefined())
    }

    /// "React" to this promise: run `step` with the settlement, in a microtask, at the position
    /// a JS promise reaction would run.
    pub fn upon<C, F>(self, captures: C, step: F, ctx: &mut Context)
    where
        C: Trace + 'static,
        F: Fn(&C, Settlement, &mut Context) + Copy + 'static,
    {
        match self {
            Self::Fulfilled(v) => enqueue_microtask(ctx, move |ctx| step(&captures, Ok(v), ctx)),
            Self::Rejected(e) => enqueue_microtask(ctx, move |ctx| step(&captures, Err(e), ctx)),
            other => other.react(Reaction::new(captures, step), ctx),
        }
    }

    /// "Upon fulfillment" / "upon rejection": [`Completion::upon`] with one step per outcome.
    pub fn upon_either<C: Trace + 'static>(
        self,
        captures: C,
        on_fulfilled: fn(JsValue, &C, &mut Context),
        on_rejected: fn(JsValue, &C, &mut Context),
        ctx: &mut Context,
    ) {
        match self {
            Self::Fulfilled(v) => {
                enqueue_microtask(ctx, move |ctx| on_fulfilled(v, &captures, ctx));
            }
            Self::Rejected(e) => enqueue_microtask(ctx, move |ctx| on_rejected(e, &captures, ctx)),
            other => other.react(Reaction::either(captures, on_fulfilled, on_rejected), ctx),
        }
    }

    /// "React" to this promise with `reaction`.
    pub fn react(self, reaction: Reaction, ctx: &mut Context) {
        match self {
            Self::Fulfilled(v) => reaction.settle(Ok(v), ctx),
            Self::Rejected(e) => reaction.settle(Err(e), ctx),
            Self::Rust(p) => p.react(reaction, ctx),
            Self::Js(p) => match reaction {
                Reaction::Steps(_) => reaction.react_js(&p, ctx),
                // A JS promise resolved with this one (never needed: `Js` is returned as is).
                Reaction::Promise(cap) => cap.resolve(p.into(), ctx),
            },
        }
    }

    /// The promise as a JS promise (for a JS-visible result). A pending Rust promise gets a
    /// JS promise that settles synchronously with it, so script sees the same timing.
    pub fn into_js_promise(self, ctx: &mut Context) -> JsObject {
        match self {
            Self::Fulfilled(v) => promise_resolved_with(v, ctx),
            Self::Rejected(e) => promise_rejected_with(e, ctx),
            Self::Js(p) => p,
            Self::Rust(p) => {
                let cap = PromiseCapability::new(ctx);
                let promise = cap.promise.clone();
                p.react(Reaction::Promise(cap), ctx);
                promise
            }
        }
    }

    /// "The result of reacting to this promise with a fulfillment step that returns
    /// undefined" (rejections propagate).
    pub fn then_undefined(self, ctx: &mut Context) -> Completion {
        react(
            self,
            (),
            |(), s, _| match s {
                Ok(_) => Completion::undefined(),
                Err(e) => Completion::Rejected(e),
            },
            ctx,
        )
    }
}

/// "The result of reacting to `promise`" with `step` ("transforming `promise` by"): a new
/// (Rust-side) promise resolved with what the step returns. The step returns a
/// [`Completion`]: `Fulfilled(v)` is the value it returns, `Rejected(e)` the exception it
/// throws, and a Rust or JS promise is adopted with the ticks a JS promise takes.
pub fn react<C: Trace + 'static>(
    promise: Completion,
    captures: C,
    step: fn(&C, Settlement, &mut Context) -> Completion,
    ctx: &mut Context,
) -> Completion {
    let out = RustPromise::new();
    promise.upon(
        (out.clone(), captures),
        move |(out, captures), settlement, ctx| match step(captures, settlement, ctx) {
            Completion::Fulfilled(v) => out.settle(Ok(v), ctx),
            Completion::Rejected(e) => out.settle(Err(e), ctx),
            p => RustPromise::resolve_with(out, p, ctx),
        },
        ctx,
    );
    Completion::Rust(out)
}

/// Invoke a callback returning `Promise<undefined>` and convert its result: "a promise resolved
/// with" the value, or a promise rejected with the exception. With fast paths on, a non-object
/// result or an exception becomes an already-settled [`Completion`] (its reactions take the
/// same microtask position as a reaction to the new promise would).
pub fn invoke_promise_callback(
    f: &JsObject,
    this: &JsValue,
    args: &[JsValue],
    ctx: &mut Context,
) -> Completion {
    match call_catching(f, this, args, ctx) {
        Ok(v) => completion_resolved_with(v, ctx),
        Err(e) => {
            let r = e.into_value();
            if crate::fast_paths::fast_paths() {
                Completion::Rejected(r)
            } else {
                Completion::Js(promise_rejected_with(r, ctx))
            }
        }
    }
}

/// What a promise resolve function does with `resolution` before any job is queued
/// (ECMA-262 "Promise Resolve Functions", steps 10-14), shared by every place the library
/// mirrors a resolve function: `Ok(None)` fulfills with `resolution` (not an object, or its
/// `then` is not callable), `Err(e)` rejects with the exception of the `then` lookup,
/// `Ok(Some(then))` is a callable `then` (the caller queues the NewPromiseResolveThenableJob).
fn resolution_then(resolution: JsValue, ctx: &mut Context) -> Result<Option<JsObject>, JsValue> {
    // 10. If resolution is not an Object, then FulfillPromise(promise, resolution).
    let Some(object) = resolution.as_object() else {
        return Ok(None);
    };
    // 11. Let then be Completion(Get(resolution, "then")).
    // 12. If then is an abrupt completion, then RejectPromise(promise, then.[[Value]]).
    let then = get_then(&object, ctx).map_err(Caught::into_value)?;
    // 13-14. If IsCallable(thenAction) is false, then FulfillPromise(promise, resolution).
    Ok(then.as_callable())
}

/// "A promise resolved with `value`" as a [`Completion`].
///
/// With fast paths on, the promise's resolve function is carried out in Rust: a non-object or
/// an object whose `then` is not callable fulfills at once (no promise is allocated), a
/// throwing `then` getter rejects, and a callable `then` gets a JS promise and the
/// NewPromiseResolveThenableJob (`then` called in a microtask with its resolving functions).
/// `Get(value, "then")` runs exactly once, as in the resolve function.
pub fn completion_resolved_with(value: JsValue, ctx: &mut Context) -> Completion {
    if !crate::fast_paths::fast_paths() {
        return Completion::Js(promise_resolved_with(value, ctx));
    }
    let then = match resolution_then(value.clone(), ctx) {
        Ok(None) => return Completion::Fulfilled(value),
        Err(e) => return Completion::Rejected(e),
        Ok(Some(then)) => then,
    };
    // 13-15. Let job be NewPromiseResolveThenableJob(promise, resolution, thenJobCallback);
    //        HostEnqueuePromiseJob(job).
    let capability = PromiseCapability::new(ctx);
    let promise = capability.promise.clone();
    enqueue_microtask(ctx, move |ctx| {
        let args = [
            capability.resolve.clone().into(),
            capability.reject.clone().into(),
        ];
        if let Err(e) = call_catching(&then, &value, &args, ctx) {
            capability.reject(e.into_value(), ctx);
        }
    });
    Completion::Js(promise)
}

// ---------------------------------------------------------------------------------------
// Lazily materialised JS-visible promises
// ---------------------------------------------------------------------------------------

/// A JS-visible promise slot (`\[\[closedPromise\]\]`, `\[\[readyPromise\]\]`) tracked in Rust.
///
/// The JS promise is created only when script reads the attribute; Rust waits on the slot
/// with [`Reaction`]s ([`PromiseSlot::react_in`]), no JS promise allocated.
// NOTE: unobservable: a promise created later in the same state behaves identically for every
// reaction registered on it, identity is kept once created, and every rejection of these
// slots in the spec also sets [[PromiseIsHandled]], so no unhandled-rejection report is lost.
#[derive(Debug, Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
pub enum PromiseSlot {
    /// "A new promise", pending.
    Pending {
        /// The JS promise, once script asked for it.
        promise: Option<PromiseCapability>,
        /// Rust reactions, settled after the JS promise.
        waiters: Vec<Reaction>,
    },
    /// Fulfilled with undefined.
    Fulfilled {
        /// The JS promise, once script asked for it.
        promise: Option<JsObject>,
    },
    /// Rejected with `reason`, \[\[PromiseIsHandled\]\] true.
    Rejected {
        /// The rejection reason.
        reason: JsValue,
        /// The JS promise, once script asked for it.
        promise: Option<JsObject>,
    },
}

impl PromiseSlot {
    /// "A new promise".
    #[inline]
    pub fn pending() -> Self {
        Self::Pending {
            promise: None,
            waiters: Vec::new(),
        }
    }

    /// "A promise resolved with undefined".
    #[inline]
    pub fn fulfilled() -> Self {
        Self::Fulfilled { promise: None }
    }

    /// "A promise rejected with reason", marked as handled.
    #[inline]
    pub fn rejected(reason: JsValue) -> Self {
        Self::Rejected {
            reason,
            promise: None,
        }
    }

    /// Whether `\[\[PromiseState\]\]` is "pending".
    #[inline]
    pub fn is_pending(&self) -> bool {
        matches!(self, Self::Pending { .. })
    }

    /// The settlement as seen from Rust (`None` while pending).
    #[inline]
    pub fn settlement(&self) -> Option<Settlement> {
        match self {
            Self::Pending { .. } => None,
            Self::Fulfilled { .. } => Some(Ok(JsValue::undefined())),
            Self::Rejected { reason, .. } => Some(Err(reason.clone())),
        }
    }

    /// The JS promise of the slot in `cell` (created on first use), with no borrow held
    /// while user code can run.
    ///
    /// A pending promise is marked as handled when it is created, not when it is rejected:
    /// every rejection of these slots sets \[\[PromiseIsHandled\]\] in the spec, so the flag is
    /// only ever read after it is set either way, and marking it here keeps Boa's species
    /// lookup (script, if `Promise.prototype.constructor` is patched) out of the middle of
    /// abstract operations such as WritableStreamDefaultWriterRelease.
    pub fn promise_of(cell: &GcRefCell<Self>, ctx: &mut Context) -> JsObject {
        let (promise, mark) = match &mut *cell.borrow_mut() {
            Self::Pending { promise, .. } => match promise {
                Some(cap) => (cap.promise.clone(), false),
                None => {
                    let cap = PromiseCapability::new(ctx);
                    let p = cap.promise.clone();
                    *promise = Some(cap);
                    (p, true)
                }
            },
            Self::Fulfilled { promise } => (
                promise
                    .get_or_insert_with(|| promise_resolved_with(JsValue::undefined(), ctx))
                    .clone(),
                false,
            ),
            Self::Rejected { reason, promise } => match promise {
                Some(p) => (p.clone(), false),
                None => {
                    let p = promise_rejected_with(reason.clone(), ctx);
                    *promise = Some(p.clone());
                    (p, true)
                }
            },
        };
        if mark {
            mark_as_handled(&promise, ctx);
        }
        promise
    }

    /// "Resolve p with undefined" (`Ok`) or "reject p with reason" and set
    /// \[\[PromiseIsHandled\]\] (`Err`) for the slot in `cell`; a no-op unless pending. The JS
    /// promise (if created) settles first, then the Rust waiters, with no borrow held.
    pub fn settle_in(cell: &GcRefCell<Self>, settlement: Settlement, ctx: &mut Context) {
        let old = {
            let mut slot = cell.borrow_mut();
            if !slot.is_pending() {
                return;
            }
            let new = match &settlement {
                Ok(_) => Self::fulfilled(),
                Err(reason) => Self::rejected(reason.clone()),
            };
            std::mem::replace(&mut *slot, new)
        };
        let Self::Pending { promise, waiters } = old else {
            return;
        };
        if let Some(cap) = promise {
            if let Self::Fulfilled { promise: p } | Self::Rejected { promise: p, .. } =
                &mut *cell.borrow_mut()
            {
                *p = Some(cap.promise.clone());
            }
            // A rejected slot's promise was marked as handled when it was created (see
            // `promise_of`): settling it runs no user code.
            cap.settle(settlement.clone(), ctx);
        }
        for w in waiters {
            w.settle(settlement.clone(), ctx);
        }
    }

    /// "Resolve p with undefined" for the slot in `cell` (see [`PromiseSlot::settle_in`]).
    #[inline]
    pub fn resolve_in(cell: &GcRefCell<Self>, ctx: &mut Context) {
        Self::settle_in(cell, Ok(JsValue::undefined()), ctx);
    }

    /// "Reject p with reason" and set \[\[PromiseIsHandled\]\] for the slot in `cell` if it is
    /// pending, otherwise "set p to a promise rejected with reason" (marked as handled): the
    /// shape of every "ensure … promise rejected" step.
    #[inline]
    pub fn ensure_rejected_in(cell: &GcRefCell<Self>, reason: JsValue, ctx: &mut Context) {
        let pending = cell.borrow().is_pending();
        if pending {
            Self::settle_in(cell, Err(reason), ctx);
        } else {
            cell.borrow_mut().replace(Self::rejected(reason));
        }
    }

    /// Replace the slot by a new one; Rust waiters of a pending slot move to a new pending one.
    #[inline]
    pub fn replace(&mut self, new: Self) {
        let old = std::mem::replace(self, new);
        if let (Self::Pending { waiters: old_w, .. }, Self::Pending { waiters, .. }) = (old, self) {
            waiters.extend(old_w);
        }
    }

    /// Run `reaction` when the slot in `cell` settles (now, as a microtask, if it already has).
    pub fn react_in(cell: &GcRefCell<Self>, reaction: Reaction, ctx: &mut Context) {
        let settled = {
            let mut slot = cell.borrow_mut();
            match &mut *slot {
                Self::Pending { waiters, .. } => {
                    waiters.push(reaction);
                    return;
                }
                other => other.settlement(),
            }
        };
        if let Some(settlement) = settled {
            reaction.settle(settlement, ctx);
        }
    }
}
impl Completion {
    /// A rejected completion with `error` as a JS value (a native error becomes its JS error
    /// object): what a Rust source's `pull` returns to error the stream with `error`.
    ///
    /// ```
    /// use boa_engine::{Context, JsNativeError};
    /// use boa_webidl::promise::Completion;
    ///
    /// let mut context = Context::default();
    /// let error = JsNativeError::typ().with_message("no more").into();
    /// let Completion::Rejected(value) = Completion::from_error(error, &mut context) else {
    ///     panic!("not rejected");
    /// };
    /// assert!(value.is_object());
    /// ```
    #[inline]
    pub fn from_error(error: boa_engine::JsError, ctx: &mut Context) -> Self {
        Self::Rejected(crate::error::own_error_value(error, ctx))
    }

    /// [`Completion::undefined`] for `Ok(())`, [`Completion::from_error`] for an `Err`: a
    /// `pull` that ends with a fallible controller call returns this.
    ///
    /// ```
    /// use boa_engine::Context;
    /// use boa_webidl::promise::Completion;
    ///
    /// let mut context = Context::default();
    /// let done = Completion::from_result(Ok(()), &mut context);
    /// assert!(matches!(done, Completion::Fulfilled(v) if v.is_undefined()));
    /// ```
    #[inline]
    pub fn from_result(result: boa_engine::JsResult<()>, ctx: &mut Context) -> Self {
        match result {
            Ok(()) => Self::undefined(),
            Err(e) => Self::from_error(e, ctx),
        }
    }
}

/// Turn a `JsResult` of a promise-returning method into the promise: an exception becomes a
/// rejected promise (promise-returning methods never throw).
#[inline]
pub fn promise_from_result(result: Result<JsValue, Caught>, ctx: &mut Context) -> JsValue {
    match result {
        Ok(v) => v,
        Err(caught) => promise_rejected_with(caught.into_value(), ctx).into(),
    }
}

/// Like [`promise_from_result`] for steps that run no user code whose exception they return
/// (brand checks, the library's own TypeErrors; callbacks they run are caught inside): see
/// [`own_error_value`].
pub fn promise_from_own_result(result: JsResult<JsValue>, ctx: &mut Context) -> JsValue {
    match result {
        Ok(v) => v,
        Err(e) => {
            let reason = own_error_value(e, ctx);
            promise_rejected_with(reason, ctx).into()
        }
    }
}

/// The steps of a promise-returning method, run by [`catching`]: an exception (from a
/// conversion's user code or the steps themselves) becomes a rejected promise.
#[inline]
pub fn promise_method(
    ctx: &mut Context,
    steps: impl FnOnce(&mut Context) -> JsResult<JsValue>,
) -> JsValue {
    let result = catching(ctx, steps);
    promise_from_result(result, ctx)
}
