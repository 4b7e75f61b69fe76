//! `ReadableStreamBYOBReader` ([spec](https://streams.spec.whatwg.org/#byob-reader-class)),
//! read-into requests and the stream-level operations on them.

use std::collections::VecDeque;

use boa_engine::{
    class::{Class, ClassBuilder},
    object::JsObject,
    property::Attribute,
    Context, JsData, JsResult, JsValue,
};
use boa_gc::{Finalize, GcRefCell, Trace};

use super::buffers::{
    array_buffer_byte_length, is_detached_buffer, to_array_buffer_view, ViewConstructor,
};
use super::byte_controller::{self, readable_byte_stream_controller_pull_into};
use super::generic_reader::{
    self, readable_stream_reader_generic_initialize, readable_stream_reader_generic_release,
    GenericReader, GenericReaderClass,
};
use super::requests::ReadIntoRequest;
use super::{
    is_readable_stream_locked, rejected, with_stream, ReadableStream, StreamReader, StreamState,
};
use boa_webidl::promise::PromiseCapability;
use boa_webidl::{
    self as webidl, arg, brand, range_error, to_enforce_range_u64, type_error, Dictionary, Member,
    INTERFACE_ATTRIBUTES,
};

/// A `ReadableStreamBYOBReader`'s internal slots.
#[derive(Trace, Finalize, JsData)]
pub struct ReadableStreamBYOBReader {
    /// `[[closedPromise]]` and `[[stream]]` (the generic reader mixin).
    generic: GenericReader,
    /// `[[readIntoRequests]]`.
    read_into_requests: GcRefCell<VecDeque<ReadIntoRequest>>,
}

impl std::fmt::Debug for ReadableStreamBYOBReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReadableStreamBYOBReader")
            .finish_non_exhaustive()
    }
}

impl ReadableStreamBYOBReader {
    fn empty() -> Self {
        Self {
            generic: GenericReader::new(),
            read_into_requests: GcRefCell::new(VecDeque::new()),
        }
    }

    /// `[[stream]]`.
    pub fn stream(&self) -> Option<JsObject<ReadableStream>> {
        self.generic.stream()
    }

    pub(crate) fn take_read_into_requests(&self) -> VecDeque<ReadIntoRequest> {
        std::mem::take(&mut *self.read_into_requests.borrow_mut())
    }

    /// Number of pending read-into requests.
    pub fn num_read_into_requests(&self) -> usize {
        self.read_into_requests.borrow().len()
    }

    pub(crate) fn push_read_into_request(&self, r: ReadIntoRequest) {
        self.read_into_requests.borrow_mut().push_back(r);
    }

    pub(crate) fn shift_read_into_request(&self) -> Option<ReadIntoRequest> {
        self.read_into_requests.borrow_mut().pop_front()
    }
}

impl GenericReaderClass for ReadableStreamBYOBReader {
    fn generic(&self) -> &GenericReader {
        &self.generic
    }

    fn into_reader(this: JsObject<Self>) -> StreamReader {
        StreamReader::Byob(this)
    }
}

fn reader_data<R>(
    r: &JsObject<ReadableStreamBYOBReader>,
    f: impl FnOnce(&ReadableStreamBYOBReader) -> R,
) -> R {
    f(r.borrow().data())
}

/// The interface's identifier.
const NAME: &str = "ReadableStreamBYOBReader";

/// [read(view, options)](https://streams.spec.whatwg.org/#byob-reader-read)
fn read(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let r = match brand::<ReadableStreamBYOBReader>(this, NAME) {
        Ok(r) => r,
        Err(e) => return Ok(rejected(e, ctx)),
    };
    // NOTE: without an options object (`undefined` or `null`: the dictionary's default) the
    // conversions run no user code: the view's slots are read off the engine's data and `min`
    // is its default. The steps' callbacks (`pull`) are run and caught inside, so every `Err`
    // is the library's own TypeError or RangeError: no trampoline is needed (fast paths; same
    // results).
    if boa_webidl::fast_paths() && arg(args, 1).is_null_or_undefined() {
        let result = byob_reader_read_method(&r, args, ctx);
        return Ok(webidl::promise::promise_from_own_result(result, ctx));
    }
    // The argument conversions run user code (`min`'s getter, its `valueOf`): the steps run
    // inside webidl::catching, their exception rejects.
    Ok(webidl::promise::promise_method(ctx, |ctx| {
        byob_reader_read_method(&r, args, ctx)
    }))
}

/// [releaseLock()](https://streams.spec.whatwg.org/#byob-reader-release-lock)
fn release_lock(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let r = brand::<ReadableStreamBYOBReader>(this, NAME)?;
    // 1. If this.[[stream]] is undefined, return.
    if reader_data(&r, ReadableStreamBYOBReader::stream).is_none() {
        return Ok(JsValue::undefined());
    }
    // 2. Perform ! ReadableStreamBYOBReaderRelease(this).
    readable_stream_byob_reader_release(&r, ctx);
    Ok(JsValue::undefined())
}

impl Class for ReadableStreamBYOBReader {
    const NAME: &'static str = "ReadableStreamBYOBReader";
    const LENGTH: usize = 1;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(
            class,
            &[
                Member::attribute("closed", generic_reader::closed::<Self>),
                Member::operation("read", 1, read),
                Member::operation("releaseLock", 0, release_lock),
                Member::operation("cancel", 0, generic_reader::cancel::<Self>),
                Member::to_string_tag(NAME),
            ],
        )
    }

    fn data_constructor(_: &JsValue, args: &[JsValue], _: &mut Context) -> JsResult<Self> {
        // IDL layer: `ReadableStream stream`.
        if !arg(args, 0)
            .as_object()
            .is_some_and(|o| o.is::<ReadableStream>())
        {
            return Err(type_error("Argument 1 is not a ReadableStream"));
        }
        Ok(Self::empty())
    }

    fn object_constructor(
        instance: &JsObject<Self>,
        args: &[JsValue],
        _: &mut Context,
    ) -> JsResult<()> {
        let stream = arg(args, 0)
            .as_object()
            .and_then(|o| o.clone().downcast::<ReadableStream>().ok())
            .ok_or_else(|| type_error("Argument 1 is not a ReadableStream"))?;
        // 1. Perform ? SetUpReadableStreamBYOBReader(this, stream).
        set_up_readable_stream_byob_reader(instance, &stream)
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
    let min = match options.get(webidl::js_key!("min"), ctx)? {
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
    let data = ReadableStreamBYOBReader::empty();
    let reader = JsObject::new(ctx.root_shape(), proto, data);
    // 2. Perform ? SetUpReadableStreamBYOBReader(reader, stream).
    set_up_readable_stream_byob_reader(&reader, stream)?;
    // 3. Return reader.
    Ok(reader)
}

/// [SetUpReadableStreamBYOBReader](https://streams.spec.whatwg.org/#set-up-readable-stream-byob-reader)
fn set_up_readable_stream_byob_reader(
    reader: &JsObject<ReadableStreamBYOBReader>,
    stream: &JsObject<ReadableStream>,
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
    readable_stream_reader_generic_initialize(StreamReader::Byob(reader.clone()), stream);
    // 4. Set reader.[[readIntoRequests]] to a new empty list.
    reader_data(reader, |r| r.read_into_requests.borrow_mut().clear());
    Ok(())
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
    let stream = reader_data(reader, ReadableStreamBYOBReader::stream);
    // 2. Assert: stream is not undefined.
    debug_assert!(
        stream.is_some(),
        "ReadableStreamBYOBReaderRead: released reader"
    );
    let Some(stream) = stream else {
        let e = boa_webidl::type_error_value("The reader has been released", ctx);
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
    let controller = byte_controller::byte_controller_of(&stream);
    debug_assert!(
        controller.is_some(),
        "a BYOB reader's stream has a byte controller"
    );
    if let Some(c) = controller {
        readable_byte_stream_controller_pull_into(&c, view, min, read_into_request, ctx);
    }
}

/// [ReadableStreamBYOBReaderRelease](https://streams.spec.whatwg.org/#abstract-opdef-readablestreambyobreaderrelease)
pub fn readable_stream_byob_reader_release(
    reader: &JsObject<ReadableStreamBYOBReader>,
    ctx: &mut Context,
) {
    // 1. Perform ! ReadableStreamReaderGenericRelease(reader).
    readable_stream_reader_generic_release(&StreamReader::Byob(reader.clone()), ctx);
    // 2. Let e be a new TypeError exception.
    let e = boa_webidl::type_error_value("The reader's lock was released", ctx);
    // 3. Perform ! ReadableStreamBYOBReaderErrorReadIntoRequests(reader, e).
    readable_stream_byob_reader_error_read_into_requests(reader, e, ctx);
}
