//! The key derivation functions [PBKDF2](https://w3c.github.io/webcrypto/#pbkdf2) and
//! [HKDF](https://w3c.github.io/webcrypto/#hkdf): import key, derive bits and get key length
//! (RustCrypto's `pbkdf2` and `hkdf`).

use boa_engine::{Context, JsResult};
use hmac::Hmac;
use sha1::Sha1;
use sha2::{Sha256, Sha384, Sha512};

use super::oct::secret;
use crate::algorithm::{unsupported, Algorithm, KeyImport, Members, Normalized, Op, Params, Plain};
use crate::convert::{buffer_source_bytes, enforce_range};
use crate::failure::{Failure, Outcome};
use crate::hash::Hash;
use crate::jwk::{KeyData, KeyFormat};
use crate::records::{KeyAlgorithm, KeyParts, Usages};

/// PBKDF2 with at least this many iterations is heavy (a worker thread's work).
pub(crate) const HEAVY_ITERATIONS: u32 = 10_000;

/// The PBKDF2 and HKDF family.
pub(crate) struct Kdf;

/// The normalized dictionaries of derive bits.
#[derive(Debug, Clone)]
enum KdfParams {
    /// `Pbkdf2Params`.
    Pbkdf2 {
        hash: Hash,
        iterations: u32,
        salt: Vec<u8>,
    },
    /// `HkdfParams`.
    Hkdf {
        hash: Hash,
        info: Vec<u8>,
        salt: Vec<u8>,
    },
}

/// PBKDF2 with HMAC-`hash` ([derive bits](https://w3c.github.io/webcrypto/#pbkdf2-operations-derive-bits)).
pub(crate) fn pbkdf2(
    hash: Hash,
    password: &[u8],
    salt: &[u8],
    iterations: u32,
    out: &mut [u8],
) -> Outcome<()> {
    let result = match hash {
        Hash::Sha1 => pbkdf2::pbkdf2::<Hmac<Sha1>>(password, salt, iterations, out),
        Hash::Sha256 => pbkdf2::pbkdf2::<Hmac<Sha256>>(password, salt, iterations, out),
        Hash::Sha384 => pbkdf2::pbkdf2::<Hmac<Sha384>>(password, salt, iterations, out),
        Hash::Sha512 => pbkdf2::pbkdf2::<Hmac<Sha512>>(password, salt, iterations, out),
    };
    result.map_err(|_| Failure::operation("PBKDF2 failed"))
}

/// HKDF extract-and-expand with `hash` ([derive bits](https://w3c.github.io/webcrypto/#hkdf-operations-derive-bits)).
pub(crate) fn hkdf(
    hash: Hash,
    ikm: &[u8],
    salt: &[u8],
    info: &[u8],
    out: &mut [u8],
) -> Outcome<()> {
    let too_long = |_| Failure::operation("the HKDF output length is too large for the hash");
    match hash {
        Hash::Sha1 => hkdf::Hkdf::<Sha1>::new(Some(salt), ikm)
            .expand(info, out)
            .map_err(too_long),
        Hash::Sha256 => hkdf::Hkdf::<Sha256>::new(Some(salt), ikm)
            .expand(info, out)
            .map_err(too_long),
        Hash::Sha384 => hkdf::Hkdf::<Sha384>::new(Some(salt), ikm)
            .expand(info, out)
            .map_err(too_long),
        Hash::Sha512 => hkdf::Hkdf::<Sha512>::new(Some(salt), ikm)
            .expand(info, out)
            .map_err(too_long),
    }
}

impl Algorithm for Kdf {
    fn normalize(&self, members: &Members<'_>, ctx: &mut Context) -> JsResult<Params> {
        let (name, op) = (members.name, members.op);
        match (op, name) {
            (Op::DeriveBits, "PBKDF2") => {
                let hash = members.hash("Pbkdf2Params", ctx)?;
                let v = members.required("iterations", "Pbkdf2Params", ctx)?;
                let iterations = enforce_range(&v, f64::from(u32::MAX), "iterations", ctx)? as u32;
                let v = members.required("salt", "Pbkdf2Params", ctx)?;
                let salt = buffer_source_bytes(&v, "salt", ctx)?;
                Ok(Box::new(KdfParams::Pbkdf2 {
                    hash,
                    iterations,
                    salt,
                }))
            }
            (Op::DeriveBits, "HKDF") => {
                let hash = members.hash("HkdfParams", ctx)?;
                let v = members.required("info", "HkdfParams", ctx)?;
                let info = buffer_source_bytes(&v, "info", ctx)?;
                let v = members.required("salt", "HkdfParams", ctx)?;
                let salt = buffer_source_bytes(&v, "salt", ctx)?;
                Ok(Box::new(KdfParams::Hkdf { hash, info, salt }))
            }
            _ => Ok(Box::new(Plain)),
        }
    }

    fn heavy(&self, alg: &Normalized) -> bool {
        matches!(alg.params(), Some(KdfParams::Pbkdf2 { iterations, .. }) if *iterations >= HEAVY_ITERATIONS)
    }

    /// [PBKDF2 import key](https://w3c.github.io/webcrypto/#pbkdf2-operations-import-key)
    /// (and HKDF's).
    fn import_key(&self, alg: &Normalized, request: &KeyImport<'_>) -> Outcome<KeyParts> {
        let (format, data, extractable, usages) = request.parts();
        let name = alg.name;
        // 1. If format is not "raw", throw a NotSupportedError.
        let (KeyFormat::Raw, KeyData::Bytes(bytes)) = (format, data) else {
            return Err(Failure::not_supported(format!(
                "{name} keys import from raw only"
            )));
        };
        // 2. If usages contains a value that is not "deriveKey" or "deriveBits", then
        //    throw a SyntaxError.
        if !usages.within(Usages::of(&["deriveKey", "deriveBits"])) {
            return Err(Failure::syntax(format!(
                "{name} keys are only for deriveKey and deriveBits"
            )));
        }
        // 3. If extractable is not false, then throw a SyntaxError.
        if extractable {
            return Err(Failure::syntax(format!(
                "{name} keys cannot be extractable"
            )));
        }
        let algorithm = if name == "PBKDF2" {
            KeyAlgorithm::Pbkdf2
        } else {
            KeyAlgorithm::Hkdf
        };
        Ok(secret(algorithm, extractable, usages, bytes.clone()))
    }

    fn derive_bits(
        &self,
        alg: &Normalized,
        key: &KeyParts,
        length: Option<u32>,
    ) -> Outcome<Vec<u8>> {
        // If length is null or is not a multiple of 8, then throw an OperationError.
        let Some(length) = length.filter(|l| l % 8 == 0) else {
            return Err(Failure::operation("the length must be a multiple of 8"));
        };
        let mut out = vec![0; (length / 8) as usize];
        match alg.params::<KdfParams>() {
            // https://w3c.github.io/webcrypto/#pbkdf2-operations-derive-bits
            Some(KdfParams::Pbkdf2 {
                hash,
                iterations,
                salt,
            }) => {
                // If the iterations member of normalizedAlgorithm is zero, throw an
                // OperationError.
                if *iterations == 0 {
                    return Err(Failure::operation("PBKDF2 iterations must not be zero"));
                }
                if length == 0 {
                    return Ok(out);
                }
                pbkdf2(*hash, &key.material, salt, *iterations, &mut out)?;
            }
            // https://w3c.github.io/webcrypto/#hkdf-operations-derive-bits
            Some(KdfParams::Hkdf { hash, info, salt }) => {
                hkdf(*hash, &key.material, salt, info, &mut out)?;
            }
            None => return Err(unsupported()),
        }
        Ok(out)
    }
}
