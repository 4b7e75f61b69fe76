//! What the asymmetric families (EC, OKP, RSA) share: the usage and JWK checks of import
//! key, the key pair's slots, the DER structures of the spki and pkcs8 formats
//! (`spki`, `pkcs8`), the JWK of export key, and the checks of ECDH-style derive bits.

use boa_engine::{Context, JsResult};
use der::asn1::BitStringRef;
use der::{Decode, Encode};
use serde_json::Value;
use spki::{AlgorithmIdentifierRef, SubjectPublicKeyInfoRef};

use super::oct::jwk_key_ops;
use crate::algorithm::Members;
use crate::convert::{key_parts, to_key};
use crate::failure::{Failure, Outcome};
use crate::jwk::{base64url_decode, base64url_encode, Jwk};
use crate::records::{KeyAlgorithm, KeyParts, KeyType, Usages};

/// The usages of (public, private) keys of a signature algorithm (`signs`) or a key
/// agreement algorithm.
pub(crate) fn pair_usages(signs: bool) -> (Usages, Usages) {
    if signs {
        (Usages::of(&["verify"]), Usages::of(&["sign"]))
    } else {
        (Usages::default(), Usages::of(&["deriveKey", "deriveBits"]))
    }
}

/// The JWK `use` of a signature algorithm's (`signs`) or a key agreement algorithm's keys.
pub(crate) fn jwk_use(signs: bool) -> &'static str {
    if signs {
        "sig"
    } else {
        "enc"
    }
}

/// `EcdhKeyDeriveParams` (of ECDH, X25519 and X448): the `public` key's slots.
pub(crate) fn ecdh_key_derive_params(
    members: &Members<'_>,
    ctx: &mut Context,
) -> JsResult<KeyParts> {
    let v = members.required("public", "EcdhKeyDeriveParams", ctx)?;
    let public = to_key(&v, "The public member of EcdhKeyDeriveParams")?;
    Ok(key_parts(&public))
}

/// The export key steps' [[extractable]] check of an asymmetric key: "If the
/// [[extractable]] internal slot of key is false, then throw an InvalidAccessError."
pub(crate) fn check_extractable(key: &KeyParts) -> Outcome<()> {
    if !key.extractable {
        return Err(Failure::invalid_access("the key is not extractable"));
    }
    Ok(())
}

/// The checks of [ECDH](https://w3c.github.io/webcrypto/#ecdh-operations-derive-bits) /
/// [X25519](https://w3c.github.io/webcrypto/#x25519-operations-derive-bits) /
/// [X448 derive bits](https://wicg.github.io/webcrypto-secure-curves/#x448-operations-derive-bits)
/// before the family's own.
pub(crate) fn derive_checks(key: &KeyParts, public: &KeyParts) -> Outcome<()> {
    // 1. If the [[type]] internal slot of key is not "private", then throw an
    //    InvalidAccessError.
    if key.key_type != KeyType::Private {
        return Err(Failure::invalid_access("the base key is not a private key"));
    }
    // 3. If the [[type]] internal slot of publicKey is not "public", then throw an
    //    InvalidAccessError.
    if public.key_type != KeyType::Public {
        return Err(Failure::invalid_access(
            "the public member is not a public key",
        ));
    }
    // 4. If the name attribute of publicKey's [[algorithm]] is not equal to key's, throw an
    //    InvalidAccessError.
    if public.algorithm.name() != key.algorithm.name() {
        return Err(Failure::invalid_access(format!(
            "the public key is an {} key, not {}",
            public.algorithm.name(),
            key.algorithm.name()
        )));
    }
    Ok(())
}

/// "If usages contains an entry which is not one of `allowed`, then throw a SyntaxError."
pub(crate) fn usages_within(usages: Usages, allowed: Usages, what: &str) -> Outcome<()> {
    if !usages.within(allowed) {
        return Err(Failure::syntax(format!("invalid usages for {what}")));
    }
    Ok(())
}

/// The JWK checks every asymmetric import makes: `kty`, `use` (when usages is non-empty),
/// `key_ops` and `ext`.
pub(crate) fn jwk_checks(
    jwk: &Jwk,
    kty: &str,
    use_value: &str,
    usages: Usages,
    extractable: bool,
) -> Outcome<()> {
    // If the kty field of jwk is not kty, then throw a DataError.
    if jwk.kty.as_deref() != Some(kty) {
        return Err(Failure::data(format!("the JWK kty is not '{kty}'")));
    }
    jwk.check_use_ops_ext(use_value, usages, extractable)
}

/// A base64url JWK member that must be present.
pub(crate) fn jwk_member(value: Option<&String>, name: &str) -> Outcome<Vec<u8>> {
    let Some(value) = value else {
        return Err(Failure::data(format!("the JWK has no '{name}'")));
    };
    base64url_decode(value)
}

pub(crate) fn parts(
    key_type: KeyType,
    algorithm: KeyAlgorithm,
    extractable: bool,
    usages: Usages,
    material: Vec<u8>,
) -> KeyParts {
    KeyParts {
        key_type,
        extractable,
        algorithm,
        usages,
        material,
    }
}

pub(crate) fn der_failure(_: der::Error) -> Failure {
    Failure::operation("DER encoding failed")
}

/// Parse a SubjectPublicKeyInfo: its algorithm identifier and the public key's bytes (a
/// BIT STRING with no unused bits).
pub(crate) fn parse_spki(bytes: &[u8]) -> Outcome<(AlgorithmIdentifierRef<'_>, &[u8])> {
    let spki = SubjectPublicKeyInfoRef::from_der(bytes)
        .map_err(|_| Failure::data("the key data is not a DER SubjectPublicKeyInfo"))?;
    let key = spki
        .subject_public_key
        .as_bytes()
        .ok_or_else(|| Failure::data("the SubjectPublicKeyInfo's key has unused bits"))?;
    Ok((spki.algorithm, key))
}

/// Parse a PrivateKeyInfo: its algorithm identifier and the private key's bytes.
pub(crate) fn parse_pkcs8(bytes: &[u8]) -> Outcome<(AlgorithmIdentifierRef<'_>, &[u8])> {
    let info = pkcs8::PrivateKeyInfo::from_der(bytes)
        .map_err(|_| Failure::data("the key data is not a DER PrivateKeyInfo"))?;
    Ok((info.algorithm, info.private_key))
}

pub(crate) fn encode_spki(algorithm: AlgorithmIdentifierRef<'_>, key: &[u8]) -> Outcome<Vec<u8>> {
    let spki = SubjectPublicKeyInfoRef {
        algorithm,
        subject_public_key: BitStringRef::from_bytes(key).map_err(der_failure)?,
    };
    spki.to_der().map_err(der_failure)
}

pub(crate) fn encode_pkcs8(algorithm: AlgorithmIdentifierRef<'_>, key: &[u8]) -> Outcome<Vec<u8>> {
    pkcs8::PrivateKeyInfo::new(algorithm, key)
        .to_der()
        .map_err(der_failure)
}

/// A JWK object from its members (the map keeps them in lexicographic order, as the
/// `JsonWebKey` dictionary's conversion does).
pub(crate) fn jwk_object(
    key: &KeyParts,
    kty: &str,
    members: Vec<(&str, Value)>,
) -> serde_json::Map<String, Value> {
    let mut jwk = serde_json::Map::new();
    jwk.insert("kty".into(), Value::String(kty.into()));
    jwk.insert("ext".into(), Value::Bool(key.extractable));
    jwk.insert("key_ops".into(), jwk_key_ops(key.usages));
    for (name, value) in members {
        jwk.insert(name.into(), value);
    }
    jwk
}

pub(crate) fn b64(bytes: &[u8]) -> Value {
    Value::String(base64url_encode(bytes))
}

/// Truncate a shared secret to `length` bits: null is the whole secret; more bits than it
/// has is an OperationError; the bits past `length` in the last byte are zero.
pub(crate) fn truncate_secret(
    mut secret: Vec<u8>,
    bits: u32,
    length: Option<u32>,
) -> Outcome<Vec<u8>> {
    let Some(length) = length else {
        return Ok(secret);
    };
    if length > bits {
        return Err(Failure::operation(format!(
            "the length ({length}) is more than the {bits} bits of the shared secret"
        )));
    }
    secret.truncate(length.div_ceil(8) as usize);
    let rem = length % 8;
    if rem != 0 {
        if let Some(last) = secret.last_mut() {
            *last &= 0xffu8 << (8 - rem);
        }
    }
    Ok(secret)
}
