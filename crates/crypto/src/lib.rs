//! # boa_crypto
//!
//! The [Web Cryptography API](https://w3c.github.io/webcrypto/) for Boa: the `crypto` global
//! (a [`Crypto`](https://w3c.github.io/webcrypto/#crypto-interface) object) with
//! `getRandomValues` and `randomUUID` from the operating system's generator (`getrandom`),
//! and `crypto.subtle` (`SubtleCrypto`) with `CryptoKey`.
//!
//! Algorithms: SHA-1/256/384/512 digests, HMAC, AES-CTR, AES-CBC, AES-GCM, AES-KW, PBKDF2,
//! HKDF, ECDSA and ECDH on P-256/P-384/P-521, Ed25519, X25519, RSASSA-PKCS1-v1_5, RSA-PSS and
//! RSA-OAEP, and [Secure Curves](https://wicg.github.io/webcrypto-secure-curves/)' Ed448 (with
//! `Ed448Params.context`) and X448, with the raw, spki, pkcs8 and jwk key formats where the
//! algorithm has them. Every primitive is a RustCrypto crate's (Ed448 and X448:
//! `ed448-goldilocks` and `x448`, pre-releases pinned exactly; see the crate README).
//!
//! Heavy operations (RSA key generation, digests and ciphers of a megabyte or more, PBKDF2
//! with many iterations) run on worker threads and settle their promise through
//! `boa_streams::native`'s future driver (the host's event loop polls it; other embedders call
//! `boa_streams::native::run_until_idle`). `CryptoKey` is serializable: `register` installs
//! its serialization steps in `boa_html`'s structured clone.
//!
//! ```
//! let mut context = boa_engine::Context::default();
//! boa_crypto::register(&mut context).unwrap();
//! let uuid = context
//!     .eval(boa_engine::Source::from_bytes("crypto.randomUUID()"))
//!     .unwrap();
//! assert_eq!(uuid.as_string().unwrap().len(), 36);
//! ```

#![warn(missing_docs)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

use boa_engine::{
    builtins::typed_array::{TypedArray, TypedArrayKind},
    class::{Class, ClassBuilder},
    object::builtins::{JsArrayBuffer, JsTypedArray},
    property::{Attribute, PropertyDescriptor},
    Context, JsData, JsObject, JsResult, JsString, JsValue, NativeFunction,
};
use boa_gc::{Finalize, Trace};
use boa_webidl::{self as webidl, arg, type_error, INTERFACE_ATTRIBUTES};

mod asym;
mod key;
mod ops;
mod subtle;

pub use key::CryptoKey;
pub use subtle::SubtleCrypto;

#[cfg(test)]
mod test_support;
#[cfg(test)]
mod tests;

boa_webidl::runtime_extension!(
    /// A boa_runtime `RuntimeExtension` that registers the Web Cryptography API (see
    /// [`register`]).
    CryptoExtension,
    register
);

/// The realm mark of [`register`].
#[derive(Debug, Default, Trace, Finalize, JsData)]
struct Registered;

/// The most bytes `getRandomValues` fills in one call.
const MAX_RANDOM_BYTES: usize = 65_536;

/// The native data of the [`Crypto`](https://w3c.github.io/webcrypto/#crypto-interface)
/// object: its `subtle` attribute's object.
#[derive(Debug, Trace, Finalize, JsData)]
pub struct Crypto {
    /// The [[subtle]] `SubtleCrypto` object (`[SameObject]`).
    subtle: JsObject,
}

fn this_crypto(this: &JsValue) -> JsResult<JsObject<Crypto>> {
    webidl::brand::<Crypto>(this, "Crypto")
}

fn dom_exception(message: &str, name: &str, ctx: &mut Context) -> boa_engine::JsError {
    match webidl::create_dom_exception(message, name, ctx) {
        Ok(v) => boa_engine::JsError::from_opaque(v),
        Err(e) => e,
    }
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
        webidl::to_string_tag(class, "Crypto");
        // [SecureContext, SameObject] readonly attribute SubtleCrypto subtle;
        webidl::attribute(
            class,
            "subtle",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let c = this_crypto(this)?;
                let s = c.borrow().data().subtle.clone();
                Ok(s.into())
            }),
            None,
        );
        // ArrayBufferView getRandomValues(ArrayBufferView array);
        webidl::operation(
            class,
            "getRandomValues",
            1,
            NativeFunction::from_fn_ptr(get_random_values),
        );
        // [SecureContext] DOMString randomUUID();
        webidl::operation(
            class,
            "randomUUID",
            0,
            NativeFunction::from_fn_ptr(random_uuid),
        );
        Ok(())
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        Err(webidl::illegal_constructor())
    }

    fn construct(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsObject> {
        Err(webidl::illegal_constructor())
    }
}

/// A new instance of the registered interface `T` with `data`.
fn instance<T: Class>(data: T, ctx: &mut Context) -> JsResult<JsObject> {
    let proto = ctx
        .get_global_class::<T>()
        .ok_or_else(|| type_error(format!("{} is not registered", T::NAME)))?
        .prototype();
    Ok(JsObject::from_proto_and_data(Some(proto), data))
}

/// Register the Web Cryptography API on the context's current realm: the interfaces
/// `Crypto`, `SubtleCrypto` and `CryptoKey`, and the global `crypto` attribute
/// (`[SameObject] readonly attribute Crypto crypto`, an accessor on the global object).
/// Registers `boa_webidl` first if it is not there yet; registering twice does nothing the
/// second time.
pub fn register(ctx: &mut Context) -> JsResult<()> {
    if !boa_webidl::first_registration::<Registered>(ctx) {
        return Ok(());
    }
    boa_webidl::register(ctx)?;
    // HTML's structured serialization, which CryptoKey joins (a serializable interface).
    boa_html::register(ctx)?;
    boa_html::structured_clone::add_serializable(ctx, key::serialization_steps);
    webidl::register_interface::<CryptoKey>(ctx)?;
    webidl::register_interface::<SubtleCrypto>(ctx)?;
    webidl::register_interface::<Crypto>(ctx)?;
    let subtle = instance(SubtleCrypto, ctx)?;
    let crypto = instance(Crypto { subtle }, ctx)?;
    let getter = NativeFunction::from_copy_closure_with_captures(
        |_, _, crypto: &JsObject, _| Ok(crypto.clone().into()),
        crypto,
    );
    let getter = webidl::function(ctx, "get crypto", 0, getter);
    ctx.global_object().define_property_or_throw(
        JsString::from("crypto"),
        PropertyDescriptor::builder()
            .get(getter)
            .enumerable(true)
            .configurable(true),
        ctx,
    )?;
    Ok(())
}
