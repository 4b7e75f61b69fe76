//! [The `WritableStreamDefaultController` class](https://streams.spec.whatwg.org/#ws-default-controller-class)
//! and the [default controller abstract operations](https://streams.spec.whatwg.org/#ws-default-controller-abstract-ops)
//! (the controller's slots live in the stream's [`WritableStreamSlots`]).

use super::*;
use boa_webidl::promise::{enqueue_microtask, upon_resolved_with_settled};

/// The controller's `[[abortController]]`, created lazily: the `AbortSignal` object exists
/// only once script reads `controller.signal`.
// NOTE: before the signal object exists nobody can listen to it, so signalling abort only
// records the reason; the signal is aborted with it when it is created.
#[derive(Debug, Default, Trace, Finalize)]
pub(crate) struct LazyAbortController {
    pub(super) signal: Option<JsObject>,
    pub(super) aborted: Option<JsValue>,
}

/// The `WritableStreamDefaultController` interface object's instance data (it shares its
/// stream's slots).
#[derive(Debug, Trace, Finalize, JsData)]
pub struct WritableStreamDefaultController {
    pub(super) slots: WritableStreamRef,
}

impl WritableStreamDefaultController {
    /// The (stream's) slots of a JS controller (brand check, no JS runs).
    pub fn slots_of(value: &JsValue) -> Option<WritableStreamRef> {
        let o = value.as_object()?.downcast::<Self>().ok()?;
        let slots = o.borrow().data().slots.clone();
        Some(slots)
    }

    fn this_slots(this: &JsValue) -> JsResult<WritableStreamRef> {
        Self::slots_of(this)
            .ok_or_else(|| type_error("'this' is not a WritableStreamDefaultController object"))
    }
}

/// [signal](https://streams.spec.whatwg.org/#ws-default-controller-signal)
fn signal(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let s = WritableStreamDefaultController::this_slots(this)?;
    // 1. Return this.[[abortController]]'s signal.
    Ok(writable_stream_controller_signal(&s, ctx)?.into())
}

/// [error(e)](https://streams.spec.whatwg.org/#ws-default-controller-error)
fn error(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let s = WritableStreamDefaultController::this_slots(this)?;
    // 1. Let state be this.[[stream]].[[state]].
    // 2. If state is not "writable", return.
    if s.state() != WritableStreamState::Writable {
        return Ok(JsValue::undefined());
    }
    // 3. Perform ! WritableStreamDefaultControllerError(this, e).
    writable_stream_default_controller_error(&s, arg(args, 0), ctx);
    Ok(JsValue::undefined())
}

impl Class for WritableStreamDefaultController {
    const NAME: &'static str = "WritableStreamDefaultController";
    const LENGTH: usize = 0;
    const ATTRIBUTES: boa_engine::property::Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(
            class,
            &[
                Member::attribute("signal", signal),
                Member::operation("error", 0, error),
                Member::to_string_tag("WritableStreamDefaultController"),
            ],
        )
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        Err(illegal_constructor())
    }
}

/// "Signal abort" on the controller's `[[abortController]]` (may run abort listeners).
pub(crate) fn signal_abort_controller(
    stream: &WritableStreamRef,
    reason: JsValue,
    ctx: &mut Context,
) {
    let signal = stream.cold_mut(|c| {
        let ac = &mut c.abort_controller;
        match &ac.signal {
            Some(s) => Some(s.clone()),
            None => {
                // Signal abort on an aborted signal does nothing.
                if ac.aborted.is_none() {
                    ac.aborted = Some(reason.clone());
                }
                None
            }
        }
    });
    let Some(signal) = signal else {
        return;
    };
    // NOTE: exceptions from abort listeners are reported by the event dispatch, not rethrown.
    let _ = boa_dom::signal_abort(&signal, reason, ctx);
}

/// The controller's `signal`: the `[[abortController]]`'s signal (created on first use).
pub fn writable_stream_controller_signal(
    stream: &WritableStreamRef,
    ctx: &mut Context,
) -> JsResult<JsObject> {
    let (existing, aborted) = stream
        .cold_if(|c| {
            let ac = &c.abort_controller;
            (ac.signal.clone(), ac.aborted.clone())
        })
        .unwrap_or((None, None));
    if let Some(s) = existing {
        return Ok(s);
    }
    let signal = boa_dom::create_abort_signal(ctx)?;
    stream.cold_mut(|c| c.abort_controller.signal = Some(signal.clone()));
    if let Some(reason) = aborted {
        // No listener can exist yet: this runs no user code.
        boa_dom::signal_abort(&signal, reason, ctx)?;
    }
    Ok(signal)
}

// ---------------------------------------------------------------------------------------
// Default controller abstract operations
// ---------------------------------------------------------------------------------------

/// [\[\[AbortSteps\]\]](https://streams.spec.whatwg.org/#ws-default-controller-private-abort)
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

/// [\[\[ErrorSteps\]\]](https://streams.spec.whatwg.org/#ws-default-controller-private-error)
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
    set_up_writable_stream_default_controller_with_start(
        stream,
        controller,
        algorithms,
        None,
        high_water_mark,
        size_algorithm,
        ctx,
    )
}

/// [SetUpWritableStreamDefaultController](https://streams.spec.whatwg.org/#set-up-writable-stream-default-controller)
/// where, if `settled_start` is given, the start algorithm is "an algorithm that returns" a
/// promise already settled with it (a TransformStream's startPromise with fast paths on) instead
/// of `algorithms`' start.
pub(crate) fn set_up_writable_stream_default_controller_with_start(
    stream: &WritableStreamRef,
    controller: JsObject,
    algorithms: SinkAlgorithms,
    settled_start: Option<Settlement>,
    high_water_mark: f64,
    size_algorithm: SizeAlgorithm,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. Assert: stream implements WritableStream.
    // 2. Assert: stream.[[controller]] is undefined.
    debug_assert!(stream.controller_object.borrow().is_none());
    // 3. Set controller.[[stream]] to stream.
    // 4. Set stream.[[controller]] to controller.
    stream.set_controller_object(controller.clone());
    // 5. Perform ! ResetQueue(controller).
    stream.queue.borrow_mut().reset_queue();
    stream.close_queued.set(false);
    // 6. Set controller.[[abortController]] to a new AbortController.
    stream.cold_if(|c| c.abort_controller = LazyAbortController::default());
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
    // 17. Upon fulfillment of startPromise,
    //   1. Assert: stream.[[state]] is "writable" or "erroring".
    //   2. Set controller.[[started]] to true.
    //   3. Perform ! WritableStreamDefaultControllerAdvanceQueueIfNeeded(controller).
    // 18. Upon rejection of startPromise with reason r,
    //   1. Assert: stream.[[state]] is "writable" or "erroring".
    //   2. Set controller.[[started]] to true.
    //   3. Perform ! WritableStreamDealWithRejection(stream, r).
    fn upon_start(stream: &WritableStreamRef, settlement: Settlement, ctx: &mut Context) {
        debug_assert!(matches!(
            stream.state(),
            WritableStreamState::Writable | WritableStreamState::Erroring
        ));
        stream.started.set(true);
        match settlement {
            Ok(_) => writable_stream_default_controller_advance_queue_if_needed(stream, ctx),
            Err(r) => writable_stream_deal_with_rejection(stream, r, ctx),
        }
    }
    match settled_start {
        // NOTE: startPromise is "a promise resolved with" the start result, a promise that is
        // already settled: no promise is made, the steps run at its reaction's tick.
        Some(settlement) => {
            upon_resolved_with_settled(settlement, stream.clone(), upon_start, ctx);
        }
        None => {
            let start_promise = algorithms.start(&controller, ctx)?;
            start_promise.upon(stream.clone(), upon_start, ctx);
        }
    }
    Ok(())
}

/// [SetUpWritableStreamDefaultControllerFromUnderlyingSink](https://streams.spec.whatwg.org/#set-up-writable-stream-default-controller-from-underlying-sink)
pub fn set_up_writable_stream_default_controller_from_underlying_sink(
    stream: &WritableStreamRef,
    underlying_sink: JsSink,
    high_water_mark: f64,
    size_algorithm: SizeAlgorithm,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. Let controller be a new WritableStreamDefaultController.
    let controller = WritableStreamDefaultController::from_data(
        WritableStreamDefaultController {
            slots: stream.clone(),
        },
        ctx,
    )?;
    // 2.-5. The default algorithms return undefined / a promise resolved with undefined.
    // 6.-9. A present start / write / close / abort member replaces the default with an
    //       algorithm invoking it with this = underlyingSink (see `SinkAlgorithms::Js`).
    let algorithms = SinkAlgorithms::Js(Gc::new(underlying_sink));
    // 10. Perform ? SetUpWritableStreamDefaultController(stream, controller, startAlgorithm,
    //     writeAlgorithm, closeAlgorithm, abortAlgorithm, highWaterMark, sizeAlgorithm).
    set_up_writable_stream_default_controller(
        stream,
        controller,
        algorithms,
        high_water_mark,
        size_algorithm,
        ctx,
    )
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
    debug_assert!(matches!(
        state,
        WritableStreamState::Writable | WritableStreamState::Erroring
    ));
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
    debug_assert_eq!(stream.state(), WritableStreamState::Writable);
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
/// of a chunk that may be Rust bytes: a JS size algorithm gets (and the queue then holds) its
/// JS value; the count strategy leaves it as it is. Returns the size and the chunk.
pub(crate) fn writable_stream_default_controller_get_chunk_size_native(
    stream: &WritableStreamRef,
    chunk: Chunk,
    ctx: &mut Context,
) -> (f64, Chunk) {
    let size = stream.strategy_size_algorithm.borrow().clone();
    // 1. If controller.[[strategySizeAlgorithm]] is undefined, then:
    //    1. Assert: controller.[[stream]].[[state]] is not "writable".
    // NOTE: not checked: a writer's write() after the sink's close() started (the algorithms
    // are cleared, the state is still "writable") reaches this step before step 8 of
    // WritableStreamDefaultWriterWrite rejects the write.
    //    2. Return 1.
    let size = match size {
        None | Some(SizeAlgorithm::ReturnOne) => return (1.0, chunk),
        Some(size) => size,
    };
    let chunk = chunk.into_js(ctx);
    // 2. Let returnValue be the result of performing controller.[[strategySizeAlgorithm]],
    //    passing in chunk, and interpreting the result as a completion record.
    let size = match size.call(&chunk, ctx) {
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
    };
    (size, Chunk::Js(chunk))
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
    debug_assert!(stream.queue.borrow().is_empty());
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
    chunk: Chunk,
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
        (Some(a), Some(c)) => a.write_processed(chunk, &c, ctx),
        _ => SinkWrite::Promise(Completion::undefined()),
    };
    match sink_write_promise {
        SinkWrite::Promise(p) => upon_sink_write(p, stream.clone(), ctx),
        // The microtask that fulfills sinkWritePromise (see `SinkWrite::FulfilledNextTick`).
        SinkWrite::FulfilledNextTick => {
            let stream = stream.clone();
            enqueue_microtask(ctx, move |ctx| {
                upon_sink_write(Completion::undefined(), stream, ctx);
            });
        }
    }
}

/// WritableStreamDefaultControllerProcessWrite steps 4-5: the reactions to sinkWritePromise.
fn upon_sink_write(sink_write_promise: Completion, stream: WritableStreamRef, ctx: &mut Context) {
    Completion::upon_either(
        sink_write_promise,
        stream,
        // 4. Upon fulfillment of sinkWritePromise,
        |_, stream, ctx| {
            // 1. Perform ! WritableStreamFinishInFlightWrite(stream).
            writable_stream_finish_in_flight_write(stream, ctx);
            // 2. Let state be stream.[[state]].
            let state = stream.state();
            // 3. Assert: state is "writable" or "erroring".
            debug_assert!(matches!(
                state,
                WritableStreamState::Writable | WritableStreamState::Erroring
            ));
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
    chunk: Chunk,
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
        let e = boa_webidl::own_error_value(e, ctx);
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
