//! What an algorithm family implements: the [`Algorithm`] trait, with one method per
//! operation of the [registered algorithms](https://w3c.github.io/webcrypto/#dfn-supportedAlgorithms)
//! (normalizing its dictionaries on the event-loop thread, then the "in parallel" steps on
//! bytes), the [`Op`]erations, and the [`Normalized`] algorithm the operations receive.
//!
//! A family's parameters are its own type, boxed in [`Params`]: adding an algorithm touches
//! its file under `algorithms/` and its rows in [`crate::registry`].

use std::any::Any;

use boa_engine::{Context, JsResult, JsValue};
use boa_webidl::{self as webidl, type_error, Dictionary};

use crate::failure::{Failure, Outcome};
use crate::hash::Hash;
use crate::jwk::{Exported, KeyData, KeyFormat};
use crate::records::{KeyParts, Usages};

/// The operations of the [registered algorithms](https://w3c.github.io/webcrypto/#dfn-supportedAlgorithms).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    Digest,
    GenerateKey,
    ImportKey,
    Sign,
    Verify,
    Encrypt,
    Decrypt,
    WrapKey,
    UnwrapKey,
    DeriveBits,
    GetKeyLength,
}

/// A family's normalized parameters (the IDL dictionary of the operation, converted): the
/// family's own type, which only its [`Algorithm`] methods read.
pub(crate) type Params = Box<dyn Any + Send>;

/// A normalized algorithm: the registered name, the family implementing it and the
/// dictionary the operation takes.
pub(crate) struct Normalized {
    /// The registered algorithm name (the `name` member, case-normalized).
    pub(crate) name: &'static str,
    /// The family of the algorithm.
    pub(crate) algorithm: &'static dyn Algorithm,
    /// The converted dictionary.
    pub(crate) params: Params,
}

impl Normalized {
    /// The parameters as the family's type `T`.
    pub(crate) fn params<T: 'static>(&self) -> Option<&T> {
        self.params.downcast_ref::<T>()
    }
}

/// No parameters beyond the `name` (a plain `Algorithm` dictionary).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Plain;

/// The members of an algorithm dictionary being normalized, read in the order a family asks
/// for them, and the normalization of its `HashAlgorithmIdentifier` members.
pub(crate) struct Members<'a> {
    /// The registered algorithm name the dictionary is normalized for.
    pub(crate) name: &'static str,
    /// The operation the dictionary is normalized for.
    pub(crate) op: Op,
    dict: &'a Dictionary,
    normalize_hash: fn(&JsValue, &mut Context) -> JsResult<Hash>,
}

impl<'a> Members<'a> {
    /// The members of `dict`, normalized for the algorithm `name` and operation `op`;
    /// `normalize_hash` normalizes a hash member for "digest".
    pub(crate) fn new(
        name: &'static str,
        op: Op,
        dict: &'a Dictionary,
        normalize_hash: fn(&JsValue, &mut Context) -> JsResult<Hash>,
    ) -> Self {
        Self {
            name,
            op,
            dict,
            normalize_hash,
        }
    }

    /// An optional member: None when it is undefined.
    pub(crate) fn get(&self, member: &str, ctx: &mut Context) -> JsResult<Option<JsValue>> {
        self.dict.get(webidl::key(member), ctx)
    }

    /// A required member of `dictionary`.
    pub(crate) fn required(
        &self,
        member: &str,
        dictionary: &str,
        ctx: &mut Context,
    ) -> JsResult<JsValue> {
        crate::convert::required(self.dict, member, dictionary, ctx)
    }

    /// The required `hash` member of `dictionary`, normalized for "digest".
    pub(crate) fn hash(&self, dictionary: &str, ctx: &mut Context) -> JsResult<Hash> {
        let v = self.required("hash", dictionary, ctx)?;
        (self.normalize_hash)(&v, ctx)
    }
}

/// A generated key or key pair.
pub(crate) enum Generated {
    Key(KeyParts),
    Pair { public: KeyParts, private: KeyParts },
}

/// The arguments of the generate key operation beyond the algorithm.
#[derive(Clone, Copy)]
pub(crate) struct KeyGeneration {
    /// Whether the new key (or the private key of a pair) is extractable.
    pub(crate) extractable: bool,
    /// The usages asked for.
    pub(crate) usages: Usages,
}

/// The arguments of the import key operation.
#[derive(Clone, Copy)]
pub(crate) struct KeyImport<'a> {
    /// The key format.
    pub(crate) format: KeyFormat,
    /// The key data (bytes, or a JWK's members).
    pub(crate) data: &'a KeyData,
    /// Whether the new key is extractable.
    pub(crate) extractable: bool,
    /// The new key's usages.
    pub(crate) usages: Usages,
}

impl KeyImport<'_> {
    /// The arguments in the order of the import key steps: format, key data,
    /// extractable, usages.
    pub(crate) fn parts(&self) -> (KeyFormat, &KeyData, bool, Usages) {
        (self.format, self.data, self.extractable, self.usages)
    }
}

/// The failure of a generate key operation the algorithm does not have.
pub(crate) fn no_generate() -> Failure {
    Failure::not_supported("generateKey is not supported for this algorithm")
}

/// The failure of an import key operation the algorithm does not have.
pub(crate) fn no_import() -> Failure {
    Failure::not_supported("importKey is not supported for this algorithm")
}

/// The failure of an operation a family does not have for these parameters.
pub(crate) fn unsupported() -> Failure {
    Failure::not_supported("unsupported operation")
}

/// A registered algorithm family: its dictionaries' normalization and its operations. The
/// operations run "in parallel" (Rust only, maybe on a worker thread); `alg` is what
/// [`Algorithm::normalize`] returned, boxed in a [`Normalized`] of this family.
pub(crate) trait Algorithm: Sync {
    /// Convert the algorithm dictionary to the desired type of (`name`, `op`) (step 6 of
    /// [normalize an algorithm](https://w3c.github.io/webcrypto/#algorithm-normalization-normalize-an-algorithm)):
    /// the members in lexicographic order, BufferSource members copied, hash members
    /// normalized.
    fn normalize(&self, members: &Members<'_>, ctx: &mut Context) -> JsResult<Params>;

    /// Whether the operation's steps are heavy enough for a worker thread by the
    /// parameters alone (PBKDF2's iterations, RSA key generation).
    fn heavy(&self, _alg: &Normalized) -> bool {
        false
    }

    /// The generate key operation.
    fn generate_key(&self, _alg: &Normalized, _request: KeyGeneration) -> Outcome<Generated> {
        Err(no_generate())
    }

    /// The import key operation.
    fn import_key(&self, _alg: &Normalized, _request: &KeyImport<'_>) -> Outcome<KeyParts> {
        Err(no_import())
    }

    /// The export key operation, with its [[extractable]] check where the family's steps
    /// put it.
    fn export_key(&self, _format: KeyFormat, key: &KeyParts) -> Outcome<Exported> {
        // 3. If the name member of the [[algorithm]] internal slot of key does not identify a
        //    registered algorithm that supports the export key operation, NotSupportedError.
        Err(Failure::not_supported(format!(
            "{} keys cannot be exported",
            key.algorithm.name()
        )))
    }

    /// The sign operation (after the name, usage and key type checks).
    fn sign(&self, _alg: &Normalized, _key: &KeyParts, _data: &[u8]) -> Outcome<Vec<u8>> {
        Err(unsupported())
    }

    /// The verify operation (after the name, usage and key type checks).
    fn verify(
        &self,
        _alg: &Normalized,
        _key: &KeyParts,
        _data: &[u8],
        _signature: &[u8],
    ) -> Outcome<bool> {
        Err(unsupported())
    }

    /// The encrypt (`encrypt`) or decrypt operation, or wrap key / unwrap key of a family
    /// with those (AES-KW).
    fn encrypt_or_decrypt(
        &self,
        _alg: &Normalized,
        _key: &KeyParts,
        _data: &[u8],
        _encrypt: bool,
    ) -> Outcome<Vec<u8>> {
        Err(unsupported())
    }

    /// The derive bits operation (`length` null: the whole output, where allowed).
    fn derive_bits(
        &self,
        _alg: &Normalized,
        _key: &KeyParts,
        _length: Option<u32>,
    ) -> Outcome<Vec<u8>> {
        Err(unsupported())
    }

    /// The [get key length](https://w3c.github.io/webcrypto/#dfn-get-key-length) operation.
    fn get_key_length(&self, _alg: &Normalized) -> Outcome<Option<u32>> {
        Ok(None)
    }
}

/// The TypeError of a `hash` member that does not normalize to a digest.
pub(crate) fn not_a_digest() -> boa_engine::JsError {
    type_error("hash is not a digest algorithm")
}
