//! The writable side: [default sink](https://streams.spec.whatwg.org/#ts-default-sink-abstract-ops)
//! abstract operations, and [`TransformSink`], the sink that calls them (writable/ calls it
//! through the `SinkSteps` trait every Rust sink implements, including
//! [`TransformSink::write_processed`] for the write processing's fast path).

use super::*;
use crate::chunk::Chunk;
use crate::writable::{SinkSteps, SinkWrite};

/// The writable side's start algorithm: "an algorithm that returns startPromise" (the
/// writable controller then takes "a promise resolved with" it, which adopts it).
pub(crate) fn start_algorithm_for_writable(
    stream: &JsObject<TransformStream>,
    ctx: &mut Context,
) -> Completion {
    let start = ts(stream, |s| s.start_promise.borrow().as_deref().cloned());
    match start {
        Some(Completion::Js(p)) => Completion::Js(promise_resolved_with(p.into(), ctx)),
        Some(p) => {
            let out = RustPromise::new();
            RustPromise::resolve_with(&out, p, ctx);
            Completion::Rust(out)
        }
        None => Completion::undefined(),
    }
}

/// The writable side's algorithms (InitializeTransformStream steps 1-4): a sink kind the
/// writable stream calls without knowing transform streams.
#[derive(Trace, Finalize)]
pub struct TransformSink {
    pub(super) stream: JsObject<TransformStream>,
}

impl TransformSink {
    /// The write algorithm for a chunk as the writable queued it (bytes as
    /// [`NativeSink::write_bytes`](crate::writable::NativeSink::write_bytes) gets them).
    pub(crate) fn write_chunk(&self, chunk: Chunk, ctx: &mut Context) -> Completion {
        let chunk = match chunk {
            Chunk::Bytes(bytes, _) => Chunk::bytes(bytes, ctx),
            chunk => chunk,
        };
        transform_stream_default_sink_write_algorithm(&self.stream, chunk, ctx)
    }

    /// The write algorithm as the writable's write processing performs it: with fast paths
    /// on, a transform that settles synchronously (fulfilled) without backpressure gives
    /// [`SinkWrite::FulfilledNextTick`] instead of the promise
    /// TransformStreamDefaultControllerPerformTransform returns ("the result of reacting to"
    /// the fulfilled transformPromise: it fulfills one microtask later).
    // NOTE: unobservable: that promise has one reaction, the write processing's, registered
    // right after the write algorithm returns (no job is enqueued in between); the microtask
    // that would fulfill it is enqueued at the same moment (when the write processing
    // reacts), and it enqueues the write processing's reaction as the promise's fulfillment
    // would. Its rejection steps (transformPromise rejected) keep the promise.
    pub(crate) fn write_processed(&self, chunk: Chunk, ctx: &mut Context) -> SinkWrite {
        let stream = &self.stream;
        if !boa_webidl::fast_paths()
            || !has_controller(stream)
            || ts(stream, TransformStream::backpressure) == Some(true)
        {
            return SinkWrite::Promise(self.write_chunk(chunk, ctx));
        }
        let chunk = match chunk {
            Chunk::Bytes(bytes, _) => Chunk::bytes(bytes, ctx),
            chunk => chunk,
        };
        // TransformStreamDefaultSinkWriteAlgorithm step 4 (no backpressure):
        // TransformStreamDefaultControllerPerformTransform(controller, chunk).
        debug_assert!(
            writable_of(stream).is_some_and(|w| w.state() == WritableStreamState::Writable)
        );
        match perform_transform_algorithm(stream, chunk, ctx) {
            Completion::Fulfilled(_) => SinkWrite::FulfilledNextTick,
            transform_promise => {
                SinkWrite::Promise(react_to_transform_promise(stream, transform_promise, ctx))
            }
        }
    }
}

impl SinkSteps for TransformSink {
    /// 1. Let startAlgorithm be an algorithm that returns startPromise.
    fn start(&self, _controller: &JsObject, ctx: &mut Context) -> JsResult<Completion> {
        Ok(start_algorithm_for_writable(&self.stream, ctx))
    }

    /// 2. Let writeAlgorithm be the following steps, taking a chunk argument:
    ///   1. Return ! TransformStreamDefaultSinkWriteAlgorithm(stream, chunk).
    fn write(&self, chunk: Chunk, _controller: &JsObject, ctx: &mut Context) -> Completion {
        self.write_chunk(chunk, ctx)
    }

    fn write_processed(
        &self,
        chunk: Chunk,
        _controller: &JsObject,
        ctx: &mut Context,
    ) -> SinkWrite {
        TransformSink::write_processed(self, chunk, ctx)
    }

    /// 4. Let closeAlgorithm be the following steps:
    ///   1. Return ! TransformStreamDefaultSinkCloseAlgorithm(stream).
    fn close(&self, ctx: &mut Context) -> Completion {
        transform_stream_default_sink_close_algorithm(&self.stream, ctx)
    }

    /// 3. Let abortAlgorithm be the following steps, taking a reason argument:
    ///   1. Return ! TransformStreamDefaultSinkAbortAlgorithm(stream, reason).
    fn abort(&self, reason: JsValue, ctx: &mut Context) -> Completion {
        transform_stream_default_sink_abort_algorithm(&self.stream, reason, ctx)
    }
}

/// [TransformStreamDefaultSinkWriteAlgorithm](https://streams.spec.whatwg.org/#transform-stream-default-sink-write-algorithm)
pub(crate) fn transform_stream_default_sink_write_algorithm(
    stream: &JsObject<TransformStream>,
    chunk: crate::chunk::Chunk,
    ctx: &mut Context,
) -> Completion {
    // 1. Assert: stream.[[writable]].[[state]] is "writable".
    debug_assert!(writable_of(stream).is_some_and(|w| w.state() == WritableStreamState::Writable));
    // 2. Let controller be stream.[[controller]]. (Its slots live in the stream.)
    debug_assert!(has_controller(stream));
    if !has_controller(stream) {
        return Completion::undefined();
    }
    // 3. If stream.[[backpressure]] is true,
    if ts(stream, TransformStream::backpressure) == Some(true) {
        //   1. Let backpressureChangePromise be stream.[[backpressureChangePromise]].
        //   2. Assert: backpressureChangePromise is not undefined.
        let change = backpressure_change_promise(stream);
        //   3. Return the result of reacting to backpressureChangePromise with the following
        //      fulfillment steps:
        return react(
            Completion::Rust(change),
            (stream.clone(), chunk),
            |(stream, chunk), settlement, ctx| {
                if let Err(e) = settlement {
                    return Completion::Rejected(e);
                }
                //   1. Let writable be stream.[[writable]].
                //   2. Let state be writable.[[state]].
                let Some(writable) = writable_of(stream) else {
                    return Completion::undefined();
                };
                //   3. If state is "erroring", throw writable.[[storedError]].
                if writable.state() == WritableStreamState::Erroring {
                    return Completion::Rejected(writable.stored_error());
                }
                //   4. Assert: state is "writable".
                debug_assert_eq!(writable.state(), WritableStreamState::Writable);
                //   5. Return ! TransformStreamDefaultControllerPerformTransform(controller,
                //      chunk).
                transform_stream_default_controller_perform_transform(stream, chunk.clone(), ctx)
            },
            ctx,
        );
    }
    // 4. Return ! TransformStreamDefaultControllerPerformTransform(controller, chunk).
    transform_stream_default_controller_perform_transform(stream, chunk, ctx)
}

/// Perform `stream.[[controller]].[[cancelAlgorithm]]` (the transformer's `cancel`, or a
/// promise resolved with undefined).
pub(crate) fn perform_cancel_algorithm(
    stream: &JsObject<TransformStream>,
    reason: JsValue,
    ctx: &mut Context,
) -> Completion {
    match stream_algorithms(stream) {
        Some(TransformerAlgorithms {
            transformer,
            cancel: Some(f),
            ..
        }) => invoke_promise_callback(&f, &transformer, &[reason], ctx),
        _ => Completion::undefined(),
    }
}

/// Take `stream.[[controller]].[[finishPromise]]` if set, else set it to a new promise and
/// return `Err(new)`.
pub(crate) fn existing_finish_promise(
    stream: &JsObject<TransformStream>,
) -> Result<Gc<RustPromise>, Gc<RustPromise>> {
    let b = stream.borrow();
    let mut slot = b.data().finish_promise.borrow_mut();
    match &*slot {
        Some(p) => Ok(p.clone()),
        None => {
            let p = RustPromise::new();
            *slot = Some(p.clone());
            Err(p)
        }
    }
}

/// [TransformStreamDefaultSinkAbortAlgorithm](https://streams.spec.whatwg.org/#transform-stream-default-sink-abort-algorithm)
pub fn transform_stream_default_sink_abort_algorithm(
    stream: &JsObject<TransformStream>,
    reason: JsValue,
    ctx: &mut Context,
) -> Completion {
    // 1. Let controller be stream.[[controller]]. (Its slots live in the stream.)
    if !has_controller(stream) {
        return Completion::undefined();
    }
    // 2. If controller.[[finishPromise]] is not undefined, return controller.[[finishPromise]].
    // 3. Let readable be stream.[[readable]].
    // 4. Let controller.[[finishPromise]] be a new promise.
    let finish = match existing_finish_promise(stream) {
        Ok(p) => return Completion::Rust(p),
        Err(p) => p,
    };
    // 5. Let cancelPromise be the result of performing controller.[[cancelAlgorithm]], passing
    //    reason.
    let cancel_promise = perform_cancel_algorithm(stream, reason.clone(), ctx);
    // 6. Perform ! TransformStreamDefaultControllerClearAlgorithms(controller).
    transform_stream_default_controller_clear_algorithms(stream);
    // 7. React to cancelPromise:
    cancel_promise.upon(
        (stream.clone(), finish.clone(), reason),
        |(stream, finish, reason), settlement, ctx| {
            let rc = readable_controller_of(stream);
            match settlement {
                //   1. If cancelPromise was fulfilled, then:
                Ok(_) => {
                    let (state, stored) = readable_state_and_error(stream);
                    //   1. If readable.[[state]] is "errored", reject
                    //      controller.[[finishPromise]] with readable.[[storedError]].
                    if state == StreamState::Errored {
                        finish.settle(Err(stored), ctx);
                    } else {
                        //   2. Otherwise:
                        //     1. Perform ! ReadableStreamDefaultControllerError(
                        //        readable.[[controller]], reason).
                        if let Some(rc) = rc {
                            readable_stream_default_controller_error(&rc, reason.clone(), ctx);
                        }
                        //     2. Resolve controller.[[finishPromise]] with undefined.
                        finish.resolve_undefined(ctx);
                    }
                }
                //   2. If cancelPromise was rejected with reason r, then:
                Err(r) => {
                    //   1. Perform ! ReadableStreamDefaultControllerError(
                    //      readable.[[controller]], r).
                    if let Some(rc) = rc {
                        readable_stream_default_controller_error(&rc, r.clone(), ctx);
                    }
                    //   2. Reject controller.[[finishPromise]] with r.
                    finish.settle(Err(r), ctx);
                }
            }
        },
        ctx,
    );
    // 8. Return controller.[[finishPromise]].
    Completion::Rust(finish)
}

/// [TransformStreamDefaultSinkCloseAlgorithm](https://streams.spec.whatwg.org/#transform-stream-default-sink-close-algorithm)
pub fn transform_stream_default_sink_close_algorithm(
    stream: &JsObject<TransformStream>,
    ctx: &mut Context,
) -> Completion {
    // 1. Let controller be stream.[[controller]]. (Its slots live in the stream.)
    if !has_controller(stream) {
        return Completion::undefined();
    }
    // 2. If controller.[[finishPromise]] is not undefined, return controller.[[finishPromise]].
    // 3. Let readable be stream.[[readable]].
    // 4. Let controller.[[finishPromise]] be a new promise.
    let finish = match existing_finish_promise(stream) {
        Ok(p) => return Completion::Rust(p),
        Err(p) => p,
    };
    // 5. Let flushPromise be the result of performing controller.[[flushAlgorithm]].
    // (A transformer with a `flush` member or Rust algorithms has a controller object.)
    let flush_promise = match (stream_algorithms(stream), controller_object(stream)) {
        (
            Some(TransformerAlgorithms {
                transformer,
                rust: Some(r),
                ..
            }),
            Some(controller),
        ) => match (r.flush)(&transformer, &controller, ctx) {
            Ok(()) => Completion::undefined(),
            // A native flush converts no user value (no user code runs).
            Err(e) => Completion::Rejected(webidl::own_error_value(e, ctx)),
        },
        (
            Some(TransformerAlgorithms {
                transformer,
                flush: Some(f),
                ..
            }),
            Some(controller),
        ) => invoke_promise_callback(&f, &transformer, &[controller.upcast().into()], ctx),
        _ => Completion::undefined(),
    };
    // 6. Perform ! TransformStreamDefaultControllerClearAlgorithms(controller).
    transform_stream_default_controller_clear_algorithms(stream);
    // 7. React to flushPromise:
    flush_promise.upon(
        (stream.clone(), finish.clone()),
        |(stream, finish), settlement, ctx| {
            let rc = readable_controller_of(stream);
            match settlement {
                //   1. If flushPromise was fulfilled, then:
                Ok(_) => {
                    let (state, stored) = readable_state_and_error(stream);
                    //   1. If readable.[[state]] is "errored", reject
                    //      controller.[[finishPromise]] with readable.[[storedError]].
                    if state == StreamState::Errored {
                        finish.settle(Err(stored), ctx);
                    } else {
                        //   2. Otherwise:
                        //     1. Perform ! ReadableStreamDefaultControllerClose(
                        //        readable.[[controller]]).
                        if let Some(rc) = rc {
                            readable_stream_default_controller_close(&rc, ctx);
                        }
                        //     2. Resolve controller.[[finishPromise]] with undefined.
                        finish.resolve_undefined(ctx);
                    }
                }
                //   2. If flushPromise was rejected with reason r, then:
                Err(r) => {
                    //   1. Perform ! ReadableStreamDefaultControllerError(
                    //      readable.[[controller]], r).
                    if let Some(rc) = rc {
                        readable_stream_default_controller_error(&rc, r.clone(), ctx);
                    }
                    //   2. Reject controller.[[finishPromise]] with r.
                    finish.settle(Err(r), ctx);
                }
            }
        },
        ctx,
    );
    // 8. Return controller.[[finishPromise]].
    Completion::Rust(finish)
}
