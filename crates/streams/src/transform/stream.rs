//! [The `TransformStream` class](https://streams.spec.whatwg.org/#ts-class) and [working
//! with transform streams](https://streams.spec.whatwg.org/#ts-abstract-ops).

use super::*;

/// The transformer's members as converted from the `Transformer` dictionary, with the object
/// itself as the callback this value.
#[derive(Clone, Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
pub struct TransformerAlgorithms {
    pub(super) transformer: JsValue,
    pub(super) transform: Option<JsObject>,
    pub(super) flush: Option<JsObject>,
    pub(super) cancel: Option<JsObject>,
    /// Rust-side transform/flush algorithms of a stream "set up" by another specification
    /// (then `transformer` holds their state and the JS members are absent).
    #[unsafe_ignore_trace]
    pub(super) rust: Option<RustTransformer>,
}

/// The transformAlgorithm and flushAlgorithm given to
/// [set up](https://streams.spec.whatwg.org/#transformstream-set-up) a `TransformStream` from
/// Rust. Both get the state value passed to [`transform_stream_set_up`]; an `Err` becomes a
/// rejected promise (the wrappers' "if this throws an exception e, return a promise rejected
/// with e"). The cancelAlgorithm is the default (a promise resolved with undefined).
#[derive(Clone, Copy)]
pub struct RustTransformer {
    /// transformAlgorithm, given the state, the chunk and the controller.
    pub transform: fn(
        &JsValue,
        JsValue,
        &JsObject<TransformStreamDefaultController>,
        &mut Context,
    ) -> JsResult<()>,
    /// transformAlgorithm for a chunk that is still Rust bytes (see `chunk`): the
    /// bytes a `Uint8Array` chunk would hold, without that JS object. `None`: the bytes
    /// become their `Uint8Array` and go to `transform`.
    pub transform_bytes: Option<TransformBytesAlgorithm>,
    /// flushAlgorithm, given the state and the controller.
    pub flush:
        fn(&JsValue, &JsObject<TransformStreamDefaultController>, &mut Context) -> JsResult<()>,
}

/// [`RustTransformer::transform_bytes`]: given the state, the chunk's bytes and the controller.
pub type TransformBytesAlgorithm = fn(
    &JsValue,
    bytes::Bytes,
    &JsObject<TransformStreamDefaultController>,
    &mut Context,
) -> JsResult<()>;

/// [Set up](https://streams.spec.whatwg.org/#transformstream-set-up) a new `TransformStream`
/// with Rust-side algorithms (writable high water mark 1, readable 0, sizes returning 1).
pub fn transform_stream_set_up(
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
    // NOTE: with fast paths on, an already fulfilled Completion (no promise allocated): both
    // sides adopt it with the same ticks as a settled Rust promise (StartAlgorithm::Return).
    let start_promise = if boa_webidl::fast_paths() {
        Completion::undefined()
    } else {
        let p = RustPromise::new();
        p.resolve_undefined(ctx);
        Completion::Rust(p)
    };
    // 9. Perform ! InitializeTransformStream(stream, startPromise, writableHighWaterMark,
    //    writableSizeAlgorithm, readableHighWaterMark, readableSizeAlgorithm).
    initialize_transform_stream(
        &stream,
        start_promise,
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
        true,
        ctx,
    )?;
    Ok(stream)
}

/// Arguments converted by the constructor's IDL layer and steps 1-8, consumed by the rest.
#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
pub(super) struct PendingInit {
    pub(super) algorithms: TransformerAlgorithms,
    pub(super) start: Option<JsObject>,
    #[unsafe_ignore_trace]
    pub(super) readable_hwm: f64,
    pub(super) readable_size: SizeAlgorithm,
    #[unsafe_ignore_trace]
    pub(super) writable_hwm: f64,
    pub(super) writable_size: SizeAlgorithm,
}

/// A `TransformStream` object's internal slots, and its controller's.
#[derive(Trace, Finalize, JsData)]
pub struct TransformStream {
    /// `[[backpressure]]` (`None` = undefined, before InitializeTransformStream sets it).
    #[unsafe_ignore_trace]
    pub(super) backpressure: Cell<Option<bool>>,
    /// Whether `[[controller]]` is set (its JS object may not exist: see `controller`).
    #[unsafe_ignore_trace]
    pub(super) has_controller: Cell<bool>,
    pub(super) backpressure_change_promise: GcRefCell<Option<Gc<RustPromise>>>,
    /// `[[controller]]`'s JS object, made only when something can be handed it
    /// (`set_up_transform_stream_default_controller`).
    pub(super) controller: GcRefCell<Option<JsObject<TransformStreamDefaultController>>>,
    pub(super) readable: GcRefCell<Option<JsObject<ReadableStream>>>,
    pub(super) writable: GcRefCell<Option<(JsObject, WritableStreamRef)>>,
    // --- The controller's slots (stream and controller are one-to-one) ---
    /// `[[controller]].[[transformAlgorithm]]`, `[[flushAlgorithm]]`, `[[cancelAlgorithm]]`
    /// (`None` once cleared).
    pub(super) algorithms: GcRefCell<Option<TransformerAlgorithms>>,
    /// `[[controller]].[[finishPromise]]`.
    pub(super) finish_promise: GcRefCell<Option<Gc<RustPromise>>>,
    // --- Construction only (boxed: empty once the constructor returns) ---
    pub(super) start_promise: GcRefCell<Option<Box<Completion>>>,
    pub(super) pending_init: GcRefCell<Option<Box<PendingInit>>>,
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

/// [readable](https://streams.spec.whatwg.org/#ts-readable)
fn readable(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let stream = brand::<TransformStream>(this, "TransformStream")?;
    // 1. Return this.[[readable]].
    Ok(readable_of(&stream).map_or_else(JsValue::undefined, |r| r.upcast().into()))
}

/// [writable](https://streams.spec.whatwg.org/#ts-writable)
fn writable(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let stream = brand::<TransformStream>(this, "TransformStream")?;
    // 1. Return this.[[writable]].
    Ok(ts(&stream, TransformStream::writable).map_or_else(JsValue::undefined, JsValue::from))
}

impl Class for TransformStream {
    const NAME: &'static str = "TransformStream";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(
            class,
            &[
                Member::attribute("readable", readable),
                Member::attribute("writable", writable),
                Member::to_string_tag("TransformStream"),
            ],
        )
    }

    fn data_constructor(
        _new_target: &JsValue,
        args: &[JsValue],
        ctx: &mut Context,
    ) -> JsResult<Self> {
        // Engine runtime-limit errors of the user code run here become catchable RangeErrors.
        boa_webidl::limits_catchable((|| -> JsResult<Self> {
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
            let cancel = dict.get_callback(webidl::js_key!("cancel"), ctx)?;
            let flush = dict.get_callback(webidl::js_key!("flush"), ctx)?;
            let readable_type = dict.get(webidl::js_key!("readableType"), ctx)?;
            let start = dict.get_callback(webidl::js_key!("start"), ctx)?;
            let transform = dict.get_callback(webidl::js_key!("transform"), ctx)?;
            let writable_type = dict.get(webidl::js_key!("writableType"), ctx)?;
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
            *stream.pending_init.borrow_mut() = Some(Box::new(PendingInit {
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
            }));
            Ok(stream)
        })())
    }

    fn object_constructor(
        instance: &JsObject<Self>,
        _args: &[JsValue],
        ctx: &mut Context,
    ) -> JsResult<()> {
        // Engine runtime-limit errors of the user code run here become catchable RangeErrors.
        boa_webidl::limits_catchable((|| -> JsResult<()> {
            let init = ts(instance, |s| s.pending_init.borrow_mut().take());
            let Some(init) = init else {
                return Ok(());
            };
            let init = *init;
            // 9. Let startPromise be a new promise.
            // NOTE: without a `start` method the promise is resolved with undefined below (step
            // 13), before any reaction to it can run (the start algorithms only adopt it, in a
            // microtask): with fast paths on it is an already fulfilled Completion, which both
            // sides adopt with the same ticks (StartAlgorithm::Return) and no promise allocated.
            let (start_promise, start_capability) =
                if init.start.is_some() || !boa_webidl::fast_paths() {
                    let capability = PromiseCapability::new(ctx);
                    (Completion::Js(capability.promise.clone()), Some(capability))
                } else {
                    (Completion::undefined(), None)
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
                init.start.is_some(),
                ctx,
            )?;
            match (init.start, start_capability, start_promise) {
                // 12. If transformerDict["start"] exists, then resolve startPromise with the result
                //     of invoking transformerDict["start"] with argument list
                //     « this.[[controller]] » and callback this value transformer.
                (Some(start), Some(p), _) => {
                    // (A transformer with `start` has a controller object.)
                    let controller =
                        controller.map_or_else(JsValue::undefined, |c| c.upcast().into());
                    let result = start.call(&init.algorithms.transformer, &[controller], ctx)?;
                    p.resolve(result, ctx);
                }
                // 13. Otherwise, resolve startPromise with undefined.
                (_, Some(p), _) => p.resolve(JsValue::undefined(), ctx),
                // (Fast paths: already fulfilled.)
                (_, None, _) => {}
            }
            Ok(())
        })())
    }
}

impl TransformStream {
    fn empty() -> Self {
        Self {
            backpressure: Cell::new(None),
            has_controller: Cell::new(false),
            backpressure_change_promise: GcRefCell::new(None),
            controller: GcRefCell::new(None),
            algorithms: GcRefCell::new(None),
            finish_promise: GcRefCell::new(None),
            readable: GcRefCell::new(None),
            writable: GcRefCell::new(None),
            start_promise: GcRefCell::new(None),
            pending_init: GcRefCell::new(None),
        }
    }
}

// ---------------------------------------------------------------------------------------
// Working with transform streams
// ---------------------------------------------------------------------------------------

/// [InitializeTransformStream](https://streams.spec.whatwg.org/#initialize-transform-stream)
#[allow(clippy::too_many_arguments)]
pub(crate) fn initialize_transform_stream(
    stream: &JsObject<TransformStream>,
    start_promise: Completion,
    writable_hwm: f64,
    writable_size: SizeAlgorithm,
    readable_hwm: f64,
    readable_size: SizeAlgorithm,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. Let startAlgorithm be an algorithm that returns startPromise.
    ts(stream, |s| {
        *s.start_promise.borrow_mut() = Some(Box::new(start_promise.clone()))
    });
    // 2. Let writeAlgorithm be the following steps, taking a chunk argument:
    //   1. Return ! TransformStreamDefaultSinkWriteAlgorithm(stream, chunk).
    // 3. Let abortAlgorithm be the following steps, taking a reason argument:
    //   1. Return ! TransformStreamDefaultSinkAbortAlgorithm(stream, reason).
    // 4. Let closeAlgorithm be the following steps:
    //   1. Return ! TransformStreamDefaultSinkCloseAlgorithm(stream).
    // 5. Set stream.[[writable]] to ! CreateWritableStream(startAlgorithm, writeAlgorithm,
    //    closeAlgorithm, abortAlgorithm, writableHighWaterMark, writableSizeAlgorithm).
    // NOTE: with fast paths on, an already fulfilled startPromise is adopted without the
    // promise the writable controller would make of it (see
    // `set_up_writable_stream_default_controller_with_start`): same ticks.
    let settled_start = match &start_promise {
        Completion::Fulfilled(v) if boa_webidl::fast_paths() => Some(Ok(v.clone())),
        _ => None,
    };
    let writable = create_writable_stream_with_start(
        SinkAlgorithms::rust(TransformSink {
            stream: stream.clone(),
        }),
        settled_start,
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
        StartAlgorithm::Return(start_promise),
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
    ts(stream, |s| {
        s.has_controller.set(false);
        *s.controller.borrow_mut() = None;
    });
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
    if has_controller(stream) {
        transform_stream_default_controller_clear_algorithms(stream);
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
    debug_assert_ne!(
        ts(stream, TransformStream::backpressure),
        Some(backpressure)
    );
    // 2. If stream.[[backpressureChangePromise]] is not undefined, resolve
    //    stream.[[backpressureChangePromise]] with undefined.
    // 3. Set stream.[[backpressureChangePromise]] to a new promise.
    // NOTE: with fast paths on, the new promise is made only when something reacts to it
    // (`backpressure_change_promise`): a pending promise no one holds is resolved unobserved,
    // so creating it later is the same promise as far as any reaction can tell.
    let fresh = if boa_webidl::fast_paths() {
        None
    } else {
        Some(RustPromise::new())
    };
    let old = ts(stream, |s| {
        std::mem::replace(&mut *s.backpressure_change_promise.borrow_mut(), fresh)
    });
    if let Some(old) = old {
        old.resolve_undefined(ctx);
    }
    // 4. Set stream.[[backpressure]] to backpressure.
    ts(stream, |s| s.backpressure.set(Some(backpressure)));
}

/// `stream.[[backpressureChangePromise]]` once `[[backpressure]]` was set: the promise made by
/// the last TransformStreamSetBackpressure, created now if that step deferred it (fast paths).
pub(super) fn backpressure_change_promise(stream: &JsObject<TransformStream>) -> Gc<RustPromise> {
    ts(stream, |s| {
        s.backpressure_change_promise
            .borrow_mut()
            .get_or_insert_with(RustPromise::new)
            .clone()
    })
}

/// [TransformStreamUnblockWrite](https://streams.spec.whatwg.org/#transform-stream-unblock-write)
pub fn transform_stream_unblock_write(stream: &JsObject<TransformStream>, ctx: &mut Context) {
    // 1. If stream.[[backpressure]] is true, perform ! TransformStreamSetBackpressure(stream,
    //    false).
    if ts(stream, TransformStream::backpressure) == Some(true) {
        transform_stream_set_backpressure(stream, false, ctx);
    }
}

/// A new `TransformStream` for the
/// [transfer-receiving steps](https://streams.spec.whatwg.org/#ts-transfer): `[[readable]]`
/// and `[[writable]]` are the received streams; `[[backpressure]]`,
/// `[[backpressureChangePromise]]` and `[[controller]]` are undefined (unused).
pub fn transferred_transform_stream(
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
