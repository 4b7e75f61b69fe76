//! The Encoding Standard's [`TextEncoder`](https://encoding.spec.whatwg.org/#interface-textencoder).
//!
//! The UTF-8 encoder is `encoding_rs::mem`'s UTF-16 to UTF-8 conversion (which replaces
//! unpaired surrogates with U+FFFD, as the `USVString` conversion does) for `encode()`, and a
//! scalar-value loop for `encodeInto()`, which must stop before the first scalar value that
//! does not fit.

use boa_engine::{
    builtins::typed_array::TypedArray,
    class::{Class, ClassBuilder},
    object::builtins::{
        AlignedVec, JsArrayBuffer, JsSharedArrayBuffer, JsTypedArray, JsUint8Array,
    },
    object::ObjectInitializer,
    property::Attribute,
    string::JsStrVariant,
    Context, JsData, JsObject, JsResult, JsString, JsValue,
};
use boa_gc::{Finalize, Trace};

use boa_webidl::{self as webidl, arg, brand, type_error, Member, INTERFACE_ATTRIBUTES};

/// A `TextEncoder` object (its encoder, UTF-8, has no state).
#[derive(Debug, Trace, Finalize, JsData)]
pub struct TextEncoder;

/// The UTF-8 bytes of the `USVString` conversion of `input` (unpaired surrogates become
/// U+FFFD).
pub(crate) fn encode_utf8(input: &JsString) -> Vec<u8> {
    match input.variant() {
        JsStrVariant::Latin1(units) => {
            let mut out = vec![0u8; units.len().saturating_mul(2)];
            let written = encoding_rs::mem::convert_latin1_to_utf8(units, &mut out);
            out.truncate(written);
            out
        }
        JsStrVariant::Utf16(units) => {
            let mut out = vec![0u8; units.len().saturating_mul(3)];
            let written = encoding_rs::mem::convert_utf16_to_utf8(units, &mut out);
            out.truncate(written);
            out
        }
    }
}

/// A `Uint8Array` over a new ArrayBuffer holding `bytes`, in the current realm.
fn create_uint8_array(bytes: Vec<u8>, ctx: &mut Context) -> JsResult<JsValue> {
    let buffer = boa_webidl::gc_pressure::new_array_buffer(AlignedVec::from_iter(0, bytes), ctx)?;
    Ok(JsUint8Array::from_array_buffer(buffer, ctx)?.into())
}

/// [`encoding`](https://encoding.spec.whatwg.org/#dom-textencoder-encoding) (of the
/// TextEncoderCommon mixin, which TextEncoder alone includes)
fn encoding(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    brand::<TextEncoder>(this, "TextEncoder")?;
    // The encoding getter steps are to return "utf-8".
    Ok(JsString::from("utf-8").into())
}

/// [`encode(input)`](https://encoding.spec.whatwg.org/#dom-textencoder-encode)
fn encode(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    brand::<TextEncoder>(this, "TextEncoder")?;
    // IDL layer: `optional USVString input = ""`.
    let input = arg(args, 0);
    let input = if input.is_undefined() {
        JsString::default()
    } else {
        input.to_string(ctx)?
    };
    // 1. Convert input to an I/O queue of scalar values.
    // 2. Let output be the I/O queue of bytes « end-of-queue ».
    // 3. While true: ... process an item with item, an instance of the UTF-8 encoder, input,
    //    output, and "fatal" (the UTF-8 encoder never returns error); at end-of-queue
    //    convert output into a byte sequence and return a Uint8Array object wrapping an
    //    ArrayBuffer containing output.
    create_uint8_array(encode_utf8(&input), ctx)
}

/// The code units of `input` (a `USVString` is converted from them lazily).
fn code_units(input: &JsString) -> Vec<u16> {
    input.iter().collect()
}

/// The [encode into](https://encoding.spec.whatwg.org/#encode-into) loop over `source`'s
/// code units with room for `room` bytes: the bytes written and the code units read.
fn encode_into_bytes(source: &[u16], room: usize) -> (Vec<u8>, u64) {
    let mut out = Vec::with_capacity(room.min(source.len().saturating_mul(3)));
    let mut read: u64 = 0;
    // 4. Convert source to an I/O queue of scalar values.
    // 5. While true:
    for scalar in char::decode_utf16(source.iter().copied()) {
        //   1. Let item be the result of reading from source.
        //   2. Let result be the result of running encoder's handler on unused and item.
        //   3. If result is finished, then break. (end of the iterator)
        let (c, units) = match scalar {
            Ok(c) => (c, c.len_utf16() as u64),
            // An unpaired surrogate: one code unit, U+FFFD.
            Err(_) => ('\u{FFFD}', 1),
        };
        let mut buf = [0u8; 4];
        let bytes = c.encode_utf8(&mut buf).as_bytes();
        //   4. Otherwise:
        //     1. If destination's byte length − written is greater than or equal to the
        //        number of bytes in result, then:
        if room - out.len() >= bytes.len() {
            //   1. If item is greater than U+FFFF, then increment read by 2.
            //   2. Otherwise, increment read by 1.
            read += units;
            //   3. Write the bytes in result into destination, with startingOffset set to
            //      written.
            //   4. Increment written by the number of bytes in result.
            out.extend_from_slice(bytes);
        } else {
            //   2. Otherwise, break.
            break;
        }
    }
    (out, read)
}

/// [`encodeInto(source, destination)`](https://encoding.spec.whatwg.org/#dom-textencoder-encodeinto)
fn encode_into(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    brand::<TextEncoder>(this, "TextEncoder")?;
    // IDL layer: `USVString source`, then `[AllowShared] Uint8Array destination`.
    if args.len() < 2 {
        return Err(type_error(format!(
            "TextEncoder.encodeInto: 2 arguments required, but only {} present",
            args.len()
        )));
    }
    let source = arg(args, 0).to_string(ctx)?;
    let destination = arg(args, 1);
    let not_uint8 = || type_error("TextEncoder.encodeInto: destination is not a Uint8Array");
    let dest = destination
        .as_object()
        .filter(|o| o.is::<TypedArray>())
        .map(|o| JsTypedArray::from_object(o.clone()))
        .transpose()?
        .ok_or_else(not_uint8)?;
    if dest.kind() != Some(boa_engine::builtins::typed_array::TypedArrayKind::Uint8) {
        return Err(not_uint8());
    }
    let dest_object: JsObject = dest.clone().into();
    let offset = dest_object
        .downcast_ref::<TypedArray>()
        .map_or(0, |ta| ta.byte_offset());
    // NOTE: JsTypedArray::buffer calls the built-in getter directly (no property lookup).
    let buffer = dest.buffer(ctx)?;
    let buffer_object = buffer.as_object().ok_or_else(not_uint8)?;
    let array_buffer = JsArrayBuffer::from_object(buffer_object.clone()).ok();
    if let Some(ab) = &array_buffer {
        if !boa_webidl::buffer_source::is_fixed_length(ab) {
            return Err(type_error(
                "TextEncoder.encodeInto: destination must not use a resizable ArrayBuffer",
            ));
        }
    }
    let buffer_len = boa_webidl::buffer_source::buffer_len(&buffer);
    let room = dest_object
        .downcast_ref::<TypedArray>()
        .map_or(0, |ta| ta.byte_length(buffer_len));
    let room = usize::try_from(room).unwrap_or(usize::MAX);
    // 1. Let read be 0.
    // 2. Let written be 0.
    // 3. Let encoder be an instance of the UTF-8 encoder.
    let (bytes, read) = encode_into_bytes(&code_units(&source), room);
    let written = bytes.len();
    if written > 0 {
        if let Some(ab) = array_buffer {
            let start = usize::try_from(offset).unwrap_or(usize::MAX);
            if let Some(mut data) = ab.data_mut() {
                if let Some(target) = data.get_mut(start..start.saturating_add(written)) {
                    target.copy_from_slice(&bytes);
                }
            }
        } else if JsSharedArrayBuffer::from_object(buffer_object).is_ok() {
            // NOTE: Boa gives no mutable access to shared bytes; the built-in
            // %TypedArray%.prototype.set (called directly, no lookup) writes them.
            let source = create_uint8_array(bytes, ctx)?;
            dest.set_values(source, Some(0), ctx)?;
        }
    }
    // Return «[ "read" → read, "written" → written ]» (a TextEncoderEncodeIntoResult).
    let result = ObjectInitializer::new(ctx)
        .property(JsString::from("read"), read as f64, Attribute::all())
        .property(JsString::from("written"), written as f64, Attribute::all())
        .build();
    Ok(result.into())
}

impl Class for TextEncoder {
    const NAME: &'static str = "TextEncoder";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        // TextEncoder includes TextEncoderCommon: its attribute, then the operations.
        webidl::define(
            class,
            &[
                Member::attribute("encoding", encoding),
                Member::operation("encode", 0, encode),
                Member::operation("encodeInto", 2, encode_into),
                Member::to_string_tag("TextEncoder"),
            ],
        )
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        // The new TextEncoder() constructor steps are to do nothing.
        Ok(Self)
    }
}

#[cfg(test)]
mod tests;
