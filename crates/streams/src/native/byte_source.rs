//! Byte sources written in Rust behind a `type: "bytes"` `ReadableStream`: the [`ByteSource`]
//! trait, its controller handle [`ByteController`] and [`native_readable_byte_stream`].
//!
//! A pull either **fills** the pending read's buffer in place ([`ByteController::fill`]: the
//! source writes straight into the `ArrayBuffer` the reader handed in, or into the buffer
//! `autoAllocateChunkSize` allocated for a default reader, then the controller responds with
//! the count), or **enqueues** owned bytes ([`ByteController::enqueue`]: one copy into a new
//! `ArrayBuffer`, since Boa's buffers own their aligned blocks). These are the spec's
//! operations for other specifications on a stream "set up with byte reading support":
//! [write into the current BYOB request view](https://streams.spec.whatwg.org/#readablestream-current-byob-request-view)
//! then [enqueue](https://streams.spec.whatwg.org/#readablestream-enqueue) that view,
//! [close](https://streams.spec.whatwg.org/#readablestream-close) and
//! [error](https://streams.spec.whatwg.org/#readablestream-error).
//!
//! The handle is cloneable and GC-traced: a source that finishes later (I/O) keeps it, returns
//! [`Completion::Rust`] from `pull` and fills / enqueues / closes from a later job before it
//! settles that promise.

use std::io;

use boa_engine::{
    builtins::typed_array::TypedArrayKind, object::builtins::AlignedVec, Context, JsObject,
    JsResult, JsValue,
};
use boa_gc::{Finalize, Gc, Trace};

use crate::readable::{
    create_readable_byte_stream, readable_byte_stream_controller_close,
    readable_byte_stream_controller_enqueue, readable_byte_stream_controller_error,
    readable_byte_stream_controller_get_desired_size, readable_byte_stream_controller_respond,
    with_stream, NativeSource, NativeSourceBox, ReadableByteStreamController, ReadableStream,
    SourceAlgorithms, StartAlgorithm, StreamController, StreamState, ViewConstructor, ViewRecord,
};
use boa_webidl::promise::Completion;
use boa_webidl::{self as webidl, type_error};

/// An underlying byte source written in Rust, behind a `type: "bytes"` stream made by
/// [`native_readable_byte_stream`].
///
/// `pull` runs when the stream wants data (a read is pending, or the queue is below the high
/// water mark). It answers through the [`ByteController`]: [`fill`](ByteController::fill)
/// the pending read's buffer in place when [`byob_request`](ByteController::byob_request) is
/// `Some` (zero copy from the source into the caller's buffer), otherwise
/// [`enqueue`](ByteController::enqueue) owned bytes; [`close`](ByteController::close) at the
/// end, [`error`](ByteController::error) / [`error_io`](ByteController::error_io) on failure.
/// It returns a [`Completion`]: [`Completion::undefined`] when done, [`Completion::Rejected`]
/// to error the stream, or [`Completion::Rust`] with a pending
/// [`RustPromise`](crate::native::RustPromise) settled once a later job has answered (no other
/// pull runs before that).
///
/// Calls into the controller can run script (a fulfilled read resolves a promise) and can
/// call `pull` again once that promise settled: hold no `RefCell` borrow of the source's state
/// across them.
///
/// ```
/// use std::cell::Cell;
/// use boa_engine::{js_string, Context, Source};
/// use boa_gc::{Finalize, Trace};
/// use boa_streams::native::{
///     native_readable_byte_stream, ByteController, ByteSource, ByteStreamOptions, Completion,
/// };
///
/// /// Counts up from 0, 300 bytes in all.
/// #[derive(Trace, Finalize)]
/// struct Counter {
///     #[unsafe_ignore_trace]
///     sent: Cell<usize>,
/// }
///
/// impl ByteSource for Counter {
///     fn pull(&self, controller: &ByteController, ctx: &mut Context) -> Completion {
///         let sent = self.sent.get();
///         if sent == 300 {
///             return Completion::from_result(controller.close(ctx), ctx);
///         }
///         // Write straight into the reader's buffer.
///         let filled = controller.fill(
///             |buf| {
///                 let n = buf.len().min(300 - sent);
///                 for (i, b) in buf[..n].iter_mut().enumerate() {
///                     *b = (sent + i) as u8;
///                 }
///                 n
///             },
///             ctx,
///         );
///         match filled {
///             Ok(n) => {
///                 self.sent.set(sent + n);
///                 Completion::undefined()
///             }
///             Err(e) => Completion::from_error(e, ctx),
///         }
///     }
/// }
///
/// let mut context = Context::default();
/// boa_streams::register(&mut context).unwrap();
/// let source = Counter { sent: Cell::new(0) };
/// let options = ByteStreamOptions { auto_allocate_chunk_size: Some(128), ..Default::default() };
/// let stream = native_readable_byte_stream(source, options, &mut context).unwrap();
/// context
///     .global_object()
///     .set(js_string!("stream"), stream.upcast(), false, &mut context)
///     .unwrap();
/// context
///     .eval(Source::from_bytes(
///         "globalThis.out = [];
///          (async () => {
///              const reader = stream.getReader({ mode: 'byob' });
///              let view = new Uint8Array(100);
///              for (;;) {
///                  const { done, value } = await reader.read(view);
///                  if (done) break;
///                  out.push(value.length + '@' + value[0]);
///                  view = new Uint8Array(value.buffer);
///              }
///          })();",
///     ))
///     .unwrap();
/// context.run_jobs().unwrap();
/// let out = context.eval(Source::from_bytes("out.join()")).unwrap();
/// assert_eq!(out.as_string().unwrap().to_std_string_escaped(), "100@0,100@100,100@200");
/// ```
pub trait ByteSource: Trace + 'static {
    /// The pull algorithm: called when the stream wants more bytes.
    fn pull(&self, controller: &ByteController, ctx: &mut Context) -> Completion;

    /// The cancel algorithm: the consumer cancelled the stream with `reason`; release what
    /// the source holds. The default does nothing.
    fn cancel(&self, reason: JsValue, ctx: &mut Context) -> Completion {
        let _ = (reason, ctx);
        Completion::undefined()
    }
}

/// How [`native_readable_byte_stream`] sets up the stream's `ReadableByteStreamController`.
///
/// ```
/// use boa_streams::native::ByteStreamOptions;
///
/// // Read-ahead of up to 64 KiB; default readers get 16 KiB buffers to fill.
/// let options = ByteStreamOptions {
///     high_water_mark: 65536.0,
///     auto_allocate_chunk_size: Some(16384),
/// };
/// assert_eq!(ByteStreamOptions::default().high_water_mark, 0.0);
/// assert_ne!(options, ByteStreamOptions::default());
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ByteStreamOptions {
    /// The high water mark in bytes (non-negative; the spec's default for byte streams is 0:
    /// pull only when a read is pending).
    pub high_water_mark: f64,
    /// `autoAllocateChunkSize`: a default reader's read gets a buffer of this many bytes as
    /// the pending read to [`ByteController::fill`] (`None`: the source must
    /// [`ByteController::enqueue`] for default readers). Must not be `Some(0)`.
    pub auto_allocate_chunk_size: Option<u64>,
}

impl Default for ByteStreamOptions {
    /// High water mark 0, no `autoAllocateChunkSize`.
    fn default() -> Self {
        Self {
            high_water_mark: 0.0,
            auto_allocate_chunk_size: None,
        }
    }
}

/// A new `type: "bytes"` `ReadableStream` whose underlying byte source is `source`
/// ([set up with byte reading support](https://streams.spec.whatwg.org/#readablestream-set-up-with-byte-reading-support),
/// plus the constructor's `autoAllocateChunkSize`). BYOB readers (`getReader({ mode: "byob"
/// })`), default readers, `tee()` (a byte tee) and pipes all work on it.
///
/// Throws a RangeError for a negative or NaN high water mark and a TypeError for an
/// `autoAllocateChunkSize` of 0.
///
/// ```
/// use boa_engine::Context;
/// use boa_gc::{Finalize, Trace};
/// use boa_streams::native::{
///     native_readable_byte_stream, ByteController, ByteSource, ByteStreamOptions, Completion,
/// };
///
/// #[derive(Trace, Finalize)]
/// struct Empty;
///
/// impl ByteSource for Empty {
///     fn pull(&self, controller: &ByteController, ctx: &mut Context) -> Completion {
///         let closed = controller.close(ctx);
///         Completion::from_result(closed, ctx)
///     }
/// }
///
/// let mut context = Context::default();
/// boa_streams::register(&mut context).unwrap();
/// let stream = native_readable_byte_stream(Empty, ByteStreamOptions::default(), &mut context);
/// assert!(stream.is_ok());
/// let zero = ByteStreamOptions { auto_allocate_chunk_size: Some(0), ..Default::default() };
/// assert!(native_readable_byte_stream(Empty, zero, &mut context).is_err());
/// ```
pub fn native_readable_byte_stream(
    source: impl ByteSource,
    options: ByteStreamOptions,
    ctx: &mut Context,
) -> JsResult<JsObject<ReadableStream>> {
    create_readable_byte_stream(
        StartAlgorithm::ReturnUndefined,
        SourceAlgorithms::Native(Gc::new(NativeSourceBox(Box::new(ByteSourceAdapter(
            Box::new(source),
        ))))),
        Some(options.high_water_mark),
        options.auto_allocate_chunk_size,
        ctx,
    )
}

/// A [`ByteSource`] as the [`NativeSource`] behind a byte controller.
#[derive(Trace, Finalize)]
struct ByteSourceAdapter(Box<dyn ByteSource>);

impl NativeSource for ByteSourceAdapter {
    fn pull(&self, controller: &StreamController, ctx: &mut Context) -> Completion {
        match controller {
            StreamController::Byte(c) => self.0.pull(&ByteController::new(c.clone()), ctx),
            // native_readable_byte_stream only installs it behind a byte controller.
            StreamController::Default(_) => Completion::undefined(),
        }
    }

    fn cancel(&self, reason: JsValue, ctx: &mut Context) -> Completion {
        self.0.cancel(reason, ctx)
    }
}

/// The pending read a [`ByteSource`] can fill in place: the spec's
/// [current BYOB request view](https://streams.spec.whatwg.org/#readablestream-current-byob-request-view)
/// (the head pull-into descriptor's unfilled bytes).
///
/// ```
/// use std::cell::RefCell;
/// use std::rc::Rc;
/// use boa_engine::{js_string, Context, Source};
/// use boa_gc::{Finalize, Trace};
/// use boa_streams::native::{
///     native_readable_byte_stream, ByobRequest, ByteController, ByteSource, ByteStreamOptions,
///     Completion,
/// };
///
/// /// Records the pending read, then ends the stream.
/// #[derive(Trace, Finalize)]
/// struct Peek(#[unsafe_ignore_trace] Rc<RefCell<Option<ByobRequest>>>);
///
/// impl ByteSource for Peek {
///     fn pull(&self, controller: &ByteController, ctx: &mut Context) -> Completion {
///         *self.0.borrow_mut() = controller.byob_request();
///         let closed = controller.close(ctx);
///         Completion::from_result(closed, ctx)
///     }
/// }
///
/// let mut context = Context::default();
/// boa_streams::register(&mut context).unwrap();
/// let seen = Rc::new(RefCell::new(None));
/// let stream =
///     native_readable_byte_stream(Peek(seen.clone()), ByteStreamOptions::default(), &mut context)
///         .unwrap();
/// context
///     .global_object()
///     .set(js_string!("stream"), stream.upcast(), false, &mut context)
///     .unwrap();
/// context
///     .eval(Source::from_bytes(
///         "stream.getReader({ mode: 'byob' }).read(new Uint32Array(4), { min: 2 });",
///     ))
///     .unwrap();
/// context.run_jobs().unwrap();
/// let request = seen.borrow().unwrap();
/// assert_eq!((request.remaining, request.needed, request.element_size), (16, 8, 4));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ByobRequest {
    /// Bytes [`ByteController::fill`] can write: the view's byte length (the descriptor's
    /// byte length − bytes filled).
    pub remaining: usize,
    /// Bytes still needed before the read completes (its minimum fill − bytes filled, at
    /// least 1): a `read(view, { min })` waits for `min` elements; a fill of fewer bytes
    /// leaves the read pending and the stream pulls again.
    pub needed: usize,
    /// Bytes already written into this read's buffer by earlier fills.
    pub filled: usize,
    /// The element size of the reader's view (1 for `Uint8Array` / `DataView`, 4 for
    /// `Float32Array`, ...): the read completes with whole elements only.
    pub element_size: usize,
}

/// A cloneable, GC-traced handle to the `ReadableByteStreamController` behind a
/// [`ByteSource`]: the source's way to answer reads, now or from a later job.
///
/// ```
/// use boa_engine::{js_string, Context, Source};
/// use boa_gc::{Finalize, Trace};
/// use boa_streams::native::{
///     native_readable_byte_stream, ByteController, ByteSource, ByteStreamOptions, Completion,
/// };
/// use bytes::Bytes;
///
/// /// Enqueues one owned chunk, then closes.
/// #[derive(Trace, Finalize)]
/// struct Once;
///
/// impl ByteSource for Once {
///     fn pull(&self, controller: &ByteController, ctx: &mut Context) -> Completion {
///         let r = controller.enqueue(Bytes::from_static(b"hi"), ctx);
///         let r = r.and_then(|()| controller.close(ctx));
///         Completion::from_result(r, ctx)
///     }
/// }
///
/// let mut context = Context::default();
/// boa_streams::register(&mut context).unwrap();
/// let stream =
///     native_readable_byte_stream(Once, ByteStreamOptions::default(), &mut context).unwrap();
/// context
///     .global_object()
///     .set(js_string!("stream"), stream.upcast(), false, &mut context)
///     .unwrap();
/// context
///     .eval(Source::from_bytes(
///         "globalThis.text = '';
///          (async () => { for await (const c of stream) text += String.fromCharCode(...c); })();",
///     ))
///     .unwrap();
/// context.run_jobs().unwrap();
/// let text = context.eval(Source::from_bytes("text")).unwrap();
/// assert_eq!(text.as_string().unwrap().to_std_string_escaped(), "hi");
/// ```
#[derive(Clone, Trace, Finalize)]
pub struct ByteController {
    controller: JsObject<ReadableByteStreamController>,
}

impl std::fmt::Debug for ByteController {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ByteController").finish_non_exhaustive()
    }
}

impl ByteController {
    /// A handle to `controller` (a controller whose source is a [`ByteSource`]).
    pub(crate) fn new(controller: JsObject<ReadableByteStreamController>) -> Self {
        Self { controller }
    }

    /// The handle of `stream`'s controller when `stream` is a byte stream (`type: "bytes"`,
    /// e.g. one made by [`native_readable_byte_stream`]); `None` for a default stream. For a
    /// source that must error its stream before the first pull (an abort signal):
    ///
    /// ```
    /// use boa_engine::{js_string, Context};
    /// use boa_streams::native::{native_byte_stream, ByteController};
    ///
    /// let mut context = Context::default();
    /// boa_streams::register(&mut context).unwrap();
    /// let stream = native_byte_stream(std::iter::empty(), &mut context).unwrap();
    /// let controller = ByteController::of_stream(&stream).unwrap();
    /// controller.error(js_string!("gone").into(), &mut context);
    /// assert!(!controller.is_readable());
    /// ```
    pub fn of_stream(stream: &JsObject<ReadableStream>) -> Option<Self> {
        let controller = stream.borrow().data().controller()?;
        match controller {
            StreamController::Byte(c) => Some(Self::new(c)),
            StreamController::Default(_) => None,
        }
    }

    /// The `ReadableByteStreamController` object.
    pub fn controller(&self) -> &JsObject<ReadableByteStreamController> {
        &self.controller
    }

    /// The stream (`[[stream]]`).
    pub fn stream(&self) -> JsObject<ReadableStream> {
        self.controller.borrow().data().stream()
    }

    fn state(&self) -> StreamState {
        with_stream(&self.stream(), ReadableStream::state)
    }

    /// Whether the stream is still readable (neither closed, errored nor cancelled): once it
    /// is not, a source that finishes later drops its work.
    pub fn is_readable(&self) -> bool {
        self.state() == StreamState::Readable
    }

    /// [ReadableByteStreamControllerGetDesiredSize](https://streams.spec.whatwg.org/#readable-byte-stream-controller-get-desired-size):
    /// the high water mark minus the queued bytes; `None` once errored, 0 once closed.
    pub fn desired_size(&self) -> Option<f64> {
        readable_byte_stream_controller_get_desired_size(&self.controller)
    }

    /// The pending read [`fill`](Self::fill) would write into, if there is one (the
    /// [current BYOB request view](https://streams.spec.whatwg.org/#readablestream-current-byob-request-view)):
    /// a BYOB reader's `read(view)`, or a default reader's read on a stream with
    /// `autoAllocateChunkSize`. `None` when no read is pending or the stream is no longer
    /// readable; then [`enqueue`](Self::enqueue) instead.
    pub fn byob_request(&self) -> Option<ByobRequest> {
        if !self.is_readable() {
            return None;
        }
        let first = self.controller.borrow().data().first_pending_pull_into()?;
        let d = first.borrow();
        let size = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
        Some(ByobRequest {
            remaining: size(d.byte_length.saturating_sub(d.bytes_filled)),
            needed: size(d.minimum_fill.saturating_sub(d.bytes_filled).max(1)),
            filled: size(d.bytes_filled),
            element_size: size(d.element_size),
        })
    }

    /// Write into the pending read's buffer in place and respond with the count: `write` gets
    /// the [current BYOB request view](https://streams.spec.whatwg.org/#readablestream-current-byob-request-view)'s
    /// bytes (exactly [`ByobRequest::remaining`] of them, inside the caller's `ArrayBuffer`)
    /// and returns how many it wrote from the start; then
    /// [ReadableByteStreamControllerRespond](https://streams.spec.whatwg.org/#readable-byte-stream-controller-respond)
    /// hands them to the read (which completes once its `min` is met). Returns the count.
    ///
    /// `write` runs while the buffer is borrowed: it must only run Rust (it cannot reach the
    /// context, which `fill` holds) and must not touch that buffer's JS object.
    ///
    /// Errors, as `byobRequest.respond(n)` throws them: a TypeError when no read is pending
    /// (or the stream is not readable) or when `write` returns 0 (call [`close`](Self::close)
    /// at the end of the data instead), a RangeError when it returns more than it was given.
    /// The error leaves the stream as it was; return it from `pull` (e.g. with
    /// [`Completion::from_error`]) to error the stream.
    pub fn fill(
        &self,
        write: impl FnOnce(&mut [u8]) -> usize,
        ctx: &mut Context,
    ) -> JsResult<usize> {
        let written = self.try_fill(|view| Some(write(view)), ctx)?;
        Ok(written.unwrap_or(0))
    }

    /// [`fill`](Self::fill) where `write` may decline: when it returns `None` (the source has
    /// nothing yet, e.g. an async read is not ready, or it hit the end or an error), nothing
    /// is responded, the read stays pending and `try_fill` returns `Ok(None)`. What `write`
    /// wrote into the view is then still in the caller's buffer but not handed to the read.
    /// Same rules and errors as `fill` otherwise.
    ///
    /// ```
    /// use boa_engine::{js_string, Context, Source};
    /// use boa_gc::{Finalize, Trace};
    /// use boa_streams::native::{
    ///     native_readable_byte_stream, ByteController, ByteSource, ByteStreamOptions, Completion,
    /// };
    ///
    /// /// Has nothing to give: the read stays pending.
    /// #[derive(Trace, Finalize)]
    /// struct Idle;
    ///
    /// impl ByteSource for Idle {
    ///     fn pull(&self, controller: &ByteController, ctx: &mut Context) -> Completion {
    ///         let filled = controller.try_fill(|_| None, ctx);
    ///         assert!(matches!(filled, Ok(None)));
    ///         assert!(controller.byob_request().is_some());
    ///         Completion::undefined()
    ///     }
    /// }
    ///
    /// let mut context = Context::default();
    /// boa_streams::register(&mut context).unwrap();
    /// let options = ByteStreamOptions { auto_allocate_chunk_size: Some(8), ..Default::default() };
    /// let stream = native_readable_byte_stream(Idle, options, &mut context).unwrap();
    /// context
    ///     .global_object()
    ///     .set(js_string!("stream"), stream.upcast(), false, &mut context)
    ///     .unwrap();
    /// context.eval(Source::from_bytes("stream.getReader().read();")).unwrap();
    /// context.run_jobs().unwrap();
    /// ```
    pub fn try_fill(
        &self,
        write: impl FnOnce(&mut [u8]) -> Option<usize>,
        ctx: &mut Context,
    ) -> JsResult<Option<usize>> {
        // NOTE: the spec's "current BYOB request view" is
        // ReadableByteStreamControllerGetBYOBRequest(controller).[[view]], a Uint8Array over
        // the head pull-into descriptor's buffer from byte offset + bytes filled, of byte
        // length − bytes filled. The same bytes are read off the descriptor here without
        // creating the ReadableStreamBYOBRequest and its view: a native source's controller
        // is never handed to script, so whether [[byobRequest]] was materialised cannot be
        // observed, and ReadableByteStreamControllerRespond invalidates it either way.
        if !self.is_readable() {
            return Err(type_error("The stream is not readable"));
        }
        let first = self.controller.borrow().data().first_pending_pull_into();
        let Some(first) = first else {
            return Err(type_error("There is no pending BYOB request"));
        };
        let (start, length) = {
            let d = first.borrow();
            (
                d.byte_offset.saturating_add(d.bytes_filled),
                d.byte_length.saturating_sub(d.bytes_filled),
            )
        };
        // The descriptor's buffer (an object, or with the fast paths on the block a transfer
        // kept) is borrowed only while `write` runs Rust.
        let written = first
            .borrow_mut()
            .buffer
            .with_bytes_mut(|data| write_into(data, start, length, write));
        let Some(written) = written? else {
            return Ok(None);
        };
        // "Write pulled into the current BYOB request view" done; "enqueue" that view:
        // Perform ? ReadableByteStreamControllerRespond(controller, view.[[ByteLength]]).
        let written64 = u64::try_from(written).unwrap_or(u64::MAX);
        readable_byte_stream_controller_respond(&self.controller, written64, ctx)?;
        Ok(Some(written))
    }

    /// [Enqueue](https://streams.spec.whatwg.org/#readablestream-enqueue) `chunk`: one copy
    /// into a new `ArrayBuffer`, then
    /// [ReadableByteStreamControllerEnqueue](https://streams.spec.whatwg.org/#readable-byte-stream-controller-enqueue)
    /// (which hands it to a pending default read, copies it into pending BYOB reads, or
    /// queues it). Ignored once the stream is closing or not readable.
    ///
    /// Errors: a TypeError for an empty chunk (as `controller.enqueue()` throws).
    pub fn enqueue(&self, chunk: impl AsRef<[u8]>, ctx: &mut Context) -> JsResult<()> {
        let chunk = chunk.as_ref();
        if chunk.is_empty() {
            return Err(type_error("The chunk must have a non-zero byteLength"));
        }
        let block = AlignedVec::from_slice(64, chunk);
        self.enqueue_block(block, ctx)
    }

    /// Fill the pending read in place if there is one ([`fill`](Self::fill)); otherwise let
    /// `write` produce a new chunk of at most `chunk_size` bytes in a fresh buffer and
    /// [enqueue](Self::enqueue) it without a further copy (the buffer moves into the stream).
    /// Returns the count written. Same rules and errors as `fill` (a `chunk_size` of 0 is a
    /// TypeError).
    pub fn fill_or_enqueue(
        &self,
        chunk_size: usize,
        write: impl FnOnce(&mut [u8]) -> usize,
        ctx: &mut Context,
    ) -> JsResult<usize> {
        if self.byob_request().is_some() {
            return self.fill(write, ctx);
        }
        if chunk_size == 0 {
            return Err(type_error("The chunk size must be greater than 0"));
        }
        let mut block = AlignedVec::new(64);
        block.resize(chunk_size, 0);
        let written = write(&mut block);
        if written == 0 {
            return Err(type_error("The chunk must have a non-zero byteLength"));
        }
        if written > chunk_size {
            return Err(boa_engine::JsNativeError::range()
                .with_message("More bytes written than the chunk holds")
                .into());
        }
        block.truncate(written);
        self.enqueue_block(block, ctx)?;
        Ok(written)
    }

    /// ReadableByteStreamControllerEnqueue with a `Uint8Array` over all of `block`.
    fn enqueue_block(&self, block: AlignedVec<u8>, ctx: &mut Context) -> JsResult<()> {
        let length = block.len() as u64;
        let buffer = boa_webidl::gc_pressure::new_array_buffer(block, ctx)?;
        // NOTE: ReadableByteStreamControllerEnqueue reads only the view's buffer, byte offset
        // and byte length, so the record stands for the Uint8Array the spec creates (which
        // script never sees: the enqueue transfers its buffer).
        let view = ViewRecord {
            buffer,
            byte_offset: 0,
            byte_length: length,
            constructor: ViewConstructor::Typed(TypedArrayKind::Uint8),
            array_length: length,
        };
        readable_byte_stream_controller_enqueue(&self.controller, &view, ctx)
    }

    /// [Close](https://streams.spec.whatwg.org/#readablestream-close) the stream: reads see
    /// the end once the queued bytes are read; a pending BYOB read completes with `done: true`
    /// and what was filled so far. Ignored when already closing or not readable.
    ///
    /// Errors: a TypeError (which also errors the stream) when a pending read holds a partial
    /// element (e.g. 3 bytes of a `Uint32Array` read).
    pub fn close(&self, ctx: &mut Context) -> JsResult<()> {
        // 1. (The controller implements ReadableByteStreamController.)
        //   1. Perform ! ReadableByteStreamControllerClose(stream.[[controller]]).
        readable_byte_stream_controller_close(&self.controller, ctx)?;
        //   2. If stream.[[controller]].[[pendingPullIntos]] is not empty, perform !
        //      ReadableByteStreamControllerRespond(stream.[[controller]], 0).
        // NOTE: also only when the stream did close (not merely [[closeRequested]] with bytes
        // still queued, where responding 0 would throw): the spec's "!" asserts that case
        // away.
        let pending = self.controller.borrow().data().has_pending_pull_intos();
        if pending && self.state() == StreamState::Closed {
            readable_byte_stream_controller_respond(&self.controller, 0, ctx)?;
        }
        Ok(())
    }

    /// [Error](https://streams.spec.whatwg.org/#readablestream-error) the stream with `e`
    /// (ReadableByteStreamControllerError): pending and later reads reject with it. Ignored
    /// when the stream is not readable.
    pub fn error(&self, e: JsValue, ctx: &mut Context) {
        readable_byte_stream_controller_error(&self.controller, e, ctx);
    }

    /// [`error`](Self::error) the stream with [`io_error`]`(e)`: a TypeError carrying the I/O
    /// error's message.
    pub fn error_io(&self, e: &io::Error, ctx: &mut Context) {
        let e = io_error(e, ctx);
        self.error(e, ctx);
    }
}

/// Write through `write` into `buffer[start..start + length]`; the count it returns.
fn write_into(
    data: Option<&mut [u8]>,
    start: u64,
    length: u64,
    write: impl FnOnce(&mut [u8]) -> Option<usize>,
) -> JsResult<Option<usize>> {
    let (Ok(start), Ok(length)) = (usize::try_from(start), usize::try_from(length)) else {
        return Err(type_error("The BYOB request view is out of range"));
    };
    let Some(data) = data else {
        return Err(type_error("The BYOB request's buffer is detached"));
    };
    let Some(view) = start
        .checked_add(length)
        .and_then(|end| data.get_mut(start..end))
    else {
        return Err(type_error("The BYOB request view is out of range"));
    };
    // The borrow of the buffer's data lasts only while `write` runs Rust.
    Ok(write(view))
}

/// A JS TypeError whose message is `e`'s (`"<message>"`, e.g. "No such file or directory (os
/// error 2)"): how an I/O failure of a Rust source surfaces as a stream error.
///
/// ```
/// use boa_engine::{js_string, Context};
/// use boa_streams::native::io_error;
///
/// let mut context = Context::default();
/// let e = std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "disk gone");
/// let value = io_error(&e, &mut context);
/// let object = value.as_object().unwrap();
/// let message = object.get(js_string!("message"), &mut context).unwrap();
/// assert_eq!(message.as_string().unwrap().to_std_string_escaped(), "disk gone");
/// let name = object.get(js_string!("name"), &mut context).unwrap();
/// assert_eq!(name.as_string().unwrap().to_std_string_escaped(), "TypeError");
/// ```
pub fn io_error(e: &io::Error, ctx: &mut Context) -> JsValue {
    webidl::type_error_value(e.to_string(), ctx)
}

#[cfg(test)]
mod tests;
