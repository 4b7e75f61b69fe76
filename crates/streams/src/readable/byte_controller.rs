//! `ReadableByteStreamController` ([spec](https://streams.spec.whatwg.org/#rbs-controller-class)),
//! its pull-into descriptors and byte queue, and the byte stream controller abstract operations
//! ([spec §4.10](https://streams.spec.whatwg.org/#rbs-controller-abstract-ops)).
//!
//! Pending pull-into descriptors live in a ring buffer (`VecDeque`) of shared cells: the head
//! descriptor is filled in place while it stays in the list.

use std::cell::Cell;
use std::collections::VecDeque;

use boa_engine::{
    class::{Class, ClassBuilder},
    object::builtins::JsArrayBuffer,
    property::Attribute,
    Context, JsData, JsObject, JsResult, JsValue,
};
use boa_gc::{Finalize, Gc, GcRefCell, Trace};

use super::buffers::{
    array_buffer_byte_length, clone_block, copy_into_pull_into_buffer, is_detached_buffer,
    pull_into_buffer_object, to_array_buffer_view, transfer_array_buffer,
    transfer_pull_into_buffer, transfer_pull_into_buffer_to_object, PullIntoBuffer,
    PullIntoBufferCell, TypedArrayKind, ViewConstructor, ViewRecord,
};
use super::requests::ReadIntoRequest;
use super::requests::ReadRequest;
use super::source::{JsSource, SourceAlgorithms, StartAlgorithm};
use super::{
    readable_stream_add_read_into_request, readable_stream_add_read_request, readable_stream_close,
    readable_stream_error, readable_stream_fulfill_read_into_request,
    readable_stream_fulfill_read_request, readable_stream_get_num_read_into_requests,
    readable_stream_get_num_read_requests, readable_stream_has_byob_reader,
    readable_stream_has_default_reader, with_stream, ReadableStream, StreamController,
    StreamReader, StreamState,
};
use boa_webidl::promise::Completion;
use boa_webidl::Member;
use boa_webidl::{
    self as webidl, arg, brand, illegal_constructor, range_error, type_error, INTERFACE_ATTRIBUTES,
};

// ---------------------------------------------------------------------------------------
// Records
// ---------------------------------------------------------------------------------------

/// A pull-into descriptor's reader type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReaderType {
    /// "default".
    Default,
    /// "byob".
    Byob,
    /// "none" (the initiating reader was released).
    None,
}

/// A [pull-into descriptor](https://streams.spec.whatwg.org/#pull-into-descriptor).
#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
pub struct PullIntoDescriptor {
    /// buffer (see [`PullIntoBuffer`]: with the fast paths on, a transferred data block until
    /// script could see the object).
    pub buffer: PullIntoBuffer,
    /// buffer byte length.
    #[unsafe_ignore_trace]
    pub buffer_byte_length: u64,
    /// byte offset.
    #[unsafe_ignore_trace]
    pub byte_offset: u64,
    /// byte length.
    #[unsafe_ignore_trace]
    pub byte_length: u64,
    /// bytes filled.
    #[unsafe_ignore_trace]
    pub bytes_filled: u64,
    /// minimum fill.
    #[unsafe_ignore_trace]
    pub minimum_fill: u64,
    /// element size.
    #[unsafe_ignore_trace]
    pub element_size: u64,
    /// view constructor.
    #[unsafe_ignore_trace]
    pub view_constructor: ViewConstructor,
    /// reader type.
    #[unsafe_ignore_trace]
    pub reader_type: ReaderType,
}

/// A pull-into descriptor shared between `[[pendingPullIntos]]` and the steps filling it.
pub type PullInto = Gc<GcRefCell<PullIntoDescriptor>>;

impl PullIntoBufferCell for PullInto {
    fn with_buffer<R>(&self, f: impl FnOnce(&mut PullIntoBuffer) -> R) -> R {
        f(&mut self.borrow_mut().buffer)
    }
}

/// A [readable byte stream queue entry](https://streams.spec.whatwg.org/#readable-byte-stream-queue-entry).
#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
struct ByteQueueEntry {
    buffer: JsArrayBuffer,
    #[unsafe_ignore_trace]
    byte_offset: u64,
    #[unsafe_ignore_trace]
    byte_length: u64,
}

// ---------------------------------------------------------------------------------------
// The controller object
// ---------------------------------------------------------------------------------------

/// A `ReadableByteStreamController`'s internal slots.
#[derive(Trace, Finalize, JsData)]
pub struct ReadableByteStreamController {
    stream: JsObject<ReadableStream>,
    #[unsafe_ignore_trace]
    auto_allocate_chunk_size: Cell<Option<u64>>,
    byob_request: GcRefCell<Option<JsObject<ReadableStreamBYOBRequest>>>,
    algorithms: GcRefCell<Option<SourceAlgorithms>>,
    #[unsafe_ignore_trace]
    close_requested: Cell<bool>,
    #[unsafe_ignore_trace]
    pull_again: Cell<bool>,
    #[unsafe_ignore_trace]
    pulling: Cell<bool>,
    pending_pull_intos: GcRefCell<VecDeque<PullInto>>,
    queue: GcRefCell<VecDeque<ByteQueueEntry>>,
    #[unsafe_ignore_trace]
    queue_total_size: Cell<u64>,
    #[unsafe_ignore_trace]
    started: Cell<bool>,
    #[unsafe_ignore_trace]
    strategy_hwm: Cell<f64>,
}

impl std::fmt::Debug for ReadableByteStreamController {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReadableByteStreamController")
            .finish_non_exhaustive()
    }
}

impl ReadableByteStreamController {
    /// `[[stream]]`.
    pub fn stream(&self) -> JsObject<ReadableStream> {
        self.stream.clone()
    }

    /// Whether `[[pendingPullIntos]]` is not empty.
    pub fn has_pending_pull_intos(&self) -> bool {
        !self.pending_pull_intos.borrow().is_empty()
    }

    /// `[[pendingPullIntos]][0]`, if any.
    pub(crate) fn first_pending_pull_into(&self) -> Option<PullInto> {
        self.pending_pull_intos.borrow().front().cloned()
    }

    /// `[[queueTotalSize]]`.
    pub fn queue_total_size(&self) -> u64 {
        self.queue_total_size.get()
    }
}

fn data<R>(
    c: &JsObject<ReadableByteStreamController>,
    f: impl FnOnce(&ReadableByteStreamController) -> R,
) -> R {
    f(c.borrow().data())
}

fn stream_state(c: &JsObject<ReadableByteStreamController>) -> StreamState {
    let stream = data(c, ReadableByteStreamController::stream);
    with_stream(&stream, ReadableStream::state)
}

/// The byte stream controller of `stream`, if it has one.
pub(crate) fn byte_controller_of(
    stream: &JsObject<ReadableStream>,
) -> Option<JsObject<ReadableByteStreamController>> {
    match with_stream(stream, ReadableStream::controller) {
        Some(StreamController::Byte(c)) => Some(c),
        _ => None,
    }
}

/// The interface's identifier.
const NAME: &str = "ReadableByteStreamController";

/// [byobRequest](https://streams.spec.whatwg.org/#rbs-controller-byob-request)
fn byob_request(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let c = brand::<ReadableByteStreamController>(this, NAME)?;
    // 1. Return ! ReadableByteStreamControllerGetBYOBRequest(this).
    Ok(readable_byte_stream_controller_get_byob_request(&c, ctx)?
        .map_or(JsValue::null(), |r| r.upcast().into()))
}

/// [desiredSize](https://streams.spec.whatwg.org/#rbs-controller-desired-size)
fn desired_size(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let c = brand::<ReadableByteStreamController>(this, NAME)?;
    // 1. Return ! ReadableByteStreamControllerGetDesiredSize(this).
    Ok(readable_byte_stream_controller_get_desired_size(&c).map_or(JsValue::null(), JsValue::from))
}

/// [close()](https://streams.spec.whatwg.org/#rbs-controller-close)
fn close(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let c = brand::<ReadableByteStreamController>(this, NAME)?;
    // 1. If this.[[closeRequested]] is true, throw a TypeError exception.
    if data(&c, |c| c.close_requested.get()) {
        return Err(type_error("The stream is already closing"));
    }
    // 2. If this.[[stream]].[[state]] is not "readable", throw a TypeError
    //    exception.
    if stream_state(&c) != StreamState::Readable {
        return Err(type_error("The stream is not readable"));
    }
    // 3. Perform ? ReadableByteStreamControllerClose(this).
    readable_byte_stream_controller_close(&c, ctx)?;
    Ok(JsValue::undefined())
}

/// [enqueue(chunk)](https://streams.spec.whatwg.org/#rbs-controller-enqueue)
fn enqueue(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let c = brand::<ReadableByteStreamController>(this, NAME)?;
    // IDL layer: `ArrayBufferView chunk`.
    let chunk = to_array_buffer_view(&arg(args, 0), "chunk", ctx)?;
    // 1. If chunk.[[ByteLength]] is 0, throw a TypeError exception.
    if chunk.byte_length == 0 {
        return Err(type_error("chunk must have a non-zero byteLength"));
    }
    // 2. If chunk.[[ViewedArrayBuffer]].[[ByteLength]] is 0, throw a TypeError
    //    exception.
    if array_buffer_byte_length(&chunk.buffer) == 0 {
        return Err(type_error("chunk's buffer must have a non-zero byteLength"));
    }
    // 3. If this.[[closeRequested]] is true, throw a TypeError exception.
    if data(&c, |c| c.close_requested.get()) {
        return Err(type_error("The stream is closing"));
    }
    // 4. If this.[[stream]].[[state]] is not "readable", throw a TypeError
    //    exception.
    if stream_state(&c) != StreamState::Readable {
        return Err(type_error("The stream is not readable"));
    }
    // 5. Return ? ReadableByteStreamControllerEnqueue(this, chunk).
    readable_byte_stream_controller_enqueue(&c, &chunk, ctx)?;
    Ok(JsValue::undefined())
}

/// [error(e)](https://streams.spec.whatwg.org/#rbs-controller-error)
fn error(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let c = brand::<ReadableByteStreamController>(this, NAME)?;
    // 1. Perform ! ReadableByteStreamControllerError(this, e).
    readable_byte_stream_controller_error(&c, arg(args, 0), ctx);
    Ok(JsValue::undefined())
}

impl Class for ReadableByteStreamController {
    const NAME: &'static str = "ReadableByteStreamController";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(
            class,
            &[
                Member::attribute("byobRequest", byob_request),
                Member::attribute("desiredSize", desired_size),
                Member::operation("close", 0, close),
                Member::operation("enqueue", 1, enqueue),
                Member::operation("error", 0, error),
                Member::to_string_tag(NAME),
            ],
        )
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        Err(illegal_constructor())
    }
}

pub(super) fn new_byte_controller_object(
    stream: &JsObject<ReadableStream>,
    ctx: &mut Context,
) -> JsResult<JsObject<ReadableByteStreamController>> {
    let proto = ctx
        .get_global_class::<ReadableByteStreamController>()
        .ok_or_else(|| type_error("ReadableByteStreamController is not registered"))?
        .prototype();
    Ok(JsObject::new(
        ctx.root_shape(),
        proto,
        ReadableByteStreamController {
            stream: stream.clone(),
            auto_allocate_chunk_size: Cell::new(None),
            byob_request: GcRefCell::new(None),
            algorithms: GcRefCell::new(None),
            close_requested: Cell::new(false),
            pull_again: Cell::new(false),
            pulling: Cell::new(false),
            pending_pull_intos: GcRefCell::new(VecDeque::new()),
            queue: GcRefCell::new(VecDeque::new()),
            queue_total_size: Cell::new(0),
            started: Cell::new(false),
            strategy_hwm: Cell::new(0.0),
        },
    ))
}

// ---------------------------------------------------------------------------------------
// Set-up and creation
// ---------------------------------------------------------------------------------------

/// [SetUpReadableByteStreamControllerFromUnderlyingSource](https://streams.spec.whatwg.org/#set-up-readable-byte-stream-controller-from-underlying-source)
#[allow(clippy::too_many_arguments)]
pub(crate) fn set_up_readable_byte_stream_controller_from_underlying_source(
    stream: &JsObject<ReadableStream>,
    underlying_source: JsValue,
    start: Option<JsObject>,
    pull: Option<JsObject>,
    cancel: Option<JsObject>,
    high_water_mark: f64,
    auto_allocate_chunk_size: Option<u64>,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. Let controller be a new ReadableByteStreamController.
    let controller = new_byte_controller_object(stream, ctx)?;
    // 2-7. startAlgorithm, pullAlgorithm, cancelAlgorithm from the dictionary members (absent
    //      ones return undefined / a promise resolved with undefined).
    let algorithms = SourceAlgorithms::Js(JsSource {
        source: underlying_source.clone(),
        pull,
        cancel,
    });
    let start = StartAlgorithm::from_underlying_source(underlying_source, start);
    // 8. Let autoAllocateChunkSize be underlyingSourceDict["autoAllocateChunkSize"], if it
    //    exists, or undefined otherwise.
    // 9. If autoAllocateChunkSize is 0, then throw a TypeError exception.
    if auto_allocate_chunk_size == Some(0) {
        return Err(type_error("autoAllocateChunkSize must be greater than 0"));
    }
    // 10. Perform ? SetUpReadableByteStreamController(stream, controller, startAlgorithm,
    //     pullAlgorithm, cancelAlgorithm, highWaterMark, autoAllocateChunkSize).
    set_up_readable_byte_stream_controller(
        stream,
        &controller,
        start,
        algorithms,
        high_water_mark,
        auto_allocate_chunk_size,
        ctx,
    )
}

/// [SetUpReadableByteStreamController](https://streams.spec.whatwg.org/#set-up-readable-byte-stream-controller)
#[allow(clippy::too_many_arguments)]
pub(crate) fn set_up_readable_byte_stream_controller(
    stream: &JsObject<ReadableStream>,
    controller: &JsObject<ReadableByteStreamController>,
    start: StartAlgorithm,
    algorithms: SourceAlgorithms,
    high_water_mark: f64,
    auto_allocate_chunk_size: Option<u64>,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. Assert: stream.[[controller]] is undefined.
    debug_assert!(with_stream(stream, ReadableStream::controller).is_none());
    // 2. If autoAllocateChunkSize is not undefined, assert it is a positive integer.
    debug_assert_ne!(auto_allocate_chunk_size, Some(0));
    // 3. Set controller.[[stream]] to stream. (Set at creation.)
    data(controller, |c| {
        // 4. Set controller.[[pullAgain]] and controller.[[pulling]] to false.
        c.pull_again.set(false);
        c.pulling.set(false);
        // 5. Set controller.[[byobRequest]] to null.
        *c.byob_request.borrow_mut() = None;
        // 6. Perform ! ResetQueue(controller).
        c.queue.borrow_mut().clear();
        c.queue_total_size.set(0);
        // 7. Set controller.[[closeRequested]] and controller.[[started]] to false.
        c.close_requested.set(false);
        c.started.set(false);
        // 8. Set controller.[[strategyHWM]] to highWaterMark.
        c.strategy_hwm.set(high_water_mark);
        // 9. Set controller.[[pullAlgorithm]] to pullAlgorithm.
        // 10. Set controller.[[cancelAlgorithm]] to cancelAlgorithm.
        *c.algorithms.borrow_mut() = Some(algorithms);
        // 11. Set controller.[[autoAllocateChunkSize]] to autoAllocateChunkSize.
        c.auto_allocate_chunk_size.set(auto_allocate_chunk_size);
        // 12. Set controller.[[pendingPullIntos]] to a new empty list.
        c.pending_pull_intos.borrow_mut().clear();
    });
    // 13. Set stream.[[controller]] to controller.
    with_stream(stream, |s| {
        *s.controller.borrow_mut() = Some(StreamController::Byte(controller.clone()));
    });
    // 14. Let startResult be the result of performing startAlgorithm.
    // 15. Let startPromise be a promise resolved with startResult.
    let start_promise = start.perform(&StreamController::Byte(controller.clone()), ctx)?;
    // 16. Upon fulfillment of startPromise,
    //   1. Set controller.[[started]] to true.
    //   2. Assert: controller.[[pulling]] is false.
    //   3. Assert: controller.[[pullAgain]] is false.
    //   4. Perform ! ReadableByteStreamControllerCallPullIfNeeded(controller).
    // 17. Upon rejection of startPromise with reason r,
    //   1. Perform ! ReadableByteStreamControllerError(controller, r).
    start_promise.upon(
        controller.clone(),
        |controller, settlement, ctx| match settlement {
            Ok(_) => {
                data(controller, |c| {
                    c.started.set(true);
                    debug_assert!(!c.pulling.get(), "[[pulling]] is false at start");
                    debug_assert!(!c.pull_again.get(), "[[pullAgain]] is false at start");
                });
                readable_byte_stream_controller_call_pull_if_needed(controller, ctx);
            }
            Err(r) => readable_byte_stream_controller_error(controller, r, ctx),
        },
        ctx,
    );
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Internal methods
// ---------------------------------------------------------------------------------------

/// [[[CancelSteps]]](https://streams.spec.whatwg.org/#rbs-controller-private-cancel)
pub(crate) fn cancel_steps(
    controller: &JsObject<ReadableByteStreamController>,
    reason: JsValue,
    ctx: &mut Context,
) -> Completion {
    // 1. Perform ! ReadableByteStreamControllerClearPendingPullIntos(this).
    readable_byte_stream_controller_clear_pending_pull_intos(controller);
    // 2. Perform ! ResetQueue(this).
    reset_queue(controller);
    // 3. Let result be the result of performing this.[[cancelAlgorithm]], passing in reason.
    let algorithms = data(controller, |c| c.algorithms.borrow().clone());
    let result = match algorithms {
        Some(a) => a.cancel(reason, ctx),
        None => Completion::undefined(),
    };
    // 4. Perform ! ReadableByteStreamControllerClearAlgorithms(this).
    readable_byte_stream_controller_clear_algorithms(controller);
    // 5. Return result.
    result
}

/// [[[PullSteps]]](https://streams.spec.whatwg.org/#rbs-controller-private-pull)
pub(crate) fn pull_steps(
    controller: &JsObject<ReadableByteStreamController>,
    read_request: ReadRequest,
    ctx: &mut Context,
) {
    // 1. Let stream be this.[[stream]].
    let stream = data(controller, ReadableByteStreamController::stream);
    // 2. Assert: ! ReadableStreamHasDefaultReader(stream) is true.
    debug_assert!(readable_stream_has_default_reader(&stream));
    // 3. If this.[[queueTotalSize]] > 0,
    if data(controller, ReadableByteStreamController::queue_total_size) > 0 {
        //   1. Assert: ! ReadableStreamGetNumReadRequests(stream) is 0.
        debug_assert_eq!(readable_stream_get_num_read_requests(&stream), 0);
        //   2. Perform ! ReadableByteStreamControllerFillReadRequestFromQueue(this,
        //      readRequest).
        readable_byte_stream_controller_fill_read_request_from_queue(controller, read_request, ctx);
        //   3. Return.
        return;
    }
    // 4. Let autoAllocateChunkSize be this.[[autoAllocateChunkSize]].
    // 5. If autoAllocateChunkSize is not undefined,
    if let Some(size) = data(controller, |c| c.auto_allocate_chunk_size.get()) {
        //   1. Let buffer be Construct(%ArrayBuffer%, « autoAllocateChunkSize »).
        let buffer = usize::try_from(size)
            .map_err(|_| range_error("autoAllocateChunkSize is too large"))
            .and_then(|n| boa_webidl::gc_pressure::zeroed_array_buffer(n, ctx));
        let buffer = match buffer {
            Ok(b) => b,
            //   2. If buffer is an abrupt completion,
            //     1. Perform readRequest's error steps, given buffer.[[Value]].
            //     2. Return.
            Err(e) => {
                let e = webidl::own_error_value(e, ctx);
                read_request.error_steps(e, ctx);
                return;
            }
        };
        //   3. Let pullIntoDescriptor be a new pull-into descriptor with buffer
        //      buffer.[[Value]], buffer byte length autoAllocateChunkSize, byte offset 0,
        //      byte length autoAllocateChunkSize, bytes filled 0, minimum fill 1, element
        //      size 1, view constructor %Uint8Array%, and reader type "default".
        let descriptor = Gc::new(GcRefCell::new(PullIntoDescriptor {
            buffer: PullIntoBuffer::Object(buffer),
            buffer_byte_length: size,
            byte_offset: 0,
            byte_length: size,
            bytes_filled: 0,
            minimum_fill: 1,
            element_size: 1,
            view_constructor: ViewConstructor::Typed(TypedArrayKind::Uint8),
            reader_type: ReaderType::Default,
        }));
        //   4. Append pullIntoDescriptor to this.[[pendingPullIntos]].
        data(controller, |c| {
            c.pending_pull_intos.borrow_mut().push_back(descriptor)
        });
    }
    // 6. Perform ! ReadableStreamAddReadRequest(stream, readRequest).
    readable_stream_add_read_request(&stream, read_request);
    // 7. Perform ! ReadableByteStreamControllerCallPullIfNeeded(this).
    readable_byte_stream_controller_call_pull_if_needed(controller, ctx);
}

/// [[[ReleaseSteps]]](https://streams.spec.whatwg.org/#abstract-opdef-readablebytestreamcontroller-releasesteps)
pub(crate) fn release_steps(controller: &JsObject<ReadableByteStreamController>) {
    data(controller, |c| {
        let mut list = c.pending_pull_intos.borrow_mut();
        // 1. If this.[[pendingPullIntos]] is not empty,
        if let Some(first) = list.front().cloned() {
            //   1. Let firstPendingPullInto be this.[[pendingPullIntos]][0].
            //   2. Set firstPendingPullInto's reader type to "none".
            first.borrow_mut().reader_type = ReaderType::None;
            //   3. Set this.[[pendingPullIntos]] to the list « firstPendingPullInto ».
            list.clear();
            list.push_back(first);
        }
    });
}

fn reset_queue(controller: &JsObject<ReadableByteStreamController>) {
    // ResetQueue: [[queue]] ← empty, [[queueTotalSize]] ← 0.
    data(controller, |c| {
        c.queue.borrow_mut().clear();
        c.queue_total_size.set(0);
    });
}

// ---------------------------------------------------------------------------------------
// Abstract operations: byte stream controllers
// ---------------------------------------------------------------------------------------

/// [ReadableByteStreamControllerCallPullIfNeeded](https://streams.spec.whatwg.org/#readable-byte-stream-controller-call-pull-if-needed)
pub(crate) fn readable_byte_stream_controller_call_pull_if_needed(
    controller: &JsObject<ReadableByteStreamController>,
    ctx: &mut Context,
) {
    // 1. Let shouldPull be ! ReadableByteStreamControllerShouldCallPull(controller).
    // 2. If shouldPull is false, return.
    if !readable_byte_stream_controller_should_call_pull(controller) {
        return;
    }
    let algorithms = {
        let b = controller.borrow();
        let c = b.data();
        // 3. If controller.[[pulling]] is true,
        //   1. Set controller.[[pullAgain]] to true.
        //   2. Return.
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
        Some(a) => a.pull(&StreamController::Byte(controller.clone()), ctx),
        None => Completion::undefined(),
    };
    // 7. Upon fulfillment of pullPromise,
    //   1. Set controller.[[pulling]] to false.
    //   2. If controller.[[pullAgain]] is true,
    //     1. Set controller.[[pullAgain]] to false.
    //     2. Perform ! ReadableByteStreamControllerCallPullIfNeeded(controller).
    // 8. Upon rejection of pullPromise with reason e,
    //   1. Perform ! ReadableByteStreamControllerError(controller, e).
    // NOTE: with the fast paths on, a pull() returning a non-object settles through a native
    // microtask at the reaction's position, as for default controllers; [[pulling]] stays
    // true until then.
    pull_promise.upon(
        controller.clone(),
        |controller, settlement, ctx| match settlement {
            Ok(_) => {
                let again = data(controller, |c| {
                    c.pulling.set(false);
                    c.pull_again.replace(false)
                });
                if again {
                    readable_byte_stream_controller_call_pull_if_needed(controller, ctx);
                }
            }
            Err(e) => readable_byte_stream_controller_error(controller, e, ctx),
        },
        ctx,
    );
}

/// [ReadableByteStreamControllerClearAlgorithms](https://streams.spec.whatwg.org/#readable-byte-stream-controller-clear-algorithms)
pub(crate) fn readable_byte_stream_controller_clear_algorithms(
    controller: &JsObject<ReadableByteStreamController>,
) {
    // 1. Set controller.[[pullAlgorithm]] to undefined.
    // 2. Set controller.[[cancelAlgorithm]] to undefined.
    data(controller, |c| *c.algorithms.borrow_mut() = None);
}

/// [ReadableByteStreamControllerClearPendingPullIntos](https://streams.spec.whatwg.org/#readable-byte-stream-controller-clear-pending-pull-intos)
pub(crate) fn readable_byte_stream_controller_clear_pending_pull_intos(
    controller: &JsObject<ReadableByteStreamController>,
) {
    // 1. Perform ! ReadableByteStreamControllerInvalidateBYOBRequest(controller).
    readable_byte_stream_controller_invalidate_byob_request(controller);
    // 2. Set controller.[[pendingPullIntos]] to a new empty list.
    data(controller, |c| c.pending_pull_intos.borrow_mut().clear());
}

/// [ReadableByteStreamControllerClose](https://streams.spec.whatwg.org/#readable-byte-stream-controller-close)
pub fn readable_byte_stream_controller_close(
    controller: &JsObject<ReadableByteStreamController>,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. Let stream be controller.[[stream]].
    let stream = data(controller, ReadableByteStreamController::stream);
    // 2. If controller.[[closeRequested]] is true or stream.[[state]] is not "readable",
    //    return.
    if data(controller, |c| c.close_requested.get())
        || with_stream(&stream, ReadableStream::state) != StreamState::Readable
    {
        return Ok(());
    }
    // 3. If controller.[[queueTotalSize]] > 0,
    if data(controller, ReadableByteStreamController::queue_total_size) > 0 {
        //   1. Set controller.[[closeRequested]] to true.
        data(controller, |c| c.close_requested.set(true));
        //   2. Return.
        return Ok(());
    }
    // 4. If controller.[[pendingPullIntos]] is not empty,
    if let Some(first) = data(
        controller,
        ReadableByteStreamController::first_pending_pull_into,
    ) {
        //   1. Let firstPendingPullInto be controller.[[pendingPullIntos]][0].
        //   2. If the remainder after dividing firstPendingPullInto's bytes filled by
        //      firstPendingPullInto's element size is not 0,
        let misaligned = {
            let d = first.borrow();
            d.bytes_filled % d.element_size != 0
        };
        if misaligned {
            //   1. Let e be a new TypeError exception.
            let e = boa_webidl::type_error_value(
                "Cannot close a stream with a partially filled element",
                ctx,
            );
            //   2. Perform ! ReadableByteStreamControllerError(controller, e).
            readable_byte_stream_controller_error(controller, e.clone(), ctx);
            //   3. Throw e.
            return Err(boa_engine::JsError::from_opaque(e));
        }
    }
    // 5. Perform ! ReadableByteStreamControllerClearAlgorithms(controller).
    readable_byte_stream_controller_clear_algorithms(controller);
    // 6. Perform ! ReadableStreamClose(stream).
    readable_stream_close(&stream, ctx);
    Ok(())
}

/// [ReadableByteStreamControllerCommitPullIntoDescriptor](https://streams.spec.whatwg.org/#readable-byte-stream-controller-commit-pull-into-descriptor)
pub(crate) fn readable_byte_stream_controller_commit_pull_into_descriptor(
    stream: &JsObject<ReadableStream>,
    pull_into: &PullInto,
    ctx: &mut Context,
) {
    // 1. Assert: stream.[[state]] is not "errored".
    debug_assert_ne!(
        with_stream(stream, ReadableStream::state),
        StreamState::Errored
    );
    // 2. Assert: pullIntoDescriptor.reader type is not "none".
    debug_assert_ne!(pull_into.borrow().reader_type, ReaderType::None);
    // 3. Let done be false.
    // 4. If stream.[[state]] is "closed",
    //   1. Assert: bytes filled % element size is 0.
    //   2. Set done to true.
    let done = with_stream(stream, ReadableStream::state) == StreamState::Closed;
    // 5. Let filledView be ! ReadableByteStreamControllerConvertPullIntoDescriptor(
    //    pullIntoDescriptor).
    let filled_view =
        match readable_byte_stream_controller_convert_pull_into_descriptor(pull_into, ctx) {
            Ok(v) => JsValue::from(v),
            Err(_) => return,
        };
    let reader_type = pull_into.borrow().reader_type;
    // 6. If pullIntoDescriptor's reader type is "default",
    if reader_type == ReaderType::Default {
        //   1. Perform ! ReadableStreamFulfillReadRequest(stream, filledView, done).
        readable_stream_fulfill_read_request(stream, filled_view, done, ctx);
    } else {
        // 7. Otherwise,
        //   1. Assert: pullIntoDescriptor's reader type is "byob".
        debug_assert_eq!(pull_into.borrow().reader_type, ReaderType::Byob);
        //   2. Perform ! ReadableStreamFulfillReadIntoRequest(stream, filledView, done).
        readable_stream_fulfill_read_into_request(stream, filled_view, done, ctx);
    }
}

/// [ReadableByteStreamControllerConvertPullIntoDescriptor](https://streams.spec.whatwg.org/#readable-byte-stream-controller-convert-pull-into-descriptor)
pub(crate) fn readable_byte_stream_controller_convert_pull_into_descriptor(
    pull_into: &PullInto,
    ctx: &mut Context,
) -> JsResult<JsObject> {
    let (byte_offset, bytes_filled, element_size, ctor) = {
        let d = pull_into.borrow();
        // 1. Let bytesFilled be pullIntoDescriptor's bytes filled.
        // 2. Let elementSize be pullIntoDescriptor's element size.
        // 3. Assert: bytesFilled ≤ pullIntoDescriptor's byte length.
        // 4. Assert: the remainder after dividing bytesFilled by elementSize is 0.
        (
            d.byte_offset,
            d.bytes_filled,
            d.element_size,
            d.view_constructor,
        )
    };
    // 5. Let buffer be ! TransferArrayBuffer(pullIntoDescriptor's buffer).
    // NOTE: a block (fast paths) moves into the new object: no intermediate object.
    let buffer = transfer_pull_into_buffer_to_object(pull_into, ctx)?;
    // 6. Return ! Construct(pullIntoDescriptor's view constructor, « buffer,
    //    pullIntoDescriptor's byte offset, bytesFilled ÷ elementSize »).
    ctor.construct_own(&buffer, byte_offset, bytes_filled / element_size, ctx)
}

/// [ReadableByteStreamControllerEnqueue](https://streams.spec.whatwg.org/#readable-byte-stream-controller-enqueue)
pub fn readable_byte_stream_controller_enqueue(
    controller: &JsObject<ReadableByteStreamController>,
    chunk: &ViewRecord,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. Let stream be controller.[[stream]].
    let stream = data(controller, ReadableByteStreamController::stream);
    // 2. If controller.[[closeRequested]] is true or stream.[[state]] is not "readable",
    //    return.
    if data(controller, |c| c.close_requested.get())
        || with_stream(&stream, ReadableStream::state) != StreamState::Readable
    {
        return Ok(());
    }
    // 3. Let buffer be chunk.[[ViewedArrayBuffer]].
    // 4. Let byteOffset be chunk.[[ByteOffset]].
    // 5. Let byteLength be chunk.[[ByteLength]].
    let (buffer, byte_offset, byte_length) = (&chunk.buffer, chunk.byte_offset, chunk.byte_length);
    // 6. If ! IsDetachedBuffer(buffer) is true, throw a TypeError exception.
    if is_detached_buffer(buffer) {
        return Err(type_error("chunk's buffer is detached"));
    }
    // 7. Let transferredBuffer be ? TransferArrayBuffer(buffer).
    let transferred_buffer = transfer_array_buffer(buffer, ctx)?;
    // 8. If controller.[[pendingPullIntos]] is not empty, (the first pending pull-into's
    //    substeps)
    if let Some(first) = data(
        controller,
        ReadableByteStreamController::first_pending_pull_into,
    ) {
        enqueue_with_first_pending_pull_into(controller, &first, ctx)?;
    }
    // 9. If ! ReadableStreamHasDefaultReader(stream) is true,
    if readable_stream_has_default_reader(&stream) {
        enqueue_for_default_reader(
            controller,
            &stream,
            transferred_buffer,
            byte_offset,
            byte_length,
            ctx,
        )?;
    } else if readable_stream_has_byob_reader(&stream) {
        // 10. Otherwise, if ! ReadableStreamHasBYOBReader(stream) is true,
        //   1. Perform ! ReadableByteStreamControllerEnqueueChunkToQueue(controller,
        //      transferredBuffer, byteOffset, byteLength).
        readable_byte_stream_controller_enqueue_chunk_to_queue(
            controller,
            transferred_buffer,
            byte_offset,
            byte_length,
        );
        //   2. Let filledPullIntos be the result of performing !
        //      ReadableByteStreamControllerProcessPullIntoDescriptorsUsingQueue(controller).
        let filled = readable_byte_stream_controller_process_pull_into_descriptors_using_queue(
            controller, ctx,
        );
        //   3. For each filledPullInto of filledPullIntos,
        //     1. Perform ! ReadableByteStreamControllerCommitPullIntoDescriptor(stream,
        //        filledPullInto).
        for pull_into in filled {
            readable_byte_stream_controller_commit_pull_into_descriptor(&stream, &pull_into, ctx);
        }
    } else {
        // 11. Otherwise,
        //   1. Assert: ! IsReadableStreamLocked(stream) is false.
        //   2. Perform ! ReadableByteStreamControllerEnqueueChunkToQueue(controller,
        //      transferredBuffer, byteOffset, byteLength).
        readable_byte_stream_controller_enqueue_chunk_to_queue(
            controller,
            transferred_buffer,
            byte_offset,
            byte_length,
        );
    }
    // 12. Perform ! ReadableByteStreamControllerCallPullIfNeeded(controller).
    readable_byte_stream_controller_call_pull_if_needed(controller, ctx);
    Ok(())
}

/// [ReadableByteStreamControllerEnqueue](https://streams.spec.whatwg.org/#readable-byte-stream-controller-enqueue)
/// step 8: controller.[[pendingPullIntos]] is not empty, its first entry is `first`.
fn enqueue_with_first_pending_pull_into(
    controller: &JsObject<ReadableByteStreamController>,
    first: &PullInto,
    ctx: &mut Context,
) -> JsResult<()> {
    //   1. Let firstPendingPullInto be controller.[[pendingPullIntos]][0].
    //   2. If ! IsDetachedBuffer(firstPendingPullInto's buffer) is true, throw a TypeError
    //      exception.
    if first.borrow().buffer.is_detached() {
        return Err(type_error("The pending BYOB request's buffer is detached"));
    }
    //   3. Perform ! ReadableByteStreamControllerInvalidateBYOBRequest(controller).
    readable_byte_stream_controller_invalidate_byob_request(controller);
    //   4. Set firstPendingPullInto's buffer to ! TransferArrayBuffer(
    //      firstPendingPullInto's buffer).
    transfer_pull_into_buffer(first, ctx)?;
    //   5. If firstPendingPullInto's reader type is "none", perform ?
    //      ReadableByteStreamControllerEnqueueDetachedPullIntoToQueue(controller,
    //      firstPendingPullInto).
    if first.borrow().reader_type == ReaderType::None {
        readable_byte_stream_controller_enqueue_detached_pull_into_to_queue(
            controller, first, ctx,
        )?;
    }
    Ok(())
}

/// [ReadableByteStreamControllerEnqueue](https://streams.spec.whatwg.org/#readable-byte-stream-controller-enqueue)
/// step 9: ! ReadableStreamHasDefaultReader(stream) is true.
fn enqueue_for_default_reader(
    controller: &JsObject<ReadableByteStreamController>,
    stream: &JsObject<ReadableStream>,
    transferred_buffer: JsArrayBuffer,
    byte_offset: u64,
    byte_length: u64,
    ctx: &mut Context,
) -> JsResult<()> {
    //   1. Perform ! ReadableByteStreamControllerProcessReadRequestsUsingQueue(controller).
    readable_byte_stream_controller_process_read_requests_using_queue(controller, ctx);
    //   2. If ! ReadableStreamGetNumReadRequests(stream) is 0,
    if readable_stream_get_num_read_requests(stream) == 0 {
        //   1. Assert: controller.[[pendingPullIntos]] is empty.
        //   2. Perform ! ReadableByteStreamControllerEnqueueChunkToQueue(controller,
        //      transferredBuffer, byteOffset, byteLength).
        readable_byte_stream_controller_enqueue_chunk_to_queue(
            controller,
            transferred_buffer,
            byte_offset,
            byte_length,
        );
    } else {
        // 3. Otherwise,
        //   1. Assert: controller.[[queue]] is empty.
        //   2. If controller.[[pendingPullIntos]] is not empty,
        //     1. Assert: controller.[[pendingPullIntos]][0]'s reader type is "default".
        //     2. Perform ! ReadableByteStreamControllerShiftPendingPullInto(controller).
        if data(
            controller,
            ReadableByteStreamController::has_pending_pull_intos,
        ) {
            readable_byte_stream_controller_shift_pending_pull_into(controller);
        }
        //   3. Let transferredView be ! Construct(%Uint8Array%, « transferredBuffer,
        //      byteOffset, byteLength »).
        let transferred_view = ViewConstructor::Typed(TypedArrayKind::Uint8).construct_own(
            &transferred_buffer,
            byte_offset,
            byte_length,
            ctx,
        )?;
        //   4. Perform ! ReadableStreamFulfillReadRequest(stream, transferredView, false).
        readable_stream_fulfill_read_request(stream, transferred_view.into(), false, ctx);
    }
    Ok(())
}

/// [ReadableByteStreamControllerEnqueueChunkToQueue](https://streams.spec.whatwg.org/#readable-byte-stream-controller-enqueue-chunk-to-queue)
fn readable_byte_stream_controller_enqueue_chunk_to_queue(
    controller: &JsObject<ReadableByteStreamController>,
    buffer: JsArrayBuffer,
    byte_offset: u64,
    byte_length: u64,
) {
    data(controller, |c| {
        // 1. Append a new readable byte stream queue entry with buffer buffer, byte offset
        //    byteOffset, and byte length byteLength to controller.[[queue]].
        c.queue.borrow_mut().push_back(ByteQueueEntry {
            buffer,
            byte_offset,
            byte_length,
        });
        // 2. Set controller.[[queueTotalSize]] to controller.[[queueTotalSize]] + byteLength.
        c.queue_total_size
            .set(c.queue_total_size.get().saturating_add(byte_length));
    });
}

/// [ReadableByteStreamControllerEnqueueClonedChunkToQueue](https://streams.spec.whatwg.org/#abstract-opdef-readablebytestreamcontrollerenqueueclonedchunktoqueue)
fn readable_byte_stream_controller_enqueue_cloned_chunk_to_queue(
    controller: &JsObject<ReadableByteStreamController>,
    pull_into: &PullInto,
    byte_offset: u64,
    byte_length: u64,
    ctx: &mut Context,
) -> JsResult<()> {
    // (Both callers pass a pull-into descriptor's buffer.)
    // 1. Let cloneResult be CloneArrayBuffer(buffer, byteOffset, byteLength, %ArrayBuffer%).
    let block = pull_into
        .borrow()
        .buffer
        .with_bytes(|bytes| clone_block(bytes, byte_offset, byte_length));
    match block.and_then(|b| boa_webidl::gc_pressure::new_array_buffer(b, ctx)) {
        // 2. If cloneResult is an abrupt completion,
        //   1. Perform ! ReadableByteStreamControllerError(controller, cloneResult.[[Value]]).
        //   2. Return cloneResult.
        Err(e) => {
            let v = webidl::own_error_value(e, ctx);
            readable_byte_stream_controller_error(controller, v.clone(), ctx);
            Err(boa_engine::JsError::from_opaque(v))
        }
        // 3. Perform ! ReadableByteStreamControllerEnqueueChunkToQueue(controller,
        //    cloneResult.[[Value]], 0, byteLength).
        Ok(clone) => {
            readable_byte_stream_controller_enqueue_chunk_to_queue(
                controller,
                clone,
                0,
                byte_length,
            );
            Ok(())
        }
    }
}

/// [ReadableByteStreamControllerEnqueueDetachedPullIntoToQueue](https://streams.spec.whatwg.org/#abstract-opdef-readablebytestreamcontrollerenqueuedetachedpullintotoqueue)
fn readable_byte_stream_controller_enqueue_detached_pull_into_to_queue(
    controller: &JsObject<ReadableByteStreamController>,
    pull_into: &PullInto,
    ctx: &mut Context,
) -> JsResult<()> {
    let (byte_offset, bytes_filled) = {
        let d = pull_into.borrow();
        // 1. Assert: pullIntoDescriptor's reader type is "none".
        debug_assert_eq!(d.reader_type, ReaderType::None);
        (d.byte_offset, d.bytes_filled)
    };
    // 2. If pullIntoDescriptor's bytes filled > 0, perform ?
    //    ReadableByteStreamControllerEnqueueClonedChunkToQueue(controller,
    //    pullIntoDescriptor's buffer, pullIntoDescriptor's byte offset, pullIntoDescriptor's
    //    bytes filled).
    if bytes_filled > 0 {
        readable_byte_stream_controller_enqueue_cloned_chunk_to_queue(
            controller,
            pull_into,
            byte_offset,
            bytes_filled,
            ctx,
        )?;
    }
    // 3. Perform ! ReadableByteStreamControllerShiftPendingPullInto(controller).
    readable_byte_stream_controller_shift_pending_pull_into(controller);
    Ok(())
}

/// [ReadableByteStreamControllerError](https://streams.spec.whatwg.org/#readable-byte-stream-controller-error)
pub fn readable_byte_stream_controller_error(
    controller: &JsObject<ReadableByteStreamController>,
    e: JsValue,
    ctx: &mut Context,
) {
    // 1. Let stream be controller.[[stream]].
    let stream = data(controller, ReadableByteStreamController::stream);
    // 2. If stream.[[state]] is not "readable", return.
    if with_stream(&stream, ReadableStream::state) != StreamState::Readable {
        return;
    }
    // 3. Perform ! ReadableByteStreamControllerClearPendingPullIntos(controller).
    readable_byte_stream_controller_clear_pending_pull_intos(controller);
    // 4. Perform ! ResetQueue(controller).
    reset_queue(controller);
    // 5. Perform ! ReadableByteStreamControllerClearAlgorithms(controller).
    readable_byte_stream_controller_clear_algorithms(controller);
    // 6. Perform ! ReadableStreamError(stream, e).
    readable_stream_error(&stream, e, ctx);
}

/// [ReadableByteStreamControllerFillHeadPullIntoDescriptor](https://streams.spec.whatwg.org/#readable-byte-stream-controller-fill-head-pull-into-descriptor)
fn readable_byte_stream_controller_fill_head_pull_into_descriptor(
    controller: &JsObject<ReadableByteStreamController>,
    size: u64,
    pull_into: &PullInto,
) {
    // 1. Assert: either controller.[[pendingPullIntos]] is empty, or
    //    controller.[[pendingPullIntos]][0] is pullIntoDescriptor.
    // 2. Assert: controller.[[byobRequest]] is null.
    debug_assert!(data(controller, |c| c.byob_request.borrow().is_none()));
    // 3. Set pullIntoDescriptor's bytes filled to bytes filled + size.
    let mut d = pull_into.borrow_mut();
    d.bytes_filled = d.bytes_filled.saturating_add(size);
}

/// [ReadableByteStreamControllerFillPullIntoDescriptorFromQueue](https://streams.spec.whatwg.org/#readable-byte-stream-controller-fill-pull-into-descriptor-from-queue)
fn readable_byte_stream_controller_fill_pull_into_descriptor_from_queue(
    controller: &JsObject<ReadableByteStreamController>,
    pull_into: &PullInto,
    ctx: &mut Context,
) -> bool {
    let (bytes_filled, byte_length, minimum_fill, element_size, byte_offset) = {
        let d = pull_into.borrow();
        (
            d.bytes_filled,
            d.byte_length,
            d.minimum_fill,
            d.element_size,
            d.byte_offset,
        )
    };
    let queue_total_size = data(controller, ReadableByteStreamController::queue_total_size);
    // 1. Let maxBytesToCopy be min(controller.[[queueTotalSize]], pullIntoDescriptor's byte
    //    length − pullIntoDescriptor's bytes filled).
    let max_bytes_to_copy = queue_total_size.min(byte_length.saturating_sub(bytes_filled));
    // 2. Let maxBytesFilled be pullIntoDescriptor's bytes filled + maxBytesToCopy.
    let max_bytes_filled = bytes_filled + max_bytes_to_copy;
    // 3. Let totalBytesToCopyRemaining be maxBytesToCopy.
    let mut total_bytes_to_copy_remaining = max_bytes_to_copy;
    // 4. Let ready be false.
    let mut ready = false;
    // 5. Assert: ! IsDetachedBuffer(pullIntoDescriptor's buffer) is false.
    // 6. Assert: pullIntoDescriptor's bytes filled < pullIntoDescriptor's minimum fill.
    // 7. Let remainderBytes be the remainder after dividing maxBytesFilled by
    //    pullIntoDescriptor's element size.
    let remainder_bytes = max_bytes_filled % element_size;
    // 8. Let maxAlignedBytes be maxBytesFilled − remainderBytes.
    let max_aligned_bytes = max_bytes_filled - remainder_bytes;
    // 9. If maxAlignedBytes ≥ pullIntoDescriptor's minimum fill,
    if max_aligned_bytes >= minimum_fill {
        //   1. Set totalBytesToCopyRemaining to maxAlignedBytes − pullIntoDescriptor's bytes
        //      filled.
        total_bytes_to_copy_remaining = max_aligned_bytes.saturating_sub(bytes_filled);
        //   2. Set ready to true.
        ready = true;
    }
    // 10. Let queue be controller.[[queue]].
    // 11. While totalBytesToCopyRemaining > 0,
    while total_bytes_to_copy_remaining > 0 {
        //   1. Let headOfQueue be queue[0].
        let head = data(controller, |c| {
            c.queue
                .borrow()
                .front()
                .map(|h| (h.buffer.clone(), h.byte_offset, h.byte_length))
        });
        let Some((queue_buffer, queue_byte_offset, head_byte_length)) = head else {
            break;
        };
        //   2. Let bytesToCopy be min(totalBytesToCopyRemaining, headOfQueue's byte length).
        let bytes_to_copy = total_bytes_to_copy_remaining.min(head_byte_length);
        //   3. Let destStart be pullIntoDescriptor's byte offset + pullIntoDescriptor's bytes
        //      filled.
        let dest_start = byte_offset + pull_into.borrow().bytes_filled;
        //   4. Let descriptorBuffer be pullIntoDescriptor's buffer.
        //   5. Let queueBuffer be headOfQueue's buffer.
        //   6. Let queueByteOffset be headOfQueue's byte offset.
        //   7. Assert: ! CanCopyDataBlockBytes(descriptorBuffer, destStart, queueBuffer,
        //      queueByteOffset, bytesToCopy) is true.
        //   8. Perform ! CopyDataBlockBytes(descriptorBuffer.[[ArrayBufferData]], destStart,
        //      queueBuffer.[[ArrayBufferData]], queueByteOffset, bytesToCopy).
        // NOTE: the spec asks implementations to check the assertion and stop in an
        // implementation-defined manner if it fails: the stream is errored.
        if !copy_into_pull_into_buffer(
            &mut pull_into.borrow_mut().buffer,
            dest_start,
            &queue_buffer,
            queue_byte_offset,
            bytes_to_copy,
        ) {
            let e = boa_webidl::type_error_value("Invalid byte stream buffer state", ctx);
            readable_byte_stream_controller_error(controller, e, ctx);
            return false;
        }
        data(controller, |c| {
            let mut queue = c.queue.borrow_mut();
            //   9. If headOfQueue's byte length is bytesToCopy,
            if head_byte_length == bytes_to_copy {
                //   1. Remove queue[0].
                queue.pop_front();
            } else if let Some(h) = queue.front_mut() {
                //   10. Otherwise,
                //     1. Set headOfQueue's byte offset to byte offset + bytesToCopy.
                //     2. Set headOfQueue's byte length to byte length − bytesToCopy.
                h.byte_offset += bytes_to_copy;
                h.byte_length -= bytes_to_copy;
            }
            //   11. Set controller.[[queueTotalSize]] to controller.[[queueTotalSize]] −
            //       bytesToCopy.
            c.queue_total_size
                .set(c.queue_total_size.get().saturating_sub(bytes_to_copy));
        });
        //   12. Perform ! ReadableByteStreamControllerFillHeadPullIntoDescriptor(controller,
        //       bytesToCopy, pullIntoDescriptor).
        readable_byte_stream_controller_fill_head_pull_into_descriptor(
            controller,
            bytes_to_copy,
            pull_into,
        );
        //   13. Set totalBytesToCopyRemaining to totalBytesToCopyRemaining − bytesToCopy.
        total_bytes_to_copy_remaining -= bytes_to_copy;
    }
    // 12. If ready is false,
    //   1. Assert: controller.[[queueTotalSize]] is 0.
    //   2. Assert: pullIntoDescriptor's bytes filled > 0.
    //   3. Assert: pullIntoDescriptor's bytes filled < pullIntoDescriptor's minimum fill.
    // 13. Return ready.
    ready
}

/// [ReadableByteStreamControllerFillReadRequestFromQueue](https://streams.spec.whatwg.org/#abstract-opdef-readablebytestreamcontrollerfillreadrequestfromqueue)
fn readable_byte_stream_controller_fill_read_request_from_queue(
    controller: &JsObject<ReadableByteStreamController>,
    read_request: ReadRequest,
    ctx: &mut Context,
) {
    // 1. Assert: controller.[[queueTotalSize]] > 0.
    debug_assert!(data(controller, ReadableByteStreamController::queue_total_size) > 0);
    // 2. Let entry be controller.[[queue]][0].
    // 3. Remove entry from controller.[[queue]].
    // 4. Set controller.[[queueTotalSize]] to controller.[[queueTotalSize]] − entry's byte
    //    length.
    let entry = data(controller, |c| {
        let entry = c.queue.borrow_mut().pop_front();
        if let Some(e) = &entry {
            c.queue_total_size
                .set(c.queue_total_size.get().saturating_sub(e.byte_length));
        }
        entry
    });
    let Some(entry) = entry else {
        return;
    };
    // 5. Perform ! ReadableByteStreamControllerHandleQueueDrain(controller).
    readable_byte_stream_controller_handle_queue_drain(controller, ctx);
    // 6. Let view be ! Construct(%Uint8Array%, « entry's buffer, entry's byte offset, entry's
    //    byte length »).
    let view = ViewConstructor::Typed(TypedArrayKind::Uint8).construct_own(
        &entry.buffer,
        entry.byte_offset,
        entry.byte_length,
        ctx,
    );
    // 7. Perform readRequest's chunk steps, given view.
    match view {
        Ok(v) => read_request.chunk_steps(v.into(), ctx),
        Err(e) => {
            let e = webidl::own_error_value(e, ctx);
            read_request.error_steps(e, ctx);
        }
    }
}

/// [ReadableByteStreamControllerGetBYOBRequest](https://streams.spec.whatwg.org/#abstract-opdef-readablebytestreamcontrollergetbyobrequest)
pub fn readable_byte_stream_controller_get_byob_request(
    controller: &JsObject<ReadableByteStreamController>,
    ctx: &mut Context,
) -> JsResult<Option<JsObject<ReadableStreamBYOBRequest>>> {
    // 1. If controller.[[byobRequest]] is null and controller.[[pendingPullIntos]] is not
    //    empty,
    let (current, first) = data(controller, |c| {
        (c.byob_request.borrow().clone(), c.first_pending_pull_into())
    });
    if let (None, Some(first)) = (current, first) {
        //   1. Let firstDescriptor be controller.[[pendingPullIntos]][0].
        //   2. Let view be ! Construct(%Uint8Array%, « firstDescriptor's buffer,
        //      firstDescriptor's byte offset + firstDescriptor's bytes filled,
        //      firstDescriptor's byte length − firstDescriptor's bytes filled »).
        let (offset, length) = {
            let d = first.borrow();
            (
                d.byte_offset + d.bytes_filled,
                d.byte_length.saturating_sub(d.bytes_filled),
            )
        };
        // NOTE: the first point where script can reach the buffer: a block (fast paths)
        // becomes the object the transfer that made it would have created.
        let buffer = pull_into_buffer_object(&first, ctx)?;
        let view = ViewConstructor::Typed(TypedArrayKind::Uint8)
            .construct_own(&buffer, offset, length, ctx)?;
        //   3. Let byobRequest be a new ReadableStreamBYOBRequest.
        //   4. Set byobRequest.[[controller]] to controller.
        //   5. Set byobRequest.[[view]] to view.
        let request = new_byob_request(controller, view, ctx)?;
        //   6. Set controller.[[byobRequest]] to byobRequest.
        data(controller, |c| *c.byob_request.borrow_mut() = Some(request));
    }
    // 2. Return controller.[[byobRequest]].
    Ok(data(controller, |c| c.byob_request.borrow().clone()))
}

/// [ReadableByteStreamControllerGetDesiredSize](https://streams.spec.whatwg.org/#readable-byte-stream-controller-get-desired-size)
pub fn readable_byte_stream_controller_get_desired_size(
    controller: &JsObject<ReadableByteStreamController>,
) -> Option<f64> {
    // 1. Let state be controller.[[stream]].[[state]].
    match stream_state(controller) {
        // 2. If state is "errored", return null.
        StreamState::Errored => None,
        // 3. If state is "closed", return 0.
        StreamState::Closed => Some(0.0),
        // 4. Return controller.[[strategyHWM]] − controller.[[queueTotalSize]].
        StreamState::Readable => Some(data(controller, |c| {
            c.strategy_hwm.get() - c.queue_total_size.get() as f64
        })),
    }
}

/// [ReadableByteStreamControllerHandleQueueDrain](https://streams.spec.whatwg.org/#readable-byte-stream-controller-handle-queue-drain)
fn readable_byte_stream_controller_handle_queue_drain(
    controller: &JsObject<ReadableByteStreamController>,
    ctx: &mut Context,
) {
    // 1. Assert: controller.[[stream]].[[state]] is "readable".
    debug_assert_eq!(stream_state(controller), StreamState::Readable);
    // 2. If controller.[[queueTotalSize]] is 0 and controller.[[closeRequested]] is true,
    let close = data(controller, |c| {
        c.queue_total_size.get() == 0 && c.close_requested.get()
    });
    if close {
        //   1. Perform ! ReadableByteStreamControllerClearAlgorithms(controller).
        readable_byte_stream_controller_clear_algorithms(controller);
        //   2. Perform ! ReadableStreamClose(controller.[[stream]]).
        let stream = data(controller, ReadableByteStreamController::stream);
        readable_stream_close(&stream, ctx);
    } else {
        // 3. Otherwise,
        //   1. Perform ! ReadableByteStreamControllerCallPullIfNeeded(controller).
        readable_byte_stream_controller_call_pull_if_needed(controller, ctx);
    }
}

/// [ReadableByteStreamControllerInvalidateBYOBRequest](https://streams.spec.whatwg.org/#readable-byte-stream-controller-invalidate-byob-request)
pub(crate) fn readable_byte_stream_controller_invalidate_byob_request(
    controller: &JsObject<ReadableByteStreamController>,
) {
    // 1. If controller.[[byobRequest]] is null, return.
    let Some(request) = data(controller, |c| c.byob_request.borrow_mut().take()) else {
        return;
    };
    // 2. Set controller.[[byobRequest]].[[controller]] to undefined.
    // 3. Set controller.[[byobRequest]].[[view]] to null.
    request.borrow().data().invalidate();
    // 4. Set controller.[[byobRequest]] to null. (Taken above.)
}

/// [ReadableByteStreamControllerProcessPullIntoDescriptorsUsingQueue](https://streams.spec.whatwg.org/#readable-byte-stream-controller-process-pull-into-descriptors-using-queue)
fn readable_byte_stream_controller_process_pull_into_descriptors_using_queue(
    controller: &JsObject<ReadableByteStreamController>,
    ctx: &mut Context,
) -> Vec<PullInto> {
    // 1. Assert: controller.[[closeRequested]] is false.
    debug_assert!(!data(controller, |c| c.close_requested.get()));
    // 2. Let filledPullIntos be a new empty list.
    let mut filled = Vec::new();
    // 3. While controller.[[pendingPullIntos]] is not empty,
    //   1. If controller.[[queueTotalSize]] is 0, then break.
    //   2. Let pullIntoDescriptor be controller.[[pendingPullIntos]][0].
    while let Some(pull_into) = data(
        controller,
        ReadableByteStreamController::first_pending_pull_into,
    ) {
        if data(controller, ReadableByteStreamController::queue_total_size) == 0 {
            break;
        }
        //   3. If ! ReadableByteStreamControllerFillPullIntoDescriptorFromQueue(controller,
        //      pullIntoDescriptor) is true,
        if readable_byte_stream_controller_fill_pull_into_descriptor_from_queue(
            controller, &pull_into, ctx,
        ) {
            //   1. Perform ! ReadableByteStreamControllerShiftPendingPullInto(controller).
            readable_byte_stream_controller_shift_pending_pull_into(controller);
            //   2. Append pullIntoDescriptor to filledPullIntos.
            filled.push(pull_into);
        } else if stream_state(controller) != StreamState::Readable {
            // The copy check failed and errored the stream.
            break;
        }
    }
    // 4. Return filledPullIntos.
    filled
}

/// [ReadableByteStreamControllerProcessReadRequestsUsingQueue](https://streams.spec.whatwg.org/#abstract-opdef-readablebytestreamcontrollerprocessreadrequestsusingqueue)
fn readable_byte_stream_controller_process_read_requests_using_queue(
    controller: &JsObject<ReadableByteStreamController>,
    ctx: &mut Context,
) {
    // 1. Let reader be controller.[[stream]].[[reader]].
    // 2. Assert: reader implements ReadableStreamDefaultReader.
    let stream = data(controller, ReadableByteStreamController::stream);
    // 3. While reader.[[readRequests]] is not empty,
    loop {
        let Some(StreamReader::Default(reader)) = with_stream(&stream, ReadableStream::reader)
        else {
            return;
        };
        if reader.borrow().data().num_read_requests() == 0 {
            return;
        }
        //   1. If controller.[[queueTotalSize]] is 0, return.
        if data(controller, ReadableByteStreamController::queue_total_size) == 0 {
            return;
        }
        //   2. Let readRequest be reader.[[readRequests]][0].
        //   3. Remove readRequest from reader.[[readRequests]].
        let Some(read_request) = reader.borrow().data().shift_read_request() else {
            return;
        };
        //   4. Perform ! ReadableByteStreamControllerFillReadRequestFromQueue(controller,
        //      readRequest).
        readable_byte_stream_controller_fill_read_request_from_queue(controller, read_request, ctx);
    }
}

/// [ReadableByteStreamControllerPullInto](https://streams.spec.whatwg.org/#readable-byte-stream-controller-pull-into)
/// step 16's substeps (controller.[[queueTotalSize]] > 0): `None` when they settled
/// `read_into_request` and returned, else the request back for steps 17-19.
fn pull_into_from_queue(
    controller: &JsObject<ReadableByteStreamController>,
    stream: &JsObject<ReadableStream>,
    pull_into: &PullInto,
    read_into_request: ReadIntoRequest,
    ctx: &mut Context,
) -> Option<ReadIntoRequest> {
    //   1. If ! ReadableByteStreamControllerFillPullIntoDescriptorFromQueue(controller,
    //      pullIntoDescriptor) is true,
    if readable_byte_stream_controller_fill_pull_into_descriptor_from_queue(
        controller, pull_into, ctx,
    ) {
        //   1. Let filledView be ! ReadableByteStreamControllerConvertPullIntoDescriptor(
        //      pullIntoDescriptor).
        let filled_view =
            readable_byte_stream_controller_convert_pull_into_descriptor(pull_into, ctx);
        //   2. Perform ! ReadableByteStreamControllerHandleQueueDrain(controller).
        readable_byte_stream_controller_handle_queue_drain(controller, ctx);
        //   3. Perform readIntoRequest's chunk steps, given filledView.
        match filled_view {
            Ok(v) => read_into_request.chunk_steps(v.into(), ctx),
            Err(e) => {
                let e = webidl::own_error_value(e, ctx);
                read_into_request.error_steps(e, ctx);
            }
        }
        //   4. Return.
        return None;
    }
    if with_stream(stream, ReadableStream::state) == StreamState::Errored {
        // The copy check failed and errored the stream.
        let e = with_stream(stream, ReadableStream::stored_error);
        read_into_request.error_steps(e, ctx);
        return None;
    }
    //   2. If controller.[[closeRequested]] is true,
    if data(controller, |c| c.close_requested.get()) {
        //   1. Let e be a TypeError exception.
        let e = boa_webidl::type_error_value("The stream closed with a partial element", ctx);
        //   2. Perform ! ReadableByteStreamControllerError(controller, e).
        readable_byte_stream_controller_error(controller, e.clone(), ctx);
        //   3. Perform readIntoRequest's error steps, given e.
        read_into_request.error_steps(e, ctx);
        //   4. Return.
        return None;
    }
    Some(read_into_request)
}

/// [ReadableByteStreamControllerPullInto](https://streams.spec.whatwg.org/#readable-byte-stream-controller-pull-into)
pub(crate) fn readable_byte_stream_controller_pull_into(
    controller: &JsObject<ReadableByteStreamController>,
    view: &ViewRecord,
    min: u64,
    read_into_request: ReadIntoRequest,
    ctx: &mut Context,
) {
    // 1. Let stream be controller.[[stream]].
    let stream = data(controller, ReadableByteStreamController::stream);
    // 2. Let elementSize be 1.
    // 3. Let ctor be %DataView%.
    // 4. If view has a [[TypedArrayName]] internal slot (i.e., it is not a DataView),
    //   1. Set elementSize to the element size specified in the typed array constructors
    //      table for view.[[TypedArrayName]].
    //   2. Set ctor to the constructor specified in the typed array constructors table for
    //      view.[[TypedArrayName]].
    let ctor = view.constructor;
    let element_size = ctor.element_size();
    // 5. Let minimumFill be min × elementSize.
    let minimum_fill = min.saturating_mul(element_size);
    // 6. Assert: minimumFill ≥ 0 and minimumFill ≤ view.[[ByteLength]].
    // 7. Assert: the remainder after dividing minimumFill by elementSize is 0.
    // 8. Let byteOffset be view.[[ByteOffset]].
    // 9. Let byteLength be view.[[ByteLength]].
    let (byte_offset, byte_length) = (view.byte_offset, view.byte_length);
    // 10. Let bufferResult be TransferArrayBuffer(view.[[ViewedArrayBuffer]]).
    // 11. If bufferResult is an abrupt completion,
    //   1. Perform readIntoRequest's error steps, given bufferResult.[[Value]].
    //   2. Return.
    // 12. Let buffer be bufferResult.[[Value]].
    // NOTE: with the fast paths on the new object is made only when script could see it
    // (PullIntoBuffer).
    let buffer = match PullIntoBuffer::transferred_from(&view.buffer, ctx) {
        Ok(b) => b,
        Err(e) => {
            let e = webidl::own_error_value(e, ctx);
            read_into_request.error_steps(e, ctx);
            return;
        }
    };
    // 13. Let pullIntoDescriptor be a new pull-into descriptor with buffer buffer, buffer
    //     byte length buffer.[[ArrayBufferByteLength]], byte offset byteOffset, byte length
    //     byteLength, bytes filled 0, minimum fill minimumFill, element size elementSize,
    //     view constructor ctor, and reader type "byob".
    let buffer_byte_length = buffer.byte_length();
    let pull_into: PullInto = Gc::new(GcRefCell::new(PullIntoDescriptor {
        buffer,
        buffer_byte_length,
        byte_offset,
        byte_length,
        bytes_filled: 0,
        minimum_fill,
        element_size,
        view_constructor: ctor,
        reader_type: ReaderType::Byob,
    }));
    // 14. If controller.[[pendingPullIntos]] is not empty,
    if data(
        controller,
        ReadableByteStreamController::has_pending_pull_intos,
    ) {
        //   1. Append pullIntoDescriptor to controller.[[pendingPullIntos]].
        data(controller, |c| {
            c.pending_pull_intos.borrow_mut().push_back(pull_into)
        });
        //   2. Perform ! ReadableStreamAddReadIntoRequest(stream, readIntoRequest).
        readable_stream_add_read_into_request(&stream, read_into_request);
        //   3. Return.
        return;
    }
    // 15. If stream.[[state]] is "closed",
    if with_stream(&stream, ReadableStream::state) == StreamState::Closed {
        //   1. Let emptyView be ! Construct(ctor, « pullIntoDescriptor's buffer,
        //      pullIntoDescriptor's byte offset, 0 »).
        let empty = pull_into_buffer_object(&pull_into, ctx)
            .and_then(|buffer| ctor.construct_own(&buffer, byte_offset, 0, ctx));
        match empty {
            //   2. Perform readIntoRequest's close steps, given emptyView.
            Ok(empty) => read_into_request.close_steps(empty.into(), ctx),
            Err(e) => {
                let e = webidl::own_error_value(e, ctx);
                read_into_request.error_steps(e, ctx);
            }
        }
        //   3. Return.
        return;
    }
    // 16. If controller.[[queueTotalSize]] > 0, (its substeps)
    let read_into_request = if data(controller, ReadableByteStreamController::queue_total_size) > 0
    {
        match pull_into_from_queue(controller, &stream, &pull_into, read_into_request, ctx) {
            Some(request) => request,
            None => return,
        }
    } else {
        read_into_request
    };
    // 17. Append pullIntoDescriptor to controller.[[pendingPullIntos]].
    data(controller, |c| {
        c.pending_pull_intos.borrow_mut().push_back(pull_into)
    });
    // 18. Perform ! ReadableStreamAddReadIntoRequest(stream, readIntoRequest).
    readable_stream_add_read_into_request(&stream, read_into_request);
    // 19. Perform ! ReadableByteStreamControllerCallPullIfNeeded(controller).
    readable_byte_stream_controller_call_pull_if_needed(controller, ctx);
}

/// [ReadableByteStreamControllerRespond](https://streams.spec.whatwg.org/#readable-byte-stream-controller-respond)
pub fn readable_byte_stream_controller_respond(
    controller: &JsObject<ReadableByteStreamController>,
    bytes_written: u64,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. Assert: controller.[[pendingPullIntos]] is not empty.
    // 2. Let firstDescriptor be controller.[[pendingPullIntos]][0].
    let Some(first) = data(
        controller,
        ReadableByteStreamController::first_pending_pull_into,
    ) else {
        return Err(type_error("There is no pending BYOB request"));
    };
    // 3. Let state be controller.[[stream]].[[state]].
    let state = stream_state(controller);
    if state == StreamState::Closed {
        // 4. If state is "closed",
        //   1. If bytesWritten is not 0, throw a TypeError exception.
        if bytes_written != 0 {
            return Err(type_error(
                "bytesWritten must be 0 when the stream is closed",
            ));
        }
    } else {
        // 5. Otherwise,
        //   1. Assert: state is "readable".
        //   2. If bytesWritten is 0, throw a TypeError exception.
        if bytes_written == 0 {
            return Err(type_error("bytesWritten must be greater than 0"));
        }
        //   3. If firstDescriptor's bytes filled + bytesWritten > firstDescriptor's byte
        //      length, throw a RangeError exception.
        let d = first.borrow();
        if d.bytes_filled.saturating_add(bytes_written) > d.byte_length {
            return Err(range_error("bytesWritten is out of range"));
        }
    }
    // 6. Set firstDescriptor's buffer to ! TransferArrayBuffer(firstDescriptor's buffer).
    transfer_pull_into_buffer(&first, ctx)?;
    // 7. Perform ? ReadableByteStreamControllerRespondInternal(controller, bytesWritten).
    readable_byte_stream_controller_respond_internal(controller, bytes_written, ctx)
}

/// [ReadableByteStreamControllerRespondInClosedState](https://streams.spec.whatwg.org/#readable-byte-stream-controller-respond-in-closed-state)
fn readable_byte_stream_controller_respond_in_closed_state(
    controller: &JsObject<ReadableByteStreamController>,
    first_descriptor: &PullInto,
    ctx: &mut Context,
) {
    // 1. Assert: the remainder after dividing firstDescriptor's bytes filled by
    //    firstDescriptor's element size is 0.
    // 2. If firstDescriptor's reader type is "none", perform !
    //    ReadableByteStreamControllerShiftPendingPullInto(controller).
    if first_descriptor.borrow().reader_type == ReaderType::None {
        readable_byte_stream_controller_shift_pending_pull_into(controller);
    }
    // 3. Let stream be controller.[[stream]].
    let stream = data(controller, ReadableByteStreamController::stream);
    // 4. If ! ReadableStreamHasBYOBReader(stream) is true,
    if readable_stream_has_byob_reader(&stream) {
        //   1. Let filledPullIntos be a new empty list.
        let mut filled = Vec::new();
        //   2. While filledPullIntos's size < ! ReadableStreamGetNumReadIntoRequests(stream),
        while filled.len() < readable_stream_get_num_read_into_requests(&stream) {
            //   1. Let pullIntoDescriptor be ! ReadableByteStreamControllerShiftPendingPullInto(
            //      controller).
            //   2. Append pullIntoDescriptor to filledPullIntos.
            match readable_byte_stream_controller_shift_pending_pull_into(controller) {
                Some(p) => filled.push(p),
                None => break,
            }
        }
        //   3. For each filledPullInto of filledPullIntos,
        //     1. Perform ! ReadableByteStreamControllerCommitPullIntoDescriptor(stream,
        //        filledPullInto).
        for pull_into in filled {
            readable_byte_stream_controller_commit_pull_into_descriptor(&stream, &pull_into, ctx);
        }
    }
}

/// [ReadableByteStreamControllerRespondInReadableState](https://streams.spec.whatwg.org/#readable-byte-stream-controller-respond-in-readable-state)
fn readable_byte_stream_controller_respond_in_readable_state(
    controller: &JsObject<ReadableByteStreamController>,
    bytes_written: u64,
    pull_into: &PullInto,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. Assert: bytes filled + bytesWritten ≤ byte length.
    // 2. Perform ! ReadableByteStreamControllerFillHeadPullIntoDescriptor(controller,
    //    bytesWritten, pullIntoDescriptor).
    readable_byte_stream_controller_fill_head_pull_into_descriptor(
        controller,
        bytes_written,
        pull_into,
    );
    let stream = data(controller, ReadableByteStreamController::stream);
    // 3. If pullIntoDescriptor's reader type is "none",
    if pull_into.borrow().reader_type == ReaderType::None {
        //   1. Perform ? ReadableByteStreamControllerEnqueueDetachedPullIntoToQueue(
        //      controller, pullIntoDescriptor).
        readable_byte_stream_controller_enqueue_detached_pull_into_to_queue(
            controller, pull_into, ctx,
        )?;
        //   2. Let filledPullIntos be the result of performing !
        //      ReadableByteStreamControllerProcessPullIntoDescriptorsUsingQueue(controller).
        let filled = readable_byte_stream_controller_process_pull_into_descriptors_using_queue(
            controller, ctx,
        );
        //   3. For each filledPullInto of filledPullIntos,
        //     1. Perform ! ReadableByteStreamControllerCommitPullIntoDescriptor(
        //        controller.[[stream]], filledPullInto).
        for p in filled {
            readable_byte_stream_controller_commit_pull_into_descriptor(&stream, &p, ctx);
        }
        //   4. Return.
        return Ok(());
    }
    // 4. If pullIntoDescriptor's bytes filled < pullIntoDescriptor's minimum fill, return.
    let (bytes_filled, minimum_fill, element_size, byte_offset) = {
        let d = pull_into.borrow();
        (
            d.bytes_filled,
            d.minimum_fill,
            d.element_size,
            d.byte_offset,
        )
    };
    if bytes_filled < minimum_fill {
        return Ok(());
    }
    // 5. Perform ! ReadableByteStreamControllerShiftPendingPullInto(controller).
    readable_byte_stream_controller_shift_pending_pull_into(controller);
    // 6. Let remainderSize be the remainder after dividing pullIntoDescriptor's bytes filled
    //    by pullIntoDescriptor's element size.
    let remainder_size = bytes_filled % element_size;
    // 7. If remainderSize > 0,
    if remainder_size > 0 {
        //   1. Let end be pullIntoDescriptor's byte offset + pullIntoDescriptor's bytes
        //      filled.
        let end = byte_offset + bytes_filled;
        //   2. Perform ? ReadableByteStreamControllerEnqueueClonedChunkToQueue(controller,
        //      pullIntoDescriptor's buffer, end − remainderSize, remainderSize).
        readable_byte_stream_controller_enqueue_cloned_chunk_to_queue(
            controller,
            pull_into,
            end.saturating_sub(remainder_size),
            remainder_size,
            ctx,
        )?;
    }
    // 8. Set pullIntoDescriptor's bytes filled to bytes filled − remainderSize.
    pull_into.borrow_mut().bytes_filled = bytes_filled.saturating_sub(remainder_size);
    // 9. Let filledPullIntos be the result of performing !
    //    ReadableByteStreamControllerProcessPullIntoDescriptorsUsingQueue(controller).
    let filled =
        readable_byte_stream_controller_process_pull_into_descriptors_using_queue(controller, ctx);
    // 10. Perform ! ReadableByteStreamControllerCommitPullIntoDescriptor(
    //     controller.[[stream]], pullIntoDescriptor).
    readable_byte_stream_controller_commit_pull_into_descriptor(&stream, pull_into, ctx);
    // 11. For each filledPullInto of filledPullIntos,
    //   1. Perform ! ReadableByteStreamControllerCommitPullIntoDescriptor(
    //      controller.[[stream]], filledPullInto).
    for p in filled {
        readable_byte_stream_controller_commit_pull_into_descriptor(&stream, &p, ctx);
    }
    Ok(())
}

/// [ReadableByteStreamControllerRespondInternal](https://streams.spec.whatwg.org/#readable-byte-stream-controller-respond-internal)
fn readable_byte_stream_controller_respond_internal(
    controller: &JsObject<ReadableByteStreamController>,
    bytes_written: u64,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. Let firstDescriptor be controller.[[pendingPullIntos]][0].
    let Some(first) = data(
        controller,
        ReadableByteStreamController::first_pending_pull_into,
    ) else {
        return Ok(());
    };
    // 2. Assert: ! CanTransferArrayBuffer(firstDescriptor's buffer) is true.
    // (It holds: both callers have just transferred that buffer.)
    // 3. Perform ! ReadableByteStreamControllerInvalidateBYOBRequest(controller).
    readable_byte_stream_controller_invalidate_byob_request(controller);
    // 4. Let state be controller.[[stream]].[[state]].
    if stream_state(controller) == StreamState::Closed {
        // 5. If state is "closed",
        //   1. Assert: bytesWritten is 0.
        debug_assert_eq!(bytes_written, 0);
        //   2. Perform ! ReadableByteStreamControllerRespondInClosedState(controller,
        //      firstDescriptor).
        readable_byte_stream_controller_respond_in_closed_state(controller, &first, ctx);
    } else {
        // 6. Otherwise,
        //   1. Assert: state is "readable".
        //   2. Assert: bytesWritten > 0.
        debug_assert!(bytes_written > 0);
        //   3. Perform ? ReadableByteStreamControllerRespondInReadableState(controller,
        //      bytesWritten, firstDescriptor).
        readable_byte_stream_controller_respond_in_readable_state(
            controller,
            bytes_written,
            &first,
            ctx,
        )?;
    }
    // 7. Perform ! ReadableByteStreamControllerCallPullIfNeeded(controller).
    readable_byte_stream_controller_call_pull_if_needed(controller, ctx);
    Ok(())
}

/// [ReadableByteStreamControllerRespondWithNewView](https://streams.spec.whatwg.org/#readable-byte-stream-controller-respond-with-new-view)
pub fn readable_byte_stream_controller_respond_with_new_view(
    controller: &JsObject<ReadableByteStreamController>,
    view: &ViewRecord,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. Assert: controller.[[pendingPullIntos]] is not empty.
    // 2. Assert: ! IsDetachedBuffer(view.[[ViewedArrayBuffer]]) is false.
    // 3. Let firstDescriptor be controller.[[pendingPullIntos]][0].
    let Some(first) = data(
        controller,
        ReadableByteStreamController::first_pending_pull_into,
    ) else {
        return Err(type_error("There is no pending BYOB request"));
    };
    // 4. Let state be controller.[[stream]].[[state]].
    if stream_state(controller) == StreamState::Closed {
        // 5. If state is "closed",
        //   1. If view.[[ByteLength]] is not 0, throw a TypeError exception.
        if view.byte_length != 0 {
            return Err(type_error(
                "The view's byteLength must be 0 when the stream is closed",
            ));
        }
    } else if view.byte_length == 0 {
        // 6. Otherwise,
        //   1. Assert: state is "readable".
        //   2. If view.[[ByteLength]] is 0, throw a TypeError exception.
        return Err(type_error("The view's byteLength must be greater than 0"));
    }
    {
        let d = first.borrow();
        // 7. If firstDescriptor's byte offset + firstDescriptor' bytes filled is not
        //    view.[[ByteOffset]], throw a RangeError exception.
        if d.byte_offset + d.bytes_filled != view.byte_offset {
            return Err(range_error(
                "The view's byteOffset does not match the BYOB request's",
            ));
        }
        // 8. If firstDescriptor's buffer byte length is not
        //    view.[[ViewedArrayBuffer]].[[ByteLength]], throw a RangeError exception.
        if d.buffer_byte_length != array_buffer_byte_length(&view.buffer) {
            return Err(range_error(
                "The view's buffer has a different length than the BYOB request's",
            ));
        }
        // 9. If firstDescriptor's bytes filled + view.[[ByteLength]] > firstDescriptor's byte
        //    length, throw a RangeError exception.
        if d.bytes_filled + view.byte_length > d.byte_length {
            return Err(range_error("The view is larger than the BYOB request's"));
        }
    }
    // 10. Let viewByteLength be view.[[ByteLength]].
    let view_byte_length = view.byte_length;
    // 11. Set firstDescriptor's buffer to ? TransferArrayBuffer(view.[[ViewedArrayBuffer]]).
    let transferred = PullIntoBuffer::transferred_from(&view.buffer, ctx)?;
    first.borrow_mut().buffer = transferred;
    // 12. Perform ? ReadableByteStreamControllerRespondInternal(controller, viewByteLength).
    readable_byte_stream_controller_respond_internal(controller, view_byte_length, ctx)
}

/// [ReadableByteStreamControllerShiftPendingPullInto](https://streams.spec.whatwg.org/#readable-byte-stream-controller-shift-pending-pull-into)
fn readable_byte_stream_controller_shift_pending_pull_into(
    controller: &JsObject<ReadableByteStreamController>,
) -> Option<PullInto> {
    data(controller, |c| {
        // 1. Assert: controller.[[byobRequest]] is null.
        debug_assert!(c.byob_request.borrow().is_none());
        // 2. Let descriptor be controller.[[pendingPullIntos]][0].
        // 3. Remove descriptor from controller.[[pendingPullIntos]].
        // 4. Return descriptor.
        c.pending_pull_intos.borrow_mut().pop_front()
    })
}

/// [ReadableByteStreamControllerShouldCallPull](https://streams.spec.whatwg.org/#readable-byte-stream-controller-should-call-pull)
fn readable_byte_stream_controller_should_call_pull(
    controller: &JsObject<ReadableByteStreamController>,
) -> bool {
    // 1. Let stream be controller.[[stream]].
    let stream = data(controller, ReadableByteStreamController::stream);
    // 2. If stream.[[state]] is not "readable", return false.
    if with_stream(&stream, ReadableStream::state) != StreamState::Readable {
        return false;
    }
    // 3. If controller.[[closeRequested]] is true, return false.
    // 4. If controller.[[started]] is false, return false.
    if data(controller, |c| c.close_requested.get() || !c.started.get()) {
        return false;
    }
    // 5. If ! ReadableStreamHasDefaultReader(stream) is true and !
    //    ReadableStreamGetNumReadRequests(stream) > 0, return true.
    if readable_stream_has_default_reader(&stream)
        && readable_stream_get_num_read_requests(&stream) > 0
    {
        return true;
    }
    // 6. If ! ReadableStreamHasBYOBReader(stream) is true and !
    //    ReadableStreamGetNumReadIntoRequests(stream) > 0, return true.
    if readable_stream_has_byob_reader(&stream)
        && readable_stream_get_num_read_into_requests(&stream) > 0
    {
        return true;
    }
    // 7. Let desiredSize be ! ReadableByteStreamControllerGetDesiredSize(controller).
    let desired_size = readable_byte_stream_controller_get_desired_size(controller);
    // 8. Assert: desiredSize is not null.
    debug_assert!(desired_size.is_some());
    // 9. If desiredSize > 0, return true.
    // 10. Return false.
    desired_size.is_some_and(|d| d > 0.0)
}

/// A `ReadableStreamBYOBRequest`'s internal slots.
#[derive(Trace, Finalize, JsData)]
pub struct ReadableStreamBYOBRequest {
    controller: GcRefCell<Option<JsObject<ReadableByteStreamController>>>,
    /// A `Uint8Array`, or null once invalidated.
    view: GcRefCell<Option<JsObject>>,
}

impl std::fmt::Debug for ReadableStreamBYOBRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReadableStreamBYOBRequest")
            .finish_non_exhaustive()
    }
}

impl ReadableStreamBYOBRequest {
    /// `[[controller]]`.
    pub fn controller(&self) -> Option<JsObject<ReadableByteStreamController>> {
        self.controller.borrow().clone()
    }

    /// `[[view]]`.
    pub fn view(&self) -> Option<JsObject> {
        self.view.borrow().clone()
    }

    /// ReadableByteStreamControllerInvalidateBYOBRequest's steps on the request: `[[controller]]`
    /// ← undefined, `[[view]]` ← null.
    pub(crate) fn invalidate(&self) {
        *self.controller.borrow_mut() = None;
        *self.view.borrow_mut() = None;
    }
}

/// A new `ReadableStreamBYOBRequest` with `[[controller]]` and `[[view]]` set.
pub(crate) fn new_byob_request(
    controller: &JsObject<ReadableByteStreamController>,
    view: JsObject,
    ctx: &mut Context,
) -> JsResult<JsObject<ReadableStreamBYOBRequest>> {
    let proto = ctx
        .get_global_class::<ReadableStreamBYOBRequest>()
        .ok_or_else(|| type_error("ReadableStreamBYOBRequest is not registered"))?
        .prototype();
    Ok(JsObject::new(
        ctx.root_shape(),
        proto,
        ReadableStreamBYOBRequest {
            controller: GcRefCell::new(Some(controller.clone())),
            view: GcRefCell::new(Some(view)),
        },
    ))
}
