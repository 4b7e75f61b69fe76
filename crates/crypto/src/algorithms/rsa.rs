//! [RSASSA-PKCS1-v1_5](https://w3c.github.io/webcrypto/#rsassa-pkcs1),
//! [RSA-PSS](https://w3c.github.io/webcrypto/#rsa-pss) and
//! [RSA-OAEP](https://w3c.github.io/webcrypto/#rsa-oaep): generate key, import key, export
//! key, sign, verify, encrypt and decrypt (RustCrypto's `rsa`; the DER structures are
//! `spki`'s, `pkcs8`'s and `pkcs1`'s).

use boa_engine::{Context, JsResult};
use der::{
    asn1::{AnyRef, ObjectIdentifier, UintRef},
    Decode, Encode,
};
use rand_core::OsRng;
use rsa::{
    pkcs1::{DecodeRsaPrivateKey, DecodeRsaPublicKey, EncodeRsaPrivateKey, EncodeRsaPublicKey},
    traits::PublicKeyParts,
    BigUint, Oaep, Pkcs1v15Sign, Pss, RsaPrivateKey, RsaPublicKey,
};
use serde_json::Value;
use spki::AlgorithmIdentifierRef;

use super::pki::{
    b64, check_extractable, encode_pkcs8, encode_spki, jwk_checks, jwk_member, jwk_object,
    parse_pkcs8, parse_spki, parts, usages_within,
};
use crate::algorithm::{
    no_generate, no_import, unsupported, Algorithm, Generated, KeyGeneration, KeyImport, Members,
    Normalized, Op, Params, Plain,
};
use crate::convert::{big_integer, buffer_source_bytes, enforce_range};
use crate::failure::{Failure, Outcome};
use crate::hash::Hash;
use crate::jwk::{Exported, Jwk, KeyData, KeyFormat};
use crate::names::RsaScheme;
use crate::records::{KeyAlgorithm, KeyParts, KeyType, Usages};

/// `rsaEncryption` (RFC 3447).
const RSA_ENCRYPTION: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.1");

/// The largest RSA modulus, in bits, this implementation generates or imports (the `rsa`
/// crate's limit for public keys).
pub(crate) const MAX_RSA_BITS: u32 = 4096;
/// The smallest RSA modulus, in bits, this implementation generates.
pub(crate) const MIN_RSA_BITS: u32 = 256;

/// The RSASSA-PKCS1-v1_5, RSA-PSS and RSA-OAEP family.
pub(crate) struct Rsa;

/// The normalized dictionaries of RSA.
#[derive(Debug, Clone)]
enum RsaParams {
    /// `RsaHashedKeyGenParams`.
    Gen {
        modulus_length: u32,
        public_exponent: Vec<u8>,
        hash: Hash,
    },
    /// `RsaHashedImportParams`.
    Import { hash: Hash },
    /// `RsaPssParams`.
    Pss { salt_length: u32 },
    /// `RsaOaepParams`.
    Oaep { label: Option<Vec<u8>> },
}

/// The usages of (public, private) keys of `scheme`.
fn scheme_usages(scheme: RsaScheme) -> (Usages, Usages) {
    match scheme {
        RsaScheme::Pkcs1 | RsaScheme::Pss => (Usages::of(&["verify"]), Usages::of(&["sign"])),
        RsaScheme::Oaep => (
            Usages::of(&["encrypt", "wrapKey"]),
            Usages::of(&["decrypt", "unwrapKey"]),
        ),
    }
}

/// `$body` with `$d` the hash function's type.
macro_rules! per_hash {
    ($hash:expr, $d:ident => $body:expr) => {
        per_hash!(@arms $hash, $d, $body;
            Sha1 => sha1::Sha1, Sha256 => sha2::Sha256,
            Sha384 => sha2::Sha384, Sha512 => sha2::Sha512)
    };
    (@arms $hash:expr, $d:ident, $body:expr; $($variant:ident => $ty:ty),*) => {
        match $hash {
            $(Hash::$variant => {
                type $d = $ty;
                $body
            })*
        }
    };
}

fn rsa_algorithm(scheme: RsaScheme, hash: Hash, key: &RsaPublicKey) -> KeyAlgorithm {
    KeyAlgorithm::Rsa {
        scheme,
        modulus_length: u32::try_from(key.n().bits()).unwrap_or(u32::MAX),
        public_exponent: key.e().to_bytes_be(),
        hash,
    }
}

fn rsa_private(material: &[u8]) -> Outcome<RsaPrivateKey> {
    RsaPrivateKey::from_pkcs1_der(material)
        .map_err(|_| Failure::operation("the RSA key is invalid"))
}

fn rsa_public(material: &[u8]) -> Outcome<RsaPublicKey> {
    RsaPublicKey::from_pkcs1_der(material).map_err(|_| Failure::operation("the RSA key is invalid"))
}

fn private_der(key: &RsaPrivateKey) -> Outcome<Vec<u8>> {
    key.to_pkcs1_der()
        .map(|d| d.as_bytes().to_vec())
        .map_err(|_| Failure::operation("the RSA key does not encode"))
}

fn public_der(key: &RsaPublicKey) -> Outcome<Vec<u8>> {
    key.to_pkcs1_der()
        .map(|d| d.as_bytes().to_vec())
        .map_err(|_| Failure::operation("the RSA key does not encode"))
}

/// The checks of [RSA generate key](https://w3c.github.io/webcrypto/#rsassa-pkcs1-operations-generate-key)
/// before the generation: usages (SyntaxError), then the modulus length and public exponent
/// this implementation generates (OperationError).
pub(crate) fn rsa_generate_check(
    scheme: RsaScheme,
    modulus_length: u32,
    public_exponent: &[u8],
    usages: Usages,
) -> Outcome<BigUint> {
    let (public_usages, private_usages) = scheme_usages(scheme);
    // 1. If usages contains an entry which is not allowed, then throw a SyntaxError.
    usages_within(usages, public_usages.union(private_usages), scheme.name())?;
    // 2. Generate an RSA key pair with modulusLength bits and publicExponent; if that fails,
    //    throw an OperationError.
    if !(MIN_RSA_BITS..=MAX_RSA_BITS).contains(&modulus_length) {
        return Err(Failure::operation(format!(
            "the RSA modulus length must be between {MIN_RSA_BITS} and {MAX_RSA_BITS} bits"
        )));
    }
    let e = BigUint::from_bytes_be(public_exponent);
    let odd = public_exponent.last().is_some_and(|b| b & 1 == 1);
    if !odd || e < BigUint::from(3u32) || e.bits() > 32 {
        return Err(Failure::operation(
            "the RSA public exponent must be odd, at least 3 and at most 32 bits",
        ));
    }
    Ok(e)
}

/// RSA generate key, after [`rsa_generate_check`]: (public key, private key).
pub(crate) fn rsa_generate(
    scheme: RsaScheme,
    hash: Hash,
    modulus_length: u32,
    e: &BigUint,
    extractable: bool,
    usages: Usages,
) -> Outcome<(KeyParts, KeyParts)> {
    let (public_usages, private_usages) = scheme_usages(scheme);
    let private = RsaPrivateKey::new_with_exp(&mut OsRng, modulus_length as usize, e)
        .map_err(|e| Failure::operation(format!("RSA key generation failed: {e}")))?;
    let public = RsaPublicKey::from(&private);
    let algorithm = rsa_algorithm(scheme, hash, &public);
    Ok((
        parts(
            KeyType::Public,
            algorithm.clone(),
            true,
            usages.intersection(public_usages),
            public_der(&public)?,
        ),
        parts(
            KeyType::Private,
            algorithm,
            extractable,
            usages.intersection(private_usages),
            private_der(&private)?,
        ),
    ))
}

/// The RSA algorithm identifier: rsaEncryption with NULL parameters.
fn rsa_algorithm_identifier() -> AlgorithmIdentifierRef<'static> {
    AlgorithmIdentifierRef {
        oid: RSA_ENCRYPTION,
        parameters: Some(AnyRef::NULL),
    }
}

fn rsa_check_algorithm(algorithm: &AlgorithmIdentifierRef<'_>) -> Outcome<()> {
    // If the algorithm object identifier field is not rsaEncryption, throw a DataError.
    if algorithm.oid != RSA_ENCRYPTION {
        return Err(Failure::data("the key's algorithm is not rsaEncryption"));
    }
    // Its parameters are NULL (or absent).
    if algorithm.parameters.is_some_and(|p| !p.is_null()) {
        return Err(Failure::data("the rsaEncryption parameters are not NULL"));
    }
    Ok(())
}

fn uint<'a>(bytes: &'a [u8], what: &str) -> Outcome<UintRef<'a>> {
    UintRef::new(bytes).map_err(|_| Failure::data(format!("the JWK {what} is not an integer")))
}

/// A NotSupportedError for an RSA key of more than [`MAX_RSA_BITS`] bits.
fn too_big(bits: usize) -> Outcome<()> {
    if bits > MAX_RSA_BITS as usize {
        return Err(Failure::not_supported(format!(
            "RSA keys over {MAX_RSA_BITS} bits are not supported"
        )));
    }
    Ok(())
}

/// [RSASSA-PKCS1-v1_5](https://w3c.github.io/webcrypto/#rsassa-pkcs1-operations-import-key),
/// [RSA-PSS](https://w3c.github.io/webcrypto/#rsa-pss-operations-import-key) and
/// [RSA-OAEP import key](https://w3c.github.io/webcrypto/#rsa-oaep-operations-import-key).
pub(crate) fn rsa_import(
    scheme: RsaScheme,
    hash: Hash,
    format: KeyFormat,
    data: &KeyData,
    extractable: bool,
    usages: Usages,
) -> Outcome<KeyParts> {
    let (public_usages, private_usages) = scheme_usages(scheme);
    let name = scheme.name();
    match (format, data) {
        (KeyFormat::Spki, KeyData::Bytes(bytes)) => {
            usages_within(usages, public_usages, &format!("an {name} public key"))?;
            let (algorithm, key) = parse_spki(bytes)?;
            rsa_check_algorithm(&algorithm)?;
            let public = RsaPublicKey::from_pkcs1_der(key)
                .map_err(|_| Failure::data("the key is not a valid RSAPublicKey"))?;
            let algorithm = rsa_algorithm(scheme, hash, &public);
            Ok(parts(
                KeyType::Public,
                algorithm,
                extractable,
                usages,
                public_der(&public)?,
            ))
        }
        (KeyFormat::Pkcs8, KeyData::Bytes(bytes)) => {
            usages_within(usages, private_usages, &format!("an {name} private key"))?;
            let (algorithm, key) = parse_pkcs8(bytes)?;
            rsa_check_algorithm(&algorithm)?;
            let parsed = rsa::pkcs1::RsaPrivateKey::from_der(key)
                .map_err(|_| Failure::data("the key is not a DER RSAPrivateKey"))?;
            too_big(parsed.modulus.as_bytes().len() * 8)?;
            let private = RsaPrivateKey::from_pkcs1_der(key)
                .map_err(|_| Failure::data("the key is not a valid RSAPrivateKey"))?;
            let algorithm = rsa_algorithm(scheme, hash, &RsaPublicKey::from(&private));
            Ok(parts(
                KeyType::Private,
                algorithm,
                extractable,
                usages,
                private_der(&private)?,
            ))
        }
        (KeyFormat::Jwk, KeyData::Jwk(jwk)) => {
            rsa_import_jwk(scheme, hash, jwk, extractable, usages)
        }
        _ => Err(Failure::not_supported(format!(
            "{name} keys import from spki, pkcs8 or jwk"
        ))),
    }
}

/// The jwk branch of [`rsa_import`].
fn rsa_import_jwk(
    scheme: RsaScheme,
    hash: Hash,
    jwk: &Jwk,
    extractable: bool,
    usages: Usages,
) -> Outcome<KeyParts> {
    let (public_usages, private_usages) = scheme_usages(scheme);
    let name = scheme.name();
    let private = jwk.d.is_some();
    let allowed = if private {
        private_usages
    } else {
        public_usages
    };
    usages_within(usages, allowed, &format!("an {name} key"))?;
    jwk_checks(jwk, "RSA", scheme.jwk_use(), usages, extractable)?;
    // If the alg field of jwk is present and is not the scheme's with the hash,
    // throw a DataError.
    let expected = scheme.jwk_alg(hash);
    if jwk.alg.as_deref().is_some_and(|a| a != expected) {
        return Err(Failure::data(format!("the JWK alg is not '{expected}'")));
    }
    let n = jwk_member(jwk.n.as_ref(), "n")?;
    let e = jwk_member(jwk.e.as_ref(), "e")?;
    too_big(n.len() * 8)?;
    if !private {
        let public = RsaPublicKey::new(BigUint::from_bytes_be(&n), BigUint::from_bytes_be(&e))
            .map_err(|_| Failure::data("the JWK is not a valid RSA public key"))?;
        let algorithm = rsa_algorithm(scheme, hash, &public);
        return Ok(parts(
            KeyType::Public,
            algorithm,
            extractable,
            usages,
            public_der(&public)?,
        ));
    }
    // The private key: n, e, d and the CRT members (JWA 6.3.2).
    if jwk.oth {
        return Err(Failure::not_supported(
            "multi-prime RSA keys (the JWK oth member) are not supported",
        ));
    }
    let d = jwk_member(jwk.d.as_ref(), "d")?;
    let p = jwk_member(jwk.p.as_ref(), "p")?;
    let q = jwk_member(jwk.q.as_ref(), "q")?;
    let dp = jwk_member(jwk.dp.as_ref(), "dp")?;
    let dq = jwk_member(jwk.dq.as_ref(), "dq")?;
    let qi = jwk_member(jwk.qi.as_ref(), "qi")?;
    let pkcs1 = rsa::pkcs1::RsaPrivateKey {
        modulus: uint(&n, "n")?,
        public_exponent: uint(&e, "e")?,
        private_exponent: uint(&d, "d")?,
        prime1: uint(&p, "p")?,
        prime2: uint(&q, "q")?,
        exponent1: uint(&dp, "dp")?,
        exponent2: uint(&dq, "dq")?,
        coefficient: uint(&qi, "qi")?,
        other_prime_infos: None,
    };
    let der = pkcs1
        .to_der()
        .map_err(|_| Failure::data("the JWK is not a valid RSA private key"))?;
    let private = RsaPrivateKey::from_pkcs1_der(&der)
        .map_err(|_| Failure::data("the JWK is not a valid RSA private key"))?;
    // The CRT members must be the key's own (the crate recomputes them).
    let canonical = private_der(&private)?;
    if canonical != der {
        return Err(Failure::data(
            "the JWK's RSA private key members are inconsistent",
        ));
    }
    let algorithm = rsa_algorithm(scheme, hash, &RsaPublicKey::from(&private));
    Ok(parts(
        KeyType::Private,
        algorithm,
        extractable,
        usages,
        canonical,
    ))
}

fn rsa_export(
    scheme: RsaScheme,
    hash: Hash,
    format: KeyFormat,
    key: &KeyParts,
) -> Outcome<Exported> {
    match format {
        KeyFormat::Spki => {
            if key.key_type != KeyType::Public {
                return Err(Failure::invalid_access("only a public key exports to spki"));
            }
            encode_spki(rsa_algorithm_identifier(), &key.material).map(Exported::Bytes)
        }
        KeyFormat::Pkcs8 => {
            if key.key_type != KeyType::Private {
                return Err(Failure::invalid_access(
                    "only a private key exports to pkcs8",
                ));
            }
            encode_pkcs8(rsa_algorithm_identifier(), &key.material).map(Exported::Bytes)
        }
        KeyFormat::Jwk => {
            let alg = Value::String(scheme.jwk_alg(hash).into());
            let members = if key.key_type == KeyType::Private {
                let k = rsa::pkcs1::RsaPrivateKey::from_der(&key.material)
                    .map_err(|_| Failure::operation("the RSA key is invalid"))?;
                vec![
                    ("alg", alg),
                    ("n", b64(k.modulus.as_bytes())),
                    ("e", b64(k.public_exponent.as_bytes())),
                    ("d", b64(k.private_exponent.as_bytes())),
                    ("p", b64(k.prime1.as_bytes())),
                    ("q", b64(k.prime2.as_bytes())),
                    ("dp", b64(k.exponent1.as_bytes())),
                    ("dq", b64(k.exponent2.as_bytes())),
                    ("qi", b64(k.coefficient.as_bytes())),
                ]
            } else {
                let k = rsa::pkcs1::RsaPublicKey::from_der(&key.material)
                    .map_err(|_| Failure::operation("the RSA key is invalid"))?;
                vec![
                    ("alg", alg),
                    ("n", b64(k.modulus.as_bytes())),
                    ("e", b64(k.public_exponent.as_bytes())),
                ]
            };
            Ok(Exported::Jwk(jwk_object(key, "RSA", members)))
        }
        KeyFormat::Raw => Err(Failure::not_supported("RSA keys do not export to raw")),
    }
}

/// [RSASSA-PKCS1-v1_5 sign](https://w3c.github.io/webcrypto/#rsassa-pkcs1-operations-sign)
/// (`salt_length` None) or [RSA-PSS sign](https://w3c.github.io/webcrypto/#rsa-pss-operations-sign).
pub(crate) fn rsa_sign(
    hash: Hash,
    salt_length: Option<u32>,
    private: &[u8],
    data: &[u8],
) -> Outcome<Vec<u8>> {
    let key = rsa_private(private)?;
    let digest = hash.digest(data);
    let result = per_hash!(hash, D => match salt_length {
        None => key.sign(Pkcs1v15Sign::new::<D>(), &digest),
        Some(salt) => key.sign_with_rng(&mut OsRng, Pss::new_with_salt::<D>(salt as usize), &digest),
    });
    result.map_err(|e| Failure::operation(format!("RSA signing failed: {e}")))
}

/// [RSASSA-PKCS1-v1_5](https://w3c.github.io/webcrypto/#rsassa-pkcs1-operations-verify) /
/// [RSA-PSS verify](https://w3c.github.io/webcrypto/#rsa-pss-operations-verify).
pub(crate) fn rsa_verify(
    hash: Hash,
    salt_length: Option<u32>,
    public: &[u8],
    data: &[u8],
    signature: &[u8],
) -> Outcome<bool> {
    let key = rsa_public(public)?;
    let digest = hash.digest(data);
    let result = per_hash!(hash, D => match salt_length {
        None => key.verify(Pkcs1v15Sign::new::<D>(), &digest, signature),
        Some(salt) => key.verify(Pss::new_with_salt::<D>(salt as usize), &digest, signature),
    });
    Ok(result.is_ok())
}

/// [RSA-OAEP encrypt](https://w3c.github.io/webcrypto/#rsa-oaep-operations-encrypt) /
/// [decrypt](https://w3c.github.io/webcrypto/#rsa-oaep-operations-decrypt) with the key's
/// hash for both the label hash and MGF1.
pub(crate) fn rsa_oaep(
    hash: Hash,
    label: Option<&[u8]>,
    key: &KeyParts,
    data: &[u8],
    encrypt: bool,
) -> Outcome<Vec<u8>> {
    // NOTE: the rsa crate takes the label as a String; a label that is not UTF-8 is
    // reported as not supported (every label the tests and common protocols use is text).
    let label = match label {
        None => None,
        Some([]) => None,
        Some(bytes) => Some(String::from_utf8(bytes.to_vec()).map_err(|_| {
            Failure::not_supported("RSA-OAEP labels that are not UTF-8 are not supported")
        })?),
    };
    let padding = per_hash!(hash, D => match label {
        None => Oaep::new::<D>(),
        Some(l) => Oaep::new_with_label::<D, String>(l),
    });
    if encrypt {
        // If the [[type]] internal slot of key is not "public", throw an InvalidAccessError.
        if key.key_type != KeyType::Public {
            return Err(Failure::invalid_access(
                "RSA-OAEP encrypts with a public key",
            ));
        }
        let public = rsa_public(&key.material)?;
        public
            .encrypt(&mut OsRng, padding, data)
            .map_err(|e| Failure::operation(format!("RSA-OAEP encryption failed: {e}")))
    } else {
        if key.key_type != KeyType::Private {
            return Err(Failure::invalid_access(
                "RSA-OAEP decrypts with a private key",
            ));
        }
        let private = rsa_private(&key.material)?;
        private
            .decrypt(padding, data)
            .map_err(|_| Failure::operation("RSA-OAEP decryption failed"))
    }
}

/// The scheme of the registered name `name`.
fn scheme_of(name: &str) -> Outcome<RsaScheme> {
    RsaScheme::from_name(name).ok_or_else(unsupported)
}

/// The export key operation of an RSA key (after the [[extractable]] check).
pub(crate) fn export(format: KeyFormat, key: &KeyParts) -> Outcome<Exported> {
    let KeyAlgorithm::Rsa { scheme, hash, .. } = key.algorithm else {
        return Err(unsupported());
    };
    rsa_export(scheme, hash, format, key)
}

impl Algorithm for Rsa {
    fn normalize(&self, members: &Members<'_>, ctx: &mut Context) -> JsResult<Params> {
        let (name, op) = (members.name, members.op);
        Ok(match (op, name) {
            (Op::GenerateKey, _) => {
                let d = "RsaHashedKeyGenParams";
                let v = members.required("modulusLength", d, ctx)?;
                let modulus_length =
                    enforce_range(&v, f64::from(u32::MAX), "modulusLength", ctx)? as u32;
                let v = members.required("publicExponent", d, ctx)?;
                let public_exponent = big_integer(&v, ctx)?;
                let hash = members.hash(d, ctx)?;
                Box::new(RsaParams::Gen {
                    modulus_length,
                    public_exponent,
                    hash,
                })
            }
            (Op::ImportKey, _) => Box::new(RsaParams::Import {
                hash: members.hash("RsaHashedImportParams", ctx)?,
            }),
            (Op::Sign | Op::Verify, "RSA-PSS") => {
                let v = members.required("saltLength", "RsaPssParams", ctx)?;
                Box::new(RsaParams::Pss {
                    salt_length: enforce_range(&v, f64::from(u32::MAX), "saltLength", ctx)? as u32,
                })
            }
            (Op::Encrypt | Op::Decrypt, "RSA-OAEP") => {
                let label = match members.get("label", ctx)? {
                    None => None,
                    Some(v) => Some(buffer_source_bytes(&v, "label", ctx)?),
                };
                Box::new(RsaParams::Oaep { label })
            }
            _ => Box::new(Plain),
        })
    }

    fn heavy(&self, alg: &Normalized) -> bool {
        matches!(alg.params(), Some(RsaParams::Gen { .. }))
    }

    fn generate_key(&self, alg: &Normalized, request: KeyGeneration) -> Outcome<Generated> {
        let KeyGeneration {
            extractable,
            usages,
        } = request;
        let Some(RsaParams::Gen {
            modulus_length,
            public_exponent,
            hash,
        }) = alg.params()
        else {
            return Err(no_generate());
        };
        let scheme = scheme_of(alg.name)?;
        let e = rsa_generate_check(scheme, *modulus_length, public_exponent, usages)?;
        // NOTE: the empty-usages SyntaxError of the generateKey steps is checked before the
        // (slow) generation rather than after it: generation cannot fail once the checks
        // above passed, so the outcome is the same.
        if usages.intersection(scheme_usages(scheme).1).is_empty() {
            return Err(Failure::syntax("the private key needs at least one usage"));
        }
        let (public, private) =
            rsa_generate(scheme, *hash, *modulus_length, &e, extractable, usages)?;
        Ok(Generated::Pair { public, private })
    }

    fn import_key(&self, alg: &Normalized, request: &KeyImport<'_>) -> Outcome<KeyParts> {
        let (format, data, extractable, usages) = request.parts();
        let Some(RsaParams::Import { hash }) = alg.params() else {
            return Err(no_import());
        };
        rsa_import(
            scheme_of(alg.name)?,
            *hash,
            format,
            data,
            extractable,
            usages,
        )
    }

    /// [RSASSA-PKCS1-v1_5](https://w3c.github.io/webcrypto/#rsassa-pkcs1-operations-export-key),
    /// [RSA-PSS](https://w3c.github.io/webcrypto/#rsa-pss-operations-export-key) and
    /// [RSA-OAEP export key](https://w3c.github.io/webcrypto/#rsa-oaep-operations-export-key).
    fn export_key(&self, format: KeyFormat, key: &KeyParts) -> Outcome<Exported> {
        check_extractable(key)?;
        export(format, key)
    }

    fn sign(&self, alg: &Normalized, key: &KeyParts, data: &[u8]) -> Outcome<Vec<u8>> {
        match (&key.algorithm, alg.params()) {
            (KeyAlgorithm::Rsa { hash, .. }, Some(RsaParams::Pss { salt_length })) => {
                rsa_sign(*hash, Some(*salt_length), &key.material, data)
            }
            (
                KeyAlgorithm::Rsa {
                    hash,
                    scheme: RsaScheme::Pkcs1,
                    ..
                },
                _,
            ) => rsa_sign(*hash, None, &key.material, data),
            _ => Err(unsupported()),
        }
    }

    fn verify(
        &self,
        alg: &Normalized,
        key: &KeyParts,
        data: &[u8],
        signature: &[u8],
    ) -> Outcome<bool> {
        match (&key.algorithm, alg.params()) {
            (KeyAlgorithm::Rsa { hash, .. }, Some(RsaParams::Pss { salt_length })) => {
                rsa_verify(*hash, Some(*salt_length), &key.material, data, signature)
            }
            (
                KeyAlgorithm::Rsa {
                    hash,
                    scheme: RsaScheme::Pkcs1,
                    ..
                },
                _,
            ) => rsa_verify(*hash, None, &key.material, data, signature),
            _ => Err(unsupported()),
        }
    }

    fn encrypt_or_decrypt(
        &self,
        alg: &Normalized,
        key: &KeyParts,
        data: &[u8],
        encrypt: bool,
    ) -> Outcome<Vec<u8>> {
        let Some(RsaParams::Oaep { label }) = alg.params() else {
            return Err(unsupported());
        };
        let KeyAlgorithm::Rsa { hash, .. } = key.algorithm else {
            return Err(Failure::invalid_access("the key is not an RSA-OAEP key"));
        };
        rsa_oaep(hash, label.as_deref(), key, data, encrypt)
    }
}
