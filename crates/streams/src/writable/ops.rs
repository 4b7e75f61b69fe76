//! Internal slots and abstract operations of writable streams (spec §5.5).
//!
//! A `WritableStream` and its `WritableStreamDefaultController` are one-to-one, so their slots
//! live together in one GC box, [`WritableStreamSlots`], shared by both JS objects. A writer's
//! slots are [`WriterSlots`]. Abstract operations take these boxes (`&WritableStreamRef`,
//! `&WriterRef`): no JS object is borrowed while they run, and every `GcRefCell` borrow is
//! released before any call that can run JS.

use std::cell::Cell;
use std::collections::VecDeque;

use boa_engine::{Context, JsNativeError, JsObject, JsResult, JsValue};
use boa_gc::{Finalize, Gc, GcRefCell, Trace};

use super::sink::SinkAlgorithms;
use crate::promise::{
    promise_resolved_with, Completion, PromiseCapability, PromiseSlot, Reaction, Settlement,
};
use crate::queue::QueueWithSizes;
use crate::strategies::SizeAlgorithm;

/// A handle to a writable stream's (and its controller's) internal slots.
pub type WritableStreamRef = Gc<WritableStreamSlots>;
/// A handle to a writer's internal slots.
pub type WriterRef = Gc<WriterSlots>;

/// `[[state]]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WritableStreamState {
    Writable,
    Closed,
    Erroring,
    Errored,
}

/// A [pending abort request](https://streams.spec.whatwg.org/#pending-abort-request).
#[derive(Debug, Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
pub struct PendingAbortRequest {
    /// The promise returned to script (created when a JS caller asks for it).
    pub(crate) promise: Option<PromiseCapability>,
    /// Rust callers waiting for the same outcome.
    pub(crate) natives: Vec<Reaction>,
    pub(crate) reason: JsValue,
    #[unsafe_ignore_trace]
    pub(crate) was_already_erroring: bool,
}

impl PendingAbortRequest {
    /// Settle its promise and the Rust callers waiting for it.
    fn settle(self, settlement: Settlement, ctx: &mut Context) {
        if let Some(cap) = self.promise {
            cap.settle(settlement.clone(), ctx);
        }
        for n in self.natives {
            n.settle(settlement.clone(), ctx);
        }
    }
}

/// The controller's `[[abortController]]`, created lazily: the `AbortSignal` object exists
/// only once script reads `controller.signal`.
// NOTE: before the signal object exists nobody can listen to it, so signalling abort only
// records the reason; the signal is aborted with it when it is created.
#[derive(Debug, Default, Trace, Finalize)]
pub(crate) struct LazyAbortController {
    signal: Option<JsObject>,
    aborted: Option<JsValue>,
}

/// Internal slots of a `WritableStream` and of its `WritableStreamDefaultController`.
#[derive(Trace, Finalize)]
pub struct WritableStreamSlots {
    // --- WritableStream ---
    #[unsafe_ignore_trace]
    backpressure: Cell<bool>,
    close_request: GcRefCell<Option<Reaction>>,
    in_flight_write_request: GcRefCell<Option<Reaction>>,
    in_flight_close_request: GcRefCell<Option<Reaction>>,
    pending_abort_request: GcRefCell<Option<PendingAbortRequest>>,
    #[unsafe_ignore_trace]
    state: Cell<WritableStreamState>,
    stored_error: GcRefCell<JsValue>,
    writer: GcRefCell<Option<WriterRef>>,
    write_requests: GcRefCell<VecDeque<Reaction>>,
    // --- WritableStreamDefaultController ---
    /// The controller's JS object (passed to the sink's start() and write()).
    controller_object: GcRefCell<Option<JsObject>>,
    abort_controller: GcRefCell<LazyAbortController>,
    /// `[[writeAlgorithm]]`, `[[closeAlgorithm]]`, `[[abortAlgorithm]]`; `None` once cleared.
    algorithms: GcRefCell<Option<SinkAlgorithms>>,
    /// `[[queue]]` and `[[queueTotalSize]]` (chunks only).
    queue: GcRefCell<QueueWithSizes>,
    /// The [close sentinel](https://streams.spec.whatwg.org/#close-sentinel) at the end of
    /// `[[queue]]` (size 0; nothing is ever enqueued after it).
    #[unsafe_ignore_trace]
    close_queued: Cell<bool>,
    #[unsafe_ignore_trace]
    started: Cell<bool>,
    #[unsafe_ignore_trace]
    strategy_hwm: Cell<f64>,
    /// `[[strategySizeAlgorithm]]`; `None` once cleared.
    strategy_size_algorithm: GcRefCell<Option<SizeAlgorithm>>,
}

impl std::fmt::Debug for WritableStreamSlots {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WritableStreamSlots")
            .field("state", &self.state.get())
            .finish_non_exhaustive()
    }
}

/// Internal slots of a `WritableStreamDefaultWriter`.
#[derive(Debug, Trace, Finalize)]
pub struct WriterSlots {
    closed_promise: GcRefCell<PromiseSlot>,
    ready_promise: GcRefCell<PromiseSlot>,
    stream: GcRefCell<Option<WritableStreamRef>>,
}

impl WritableStreamSlots {
    /// `[[state]]`.
    pub fn state(&self) -> WritableStreamState {
        self.state.get()
    }

    /// `[[storedError]]`.
    pub fn stored_error(&self) -> JsValue {
        self.stored_error.borrow().clone()
    }

    /// `[[writer]]`.
    pub fn writer(&self) -> Option<WriterRef> {
        self.writer.borrow().clone()
    }

    /// `[[backpressure]]`.
    pub fn backpressure(&self) -> bool {
        self.backpressure.get()
    }

    /// The controller's JS object (undefined before set-up).
    pub fn controller_object(&self) -> JsValue {
        self.controller_object
            .borrow()
            .clone()
            .map_or_else(JsValue::undefined, JsValue::from)
    }

    pub(crate) fn set_controller_object(&self, object: JsObject) {
        *self.controller_object.borrow_mut() = Some(object);
    }
}

impl WriterSlots {
    /// `[[stream]]`.
    pub fn stream(&self) -> Option<WritableStreamRef> {
        self.stream.borrow().clone()
    }

    /// The JS `closed` promise (created on first use).
    pub fn closed_promise(&self, ctx: &mut Context) -> JsObject {
        PromiseSlot::promise_of(&self.closed_promise, ctx)
    }

    /// The JS `ready` promise (created on first use).
    pub fn ready_promise(&self, ctx: &mut Context) -> JsObject {
        PromiseSlot::promise_of(&self.ready_promise, ctx)
    }
}

fn type_error_value(message: &str, ctx: &mut Context) -> JsValue {
    crate::webidl::type_error_value(message, ctx)
}

// ---------------------------------------------------------------------------------------
// Working with writable streams
// ---------------------------------------------------------------------------------------

/// [AcquireWritableStreamDefaultWriter](https://streams.spec.whatwg.org/#acquire-writable-stream-default-writer)
pub fn acquire_writable_stream_default_writer(
    stream: &WritableStreamRef,
    ctx: &mut Context,
) -> JsResult<WriterRef> {
    // 1. Let writer be a new WritableStreamDefaultWriter.
    // 2. Perform ? SetUpWritableStreamDefaultWriter(writer, stream).
    // 3. Return writer.
    set_up_writable_stream_default_writer(stream, ctx)
}

/// [InitializeWritableStream](https://streams.spec.whatwg.org/#initialize-writable-stream):
/// new slots in their initial state.
pub fn initialize_writable_stream() -> WritableStreamRef {
    Gc::new(WritableStreamSlots {
        // 4. Set stream.[[backpressure]] to false.
        backpressure: Cell::new(false),
        // 2. Set stream.[[storedError]], [[writer]], [[controller]], [[inFlightWriteRequest]],
        //    [[closeRequest]], [[inFlightCloseRequest]], [[pendingAbortRequest]] to undefined.
        close_request: GcRefCell::new(None),
        in_flight_write_request: GcRefCell::new(None),
        in_flight_close_request: GcRefCell::new(None),
        pending_abort_request: GcRefCell::new(None),
        // 1. Set stream.[[state]] to "writable".
        state: Cell::new(WritableStreamState::Writable),
        stored_error: GcRefCell::new(JsValue::undefined()),
        writer: GcRefCell::new(None),
        // 3. Set stream.[[writeRequests]] to a new empty list.
        write_requests: GcRefCell::new(VecDeque::new()),
        controller_object: GcRefCell::new(None),
        abort_controller: GcRefCell::new(LazyAbortController::default()),
        algorithms: GcRefCell::new(None),
        queue: GcRefCell::new(QueueWithSizes::new()),
        close_queued: Cell::new(false),
        started: Cell::new(false),
        strategy_hwm: Cell::new(1.0),
        strategy_size_algorithm: GcRefCell::new(None),
    })
}

/// [IsWritableStreamLocked](https://streams.spec.whatwg.org/#is-writable-stream-locked)
pub fn is_writable_stream_locked(stream: &WritableStreamRef) -> bool {
    // 1. If stream.[[writer]] is undefined, return false.
    // 2. Return true.
    stream.writer.borrow().is_some()
}

/// [SetUpWritableStreamDefaultWriter](https://streams.spec.whatwg.org/#set-up-writable-stream-default-writer)
// NOTE: the writer's slots are created here (the spec creates the object first); nothing
// observable happens in between.
pub fn set_up_writable_stream_default_writer(
    stream: &WritableStreamRef,
    _ctx: &mut Context,
) -> JsResult<WriterRef> {
    // 1. If ! IsWritableStreamLocked(stream) is true, throw a TypeError exception.
    if is_writable_stream_locked(stream) {
        return Err(JsNativeError::typ()
            .with_message("WritableStream is already locked to a writer")
            .into());
    }
    let (ready, closed) = match stream.state() {
        // 5. If state is "writable",
        WritableStreamState::Writable => {
            // 1. If ! WritableStreamCloseQueuedOrInFlight(stream) is false and
            //    stream.[[backpressure]] is true, set writer.[[readyPromise]] to a new promise.
            // 2. Otherwise, set writer.[[readyPromise]] to a promise resolved with undefined.
            let ready = if !writable_stream_close_queued_or_in_flight(stream)
                && stream.backpressure.get()
            {
                PromiseSlot::pending()
            } else {
                PromiseSlot::fulfilled()
            };
            // 3. Set writer.[[closedPromise]] to a new promise.
            (ready, PromiseSlot::pending())
        }
        // 6. Otherwise, if state is "erroring",
        WritableStreamState::Erroring => {
            // 1. Set writer.[[readyPromise]] to a promise rejected with stream.[[storedError]].
            // 2. Set writer.[[readyPromise]].[[PromiseIsHandled]] to true.
            // 3. Set writer.[[closedPromise]] to a new promise.
            (
                PromiseSlot::rejected(stream.stored_error()),
                PromiseSlot::pending(),
            )
        }
        // 7. Otherwise, if state is "closed",
        WritableStreamState::Closed => {
            // 1. Set writer.[[readyPromise]] to a promise resolved with undefined.
            // 2. Set writer.[[closedPromise]] to a promise resolved with undefined.
            (PromiseSlot::fulfilled(), PromiseSlot::fulfilled())
        }
        // 8. Otherwise,
        WritableStreamState::Errored => {
            // 1. Assert: state is "errored".
            // 2. Let storedError be stream.[[storedError]].
            let stored_error = stream.stored_error();
            // 3. Set writer.[[readyPromise]] to a promise rejected with storedError.
            // 4. Set writer.[[readyPromise]].[[PromiseIsHandled]] to true.
            // 5. Set writer.[[closedPromise]] to a promise rejected with storedError.
            // 6. Set writer.[[closedPromise]].[[PromiseIsHandled]] to true.
            (
                PromiseSlot::rejected(stored_error.clone()),
                PromiseSlot::rejected(stored_error),
            )
        }
    };
    // 2. Set writer.[[stream]] to stream.
    let writer = Gc::new(WriterSlots {
        closed_promise: GcRefCell::new(closed),
        ready_promise: GcRefCell::new(ready),
        stream: GcRefCell::new(Some(stream.clone())),
    });
    // 3. Set stream.[[writer]] to writer.
    *stream.writer.borrow_mut() = Some(writer.clone());
    Ok(writer)
}

/// Who waits for the outcome of [`writable_stream_abort`].
#[derive(Debug)]
pub enum AbortWaiter {
    /// Script: the call returns the (possibly shared) JS promise.
    Js,
    /// Rust: the completion is settled with the outcome; no JS promise is allocated.
    Native(Reaction),
}

fn abort_resolved(waiter: AbortWaiter, ctx: &mut Context) -> Option<JsObject> {
    match waiter {
        AbortWaiter::Js => Some(promise_resolved_with(JsValue::undefined(), ctx)),
        AbortWaiter::Native(n) => {
            n.settle(Ok(JsValue::undefined()), ctx);
            None
        }
    }
}

/// [WritableStreamAbort](https://streams.spec.whatwg.org/#writable-stream-abort)
///
/// Returns the JS promise for [`AbortWaiter::Js`], `None` for [`AbortWaiter::Native`].
/// Runs user code (abort listeners of `controller.signal`).
pub fn writable_stream_abort(
    stream: &WritableStreamRef,
    reason: JsValue,
    waiter: AbortWaiter,
    ctx: &mut Context,
) -> Option<JsObject> {
    // 1. If stream.[[state]] is "closed" or "errored", return a promise resolved with undefined.
    if matches!(
        stream.state(),
        WritableStreamState::Closed | WritableStreamState::Errored
    ) {
        return abort_resolved(waiter, ctx);
    }
    // 2. Signal abort on stream.[[controller]].[[abortController]] with reason.
    signal_abort_controller(stream, reason.clone(), ctx);
    // 3. Let state be stream.[[state]].
    let state = stream.state();
    // 4. If state is "closed" or "errored", return a promise resolved with undefined.
    if matches!(
        state,
        WritableStreamState::Closed | WritableStreamState::Errored
    ) {
        return abort_resolved(waiter, ctx);
    }
    // 5. If stream.[[pendingAbortRequest]] is not undefined, return
    //    stream.[[pendingAbortRequest]]'s promise.
    {
        let mut pending = stream.pending_abort_request.borrow_mut();
        if let Some(request) = pending.as_mut() {
            return match waiter {
                AbortWaiter::Js => Some(
                    request
                        .promise
                        .get_or_insert_with(|| PromiseCapability::new(ctx))
                        .promise
                        .clone(),
                ),
                AbortWaiter::Native(n) => {
                    request.natives.push(n);
                    None
                }
            };
        }
    }
    // 6. Assert: state is "writable" or "erroring".
    // 7. Let wasAlreadyErroring be false.
    // 8. If state is "erroring",
    //    1. Set wasAlreadyErroring to true.
    //    2. Set reason to undefined.
    let was_already_erroring = state == WritableStreamState::Erroring;
    let reason = if was_already_erroring {
        JsValue::undefined()
    } else {
        reason
    };
    // 9. Let promise be a new promise.
    let (promise, natives, result) = match waiter {
        AbortWaiter::Js => {
            let cap = PromiseCapability::new(ctx);
            let p = cap.promise.clone();
            (Some(cap), Vec::new(), Some(p))
        }
        AbortWaiter::Native(n) => (None, vec![n], None),
    };
    // 10. Set stream.[[pendingAbortRequest]] to a new pending abort request whose promise is
    //     promise, reason is reason, and was already erroring is wasAlreadyErroring.
    *stream.pending_abort_request.borrow_mut() = Some(PendingAbortRequest {
        promise,
        natives,
        reason: reason.clone(),
        was_already_erroring,
    });
    // 11. If wasAlreadyErroring is false, perform ! WritableStreamStartErroring(stream, reason).
    if !was_already_erroring {
        writable_stream_start_erroring(stream, reason, ctx);
    }
    // 12. Return promise.
    result
}

/// "Signal abort" on the controller's `[[abortController]]` (may run abort listeners).
fn signal_abort_controller(stream: &WritableStreamRef, reason: JsValue, ctx: &mut Context) {
    let signal = {
        let mut ac = stream.abort_controller.borrow_mut();
        match &ac.signal {
            Some(s) => s.clone(),
            None => {
                // Signal abort on an aborted signal does nothing.
                if ac.aborted.is_none() {
                    ac.aborted = Some(reason);
                }
                return;
            }
        }
    };
    // NOTE: exceptions from abort listeners are reported by the event dispatch, not rethrown.
    let _ = crate::dom::signal_abort(&signal, reason, ctx);
}

/// The controller's `signal`: the `[[abortController]]`'s signal (created on first use).
pub fn writable_stream_controller_signal(
    stream: &WritableStreamRef,
    ctx: &mut Context,
) -> JsResult<JsObject> {
    let (existing, aborted) = {
        let ac = stream.abort_controller.borrow();
        (ac.signal.clone(), ac.aborted.clone())
    };
    if let Some(s) = existing {
        return Ok(s);
    }
    let signal = crate::dom::create_abort_signal(ctx)?;
    stream.abort_controller.borrow_mut().signal = Some(signal.clone());
    if let Some(reason) = aborted {
        // No listener can exist yet: this runs no user code.
        crate::dom::signal_abort(&signal, reason, ctx)?;
    }
    Ok(signal)
}

/// [WritableStreamClose](https://streams.spec.whatwg.org/#writable-stream-close)
pub fn writable_stream_close(stream: &WritableStreamRef, completion: Reaction, ctx: &mut Context) {
    // 1. Let state be stream.[[state]].
    let state = stream.state();
    // 2. If state is "closed" or "errored", return a promise rejected with a TypeError exception.
    if matches!(
        state,
        WritableStreamState::Closed | WritableStreamState::Errored
    ) {
        let e = type_error_value("The stream is closed or errored", ctx);
        completion.settle(Err(e), ctx);
        return;
    }
    // 3. Assert: state is "writable" or "erroring".
    // 4. Assert: ! WritableStreamCloseQueuedOrInFlight(stream) is false.
    // 5. Let promise be a new promise.
    // 6. Set stream.[[closeRequest]] to promise.
    *stream.close_request.borrow_mut() = Some(completion);
    // 7. Let writer be stream.[[writer]].
    // 8. If writer is not undefined, and stream.[[backpressure]] is true, and state is
    //    "writable", resolve writer.[[readyPromise]] with undefined.
    if let Some(writer) = stream.writer() {
        if stream.backpressure.get() && state == WritableStreamState::Writable {
            PromiseSlot::resolve_in(&writer.ready_promise, ctx);
        }
    }
    // 9. Perform ! WritableStreamDefaultControllerClose(stream.[[controller]]).
    writable_stream_default_controller_close(stream, ctx);
    // 10. Return promise.
}

// ---------------------------------------------------------------------------------------
// Interfacing with controllers
// ---------------------------------------------------------------------------------------

/// [WritableStreamAddWriteRequest](https://streams.spec.whatwg.org/#writable-stream-add-write-request)
pub fn writable_stream_add_write_request(stream: &WritableStreamRef, completion: Reaction) {
    // 1. Assert: ! IsWritableStreamLocked(stream) is true.
    // 2. Assert: stream.[[state]] is "writable".
    // 3. Let promise be a new promise.
    // 4. Append promise to stream.[[writeRequests]].
    stream.write_requests.borrow_mut().push_back(completion);
    // 5. Return promise.
}

/// [WritableStreamCloseQueuedOrInFlight](https://streams.spec.whatwg.org/#writable-stream-close-queued-or-in-flight)
pub fn writable_stream_close_queued_or_in_flight(stream: &WritableStreamRef) -> bool {
    // 1. If stream.[[closeRequest]] is undefined and stream.[[inFlightCloseRequest]] is
    //    undefined, return false.
    // 2. Return true.
    stream.close_request.borrow().is_some() || stream.in_flight_close_request.borrow().is_some()
}

/// [WritableStreamDealWithRejection](https://streams.spec.whatwg.org/#writable-stream-deal-with-rejection)
pub fn writable_stream_deal_with_rejection(
    stream: &WritableStreamRef,
    error: JsValue,
    ctx: &mut Context,
) {
    // 1. Let state be stream.[[state]].
    // 2. If state is "writable",
    if stream.state() == WritableStreamState::Writable {
        // 1. Perform ! WritableStreamStartErroring(stream, error).
        // 2. Return.
        writable_stream_start_erroring(stream, error, ctx);
        return;
    }
    // 3. Assert: state is "erroring".
    // 4. Perform ! WritableStreamFinishErroring(stream).
    writable_stream_finish_erroring(stream, ctx);
}

/// [WritableStreamFinishErroring](https://streams.spec.whatwg.org/#writable-stream-finish-erroring)
pub fn writable_stream_finish_erroring(stream: &WritableStreamRef, ctx: &mut Context) {
    // 1. Assert: stream.[[state]] is "erroring".
    // 2. Assert: ! WritableStreamHasOperationMarkedInFlight(stream) is false.
    // 3. Set stream.[[state]] to "errored".
    stream.state.set(WritableStreamState::Errored);
    // 4. Perform ! stream.[[controller]].[[ErrorSteps]]().
    writable_stream_default_controller_error_steps(stream);
    // 5. Let storedError be stream.[[storedError]].
    let stored_error = stream.stored_error();
    // 6. For each writeRequest of stream.[[writeRequests]]:
    //    1. Reject writeRequest with storedError.
    // 7. Set stream.[[writeRequests]] to an empty list.
    let requests = std::mem::take(&mut *stream.write_requests.borrow_mut());
    for request in requests {
        request.settle(Err(stored_error.clone()), ctx);
    }
    // 8. If stream.[[pendingAbortRequest]] is undefined,
    //    1. Perform ! WritableStreamRejectCloseAndClosedPromiseIfNeeded(stream).
    //    2. Return.
    // 9. Let abortRequest be stream.[[pendingAbortRequest]].
    // 10. Set stream.[[pendingAbortRequest]] to undefined.
    let abort_request = stream.pending_abort_request.borrow_mut().take();
    let Some(abort_request) = abort_request else {
        writable_stream_reject_close_and_closed_promise_if_needed(stream, ctx);
        return;
    };
    // 11. If abortRequest's was already erroring is true,
    if abort_request.was_already_erroring {
        // 1. Reject abortRequest's promise with storedError.
        abort_request.settle(Err(stored_error), ctx);
        // 2. Perform ! WritableStreamRejectCloseAndClosedPromiseIfNeeded(stream).
        // 3. Return.
        writable_stream_reject_close_and_closed_promise_if_needed(stream, ctx);
        return;
    }
    // 12. Let promise be ! stream.[[controller]].[[AbortSteps]](abortRequest's reason).
    let promise =
        writable_stream_default_controller_abort_steps(stream, abort_request.reason.clone(), ctx);
    // The request is settled by exactly one of the two reactions.
    let abort_request = Gc::new(GcRefCell::new(Some(abort_request)));
    Completion::upon_either(
        promise,
        (stream.clone(), abort_request),
        // 13. Upon fulfillment of promise,
        |_, (stream, abort_request), ctx| {
            // 1. Resolve abortRequest's promise with undefined.
            let request = abort_request.borrow_mut().take();
            if let Some(request) = request {
                request.settle(Ok(JsValue::undefined()), ctx);
            }
            // 2. Perform ! WritableStreamRejectCloseAndClosedPromiseIfNeeded(stream).
            writable_stream_reject_close_and_closed_promise_if_needed(stream, ctx);
        },
        // 14. Upon rejection of promise with reason reason,
        |reason, (stream, abort_request), ctx| {
            // 1. Reject abortRequest's promise with reason.
            let request = abort_request.borrow_mut().take();
            if let Some(request) = request {
                request.settle(Err(reason), ctx);
            }
            // 2. Perform ! WritableStreamRejectCloseAndClosedPromiseIfNeeded(stream).
            writable_stream_reject_close_and_closed_promise_if_needed(stream, ctx);
        },
        ctx,
    );
}

/// [WritableStreamFinishInFlightClose](https://streams.spec.whatwg.org/#writable-stream-finish-in-flight-close)
pub fn writable_stream_finish_in_flight_close(stream: &WritableStreamRef, ctx: &mut Context) {
    // 1. Assert: stream.[[inFlightCloseRequest]] is not undefined.
    // 2. Resolve stream.[[inFlightCloseRequest]] with undefined.
    // 3. Set stream.[[inFlightCloseRequest]] to undefined.
    let request = stream.in_flight_close_request.borrow_mut().take();
    if let Some(request) = request {
        request.settle(Ok(JsValue::undefined()), ctx);
    }
    // 4. Let state be stream.[[state]].
    // 5. Assert: stream.[[state]] is "writable" or "erroring".
    // 6. If state is "erroring",
    if stream.state() == WritableStreamState::Erroring {
        // 1. Set stream.[[storedError]] to undefined.
        *stream.stored_error.borrow_mut() = JsValue::undefined();
        // 2. If stream.[[pendingAbortRequest]] is not undefined,
        //    1. Resolve stream.[[pendingAbortRequest]]'s promise with undefined.
        //    2. Set stream.[[pendingAbortRequest]] to undefined.
        let abort_request = stream.pending_abort_request.borrow_mut().take();
        if let Some(abort_request) = abort_request {
            abort_request.settle(Ok(JsValue::undefined()), ctx);
        }
    }
    // 7. Set stream.[[state]] to "closed".
    stream.state.set(WritableStreamState::Closed);
    // 8. Let writer be stream.[[writer]].
    // 9. If writer is not undefined, resolve writer.[[closedPromise]] with undefined.
    if let Some(writer) = stream.writer() {
        PromiseSlot::resolve_in(&writer.closed_promise, ctx);
    }
    // 10. Assert: stream.[[pendingAbortRequest]] is undefined.
    // 11. Assert: stream.[[storedError]] is undefined.
}

/// [WritableStreamFinishInFlightCloseWithError](https://streams.spec.whatwg.org/#writable-stream-finish-in-flight-close-with-error)
pub fn writable_stream_finish_in_flight_close_with_error(
    stream: &WritableStreamRef,
    error: JsValue,
    ctx: &mut Context,
) {
    // 1. Assert: stream.[[inFlightCloseRequest]] is not undefined.
    // 2. Reject stream.[[inFlightCloseRequest]] with error.
    // 3. Set stream.[[inFlightCloseRequest]] to undefined.
    let request = stream.in_flight_close_request.borrow_mut().take();
    if let Some(request) = request {
        request.settle(Err(error.clone()), ctx);
    }
    // 4. Assert: stream.[[state]] is "writable" or "erroring".
    // 5. If stream.[[pendingAbortRequest]] is not undefined,
    //    1. Reject stream.[[pendingAbortRequest]]'s promise with error.
    //    2. Set stream.[[pendingAbortRequest]] to undefined.
    let abort_request = stream.pending_abort_request.borrow_mut().take();
    if let Some(abort_request) = abort_request {
        abort_request.settle(Err(error.clone()), ctx);
    }
    // 6. Perform ! WritableStreamDealWithRejection(stream, error).
    writable_stream_deal_with_rejection(stream, error, ctx);
}

/// [WritableStreamFinishInFlightWrite](https://streams.spec.whatwg.org/#writable-stream-finish-in-flight-write)
pub fn writable_stream_finish_in_flight_write(stream: &WritableStreamRef, ctx: &mut Context) {
    // 1. Assert: stream.[[inFlightWriteRequest]] is not undefined.
    // 2. Resolve stream.[[inFlightWriteRequest]] with undefined.
    // 3. Set stream.[[inFlightWriteRequest]] to undefined.
    let request = stream.in_flight_write_request.borrow_mut().take();
    if let Some(request) = request {
        request.settle(Ok(JsValue::undefined()), ctx);
    }
}

/// [WritableStreamFinishInFlightWriteWithError](https://streams.spec.whatwg.org/#writable-stream-finish-in-flight-write-with-error)
pub fn writable_stream_finish_in_flight_write_with_error(
    stream: &WritableStreamRef,
    error: JsValue,
    ctx: &mut Context,
) {
    // 1. Assert: stream.[[inFlightWriteRequest]] is not undefined.
    // 2. Reject stream.[[inFlightWriteRequest]] with error.
    // 3. Set stream.[[inFlightWriteRequest]] to undefined.
    let request = stream.in_flight_write_request.borrow_mut().take();
    if let Some(request) = request {
        request.settle(Err(error.clone()), ctx);
    }
    // 4. Assert: stream.[[state]] is "writable" or "erroring".
    // 5. Perform ! WritableStreamDealWithRejection(stream, error).
    writable_stream_deal_with_rejection(stream, error, ctx);
}

/// [WritableStreamHasOperationMarkedInFlight](https://streams.spec.whatwg.org/#writable-stream-has-operation-marked-in-flight)
pub fn writable_stream_has_operation_marked_in_flight(stream: &WritableStreamRef) -> bool {
    // 1. If stream.[[inFlightWriteRequest]] is undefined and stream.[[inFlightCloseRequest]]
    //    is undefined, return false.
    // 2. Return true.
    stream.in_flight_write_request.borrow().is_some()
        || stream.in_flight_close_request.borrow().is_some()
}

/// [WritableStreamMarkCloseRequestInFlight](https://streams.spec.whatwg.org/#writable-stream-mark-close-request-in-flight)
pub fn writable_stream_mark_close_request_in_flight(stream: &WritableStreamRef) {
    // 1. Assert: stream.[[inFlightCloseRequest]] is undefined.
    // 2. Assert: stream.[[closeRequest]] is not undefined.
    // 3. Set stream.[[inFlightCloseRequest]] to stream.[[closeRequest]].
    // 4. Set stream.[[closeRequest]] to undefined.
    let request = stream.close_request.borrow_mut().take();
    *stream.in_flight_close_request.borrow_mut() = request;
}

/// [WritableStreamMarkFirstWriteRequestInFlight](https://streams.spec.whatwg.org/#writable-stream-mark-first-write-request-in-flight)
pub fn writable_stream_mark_first_write_request_in_flight(stream: &WritableStreamRef) {
    // 1. Assert: stream.[[inFlightWriteRequest]] is undefined.
    // 2. Assert: stream.[[writeRequests]] is not empty.
    // 3. Let writeRequest be stream.[[writeRequests]][0].
    // 4. Remove writeRequest from stream.[[writeRequests]].
    let request = stream.write_requests.borrow_mut().pop_front();
    // 5. Set stream.[[inFlightWriteRequest]] to writeRequest.
    *stream.in_flight_write_request.borrow_mut() = request;
}

/// [WritableStreamRejectCloseAndClosedPromiseIfNeeded](https://streams.spec.whatwg.org/#writable-stream-reject-close-and-closed-promise-if-needed)
pub fn writable_stream_reject_close_and_closed_promise_if_needed(
    stream: &WritableStreamRef,
    ctx: &mut Context,
) {
    // 1. Assert: stream.[[state]] is "errored".
    let stored_error = stream.stored_error();
    // 2. If stream.[[closeRequest]] is not undefined,
    //    1. Assert: stream.[[inFlightCloseRequest]] is undefined.
    //    2. Reject stream.[[closeRequest]] with stream.[[storedError]].
    //    3. Set stream.[[closeRequest]] to undefined.
    let close_request = stream.close_request.borrow_mut().take();
    if let Some(request) = close_request {
        request.settle(Err(stored_error.clone()), ctx);
    }
    // 3. Let writer be stream.[[writer]].
    // 4. If writer is not undefined,
    //    1. Reject writer.[[closedPromise]] with stream.[[storedError]].
    //    2. Set writer.[[closedPromise]].[[PromiseIsHandled]] to true.
    if let Some(writer) = stream.writer() {
        PromiseSlot::settle_in(&writer.closed_promise, Err(stored_error), ctx);
    }
}

/// [WritableStreamStartErroring](https://streams.spec.whatwg.org/#writable-stream-start-erroring)
pub fn writable_stream_start_erroring(
    stream: &WritableStreamRef,
    reason: JsValue,
    ctx: &mut Context,
) {
    // 1. Assert: stream.[[storedError]] is undefined.
    // 2. Assert: stream.[[state]] is "writable".
    // 3. Let controller be stream.[[controller]].
    // 4. Assert: controller is not undefined.
    // 5. Set stream.[[state]] to "erroring".
    stream.state.set(WritableStreamState::Erroring);
    // 6. Set stream.[[storedError]] to reason.
    *stream.stored_error.borrow_mut() = reason.clone();
    // 7. Let writer be stream.[[writer]].
    // 8. If writer is not undefined, perform !
    //    WritableStreamDefaultWriterEnsureReadyPromiseRejected(writer, reason).
    if let Some(writer) = stream.writer() {
        writable_stream_default_writer_ensure_ready_promise_rejected(&writer, reason, ctx);
    }
    // 9. If ! WritableStreamHasOperationMarkedInFlight(stream) is false and
    //    controller.[[started]] is true, perform ! WritableStreamFinishErroring(stream).
    if !writable_stream_has_operation_marked_in_flight(stream) && stream.started.get() {
        writable_stream_finish_erroring(stream, ctx);
    }
}

/// [WritableStreamUpdateBackpressure](https://streams.spec.whatwg.org/#writable-stream-update-backpressure)
pub fn writable_stream_update_backpressure(
    stream: &WritableStreamRef,
    backpressure: bool,
    ctx: &mut Context,
) {
    // 1. Assert: stream.[[state]] is "writable".
    // 2. Assert: ! WritableStreamCloseQueuedOrInFlight(stream) is false.
    // 3. Let writer be stream.[[writer]].
    // 4. If writer is not undefined and backpressure is not stream.[[backpressure]],
    if let Some(writer) = stream.writer() {
        if backpressure != stream.backpressure.get() {
            if backpressure {
                // 1. If backpressure is true, set writer.[[readyPromise]] to a new promise.
                writer
                    .ready_promise
                    .borrow_mut()
                    .replace(PromiseSlot::pending());
            } else {
                // 2. Otherwise,
                //    1. Assert: backpressure is false.
                //    2. Resolve writer.[[readyPromise]] with undefined.
                PromiseSlot::resolve_in(&writer.ready_promise, ctx);
            }
        }
    }
    // 5. Set stream.[[backpressure]] to backpressure.
    stream.backpressure.set(backpressure);
}

// ---------------------------------------------------------------------------------------
// Writers
// ---------------------------------------------------------------------------------------

/// [WritableStreamDefaultWriterAbort](https://streams.spec.whatwg.org/#writable-stream-default-writer-abort)
pub fn writable_stream_default_writer_abort(
    writer: &WriterRef,
    reason: JsValue,
    waiter: AbortWaiter,
    ctx: &mut Context,
) -> Option<JsObject> {
    // 1. Let stream be writer.[[stream]].
    // 2. Assert: stream is not undefined.
    let Some(stream) = writer.stream() else {
        return abort_resolved(waiter, ctx);
    };
    // 3. Return ! WritableStreamAbort(stream, reason).
    writable_stream_abort(&stream, reason, waiter, ctx)
}

/// [WritableStreamDefaultWriterClose](https://streams.spec.whatwg.org/#writable-stream-default-writer-close)
pub fn writable_stream_default_writer_close(
    writer: &WriterRef,
    completion: Reaction,
    ctx: &mut Context,
) {
    // 1. Let stream be writer.[[stream]].
    // 2. Assert: stream is not undefined.
    let Some(stream) = writer.stream() else {
        let e = type_error_value("The writer has been released", ctx);
        completion.settle(Err(e), ctx);
        return;
    };
    // 3. Return ! WritableStreamClose(stream).
    writable_stream_close(&stream, completion, ctx);
}

/// [WritableStreamDefaultWriterCloseWithErrorPropagation](https://streams.spec.whatwg.org/#writable-stream-default-writer-close-with-error-propagation)
pub fn writable_stream_default_writer_close_with_error_propagation(
    writer: &WriterRef,
    completion: Reaction,
    ctx: &mut Context,
) {
    // 1. Let stream be writer.[[stream]].
    // 2. Assert: stream is not undefined.
    let Some(stream) = writer.stream() else {
        let e = type_error_value("The writer has been released", ctx);
        completion.settle(Err(e), ctx);
        return;
    };
    // 3. Let state be stream.[[state]].
    let state = stream.state();
    // 4. If ! WritableStreamCloseQueuedOrInFlight(stream) is true or state is "closed", return
    //    a promise resolved with undefined.
    if writable_stream_close_queued_or_in_flight(&stream) || state == WritableStreamState::Closed {
        completion.settle(Ok(JsValue::undefined()), ctx);
        return;
    }
    // 5. If state is "errored", return a promise rejected with stream.[[storedError]].
    if state == WritableStreamState::Errored {
        completion.settle(Err(stream.stored_error()), ctx);
        return;
    }
    // 6. Assert: state is "writable" or "erroring".
    // 7. Return ! WritableStreamDefaultWriterClose(writer).
    writable_stream_default_writer_close(writer, completion, ctx);
}

/// [WritableStreamDefaultWriterEnsureClosedPromiseRejected](https://streams.spec.whatwg.org/#writable-stream-default-writer-ensure-closed-promise-rejected)
pub fn writable_stream_default_writer_ensure_closed_promise_rejected(
    writer: &WriterRef,
    error: JsValue,
    ctx: &mut Context,
) {
    // 1. If writer.[[closedPromise]].[[PromiseState]] is "pending", reject
    //    writer.[[closedPromise]] with error.
    // 2. Otherwise, set writer.[[closedPromise]] to a promise rejected with error.
    // 3. Set writer.[[closedPromise]].[[PromiseIsHandled]] to true.
    PromiseSlot::ensure_rejected_in(&writer.closed_promise, error, ctx);
}

/// [WritableStreamDefaultWriterEnsureReadyPromiseRejected](https://streams.spec.whatwg.org/#writable-stream-default-writer-ensure-ready-promise-rejected)
pub fn writable_stream_default_writer_ensure_ready_promise_rejected(
    writer: &WriterRef,
    error: JsValue,
    ctx: &mut Context,
) {
    // 1. If writer.[[readyPromise]].[[PromiseState]] is "pending", reject
    //    writer.[[readyPromise]] with error.
    // 2. Otherwise, set writer.[[readyPromise]] to a promise rejected with error.
    // 3. Set writer.[[readyPromise]].[[PromiseIsHandled]] to true.
    PromiseSlot::ensure_rejected_in(&writer.ready_promise, error, ctx);
}

/// [WritableStreamDefaultWriterGetDesiredSize](https://streams.spec.whatwg.org/#writable-stream-default-writer-get-desired-size)
///
/// `None` is null. The writer must have a stream (else `None`).
pub fn writable_stream_default_writer_get_desired_size(writer: &WriterRef) -> Option<f64> {
    // 1. Let stream be writer.[[stream]].
    let stream = writer.stream()?;
    // 2. Let state be stream.[[state]].
    match stream.state() {
        // 3. If state is "errored" or "erroring", return null.
        WritableStreamState::Errored | WritableStreamState::Erroring => None,
        // 4. If state is "closed", return 0.
        WritableStreamState::Closed => Some(0.0),
        // 5. Return ! WritableStreamDefaultControllerGetDesiredSize(stream.[[controller]]).
        WritableStreamState::Writable => {
            Some(writable_stream_default_controller_get_desired_size(&stream))
        }
    }
}

/// The writer's `[[readyPromise]]` settlement, from Rust (`None` while pending).
pub fn writable_stream_default_writer_ready_state(writer: &WriterRef) -> Option<Settlement> {
    writer.ready_promise.borrow().settlement()
}

/// The writer's `[[closedPromise]]` settlement, from Rust (`None` while pending).
pub fn writable_stream_default_writer_closed_state(writer: &WriterRef) -> Option<Settlement> {
    writer.closed_promise.borrow().settlement()
}

/// Run `waiter` when the writer's current `[[readyPromise]]` settles (as a reaction to it
/// would); no JS promise is allocated.
pub fn writable_stream_default_writer_upon_ready(
    writer: &WriterRef,
    waiter: Reaction,
    ctx: &mut Context,
) {
    PromiseSlot::react_in(&writer.ready_promise, waiter, ctx);
}

/// Run `waiter` when the writer's current `[[closedPromise]]` settles.
pub fn writable_stream_default_writer_upon_closed(
    writer: &WriterRef,
    waiter: Reaction,
    ctx: &mut Context,
) {
    PromiseSlot::react_in(&writer.closed_promise, waiter, ctx);
}

/// [WritableStreamDefaultWriterRelease](https://streams.spec.whatwg.org/#writable-stream-default-writer-release)
pub fn writable_stream_default_writer_release(writer: &WriterRef, ctx: &mut Context) {
    // 1. Let stream be writer.[[stream]].
    // 2. Assert: stream is not undefined.
    let Some(stream) = writer.stream() else {
        return;
    };
    // 3. Assert: stream.[[writer]] is writer.
    // 4. Let releasedError be a new TypeError.
    let released_error = type_error_value("The writer's lock was released", ctx);
    // 5. Perform ! WritableStreamDefaultWriterEnsureReadyPromiseRejected(writer, releasedError).
    writable_stream_default_writer_ensure_ready_promise_rejected(
        writer,
        released_error.clone(),
        ctx,
    );
    // 6. Perform ! WritableStreamDefaultWriterEnsureClosedPromiseRejected(writer, releasedError).
    writable_stream_default_writer_ensure_closed_promise_rejected(writer, released_error, ctx);
    // 7. Set stream.[[writer]] to undefined.
    *stream.writer.borrow_mut() = None;
    // 8. Set writer.[[stream]] to undefined.
    *writer.stream.borrow_mut() = None;
}

/// [WritableStreamDefaultWriterWrite](https://streams.spec.whatwg.org/#writable-stream-default-writer-write)
///
/// Runs user code (the strategy's `size()`).
pub fn writable_stream_default_writer_write(
    writer: &WriterRef,
    chunk: JsValue,
    completion: Reaction,
    ctx: &mut Context,
) {
    // 1. Let stream be writer.[[stream]].
    // 2. Assert: stream is not undefined.
    let Some(stream) = writer.stream() else {
        let e = type_error_value("The writer has been released", ctx);
        completion.settle(Err(e), ctx);
        return;
    };
    // 3. Let controller be stream.[[controller]].
    // 4. Let chunkSize be ! WritableStreamDefaultControllerGetChunkSize(controller, chunk).
    let chunk_size = writable_stream_default_controller_get_chunk_size(&stream, &chunk, ctx);
    // 5. If stream is not equal to writer.[[stream]], return a promise rejected with a
    //    TypeError exception.
    let same = writer
        .stream
        .borrow()
        .as_ref()
        .is_some_and(|s| Gc::ptr_eq(s, &stream));
    if !same {
        let e = type_error_value("The writer's lock was released during size()", ctx);
        completion.settle(Err(e), ctx);
        return;
    }
    // 6. Let state be stream.[[state]].
    let state = stream.state();
    // 7. If state is "errored", return a promise rejected with stream.[[storedError]].
    if state == WritableStreamState::Errored {
        completion.settle(Err(stream.stored_error()), ctx);
        return;
    }
    // 8. If ! WritableStreamCloseQueuedOrInFlight(stream) is true or state is "closed", return
    //    a promise rejected with a TypeError exception indicating that the stream is closing
    //    or closed.
    if writable_stream_close_queued_or_in_flight(&stream) || state == WritableStreamState::Closed {
        let e = type_error_value("The stream is closing or closed", ctx);
        completion.settle(Err(e), ctx);
        return;
    }
    // 9. If state is "erroring", return a promise rejected with stream.[[storedError]].
    if state == WritableStreamState::Erroring {
        completion.settle(Err(stream.stored_error()), ctx);
        return;
    }
    // 10. Assert: state is "writable".
    // 11. Let promise be ! WritableStreamAddWriteRequest(stream).
    writable_stream_add_write_request(&stream, completion);
    // 12. Perform ! WritableStreamDefaultControllerWrite(controller, chunk, chunkSize).
    writable_stream_default_controller_write(&stream, chunk, chunk_size, ctx);
    // 13. Return promise.
}

// ---------------------------------------------------------------------------------------
// Default controllers
// ---------------------------------------------------------------------------------------

/// [[[AbortSteps]]](https://streams.spec.whatwg.org/#ws-default-controller-private-abort)
pub fn writable_stream_default_controller_abort_steps(
    stream: &WritableStreamRef,
    reason: JsValue,
    ctx: &mut Context,
) -> Completion {
    // 1. Let result be the result of performing this.[[abortAlgorithm]], passing reason.
    let algorithms = stream.algorithms.borrow().clone();
    // NOTE: the algorithms are never cleared before [[AbortSteps]] runs; if they were, the
    // cleared algorithm is treated as "a promise resolved with undefined".
    let result = match algorithms {
        Some(a) => a.abort(reason, ctx),
        None => Completion::undefined(),
    };
    // 2. Perform ! WritableStreamDefaultControllerClearAlgorithms(this).
    writable_stream_default_controller_clear_algorithms(stream);
    // 3. Return result.
    result
}

/// [[[ErrorSteps]]](https://streams.spec.whatwg.org/#ws-default-controller-private-error)
pub fn writable_stream_default_controller_error_steps(stream: &WritableStreamRef) {
    // 1. Perform ! ResetQueue(this).
    stream.queue.borrow_mut().reset_queue();
    stream.close_queued.set(false);
}

/// [SetUpWritableStreamDefaultController](https://streams.spec.whatwg.org/#set-up-writable-stream-default-controller)
///
/// `controller` is the controller's JS object (its data must share `stream`'s slots).
/// Throws if and only if the start algorithm throws.
pub fn set_up_writable_stream_default_controller(
    stream: &WritableStreamRef,
    controller: JsObject,
    algorithms: SinkAlgorithms,
    high_water_mark: f64,
    size_algorithm: SizeAlgorithm,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. Assert: stream implements WritableStream.
    // 2. Assert: stream.[[controller]] is undefined.
    // 3. Set controller.[[stream]] to stream.
    // 4. Set stream.[[controller]] to controller.
    stream.set_controller_object(controller.clone());
    // 5. Perform ! ResetQueue(controller).
    stream.queue.borrow_mut().reset_queue();
    stream.close_queued.set(false);
    // 6. Set controller.[[abortController]] to a new AbortController.
    *stream.abort_controller.borrow_mut() = LazyAbortController::default();
    // 7. Set controller.[[started]] to false.
    stream.started.set(false);
    // 8. Set controller.[[strategySizeAlgorithm]] to sizeAlgorithm.
    *stream.strategy_size_algorithm.borrow_mut() = Some(size_algorithm);
    // 9. Set controller.[[strategyHWM]] to highWaterMark.
    stream.strategy_hwm.set(high_water_mark);
    // 10. Set controller.[[writeAlgorithm]] to writeAlgorithm.
    // 11. Set controller.[[closeAlgorithm]] to closeAlgorithm.
    // 12. Set controller.[[abortAlgorithm]] to abortAlgorithm.
    *stream.algorithms.borrow_mut() = Some(algorithms.clone());
    // 13. Let backpressure be ! WritableStreamDefaultControllerGetBackpressure(controller).
    let backpressure = writable_stream_default_controller_get_backpressure(stream);
    // 14. Perform ! WritableStreamUpdateBackpressure(stream, backpressure).
    writable_stream_update_backpressure(stream, backpressure, ctx);
    // 15. Let startResult be the result of performing startAlgorithm. (This may throw an
    //     exception.)
    // 16. Let startPromise be a promise resolved with startResult.
    let start_promise = algorithms.start(&controller, ctx)?;
    Completion::upon_either(
        start_promise,
        stream.clone(),
        // 17. Upon fulfillment of startPromise,
        |_, stream, ctx| {
            // 1. Assert: stream.[[state]] is "writable" or "erroring".
            // 2. Set controller.[[started]] to true.
            stream.started.set(true);
            // 3. Perform ! WritableStreamDefaultControllerAdvanceQueueIfNeeded(controller).
            writable_stream_default_controller_advance_queue_if_needed(stream, ctx);
        },
        // 18. Upon rejection of startPromise with reason r,
        |r, stream, ctx| {
            // 1. Assert: stream.[[state]] is "writable" or "erroring".
            // 2. Set controller.[[started]] to true.
            stream.started.set(true);
            // 3. Perform ! WritableStreamDealWithRejection(stream, r).
            writable_stream_deal_with_rejection(stream, r, ctx);
        },
        ctx,
    );
    Ok(())
}

/// [WritableStreamDefaultControllerAdvanceQueueIfNeeded](https://streams.spec.whatwg.org/#writable-stream-default-controller-advance-queue-if-needed)
pub fn writable_stream_default_controller_advance_queue_if_needed(
    stream: &WritableStreamRef,
    ctx: &mut Context,
) {
    // 1. Let stream be controller.[[stream]].
    // 2. If controller.[[started]] is false, return.
    if !stream.started.get() {
        return;
    }
    // 3. If stream.[[inFlightWriteRequest]] is not undefined, return.
    if stream.in_flight_write_request.borrow().is_some() {
        return;
    }
    // 4. Let state be stream.[[state]].
    let state = stream.state();
    // 5. Assert: state is not "closed" or "errored".
    // 6. If state is "erroring",
    if state == WritableStreamState::Erroring {
        // 1. Perform ! WritableStreamFinishErroring(stream).
        // 2. Return.
        writable_stream_finish_erroring(stream, ctx);
        return;
    }
    // 7. If controller.[[queue]] is empty, return.
    // 8. Let value be ! PeekQueueValue(controller).
    let value = stream.queue.borrow().peek_queue_value().cloned();
    match value {
        // 10. Otherwise, perform ! WritableStreamDefaultControllerProcessWrite(controller, value).
        Some(chunk) => writable_stream_default_controller_process_write(stream, chunk, ctx),
        // 9. If value is the close sentinel, perform !
        //    WritableStreamDefaultControllerProcessClose(controller).
        None if stream.close_queued.get() => {
            writable_stream_default_controller_process_close(stream, ctx);
        }
        None => {}
    }
}

/// [WritableStreamDefaultControllerClearAlgorithms](https://streams.spec.whatwg.org/#writable-stream-default-controller-clear-algorithms)
pub fn writable_stream_default_controller_clear_algorithms(stream: &WritableStreamRef) {
    // 1. Set controller.[[writeAlgorithm]] to undefined.
    // 2. Set controller.[[closeAlgorithm]] to undefined.
    // 3. Set controller.[[abortAlgorithm]] to undefined.
    let algorithms = stream.algorithms.borrow_mut().take();
    // 4. Set controller.[[strategySizeAlgorithm]] to undefined.
    let size = stream.strategy_size_algorithm.borrow_mut().take();
    // Dropped after the borrows end (dropping runs no JS, but keep borrows minimal).
    drop((algorithms, size));
}

/// [WritableStreamDefaultControllerClose](https://streams.spec.whatwg.org/#writable-stream-default-controller-close)
pub fn writable_stream_default_controller_close(stream: &WritableStreamRef, ctx: &mut Context) {
    // 1. Perform ! EnqueueValueWithSize(controller, close sentinel, 0).
    stream.close_queued.set(true);
    // 2. Perform ! WritableStreamDefaultControllerAdvanceQueueIfNeeded(controller).
    writable_stream_default_controller_advance_queue_if_needed(stream, ctx);
}

/// [WritableStreamDefaultControllerError](https://streams.spec.whatwg.org/#writable-stream-default-controller-error)
pub fn writable_stream_default_controller_error(
    stream: &WritableStreamRef,
    error: JsValue,
    ctx: &mut Context,
) {
    // 1. Let stream be controller.[[stream]].
    // 2. Assert: stream.[[state]] is "writable".
    // 3. Perform ! WritableStreamDefaultControllerClearAlgorithms(controller).
    writable_stream_default_controller_clear_algorithms(stream);
    // 4. Perform ! WritableStreamStartErroring(stream, error).
    writable_stream_start_erroring(stream, error, ctx);
}

/// [WritableStreamDefaultControllerErrorIfNeeded](https://streams.spec.whatwg.org/#writable-stream-default-controller-error-if-needed)
pub fn writable_stream_default_controller_error_if_needed(
    stream: &WritableStreamRef,
    error: JsValue,
    ctx: &mut Context,
) {
    // 1. If controller.[[stream]].[[state]] is "writable", perform !
    //    WritableStreamDefaultControllerError(controller, error).
    if stream.state() == WritableStreamState::Writable {
        writable_stream_default_controller_error(stream, error, ctx);
    }
}

/// [WritableStreamDefaultControllerGetBackpressure](https://streams.spec.whatwg.org/#writable-stream-default-controller-get-backpressure)
pub fn writable_stream_default_controller_get_backpressure(stream: &WritableStreamRef) -> bool {
    // 1. Let desiredSize be ! WritableStreamDefaultControllerGetDesiredSize(controller).
    // 2. Return true if desiredSize ≤ 0, or false otherwise.
    writable_stream_default_controller_get_desired_size(stream) <= 0.0
}

/// [WritableStreamDefaultControllerGetChunkSize](https://streams.spec.whatwg.org/#writable-stream-default-controller-get-chunk-size)
///
/// Runs user code (`size()`).
pub fn writable_stream_default_controller_get_chunk_size(
    stream: &WritableStreamRef,
    chunk: &JsValue,
    ctx: &mut Context,
) -> f64 {
    let size = stream.strategy_size_algorithm.borrow().clone();
    // 1. If controller.[[strategySizeAlgorithm]] is undefined, then:
    //    1. Assert: controller.[[stream]].[[state]] is not "writable".
    //    2. Return 1.
    let Some(size) = size else {
        return 1.0;
    };
    // 2. Let returnValue be the result of performing controller.[[strategySizeAlgorithm]],
    //    passing in chunk, and interpreting the result as a completion record.
    match size.call(chunk, ctx) {
        // 4. Return returnValue.[[Value]].
        Ok(n) => n,
        // 3. If returnValue is an abrupt completion,
        Err(e) => {
            // 1. Perform ! WritableStreamDefaultControllerErrorIfNeeded(controller,
            //    returnValue.[[Value]]).
            let e = e.into_value();
            writable_stream_default_controller_error_if_needed(stream, e, ctx);
            // 2. Return 1.
            1.0
        }
    }
}

/// [WritableStreamDefaultControllerGetDesiredSize](https://streams.spec.whatwg.org/#writable-stream-default-controller-get-desired-size)
pub fn writable_stream_default_controller_get_desired_size(stream: &WritableStreamRef) -> f64 {
    // 1. Return controller.[[strategyHWM]] − controller.[[queueTotalSize]].
    stream.strategy_hwm.get() - stream.queue.borrow().total_size()
}

/// [WritableStreamDefaultControllerProcessClose](https://streams.spec.whatwg.org/#writable-stream-default-controller-process-close)
pub fn writable_stream_default_controller_process_close(
    stream: &WritableStreamRef,
    ctx: &mut Context,
) {
    // 1. Let stream be controller.[[stream]].
    // 2. Perform ! WritableStreamMarkCloseRequestInFlight(stream).
    writable_stream_mark_close_request_in_flight(stream);
    // 3. Perform ! DequeueValue(controller).
    stream.close_queued.set(false);
    // 4. Assert: controller.[[queue]] is empty.
    // 5. Let sinkClosePromise be the result of performing controller.[[closeAlgorithm]].
    let algorithms = stream.algorithms.borrow().clone();
    let sink_close_promise = match algorithms {
        Some(a) => a.close(ctx),
        None => Completion::undefined(),
    };
    // 6. Perform ! WritableStreamDefaultControllerClearAlgorithms(controller).
    writable_stream_default_controller_clear_algorithms(stream);
    Completion::upon_either(
        sink_close_promise,
        stream.clone(),
        // 7. Upon fulfillment of sinkClosePromise,
        //    1. Perform ! WritableStreamFinishInFlightClose(stream).
        |_, stream, ctx| writable_stream_finish_in_flight_close(stream, ctx),
        // 8. Upon rejection of sinkClosePromise with reason reason,
        //    1. Perform ! WritableStreamFinishInFlightCloseWithError(stream, reason).
        |reason, stream, ctx| {
            writable_stream_finish_in_flight_close_with_error(stream, reason, ctx)
        },
        ctx,
    );
}

/// [WritableStreamDefaultControllerProcessWrite](https://streams.spec.whatwg.org/#writable-stream-default-controller-process-write)
pub fn writable_stream_default_controller_process_write(
    stream: &WritableStreamRef,
    chunk: JsValue,
    ctx: &mut Context,
) {
    // 1. Let stream be controller.[[stream]].
    // 2. Perform ! WritableStreamMarkFirstWriteRequestInFlight(stream).
    writable_stream_mark_first_write_request_in_flight(stream);
    // 3. Let sinkWritePromise be the result of performing controller.[[writeAlgorithm]],
    //    passing in chunk.
    let algorithms = stream.algorithms.borrow().clone();
    let controller = stream.controller_object.borrow().clone();
    let sink_write_promise = match (algorithms, controller) {
        (Some(a), Some(c)) => a.write(chunk, &c, ctx),
        _ => Completion::undefined(),
    };
    Completion::upon_either(
        sink_write_promise,
        stream.clone(),
        // 4. Upon fulfillment of sinkWritePromise,
        |_, stream, ctx| {
            // 1. Perform ! WritableStreamFinishInFlightWrite(stream).
            writable_stream_finish_in_flight_write(stream, ctx);
            // 2. Let state be stream.[[state]].
            let state = stream.state();
            // 3. Assert: state is "writable" or "erroring".
            // 4. Perform ! DequeueValue(controller).
            let dequeued = stream.queue.borrow_mut().dequeue_value();
            drop(dequeued);
            // 5. If ! WritableStreamCloseQueuedOrInFlight(stream) is false and state is
            //    "writable",
            if !writable_stream_close_queued_or_in_flight(stream)
                && state == WritableStreamState::Writable
            {
                // 1. Let backpressure be ! WritableStreamDefaultControllerGetBackpressure(controller).
                let backpressure = writable_stream_default_controller_get_backpressure(stream);
                // 2. Perform ! WritableStreamUpdateBackpressure(stream, backpressure).
                writable_stream_update_backpressure(stream, backpressure, ctx);
            }
            // 6. Perform ! WritableStreamDefaultControllerAdvanceQueueIfNeeded(controller).
            writable_stream_default_controller_advance_queue_if_needed(stream, ctx);
        },
        // 5. Upon rejection of sinkWritePromise with reason,
        |reason, stream, ctx| {
            // 1. If stream.[[state]] is "writable", perform !
            //    WritableStreamDefaultControllerClearAlgorithms(controller).
            if stream.state() == WritableStreamState::Writable {
                writable_stream_default_controller_clear_algorithms(stream);
            }
            // 2. Perform ! WritableStreamFinishInFlightWriteWithError(stream, reason).
            writable_stream_finish_in_flight_write_with_error(stream, reason, ctx);
        },
        ctx,
    );
}

/// [WritableStreamDefaultControllerWrite](https://streams.spec.whatwg.org/#writable-stream-default-controller-write)
pub fn writable_stream_default_controller_write(
    stream: &WritableStreamRef,
    chunk: JsValue,
    chunk_size: f64,
    ctx: &mut Context,
) {
    // 1. Let enqueueResult be EnqueueValueWithSize(controller, chunk, chunkSize).
    let enqueue_result = stream
        .queue
        .borrow_mut()
        .enqueue_value_with_size(chunk, chunk_size);
    // 2. If enqueueResult is an abrupt completion,
    if let Err(e) = enqueue_result {
        // 1. Perform ! WritableStreamDefaultControllerErrorIfNeeded(controller,
        //    enqueueResult.[[Value]]).
        // 2. Return.
        let e = crate::webidl::own_error_value(e, ctx);
        writable_stream_default_controller_error_if_needed(stream, e, ctx);
        return;
    }
    // 3. Let stream be controller.[[stream]].
    // 4. If ! WritableStreamCloseQueuedOrInFlight(stream) is false and stream.[[state]] is
    //    "writable",
    if !writable_stream_close_queued_or_in_flight(stream)
        && stream.state() == WritableStreamState::Writable
    {
        // 1. Let backpressure be ! WritableStreamDefaultControllerGetBackpressure(controller).
        let backpressure = writable_stream_default_controller_get_backpressure(stream);
        // 2. Perform ! WritableStreamUpdateBackpressure(stream, backpressure).
        writable_stream_update_backpressure(stream, backpressure, ctx);
    }
    // 5. Perform ! WritableStreamDefaultControllerAdvanceQueueIfNeeded(controller).
    writable_stream_default_controller_advance_queue_if_needed(stream, ctx);
}
