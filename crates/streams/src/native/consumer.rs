//! Rust consumers of any stream (JS-created or native): [`StreamReader`] reads a
//! `ReadableStream` (a future or a callback per read, [`StreamReader::read_all`], a
//! `futures::Stream` view); [`StreamWriter`] writes to a `WritableStream`.
//!
//! The futures here hold no context borrow: they complete when the stream's steps run, which
//! happens while the context runs its jobs. Await them with [`block_on`](super::block_on),
//! or from any executor while something else drives the context (the host crate's event
//! loop, [`run_until_idle`](super::run_until_idle)).

use std::cell::RefCell;
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context as TaskContext, Poll, Waker};

use boa_engine::{Context, JsError, JsObject, JsResult, JsValue};
use boa_gc::{Finalize, Trace};
use bytes::Bytes;

use super::driver::{driver, Driver};
use super::{bytes_to_uint8_array, ReadableStream};
use crate::readable::{
    acquire_readable_stream_default_reader, readable_stream_default_reader_read,
    readable_stream_default_reader_release, readable_stream_reader_generic_cancel, ReadRequest,
    ReadRequestSteps, ReadableStreamDefaultReader, StreamReader as ReaderKind,
};
use crate::writable::{
    acquire_writable_stream_default_writer, writable_stream_default_writer_abort,
    writable_stream_default_writer_close, writable_stream_default_writer_get_desired_size,
    writable_stream_default_writer_release, writable_stream_default_writer_upon_ready,
    writable_stream_default_writer_write, AbortWaiter, WritableStream, WriterRef,
};
use boa_webidl::promise::{enqueue_microtask, Reaction, Settlement};
use boa_webidl::type_error;

// ---------------------------------------------------------------------------------------
// Futures
// ---------------------------------------------------------------------------------------

/// The state of a [`StreamFuture`]: its output once known, and who waits.
struct FutureState<T> {
    output: Option<T>,
    waker: Option<Waker>,
}

/// The future of a stream operation started from Rust (a read, a write, a cancel, ...): it
/// completes when the stream's steps run (while the context runs its jobs), and holds no
/// context borrow. Dropping it does not undo the operation.
///
/// ```
/// use boa_engine::{Context, Source};
/// use boa_streams::native::{StreamFuture, StreamReader, ReadResult};
/// use boa_engine::JsValue;
///
/// let mut context = Context::default();
/// boa_streams::register(&mut context).unwrap();
/// let stream = context
///     .eval(Source::from_bytes("new ReadableStream({ start(c) { c.close(); } })"))
///     .unwrap();
/// let reader = StreamReader::from_value(&stream, &mut context).unwrap();
/// let read: StreamFuture<ReadResult<JsValue>> = reader.read(&mut context);
/// // Already settled (the stream is closed): ready without running any job.
/// let done = futures::executor::block_on(read).unwrap();
/// assert!(done.is_none());
/// ```
pub struct StreamFuture<T> {
    state: Rc<RefCell<FutureState<T>>>,
}

impl<T> std::fmt::Debug for StreamFuture<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StreamFuture")
            .field("ready", &self.state.borrow().output.is_some())
            .finish()
    }
}

impl<T> Future for StreamFuture<T> {
    type Output = T;

    fn poll(self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<T> {
        let mut state = self.state.borrow_mut();
        match state.output.take() {
            Some(output) => Poll::Ready(output),
            None => {
                state.waker = Some(cx.waker().clone());
                Poll::Pending
            }
        }
    }
}

/// A new future and the function that completes it.
fn future_pair<T: 'static>() -> (StreamFuture<T>, impl FnOnce(T)) {
    let state = Rc::new(RefCell::new(FutureState {
        output: None,
        waker: None,
    }));
    let complete = {
        let state = state.clone();
        move |output| {
            let waker = {
                let mut state = state.borrow_mut();
                state.output = Some(output);
                state.waker.take()
            };
            if let Some(waker) = waker {
                waker.wake();
            }
        }
    };
    (StreamFuture { state }, complete)
}

/// The outcome of one read: `Ok(Some(chunk))`, `Ok(None)` when the stream is closed, or the
/// stream's error.
pub type ReadResult<T> = Result<Option<T>, JsError>;

/// Steps run with a settlement (a [`Reaction`]'s captures: Rust data only).
#[derive(Trace, Finalize)]
struct OnSettle(#[unsafe_ignore_trace] RefCell<Option<SettleSteps>>);

/// The Rust steps of an [`OnSettle`].
type SettleSteps = Box<dyn FnOnce(Settlement, &mut Context)>;

/// The Rust steps of a [`CallbackRead`].
type ReadSteps = Box<dyn FnOnce(ReadResult<JsValue>, &mut Context)>;

fn on_settle(f: impl FnOnce(Settlement, &mut Context) + 'static) -> Reaction {
    Reaction::new(
        OnSettle(RefCell::new(Some(Box::new(f)))),
        |c, settlement, ctx| {
            let f = c.0.borrow_mut().take();
            if let Some(f) = f {
                f(settlement, ctx);
            }
        },
    )
}

/// A settlement as a Rust result.
fn unit_result(settlement: Settlement) -> Result<(), JsError> {
    settlement.map(|_| ()).map_err(JsError::from_opaque)
}

/// A read request whose steps call a Rust function with the outcome.
#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
struct CallbackRead(#[unsafe_ignore_trace] Option<ReadSteps>);

impl ReadRequestSteps for CallbackRead {
    fn chunk_steps(self: Box<Self>, chunk: JsValue, ctx: &mut Context) {
        if let Some(f) = self.0 {
            f(Ok(Some(chunk)), ctx);
        }
    }
    fn close_steps(self: Box<Self>, ctx: &mut Context) {
        if let Some(f) = self.0 {
            f(Ok(None), ctx);
        }
    }
    fn error_steps(self: Box<Self>, e: JsValue, ctx: &mut Context) {
        if let Some(f) = self.0 {
            f(Err(JsError::from_opaque(e)), ctx);
        }
    }
}

/// A copy of the bytes of a chunk that is an `ArrayBuffer` or an `ArrayBufferView` (a
/// `TypeError` otherwise).
///
/// ```
/// use boa_engine::{Context, JsValue, Source};
/// use boa_streams::native::chunk_to_bytes;
///
/// let mut context = Context::default();
/// boa_streams::register(&mut context).unwrap();
/// let view = context
///     .eval(Source::from_bytes("new Uint8Array([1, 2, 3, 4]).subarray(1, 3)"))
///     .unwrap();
/// assert_eq!(&chunk_to_bytes(&view, &mut context).unwrap()[..], &[2, 3]);
/// assert!(chunk_to_bytes(&JsValue::from(1), &mut context).is_err());
/// ```
pub fn chunk_to_bytes(chunk: &JsValue, ctx: &mut Context) -> JsResult<Bytes> {
    boa_webidl::buffer_source::copy_bytes_of_allow_shared_buffer_source(chunk, ctx).map(Bytes::from)
}

// ---------------------------------------------------------------------------------------
// StreamReader
// ---------------------------------------------------------------------------------------

/// A Rust reader of any `ReadableStream` (a default reader: it locks the stream until
/// [`release`](Self::release)). Cloning gives another handle to the same reader.
///
/// ```
/// use boa_engine::{Context, Source};
/// use boa_streams::native::{block_on, StreamReader};
///
/// let mut context = Context::default();
/// boa_streams::register(&mut context).unwrap();
/// let stream = context
///     .eval(Source::from_bytes(
///         "new ReadableStream({ start(c) { c.enqueue('a'); c.enqueue('b'); c.close(); } })",
///     ))
///     .unwrap();
/// let reader = StreamReader::from_value(&stream, &mut context).unwrap();
/// let first = reader.read(&mut context);
/// let chunk = block_on(&mut context, first).unwrap().unwrap().unwrap();
/// assert_eq!(chunk.as_string().unwrap().to_std_string_escaped(), "a");
/// ```
#[derive(Clone, Debug)]
pub struct StreamReader {
    reader: JsObject<ReadableStreamDefaultReader>,
}

impl StreamReader {
    /// Acquire a default reader of `stream` (a `TypeError` if it is locked).
    pub fn new(stream: &JsObject<ReadableStream>, ctx: &mut Context) -> JsResult<Self> {
        let reader = acquire_readable_stream_default_reader(stream, ctx)?;
        Ok(Self { reader })
    }

    /// Acquire a default reader of the `ReadableStream` `value` (a `TypeError` if it is not
    /// one, or is locked).
    pub fn from_value(value: &JsValue, ctx: &mut Context) -> JsResult<Self> {
        let stream = value
            .as_object()
            .and_then(|o| o.clone().downcast::<ReadableStream>().ok())
            .ok_or_else(|| type_error("The value is not a ReadableStream"))?;
        Self::new(&stream, ctx)
    }

    /// The reader as a JS object (a `ReadableStreamDefaultReader`).
    pub fn object(&self) -> JsObject {
        self.reader.clone().upcast()
    }

    fn released_error() -> JsError {
        type_error("The reader has been released")
    }

    fn is_released(&self) -> bool {
        self.reader.borrow().data().stream().is_none()
    }

    /// Read one chunk: call `callback` with it (`Ok(None)` once the stream is closed, `Err`
    /// with the stream's error) when the read completes
    /// ([ReadableStreamDefaultReaderRead](https://streams.spec.whatwg.org/#readable-stream-default-reader-read)
    /// with a Rust read request). It may be called before this returns (a queued chunk).
    pub fn read_with(
        &self,
        ctx: &mut Context,
        callback: impl FnOnce(ReadResult<JsValue>, &mut Context) + 'static,
    ) {
        if self.is_released() {
            callback(Err(Self::released_error()), ctx);
            return;
        }
        let request = ReadRequest::Native(Box::new(CallbackRead(Some(Box::new(callback)))));
        readable_stream_default_reader_read(&self.reader, request, ctx);
    }

    /// Read one chunk, as a future.
    pub fn read(&self, ctx: &mut Context) -> StreamFuture<ReadResult<JsValue>> {
        let (future, complete) = future_pair();
        self.read_with(ctx, move |result, _| complete(result));
        future
    }

    /// Read one chunk as bytes: an `ArrayBuffer` or `ArrayBufferView` chunk is copied; any
    /// other chunk gives a `TypeError` (the chunk is consumed, the stream is left as is).
    pub fn read_bytes(&self, ctx: &mut Context) -> StreamFuture<ReadResult<Bytes>> {
        let (future, complete) = future_pair();
        self.read_with(ctx, move |result, ctx| {
            complete(match result {
                Ok(Some(chunk)) => chunk_to_bytes(&chunk, ctx).map(Some),
                Ok(None) => Ok(None),
                Err(e) => Err(e),
            });
        });
        future
    }

    /// Read every chunk until the stream closes and concatenate their bytes. A chunk that is
    /// not an `ArrayBuffer` or `ArrayBufferView` cancels the stream with a `TypeError` and
    /// fails the read with it; a stream error fails it with that error.
    pub fn read_all(&self, ctx: &mut Context) -> StreamFuture<Result<Bytes, JsError>> {
        let (future, complete) = future_pair();
        read_all_step(self.clone(), Vec::new(), Box::new(complete), ctx);
        future
    }

    /// Cancel the stream with `reason`
    /// ([ReadableStreamReaderGenericCancel](https://streams.spec.whatwg.org/#readable-stream-reader-generic-cancel));
    /// the future completes when the source's cancel step has.
    pub fn cancel(&self, reason: JsValue, ctx: &mut Context) -> StreamFuture<Result<(), JsError>> {
        let (future, complete) = future_pair();
        if self.is_released() {
            complete(Err(Self::released_error()));
            return future;
        }
        let completion = readable_stream_reader_generic_cancel(
            &ReaderKind::Default(self.reader.clone()),
            reason,
            ctx,
        );
        completion.react(on_settle(move |s, _| complete(unit_result(s))), ctx);
        future
    }

    /// Release the lock
    /// ([ReadableStreamDefaultReaderRelease](https://streams.spec.whatwg.org/#abstract-opdef-readablestreamdefaultreaderrelease)):
    /// pending reads fail with a `TypeError`; the stream can be read by another reader.
    pub fn release(&self, ctx: &mut Context) {
        if !self.is_released() {
            readable_stream_default_reader_release(&self.reader, ctx);
        }
    }

    /// A `futures::Stream` of the chunks' bytes (see [`ChunkStream`]).
    pub fn into_stream(self, ctx: &mut Context) -> ChunkStream {
        ChunkStream {
            reader: self,
            driver: driver(ctx),
            state: Rc::default(),
        }
    }
}

/// One step of `read_all`: read, append, go on in a new microtask (a long queue of chunks
/// does not deepen the stack).
fn read_all_step(
    reader: StreamReader,
    mut bytes: Vec<u8>,
    complete: Box<dyn FnOnce(Result<Bytes, JsError>)>,
    ctx: &mut Context,
) {
    let next = reader.clone();
    reader.read_with(ctx, move |result, ctx| match result {
        Ok(Some(chunk)) => match chunk_to_bytes(&chunk, ctx) {
            Ok(chunk) => {
                bytes.extend_from_slice(&chunk);
                enqueue_microtask(ctx, move |ctx| read_all_step(next, bytes, complete, ctx));
            }
            Err(e) => {
                let reason = boa_webidl::own_error_value(e.clone(), ctx);
                let _cancelled = next.cancel(reason, ctx);
                complete(Err(e));
            }
        },
        Ok(None) => complete(Ok(Bytes::from(bytes))),
        Err(e) => complete(Err(e)),
    });
}

/// What a [`ChunkStream`] has received and whether a read is outstanding.
#[derive(Default)]
struct ChunkState {
    reading: bool,
    received: VecDeque<ReadResult<Bytes>>,
    done: bool,
    waker: Option<Waker>,
}

/// A `futures::Stream` view of a `ReadableStream`: each item is a chunk's bytes (an
/// `ArrayBuffer` / `ArrayBufferView` chunk, copied; another chunk gives a `TypeError`
/// item), or the stream's error (which ends it). A read is issued only when the stream is
/// polled (through the context's [driver](super::poll_tasks), which runs it with the
/// context); dropping the view releases the reader.
///
/// ```
/// use boa_engine::{Context, Source};
/// use boa_streams::native::{block_on, StreamReader};
/// use futures::StreamExt;
///
/// let mut context = Context::default();
/// boa_streams::register(&mut context).unwrap();
/// let stream = context
///     .eval(Source::from_bytes(
///         "new ReadableStream({ start(c) { c.enqueue(new Uint8Array([111, 110])); \
///          c.enqueue(new Uint8Array([101])); c.close(); } })",
///     ))
///     .unwrap();
/// let reader = StreamReader::from_value(&stream, &mut context).unwrap();
/// let chunks = reader.into_stream(&mut context);
/// let all: Vec<_> = block_on(&mut context, chunks.collect()).unwrap();
/// let bytes: Vec<u8> = all.into_iter().flat_map(|c| c.unwrap().to_vec()).collect();
/// assert_eq!(bytes, b"one");
/// ```
pub struct ChunkStream {
    reader: StreamReader,
    driver: Rc<Driver>,
    state: Rc<RefCell<ChunkState>>,
}

impl std::fmt::Debug for ChunkStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChunkStream").finish_non_exhaustive()
    }
}

impl futures::Stream for ChunkStream {
    type Item = Result<Bytes, JsError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<Option<Self::Item>> {
        let mut state = self.state.borrow_mut();
        if let Some(item) = state.received.pop_front() {
            return Poll::Ready(match item {
                Ok(Some(bytes)) => Some(Ok(bytes)),
                Ok(None) => {
                    state.done = true;
                    None
                }
                Err(e) => {
                    state.done = true;
                    Some(Err(e))
                }
            });
        }
        if state.done {
            return Poll::Ready(None);
        }
        state.waker = Some(cx.waker().clone());
        if !state.reading {
            state.reading = true;
            let reader = self.reader.clone();
            let shared = self.state.clone();
            self.driver.queue_local(move |ctx| {
                reader.read_with(ctx, move |result, ctx| {
                    let item = match result {
                        Ok(Some(chunk)) => chunk_to_bytes(&chunk, ctx).map(Some),
                        other => other.map(|_| None),
                    };
                    let waker = {
                        let mut state = shared.borrow_mut();
                        state.reading = false;
                        state.received.push_back(item);
                        state.waker.take()
                    };
                    if let Some(waker) = waker {
                        waker.wake();
                    }
                });
            });
        }
        Poll::Pending
    }
}

impl Drop for ChunkStream {
    fn drop(&mut self) {
        let reader = self.reader.clone();
        self.driver.queue_local(move |ctx| reader.release(ctx));
    }
}

// ---------------------------------------------------------------------------------------
// StreamWriter
// ---------------------------------------------------------------------------------------

/// A Rust writer of any `WritableStream` (a default writer: it locks the stream until
/// [`release`](Self::release)).
///
/// ```
/// use boa_engine::{js_string, Context, Source};
/// use boa_streams::native::{block_on, StreamWriter};
///
/// let mut context = Context::default();
/// boa_streams::register(&mut context).unwrap();
/// let stream = context
///     .eval(Source::from_bytes(
///         "globalThis.got = [];
///          new WritableStream({ write(chunk) { got.push(chunk); } })",
///     ))
///     .unwrap();
/// let writer = StreamWriter::from_value(&stream, &mut context).unwrap();
/// let written = writer.write(js_string!("hello").into(), &mut context);
/// block_on(&mut context, written).unwrap().unwrap();
/// let closed = writer.close(&mut context);
/// block_on(&mut context, closed).unwrap().unwrap();
/// let got = context.eval(Source::from_bytes("got.join()")).unwrap();
/// assert_eq!(got.as_string().unwrap().to_std_string_escaped(), "hello");
/// ```
#[derive(Clone)]
pub struct StreamWriter {
    writer: WriterRef,
}

impl std::fmt::Debug for StreamWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StreamWriter").finish_non_exhaustive()
    }
}

impl StreamWriter {
    /// Acquire a default writer of the `WritableStream` `value` (a `TypeError` if it is not
    /// one, or is locked).
    pub fn from_value(value: &JsValue, ctx: &mut Context) -> JsResult<Self> {
        let stream = WritableStream::slots_of(value)
            .ok_or_else(|| type_error("The value is not a WritableStream"))?;
        let writer = acquire_writable_stream_default_writer(&stream, ctx)?;
        Ok(Self { writer })
    }

    /// Acquire a default writer of `stream` (see [`from_value`](Self::from_value)).
    pub fn new(stream: &JsObject, ctx: &mut Context) -> JsResult<Self> {
        Self::from_value(&stream.clone().into(), ctx)
    }

    fn released(&self, ctx: &mut Context) -> Option<StreamFuture<Result<(), JsError>>> {
        let _ = ctx;
        if self.writer.stream().is_some() {
            return None;
        }
        let (future, complete) = future_pair();
        complete(Err(type_error("The writer has been released")));
        Some(future)
    }

    /// The desired size (`None` when the stream is errored or erroring, or the writer is
    /// released): write while it is above zero, else wait for [`ready`](Self::ready).
    pub fn desired_size(&self) -> Option<f64> {
        writable_stream_default_writer_get_desired_size(&self.writer)
    }

    /// Completes when the stream has no backpressure (the writer's `ready` promise).
    pub fn ready(&self, ctx: &mut Context) -> StreamFuture<Result<(), JsError>> {
        if let Some(f) = self.released(ctx) {
            return f;
        }
        let (future, complete) = future_pair();
        let reaction = on_settle(move |s, _| complete(unit_result(s)));
        writable_stream_default_writer_upon_ready(&self.writer, reaction, ctx);
        future
    }

    /// Write `chunk`
    /// ([WritableStreamDefaultWriterWrite](https://streams.spec.whatwg.org/#writable-stream-default-writer-write));
    /// the future completes when the sink has taken it.
    pub fn write(&self, chunk: JsValue, ctx: &mut Context) -> StreamFuture<Result<(), JsError>> {
        if let Some(f) = self.released(ctx) {
            return f;
        }
        let (future, complete) = future_pair();
        let reaction = on_settle(move |s, _| complete(unit_result(s)));
        writable_stream_default_writer_write(&self.writer, chunk, reaction, ctx);
        future
    }

    /// Write `bytes` as a new `Uint8Array`.
    pub fn write_bytes(
        &self,
        bytes: &Bytes,
        ctx: &mut Context,
    ) -> StreamFuture<Result<(), JsError>> {
        match bytes_to_uint8_array(bytes, ctx) {
            Ok(view) => self.write(view.into(), ctx),
            Err(e) => {
                let (future, complete) = future_pair();
                complete(Err(e));
                future
            }
        }
    }

    /// Close the stream
    /// ([WritableStreamDefaultWriterClose](https://streams.spec.whatwg.org/#writable-stream-default-writer-close)).
    pub fn close(&self, ctx: &mut Context) -> StreamFuture<Result<(), JsError>> {
        if let Some(f) = self.released(ctx) {
            return f;
        }
        let (future, complete) = future_pair();
        let reaction = on_settle(move |s, _| complete(unit_result(s)));
        writable_stream_default_writer_close(&self.writer, reaction, ctx);
        future
    }

    /// Abort the stream with `reason`
    /// ([WritableStreamDefaultWriterAbort](https://streams.spec.whatwg.org/#writable-stream-default-writer-abort)).
    pub fn abort(&self, reason: JsValue, ctx: &mut Context) -> StreamFuture<Result<(), JsError>> {
        if let Some(f) = self.released(ctx) {
            return f;
        }
        let (future, complete) = future_pair();
        let reaction = on_settle(move |s, _| complete(unit_result(s)));
        let _no_js_promise = writable_stream_default_writer_abort(
            &self.writer,
            reason,
            AbortWaiter::Native(reaction),
            ctx,
        );
        future
    }

    /// Release the lock
    /// ([WritableStreamDefaultWriterRelease](https://streams.spec.whatwg.org/#writable-stream-default-writer-release)).
    pub fn release(&self, ctx: &mut Context) {
        if self.writer.stream().is_some() {
            writable_stream_default_writer_release(&self.writer, ctx);
        }
    }
}

#[cfg(test)]
mod tests;
