//! The algorithm families, one file each: every family implements
//! [`Algorithm`](crate::algorithm::Algorithm) for the registered names the
//! [registry](crate::registry) gives it. `oct` and `pki` hold what the secret-key and the
//! asymmetric families share.

pub(crate) mod aes;
pub(crate) mod digest;
pub(crate) mod ec;
pub(crate) mod hmac;
pub(crate) mod kdf;
pub(crate) mod okp;
pub(crate) mod rsa;

mod oct;
mod pki;

#[cfg(test)]
mod tests;
