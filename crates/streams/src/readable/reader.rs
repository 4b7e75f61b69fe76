//! `ReadableStreamDefaultReader` ([spec](https://streams.spec.whatwg.org/#default-reader-class))
//! and read requests.

use std::collections::VecDeque;

use boa_engine::{
    class::{Class, ClassBuilder},
    object::JsObject,
    property::Attribute,
    Context, JsData, JsResult, JsValue,
};
use boa_gc::{Finalize, GcRefCell, Trace};

use super::generic_reader::{
    self, readable_stream_reader_generic_initialize, readable_stream_reader_generic_release,
    GenericReader, GenericReaderClass,
};
use super::requests::ReadRequest;
use super::{
    is_readable_stream_locked, rejected, with_stream, ReadableStream, StreamReader, StreamState,
};
use boa_webidl::promise::PromiseCapability;
use boa_webidl::{self as webidl, arg, brand, type_error, Member, INTERFACE_ATTRIBUTES};

/// A `ReadableStreamDefaultReader`'s internal slots.
#[derive(Trace, Finalize, JsData)]
pub struct ReadableStreamDefaultReader {
    /// `[[closedPromise]]` and `[[stream]]` (the generic reader mixin).
    generic: GenericReader,
    /// `[[readRequests]]`.
    read_requests: GcRefCell<VecDeque<ReadRequest>>,
}

impl std::fmt::Debug for ReadableStreamDefaultReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReadableStreamDefaultReader")
            .finish_non_exhaustive()
    }
}

impl ReadableStreamDefaultReader {
    fn empty() -> Self {
        Self {
            generic: GenericReader::new(),
            read_requests: GcRefCell::new(VecDeque::new()),
        }
    }

    /// `[[stream]]`.
    pub fn stream(&self) -> Option<JsObject<ReadableStream>> {
        self.generic.stream()
    }

    pub(crate) fn take_read_requests(&self) -> VecDeque<ReadRequest> {
        std::mem::take(&mut *self.read_requests.borrow_mut())
    }

    pub(crate) fn push_read_request(&self, r: ReadRequest) {
        self.read_requests.borrow_mut().push_back(r);
    }

    pub(crate) fn shift_read_request(&self) -> Option<ReadRequest> {
        self.read_requests.borrow_mut().pop_front()
    }

    /// Number of pending read requests.
    pub fn num_read_requests(&self) -> usize {
        self.read_requests.borrow().len()
    }
}

impl GenericReaderClass for ReadableStreamDefaultReader {
    fn generic(&self) -> &GenericReader {
        &self.generic
    }

    fn into_reader(this: JsObject<Self>) -> StreamReader {
        StreamReader::Default(this)
    }
}

fn reader_data<R>(
    r: &JsObject<ReadableStreamDefaultReader>,
    f: impl FnOnce(&ReadableStreamDefaultReader) -> R,
) -> R {
    f(r.borrow().data())
}

/// The interface's identifier.
const NAME: &str = "ReadableStreamDefaultReader";

/// [read()](https://streams.spec.whatwg.org/#default-reader-read)
fn read(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let r = match brand::<ReadableStreamDefaultReader>(this, NAME) {
        Ok(r) => r,
        Err(e) => return Ok(rejected(e, ctx)),
    };
    // 1. If this.[[stream]] is undefined, return a promise rejected with a TypeError
    //    exception.
    if reader_data(&r, ReadableStreamDefaultReader::stream).is_none() {
        let e = type_error("The reader has been released");
        return Ok(rejected(e, ctx));
    }
    // 2. Let promise be a new promise.
    let promise = PromiseCapability::new(ctx);
    let value = promise.value();
    // 3. Let readRequest be a new read request with the chunk/close/error steps of
    //    ReadRequest::Default.
    // 4. Perform ! ReadableStreamDefaultReaderRead(this, readRequest).
    readable_stream_default_reader_read(&r, ReadRequest::Default(promise), ctx);
    // 5. Return promise.
    Ok(value)
}

/// [releaseLock()](https://streams.spec.whatwg.org/#default-reader-release-lock)
fn release_lock(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let r = brand::<ReadableStreamDefaultReader>(this, NAME)?;
    // 1. If this.[[stream]] is undefined, return.
    if reader_data(&r, ReadableStreamDefaultReader::stream).is_none() {
        return Ok(JsValue::undefined());
    }
    // 2. Perform ! ReadableStreamDefaultReaderRelease(this).
    readable_stream_default_reader_release(&r, ctx);
    Ok(JsValue::undefined())
}

impl Class for ReadableStreamDefaultReader {
    const NAME: &'static str = "ReadableStreamDefaultReader";
    const LENGTH: usize = 1;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(
            class,
            &[
                Member::attribute("closed", generic_reader::closed::<Self>),
                Member::operation("read", 0, read),
                Member::operation("releaseLock", 0, release_lock),
                Member::operation("cancel", 0, generic_reader::cancel::<Self>),
                Member::to_string_tag(NAME),
            ],
        )
    }

    fn data_constructor(_: &JsValue, args: &[JsValue], _: &mut Context) -> JsResult<Self> {
        // IDL layer: `ReadableStream stream`.
        let stream = arg(args, 0);
        if !stream.as_object().is_some_and(|o| o.is::<ReadableStream>()) {
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
        // 1. Perform ? SetUpReadableStreamDefaultReader(this, stream).
        set_up_readable_stream_default_reader(instance, &stream)
    }
}

/// [AcquireReadableStreamDefaultReader](https://streams.spec.whatwg.org/#acquire-readable-stream-reader)
pub fn acquire_readable_stream_default_reader(
    stream: &JsObject<ReadableStream>,
    ctx: &mut Context,
) -> JsResult<JsObject<ReadableStreamDefaultReader>> {
    // 1. Let reader be a new ReadableStreamDefaultReader.
    let proto = ctx
        .get_global_class::<ReadableStreamDefaultReader>()
        .ok_or_else(|| type_error("ReadableStreamDefaultReader is not registered"))?
        .prototype();
    let data = ReadableStreamDefaultReader::empty();
    let reader = JsObject::new(ctx.root_shape(), proto, data);
    // 2. Perform ? SetUpReadableStreamDefaultReader(reader, stream).
    set_up_readable_stream_default_reader(&reader, stream)?;
    // 3. Return reader.
    Ok(reader)
}

/// [SetUpReadableStreamDefaultReader](https://streams.spec.whatwg.org/#set-up-readable-stream-default-reader)
fn set_up_readable_stream_default_reader(
    reader: &JsObject<ReadableStreamDefaultReader>,
    stream: &JsObject<ReadableStream>,
) -> JsResult<()> {
    // 1. If ! IsReadableStreamLocked(stream) is true, throw a TypeError exception.
    if is_readable_stream_locked(stream) {
        return Err(type_error("ReadableStream is already locked"));
    }
    // 2. Perform ! ReadableStreamReaderGenericInitialize(reader, stream).
    readable_stream_reader_generic_initialize(StreamReader::Default(reader.clone()), stream);
    // 3. Set reader.[[readRequests]] to a new empty list.
    reader_data(reader, |r| r.read_requests.borrow_mut().clear());
    Ok(())
}

/// [ReadableStreamDefaultReaderErrorReadRequests](https://streams.spec.whatwg.org/#abstract-opdef-readablestreamdefaultreadererrorreadrequests)
pub(crate) fn readable_stream_default_reader_error_read_requests(
    reader: &JsObject<ReadableStreamDefaultReader>,
    e: JsValue,
    ctx: &mut Context,
) {
    // 1. Let readRequests be reader.[[readRequests]].
    // 2. Set reader.[[readRequests]] to a new empty list.
    let requests = reader_data(reader, ReadableStreamDefaultReader::take_read_requests);
    // 3. For each readRequest of readRequests,
    //   1. Perform readRequest's error steps, given e.
    for request in requests {
        request.error_steps(e.clone(), ctx);
    }
}

/// [ReadableStreamDefaultReaderRead](https://streams.spec.whatwg.org/#readable-stream-default-reader-read)
pub fn readable_stream_default_reader_read(
    reader: &JsObject<ReadableStreamDefaultReader>,
    read_request: ReadRequest,
    ctx: &mut Context,
) {
    // 1. Let stream be reader.[[stream]].
    let stream = reader_data(reader, ReadableStreamDefaultReader::stream);
    // 2. Assert: stream is not undefined.
    debug_assert!(
        stream.is_some(),
        "ReadableStreamDefaultReaderRead: released reader"
    );
    let Some(stream) = stream else {
        let e = boa_webidl::type_error_value("The reader has been released", ctx);
        read_request.error_steps(e, ctx);
        return;
    };
    // 3. Set stream.[[disturbed]] to true.
    let (state, controller) = with_stream(&stream, |s| {
        s.disturbed.set(true);
        (s.state(), s.controller())
    });
    match state {
        // 4. If stream.[[state]] is "closed", perform readRequest's close steps.
        StreamState::Closed => read_request.close_steps(ctx),
        // 5. Otherwise, if stream.[[state]] is "errored", perform readRequest's error steps
        //    given stream.[[storedError]].
        StreamState::Errored => {
            let e = with_stream(&stream, ReadableStream::stored_error);
            read_request.error_steps(e, ctx);
        }
        // 6. Otherwise,
        //   1. Assert: stream.[[state]] is "readable".
        //   2. Perform ! stream.[[controller]].[[PullSteps]](readRequest).
        StreamState::Readable => match controller {
            Some(c) => c.pull_steps(read_request, ctx),
            None => debug_assert!(false, "a readable stream has a controller"),
        },
    }
}

/// [ReadableStreamDefaultReaderRelease](https://streams.spec.whatwg.org/#abstract-opdef-readablestreamdefaultreaderrelease)
pub fn readable_stream_default_reader_release(
    reader: &JsObject<ReadableStreamDefaultReader>,
    ctx: &mut Context,
) {
    // 1. Perform ! ReadableStreamReaderGenericRelease(reader).
    readable_stream_reader_generic_release(&StreamReader::Default(reader.clone()), ctx);
    // 2. Let e be a new TypeError exception.
    let e = boa_webidl::type_error_value("The reader's lock was released", ctx);
    // 3. Perform ! ReadableStreamDefaultReaderErrorReadRequests(reader, e).
    readable_stream_default_reader_error_read_requests(reader, e, ctx);
}
