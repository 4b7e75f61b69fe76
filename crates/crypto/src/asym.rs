//! The asymmetric algorithms, on bytes, without JavaScript: [ECDSA](https://w3c.github.io/webcrypto/#ecdsa),
//! [ECDH](https://w3c.github.io/webcrypto/#ecdh), [Ed25519](https://w3c.github.io/webcrypto/#ed25519),
//! [X25519](https://w3c.github.io/webcrypto/#x25519),
//! [Ed448](https://wicg.github.io/webcrypto-secure-curves/#ed448),
//! [X448](https://wicg.github.io/webcrypto-secure-curves/#x448),
//! [RSASSA-PKCS1-v1_5](https://w3c.github.io/webcrypto/#rsassa-pkcs1),
//! [RSA-PSS](https://w3c.github.io/webcrypto/#rsa-pss) and
//! [RSA-OAEP](https://w3c.github.io/webcrypto/#rsa-oaep): their generate key, import key,
//! export key, sign, verify, encrypt, decrypt and derive bits operations.
//!
//! Every primitive is a RustCrypto crate's (`p256`, `p384`, `p521` with `ecdsa` and
//! `elliptic-curve`, `ed25519-dalek`, `x25519-dalek`, `ed448-goldilocks`, `x448`, `rsa`); the DER structures are the `spki`,
//! `pkcs8`, `sec1` and `pkcs1` crates'. This module only composes them as the specification
//! describes and maps their failures to the specification's errors.

use der::{
    asn1::{AnyRef, BitStringRef, ObjectIdentifier, OctetStringRef, UintRef},
    Decode, Encode,
};
use rand_core::OsRng;
use rsa::{
    pkcs1::{DecodeRsaPrivateKey, DecodeRsaPublicKey, EncodeRsaPrivateKey, EncodeRsaPublicKey},
    traits::PublicKeyParts,
    BigUint, Oaep, Pkcs1v15Sign, Pss, RsaPrivateKey, RsaPublicKey,
};
use serde_json::Value;
use spki::{AlgorithmIdentifierRef, SubjectPublicKeyInfoRef};

use crate::key::{KeyAlgorithm, KeyParts, KeyType, Usages};
use crate::ops::{Failure, Hash, Outcome};
use crate::subtle::{base64url_decode, base64url_encode, Exported, Jwk, KeyData, KeyFormat};

/// `id-ecPublicKey` (RFC 5480).
const ID_EC_PUBLIC_KEY: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.2.1");
/// `id-ecDH` (RFC 5480), accepted for ECDH keys.
const ID_EC_DH: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.132.1.12");
/// `id-Ed25519` (RFC 8410).
const ID_ED25519: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.101.112");
/// `id-X25519` (RFC 8410).
const ID_X25519: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.101.110");
/// `id-Ed448` (RFC 8410).
const ID_ED448: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.101.113");
/// `id-X448` (RFC 8410).
const ID_X448: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.101.111");
/// `rsaEncryption` (RFC 3447).
const RSA_ENCRYPTION: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.1");

/// The largest RSA modulus, in bits, this implementation generates or imports (the `rsa`
/// crate's limit for public keys).
pub(crate) const MAX_RSA_BITS: u32 = 4096;
/// The smallest RSA modulus, in bits, this implementation generates.
pub(crate) const MIN_RSA_BITS: u32 = 256;

// ---------------------------------------------------------------------------------------
// Names
// ---------------------------------------------------------------------------------------

/// A [NamedCurve](https://w3c.github.io/webcrypto/#dfn-NamedCurve) this implementation supports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Curve {
    P256,
    P384,
    P521,
}

impl Curve {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::P256 => "P-256",
            Self::P384 => "P-384",
            Self::P521 => "P-521",
        }
    }

    /// The curve named `name` (a case-sensitive match, as for every DOMString compared).
    pub(crate) fn from_name(name: &str) -> Option<Self> {
        match name {
            "P-256" => Some(Self::P256),
            "P-384" => Some(Self::P384),
            "P-521" => Some(Self::P521),
            _ => None,
        }
    }

    /// The curve's object identifier (RFC 5480).
    fn oid(self) -> ObjectIdentifier {
        match self {
            Self::P256 => ObjectIdentifier::new_unwrap("1.2.840.10045.3.1.7"),
            Self::P384 => ObjectIdentifier::new_unwrap("1.3.132.0.34"),
            Self::P521 => ObjectIdentifier::new_unwrap("1.3.132.0.35"),
        }
    }

    fn from_oid(oid: ObjectIdentifier) -> Option<Self> {
        [Self::P256, Self::P384, Self::P521]
            .into_iter()
            .find(|c| c.oid() == oid)
    }

    /// The size in bytes of a field element (and of a private scalar).
    pub(crate) fn field_bytes(self) -> usize {
        match self {
            Self::P256 => 32,
            Self::P384 => 48,
            Self::P521 => 66,
        }
    }

    /// The size in bits of the ECDH shared secret.
    fn secret_bits(self) -> u32 {
        match self {
            Self::P256 => 256,
            Self::P384 => 384,
            Self::P521 => 528,
        }
    }

    /// The JWK `alg` of ECDSA on this curve.
    fn jwk_alg(self) -> &'static str {
        match self {
            Self::P256 => "ES256",
            Self::P384 => "ES384",
            Self::P521 => "ES512",
        }
    }
}

/// The RSA algorithm of an RSA key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RsaScheme {
    /// RSASSA-PKCS1-v1_5.
    Pkcs1,
    /// RSA-PSS.
    Pss,
    /// RSA-OAEP.
    Oaep,
}

impl RsaScheme {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Pkcs1 => "RSASSA-PKCS1-v1_5",
            Self::Pss => "RSA-PSS",
            Self::Oaep => "RSA-OAEP",
        }
    }

    pub(crate) fn from_name(name: &str) -> Option<Self> {
        match name {
            "RSASSA-PKCS1-v1_5" => Some(Self::Pkcs1),
            "RSA-PSS" => Some(Self::Pss),
            "RSA-OAEP" => Some(Self::Oaep),
            _ => None,
        }
    }

    /// The JWK `alg` of this scheme with `hash`.
    fn jwk_alg(self, hash: Hash) -> &'static str {
        match (self, hash) {
            (Self::Pkcs1, Hash::Sha1) => "RS1",
            (Self::Pkcs1, Hash::Sha256) => "RS256",
            (Self::Pkcs1, Hash::Sha384) => "RS384",
            (Self::Pkcs1, Hash::Sha512) => "RS512",
            (Self::Pss, Hash::Sha1) => "PS1",
            (Self::Pss, Hash::Sha256) => "PS256",
            (Self::Pss, Hash::Sha384) => "PS384",
            (Self::Pss, Hash::Sha512) => "PS512",
            (Self::Oaep, Hash::Sha1) => "RSA-OAEP",
            (Self::Oaep, Hash::Sha256) => "RSA-OAEP-256",
            (Self::Oaep, Hash::Sha384) => "RSA-OAEP-384",
            (Self::Oaep, Hash::Sha512) => "RSA-OAEP-512",
        }
    }

    /// The usages of (public, private) keys.
    fn usages(self) -> (Usages, Usages) {
        match self {
            Self::Pkcs1 | Self::Pss => (Usages::of(&["verify"]), Usages::of(&["sign"])),
            Self::Oaep => (
                Usages::of(&["encrypt", "wrapKey"]),
                Usages::of(&["decrypt", "unwrapKey"]),
            ),
        }
    }

    /// The JWK `use` of this scheme's keys.
    fn jwk_use(self) -> &'static str {
        match self {
            Self::Pkcs1 | Self::Pss => "sig",
            Self::Oaep => "enc",
        }
    }
}

/// The kind of an asymmetric key's algorithm, for the checks they share.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Ecdsa,
    Ecdh,
    Ed25519,
    X25519,
    Ed448,
    X448,
}

impl Kind {
    /// The usages of (public, private) keys.
    fn usages(self) -> (Usages, Usages) {
        match self {
            Self::Ecdsa | Self::Ed25519 | Self::Ed448 => {
                (Usages::of(&["verify"]), Usages::of(&["sign"]))
            }
            Self::Ecdh | Self::X25519 | Self::X448 => {
                (Usages::default(), Usages::of(&["deriveKey", "deriveBits"]))
            }
        }
    }

    fn jwk_use(self) -> &'static str {
        match self {
            Self::Ecdsa | Self::Ed25519 | Self::Ed448 => "sig",
            Self::Ecdh | Self::X25519 | Self::X448 => "enc",
        }
    }

    fn name(self) -> &'static str {
        match self {
            Self::Ecdsa => "ECDSA",
            Self::Ecdh => "ECDH",
            Self::Ed25519 => "Ed25519",
            Self::X25519 => "X25519",
            Self::Ed448 => "Ed448",
            Self::X448 => "X448",
        }
    }
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

    fn kind(self) -> Kind {
        match self {
            Self::Ed25519 => Kind::Ed25519,
            Self::X25519 => Kind::X25519,
            Self::Ed448 => Kind::Ed448,
            Self::X448 => Kind::X448,
        }
    }

    /// The recognized algorithm name.
    pub(crate) fn name(self) -> &'static str {
        self.kind().name()
    }

    /// The length in bytes of a public or private key (RFC 8032 section 5.1.5 / 5.2.5,
    /// RFC 7748 section 5).
    fn key_len(self) -> usize {
        match self {
            Self::Ed25519 | Self::X25519 => 32,
            Self::Ed448 => ed448_goldilocks::SECRET_KEY_LENGTH,
            Self::X448 => 56,
        }
    }

    /// The `id-*` object identifier of RFC 8410.
    fn oid(self) -> ObjectIdentifier {
        match self {
            Self::Ed25519 => ID_ED25519,
            Self::X25519 => ID_X25519,
            Self::Ed448 => ID_ED448,
            Self::X448 => ID_X448,
        }
    }

    fn algorithm(self) -> KeyAlgorithm {
        match self {
            Self::Ed25519 => KeyAlgorithm::Ed25519,
            Self::X25519 => KeyAlgorithm::X25519,
            Self::Ed448 => KeyAlgorithm::Ed448,
            Self::X448 => KeyAlgorithm::X448,
        }
    }

    /// Whether this is a signature algorithm (its JWK has an `alg`).
    fn signs(self) -> bool {
        matches!(self, Self::Ed25519 | Self::Ed448)
    }

    /// The public key of `private` (a key of [`Self::key_len`] bytes): RFC 8032 section
    /// 5.1.5 / 5.2.5, or RFC 7748's `X25519(k, 9)` / `X448(k, 5)`.
    fn public_of(self, private: &[u8]) -> Outcome<Vec<u8>> {
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

/// `$body` with `$m` the curve's crate (`p256`, `p384` or `p521`).
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

/// `$body` with `$d` the hash function's type.
macro_rules! per_hash {
    ($hash:expr, $d:ident => $body:expr) => {
        match $hash {
            Hash::Sha1 => {
                type $d = sha1::Sha1;
                $body
            }
            Hash::Sha256 => {
                type $d = sha2::Sha256;
                $body
            }
            Hash::Sha384 => {
                type $d = sha2::Sha384;
                $body
            }
            Hash::Sha512 => {
                type $d = sha2::Sha512;
                $body
            }
        }
    };
}

// ---------------------------------------------------------------------------------------
// Shared checks
// ---------------------------------------------------------------------------------------

/// "If usages contains an entry which is not one of `allowed`, then throw a SyntaxError."
fn usages_within(usages: Usages, allowed: Usages, what: &str) -> Outcome<()> {
    if !usages.within(allowed) {
        return Err(Failure::syntax(format!("invalid usages for {what}")));
    }
    Ok(())
}

/// The JWK checks every asymmetric import makes: `kty`, `use` (when usages is non-empty),
/// `key_ops` and `ext`.
fn jwk_checks(
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
    // If usages is non-empty and the use field of jwk is present and is not use_value, then
    // throw a DataError.
    if !usages.is_empty() && jwk.use_.as_deref().is_some_and(|u| u != use_value) {
        return Err(Failure::data(format!("the JWK use is not '{use_value}'")));
    }
    // If the key_ops field of jwk is present, and is invalid according to the requirements of
    // JSON Web Key, or it does not contain all of the specified usages values, then throw a
    // DataError.
    if let Some(ops) = &jwk.key_ops {
        for (i, op) in ops.iter().enumerate() {
            if ops.iter().skip(i + 1).any(|o| o == op) {
                return Err(Failure::data("the JWK key_ops has duplicates"));
            }
        }
        if usages.names().any(|u| !ops.iter().any(|o| o == u)) {
            return Err(Failure::data(
                "the JWK key_ops does not contain every usage",
            ));
        }
    }
    // If the ext field of jwk is present and has the value false and extractable is true,
    // then throw a DataError.
    if jwk.ext == Some(false) && extractable {
        return Err(Failure::data("the JWK is not extractable"));
    }
    Ok(())
}

/// A base64url JWK member that must be present.
fn jwk_member(value: Option<&String>, name: &str) -> Outcome<Vec<u8>> {
    let Some(value) = value else {
        return Err(Failure::data(format!("the JWK has no '{name}'")));
    };
    base64url_decode(value)
}

fn parts(
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

fn der_failure(_: der::Error) -> Failure {
    Failure::operation("DER encoding failed")
}

/// Parse a SubjectPublicKeyInfo: its algorithm identifier and the public key's bytes (a
/// BIT STRING with no unused bits).
fn parse_spki(bytes: &[u8]) -> Outcome<(AlgorithmIdentifierRef<'_>, &[u8])> {
    let spki = SubjectPublicKeyInfoRef::from_der(bytes)
        .map_err(|_| Failure::data("the key data is not a DER SubjectPublicKeyInfo"))?;
    let key = spki
        .subject_public_key
        .as_bytes()
        .ok_or_else(|| Failure::data("the SubjectPublicKeyInfo's key has unused bits"))?;
    Ok((spki.algorithm, key))
}

/// Parse a PrivateKeyInfo: its algorithm identifier and the private key's bytes.
fn parse_pkcs8(bytes: &[u8]) -> Outcome<(AlgorithmIdentifierRef<'_>, &[u8])> {
    let info = pkcs8::PrivateKeyInfo::from_der(bytes)
        .map_err(|_| Failure::data("the key data is not a DER PrivateKeyInfo"))?;
    Ok((info.algorithm, info.private_key))
}

fn encode_spki(algorithm: AlgorithmIdentifierRef<'_>, key: &[u8]) -> Outcome<Vec<u8>> {
    let spki = SubjectPublicKeyInfoRef {
        algorithm,
        subject_public_key: BitStringRef::from_bytes(key).map_err(der_failure)?,
    };
    spki.to_der().map_err(der_failure)
}

fn encode_pkcs8(algorithm: AlgorithmIdentifierRef<'_>, key: &[u8]) -> Outcome<Vec<u8>> {
    pkcs8::PrivateKeyInfo::new(algorithm, key)
        .to_der()
        .map_err(der_failure)
}

/// A JWK object from its members (the map keeps them in lexicographic order, as the
/// `JsonWebKey` dictionary's conversion does).
fn jwk_object(
    key: &KeyParts,
    kty: &str,
    members: Vec<(&str, Value)>,
) -> serde_json::Map<String, Value> {
    let mut jwk = serde_json::Map::new();
    jwk.insert("kty".into(), Value::String(kty.into()));
    jwk.insert("ext".into(), Value::Bool(key.extractable));
    jwk.insert(
        "key_ops".into(),
        Value::Array(
            key.usages
                .names()
                .map(|u| Value::String(u.into()))
                .collect(),
        ),
    );
    for (name, value) in members {
        jwk.insert(name.into(), value);
    }
    jwk
}

fn b64(bytes: &[u8]) -> Value {
    Value::String(base64url_encode(bytes))
}

// ---------------------------------------------------------------------------------------
// EC (ECDSA, ECDH)
// ---------------------------------------------------------------------------------------

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

fn ec_algorithm(kind: Kind, curve: Curve) -> KeyAlgorithm {
    KeyAlgorithm::Ec {
        ecdh: kind == Kind::Ecdh,
        curve,
    }
}

fn ec_kind(ecdh: bool) -> Kind {
    if ecdh {
        Kind::Ecdh
    } else {
        Kind::Ecdsa
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
    let kind = ec_kind(ecdh);
    let (public_usages, private_usages) = kind.usages();
    // 1. If usages contains a value which is not allowed, then throw a SyntaxError.
    usages_within(usages, public_usages.union(private_usages), kind.name())?;
    // 2. If the namedCurve member of normalizedAlgorithm is not a supported curve, then throw
    //    a NotSupportedError. 3. Generate an Elliptic Curve key pair.
    let curve = supported_curve(named_curve)?;
    let (scalar, point) = ec_generate_scalar(curve);
    let algorithm = ec_algorithm(kind, curve);
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
fn ec_curve_of(algorithm: &AlgorithmIdentifierRef<'_>, kind: Kind, curve: Curve) -> Outcome<()> {
    // If the algorithm object identifier field is not id-ecPublicKey (or id-ecDH for ECDH),
    // then throw a DataError.
    let oid_ok =
        algorithm.oid == ID_EC_PUBLIC_KEY || (kind == Kind::Ecdh && algorithm.oid == ID_EC_DH);
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
    let kind = ec_kind(ecdh);
    let (public_usages, private_usages) = kind.usages();
    let name = kind.name();
    match (format, data) {
        (KeyFormat::Spki, KeyData::Bytes(bytes)) => {
            // 1. If usages contains a value which is not allowed, throw a SyntaxError.
            usages_within(usages, public_usages, &format!("an {name} public key"))?;
            let curve = supported_curve(named_curve)?;
            // 2-3. Parse the SubjectPublicKeyInfo (DataError if it fails).
            let (algorithm, key) = parse_spki(bytes)?;
            ec_curve_of(&algorithm, kind, curve)?;
            // The subjectPublicKey converted to an ECPoint (SEC1 2.3.4); DataError if invalid.
            let point = ec_public_point(curve, key)?;
            Ok(parts(
                KeyType::Public,
                ec_algorithm(kind, curve),
                extractable,
                usages,
                point,
            ))
        }
        (KeyFormat::Raw, KeyData::Bytes(bytes)) => {
            usages_within(usages, public_usages, &format!("an {name} public key"))?;
            let curve = supported_curve(named_curve)?;
            let point = ec_public_point(curve, bytes)?;
            Ok(parts(
                KeyType::Public,
                ec_algorithm(kind, curve),
                extractable,
                usages,
                point,
            ))
        }
        (KeyFormat::Pkcs8, KeyData::Bytes(bytes)) => {
            usages_within(usages, private_usages, &format!("an {name} private key"))?;
            let curve = supported_curve(named_curve)?;
            let (algorithm, key) = parse_pkcs8(bytes)?;
            ec_curve_of(&algorithm, kind, curve)?;
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
            Ok(parts(
                KeyType::Private,
                ec_algorithm(kind, curve),
                extractable,
                usages,
                scalar,
            ))
        }
        (KeyFormat::Jwk, KeyData::Jwk(jwk)) => {
            // If the d field of jwk is present and usages contains an entry which is not a
            // private usage, or absent and usages contains one not a public usage: SyntaxError.
            let private = jwk.d.is_some();
            let allowed = if private {
                private_usages
            } else {
                public_usages
            };
            usages_within(usages, allowed, &format!("an {name} key"))?;
            jwk_checks(jwk, "EC", kind.jwk_use(), usages, extractable)?;
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
            if kind == Kind::Ecdsa && jwk.alg.as_deref().is_some_and(|a| a != curve.jwk_alg()) {
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
            let algorithm = ec_algorithm(kind, curve);
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
        _ => Err(Failure::not_supported(format!(
            "{name} keys do not import from this format"
        ))),
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

/// Truncate a shared secret to `length` bits: null is the whole secret; more bits than it
/// has is an OperationError; the bits past `length` in the last byte are zero.
fn truncate_secret(mut secret: Vec<u8>, bits: u32, length: Option<u32>) -> Outcome<Vec<u8>> {
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

/// [ECDH](https://w3c.github.io/webcrypto/#ecdh-operations-derive-bits) /
/// [X25519](https://w3c.github.io/webcrypto/#x25519-operations-derive-bits) /
/// [X448 derive bits](https://wicg.github.io/webcrypto-secure-curves/#x448-operations-derive-bits).
pub(crate) fn ecdh_derive(
    key: &KeyParts,
    public: &KeyParts,
    length: Option<u32>,
) -> Outcome<Vec<u8>> {
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
    match (&key.algorithm, &public.algorithm) {
        (KeyAlgorithm::Ec { curve, .. }, KeyAlgorithm::Ec { curve: other, .. }) => {
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
        (KeyAlgorithm::X25519, KeyAlgorithm::X25519) => {
            let private: [u8; 32] = key
                .material
                .as_slice()
                .try_into()
                .map_err(|_| Failure::operation("the X25519 key is invalid"))?;
            let point: [u8; 32] = public
                .material
                .as_slice()
                .try_into()
                .map_err(|_| Failure::operation("the X25519 key is invalid"))?;
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
        (KeyAlgorithm::X448, KeyAlgorithm::X448) => {
            let private: [u8; 56] = key
                .material
                .as_slice()
                .try_into()
                .map_err(|_| Failure::operation("the X448 key is invalid"))?;
            let point: [u8; 56] = public
                .material
                .as_slice()
                .try_into()
                .map_err(|_| Failure::operation("the X448 key is invalid"))?;
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
        _ => Err(Failure::invalid_access("the keys cannot derive bits")),
    }
}

// ---------------------------------------------------------------------------------------
// Ed25519, X25519, Ed448, X448
// ---------------------------------------------------------------------------------------

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
    let kind = okp.kind();
    let (public_usages, private_usages) = kind.usages();
    usages_within(usages, public_usages.union(private_usages), kind.name())?;
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
    let kind = okp.kind();
    let (public_usages, private_usages) = kind.usages();
    let name = okp.name();
    let algorithm = okp.algorithm();
    match (format, data) {
        (KeyFormat::Spki, KeyData::Bytes(bytes)) => {
            usages_within(usages, public_usages, &format!("an {name} public key"))?;
            let (alg, key) = parse_spki(bytes)?;
            okp_check_algorithm(&alg, okp)?;
            let key = okp_key(okp, key, "public key")?;
            Ok(parts(
                KeyType::Public,
                algorithm,
                extractable,
                usages,
                key.to_vec(),
            ))
        }
        (KeyFormat::Raw, KeyData::Bytes(bytes)) => {
            usages_within(usages, public_usages, &format!("an {name} public key"))?;
            // If the length in bits of data is not the key's, then throw a DataError.
            // NOTE: the Secure Curves draft says 448 bits for Ed448 too; an Ed448 public key
            // (RFC 8032 section 5.2.5) is 57 bytes, which is what its spki, jwk and export
            // steps carry and what WPT imports.
            let key = okp_key(okp, bytes, "public key")?;
            Ok(parts(
                KeyType::Public,
                algorithm,
                extractable,
                usages,
                key.to_vec(),
            ))
        }
        (KeyFormat::Pkcs8, KeyData::Bytes(bytes)) => {
            usages_within(usages, private_usages, &format!("an {name} private key"))?;
            let (alg, key) = parse_pkcs8(bytes)?;
            okp_check_algorithm(&alg, okp)?;
            // The privateKey field is a CurvePrivateKey: an OCTET STRING (RFC 8410).
            let inner = OctetStringRef::from_der(key)
                .map_err(|_| Failure::data("the private key is not a CurvePrivateKey"))?;
            let key = okp_key(okp, inner.as_bytes(), "private key")?;
            Ok(parts(
                KeyType::Private,
                algorithm,
                extractable,
                usages,
                key.to_vec(),
            ))
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
            jwk_checks(jwk, "OKP", kind.jwk_use(), usages, extractable)?;
            let x = jwk_member(jwk.x.as_ref(), "x")?;
            let x = okp_key(okp, &x, "JWK x")?;
            if private {
                let d = jwk_member(jwk.d.as_ref(), "d")?;
                let d = okp_key(okp, &d, "JWK d")?;
                // The public key in x must be the private key's.
                if okp.public_of(d)? != x {
                    return Err(Failure::data("the JWK x is not the public key of d"));
                }
                Ok(parts(
                    KeyType::Private,
                    algorithm,
                    extractable,
                    usages,
                    d.to_vec(),
                ))
            } else {
                Ok(parts(
                    KeyType::Public,
                    algorithm,
                    extractable,
                    usages,
                    x.to_vec(),
                ))
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

// ---------------------------------------------------------------------------------------
// RSA
// ---------------------------------------------------------------------------------------

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
    let (public_usages, private_usages) = scheme.usages();
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
    let (public_usages, private_usages) = scheme.usages();
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
    let (public_usages, private_usages) = scheme.usages();
    let name = scheme.name();
    let too_big = |bits: usize| -> Outcome<()> {
        if bits > MAX_RSA_BITS as usize {
            return Err(Failure::not_supported(format!(
                "RSA keys over {MAX_RSA_BITS} bits are not supported"
            )));
        }
        Ok(())
    };
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
                let public =
                    RsaPublicKey::new(BigUint::from_bytes_be(&n), BigUint::from_bytes_be(&e))
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
        _ => Err(Failure::not_supported(format!(
            "{name} keys import from spki, pkcs8 or jwk"
        ))),
    }
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

// ---------------------------------------------------------------------------------------
// Export
// ---------------------------------------------------------------------------------------

/// The export key operation of an asymmetric key, or None for a secret key's algorithm.
pub(crate) fn export(format: KeyFormat, key: &KeyParts) -> Option<Outcome<Exported>> {
    Some(match &key.algorithm {
        KeyAlgorithm::Ec { curve, .. } => ec_export(*curve, format, key),
        KeyAlgorithm::Ed25519 => okp_export(Okp::Ed25519, format, key),
        KeyAlgorithm::X25519 => okp_export(Okp::X25519, format, key),
        KeyAlgorithm::Ed448 => okp_export(Okp::Ed448, format, key),
        KeyAlgorithm::X448 => okp_export(Okp::X448, format, key),
        KeyAlgorithm::Rsa { scheme, hash, .. } => rsa_export(*scheme, *hash, format, key),
        _ => return None,
    })
}

#[cfg(test)]
mod tests;
