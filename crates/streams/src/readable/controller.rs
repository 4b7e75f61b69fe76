//! `ReadableStreamDefaultController` ([spec](https://streams.spec.whatwg.org/#rs-default-controller-class))
//! and the default controller abstract operations
//! ([spec §4.10.4](https://streams.spec.whatwg.org/#rs-default-controller-abstract-ops)).

use std::cell::Cell;

use boa_engine::{
    class::{Class, ClassBuilder},
    property::Attribute,
    Context, JsData, JsObject, JsResult, JsValue,
};
use boa_gc::{Finalize, GcRefCell, Trace};

use super::requests::ReadRequest;
use super::source::{JsSource, SourceAlgorithms, StartAlgorithm};
use super::{
    is_readable_stream_locked, readable_stream_add_read_request, readable_stream_close,
    readable_stream_error, readable_stream_fulfill_read_request_native,
    readable_stream_get_num_read_requests, with_stream, ReadableStream, StreamController,
    StreamState,
};
use crate::chunk::Chunk;
use crate::owning;
use crate::queue::QueueWithSizes;
use crate::strategies::SizeAlgorithm;
use boa_webidl::promise::Completion;
use boa_webidl::sequence::sequence_of_objects;
use boa_webidl::Member;
use boa_webidl::{
    self as webidl, arg, brand, illegal_constructor, type_error, Dictionary, INTERFACE_ATTRIBUTES,
};

// ---------------------------------------------------------------------------------------
// The controller object
// ---------------------------------------------------------------------------------------

/// A `ReadableStreamDefaultController`'s internal slots.
#[derive(Trace, Finalize, JsData)]
pub struct ReadableStreamDefaultController {
    stream: JsObject<ReadableStream>,
    queue: GcRefCell<QueueWithSizes>,
    #[unsafe_ignore_trace]
    started: Cell<bool>,
    #[unsafe_ignore_trace]
    close_requested: Cell<bool>,
    #[unsafe_ignore_trace]
    pull_again: Cell<bool>,
    #[unsafe_ignore_trace]
    pulling: Cell<bool>,
    #[unsafe_ignore_trace]
    strategy_hwm: Cell<f64>,
    /// `[[strategySizeAlgorithm]]`; `None` once cleared.
    size_algorithm: GcRefCell<Option<SizeAlgorithm>>,
    algorithms: GcRefCell<Option<SourceAlgorithms>>,
    /// `[[isOwning]]` (experimental, the "owning" type): chunks are transferred or cloned
    /// when enqueued, and queued chunks are disposed of when the queue is reset.
    #[unsafe_ignore_trace]
    is_owning: Cell<bool>,
}

impl std::fmt::Debug for ReadableStreamDefaultController {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReadableStreamDefaultController")
            .finish_non_exhaustive()
    }
}

impl ReadableStreamDefaultController {
    /// `[[stream]]`.
    pub(crate) fn stream(&self) -> JsObject<ReadableStream> {
        self.stream.clone()
    }

    /// `[[isOwning]]`.
    pub(crate) fn is_owning(&self) -> bool {
        self.is_owning.get()
    }
}

fn data<R>(
    c: &JsObject<ReadableStreamDefaultController>,
    f: impl FnOnce(&ReadableStreamDefaultController) -> R,
) -> R {
    f(c.borrow().data())
}

/// The interface's identifier.
const NAME: &str = "ReadableStreamDefaultController";

/// [desiredSize](https://streams.spec.whatwg.org/#rs-default-controller-desired-size)
fn desired_size(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let c = brand::<ReadableStreamDefaultController>(this, NAME)?;
    // 1. Return ! ReadableStreamDefaultControllerGetDesiredSize(this).
    Ok(readable_stream_default_controller_get_desired_size(&c)
        .map_or(JsValue::null(), JsValue::from))
}

/// [close()](https://streams.spec.whatwg.org/#rs-default-controller-close)
fn close(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let c = brand::<ReadableStreamDefaultController>(this, NAME)?;
    // 1. If ! ReadableStreamDefaultControllerCanCloseOrEnqueue(this) is false, throw
    //    a TypeError exception.
    if !readable_stream_default_controller_can_close_or_enqueue(&c) {
        return Err(type_error(
            "The stream is not in a state that permits close",
        ));
    }
    // 2. Perform ! ReadableStreamDefaultControllerClose(this).
    readable_stream_default_controller_close(&c, ctx);
    Ok(JsValue::undefined())
}

/// [enqueue(chunk)](https://streams.spec.whatwg.org/#rs-default-controller-enqueue)
fn enqueue(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let c = brand::<ReadableStreamDefaultController>(this, NAME)?;
    // NOTE: experimental (the tentative "owning" type, whatwg/streams#1271):
    // enqueue(optional any chunk, optional StructuredSerializeOptions options = {}),
    // with the dictionary `{ sequence<object> transfer = [] }`. The conversion
    // runs before the steps; without a second argument nothing is read, so the
    // standard's one-argument behaviour is unchanged.
    let transfer_list = match args.get(1) {
        None => Vec::new(),
        Some(options) => {
            let options = Dictionary::new(options, "StructuredSerializeOptions")?;
            match options.get(webidl::js_key!("transfer"), ctx)? {
                Some(list) => sequence_of_objects(&list, ctx)?,
                None => Vec::new(),
            }
        }
    };
    // 1. If ! ReadableStreamDefaultControllerCanCloseOrEnqueue(this) is false, throw
    //    a TypeError exception.
    if !readable_stream_default_controller_can_close_or_enqueue(&c) {
        return Err(type_error(
            "The stream is not in a state that permits enqueue",
        ));
    }
    // 2. Let transferList be options["transfer"].
    // 3. If transferList is not empty and this.[[isOwning]] is false, throw a
    //    TypeError exception.
    if !transfer_list.is_empty() && !data(&c, ReadableStreamDefaultController::is_owning) {
        return Err(type_error(
            "A transfer list needs a ReadableStream of type 'owning'",
        ));
    }
    // 4. Perform ? ReadableStreamDefaultControllerEnqueue(this, chunk,
    //    transferList).
    readable_stream_default_controller_enqueue_with_transfer(
        &c,
        Chunk::Js(arg(args, 0)),
        &transfer_list,
        ctx,
    )?;
    Ok(JsValue::undefined())
}

/// [error(e)](https://streams.spec.whatwg.org/#rs-default-controller-error)
fn error(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let c = brand::<ReadableStreamDefaultController>(this, NAME)?;
    // 1. Perform ! ReadableStreamDefaultControllerError(this, e).
    readable_stream_default_controller_error(&c, arg(args, 0), ctx);
    Ok(JsValue::undefined())
}

impl Class for ReadableStreamDefaultController {
    const NAME: &'static str = "ReadableStreamDefaultController";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(
            class,
            &[
                Member::attribute("desiredSize", desired_size),
                Member::operation("close", 0, close),
                Member::operation("enqueue", 0, enqueue),
                Member::operation("error", 0, error),
                Member::to_string_tag(NAME),
            ],
        )
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        Err(illegal_constructor())
    }
}

pub(super) fn new_controller_object(
    stream: &JsObject<ReadableStream>,
    ctx: &mut Context,
) -> JsResult<JsObject<ReadableStreamDefaultController>> {
    let proto = ctx
        .get_global_class::<ReadableStreamDefaultController>()
        .ok_or_else(|| type_error("ReadableStreamDefaultController is not registered"))?
        .prototype();
    Ok(JsObject::new(
        ctx.root_shape(),
        proto,
        ReadableStreamDefaultController {
            stream: stream.clone(),
            queue: GcRefCell::new(QueueWithSizes::new()),
            started: Cell::new(false),
            close_requested: Cell::new(false),
            pull_again: Cell::new(false),
            pulling: Cell::new(false),
            strategy_hwm: Cell::new(1.0),
            size_algorithm: GcRefCell::new(Some(SizeAlgorithm::ReturnOne)),
            algorithms: GcRefCell::new(None),
            is_owning: Cell::new(false),
        },
    ))
}

// ---------------------------------------------------------------------------------------
// Constructor steps and set-up
// ---------------------------------------------------------------------------------------

/// [SetUpReadableStreamDefaultControllerFromUnderlyingSource](https://streams.spec.whatwg.org/#set-up-readable-stream-default-controller-from-underlying-source)
#[allow(clippy::too_many_arguments)]
pub(super) fn set_up_readable_stream_default_controller_from_underlying_source(
    stream: &JsObject<ReadableStream>,
    underlying_source: JsValue,
    start: Option<JsObject>,
    pull: Option<JsObject>,
    cancel: Option<JsObject>,
    hwm: f64,
    size_algorithm: SizeAlgorithm,
    is_owning: bool,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. Let controller be a new ReadableStreamDefaultController.
    let controller = new_controller_object(stream, ctx)?;
    // NOTE: experimental: the "owning" type sets controller.[[isOwning]] to true before the
    // start algorithm runs (start may enqueue).
    data(&controller, |c| c.is_owning.set(is_owning));
    // 2-7. startAlgorithm / pullAlgorithm / cancelAlgorithm from the dictionary members (an
    //      absent start returns undefined, an absent pull or cancel returns a promise resolved
    //      with undefined).
    let algorithms = SourceAlgorithms::Js(JsSource {
        source: underlying_source.clone(),
        pull,
        cancel,
    });
    let start = StartAlgorithm::from_underlying_source(underlying_source, start);
    // 8. Perform ? SetUpReadableStreamDefaultController(stream, controller, startAlgorithm,
    //    pullAlgorithm, cancelAlgorithm, highWaterMark, sizeAlgorithm).
    set_up_readable_stream_default_controller(
        stream,
        &controller,
        start,
        algorithms,
        hwm,
        size_algorithm,
        ctx,
    )
}

/// [SetUpReadableStreamDefaultController](https://streams.spec.whatwg.org/#set-up-readable-stream-default-controller)
#[allow(clippy::too_many_arguments)]
pub(super) fn set_up_readable_stream_default_controller(
    stream: &JsObject<ReadableStream>,
    controller: &JsObject<ReadableStreamDefaultController>,
    start: StartAlgorithm,
    algorithms: SourceAlgorithms,
    hwm: f64,
    size_algorithm: SizeAlgorithm,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. Assert: stream.[[controller]] is undefined.
    debug_assert!(with_stream(stream, ReadableStream::controller).is_none());
    // 2. Set controller.[[stream]] to stream. (Set at creation.)
    data(controller, |c| {
        // 3. Perform ! ResetQueue(controller).
        c.queue.borrow_mut().reset_queue();
        // 4. Set controller.[[started]], [[closeRequested]], [[pullAgain]], [[pulling]] to
        //    false.
        c.started.set(false);
        c.close_requested.set(false);
        c.pull_again.set(false);
        c.pulling.set(false);
        // 5. Set controller.[[strategySizeAlgorithm]] to sizeAlgorithm and
        //    controller.[[strategyHWM]] to highWaterMark.
        *c.size_algorithm.borrow_mut() = Some(size_algorithm);
        c.strategy_hwm.set(hwm);
        // 6. Set controller.[[pullAlgorithm]] to pullAlgorithm.
        // 7. Set controller.[[cancelAlgorithm]] to cancelAlgorithm.
        *c.algorithms.borrow_mut() = Some(algorithms);
    });
    // 8. Set stream.[[controller]] to controller.
    with_stream(stream, |s| {
        *s.controller.borrow_mut() = Some(StreamController::Default(controller.clone()));
    });
    // 9. Let startResult be the result of performing startAlgorithm. (This might throw an
    //    exception.)
    // 10. Let startPromise be a promise resolved with startResult.
    // 11. Upon fulfillment of startPromise,
    //   1. Set controller.[[started]] to true.
    //   2. Assert: controller.[[pulling]] is false.
    //   3. Assert: controller.[[pullAgain]] is false.
    //   4. Perform ! ReadableStreamDefaultControllerCallPullIfNeeded(controller).
    // 12. Upon rejection of startPromise with reason r,
    //   1. Perform ! ReadableStreamDefaultControllerError(controller, r).
    fn upon_start(
        controller: &JsObject<ReadableStreamDefaultController>,
        settlement: boa_webidl::promise::Settlement,
        ctx: &mut Context,
    ) {
        match settlement {
            Ok(_) => {
                data(controller, |c| {
                    c.started.set(true);
                    debug_assert!(!c.pulling.get(), "[[pulling]] is false at start");
                    debug_assert!(!c.pull_again.get(), "[[pullAgain]] is false at start");
                });
                readable_stream_default_controller_call_pull_if_needed(controller, ctx);
            }
            Err(r) => readable_stream_default_controller_error(controller, r, ctx),
        }
    }
    match start {
        // NOTE: a start algorithm that returns an already settled promise (a TransformStream's
        // startPromise with fast paths on): startPromise, "a promise resolved with" it, is
        // not made; the steps run at its reaction's tick (upon_resolved_with_settled).
        StartAlgorithm::Return(Completion::Fulfilled(v)) if boa_webidl::fast_paths() => {
            boa_webidl::promise::upon_resolved_with_settled(
                Ok(v),
                controller.clone(),
                upon_start,
                ctx,
            );
        }
        start => {
            let start_promise =
                start.perform(&StreamController::Default(controller.clone()), ctx)?;
            start_promise.upon(controller.clone(), upon_start, ctx);
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Internal methods
// ---------------------------------------------------------------------------------------

/// [[[CancelSteps]]](https://streams.spec.whatwg.org/#rs-default-controller-private-cancel)
pub(crate) fn cancel_steps(
    controller: &JsObject<ReadableStreamDefaultController>,
    reason: JsValue,
    ctx: &mut Context,
) -> Completion {
    // 1. Perform ! ResetQueue(this).
    reset_queue(controller, ctx);
    // 2. Let result be the result of performing this.[[cancelAlgorithm]], passing reason.
    let algorithms = data(controller, |c| c.algorithms.borrow().clone());
    let result = match algorithms {
        Some(a) => a.cancel(reason, ctx),
        None => Completion::undefined(),
    };
    // 3. Perform ! ReadableStreamDefaultControllerClearAlgorithms(this).
    readable_stream_default_controller_clear_algorithms(controller);
    // 4. Return result.
    result
}

/// [[[PullSteps]]](https://streams.spec.whatwg.org/#rs-default-controller-private-pull)
pub(crate) fn pull_steps(
    controller: &JsObject<ReadableStreamDefaultController>,
    read_request: ReadRequest,
    ctx: &mut Context,
) {
    // 1. Let stream be this.[[stream]].
    let stream = data(controller, ReadableStreamDefaultController::stream);
    // 2. If this.[[queue]] is not empty,
    //   1. Let chunk be ! DequeueValue(this).
    let dequeued = data(controller, |c| c.queue.borrow_mut().dequeue_value());
    if let Some(chunk) = dequeued {
        //   2. If this.[[closeRequested]] is true and this.[[queue]] is empty,
        let close = data(controller, |c| {
            c.close_requested.get() && c.queue.borrow().is_empty()
        });
        if close {
            //   1. Perform ! ReadableStreamDefaultControllerClearAlgorithms(this).
            readable_stream_default_controller_clear_algorithms(controller);
            //   2. Perform ! ReadableStreamClose(stream).
            readable_stream_close(&stream, ctx);
        } else {
            //   3. Otherwise, perform ! ReadableStreamDefaultControllerCallPullIfNeeded(this).
            readable_stream_default_controller_call_pull_if_needed(controller, ctx);
        }
        //   4. Perform readRequest's chunk steps, given chunk.
        read_request.chunk_steps_native(chunk, ctx);
    } else {
        // 3. Otherwise,
        //   1. Perform ! ReadableStreamAddReadRequest(stream, readRequest).
        readable_stream_add_read_request(&stream, read_request);
        //   2. Perform ! ReadableStreamDefaultControllerCallPullIfNeeded(this).
        readable_stream_default_controller_call_pull_if_needed(controller, ctx);
    }
}

/// [[[ReleaseSteps]]](https://streams.spec.whatwg.org/#abstract-opdef-readablestreamdefaultcontroller-releasesteps)
pub(crate) fn release_steps(_controller: &JsObject<ReadableStreamDefaultController>) {
    // 1. Return.
}

// ---------------------------------------------------------------------------------------
// Abstract operations: default controllers
// ---------------------------------------------------------------------------------------

/// [ReadableStreamDefaultControllerCallPullIfNeeded](https://streams.spec.whatwg.org/#readable-stream-default-controller-call-pull-if-needed)
pub(crate) fn readable_stream_default_controller_call_pull_if_needed(
    controller: &JsObject<ReadableStreamDefaultController>,
    ctx: &mut Context,
) {
    // 1. Let shouldPull be ! ReadableStreamDefaultControllerShouldCallPull(controller).
    // 2. If shouldPull is false, return.
    if !readable_stream_default_controller_should_call_pull(controller) {
        return;
    }
    // 3. If controller.[[pulling]] is true,
    //   1. Set controller.[[pullAgain]] to true.
    //   2. Return.
    let algorithms = {
        let b = controller.borrow();
        let c = b.data();
        if c.pulling.get() {
            c.pull_again.set(true);
            return;
        }
        // 4. Assert: controller.[[pullAgain]] is false.
        debug_assert!(!c.pull_again.get());
        // 5. Set controller.[[pulling]] to true.
        c.pulling.set(true);
        let a = c.algorithms.borrow().clone();
        a
    };
    // 6. Let pullPromise be the result of performing controller.[[pullAlgorithm]].
    let pull_promise = match algorithms {
        Some(a) => a.pull(&StreamController::Default(controller.clone()), ctx),
        None => Completion::undefined(),
    };
    // 7. Upon fulfillment of pullPromise,
    //   1. Set controller.[[pulling]] to false.
    //   2. If controller.[[pullAgain]] is true,
    //     1. Set controller.[[pullAgain]] to false.
    //     2. Perform ! ReadableStreamDefaultControllerCallPullIfNeeded(controller).
    // 8. Upon rejection of pullPromise with reason e,
    //   1. Perform ! ReadableStreamDefaultControllerError(controller, e).
    pull_promise.upon(
        controller.clone(),
        |controller, settlement, ctx| match settlement {
            Ok(_) => {
                let again = data(controller, |c| {
                    c.pulling.set(false);
                    c.pull_again.replace(false)
                });
                if again {
                    readable_stream_default_controller_call_pull_if_needed(controller, ctx);
                }
            }
            Err(e) => readable_stream_default_controller_error(controller, e, ctx),
        },
        ctx,
    );
}

/// [ReadableStreamDefaultControllerShouldCallPull](https://streams.spec.whatwg.org/#readable-stream-default-controller-should-call-pull)
pub(crate) fn readable_stream_default_controller_should_call_pull(
    controller: &JsObject<ReadableStreamDefaultController>,
) -> bool {
    // 1. Let stream be controller.[[stream]].
    let stream = data(controller, ReadableStreamDefaultController::stream);
    // 2. If ! ReadableStreamDefaultControllerCanCloseOrEnqueue(controller) is false, return
    //    false.
    if !readable_stream_default_controller_can_close_or_enqueue(controller) {
        return false;
    }
    // 3. If controller.[[started]] is false, return false.
    if !data(controller, |c| c.started.get()) {
        return false;
    }
    // 4. If ! IsReadableStreamLocked(stream) is true and !
    //    ReadableStreamGetNumReadRequests(stream) > 0, return true.
    if is_readable_stream_locked(&stream) && readable_stream_get_num_read_requests(&stream) > 0 {
        return true;
    }
    // 5. Let desiredSize be ! ReadableStreamDefaultControllerGetDesiredSize(controller).
    let desired_size = readable_stream_default_controller_get_desired_size(controller);
    // 6. Assert: desiredSize is not null.
    debug_assert!(desired_size.is_some());
    // 7. If desiredSize > 0, return true.
    // 8. Return false.
    desired_size.is_some_and(|d| d > 0.0)
}

/// [ReadableStreamDefaultControllerClearAlgorithms](https://streams.spec.whatwg.org/#readable-stream-default-controller-clear-algorithms)
pub(crate) fn readable_stream_default_controller_clear_algorithms(
    controller: &JsObject<ReadableStreamDefaultController>,
) {
    data(controller, |c| {
        // 1. Set controller.[[pullAlgorithm]] to undefined.
        // 2. Set controller.[[cancelAlgorithm]] to undefined.
        *c.algorithms.borrow_mut() = None;
        // 3. Set controller.[[strategySizeAlgorithm]] to undefined.
        *c.size_algorithm.borrow_mut() = None;
    });
}

/// [ReadableStreamDefaultControllerClose](https://streams.spec.whatwg.org/#readable-stream-default-controller-close)
pub fn readable_stream_default_controller_close(
    controller: &JsObject<ReadableStreamDefaultController>,
    ctx: &mut Context,
) {
    // 1. If ! ReadableStreamDefaultControllerCanCloseOrEnqueue(controller) is false, return.
    if !readable_stream_default_controller_can_close_or_enqueue(controller) {
        return;
    }
    // 2. Let stream be controller.[[stream]].
    // 3. Set controller.[[closeRequested]] to true.
    let (stream, empty) = data(controller, |c| {
        c.close_requested.set(true);
        (c.stream.clone(), c.queue.borrow().is_empty())
    });
    // 4. If controller.[[queue]] is empty,
    if empty {
        //   1. Perform ! ReadableStreamDefaultControllerClearAlgorithms(controller).
        readable_stream_default_controller_clear_algorithms(controller);
        //   2. Perform ! ReadableStreamClose(stream).
        readable_stream_close(&stream, ctx);
    }
}

/// [ReadableStreamDefaultControllerEnqueue](https://streams.spec.whatwg.org/#readable-stream-default-controller-enqueue)
/// (an empty transfer list).
pub fn readable_stream_default_controller_enqueue(
    controller: &JsObject<ReadableStreamDefaultController>,
    chunk: JsValue,
    ctx: &mut Context,
) -> JsResult<()> {
    readable_stream_default_controller_enqueue_with_transfer(controller, Chunk::Js(chunk), &[], ctx)
}

/// [ReadableStreamDefaultControllerEnqueue](https://streams.spec.whatwg.org/#readable-stream-default-controller-enqueue)
/// of a chunk that may be Rust bytes (see [`Chunk`](crate::chunk::Chunk)): they stay bytes in the queue
/// until they reach script.
pub(crate) fn readable_stream_default_controller_enqueue_native(
    controller: &JsObject<ReadableStreamDefaultController>,
    chunk: Chunk,
    ctx: &mut Context,
) -> JsResult<()> {
    readable_stream_default_controller_enqueue_with_transfer(controller, chunk, &[], ctx)
}

/// [ReadableStreamDefaultControllerEnqueue](https://streams.spec.whatwg.org/#readable-stream-default-controller-enqueue)
/// with the transfer list of the experimental "owning" type (whatwg/streams#1271): an
/// owning controller stores (or hands to a waiting reader) StructuredTransferOrClone(chunk,
/// transferList) instead of the chunk.
pub(crate) fn readable_stream_default_controller_enqueue_with_transfer(
    controller: &JsObject<ReadableStreamDefaultController>,
    chunk: Chunk,
    transfer_list: &[JsObject],
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. Assert: transferList is empty or controller.[[isOwning]] is true.
    let is_owning = data(controller, ReadableStreamDefaultController::is_owning);
    debug_assert!(transfer_list.is_empty() || is_owning);
    // 2. If ! ReadableStreamDefaultControllerCanCloseOrEnqueue(controller) is false, return.
    if !readable_stream_default_controller_can_close_or_enqueue(controller) {
        return Ok(());
    }
    // 3. Let stream be controller.[[stream]].
    let stream = data(controller, ReadableStreamDefaultController::stream);
    // 4. If ! IsReadableStreamLocked(stream) is true and !
    //    ReadableStreamGetNumReadRequests(stream) > 0,
    if is_readable_stream_locked(&stream) && readable_stream_get_num_read_requests(&stream) > 0 {
        //   1. Let internalChunk be chunk.
        //   2. If controller.[[isOwning]] is true, set internalChunk to
        //      StructuredTransferOrClone(chunk, transferList); if that is an abrupt
        //      completion, perform ! ReadableStreamDefaultControllerError(controller,
        //      internalChunk.[[Value]]) and return internalChunk.
        let internal_chunk = if is_owning {
            let chunk = chunk.into_js(ctx);
            Chunk::Js(owning_chunk(controller, &chunk, transfer_list, ctx)?)
        } else {
            chunk
        };
        //   3. Perform ! ReadableStreamFulfillReadRequest(stream, internalChunk, false).
        readable_stream_fulfill_read_request_native(&stream, internal_chunk, false, ctx);
    } else {
        // 5. Otherwise,
        //   1. Let result be the result of performing controller.[[strategySizeAlgorithm]],
        //      passing in chunk, and interpreting the result as a completion record.
        let size_algorithm = data(controller, |c| c.size_algorithm.borrow().clone());
        // NOTE: a cleared algorithm (the stream is closing or errored) is never reached here
        // (CanCloseOrEnqueue is false); it counts as 1. The size call is caught
        // (webidl::call_catching): native callers such as the identity transform turn its
        // exception into a rejected promise.
        let (result, chunk) = match size_algorithm {
            None | Some(SizeAlgorithm::ReturnOne) => (Ok(1.0), chunk),
            // A JS size algorithm sees the chunk: it leaves the Rust side here.
            Some(size) => {
                let chunk = chunk.into_js(ctx);
                (size.call(&chunk, ctx), Chunk::Js(chunk))
            }
        };
        //   2. If result is an abrupt completion,
        //     1. Perform ! ReadableStreamDefaultControllerError(controller, result.[[Value]]).
        //     2. Return result.
        let chunk_size = match result {
            Ok(s) => s,
            Err(e) => {
                let v = e.into_value();
                readable_stream_default_controller_error(controller, v.clone(), ctx);
                return Err(boa_engine::JsError::from_opaque(v));
            }
        };
        //   3. Let chunkSize be result.[[Value]].
        //   4. Let enqueueResult be EnqueueValueWithSize(controller, chunk, chunkSize,
        //      transferList). (For an owning controller, after EnqueueValueWithSize's size
        //      checks, the value stored is StructuredTransferOrClone(chunk, transferList);
        //      an abrupt completion errors the controller like the size checks'.)
        let valid_size = chunk_size >= 0.0 && chunk_size != f64::INFINITY;
        let chunk = if is_owning && valid_size {
            let chunk = chunk.into_js(ctx);
            Chunk::Js(owning_chunk(controller, &chunk, transfer_list, ctx)?)
        } else {
            chunk
        };
        let enqueue_result = data(controller, |c| {
            c.queue
                .borrow_mut()
                .enqueue_value_with_size(chunk, chunk_size)
        });
        //   5. If enqueueResult is an abrupt completion,
        //     1. Perform ! ReadableStreamDefaultControllerError(controller,
        //        enqueueResult.[[Value]]).
        //     2. Return enqueueResult.
        if let Err(e) = enqueue_result {
            let v = webidl::own_error_value(e, ctx);
            readable_stream_default_controller_error(controller, v.clone(), ctx);
            return Err(boa_engine::JsError::from_opaque(v));
        }
    }
    // 6. Perform ! ReadableStreamDefaultControllerCallPullIfNeeded(controller).
    readable_stream_default_controller_call_pull_if_needed(controller, ctx);
    Ok(())
}

/// StructuredTransferOrClone(chunk, transferList) for an owning controller; an abrupt
/// completion errors the controller and is returned.
fn owning_chunk(
    controller: &JsObject<ReadableStreamDefaultController>,
    chunk: &JsValue,
    transfer_list: &[JsObject],
    ctx: &mut Context,
) -> JsResult<JsValue> {
    // NOTE: serialization can run user code (getters of a plain object chunk); it runs
    // inside `webidl::catching` because the error is also used as the stream's error.
    match webidl::catching(ctx, |ctx| {
        owning::structured_transfer_or_clone(chunk, transfer_list, ctx)
    }) {
        Ok(v) => Ok(v),
        Err(e) => {
            let v = e.into_value();
            readable_stream_default_controller_error(controller, v.clone(), ctx);
            Err(boa_engine::JsError::from_opaque(v))
        }
    }
}

/// [ResetQueue](https://streams.spec.whatwg.org/#reset-queue)(controller), with the
/// experimental "owning" type's disposal: the chunks an owning controller drops run their
/// [dispose steps](dispose_chunk).
fn reset_queue(controller: &JsObject<ReadableStreamDefaultController>, ctx: &mut Context) {
    let dropped = data(controller, |c| {
        let mut queue = c.queue.borrow_mut();
        if c.is_owning.get() {
            queue.take_values()
        } else {
            queue.reset_queue();
            Vec::new()
        }
    });
    for chunk in dropped {
        // Rust bytes (never an owning stream's chunk) need no dispose steps.
        if let Chunk::Js(chunk) = chunk {
            dispose_chunk(&chunk, ctx);
        }
    }
}

/// The dispose steps of a chunk an owning stream owned and drops unread (experimental).
///
/// The proposal leaves dispose steps to the chunk's own interface (VideoFrame's are its
/// `close()`). Of this host's objects only `MessagePort` has any: the port is closed
/// (disentangled), since nothing can reach a port the stream owned once the stream drops
/// it. Other chunks have none.
pub(crate) fn dispose_chunk(chunk: &JsValue, ctx: &mut Context) {
    owning::dispose(chunk, ctx);
}

/// [ReadableStreamDefaultControllerError](https://streams.spec.whatwg.org/#readable-stream-default-controller-error)
pub fn readable_stream_default_controller_error(
    controller: &JsObject<ReadableStreamDefaultController>,
    e: JsValue,
    ctx: &mut Context,
) {
    // 1. Let stream be controller.[[stream]].
    let stream = data(controller, ReadableStreamDefaultController::stream);
    // 2. If stream.[[state]] is not "readable", return.
    if with_stream(&stream, ReadableStream::state) != StreamState::Readable {
        return;
    }
    // 3. Perform ! ResetQueue(controller).
    reset_queue(controller, ctx);
    // 4. Perform ! ReadableStreamDefaultControllerClearAlgorithms(controller).
    readable_stream_default_controller_clear_algorithms(controller);
    // 5. Perform ! ReadableStreamError(stream, e).
    readable_stream_error(&stream, e, ctx);
}

/// [ReadableStreamDefaultControllerGetDesiredSize](https://streams.spec.whatwg.org/#readable-stream-default-controller-get-desired-size)
pub fn readable_stream_default_controller_get_desired_size(
    controller: &JsObject<ReadableStreamDefaultController>,
) -> Option<f64> {
    let b = controller.borrow();
    let c = b.data();
    // 1. Let state be controller.[[stream]].[[state]].
    match with_stream(&c.stream, ReadableStream::state) {
        // 2. If state is "errored", return null.
        StreamState::Errored => None,
        // 3. If state is "closed", return 0.
        StreamState::Closed => Some(0.0),
        // 4. Return controller.[[strategyHWM]] − controller.[[queueTotalSize]].
        StreamState::Readable => Some(c.strategy_hwm.get() - c.queue.borrow().total_size()),
    }
}

/// [ReadableStreamDefaultControllerHasBackpressure](https://streams.spec.whatwg.org/#rs-default-controller-has-backpressure)
pub fn readable_stream_default_controller_has_backpressure(
    controller: &JsObject<ReadableStreamDefaultController>,
) -> bool {
    // 1. If ! ReadableStreamDefaultControllerShouldCallPull(controller) is true, return false.
    // 2. Otherwise, return true.
    !readable_stream_default_controller_should_call_pull(controller)
}

/// [ReadableStreamDefaultControllerCanCloseOrEnqueue](https://streams.spec.whatwg.org/#readable-stream-default-controller-can-close-or-enqueue)
pub fn readable_stream_default_controller_can_close_or_enqueue(
    controller: &JsObject<ReadableStreamDefaultController>,
) -> bool {
    let b = controller.borrow();
    let c = b.data();
    // 1. Let state be controller.[[stream]].[[state]].
    let state = with_stream(&c.stream, ReadableStream::state);
    // 2. If controller.[[closeRequested]] is false and state is "readable", return true.
    // 3. Otherwise, return false.
    !c.close_requested.get() && state == StreamState::Readable
}
