//! The algorithms whose keys are octet key pairs (RFC 8037 `OKP`):
//! [Ed25519](https://w3c.github.io/webcrypto/#ed25519),
//! [X25519](https://w3c.github.io/webcrypto/#x25519), and
//! [Secure Curves](https://wicg.github.io/webcrypto-secure-curves/)'
//! [Ed448](https://wicg.github.io/webcrypto-secure-curves/#ed448) and
//! [X448](https://wicg.github.io/webcrypto-secure-curves/#x448): generate key, import key,
//! export key, sign, verify and derive bits (`ed25519-dalek`, `x25519-dalek`,
//! `ed448-goldilocks`, `x448`).

use boa_engine::{Context, JsResult};
use der::{
    asn1::{ObjectIdentifier, OctetStringRef},
    Decode, Encode,
};
use serde_json::Value;
use spki::AlgorithmIdentifierRef;

use super::pki::{
    b64, check_extractable, der_failure, derive_checks, ecdh_key_derive_params, encode_pkcs8,
    encode_spki, jwk_checks, jwk_member, jwk_object, jwk_use, pair_usages, parse_pkcs8, parse_spki,
    parts, truncate_secret, usages_within,
};
use crate::algorithm::{
    unsupported, Algorithm, Generated, KeyGeneration, KeyImport, Members, Normalized, Op, Params,
    Plain,
};
use crate::convert::buffer_source_bytes;
use crate::failure::{Failure, Outcome};
use crate::jwk::{Exported, KeyData, KeyFormat};
use crate::records::{KeyAlgorithm, KeyParts, KeyType, Usages};

/// `id-Ed25519` (RFC 8410).
const ID_ED25519: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.101.112");
/// `id-X25519` (RFC 8410).
const ID_X25519: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.101.110");
/// `id-Ed448` (RFC 8410).
const ID_ED448: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.101.113");
/// `id-X448` (RFC 8410).
const ID_X448: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.101.111");

/// The Ed25519, X25519, Ed448 and X448 family.
pub(crate) struct OkpFamily;

/// The normalized dictionaries of the family besides a plain `Algorithm`.
#[derive(Debug, Clone)]
enum OkpParams {
    /// [`Ed448Params`](https://wicg.github.io/webcrypto-secure-curves/#dfn-Ed448Params): the
    /// `context` member's bytes, None when absent.
    Ed448 { context: Option<Vec<u8>> },
    /// `EcdhKeyDeriveParams` of X25519 or X448: the `public` key's slots.
    Derive { public: Box<KeyParts> },
}

/// An algorithm whose keys are octet key pairs (RFC 8037 `OKP`): the keys are byte strings
/// of a fixed length, as RFC 8032 and RFC 7748 define them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Okp {
    Ed25519,
    X25519,
    Ed448,
    X448,
}

impl Okp {
    /// The algorithm of the recognized algorithm name `name`.
    pub(crate) fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "Ed25519" => Self::Ed25519,
            "X25519" => Self::X25519,
            "Ed448" => Self::Ed448,
            "X448" => Self::X448,
            _ => return None,
        })
    }

    /// The recognized algorithm name.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Ed25519 => "Ed25519",
            Self::X25519 => "X25519",
            Self::Ed448 => "Ed448",
            Self::X448 => "X448",
        }
    }
    /// The length in bytes of a public or private key (RFC 8032 section 5.1.5 / 5.2.5,
    /// RFC 7748 section 5).
    pub(crate) fn key_len(self) -> usize {
        match self {
            Self::Ed25519 | Self::X25519 => 32,
            Self::Ed448 => ed448_goldilocks::SECRET_KEY_LENGTH,
            Self::X448 => 56,
        }
    }

    /// The `id-*` object identifier of RFC 8410.
    pub(crate) fn oid(self) -> ObjectIdentifier {
        match self {
            Self::Ed25519 => ID_ED25519,
            Self::X25519 => ID_X25519,
            Self::Ed448 => ID_ED448,
            Self::X448 => ID_X448,
        }
    }

    pub(crate) fn algorithm(self) -> KeyAlgorithm {
        match self {
            Self::Ed25519 => KeyAlgorithm::Ed25519,
            Self::X25519 => KeyAlgorithm::X25519,
            Self::Ed448 => KeyAlgorithm::Ed448,
            Self::X448 => KeyAlgorithm::X448,
        }
    }

    /// Whether this is a signature algorithm (its JWK has an `alg`).
    pub(crate) fn signs(self) -> bool {
        matches!(self, Self::Ed25519 | Self::Ed448)
    }

    /// The public key of `private` (a key of [`Self::key_len`] bytes): RFC 8032 section
    /// 5.1.5 / 5.2.5, or RFC 7748's `X25519(k, 9)` / `X448(k, 5)`.
    pub(crate) fn public_of(self, private: &[u8]) -> Outcome<Vec<u8>> {
        let what = format!(
            "the {} private key must be {} bytes",
            self.name(),
            self.key_len()
        );
        match self {
            Self::Ed25519 => {
                let private: [u8; 32] = private.try_into().map_err(|_| Failure::data(what))?;
                Ok(ed25519_dalek::SigningKey::from_bytes(&private)
                    .verifying_key()
                    .to_bytes()
                    .to_vec())
            }
            Self::X25519 => {
                let private: [u8; 32] = private.try_into().map_err(|_| Failure::data(what))?;
                Ok(
                    x25519_dalek::PublicKey::from(&x25519_dalek::StaticSecret::from(private))
                        .to_bytes()
                        .to_vec(),
                )
            }
            Self::Ed448 => {
                let key = ed448_goldilocks::SigningKey::try_from(private)
                    .map_err(|_| Failure::data(what))?;
                Ok(key.verifying_key().to_bytes().to_vec())
            }
            Self::X448 => {
                let private: [u8; 56] = private.try_into().map_err(|_| Failure::data(what))?;
                Ok(x448::x448_unchecked(private, x448::X448_BASEPOINT_BYTES).to_vec())
            }
        }
    }
}

/// `bytes` as a key of `okp`'s length, else a DataError naming `what`.
fn okp_key<'a>(okp: Okp, bytes: &'a [u8], what: &str) -> Outcome<&'a [u8]> {
    if bytes.len() == okp.key_len() {
        Ok(bytes)
    } else {
        Err(Failure::data(format!(
            "the {} {what} must be {} bytes, not {}",
            okp.name(),
            okp.key_len(),
            bytes.len()
        )))
    }
}

/// [Ed25519](https://w3c.github.io/webcrypto/#ed25519-operations-generate-key) /
/// [X25519](https://w3c.github.io/webcrypto/#x25519-operations-generate-key) /
/// [Ed448](https://wicg.github.io/webcrypto-secure-curves/#ed448-operations-generate-key) /
/// [X448 generate key](https://wicg.github.io/webcrypto-secure-curves/#x448-operations-generate-key):
/// the private key is [`Okp::key_len`] random bytes (RFC 8032 section 5.1.5 / 5.2.5, RFC 7748
/// section 6), the public key derived from it.
pub(crate) fn okp_generate(
    okp: Okp,
    extractable: bool,
    usages: Usages,
) -> Outcome<(KeyParts, KeyParts)> {
    let (public_usages, private_usages) = pair_usages(okp.signs());
    usages_within(usages, public_usages.union(private_usages), okp.name())?;
    let mut private = vec![0u8; okp.key_len()];
    getrandom::fill(&mut private)
        .map_err(|e| Failure::operation(format!("the OS random generator failed: {e}")))?;
    let public = okp.public_of(&private)?;
    Ok((
        parts(
            KeyType::Public,
            okp.algorithm(),
            true,
            usages.intersection(public_usages),
            public,
        ),
        parts(
            KeyType::Private,
            okp.algorithm(),
            extractable,
            usages.intersection(private_usages),
            private,
        ),
    ))
}

/// The algorithm identifier of an OKP key must be the algorithm's OID with no parameters.
fn okp_check_algorithm(algorithm: &AlgorithmIdentifierRef<'_>, okp: Okp) -> Outcome<()> {
    if algorithm.oid != okp.oid() {
        return Err(Failure::data(format!(
            "the key's algorithm is not {}",
            okp.name()
        )));
    }
    if algorithm.parameters.is_some() {
        return Err(Failure::data(format!(
            "the {} algorithm identifier has parameters",
            okp.name()
        )));
    }
    Ok(())
}

/// [Ed25519](https://w3c.github.io/webcrypto/#ed25519-operations-import-key) /
/// [X25519](https://w3c.github.io/webcrypto/#x25519-operations-import-key) /
/// [Ed448](https://wicg.github.io/webcrypto-secure-curves/#ed448-operations-import-key) /
/// [X448 import key](https://wicg.github.io/webcrypto-secure-curves/#x448-operations-import-key).
pub(crate) fn okp_import(
    okp: Okp,
    format: KeyFormat,
    data: &KeyData,
    extractable: bool,
    usages: Usages,
) -> Outcome<KeyParts> {
    let (public_usages, private_usages) = pair_usages(okp.signs());
    let name = okp.name();
    let slots =
        |key_type, material| parts(key_type, okp.algorithm(), extractable, usages, material);
    match (format, data) {
        (KeyFormat::Spki, KeyData::Bytes(bytes)) => {
            usages_within(usages, public_usages, &format!("an {name} public key"))?;
            let (alg, key) = parse_spki(bytes)?;
            okp_check_algorithm(&alg, okp)?;
            let key = okp_key(okp, key, "public key")?;
            Ok(slots(KeyType::Public, key.to_vec()))
        }
        (KeyFormat::Raw, KeyData::Bytes(bytes)) => {
            usages_within(usages, public_usages, &format!("an {name} public key"))?;
            // If the length in bits of data is not the key's, then throw a DataError.
            // NOTE: the Secure Curves draft says 448 bits for Ed448 too; an Ed448 public key
            // (RFC 8032 section 5.2.5) is 57 bytes, which is what its spki, jwk and export
            // steps carry and what WPT imports.
            let key = okp_key(okp, bytes, "public key")?;
            Ok(slots(KeyType::Public, key.to_vec()))
        }
        (KeyFormat::Pkcs8, KeyData::Bytes(bytes)) => {
            usages_within(usages, private_usages, &format!("an {name} private key"))?;
            let (alg, key) = parse_pkcs8(bytes)?;
            okp_check_algorithm(&alg, okp)?;
            // The privateKey field is a CurvePrivateKey: an OCTET STRING (RFC 8410).
            let inner = OctetStringRef::from_der(key)
                .map_err(|_| Failure::data("the private key is not a CurvePrivateKey"))?;
            let key = okp_key(okp, inner.as_bytes(), "private key")?;
            Ok(slots(KeyType::Private, key.to_vec()))
        }
        (KeyFormat::Jwk, KeyData::Jwk(jwk)) => {
            let private = jwk.d.is_some();
            let allowed = if private {
                private_usages
            } else {
                public_usages
            };
            usages_within(usages, allowed, &format!("an {name} key"))?;
            // If the kty field of jwk is not "OKP", then throw a DataError.
            if jwk.kty.as_deref() != Some("OKP") {
                return Err(Failure::data("the JWK kty is not 'OKP'"));
            }
            // If the crv field of jwk is not the algorithm's name, then throw a DataError.
            if jwk.crv.as_deref() != Some(name) {
                return Err(Failure::data(format!("the JWK crv is not '{name}'")));
            }
            // Ed25519 / Ed448: if the alg field of jwk is present and is not the algorithm's
            // name or "EdDSA", then throw a DataError.
            if okp.signs()
                && jwk
                    .alg
                    .as_deref()
                    .is_some_and(|a| a != name && a != "EdDSA")
            {
                return Err(Failure::data(format!(
                    "the JWK alg is not '{name}' or 'EdDSA'"
                )));
            }
            jwk_checks(jwk, "OKP", jwk_use(okp.signs()), usages, extractable)?;
            let x = jwk_member(jwk.x.as_ref(), "x")?;
            let x = okp_key(okp, &x, "JWK x")?;
            if private {
                let d = jwk_member(jwk.d.as_ref(), "d")?;
                let d = okp_key(okp, &d, "JWK d")?;
                // The public key in x must be the private key's.
                if okp.public_of(d)? != x {
                    return Err(Failure::data("the JWK x is not the public key of d"));
                }
                Ok(slots(KeyType::Private, d.to_vec()))
            } else {
                Ok(slots(KeyType::Public, x.to_vec()))
            }
        }
        _ => Err(Failure::not_supported(format!(
            "{name} keys do not import from this format"
        ))),
    }
}

/// The export key operation of Ed25519, X25519, Ed448 and X448.
fn okp_export(okp: Okp, format: KeyFormat, key: &KeyParts) -> Outcome<Exported> {
    let algorithm = AlgorithmIdentifierRef {
        oid: okp.oid(),
        parameters: None,
    };
    match format {
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
            let inner = OctetStringRef::new(&key.material)
                .and_then(|o| o.to_der())
                .map_err(der_failure)?;
            encode_pkcs8(algorithm, &inner).map(Exported::Bytes)
        }
        KeyFormat::Jwk => {
            let mut members = vec![("crv", Value::String(okp.name().into()))];
            if key.key_type == KeyType::Private {
                let d = okp_key(okp, &key.material, "private key")?;
                members.push(("x", b64(&okp.public_of(d)?)));
                members.push(("d", b64(d)));
            } else {
                members.push(("x", b64(&key.material)));
            }
            // Ed25519 / Ed448: "Set the alg attribute of jwk to" the algorithm's name.
            if okp.signs() {
                members.push(("alg", Value::String(okp.name().into())));
            }
            Ok(Exported::Jwk(jwk_object(key, "OKP", members)))
        }
    }
}

/// [Ed25519 sign](https://w3c.github.io/webcrypto/#ed25519-operations-sign).
pub(crate) fn ed25519_sign(private: &[u8], data: &[u8]) -> Outcome<Vec<u8>> {
    use ed25519_dalek::Signer;
    let private: [u8; 32] = okp_key(Okp::Ed25519, private, "private key")?
        .try_into()
        .map_err(|_| Failure::operation("the Ed25519 key is invalid"))?;
    let key = ed25519_dalek::SigningKey::from_bytes(&private);
    Ok(key.sign(data).to_bytes().to_vec())
}

/// [Ed25519 verify](https://w3c.github.io/webcrypto/#ed25519-operations-verify): a
/// public key or R that is not a canonical point, or a small-order one, does not verify
/// (`verify_strict`, cofactorless).
pub(crate) fn ed25519_verify(public: &[u8], data: &[u8], signature: &[u8]) -> bool {
    let Ok(public) = <[u8; 32]>::try_from(public) else {
        return false;
    };
    let Ok(signature) = <[u8; 64]>::try_from(signature) else {
        return false;
    };
    let Ok(key) = ed25519_dalek::VerifyingKey::from_bytes(&public) else {
        return false;
    };
    let signature = ed25519_dalek::Signature::from_bytes(&signature);
    key.verify_strict(data, &signature).is_ok()
}

/// The longest Ed448 context (RFC 8032 section 5.2: its length is one octet).
const MAX_ED448_CONTEXT: usize = 255;

/// [Ed448 sign](https://wicg.github.io/webcrypto-secure-curves/#ed448-operations-sign)
/// (after the key type check): `context` is the `Ed448Params` member, None when absent.
pub(crate) fn ed448_sign(private: &[u8], context: Option<&[u8]>, data: &[u8]) -> Outcome<Vec<u8>> {
    // 2. Let context be the context member of normalizedAlgorithm or the empty octet string
    //    if the context member of normalizedAlgorithm is not present.
    let context = context.unwrap_or_default();
    // 3. If context has a length greater than 255 bytes, then throw an OperationError.
    if context.len() > MAX_ED448_CONTEXT {
        return Err(Failure::operation(format!(
            "the Ed448 context is {} bytes, more than 255",
            context.len()
        )));
    }
    // 4. Perform the Ed448 signing process, as specified in [RFC8032], Section 5.2.6, with
    //    message as M and context as C, using the Ed448 private key associated with key.
    let key = ed448_goldilocks::SigningKey::try_from(okp_key(Okp::Ed448, private, "private key")?)
        .map_err(|_| Failure::operation("the Ed448 key is invalid"))?;
    let signature = key
        .sign_ctx(context, data)
        .map_err(|e| Failure::operation(format!("Ed448 signing failed: {e}")))?;
    // 5. Return the bytes of the signature.
    Ok(signature.to_bytes().to_vec())
}

/// [Ed448 verify](https://wicg.github.io/webcrypto-secure-curves/#ed448-operations-verify)
/// (after the key type check): `context` is the `Ed448Params` member, None when absent. A
/// signature of the wrong length, or a public key or R that is not a point of the prime-order
/// subgroup, does not verify; the equation is the cofactorless `[S]B = R + [k]A'`.
pub(crate) fn ed448_verify(
    public: &[u8],
    context: Option<&[u8]>,
    data: &[u8],
    signature: &[u8],
) -> Outcome<bool> {
    // 2. Let context be the context member of normalizedAlgorithm or the empty octet string.
    let context = context.unwrap_or_default();
    // 3. If context has a length greater than 255 bytes, then throw an OperationError.
    if context.len() > MAX_ED448_CONTEXT {
        return Err(Failure::operation(format!(
            "the Ed448 context is {} bytes, more than 255",
            context.len()
        )));
    }
    let Ok(public) = <[u8; ed448_goldilocks::PUBLIC_KEY_LENGTH]>::try_from(public) else {
        return Ok(false);
    };
    let Ok(signature) = ed448_goldilocks::Signature::try_from(signature) else {
        return Ok(false);
    };
    // 4. If the key data of key represents an invalid point or a small-order element on the
    //    Elliptic Curve of Ed448, return false. 5. The same for the point R, encoded in the
    //    first half of signature. (ed448-goldilocks decodes A and R with `decompress`, which
    //    refuses a point off the curve or with a torsion component, so every small-order
    //    element but the identity, and refuses the identity separately.)
    let Ok(key) = ed448_goldilocks::VerifyingKey::from_bytes(&public) else {
        return Ok(false);
    };
    // 6-7. Perform the Ed448 verification steps, as specified in [RFC8032], Section 5.2.7,
    //      using the cofactorless (unbatched) equation, with message as M and context as C.
    Ok(key.verify_ctx(&signature, context, data).is_ok())
}

/// [X25519](https://w3c.github.io/webcrypto/#x25519-operations-derive-bits) /
/// [X448 derive bits](https://wicg.github.io/webcrypto-secure-curves/#x448-operations-derive-bits).
pub(crate) fn okp_derive(
    key: &KeyParts,
    public: &KeyParts,
    length: Option<u32>,
) -> Outcome<Vec<u8>> {
    derive_checks(key, public)?;
    match (&key.algorithm, &public.algorithm) {
        (KeyAlgorithm::X25519, KeyAlgorithm::X25519) => x25519_derive(key, public, length),
        (KeyAlgorithm::X448, KeyAlgorithm::X448) => x448_derive(key, public, length),
        _ => Err(Failure::invalid_access("the keys cannot derive bits")),
    }
}

/// The private key's and the public key's bytes of an X25519 or X448 derive bits, each
/// `N` bytes, else an OperationError naming `name`.
fn key_pair<const N: usize>(
    key: &KeyParts,
    public: &KeyParts,
    name: &str,
) -> Outcome<([u8; N], [u8; N])> {
    let invalid = |_| Failure::operation(format!("the {name} key is invalid"));
    let private: [u8; N] = key.material.as_slice().try_into().map_err(invalid)?;
    let point: [u8; N] = public.material.as_slice().try_into().map_err(invalid)?;
    Ok((private, point))
}

/// The X25519 shared secret of `key` and `public` (after [`derive_checks`]).
fn x25519_derive(key: &KeyParts, public: &KeyParts, length: Option<u32>) -> Outcome<Vec<u8>> {
    let (private, point) = key_pair::<32>(key, public, "X25519")?;
    let secret = x25519_dalek::StaticSecret::from(private);
    let shared = secret.diffie_hellman(&x25519_dalek::PublicKey::from(point));
    // If secret is the all-zero value, then throw an OperationError (a small-order
    // public key).
    if !shared.was_contributory() {
        return Err(Failure::operation(
            "the X25519 shared secret is all zeros (a small-order public key)",
        ));
    }
    truncate_secret(shared.as_bytes().to_vec(), 256, length)
}

/// The X448 shared secret of `key` and `public` (after [`derive_checks`]).
fn x448_derive(key: &KeyParts, public: &KeyParts, length: Option<u32>) -> Outcome<Vec<u8>> {
    let (private, point) = key_pair::<56>(key, public, "X448")?;
    // Let secret be the result of performing the X448 function specified in
    // [RFC7748] Section 5 with key as k and publicKey as u. (The checked `x448`
    // function would refuse low-order points up front; the specification instead
    // computes the function and looks at its output.)
    let secret = x448::x448_unchecked(private, point);
    // If secret is the all-zero value, then throw an OperationError. This check must
    // be performed in constant-time, as per [RFC7748] Section 6.2.
    if bool::from(subtle::ConstantTimeEq::ct_eq(&secret[..], &[0u8; 56][..])) {
        return Err(Failure::operation(
            "the X448 shared secret is all zeros (a small-order public key)",
        ));
    }
    truncate_secret(secret.to_vec(), 448, length)
}

/// The export key operation of an OKP key (after the [[extractable]] check).
pub(crate) fn export(format: KeyFormat, key: &KeyParts) -> Outcome<Exported> {
    let okp = match key.algorithm {
        KeyAlgorithm::Ed25519 => Okp::Ed25519,
        KeyAlgorithm::X25519 => Okp::X25519,
        KeyAlgorithm::Ed448 => Okp::Ed448,
        KeyAlgorithm::X448 => Okp::X448,
        _ => return Err(unsupported()),
    };
    okp_export(okp, format, key)
}

/// The family member of a normalized algorithm.
fn okp_of(alg: &Normalized) -> Outcome<Okp> {
    Okp::from_name(alg.name).ok_or_else(unsupported)
}

impl Algorithm for OkpFamily {
    fn normalize(&self, members: &Members<'_>, ctx: &mut Context) -> JsResult<Params> {
        let (name, op) = (members.name, members.op);
        Ok(match (op, name) {
            (Op::Sign | Op::Verify, "Ed448") => {
                let context = match members.get("context", ctx)? {
                    None => None,
                    Some(v) => Some(buffer_source_bytes(&v, "context", ctx)?),
                };
                Box::new(OkpParams::Ed448 { context })
            }
            (Op::DeriveBits, _) => Box::new(OkpParams::Derive {
                public: Box::new(ecdh_key_derive_params(members, ctx)?),
            }),
            _ => Box::new(Plain),
        })
    }

    fn generate_key(&self, alg: &Normalized, request: KeyGeneration) -> Outcome<Generated> {
        let KeyGeneration {
            extractable,
            usages,
        } = request;
        let (public, private) = okp_generate(okp_of(alg)?, extractable, usages)?;
        Ok(Generated::Pair { public, private })
    }

    fn import_key(&self, alg: &Normalized, request: &KeyImport<'_>) -> Outcome<KeyParts> {
        let (format, data, extractable, usages) = request.parts();
        okp_import(okp_of(alg)?, format, data, extractable, usages)
    }

    /// [Ed25519](https://w3c.github.io/webcrypto/#ed25519-operations-export-key) /
    /// [X25519](https://w3c.github.io/webcrypto/#x25519-operations-export-key) /
    /// [Ed448](https://wicg.github.io/webcrypto-secure-curves/#ed448-operations-export-key) /
    /// [X448 export key](https://wicg.github.io/webcrypto-secure-curves/#x448-operations-export-key).
    fn export_key(&self, format: KeyFormat, key: &KeyParts) -> Outcome<Exported> {
        check_extractable(key)?;
        export(format, key)
    }

    fn sign(&self, alg: &Normalized, key: &KeyParts, data: &[u8]) -> Outcome<Vec<u8>> {
        match (&key.algorithm, alg.params()) {
            (KeyAlgorithm::Ed25519, _) => ed25519_sign(&key.material, data),
            (KeyAlgorithm::Ed448, Some(OkpParams::Ed448 { context })) => {
                ed448_sign(&key.material, context.as_deref(), data)
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
            (KeyAlgorithm::Ed25519, _) => Ok(ed25519_verify(&key.material, data, signature)),
            (KeyAlgorithm::Ed448, Some(OkpParams::Ed448 { context })) => {
                ed448_verify(&key.material, context.as_deref(), data, signature)
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
            Some(OkpParams::Derive { public }) => okp_derive(key, public, length),
            _ => Err(unsupported()),
        }
    }
}
