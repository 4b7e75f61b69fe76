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

use crate::promise::Completion;
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
mod tests {
    use super::*;
    use crate::test_support::{context, string};

    #[test]
    fn a_native_byte_stream_reads_back_in_js() {
        let mut ctx = context();
        let chunks = vec![
            Bytes::from_static(b"hello, "),
            Bytes::from_static(b""),
            Bytes::from(vec![0xe2, 0x9c, 0x93]),
        ];
        let stream = native_byte_stream(chunks.into_iter(), &mut ctx).unwrap();
        let global = ctx.global_object();
        global
            .set(
                boa_engine::js_string!("nativeStream"),
                JsValue::from(stream.upcast()),
                false,
                &mut ctx,
            )
            .unwrap();
        crate::test_support::eval(
            &mut ctx,
            r#"
            globalThis.out = [];
            (async () => {
              let last;
              for await (const c of nativeStream) {
                out.push(c.constructor.name + ':' + c.length);
                last = c;
              }
              out.push(Array.from(last, (b) => b.toString(16)).join(''));
            })();
            "#,
        );
        ctx.run_jobs().unwrap();
        assert_eq!(
            string(&mut ctx, "out.join()"),
            "Uint8Array:7,Uint8Array:0,Uint8Array:3,e29c93"
        );
    }

    #[test]
    fn cancel_drops_the_iterator() {
        let mut ctx = context();
        let stream = native_byte_stream(
            std::iter::repeat_n(Bytes::from_static(b"x"), 1_000_000),
            &mut ctx,
        )
        .unwrap();
        ctx.global_object()
            .set(
                boa_engine::js_string!("s"),
                JsValue::from(stream.upcast()),
                false,
                &mut ctx,
            )
            .unwrap();
        crate::test_support::eval(
            &mut ctx,
            r#"
            globalThis.n = 0;
            (async () => { for await (const c of s) { if (++n === 3) break; } })();
            "#,
        );
        ctx.run_jobs().unwrap();
        assert_eq!(string(&mut ctx, "n + ':' + s.locked"), "3:false");
    }
}
