//! [HMAC](https://w3c.github.io/webcrypto/#hmac): generate key, import key, export key, sign,
//! verify and get key length (RustCrypto's `hmac`).

use boa_engine::{Context, JsResult};
use hmac::{Hmac as HmacOf, Mac};
use sha1::Sha1;
use sha2::{Sha256, Sha384, Sha512};

use super::oct::{export_secret, jwk_oct_checks, random_bytes, secret, truncate_bits};
use crate::algorithm::{
    no_generate, no_import, Algorithm, Generated, KeyGeneration, KeyImport, Members, Normalized,
    Op, Params, Plain,
};
use crate::convert::enforce_range;
use crate::failure::{Failure, Outcome};
use crate::hash::Hash;
use crate::jwk::{Exported, KeyData, KeyFormat};
use crate::records::{KeyAlgorithm, KeyParts, Usages};

/// The HMAC family.
pub(crate) struct Hmac;

/// `HmacKeyGenParams` / `HmacImportParams` (also get key length's).
#[derive(Debug, Clone, Copy)]
struct KeyParams {
    hash: Hash,
    length: Option<u32>,
}

/// The JWK `alg` of HMAC with `hash`.
fn jwk_alg(hash: Hash) -> &'static str {
    match hash {
        Hash::Sha1 => "HS1",
        Hash::Sha256 => "HS256",
        Hash::Sha384 => "HS384",
        Hash::Sha512 => "HS512",
    }
}

fn hmac_with<M: Mac + hmac::digest::KeyInit>(key: &[u8], data: &[u8]) -> Outcome<Vec<u8>> {
    let mut mac = <M as hmac::digest::KeyInit>::new_from_slice(key)
        .map_err(|_| Failure::operation("invalid HMAC key length"))?;
    mac.update(data);
    Ok(mac.finalize().into_bytes().to_vec())
}

/// The MAC of `data` under `key` with HMAC-`hash` ([sign](https://w3c.github.io/webcrypto/#hmac-operations-sign)).
pub(crate) fn hmac_sign(hash: Hash, key: &[u8], data: &[u8]) -> Outcome<Vec<u8>> {
    match hash {
        Hash::Sha1 => hmac_with::<HmacOf<Sha1>>(key, data),
        Hash::Sha256 => hmac_with::<HmacOf<Sha256>>(key, data),
        Hash::Sha384 => hmac_with::<HmacOf<Sha384>>(key, data),
        Hash::Sha512 => hmac_with::<HmacOf<Sha512>>(key, data),
    }
}

fn verify_with<M: Mac + hmac::digest::KeyInit>(
    key: &[u8],
    data: &[u8],
    signature: &[u8],
) -> Outcome<bool> {
    let mut mac = <M as hmac::digest::KeyInit>::new_from_slice(key)
        .map_err(|_| Failure::operation("invalid HMAC key length"))?;
    mac.update(data);
    // Constant-time comparison (the crate's `verify_slice`).
    Ok(mac.verify_slice(signature).is_ok())
}

/// [verify](https://w3c.github.io/webcrypto/#hmac-operations-verify): whether `signature` is
/// the MAC of `data` under `key`.
pub(crate) fn hmac_verify(hash: Hash, key: &[u8], data: &[u8], signature: &[u8]) -> Outcome<bool> {
    match hash {
        Hash::Sha1 => verify_with::<HmacOf<Sha1>>(key, data, signature),
        Hash::Sha256 => verify_with::<HmacOf<Sha256>>(key, data, signature),
        Hash::Sha384 => verify_with::<HmacOf<Sha384>>(key, data, signature),
        Hash::Sha512 => verify_with::<HmacOf<Sha512>>(key, data, signature),
    }
}

/// The hash of an HMAC key.
fn key_hash(key: &KeyParts) -> Outcome<Hash> {
    match key.algorithm {
        KeyAlgorithm::Hmac { hash, .. } => Ok(hash),
        _ => Err(crate::algorithm::unsupported()),
    }
}

/// [HMAC import key](https://w3c.github.io/webcrypto/#hmac-operations-import-key).
fn import(
    params: KeyParams,
    format: KeyFormat,
    data: &KeyData,
    extractable: bool,
    usages: Usages,
) -> Outcome<KeyParts> {
    let KeyParams { hash, length } = params;
    // 2. If usages contains an entry which is not "sign" or "verify", throw SyntaxError.
    if !usages.within(Usages::of(&["sign", "verify"])) {
        return Err(Failure::syntax("HMAC keys are only for sign and verify"));
    }
    let bytes = match (format, data) {
        (KeyFormat::Raw, KeyData::Bytes(b)) => b.clone(),
        (KeyFormat::Jwk, KeyData::Jwk(jwk)) => {
            let bytes = jwk_oct_checks(jwk, usages, "sign", extractable)?;
            // If the alg field of jwk is present and is not the hash's, DataError.
            if jwk.alg.as_deref().is_some_and(|a| a != jwk_alg(hash)) {
                return Err(Failure::data("the JWK alg does not match the hash"));
            }
            bytes
        }
        _ => return Err(Failure::not_supported("HMAC keys import from raw or jwk")),
    };
    // 5. Let length be the length in bits of data; if zero, throw a DataError.
    let bits = u32::try_from(bytes.len())
        .ok()
        .and_then(|n| n.checked_mul(8))
        .ok_or_else(|| Failure::data("the HMAC key is too long"))?;
    if bits == 0 {
        return Err(Failure::data("the HMAC key is empty"));
    }
    // 6. If the length member of normalizedAlgorithm is present: greater than length,
    //    or less than or equal to length minus eight: DataError.
    let length = match length {
        None => bits,
        Some(l) if l > bits || l <= bits - 8 => {
            return Err(Failure::data("the HMAC length does not match the key data"))
        }
        Some(l) => l,
    };
    Ok(secret(
        KeyAlgorithm::Hmac { hash, length },
        extractable,
        usages,
        truncate_bits(bytes, length),
    ))
}

impl Algorithm for Hmac {
    fn normalize(&self, members: &Members<'_>, ctx: &mut Context) -> JsResult<Params> {
        let op = members.op;
        if !matches!(op, Op::GenerateKey | Op::ImportKey | Op::GetKeyLength) {
            return Ok(Box::new(Plain));
        }
        let d = if op == Op::GenerateKey {
            "HmacKeyGenParams"
        } else {
            "HmacImportParams"
        };
        let hash = members.hash(d, ctx)?;
        let length = match members.get("length", ctx)? {
            None => None,
            Some(v) => Some(enforce_range(&v, f64::from(u32::MAX), "length", ctx)? as u32),
        };
        Ok(Box::new(KeyParams { hash, length }))
    }

    /// [HMAC generate key](https://w3c.github.io/webcrypto/#hmac-operations-generate-key).
    fn generate_key(&self, alg: &Normalized, request: KeyGeneration) -> Outcome<Generated> {
        let KeyGeneration {
            extractable,
            usages,
        } = request;
        let Some(&KeyParams { hash, length }) = alg.params() else {
            return Err(no_generate());
        };
        // 1. If usages contains any entry which is not "sign" or "verify", then throw a
        //    SyntaxError.
        if !usages.within(Usages::of(&["sign", "verify"])) {
            return Err(Failure::syntax("HMAC keys are only for sign and verify"));
        }
        // 2. The length: the given one if non-zero, else the hash's block size.
        let length = match length {
            None => hash.block_bits(),
            Some(0) => return Err(Failure::operation("the HMAC key length is zero")),
            Some(n) => n,
        };
        // 3. Generate a key of length bits.
        let bytes = random_bytes(length.div_ceil(8) as usize)?;
        let material = truncate_bits(bytes, length);
        let algorithm = KeyAlgorithm::Hmac { hash, length };
        Ok(Generated::Key(secret(
            algorithm,
            extractable,
            usages,
            material,
        )))
    }

    fn import_key(&self, alg: &Normalized, request: &KeyImport<'_>) -> Outcome<KeyParts> {
        let (format, data, extractable, usages) = request.parts();
        let Some(&params) = alg.params() else {
            return Err(no_import());
        };
        import(params, format, data, extractable, usages)
    }

    /// [HMAC export key](https://w3c.github.io/webcrypto/#hmac-operations-export-key).
    fn export_key(&self, format: KeyFormat, key: &KeyParts) -> Outcome<Exported> {
        let hash = key_hash(key)?;
        export_secret(format, key, jwk_alg(hash).to_owned())
    }

    fn sign(&self, _alg: &Normalized, key: &KeyParts, data: &[u8]) -> Outcome<Vec<u8>> {
        hmac_sign(key_hash(key)?, &key.material, data)
    }

    fn verify(
        &self,
        _alg: &Normalized,
        key: &KeyParts,
        data: &[u8],
        signature: &[u8],
    ) -> Outcome<bool> {
        hmac_verify(key_hash(key)?, &key.material, data, signature)
    }

    /// [HMAC get key length](https://w3c.github.io/webcrypto/#hmac-operations-get-key-length).
    fn get_key_length(&self, alg: &Normalized) -> Outcome<Option<u32>> {
        match alg.params::<KeyParams>().map(|p| p.length) {
            None => Ok(None),
            Some(None) => Ok(alg.params::<KeyParams>().map(|p| p.hash.block_bits())),
            Some(Some(0)) => Err(Failure::new("TypeError", "the HMAC length is zero")),
            Some(Some(n)) => Ok(Some(n)),
        }
    }
}
