//! The enumerations a key's [[algorithm]] names besides its hash: the AES mode, the named
//! curve of an EC key and the scheme of an RSA key (what the families and the
//! `KeyAlgorithm` record share).

use der::asn1::ObjectIdentifier;

use crate::hash::Hash;

/// The AES mode of an AES key's algorithm.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AesMode {
    Ctr,
    Cbc,
    Gcm,
    Kw,
}

impl AesMode {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Ctr => "AES-CTR",
            Self::Cbc => "AES-CBC",
            Self::Gcm => "AES-GCM",
            Self::Kw => "AES-KW",
        }
    }

    /// The JWK `alg` suffix (`A128` + it).
    pub(crate) fn jwk_suffix(self) -> &'static str {
        match self {
            Self::Ctr => "CTR",
            Self::Cbc => "CBC",
            Self::Gcm => "GCM",
            Self::Kw => "KW",
        }
    }

    pub(crate) fn from_name(name: &str) -> Option<Self> {
        match name {
            "AES-CTR" => Some(Self::Ctr),
            "AES-CBC" => Some(Self::Cbc),
            "AES-GCM" => Some(Self::Gcm),
            "AES-KW" => Some(Self::Kw),
            _ => None,
        }
    }
}

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
    pub(crate) fn oid(self) -> ObjectIdentifier {
        match self {
            Self::P256 => ObjectIdentifier::new_unwrap("1.2.840.10045.3.1.7"),
            Self::P384 => ObjectIdentifier::new_unwrap("1.3.132.0.34"),
            Self::P521 => ObjectIdentifier::new_unwrap("1.3.132.0.35"),
        }
    }

    pub(crate) fn from_oid(oid: ObjectIdentifier) -> Option<Self> {
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
    pub(crate) fn secret_bits(self) -> u32 {
        match self {
            Self::P256 => 256,
            Self::P384 => 384,
            Self::P521 => 528,
        }
    }

    /// The JWK `alg` of ECDSA on this curve.
    pub(crate) fn jwk_alg(self) -> &'static str {
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
    pub(crate) fn jwk_alg(self, hash: Hash) -> &'static str {
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

    /// The JWK `use` of this scheme's keys.
    pub(crate) fn jwk_use(self) -> &'static str {
        match self {
            Self::Pkcs1 | Self::Pss => "sig",
            Self::Oaep => "enc",
        }
    }
}
