//! The hash functions of the [SHA](https://w3c.github.io/webcrypto/#sha) registration: the
//! `Hash` the other algorithms name in their `hash` members, and the digests themselves
//! (RustCrypto's `sha1` and `sha2`).

use sha1::Sha1;
use sha2::{Digest, Sha256, Sha384, Sha512};

/// A hash function of the [SHA](https://w3c.github.io/webcrypto/#sha) registration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Hash {
    Sha1,
    Sha256,
    Sha384,
    Sha512,
}

impl Hash {
    /// The registered algorithm name.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Sha1 => "SHA-1",
            Self::Sha256 => "SHA-256",
            Self::Sha384 => "SHA-384",
            Self::Sha512 => "SHA-512",
        }
    }

    /// The hash named `name` (already matched case-insensitively to a registered name).
    pub(crate) fn from_name(name: &str) -> Option<Self> {
        match name {
            "SHA-1" => Some(Self::Sha1),
            "SHA-256" => Some(Self::Sha256),
            "SHA-384" => Some(Self::Sha384),
            "SHA-512" => Some(Self::Sha512),
            _ => None,
        }
    }

    /// The block size in bits (HMAC's default key length).
    pub(crate) fn block_bits(self) -> u32 {
        match self {
            Self::Sha1 | Self::Sha256 => 512,
            Self::Sha384 | Self::Sha512 => 1024,
        }
    }

    /// [digest](https://w3c.github.io/webcrypto/#sha-operations-digest) of `data`.
    pub(crate) fn digest(self, data: &[u8]) -> Vec<u8> {
        match self {
            Self::Sha1 => Sha1::digest(data).to_vec(),
            Self::Sha256 => Sha256::digest(data).to_vec(),
            Self::Sha384 => Sha384::digest(data).to_vec(),
            Self::Sha512 => Sha512::digest(data).to_vec(),
        }
    }
}

/// A digest computed piece by piece ([`Hash::digest`] of the concatenated pieces).
pub(crate) enum DigestState {
    Sha1(Sha1),
    Sha256(Sha256),
    Sha384(Sha384),
    Sha512(Sha512),
}

impl DigestState {
    pub(crate) fn new(hash: Hash) -> Self {
        match hash {
            Hash::Sha1 => Self::Sha1(Sha1::new()),
            Hash::Sha256 => Self::Sha256(Sha256::new()),
            Hash::Sha384 => Self::Sha384(Sha384::new()),
            Hash::Sha512 => Self::Sha512(Sha512::new()),
        }
    }

    pub(crate) fn update(&mut self, data: &[u8]) {
        match self {
            Self::Sha1(h) => Digest::update(h, data),
            Self::Sha256(h) => Digest::update(h, data),
            Self::Sha384(h) => Digest::update(h, data),
            Self::Sha512(h) => Digest::update(h, data),
        }
    }

    pub(crate) fn finalize(self) -> Vec<u8> {
        match self {
            Self::Sha1(h) => h.finalize().to_vec(),
            Self::Sha256(h) => h.finalize().to_vec(),
            Self::Sha384(h) => h.finalize().to_vec(),
            Self::Sha512(h) => h.finalize().to_vec(),
        }
    }
}
