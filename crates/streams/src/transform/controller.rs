//! [The `TransformStreamDefaultController` class](https://streams.spec.whatwg.org/#ts-default-controller-class)
//! and the [default controller abstract operations](https://streams.spec.whatwg.org/#ts-default-controller-abstract-ops).

use super::*;
use crate::chunk::Chunk;

/// A `TransformStreamDefaultController` object's data: `[[stream]]`. Its other slots
/// (`[[transformAlgorithm]]`, `[[flushAlgorithm]]`, `[[cancelAlgorithm]]`,
/// `[[finishPromise]]`) live in the stream's [`TransformStream`] (stream and controller are
/// one-to-one), so that a controller script can never see needs no JS object (see
/// `set_up_transform_stream_default_controller`).
#[derive(Trace, Finalize, JsData)]
pub struct TransformStreamDefaultController {
    pub(super) stream: JsObject<TransformStream>,
}

impl std::fmt::Debug for TransformStreamDefaultController {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TransformStreamDefaultController")
            .finish_non_exhaustive()
    }
}

/// The interface's identifier.
const NAME: &str = "TransformStreamDefaultController";

/// [desiredSize](https://streams.spec.whatwg.org/#ts-default-controller-desired-size)
fn desired_size(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let c = brand::<TransformStreamDefaultController>(this, NAME)?;
    // 1. Let readableController be
    //    this.[[stream]].[[readable]].[[controller]].
    // 2. Return ! ReadableStreamDefaultControllerGetDesiredSize(readableController).
    let rc = readable_controller_of(&controller_stream(&c));
    Ok(rc
        .and_then(|rc| readable_stream_default_controller_get_desired_size(&rc))
        .map_or(JsValue::null(), JsValue::from))
}

/// [enqueue(chunk)](https://streams.spec.whatwg.org/#ts-default-controller-enqueue)
fn enqueue(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let c = brand::<TransformStreamDefaultController>(this, NAME)?;
    // 1. Perform ? TransformStreamDefaultControllerEnqueue(this, chunk).
    transform_stream_default_controller_enqueue(&c, arg(args, 0), ctx)?;
    Ok(JsValue::undefined())
}

/// [error(reason)](https://streams.spec.whatwg.org/#ts-default-controller-error)
fn error(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let c = brand::<TransformStreamDefaultController>(this, NAME)?;
    // 1. Perform ? TransformStreamDefaultControllerError(this, e).
    transform_stream_default_controller_error(&c, arg(args, 0), ctx);
    Ok(JsValue::undefined())
}

/// [terminate()](https://streams.spec.whatwg.org/#ts-default-controller-terminate)
fn terminate(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let c = brand::<TransformStreamDefaultController>(this, NAME)?;
    // 1. Perform ? TransformStreamDefaultControllerTerminate(this).
    transform_stream_default_controller_terminate(&c, ctx);
    Ok(JsValue::undefined())
}

impl Class for TransformStreamDefaultController {
    const NAME: &'static str = "TransformStreamDefaultController";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(
            class,
            &[
                Member::attribute("desiredSize", desired_size),
                Member::operation("enqueue", 0, enqueue),
                Member::operation("error", 0, error),
                Member::operation("terminate", 0, terminate),
                Member::to_string_tag(NAME),
            ],
        )
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        Err(illegal_constructor())
    }
}

/// [SetUpTransformStreamDefaultController](https://streams.spec.whatwg.org/#set-up-transform-stream-default-controller)
///
/// `visible`: whether script (or a Rust transformer) can ever be handed the controller: the
/// transformer has a `start`, `transform` or `flush` member (the only callbacks that receive
/// it), or Rust algorithms. Returns the controller's JS object when one is made.
// NOTE: the controller's slots live in the stream; without a `start`, `transform` or `flush`
// member no callback ever receives the controller, and no other path leads script to it
// (`TransformStream` exposes only `readable` and `writable`; the readable's and writable's own
// controllers are different objects). A JS object made for it could never be observed, so it
// is made only when `visible` (fast paths or not: an object nothing can reach is not a step).
pub(crate) fn set_up_transform_stream_default_controller(
    stream: &JsObject<TransformStream>,
    algorithms: TransformerAlgorithms,
    visible: bool,
    ctx: &mut Context,
) -> JsResult<Option<JsObject<TransformStreamDefaultController>>> {
    // 1. Assert: stream implements TransformStream.
    // 2. Assert: stream.[[controller]] is undefined.
    debug_assert!(!has_controller(stream));
    // 3. Set controller.[[stream]] to stream.
    let controller = if visible {
        let proto = ctx
            .get_global_class::<TransformStreamDefaultController>()
            .ok_or_else(|| type_error("TransformStreamDefaultController is not registered"))?
            .prototype();
        Some(JsObject::new(
            ctx.root_shape(),
            proto,
            TransformStreamDefaultController {
                stream: stream.clone(),
            },
        ))
    } else {
        None
    };
    ts(stream, |s| {
        // 4. Set stream.[[controller]] to controller.
        s.has_controller.set(true);
        *s.controller.borrow_mut() = controller.clone();
        // 5. Set controller.[[transformAlgorithm]] to transformAlgorithm.
        // 6. Set controller.[[flushAlgorithm]] to flushAlgorithm.
        // 7. Set controller.[[cancelAlgorithm]] to cancelAlgorithm.
        *s.algorithms.borrow_mut() = Some(algorithms);
        *s.finish_promise.borrow_mut() = None;
    });
    Ok(controller)
}

/// [SetUpTransformStreamDefaultControllerFromTransformer](https://streams.spec.whatwg.org/#set-up-transform-stream-default-controller-from-transformer)
///
/// `has_start`: whether `transformerDict["start"]` exists (it receives the controller).
pub(crate) fn set_up_transform_stream_default_controller_from_transformer(
    stream: &JsObject<TransformStream>,
    algorithms: TransformerAlgorithms,
    has_start: bool,
    ctx: &mut Context,
) -> JsResult<Option<JsObject<TransformStreamDefaultController>>> {
    // 1. Let controller be a new TransformStreamDefaultController.
    // 2-7. transformAlgorithm (TransformStreamDefaultControllerEnqueue when there is no
    //      transform), flushAlgorithm and cancelAlgorithm (a promise resolved with undefined
    //      when absent), or invoking the transformer's members: see
    //      transform_stream_default_controller_perform_transform and the sink/source
    //      algorithms, which dispatch on the converted members.
    let visible = has_start
        || algorithms.transform.is_some()
        || algorithms.flush.is_some()
        || algorithms.rust.is_some();
    // 8. Perform ! SetUpTransformStreamDefaultController(stream, controller,
    //    transformAlgorithm, flushAlgorithm, cancelAlgorithm).
    set_up_transform_stream_default_controller(stream, algorithms, visible, ctx)
}

/// [TransformStreamDefaultControllerClearAlgorithms](https://streams.spec.whatwg.org/#transform-stream-default-controller-clear-algorithms)
/// of `stream.[[controller]]` (its slots live in the stream).
pub fn transform_stream_default_controller_clear_algorithms(stream: &JsObject<TransformStream>) {
    // 1. Set controller.[[transformAlgorithm]] to undefined.
    // 2. Set controller.[[flushAlgorithm]] to undefined.
    // 3. Set controller.[[cancelAlgorithm]] to undefined.
    let old = ts(stream, |s| s.algorithms.borrow_mut().take());
    drop(old);
}

/// [TransformStreamDefaultControllerEnqueue](https://streams.spec.whatwg.org/#transform-stream-default-controller-enqueue)
pub fn transform_stream_default_controller_enqueue(
    controller: &JsObject<TransformStreamDefaultController>,
    chunk: JsValue,
    ctx: &mut Context,
) -> JsResult<()> {
    transform_stream_default_controller_enqueue_chunk(controller, Chunk::Js(chunk), ctx)
}

/// [TransformStreamDefaultControllerEnqueue](https://streams.spec.whatwg.org/#transform-stream-default-controller-enqueue)
/// of a chunk that may be Rust bytes (see `chunk`): they stay bytes in the readable
/// side's queue until they reach script.
pub fn transform_stream_default_controller_enqueue_chunk(
    controller: &JsObject<TransformStreamDefaultController>,
    chunk: Chunk,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. Let stream be controller.[[stream]].
    transform_stream_enqueue_chunk(&controller_stream(controller), chunk, ctx)
}

/// [TransformStreamDefaultControllerEnqueue](https://streams.spec.whatwg.org/#transform-stream-default-controller-enqueue)
/// on `stream.[[controller]]`, from step 2 (step 1 gave `stream`).
pub(crate) fn transform_stream_enqueue_chunk(
    stream: &JsObject<TransformStream>,
    chunk: Chunk,
    ctx: &mut Context,
) -> JsResult<()> {
    let stream = stream.clone();
    // 2. Let readableController be stream.[[readable]].[[controller]].
    let Some(rc) = readable_controller_of(&stream) else {
        return Err(type_error("The readable side is not set up"));
    };
    // 3. If ! ReadableStreamDefaultControllerCanCloseOrEnqueue(readableController) is false,
    //    throw a TypeError exception.
    if !readable_stream_default_controller_can_close_or_enqueue(&rc) {
        return Err(type_error(
            "The readable side is not in a state that permits enqueue",
        ));
    }
    // 4. Let enqueueResult be ReadableStreamDefaultControllerEnqueue(readableController,
    //    chunk).
    // 5. If enqueueResult is an abrupt completion,
    if let Err(e) = readable_stream_default_controller_enqueue_native(&rc, chunk, ctx) {
        //   1. Perform ! TransformStreamErrorWritableAndUnblockWrite(stream,
        //      enqueueResult.[[Value]]).
        // (a TypeError of the steps, or the strategy's size() exception, already caught)
        let e = webidl::own_error_value(e, ctx);
        transform_stream_error_writable_and_unblock_write(&stream, e, ctx);
        //   2. Throw stream.[[readable]].[[storedError]].
        let (_, stored) = readable_state_and_error(&stream);
        return Err(JsError::from_opaque(stored));
    }
    // 6. Let backpressure be ! ReadableStreamDefaultControllerHasBackpressure(
    //    readableController).
    let backpressure = readable_stream_default_controller_has_backpressure(&rc);
    // 7. If backpressure is not stream.[[backpressure]],
    if Some(backpressure) != ts(&stream, TransformStream::backpressure) {
        //   1. Assert: backpressure is true.
        debug_assert!(backpressure);
        //   2. Perform ! TransformStreamSetBackpressure(stream, true).
        transform_stream_set_backpressure(&stream, true, ctx);
    }
    Ok(())
}

/// [TransformStreamDefaultControllerError](https://streams.spec.whatwg.org/#transform-stream-default-controller-error)
pub fn transform_stream_default_controller_error(
    controller: &JsObject<TransformStreamDefaultController>,
    e: JsValue,
    ctx: &mut Context,
) {
    // 1. Perform ! TransformStreamError(controller.[[stream]], e).
    transform_stream_error(&controller_stream(controller), e, ctx);
}

/// [TransformStreamDefaultControllerPerformTransform](https://streams.spec.whatwg.org/#transform-stream-default-controller-perform-transform)
///
/// On `stream.[[controller]]` (its slots live in the stream).
pub(crate) fn transform_stream_default_controller_perform_transform(
    stream: &JsObject<TransformStream>,
    chunk: Chunk,
    ctx: &mut Context,
) -> Completion {
    // 1. Let transformPromise be the result of performing controller.[[transformAlgorithm]],
    //    passing chunk.
    let transform_promise = perform_transform_algorithm(stream, chunk, ctx);
    // 2. Return the result of reacting to transformPromise with the following rejection steps
    //    given the argument r:
    react_to_transform_promise(stream, transform_promise, ctx)
}

/// TransformStreamDefaultControllerPerformTransform step 1: performing
/// controller.\[\[transformAlgorithm\]\], passing chunk (transformPromise).
pub(crate) fn perform_transform_algorithm(
    stream: &JsObject<TransformStream>,
    chunk: Chunk,
    ctx: &mut Context,
) -> Completion {
    let algorithms = stream_algorithms(stream);
    // A transformer with a `transform` member or Rust algorithms has a controller object
    // (set_up_transform_stream_default_controller): the arms that pass it find it.
    let controller = match &algorithms {
        Some(a) if a.transform.is_some() || a.rust.is_some() => controller_object(stream),
        _ => None,
    };
    match (algorithms, controller) {
        // A native transformer that takes bytes gets a bytes chunk as it is (no user code
        // runs: the bytes are not a JS object).
        (
            Some(TransformerAlgorithms {
                transformer,
                rust:
                    Some(RustTransformer {
                        transform_bytes: Some(f),
                        ..
                    }),
                ..
            }),
            Some(controller),
        ) if matches!(chunk, Chunk::Bytes(..)) => {
            let Chunk::Bytes(bytes, _) = chunk else {
                return Completion::undefined();
            };
            match f(&transformer, bytes, &controller, ctx) {
                Ok(()) => Completion::undefined(),
                Err(e) => Completion::Rejected(webidl::own_error_value(e, ctx)),
            }
        }
        (
            Some(TransformerAlgorithms {
                transformer,
                rust: Some(r),
                ..
            }),
            Some(controller),
        ) => {
            // The chunk reaches the transformer as a JS value: Rust bytes become their
            // Uint8Array here.
            let chunk = chunk.into_js(ctx);
            // A native transformer runs user code only by converting an object chunk
            // (`toString`, `valueOf`, getters): then it runs inside webidl::catching.
            let result = if chunk.is_object() {
                webidl::catching(ctx, |ctx| {
                    (r.transform)(&transformer, chunk, &controller, ctx)
                })
                .map_err(webidl::Caught::into_value)
            } else {
                (r.transform)(&transformer, chunk, &controller, ctx)
                    .map_err(|e| webidl::own_error_value(e, ctx))
            };
            match result {
                Ok(()) => Completion::undefined(),
                Err(e) => Completion::Rejected(e),
            }
        }
        (
            Some(TransformerAlgorithms {
                transformer,
                transform: Some(f),
                ..
            }),
            Some(controller),
        ) => {
            // The chunk reaches script: Rust bytes become their Uint8Array here.
            let chunk = chunk.into_js(ctx);
            invoke_promise_callback(&f, &transformer, &[chunk, controller.upcast().into()], ctx)
        }
        // The default transformAlgorithm:
        //   1. Let result be TransformStreamDefaultControllerEnqueue(controller, chunk).
        //   2. If result is an abrupt completion, return a promise rejected with
        //      result.[[Value]].
        //   3. Otherwise, return a promise resolved with undefined.
        // (Rust bytes stay bytes: the readable side's queue takes them as they are.)
        (Some(_), _) => match transform_stream_enqueue_chunk(stream, chunk, ctx) {
            Ok(()) => Completion::undefined(),
            Err(e) => Completion::Rejected(webidl::own_error_value(e, ctx)),
        },
        // NOTE: spec hole. TransformStreamDefaultSourceCancelAlgorithm clears the algorithms
        // at once but errors the writable side only when cancelPromise settles; a write
        // processed in between (no backpressure) gets here with the algorithm cleared. Treat
        // it as a promise resolved with undefined, like the other cleared algorithms (the
        // difftest oracle patch spec-hole-transform-cleared-transform does the same).
        (None, _) => Completion::undefined(),
    }
}

/// TransformStreamDefaultControllerPerformTransform step 2: the result of reacting to
/// transformPromise with the rejection steps.
pub(crate) fn react_to_transform_promise(
    stream: &JsObject<TransformStream>,
    transform_promise: Completion,
    ctx: &mut Context,
) -> Completion {
    react(
        transform_promise,
        stream.clone(),
        |stream, settlement, ctx| match settlement {
            Ok(v) => Completion::Fulfilled(v),
            Err(r) => {
                //   1. Perform ! TransformStreamError(controller.[[stream]], r).
                transform_stream_error(stream, r.clone(), ctx);
                //   2. Throw r.
                Completion::Rejected(r)
            }
        },
        ctx,
    )
}

/// [TransformStreamDefaultControllerTerminate](https://streams.spec.whatwg.org/#transform-stream-default-controller-terminate)
pub fn transform_stream_default_controller_terminate(
    controller: &JsObject<TransformStreamDefaultController>,
    ctx: &mut Context,
) {
    // 1. Let stream be controller.[[stream]].
    let stream = controller_stream(controller);
    // 2. Let readableController be stream.[[readable]].[[controller]].
    // 3. Perform ! ReadableStreamDefaultControllerClose(readableController).
    if let Some(rc) = readable_controller_of(&stream) {
        readable_stream_default_controller_close(&rc, ctx);
    }
    // 4. Let error be a TypeError exception indicating that the stream has been terminated.
    let error = boa_webidl::type_error_value("The TransformStream has been terminated", ctx);
    // 5. Perform ! TransformStreamErrorWritableAndUnblockWrite(stream, error).
    transform_stream_error_writable_and_unblock_write(&stream, error, ctx);
}
