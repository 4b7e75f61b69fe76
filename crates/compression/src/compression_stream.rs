//! [`CompressionStream`](https://compression.spec.whatwg.org/#compressionstream): a
//! `TransformStream` set up from Rust whose transform and flush algorithms drive a
//! [`Compressor`] kept in Rust-side state.

use std::cell::RefCell;

use boa_engine::{
    class::{Class, ClassBuilder},
    property::Attribute,
    Context, JsData, JsObject, JsResult, JsValue,
};
use boa_gc::{Finalize, Trace};

use boa_streams::spec::{
    generic_transform_stream, transform_stream_set_up, GenericTransformStream, RustTransformer,
    TransformStream, TransformStreamDefaultController,
};
use boa_webidl::{self as webidl, arg, type_error, Member, INTERFACE_ATTRIBUTES};

use crate::compressor::Compressor;
use crate::format::CompressionFormat;
use crate::transform::{buffer_source_bytes, enqueue_pieces};

/// The Rust-side state of a `CompressionStream`'s transform.
#[derive(Trace, Finalize, JsData)]
struct CompressorState {
    #[unsafe_ignore_trace]
    context: RefCell<Compressor>,
}

fn with_compressor<R>(state: &JsValue, f: impl FnOnce(&mut Compressor) -> R) -> JsResult<R> {
    let object = state
        .as_object()
        .and_then(|o| o.clone().downcast::<CompressorState>().ok())
        .ok_or_else(|| type_error("Invalid compression state"))?;
    let data = object.borrow();
    let mut context = data
        .data()
        .context
        .try_borrow_mut()
        .map_err(|_| type_error("The compressor is busy"))?;
    Ok(f(&mut context))
}

/// [Compress and enqueue a chunk](https://compression.spec.whatwg.org/#compress-and-enqueue-a-chunk)
fn compress_and_enqueue_a_chunk(
    state: &JsValue,
    chunk: JsValue,
    controller: &JsObject<TransformStreamDefaultController>,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. If chunk is not a BufferSource type, then throw a TypeError.
    let input = buffer_source_bytes(&chunk, ctx)?;
    compress_and_enqueue_bytes(state, &input, controller, ctx)
}

/// [Compress and enqueue a chunk](https://compression.spec.whatwg.org/#compress-and-enqueue-a-chunk)
/// of Rust bytes (a `Uint8Array` chunk not yet made, see [`Chunk`](boa_streams::spec::Chunk)): a BufferSource.
fn compress_and_enqueue_a_bytes_chunk(
    state: &JsValue,
    chunk: bytes::Bytes,
    controller: &JsObject<TransformStreamDefaultController>,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. (chunk is a Uint8Array's bytes: a BufferSource.)
    compress_and_enqueue_bytes(state, &chunk, controller, ctx)
}

/// Steps 2-5 of [compress and enqueue a chunk](https://compression.spec.whatwg.org/#compress-and-enqueue-a-chunk).
fn compress_and_enqueue_bytes(
    state: &JsValue,
    input: &[u8],
    controller: &JsObject<TransformStreamDefaultController>,
    ctx: &mut Context,
) -> JsResult<()> {
    // 2. Let buffer be the result of compressing chunk with cs's format and context.
    let buffer = with_compressor(state, |c| c.compress(input, false))?.map_err(type_error)?;
    // 3-5. Split buffer into non-empty Uint8Arrays and enqueue them.
    enqueue_pieces(buffer, controller, ctx)
}

/// [Compress flush and enqueue](https://compression.spec.whatwg.org/#compress-flush-and-enqueue)
fn compress_flush_and_enqueue(
    state: &JsValue,
    controller: &JsObject<TransformStreamDefaultController>,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. Let buffer be the result of compressing an empty input with cs's format and context,
    //    with the finish flag.
    let buffer = with_compressor(state, |c| c.compress(&[], true))?.map_err(type_error)?;
    // 2-4. Split buffer into non-empty Uint8Arrays and enqueue them.
    enqueue_pieces(buffer, controller, ctx)
}

/// A `CompressionStream` object's internal slots.
#[derive(Trace, Finalize, JsData)]
pub struct CompressionStream {
    /// `[[transform]]` (GenericTransformStream).
    transform: JsObject<TransformStream>,
}

impl std::fmt::Debug for CompressionStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompressionStream").finish_non_exhaustive()
    }
}

impl GenericTransformStream for CompressionStream {
    const INTERFACE: &'static str = "CompressionStream";

    fn transform(&self) -> Option<JsObject<TransformStream>> {
        Some(self.transform.clone())
    }
}

impl Class for CompressionStream {
    const NAME: &'static str = "CompressionStream";
    const LENGTH: usize = 1;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        // CompressionStream includes GenericTransformStream.
        let [readable, writable] = generic_transform_stream::<Self>();
        webidl::define(
            class,
            &[
                readable,
                writable,
                Member::to_string_tag("CompressionStream"),
            ],
        )
    }

    fn data_constructor(
        _new_target: &JsValue,
        args: &[JsValue],
        ctx: &mut Context,
    ) -> JsResult<Self> {
        // Engine runtime-limit errors of the user code run here become catchable RangeErrors.
        boa_webidl::limits_catchable((|| -> JsResult<Self> {
            if args.is_empty() {
                return Err(type_error(
                    "Failed to construct 'CompressionStream': 1 argument required",
                ));
            }
            // 1. If format is unsupported in CompressionStream, then throw a TypeError.
            // 2. Set this's format to format.
            let format = CompressionFormat::from_value(&arg(args, 0), ctx)?;
            let state = JsObject::from_proto_and_data(
                None,
                CompressorState {
                    context: RefCell::new(Compressor::new(format)),
                },
            );
            // 3. Let transformAlgorithm be an algorithm which takes a chunk argument and runs the
            //    compress and enqueue a chunk algorithm with this and chunk.
            // 4. Let flushAlgorithm be an algorithm which takes no argument and runs the compress
            //    flush and enqueue algorithm with this.
            // 5. Set this's transform to a new TransformStream.
            // 6. Set up this's transform with transformAlgorithm set to transformAlgorithm and
            //    flushAlgorithm set to flushAlgorithm.
            let transform = transform_stream_set_up(
                state.upcast().into(),
                RustTransformer {
                    transform: compress_and_enqueue_a_chunk,
                    transform_bytes: Some(compress_and_enqueue_a_bytes_chunk),
                    flush: compress_flush_and_enqueue,
                },
                ctx,
            )?;
            Ok(Self { transform })
        })())
    }
}
