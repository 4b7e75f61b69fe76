//! The Rust API for embedders that feed streams from native data or consume them into native
//! sinks, without writing JS.
//!
//! - A **source**: implement [`NativeSource`] (`pull` enqueues through
//!   [`readable_stream_default_controller_enqueue`] / closes through
//!   [`readable_stream_default_controller_close`]; `cancel` drops what the source holds) and
//!   create the stream with [`native_readable_stream`]. Byte chunks held as [`bytes::Bytes`]
//!   become `Uint8Array`s with [`enqueue_bytes`] / [`bytes_to_uint8_array`], and
//!   [`native_byte_stream`] wraps any iterator of `Bytes` as a `ReadableStream` pulled on
//!   demand.
//! - A **sink**: implement [`NativeSink`] (`write` each chunk, then `close` or `abort`) and
//!   create the stream with [`native_writable_stream`].
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

use boa_engine::{
    object::builtins::{AlignedVec, JsArrayBuffer, JsUint8Array},
    Context, JsObject, JsResult, JsValue,
};
use boa_gc::{Finalize, Gc, Trace};
use bytes::Bytes;

pub use crate::promise::{Completion, RustPromise, Settlement};
pub use crate::readable::{
    readable_stream_default_controller_close, readable_stream_default_controller_enqueue,
    readable_stream_default_controller_error, readable_stream_default_controller_get_desired_size,
    NativeSource, ReadableStream, ReadableStreamDefaultController, StreamController,
};
pub use crate::writable::NativeSink;

use crate::readable::{
    create_readable_stream, is_readable_stream_locked, NativeSourceBox, SourceAlgorithms,
    StartAlgorithm,
};
use crate::strategies::SizeAlgorithm;
use crate::writable::{create_writable_stream, SinkAlgorithms};

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
    let buffer = JsArrayBuffer::from_byte_block(AlignedVec::from_slice(64, chunk), ctx)?;
    Ok(JsUint8Array::from_array_buffer(buffer, ctx)?.into())
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
    if crate::fast_paths() {
        return crate::readable::readable_stream_default_controller_enqueue_native(
            controller,
            crate::chunk::Chunk::bytes(chunk.clone(), ctx),
            ctx,
        );
    }
    let view = bytes_to_uint8_array(chunk, ctx)?;
    readable_stream_default_controller_enqueue(controller, view.into(), ctx)
}

/// A `ReadableStream` whose chunks are the `Uint8Array` copies of what `chunks` yields, one per
/// pull (high water mark 1); it closes when the iterator ends and drops it when cancelled.
pub fn native_byte_stream<I>(chunks: I, ctx: &mut Context) -> JsResult<JsObject<ReadableStream>>
where
    I: Iterator<Item = Bytes> + 'static,
{
    let source = IterSource {
        chunks: RefCell::new(Some(Box::new(chunks))),
    };
    native_readable_stream(source, 1.0, ctx)
}

/// The source behind [`native_byte_stream`].
#[derive(Trace, Finalize)]
struct IterSource {
    // Holds no JS handles.
    #[unsafe_ignore_trace]
    #[allow(clippy::type_complexity)]
    chunks: RefCell<Option<Box<dyn Iterator<Item = Bytes>>>>,
}

impl NativeSource for IterSource {
    fn pull(&self, controller: &StreamController, ctx: &mut Context) -> Completion {
        // `native_byte_stream` installs this source behind a default controller.
        let Some(controller) = controller.clone().into_default() else {
            return Completion::undefined();
        };
        let controller = &controller;
        // The borrow ends before enqueue, which can run script (resolving a pending read
        // performs Get(result, "then")).
        let next = self.chunks.borrow_mut().as_mut().and_then(Iterator::next);
        let result = match next {
            Some(chunk) => enqueue_bytes(controller, &chunk, ctx),
            None => {
                *self.chunks.borrow_mut() = None;
                readable_stream_default_controller_close(controller, ctx);
                Ok(())
            }
        };
        match result {
            Ok(()) => Completion::undefined(),
            Err(e) => Completion::Rejected(crate::webidl::own_error_value(e, ctx)),
        }
    }

    fn cancel(&self, _reason: JsValue, _ctx: &mut Context) -> Completion {
        *self.chunks.borrow_mut() = None;
        Completion::undefined()
    }
}

#[cfg(test)]
mod tests;
