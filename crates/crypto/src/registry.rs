//! The registry of algorithms: WebCrypto's
//! [supportedAlgorithms](https://w3c.github.io/webcrypto/#dfn-supportedAlgorithms), one row
//! per registered algorithm name with the family implementing it and the operations it is
//! registered for.

use crate::algorithm::{Algorithm, Op};
use crate::algorithms::{aes, digest, ec, hmac, kdf, okp, rsa};

/// One registered algorithm name.
pub(crate) struct Registration {
    /// The registered name (matched case-insensitively by normalization).
    pub(crate) name: &'static str,
    /// The family implementing it.
    pub(crate) algorithm: &'static dyn Algorithm,
    /// The operations it is registered for.
    pub(crate) ops: &'static [Op],
}

const fn row(
    name: &'static str,
    algorithm: &'static dyn Algorithm,
    ops: &'static [Op],
) -> Registration {
    Registration {
        name,
        algorithm,
        ops,
    }
}

use Op::{
    Decrypt, DeriveBits, Digest, Encrypt, GenerateKey, GetKeyLength, ImportKey, Sign, UnwrapKey,
    Verify, WrapKey,
};

/// The operations of a secret-key cipher.
const AES_CIPHER: &[Op] = &[GenerateKey, ImportKey, GetKeyLength, Encrypt, Decrypt];
/// The operations of a signature algorithm with key pairs.
const SIGNATURE: &[Op] = &[GenerateKey, ImportKey, Sign, Verify];
/// The operations of a key agreement algorithm.
const AGREEMENT: &[Op] = &[GenerateKey, ImportKey, DeriveBits];
/// The operations of a key derivation function.
const KDF: &[Op] = &[ImportKey, GetKeyLength, DeriveBits];

/// The registered algorithms.
static REGISTRY: [Registration; 20] = [
    row("SHA-1", &digest::Sha, &[Digest]),
    row("SHA-256", &digest::Sha, &[Digest]),
    row("SHA-384", &digest::Sha, &[Digest]),
    row("SHA-512", &digest::Sha, &[Digest]),
    row(
        "HMAC",
        &hmac::Hmac,
        &[GenerateKey, ImportKey, GetKeyLength, Sign, Verify],
    ),
    row("AES-CTR", &aes::Aes, AES_CIPHER),
    row("AES-CBC", &aes::Aes, AES_CIPHER),
    row("AES-GCM", &aes::Aes, AES_CIPHER),
    row(
        "AES-KW",
        &aes::Aes,
        &[GenerateKey, ImportKey, GetKeyLength, WrapKey, UnwrapKey],
    ),
    row("PBKDF2", &kdf::Kdf, KDF),
    row("HKDF", &kdf::Kdf, KDF),
    row("ECDSA", &ec::Ec, SIGNATURE),
    row("ECDH", &ec::Ec, AGREEMENT),
    row("Ed25519", &okp::OkpFamily, SIGNATURE),
    row("X25519", &okp::OkpFamily, AGREEMENT),
    row("Ed448", &okp::OkpFamily, SIGNATURE),
    row("X448", &okp::OkpFamily, AGREEMENT),
    row("RSASSA-PKCS1-v1_5", &rsa::Rsa, SIGNATURE),
    row("RSA-PSS", &rsa::Rsa, SIGNATURE),
    row(
        "RSA-OAEP",
        &rsa::Rsa,
        &[GenerateKey, ImportKey, Encrypt, Decrypt],
    ),
];

/// The registration of `op` whose name is a case-insensitive match for `name` (steps 3-5
/// of normalize an algorithm).
pub(crate) fn lookup(op: Op, name: &str) -> Option<&'static Registration> {
    REGISTRY
        .iter()
        .find(|r| r.ops.contains(&op) && r.name.eq_ignore_ascii_case(name))
}

/// The family of the registered algorithm `name` (a key's [[algorithm]] name).
pub(crate) fn algorithm_named(name: &str) -> Option<&'static dyn Algorithm> {
    REGISTRY
        .iter()
        .find(|r| r.name == name)
        .map(|r| r.algorithm)
}
