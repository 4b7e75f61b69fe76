//! WebIDL [buffer source types](https://webidl.spec.whatwg.org/#idl-buffer-source-types):
//! conversions to `AllowSharedBufferSource` and copies of the bytes a buffer source holds,
//! read from the engine's slots (no script runs).

use boa_engine::builtins::{dataview::DataView, typed_array::TypedArray};
use boa_engine::object::builtins::{JsArrayBuffer, JsDataView, JsSharedArrayBuffer, JsTypedArray};
use boa_engine::{Context, JsObject, JsResult, JsValue};

use crate::error::type_error;

/// Whether `buffer` is fixed-length (WebIDL: without `[AllowResizable]`, a resizable
/// ArrayBuffer is a TypeError).
// NOTE: Boa keeps [[ArrayBufferMaxByteLength]] private; resizing to the current length fails
// only for a fixed-length buffer and changes nothing for a resizable one.
pub fn is_fixed_length(buffer: &JsArrayBuffer) -> bool {
    let object: JsObject = buffer.clone().into();
    let Some(mut data) = object.downcast_mut::<boa_engine::builtins::array_buffer::ArrayBuffer>()
    else {
        return true;
    };
    let Some(len) = data.data().map(<[u8]>::len) else {
        return true;
    };
    data.resize(len as u64).is_err()
}

/// The bytes of an ArrayBuffer or SharedArrayBuffer `buffer` in `[offset, offset + length)`
/// (empty when detached or out of range; only that range is copied), or `None` when
/// `buffer` is neither.
pub fn buffer_bytes(buffer: &JsValue, range: Option<(u64, u64)>) -> JsResult<Option<Vec<u8>>> {
    let Some(object) = buffer.as_object() else {
        return Ok(None);
    };
    let slice = |all: &[u8]| -> Vec<u8> {
        let Some((offset, length)) = range else {
            return all.to_vec();
        };
        let start = usize::try_from(offset).unwrap_or(usize::MAX);
        let end = usize::try_from(offset.saturating_add(length)).unwrap_or(usize::MAX);
        all.get(start..end).map(<[u8]>::to_vec).unwrap_or_default()
    };
    if let Ok(ab) = JsArrayBuffer::from_object(object.clone()) {
        if !is_fixed_length(&ab) {
            return Err(type_error("the chunk must not use a resizable ArrayBuffer"));
        }
        return Ok(Some(ab.data().map(|d| slice(&d)).unwrap_or_default()));
    }
    if let Ok(sab) = JsSharedArrayBuffer::from_object(object.clone()) {
        // NOTE: growable SharedArrayBuffers are not told apart (Boa keeps the flag private).
        return Ok(Some(slice(&sab.to_vec())));
    }
    Ok(None)
}

/// The byte length of the ArrayBuffer or SharedArrayBuffer `buffer` (0 when detached).
pub fn buffer_len(buffer: &JsValue) -> usize {
    let Some(object) = buffer.as_object() else {
        return 0;
    };
    if let Ok(ab) = JsArrayBuffer::from_object(object.clone()) {
        return ab.data().map_or(0, |d| d.len());
    }
    JsSharedArrayBuffer::from_object(object.clone()).map_or(0, |sab| sab.byte_length())
}

/// Whether `value` converts to the WebIDL type
/// [`AllowSharedBufferSource`](https://webidl.spec.whatwg.org/#AllowSharedBufferSource):
/// `Err(TypeError)` when it does not (not a buffer or view, or a resizable ArrayBuffer).
pub fn check_allow_shared_buffer_source(value: &JsValue) -> JsResult<()> {
    let not_buffer = || type_error("The input is not an ArrayBuffer or ArrayBufferView");
    let Some(object) = value.as_object() else {
        return Err(not_buffer());
    };
    if object.is::<TypedArray>() || object.is::<DataView>() {
        return Ok(());
    }
    if let Ok(ab) = JsArrayBuffer::from_object(object.clone()) {
        if !is_fixed_length(&ab) {
            return Err(type_error("the input must not use a resizable ArrayBuffer"));
        }
        return Ok(());
    }
    if JsSharedArrayBuffer::from_object(object.clone()).is_ok() {
        return Ok(());
    }
    Err(not_buffer())
}

/// Convert `value` to the WebIDL type
/// [`AllowSharedBufferSource`](https://webidl.spec.whatwg.org/#AllowSharedBufferSource) and
/// [get a copy of the bytes held by the buffer source](https://webidl.spec.whatwg.org/#dfn-get-buffer-source-copy).
pub fn copy_bytes_of_allow_shared_buffer_source(
    value: &JsValue,
    ctx: &mut Context,
) -> JsResult<Vec<u8>> {
    let not_buffer = || type_error("The chunk is not an ArrayBuffer or ArrayBufferView");
    let Some(object) = value.as_object() else {
        return Err(not_buffer());
    };
    let object = object.clone();
    // A typed array: [[ViewedArrayBuffer]], [[ByteOffset]] and its byte length, read from the
    // engine's slots (script cannot observe the conversion).
    let typed = object
        .downcast_ref::<TypedArray>()
        .map(|ta| (ta.byte_offset(), ta.clone()));
    if let Some((offset, ta)) = typed {
        // NOTE: JsTypedArray::buffer calls the built-in getter directly (no property lookup).
        let buffer = JsTypedArray::from_object(object.clone())?.buffer(ctx)?;
        let length = ta.byte_length(buffer_len(&buffer));
        return buffer_bytes(&buffer, Some((offset, length)))?.ok_or_else(not_buffer);
    }
    if object.is::<DataView>() {
        let dv = JsDataView::from_object(object.clone())?;
        let buffer = dv.buffer(ctx)?;
        // The getters throw for a detached (or out-of-bounds) view: those have no bytes.
        let offset = dv.byte_offset(ctx).unwrap_or(0);
        let length = dv.byte_length(ctx).unwrap_or(0);
        return buffer_bytes(&buffer, Some((offset, length)))?.ok_or_else(not_buffer);
    }
    buffer_bytes(value, None)?.ok_or_else(not_buffer)
}

/// A new `Uint8Array` holding a copy of `bytes` in an engine-owned buffer of the current realm
/// (made through [`gc_pressure`](crate::gc_pressure), so its data block is counted).
///
/// ```
/// use boa_engine::{Context, JsValue};
///
/// let mut context = Context::default();
/// let array = boa_webidl::buffer_source::new_uint8_array(b"hi", &mut context).unwrap();
/// assert_eq!(array.get(0, &mut context).unwrap(), JsValue::from(104));
/// ```
#[inline]
pub fn new_uint8_array(bytes: &[u8], ctx: &mut Context) -> JsResult<JsObject> {
    let buffer = crate::gc_pressure::new_array_buffer(
        boa_engine::object::builtins::AlignedVec::from_slice(64, bytes),
        ctx,
    )?;
    Ok(boa_engine::object::builtins::JsUint8Array::from_array_buffer(buffer, ctx)?.into())
}
