//! [The `WritableStream` class](https://streams.spec.whatwg.org/#ws-class) and the abstract
//! operations the spec groups with it: [working with writable
//! streams](https://streams.spec.whatwg.org/#ws-abstract-ops) and [interfacing with
//! controllers](https://streams.spec.whatwg.org/#ws-abstract-ops-used-by-controllers).
//!
//! A `WritableStream` and its `WritableStreamDefaultController` are one-to-one, so their slots
//! live together in one GC box, [`WritableStreamSlots`], shared by both JS objects. Abstract
//! operations take these boxes (`&WritableStreamRef`): no JS object is borrowed while they
//! run, and every `GcRefCell` borrow is released before any call that can run JS.

use super::*;

/// A handle to a writable stream's (and its controller's) internal slots.
pub type WritableStreamRef = Gc<WritableStreamSlots>;

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

/// Internal slots of a `WritableStream` and of its `WritableStreamDefaultController`.
#[derive(Trace, Finalize)]
pub struct WritableStreamSlots {
    // --- WritableStream ---
    #[unsafe_ignore_trace]
    pub(super) backpressure: Cell<bool>,
    pub(super) in_flight_write_request: GcRefCell<Option<Reaction>>,
    #[unsafe_ignore_trace]
    pub(super) state: Cell<WritableStreamState>,
    pub(super) writer: GcRefCell<Option<WriterRef>>,
    /// The slots a stream needs only once it is closed, aborted or errored (or its
    /// controller's `signal` is read): boxed, made on first use (`None`: all at their initial
    /// values).
    pub(super) cold: GcRefCell<Option<Box<ColdSlots>>>,
    pub(super) write_requests: GcRefCell<VecDeque<Reaction>>,
    // --- WritableStreamDefaultController ---
    /// The controller's JS object (passed to the sink's start() and write()).
    pub(super) controller_object: GcRefCell<Option<JsObject>>,
    /// `[[writeAlgorithm]]`, `[[closeAlgorithm]]`, `[[abortAlgorithm]]`; `None` once cleared.
    pub(super) algorithms: GcRefCell<Option<SinkAlgorithms>>,
    /// `[[queue]]` and `[[queueTotalSize]]` (chunks only).
    pub(super) queue: GcRefCell<QueueWithSizes>,
    /// The [close sentinel](https://streams.spec.whatwg.org/#close-sentinel) at the end of
    /// `[[queue]]` (size 0; nothing is ever enqueued after it).
    #[unsafe_ignore_trace]
    pub(super) close_queued: Cell<bool>,
    #[unsafe_ignore_trace]
    pub(super) started: Cell<bool>,
    #[unsafe_ignore_trace]
    pub(super) strategy_hwm: Cell<f64>,
    /// `[[strategySizeAlgorithm]]`; `None` once cleared.
    pub(super) strategy_size_algorithm: GcRefCell<Option<SizeAlgorithm>>,
}

/// [`WritableStreamSlots`]' rarely used slots, in one box made on first use.
#[derive(Default, Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
pub(crate) struct ColdSlots {
    /// `[[closeRequest]]`.
    pub(super) close_request: Option<Reaction>,
    /// `[[inFlightCloseRequest]]`.
    pub(super) in_flight_close_request: Option<Reaction>,
    /// `[[pendingAbortRequest]]`.
    pub(super) pending_abort_request: Option<PendingAbortRequest>,
    /// `[[storedError]]`.
    pub(super) stored_error: JsValue,
    /// The controller's `[[abortController]]`.
    pub(super) abort_controller: LazyAbortController,
}

impl WritableStreamSlots {
    /// Run `f` on the cold slots, making them first if needed. `f` must not run JS.
    pub(super) fn cold_mut<R>(&self, f: impl FnOnce(&mut ColdSlots) -> R) -> R {
        let mut cold = self.cold.borrow_mut();
        f(cold.get_or_insert_with(Box::default))
    }

    /// Run `f` on the cold slots if they were made (else they are all at their initial
    /// values: `None`). `f` must not run JS.
    pub(super) fn cold_if<R>(&self, f: impl FnOnce(&mut ColdSlots) -> R) -> Option<R> {
        self.cold.borrow_mut().as_deref_mut().map(f)
    }
}

impl std::fmt::Debug for WritableStreamSlots {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WritableStreamSlots")
            .field("state", &self.state.get())
            .finish_non_exhaustive()
    }
}

impl WritableStreamSlots {
    /// `[[state]]`.
    pub fn state(&self) -> WritableStreamState {
        self.state.get()
    }

    /// `[[storedError]]`.
    pub fn stored_error(&self) -> JsValue {
        self.cold
            .borrow()
            .as_ref()
            .map_or_else(JsValue::undefined, |c| c.stored_error.clone())
    }

    /// `[[writer]]`.
    pub fn writer(&self) -> Option<WriterRef> {
        self.writer.borrow().clone()
    }

    pub(crate) fn set_controller_object(&self, object: JsObject) {
        *self.controller_object.borrow_mut() = Some(object);
    }
}

/// The `WritableStream` interface object's instance data.
#[derive(Debug, Trace, Finalize, JsData)]
pub struct WritableStream {
    pub(super) slots: WritableStreamRef,
}

impl WritableStream {
    /// The slots of a JS `WritableStream` (brand check, no JS runs).
    pub fn slots_of(value: &JsValue) -> Option<WritableStreamRef> {
        let o = value.as_object()?.downcast::<Self>().ok()?;
        let slots = o.borrow().data().slots.clone();
        Some(slots)
    }

    fn this_slots(this: &JsValue) -> JsResult<WritableStreamRef> {
        Self::slots_of(this).ok_or_else(|| type_error("'this' is not a WritableStream object"))
    }
}

/// [CreateWritableStream](https://streams.spec.whatwg.org/#create-writable-stream)
///
/// The start algorithm is `algorithms`' start. Throws iff the start algorithm throws.
pub fn create_writable_stream(
    algorithms: SinkAlgorithms,
    high_water_mark: f64,
    size_algorithm: SizeAlgorithm,
    ctx: &mut Context,
) -> JsResult<(JsObject, WritableStreamRef)> {
    create_writable_stream_with_start(algorithms, None, high_water_mark, size_algorithm, ctx)
}

/// [CreateWritableStream](https://streams.spec.whatwg.org/#create-writable-stream) whose start
/// algorithm, if `settled_start` is given, returns a promise already settled with it (see
/// `set_up_writable_stream_default_controller_with_start`).
pub(crate) fn create_writable_stream_with_start(
    algorithms: SinkAlgorithms,
    settled_start: Option<Settlement>,
    high_water_mark: f64,
    size_algorithm: SizeAlgorithm,
    ctx: &mut Context,
) -> JsResult<(JsObject, WritableStreamRef)> {
    // 1. Assert: ! IsNonNegativeNumber(highWaterMark) is true.
    debug_assert!(high_water_mark >= 0.0);
    // 2. Let stream be a new WritableStream.
    // 3. Perform ! InitializeWritableStream(stream).
    let slots = initialize_writable_stream();
    let stream = WritableStream::from_data(
        WritableStream {
            slots: slots.clone(),
        },
        ctx,
    )?;
    // 4. Let controller be a new WritableStreamDefaultController.
    let controller = WritableStreamDefaultController::from_data(
        WritableStreamDefaultController {
            slots: slots.clone(),
        },
        ctx,
    )?;
    // 5. Perform ? SetUpWritableStreamDefaultController(stream, controller, startAlgorithm,
    //    writeAlgorithm, closeAlgorithm, abortAlgorithm, highWaterMark, sizeAlgorithm).
    set_up_writable_stream_default_controller_with_start(
        &slots,
        controller,
        algorithms,
        settled_start,
        high_water_mark,
        size_algorithm,
        ctx,
    )?;
    // 6. Return stream.
    Ok((stream, slots))
}

/// [locked](https://streams.spec.whatwg.org/#ws-locked)
fn locked(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let s = WritableStream::this_slots(this)?;
    // 1. Return ! IsWritableStreamLocked(this).
    Ok(is_writable_stream_locked(&s).into())
}

/// [abort(reason)](https://streams.spec.whatwg.org/#ws-abort)
fn abort(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let result = (|| {
        let s = WritableStream::this_slots(this)?;
        // 1. If ! IsWritableStreamLocked(this) is true, return a promise rejected
        //    with a TypeError exception.
        if is_writable_stream_locked(&s) {
            return Ok(rejected_type_error(
                "Cannot abort a stream that is locked to a writer",
                ctx,
            ));
        }
        // 2. Return ! WritableStreamAbort(this, reason).
        Ok(
            writable_stream_abort(&s, arg(args, 0), AbortWaiter::Js, ctx)
                .map_or_else(JsValue::undefined, JsValue::from),
        )
    })();
    Ok(promise_from_own_result(result, ctx))
}

/// [close()](https://streams.spec.whatwg.org/#ws-close)
fn close(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let result = (|| {
        let s = WritableStream::this_slots(this)?;
        // 1. If ! IsWritableStreamLocked(this) is true, return a promise rejected
        //    with a TypeError exception.
        if is_writable_stream_locked(&s) {
            return Ok(rejected_type_error(
                "Cannot close a stream that is locked to a writer",
                ctx,
            ));
        }
        // 2. If ! WritableStreamCloseQueuedOrInFlight(this) is true, return a
        //    promise rejected with a TypeError exception.
        if writable_stream_close_queued_or_in_flight(&s) {
            return Ok(rejected_type_error(
                "Cannot close a stream that is already closing",
                ctx,
            ));
        }
        // 3. Return ! WritableStreamClose(this).
        let promise = PromiseCapability::new(ctx);
        let result = promise.value();
        writable_stream_close(&s, Reaction::Promise(promise), ctx);
        Ok(result)
    })();
    Ok(promise_from_own_result(result, ctx))
}

/// [getWriter()](https://streams.spec.whatwg.org/#ws-get-writer)
fn get_writer(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let s = WritableStream::this_slots(this)?;
    // 1. Return ? AcquireWritableStreamDefaultWriter(this).
    let writer = acquire_writable_stream_default_writer(&s, ctx)?;
    let obj = WritableStreamDefaultWriter::from_data(WritableStreamDefaultWriter { writer }, ctx)?;
    Ok(obj.into())
}

impl Class for WritableStream {
    const NAME: &'static str = "WritableStream";
    const LENGTH: usize = 0;
    const ATTRIBUTES: boa_engine::property::Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(
            class,
            &[
                Member::attribute("locked", locked),
                Member::operation("abort", 0, abort),
                Member::operation("close", 0, close),
                Member::operation("getWriter", 0, get_writer),
                Member::to_string_tag("WritableStream"),
            ],
        )
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        // `construct` is overridden; this is never reached.
        Err(illegal_constructor())
    }

    /// [new WritableStream(underlyingSink, strategy)](https://streams.spec.whatwg.org/#ws-constructor)
    fn construct(new_target: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsObject> {
        // Engine runtime-limit errors of the user code run here become catchable RangeErrors.
        boa_webidl::limits_catchable((|| -> JsResult<JsObject> {
            boa_webidl::require_new(new_target, "WritableStream")?;
            // WebIDL argument conversion: `optional object underlyingSink`,
            // `optional QueuingStrategy strategy = {}`.
            let underlying_sink = arg(args, 0);
            let underlying_sink = if underlying_sink.is_undefined() {
                None
            } else {
                match underlying_sink.as_object() {
                    Some(o) => Some(o),
                    None => return Err(type_error("underlyingSink must be an object")),
                }
            };
            let strategy = crate::strategies::QueuingStrategy::from_value(&arg(args, 1), ctx)?;
            let proto = boa_dom::prototype_from_new_target::<Self>(new_target, ctx)?;
            let slots = initialize_writable_stream();
            let this = JsObject::new(
                ctx.root_shape(),
                proto,
                WritableStream {
                    slots: slots.clone(),
                },
            )
            .upcast();

            // 1. If underlyingSink is missing, set it to null.
            let sink_value = underlying_sink
                .clone()
                .map_or_else(JsValue::null, JsValue::from);
            // 2. Let underlyingSinkDict be underlyingSink, converted to an IDL value of type
            //    UnderlyingSink. (Members in lexicographic order: abort, close, start, type, write.)
            let dict = Dictionary::from_object(underlying_sink);
            let abort = dict.get_callback(webidl::js_key!("abort"), ctx)?;
            let close = dict.get_callback(webidl::js_key!("close"), ctx)?;
            let start = dict.get_callback(webidl::js_key!("start"), ctx)?;
            let ty = dict.get(webidl::js_key!("type"), ctx)?;
            let write = dict.get_callback(webidl::js_key!("write"), ctx)?;
            // 3. If underlyingSinkDict["type"] exists, throw a RangeError exception.
            if ty.is_some() {
                return Err(JsNativeError::range()
                    .with_message("Invalid type is specified")
                    .into());
            }
            // 4. Perform ! InitializeWritableStream(this). (Done when the slots were created.)
            // 5. Let sizeAlgorithm be ! ExtractSizeAlgorithm(strategy).
            let size_algorithm = crate::strategies::extract_size_algorithm(&strategy, ctx);
            // 6. Let highWaterMark be ? ExtractHighWaterMark(strategy, 1).
            let high_water_mark = crate::strategies::extract_high_water_mark(&strategy, 1.0)?;
            // 7. Perform ? SetUpWritableStreamDefaultControllerFromUnderlyingSink(this,
            //    underlyingSink, underlyingSinkDict, highWaterMark, sizeAlgorithm).
            set_up_writable_stream_default_controller_from_underlying_sink(
                &slots,
                JsSink {
                    sink: sink_value,
                    start,
                    write,
                    close,
                    abort,
                },
                high_water_mark,
                size_algorithm,
                ctx,
            )?;
            Ok(this)
        })())
    }
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
        // (close_request, in_flight_close_request, pending_abort_request and stored_error
        // are in `cold`, not made yet.)
        in_flight_write_request: GcRefCell::new(None),
        // 1. Set stream.[[state]] to "writable".
        state: Cell::new(WritableStreamState::Writable),
        writer: GcRefCell::new(None),
        cold: GcRefCell::new(None),
        // 3. Set stream.[[writeRequests]] to a new empty list.
        write_requests: GcRefCell::new(VecDeque::new()),
        controller_object: GcRefCell::new(None),
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

pub(crate) fn abort_resolved(waiter: AbortWaiter, ctx: &mut Context) -> Option<JsObject> {
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
        let mut cold = stream.cold.borrow_mut();
        if let Some(request) = cold
            .as_deref_mut()
            .and_then(|c| c.pending_abort_request.as_mut())
        {
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
    debug_assert!(matches!(
        state,
        WritableStreamState::Writable | WritableStreamState::Erroring
    ));
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
    stream.cold_mut(|c| {
        c.pending_abort_request = Some(PendingAbortRequest {
            promise,
            natives,
            reason: reason.clone(),
            was_already_erroring,
        });
    });
    // 11. If wasAlreadyErroring is false, perform ! WritableStreamStartErroring(stream, reason).
    if !was_already_erroring {
        writable_stream_start_erroring(stream, reason, ctx);
    }
    // 12. Return promise.
    result
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
    debug_assert!(matches!(
        state,
        WritableStreamState::Writable | WritableStreamState::Erroring
    ));
    // 4. Assert: ! WritableStreamCloseQueuedOrInFlight(stream) is false.
    debug_assert!(!writable_stream_close_queued_or_in_flight(stream));
    // 5. Let promise be a new promise.
    // 6. Set stream.[[closeRequest]] to promise.
    stream.cold_mut(|c| c.close_request = Some(completion));
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
    debug_assert!(is_writable_stream_locked(stream));
    // 2. Assert: stream.[[state]] is "writable".
    debug_assert_eq!(stream.state(), WritableStreamState::Writable);
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
    stream
        .cold_if(|c| c.close_request.is_some() || c.in_flight_close_request.is_some())
        .unwrap_or(false)
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
    debug_assert_eq!(stream.state(), WritableStreamState::Erroring);
    // 4. Perform ! WritableStreamFinishErroring(stream).
    writable_stream_finish_erroring(stream, ctx);
}

/// [WritableStreamFinishErroring](https://streams.spec.whatwg.org/#writable-stream-finish-erroring)
pub fn writable_stream_finish_erroring(stream: &WritableStreamRef, ctx: &mut Context) {
    // 1. Assert: stream.[[state]] is "erroring".
    debug_assert_eq!(stream.state(), WritableStreamState::Erroring);
    // 2. Assert: ! WritableStreamHasOperationMarkedInFlight(stream) is false.
    debug_assert!(!writable_stream_has_operation_marked_in_flight(stream));
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
    let abort_request = stream.cold_if(|c| c.pending_abort_request.take()).flatten();
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
    let request = stream
        .cold_if(|c| c.in_flight_close_request.take())
        .flatten();
    debug_assert!(request.is_some());
    if let Some(request) = request {
        request.settle(Ok(JsValue::undefined()), ctx);
    }
    // 4. Let state be stream.[[state]].
    // 5. Assert: stream.[[state]] is "writable" or "erroring".
    debug_assert!(matches!(
        stream.state(),
        WritableStreamState::Writable | WritableStreamState::Erroring
    ));
    // 6. If state is "erroring",
    if stream.state() == WritableStreamState::Erroring {
        // 1. Set stream.[[storedError]] to undefined.
        stream.cold_if(|c| c.stored_error = JsValue::undefined());
        // 2. If stream.[[pendingAbortRequest]] is not undefined,
        //    1. Resolve stream.[[pendingAbortRequest]]'s promise with undefined.
        //    2. Set stream.[[pendingAbortRequest]] to undefined.
        let abort_request = stream.cold_if(|c| c.pending_abort_request.take()).flatten();
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
    debug_assert!(stream
        .cold_if(|c| c.pending_abort_request.is_none())
        .unwrap_or(true));
    // 11. Assert: stream.[[storedError]] is undefined.
    debug_assert!(stream.stored_error().is_undefined());
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
    let request = stream
        .cold_if(|c| c.in_flight_close_request.take())
        .flatten();
    debug_assert!(request.is_some());
    if let Some(request) = request {
        request.settle(Err(error.clone()), ctx);
    }
    // 4. Assert: stream.[[state]] is "writable" or "erroring".
    debug_assert!(matches!(
        stream.state(),
        WritableStreamState::Writable | WritableStreamState::Erroring
    ));
    // 5. If stream.[[pendingAbortRequest]] is not undefined,
    //    1. Reject stream.[[pendingAbortRequest]]'s promise with error.
    //    2. Set stream.[[pendingAbortRequest]] to undefined.
    let abort_request = stream.cold_if(|c| c.pending_abort_request.take()).flatten();
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
    debug_assert!(request.is_some());
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
    debug_assert!(request.is_some());
    if let Some(request) = request {
        request.settle(Err(error.clone()), ctx);
    }
    // 4. Assert: stream.[[state]] is "writable" or "erroring".
    debug_assert!(matches!(
        stream.state(),
        WritableStreamState::Writable | WritableStreamState::Erroring
    ));
    // 5. Perform ! WritableStreamDealWithRejection(stream, error).
    writable_stream_deal_with_rejection(stream, error, ctx);
}

/// [WritableStreamHasOperationMarkedInFlight](https://streams.spec.whatwg.org/#writable-stream-has-operation-marked-in-flight)
pub fn writable_stream_has_operation_marked_in_flight(stream: &WritableStreamRef) -> bool {
    // 1. If stream.[[inFlightWriteRequest]] is undefined and stream.[[inFlightCloseRequest]]
    //    is undefined, return false.
    // 2. Return true.
    stream.in_flight_write_request.borrow().is_some()
        || stream
            .cold_if(|c| c.in_flight_close_request.is_some())
            .unwrap_or(false)
}

/// [WritableStreamMarkCloseRequestInFlight](https://streams.spec.whatwg.org/#writable-stream-mark-close-request-in-flight)
pub fn writable_stream_mark_close_request_in_flight(stream: &WritableStreamRef) {
    // 1. Assert: stream.[[inFlightCloseRequest]] is undefined.
    debug_assert!(stream
        .cold_if(|c| c.in_flight_close_request.is_none())
        .unwrap_or(true));
    // 2. Assert: stream.[[closeRequest]] is not undefined.
    debug_assert!(stream
        .cold_if(|c| c.close_request.is_some())
        .unwrap_or(false));
    // 3. Set stream.[[inFlightCloseRequest]] to stream.[[closeRequest]].
    // 4. Set stream.[[closeRequest]] to undefined.
    stream.cold_if(|c| c.in_flight_close_request = c.close_request.take());
}

/// [WritableStreamMarkFirstWriteRequestInFlight](https://streams.spec.whatwg.org/#writable-stream-mark-first-write-request-in-flight)
pub fn writable_stream_mark_first_write_request_in_flight(stream: &WritableStreamRef) {
    // 1. Assert: stream.[[inFlightWriteRequest]] is undefined.
    debug_assert!(stream.in_flight_write_request.borrow().is_none());
    // 2. Assert: stream.[[writeRequests]] is not empty.
    debug_assert!(!stream.write_requests.borrow().is_empty());
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
    debug_assert_eq!(stream.state(), WritableStreamState::Errored);
    let stored_error = stream.stored_error();
    // 2. If stream.[[closeRequest]] is not undefined,
    //    1. Assert: stream.[[inFlightCloseRequest]] is undefined.
    //    2. Reject stream.[[closeRequest]] with stream.[[storedError]].
    //    3. Set stream.[[closeRequest]] to undefined.
    let close_request = stream.cold_if(|c| c.close_request.take()).flatten();
    if let Some(request) = close_request {
        debug_assert!(stream
            .cold_if(|c| c.in_flight_close_request.is_none())
            .unwrap_or(true));
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
    debug_assert!(stream.stored_error().is_undefined());
    // 2. Assert: stream.[[state]] is "writable".
    debug_assert_eq!(stream.state(), WritableStreamState::Writable);
    // 3. Let controller be stream.[[controller]].
    // 4. Assert: controller is not undefined.
    debug_assert!(stream.controller_object.borrow().is_some());
    // 5. Set stream.[[state]] to "erroring".
    stream.state.set(WritableStreamState::Erroring);
    // 6. Set stream.[[storedError]] to reason.
    stream.cold_mut(|c| c.stored_error = reason.clone());
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
    debug_assert_eq!(stream.state(), WritableStreamState::Writable);
    // 2. Assert: ! WritableStreamCloseQueuedOrInFlight(stream) is false.
    debug_assert!(!writable_stream_close_queued_or_in_flight(stream));
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
