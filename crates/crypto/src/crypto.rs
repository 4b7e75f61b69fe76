//! The [`Crypto`](https://w3c.github.io/webcrypto/#crypto-interface) interface: the `crypto`
//! global's `subtle`, `getRandomValues` and `randomUUID`.

use boa_engine::{
    builtins::typed_array::{TypedArray, TypedArrayKind},
    class::{Class, ClassBuilder},
    object::builtins::{JsArrayBuffer, JsTypedArray},
    property::Attribute,
    Context, JsData, JsObject, JsResult, JsString, JsValue,
};
use boa_gc::{Finalize, Trace};
use boa_webidl::{self as webidl, arg, type_error, Member, INTERFACE_ATTRIBUTES};

use crate::failure::dom_exception;

/// The most bytes `getRandomValues` fills in one call.
const MAX_RANDOM_BYTES: usize = 65_536;

/// The native data of the [`Crypto`](https://w3c.github.io/webcrypto/#crypto-interface)
/// object: its `subtle` attribute's object.
#[derive(Debug, Trace, Finalize, JsData)]
pub struct Crypto {
    /// The [[subtle]] `SubtleCrypto` object (`[SameObject]`).
    pub(crate) subtle: JsObject,
}

fn this_crypto(this: &JsValue) -> JsResult<JsObject<Crypto>> {
    webidl::brand::<Crypto>(this, "Crypto")
}

/// [`[SecureContext, SameObject] readonly attribute SubtleCrypto subtle`](https://w3c.github.io/webcrypto/#dom-crypto-subtle).
fn get_subtle(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let c = this_crypto(this)?;
    let s = c.borrow().data().subtle.clone();
    Ok(s.into())
}

/// [`getRandomValues(array)`](https://w3c.github.io/webcrypto/#Crypto-method-getRandomValues).
fn get_random_values(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    this_crypto(this)?;
    if args.is_empty() {
        return Err(type_error(
            "Failed to execute 'getRandomValues' on 'Crypto': 1 argument required, but only 0 present.",
        ));
    }
    let array = arg(args, 0);
    // The argument converts to ArrayBufferView (not [AllowShared]).
    let Some(object) = array.as_object() else {
        return Err(type_error(
            "getRandomValues: the argument is not an ArrayBufferView",
        ));
    };
    let is_view =
        object.is::<TypedArray>() || object.is::<boa_engine::builtins::dataview::DataView>();
    if !is_view {
        return Err(type_error(
            "getRandomValues: the argument is not an ArrayBufferView",
        ));
    }
    let typed = object
        .downcast_ref::<TypedArray>()
        .map(|ta| (ta.kind(), ta.byte_offset(), ta.clone()));
    // 1. If array is not an Int8Array, Uint8Array, Uint8ClampedArray, Int16Array,
    //    Uint16Array, Int32Array, Uint32Array, BigInt64Array, or BigUint64Array, then throw a
    //    TypeMismatchError and terminate the algorithm.
    let Some((kind, offset, ta)) = typed else {
        return Err(dom_exception(
            "getRandomValues: a DataView is not an integer typed array",
            "TypeMismatchError",
            ctx,
        ));
    };
    if !matches!(
        kind,
        TypedArrayKind::Int8
            | TypedArrayKind::Uint8
            | TypedArrayKind::Uint8Clamped
            | TypedArrayKind::Int16
            | TypedArrayKind::Uint16
            | TypedArrayKind::Int32
            | TypedArrayKind::Uint32
            | TypedArrayKind::BigInt64
            | TypedArrayKind::BigUint64
    ) {
        return Err(dom_exception(
            "getRandomValues: the array is not an integer typed array",
            "TypeMismatchError",
            ctx,
        ));
    }
    let buffer = JsTypedArray::from_object(object.clone())?.buffer(ctx)?;
    let Some(buffer) = buffer
        .as_object()
        .and_then(|b| JsArrayBuffer::from_object(b.clone()).ok())
    else {
        return Err(type_error(
            "getRandomValues: the array must not be a view on a SharedArrayBuffer",
        ));
    };
    let Some(mut data) = buffer.data_mut() else {
        // A detached buffer: a view of zero bytes.
        return Ok(array);
    };
    let length = usize::try_from(ta.byte_length(data.len())).unwrap_or(usize::MAX);
    // 2. If the byteLength of array is greater than 65536, throw a QuotaExceededError and
    //    terminate the algorithm.
    if length > MAX_RANDOM_BYTES {
        drop(data);
        // (A QuotaExceededError whose quota and requested are null, as WPT checks.)
        let message = format!(
            "getRandomValues: the ArrayBufferView's byte length ({length}) exceeds the number of bytes of entropy available via this API (65536)"
        );
        let error = webidl::exception::create_quota_exceeded_error(&message, None, None, ctx)?;
        return Err(boa_engine::JsError::from_opaque(error));
    }
    // 3. Overwrite all elements of array with cryptographically strong random values of the
    //    appropriate type.
    let start = usize::try_from(offset).unwrap_or(usize::MAX);
    let filled = match data.get_mut(start..start.saturating_add(length)) {
        Some(bytes) => getrandom::fill(bytes).map_err(|e| e.to_string()),
        None => Ok(()),
    };
    drop(data);
    if let Err(e) = filled {
        return Err(dom_exception(
            &format!("the OS random generator failed: {e}"),
            "OperationError",
            ctx,
        ));
    }
    // 4. Return array.
    Ok(array)
}

/// [`randomUUID()`](https://w3c.github.io/webcrypto/#Crypto-method-randomUUID): a version 4
/// UUID, lowercase.
fn random_uuid(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    this_crypto(this)?;
    // 1. Let bytes be a byte sequence of length 16; fill it with cryptographically secure
    //    random bytes.
    let mut bytes = [0u8; 16];
    if let Err(e) = getrandom::fill(&mut bytes) {
        return Err(dom_exception(
            &format!("the OS random generator failed: {e}"),
            "OperationError",
            ctx,
        ));
    }
    // 2-3. Set the version (4) in byte 6 and the variant (0b10) in byte 8.
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    // 4. The hexadecimal serialization, hyphens after bytes 4, 6, 8 and 10.
    let mut out = String::with_capacity(36);
    for (i, b) in bytes.iter().enumerate() {
        if matches!(i, 4 | 6 | 8 | 10) {
            out.push('-');
        }
        out.push_str(&format!("{b:02x}"));
    }
    Ok(JsString::from(out).into())
}

impl Class for Crypto {
    const NAME: &'static str = "Crypto";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(
            class,
            &[
                Member::to_string_tag("Crypto"),
                // [SecureContext, SameObject] readonly attribute SubtleCrypto subtle;
                Member::attribute("subtle", get_subtle),
                // ArrayBufferView getRandomValues(ArrayBufferView array);
                Member::operation("getRandomValues", 1, get_random_values),
                // [SecureContext] DOMString randomUUID();
                Member::operation("randomUUID", 0, random_uuid),
            ],
        )
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        Err(webidl::illegal_constructor())
    }

    fn construct(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsObject> {
        Err(webidl::illegal_constructor())
    }
}
