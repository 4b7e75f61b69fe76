//! What the secret-key families (HMAC, AES, PBKDF2, HKDF) share: random key bytes, the
//! `oct` JWK checks and export, and truncation to a bit length.

use crate::failure::{Failure, Outcome};
use crate::jwk::{base64url_decode, base64url_encode, Exported, Jwk, KeyFormat};
use crate::records::{KeyAlgorithm, KeyParts, KeyType, Usages};

/// `n` bytes from the operating system's generator.
pub(crate) fn random_bytes(n: usize) -> Outcome<Vec<u8>> {
    let mut out = vec![0; n];
    getrandom::fill(&mut out)
        .map_err(|e| Failure::operation(format!("the OS random generator failed: {e}")))?;
    Ok(out)
}

/// A secret key's slots.
pub(crate) fn secret(
    algorithm: KeyAlgorithm,
    extractable: bool,
    usages: Usages,
    material: Vec<u8>,
) -> KeyParts {
    KeyParts {
        key_type: KeyType::Secret,
        extractable,
        algorithm,
        usages,
        material,
    }
}

/// The JWK checks shared by the secret-key algorithms: `kty` "oct", `k` present, `use`,
/// `key_ops` and `ext` consistent with the import. Returns the key bytes.
pub(crate) fn jwk_oct_checks(
    jwk: &Jwk,
    usages: Usages,
    use_value: &str,
    extractable: bool,
) -> Outcome<Vec<u8>> {
    // If the kty field of jwk is not "oct", then throw a DataError.
    if jwk.kty.as_deref() != Some("oct") {
        return Err(Failure::data("the JWK kty is not 'oct'"));
    }
    // If jwk does not meet the requirements of Section 6.4 of JSON Web Algorithms, then throw
    // a DataError (k is required).
    let Some(k) = &jwk.k else {
        return Err(Failure::data("the JWK has no 'k'"));
    };
    let data = base64url_decode(k)?;
    jwk.check_use_ops_ext(use_value, usages, extractable)?;
    Ok(data)
}

/// Zero the bits of `bytes` past `bits`.
pub(crate) fn truncate_bits(mut bytes: Vec<u8>, bits: u32) -> Vec<u8> {
    let rem = bits % 8;
    if rem != 0 {
        if let Some(last) = bytes.last_mut() {
            *last &= 0xffu8 << (8 - rem);
        }
    }
    bytes
}

/// The export key steps of a secret key whose JWK `alg` is `jwk_alg`: the [[extractable]]
/// check, then raw or jwk.
pub(crate) fn export_secret(
    format: KeyFormat,
    key: &KeyParts,
    jwk_alg: String,
) -> Outcome<Exported> {
    // 4. If the [[extractable]] internal slot of key is false, then throw an
    //    InvalidAccessError.
    if !key.extractable {
        return Err(Failure::invalid_access("the key is not extractable"));
    }
    match format {
        KeyFormat::Raw => Ok(Exported::Bytes(key.material.clone())),
        KeyFormat::Jwk => {
            use serde_json::Value;
            let mut jwk = serde_json::Map::new();
            jwk.insert("alg".into(), Value::String(jwk_alg));
            jwk.insert("ext".into(), Value::Bool(key.extractable));
            jwk.insert("k".into(), Value::String(base64url_encode(&key.material)));
            jwk.insert("key_ops".into(), jwk_key_ops(key.usages));
            jwk.insert("kty".into(), Value::String("oct".into()));
            Ok(Exported::Jwk(jwk))
        }
        _ => Err(Failure::not_supported(format!(
            "{} keys export to raw or jwk",
            key.algorithm.name()
        ))),
    }
}

/// A JWK's `key_ops` member: the key's usages, in the recognized order.
pub(crate) fn jwk_key_ops(usages: Usages) -> serde_json::Value {
    serde_json::Value::Array(
        usages
            .names()
            .map(|u| serde_json::Value::String(u.into()))
            .collect(),
    )
}
