//! Async Rust I/O as streams: a `futures::Stream` of `Bytes` or an `AsyncRead` as a byte
//! `ReadableStream`, a `futures::Sink<Bytes>` or an `AsyncWrite` as a `WritableStream`.
//!
//! The Rust future of a step (the next chunk, a read into the BYOB view, a write, a close) is
//! polled by the context's [driver](super::poll_tasks): only while the stream asks for it
//! (a pull runs only while the stream's desired size is above zero or a read is pending; a
//! write runs only when the previous one finished), and it is dropped when the stream is
//! cancelled or aborted. An error of the Rust side (`io::Error`, the sink's or the stream's
//! error) errors the stream with a `TypeError` carrying its message.
//!
//! The readable adapters are [`ByteSource`]s behind [`native_readable_byte_stream`], like an
//! embedder's byte source: a BYOB read is filled in place with [`ByteController::try_fill`].

use std::cell::RefCell;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context as TaskContext, Poll};

use boa_engine::{Context, JsObject, JsResult, JsValue, NativeFunction};
use boa_gc::{Finalize, Gc, Trace};
use bytes::Bytes;
use futures::{io::AsyncWriteExt, AsyncRead, AsyncWrite, Sink, SinkExt, Stream, StreamExt};

use super::byte_source::{
    native_readable_byte_stream, ByteController, ByteSource, ByteStreamOptions,
};
use super::driver::{spawn, Task, TaskHandle};
use super::NativeSink;
use crate::readable::ReadableStream;
use crate::writable::{writable_stream_controller_signal, WritableStreamDefaultController};
use boa_webidl::promise::{Completion, RustPromise};
use boa_webidl::{own_error_value, type_error, type_error_value};

type LocalByteStream = Pin<Box<dyn Stream<Item = Result<Bytes, String>>>>;
type LocalRead = Pin<Box<dyn AsyncRead>>;
type LocalSink = Pin<Box<dyn Sink<Bytes, Error = String>>>;

/// What a byte source reads from.
enum Input {
    Stream(LocalByteStream),
    Read {
        reader: LocalRead,
        chunk_size: usize,
    },
}

/// The state a byte source shares with its pending pull: the input (`None` once it ended,
/// failed or was cancelled).
type SharedInput = Rc<RefCell<Option<Input>>>;

/// A byte `ReadableStream` (`type: "bytes"`, high water mark 0) whose chunks are what
/// `stream` yields, each as a `Uint8Array` (empty chunks are skipped). `stream` is polled only
/// when a reader asks for data; an `Err` errors the stream with a `TypeError` carrying the
/// error's message; cancelling the stream drops `stream` (and a pending poll).
///
/// ```
/// use boa_engine::{Context, Source};
/// use boa_streams::native::{block_on, readable_stream_from_stream, StreamReader};
/// use bytes::Bytes;
///
/// let mut context = Context::default();
/// boa_streams::register(&mut context).unwrap();
/// let chunks = futures::stream::iter(vec![
///     Ok::<_, std::io::Error>(Bytes::from_static(b"async ")),
///     Ok(Bytes::from_static(b"bytes")),
/// ]);
/// let stream = readable_stream_from_stream(chunks, &mut context).unwrap();
/// let reader = StreamReader::new(&stream, &mut context).unwrap();
/// let all = reader.read_all(&mut context);
/// assert_eq!(&block_on(&mut context, all).unwrap().unwrap()[..], b"async bytes");
/// ```
pub fn readable_stream_from_stream<S, E>(
    stream: S,
    ctx: &mut Context,
) -> JsResult<JsObject<ReadableStream>>
where
    S: Stream<Item = Result<Bytes, E>> + 'static,
    E: std::fmt::Display,
{
    readable_stream_from_stream_with_high_water_mark(stream, 0.0, ctx)
}

/// [`readable_stream_from_stream`] with a high water mark in bytes: `stream` is also polled
/// ahead of the reads, while fewer than `high_water_mark` bytes are queued. A negative or NaN
/// high water mark is a RangeError.
///
/// ```
/// use boa_engine::Context;
/// use boa_streams::native::{
///     block_on, readable_stream_from_stream_with_high_water_mark, StreamReader,
/// };
/// use bytes::Bytes;
///
/// let mut context = Context::default();
/// boa_streams::register(&mut context).unwrap();
/// let chunks = futures::stream::iter(vec![Ok::<_, std::io::Error>(Bytes::from_static(b"ahead"))]);
/// let stream =
///     readable_stream_from_stream_with_high_water_mark(chunks, 1024.0, &mut context).unwrap();
/// let reader = StreamReader::new(&stream, &mut context).unwrap();
/// let all = reader.read_all(&mut context);
/// assert_eq!(&block_on(&mut context, all).unwrap().unwrap()[..], b"ahead");
/// ```
pub fn readable_stream_from_stream_with_high_water_mark<S, E>(
    stream: S,
    high_water_mark: f64,
    ctx: &mut Context,
) -> JsResult<JsObject<ReadableStream>>
where
    S: Stream<Item = Result<Bytes, E>> + 'static,
    E: std::fmt::Display,
{
    let stream: LocalByteStream = Box::pin(stream.map(|r| r.map_err(|e| e.to_string())));
    let options = ByteStreamOptions {
        high_water_mark,
        auto_allocate_chunk_size: None,
    };
    byte_source_stream(Input::Stream(stream), options, ctx)
}

/// A byte `ReadableStream` (`type: "bytes"`, high water mark 0) reading from `reader`: each
/// read fills the reader's view in place (a BYOB reader's buffer, or a new `chunk_size`-byte
/// buffer for a default reader: the stream's autoAllocateChunkSize) with one `poll_read`,
/// without a copy. End of input closes the stream; an `io::Error` errors it with a
/// `TypeError` carrying the error's message; cancelling drops `reader`.
///
/// ```
/// use boa_engine::{js_string, Context, Source};
/// use boa_streams::native::{readable_stream_from_async_read, run_until_idle};
///
/// let mut context = Context::default();
/// boa_streams::register(&mut context).unwrap();
/// let input = futures::io::Cursor::new(b"read in place".to_vec());
/// let stream = readable_stream_from_async_read(input, 4, &mut context).unwrap();
/// context
///     .global_object()
///     .set(js_string!("input"), stream.upcast(), false, &mut context)
///     .unwrap();
/// context
///     .eval(Source::from_bytes(
///         "globalThis.out = [];
///          (async () => {
///              const reader = input.getReader({ mode: 'byob' });
///              for (;;) {
///                  const { value, done } = await reader.read(new Uint8Array(8));
///                  if (done) break;
///                  out.push(String.fromCharCode(...value));
///              }
///          })();",
///     ))
///     .unwrap();
/// run_until_idle(&mut context).unwrap();
/// let out = context.eval(Source::from_bytes("out.join('|')")).unwrap();
/// assert_eq!(out.as_string().unwrap().to_std_string_escaped(), "read in |place");
/// ```
pub fn readable_stream_from_async_read<R>(
    reader: R,
    chunk_size: usize,
    ctx: &mut Context,
) -> JsResult<JsObject<ReadableStream>>
where
    R: AsyncRead + 'static,
{
    readable_stream_from_async_read_with_high_water_mark(reader, chunk_size, 0.0, ctx)
}

/// [`readable_stream_from_async_read`] with a high water mark in bytes: `reader` is also read
/// ahead of the reads, `chunk_size` bytes at a time into new buffers (one copy less than a
/// BYOB read later, but no read in place), while fewer than `high_water_mark` bytes are
/// queued. A negative or NaN high water mark is a RangeError.
///
/// ```
/// use boa_engine::Context;
/// use boa_streams::native::{
///     block_on, readable_stream_from_async_read_with_high_water_mark, StreamReader,
/// };
///
/// let mut context = Context::default();
/// boa_streams::register(&mut context).unwrap();
/// let input = futures::io::Cursor::new(b"read ahead".to_vec());
/// let stream =
///     readable_stream_from_async_read_with_high_water_mark(input, 4, 8.0, &mut context)
///         .unwrap();
/// let reader = StreamReader::new(&stream, &mut context).unwrap();
/// let all = reader.read_all(&mut context);
/// assert_eq!(&block_on(&mut context, all).unwrap().unwrap()[..], b"read ahead");
/// ```
pub fn readable_stream_from_async_read_with_high_water_mark<R>(
    reader: R,
    chunk_size: usize,
    high_water_mark: f64,
    ctx: &mut Context,
) -> JsResult<JsObject<ReadableStream>>
where
    R: AsyncRead + 'static,
{
    let chunk_size = chunk_size.max(1);
    let input = Input::Read {
        reader: Box::pin(reader),
        chunk_size,
    };
    let options = ByteStreamOptions {
        high_water_mark,
        auto_allocate_chunk_size: Some(chunk_size as u64),
    };
    byte_source_stream(input, options, ctx)
}

fn byte_source_stream(
    input: Input,
    options: ByteStreamOptions,
    ctx: &mut Context,
) -> JsResult<JsObject<ReadableStream>> {
    let source = AsyncByteSource {
        input: Rc::new(RefCell::new(Some(input))),
        task: RefCell::new(None),
    };
    native_readable_byte_stream(source, options, ctx)
}

/// The [`ByteSource`] of [`readable_stream_from_stream`] and
/// [`readable_stream_from_async_read`].
#[derive(Trace, Finalize)]
struct AsyncByteSource {
    // Rust data only (no JS handles).
    #[unsafe_ignore_trace]
    input: SharedInput,
    /// The pending pull's future, if any.
    #[unsafe_ignore_trace]
    task: RefCell<Option<TaskHandle>>,
}

impl ByteSource for AsyncByteSource {
    fn pull(&self, controller: &ByteController, ctx: &mut Context) -> Completion {
        let promise = RustPromise::new();
        let task = PullTask {
            input: self.input.clone(),
            controller: controller.clone(),
            promise: promise.clone(),
        };
        let handle = spawn(task, ctx);
        *self.task.borrow_mut() = handle;
        Completion::Rust(promise)
    }

    fn cancel(&self, _reason: JsValue, _ctx: &mut Context) -> Completion {
        // Drop the pending poll and the input (in that order: the poll may borrow it).
        let task = self.task.borrow_mut().take();
        if let Some(task) = task {
            task.cancel();
        }
        let input = self.input.borrow_mut().take();
        drop(input);
        Completion::undefined()
    }
}

/// One pull: poll the input until it yields, then fill / enqueue / close / error through the
/// [`ByteController`].
struct PullTask {
    input: SharedInput,
    controller: ByteController,
    promise: Gc<RustPromise>,
}

/// What one poll of the input produced.
enum Pulled {
    /// Owned bytes to enqueue.
    Chunk(Bytes),
    /// The pending read's view was filled in place and responded to.
    Filled,
    End,
    Failed(String),
}

impl Task for PullTask {
    fn poll(&mut self, cx: &mut TaskContext<'_>, ctx: &mut Context) -> Poll<()> {
        let pulled = match self.poll_input(cx, ctx) {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(Ok(p)) => p,
            Poll::Ready(Err(e)) => {
                let e = own_error_value(e, ctx);
                self.promise.settle(Err(e), ctx);
                return Poll::Ready(());
            }
        };
        if matches!(pulled, Pulled::End | Pulled::Failed(_)) {
            let input = self.input.borrow_mut().take();
            drop(input);
        }
        let result = match pulled {
            Pulled::Chunk(chunk) => self.controller.enqueue(&chunk, ctx),
            Pulled::Filled => Ok(()),
            Pulled::End => self.controller.close(ctx),
            Pulled::Failed(message) => {
                let e = type_error_value(message, ctx);
                self.promise.settle(Err(e), ctx);
                return Poll::Ready(());
            }
        };
        let settlement = result
            .map(|()| JsValue::undefined())
            .map_err(|e| own_error_value(e, ctx));
        self.promise.settle(settlement, ctx);
        Poll::Ready(())
    }
}

impl PullTask {
    /// Poll the input once. No borrow of the input is held across a controller call (a
    /// fill's respond can run script, which can cancel the stream).
    fn poll_input(
        &mut self,
        cx: &mut TaskContext<'_>,
        ctx: &mut Context,
    ) -> Poll<JsResult<Pulled>> {
        if !self.controller.is_readable() {
            return Poll::Ready(Ok(Pulled::End));
        }
        let chunk_size = match &*self.input.borrow() {
            None => return Poll::Ready(Ok(Pulled::End)),
            Some(Input::Stream(_)) => None,
            Some(Input::Read { chunk_size, .. }) => Some(*chunk_size),
        };
        let Some(chunk_size) = chunk_size else {
            return self.poll_stream(cx);
        };
        // The view to fill: the pending read's (a BYOB reader's buffer or the auto-allocated
        // one), looked up at every poll (it changes if the reader goes away).
        if self.controller.byob_request().is_some() {
            let input = &self.input;
            let mut outcome = Poll::Pending;
            let filled = self.controller.try_fill(
                |view| {
                    let mut input = input.borrow_mut();
                    let Some(Input::Read { reader, .. }) = input.as_mut() else {
                        outcome = Poll::Ready(Pulled::End);
                        return None;
                    };
                    match reader.as_mut().poll_read(cx, view) {
                        Poll::Pending => None,
                        Poll::Ready(Ok(0)) => {
                            outcome = Poll::Ready(Pulled::End);
                            None
                        }
                        Poll::Ready(Ok(n)) => {
                            outcome = Poll::Ready(Pulled::Filled);
                            Some(n)
                        }
                        Poll::Ready(Err(e)) => {
                            outcome = Poll::Ready(Pulled::Failed(e.to_string()));
                            None
                        }
                    }
                },
                ctx,
            );
            return match filled {
                Ok(_) => outcome.map(Ok),
                Err(e) => Poll::Ready(Err(e)),
            };
        }
        // No pending read to fill (a pull to reach the high water mark): read a chunk to
        // enqueue.
        let mut buffer = vec![0; chunk_size];
        let mut input = self.input.borrow_mut();
        let Some(Input::Read { reader, .. }) = input.as_mut() else {
            return Poll::Ready(Ok(Pulled::End));
        };
        match reader.as_mut().poll_read(cx, &mut buffer) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(Ok(0)) => Poll::Ready(Ok(Pulled::End)),
            Poll::Ready(Ok(n)) => {
                buffer.truncate(n);
                Poll::Ready(Ok(Pulled::Chunk(Bytes::from(buffer))))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Ok(Pulled::Failed(e.to_string()))),
        }
    }

    /// Poll a `futures::Stream` input for its next non-empty chunk.
    fn poll_stream(&mut self, cx: &mut TaskContext<'_>) -> Poll<JsResult<Pulled>> {
        let mut input = self.input.borrow_mut();
        let Some(Input::Stream(stream)) = input.as_mut() else {
            return Poll::Ready(Ok(Pulled::End));
        };
        loop {
            match stream.as_mut().poll_next(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Some(Ok(chunk))) if chunk.is_empty() => continue,
                Poll::Ready(Some(Ok(chunk))) => return Poll::Ready(Ok(Pulled::Chunk(chunk))),
                Poll::Ready(Some(Err(e))) => return Poll::Ready(Ok(Pulled::Failed(e))),
                Poll::Ready(None) => return Poll::Ready(Ok(Pulled::End)),
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Sinks
// ---------------------------------------------------------------------------------------

/// A `WritableStream` (high water mark 1) writing into `sink`: each chunk (an `ArrayBuffer`
/// or an `ArrayBufferView`, copied; anything else rejects the write with a `TypeError`) is
/// sent with `poll_ready` + `start_send` + `poll_flush`, and the write completes when the
/// flush does; `close()` closes the sink (`poll_close`); `abort()` drops it (and a pending
/// write's future). A sink error errors the stream with a `TypeError` carrying its message.
///
/// ```
/// use boa_engine::{js_string, Context, Source};
/// use boa_streams::native::{run_until_idle, writable_stream_from_sink};
/// use bytes::Bytes;
///
/// let mut context = Context::default();
/// boa_streams::register(&mut context).unwrap();
/// let (tx, rx) = futures::channel::mpsc::unbounded::<Bytes>();
/// let stream = writable_stream_from_sink(tx, &mut context).unwrap();
/// context
///     .global_object()
///     .set(js_string!("output"), stream, false, &mut context)
///     .unwrap();
/// context
///     .eval(Source::from_bytes(
///         "const w = output.getWriter();
///          w.write(new Uint8Array([116, 111, 32]));
///          w.write(new Uint8Array([114, 117, 115, 116]));
///          w.close();",
///     ))
///     .unwrap();
/// run_until_idle(&mut context).unwrap();
/// let got: Vec<Bytes> = futures::executor::block_on_stream(rx).collect();
/// assert_eq!(got.concat(), b"to rust");
/// ```
pub fn writable_stream_from_sink<S>(sink: S, ctx: &mut Context) -> JsResult<JsObject>
where
    S: Sink<Bytes> + 'static,
    S::Error: std::fmt::Display,
{
    let sink: LocalSink = Box::pin(sink.sink_map_err(|e| e.to_string()));
    super::native_writable_stream(
        AsyncSinkAdapter {
            sink: Rc::new(RefCell::new(Some(sink))),
            in_flight: Rc::default(),
        },
        1.0,
        ctx,
    )
}

/// A `WritableStream` (high water mark 1) writing into `writer`: each chunk is written
/// whole and flushed before the write completes; `close()` closes `writer`; `abort()` drops
/// it. An `io::Error` errors the stream with a `TypeError` carrying its message (see
/// [`writable_stream_from_sink`]).
///
/// ```
/// use std::{cell::RefCell, rc::Rc};
/// use boa_engine::{js_string, Context, Source};
/// use boa_streams::native::{run_until_idle, writable_stream_from_async_write};
///
/// let mut context = Context::default();
/// boa_streams::register(&mut context).unwrap();
/// let out = futures::io::Cursor::new(Vec::new());
/// let stream = writable_stream_from_async_write(out, &mut context).unwrap();
/// context
///     .global_object()
///     .set(js_string!("output"), stream, false, &mut context)
///     .unwrap();
/// context
///     .eval(Source::from_bytes(
///         "globalThis.done = false;
///          new ReadableStream({ start(c) { c.enqueue(new Uint8Array([1, 2])); c.close(); } })
///              .pipeTo(output).then(() => { done = true; });",
///     ))
///     .unwrap();
/// run_until_idle(&mut context).unwrap();
/// assert!(context.eval(Source::from_bytes("done")).unwrap().as_boolean().unwrap());
/// ```
pub fn writable_stream_from_async_write<W>(writer: W, ctx: &mut Context) -> JsResult<JsObject>
where
    W: AsyncWrite + 'static,
{
    writable_stream_from_sink(writer.into_sink::<Bytes>(), ctx)
}

/// When a writer adapter ([`writable_stream_from_async_write_with_flush`]) flushes the
/// writer it writes into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FlushPolicy {
    /// After every chunk: a write completes once its bytes are written and the writer is
    /// flushed (what [`writable_stream_from_async_write`] does). Each chunk reaches the peer
    /// at once, as an interactive protocol needs.
    #[default]
    EachWrite,
    /// Only when the stream closes: a write completes once the writer has taken all of its
    /// bytes (a buffered writer, such as a `BufWriter`, keeps them until its buffer is full),
    /// and `close()` flushes, then closes the writer. Many small chunks then cost few system
    /// calls; bytes may wait in the writer's buffer until more come or the stream closes.
    OnClose,
}

/// [`writable_stream_from_async_write`] with the choice of when `writer` is flushed: after
/// every chunk ([`FlushPolicy::EachWrite`], the same as that function) or only on close
/// ([`FlushPolicy::OnClose`]). In both, `close()` flushes and closes `writer` and `abort()`
/// drops it; an `io::Error` (or a writer that accepts no bytes) errors the stream with a
/// `TypeError` carrying its message.
///
/// ```
/// use std::pin::Pin;
/// use std::sync::{Arc, Mutex};
/// use std::task::{Context as TaskContext, Poll};
/// use boa_engine::{js_string, Context, Source};
/// use boa_streams::native::{run_until_idle, writable_stream_from_async_write_with_flush, FlushPolicy};
///
/// /// A writer that records every flush.
/// struct Recorder(Arc<Mutex<(Vec<u8>, usize)>>);
/// impl futures::AsyncWrite for Recorder {
///     fn poll_write(self: Pin<&mut Self>, _: &mut TaskContext<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
///         self.0.lock().unwrap().0.extend_from_slice(buf);
///         Poll::Ready(Ok(buf.len()))
///     }
///     fn poll_flush(self: Pin<&mut Self>, _: &mut TaskContext<'_>) -> Poll<std::io::Result<()>> {
///         self.0.lock().unwrap().1 += 1;
///         Poll::Ready(Ok(()))
///     }
///     fn poll_close(self: Pin<&mut Self>, _: &mut TaskContext<'_>) -> Poll<std::io::Result<()>> {
///         Poll::Ready(Ok(()))
///     }
/// }
///
/// let mut context = Context::default();
/// boa_streams::register(&mut context).unwrap();
/// let record = Arc::new(Mutex::new((Vec::new(), 0)));
/// let stream = writable_stream_from_async_write_with_flush(
///     Recorder(record.clone()),
///     FlushPolicy::OnClose,
///     &mut context,
/// )
/// .unwrap();
/// context.global_object().set(js_string!("output"), stream, false, &mut context).unwrap();
/// context
///     .eval(Source::from_bytes(
///         "const w = output.getWriter();
///          for (const byte of [1, 2, 3]) w.write(new Uint8Array([byte]));
///          w.close();",
///     ))
///     .unwrap();
/// run_until_idle(&mut context).unwrap();
/// // Three chunks written, one flush (on close).
/// assert_eq!(*record.lock().unwrap(), (vec![1, 2, 3], 1));
/// ```
///
/// # Errors
/// As [`writable_stream_from_async_write`] (only if the stream cannot be set up).
pub fn writable_stream_from_async_write_with_flush<W>(
    writer: W,
    flush: FlushPolicy,
    ctx: &mut Context,
) -> JsResult<JsObject>
where
    W: AsyncWrite + 'static,
{
    match flush {
        FlushPolicy::EachWrite => writable_stream_from_async_write(writer, ctx),
        FlushPolicy::OnClose => writable_stream_from_sink(
            WriteAllSink {
                writer: Box::pin(writer),
                pending: Bytes::new(),
            },
            ctx,
        ),
    }
}

/// A `Sink` of byte chunks into an `AsyncWrite` whose `poll_flush` writes the chunk out
/// without flushing the writer (only `poll_close` flushes it): [`FlushPolicy::OnClose`].
struct WriteAllSink<W> {
    writer: Pin<Box<W>>,
    /// The bytes of the chunk not yet taken by the writer.
    pending: Bytes,
}

impl<W: AsyncWrite> WriteAllSink<W> {
    /// Hand the pending bytes to the writer.
    fn poll_drain(&mut self, cx: &mut TaskContext<'_>) -> Poll<std::io::Result<()>> {
        while !self.pending.is_empty() {
            match self.writer.as_mut().poll_write(cx, &self.pending) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Ready(Ok(0)) => {
                    return Poll::Ready(Err(std::io::ErrorKind::WriteZero.into()));
                }
                Poll::Ready(Ok(n)) => {
                    // A writer never reports more than it was given; clamp in case one does.
                    let taken = n.min(self.pending.len());
                    self.pending = self.pending.slice(taken..);
                }
            }
        }
        Poll::Ready(Ok(()))
    }
}

impl<W: AsyncWrite> Sink<Bytes> for WriteAllSink<W> {
    type Error = std::io::Error;

    fn poll_ready(self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<std::io::Result<()>> {
        self.get_mut().poll_drain(cx)
    }

    fn start_send(self: Pin<&mut Self>, item: Bytes) -> std::io::Result<()> {
        self.get_mut().pending = item;
        Ok(())
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<std::io::Result<()>> {
        self.get_mut().poll_drain(cx)
    }

    fn poll_close(self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        match this.poll_drain(cx) {
            Poll::Ready(Ok(())) => {}
            other => return other,
        }
        match this.writer.as_mut().poll_flush(cx) {
            Poll::Ready(Ok(())) => {}
            other => return other,
        }
        this.writer.as_mut().poll_close(cx)
    }
}

/// The state a sink adapter shares with its pending write or close (`None` once the sink
/// failed or was aborted).
type SharedSink = Rc<RefCell<Option<LocalSink>>>;

/// The pending write or close of a sink adapter: its future and the promise it settles.
type InFlight = Rc<RefCell<Option<(TaskHandle, Gc<RustPromise>)>>>;

/// The underlying sink of [`writable_stream_from_sink`].
#[derive(Trace, Finalize)]
struct AsyncSinkAdapter {
    #[unsafe_ignore_trace]
    sink: SharedSink,
    #[unsafe_ignore_trace]
    in_flight: InFlight,
}

impl AsyncSinkAdapter {
    fn run(&self, step: SinkStep, ctx: &mut Context) -> Completion {
        let promise = RustPromise::new();
        let task = SinkTask {
            sink: self.sink.clone(),
            step,
            promise: promise.clone(),
        };
        let handle = spawn(task, ctx);
        *self.in_flight.borrow_mut() = handle.map(|h| (h, promise.clone()));
        Completion::Rust(promise)
    }
}

/// What the abort algorithm on the controller's signal reaches.
#[derive(Trace, Finalize)]
struct AbortCaptures {
    signal: JsObject,
    #[unsafe_ignore_trace]
    in_flight: InFlight,
}

impl NativeSink for AsyncSinkAdapter {
    /// Add an abort algorithm to the controller's signal: an abort drops the pending write's
    /// future at once and rejects that write with the abort reason (what a JS sink listening
    /// to `controller.signal` may do); the stream then calls [`Self::abort`], which drops the
    /// sink.
    fn start(&self, controller: &JsObject, ctx: &mut Context) -> JsResult<Completion> {
        let slots = WritableStreamDefaultController::slots_of(&controller.clone().into())
            .ok_or_else(|| type_error("not a WritableStreamDefaultController"))?;
        let signal = writable_stream_controller_signal(&slots, ctx)?;
        let captures = AbortCaptures {
            signal: signal.clone(),
            in_flight: self.in_flight.clone(),
        };
        let algorithm = NativeFunction::from_copy_closure_with_captures(
            |_, _, captures: &AbortCaptures, ctx| {
                let in_flight = captures.in_flight.borrow_mut().take();
                if let Some((task, promise)) = in_flight {
                    task.cancel();
                    if promise.is_pending() {
                        let reason = boa_dom::abort_reason(&captures.signal);
                        promise.settle(Err(reason), ctx);
                    }
                }
                Ok(JsValue::undefined())
            },
            captures,
        )
        .to_js_function(ctx.realm());
        let _id = boa_dom::add_abort_algorithm(&signal, algorithm);
        Ok(Completion::undefined())
    }

    fn write(&self, chunk: JsValue, _controller: &JsObject, ctx: &mut Context) -> Completion {
        match boa_webidl::buffer_source::copy_bytes_of_allow_shared_buffer_source(&chunk, ctx) {
            Ok(bytes) => self.run(SinkStep::Send(Some(Bytes::from(bytes))), ctx),
            Err(e) => Completion::Rejected(own_error_value(e, ctx)),
        }
    }

    fn close(&self, ctx: &mut Context) -> Completion {
        self.run(SinkStep::Close, ctx)
    }

    fn abort(&self, _reason: JsValue, _ctx: &mut Context) -> Completion {
        let in_flight = self.in_flight.borrow_mut().take();
        if let Some((task, _)) = in_flight {
            task.cancel();
        }
        let sink = self.sink.borrow_mut().take();
        drop(sink);
        Completion::undefined()
    }
}

/// Where a sink step is.
enum SinkStep {
    /// Waiting for `poll_ready` to send the chunk (taken when sent).
    Send(Option<Bytes>),
    /// Sent: waiting for `poll_flush`.
    Flush,
    /// Waiting for `poll_close`.
    Close,
}

/// One write or close of a sink adapter.
struct SinkTask {
    sink: SharedSink,
    step: SinkStep,
    promise: Gc<RustPromise>,
}

impl SinkTask {
    fn poll_sink(&mut self, cx: &mut TaskContext<'_>) -> Poll<Result<(), String>> {
        let mut guard = self.sink.borrow_mut();
        let Some(sink) = guard.as_mut() else {
            return Poll::Ready(Err("the sink is gone".to_owned()));
        };
        loop {
            match &mut self.step {
                SinkStep::Send(chunk) => match sink.as_mut().poll_ready(cx) {
                    Poll::Pending => return Poll::Pending,
                    Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                    Poll::Ready(Ok(())) => {
                        let chunk = chunk.take().unwrap_or_default();
                        if let Err(e) = sink.as_mut().start_send(chunk) {
                            return Poll::Ready(Err(e));
                        }
                        self.step = SinkStep::Flush;
                    }
                },
                SinkStep::Flush => return sink.as_mut().poll_flush(cx),
                SinkStep::Close => return sink.as_mut().poll_close(cx),
            }
        }
    }
}

impl Task for SinkTask {
    fn poll(&mut self, cx: &mut TaskContext<'_>, ctx: &mut Context) -> Poll<()> {
        let result = match self.poll_sink(cx) {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(r) => r,
        };
        let settlement = match result {
            Ok(()) => Ok(JsValue::undefined()),
            Err(message) => {
                let sink = self.sink.borrow_mut().take();
                drop(sink);
                Err(type_error_value(message, ctx))
            }
        };
        self.promise.settle(settlement, ctx);
        Poll::Ready(())
    }
}

#[cfg(test)]
mod tests;
