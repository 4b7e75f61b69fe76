//! `ReadableStreamDefaultReader` ([spec](https://streams.spec.whatwg.org/#default-reader-class))
//! and read requests.

use std::collections::VecDeque;

use boa_engine::{
    builtins::object::OrdinaryObject,
    class::{Class, ClassBuilder},
    object::JsObject,
    property::Attribute,
    Context, JsData, JsResult, JsValue, NativeFunction,
};
use boa_gc::{Finalize, Gc, GcRefCell, Trace};

use super::controller::{self, pull_steps};
use super::iterator::IteratorReadRequest;
use super::tee::TeeReadRequest;
use super::{
    is_readable_stream_locked, readable_stream_cancel, rejected, with_stream, Completion,
    ReadableStream, RustPromise, Settlement, StreamController, StreamReader, StreamState,
};
use crate::promise::{mark_as_handled, PromiseCapability};
use crate::webidl::{self, arg, brand, type_error, INTERFACE_ATTRIBUTES};

/// The chunk/close/error steps of a read request implemented in Rust (pipeTo, embedders).
pub trait ReadRequestSteps: Trace {
    /// Chunk steps, given `chunk`.
    fn chunk_steps(self: Box<Self>, chunk: JsValue, ctx: &mut Context);
    /// Close steps.
    fn close_steps(self: Box<Self>, ctx: &mut Context);
    /// Error steps, given `e`.
    fn error_steps(self: Box<Self>, e: JsValue, ctx: &mut Context);
}

/// A [read request](https://streams.spec.whatwg.org/#read-request).
#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
pub enum ReadRequest {
    /// `reader.read()`: the JS promise it returned.
    Default(PromiseCapability),
    /// A default tee's read request.
    Tee(TeeReadRequest),
    /// The async iterator's `next()` read request.
    AsyncIterator(IteratorReadRequest),
    /// pipeTo's read request.
    Pipe(Box<dyn ReadRequestSteps>),
    /// An embedder's read request.
    Native(Box<dyn ReadRequestSteps>),
}

impl ReadRequest {
    /// Perform the chunk steps, given `chunk`.
    pub fn chunk_steps(self, chunk: JsValue, ctx: &mut Context) {
        match self {
            // 1. Resolve promise with «[ "value" → chunk, "done" → false ]».
            Self::Default(p) => {
                let result = read_result(chunk, false, ctx);
                p.resolve(result, ctx);
            }
            Self::Tee(t) => t.chunk_steps(chunk, ctx),
            Self::AsyncIterator(i) => i.chunk_steps(chunk, ctx),
            Self::Pipe(s) | Self::Native(s) => s.chunk_steps(chunk, ctx),
        }
    }

    /// Perform the close steps.
    pub fn close_steps(self, ctx: &mut Context) {
        match self {
            // 1. Resolve promise with «[ "value" → undefined, "done" → true ]».
            Self::Default(p) => {
                let result = read_result(JsValue::undefined(), true, ctx);
                p.resolve(result, ctx);
            }
            Self::Tee(t) => t.close_steps(ctx),
            Self::AsyncIterator(i) => i.close_steps(ctx),
            Self::Pipe(s) | Self::Native(s) => s.close_steps(ctx),
        }
    }

    /// Perform the error steps, given `e`.
    pub fn error_steps(self, e: JsValue, ctx: &mut Context) {
        match self {
            // 1. Reject promise with e.
            Self::Default(p) => p.reject(e, ctx),
            Self::Tee(t) => t.error_steps(e, ctx),
            Self::AsyncIterator(i) => i.error_steps(e, ctx),
            Self::Pipe(s) | Self::Native(s) => s.error_steps(e, ctx),
        }
    }
}

/// A `ReadableStreamReadResult` dictionary converted to JS: an ordinary object whose members
/// are created in lexicographic order (WebIDL dictionary → ECMAScript): `done`, then `value`.
pub(crate) fn read_result(value: JsValue, done: bool, ctx: &mut Context) -> JsValue {
    // A shared shape (the engine caches the "done" → "value" transitions) instead of the unique
    // shape `JsObject::with_object_proto` would give.
    let proto = ctx.intrinsics().constructors().object().prototype();
    let o = JsObject::new(ctx.root_shape(), proto, OrdinaryObject).upcast();
    // CreateDataProperty on a fresh ordinary object cannot fail.
    let _ = o.create_data_property(webidl::key("done"), done, ctx);
    let _ = o.create_data_property(webidl::key("value"), value, ctx);
    o.into()
}

/// A `ReadableStreamDefaultReader`'s internal slots.
#[derive(Trace, Finalize, JsData)]
pub struct ReadableStreamDefaultReader {
    stream: GcRefCell<Option<JsObject<ReadableStream>>>,
    closed_promise: GcRefCell<PromiseCapability>,
    read_requests: GcRefCell<VecDeque<ReadRequest>>,
    /// A Rust-side mirror of `[[closedPromise]]` for pipeTo (created on first use).
    closed_observer: GcRefCell<Option<Gc<RustPromise>>>,
}

impl std::fmt::Debug for ReadableStreamDefaultReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReadableStreamDefaultReader")
            .finish_non_exhaustive()
    }
}

impl ReadableStreamDefaultReader {
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

    /// A Rust-side promise that settles when `[[closedPromise]]` is next settled by
    /// ReadableStreamClose / ReadableStreamError / the reader's release (pipeTo's "is or
    /// becomes closed / errored" without a JS reaction). Check the stream's state first: it
    /// does not reflect a settlement that happened before it was created.
    pub(crate) fn closed_observer(&self) -> Gc<RustPromise> {
        self.closed_observer
            .borrow_mut()
            .get_or_insert_with(RustPromise::new)
            .clone()
    }

    /// Settle the [`Self::closed_observer`], if any (enqueues its reactions; runs no JS).
    pub(crate) fn settle_closed_observer(&self, settlement: Settlement, ctx: &mut Context) {
        let observer = self.closed_observer.borrow_mut().take();
        if let Some(o) = observer {
            o.settle(settlement, ctx);
        }
    }
}

fn reader_data<R>(
    r: &JsObject<ReadableStreamDefaultReader>,
    f: impl FnOnce(&ReadableStreamDefaultReader) -> R,
) -> R {
    f(r.borrow().data())
}

impl Class for ReadableStreamDefaultReader {
    const NAME: &'static str = "ReadableStreamDefaultReader";
    const LENGTH: usize = 1;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        const NAME: &str = "ReadableStreamDefaultReader";
        webidl::attribute(
            class,
            "closed",
            NativeFunction::from_fn_ptr(|this, _, ctx| {
                match brand::<ReadableStreamDefaultReader>(this, NAME) {
                    // 1. Return this.[[closedPromise]].
                    Ok(r) => {
                        Ok(reader_data(&r, ReadableStreamDefaultReader::closed_promise).into())
                    }
                    Err(e) => Ok(rejected(e, ctx)),
                }
            }),
            None,
        );
        webidl::operation(
            class,
            "read",
            0,
            NativeFunction::from_fn_ptr(|this, _, ctx| {
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
            }),
        );
        webidl::operation(
            class,
            "releaseLock",
            0,
            NativeFunction::from_fn_ptr(|this, _, ctx| {
                let r = brand::<ReadableStreamDefaultReader>(this, NAME)?;
                // 1. If this.[[stream]] is undefined, return.
                if reader_data(&r, ReadableStreamDefaultReader::stream).is_none() {
                    return Ok(JsValue::undefined());
                }
                // 2. Perform ! ReadableStreamDefaultReaderRelease(this).
                readable_stream_default_reader_release(&r, ctx);
                Ok(JsValue::undefined())
            }),
        );
        webidl::operation(
            class,
            "cancel",
            0,
            NativeFunction::from_fn_ptr(|this, args, ctx| {
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
                // 2. Return ! ReadableStreamReaderGenericCancel(this, reason).
                let c = readable_stream_reader_generic_cancel(&r, arg(args, 0), ctx);
                Ok(c.into_js_promise(ctx).into())
            }),
        );
        webidl::to_string_tag(class, NAME);
        Ok(())
    }

    fn data_constructor(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<Self> {
        // IDL layer: `ReadableStream stream`.
        let stream = arg(args, 0);
        if !stream.as_object().is_some_and(|o| o.is::<ReadableStream>()) {
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
        // 1. Perform ? SetUpReadableStreamDefaultReader(this, stream).
        set_up_readable_stream_default_reader(instance, &stream, ctx)
    }
}

impl ReadableStreamDefaultReader {
    fn empty(ctx: &mut Context) -> Self {
        Self {
            stream: GcRefCell::new(None),
            // Settled as needed by ReadableStreamReaderGenericInitialize.
            closed_promise: GcRefCell::new(PromiseCapability::new(ctx)),
            read_requests: GcRefCell::new(VecDeque::new()),
            closed_observer: GcRefCell::new(None),
        }
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
    let data = ReadableStreamDefaultReader::empty(ctx);
    let reader = JsObject::new(ctx.root_shape(), proto, data);
    // 2. Perform ? SetUpReadableStreamDefaultReader(reader, stream).
    set_up_readable_stream_default_reader(&reader, stream, ctx)?;
    // 3. Return reader.
    Ok(reader)
}

/// [SetUpReadableStreamDefaultReader](https://streams.spec.whatwg.org/#set-up-readable-stream-default-reader)
fn set_up_readable_stream_default_reader(
    reader: &JsObject<ReadableStreamDefaultReader>,
    stream: &JsObject<ReadableStream>,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. If ! IsReadableStreamLocked(stream) is true, throw a TypeError exception.
    if is_readable_stream_locked(stream) {
        return Err(type_error("ReadableStream is already locked"));
    }
    // 2. Perform ! ReadableStreamReaderGenericInitialize(reader, stream).
    readable_stream_reader_generic_initialize(reader, stream, ctx);
    // 3. Set reader.[[readRequests]] to a new empty list.
    reader_data(reader, |r| r.read_requests.borrow_mut().clear());
    Ok(())
}

/// [ReadableStreamReaderGenericInitialize](https://streams.spec.whatwg.org/#readable-stream-reader-generic-initialize)
fn readable_stream_reader_generic_initialize(
    reader: &JsObject<ReadableStreamDefaultReader>,
    stream: &JsObject<ReadableStream>,
    ctx: &mut Context,
) {
    // 1. Set reader.[[stream]] to stream.
    reader_data(reader, |r| *r.stream.borrow_mut() = Some(stream.clone()));
    // 2. Set stream.[[reader]] to reader.
    with_stream(stream, |s| {
        *s.reader.borrow_mut() = Some(StreamReader::Default(reader.clone()));
    });
    let (state, stored_error) = with_stream(stream, |s| (s.state(), s.stored_error()));
    // NOTE: the reader was created with a new pending promise in [[closedPromise]]; settling
    // it here is indistinguishable from creating a settled one.
    let closed = reader_data(
        reader,
        ReadableStreamDefaultReader::closed_promise_capability,
    );
    match state {
        // 3. If stream.[[state]] is "readable",
        //   1. Set reader.[[closedPromise]] to a new promise.
        StreamState::Readable => {}
        // 4. Otherwise, if stream.[[state]] is "closed",
        //   1. Set reader.[[closedPromise]] to a promise resolved with undefined.
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

/// [ReadableStreamReaderGenericCancel](https://streams.spec.whatwg.org/#readable-stream-reader-generic-cancel)
pub fn readable_stream_reader_generic_cancel(
    reader: &JsObject<ReadableStreamDefaultReader>,
    reason: JsValue,
    ctx: &mut Context,
) -> Completion {
    // 1. Let stream be reader.[[stream]].
    // 2. Assert: stream is not undefined.
    let Some(stream) = reader_data(reader, ReadableStreamDefaultReader::stream) else {
        return Completion::Rejected(crate::webidl::type_error_value(
            "The reader has been released",
            ctx,
        ));
    };
    // 3. Return ! ReadableStreamCancel(stream, reason).
    readable_stream_cancel(&stream, reason, ctx)
}

/// [ReadableStreamReaderGenericRelease](https://streams.spec.whatwg.org/#readable-stream-reader-generic-release)
fn readable_stream_reader_generic_release(
    reader: &JsObject<ReadableStreamDefaultReader>,
    ctx: &mut Context,
) {
    // 1. Let stream be reader.[[stream]].
    // 2. Assert: stream is not undefined.
    // 3. Assert: stream.[[reader]] is reader.
    let Some(stream) = reader_data(reader, ReadableStreamDefaultReader::stream) else {
        return;
    };
    let e = crate::webidl::type_error_value("The reader's lock was released", ctx);
    if with_stream(&stream, ReadableStream::state) == StreamState::Readable {
        // 4. If stream.[[state]] is "readable", reject reader.[[closedPromise]] with a
        //    TypeError exception.
        let closed = reader_data(
            reader,
            ReadableStreamDefaultReader::closed_promise_capability,
        );
        closed.reject(e.clone(), ctx);
    } else {
        // 5. Otherwise, set reader.[[closedPromise]] to a promise rejected with a TypeError
        //    exception.
        let p = PromiseCapability::new(ctx);
        p.reject(e.clone(), ctx);
        reader_data(reader, |r| *r.closed_promise.borrow_mut() = p);
    }
    if let Some(o) = reader_data(reader, |r| r.closed_observer.borrow_mut().take()) {
        o.settle(Err(e), ctx);
    }
    // 7. Perform ! stream.[[controller]].[[ReleaseSteps]]().
    match with_stream(&stream, ReadableStream::controller) {
        Some(StreamController::Default(c)) => controller::release_steps(&c),
        Some(StreamController::Byte(c)) => super::byte_controller::release_steps(&c),
        None => {}
    }
    // 8. Set stream.[[reader]] to undefined.
    with_stream(&stream, |s| *s.reader.borrow_mut() = None);
    // 9. Set reader.[[stream]] to undefined.
    reader_data(reader, |r| *r.stream.borrow_mut() = None);
    // 6. Set reader.[[closedPromise]].[[PromiseIsHandled]] to true.
    // NOTE: done last: mark_as_handled goes through JsPromise::then, which reads
    // `Promise.prototype.constructor` (script can run); the flag itself is not observable
    // before the next microtask checkpoint, but a release half done is (a reader acquired from
    // that getter lost its lock to steps 8-9).
    let closed = reader_data(reader, ReadableStreamDefaultReader::closed_promise);
    mark_as_handled(&closed, ctx);
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
    // 2. Assert: stream is not undefined.
    let Some(stream) = reader_data(reader, ReadableStreamDefaultReader::stream) else {
        let e = crate::webidl::type_error_value("The reader has been released", ctx);
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
            Some(StreamController::Default(c)) => pull_steps(&c, read_request, ctx),
            Some(StreamController::Byte(c)) => {
                super::byte_controller::pull_steps(&c, read_request, ctx);
            }
            None => {}
        },
    }
}

/// [ReadableStreamDefaultReaderRelease](https://streams.spec.whatwg.org/#abstract-opdef-readablestreamdefaultreaderrelease)
pub fn readable_stream_default_reader_release(
    reader: &JsObject<ReadableStreamDefaultReader>,
    ctx: &mut Context,
) {
    // 1. Perform ! ReadableStreamReaderGenericRelease(reader).
    readable_stream_reader_generic_release(reader, ctx);
    // 2. Let e be a new TypeError exception.
    let e = crate::webidl::type_error_value("The reader's lock was released", ctx);
    // 3. Perform ! ReadableStreamDefaultReaderErrorReadRequests(reader, e).
    readable_stream_default_reader_error_read_requests(reader, e, ctx);
}
