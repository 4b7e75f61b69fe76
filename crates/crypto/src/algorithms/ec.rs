//! [ECDSA](https://w3c.github.io/webcrypto/#ecdsa) and [ECDH](https://w3c.github.io/webcrypto/#ecdh)
//! on P-256, P-384 and P-521: generate key, import key, export key, sign, verify and derive
//! bits (RustCrypto's `p256`, `p384`, `p521` with `ecdsa` and `elliptic-curve`; the DER
//! structures are `spki`'s, `pkcs8`'s and `sec1`'s).

use boa_engine::{Context, JsResult};
use der::{
    asn1::{AnyRef, ObjectIdentifier},
    Decode, Encode,
};
use rand_core::OsRng;
use serde_json::Value;
use spki::AlgorithmIdentifierRef;

use super::pki::{
    b64, check_extractable, der_failure, derive_checks, ecdh_key_derive_params, encode_pkcs8,
    encode_spki, jwk_checks, jwk_member, jwk_object, jwk_use, pair_usages, parse_pkcs8, parse_spki,
    parts, truncate_secret, usages_within,
};
use crate::algorithm::{
    no_generate, no_import, unsupported, Algorithm, Generated, KeyGeneration, KeyImport, Members,
    Normalized, Op, Params,
};
use crate::failure::{Failure, Outcome};
use crate::hash::Hash;
use crate::jwk::{Exported, Jwk, KeyData, KeyFormat};
use crate::names::Curve;
use crate::records::{KeyAlgorithm, KeyParts, KeyType, Usages};

/// `id-ecPublicKey` (RFC 5480).
const ID_EC_PUBLIC_KEY: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.2.1");
/// `id-ecDH` (RFC 5480), accepted for ECDH keys.
const ID_EC_DH: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.132.1.12");

/// The ECDSA and ECDH family.
pub(crate) struct Ec;

/// The normalized dictionaries of ECDSA and ECDH.
#[derive(Debug, Clone)]
enum EcParams {
    /// `EcKeyGenParams` / `EcKeyImportParams`.
    Key { named_curve: String },
    /// `EcdsaParams`.
    Ecdsa { hash: Hash },
    /// `EcdhKeyDeriveParams`: the `public` key's slots.
    Derive { public: Box<KeyParts> },
}

macro_rules! per_curve {
    ($curve:expr, $m:ident => $body:expr) => {
        match $curve {
            Curve::P256 => {
                use p256 as $m;
                $body
            }
            Curve::P384 => {
                use p384 as $m;
                $body
            }
            Curve::P521 => {
                use p521 as $m;
                $body
            }
        }
    };
}

/// The uncompressed SEC1 point of a public key given as SEC1 bytes (compressed or not), or
/// a DataError if they are not a point of the curve.
fn ec_public_point(curve: Curve, bytes: &[u8]) -> Outcome<Vec<u8>> {
    let invalid = |_| Failure::data(format!("the key data is not a point on {}", curve.name()));
    per_curve!(curve, m => {
        use elliptic_curve::sec1::ToEncodedPoint;
        let key = m::PublicKey::from_sec1_bytes(bytes).map_err(invalid)?;
        Ok(key.to_encoded_point(false).as_bytes().to_vec())
    })
}

/// The private scalar (the field's size, big-endian) and the uncompressed public point of a
/// private key given as its scalar bytes, or a DataError if they are not a valid scalar.
fn ec_private_scalar(curve: Curve, bytes: &[u8]) -> Outcome<(Vec<u8>, Vec<u8>)> {
    if bytes.len() != curve.field_bytes() {
        return Err(Failure::data(format!(
            "the {} private key must be {} bytes",
            curve.name(),
            curve.field_bytes()
        )));
    }
    let invalid = |_| {
        Failure::data(format!(
            "the key data is not a {} private key",
            curve.name()
        ))
    };
    per_curve!(curve, m => {
        use elliptic_curve::sec1::ToEncodedPoint;
        let key = m::SecretKey::from_slice(bytes).map_err(invalid)?;
        let public = key.public_key().to_encoded_point(false).as_bytes().to_vec();
        Ok((key.to_bytes().to_vec(), public))
    })
}

fn ec_generate_scalar(curve: Curve) -> (Vec<u8>, Vec<u8>) {
    per_curve!(curve, m => {
        use elliptic_curve::sec1::ToEncodedPoint;
        let key = m::SecretKey::random(&mut OsRng);
        let public = key.public_key().to_encoded_point(false).as_bytes().to_vec();
        (key.to_bytes().to_vec(), public)
    })
}

fn ec_algorithm(ecdh: bool, curve: Curve) -> KeyAlgorithm {
    KeyAlgorithm::Ec { ecdh, curve }
}

/// The algorithm name of ECDH (`ecdh`) or ECDSA.
fn ec_name(ecdh: bool) -> &'static str {
    if ecdh {
        "ECDH"
    } else {
        "ECDSA"
    }
}

/// The supported curve `named_curve`, or a NotSupportedError.
fn supported_curve(named_curve: &str) -> Outcome<Curve> {
    Curve::from_name(named_curve).ok_or_else(|| {
        Failure::not_supported(format!("the curve '{named_curve}' is not supported"))
    })
}

/// [ECDSA](https://w3c.github.io/webcrypto/#ecdsa-operations-generate-key) /
/// [ECDH generate key](https://w3c.github.io/webcrypto/#ecdh-operations-generate-key):
/// (public key, private key).
pub(crate) fn ec_generate(
    ecdh: bool,
    named_curve: &str,
    extractable: bool,
    usages: Usages,
) -> Outcome<(KeyParts, KeyParts)> {
    let (public_usages, private_usages) = pair_usages(!ecdh);
    // 1. If usages contains a value which is not allowed, then throw a SyntaxError.
    usages_within(usages, public_usages.union(private_usages), ec_name(ecdh))?;
    // 2. If the namedCurve member of normalizedAlgorithm is not a supported curve, then throw
    //    a NotSupportedError. 3. Generate an Elliptic Curve key pair.
    let curve = supported_curve(named_curve)?;
    let (scalar, point) = ec_generate_scalar(curve);
    let algorithm = ec_algorithm(ecdh, curve);
    // The public key is always extractable, its usages the intersection with the public
    // usages; the private key's with the private usages.
    let public = parts(
        KeyType::Public,
        algorithm.clone(),
        true,
        usages.intersection(public_usages),
        point,
    );
    let private = parts(
        KeyType::Private,
        algorithm,
        extractable,
        usages.intersection(private_usages),
        scalar,
    );
    Ok((public, private))
}

/// The curve named by an EC algorithm identifier's parameters (a namedCurve OID), checked
/// against the algorithm's.
fn ec_curve_of(algorithm: &AlgorithmIdentifierRef<'_>, ecdh: bool, curve: Curve) -> Outcome<()> {
    // If the algorithm object identifier field is not id-ecPublicKey (or id-ecDH for ECDH),
    // then throw a DataError.
    let oid_ok = algorithm.oid == ID_EC_PUBLIC_KEY || (ecdh && algorithm.oid == ID_EC_DH);
    if !oid_ok {
        return Err(Failure::data("the key's algorithm is not an EC public key"));
    }
    // If the parameters field is not an instance of the ECParameters ASN.1 type that
    // specifies a namedCurve, then throw a DataError.
    let oid = algorithm
        .parameters
        .ok_or_else(|| Failure::data("the EC key has no curve parameters"))?
        .decode_as::<ObjectIdentifier>()
        .map_err(|_| Failure::data("the EC key's parameters are not a named curve"))?;
    // If namedCurve is not equal to the namedCurve member of normalizedAlgorithm, throw a
    // DataError.
    match Curve::from_oid(oid) {
        Some(c) if c == curve => Ok(()),
        _ => Err(Failure::data(format!(
            "the key's curve is not {}",
            curve.name()
        ))),
    }
}

/// [ECDSA](https://w3c.github.io/webcrypto/#ecdsa-operations-import-key) /
/// [ECDH import key](https://w3c.github.io/webcrypto/#ecdh-operations-import-key).
pub(crate) fn ec_import(
    ecdh: bool,
    named_curve: &str,
    format: KeyFormat,
    data: &KeyData,
    extractable: bool,
    usages: Usages,
) -> Outcome<KeyParts> {
    let (public_usages, private_usages) = pair_usages(!ecdh);
    let name = ec_name(ecdh);
    let slots = |key_type, curve, material| {
        parts(
            key_type,
            ec_algorithm(ecdh, curve),
            extractable,
            usages,
            material,
        )
    };
    match (format, data) {
        (KeyFormat::Spki, KeyData::Bytes(bytes)) => {
            // 1. If usages contains a value which is not allowed, throw a SyntaxError.
            usages_within(usages, public_usages, &format!("an {name} public key"))?;
            let curve = supported_curve(named_curve)?;
            // 2-3. Parse the SubjectPublicKeyInfo (DataError if it fails).
            let (algorithm, key) = parse_spki(bytes)?;
            ec_curve_of(&algorithm, ecdh, curve)?;
            // The subjectPublicKey converted to an ECPoint (SEC1 2.3.4); DataError if invalid.
            let point = ec_public_point(curve, key)?;
            Ok(slots(KeyType::Public, curve, point))
        }
        (KeyFormat::Raw, KeyData::Bytes(bytes)) => {
            usages_within(usages, public_usages, &format!("an {name} public key"))?;
            let curve = supported_curve(named_curve)?;
            let point = ec_public_point(curve, bytes)?;
            Ok(slots(KeyType::Public, curve, point))
        }
        (KeyFormat::Pkcs8, KeyData::Bytes(bytes)) => {
            usages_within(usages, private_usages, &format!("an {name} private key"))?;
            let curve = supported_curve(named_curve)?;
            let (algorithm, key) = parse_pkcs8(bytes)?;
            ec_curve_of(&algorithm, ecdh, curve)?;
            // The privateKey field parsed as an ECPrivateKey (RFC 5915); DataError if it fails.
            let ec = sec1::EcPrivateKey::from_der(key)
                .map_err(|_| Failure::data("the private key is not a DER ECPrivateKey"))?;
            // If the parameters field of the ECPrivateKey is present and not the same curve,
            // then throw a DataError.
            if let Some(params) = ec.parameters {
                let same = params
                    .named_curve()
                    .and_then(Curve::from_oid)
                    .is_some_and(|c| c == curve);
                if !same {
                    return Err(Failure::data("the ECPrivateKey's curve does not match"));
                }
            }
            let (scalar, _) = ec_private_scalar(curve, ec.private_key)?;
            Ok(slots(KeyType::Private, curve, scalar))
        }
        (KeyFormat::Jwk, KeyData::Jwk(jwk)) => {
            ec_import_jwk(ecdh, named_curve, jwk, extractable, usages)
        }
        _ => Err(Failure::not_supported(format!(
            "{name} keys do not import from this format"
        ))),
    }
}

/// The jwk branch of [`ec_import`].
fn ec_import_jwk(
    ecdh: bool,
    named_curve: &str,
    jwk: &Jwk,
    extractable: bool,
    usages: Usages,
) -> Outcome<KeyParts> {
    let (public_usages, private_usages) = pair_usages(!ecdh);
    let name = ec_name(ecdh);
    // If the d field of jwk is present and usages contains an entry which is not a
    // private usage, or absent and usages contains one not a public usage: SyntaxError.
    let private = jwk.d.is_some();
    let allowed = if private {
        private_usages
    } else {
        public_usages
    };
    usages_within(usages, allowed, &format!("an {name} key"))?;
    jwk_checks(jwk, "EC", jwk_use(!ecdh), usages, extractable)?;
    let curve = supported_curve(named_curve)?;
    // If the crv field of jwk is not namedCurve, then throw a DataError.
    if jwk.crv.as_deref() != Some(curve.name()) {
        return Err(Failure::data(format!(
            "the JWK crv is not '{}'",
            curve.name()
        )));
    }
    // ECDSA: if the alg field of jwk is present, it must be the curve's.
    // (ECDH ignores alg.)
    if !ecdh && jwk.alg.as_deref().is_some_and(|a| a != curve.jwk_alg()) {
        return Err(Failure::data(format!(
            "the JWK alg is not '{}'",
            curve.jwk_alg()
        )));
    }
    let x = jwk_member(jwk.x.as_ref(), "x")?;
    let y = jwk_member(jwk.y.as_ref(), "y")?;
    let size = curve.field_bytes();
    if x.len() != size || y.len() != size {
        return Err(Failure::data(format!(
            "the JWK x and y must be {size} bytes"
        )));
    }
    let mut sec1 = Vec::with_capacity(1 + 2 * size);
    sec1.push(4);
    sec1.extend_from_slice(&x);
    sec1.extend_from_slice(&y);
    let point = ec_public_point(curve, &sec1)?;
    let algorithm = ec_algorithm(ecdh, curve);
    if private {
        let d = jwk_member(jwk.d.as_ref(), "d")?;
        let (scalar, derived) = ec_private_scalar(curve, &d)?;
        // The public key in x and y must be the private key's.
        if derived != point {
            return Err(Failure::data("the JWK x and y are not the public key of d"));
        }
        Ok(parts(
            KeyType::Private,
            algorithm,
            extractable,
            usages,
            scalar,
        ))
    } else {
        Ok(parts(
            KeyType::Public,
            algorithm,
            extractable,
            usages,
            point,
        ))
    }
}

fn ec_export(curve: Curve, format: KeyFormat, key: &KeyParts) -> Outcome<Exported> {
    let curve_oid = curve.oid();
    let algorithm = AlgorithmIdentifierRef {
        oid: ID_EC_PUBLIC_KEY,
        parameters: Some(AnyRef::from(&curve_oid)),
    };
    match format {
        // If the [[type]] internal slot of key is not "public", throw an InvalidAccessError.
        KeyFormat::Spki | KeyFormat::Raw if key.key_type != KeyType::Public => Err(
            Failure::invalid_access("only a public key exports to spki or raw"),
        ),
        KeyFormat::Spki => encode_spki(algorithm, &key.material).map(Exported::Bytes),
        KeyFormat::Raw => Ok(Exported::Bytes(key.material.clone())),
        KeyFormat::Pkcs8 => {
            if key.key_type != KeyType::Private {
                return Err(Failure::invalid_access(
                    "only a private key exports to pkcs8",
                ));
            }
            let (scalar, point) = ec_private_scalar(curve, &key.material)?;
            // An ECPrivateKey (RFC 5915) with the public key and without parameters (the
            // curve is in the PrivateKeyInfo's algorithm).
            let ec = sec1::EcPrivateKey {
                private_key: &scalar,
                parameters: None,
                public_key: Some(&point),
            };
            let der = ec.to_der().map_err(der_failure)?;
            encode_pkcs8(algorithm, &der).map(Exported::Bytes)
        }
        KeyFormat::Jwk => {
            let size = curve.field_bytes();
            let (point, d) = if key.key_type == KeyType::Private {
                let (_, point) = ec_private_scalar(curve, &key.material)?;
                (point, Some(key.material.as_slice()))
            } else {
                (key.material.clone(), None)
            };
            let x = point.get(1..=size).unwrap_or(&[]);
            let y = point.get(1 + size..).unwrap_or(&[]);
            let mut members = vec![
                ("crv", Value::String(curve.name().into())),
                ("x", b64(x)),
                ("y", b64(y)),
            ];
            if let Some(d) = d {
                members.push(("d", b64(d)));
            }
            Ok(Exported::Jwk(jwk_object(key, "EC", members)))
        }
    }
}

/// [ECDSA sign](https://w3c.github.io/webcrypto/#ecdsa-operations-sign): the signature as
/// r || s, each the field's size.
pub(crate) fn ecdsa_sign(curve: Curve, hash: Hash, scalar: &[u8], data: &[u8]) -> Outcome<Vec<u8>> {
    let digest = prehash(curve, hash, data);
    let failed = |_| Failure::operation("ECDSA signing failed");
    per_curve!(curve, m => {
        use ecdsa::signature::hazmat::RandomizedPrehashSigner;
        let key = m::ecdsa::SigningKey::from_slice(scalar).map_err(failed)?;
        let signature: m::ecdsa::Signature =
            key.sign_prehash_with_rng(&mut OsRng, &digest).map_err(failed)?;
        Ok(signature.to_bytes().to_vec())
    })
}

/// [ECDSA verify](https://w3c.github.io/webcrypto/#ecdsa-operations-verify).
pub(crate) fn ecdsa_verify(
    curve: Curve,
    hash: Hash,
    point: &[u8],
    data: &[u8],
    signature: &[u8],
) -> Outcome<bool> {
    // A signature that is not r || s of the curve's size does not verify.
    if signature.len() != 2 * curve.field_bytes() {
        return Ok(false);
    }
    let digest = prehash(curve, hash, data);
    per_curve!(curve, m => {
        use ecdsa::signature::hazmat::PrehashVerifier;
        let Ok(key) = m::ecdsa::VerifyingKey::from_sec1_bytes(point) else {
            return Err(Failure::operation("the ECDSA public key is invalid"));
        };
        let Ok(signature) = m::ecdsa::Signature::from_slice(signature) else {
            return Ok(false);
        };
        Ok(key.verify_prehash(&digest, &signature).is_ok())
    })
}

/// The message digest ECDSA signs: the hash of `data`, left-padded with zeros to half the
/// field's size when shorter (the same integer; the `ecdsa` crate refuses shorter digests).
fn prehash(curve: Curve, hash: Hash, data: &[u8]) -> Vec<u8> {
    let digest = hash.digest(data);
    let min = curve.field_bytes() / 2;
    if digest.len() >= min {
        return digest;
    }
    let mut padded = vec![0; min - digest.len()];
    padded.extend_from_slice(&digest);
    padded
}

/// [ECDH derive bits](https://w3c.github.io/webcrypto/#ecdh-operations-derive-bits).
pub(crate) fn ecdh_derive(
    key: &KeyParts,
    public: &KeyParts,
    length: Option<u32>,
) -> Outcome<Vec<u8>> {
    derive_checks(key, public)?;
    let (KeyAlgorithm::Ec { curve, .. }, KeyAlgorithm::Ec { curve: other, .. }) =
        (&key.algorithm, &public.algorithm)
    else {
        return Err(Failure::invalid_access("the keys cannot derive bits"));
    };
    // 5. If the namedCurve of publicKey's [[algorithm]] is not key's, throw an
    //    InvalidAccessError.
    if curve != other {
        return Err(Failure::invalid_access(
            "the public key is on another curve",
        ));
    }
    // 6. The shared secret: the x-coordinate of the ECDH primitive's output.
    let failed = |_| Failure::operation("the ECDH key is invalid");
    let secret = per_curve!(*curve, m => {
        let private = m::SecretKey::from_slice(&key.material).map_err(failed)?;
        let point = m::PublicKey::from_sec1_bytes(&public.material).map_err(failed)?;
        let shared = elliptic_curve::ecdh::diffie_hellman(
            private.to_nonzero_scalar(),
            point.as_affine(),
        );
        shared.raw_secret_bytes().to_vec()
    });
    truncate_secret(secret, curve.secret_bits(), length)
}

/// The export key operation of an EC key (after the [[extractable]] check).
pub(crate) fn export(format: KeyFormat, key: &KeyParts) -> Outcome<Exported> {
    let KeyAlgorithm::Ec { curve, .. } = key.algorithm else {
        return Err(unsupported());
    };
    ec_export(curve, format, key)
}

impl Algorithm for Ec {
    fn normalize(&self, members: &Members<'_>, ctx: &mut Context) -> JsResult<Params> {
        let (name, op) = (members.name, members.op);
        Ok(match (op, name) {
            (Op::GenerateKey | Op::ImportKey, _) => {
                let d = if op == Op::GenerateKey {
                    "EcKeyGenParams"
                } else {
                    "EcKeyImportParams"
                };
                let v = members.required("namedCurve", d, ctx)?;
                Box::new(EcParams::Key {
                    named_curve: v.to_string(ctx)?.to_std_string_escaped(),
                })
            }
            (Op::Sign | Op::Verify, _) => Box::new(EcParams::Ecdsa {
                hash: members.hash("EcdsaParams", ctx)?,
            }),
            _ => Box::new(EcParams::Derive {
                public: Box::new(ecdh_key_derive_params(members, ctx)?),
            }),
        })
    }

    fn generate_key(&self, alg: &Normalized, request: KeyGeneration) -> Outcome<Generated> {
        let KeyGeneration {
            extractable,
            usages,
        } = request;
        let Some(EcParams::Key { named_curve }) = alg.params() else {
            return Err(no_generate());
        };
        let (public, private) = ec_generate(alg.name == "ECDH", named_curve, extractable, usages)?;
        Ok(Generated::Pair { public, private })
    }

    fn import_key(&self, alg: &Normalized, request: &KeyImport<'_>) -> Outcome<KeyParts> {
        let (format, data, extractable, usages) = request.parts();
        let Some(EcParams::Key { named_curve }) = alg.params() else {
            return Err(no_import());
        };
        ec_import(
            alg.name == "ECDH",
            named_curve,
            format,
            data,
            extractable,
            usages,
        )
    }

    /// [ECDSA](https://w3c.github.io/webcrypto/#ecdsa-operations-export-key) /
    /// [ECDH export key](https://w3c.github.io/webcrypto/#ecdh-operations-export-key).
    fn export_key(&self, format: KeyFormat, key: &KeyParts) -> Outcome<Exported> {
        check_extractable(key)?;
        export(format, key)
    }

    fn sign(&self, alg: &Normalized, key: &KeyParts, data: &[u8]) -> Outcome<Vec<u8>> {
        match (&key.algorithm, alg.params()) {
            (KeyAlgorithm::Ec { curve, .. }, Some(EcParams::Ecdsa { hash })) => {
                ecdsa_sign(*curve, *hash, &key.material, data)
            }
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
            (KeyAlgorithm::Ec { curve, .. }, Some(EcParams::Ecdsa { hash })) => {
                ecdsa_verify(*curve, *hash, &key.material, data, signature)
            }
            _ => Err(unsupported()),
        }
    }

    fn derive_bits(
        &self,
        alg: &Normalized,
        key: &KeyParts,
        length: Option<u32>,
    ) -> Outcome<Vec<u8>> {
        match alg.params() {
            Some(EcParams::Derive { public }) => ecdh_derive(key, public, length),
            _ => Err(unsupported()),
        }
    }
}
