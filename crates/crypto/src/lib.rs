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
//! The crate is organized by algorithm: each family (`algorithms/`: digest, hmac, aes, kdf,
//! ec, okp, rsa) implements one trait (`algorithm::Algorithm`) with its dictionaries'
//! normalization and its operations, and one registry table (`registry`) maps the
//! registered algorithm names to their family. Below them sit the shared records (a key's
//! slots in `records`, key formats and JWK in `jwk`, the hash functions in `hash`, failures
//! in `failure`); above them the interfaces (`crypto`, `subtle`, `key`) with normalization
//! (`normalize`), the steps around the algorithms' (`operations`) and the promise plumbing
//! (`parallel`).
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
    class::Class, property::PropertyDescriptor, Context, JsData, JsObject, JsResult, JsString,
    NativeFunction,
};
use boa_gc::{Finalize, Trace};
use boa_webidl::{self as webidl, type_error};

mod algorithm;
mod algorithms;
mod convert;
mod crypto;
mod failure;
mod hash;
mod jwk;
mod key;
mod names;
mod normalize;
mod operations;
mod parallel;
mod records;
mod registry;
mod subtle;

pub use crypto::Crypto;
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
