//! [AES-CTR](https://w3c.github.io/webcrypto/#aes-ctr),
//! [AES-CBC](https://w3c.github.io/webcrypto/#aes-cbc),
//! [AES-GCM](https://w3c.github.io/webcrypto/#aes-gcm) and
//! [AES-KW](https://w3c.github.io/webcrypto/#aes-kw): generate key, import key, export key,
//! encrypt, decrypt, wrap key, unwrap key and get key length. Every primitive is a RustCrypto
//! crate's (`aes`, `ctr`, `cbc`, `aes-gcm`, `aes-kw`); this file composes them as the
//! algorithms describe.

use aes::cipher::{
    block_padding::Pkcs7, consts, generic_array::GenericArray, BlockCipher, BlockDecrypt,
    BlockDecryptMut, BlockEncrypt, BlockEncryptMut, BlockSizeUser, KeyInit, KeyIvInit,
    StreamCipher,
};
use aes_gcm::{aead::AeadInPlace, AesGcm};
use boa_engine::{Context, JsResult};

use super::oct::{export_secret, jwk_oct_checks, random_bytes, secret};
use crate::algorithm::{
    no_generate, unsupported, Algorithm, Generated, KeyGeneration, KeyImport, Members, Normalized,
    Op, Params, Plain,
};
use crate::convert::{buffer_source_bytes, enforce_range};
use crate::failure::{Failure, Outcome};
use crate::jwk::{Exported, KeyData, KeyFormat};
use crate::names::AesMode;
use crate::records::{KeyAlgorithm, KeyParts, Usages};

/// The AES family.
pub(crate) struct Aes;

/// The normalized dictionaries of AES.
#[derive(Debug, Clone)]
enum AesParams {
    /// `AesKeyGenParams` / `AesDerivedKeyParams`.
    Length { mode: AesMode, length: u16 },
    /// `AesCbcParams`.
    Cbc { iv: Vec<u8> },
    /// `AesCtrParams`.
    Ctr { counter: Vec<u8>, length: u8 },
    /// `AesGcmParams`.
    Gcm {
        additional_data: Option<Vec<u8>>,
        iv: Vec<u8>,
        tag_length: Option<u8>,
    },
}

/// The usages an AES key of `mode` may have.
fn allowed_usages(mode: AesMode) -> Usages {
    match mode {
        AesMode::Kw => Usages::of(&["wrapKey", "unwrapKey"]),
        _ => Usages::of(&["encrypt", "decrypt", "wrapKey", "unwrapKey"]),
    }
}

/// Convert the dictionary of `name`'s encrypt or decrypt operation.
fn cipher_params(name: &str, members: &Members<'_>, ctx: &mut Context) -> JsResult<Params> {
    Ok(match name {
        "AES-CBC" => {
            let v = members.required("iv", "AesCbcParams", ctx)?;
            Box::new(AesParams::Cbc {
                iv: buffer_source_bytes(&v, "iv", ctx)?,
            })
        }
        "AES-CTR" => {
            let v = members.required("counter", "AesCtrParams", ctx)?;
            let counter = buffer_source_bytes(&v, "counter", ctx)?;
            let v = members.required("length", "AesCtrParams", ctx)?;
            let length = enforce_range(&v, 255.0, "length", ctx)? as u8;
            Box::new(AesParams::Ctr { counter, length })
        }
        "AES-GCM" => {
            let additional_data = match members.get("additionalData", ctx)? {
                None => None,
                Some(v) => Some(buffer_source_bytes(&v, "additionalData", ctx)?),
            };
            let v = members.required("iv", "AesGcmParams", ctx)?;
            let iv = buffer_source_bytes(&v, "iv", ctx)?;
            let tag_length = match members.get("tagLength", ctx)? {
                None => None,
                Some(v) => Some(enforce_range(&v, 255.0, "tagLength", ctx)? as u8),
            };
            Box::new(AesParams::Gcm {
                additional_data,
                iv,
                tag_length,
            })
        }
        _ => Box::new(Plain),
    })
}

/// [AES import key](https://w3c.github.io/webcrypto/#aes-ctr-operations-import-key) (and
/// CBC's, GCM's, KW's).
fn import(
    mode: AesMode,
    format: KeyFormat,
    data: &KeyData,
    extractable: bool,
    usages: Usages,
) -> Outcome<KeyParts> {
    let name = mode.name();
    // 1. If usages contains an entry which is not allowed, then throw a SyntaxError.
    if !usages.within(allowed_usages(mode)) {
        return Err(Failure::syntax(format!("invalid usages for an {name} key")));
    }
    let bytes = match (format, data) {
        (KeyFormat::Raw, KeyData::Bytes(b)) => {
            // If the length in bits of data is not 128, 192 or 256, throw a DataError.
            if !matches!(b.len(), 16 | 24 | 32) {
                return Err(Failure::data(
                    "the AES key data must be 128, 192 or 256 bits",
                ));
            }
            b.clone()
        }
        (KeyFormat::Jwk, KeyData::Jwk(jwk)) => {
            let bytes = jwk_oct_checks(jwk, usages, "enc", extractable)?;
            let expected = match bytes.len() {
                16 => "A128",
                24 => "A192",
                32 => "A256",
                _ => {
                    return Err(Failure::data(
                        "the AES key data must be 128, 192 or 256 bits",
                    ))
                }
            };
            let expected = format!("{expected}{}", mode.jwk_suffix());
            if jwk.alg.as_deref().is_some_and(|a| a != expected) {
                return Err(Failure::data(format!("the JWK alg is not '{expected}'")));
            }
            bytes
        }
        _ => return Err(Failure::not_supported("AES keys import from raw or jwk")),
    };
    let length = u16::try_from(bytes.len() * 8).unwrap_or(0);
    Ok(secret(
        KeyAlgorithm::Aes { mode, length },
        extractable,
        usages,
        bytes,
    ))
}

/// The AES-GCM steps of encrypt / decrypt: the tag length, then the cipher.
fn gcm_steps(
    material: &[u8],
    additional_data: Option<&[u8]>,
    iv: &[u8],
    tag_length: Option<u8>,
    data: &[u8],
    encrypt: bool,
) -> Outcome<Vec<u8>> {
    let tag = tag_length.unwrap_or(128);
    if !matches!(tag, 32 | 64 | 96 | 104 | 112 | 120 | 128) {
        return Err(Failure::operation("invalid AES-GCM tagLength"));
    }
    aes_gcm(
        material,
        iv,
        additional_data.unwrap_or(&[]),
        tag,
        data,
        encrypt,
    )
}

impl Algorithm for Aes {
    fn normalize(&self, members: &Members<'_>, ctx: &mut Context) -> JsResult<Params> {
        let (name, op) = (members.name, members.op);
        match op {
            Op::GenerateKey | Op::GetKeyLength => {
                let d = if op == Op::GenerateKey {
                    "AesKeyGenParams"
                } else {
                    "AesDerivedKeyParams"
                };
                let v = members.required("length", d, ctx)?;
                let length = enforce_range(&v, f64::from(u16::MAX), "length", ctx)? as u16;
                Ok(Box::new(AesParams::Length {
                    mode: AesMode::from_name(name).unwrap_or(AesMode::Gcm),
                    length,
                }))
            }
            Op::Encrypt | Op::Decrypt => cipher_params(name, members, ctx),
            _ => Ok(Box::new(Plain)),
        }
    }

    /// [AES generate key](https://w3c.github.io/webcrypto/#aes-ctr-operations-generate-key)
    /// (and CBC's, GCM's, KW's).
    fn generate_key(&self, alg: &Normalized, request: KeyGeneration) -> Outcome<Generated> {
        let KeyGeneration {
            extractable,
            usages,
        } = request;
        let Some(&AesParams::Length { mode, length }) = alg.params() else {
            return Err(no_generate());
        };
        // 1. If usages contains any entry which is not allowed, then throw a SyntaxError.
        if !usages.within(allowed_usages(mode)) {
            return Err(Failure::syntax(format!(
                "invalid usages for an {} key",
                mode.name()
            )));
        }
        // 2. If the length member of normalizedAlgorithm is not equal to one of 128, 192 or
        //    256, then throw an OperationError.
        if !matches!(length, 128 | 192 | 256) {
            return Err(Failure::operation(
                "the AES key length must be 128, 192 or 256",
            ));
        }
        // 3. Generate an AES key of length length.
        let material = random_bytes(usize::from(length / 8))?;
        let algorithm = KeyAlgorithm::Aes { mode, length };
        Ok(Generated::Key(secret(
            algorithm,
            extractable,
            usages,
            material,
        )))
    }

    fn import_key(&self, alg: &Normalized, request: &KeyImport<'_>) -> Outcome<KeyParts> {
        let (format, data, extractable, usages) = request.parts();
        let mode = AesMode::from_name(alg.name).unwrap_or(AesMode::Gcm);
        import(mode, format, data, extractable, usages)
    }

    /// [AES export key](https://w3c.github.io/webcrypto/#aes-ctr-operations-export-key).
    fn export_key(&self, format: KeyFormat, key: &KeyParts) -> Outcome<Exported> {
        let KeyAlgorithm::Aes { mode, length } = key.algorithm else {
            return Err(unsupported());
        };
        export_secret(format, key, format!("A{length}{}", mode.jwk_suffix()))
    }

    fn encrypt_or_decrypt(
        &self,
        alg: &Normalized,
        key: &KeyParts,
        data: &[u8],
        encrypt: bool,
    ) -> Outcome<Vec<u8>> {
        let material = &key.material;
        match alg.params::<AesParams>() {
            Some(AesParams::Cbc { iv }) if encrypt => aes_cbc_encrypt(material, iv, data),
            Some(AesParams::Cbc { iv }) => aes_cbc_decrypt(material, iv, data),
            Some(AesParams::Ctr { counter, length }) => aes_ctr(material, counter, *length, data),
            Some(AesParams::Gcm {
                additional_data,
                iv,
                tag_length,
            }) => gcm_steps(
                material,
                additional_data.as_deref(),
                iv,
                *tag_length,
                data,
                encrypt,
            ),
            // AES-KW's wrap key and unwrap key (a plain `Algorithm`).
            None if alg.name == "AES-KW" && encrypt => aes_kw_wrap(material, data),
            None if alg.name == "AES-KW" => aes_kw_unwrap(material, data),
            _ => Err(unsupported()),
        }
    }

    /// [AES get key length](https://w3c.github.io/webcrypto/#aes-ctr-operations-get-key-length).
    fn get_key_length(&self, alg: &Normalized) -> Outcome<Option<u32>> {
        let Some(&AesParams::Length { length, .. }) = alg.params() else {
            return Ok(None);
        };
        if !matches!(length, 128 | 192 | 256) {
            return Err(Failure::operation(
                "the AES key length must be 128, 192 or 256",
            ));
        }
        Ok(Some(u32::from(length)))
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

/// The arguments of one AES-GCM computation.
#[derive(Clone, Copy)]
struct GcmInput<'a> {
    key: &'a [u8],
    iv: &'a [u8],
    aad: &'a [u8],
    tag_bits: u8,
    data: &'a [u8],
    encrypt: bool,
}

/// The AES-GCM cipher over `key` with a nonce of `N` bytes and a tag of `T` bytes.
fn gcm_cipher<C, N, T>(key: &[u8]) -> Outcome<AesGcm<C, N, T>>
where
    C: BlockCipher + BlockEncrypt + KeyInit + BlockSizeUser<BlockSize = consts::U16>,
    N: aes::cipher::ArrayLength<u8>,
    T: aes_gcm::TagSize,
{
    AesGcm::<C, N, T>::new_from_slice(key)
        .map_err(|_| Failure::operation("invalid AES-GCM key length"))
}

/// The ciphertext and the `tag_len`-byte tag that ends `data`.
fn split_tag(data: &[u8], tag_len: usize) -> Outcome<(&[u8], &[u8])> {
    // "If the length of ciphertext is less than tagLength, then throw an OperationError."
    let Some(split) = data.len().checked_sub(tag_len) else {
        return Err(Failure::operation(
            "the AES-GCM ciphertext is shorter than the tag",
        ));
    };
    Ok(data.split_at(split))
}

/// The AES-GCM computation with a nonce of `N` bytes and a tag of `T` bytes.
fn gcm_sized<C, N, T>(input: &GcmInput<'_>) -> Outcome<Vec<u8>>
where
    C: BlockCipher + BlockEncrypt + KeyInit + BlockSizeUser<BlockSize = consts::U16>,
    N: aes::cipher::ArrayLength<u8>,
    T: aes_gcm::TagSize,
{
    let GcmInput { iv, aad, data, .. } = *input;
    let cipher = gcm_cipher::<C, N, T>(input.key)?;
    let nonce = GenericArray::from_slice(iv);
    let tag_len = T::to_usize();
    if input.encrypt {
        // Room for the tag from the start: appending it does not move the ciphertext.
        let mut buffer = Vec::with_capacity(data.len().saturating_add(tag_len));
        buffer.extend_from_slice(data);
        let tag = cipher
            .encrypt_in_place_detached(nonce, aad, &mut buffer)
            .map_err(|_| Failure::operation("the AES-GCM plaintext is too long"))?;
        buffer.extend_from_slice(&tag);
        Ok(buffer)
    } else {
        let (ciphertext, tag) = split_tag(data, tag_len)?;
        let mut buffer = ciphertext.to_vec();
        cipher
            .decrypt_in_place_detached(nonce, aad, &mut buffer, GenericArray::from_slice(tag))
            .map_err(|_| Failure::operation("the AES-GCM authentication failed"))?;
        Ok(buffer)
    }
}

fn gcm_nonce<C, N>(input: &GcmInput<'_>) -> Outcome<Vec<u8>>
where
    C: BlockCipher + BlockEncrypt + KeyInit + BlockSizeUser<BlockSize = consts::U16>,
    N: aes::cipher::ArrayLength<u8>,
{
    match input.tag_bits {
        96 => gcm_sized::<C, N, consts::U12>(input),
        104 => gcm_sized::<C, N, consts::U13>(input),
        112 => gcm_sized::<C, N, consts::U14>(input),
        120 => gcm_sized::<C, N, consts::U15>(input),
        128 => gcm_sized::<C, N, consts::U16>(input),
        32 | 64 => gcm_short_tag::<C, N>(input, usize::from(input.tag_bits / 8)),
        _ => Err(Failure::operation("invalid AES-GCM tag length")),
    }
}

/// AES-GCM with a 32- or 64-bit tag (`tag_len` bytes), which the aes-gcm crate does not
/// instantiate: the tag is the first `tag_len` bytes of the full 128-bit tag (NIST SP 800-38D
/// "MSB_t"), computed by the crate.
fn gcm_short_tag<C, N>(input: &GcmInput<'_>, tag_len: usize) -> Outcome<Vec<u8>>
where
    C: BlockCipher + BlockEncrypt + KeyInit + BlockSizeUser<BlockSize = consts::U16>,
    N: aes::cipher::ArrayLength<u8>,
{
    use subtle::ConstantTimeEq;
    let GcmInput { iv, aad, data, .. } = *input;
    let cipher = gcm_cipher::<C, N, consts::U16>(input.key)?;
    let nonce = GenericArray::from_slice(iv);
    if input.encrypt {
        let mut buffer = data.to_vec();
        let tag = cipher
            .encrypt_in_place_detached(nonce, aad, &mut buffer)
            .map_err(|_| Failure::operation("the AES-GCM plaintext is too long"))?;
        buffer.extend(tag.iter().take(tag_len));
        return Ok(buffer);
    }
    let (ciphertext, tag) = split_tag(data, tag_len)?;
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

fn gcm<C>(input: &GcmInput<'_>) -> Outcome<Vec<u8>>
where
    C: BlockCipher + BlockEncrypt + KeyInit + BlockSizeUser<BlockSize = consts::U16>,
{
    match input.iv.len() {
        12 => gcm_nonce::<C, consts::U12>(input),
        16 => gcm_nonce::<C, consts::U16>(input),
        32 => gcm_nonce::<C, consts::U32>(input),
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
    let input = GcmInput {
        key,
        iv,
        aad,
        tag_bits,
        data,
        encrypt,
    };
    with_aes!(key, gcm(&input))
}

/// AES-KW with the AES of `key`'s size: wrap (`wrap`) or unwrap `data`; `failed` is the
/// OperationError's message.
fn kw<C>(key: &[u8], data: &[u8], wrap: bool, failed: &str) -> Outcome<Vec<u8>>
where
    C: BlockCipher + BlockEncrypt + BlockDecrypt + KeyInit + BlockSizeUser<BlockSize = consts::U16>,
{
    let failed = |_| Failure::operation(failed);
    let kek = aes_kw::Kek::<C>::try_from(key).map_err(failed)?;
    if wrap {
        kek.wrap_vec(data).map_err(failed)
    } else {
        kek.unwrap_vec(data).map_err(failed)
    }
}

/// [AES-KW wrap key](https://w3c.github.io/webcrypto/#aes-kw-operations-wrap) (RFC 3394).
pub(crate) fn aes_kw_wrap(key: &[u8], data: &[u8]) -> Outcome<Vec<u8>> {
    // 1. If plaintext is not a multiple of 64 bits in length, then throw an OperationError.
    if !data.len().is_multiple_of(8) || data.len() < 16 {
        return Err(Failure::operation(
            "AES-KW wraps a multiple of 8 bytes, at least 16",
        ));
    }
    with_aes!(key, kw(key, data, true, "AES-KW wrapping failed"))
}

/// [AES-KW unwrap key](https://w3c.github.io/webcrypto/#aes-kw-operations-unwrap).
pub(crate) fn aes_kw_unwrap(key: &[u8], data: &[u8]) -> Outcome<Vec<u8>> {
    if !data.len().is_multiple_of(8) || data.len() < 24 {
        return Err(Failure::operation(
            "the AES-KW wrapped key has an invalid length",
        ));
    }
    with_aes!(key, kw(key, data, false, "AES-KW unwrapping failed"))
}
