//! Writable streams ([spec §5](https://streams.spec.whatwg.org/#ws)): `WritableStream`,
//! `WritableStreamDefaultWriter`, `WritableStreamDefaultController`.
//!
//! # Internal API (for pipeTo, TransformStream and embedders)
//!
//! State lives in GC boxes, not in the JS objects: a stream and its controller share one
//! [`WritableStreamSlots`] box ([`WritableStreamRef`]); a writer is a [`WriterSlots`] box
//! ([`WriterRef`]). A writer acquired from Rust has no JS object at all. Get the box of a JS
//! `WritableStream` with [`WritableStream::slots_of`].
//!
//! Operations are named as the spec names them (see [`ops`] for all of them):
//!
//! - [`create_writable_stream`]`(algorithms, hwm, size)`: CreateWritableStream with
//!   [`SinkAlgorithms`] (`Js` underlying sink, `Transform` (TransformStream's sink side,
//!   dispatching to `crate::transform`), `Native` (a Rust [`NativeSink`])). Returns the JS
//!   stream object and its slots.
//! - [`acquire_writable_stream_default_writer`]`(stream) -> WriterRef`.
//! - [`writable_stream_default_writer_write`]`(writer, chunk, request)`: the request's promise
//!   is a [`Reaction`]: `Reaction::Promise` (a JS promise capability script holds) or
//!   `Reaction::Steps` (`fn` steps + traced captures, run as a microtask where a reaction to
//!   the spec's promise would run; no JS promise allocated).
//! - [`writable_stream_default_writer_close_with_error_propagation`]`(writer, completion)`,
//!   [`writable_stream_default_writer_close`], [`writable_stream_close`].
//! - [`writable_stream_abort`]`(stream, reason, AbortWaiter::{Js, Native})`: returns the
//!   (shared) JS promise for `Js`, settles the native completion otherwise.
//! - [`writable_stream_close_queued_or_in_flight`], [`is_writable_stream_locked`],
//!   [`WritableStreamSlots::state`] / [`WritableStreamSlots::stored_error`].
//! - [`writable_stream_default_writer_get_desired_size`] (`None` = null).
//! - Writer's ready / closed from Rust: [`writable_stream_default_writer_ready_state`],
//!   [`writable_stream_default_writer_closed_state`] (`None` while pending), and
//!   [`writable_stream_default_writer_upon_ready`] / [`writable_stream_default_writer_upon_closed`]
//!   (register a [`Reaction`] on the current promise, no JS promise allocated).
//! - [`writable_stream_default_writer_release`].
//! - [`writable_stream_default_controller_error_if_needed`],
//!   [`writable_stream_default_controller_error`],
//!   [`writable_stream_default_controller_get_desired_size`].
//!
//! Promises script can see (`writer.closed`, `writer.ready`, the results of `write()`,
//! `close()`, `abort()`) are real JS promises; `closed`/`ready` are materialised on first read
//! (see [`PromiseSlot`](crate::promise::PromiseSlot)). Sink results are
//! [`Completion`](crate::promise::Completion)s (settled, a JS promise, or a Rust promise);
//! requests are settled through their [`Reaction`]. With the fast paths on
//! ([`crate::fast_paths`]) a sink method returning a non-object (or throwing) settles through
//! one native microtask at the exact position of the spec's promise reaction.

mod ops;
mod sink;
#[cfg(test)]
mod tests;

pub use crate::strategies::SizeAlgorithm;
pub use ops::*;
pub use sink::{JsSink, NativeSink, NativeSinkBox, SinkAlgorithms};

use boa_engine::{
    class::{Class, ClassBuilder},
    Context, JsData, JsNativeError, JsObject, JsResult, JsValue, NativeFunction,
};
use boa_gc::{Finalize, Gc, Trace};

use crate::promise::{promise_rejected_with, PromiseCapability, Reaction};
use crate::webidl::{
    self as webidl, arg, attribute, illegal_constructor, operation, promise_from_own_result,
    to_string_tag, type_error, Dictionary, INTERFACE_ATTRIBUTES,
};

/// Register `WritableStream`, `WritableStreamDefaultWriter`, `WritableStreamDefaultController`.
pub(crate) fn register(context: &mut Context) -> JsResult<()> {
    webidl::register_interface::<WritableStream>(context)?;
    webidl::register_interface::<WritableStreamDefaultWriter>(context)?;
    webidl::register_interface::<WritableStreamDefaultController>(context)?;
    Ok(())
}

fn rejected_type_error(message: &str, ctx: &mut Context) -> JsValue {
    let e = crate::webidl::type_error_value(message, ctx);
    promise_rejected_with(e, ctx).into()
}

// ---------------------------------------------------------------------------------------
// WritableStream
// ---------------------------------------------------------------------------------------

/// The `WritableStream` interface object's instance data.
#[derive(Debug, Trace, Finalize, JsData)]
pub struct WritableStream {
    slots: WritableStreamRef,
}

impl WritableStream {
    /// The slots of a JS `WritableStream` (brand check, no JS runs).
    pub fn slots_of(value: &JsValue) -> Option<WritableStreamRef> {
        let o = value.as_object()?.downcast::<Self>().ok()?;
        let slots = o.borrow().data().slots.clone();
        Some(slots)
    }

    /// The slots of this stream.
    pub fn slots(&self) -> &WritableStreamRef {
        &self.slots
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
    // 1. Assert: ! IsNonNegativeNumber(highWaterMark) is true.
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
    set_up_writable_stream_default_controller(
        &slots,
        controller,
        algorithms,
        high_water_mark,
        size_algorithm,
        ctx,
    )?;
    // 6. Return stream.
    Ok((stream, slots))
}

impl Class for WritableStream {
    const NAME: &'static str = "WritableStream";
    const LENGTH: usize = 0;
    const ATTRIBUTES: boa_engine::property::Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        attribute(
            class,
            "locked",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let s = WritableStream::this_slots(this)?;
                // 1. Return ! IsWritableStreamLocked(this).
                Ok(is_writable_stream_locked(&s).into())
            }),
            None,
        );
        operation(
            class,
            "abort",
            0,
            NativeFunction::from_fn_ptr(|this, args, ctx| {
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
            }),
        );
        operation(
            class,
            "close",
            0,
            NativeFunction::from_fn_ptr(|this, _, ctx| {
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
            }),
        );
        operation(
            class,
            "getWriter",
            0,
            NativeFunction::from_fn_ptr(|this, _, ctx| {
                let s = WritableStream::this_slots(this)?;
                // 1. Return ? AcquireWritableStreamDefaultWriter(this).
                let writer = acquire_writable_stream_default_writer(&s, ctx)?;
                let obj = WritableStreamDefaultWriter::from_data(
                    WritableStreamDefaultWriter { writer },
                    ctx,
                )?;
                Ok(obj.into())
            }),
        );
        to_string_tag(class, "WritableStream");
        Ok(())
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        // `construct` is overridden; this is never reached.
        Err(illegal_constructor())
    }

    /// [new WritableStream(underlyingSink, strategy)](https://streams.spec.whatwg.org/#ws-constructor)
    fn construct(new_target: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsObject> {
        // Engine runtime-limit errors of the user code run here become catchable RangeErrors.
        crate::webidl::limits_catchable((|| -> JsResult<JsObject> {
            crate::webidl::require_new(new_target, "WritableStream")?;
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
            let proto = crate::dom::prototype_from_new_target::<Self>(new_target, ctx)?;
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
            let abort = dict.get_callback("abort", ctx)?;
            let close = dict.get_callback("close", ctx)?;
            let start = dict.get_callback("start", ctx)?;
            let ty = dict.get("type", ctx)?;
            let write = dict.get_callback("write", ctx)?;
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

// ---------------------------------------------------------------------------------------
// WritableStreamDefaultWriter
// ---------------------------------------------------------------------------------------

/// The `WritableStreamDefaultWriter` interface object's instance data.
#[derive(Debug, Trace, Finalize, JsData)]
pub struct WritableStreamDefaultWriter {
    writer: WriterRef,
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

impl Class for WritableStreamDefaultWriter {
    const NAME: &'static str = "WritableStreamDefaultWriter";
    const LENGTH: usize = 1;
    const ATTRIBUTES: boa_engine::property::Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        attribute(
            class,
            "closed",
            NativeFunction::from_fn_ptr(|this, _, ctx| {
                let result = WritableStreamDefaultWriter::this_writer(this)
                    // 1. Return this.[[closedPromise]].
                    .map(|w| JsValue::from(w.closed_promise(ctx)));
                Ok(promise_from_own_result(result, ctx))
            }),
            None,
        );
        attribute(
            class,
            "desiredSize",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let w = WritableStreamDefaultWriter::this_writer(this)?;
                // 1. If this.[[stream]] is undefined, throw a TypeError exception.
                if w.stream().is_none() {
                    return Err(type_error("This writer has been released from its stream"));
                }
                // 2. Return ! WritableStreamDefaultWriterGetDesiredSize(this).
                Ok(writable_stream_default_writer_get_desired_size(&w)
                    .map_or_else(JsValue::null, JsValue::from))
            }),
            None,
        );
        attribute(
            class,
            "ready",
            NativeFunction::from_fn_ptr(|this, _, ctx| {
                let result = WritableStreamDefaultWriter::this_writer(this)
                    // 1. Return this.[[readyPromise]].
                    .map(|w| JsValue::from(w.ready_promise(ctx)));
                Ok(promise_from_own_result(result, ctx))
            }),
            None,
        );
        operation(
            class,
            "abort",
            0,
            NativeFunction::from_fn_ptr(|this, args, ctx| {
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
            }),
        );
        operation(
            class,
            "close",
            0,
            NativeFunction::from_fn_ptr(|this, _, ctx| {
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
                        return rejected_type_error(
                            "Cannot close a stream that is already closing",
                            ctx,
                        );
                    }
                    // 4. Return ! WritableStreamDefaultWriterClose(this).
                    let promise = PromiseCapability::new(ctx);
                    let result = promise.value();
                    writable_stream_default_writer_close(&w, Reaction::Promise(promise), ctx);
                    result
                });
                Ok(promise_from_own_result(result, ctx))
            }),
        );
        operation(
            class,
            "releaseLock",
            0,
            NativeFunction::from_fn_ptr(|this, _, ctx| {
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
            }),
        );
        operation(
            class,
            "write",
            0,
            NativeFunction::from_fn_ptr(|this, args, ctx| {
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
            }),
        );
        to_string_tag(class, "WritableStreamDefaultWriter");
        Ok(())
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        // `construct` is overridden; this is never reached.
        Err(illegal_constructor())
    }

    /// [new WritableStreamDefaultWriter(stream)](https://streams.spec.whatwg.org/#default-writer-constructor)
    fn construct(new_target: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsObject> {
        crate::webidl::require_new(new_target, "WritableStreamDefaultWriter")?;
        // WebIDL argument conversion: `WritableStream stream`.
        let Some(stream) = WritableStream::slots_of(&arg(args, 0)) else {
            return Err(type_error(
                "WritableStreamDefaultWriter constructor requires a WritableStream",
            ));
        };
        let proto = crate::dom::prototype_from_new_target::<Self>(new_target, ctx)?;
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
// WritableStreamDefaultController
// ---------------------------------------------------------------------------------------

/// The `WritableStreamDefaultController` interface object's instance data (it shares its
/// stream's slots).
#[derive(Debug, Trace, Finalize, JsData)]
pub struct WritableStreamDefaultController {
    slots: WritableStreamRef,
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

impl Class for WritableStreamDefaultController {
    const NAME: &'static str = "WritableStreamDefaultController";
    const LENGTH: usize = 0;
    const ATTRIBUTES: boa_engine::property::Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        attribute(
            class,
            "signal",
            NativeFunction::from_fn_ptr(|this, _, ctx| {
                let s = WritableStreamDefaultController::this_slots(this)?;
                // 1. Return this.[[abortController]]'s signal.
                Ok(writable_stream_controller_signal(&s, ctx)?.into())
            }),
            None,
        );
        operation(
            class,
            "error",
            0,
            NativeFunction::from_fn_ptr(|this, args, ctx| {
                let s = WritableStreamDefaultController::this_slots(this)?;
                // 1. Let state be this.[[stream]].[[state]].
                // 2. If state is not "writable", return.
                if s.state() != WritableStreamState::Writable {
                    return Ok(JsValue::undefined());
                }
                // 3. Perform ! WritableStreamDefaultControllerError(this, e).
                writable_stream_default_controller_error(&s, arg(args, 0), ctx);
                Ok(JsValue::undefined())
            }),
        );
        to_string_tag(class, "WritableStreamDefaultController");
        Ok(())
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        Err(illegal_constructor())
    }
}
