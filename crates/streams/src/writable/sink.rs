//! Sink algorithms, completions and lazily materialised promises for writable streams.
//!
//! - [`SinkAlgorithms`]: the controller's `[[writeAlgorithm]]`, `[[closeAlgorithm]]`,
//!   `[[abortAlgorithm]]` (and the start algorithm) as a Rust enum: a JS underlying sink, a
//!   TransformStream's sink side, or a native (Rust) sink.
//! - [`SinkResult`]: what a sink algorithm produced (the promise side, reacted to): the shared
//!   [`Completion`](crate::completion::Completion), already settled (the sync fast path), a JS
//!   promise or a Rust-side promise.
//! - [`RequestPromise`]: the RESOLVING side of a request's promise (`[[writeRequests]]`,
//!   `[[closeRequest]]`, `[[inFlight*Request]]`, the abort request): either a JS promise
//!   capability that script holds, or one native observer ([`NativeCompletion`], pipeTo) that
//!   runs as a microtask when the request settles, so no JS promise is allocated. It is settled
//!   once, never reacted to, which is why it is not a `Completion`.
//! - [`PromiseSlot`]: a JS-visible promise slot (`writer.closed`, `writer.ready`) whose JS
//!   promise is only allocated when script asks for it.

use boa_engine::{Context, JsObject, JsResult, JsValue};
use boa_gc::{Finalize, Gc, Trace};

use crate::completion::{completion_resolved_with, invoke_promise_callback};
use crate::webidl::{
    enqueue_microtask, mark_as_handled, promise_rejected_with, promise_resolved_with,
    PromiseCapability,
};

// ---------------------------------------------------------------------------------------
// Completions
// ---------------------------------------------------------------------------------------

/// Native steps to run when a request settles, instead of settling a JS promise.
///
/// The steps run as a microtask enqueued at the moment the request settles: the position a
/// reaction registered on the spec's promise (when the request was made) would take.
#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
pub struct NativeCompletion(Box<dyn CompletionSteps>);

/// The boxed steps of a [`NativeCompletion`].
pub trait CompletionSteps: Trace {
    /// Run the steps: `Ok(())` for fulfillment, `Err(reason)` for rejection.
    fn run(self: Box<Self>, result: Result<(), JsValue>, ctx: &mut Context);
}

#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
struct FnSteps<C: Trace + 'static> {
    captures: C,
    #[unsafe_ignore_trace]
    steps: fn(&C, Result<(), JsValue>, &mut Context),
}

impl<C: Trace + 'static> CompletionSteps for FnSteps<C> {
    fn run(self: Box<Self>, result: Result<(), JsValue>, ctx: &mut Context) {
        (self.steps)(&self.captures, result, ctx);
    }
}

impl std::fmt::Debug for NativeCompletion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NativeCompletion").finish_non_exhaustive()
    }
}

impl NativeCompletion {
    /// Steps `steps(&captures, result, ctx)`; `captures` is traced.
    pub fn new<C: Trace + 'static>(
        captures: C,
        steps: fn(&C, Result<(), JsValue>, &mut Context),
    ) -> Self {
        Self(Box::new(FnSteps { captures, steps }))
    }

    /// Settle: enqueue the steps as a microtask.
    pub fn settle(self, result: Result<(), JsValue>, ctx: &mut Context) {
        enqueue_microtask(ctx, move |ctx| self.0.run(result, ctx));
    }
}

/// How a write / close / abort request reports its outcome: the resolving side of the
/// request's promise (see the module docs for how it differs from
/// [`Completion`](crate::completion::Completion)).
#[derive(Debug, Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
pub enum RequestPromise {
    /// A JS promise (returned to script).
    Promise(PromiseCapability),
    /// Native steps (no JS promise is allocated).
    Native(NativeCompletion),
}

impl RequestPromise {
    /// A completion backed by a new JS promise; returns the completion and the promise.
    pub fn new_promise(ctx: &mut Context) -> (Self, JsObject) {
        let cap = PromiseCapability::new(ctx);
        let promise = cap.promise.clone();
        (Self::Promise(cap), promise)
    }

    /// "Resolve p with undefined" (runs no user code).
    pub fn resolve(self, ctx: &mut Context) {
        match self {
            Self::Promise(cap) => cap.resolve(JsValue::undefined(), ctx),
            Self::Native(n) => n.settle(Ok(()), ctx),
        }
    }

    /// "Reject p with reason" (runs no user code).
    pub fn reject(self, reason: JsValue, ctx: &mut Context) {
        match self {
            Self::Promise(cap) => cap.reject(reason, ctx),
            Self::Native(n) => n.settle(Err(reason), ctx),
        }
    }
}

// ---------------------------------------------------------------------------------------
// Lazily materialised JS-visible promises
// ---------------------------------------------------------------------------------------

/// A JS-visible promise slot (`[[closedPromise]]`, `[[readyPromise]]`) tracked in Rust.
///
/// The JS promise is created only when script reads the attribute.
// NOTE: unobservable: a promise created later in the same state behaves identically for every
// reaction registered on it, identity is kept once created, and every rejection of these two
// slots in the spec also sets [[PromiseIsHandled]], so no unhandled-rejection report is lost.
#[derive(Debug, Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
pub enum PromiseSlot {
    /// "A new promise", pending.
    Pending {
        promise: Option<PromiseCapability>,
        /// Rust observers (pipeTo), settled with the promise.
        waiters: Vec<NativeCompletion>,
    },
    /// Fulfilled with undefined.
    Fulfilled { promise: Option<JsObject> },
    /// Rejected with `reason`, [[PromiseIsHandled]] true.
    Rejected {
        reason: JsValue,
        promise: Option<JsObject>,
    },
}

/// The observable state of a [`PromiseSlot`] from Rust.
#[derive(Debug, Clone)]
pub enum SlotState {
    Pending,
    Fulfilled,
    Rejected,
}

impl PromiseSlot {
    /// "A new promise".
    pub fn pending() -> Self {
        Self::Pending {
            promise: None,
            waiters: Vec::new(),
        }
    }

    /// "A promise resolved with undefined".
    pub fn fulfilled() -> Self {
        Self::Fulfilled { promise: None }
    }

    /// "A promise rejected with reason", marked as handled.
    pub fn rejected(reason: JsValue) -> Self {
        Self::Rejected {
            reason,
            promise: None,
        }
    }

    /// Whether `[[PromiseState]]` is "pending".
    pub fn is_pending(&self) -> bool {
        matches!(self, Self::Pending { .. })
    }

    /// The state as seen from Rust.
    pub fn state(&self) -> SlotState {
        match self {
            Self::Pending { .. } => SlotState::Pending,
            Self::Fulfilled { .. } => SlotState::Fulfilled,
            Self::Rejected { .. } => SlotState::Rejected,
        }
    }

    /// The JS promise (created on first use). Runs no user code; when the second value is
    /// true the caller must [`mark_as_handled`] the promise after releasing its borrow (that
    /// step can reach user code through Boa's species lookup).
    ///
    /// A pending promise is marked as handled when it is created, not when it is rejected:
    /// every rejection of these slots sets [[PromiseIsHandled]] in the spec, so the flag is
    /// only ever read after it is set either way, and marking it here keeps Boa's species
    /// lookup (script, if `Promise.prototype.constructor` is patched) out of the middle of
    /// abstract operations such as WritableStreamDefaultWriterRelease.
    pub fn promise(&mut self, ctx: &mut Context) -> (JsObject, bool) {
        match self {
            Self::Pending { promise, .. } => {
                if let Some(cap) = promise {
                    return (cap.promise.clone(), false);
                }
                let cap = PromiseCapability::new(ctx);
                let p = cap.promise.clone();
                *promise = Some(cap);
                (p, true)
            }
            Self::Fulfilled { promise } => (
                promise
                    .get_or_insert_with(|| promise_resolved_with(JsValue::undefined(), ctx))
                    .clone(),
                false,
            ),
            Self::Rejected { reason, promise } => {
                if let Some(p) = promise {
                    return (p.clone(), false);
                }
                let p = promise_rejected_with(reason.clone(), ctx);
                *promise = Some(p.clone());
                (p, true)
            }
        }
    }

    /// The JS promise of the slot in `cell` (created on first use), with no borrow held
    /// while user code can run.
    pub fn promise_of(cell: &boa_gc::GcRefCell<Self>, ctx: &mut Context) -> JsObject {
        let (promise, mark) = cell.borrow_mut().promise(ctx);
        if mark {
            mark_as_handled(&promise, ctx);
        }
        promise
    }

    /// "Resolve p with undefined" (no-op unless pending). Returns what must be settled; the
    /// caller settles it with [`SlotSettlement::run`] after releasing its borrow.
    pub fn resolve(&mut self) -> SlotSettlement {
        if !self.is_pending() {
            return SlotSettlement::None;
        }
        let old = std::mem::replace(self, Self::fulfilled());
        let Self::Pending { promise, waiters } = old else {
            return SlotSettlement::None;
        };
        if let (Some(cap), Self::Fulfilled { promise: p }) = (&promise, &mut *self) {
            *p = Some(cap.promise.clone());
        }
        SlotSettlement::Fulfill(promise, waiters)
    }

    /// "Reject p with reason" and set [[PromiseIsHandled]] (no-op unless pending).
    pub fn reject(&mut self, reason: JsValue) -> SlotSettlement {
        if !self.is_pending() {
            return SlotSettlement::None;
        }
        let old = std::mem::replace(self, Self::rejected(reason.clone()));
        let Self::Pending { promise, waiters } = old else {
            return SlotSettlement::None;
        };
        if let (Some(cap), Self::Rejected { promise: p, .. }) = (&promise, &mut *self) {
            *p = Some(cap.promise.clone());
        }
        SlotSettlement::Reject(promise, waiters, reason)
    }

    /// Replace the slot by a new one; Rust waiters of a pending slot move to a new pending one.
    pub fn replace(&mut self, new: Self) {
        let old = std::mem::replace(self, new);
        if let (Self::Pending { waiters: old_w, .. }, Self::Pending { waiters, .. }) = (old, self) {
            waiters.extend(old_w);
        }
    }

    /// Run `waiter` when the slot settles (now, as a microtask, if it already has).
    pub fn add_waiter(&mut self, waiter: NativeCompletion, ctx: &mut Context) {
        match self {
            Self::Pending { waiters, .. } => waiters.push(waiter),
            Self::Fulfilled { .. } => waiter.settle(Ok(()), ctx),
            Self::Rejected { reason, .. } => waiter.settle(Err(reason.clone()), ctx),
        }
    }
}

/// Pending settlement work produced by [`PromiseSlot::resolve`] / [`PromiseSlot::reject`].
#[must_use]
pub enum SlotSettlement {
    None,
    Fulfill(Option<PromiseCapability>, Vec<NativeCompletion>),
    Reject(Option<PromiseCapability>, Vec<NativeCompletion>, JsValue),
}

impl SlotSettlement {
    /// Settle the JS promise (if created) and the Rust waiters, in that order.
    pub fn run(self, ctx: &mut Context) {
        match self {
            Self::None => {}
            Self::Fulfill(cap, waiters) => {
                if let Some(cap) = cap {
                    cap.resolve(JsValue::undefined(), ctx);
                }
                for w in waiters {
                    w.settle(Ok(()), ctx);
                }
            }
            Self::Reject(cap, waiters, reason) => {
                if let Some(cap) = cap {
                    // The promise was marked as handled when it was created (see
                    // `PromiseSlot::promise`): rejecting it runs no user code.
                    cap.reject(reason.clone(), ctx);
                }
                for w in waiters {
                    w.settle(Err(reason.clone()), ctx);
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Sink results and reactions
// ---------------------------------------------------------------------------------------

/// The result of a sink algorithm ("a promise" in the spec): the shared
/// [`Completion`](crate::completion::Completion) (already settled, a JS promise, or a
/// [`RustPromise`](crate::completion::RustPromise)).
pub type SinkResult = crate::completion::Completion;

/// "Upon fulfillment / upon rejection of `result`": run `on_fulfilled` / `on_rejected` in the
/// position a promise reaction would take.
pub(crate) fn upon_settlement<C: Trace + Clone + 'static>(
    result: SinkResult,
    captures: C,
    on_fulfilled: fn(JsValue, &C, &mut Context),
    on_rejected: fn(JsValue, &C, &mut Context),
    ctx: &mut Context,
) {
    result.upon_either(captures, on_fulfilled, on_rejected, ctx);
}

// ---------------------------------------------------------------------------------------
// Sink algorithms
// ---------------------------------------------------------------------------------------

/// A JS underlying sink: the object (callback this value) and its converted members.
#[derive(Debug, Trace, Finalize)]
pub struct JsSink {
    pub sink: JsValue,
    pub start: Option<JsObject>,
    pub write: Option<JsObject>,
    pub close: Option<JsObject>,
    pub abort: Option<JsObject>,
}

/// A sink written in Rust (for embedders). Methods must not assume they are not re-entered:
/// they may run JS.
pub trait NativeSink: Trace + Finalize + 'static {
    /// The start algorithm (may throw: the stream construction then fails).
    fn start(&self, controller: &JsObject, ctx: &mut Context) -> JsResult<SinkResult> {
        let _ = (controller, ctx);
        Ok(SinkResult::undefined())
    }
    /// The write algorithm.
    fn write(&self, chunk: JsValue, controller: &JsObject, ctx: &mut Context) -> SinkResult;
    /// The close algorithm.
    fn close(&self, ctx: &mut Context) -> SinkResult {
        let _ = ctx;
        SinkResult::undefined()
    }
    /// The abort algorithm.
    fn abort(&self, reason: JsValue, ctx: &mut Context) -> SinkResult {
        let _ = (reason, ctx);
        SinkResult::undefined()
    }
}

/// A boxed native sink in a GC box (cheap to clone out before calling it).
#[derive(Trace, Finalize)]
pub struct NativeSinkBox(pub Box<dyn NativeSink>);

/// The controller's sink algorithms.
#[derive(Clone, Trace, Finalize)]
pub enum SinkAlgorithms {
    /// [SetUpWritableStreamDefaultControllerFromUnderlyingSink](https://streams.spec.whatwg.org/#set-up-writable-stream-default-controller-from-underlying-sink)
    Js(Gc<JsSink>),
    /// A TransformStream's writable side (`TransformStreamDefaultSink*Algorithm`); `stream` is
    /// the TransformStream.
    Transform {
        stream: JsObject<crate::transform::TransformStream>,
    },
    /// A sink implemented in Rust.
    Native(Gc<NativeSinkBox>),
}

impl std::fmt::Debug for SinkAlgorithms {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Js(_) => f.write_str("SinkAlgorithms::Js"),
            Self::Transform { .. } => f.write_str("SinkAlgorithms::Transform"),
            Self::Native(_) => f.write_str("SinkAlgorithms::Native"),
        }
    }
}

impl SinkAlgorithms {
    /// A native sink.
    pub fn native(sink: impl NativeSink) -> Self {
        Self::Native(Gc::new(NativeSinkBox(Box::new(sink))))
    }

    /// The start algorithm ("may throw"); its result is "a promise resolved with" the result.
    pub(crate) fn start(&self, controller: &JsObject, ctx: &mut Context) -> JsResult<SinkResult> {
        match self {
            Self::Js(s) => match &s.start {
                // Invoke with « controller », exception behavior "rethrow", this = sink.
                Some(f) => {
                    let v = f.call(&s.sink, &[controller.clone().into()], ctx)?;
                    Ok(completion_resolved_with(v, ctx))
                }
                None => Ok(SinkResult::undefined()),
            },
            // 1. Let startAlgorithm be an algorithm that returns startPromise.
            Self::Transform { stream } => {
                Ok(crate::transform::start_algorithm_for_writable(stream, ctx))
            }
            Self::Native(n) => n.0.start(controller, ctx),
        }
    }

    /// `[[writeAlgorithm]]`.
    pub(crate) fn write(
        &self,
        chunk: JsValue,
        controller: &JsObject,
        ctx: &mut Context,
    ) -> SinkResult {
        match self {
            Self::Js(s) => match &s.write {
                Some(f) => {
                    invoke_promise_callback(f, &s.sink, &[chunk, controller.clone().into()], ctx)
                }
                None => SinkResult::undefined(),
            },
            Self::Transform { stream } => {
                crate::transform::transform_stream_default_sink_write_algorithm(stream, chunk, ctx)
            }
            Self::Native(n) => n.0.write(chunk, controller, ctx),
        }
    }

    /// `[[closeAlgorithm]]`.
    pub(crate) fn close(&self, ctx: &mut Context) -> SinkResult {
        match self {
            Self::Js(s) => match &s.close {
                Some(f) => invoke_promise_callback(f, &s.sink, &[], ctx),
                None => SinkResult::undefined(),
            },
            Self::Transform { stream } => {
                crate::transform::transform_stream_default_sink_close_algorithm(stream, ctx)
            }
            Self::Native(n) => n.0.close(ctx),
        }
    }

    /// `[[abortAlgorithm]]`.
    pub(crate) fn abort(&self, reason: JsValue, ctx: &mut Context) -> SinkResult {
        match self {
            Self::Js(s) => match &s.abort {
                Some(f) => invoke_promise_callback(f, &s.sink, &[reason], ctx),
                None => SinkResult::undefined(),
            },
            Self::Transform { stream } => {
                crate::transform::transform_stream_default_sink_abort_algorithm(stream, reason, ctx)
            }
            Self::Native(n) => n.0.abort(reason, ctx),
        }
    }
}
