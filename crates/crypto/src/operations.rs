//! The operations' "in parallel" steps that come before and after the algorithm's own: the
//! name and usage checks, the key type checks of sign and verify, the usages a new key must
//! have, and the dispatch to the family of the [normalized](crate::normalize) algorithm or of
//! the key. Rust only: they run on the event-loop thread or a worker thread.

use crate::algorithm::{Generated, Normalized};
use crate::failure::{Failure, Outcome};
use crate::jwk::{Exported, KeyFormat};
use crate::parallel::Output;
use crate::records::{KeyParts, KeyType};
use crate::registry;

/// The steps of generateKey after the algorithm's: "If result is a CryptoKey object: if the
/// [[type]] internal slot of result is "secret" or "private" and usages is empty, then throw a
/// SyntaxError. If result is a CryptoKeyPair object: if the [[usages]] internal slot of the
/// privateKey attribute of result is the empty sequence, then throw a SyntaxError."
pub(crate) fn finish_generate(generated: Generated) -> Outcome<Output> {
    match generated {
        Generated::Key(parts) => require_usages(parts),
        Generated::Pair { public, private } => {
            if private.usages.is_empty() {
                return Err(Failure::syntax("the private key needs at least one usage"));
            }
            Ok(Output::KeyPair { public, private })
        }
    }
}

/// The name and usage checks of sign, verify, encrypt, decrypt, deriveBits, wrapKey, unwrapKey.
pub(crate) fn check_key(alg: &Normalized, key: &KeyParts, usage: &str) -> Outcome<()> {
    // If the name member of normalizedAlgorithm is not equal to the name attribute of the
    // [[algorithm]] internal slot of key then throw an InvalidAccessError.
    if alg.name != key.algorithm.name() {
        return Err(Failure::invalid_access(format!(
            "the key is an {} key, not {}",
            key.algorithm.name(),
            alg.name
        )));
    }
    // If the [[usages]] internal slot of key does not contain an entry that is usage, then
    // throw an InvalidAccessError.
    if !key.usages.contains(usage) {
        return Err(Failure::invalid_access(format!(
            "the key's usages do not include '{usage}'"
        )));
    }
    Ok(())
}

/// The sign operation of the key's algorithm (after [`check_key`]).
pub(crate) fn sign(alg: &Normalized, key: &KeyParts, data: &[u8]) -> Outcome<Vec<u8>> {
    // The asymmetric algorithms: "If the [[type]] internal slot of key is not "private", then
    // throw an InvalidAccessError."
    if key.key_type == KeyType::Public {
        return Err(Failure::invalid_access("signing needs a private key"));
    }
    alg.algorithm.sign(alg, key, data)
}

/// The verify operation of the key's algorithm (after [`check_key`]).
pub(crate) fn verify(
    alg: &Normalized,
    key: &KeyParts,
    data: &[u8],
    signature: &[u8],
) -> Outcome<bool> {
    if key.key_type == KeyType::Private {
        return Err(Failure::invalid_access("verifying needs a public key"));
    }
    alg.algorithm.verify(alg, key, data, signature)
}

/// The steps after an import: "If the [[type]] internal slot of result is "secret" or
/// "private" and usages is empty, then throw a SyntaxError."
pub(crate) fn require_usages(parts: KeyParts) -> Outcome<Output> {
    if parts.key_type != KeyType::Public && parts.usages.is_empty() {
        return Err(Failure::syntax(format!(
            "a {} key needs at least one usage",
            parts.key_type.as_str()
        )));
    }
    Ok(Output::Key(parts))
}

/// The export key operation of the key's algorithm (with its [[extractable]] check).
pub(crate) fn export_key(format: KeyFormat, key: &KeyParts) -> Outcome<Exported> {
    match registry::algorithm_named(key.algorithm.name()) {
        Some(algorithm) => algorithm.export_key(format, key),
        None => Err(Failure::not_supported(format!(
            "{} keys cannot be exported",
            key.algorithm.name()
        ))),
    }
}
