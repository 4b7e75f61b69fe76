//! The cryptographic operations themselves, on bytes, without JavaScript: every primitive is a
//! RustCrypto crate's (nothing here hand-writes one); this module only composes them as the
//! [Web Cryptography API](https://w3c.github.io/webcrypto/) algorithms describe.

use aes::cipher::{
    block_padding::Pkcs7, consts, generic_array::GenericArray, BlockCipher, BlockDecrypt,
    BlockDecryptMut, BlockEncrypt, BlockEncryptMut, BlockSizeUser, KeyInit, KeyIvInit,
    StreamCipher,
};
use aes_gcm::{aead::AeadInPlace, AesGcm};
use hmac::{Hmac, Mac};
use sha1::Sha1;
use sha2::{Digest, Sha256, Sha384, Sha512};

/// A failed operation: the name of the `DOMException` the spec throws and a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Failure {
    /// The DOMException name (`OperationError`, `DataError`, ...), or `TypeError` for a
    /// TypeError.
    pub(crate) name: &'static str,
    /// What went wrong.
    pub(crate) message: String,
}

impl Failure {
    pub(crate) fn new(name: &'static str, message: impl Into<String>) -> Self {
        Self {
            name,
            message: message.into(),
        }
    }
    pub(crate) fn operation(message: impl Into<String>) -> Self {
        Self::new("OperationError", message)
    }
    pub(crate) fn data(message: impl Into<String>) -> Self {
        Self::new("DataError", message)
    }
    pub(crate) fn not_supported(message: impl Into<String>) -> Self {
        Self::new("NotSupportedError", message)
    }
    pub(crate) fn invalid_access(message: impl Into<String>) -> Self {
        Self::new("InvalidAccessError", message)
    }
    pub(crate) fn syntax(message: impl Into<String>) -> Self {
        Self::new("SyntaxError", message)
    }
}

/// The result of an operation.
pub(crate) type Outcome<T> = Result<T, Failure>;

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

    /// The JWK `alg` of HMAC with this hash.
    pub(crate) fn hmac_jwk_alg(self) -> &'static str {
        match self {
            Self::Sha1 => "HS1",
            Self::Sha256 => "HS256",
            Self::Sha384 => "HS384",
            Self::Sha512 => "HS512",
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

fn hmac_with<M: Mac + KeyInit>(key: &[u8], data: &[u8]) -> Outcome<Vec<u8>> {
    let mut mac = <M as KeyInit>::new_from_slice(key)
        .map_err(|_| Failure::operation("invalid HMAC key length"))?;
    mac.update(data);
    Ok(mac.finalize().into_bytes().to_vec())
}

/// The MAC of `data` under `key` with HMAC-`hash` ([sign](https://w3c.github.io/webcrypto/#hmac-operations-sign)).
pub(crate) fn hmac_sign(hash: Hash, key: &[u8], data: &[u8]) -> Outcome<Vec<u8>> {
    match hash {
        Hash::Sha1 => hmac_with::<Hmac<Sha1>>(key, data),
        Hash::Sha256 => hmac_with::<Hmac<Sha256>>(key, data),
        Hash::Sha384 => hmac_with::<Hmac<Sha384>>(key, data),
        Hash::Sha512 => hmac_with::<Hmac<Sha512>>(key, data),
    }
}

fn verify_with<M: Mac + KeyInit>(key: &[u8], data: &[u8], signature: &[u8]) -> Outcome<bool> {
    let mut mac = <M as KeyInit>::new_from_slice(key)
        .map_err(|_| Failure::operation("invalid HMAC key length"))?;
    mac.update(data);
    // Constant-time comparison (the crate's `verify_slice`).
    Ok(mac.verify_slice(signature).is_ok())
}

/// [verify](https://w3c.github.io/webcrypto/#hmac-operations-verify): whether `signature` is
/// the MAC of `data` under `key`.
pub(crate) fn hmac_verify(hash: Hash, key: &[u8], data: &[u8], signature: &[u8]) -> Outcome<bool> {
    match hash {
        Hash::Sha1 => verify_with::<Hmac<Sha1>>(key, data, signature),
        Hash::Sha256 => verify_with::<Hmac<Sha256>>(key, data, signature),
        Hash::Sha384 => verify_with::<Hmac<Sha384>>(key, data, signature),
        Hash::Sha512 => verify_with::<Hmac<Sha512>>(key, data, signature),
    }
}

/// PBKDF2 with HMAC-`hash` ([derive bits](https://w3c.github.io/webcrypto/#pbkdf2-operations-derive-bits)).
pub(crate) fn pbkdf2(
    hash: Hash,
    password: &[u8],
    salt: &[u8],
    iterations: u32,
    out: &mut [u8],
) -> Outcome<()> {
    let result = match hash {
        Hash::Sha1 => pbkdf2::pbkdf2::<Hmac<Sha1>>(password, salt, iterations, out),
        Hash::Sha256 => pbkdf2::pbkdf2::<Hmac<Sha256>>(password, salt, iterations, out),
        Hash::Sha384 => pbkdf2::pbkdf2::<Hmac<Sha384>>(password, salt, iterations, out),
        Hash::Sha512 => pbkdf2::pbkdf2::<Hmac<Sha512>>(password, salt, iterations, out),
    };
    result.map_err(|_| Failure::operation("PBKDF2 failed"))
}

/// HKDF extract-and-expand with `hash` ([derive bits](https://w3c.github.io/webcrypto/#hkdf-operations-derive-bits)).
pub(crate) fn hkdf(
    hash: Hash,
    ikm: &[u8],
    salt: &[u8],
    info: &[u8],
    out: &mut [u8],
) -> Outcome<()> {
    let too_long = |_| Failure::operation("the HKDF output length is too large for the hash");
    match hash {
        Hash::Sha1 => hkdf::Hkdf::<Sha1>::new(Some(salt), ikm)
            .expand(info, out)
            .map_err(too_long),
        Hash::Sha256 => hkdf::Hkdf::<Sha256>::new(Some(salt), ikm)
            .expand(info, out)
            .map_err(too_long),
        Hash::Sha384 => hkdf::Hkdf::<Sha384>::new(Some(salt), ikm)
            .expand(info, out)
            .map_err(too_long),
        Hash::Sha512 => hkdf::Hkdf::<Sha512>::new(Some(salt), ikm)
            .expand(info, out)
            .map_err(too_long),
    }
}

// ---------------------------------------------------------------------------------------
// AES
// ---------------------------------------------------------------------------------------

/// Dispatch on the AES key size: `$f::<Aes128|Aes192|Aes256>(args)`.
macro_rules! with_aes {
    ($key:expr, $f:ident ( $($arg:expr),* )) => {
        match $key.len() {
            16 => $f::<aes::Aes128>($($arg),*),
            24 => $f::<aes::Aes192>($($arg),*),
            32 => $f::<aes::Aes256>($($arg),*),
            _ => Err(Failure::operation("the AES key is not 128, 192 or 256 bits")),
        }
    };
}

fn cbc_encrypt<C>(key: &[u8], iv: &[u8], data: &[u8]) -> Outcome<Vec<u8>>
where
    C: BlockCipher + BlockEncrypt + KeyInit + BlockSizeUser<BlockSize = consts::U16>,
{
    let enc = cbc::Encryptor::<C>::new_from_slices(key, iv)
        .map_err(|_| Failure::operation("invalid AES-CBC key or iv length"))?;
    Ok(enc.encrypt_padded_vec_mut::<Pkcs7>(data))
}

fn cbc_decrypt<C>(key: &[u8], iv: &[u8], data: &[u8]) -> Outcome<Vec<u8>>
where
    C: BlockCipher + BlockDecrypt + KeyInit + BlockSizeUser<BlockSize = consts::U16>,
{
    let dec = cbc::Decryptor::<C>::new_from_slices(key, iv)
        .map_err(|_| Failure::operation("invalid AES-CBC key or iv length"))?;
    dec.decrypt_padded_vec_mut::<Pkcs7>(data)
        .map_err(|_| Failure::operation("the AES-CBC padding is invalid"))
}

/// [AES-CBC encrypt](https://w3c.github.io/webcrypto/#aes-cbc-operations-encrypt): PKCS#7
/// padding, then CBC.
pub(crate) fn aes_cbc_encrypt(key: &[u8], iv: &[u8], data: &[u8]) -> Outcome<Vec<u8>> {
    // 1. If the iv member of normalizedAlgorithm does not have a length of 16 bytes, then throw
    //    an OperationError.
    if iv.len() != 16 {
        return Err(Failure::operation("the AES-CBC iv must be 16 bytes"));
    }
    with_aes!(key, cbc_encrypt(key, iv, data))
}

/// [AES-CBC decrypt](https://w3c.github.io/webcrypto/#aes-cbc-operations-decrypt).
pub(crate) fn aes_cbc_decrypt(key: &[u8], iv: &[u8], data: &[u8]) -> Outcome<Vec<u8>> {
    if iv.len() != 16 {
        return Err(Failure::operation("the AES-CBC iv must be 16 bytes"));
    }
    // "If the length of ciphertext is zero or is not a multiple of 16 bytes, then throw an
    // OperationError."
    if data.is_empty() || !data.len().is_multiple_of(16) {
        return Err(Failure::operation(
            "the AES-CBC ciphertext is not a positive multiple of 16 bytes",
        ));
    }
    with_aes!(key, cbc_decrypt(key, iv, data))
}

fn ctr_apply<C>(key: &[u8], counter: &[u8; 16], length: u32, data: &[u8]) -> Outcome<Vec<u8>>
where
    C: BlockCipher + BlockEncrypt + KeyInit + BlockSizeUser<BlockSize = consts::U16>,
{
    let initial = u128::from_be_bytes(*counter);
    // The rightmost `length` bits are the counter block's counter; the rest is the nonce.
    let modulus_bits = length.min(128);
    let mask = if modulus_bits == 128 {
        u128::MAX
    } else {
        (1u128 << modulus_bits) - 1
    };
    let low = initial & mask;
    let blocks = (data.len() as u128).div_ceil(16);
    // "If the length of plaintext would cause the counter to wrap (be used twice), throw an
    // OperationError": 2^length distinct counter values.
    if modulus_bits < 128 && blocks > (1u128 << modulus_bits) {
        return Err(Failure::operation(
            "the data is too long for the AES-CTR counter length",
        ));
    }
    // Blocks before the counter part wraps to zero (within its `length` bits).
    let before_wrap = if modulus_bits == 128 {
        u128::MAX
    } else {
        (mask - low) + 1
    };
    let first_len = usize::try_from(before_wrap.saturating_mul(16))
        .unwrap_or(usize::MAX)
        .min(data.len());
    let mut out = data.to_vec();
    let (first, rest) = out.split_at_mut(first_len);
    let key = GenericArray::from_slice(key);
    let mut cipher = ctr::Ctr128BE::<C>::new(key, GenericArray::from_slice(counter));
    cipher.apply_keystream(first);
    if !rest.is_empty() {
        // The counter wrapped: the next block's counter part is zero, the nonce unchanged.
        let wrapped = (initial & !mask).to_be_bytes();
        let mut cipher = ctr::Ctr128BE::<C>::new(key, GenericArray::from_slice(&wrapped));
        cipher.apply_keystream(rest);
    }
    Ok(out)
}

/// [AES-CTR encrypt/decrypt](https://w3c.github.io/webcrypto/#aes-ctr-operations-encrypt)
/// (the same transformation both ways).
pub(crate) fn aes_ctr(key: &[u8], counter: &[u8], length: u8, data: &[u8]) -> Outcome<Vec<u8>> {
    // 1. If the counter member of normalizedAlgorithm does not have a length of 16 bytes, then
    //    throw an OperationError.
    let counter: &[u8; 16] = counter
        .try_into()
        .map_err(|_| Failure::operation("the AES-CTR counter must be 16 bytes"))?;
    // 2. If the length member of normalizedAlgorithm is zero or is greater than 128, then throw
    //    an OperationError.
    if length == 0 || length > 128 {
        return Err(Failure::operation(
            "the AES-CTR counter length must be between 1 and 128",
        ));
    }
    let length = u32::from(length);
    with_aes!(key, ctr_apply(key, counter, length, data))
}

/// The AES-GCM computation with a nonce of `N` bytes and a tag of `T` bytes.
fn gcm_sized<C, N, T>(
    key: &[u8],
    iv: &[u8],
    aad: &[u8],
    data: &[u8],
    encrypt: bool,
) -> Outcome<Vec<u8>>
where
    C: BlockCipher + BlockEncrypt + KeyInit + BlockSizeUser<BlockSize = consts::U16>,
    N: aes::cipher::ArrayLength<u8>,
    T: aes_gcm::TagSize,
{
    let cipher = AesGcm::<C, N, T>::new_from_slice(key)
        .map_err(|_| Failure::operation("invalid AES-GCM key length"))?;
    let nonce = GenericArray::from_slice(iv);
    let tag_len = T::to_usize();
    if encrypt {
        // Room for the tag from the start: appending it does not move the ciphertext.
        let mut buffer = Vec::with_capacity(data.len().saturating_add(tag_len));
        buffer.extend_from_slice(data);
        let tag = cipher
            .encrypt_in_place_detached(nonce, aad, &mut buffer)
            .map_err(|_| Failure::operation("the AES-GCM plaintext is too long"))?;
        buffer.extend_from_slice(&tag);
        Ok(buffer)
    } else {
        // "If the length of ciphertext is less than tagLength, then throw an OperationError."
        let Some(split) = data.len().checked_sub(tag_len) else {
            return Err(Failure::operation(
                "the AES-GCM ciphertext is shorter than the tag",
            ));
        };
        let (ciphertext, tag) = data.split_at(split);
        let mut buffer = ciphertext.to_vec();
        cipher
            .decrypt_in_place_detached(nonce, aad, &mut buffer, GenericArray::from_slice(tag))
            .map_err(|_| Failure::operation("the AES-GCM authentication failed"))?;
        Ok(buffer)
    }
}

fn gcm_nonce<C, N>(
    key: &[u8],
    iv: &[u8],
    aad: &[u8],
    tag_bits: u8,
    data: &[u8],
    encrypt: bool,
) -> Outcome<Vec<u8>>
where
    C: BlockCipher + BlockEncrypt + KeyInit + BlockSizeUser<BlockSize = consts::U16>,
    N: aes::cipher::ArrayLength<u8>,
{
    match tag_bits {
        96 => gcm_sized::<C, N, consts::U12>(key, iv, aad, data, encrypt),
        104 => gcm_sized::<C, N, consts::U13>(key, iv, aad, data, encrypt),
        112 => gcm_sized::<C, N, consts::U14>(key, iv, aad, data, encrypt),
        120 => gcm_sized::<C, N, consts::U15>(key, iv, aad, data, encrypt),
        128 => gcm_sized::<C, N, consts::U16>(key, iv, aad, data, encrypt),
        32 | 64 => gcm_short_tag::<C, N>(key, iv, aad, usize::from(tag_bits / 8), data, encrypt),
        _ => Err(Failure::operation("invalid AES-GCM tag length")),
    }
}

/// AES-GCM with a 32- or 64-bit tag (`tag_len` bytes), which the aes-gcm crate does not
/// instantiate: the tag is the first `tag_len` bytes of the full 128-bit tag (NIST SP 800-38D
/// "MSB_t"), computed by the crate.
fn gcm_short_tag<C, N>(
    key: &[u8],
    iv: &[u8],
    aad: &[u8],
    tag_len: usize,
    data: &[u8],
    encrypt: bool,
) -> Outcome<Vec<u8>>
where
    C: BlockCipher + BlockEncrypt + KeyInit + BlockSizeUser<BlockSize = consts::U16>,
    N: aes::cipher::ArrayLength<u8>,
{
    use subtle::ConstantTimeEq;
    let cipher = AesGcm::<C, N, consts::U16>::new_from_slice(key)
        .map_err(|_| Failure::operation("invalid AES-GCM key length"))?;
    let nonce = GenericArray::from_slice(iv);
    if encrypt {
        let mut buffer = data.to_vec();
        let tag = cipher
            .encrypt_in_place_detached(nonce, aad, &mut buffer)
            .map_err(|_| Failure::operation("the AES-GCM plaintext is too long"))?;
        buffer.extend(tag.iter().take(tag_len));
        return Ok(buffer);
    }
    let Some(split) = data.len().checked_sub(tag_len) else {
        return Err(Failure::operation(
            "the AES-GCM ciphertext is shorter than the tag",
        ));
    };
    let (ciphertext, tag) = data.split_at(split);
    // GCM's keystream is the same both ways: "encrypting" the ciphertext with the crate gives
    // the candidate plaintext; encrypting that again gives the full tag over the ciphertext.
    let mut plaintext = ciphertext.to_vec();
    cipher
        .encrypt_in_place_detached(nonce, &[], &mut plaintext)
        .map_err(|_| Failure::operation("the AES-GCM ciphertext is too long"))?;
    let mut again = plaintext.clone();
    let full = cipher
        .encrypt_in_place_detached(nonce, aad, &mut again)
        .map_err(|_| Failure::operation("the AES-GCM ciphertext is too long"))?;
    let expected = full.get(..tag_len).unwrap_or(&[]);
    if !bool::from(expected.ct_eq(tag)) {
        return Err(Failure::operation("the AES-GCM authentication failed"));
    }
    Ok(plaintext)
}

fn gcm<C>(
    key: &[u8],
    iv: &[u8],
    aad: &[u8],
    tag_bits: u8,
    data: &[u8],
    encrypt: bool,
) -> Outcome<Vec<u8>>
where
    C: BlockCipher + BlockEncrypt + KeyInit + BlockSizeUser<BlockSize = consts::U16>,
{
    match iv.len() {
        12 => gcm_nonce::<C, consts::U12>(key, iv, aad, tag_bits, data, encrypt),
        16 => gcm_nonce::<C, consts::U16>(key, iv, aad, tag_bits, data, encrypt),
        32 => gcm_nonce::<C, consts::U32>(key, iv, aad, tag_bits, data, encrypt),
        // NOTE: other iv lengths are valid GCM but are not instantiated here.
        0 => Err(Failure::operation("the AES-GCM iv must not be empty")),
        _ => Err(Failure::operation(
            "AES-GCM iv lengths other than 12, 16 and 32 bytes are not implemented",
        )),
    }
}

/// [AES-GCM encrypt](https://w3c.github.io/webcrypto/#aes-gcm-operations-encrypt) (`encrypt`)
/// or [decrypt](https://w3c.github.io/webcrypto/#aes-gcm-operations-decrypt): the ciphertext
/// is followed by the tag.
pub(crate) fn aes_gcm(
    key: &[u8],
    iv: &[u8],
    aad: &[u8],
    tag_bits: u8,
    data: &[u8],
    encrypt: bool,
) -> Outcome<Vec<u8>> {
    with_aes!(key, gcm(key, iv, aad, tag_bits, data, encrypt))
}

/// [AES-KW wrap key](https://w3c.github.io/webcrypto/#aes-kw-operations-wrap) (RFC 3394).
pub(crate) fn aes_kw_wrap(key: &[u8], data: &[u8]) -> Outcome<Vec<u8>> {
    // 1. If plaintext is not a multiple of 64 bits in length, then throw an OperationError.
    if !data.len().is_multiple_of(8) || data.len() < 16 {
        return Err(Failure::operation(
            "AES-KW wraps a multiple of 8 bytes, at least 16",
        ));
    }
    let failed = |_| Failure::operation("AES-KW wrapping failed");
    match key.len() {
        16 => aes_kw::KekAes128::try_from(key)
            .map_err(failed)?
            .wrap_vec(data)
            .map_err(failed),
        24 => aes_kw::KekAes192::try_from(key)
            .map_err(failed)?
            .wrap_vec(data)
            .map_err(failed),
        32 => aes_kw::KekAes256::try_from(key)
            .map_err(failed)?
            .wrap_vec(data)
            .map_err(failed),
        _ => Err(Failure::operation(
            "the AES key is not 128, 192 or 256 bits",
        )),
    }
}

/// [AES-KW unwrap key](https://w3c.github.io/webcrypto/#aes-kw-operations-unwrap).
pub(crate) fn aes_kw_unwrap(key: &[u8], data: &[u8]) -> Outcome<Vec<u8>> {
    let failed = |_| Failure::operation("AES-KW unwrapping failed");
    if !data.len().is_multiple_of(8) || data.len() < 24 {
        return Err(Failure::operation(
            "the AES-KW wrapped key has an invalid length",
        ));
    }
    match key.len() {
        16 => aes_kw::KekAes128::try_from(key)
            .map_err(failed)?
            .unwrap_vec(data)
            .map_err(failed),
        24 => aes_kw::KekAes192::try_from(key)
            .map_err(failed)?
            .unwrap_vec(data)
            .map_err(failed),
        32 => aes_kw::KekAes256::try_from(key)
            .map_err(failed)?
            .unwrap_vec(data)
            .map_err(failed),
        _ => Err(Failure::operation(
            "the AES key is not 128, 192 or 256 bits",
        )),
    }
}

/// `n` bytes from the operating system's generator.
pub(crate) fn random_bytes(n: usize) -> Outcome<Vec<u8>> {
    let mut out = vec![0; n];
    getrandom::fill(&mut out)
        .map_err(|e| Failure::operation(format!("the OS random generator failed: {e}")))?;
    Ok(out)
}

#[cfg(test)]
mod tests;
