//! [`TextEncoderStream`](https://encoding.spec.whatwg.org/#interface-textencoderstream): a
//! `TransformStream` set up from Rust whose transform and flush algorithms run "encode and
//! enqueue a chunk" and "encode and flush". The encoder (UTF-8 only) is written here, with the
//! pending leading surrogate carried between chunks.

use std::cell::Cell;

use boa_engine::{
    class::{Class, ClassBuilder},
    object::builtins::{AlignedVec, JsUint8Array},
    property::Attribute,
    Context, JsData, JsObject, JsResult, JsString, JsValue,
};
use boa_gc::{Finalize, GcRefCell, Trace};

use boa_streams::spec::{
    generic_transform_stream, transform_stream_set_up, GenericTransformStream, RustTransformer,
    TransformStream, TransformStreamDefaultController,
};
use boa_webidl as webidl;
use boa_webidl::{brand, to_dom_string, Member, INTERFACE_ATTRIBUTES};

use crate::transform::{enqueue, state_as};

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
// boa_streams::spec::Chunk); a pipe into a native sink takes them without the JS object. Nothing can
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

impl GenericTransformStream for TextEncoderStream {
    const INTERFACE: &'static str = "TextEncoderStream";

    fn transform(&self) -> Option<JsObject<TransformStream>> {
        self.transform.borrow().clone()
    }
}

/// [`encoding`](https://encoding.spec.whatwg.org/#dom-textencoder-encoding) (of the
/// TextEncoderCommon mixin)
fn encoding(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    brand::<TextEncoderStream>(this, "TextEncoderStream")?;
    // The encoding getter steps are to return "utf-8".
    Ok(JsString::from("utf-8").into())
}

impl Class for TextEncoderStream {
    const NAME: &'static str = "TextEncoderStream";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        // TextEncoderStream includes TextEncoderCommon, then GenericTransformStream.
        let [readable, writable] = generic_transform_stream::<Self>();
        webidl::define(
            class,
            &[
                Member::attribute("encoding", encoding),
                readable,
                writable,
                Member::to_string_tag("TextEncoderStream"),
            ],
        )
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
