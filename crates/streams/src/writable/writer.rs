//! [The `WritableStreamDefaultWriter` class](https://streams.spec.whatwg.org/#default-writer-class)
//! and the [writer abstract operations](https://streams.spec.whatwg.org/#ws-writer-abstract-ops).
//!
//! A writer's slots are a [`WriterSlots`] GC box ([`WriterRef`]); a writer acquired from Rust
//! has no JS object at all.

use super::*;

/// A handle to a writer's internal slots.
pub type WriterRef = Gc<WriterSlots>;

/// Internal slots of a `WritableStreamDefaultWriter`.
#[derive(Debug, Trace, Finalize)]
pub struct WriterSlots {
    pub(super) closed_promise: GcRefCell<PromiseSlot>,
    pub(super) ready_promise: GcRefCell<PromiseSlot>,
    pub(super) stream: GcRefCell<Option<WritableStreamRef>>,
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

/// The `WritableStreamDefaultWriter` interface object's instance data.
#[derive(Debug, Trace, Finalize, JsData)]
pub struct WritableStreamDefaultWriter {
    pub(super) writer: WriterRef,
}

impl WritableStreamDefaultWriter {
    /// The slots of a JS writer (brand check, no JS runs).
    pub fn slots_of(value: &JsValue) -> Option<WriterRef> {
        let o = value.as_object()?.downcast::<Self>().ok()?;
        let w = o.borrow().data().writer.clone();
        Some(w)
    }

    fn this_writer(this: &JsValue) -> JsResult<WriterRef> {
        Self::slots_of(this)
            .ok_or_else(|| type_error("'this' is not a WritableStreamDefaultWriter object"))
    }
}

fn released_writer_rejection(ctx: &mut Context) -> JsValue {
    rejected_type_error("This writer has been released from its stream", ctx)
}

/// [closed](https://streams.spec.whatwg.org/#default-writer-closed)
fn closed(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let result = WritableStreamDefaultWriter::this_writer(this)
        // 1. Return this.[[closedPromise]].
        .map(|w| JsValue::from(w.closed_promise(ctx)));
    Ok(promise_from_own_result(result, ctx))
}

/// [desiredSize](https://streams.spec.whatwg.org/#default-writer-desired-size)
fn desired_size(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let w = WritableStreamDefaultWriter::this_writer(this)?;
    // 1. If this.[[stream]] is undefined, throw a TypeError exception.
    if w.stream().is_none() {
        return Err(type_error("This writer has been released from its stream"));
    }
    // 2. Return ! WritableStreamDefaultWriterGetDesiredSize(this).
    Ok(writable_stream_default_writer_get_desired_size(&w)
        .map_or_else(JsValue::null, JsValue::from))
}

/// [ready](https://streams.spec.whatwg.org/#default-writer-ready)
fn ready(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let result = WritableStreamDefaultWriter::this_writer(this)
        // 1. Return this.[[readyPromise]].
        .map(|w| JsValue::from(w.ready_promise(ctx)));
    Ok(promise_from_own_result(result, ctx))
}

/// [abort(reason)](https://streams.spec.whatwg.org/#default-writer-abort)
fn abort(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let result = WritableStreamDefaultWriter::this_writer(this).map(|w| {
        // 1. If this.[[stream]] is undefined, return a promise rejected with a
        //    TypeError exception.
        if w.stream().is_none() {
            return released_writer_rejection(ctx);
        }
        // 2. Return ! WritableStreamDefaultWriterAbort(this, reason).
        writable_stream_default_writer_abort(&w, arg(args, 0), AbortWaiter::Js, ctx)
            .map_or_else(JsValue::undefined, JsValue::from)
    });
    Ok(promise_from_own_result(result, ctx))
}

/// [close()](https://streams.spec.whatwg.org/#default-writer-close)
fn close(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let result = WritableStreamDefaultWriter::this_writer(this).map(|w| {
        // 1. Let stream be this.[[stream]].
        // 2. If stream is undefined, return a promise rejected with a TypeError
        //    exception.
        let Some(stream) = w.stream() else {
            return released_writer_rejection(ctx);
        };
        // 3. If ! WritableStreamCloseQueuedOrInFlight(stream) is true, return a
        //    promise rejected with a TypeError exception.
        if writable_stream_close_queued_or_in_flight(&stream) {
            return rejected_type_error("Cannot close a stream that is already closing", ctx);
        }
        // 4. Return ! WritableStreamDefaultWriterClose(this).
        let promise = PromiseCapability::new(ctx);
        let result = promise.value();
        writable_stream_default_writer_close(&w, Reaction::Promise(promise), ctx);
        result
    });
    Ok(promise_from_own_result(result, ctx))
}

/// [releaseLock()](https://streams.spec.whatwg.org/#default-writer-release-lock)
fn release_lock(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let w = WritableStreamDefaultWriter::this_writer(this)?;
    // 1. Let stream be this.[[stream]].
    // 2. If stream is undefined, return.
    if w.stream().is_none() {
        return Ok(JsValue::undefined());
    }
    // 3. Assert: stream.[[writer]] is not undefined.
    // 4. Perform ! WritableStreamDefaultWriterRelease(this).
    writable_stream_default_writer_release(&w, ctx);
    Ok(JsValue::undefined())
}

/// [write(chunk)](https://streams.spec.whatwg.org/#default-writer-write)
fn write(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let result = WritableStreamDefaultWriter::this_writer(this).map(|w| {
        // 1. If this.[[stream]] is undefined, return a promise rejected with a
        //    TypeError exception.
        if w.stream().is_none() {
            return released_writer_rejection(ctx);
        }
        // 2. Return ! WritableStreamDefaultWriterWrite(this, chunk).
        let promise = PromiseCapability::new(ctx);
        let result = promise.value();
        let request = Reaction::Promise(promise);
        writable_stream_default_writer_write(&w, arg(args, 0), request, ctx);
        result
    });
    Ok(promise_from_own_result(result, ctx))
}

impl Class for WritableStreamDefaultWriter {
    const NAME: &'static str = "WritableStreamDefaultWriter";
    const LENGTH: usize = 1;
    const ATTRIBUTES: boa_engine::property::Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(
            class,
            &[
                Member::attribute("closed", closed),
                Member::attribute("desiredSize", desired_size),
                Member::attribute("ready", ready),
                Member::operation("abort", 0, abort),
                Member::operation("close", 0, close),
                Member::operation("releaseLock", 0, release_lock),
                Member::operation("write", 0, write),
                Member::to_string_tag("WritableStreamDefaultWriter"),
            ],
        )
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        // `construct` is overridden; this is never reached.
        Err(illegal_constructor())
    }

    /// [new WritableStreamDefaultWriter(stream)](https://streams.spec.whatwg.org/#default-writer-constructor)
    fn construct(new_target: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsObject> {
        boa_webidl::require_new(new_target, "WritableStreamDefaultWriter")?;
        // WebIDL argument conversion: `WritableStream stream`.
        let Some(stream) = WritableStream::slots_of(&arg(args, 0)) else {
            return Err(type_error(
                "WritableStreamDefaultWriter constructor requires a WritableStream",
            ));
        };
        let proto = boa_dom::prototype_from_new_target::<Self>(new_target, ctx)?;
        // 1. Perform ? SetUpWritableStreamDefaultWriter(this, stream).
        let writer = set_up_writable_stream_default_writer(&stream, ctx)?;
        Ok(JsObject::new(
            ctx.root_shape(),
            proto,
            WritableStreamDefaultWriter { writer },
        )
        .upcast())
    }
}

// ---------------------------------------------------------------------------------------
// Writer abstract operations
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
    debug_assert!(writer.stream().is_some());
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
    debug_assert!(writer.stream().is_some());
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
    debug_assert!(writer.stream().is_some());
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
    debug_assert!(matches!(
        state,
        WritableStreamState::Writable | WritableStreamState::Erroring
    ));
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
    debug_assert!(writer.stream().is_some());
    let Some(stream) = writer.stream() else {
        return;
    };
    // 3. Assert: stream.[[writer]] is writer.
    debug_assert!(stream.writer().is_some_and(|w| Gc::ptr_eq(&w, writer)));
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
    writable_stream_default_writer_write_native(writer, Chunk::Js(chunk), completion, ctx);
}

/// [WritableStreamDefaultWriterWrite](https://streams.spec.whatwg.org/#writable-stream-default-writer-write)
/// of a chunk that may be Rust bytes (pipeTo's, see [`Chunk`](crate::chunk::Chunk)): they stay bytes in the
/// queue unless the strategy's `size()` is a JS function.
pub(crate) fn writable_stream_default_writer_write_native(
    writer: &WriterRef,
    chunk: Chunk,
    completion: Reaction,
    ctx: &mut Context,
) {
    // 1. Let stream be writer.[[stream]].
    // 2. Assert: stream is not undefined.
    // NOTE: not asserted: pipeTo writes a chunk one microtask after reading it, and a
    // shutdown that does not wait for writes (the destination is erroring or closing) may
    // have released the writer by then; the write is then rejected.
    let Some(stream) = writer.stream() else {
        let e = type_error_value("The writer has been released", ctx);
        completion.settle(Err(e), ctx);
        return;
    };
    // 3. Let controller be stream.[[controller]].
    // 4. Let chunkSize be ! WritableStreamDefaultControllerGetChunkSize(controller, chunk).
    let (chunk_size, chunk) =
        writable_stream_default_controller_get_chunk_size_native(&stream, chunk, ctx);
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
    debug_assert_eq!(state, WritableStreamState::Writable);
    // 11. Let promise be ! WritableStreamAddWriteRequest(stream).
    writable_stream_add_write_request(&stream, completion);
    // 12. Perform ! WritableStreamDefaultControllerWrite(controller, chunk, chunkSize).
    writable_stream_default_controller_write(&stream, chunk, chunk_size, ctx);
    // 13. Return promise.
}
