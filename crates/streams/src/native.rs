//! The Rust API for embedders that feed streams from native data or consume them into native
//! sinks, without writing JS.
//!
//! - A **source**: implement [`NativeSource`] (`pull` enqueues through
//!   [`readable_stream_default_controller_enqueue`] / closes through
//!   [`readable_stream_default_controller_close`]; `cancel` drops what the source holds) and
//!   create the stream with [`native_readable_stream`]. Byte chunks held as [`bytes::Bytes`]
//!   become `Uint8Array`s with [`enqueue_bytes`] / [`bytes_to_uint8_array`].
//! - A **byte source** (a `type: "bytes"` stream, readable with BYOB readers): implement
//!   [`ByteSource`] (`pull` gets a [`ByteController`]: [`fill`](ByteController::fill) the
//!   pending read's buffer in place, zero copy, or [`enqueue`](ByteController::enqueue) owned
//!   bytes; `close`, `error`, [`error_io`](ByteController::error_io)) and create the stream with
//!   [`native_readable_byte_stream`] ([`ByteStreamOptions`]: high water mark,
//!   `autoAllocateChunkSize`). [`native_byte_stream`] wraps any iterator of `Bytes` as such a
//!   stream, pulled on demand.
//! - A **sink**: implement [`NativeSink`] (`write` each chunk, then `close` or `abort`) and
//!   create the stream with [`native_writable_stream`].
//!
//! - **Async Rust I/O**: [`readable_stream_from_stream`] (a `futures::Stream` of `Bytes`)
//!   and [`readable_stream_from_async_read`] (an `AsyncRead`; BYOB reads fill the view in
//!   place) make byte `ReadableStream`s (both are [`ByteSource`]s: the same mechanism as an
//!   embedder's; their `_with_high_water_mark` variants read ahead);
//!   [`writable_stream_from_sink`] (a
//!   `futures::Sink<Bytes>`) and [`writable_stream_from_async_write`] make `WritableStream`s;
//!   `native::tokio` (cargo feature `tokio`) does the same for tokio's I/O traits. Their futures are
//!   polled only while the stream asks (a pending read, a write), dropped on cancel / abort,
//!   and their errors become `TypeError`s carrying the message.
//! - **Rust consumers** of any stream: [`StreamReader`] (`read` as a [`StreamFuture`] or a
//!   callback, [`read_all`](StreamReader::read_all), `cancel`, and
//!   [`into_stream`](StreamReader::into_stream), a `futures::Stream` view: [`ChunkStream`])
//!   and [`StreamWriter`] (`write`, `ready`, `close`, `abort`).
//! - **Driving them**: pending native futures live in the context (not in one call of the job
//!   executor); an event loop polls them with [`poll_tasks`] and waits while
//!   [`pending_tasks`] is non-zero (the host crate's loop does, and `Host::run_until` awaits a
//!   future); with another job executor, [`block_on`] / [`run_until_idle`] do it. An
//!   embedder awaits its own Rust I/O the same way with [`spawn_future`] (the future, then
//!   steps with the context).
//!
//! The algorithms return a [`Completion`] (the spec's "promise" an algorithm returns):
//! [`Completion::undefined`] when the step is done, [`Completion::Rejected`] for an error, or
//! [`Completion::Rust`] with a pending [`RustPromise`] the embedder settles later (e.g. when
//! its I/O finishes); the stream reacts to it at the microtask position a promise reaction
//! would take.
//!
//! ```
//! use boa_engine::{js_string, Context, Source};
//! use boa_streams::native::native_byte_stream;
//! use bytes::Bytes;
//!
//! let mut context = Context::default();
//! boa_streams::register(&mut context).unwrap();
//! let chunks = vec![Bytes::from_static(b"hello, "), Bytes::from_static(b"world")];
//! let stream = native_byte_stream(chunks.into_iter(), &mut context).unwrap();
//! context
//!     .global_object()
//!     .set(js_string!("stream"), stream.upcast(), false, &mut context)
//!     .unwrap();
//! context
//!     .eval(Source::from_bytes(
//!         "globalThis.text = '';
//!          (async () => {
//!              for await (const chunk of stream) text += String.fromCharCode(...chunk);
//!          })();",
//!     ))
//!     .unwrap();
//! context.run_jobs().unwrap();
//! let text = context.eval(Source::from_bytes("text")).unwrap();
//! assert_eq!(text.as_string().unwrap().to_std_string_escaped(), "hello, world");
//! ```

use std::cell::RefCell;

use boa_engine::{Context, JsObject, JsResult, JsValue};
use boa_gc::{Finalize, Gc, Trace};
use bytes::Bytes;

pub use crate::readable::{
    readable_stream_default_controller_close, readable_stream_default_controller_enqueue,
    readable_stream_default_controller_error, readable_stream_default_controller_get_desired_size,
    NativeSource, ReadableByteStreamController, ReadableStream, ReadableStreamDefaultController,
    StreamController,
};
pub use crate::writable::NativeSink;
pub use boa_webidl::promise::{Completion, RustPromise, Settlement};

mod byte_source;

pub use byte_source::{
    io_error, native_readable_byte_stream, ByobRequest, ByteController, ByteSource,
    ByteStreamOptions,
};

use crate::readable::{
    create_readable_stream, is_readable_stream_locked, NativeSourceBox, SourceAlgorithms,
    StartAlgorithm,
};
use crate::strategies::SizeAlgorithm;
use crate::writable::{create_writable_stream, SinkAlgorithms};

mod consumer;
mod driver;
mod io;
#[cfg(feature = "tokio")]
pub mod tokio;

pub use consumer::{
    chunk_to_bytes, ChunkStream, ReadResult, StreamFuture, StreamReader, StreamWriter,
};
pub use driver::{
    block_on, pending_tasks, poll_tasks, run_until_idle, spawn_future, SpawnedFuture, TaskProgress,
};
pub use io::{
    readable_stream_from_async_read, readable_stream_from_async_read_with_high_water_mark,
    readable_stream_from_stream, readable_stream_from_stream_with_high_water_mark,
    writable_stream_from_async_write, writable_stream_from_async_write_with_flush,
    writable_stream_from_sink, FlushPolicy,
};

/// A new `ReadableStream` whose underlying source is `source`, with high water mark
/// `high_water_mark` (counted in chunks; non-negative) and no start step
/// ([CreateReadableStream](https://streams.spec.whatwg.org/#create-readable-stream) with the
/// source's pull and cancel algorithms). The stream pulls as soon as its queue is below the
/// high water mark.
pub fn native_readable_stream(
    source: impl NativeSource + 'static,
    high_water_mark: f64,
    ctx: &mut Context,
) -> JsResult<JsObject<ReadableStream>> {
    create_readable_stream(
        StartAlgorithm::ReturnUndefined,
        SourceAlgorithms::Native(Gc::new(NativeSourceBox(Box::new(source)))),
        Some(high_water_mark),
        None,
        ctx,
    )
}

/// A new `WritableStream` whose underlying sink is `sink`, with high water mark
/// `high_water_mark` (counted in chunks; non-negative)
/// ([CreateWritableStream](https://streams.spec.whatwg.org/#create-writable-stream) with the
/// sink's start, write, close and abort algorithms). Throws iff the sink's `start` throws.
pub fn native_writable_stream(
    sink: impl NativeSink,
    high_water_mark: f64,
    ctx: &mut Context,
) -> JsResult<JsObject> {
    let (stream, _) = create_writable_stream(
        SinkAlgorithms::native(sink),
        high_water_mark,
        SizeAlgorithm::ReturnOne,
        ctx,
    )?;
    Ok(stream)
}

/// [Is a ReadableStream locked](https://streams.spec.whatwg.org/#readablestream-locked) (the
/// spec's operation for other specifications): whether a reader holds `stream`.
pub fn readable_stream_is_locked(stream: &JsObject<ReadableStream>) -> bool {
    is_readable_stream_locked(stream)
}

/// [Is a ReadableStream disturbed](https://streams.spec.whatwg.org/#is-readable-stream-disturbed)
/// (the spec's operation for other specifications, e.g. a body that can be read once): whether
/// `stream` was ever read from or cancelled.
pub fn readable_stream_is_disturbed(stream: &JsObject<ReadableStream>) -> bool {
    stream.borrow().data().disturbed()
}

/// A new `Uint8Array` holding a copy of `chunk` in an engine-owned buffer. (Boa's array
/// buffers own aligned blocks, so `Bytes` cannot be adopted without one copy.)
pub fn bytes_to_uint8_array(chunk: &Bytes, ctx: &mut Context) -> JsResult<JsObject> {
    boa_webidl::buffer_source::new_uint8_array(chunk, ctx)
}

/// Enqueue `chunk` as a `Uint8Array` on a default controller
/// (ReadableStreamDefaultControllerEnqueue).
///
/// With the fast paths on, the chunk stays Rust bytes in the queue and becomes its
/// `Uint8Array` only when it reaches script (see the `chunk` module): piped into a
/// [`NativeSink`] it is handed to [`NativeSink::write_bytes`] without a JS object (a clone
/// of `chunk`, no copy). Script sees the same as when the `Uint8Array` is made at once.
pub fn enqueue_bytes(
    controller: &JsObject<ReadableStreamDefaultController>,
    chunk: &Bytes,
    ctx: &mut Context,
) -> JsResult<()> {
    if boa_webidl::fast_paths() {
        return crate::readable::readable_stream_default_controller_enqueue_native(
            controller,
            crate::chunk::Chunk::bytes(chunk.clone(), ctx),
            ctx,
        );
    }
    let view = bytes_to_uint8_array(chunk, ctx)?;
    readable_stream_default_controller_enqueue(controller, view.into(), ctx)
}

/// A `type: "bytes"` `ReadableStream` over the bytes `chunks` yields, pulled on demand (high
/// water mark 0): a default reader gets each chunk as a `Uint8Array` (one copy); a BYOB reader
/// gets them written straight into its buffer, as much as fits per read, the rest kept for
/// the next read ([pull from bytes](https://streams.spec.whatwg.org/#readablestream-pull-from-bytes)).
/// Empty chunks are skipped. It closes when the iterator ends and drops it when cancelled.
pub fn native_byte_stream<I>(chunks: I, ctx: &mut Context) -> JsResult<JsObject<ReadableStream>>
where
    I: Iterator<Item = Bytes> + 'static,
{
    let source = IterSource {
        chunks: RefCell::new(Some(Box::new(chunks))),
        current: RefCell::new(Bytes::new()),
    };
    native_readable_byte_stream(source, ByteStreamOptions::default(), ctx)
}

/// The source behind [`native_byte_stream`].
#[derive(Trace, Finalize)]
struct IterSource {
    // Holds no JS handles.
    #[unsafe_ignore_trace]
    #[allow(clippy::type_complexity)]
    chunks: RefCell<Option<Box<dyn Iterator<Item = Bytes>>>>,
    /// What is left of the chunk a BYOB read took part of.
    #[unsafe_ignore_trace]
    current: RefCell<Bytes>,
}

impl IterSource {
    /// The next non-empty bytes: the rest of the current chunk, else the next non-empty
    /// chunk; `None` at the end. (No borrow outlives the call.)
    fn next_bytes(&self) -> Option<Bytes> {
        let current = self.current.take();
        if !current.is_empty() {
            return Some(current);
        }
        let mut chunks = self.chunks.borrow_mut();
        let next = chunks.as_mut()?.find(|c| !c.is_empty());
        if next.is_none() {
            *chunks = None;
        }
        next
    }
}

impl ByteSource for IterSource {
    fn pull(&self, controller: &ByteController, ctx: &mut Context) -> Completion {
        // The borrows end before the controller calls, which can run script (resolving a
        // pending read performs Get(result, "then")).
        let Some(bytes) = self.next_bytes() else {
            let closed = controller.close(ctx);
            return Completion::from_result(closed, ctx);
        };
        let result = match controller.byob_request() {
            // Pull from bytes: write the first min(available, view length) bytes into the
            // current BYOB request view and respond; keep the rest.
            Some(request) => {
                let n = bytes.len().min(request.remaining);
                *self.current.borrow_mut() = bytes.slice(n..);
                controller
                    .fill(
                        |view| match (view.get_mut(..n), bytes.get(..n)) {
                            (Some(to), Some(from)) => {
                                to.copy_from_slice(from);
                                n
                            }
                            _ => 0,
                        },
                        ctx,
                    )
                    .map(drop)
            }
            // Otherwise enqueue them all as a new Uint8Array.
            None => controller.enqueue(&bytes, ctx),
        };
        Completion::from_result(result, ctx)
    }

    fn cancel(&self, _reason: JsValue, _ctx: &mut Context) -> Completion {
        *self.chunks.borrow_mut() = None;
        *self.current.borrow_mut() = Bytes::new();
        Completion::undefined()
    }
}

#[cfg(test)]
mod tests;
