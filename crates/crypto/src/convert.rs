//! The WebIDL conversions of SubtleCrypto's arguments and algorithm dictionaries' members:
//! `BufferSource`, `[EnforceRange]` integers, `BigInteger`, `sequence<KeyUsage>`,
//! `KeyFormat`, `CryptoKey` and `JsonWebKey`.

use boa_engine::{
    builtins::{dataview::DataView, typed_array::TypedArray},
    object::builtins::JsArrayBuffer,
    Context, JsObject, JsResult, JsValue,
};
use boa_webidl::{self as webidl, buffer_source, type_error, Dictionary};

use crate::jwk::{Jwk, KeyFormat};
use crate::key::CryptoKey;
use crate::records::{KeyParts, Usages, USAGES};

/// Convert to `BufferSource` and [get a copy of the bytes held by the buffer
/// source](https://webidl.spec.whatwg.org/#dfn-get-buffer-source-copy) (a
/// SharedArrayBuffer, or a view on one, is a TypeError: no `[AllowShared]`).
pub(crate) fn buffer_source_bytes(
    value: &JsValue,
    what: &str,
    ctx: &mut Context,
) -> JsResult<Vec<u8>> {
    let not_buffer = || type_error(format!("{what} is not an ArrayBuffer or ArrayBufferView"));
    let Some(object) = value.as_object() else {
        return Err(not_buffer());
    };
    let is_view = object.is::<TypedArray>() || object.is::<DataView>();
    if !is_view && JsArrayBuffer::from_object(object.clone()).is_err() {
        return Err(not_buffer());
    }
    if is_view {
        let buffer = view_buffer(&object, ctx)?;
        if JsArrayBuffer::from_object(buffer).is_err() {
            return Err(type_error(format!(
                "{what} must not be a view on a SharedArrayBuffer"
            )));
        }
    }
    buffer_source::copy_bytes_of_allow_shared_buffer_source(value, ctx).map_err(|_| not_buffer())
}

/// The [[ViewedArrayBuffer]] of a typed array or DataView (read from the engine's slots).
pub(crate) fn view_buffer(object: &JsObject, ctx: &mut Context) -> JsResult<JsObject> {
    if object.is::<TypedArray>() {
        let ta = boa_engine::object::builtins::JsTypedArray::from_object(object.clone())?;
        let b = ta.buffer(ctx)?;
        return b.as_object().ok_or_else(|| type_error("no buffer"));
    }
    let dv = boa_engine::object::builtins::JsDataView::from_object(object.clone())?;
    let b = dv.buffer(ctx)?;
    b.as_object().ok_or_else(|| type_error("no buffer"))
}

/// WebIDL `[EnforceRange]` conversion to an integer type whose maximum is `max`.
pub(crate) fn enforce_range(
    value: &JsValue,
    max: f64,
    what: &str,
    ctx: &mut Context,
) -> JsResult<f64> {
    let n = value.to_number(ctx)?;
    if !n.is_finite() {
        return Err(type_error(format!("{what} is not a finite number")));
    }
    let n = n.trunc();
    if n < 0.0 || n > max {
        return Err(type_error(format!("{what} is out of range")));
    }
    Ok(n + 0.0)
}

/// A [`BigInteger`](https://w3c.github.io/webcrypto/#dfn-BigInteger) (a `Uint8Array`): its
/// bytes, big-endian.
pub(crate) fn big_integer(value: &JsValue, ctx: &mut Context) -> JsResult<Vec<u8>> {
    let is_uint8 = value.as_object().is_some_and(|o| {
        o.downcast_ref::<TypedArray>()
            .is_some_and(|ta| ta.kind() == boa_engine::builtins::typed_array::TypedArrayKind::Uint8)
    });
    if !is_uint8 {
        return Err(type_error("publicExponent is not a Uint8Array"));
    }
    buffer_source_bytes(value, "publicExponent", ctx)
}

/// A required dictionary member.
pub(crate) fn required(
    dict: &Dictionary,
    member: &str,
    dictionary: &str,
    ctx: &mut Context,
) -> JsResult<JsValue> {
    dict.get(webidl::key(member), ctx)?.ok_or_else(|| {
        type_error(format!(
            "Failed to read the '{member}' property from '{dictionary}': Required member is undefined."
        ))
    })
}

/// A `sequence<KeyUsage>` conversion (an unknown string is a TypeError, as for any enum).
pub(crate) fn to_usages(value: &JsValue, ctx: &mut Context) -> JsResult<Usages> {
    let Some(object) = value.as_object() else {
        return Err(type_error("keyUsages is not a sequence"));
    };
    let method = webidl::sequence::get_iterator_method(&object, ctx)?
        .ok_or_else(|| type_error("keyUsages is not iterable"))?;
    let strings = webidl::create_sequence_from_iterable(value, &method, ctx, |v, ctx| {
        let s = v.to_string(ctx)?.to_std_string_escaped();
        if !USAGES.contains(&s.as_str()) {
            return Err(type_error(format!(
                "'{s}' is not a valid value of the enumeration KeyUsage"
            )));
        }
        Ok(s)
    })?;
    let mut usages = Usages::default();
    for s in &strings {
        usages = usages.with(s);
    }
    Ok(usages)
}

/// A `KeyFormat` conversion (an unknown string is a TypeError).
pub(crate) fn to_format(value: &JsValue, ctx: &mut Context) -> JsResult<KeyFormat> {
    let s = value.to_string(ctx)?.to_std_string_escaped();
    match s.as_str() {
        "raw" => Ok(KeyFormat::Raw),
        "spki" => Ok(KeyFormat::Spki),
        "pkcs8" => Ok(KeyFormat::Pkcs8),
        "jwk" => Ok(KeyFormat::Jwk),
        _ => Err(type_error(format!(
            "'{s}' is not a valid value of the enumeration KeyFormat"
        ))),
    }
}

/// A `CryptoKey` argument (`what` names it in the TypeError).
pub(crate) fn to_key(value: &JsValue, what: &str) -> JsResult<JsObject<CryptoKey>> {
    value
        .as_object()
        .and_then(|o| o.clone().downcast::<CryptoKey>().ok())
        .ok_or_else(|| type_error(format!("{what} is not a CryptoKey")))
}

/// A copy of the key's internal slots.
pub(crate) fn key_parts(key: &JsObject<CryptoKey>) -> KeyParts {
    key.borrow().data().parts().clone()
}

/// Convert a JS value to a `JsonWebKey` dictionary (members in lexicographic order).
// NOTE: `oth` (a sequence of RsaOtherPrimesInfo) is only checked for presence: multi-prime
// keys are not supported, and its conversion could only be told apart by a getter inside it.
pub(crate) fn to_jwk(value: &JsValue, ctx: &mut Context) -> JsResult<Jwk> {
    let dict = Dictionary::new(value, "JsonWebKey")?;
    let string = |v: Option<JsValue>, ctx: &mut Context| -> JsResult<Option<String>> {
        v.map(|v| v.to_string(ctx).map(|s| s.to_std_string_escaped()))
            .transpose()
    };
    let member = |name: &str, ctx: &mut Context| -> JsResult<Option<String>> {
        let v = dict.get(webidl::key(name), ctx)?;
        string(v, ctx)
    };
    let alg = member("alg", ctx)?;
    let crv = member("crv", ctx)?;
    let d = member("d", ctx)?;
    let dp = member("dp", ctx)?;
    let dq = member("dq", ctx)?;
    let e = member("e", ctx)?;
    let ext = dict.get(webidl::key("ext"), ctx)?.map(|v| v.to_boolean());
    let k = dict.get(webidl::key("k"), ctx)?;
    let k = string(k, ctx)?;
    let key_ops = match dict.get(webidl::key("key_ops"), ctx)? {
        None => None,
        Some(v) => {
            let object = v
                .as_object()
                .ok_or_else(|| type_error("key_ops is not a sequence"))?;
            let method = webidl::sequence::get_iterator_method(&object, ctx)?
                .ok_or_else(|| type_error("key_ops is not iterable"))?;
            Some(webidl::create_sequence_from_iterable(
                &v,
                &method,
                ctx,
                |v, ctx| Ok(v.to_string(ctx)?.to_std_string_escaped()),
            )?)
        }
    };
    let kty = dict.get(webidl::key("kty"), ctx)?;
    let kty = string(kty, ctx)?;
    let n = dict.get(webidl::key("n"), ctx)?;
    let n = string(n, ctx)?;
    let oth = dict.get(webidl::key("oth"), ctx)?.is_some();
    let member = |name: &str, ctx: &mut Context| -> JsResult<Option<String>> {
        let v = dict.get(webidl::key(name), ctx)?;
        string(v, ctx)
    };
    let p = member("p", ctx)?;
    let q = member("q", ctx)?;
    let qi = member("qi", ctx)?;
    let use_ = member("use", ctx)?;
    let x = member("x", ctx)?;
    let y = member("y", ctx)?;
    Ok(Jwk {
        alg,
        crv,
        d,
        dp,
        dq,
        e,
        ext,
        k,
        key_ops,
        kty,
        n,
        oth,
        p,
        q,
        qi,
        use_,
        x,
        y,
    })
}

/// `unsigned long? length = null` of deriveBits.
pub(crate) fn optional_length(value: &JsValue, ctx: &mut Context) -> JsResult<Option<u32>> {
    if value.is_null_or_undefined() {
        return Ok(None);
    }
    Ok(Some(value.to_u32(ctx)?))
}
