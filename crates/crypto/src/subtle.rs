//! The [`SubtleCrypto`](https://w3c.github.io/webcrypto/#subtlecrypto-interface) interface:
//! argument conversion and [algorithm normalization](crate::normalize) on the event-loop
//! thread, then the operation's "in parallel" steps ([`crate::operations`] and the
//! algorithm's family, Rust only) and a queued task that settles the promise
//! ([`crate::parallel`]).

use boa_engine::{
    builtins::typed_array::TypedArray,
    class::{Class, ClassBuilder},
    object::builtins::JsArrayBuffer,
    property::Attribute,
    Context, JsObject, JsResult, JsValue,
};
use boa_gc::{Finalize, Trace};
use boa_webidl::{
    self as webidl, arg, buffer_source, promise::PromiseCapability, type_error, Member,
    INTERFACE_ATTRIBUTES,
};

use crate::algorithm::{KeyGeneration, KeyImport, Op};
use crate::convert::{
    buffer_source_bytes, key_parts, optional_length, to_format, to_jwk, to_key, to_usages,
};
use crate::hash::{DigestState, Hash};
use crate::jwk::{parse_jwk, Exported, KeyData, KeyFormat};
use crate::normalize::{normalize, normalize_wrap};
use crate::operations::{check_key, export_key, finish_generate, require_usages, sign, verify};
use crate::parallel::{run_in_parallel, settle_from_worker, Output, Work, WorkerSlot, HEAVY_BYTES};

/// The native data of the `SubtleCrypto` object.
#[derive(Debug, Trace, Finalize, boa_engine::JsData)]
pub struct SubtleCrypto;

fn this_subtle(this: &JsValue) -> JsResult<()> {
    webidl::brand::<SubtleCrypto>(this, "SubtleCrypto").map(|_| ())
}

/// encrypt() / decrypt().
fn cipher_method(this: &JsValue, args: &[JsValue], ctx: &mut Context, encrypt: bool) -> JsValue {
    webidl::promise::promise_method(ctx, |ctx| {
        this_subtle(this)?;
        let method = if encrypt { "encrypt" } else { "decrypt" };
        webidl::required_arguments(args, 3, "SubtleCrypto", method)?;
        let key = to_key(&arg(args, 1), "key")?;
        let data = buffer_source_bytes(&arg(args, 2), "data", ctx)?;
        let op = if encrypt { Op::Encrypt } else { Op::Decrypt };
        let alg = normalize(&arg(args, 0), op, ctx)?;
        let key = key_parts(&key);
        let work = Work::of_len(data.len()).max(Work::of_algorithm(&alg));
        Ok(run_in_parallel(ctx, work, move || {
            check_key(&alg, &key, method)?;
            alg.algorithm
                .encrypt_or_decrypt(&alg, &key, &data, encrypt)
                .map(Output::Bytes)
        }))
    })
}

/// [`encrypt(algorithm, key, data)`](https://w3c.github.io/webcrypto/#SubtleCrypto-method-encrypt).
fn encrypt(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    Ok(cipher_method(this, args, ctx, true))
}

/// [`decrypt(algorithm, key, data)`](https://w3c.github.io/webcrypto/#SubtleCrypto-method-decrypt).
fn decrypt(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    Ok(cipher_method(this, args, ctx, false))
}

/// [`sign(algorithm, key, data)`](https://w3c.github.io/webcrypto/#SubtleCrypto-method-sign).
fn sign_method(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    Ok(webidl::promise::promise_method(ctx, |ctx| {
        this_subtle(this)?;
        webidl::required_arguments(args, 3, "SubtleCrypto", "sign")?;
        let key = to_key(&arg(args, 1), "key")?;
        let data = buffer_source_bytes(&arg(args, 2), "data", ctx)?;
        let alg = normalize(&arg(args, 0), Op::Sign, ctx)?;
        let key = key_parts(&key);
        Ok(run_in_parallel(ctx, Work::of_len(data.len()), move || {
            check_key(&alg, &key, "sign")?;
            sign(&alg, &key, &data).map(Output::Bytes)
        }))
    }))
}

/// [`verify(algorithm, key, signature, data)`](https://w3c.github.io/webcrypto/#SubtleCrypto-method-verify).
fn verify_method(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    Ok(webidl::promise::promise_method(ctx, |ctx| {
        this_subtle(this)?;
        webidl::required_arguments(args, 4, "SubtleCrypto", "verify")?;
        let key = to_key(&arg(args, 1), "key")?;
        let signature = buffer_source_bytes(&arg(args, 2), "signature", ctx)?;
        let data = buffer_source_bytes(&arg(args, 3), "data", ctx)?;
        let alg = normalize(&arg(args, 0), Op::Verify, ctx)?;
        let key = key_parts(&key);
        Ok(run_in_parallel(ctx, Work::of_len(data.len()), move || {
            check_key(&alg, &key, "verify")?;
            verify(&alg, &key, &data, &signature).map(Output::Bool)
        }))
    }))
}

/// [`digest(algorithm, data)`](https://w3c.github.io/webcrypto/#SubtleCrypto-method-digest).
fn digest(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    Ok(webidl::promise::promise_method(ctx, |ctx| {
        this_subtle(this)?;
        webidl::required_arguments(args, 2, "SubtleCrypto", "digest")?;
        if let Some(promise) = digest_overlapped(&arg(args, 0), &arg(args, 1), ctx)? {
            return Ok(promise);
        }
        // 2. Let data be the result of getting a copy of the bytes held by data.
        let data = buffer_source_bytes(&arg(args, 1), "data", ctx)?;
        // 3. Let normalizedAlgorithm be the result of normalizing an algorithm.
        let normalized = normalize(&arg(args, 0), Op::Digest, ctx)?;
        let Some(&hash) = normalized.params::<Hash>() else {
            return Err(type_error("not a digest algorithm"));
        };
        // 6-8. In parallel: the digest; queue a task to resolve with an ArrayBuffer.
        Ok(run_in_parallel(ctx, Work::of_len(data.len()), move || {
            Ok(Output::Bytes(hash.digest(&data)))
        }))
    }))
}

/// [`generateKey(algorithm, extractable, keyUsages)`](https://w3c.github.io/webcrypto/#SubtleCrypto-method-generateKey).
fn generate_key(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    Ok(webidl::promise::promise_method(ctx, |ctx| {
        this_subtle(this)?;
        webidl::required_arguments(args, 3, "SubtleCrypto", "generateKey")?;
        let extractable = arg(args, 1).to_boolean();
        let usages = to_usages(&arg(args, 2), ctx)?;
        let alg = normalize(&arg(args, 0), Op::GenerateKey, ctx)?;
        Ok(run_in_parallel(ctx, Work::of_algorithm(&alg), move || {
            let request = KeyGeneration {
                extractable,
                usages,
            };
            finish_generate(alg.algorithm.generate_key(&alg, request)?)
        }))
    }))
}

/// [`deriveKey(algorithm, baseKey, derivedKeyType, extractable, keyUsages)`](https://w3c.github.io/webcrypto/#SubtleCrypto-method-deriveKey).
fn derive_key(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    Ok(webidl::promise::promise_method(ctx, |ctx| {
        this_subtle(this)?;
        webidl::required_arguments(args, 5, "SubtleCrypto", "deriveKey")?;
        let base = to_key(&arg(args, 1), "baseKey")?;
        let extractable = arg(args, 3).to_boolean();
        let usages = to_usages(&arg(args, 4), ctx)?;
        let alg = normalize(&arg(args, 0), Op::DeriveBits, ctx)?;
        let import = normalize(&arg(args, 2), Op::ImportKey, ctx)?;
        let length_alg = normalize(&arg(args, 2), Op::GetKeyLength, ctx)?;
        let base = key_parts(&base);
        Ok(run_in_parallel(ctx, Work::of_algorithm(&alg), move || {
            check_key(&alg, &base, "deriveKey")?;
            let length = length_alg.algorithm.get_key_length(&length_alg)?;
            let secret = alg.algorithm.derive_bits(&alg, &base, length)?;
            let data = KeyData::Bytes(secret);
            let request = KeyImport {
                format: KeyFormat::Raw,
                data: &data,
                extractable,
                usages,
            };
            let parts = import.algorithm.import_key(&import, &request)?;
            require_usages(parts)
        }))
    }))
}

/// [`deriveBits(algorithm, baseKey, length)`](https://w3c.github.io/webcrypto/#SubtleCrypto-method-deriveBits).
fn derive_bits(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    Ok(webidl::promise::promise_method(ctx, |ctx| {
        this_subtle(this)?;
        webidl::required_arguments(args, 2, "SubtleCrypto", "deriveBits")?;
        let base = to_key(&arg(args, 1), "baseKey")?;
        let length = optional_length(&arg(args, 2), ctx)?;
        let alg = normalize(&arg(args, 0), Op::DeriveBits, ctx)?;
        let base = key_parts(&base);
        Ok(run_in_parallel(ctx, Work::of_algorithm(&alg), move || {
            check_key(&alg, &base, "deriveBits")?;
            alg.algorithm
                .derive_bits(&alg, &base, length)
                .map(Output::Bytes)
        }))
    }))
}

/// [`importKey(format, keyData, algorithm, extractable, keyUsages)`](https://w3c.github.io/webcrypto/#SubtleCrypto-method-importKey).
fn import_key(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    Ok(webidl::promise::promise_method(ctx, |ctx| {
        this_subtle(this)?;
        webidl::required_arguments(args, 5, "SubtleCrypto", "importKey")?;
        let format = to_format(&arg(args, 0), ctx)?;
        let key_data = arg(args, 1);
        let is_buffer = buffer_source::check_allow_shared_buffer_source(&key_data).is_ok();
        let key_data = if is_buffer {
            KeyData::Bytes(buffer_source_bytes(&key_data, "keyData", ctx)?)
        } else {
            KeyData::Jwk(Box::new(to_jwk(&key_data, ctx)?))
        };
        let extractable = arg(args, 3).to_boolean();
        let usages = to_usages(&arg(args, 4), ctx)?;
        let alg = normalize(&arg(args, 2), Op::ImportKey, ctx)?;
        // 5-6. A JsonWebKey for raw/spki/pkcs8, or a buffer for jwk: TypeError.
        match (format, &key_data) {
            (KeyFormat::Jwk, KeyData::Bytes(_)) => {
                return Err(type_error("jwk key data must be a JsonWebKey"))
            }
            (KeyFormat::Raw | KeyFormat::Spki | KeyFormat::Pkcs8, KeyData::Jwk(_)) => {
                return Err(type_error("key data must be a BufferSource"))
            }
            _ => {}
        }
        Ok(run_in_parallel(ctx, Work::Light, move || {
            let request = KeyImport {
                format,
                data: &key_data,
                extractable,
                usages,
            };
            let parts = alg.algorithm.import_key(&alg, &request)?;
            require_usages(parts)
        }))
    }))
}

/// [`exportKey(format, key)`](https://w3c.github.io/webcrypto/#SubtleCrypto-method-exportKey).
fn export_key_method(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    Ok(webidl::promise::promise_method(ctx, |ctx| {
        this_subtle(this)?;
        webidl::required_arguments(args, 2, "SubtleCrypto", "exportKey")?;
        let format = to_format(&arg(args, 0), ctx)?;
        let key = key_parts(&to_key(&arg(args, 1), "key")?);
        Ok(run_in_parallel(ctx, Work::Light, move || {
            Ok(match export_key(format, &key)? {
                Exported::Bytes(b) => Output::Bytes(b),
                Exported::Jwk(j) => Output::Jwk(j),
            })
        }))
    }))
}

/// [`wrapKey(format, key, wrappingKey, wrapAlgorithm)`](https://w3c.github.io/webcrypto/#SubtleCrypto-method-wrapKey).
fn wrap_key(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    Ok(webidl::promise::promise_method(ctx, |ctx| {
        this_subtle(this)?;
        webidl::required_arguments(args, 4, "SubtleCrypto", "wrapKey")?;
        let format = to_format(&arg(args, 0), ctx)?;
        let key = key_parts(&to_key(&arg(args, 1), "key")?);
        let wrapping = key_parts(&to_key(&arg(args, 2), "wrappingKey")?);
        let alg = normalize_wrap(&arg(args, 3), true, ctx)?;
        Ok(run_in_parallel(ctx, Work::Light, move || {
            check_key(&alg, &wrapping, "wrapKey")?;
            let bytes = match export_key(format, &key)? {
                Exported::Bytes(b) => b,
                Exported::Jwk(j) => serde_json::Value::Object(j).to_string().into_bytes(),
            };
            alg.algorithm
                .encrypt_or_decrypt(&alg, &wrapping, &bytes, true)
                .map(Output::Bytes)
        }))
    }))
}

/// [`unwrapKey(format, wrappedKey, unwrappingKey, unwrapAlgorithm, unwrappedKeyAlgorithm,
/// extractable, keyUsages)`](https://w3c.github.io/webcrypto/#SubtleCrypto-method-unwrapKey).
fn unwrap_key(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    Ok(webidl::promise::promise_method(ctx, |ctx| {
        this_subtle(this)?;
        webidl::required_arguments(args, 7, "SubtleCrypto", "unwrapKey")?;
        let format = to_format(&arg(args, 0), ctx)?;
        let wrapped = buffer_source_bytes(&arg(args, 1), "wrappedKey", ctx)?;
        let unwrapping = key_parts(&to_key(&arg(args, 2), "unwrappingKey")?);
        let extractable = arg(args, 5).to_boolean();
        let usages = to_usages(&arg(args, 6), ctx)?;
        let alg = normalize_wrap(&arg(args, 3), false, ctx)?;
        let import = normalize(&arg(args, 4), Op::ImportKey, ctx)?;
        Ok(run_in_parallel(
            ctx,
            Work::of_len(wrapped.len()),
            move || {
                check_key(&alg, &unwrapping, "unwrapKey")?;
                let bytes = alg
                    .algorithm
                    .encrypt_or_decrypt(&alg, &unwrapping, &wrapped, false)?;
                let data = if format == KeyFormat::Jwk {
                    KeyData::Jwk(Box::new(parse_jwk(&bytes)?))
                } else {
                    KeyData::Bytes(bytes)
                };
                let request = KeyImport {
                    format,
                    data: &data,
                    extractable,
                    usages,
                };
                let parts = import.algorithm.import_key(&import, &request)?;
                require_usages(parts)
            },
        ))
    }))
}

impl Class for SubtleCrypto {
    const NAME: &'static str = "SubtleCrypto";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(
            class,
            &[
                Member::to_string_tag("SubtleCrypto"),
                // Promise<any> encrypt(AlgorithmIdentifier algorithm, CryptoKey key,
                //   BufferSource data);
                Member::operation("encrypt", 3, encrypt),
                // Promise<any> decrypt(AlgorithmIdentifier algorithm, CryptoKey key,
                //   BufferSource data);
                Member::operation("decrypt", 3, decrypt),
                // Promise<any> sign(AlgorithmIdentifier algorithm, CryptoKey key,
                //   BufferSource data);
                Member::operation("sign", 3, sign_method),
                // Promise<any> verify(AlgorithmIdentifier algorithm, CryptoKey key,
                //   BufferSource signature, BufferSource data);
                Member::operation("verify", 4, verify_method),
                // Promise<any> digest(AlgorithmIdentifier algorithm, BufferSource data);
                Member::operation("digest", 2, digest),
                // Promise<any> generateKey(AlgorithmIdentifier algorithm, boolean extractable,
                //   sequence<KeyUsage> keyUsages);
                Member::operation("generateKey", 3, generate_key),
                // Promise<CryptoKey> deriveKey(AlgorithmIdentifier algorithm, CryptoKey baseKey,
                //   AlgorithmIdentifier derivedKeyType, boolean extractable,
                //   sequence<KeyUsage> keyUsages);
                Member::operation("deriveKey", 5, derive_key),
                // Promise<ArrayBuffer> deriveBits(AlgorithmIdentifier algorithm,
                //   CryptoKey baseKey, optional unsigned long? length = null);
                Member::operation("deriveBits", 2, derive_bits),
                // Promise<CryptoKey> importKey(KeyFormat format, (BufferSource or JsonWebKey)
                //   keyData, AlgorithmIdentifier algorithm, boolean extractable,
                //   sequence<KeyUsage> keyUsages);
                Member::operation("importKey", 5, import_key),
                // Promise<any> exportKey(KeyFormat format, CryptoKey key);
                Member::operation("exportKey", 2, export_key_method),
                // Promise<any> wrapKey(KeyFormat format, CryptoKey key, CryptoKey wrappingKey,
                //   AlgorithmIdentifier wrapAlgorithm);
                Member::operation("wrapKey", 4, wrap_key),
                // Promise<CryptoKey> unwrapKey(KeyFormat format, BufferSource wrappedKey,
                //   CryptoKey unwrappingKey, AlgorithmIdentifier unwrapAlgorithm,
                //   AlgorithmIdentifier unwrappedKeyAlgorithm, boolean extractable,
                //   sequence<KeyUsage> keyUsages);
                Member::operation("unwrapKey", 7, unwrap_key),
            ],
        )
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        Err(webidl::illegal_constructor())
    }

    fn construct(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsObject> {
        Err(webidl::illegal_constructor())
    }
}

/// The piece size of [`digest_overlapped`]'s copy.
const DIGEST_PIECE: usize = 4 << 20;

/// `digest(algorithm, data)` of [`HEAVY_BYTES`] or more when `algorithm` is a string and
/// `data` an `ArrayBuffer` or typed array on a fixed-length `ArrayBuffer`: the copy of the
/// bytes (step 2) is made in pieces that a worker thread hashes while the next ones are
/// copied, so the digest takes about the longer of the copy and the hash instead of their
/// sum, and the copy is freed piece by piece. None when this does not apply (no worker free,
/// another kind of argument, an algorithm that does not normalize): the caller then takes the
/// ordinary path, which gives the same result or error.
// NOTE: normalizing the algorithm (step 3) before the copy (step 2) is unobservable here: a
// string algorithm converts to `{ name }` without running script, and a failure returns None
// so that the ordinary path reports errors in the spec's order. The whole copy is still made
// before this returns, so later changes to the buffer do not reach the digest, and the
// pieces hash to the digest of the whole (the hash functions are incremental).
fn digest_overlapped(
    algorithm: &JsValue,
    data: &JsValue,
    ctx: &mut Context,
) -> JsResult<Option<JsValue>> {
    if !algorithm.is_string() {
        return Ok(None);
    }
    let Some(object) = data.as_object() else {
        return Ok(None);
    };
    // The ArrayBuffer and the byte range of data.
    let typed = object
        .downcast_ref::<TypedArray>()
        .map(|ta| (ta.byte_offset(), ta.clone()));
    let (buffer, range) = match typed {
        Some((offset, ta)) => {
            let buffer = boa_engine::object::builtins::JsTypedArray::from_object(object.clone())?
                .buffer(ctx)?;
            let length = ta.byte_length(buffer_source::buffer_len(&buffer));
            (buffer, Some((offset, length)))
        }
        None => (data.clone(), None),
    };
    let Some(buffer) = buffer
        .as_object()
        .and_then(|b| JsArrayBuffer::from_object(b.clone()).ok())
    else {
        return Ok(None);
    };
    if !buffer_source::is_fixed_length(&buffer) {
        return Ok(None);
    }
    let Ok(normalized) = normalize(algorithm, Op::Digest, ctx) else {
        return Ok(None);
    };
    let Some(&hash) = normalized.params::<Hash>() else {
        return Ok(None);
    };
    let Some(held) = buffer.data() else {
        return Ok(None);
    };
    let (start, end) = match range {
        Some((offset, length)) => {
            let start = usize::try_from(offset).unwrap_or(usize::MAX);
            (
                start,
                start.saturating_add(usize::try_from(length).unwrap_or(usize::MAX)),
            )
        }
        None => (0, held.len()),
    };
    let Some(bytes) = held.get(start..end) else {
        return Ok(None);
    };
    if bytes.len() < HEAVY_BYTES {
        return Ok(None);
    }
    let Some(slot) = WorkerSlot::acquire() else {
        return Ok(None);
    };
    let (pieces, pieces_in) = std::sync::mpsc::channel::<Vec<u8>>();
    let (sender, receiver) = futures::channel::oneshot::channel();
    let spawned = std::thread::Builder::new()
        .name("boa_crypto worker".into())
        .spawn(move || {
            let _slot = slot;
            let mut state = DigestState::new(hash);
            // Ends when the event-loop thread has sent every piece and dropped the sender.
            for piece in pieces_in {
                state.update(&piece);
            }
            // The receiver is gone only if the context was dropped: nothing to settle.
            let _ = sender.send(Ok(Output::Bytes(state.finalize())));
        });
    if spawned.is_err() {
        return Ok(None);
    }
    // 2. Let data be the result of getting a copy of the bytes held by the data parameter
    //    (piece by piece; the worker holds the pieces it has not hashed yet).
    for piece in bytes.chunks(DIGEST_PIECE) {
        // The worker only stops receiving by panicking: the promise then rejects.
        let _ = pieces.send(piece.to_vec());
    }
    drop(pieces);
    drop(held);
    let promise = PromiseCapability::new(ctx);
    Ok(Some(settle_from_worker(promise, receiver, ctx)))
}
