//! Rust API for embedders that feed streams from native data.
//!
//! A native source implements [`crate::readable::NativeSource`] and is installed with
//! [`crate::readable::create_readable_stream`] and
//! [`crate::readable::SourceAlgorithms::Native`]. Its chunks are JS values; byte chunks held as
//! [`bytes::Bytes`] become `Uint8Array`s with [`enqueue_bytes`]. [`native_byte_stream`] wraps
//! any iterator of `Bytes` as a `ReadableStream` pulled on demand.

use std::cell::RefCell;

use boa_engine::{
    object::builtins::{AlignedVec, JsArrayBuffer, JsUint8Array},
    Context, JsObject, JsResult, JsValue,
};
use boa_gc::{Finalize, Gc, Trace};
use bytes::Bytes;

use crate::completion::Completion;
use crate::readable::{
    create_readable_stream, readable_stream_default_controller_close,
    readable_stream_default_controller_enqueue, NativeSource, NativeSourceBox, ReadableStream,
    ReadableStreamDefaultController, SourceAlgorithms, StartAlgorithm,
};

/// A new `Uint8Array` holding a copy of `chunk` in an engine-owned buffer. (Boa's array
/// buffers own aligned blocks, so `Bytes` cannot be adopted without one copy.)
pub fn bytes_to_uint8_array(chunk: &Bytes, ctx: &mut Context) -> JsResult<JsObject> {
    let buffer = JsArrayBuffer::from_byte_block(AlignedVec::from_slice(64, chunk), ctx)?;
    Ok(JsUint8Array::from_array_buffer(buffer, ctx)?.into())
}

/// Enqueue `chunk` as a `Uint8Array` on a default controller
/// (ReadableStreamDefaultControllerEnqueue).
pub fn enqueue_bytes(
    controller: &JsObject<ReadableStreamDefaultController>,
    chunk: &Bytes,
    ctx: &mut Context,
) -> JsResult<()> {
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
    create_readable_stream(
        StartAlgorithm::ReturnUndefined,
        SourceAlgorithms::Native(Gc::new(NativeSourceBox(Box::new(source)))),
        Some(1.0),
        None,
        ctx,
    )
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
    fn pull(
        &self,
        controller: &JsObject<ReadableStreamDefaultController>,
        ctx: &mut Context,
    ) -> Completion {
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
