//! # boa_encoding
//!
//! The Encoding Standard's streams ([§ 7.3 and § 7.4 of the Encoding Standard](https://encoding.spec.whatwg.org/#interface-textdecoderstream)):
//! `TextDecoderStream` and `TextEncoderStream`.
//!
//! Each object owns a `TransformStream` [set up](https://streams.spec.whatwg.org/#transformstream-set-up)
//! from Rust ([`transform_stream_set_up`]) whose transform and flush algorithms are native
//! functions running the "decode and enqueue a chunk" / "flush and enqueue" and "encode and
//! enqueue a chunk" / "encode and flush" algorithms. Labels and decoders come from
//! `encoding_rs`, which implements the Encoding Standard's encodings; the encoder (UTF-8 only)
//! is written here, with the pending leading surrogate carried between chunks.

#![warn(missing_docs)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

use std::cell::Cell;

use boa_engine::{
    class::{Class, ClassBuilder},
    object::builtins::{AlignedVec, JsUint8Array},
    property::Attribute,
    Context, JsData, JsObject, JsResult, JsString, JsValue, NativeFunction,
};
use boa_gc::{Finalize, GcRefCell, Trace};

mod api;
mod decoder;

pub use api::{TextDecoder, TextEncoder};
use decoder::{DecodeError, DecoderCommon};

use boa_streams::spec::{
    transform_stream_default_controller_enqueue, transform_stream_set_up, RustTransformer,
    TransformStream, TransformStreamDefaultController,
};
use boa_webidl::{self as webidl, brand, to_dom_string, type_error, INTERFACE_ATTRIBUTES};

/// Register TextEncoder, TextDecoder, TextEncoderStream, TextDecoderStream on the context's current realm, after what they depend on (registered
/// first if it is not there yet). Registering twice does nothing the second time.
pub fn register(context: &mut Context) -> JsResult<()> {
    if !boa_webidl::first_registration::<Registered>(context) {
        return Ok(());
    }
    boa_streams::register(context)?;
    webidl::register_interface::<TextDecoder>(context)?;
    webidl::register_interface::<TextEncoder>(context)?;
    webidl::register_interface::<TextDecoderStream>(context)?;
    webidl::register_interface::<TextEncoderStream>(context)?;
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Shared pieces
// ---------------------------------------------------------------------------------------

/// `this.[[transform]].[[readable]]` / `[[writable]]` for a `GenericTransformStream`.
fn generic_side(transform: Option<JsObject<TransformStream>>, readable: bool) -> JsValue {
    let Some(transform) = transform else {
        return JsValue::undefined();
    };
    let side = {
        let b = transform.borrow();
        if readable {
            b.data().readable().map(|r| JsValue::from(r.upcast()))
        } else {
            b.data().writable().map(JsValue::from)
        }
    };
    side.unwrap_or_default()
}

/// The decoder or encoder a transform stream's Rust algorithms were set up with.
fn state_as<T: boa_engine::NativeObject>(state: &JsValue) -> JsResult<JsObject<T>> {
    state
        .as_object()
        .and_then(|o| o.clone().downcast::<T>().ok())
        .ok_or_else(|| type_error("transform state is not the expected stream"))
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
/// `Uint8Array` not yet made, see [`crate::chunk`]): its bytes without that JS object.
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

/// TextEncoderStream's transformAlgorithm (constructor step 2).
fn encoder_transform(
    state: &JsValue,
    chunk: JsValue,
    controller: &JsObject<TransformStreamDefaultController>,
    ctx: &mut Context,
) -> JsResult<()> {
    let encoder = state_as::<TextEncoderStream>(state)?;
    encode_and_enqueue_a_chunk(&encoder, &chunk, controller, ctx)
}

/// TextEncoderStream's flushAlgorithm (constructor step 3).
fn encoder_flush(
    state: &JsValue,
    controller: &JsObject<TransformStreamDefaultController>,
    ctx: &mut Context,
) -> JsResult<()> {
    let encoder = state_as::<TextEncoderStream>(state)?;
    encode_and_flush(&encoder, controller, ctx)
}

/// [Enqueue](https://streams.spec.whatwg.org/#transformstream-enqueue) `chunk` into the
/// `TransformStream` whose controller is `controller`.
fn enqueue(
    controller: &JsObject<TransformStreamDefaultController>,
    chunk: JsValue,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. Perform ? TransformStreamDefaultControllerEnqueue(stream.[[controller]], chunk).
    transform_stream_default_controller_enqueue(controller, chunk, ctx)
}

// ---------------------------------------------------------------------------------------
// TextDecoderStream
// ---------------------------------------------------------------------------------------

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

impl Class for TextDecoderStream {
    const NAME: &'static str = "TextDecoderStream";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        const NAME: &str = "TextDecoderStream";
        webidl::attribute(
            class,
            "encoding",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let s = brand::<TextDecoderStream>(this, NAME)?;
                // The encoding getter steps are to return this's encoding's name, in ASCII
                // lowercase.
                Ok(decoder_data(&s, |d| d.common.encoding_name()).into())
            }),
            None,
        );
        webidl::attribute(
            class,
            "fatal",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let s = brand::<TextDecoderStream>(this, NAME)?;
                // The fatal getter steps are to return true if this's error mode is "fatal",
                // otherwise false.
                Ok(decoder_data(&s, |d| d.common.fatal()).into())
            }),
            None,
        );
        webidl::attribute(
            class,
            "ignoreBOM",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let s = brand::<TextDecoderStream>(this, NAME)?;
                // The ignoreBOM getter steps are to return this's ignore BOM.
                Ok(decoder_data(&s, |d| d.common.ignore_bom()).into())
            }),
            None,
        );
        webidl::attribute(
            class,
            "readable",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let s = brand::<TextDecoderStream>(this, NAME)?;
                // The readable getter steps are to return this's transform.[[readable]].
                Ok(generic_side(
                    decoder_data(&s, |d| d.transform.borrow().clone()),
                    true,
                ))
            }),
            None,
        );
        webidl::attribute(
            class,
            "writable",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let s = brand::<TextDecoderStream>(this, NAME)?;
                // The writable getter steps are to return this's transform.[[writable]].
                Ok(generic_side(
                    decoder_data(&s, |d| d.transform.borrow().clone()),
                    false,
                ))
            }),
            None,
        );
        webidl::to_string_tag(class, NAME);
        Ok(())
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

// ---------------------------------------------------------------------------------------
// TextEncoderStream
// ---------------------------------------------------------------------------------------

/// A `TextEncoderStream` object's state.
#[derive(Trace, Finalize, JsData)]
pub struct TextEncoderStream {
    /// [leading surrogate](https://encoding.spec.whatwg.org/#textencoderstream-pending-high-surrogate)
    /// (`None` = null).
    #[unsafe_ignore_trace]
    leading_surrogate: Cell<Option<u16>>,
    /// [transform](https://streams.spec.whatwg.org/#generictransformstream-transform).
    transform: GcRefCell<Option<JsObject<TransformStream>>>,
}

impl std::fmt::Debug for TextEncoderStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TextEncoderStream").finish_non_exhaustive()
    }
}

fn is_leading_surrogate(unit: u16) -> bool {
    (0xD800..=0xDBFF).contains(&unit)
}

fn is_trailing_surrogate(unit: u16) -> bool {
    (0xDC00..=0xDFFF).contains(&unit)
}

/// What [convert code unit to scalar value](https://encoding.spec.whatwg.org/#convert-code-unit-to-scalar-value)
/// returns.
enum Converted {
    Continue,
    Scalar(char),
    /// U+FFFD, with `item` restored to the I/O queue.
    ReplacementAndRestore,
}

impl TextEncoderStream {
    /// [Convert code unit to scalar value](https://encoding.spec.whatwg.org/#convert-code-unit-to-scalar-value)
    fn convert_code_unit_to_scalar_value(&self, item: u16) -> Converted {
        // 1. If encoder's leading surrogate is non-null:
        if let Some(leading) = self.leading_surrogate.get() {
            //   1. Let leadingSurrogate be encoder's leading surrogate.
            //   2. Set encoder's leading surrogate to null.
            self.leading_surrogate.set(None);
            //   3. If item is a trailing surrogate, then return a scalar value from surrogates
            //      given leadingSurrogate and item.
            if is_trailing_surrogate(item) {
                let scalar =
                    0x10000 + ((u32::from(leading) - 0xD800) << 10) + (u32::from(item) - 0xDC00);
                return Converted::Scalar(char::from_u32(scalar).unwrap_or('\u{FFFD}'));
            }
            //   4. Restore item to ioQueue.
            //   5. Return U+FFFD.
            return Converted::ReplacementAndRestore;
        }
        // 2. If item is a leading surrogate, then set encoder's leading surrogate to item and
        //    return continue.
        if is_leading_surrogate(item) {
            self.leading_surrogate.set(Some(item));
            return Converted::Continue;
        }
        // 3. If item is a trailing surrogate, then return U+FFFD.
        if is_trailing_surrogate(item) {
            return Converted::Scalar('\u{FFFD}');
        }
        // 4. Return item.
        Converted::Scalar(char::from_u32(u32::from(item)).unwrap_or('\u{FFFD}'))
    }

    /// Steps 2-4 of [encode and enqueue a chunk](https://encoding.spec.whatwg.org/#encode-and-enqueue-a-chunk)
    /// up to the byte sequence (UTF-8 encoder, which never returns error).
    fn encode_code_units(&self, input: impl IntoIterator<Item = u16>) -> Vec<u8> {
        // 2. Convert input to an I/O queue of code units.
        // 3. Let output be the I/O queue of bytes « end-of-queue ».
        let mut output = Vec::new();
        let push = |c: char, output: &mut Vec<u8>| {
            let mut buf = [0u8; 4];
            output.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        };
        // 4. While true:
        //   1. Let item be the result of reading from input.
        for item in input {
            //   3. Let result be the result of executing the convert code unit to scalar
            //      value algorithm with encoder, item and input.
            //   4. If result is not continue, then process an item with result, encoder's
            //      encoder, input, output, and "fatal".
            // NOTE: a restored item is converted again at once (the leading surrogate is null
            // by then, so it yields a scalar value or continue).
            match self.convert_code_unit_to_scalar_value(item) {
                Converted::Continue => {}
                Converted::Scalar(c) => push(c, &mut output),
                Converted::ReplacementAndRestore => {
                    push('\u{FFFD}', &mut output);
                    match self.convert_code_unit_to_scalar_value(item) {
                        Converted::Scalar(c) => push(c, &mut output),
                        Converted::Continue | Converted::ReplacementAndRestore => {}
                    }
                }
            }
        }
        //   2. If item is end-of-queue: convert output into a byte sequence (the caller
        //      enqueues it).
        output
    }
}

fn encoder_data<R>(
    stream: &JsObject<TextEncoderStream>,
    f: impl FnOnce(&TextEncoderStream) -> R,
) -> R {
    f(stream.borrow().data())
}

/// A `Uint8Array` over a new ArrayBuffer holding `bytes`, in the current realm.
fn create_uint8_array(bytes: &[u8], ctx: &mut Context) -> JsResult<JsValue> {
    let buffer = boa_webidl::gc_pressure::new_array_buffer(AlignedVec::from_slice(0, bytes), ctx)?;
    Ok(JsUint8Array::from_array_buffer(buffer, ctx)?.into())
}

/// Create the `Uint8Array` of `bytes` and enqueue it into the encoder's transform.
// NOTE: with fast paths on the bytes stay Rust bytes in the readable side's queue and become
// that `Uint8Array` (in the same realm, running no JS) only when they reach script (see
// crate::chunk); a pipe into a native sink takes them without the JS object. Nothing can
// observe when the object is made.
fn enqueue_encoded(
    controller: &JsObject<TransformStreamDefaultController>,
    bytes: Vec<u8>,
    ctx: &mut Context,
) -> JsResult<()> {
    if boa_webidl::fast_paths() {
        let chunk = boa_streams::spec::Chunk::bytes(bytes::Bytes::from(bytes), ctx);
        return boa_streams::spec::transform_stream_default_controller_enqueue_chunk(
            controller, chunk, ctx,
        );
    }
    let chunk = create_uint8_array(&bytes, ctx)?;
    enqueue(controller, chunk, ctx)
}

/// [Encode and enqueue a chunk](https://encoding.spec.whatwg.org/#encode-and-enqueue-a-chunk)
fn encode_and_enqueue_a_chunk(
    encoder: &JsObject<TextEncoderStream>,
    chunk: &JsValue,
    controller: &JsObject<TransformStreamDefaultController>,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. Let input be the result of converting chunk to a DOMString.
    let input = to_dom_string(chunk, ctx)?;
    // 2-4. (see encode_code_units)
    let output = encoder_data(encoder, |e| e.encode_code_units(input.iter()));
    //   2. If item is end-of-queue:
    //     1. Convert output into a byte sequence.
    //     2. If output is not empty:
    if !output.is_empty() {
        //   1. Let chunk be the result of creating a Uint8Array object given output and
        //      encoder's relevant realm.
        //   2. Enqueue chunk into encoder's transform.
        enqueue_encoded(controller, output, ctx)?;
    }
    //     3. Return.
    Ok(())
}

/// [Encode and flush](https://encoding.spec.whatwg.org/#encode-and-flush)
fn encode_and_flush(
    encoder: &JsObject<TextEncoderStream>,
    controller: &JsObject<TransformStreamDefaultController>,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. If encoder's leading surrogate is non-null:
    if encoder_data(encoder, |e| e.leading_surrogate.get()).is_some() {
        //   1. Let chunk be the result of creating a Uint8Array object given « 0xEF, 0xBF,
        //      0xBD » and encoder's relevant realm.
        //   2. Enqueue chunk into encoder's transform.
        enqueue_encoded(controller, vec![0xEF, 0xBF, 0xBD], ctx)?;
    }
    Ok(())
}

impl Class for TextEncoderStream {
    const NAME: &'static str = "TextEncoderStream";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        const NAME: &str = "TextEncoderStream";
        webidl::attribute(
            class,
            "encoding",
            NativeFunction::from_fn_ptr(|this, _, _| {
                brand::<TextEncoderStream>(this, NAME)?;
                // The encoding getter steps are to return "utf-8".
                Ok(JsString::from("utf-8").into())
            }),
            None,
        );
        webidl::attribute(
            class,
            "readable",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let s = brand::<TextEncoderStream>(this, NAME)?;
                // The readable getter steps are to return this's transform.[[readable]].
                Ok(generic_side(
                    encoder_data(&s, |e| e.transform.borrow().clone()),
                    true,
                ))
            }),
            None,
        );
        webidl::attribute(
            class,
            "writable",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let s = brand::<TextEncoderStream>(this, NAME)?;
                // The writable getter steps are to return this's transform.[[writable]].
                Ok(generic_side(
                    encoder_data(&s, |e| e.transform.borrow().clone()),
                    false,
                ))
            }),
            None,
        );
        webidl::to_string_tag(class, NAME);
        Ok(())
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        // 1. Set this's encoder to an instance of the UTF-8 encoder.
        // NOTE: the UTF-8 encoder has no state; the leading surrogate is this object's.
        Ok(Self {
            leading_surrogate: Cell::new(None),
            transform: GcRefCell::new(None),
        })
    }

    fn object_constructor(
        instance: &JsObject<Self>,
        _args: &[JsValue],
        ctx: &mut Context,
    ) -> JsResult<()> {
        // Engine runtime-limit errors of the user code run here become catchable RangeErrors.
        boa_webidl::limits_catchable((|| -> JsResult<()> {
            // 2. Let transformAlgorithm be an algorithm which takes a chunk argument and runs the
            //    encode and enqueue a chunk algorithm with this and chunk. (encoder_transform)
            // 3. Let flushAlgorithm be an algorithm which runs the encode and flush algorithm with
            //    this. (encoder_flush)
            // 4. Let transformStream be a new TransformStream.
            // 5. Set up transformStream with transformAlgorithm set to transformAlgorithm and
            //    flushAlgorithm set to flushAlgorithm.
            let stream = transform_stream_set_up(
                instance.clone().upcast().into(),
                RustTransformer {
                    transform: encoder_transform,
                    transform_bytes: None,
                    flush: encoder_flush,
                },
                ctx,
            )?;
            // 6. Set this's transform to transformStream.
            *instance.borrow().data().transform.borrow_mut() = Some(stream);
            Ok(())
        })())
    }
}

boa_webidl::runtime_extension!(
    /// A boa_runtime `RuntimeExtension` that registers the Encoding Standard (see [`register`]).
    EncodingExtension,
    register
);

/// The realm mark of [`register`].
#[derive(Debug, Default, boa_gc::Trace, boa_gc::Finalize, boa_engine::JsData)]
struct Registered;

#[cfg(test)]
mod test_support;
#[cfg(test)]
mod tests;
