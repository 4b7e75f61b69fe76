//! [`TextDecoderStream`](https://encoding.spec.whatwg.org/#interface-textdecoderstream): a
//! `TransformStream` set up from Rust whose transform and flush algorithms run "decode and
//! enqueue a chunk" and "flush and enqueue" with the [`DecoderCommon`] state it shares with
//! `TextDecoder`.

use boa_engine::{
    class::{Class, ClassBuilder},
    property::Attribute,
    Context, JsData, JsObject, JsResult, JsString, JsValue,
};
use boa_gc::{Finalize, GcRefCell, Trace};

use boa_streams::spec::{
    generic_transform_stream, transform_stream_set_up, GenericTransformStream, RustTransformer,
    TransformStream, TransformStreamDefaultController,
};
use boa_webidl::{self as webidl, Member, INTERFACE_ATTRIBUTES};

use crate::decoder::{self, text_decoder_common, DecodeError, DecoderCommon, TextDecoderCommon};
use crate::transform::{enqueue, state_as};

/// A `TextDecoderStream` object's state.
#[derive(Trace, Finalize, JsData)]
pub struct TextDecoderStream {
    /// The `TextDecoderCommon` state (encoding, error mode, ignore BOM, decoder, I/O queue).
    #[unsafe_ignore_trace]
    common: DecoderCommon,
    /// [transform](https://streams.spec.whatwg.org/#generictransformstream-transform).
    transform: GcRefCell<Option<JsObject<TransformStream>>>,
}

impl std::fmt::Debug for TextDecoderStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TextDecoderStream")
            .field("common", &self.common)
            .finish_non_exhaustive()
    }
}

fn decoder_data<R>(
    stream: &JsObject<TextDecoderStream>,
    f: impl FnOnce(&TextDecoderStream) -> R,
) -> R {
    f(stream.borrow().data())
}

/// [Decode and enqueue a chunk](https://encoding.spec.whatwg.org/#decode-and-enqueue-a-chunk)
fn decode_and_enqueue_a_chunk(
    decoder: &JsObject<TextDecoderStream>,
    chunk: &JsValue,
    controller: &JsObject<TransformStreamDefaultController>,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. Let bufferSource be the result of converting chunk to an AllowSharedBufferSource.
    // 2. Push a copy of bufferSource to decoder's I/O queue.
    let bytes = boa_webidl::buffer_source::copy_bytes_of_allow_shared_buffer_source(chunk, ctx)?;
    decode_and_enqueue_bytes(decoder, &bytes, controller, ctx)
}

/// Steps 3-4 of [decode and enqueue a chunk](https://encoding.spec.whatwg.org/#decode-and-enqueue-a-chunk),
/// given the bytes pushed to decoder's I/O queue.
fn decode_and_enqueue_bytes(
    decoder: &JsObject<TextDecoderStream>,
    bytes: &[u8],
    controller: &JsObject<TransformStreamDefaultController>,
    ctx: &mut Context,
) -> JsResult<()> {
    // 3. Let output be the I/O queue of scalar values « end-of-queue ».
    // 4. While true:
    //   1. Let item be the result of reading from decoder's I/O queue.
    //   2. If item is end-of-queue:
    //     1. Let outputChunk be the result of running serialize I/O queue with decoder and
    //        output.
    //     2. If outputChunk is not the empty string, then enqueue outputChunk in decoder's
    //        transform.
    //     3. Return.
    //   3. Let result be the result of processing an item with item, decoder's decoder,
    //      decoder's I/O queue, output, and decoder's error mode.
    //   4. If result is error, then throw a TypeError.
    let output = decoder_data(decoder, |d| d.common.decode(bytes, false))
        .map_err(DecodeError::into_type_error)?;
    if !output.is_empty() {
        enqueue(controller, JsString::from(output.as_slice()).into(), ctx)?;
    }
    Ok(())
}

/// [Flush and enqueue](https://encoding.spec.whatwg.org/#flush-and-enqueue)
fn flush_and_enqueue(
    decoder: &JsObject<TextDecoderStream>,
    controller: &JsObject<TransformStreamDefaultController>,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. Let output be the I/O queue of scalar values « end-of-queue ».
    // 2. While true:
    //   1. Let item be the result of reading from decoder's I/O queue.
    //   2. Let result be the result of processing an item with item, decoder's decoder,
    //      decoder's I/O queue, output, and decoder's error mode.
    //   3. If result is finished:
    //     1. Let outputChunk be the result of running serialize I/O queue with decoder and
    //        output.
    //     2. If outputChunk is not the empty string, then enqueue outputChunk in decoder's
    //        transform.
    //     3. Return.
    //   4. Otherwise, if result is error, throw a TypeError.
    let output = decoder_data(decoder, |d| d.common.decode(&[], true))
        .map_err(DecodeError::into_type_error)?;
    if !output.is_empty() {
        enqueue(controller, JsString::from(output.as_slice()).into(), ctx)?;
    }
    Ok(())
}

impl TextDecoderCommon for TextDecoderStream {
    const INTERFACE: &'static str = "TextDecoderStream";

    fn common(&self) -> &DecoderCommon {
        &self.common
    }
}

impl GenericTransformStream for TextDecoderStream {
    const INTERFACE: &'static str = "TextDecoderStream";

    fn transform(&self) -> Option<JsObject<TransformStream>> {
        self.transform.borrow().clone()
    }
}

impl Class for TextDecoderStream {
    const NAME: &'static str = "TextDecoderStream";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        // TextDecoderStream includes TextDecoderCommon, then GenericTransformStream.
        let [encoding, fatal, ignore_bom] = text_decoder_common::<Self>();
        let [readable, writable] = generic_transform_stream::<Self>();
        webidl::define(
            class,
            &[
                encoding,
                fatal,
                ignore_bom,
                readable,
                writable,
                Member::to_string_tag("TextDecoderStream"),
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
            // IDL layer and steps 1-5 (see decoder::construct_common).
            // 6. Set this's decoder to a new instance of this's encoding's decoder, and set this's
            //    I/O queue to a new I/O queue.
            Ok(Self {
                common: decoder::construct_common(args, ctx)?,
                transform: GcRefCell::new(None),
            })
        })())
    }

    fn object_constructor(
        instance: &JsObject<Self>,
        _args: &[JsValue],
        ctx: &mut Context,
    ) -> JsResult<()> {
        // Engine runtime-limit errors of the user code run here become catchable RangeErrors.
        boa_webidl::limits_catchable((|| -> JsResult<()> {
            // 7. Let transformAlgorithm be an algorithm which takes a chunk argument and runs the
            //    decode and enqueue a chunk algorithm with this and chunk. (decoder_transform)
            // 8. Let flushAlgorithm be an algorithm which takes no arguments and runs the flush
            //    and enqueue algorithm with this. (decoder_flush)
            // 9. Let transformStream be a new TransformStream.
            // 10. Set up transformStream with transformAlgorithm set to transformAlgorithm and
            //     flushAlgorithm set to flushAlgorithm.
            let stream = transform_stream_set_up(
                instance.clone().upcast().into(),
                RustTransformer {
                    transform: decoder_transform,
                    transform_bytes: Some(decoder_transform_bytes),
                    flush: decoder_flush,
                },
                ctx,
            )?;
            // 11. Set this's transform to transformStream.
            *instance.borrow().data().transform.borrow_mut() = Some(stream);
            Ok(())
        })())
    }
}

/// TextDecoderStream's transformAlgorithm (constructor step 7).
fn decoder_transform(
    state: &JsValue,
    chunk: JsValue,
    controller: &JsObject<TransformStreamDefaultController>,
    ctx: &mut Context,
) -> JsResult<()> {
    let decoder = state_as::<TextDecoderStream>(state)?;
    decode_and_enqueue_a_chunk(&decoder, &chunk, controller, ctx)
}

/// TextDecoderStream's transformAlgorithm for a chunk that is still Rust bytes (a
/// `Uint8Array` not yet made, see [`Chunk`](boa_streams::spec::Chunk)): its bytes without that JS object.
fn decoder_transform_bytes(
    state: &JsValue,
    chunk: bytes::Bytes,
    controller: &JsObject<TransformStreamDefaultController>,
    ctx: &mut Context,
) -> JsResult<()> {
    let decoder = state_as::<TextDecoderStream>(state)?;
    decode_and_enqueue_bytes(&decoder, &chunk, controller, ctx)
}

/// TextDecoderStream's flushAlgorithm (constructor step 8).
fn decoder_flush(
    state: &JsValue,
    controller: &JsObject<TransformStreamDefaultController>,
    ctx: &mut Context,
) -> JsResult<()> {
    let decoder = state_as::<TextDecoderStream>(state)?;
    flush_and_enqueue(&decoder, controller, ctx)
}
