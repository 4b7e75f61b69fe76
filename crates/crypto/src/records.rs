//! A key's internal slots in Rust, without JavaScript: its [[type]], [[extractable]],
//! [[algorithm]] (the `KeyAlgorithm` dictionary it is exposed as), [[usages]] and key
//! material. What `CryptoKey`, structured clone and every algorithm family share.

use boa_engine::{Context, JsObject, JsResult, JsString};

use crate::hash::Hash;
use crate::names::{AesMode, Curve, RsaScheme};

/// A [`KeyType`](https://w3c.github.io/webcrypto/#dfn-KeyType).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyType {
    Secret,
    Public,
    Private,
}

impl KeyType {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Secret => "secret",
            Self::Public => "public",
            Self::Private => "private",
        }
    }
}

/// The [recognized key usage values](https://w3c.github.io/webcrypto/#dfn-RecognizedKeyUsage),
/// in their order.
pub(crate) const USAGES: [&str; 8] = [
    "encrypt",
    "decrypt",
    "sign",
    "verify",
    "deriveKey",
    "deriveBits",
    "wrapKey",
    "unwrapKey",
];

/// A set of key usages (bit `i` is `USAGES[i]`): iterating it gives the recognized order, as
/// the spec's "usage intersection" does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Usages(u8);

impl Usages {
    /// The set of the named usages.
    pub(crate) fn of(names: &[&str]) -> Self {
        let mut set = Self::default();
        for name in names {
            set = set.with(name);
        }
        set
    }

    /// `self` with `name` (a recognized usage; others are ignored).
    pub(crate) fn with(self, name: &str) -> Self {
        match USAGES.iter().position(|u| *u == name) {
            Some(i) => Self(self.0 | (1 << i)),
            None => self,
        }
    }

    pub(crate) fn contains(self, name: &str) -> bool {
        USAGES
            .iter()
            .position(|u| *u == name)
            .is_some_and(|i| self.0 & (1 << i) != 0)
    }

    pub(crate) fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The usages in `self` or `other`.
    pub(crate) fn union(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }

    /// The usages in both `self` and `other` (the spec's "usage intersection").
    pub(crate) fn intersection(self, other: Self) -> Self {
        Self(self.0 & other.0)
    }

    /// Whether every usage of `self` is in `allowed`.
    pub(crate) fn within(self, allowed: Self) -> bool {
        self.0 & !allowed.0 == 0
    }

    /// The usages in the recognized order.
    pub(crate) fn names(self) -> impl Iterator<Item = &'static str> {
        USAGES
            .iter()
            .enumerate()
            .filter(move |(i, _)| self.0 & (1 << i) != 0)
            .map(|(_, u)| *u)
    }
}

/// A key's [[algorithm]] in Rust: the `KeyAlgorithm` dictionary it is exposed as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum KeyAlgorithm {
    /// `AesKeyAlgorithm`: name and length in bits.
    Aes { mode: AesMode, length: u16 },
    /// `HmacKeyAlgorithm`: hash and length in bits.
    Hmac { hash: Hash, length: u32 },
    /// `KeyAlgorithm` { name: "PBKDF2" }.
    Pbkdf2,
    /// `KeyAlgorithm` { name: "HKDF" }.
    Hkdf,
    /// `EcKeyAlgorithm` of ECDSA (`ecdh` false) or ECDH: name and namedCurve.
    Ec { ecdh: bool, curve: Curve },
    /// `KeyAlgorithm` { name: "Ed25519" }.
    Ed25519,
    /// `KeyAlgorithm` { name: "X25519" }.
    X25519,
    /// `KeyAlgorithm` { name: "Ed448" }.
    Ed448,
    /// `KeyAlgorithm` { name: "X448" }.
    X448,
    /// `RsaHashedKeyAlgorithm`: name, modulusLength, publicExponent (big-endian, no leading
    /// zeros) and hash.
    Rsa {
        scheme: RsaScheme,
        modulus_length: u32,
        public_exponent: Vec<u8>,
        hash: Hash,
    },
}

impl KeyAlgorithm {
    /// The registered algorithm name.
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Self::Aes { mode, .. } => mode.name(),
            Self::Hmac { .. } => "HMAC",
            Self::Pbkdf2 => "PBKDF2",
            Self::Hkdf => "HKDF",
            Self::Ec { ecdh: false, .. } => "ECDSA",
            Self::Ec { ecdh: true, .. } => "ECDH",
            Self::Ed25519 => "Ed25519",
            Self::X25519 => "X25519",
            Self::Ed448 => "Ed448",
            Self::X448 => "X448",
            Self::Rsa { scheme, .. } => scheme.name(),
        }
    }

    /// The dictionary converted to an ECMAScript object (inherited members first, then each
    /// dictionary's in lexicographic order).
    pub(crate) fn to_object(&self, ctx: &mut Context) -> JsResult<JsObject> {
        let object = JsObject::with_object_proto(ctx.intrinsics());
        object.create_data_property_or_throw(
            JsString::from("name"),
            JsString::from(self.name()),
            ctx,
        )?;
        match self {
            Self::Aes { length, .. } => {
                object.create_data_property_or_throw(
                    JsString::from("length"),
                    u32::from(*length),
                    ctx,
                )?;
            }
            Self::Hmac { hash, length } => {
                let h = hash_object(*hash, ctx)?;
                object.create_data_property_or_throw(JsString::from("hash"), h, ctx)?;
                object.create_data_property_or_throw(JsString::from("length"), *length, ctx)?;
            }
            Self::Ec { curve, .. } => {
                object.create_data_property_or_throw(
                    JsString::from("namedCurve"),
                    JsString::from(curve.name()),
                    ctx,
                )?;
            }
            Self::Rsa {
                modulus_length,
                public_exponent,
                hash,
                ..
            } => {
                // RsaKeyAlgorithm's members (modulusLength, publicExponent), then
                // RsaHashedKeyAlgorithm's (hash).
                object.create_data_property_or_throw(
                    JsString::from("modulusLength"),
                    *modulus_length,
                    ctx,
                )?;
                let exponent = boa_engine::object::builtins::JsUint8Array::from_iter(
                    public_exponent.iter().copied(),
                    ctx,
                )?;
                object.create_data_property_or_throw(
                    JsString::from("publicExponent"),
                    exponent,
                    ctx,
                )?;
                let h = hash_object(*hash, ctx)?;
                object.create_data_property_or_throw(JsString::from("hash"), h, ctx)?;
            }
            Self::Pbkdf2 | Self::Hkdf | Self::Ed25519 | Self::X25519 | Self::Ed448 | Self::X448 => {
            }
        }
        Ok(object)
    }
}

/// The Rust side of a key: everything a `CryptoKey` holds, without JavaScript objects.
#[derive(Debug, Clone)]
pub(crate) struct KeyParts {
    pub(crate) key_type: KeyType,
    pub(crate) extractable: bool,
    pub(crate) algorithm: KeyAlgorithm,
    pub(crate) usages: Usages,
    /// The key material: the secret bytes of a secret key; for EC keys the private scalar
    /// (big-endian, the field's size) or the uncompressed SEC1 point; for Ed25519, X25519,
    /// Ed448 and X448 the private or public key's bytes (32, 32, 57 and 56 bytes); for RSA
    /// keys the PKCS #1 `RSAPrivateKey` or `RSAPublicKey` DER.
    pub(crate) material: Vec<u8>,
}

/// A `KeyAlgorithm` dictionary naming `hash` (a `hash` member's value).
fn hash_object(hash: Hash, ctx: &mut Context) -> JsResult<JsObject> {
    let h = JsObject::with_object_proto(ctx.intrinsics());
    h.create_data_property_or_throw(JsString::from("name"), JsString::from(hash.name()), ctx)?;
    Ok(h)
}
