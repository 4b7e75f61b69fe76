//! [`DecompressionStream`](https://compression.spec.whatwg.org/#decompressionstream): a
//! `TransformStream` set up from Rust whose transform and flush algorithms drive a
//! [`Decompressor`] kept in Rust-side state.

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

use crate::decompressor::{Decompressor, TRAILING_DATA};
use crate::format::CompressionFormat;
use crate::transform::{buffer_source_bytes, enqueue_pieces};

/// The Rust-side state of a `DecompressionStream`'s transform.
#[derive(Trace, Finalize, JsData)]
struct DecompressorState {
    #[unsafe_ignore_trace]
    context: RefCell<Decompressor>,
}

fn with_decompressor<R>(state: &JsValue, f: impl FnOnce(&mut Decompressor) -> R) -> JsResult<R> {
    let object = state
        .as_object()
        .and_then(|o| o.clone().downcast::<DecompressorState>().ok())
        .ok_or_else(|| type_error("Invalid decompression state"))?;
    let data = object.borrow();
    let mut context = data
        .data()
        .context
        .try_borrow_mut()
        .map_err(|_| type_error("The decompressor is busy"))?;
    Ok(f(&mut context))
}

/// [Decompress and enqueue a chunk](https://compression.spec.whatwg.org/#decompress-and-enqueue-a-chunk)
fn decompress_and_enqueue_a_chunk(
    state: &JsValue,
    chunk: JsValue,
    controller: &JsObject<TransformStreamDefaultController>,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. If chunk is not a BufferSource type, then throw a TypeError.
    let input = buffer_source_bytes(&chunk, ctx)?;
    decompress_and_enqueue_bytes(state, &input, controller, ctx)
}

/// [Decompress and enqueue a chunk](https://compression.spec.whatwg.org/#decompress-and-enqueue-a-chunk)
/// of Rust bytes (a `Uint8Array` chunk not yet made, see [`Chunk`](boa_streams::spec::Chunk)): a BufferSource.
fn decompress_and_enqueue_a_bytes_chunk(
    state: &JsValue,
    chunk: bytes::Bytes,
    controller: &JsObject<TransformStreamDefaultController>,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. (chunk is a Uint8Array's bytes: a BufferSource.)
    decompress_and_enqueue_bytes(state, &chunk, controller, ctx)
}

/// Steps 2-5 of [decompress and enqueue a chunk](https://compression.spec.whatwg.org/#decompress-and-enqueue-a-chunk).
fn decompress_and_enqueue_bytes(
    state: &JsValue,
    input: &[u8],
    controller: &JsObject<TransformStreamDefaultController>,
    ctx: &mut Context,
) -> JsResult<()> {
    // 2. Let buffer be the result of decompressing chunk with ds's format and context. If this
    //    results in an error, then throw a TypeError.
    // NOTE: the output of the whole chunk is produced (as bounded pieces) before any of it is
    // enqueued, so corrupt data anywhere in the chunk enqueues nothing, as the spec's order
    // requires (a pending read would otherwise observe the pieces before the error).
    let (buffer, fully_consumed) =
        with_decompressor(state, |d| d.decompress_chunk(input))?.map_err(type_error)?;
    // 3-4. Split buffer into non-empty Uint8Arrays and enqueue them.
    enqueue_pieces(buffer, controller, ctx)?;
    // 5. If the end of the compressed input has been reached, and ds's context has not fully
    //    consumed chunk, then throw a TypeError.
    if !fully_consumed {
        return Err(type_error(TRAILING_DATA));
    }
    Ok(())
}

/// [Decompress flush and enqueue](https://compression.spec.whatwg.org/#decompress-flush-and-enqueue)
fn decompress_flush_and_enqueue(
    state: &JsValue,
    _controller: &JsObject<TransformStreamDefaultController>,
    _ctx: &mut Context,
) -> JsResult<()> {
    // 1. Let buffer be the result of decompressing an empty input with ds's format and
    //    context, with the finish flag.
    // 2. If the end of the compressed input has not been reached, then throw a TypeError.
    with_decompressor(state, Decompressor::finish)?.map_err(type_error)?;
    // 3-5. Split buffer into non-empty Uint8Arrays and enqueue them.
    // NOTE: buffer is always empty: every byte the input decodes to was produced and
    // enqueued by the transform algorithm (inflating consumes all input it is given).
    Ok(())
}

/// A `DecompressionStream` object's internal slots.
#[derive(Trace, Finalize, JsData)]
pub struct DecompressionStream {
    /// `[[transform]]` (GenericTransformStream).
    transform: JsObject<TransformStream>,
}

impl std::fmt::Debug for DecompressionStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DecompressionStream")
            .finish_non_exhaustive()
    }
}

impl GenericTransformStream for DecompressionStream {
    const INTERFACE: &'static str = "DecompressionStream";

    fn transform(&self) -> Option<JsObject<TransformStream>> {
        Some(self.transform.clone())
    }
}

impl Class for DecompressionStream {
    const NAME: &'static str = "DecompressionStream";
    const LENGTH: usize = 1;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        // DecompressionStream includes GenericTransformStream.
        let [readable, writable] = generic_transform_stream::<Self>();
        webidl::define(
            class,
            &[
                readable,
                writable,
                Member::to_string_tag("DecompressionStream"),
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
                    "Failed to construct 'DecompressionStream': 1 argument required",
                ));
            }
            // 1. If format is unsupported in DecompressionStream, then throw a TypeError.
            // 2. Set this's format to format.
            let format = CompressionFormat::from_value(&arg(args, 0), ctx)?;
            let state = JsObject::from_proto_and_data(
                None,
                DecompressorState {
                    context: RefCell::new(Decompressor::new(format)),
                },
            );
            // 3. Let transformAlgorithm be an algorithm which takes a chunk argument and runs the
            //    decompress and enqueue a chunk algorithm with this and chunk.
            // 4. Let flushAlgorithm be an algorithm which takes no argument and runs the
            //    decompress flush and enqueue algorithm with this.
            // 5. Set this's transform to a new TransformStream.
            // 6. Set up this's transform with transformAlgorithm set to transformAlgorithm and
            //    flushAlgorithm set to flushAlgorithm.
            let transform = transform_stream_set_up(
                state.upcast().into(),
                RustTransformer {
                    transform: decompress_and_enqueue_a_chunk,
                    transform_bytes: Some(decompress_and_enqueue_a_bytes_chunk),
                    flush: decompress_flush_and_enqueue,
                },
                ctx,
            )?;
            Ok(Self { transform })
        })())
    }
}
