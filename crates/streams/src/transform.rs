//! Transform streams ([spec §6](https://streams.spec.whatwg.org/#ts)): `TransformStream` and
//! `TransformStreamDefaultController`.
//!
//! The writable side's sink algorithms are [`SinkAlgorithms::Transform`] and the readable
//! side's source algorithms are [`SourceAlgorithms::Rust`]: enum variants dispatching to the
//! `TransformStreamDefaultSink*` / `TransformStreamDefaultSource*` operations below, no
//! closures. Internal promises (`[[backpressureChangePromise]]`, `[[finishPromise]]`, the
//! results of the sink algorithms) are Rust-side [`RustPromise`]s: script never sees them, and
//! their reactions run at the microtask positions JS promise reactions would take.
//!
//! Sync fast path ([`crate::fast_paths`]): a transformer's `transform()` / `flush()` /
//! `cancel()` returning a non-object (or throwing) yields an already-settled [`Completion`]
//! (no promise allocated); the reaction to it is a native microtask at the position of the
//! spec's reaction to "a promise resolved with" that value.

use std::cell::Cell;

use boa_engine::{
    class::{Class, ClassBuilder},
    property::Attribute,
    Context, JsData, JsError, JsObject, JsResult, JsValue, NativeFunction,
};
use boa_gc::{Finalize, Gc, GcRefCell, Trace};

use crate::completion::{invoke_promise_callback, react, StepResult};
use crate::readable::{
    create_readable_stream, readable_stream_default_controller_can_close_or_enqueue,
    readable_stream_default_controller_close, readable_stream_default_controller_enqueue,
    readable_stream_default_controller_error, readable_stream_default_controller_get_desired_size,
    readable_stream_default_controller_has_backpressure, Completion, ReadableStream,
    ReadableStreamDefaultController, RustPromise, RustSource, SourceAlgorithms, StartAlgorithm,
    StreamController, StreamState,
};
use crate::strategies::{
    extract_high_water_mark, extract_size_algorithm, QueuingStrategy, SizeAlgorithm,
};
use crate::webidl::{
    self, arg, brand, illegal_constructor, promise_resolved_with, range_error, type_error,
    Dictionary, PromiseCapability, INTERFACE_ATTRIBUTES,
};
use crate::writable::{
    create_writable_stream, writable_stream_default_controller_error_if_needed, SinkAlgorithms,
    SinkResult, WritableStreamRef, WritableStreamState,
};

/// Register `TransformStream` and `TransformStreamDefaultController`.
pub(crate) fn register(context: &mut Context) -> JsResult<()> {
    webidl::register_interface::<TransformStream>(context)?;
    webidl::register_interface::<TransformStreamDefaultController>(context)?;
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Promise helpers (Rust-side "reacting")
// ---------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------
// TransformStream
// ---------------------------------------------------------------------------------------

/// The transformer's members as converted from the `Transformer` dictionary, with the object
/// itself as the callback this value.
#[derive(Clone, Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
pub struct TransformerAlgorithms {
    transformer: JsValue,
    transform: Option<JsObject>,
    flush: Option<JsObject>,
    cancel: Option<JsObject>,
    /// Rust-side transform/flush algorithms of a stream "set up" by another specification
    /// (then `transformer` holds their state and the JS members are absent).
    #[unsafe_ignore_trace]
    rust: Option<RustTransformer>,
}

/// The transformAlgorithm and flushAlgorithm given to
/// [set up](https://streams.spec.whatwg.org/#transformstream-set-up) a `TransformStream` from
/// Rust. Both get the state value passed to [`transform_stream_set_up`]; an `Err` becomes a
/// rejected promise (the wrappers' "if this throws an exception e, return a promise rejected
/// with e"). The cancelAlgorithm is the default (a promise resolved with undefined).
#[derive(Clone, Copy)]
pub(crate) struct RustTransformer {
    /// transformAlgorithm, given the state, the chunk and the controller.
    pub(crate) transform: fn(
        &JsValue,
        JsValue,
        &JsObject<TransformStreamDefaultController>,
        &mut Context,
    ) -> JsResult<()>,
    /// flushAlgorithm, given the state and the controller.
    pub(crate) flush:
        fn(&JsValue, &JsObject<TransformStreamDefaultController>, &mut Context) -> JsResult<()>,
}

/// [Set up](https://streams.spec.whatwg.org/#transformstream-set-up) a new `TransformStream`
/// with Rust-side algorithms (writable high water mark 1, readable 0, sizes returning 1).
pub(crate) fn transform_stream_set_up(
    state: JsValue,
    algorithms: RustTransformer,
    ctx: &mut Context,
) -> JsResult<JsObject<TransformStream>> {
    let proto = ctx
        .get_global_class::<TransformStream>()
        .ok_or_else(|| type_error("TransformStream is not registered"))?
        .prototype();
    let stream = JsObject::new(ctx.root_shape(), proto, TransformStream::empty());
    // 1. Let writableHighWaterMark be 1.
    // 2. Let writableSizeAlgorithm be an algorithm that returns 1.
    // 3. Let readableHighWaterMark be 0.
    // 4. Let readableSizeAlgorithm be an algorithm that returns 1.
    // 5-7. transformAlgorithmWrapper, flushAlgorithmWrapper, cancelAlgorithmWrapper: see
    //      RustTransformer and the dispatch in the controller's algorithms.
    // 8. Let startPromise be a promise resolved with undefined.
    let start_promise = RustPromise::new();
    start_promise.resolve_undefined(ctx);
    // 9. Perform ! InitializeTransformStream(stream, startPromise, writableHighWaterMark,
    //    writableSizeAlgorithm, readableHighWaterMark, readableSizeAlgorithm).
    initialize_transform_stream(
        &stream,
        StartPromise::Rust(start_promise.clone()),
        1.0,
        SizeAlgorithm::ReturnOne,
        0.0,
        SizeAlgorithm::ReturnOne,
        ctx,
    )?;
    // 10. Let controller be a new TransformStreamDefaultController.
    // 11. Perform ! SetUpTransformStreamDefaultController(stream, controller,
    //     transformAlgorithmWrapper, flushAlgorithmWrapper, cancelAlgorithmWrapper).
    set_up_transform_stream_default_controller(
        &stream,
        TransformerAlgorithms {
            transformer: state,
            transform: None,
            flush: None,
            cancel: None,
            rust: Some(algorithms),
        },
        ctx,
    )?;
    Ok(stream)
}

/// `startPromise` while the streams are being set up: a JS promise when the transformer has a
/// `start` method (its result may be any thenable), a Rust-side one otherwise.
#[derive(Clone, Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
enum StartPromise {
    Js(PromiseCapability),
    Rust(Gc<RustPromise>),
}

impl StartPromise {
    fn completion(&self) -> Completion {
        match self {
            Self::Js(p) => Completion::Js(p.promise.clone()),
            Self::Rust(p) => Completion::Rust(p.clone()),
        }
    }
}

/// Arguments converted by the constructor's IDL layer and steps 1-8, consumed by the rest.
#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
struct PendingInit {
    algorithms: TransformerAlgorithms,
    start: Option<JsObject>,
    #[unsafe_ignore_trace]
    readable_hwm: f64,
    readable_size: SizeAlgorithm,
    #[unsafe_ignore_trace]
    writable_hwm: f64,
    writable_size: SizeAlgorithm,
}

/// A `TransformStream` object's internal slots.
#[derive(Trace, Finalize, JsData)]
pub struct TransformStream {
    /// `[[backpressure]]` (`None` = undefined, before InitializeTransformStream sets it).
    #[unsafe_ignore_trace]
    backpressure: Cell<Option<bool>>,
    backpressure_change_promise: GcRefCell<Option<Gc<RustPromise>>>,
    controller: GcRefCell<Option<JsObject<TransformStreamDefaultController>>>,
    readable: GcRefCell<Option<JsObject<ReadableStream>>>,
    writable: GcRefCell<Option<(JsObject, WritableStreamRef)>>,
    start_promise: GcRefCell<Option<StartPromise>>,
    pending_init: GcRefCell<Option<PendingInit>>,
}

impl std::fmt::Debug for TransformStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TransformStream").finish_non_exhaustive()
    }
}

impl TransformStream {
    /// `[[readable]]`.
    pub fn readable(&self) -> Option<JsObject<ReadableStream>> {
        self.readable.borrow().clone()
    }

    /// `[[writable]]` (the JS object).
    pub fn writable(&self) -> Option<JsObject> {
        self.writable.borrow().as_ref().map(|(o, _)| o.clone())
    }

    /// `[[writable]]`'s slots.
    pub fn writable_slots(&self) -> Option<WritableStreamRef> {
        self.writable.borrow().as_ref().map(|(_, s)| s.clone())
    }

    /// `[[backpressure]]`.
    pub fn backpressure(&self) -> Option<bool> {
        self.backpressure.get()
    }
}

fn ts<R>(stream: &JsObject<TransformStream>, f: impl FnOnce(&TransformStream) -> R) -> R {
    f(stream.borrow().data())
}

fn ts_controller(
    stream: &JsObject<TransformStream>,
) -> Option<JsObject<TransformStreamDefaultController>> {
    ts(stream, |s| s.controller.borrow().clone())
}

fn readable_of(stream: &JsObject<TransformStream>) -> Option<JsObject<ReadableStream>> {
    ts(stream, TransformStream::readable)
}

fn writable_of(stream: &JsObject<TransformStream>) -> Option<WritableStreamRef> {
    ts(stream, TransformStream::writable_slots)
}

/// `stream.[[readable]].[[controller]]`.
fn readable_controller_of(
    stream: &JsObject<TransformStream>,
) -> Option<JsObject<ReadableStreamDefaultController>> {
    let readable = readable_of(stream)?;
    let controller = readable.borrow().data().controller();
    controller.and_then(StreamController::into_default)
}

fn readable_state_and_error(stream: &JsObject<TransformStream>) -> (StreamState, JsValue) {
    readable_of(stream).map_or((StreamState::Closed, JsValue::undefined()), |r| {
        let b = r.borrow();
        (b.data().state(), b.data().stored_error())
    })
}

impl Class for TransformStream {
    const NAME: &'static str = "TransformStream";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::attribute(
            class,
            "readable",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let stream = brand::<TransformStream>(this, "TransformStream")?;
                // 1. Return this.[[readable]].
                Ok(readable_of(&stream).map_or_else(JsValue::undefined, |r| r.upcast().into()))
            }),
            None,
        );
        webidl::attribute(
            class,
            "writable",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let stream = brand::<TransformStream>(this, "TransformStream")?;
                // 1. Return this.[[writable]].
                Ok(ts(&stream, TransformStream::writable)
                    .map_or_else(JsValue::undefined, JsValue::from))
            }),
            None,
        );
        webidl::to_string_tag(class, "TransformStream");
        Ok(())
    }

    fn data_constructor(
        _new_target: &JsValue,
        args: &[JsValue],
        ctx: &mut Context,
    ) -> JsResult<Self> {
        // Engine runtime-limit errors of the user code run here become catchable RangeErrors.
        crate::webidl::limits_catchable((|| -> JsResult<Self> {
            // IDL layer: `optional object transformer`.
            let transformer = arg(args, 0);
            let transformer_object = if transformer.is_undefined() {
                // 1. If transformer is missing, set it to null.
                None
            } else {
                match transformer.as_object() {
                    Some(o) => Some(o.clone()),
                    None => return Err(type_error("transformer must be an object")),
                }
            };
            // IDL layer: `optional QueuingStrategy writableStrategy = {}`, then
            // `optional QueuingStrategy readableStrategy = {}`.
            let writable_strategy = QueuingStrategy::from_value(&arg(args, 1), ctx)?;
            let readable_strategy = QueuingStrategy::from_value(&arg(args, 2), ctx)?;
            // 2. Let transformerDict be transformer, converted to an IDL value of type Transformer.
            //    (Members in lexicographic order: cancel, flush, readableType, start, transform,
            //    writableType.)
            let dict = Dictionary::from_object(transformer_object.clone());
            let cancel = dict.get_callback("cancel", ctx)?;
            let flush = dict.get_callback("flush", ctx)?;
            let readable_type = dict.get("readableType", ctx)?;
            let start = dict.get_callback("start", ctx)?;
            let transform = dict.get_callback("transform", ctx)?;
            let writable_type = dict.get("writableType", ctx)?;
            // 3. If transformerDict["readableType"] exists, throw a RangeError exception.
            if readable_type.is_some() {
                return Err(range_error("Invalid readableType specified"));
            }
            // 4. If transformerDict["writableType"] exists, throw a RangeError exception.
            if writable_type.is_some() {
                return Err(range_error("Invalid writableType specified"));
            }
            // 5. Let readableHighWaterMark be ? ExtractHighWaterMark(readableStrategy, 0).
            let readable_hwm = extract_high_water_mark(&readable_strategy, 0.0)?;
            // 6. Let readableSizeAlgorithm be ! ExtractSizeAlgorithm(readableStrategy).
            let readable_size = extract_size_algorithm(&readable_strategy, ctx);
            // 7. Let writableHighWaterMark be ? ExtractHighWaterMark(writableStrategy, 1).
            let writable_hwm = extract_high_water_mark(&writable_strategy, 1.0)?;
            // 8. Let writableSizeAlgorithm be ! ExtractSizeAlgorithm(writableStrategy).
            let writable_size = extract_size_algorithm(&writable_strategy, ctx);
            let stream = Self::empty();
            *stream.pending_init.borrow_mut() = Some(PendingInit {
                algorithms: TransformerAlgorithms {
                    transformer: transformer_object.map_or_else(JsValue::null, JsValue::from),
                    transform,
                    flush,
                    cancel,
                    rust: None,
                },
                start,
                readable_hwm,
                readable_size,
                writable_hwm,
                writable_size,
            });
            Ok(stream)
        })())
    }

    fn object_constructor(
        instance: &JsObject<Self>,
        _args: &[JsValue],
        ctx: &mut Context,
    ) -> JsResult<()> {
        // Engine runtime-limit errors of the user code run here become catchable RangeErrors.
        crate::webidl::limits_catchable((|| -> JsResult<()> {
            let init = ts(instance, |s| s.pending_init.borrow_mut().take());
            let Some(init) = init else {
                return Ok(());
            };
            // 9. Let startPromise be a new promise.
            // NOTE: without a `start` method the promise is resolved with undefined below, before
            // any reaction to it can run; a Rust-side promise has the same reaction timing.
            let start_promise = if init.start.is_some() || !crate::fast_paths() {
                StartPromise::Js(PromiseCapability::new(ctx))
            } else {
                StartPromise::Rust(RustPromise::new())
            };
            // 10. Perform ! InitializeTransformStream(this, startPromise, writableHighWaterMark,
            //     writableSizeAlgorithm, readableHighWaterMark, readableSizeAlgorithm).
            initialize_transform_stream(
                instance,
                start_promise.clone(),
                init.writable_hwm,
                init.writable_size,
                init.readable_hwm,
                init.readable_size,
                ctx,
            )?;
            // 11. Perform ? SetUpTransformStreamDefaultControllerFromTransformer(this, transformer,
            //     transformerDict).
            let controller = set_up_transform_stream_default_controller_from_transformer(
                instance,
                init.algorithms.clone(),
                ctx,
            )?;
            match (init.start, start_promise) {
                // 12. If transformerDict["start"] exists, then resolve startPromise with the result
                //     of invoking transformerDict["start"] with argument list
                //     « this.[[controller]] » and callback this value transformer.
                (Some(start), StartPromise::Js(p)) => {
                    let result = start.call(
                        &init.algorithms.transformer,
                        &[controller.upcast().into()],
                        ctx,
                    )?;
                    p.resolve(result, ctx);
                }
                // 13. Otherwise, resolve startPromise with undefined.
                (_, StartPromise::Js(p)) => p.resolve(JsValue::undefined(), ctx),
                (_, StartPromise::Rust(p)) => p.resolve_undefined(ctx),
            }
            Ok(())
        })())
    }
}

impl TransformStream {
    fn empty() -> Self {
        Self {
            backpressure: Cell::new(None),
            backpressure_change_promise: GcRefCell::new(None),
            controller: GcRefCell::new(None),
            readable: GcRefCell::new(None),
            writable: GcRefCell::new(None),
            start_promise: GcRefCell::new(None),
            pending_init: GcRefCell::new(None),
        }
    }
}

/// The writable side's start algorithm: "an algorithm that returns startPromise" (the
/// writable controller then takes "a promise resolved with" it, which adopts it).
pub(crate) fn start_algorithm_for_writable(
    stream: &JsObject<TransformStream>,
    ctx: &mut Context,
) -> SinkResult {
    let start = ts(stream, |s| s.start_promise.borrow().clone());
    match start {
        Some(StartPromise::Js(p)) => {
            SinkResult::Js(promise_resolved_with(p.promise.clone().into(), ctx))
        }
        Some(StartPromise::Rust(p)) => {
            let out = RustPromise::new();
            RustPromise::resolve_with(&out, Completion::Rust(p), ctx);
            SinkResult::Rust(out)
        }
        None => SinkResult::undefined(),
    }
}

// ---------------------------------------------------------------------------------------
// Abstract operations: working with transform streams
// ---------------------------------------------------------------------------------------

/// [InitializeTransformStream](https://streams.spec.whatwg.org/#initialize-transform-stream)
#[allow(clippy::too_many_arguments)]
fn initialize_transform_stream(
    stream: &JsObject<TransformStream>,
    start_promise: StartPromise,
    writable_hwm: f64,
    writable_size: SizeAlgorithm,
    readable_hwm: f64,
    readable_size: SizeAlgorithm,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. Let startAlgorithm be an algorithm that returns startPromise.
    ts(stream, |s| {
        *s.start_promise.borrow_mut() = Some(start_promise.clone())
    });
    // 2. Let writeAlgorithm be the following steps, taking a chunk argument:
    //   1. Return ! TransformStreamDefaultSinkWriteAlgorithm(stream, chunk).
    // 3. Let abortAlgorithm be the following steps, taking a reason argument:
    //   1. Return ! TransformStreamDefaultSinkAbortAlgorithm(stream, reason).
    // 4. Let closeAlgorithm be the following steps:
    //   1. Return ! TransformStreamDefaultSinkCloseAlgorithm(stream).
    // 5. Set stream.[[writable]] to ! CreateWritableStream(startAlgorithm, writeAlgorithm,
    //    closeAlgorithm, abortAlgorithm, writableHighWaterMark, writableSizeAlgorithm).
    let writable = create_writable_stream(
        SinkAlgorithms::Transform {
            stream: stream.clone(),
        },
        writable_hwm,
        writable_size,
        ctx,
    )?;
    ts(stream, |s| *s.writable.borrow_mut() = Some(writable));
    // 6. Let pullAlgorithm be the following steps:
    //   1. Return ! TransformStreamDefaultSourcePullAlgorithm(stream).
    // 7. Let cancelAlgorithm be the following steps, taking a reason argument:
    //   1. Return ! TransformStreamDefaultSourceCancelAlgorithm(stream, reason).
    // 8. Set stream.[[readable]] to ! CreateReadableStream(startAlgorithm, pullAlgorithm,
    //    cancelAlgorithm, readableHighWaterMark, readableSizeAlgorithm).
    let readable = create_readable_stream(
        StartAlgorithm::Return(start_promise.completion()),
        SourceAlgorithms::Rust(RustSource {
            state: stream.clone().upcast().into(),
            pull: |state, ctx| match state
                .as_object()
                .and_then(|o| o.downcast::<TransformStream>().ok())
            {
                Some(s) => transform_stream_default_source_pull_algorithm(&s, ctx),
                None => Completion::undefined(),
            },
            cancel: |state, reason, ctx| match state
                .as_object()
                .and_then(|o| o.downcast::<TransformStream>().ok())
            {
                Some(s) => transform_stream_default_source_cancel_algorithm(&s, reason, ctx),
                None => Completion::undefined(),
            },
        }),
        Some(readable_hwm),
        Some(readable_size),
        ctx,
    )?;
    ts(stream, |s| {
        *s.readable.borrow_mut() = Some(readable);
        // The start algorithms have run; the slot is not needed any more.
        *s.start_promise.borrow_mut() = None;
        // 9. Set stream.[[backpressure]] and stream.[[backpressureChangePromise]] to
        //    undefined.
        s.backpressure.set(None);
        *s.backpressure_change_promise.borrow_mut() = None;
    });
    // 10. Perform ! TransformStreamSetBackpressure(stream, true).
    transform_stream_set_backpressure(stream, true, ctx);
    // 11. Set stream.[[controller]] to undefined.
    ts(stream, |s| *s.controller.borrow_mut() = None);
    Ok(())
}

/// [TransformStreamError](https://streams.spec.whatwg.org/#transform-stream-error)
pub fn transform_stream_error(stream: &JsObject<TransformStream>, e: JsValue, ctx: &mut Context) {
    // 1. Perform ! ReadableStreamDefaultControllerError(stream.[[readable]].[[controller]], e).
    if let Some(rc) = readable_controller_of(stream) {
        readable_stream_default_controller_error(&rc, e.clone(), ctx);
    }
    // 2. Perform ! TransformStreamErrorWritableAndUnblockWrite(stream, e).
    transform_stream_error_writable_and_unblock_write(stream, e, ctx);
}

/// [TransformStreamErrorWritableAndUnblockWrite](https://streams.spec.whatwg.org/#transform-stream-error-writable-and-unblock-write)
pub fn transform_stream_error_writable_and_unblock_write(
    stream: &JsObject<TransformStream>,
    e: JsValue,
    ctx: &mut Context,
) {
    // 1. Perform ! TransformStreamDefaultControllerClearAlgorithms(stream.[[controller]]).
    if let Some(c) = ts_controller(stream) {
        transform_stream_default_controller_clear_algorithms(&c);
    }
    // 2. Perform ! WritableStreamDefaultControllerErrorIfNeeded(
    //    stream.[[writable]].[[controller]], e).
    if let Some(w) = writable_of(stream) {
        writable_stream_default_controller_error_if_needed(&w, e, ctx);
    }
    // 3. Perform ! TransformStreamUnblockWrite(stream).
    transform_stream_unblock_write(stream, ctx);
}

/// [TransformStreamSetBackpressure](https://streams.spec.whatwg.org/#transform-stream-set-backpressure)
pub fn transform_stream_set_backpressure(
    stream: &JsObject<TransformStream>,
    backpressure: bool,
    ctx: &mut Context,
) {
    // 1. Assert: stream.[[backpressure]] is not backpressure.
    // 2. If stream.[[backpressureChangePromise]] is not undefined, resolve
    //    stream.[[backpressureChangePromise]] with undefined.
    // 3. Set stream.[[backpressureChangePromise]] to a new promise.
    let old = ts(stream, |s| {
        s.backpressure_change_promise
            .borrow_mut()
            .replace(RustPromise::new())
    });
    if let Some(old) = old {
        old.resolve_undefined(ctx);
    }
    // 4. Set stream.[[backpressure]] to backpressure.
    ts(stream, |s| s.backpressure.set(Some(backpressure)));
}

/// [TransformStreamUnblockWrite](https://streams.spec.whatwg.org/#transform-stream-unblock-write)
pub fn transform_stream_unblock_write(stream: &JsObject<TransformStream>, ctx: &mut Context) {
    // 1. If stream.[[backpressure]] is true, perform ! TransformStreamSetBackpressure(stream,
    //    false).
    if ts(stream, TransformStream::backpressure) == Some(true) {
        transform_stream_set_backpressure(stream, false, ctx);
    }
}

// ---------------------------------------------------------------------------------------
// TransformStreamDefaultController
// ---------------------------------------------------------------------------------------

/// A `TransformStreamDefaultController`'s internal slots.
#[derive(Trace, Finalize, JsData)]
pub struct TransformStreamDefaultController {
    stream: JsObject<TransformStream>,
    /// `[[transformAlgorithm]]`, `[[flushAlgorithm]]`, `[[cancelAlgorithm]]` (`None` once
    /// cleared).
    algorithms: GcRefCell<Option<TransformerAlgorithms>>,
    finish_promise: GcRefCell<Option<Gc<RustPromise>>>,
}

impl std::fmt::Debug for TransformStreamDefaultController {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TransformStreamDefaultController")
            .finish_non_exhaustive()
    }
}

impl TransformStreamDefaultController {
    /// `[[stream]]`.
    pub fn stream(&self) -> JsObject<TransformStream> {
        self.stream.clone()
    }
}

fn controller_stream(c: &JsObject<TransformStreamDefaultController>) -> JsObject<TransformStream> {
    c.borrow().data().stream.clone()
}

fn controller_algorithms(
    c: &JsObject<TransformStreamDefaultController>,
) -> Option<TransformerAlgorithms> {
    c.borrow().data().algorithms.borrow().clone()
}

impl Class for TransformStreamDefaultController {
    const NAME: &'static str = "TransformStreamDefaultController";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        const NAME: &str = "TransformStreamDefaultController";
        webidl::attribute(
            class,
            "desiredSize",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let c = brand::<TransformStreamDefaultController>(this, NAME)?;
                // 1. Let readableController be
                //    this.[[stream]].[[readable]].[[controller]].
                // 2. Return ! ReadableStreamDefaultControllerGetDesiredSize(readableController).
                let rc = readable_controller_of(&controller_stream(&c));
                Ok(rc
                    .and_then(|rc| readable_stream_default_controller_get_desired_size(&rc))
                    .map_or(JsValue::null(), JsValue::from))
            }),
            None,
        );
        webidl::operation(
            class,
            "enqueue",
            0,
            NativeFunction::from_fn_ptr(|this, args, ctx| {
                let c = brand::<TransformStreamDefaultController>(this, NAME)?;
                // 1. Perform ? TransformStreamDefaultControllerEnqueue(this, chunk).
                transform_stream_default_controller_enqueue(&c, arg(args, 0), ctx)?;
                Ok(JsValue::undefined())
            }),
        );
        webidl::operation(
            class,
            "error",
            0,
            NativeFunction::from_fn_ptr(|this, args, ctx| {
                let c = brand::<TransformStreamDefaultController>(this, NAME)?;
                // 1. Perform ? TransformStreamDefaultControllerError(this, e).
                transform_stream_default_controller_error(&c, arg(args, 0), ctx);
                Ok(JsValue::undefined())
            }),
        );
        webidl::operation(
            class,
            "terminate",
            0,
            NativeFunction::from_fn_ptr(|this, _, ctx| {
                let c = brand::<TransformStreamDefaultController>(this, NAME)?;
                // 1. Perform ? TransformStreamDefaultControllerTerminate(this).
                transform_stream_default_controller_terminate(&c, ctx);
                Ok(JsValue::undefined())
            }),
        );
        webidl::to_string_tag(class, NAME);
        Ok(())
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        Err(illegal_constructor())
    }
}

/// [SetUpTransformStreamDefaultController](https://streams.spec.whatwg.org/#set-up-transform-stream-default-controller)
fn set_up_transform_stream_default_controller(
    stream: &JsObject<TransformStream>,
    algorithms: TransformerAlgorithms,
    ctx: &mut Context,
) -> JsResult<JsObject<TransformStreamDefaultController>> {
    let proto = ctx
        .get_global_class::<TransformStreamDefaultController>()
        .ok_or_else(|| type_error("TransformStreamDefaultController is not registered"))?
        .prototype();
    // 1. Assert: stream implements TransformStream.
    // 2. Assert: stream.[[controller]] is undefined.
    // 3. Set controller.[[stream]] to stream.
    // 5. Set controller.[[transformAlgorithm]] to transformAlgorithm.
    // 6. Set controller.[[flushAlgorithm]] to flushAlgorithm.
    // 7. Set controller.[[cancelAlgorithm]] to cancelAlgorithm.
    let controller = JsObject::new(
        ctx.root_shape(),
        proto,
        TransformStreamDefaultController {
            stream: stream.clone(),
            algorithms: GcRefCell::new(Some(algorithms)),
            finish_promise: GcRefCell::new(None),
        },
    );
    // 4. Set stream.[[controller]] to controller.
    ts(stream, |s| {
        *s.controller.borrow_mut() = Some(controller.clone())
    });
    Ok(controller)
}

/// [SetUpTransformStreamDefaultControllerFromTransformer](https://streams.spec.whatwg.org/#set-up-transform-stream-default-controller-from-transformer)
fn set_up_transform_stream_default_controller_from_transformer(
    stream: &JsObject<TransformStream>,
    algorithms: TransformerAlgorithms,
    ctx: &mut Context,
) -> JsResult<JsObject<TransformStreamDefaultController>> {
    // 1. Let controller be a new TransformStreamDefaultController.
    // 2-7. transformAlgorithm (TransformStreamDefaultControllerEnqueue when there is no
    //      transform), flushAlgorithm and cancelAlgorithm (a promise resolved with undefined
    //      when absent), or invoking the transformer's members: see
    //      transform_stream_default_controller_perform_transform and the sink/source
    //      algorithms, which dispatch on the converted members.
    // 8. Perform ! SetUpTransformStreamDefaultController(stream, controller,
    //    transformAlgorithm, flushAlgorithm, cancelAlgorithm).
    set_up_transform_stream_default_controller(stream, algorithms, ctx)
}

/// [TransformStreamDefaultControllerClearAlgorithms](https://streams.spec.whatwg.org/#transform-stream-default-controller-clear-algorithms)
pub fn transform_stream_default_controller_clear_algorithms(
    controller: &JsObject<TransformStreamDefaultController>,
) {
    // 1. Set controller.[[transformAlgorithm]] to undefined.
    // 2. Set controller.[[flushAlgorithm]] to undefined.
    // 3. Set controller.[[cancelAlgorithm]] to undefined.
    let old = controller.borrow().data().algorithms.borrow_mut().take();
    drop(old);
}

/// [TransformStreamDefaultControllerEnqueue](https://streams.spec.whatwg.org/#transform-stream-default-controller-enqueue)
pub fn transform_stream_default_controller_enqueue(
    controller: &JsObject<TransformStreamDefaultController>,
    chunk: JsValue,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. Let stream be controller.[[stream]].
    let stream = controller_stream(controller);
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
    if let Err(e) = readable_stream_default_controller_enqueue(&rc, chunk, ctx) {
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
pub fn transform_stream_default_controller_perform_transform(
    controller: &JsObject<TransformStreamDefaultController>,
    chunk: JsValue,
    ctx: &mut Context,
) -> Completion {
    // 1. Let transformPromise be the result of performing controller.[[transformAlgorithm]],
    //    passing chunk.
    let transform_promise = match controller_algorithms(controller) {
        Some(TransformerAlgorithms {
            transformer,
            rust: Some(r),
            ..
        }) => {
            // A native transformer runs user code only by converting an object chunk
            // (`toString`, `valueOf`, getters): then it runs inside webidl::catching.
            let result = if chunk.is_object() {
                webidl::catching(ctx, |ctx| {
                    (r.transform)(&transformer, chunk, controller, ctx)
                })
                .map_err(webidl::Caught::into_value)
            } else {
                (r.transform)(&transformer, chunk, controller, ctx)
                    .map_err(|e| webidl::own_error_value(e, ctx))
            };
            match result {
                Ok(()) => Completion::undefined(),
                Err(e) => Completion::Rejected(e),
            }
        }
        Some(TransformerAlgorithms {
            transformer,
            transform: Some(f),
            ..
        }) => invoke_promise_callback(
            &f,
            &transformer,
            &[chunk, controller.clone().upcast().into()],
            ctx,
        ),
        // The default transformAlgorithm:
        //   1. Let result be TransformStreamDefaultControllerEnqueue(controller, chunk).
        //   2. If result is an abrupt completion, return a promise rejected with
        //      result.[[Value]].
        //   3. Otherwise, return a promise resolved with undefined.
        Some(_) => match transform_stream_default_controller_enqueue(controller, chunk, ctx) {
            Ok(()) => Completion::undefined(),
            Err(e) => Completion::Rejected(webidl::own_error_value(e, ctx)),
        },
        // NOTE: spec hole. TransformStreamDefaultSourceCancelAlgorithm clears the algorithms
        // at once but errors the writable side only when cancelPromise settles; a write
        // processed in between (no backpressure) gets here with the algorithm cleared. Treat
        // it as a promise resolved with undefined, like the other cleared algorithms (the
        // difftest oracle patch spec-hole-transform-cleared-transform does the same).
        None => Completion::undefined(),
    };
    // 2. Return the result of reacting to transformPromise with the following rejection steps
    //    given the argument r:
    react(
        transform_promise,
        controller.clone(),
        |controller, settlement, ctx| match settlement {
            Ok(v) => StepResult::Value(v),
            Err(r) => {
                //   1. Perform ! TransformStreamError(controller.[[stream]], r).
                transform_stream_error(&controller_stream(controller), r.clone(), ctx);
                //   2. Throw r.
                StepResult::Throw(r)
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
    let error = crate::webidl::type_error_value("The TransformStream has been terminated", ctx);
    // 5. Perform ! TransformStreamErrorWritableAndUnblockWrite(stream, error).
    transform_stream_error_writable_and_unblock_write(&stream, error, ctx);
}

// ---------------------------------------------------------------------------------------
// Default sinks
// ---------------------------------------------------------------------------------------

/// [TransformStreamDefaultSinkWriteAlgorithm](https://streams.spec.whatwg.org/#transform-stream-default-sink-write-algorithm)
pub fn transform_stream_default_sink_write_algorithm(
    stream: &JsObject<TransformStream>,
    chunk: JsValue,
    ctx: &mut Context,
) -> Completion {
    // 1. Assert: stream.[[writable]].[[state]] is "writable".
    // 2. Let controller be stream.[[controller]].
    let Some(controller) = ts_controller(stream) else {
        return Completion::undefined();
    };
    // 3. If stream.[[backpressure]] is true,
    if ts(stream, TransformStream::backpressure) == Some(true) {
        //   1. Let backpressureChangePromise be stream.[[backpressureChangePromise]].
        //   2. Assert: backpressureChangePromise is not undefined.
        let Some(change) = ts(stream, |s| s.backpressure_change_promise.borrow().clone()) else {
            return Completion::undefined();
        };
        //   3. Return the result of reacting to backpressureChangePromise with the following
        //      fulfillment steps:
        return react(
            Completion::Rust(change),
            (stream.clone(), controller, chunk),
            |(stream, controller, chunk), settlement, ctx| {
                if let Err(e) = settlement {
                    return StepResult::Throw(e);
                }
                //   1. Let writable be stream.[[writable]].
                //   2. Let state be writable.[[state]].
                let Some(writable) = writable_of(stream) else {
                    return StepResult::Value(JsValue::undefined());
                };
                //   3. If state is "erroring", throw writable.[[storedError]].
                if writable.state() == WritableStreamState::Erroring {
                    return StepResult::Throw(writable.stored_error());
                }
                //   4. Assert: state is "writable".
                //   5. Return ! TransformStreamDefaultControllerPerformTransform(controller,
                //      chunk).
                StepResult::Promise(transform_stream_default_controller_perform_transform(
                    controller,
                    chunk.clone(),
                    ctx,
                ))
            },
            ctx,
        );
    }
    // 4. Return ! TransformStreamDefaultControllerPerformTransform(controller, chunk).
    transform_stream_default_controller_perform_transform(&controller, chunk, ctx)
}

/// Perform `[[cancelAlgorithm]]` (the transformer's `cancel`, or a promise resolved with
/// undefined).
fn perform_cancel_algorithm(
    controller: &JsObject<TransformStreamDefaultController>,
    reason: JsValue,
    ctx: &mut Context,
) -> Completion {
    match controller_algorithms(controller) {
        Some(TransformerAlgorithms {
            transformer,
            cancel: Some(f),
            ..
        }) => invoke_promise_callback(&f, &transformer, &[reason], ctx),
        _ => Completion::undefined(),
    }
}

/// Take `controller.[[finishPromise]]` if set, else set it to a new promise and return
/// `Err(new)`.
fn existing_finish_promise(
    controller: &JsObject<TransformStreamDefaultController>,
) -> Result<Gc<RustPromise>, Gc<RustPromise>> {
    let b = controller.borrow();
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
    // 1. Let controller be stream.[[controller]].
    let Some(controller) = ts_controller(stream) else {
        return Completion::undefined();
    };
    // 2. If controller.[[finishPromise]] is not undefined, return controller.[[finishPromise]].
    // 3. Let readable be stream.[[readable]].
    // 4. Let controller.[[finishPromise]] be a new promise.
    let finish = match existing_finish_promise(&controller) {
        Ok(p) => return Completion::Rust(p),
        Err(p) => p,
    };
    // 5. Let cancelPromise be the result of performing controller.[[cancelAlgorithm]], passing
    //    reason.
    let cancel_promise = perform_cancel_algorithm(&controller, reason.clone(), ctx);
    // 6. Perform ! TransformStreamDefaultControllerClearAlgorithms(controller).
    transform_stream_default_controller_clear_algorithms(&controller);
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
    // 1. Let controller be stream.[[controller]].
    let Some(controller) = ts_controller(stream) else {
        return Completion::undefined();
    };
    // 2. If controller.[[finishPromise]] is not undefined, return controller.[[finishPromise]].
    // 3. Let readable be stream.[[readable]].
    // 4. Let controller.[[finishPromise]] be a new promise.
    let finish = match existing_finish_promise(&controller) {
        Ok(p) => return Completion::Rust(p),
        Err(p) => p,
    };
    // 5. Let flushPromise be the result of performing controller.[[flushAlgorithm]].
    let flush_promise = match controller_algorithms(&controller) {
        Some(TransformerAlgorithms {
            transformer,
            rust: Some(r),
            ..
        }) => match (r.flush)(&transformer, &controller, ctx) {
            Ok(()) => Completion::undefined(),
            // A native flush converts no user value (no user code runs).
            Err(e) => Completion::Rejected(webidl::own_error_value(e, ctx)),
        },
        Some(TransformerAlgorithms {
            transformer,
            flush: Some(f),
            ..
        }) => invoke_promise_callback(&f, &transformer, &[controller.clone().upcast().into()], ctx),
        _ => Completion::undefined(),
    };
    // 6. Perform ! TransformStreamDefaultControllerClearAlgorithms(controller).
    transform_stream_default_controller_clear_algorithms(&controller);
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

// ---------------------------------------------------------------------------------------
// Default sources
// ---------------------------------------------------------------------------------------

/// [TransformStreamDefaultSourceCancelAlgorithm](https://streams.spec.whatwg.org/#transform-stream-default-source-cancel)
pub fn transform_stream_default_source_cancel_algorithm(
    stream: &JsObject<TransformStream>,
    reason: JsValue,
    ctx: &mut Context,
) -> Completion {
    // 1. Let controller be stream.[[controller]].
    let Some(controller) = ts_controller(stream) else {
        return Completion::undefined();
    };
    // 2. If controller.[[finishPromise]] is not undefined, return controller.[[finishPromise]].
    // 3. Let writable be stream.[[writable]].
    // 4. Let controller.[[finishPromise]] be a new promise.
    let finish = match existing_finish_promise(&controller) {
        Ok(p) => return Completion::Rust(p),
        Err(p) => p,
    };
    // 5. Let cancelPromise be the result of performing controller.[[cancelAlgorithm]], passing
    //    reason.
    let cancel_promise = perform_cancel_algorithm(&controller, reason.clone(), ctx);
    // 6. Perform ! TransformStreamDefaultControllerClearAlgorithms(controller).
    transform_stream_default_controller_clear_algorithms(&controller);
    // 7. React to cancelPromise:
    cancel_promise.upon(
        (stream.clone(), finish.clone(), reason),
        |(stream, finish, reason), settlement, ctx| {
            let writable = writable_of(stream);
            match settlement {
                //   1. If cancelPromise was fulfilled, then:
                Ok(_) => {
                    //   1. If writable.[[state]] is "errored", reject
                    //      controller.[[finishPromise]] with writable.[[storedError]].
                    if let Some(w) = writable
                        .as_ref()
                        .filter(|w| w.state() == WritableStreamState::Errored)
                    {
                        finish.settle(Err(w.stored_error()), ctx);
                    } else {
                        //   2. Otherwise:
                        //     1. Perform ! WritableStreamDefaultControllerErrorIfNeeded(
                        //        writable.[[controller]], reason).
                        if let Some(w) = &writable {
                            writable_stream_default_controller_error_if_needed(
                                w,
                                reason.clone(),
                                ctx,
                            );
                        }
                        //     2. Perform ! TransformStreamUnblockWrite(stream).
                        transform_stream_unblock_write(stream, ctx);
                        //     3. Resolve controller.[[finishPromise]] with undefined.
                        finish.resolve_undefined(ctx);
                    }
                }
                //   2. If cancelPromise was rejected with reason r, then:
                Err(r) => {
                    //   1. Perform ! WritableStreamDefaultControllerErrorIfNeeded(
                    //      writable.[[controller]], r).
                    if let Some(w) = &writable {
                        writable_stream_default_controller_error_if_needed(w, r.clone(), ctx);
                    }
                    //   2. Perform ! TransformStreamUnblockWrite(stream).
                    transform_stream_unblock_write(stream, ctx);
                    //   3. Reject controller.[[finishPromise]] with r.
                    finish.settle(Err(r), ctx);
                }
            }
        },
        ctx,
    );
    // 8. Return controller.[[finishPromise]].
    Completion::Rust(finish)
}

/// [TransformStreamDefaultSourcePullAlgorithm](https://streams.spec.whatwg.org/#transform-stream-default-source-pull)
pub fn transform_stream_default_source_pull_algorithm(
    stream: &JsObject<TransformStream>,
    ctx: &mut Context,
) -> Completion {
    // 1. Assert: stream.[[backpressure]] is true.
    // 2. Assert: stream.[[backpressureChangePromise]] is not undefined.
    // 3. Perform ! TransformStreamSetBackpressure(stream, false).
    transform_stream_set_backpressure(stream, false, ctx);
    // 4. Return stream.[[backpressureChangePromise]].
    ts(stream, |s| s.backpressure_change_promise.borrow().clone())
        .map_or_else(Completion::undefined, Completion::Rust)
}

#[cfg(test)]
mod tests;

/// Issue 13 (transferable streams): a new `TransformStream` for the
/// [transfer-receiving steps](https://streams.spec.whatwg.org/#ts-transfer): `[[readable]]`
/// and `[[writable]]` are the received streams; `[[backpressure]]`,
/// `[[backpressureChangePromise]]` and `[[controller]]` are undefined (unused).
pub(crate) fn transferred_transform_stream(
    readable: JsObject<ReadableStream>,
    writable: (JsObject, WritableStreamRef),
    ctx: &mut Context,
) -> JsResult<JsObject> {
    let proto = ctx
        .get_global_class::<TransformStream>()
        .ok_or_else(|| type_error("TransformStream is not registered"))?
        .prototype();
    let stream = JsObject::new(ctx.root_shape(), proto, TransformStream::empty());
    *stream.borrow().data().readable.borrow_mut() = Some(readable);
    *stream.borrow().data().writable.borrow_mut() = Some(writable);
    Ok(stream.upcast())
}
