//! `ReadableStreamBYOBReader` ([spec](https://streams.spec.whatwg.org/#byob-reader-class)),
//! read-into requests and the stream-level operations on them.

use std::collections::VecDeque;

use boa_engine::{
    class::{Class, ClassBuilder},
    object::JsObject,
    property::Attribute,
    Context, JsData, JsResult, JsValue, NativeFunction,
};
use boa_gc::{Finalize, GcRefCell, Trace};

use super::buffers::{
    array_buffer_byte_length, is_detached_buffer, to_array_buffer_view, ViewConstructor,
};
use super::byte_controller::{self, readable_byte_stream_controller_pull_into};
use super::reader::read_result;
use super::{
    controller, is_readable_stream_locked, readable_stream_cancel, rejected, with_stream,
    Completion, ReadableStream, StreamController, StreamReader, StreamState,
};
use crate::promise::{mark_as_handled, PromiseCapability};
use crate::webidl::{
    self, arg, brand, range_error, to_enforce_range_u64, type_error, Dictionary,
    INTERFACE_ATTRIBUTES,
};

/// The chunk/close/error steps of a read-into request implemented in Rust (the byte tee,
/// embedders).
pub trait ReadIntoRequestSteps: Trace {
    /// Chunk steps, given `chunk`.
    fn chunk_steps(self: Box<Self>, chunk: JsValue, ctx: &mut Context);
    /// Close steps, given `chunk` (a view or undefined).
    fn close_steps(self: Box<Self>, chunk: JsValue, ctx: &mut Context);
    /// Error steps, given `e`.
    fn error_steps(self: Box<Self>, e: JsValue, ctx: &mut Context);
}

/// A [read-into request](https://streams.spec.whatwg.org/#read-into-request).
#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
pub enum ReadIntoRequest {
    /// `reader.read(view)`: the JS promise it returned.
    Default(PromiseCapability),
    /// A read-into request whose steps run in Rust.
    Native(Box<dyn ReadIntoRequestSteps>),
}

impl ReadIntoRequest {
    /// Perform the chunk steps, given `chunk`.
    pub fn chunk_steps(self, chunk: JsValue, ctx: &mut Context) {
        match self {
            // 1. Resolve promise with «[ "value" → chunk, "done" → false ]».
            Self::Default(p) => {
                let result = read_result(chunk, false, ctx);
                p.resolve(result, ctx);
            }
            Self::Native(s) => s.chunk_steps(chunk, ctx),
        }
    }

    /// Perform the close steps, given `chunk`.
    pub fn close_steps(self, chunk: JsValue, ctx: &mut Context) {
        match self {
            // 1. Resolve promise with «[ "value" → chunk, "done" → true ]».
            Self::Default(p) => {
                let result = read_result(chunk, true, ctx);
                p.resolve(result, ctx);
            }
            Self::Native(s) => s.close_steps(chunk, ctx),
        }
    }

    /// Perform the error steps, given `e`.
    pub fn error_steps(self, e: JsValue, ctx: &mut Context) {
        match self {
            // 1. Reject promise with e.
            Self::Default(p) => p.reject(e, ctx),
            Self::Native(s) => s.error_steps(e, ctx),
        }
    }
}

/// A `ReadableStreamBYOBReader`'s internal slots.
#[derive(Trace, Finalize, JsData)]
pub struct ReadableStreamBYOBReader {
    stream: GcRefCell<Option<JsObject<ReadableStream>>>,
    closed_promise: GcRefCell<PromiseCapability>,
    read_into_requests: GcRefCell<VecDeque<ReadIntoRequest>>,
}

impl std::fmt::Debug for ReadableStreamBYOBReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReadableStreamBYOBReader")
            .finish_non_exhaustive()
    }
}

impl ReadableStreamBYOBReader {
    fn empty(ctx: &mut Context) -> Self {
        Self {
            stream: GcRefCell::new(None),
            // Settled as needed by ReadableStreamReaderGenericInitialize.
            closed_promise: GcRefCell::new(PromiseCapability::new(ctx)),
            read_into_requests: GcRefCell::new(VecDeque::new()),
        }
    }

    /// `[[stream]]`.
    pub fn stream(&self) -> Option<JsObject<ReadableStream>> {
        self.stream.borrow().clone()
    }

    /// `[[closedPromise]]`.
    pub fn closed_promise(&self) -> JsObject {
        self.closed_promise.borrow().promise.clone()
    }

    pub(crate) fn closed_promise_capability(&self) -> PromiseCapability {
        self.closed_promise.borrow().clone()
    }

    pub(crate) fn take_read_into_requests(&self) -> VecDeque<ReadIntoRequest> {
        std::mem::take(&mut *self.read_into_requests.borrow_mut())
    }

    /// Number of pending read-into requests.
    pub fn num_read_into_requests(&self) -> usize {
        self.read_into_requests.borrow().len()
    }
}

fn reader_data<R>(
    r: &JsObject<ReadableStreamBYOBReader>,
    f: impl FnOnce(&ReadableStreamBYOBReader) -> R,
) -> R {
    f(r.borrow().data())
}

fn byob_reader_of(stream: &JsObject<ReadableStream>) -> Option<JsObject<ReadableStreamBYOBReader>> {
    match with_stream(stream, ReadableStream::reader) {
        Some(StreamReader::Byob(r)) => Some(r),
        _ => None,
    }
}

impl Class for ReadableStreamBYOBReader {
    const NAME: &'static str = "ReadableStreamBYOBReader";
    const LENGTH: usize = 1;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        const NAME: &str = "ReadableStreamBYOBReader";
        webidl::attribute(
            class,
            "closed",
            NativeFunction::from_fn_ptr(|this, _, ctx| {
                match brand::<ReadableStreamBYOBReader>(this, NAME) {
                    // 1. Return this.[[closedPromise]].
                    Ok(r) => Ok(reader_data(&r, ReadableStreamBYOBReader::closed_promise).into()),
                    Err(e) => Ok(rejected(e, ctx)),
                }
            }),
            None,
        );
        webidl::operation(
            class,
            "read",
            1,
            NativeFunction::from_fn_ptr(|this, args, ctx| {
                let r = match brand::<ReadableStreamBYOBReader>(this, NAME) {
                    Ok(r) => r,
                    Err(e) => return Ok(rejected(e, ctx)),
                };
                // The argument conversions run user code (`min`'s getter, its `valueOf`):
                // the steps run inside webidl::catching, their exception rejects.
                Ok(webidl::promise_method(ctx, |ctx| {
                    byob_reader_read_method(&r, args, ctx)
                }))
            }),
        );
        webidl::operation(
            class,
            "releaseLock",
            0,
            NativeFunction::from_fn_ptr(|this, _, ctx| {
                let r = brand::<ReadableStreamBYOBReader>(this, NAME)?;
                // 1. If this.[[stream]] is undefined, return.
                if reader_data(&r, ReadableStreamBYOBReader::stream).is_none() {
                    return Ok(JsValue::undefined());
                }
                // 2. Perform ! ReadableStreamBYOBReaderRelease(this).
                readable_stream_byob_reader_release(&r, ctx);
                Ok(JsValue::undefined())
            }),
        );
        webidl::operation(
            class,
            "cancel",
            0,
            NativeFunction::from_fn_ptr(|this, args, ctx| {
                let r = match brand::<ReadableStreamBYOBReader>(this, NAME) {
                    Ok(r) => r,
                    Err(e) => return Ok(rejected(e, ctx)),
                };
                // 1. If this.[[stream]] is undefined, return a promise rejected with a TypeError
                //    exception.
                if reader_data(&r, ReadableStreamBYOBReader::stream).is_none() {
                    return Ok(rejected(type_error("The reader has been released"), ctx));
                }
                // 2. Return ! ReadableStreamReaderGenericCancel(this, reason).
                let c = readable_stream_byob_reader_generic_cancel(&r, arg(args, 0), ctx);
                Ok(c.into_js_promise(ctx).into())
            }),
        );
        webidl::to_string_tag(class, NAME);
        Ok(())
    }

    fn data_constructor(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<Self> {
        // IDL layer: `ReadableStream stream`.
        if !arg(args, 0)
            .as_object()
            .is_some_and(|o| o.is::<ReadableStream>())
        {
            return Err(type_error("Argument 1 is not a ReadableStream"));
        }
        Ok(Self::empty(ctx))
    }

    fn object_constructor(
        instance: &JsObject<Self>,
        args: &[JsValue],
        ctx: &mut Context,
    ) -> JsResult<()> {
        let stream = arg(args, 0)
            .as_object()
            .and_then(|o| o.clone().downcast::<ReadableStream>().ok())
            .ok_or_else(|| type_error("Argument 1 is not a ReadableStream"))?;
        // 1. Perform ? SetUpReadableStreamBYOBReader(this, stream).
        set_up_readable_stream_byob_reader(instance, &stream, ctx)
    }
}

/// The [read(view, options)](https://streams.spec.whatwg.org/#byob-reader-read) method steps
/// (an `Err` becomes the returned rejected promise).
fn byob_reader_read_method(
    reader: &JsObject<ReadableStreamBYOBReader>,
    args: &[JsValue],
    ctx: &mut Context,
) -> JsResult<JsValue> {
    // IDL layer: `ArrayBufferView view`, `optional ReadableStreamBYOBReaderReadOptions options
    // = {}` with `[EnforceRange] unsigned long long min = 1`.
    let view = to_array_buffer_view(&arg(args, 0), "view", ctx)?;
    let options = Dictionary::new(&arg(args, 1), "ReadableStreamBYOBReaderReadOptions")?;
    let min = match options.get("min", ctx)? {
        None => 1,
        Some(v) => to_enforce_range_u64(&v, "min", ctx)?,
    };
    // 1. If view.[[ByteLength]] is 0, return a promise rejected with a TypeError exception.
    if view.byte_length == 0 {
        return Err(type_error("view must have a non-zero byteLength"));
    }
    // 2. If view.[[ViewedArrayBuffer]].[[ByteLength]] is 0, return a promise rejected with a
    //    TypeError exception.
    if array_buffer_byte_length(&view.buffer) == 0 {
        return Err(type_error("view's buffer must have a non-zero byteLength"));
    }
    // 3. If ! IsDetachedBuffer(view.[[ViewedArrayBuffer]]) is true, return a promise rejected
    //    with a TypeError exception.
    if is_detached_buffer(&view.buffer) {
        return Err(type_error("view's buffer is detached"));
    }
    // 4. If options["min"] is 0, return a promise rejected with a TypeError exception.
    if min == 0 {
        return Err(type_error("min must be greater than 0"));
    }
    match view.constructor {
        // 5. If view has a [[TypedArrayName]] internal slot,
        //   1. If options["min"] > view.[[ArrayLength]], return a promise rejected with a
        //      RangeError exception.
        ViewConstructor::Typed(_) => {
            if min > view.array_length {
                return Err(range_error("min is larger than the view's length"));
            }
        }
        // 6. Otherwise (i.e., it is a DataView),
        //   1. If options["min"] > view.[[ByteLength]], return a promise rejected with a
        //      RangeError exception.
        ViewConstructor::DataView => {
            if min > view.byte_length {
                return Err(range_error("min is larger than the view's byteLength"));
            }
        }
    }
    // 7. If this.[[stream]] is undefined, return a promise rejected with a TypeError exception.
    if reader_data(reader, ReadableStreamBYOBReader::stream).is_none() {
        return Err(type_error("The reader has been released"));
    }
    // 8. Let promise be a new promise.
    let promise = PromiseCapability::new(ctx);
    let value = promise.value();
    // 9. Let readIntoRequest be a new read-into request (ReadIntoRequest::Default).
    // 10. Perform ! ReadableStreamBYOBReaderRead(this, view, options["min"], readIntoRequest).
    readable_stream_byob_reader_read(reader, &view, min, ReadIntoRequest::Default(promise), ctx);
    // 11. Return promise.
    Ok(value)
}

/// [AcquireReadableStreamBYOBReader](https://streams.spec.whatwg.org/#acquire-readable-stream-byob-reader)
pub fn acquire_readable_stream_byob_reader(
    stream: &JsObject<ReadableStream>,
    ctx: &mut Context,
) -> JsResult<JsObject<ReadableStreamBYOBReader>> {
    // 1. Let reader be a new ReadableStreamBYOBReader.
    let proto = ctx
        .get_global_class::<ReadableStreamBYOBReader>()
        .ok_or_else(|| type_error("ReadableStreamBYOBReader is not registered"))?
        .prototype();
    let data = ReadableStreamBYOBReader::empty(ctx);
    let reader = JsObject::new(ctx.root_shape(), proto, data);
    // 2. Perform ? SetUpReadableStreamBYOBReader(reader, stream).
    set_up_readable_stream_byob_reader(&reader, stream, ctx)?;
    // 3. Return reader.
    Ok(reader)
}

/// [SetUpReadableStreamBYOBReader](https://streams.spec.whatwg.org/#set-up-readable-stream-byob-reader)
fn set_up_readable_stream_byob_reader(
    reader: &JsObject<ReadableStreamBYOBReader>,
    stream: &JsObject<ReadableStream>,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. If ! IsReadableStreamLocked(stream) is true, throw a TypeError exception.
    if is_readable_stream_locked(stream) {
        return Err(type_error("ReadableStream is already locked"));
    }
    // 2. If stream.[[controller]] does not implement ReadableByteStreamController, throw a
    //    TypeError exception.
    if byte_controller::byte_controller_of(stream).is_none() {
        return Err(type_error(
            "Cannot get a BYOB reader for a stream that is not a byte stream",
        ));
    }
    // 3. Perform ! ReadableStreamReaderGenericInitialize(reader, stream).
    readable_stream_reader_generic_initialize(reader, stream, ctx);
    // 4. Set reader.[[readIntoRequests]] to a new empty list.
    reader_data(reader, |r| r.read_into_requests.borrow_mut().clear());
    Ok(())
}

/// [ReadableStreamReaderGenericInitialize](https://streams.spec.whatwg.org/#readable-stream-reader-generic-initialize)
/// for a BYOB reader.
fn readable_stream_reader_generic_initialize(
    reader: &JsObject<ReadableStreamBYOBReader>,
    stream: &JsObject<ReadableStream>,
    ctx: &mut Context,
) {
    // 1. Set reader.[[stream]] to stream.
    reader_data(reader, |r| *r.stream.borrow_mut() = Some(stream.clone()));
    // 2. Set stream.[[reader]] to reader.
    with_stream(stream, |s| {
        *s.reader.borrow_mut() = Some(StreamReader::Byob(reader.clone()));
    });
    let (state, stored_error) = with_stream(stream, |s| (s.state(), s.stored_error()));
    // NOTE: the reader was created with a new pending promise in [[closedPromise]]; settling
    // it here is indistinguishable from creating a settled one.
    let closed = reader_data(reader, ReadableStreamBYOBReader::closed_promise_capability);
    match state {
        // 3. If stream.[[state]] is "readable", set reader.[[closedPromise]] to a new promise.
        StreamState::Readable => {}
        // 4. Otherwise, if stream.[[state]] is "closed", set reader.[[closedPromise]] to a
        //    promise resolved with undefined.
        StreamState::Closed => closed.resolve(JsValue::undefined(), ctx),
        // 5. Otherwise,
        //   1. Assert: stream.[[state]] is "errored".
        //   2. Set reader.[[closedPromise]] to a promise rejected with stream.[[storedError]].
        //   3. Set reader.[[closedPromise]].[[PromiseIsHandled]] to true.
        StreamState::Errored => {
            closed.reject(stored_error, ctx);
            mark_as_handled(&closed.promise, ctx);
        }
    }
}

/// [ReadableStreamReaderGenericRelease](https://streams.spec.whatwg.org/#readable-stream-reader-generic-release)
/// for a BYOB reader.
fn readable_stream_reader_generic_release(
    reader: &JsObject<ReadableStreamBYOBReader>,
    ctx: &mut Context,
) {
    // 1. Let stream be reader.[[stream]].
    // 2. Assert: stream is not undefined.
    // 3. Assert: stream.[[reader]] is reader.
    let Some(stream) = reader_data(reader, ReadableStreamBYOBReader::stream) else {
        return;
    };
    let e = crate::webidl::type_error_value("The reader's lock was released", ctx);
    if with_stream(&stream, ReadableStream::state) == StreamState::Readable {
        // 4. If stream.[[state]] is "readable", reject reader.[[closedPromise]] with a
        //    TypeError exception.
        let closed = reader_data(reader, ReadableStreamBYOBReader::closed_promise_capability);
        closed.reject(e, ctx);
    } else {
        // 5. Otherwise, set reader.[[closedPromise]] to a promise rejected with a TypeError
        //    exception.
        let p = PromiseCapability::new(ctx);
        p.reject(e, ctx);
        reader_data(reader, |r| *r.closed_promise.borrow_mut() = p);
    }
    // 6. Set reader.[[closedPromise]].[[PromiseIsHandled]] to true. (Done last, below.)
    // 7. Perform ! stream.[[controller]].[[ReleaseSteps]]().
    match with_stream(&stream, ReadableStream::controller) {
        Some(StreamController::Byte(c)) => byte_controller::release_steps(&c),
        Some(StreamController::Default(c)) => controller::release_steps(&c),
        None => {}
    }
    // 8. Set stream.[[reader]] to undefined.
    with_stream(&stream, |s| *s.reader.borrow_mut() = None);
    // 9. Set reader.[[stream]] to undefined.
    reader_data(reader, |r| *r.stream.borrow_mut() = None);
    // NOTE: step 6 runs after steps 7-9: marking a promise handled goes through Boa's
    // `then`, whose species lookup can run script (a patched `Promise.prototype.constructor`);
    // that script must see the lock fully released, not a half-released stream whose
    // [[reader]] the rest of this algorithm would then clear (dropping a lock taken in
    // between). No other script runs before the next microtask checkpoint, so the flag is
    // set before any unhandled-rejection check: the reordering is otherwise unobservable.
    let closed = reader_data(reader, ReadableStreamBYOBReader::closed_promise);
    mark_as_handled(&closed, ctx);
}

/// [ReadableStreamBYOBReaderErrorReadIntoRequests](https://streams.spec.whatwg.org/#abstract-opdef-readablestreambyobreadererrorreadintorequests)
pub(crate) fn readable_stream_byob_reader_error_read_into_requests(
    reader: &JsObject<ReadableStreamBYOBReader>,
    e: JsValue,
    ctx: &mut Context,
) {
    // 1. Let readIntoRequests be reader.[[readIntoRequests]].
    // 2. Set reader.[[readIntoRequests]] to a new empty list.
    let requests = reader_data(reader, ReadableStreamBYOBReader::take_read_into_requests);
    // 3. For each readIntoRequest of readIntoRequests,
    //   1. Perform readIntoRequest's error steps, given e.
    for request in requests {
        request.error_steps(e.clone(), ctx);
    }
}

/// [ReadableStreamBYOBReaderRead](https://streams.spec.whatwg.org/#readable-stream-byob-reader-read)
pub(crate) fn readable_stream_byob_reader_read(
    reader: &JsObject<ReadableStreamBYOBReader>,
    view: &super::buffers::ViewRecord,
    min: u64,
    read_into_request: ReadIntoRequest,
    ctx: &mut Context,
) {
    // 1. Let stream be reader.[[stream]].
    // 2. Assert: stream is not undefined.
    let Some(stream) = reader_data(reader, ReadableStreamBYOBReader::stream) else {
        let e = crate::webidl::type_error_value("The reader has been released", ctx);
        read_into_request.error_steps(e, ctx);
        return;
    };
    // 3. Set stream.[[disturbed]] to true.
    stream.borrow().data().set_disturbed(true);
    // 4. If stream.[[state]] is "errored", perform readIntoRequest's error steps given
    //    stream.[[storedError]].
    if with_stream(&stream, ReadableStream::state) == StreamState::Errored {
        let e = with_stream(&stream, ReadableStream::stored_error);
        read_into_request.error_steps(e, ctx);
        return;
    }
    // 5. Otherwise, perform ! ReadableByteStreamControllerPullInto(stream.[[controller]], view,
    //    min, readIntoRequest).
    if let Some(c) = byte_controller::byte_controller_of(&stream) {
        readable_byte_stream_controller_pull_into(&c, view, min, read_into_request, ctx);
    }
}

/// [ReadableStreamBYOBReaderRelease](https://streams.spec.whatwg.org/#abstract-opdef-readablestreambyobreaderrelease)
pub fn readable_stream_byob_reader_release(
    reader: &JsObject<ReadableStreamBYOBReader>,
    ctx: &mut Context,
) {
    // 1. Perform ! ReadableStreamReaderGenericRelease(reader).
    readable_stream_reader_generic_release(reader, ctx);
    // 2. Let e be a new TypeError exception.
    let e = crate::webidl::type_error_value("The reader's lock was released", ctx);
    // 3. Perform ! ReadableStreamBYOBReaderErrorReadIntoRequests(reader, e).
    readable_stream_byob_reader_error_read_into_requests(reader, e, ctx);
}

/// The BYOB reader's [ReadableStreamReaderGenericCancel](https://streams.spec.whatwg.org/#readable-stream-reader-generic-cancel).
pub fn readable_stream_byob_reader_generic_cancel(
    reader: &JsObject<ReadableStreamBYOBReader>,
    reason: JsValue,
    ctx: &mut Context,
) -> Completion {
    // 1. Let stream be reader.[[stream]].
    // 2. Assert: stream is not undefined.
    let Some(stream) = reader_data(reader, ReadableStreamBYOBReader::stream) else {
        return Completion::Rejected(crate::webidl::type_error_value(
            "The reader has been released",
            ctx,
        ));
    };
    // 3. Return ! ReadableStreamCancel(stream, reason).
    readable_stream_cancel(&stream, reason, ctx)
}

// ---------------------------------------------------------------------------------------
// Stream-level operations on read-into requests
// ---------------------------------------------------------------------------------------

/// [ReadableStreamAddReadIntoRequest](https://streams.spec.whatwg.org/#readable-stream-add-read-into-request)
pub(crate) fn readable_stream_add_read_into_request(
    stream: &JsObject<ReadableStream>,
    read_request: ReadIntoRequest,
) {
    // 1. Assert: stream.[[reader]] implements ReadableStreamBYOBReader.
    // 2. Assert: stream.[[state]] is "readable" or "closed".
    // 3. Append readRequest to stream.[[reader]].[[readIntoRequests]].
    if let Some(reader) = byob_reader_of(stream) {
        reader_data(&reader, |r| {
            r.read_into_requests.borrow_mut().push_back(read_request)
        });
    }
}

/// [ReadableStreamFulfillReadIntoRequest](https://streams.spec.whatwg.org/#readable-stream-fulfill-read-into-request)
pub(crate) fn readable_stream_fulfill_read_into_request(
    stream: &JsObject<ReadableStream>,
    chunk: JsValue,
    done: bool,
    ctx: &mut Context,
) {
    // 1. Assert: ! ReadableStreamHasBYOBReader(stream) is true.
    // 2. Let reader be stream.[[reader]].
    let Some(reader) = byob_reader_of(stream) else {
        return;
    };
    // 3. Assert: reader.[[readIntoRequests]] is not empty.
    // 4. Let readIntoRequest be reader.[[readIntoRequests]][0].
    // 5. Remove readIntoRequest from reader.[[readIntoRequests]].
    let Some(request) = reader_data(&reader, |r| r.read_into_requests.borrow_mut().pop_front())
    else {
        return;
    };
    // 6. If done is true, perform readIntoRequest's close steps, given chunk.
    // 7. Otherwise, perform readIntoRequest's chunk steps, given chunk.
    if done {
        request.close_steps(chunk, ctx);
    } else {
        request.chunk_steps(chunk, ctx);
    }
}

/// [ReadableStreamGetNumReadIntoRequests](https://streams.spec.whatwg.org/#readable-stream-get-num-read-into-requests)
pub(crate) fn readable_stream_get_num_read_into_requests(
    stream: &JsObject<ReadableStream>,
) -> usize {
    // 1. Assert: ! ReadableStreamHasBYOBReader(stream) is true.
    // 2. Return stream.[[reader]].[[readIntoRequests]]'s size.
    byob_reader_of(stream).map_or(0, |r| {
        reader_data(&r, ReadableStreamBYOBReader::num_read_into_requests)
    })
}

/// [ReadableStreamHasBYOBReader](https://streams.spec.whatwg.org/#readable-stream-has-byob-reader)
pub(crate) fn readable_stream_has_byob_reader(stream: &JsObject<ReadableStream>) -> bool {
    // 1. Let reader be stream.[[reader]].
    // 2. If reader is undefined, return false.
    // 3. If reader implements ReadableStreamBYOBReader, return true.
    // 4. Return false.
    byob_reader_of(stream).is_some()
}
