//! The [`SubtleCrypto`](https://w3c.github.io/webcrypto/#subtlecrypto-interface) interface:
//! argument conversion and [algorithm normalization](https://w3c.github.io/webcrypto/#algorithm-normalization-normalize-an-algorithm)
//! on the event-loop thread, then the operation's "in parallel" steps (Rust only, see
//! [`crate::ops`]) and a queued task that settles the promise.

use boa_engine::{
    builtins::{dataview::DataView, typed_array::TypedArray},
    class::{Class, ClassBuilder},
    job::GenericJob,
    object::builtins::{AlignedVec, JsArrayBuffer},
    property::Attribute,
    Context, JsError, JsObject, JsResult, JsString, JsValue, NativeFunction,
};
use boa_gc::{Finalize, Trace};
use boa_webidl::{
    self as webidl, arg, buffer_source, promise::PromiseCapability, type_error, Dictionary,
    INTERFACE_ATTRIBUTES,
};

use crate::asym::{self, RsaScheme};
use crate::key::{AesMode, CryptoKey, KeyAlgorithm, KeyParts, KeyType, Usages, USAGES};
use crate::ops::{self, Failure, Hash, Outcome};

/// The native data of the `SubtleCrypto` object.
#[derive(Debug, Trace, Finalize, boa_engine::JsData)]
pub struct SubtleCrypto;

// ---------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------

/// The JS value of a failure: a DOMException of its name (a TypeError for "TypeError").
fn failure_value(failure: &Failure, ctx: &mut Context) -> JsValue {
    if failure.name == "TypeError" {
        return webidl::type_error_value(failure.message.clone(), ctx);
    }
    match webidl::create_dom_exception(&failure.message, failure.name, ctx) {
        Ok(v) => v,
        Err(e) => webidl::own_error_value(e, ctx),
    }
}

/// A failure thrown from the synchronous steps (it rejects the promise at once).
fn throw(failure: Failure, ctx: &mut Context) -> JsError {
    JsError::from_opaque(failure_value(&failure, ctx))
}

// ---------------------------------------------------------------------------------------
// Conversions
// ---------------------------------------------------------------------------------------

/// Convert to `BufferSource` and [get a copy of the bytes held by the buffer
/// source](https://webidl.spec.whatwg.org/#dfn-get-buffer-source-copy) (a
/// SharedArrayBuffer, or a view on one, is a TypeError: no `[AllowShared]`).
pub(crate) fn buffer_source_bytes(
    value: &JsValue,
    what: &str,
    ctx: &mut Context,
) -> JsResult<Vec<u8>> {
    let not_buffer = || type_error(format!("{what} is not an ArrayBuffer or ArrayBufferView"));
    let Some(object) = value.as_object() else {
        return Err(not_buffer());
    };
    let is_view = object.is::<TypedArray>() || object.is::<DataView>();
    if !is_view && JsArrayBuffer::from_object(object.clone()).is_err() {
        return Err(not_buffer());
    }
    if is_view {
        let buffer = view_buffer(&object, ctx)?;
        if JsArrayBuffer::from_object(buffer).is_err() {
            return Err(type_error(format!(
                "{what} must not be a view on a SharedArrayBuffer"
            )));
        }
    }
    buffer_source::copy_bytes_of_allow_shared_buffer_source(value, ctx).map_err(|_| not_buffer())
}

/// The [[ViewedArrayBuffer]] of a typed array or DataView (read from the engine's slots).
fn view_buffer(object: &JsObject, ctx: &mut Context) -> JsResult<JsObject> {
    if object.is::<TypedArray>() {
        let ta = boa_engine::object::builtins::JsTypedArray::from_object(object.clone())?;
        let b = ta.buffer(ctx)?;
        return b.as_object().ok_or_else(|| type_error("no buffer"));
    }
    let dv = boa_engine::object::builtins::JsDataView::from_object(object.clone())?;
    let b = dv.buffer(ctx)?;
    b.as_object().ok_or_else(|| type_error("no buffer"))
}

/// WebIDL `[EnforceRange]` conversion to an integer type whose maximum is `max`.
fn enforce_range(value: &JsValue, max: f64, what: &str, ctx: &mut Context) -> JsResult<f64> {
    let n = value.to_number(ctx)?;
    if !n.is_finite() {
        return Err(type_error(format!("{what} is not a finite number")));
    }
    let n = n.trunc();
    if n < 0.0 || n > max {
        return Err(type_error(format!("{what} is out of range")));
    }
    Ok(n + 0.0)
}

/// A [`BigInteger`](https://w3c.github.io/webcrypto/#dfn-BigInteger) (a `Uint8Array`): its
/// bytes, big-endian.
fn big_integer(value: &JsValue, ctx: &mut Context) -> JsResult<Vec<u8>> {
    let is_uint8 = value.as_object().is_some_and(|o| {
        o.downcast_ref::<TypedArray>()
            .is_some_and(|ta| ta.kind() == boa_engine::builtins::typed_array::TypedArrayKind::Uint8)
    });
    if !is_uint8 {
        return Err(type_error("publicExponent is not a Uint8Array"));
    }
    buffer_source_bytes(value, "publicExponent", ctx)
}

/// A required dictionary member.
fn required(
    dict: &Dictionary,
    member: &str,
    dictionary: &str,
    ctx: &mut Context,
) -> JsResult<JsValue> {
    dict.get(webidl::key(member), ctx)?.ok_or_else(|| {
        type_error(format!(
            "Failed to read the '{member}' property from '{dictionary}': Required member is undefined."
        ))
    })
}

/// A `sequence<KeyUsage>` conversion (an unknown string is a TypeError, as for any enum).
fn to_usages(value: &JsValue, ctx: &mut Context) -> JsResult<Usages> {
    let Some(object) = value.as_object() else {
        return Err(type_error("keyUsages is not a sequence"));
    };
    let method = webidl::sequence::get_iterator_method(&object, ctx)?
        .ok_or_else(|| type_error("keyUsages is not iterable"))?;
    let strings = webidl::create_sequence_from_iterable(value, &method, ctx, |v, ctx| {
        let s = v.to_string(ctx)?.to_std_string_escaped();
        if !USAGES.contains(&s.as_str()) {
            return Err(type_error(format!(
                "'{s}' is not a valid value of the enumeration KeyUsage"
            )));
        }
        Ok(s)
    })?;
    let mut usages = Usages::default();
    for s in &strings {
        usages = usages.with(s);
    }
    Ok(usages)
}

/// The `KeyFormat` enumeration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyFormat {
    Raw,
    Spki,
    Pkcs8,
    Jwk,
}

fn to_format(value: &JsValue, ctx: &mut Context) -> JsResult<KeyFormat> {
    let s = value.to_string(ctx)?.to_std_string_escaped();
    match s.as_str() {
        "raw" => Ok(KeyFormat::Raw),
        "spki" => Ok(KeyFormat::Spki),
        "pkcs8" => Ok(KeyFormat::Pkcs8),
        "jwk" => Ok(KeyFormat::Jwk),
        _ => Err(type_error(format!(
            "'{s}' is not a valid value of the enumeration KeyFormat"
        ))),
    }
}

fn to_key(value: &JsValue, what: &str) -> JsResult<JsObject<CryptoKey>> {
    value
        .as_object()
        .and_then(|o| o.clone().downcast::<CryptoKey>().ok())
        .ok_or_else(|| type_error(format!("{what} is not a CryptoKey")))
}

fn key_parts(key: &JsObject<CryptoKey>) -> KeyParts {
    key.borrow().data().parts().clone()
}

/// The [`JsonWebKey`](https://w3c.github.io/webcrypto/#JsonWebKey-dictionary) members this
/// implementation reads.
#[derive(Debug, Clone, Default)]
pub(crate) struct Jwk {
    pub(crate) alg: Option<String>,
    pub(crate) crv: Option<String>,
    pub(crate) d: Option<String>,
    pub(crate) dp: Option<String>,
    pub(crate) dq: Option<String>,
    pub(crate) e: Option<String>,
    pub(crate) ext: Option<bool>,
    pub(crate) k: Option<String>,
    pub(crate) key_ops: Option<Vec<String>>,
    pub(crate) kty: Option<String>,
    pub(crate) n: Option<String>,
    /// Whether the `oth` member is present.
    pub(crate) oth: bool,
    pub(crate) p: Option<String>,
    pub(crate) q: Option<String>,
    pub(crate) qi: Option<String>,
    pub(crate) use_: Option<String>,
    pub(crate) x: Option<String>,
    pub(crate) y: Option<String>,
}

/// Convert a JS value to a `JsonWebKey` dictionary (members in lexicographic order).
// NOTE: `oth` (a sequence of RsaOtherPrimesInfo) is only checked for presence: multi-prime
// keys are not supported, and its conversion could only be told apart by a getter inside it.
fn to_jwk(value: &JsValue, ctx: &mut Context) -> JsResult<Jwk> {
    let dict = Dictionary::new(value, "JsonWebKey")?;
    let string = |v: Option<JsValue>, ctx: &mut Context| -> JsResult<Option<String>> {
        v.map(|v| v.to_string(ctx).map(|s| s.to_std_string_escaped()))
            .transpose()
    };
    let member = |name: &str, ctx: &mut Context| -> JsResult<Option<String>> {
        let v = dict.get(webidl::key(name), ctx)?;
        string(v, ctx)
    };
    let alg = member("alg", ctx)?;
    let crv = member("crv", ctx)?;
    let d = member("d", ctx)?;
    let dp = member("dp", ctx)?;
    let dq = member("dq", ctx)?;
    let e = member("e", ctx)?;
    let ext = dict.get(webidl::key("ext"), ctx)?.map(|v| v.to_boolean());
    let k = dict.get(webidl::key("k"), ctx)?;
    let k = string(k, ctx)?;
    let key_ops = match dict.get(webidl::key("key_ops"), ctx)? {
        None => None,
        Some(v) => {
            let object = v
                .as_object()
                .ok_or_else(|| type_error("key_ops is not a sequence"))?;
            let method = webidl::sequence::get_iterator_method(&object, ctx)?
                .ok_or_else(|| type_error("key_ops is not iterable"))?;
            Some(webidl::create_sequence_from_iterable(
                &v,
                &method,
                ctx,
                |v, ctx| Ok(v.to_string(ctx)?.to_std_string_escaped()),
            )?)
        }
    };
    let kty = dict.get(webidl::key("kty"), ctx)?;
    let kty = string(kty, ctx)?;
    let n = dict.get(webidl::key("n"), ctx)?;
    let n = string(n, ctx)?;
    let oth = dict.get(webidl::key("oth"), ctx)?.is_some();
    let member = |name: &str, ctx: &mut Context| -> JsResult<Option<String>> {
        let v = dict.get(webidl::key(name), ctx)?;
        string(v, ctx)
    };
    let p = member("p", ctx)?;
    let q = member("q", ctx)?;
    let qi = member("qi", ctx)?;
    let use_ = member("use", ctx)?;
    let x = member("x", ctx)?;
    let y = member("y", ctx)?;
    Ok(Jwk {
        alg,
        crv,
        d,
        dp,
        dq,
        e,
        ext,
        k,
        key_ops,
        kty,
        n,
        oth,
        p,
        q,
        qi,
        use_,
        x,
        y,
    })
}

/// [Parse a JWK](https://w3c.github.io/webcrypto/#concept-parse-a-jwk) from unwrapped bytes.
// NOTE: parsed with serde_json instead of the realm's JSON.parse and dictionary conversion:
// the same members, and no user code could run (the parsed object has only own data
// properties; a getter installed on Object.prototype for a member absent from the JSON is the
// one difference).
fn parse_jwk(bytes: &[u8]) -> Outcome<Jwk> {
    let value: serde_json::Value = serde_json::from_slice(bytes)
        .map_err(|_| Failure::data("the unwrapped key is not JSON"))?;
    let object = value
        .as_object()
        .ok_or_else(|| Failure::data("the unwrapped JWK is not an object"))?;
    let string = |name: &str| -> Outcome<Option<String>> {
        match object.get(name) {
            None | Some(serde_json::Value::Null) => Ok(None),
            Some(serde_json::Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => Ok(Some(other.to_string())),
        }
    };
    let key_ops = match object.get("key_ops") {
        None => None,
        Some(serde_json::Value::Array(items)) => Some(
            items
                .iter()
                .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
                .collect(),
        ),
        Some(_) => return Err(Failure::new("TypeError", "key_ops is not a sequence")),
    };
    Ok(Jwk {
        alg: string("alg")?,
        crv: string("crv")?,
        d: string("d")?,
        dp: string("dp")?,
        dq: string("dq")?,
        e: string("e")?,
        n: string("n")?,
        oth: object.get("oth").is_some_and(|v| !v.is_null()),
        p: string("p")?,
        q: string("q")?,
        qi: string("qi")?,
        x: string("x")?,
        y: string("y")?,
        ext: object.get("ext").map(|v| match v {
            serde_json::Value::Bool(b) => *b,
            serde_json::Value::Null => false,
            serde_json::Value::Number(n) => n.as_f64().is_some_and(|n| n != 0.0),
            serde_json::Value::String(s) => !s.is_empty(),
            _ => true,
        }),
        k: string("k")?,
        key_ops,
        kty: string("kty")?,
        use_: string("use")?,
    })
}

/// The data a key is imported from.
pub(crate) enum KeyData {
    Bytes(Vec<u8>),
    Jwk(Box<Jwk>),
}

// ---------------------------------------------------------------------------------------
// Algorithm normalization
// ---------------------------------------------------------------------------------------

/// The operations of the [registered algorithms](https://w3c.github.io/webcrypto/#dfn-supportedAlgorithms).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
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

/// The registered algorithm names of `op`.
fn registered(op: Op) -> &'static [&'static str] {
    match op {
        Op::Digest => &["SHA-1", "SHA-256", "SHA-384", "SHA-512"],
        Op::GenerateKey => &[
            "HMAC",
            "AES-CTR",
            "AES-CBC",
            "AES-GCM",
            "AES-KW",
            "ECDSA",
            "ECDH",
            "Ed25519",
            "X25519",
            "Ed448",
            "X448",
            "RSASSA-PKCS1-v1_5",
            "RSA-PSS",
            "RSA-OAEP",
        ],
        Op::ImportKey => &[
            "HMAC",
            "AES-CTR",
            "AES-CBC",
            "AES-GCM",
            "AES-KW",
            "PBKDF2",
            "HKDF",
            "ECDSA",
            "ECDH",
            "Ed25519",
            "X25519",
            "Ed448",
            "X448",
            "RSASSA-PKCS1-v1_5",
            "RSA-PSS",
            "RSA-OAEP",
        ],
        Op::GetKeyLength => &[
            "HMAC", "AES-CTR", "AES-CBC", "AES-GCM", "AES-KW", "PBKDF2", "HKDF",
        ],
        Op::Sign | Op::Verify => &[
            "HMAC",
            "ECDSA",
            "Ed25519",
            "Ed448",
            "RSASSA-PKCS1-v1_5",
            "RSA-PSS",
        ],
        Op::Encrypt | Op::Decrypt => &["AES-CTR", "AES-CBC", "AES-GCM", "RSA-OAEP"],
        Op::WrapKey | Op::UnwrapKey => &["AES-KW"],
        Op::DeriveBits => &["PBKDF2", "HKDF", "ECDH", "X25519", "X448"],
    }
}

/// A normalized algorithm: the IDL dictionary the registered algorithm's operation takes.
#[derive(Debug, Clone)]
enum Normalized {
    /// `Algorithm` of a SHA digest.
    Sha(Hash),
    /// A plain `Algorithm` (importKey of AES, PBKDF2, HKDF; HMAC sign/verify; AES-KW wrap).
    Plain(&'static str),
    /// A plain `Algorithm` of Ed25519, X25519, Ed448 or X448 (generateKey, importKey; Ed25519
    /// sign/verify).
    Okp(asym::Okp),
    /// `HmacKeyGenParams` / `HmacImportParams`.
    Hmac { hash: Hash, length: Option<u32> },
    /// `AesKeyGenParams` / `AesDerivedKeyParams`.
    AesLength { mode: AesMode, length: u16 },
    /// `AesCbcParams`.
    AesCbc { iv: Vec<u8> },
    /// `AesCtrParams`.
    AesCtr { counter: Vec<u8>, length: u8 },
    /// `AesGcmParams`.
    AesGcm {
        additional_data: Option<Vec<u8>>,
        iv: Vec<u8>,
        tag_length: Option<u8>,
    },
    /// `Pbkdf2Params`.
    Pbkdf2 {
        hash: Hash,
        iterations: u32,
        salt: Vec<u8>,
    },
    /// `HkdfParams`.
    Hkdf {
        hash: Hash,
        info: Vec<u8>,
        salt: Vec<u8>,
    },
    /// `EcKeyGenParams` / `EcKeyImportParams` of ECDSA (`ecdh` false) or ECDH.
    Ec { ecdh: bool, named_curve: String },
    /// `EcdsaParams`.
    Ecdsa { hash: Hash },
    /// [`Ed448Params`](https://wicg.github.io/webcrypto-secure-curves/#dfn-Ed448Params): the
    /// `context` member's bytes, None when absent.
    Ed448 { context: Option<Vec<u8>> },
    /// `EcdhKeyDeriveParams` of ECDH, X25519 or X448: the `public` key's slots.
    EcdhDerive {
        name: &'static str,
        public: Box<KeyParts>,
    },
    /// `RsaHashedKeyGenParams`.
    RsaGen {
        scheme: RsaScheme,
        modulus_length: u32,
        public_exponent: Vec<u8>,
        hash: Hash,
    },
    /// `RsaHashedImportParams`.
    RsaImport { scheme: RsaScheme, hash: Hash },
    /// `RsaPssParams`.
    RsaPss { salt_length: u32 },
    /// `RsaOaepParams`.
    RsaOaep { label: Option<Vec<u8>> },
}

impl Normalized {
    fn name(&self) -> &'static str {
        match self {
            Self::Sha(h) => h.name(),
            Self::Plain(n) => n,
            Self::Okp(okp) => okp.name(),
            Self::Hmac { .. } => "HMAC",
            Self::AesLength { mode, .. } => mode.name(),
            Self::AesCbc { .. } => "AES-CBC",
            Self::AesCtr { .. } => "AES-CTR",
            Self::AesGcm { .. } => "AES-GCM",
            Self::Pbkdf2 { .. } => "PBKDF2",
            Self::Hkdf { .. } => "HKDF",
            Self::Ec { ecdh: false, .. } | Self::Ecdsa { .. } => "ECDSA",
            Self::Ed448 { .. } => "Ed448",
            Self::Ec { ecdh: true, .. } => "ECDH",
            Self::EcdhDerive { name, .. } => name,
            Self::RsaGen { scheme, .. } | Self::RsaImport { scheme, .. } => scheme.name(),
            Self::RsaPss { .. } => "RSA-PSS",
            Self::RsaOaep { .. } => "RSA-OAEP",
        }
    }
}

/// Read a `HashAlgorithmIdentifier` member and normalize it for "digest".
fn hash_member(dict: &Dictionary, dictionary: &str, ctx: &mut Context) -> JsResult<Hash> {
    let v = required(dict, "hash", dictionary, ctx)?;
    match normalize(&v, Op::Digest, ctx)? {
        Normalized::Sha(h) => Ok(h),
        _ => Err(type_error("hash is not a digest algorithm")),
    }
}

/// [Normalize an algorithm](https://w3c.github.io/webcrypto/#algorithm-normalization-normalize-an-algorithm)
/// `alg` (an `AlgorithmIdentifier`) for `op`.
fn normalize(alg: &JsValue, op: Op, ctx: &mut Context) -> JsResult<Normalized> {
    // 1. If alg is an instance of a DOMString: return the result of normalizing
    //    { name: alg } (`(object or DOMString)`: any non-object converts to a string).
    let alg = match alg.as_object() {
        Some(o) => o.clone(),
        None => {
            let name = alg.to_string(ctx)?;
            let o = JsObject::with_object_proto(ctx.intrinsics());
            o.create_data_property_or_throw(JsString::from("name"), name, ctx)?;
            o
        }
    };
    let alg_value: JsValue = alg.clone().into();
    // 2. Let initialAlg be the result of converting alg to the IDL dictionary type Algorithm.
    let dict = Dictionary::new(&alg_value, "Algorithm")?;
    let name = required(&dict, "name", "Algorithm", ctx)?
        .to_string(ctx)?
        .to_std_string_escaped();
    // 3-5. If registeredAlgorithms contains a key that is a case-insensitive string match
    //      for algName, set algName to it; otherwise NotSupportedError.
    let Some(name) = registered(op)
        .iter()
        .find(|r| r.eq_ignore_ascii_case(&name))
        .copied()
    else {
        return Err(throw(
            Failure::not_supported(format!(
                "Unrecognized algorithm name '{name}' for this operation"
            )),
            ctx,
        ));
    };
    // 6. Let normalizedAlgorithm be the result of converting alg to desiredType (the
    //    inherited `name` first, then the members in lexicographic order), 7. its name set
    //    to algName, 9-10. BufferSource members copied and hash members normalized.
    let _name_again = required(&dict, "name", "Algorithm", ctx)?.to_string(ctx)?;
    let aes = AesMode::from_name(name);
    Ok(match (op, name) {
        (Op::Digest, _) => Normalized::Sha(
            Hash::from_name(name)
                .ok_or_else(|| type_error(format!("{name} is not a digest algorithm")))?,
        ),
        (Op::GenerateKey | Op::ImportKey | Op::GetKeyLength, "HMAC") => {
            let d = if op == Op::GenerateKey {
                "HmacKeyGenParams"
            } else {
                "HmacImportParams"
            };
            let hash = hash_member(&dict, d, ctx)?;
            let length = match dict.get(webidl::key("length"), ctx)? {
                None => None,
                Some(v) => Some(enforce_range(&v, f64::from(u32::MAX), "length", ctx)? as u32),
            };
            Normalized::Hmac { hash, length }
        }
        (Op::GenerateKey | Op::GetKeyLength, _) if aes.is_some() => {
            let d = if op == Op::GenerateKey {
                "AesKeyGenParams"
            } else {
                "AesDerivedKeyParams"
            };
            let v = required(&dict, "length", d, ctx)?;
            let length = enforce_range(&v, f64::from(u16::MAX), "length", ctx)? as u16;
            Normalized::AesLength {
                mode: aes.unwrap_or(AesMode::Gcm),
                length,
            }
        }
        (Op::Encrypt | Op::Decrypt, "AES-CBC") => {
            let v = required(&dict, "iv", "AesCbcParams", ctx)?;
            Normalized::AesCbc {
                iv: buffer_source_bytes(&v, "iv", ctx)?,
            }
        }
        (Op::Encrypt | Op::Decrypt, "AES-CTR") => {
            let v = required(&dict, "counter", "AesCtrParams", ctx)?;
            let counter = buffer_source_bytes(&v, "counter", ctx)?;
            let v = required(&dict, "length", "AesCtrParams", ctx)?;
            let length = enforce_range(&v, 255.0, "length", ctx)? as u8;
            Normalized::AesCtr { counter, length }
        }
        (Op::Encrypt | Op::Decrypt, "AES-GCM") => {
            let additional_data = match dict.get(webidl::key("additionalData"), ctx)? {
                None => None,
                Some(v) => Some(buffer_source_bytes(&v, "additionalData", ctx)?),
            };
            let v = required(&dict, "iv", "AesGcmParams", ctx)?;
            let iv = buffer_source_bytes(&v, "iv", ctx)?;
            let tag_length = match dict.get(webidl::key("tagLength"), ctx)? {
                None => None,
                Some(v) => Some(enforce_range(&v, 255.0, "tagLength", ctx)? as u8),
            };
            Normalized::AesGcm {
                additional_data,
                iv,
                tag_length,
            }
        }
        (Op::DeriveBits, "PBKDF2") => {
            let hash = hash_member(&dict, "Pbkdf2Params", ctx)?;
            let v = required(&dict, "iterations", "Pbkdf2Params", ctx)?;
            let iterations = enforce_range(&v, f64::from(u32::MAX), "iterations", ctx)? as u32;
            let v = required(&dict, "salt", "Pbkdf2Params", ctx)?;
            let salt = buffer_source_bytes(&v, "salt", ctx)?;
            Normalized::Pbkdf2 {
                hash,
                iterations,
                salt,
            }
        }
        (Op::GenerateKey | Op::ImportKey, "ECDSA" | "ECDH") => {
            let d = if op == Op::GenerateKey {
                "EcKeyGenParams"
            } else {
                "EcKeyImportParams"
            };
            let v = required(&dict, "namedCurve", d, ctx)?;
            Normalized::Ec {
                ecdh: name == "ECDH",
                named_curve: v.to_string(ctx)?.to_std_string_escaped(),
            }
        }
        (Op::Sign | Op::Verify, "ECDSA") => Normalized::Ecdsa {
            hash: hash_member(&dict, "EcdsaParams", ctx)?,
        },
        (Op::Sign | Op::Verify, "Ed448") => {
            let context = match dict.get(webidl::key("context"), ctx)? {
                None => None,
                Some(v) => Some(buffer_source_bytes(&v, "context", ctx)?),
            };
            Normalized::Ed448 { context }
        }
        (Op::DeriveBits, "ECDH" | "X25519" | "X448") => {
            let v = required(&dict, "public", "EcdhKeyDeriveParams", ctx)?;
            let public = to_key(&v, "The public member of EcdhKeyDeriveParams")?;
            Normalized::EcdhDerive {
                name,
                public: Box::new(key_parts(&public)),
            }
        }
        (Op::GenerateKey, _) if RsaScheme::from_name(name).is_some() => {
            let d = "RsaHashedKeyGenParams";
            let v = required(&dict, "modulusLength", d, ctx)?;
            let modulus_length =
                enforce_range(&v, f64::from(u32::MAX), "modulusLength", ctx)? as u32;
            let v = required(&dict, "publicExponent", d, ctx)?;
            let public_exponent = big_integer(&v, ctx)?;
            let hash = hash_member(&dict, d, ctx)?;
            Normalized::RsaGen {
                scheme: RsaScheme::from_name(name).unwrap_or(RsaScheme::Pkcs1),
                modulus_length,
                public_exponent,
                hash,
            }
        }
        (Op::ImportKey, _) if RsaScheme::from_name(name).is_some() => Normalized::RsaImport {
            scheme: RsaScheme::from_name(name).unwrap_or(RsaScheme::Pkcs1),
            hash: hash_member(&dict, "RsaHashedImportParams", ctx)?,
        },
        (Op::Sign | Op::Verify, "RSA-PSS") => {
            let v = required(&dict, "saltLength", "RsaPssParams", ctx)?;
            Normalized::RsaPss {
                salt_length: enforce_range(&v, f64::from(u32::MAX), "saltLength", ctx)? as u32,
            }
        }
        (Op::Encrypt | Op::Decrypt, "RSA-OAEP") => {
            let label = match dict.get(webidl::key("label"), ctx)? {
                None => None,
                Some(v) => Some(buffer_source_bytes(&v, "label", ctx)?),
            };
            Normalized::RsaOaep { label }
        }
        (Op::DeriveBits, "HKDF") => {
            let hash = hash_member(&dict, "HkdfParams", ctx)?;
            let v = required(&dict, "info", "HkdfParams", ctx)?;
            let info = buffer_source_bytes(&v, "info", ctx)?;
            let v = required(&dict, "salt", "HkdfParams", ctx)?;
            let salt = buffer_source_bytes(&v, "salt", ctx)?;
            Normalized::Hkdf { hash, info, salt }
        }
        _ => match asym::Okp::from_name(name) {
            Some(okp) => Normalized::Okp(okp),
            None => Normalized::Plain(name),
        },
    })
}

// ---------------------------------------------------------------------------------------
// The algorithms' operations (the "in parallel" steps: Rust only)
// ---------------------------------------------------------------------------------------

pub(crate) fn base64url_decode(s: &str) -> Outcome<Vec<u8>> {
    use base64ct::Encoding;
    base64ct::Base64UrlUnpadded::decode_vec(s)
        .map_err(|_| Failure::data("the JWK member is not valid base64url"))
}

pub(crate) fn base64url_encode(bytes: &[u8]) -> String {
    use base64ct::Encoding;
    base64ct::Base64UrlUnpadded::encode_string(bytes)
}

/// The JWK checks shared by the secret-key algorithms: `kty` "oct", `k` present, `use`,
/// `key_ops` and `ext` consistent with the import. Returns the key bytes.
fn jwk_oct_checks(
    jwk: &Jwk,
    usages: Usages,
    use_value: &str,
    extractable: bool,
) -> Outcome<Vec<u8>> {
    // If the kty field of jwk is not "oct", then throw a DataError.
    if jwk.kty.as_deref() != Some("oct") {
        return Err(Failure::data("the JWK kty is not 'oct'"));
    }
    // If jwk does not meet the requirements of Section 6.4 of JSON Web Algorithms, then throw
    // a DataError (k is required).
    let Some(k) = &jwk.k else {
        return Err(Failure::data("the JWK has no 'k'"));
    };
    let data = base64url_decode(k)?;
    // If usages is non-empty and the use field of jwk is present and is not use_value, then
    // throw a DataError.
    if !usages.is_empty() && jwk.use_.as_deref().is_some_and(|u| u != use_value) {
        return Err(Failure::data(format!("the JWK use is not '{use_value}'")));
    }
    // If the key_ops field of jwk is present, and is invalid according to the requirements of
    // JSON Web Key or does not contain all of the specified usages values, then throw a
    // DataError.
    if let Some(ops) = &jwk.key_ops {
        let mut seen = Vec::new();
        for op in ops {
            if seen.contains(&op) {
                return Err(Failure::data("the JWK key_ops has duplicates"));
            }
            seen.push(op);
        }
        if usages.names().any(|u| !ops.iter().any(|o| o == u)) {
            return Err(Failure::data(
                "the JWK key_ops does not contain every usage",
            ));
        }
    }
    // If the ext field of jwk is present and has the value false and extractable is true,
    // then throw a DataError.
    if jwk.ext == Some(false) && extractable {
        return Err(Failure::data("the JWK is not extractable"));
    }
    Ok(data)
}

/// Zero the bits of `bytes` past `bits`.
fn truncate_bits(mut bytes: Vec<u8>, bits: u32) -> Vec<u8> {
    let rem = bits % 8;
    if rem != 0 {
        if let Some(last) = bytes.last_mut() {
            *last &= 0xffu8 << (8 - rem);
        }
    }
    bytes
}

/// A generated key or key pair.
enum Generated {
    Key(KeyParts),
    Pair { public: KeyParts, private: KeyParts },
}

/// The steps of generateKey after the algorithm's: "If result is a CryptoKey object: if the
/// [[type]] internal slot of result is "secret" or "private" and usages is empty, then throw a
/// SyntaxError. If result is a CryptoKeyPair object: if the [[usages]] internal slot of the
/// privateKey attribute of result is the empty sequence, then throw a SyntaxError."
fn finish_generate(generated: Generated) -> Outcome<Output> {
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

fn generate_key(alg: &Normalized, extractable: bool, usages: Usages) -> Outcome<Generated> {
    let pair = |(public, private)| Generated::Pair { public, private };
    match alg {
        Normalized::Ec { ecdh, named_curve } => {
            return asym::ec_generate(*ecdh, named_curve, extractable, usages).map(pair)
        }
        Normalized::Okp(okp) => return asym::okp_generate(*okp, extractable, usages).map(pair),
        Normalized::RsaGen {
            scheme,
            modulus_length,
            public_exponent,
            hash,
        } => {
            let e = asym::rsa_generate_check(*scheme, *modulus_length, public_exponent, usages)?;
            // NOTE: the empty-usages SyntaxError of the generateKey steps is checked before the
            // (slow) generation rather than after it: generation cannot fail once the checks
            // above passed, so the outcome is the same.
            if usages.intersection(rsa_private_usages(*scheme)).is_empty() {
                return Err(Failure::syntax("the private key needs at least one usage"));
            }
            return asym::rsa_generate(*scheme, *hash, *modulus_length, &e, extractable, usages)
                .map(pair);
        }
        _ => {}
    }
    generate_secret_key(alg, extractable, usages).map(Generated::Key)
}

fn rsa_private_usages(scheme: RsaScheme) -> Usages {
    match scheme {
        RsaScheme::Oaep => Usages::of(&["decrypt", "unwrapKey"]),
        RsaScheme::Pkcs1 | RsaScheme::Pss => Usages::of(&["sign"]),
    }
}

fn generate_secret_key(alg: &Normalized, extractable: bool, usages: Usages) -> Outcome<KeyParts> {
    let secret = |algorithm, material| KeyParts {
        key_type: KeyType::Secret,
        extractable,
        algorithm,
        usages,
        material,
    };
    match alg {
        // https://w3c.github.io/webcrypto/#hmac-operations-generate-key
        Normalized::Hmac { hash, length } => {
            // 1. If usages contains any entry which is not "sign" or "verify", then throw a
            //    SyntaxError.
            if !usages.within(Usages::of(&["sign", "verify"])) {
                return Err(Failure::syntax("HMAC keys are only for sign and verify"));
            }
            // 2. The length: the given one if non-zero, else the hash's block size.
            let length = match length {
                None => hash.block_bits(),
                Some(0) => return Err(Failure::operation("the HMAC key length is zero")),
                Some(n) => *n,
            };
            // 3. Generate a key of length bits.
            let bytes = ops::random_bytes(length.div_ceil(8) as usize)?;
            let material = truncate_bits(bytes, length);
            Ok(secret(
                KeyAlgorithm::Hmac {
                    hash: *hash,
                    length,
                },
                material,
            ))
        }
        // https://w3c.github.io/webcrypto/#aes-ctr-operations-generate-key (and CBC, GCM, KW)
        Normalized::AesLength { mode, length } => {
            // 1. If usages contains any entry which is not allowed, then throw a SyntaxError.
            if !usages.within(mode.allowed_usages()) {
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
            let material = ops::random_bytes(usize::from(*length / 8))?;
            Ok(secret(
                KeyAlgorithm::Aes {
                    mode: *mode,
                    length: *length,
                },
                material,
            ))
        }
        _ => Err(Failure::not_supported(
            "generateKey is not supported for this algorithm",
        )),
    }
}

fn import_key(
    format: KeyFormat,
    data: &KeyData,
    alg: &Normalized,
    extractable: bool,
    usages: Usages,
) -> Outcome<KeyParts> {
    let secret = |algorithm, material| KeyParts {
        key_type: KeyType::Secret,
        extractable,
        algorithm,
        usages,
        material,
    };
    match alg {
        // https://w3c.github.io/webcrypto/#hmac-operations-import-key
        Normalized::Hmac { hash, length } => {
            // 2. If usages contains an entry which is not "sign" or "verify", throw SyntaxError.
            if !usages.within(Usages::of(&["sign", "verify"])) {
                return Err(Failure::syntax("HMAC keys are only for sign and verify"));
            }
            let bytes = match (format, data) {
                (KeyFormat::Raw, KeyData::Bytes(b)) => b.clone(),
                (KeyFormat::Jwk, KeyData::Jwk(jwk)) => {
                    let bytes = jwk_oct_checks(jwk, usages, "sign", extractable)?;
                    // If the alg field of jwk is present and is not the hash's, DataError.
                    if jwk.alg.as_deref().is_some_and(|a| a != hash.hmac_jwk_alg()) {
                        return Err(Failure::data("the JWK alg does not match the hash"));
                    }
                    bytes
                }
                _ => return Err(Failure::not_supported("HMAC keys import from raw or jwk")),
            };
            // 5. Let length be the length in bits of data; if zero, throw a DataError.
            let bits = u32::try_from(bytes.len())
                .ok()
                .and_then(|n| n.checked_mul(8))
                .ok_or_else(|| Failure::data("the HMAC key is too long"))?;
            if bits == 0 {
                return Err(Failure::data("the HMAC key is empty"));
            }
            // 6. If the length member of normalizedAlgorithm is present: greater than length,
            //    or less than or equal to length minus eight: DataError.
            let length = match length {
                None => bits,
                Some(l) if *l > bits || *l <= bits - 8 => {
                    return Err(Failure::data("the HMAC length does not match the key data"))
                }
                Some(l) => *l,
            };
            Ok(secret(
                KeyAlgorithm::Hmac {
                    hash: *hash,
                    length,
                },
                truncate_bits(bytes, length),
            ))
        }
        // https://w3c.github.io/webcrypto/#aes-ctr-operations-import-key (and CBC, GCM, KW)
        Normalized::Plain(name) if AesMode::from_name(name).is_some() => {
            let mode = AesMode::from_name(name).unwrap_or(AesMode::Gcm);
            // 1. If usages contains an entry which is not allowed, then throw a SyntaxError.
            if !usages.within(mode.allowed_usages()) {
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
            Ok(secret(KeyAlgorithm::Aes { mode, length }, bytes))
        }
        // https://w3c.github.io/webcrypto/#pbkdf2-operations-import-key (and HKDF's)
        Normalized::Plain(name @ ("PBKDF2" | "HKDF")) => {
            // 1. If format is not "raw", throw a NotSupportedError.
            let (KeyFormat::Raw, KeyData::Bytes(bytes)) = (format, data) else {
                return Err(Failure::not_supported(format!(
                    "{name} keys import from raw only"
                )));
            };
            // 2. If usages contains a value that is not "deriveKey" or "deriveBits", then
            //    throw a SyntaxError.
            if !usages.within(Usages::of(&["deriveKey", "deriveBits"])) {
                return Err(Failure::syntax(format!(
                    "{name} keys are only for deriveKey and deriveBits"
                )));
            }
            // 3. If extractable is not false, then throw a SyntaxError.
            if extractable {
                return Err(Failure::syntax(format!(
                    "{name} keys cannot be extractable"
                )));
            }
            let algorithm = if *name == "PBKDF2" {
                KeyAlgorithm::Pbkdf2
            } else {
                KeyAlgorithm::Hkdf
            };
            Ok(secret(algorithm, bytes.clone()))
        }
        Normalized::Ec { ecdh, named_curve } => {
            asym::ec_import(*ecdh, named_curve, format, data, extractable, usages)
        }
        Normalized::Okp(okp) => asym::okp_import(*okp, format, data, extractable, usages),
        Normalized::RsaImport { scheme, hash } => {
            asym::rsa_import(*scheme, *hash, format, data, extractable, usages)
        }
        _ => Err(Failure::not_supported(
            "importKey is not supported for this algorithm",
        )),
    }
}

/// An exported key: bytes, or a JWK's members in lexicographic order.
#[derive(Debug)]
pub(crate) enum Exported {
    Bytes(Vec<u8>),
    Jwk(serde_json::Map<String, serde_json::Value>),
}

fn export_key(format: KeyFormat, key: &KeyParts) -> Outcome<Exported> {
    if !matches!(
        key.algorithm,
        KeyAlgorithm::Pbkdf2
            | KeyAlgorithm::Hkdf
            | KeyAlgorithm::Hmac { .. }
            | KeyAlgorithm::Aes { .. }
    ) {
        // 4. If the [[extractable]] internal slot of key is false, then throw an
        //    InvalidAccessError.
        if !key.extractable {
            return Err(Failure::invalid_access("the key is not extractable"));
        }
        if let Some(result) = asym::export(format, key) {
            return result;
        }
    }
    let jwk_alg = match &key.algorithm {
        KeyAlgorithm::Hmac { hash, .. } => hash.hmac_jwk_alg().to_owned(),
        KeyAlgorithm::Aes { mode, length } => format!("A{length}{}", mode.jwk_suffix()),
        // 3. If the name member of the [[algorithm]] internal slot of key does not identify a
        //    registered algorithm that supports the export key operation, NotSupportedError.
        _ => {
            return Err(Failure::not_supported(format!(
                "{} keys cannot be exported",
                key.algorithm.name()
            )))
        }
    };
    // 4. If the [[extractable]] internal slot of key is false, then throw an
    //    InvalidAccessError.
    if !key.extractable {
        return Err(Failure::invalid_access("the key is not extractable"));
    }
    match format {
        KeyFormat::Raw => Ok(Exported::Bytes(key.material.clone())),
        KeyFormat::Jwk => {
            use serde_json::Value;
            let mut jwk = serde_json::Map::new();
            jwk.insert("alg".into(), Value::String(jwk_alg));
            jwk.insert("ext".into(), Value::Bool(key.extractable));
            jwk.insert("k".into(), Value::String(base64url_encode(&key.material)));
            jwk.insert(
                "key_ops".into(),
                Value::Array(
                    key.usages
                        .names()
                        .map(|u| Value::String(u.into()))
                        .collect(),
                ),
            );
            jwk.insert("kty".into(), Value::String("oct".into()));
            Ok(Exported::Jwk(jwk))
        }
        _ => Err(Failure::not_supported(format!(
            "{} keys export to raw or jwk",
            key.algorithm.name()
        ))),
    }
}

/// The name and usage checks of sign, verify, encrypt, decrypt, deriveBits, wrapKey, unwrapKey.
fn check_key(alg: &Normalized, key: &KeyParts, usage: &str) -> Outcome<()> {
    // If the name member of normalizedAlgorithm is not equal to the name attribute of the
    // [[algorithm]] internal slot of key then throw an InvalidAccessError.
    if alg.name() != key.algorithm.name() {
        return Err(Failure::invalid_access(format!(
            "the key is an {} key, not {}",
            key.algorithm.name(),
            alg.name()
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
fn sign(alg: &Normalized, key: &KeyParts, data: &[u8]) -> Outcome<Vec<u8>> {
    // The asymmetric algorithms: "If the [[type]] internal slot of key is not "private", then
    // throw an InvalidAccessError."
    if key.key_type == KeyType::Public {
        return Err(Failure::invalid_access("signing needs a private key"));
    }
    match (&key.algorithm, alg) {
        (KeyAlgorithm::Hmac { hash, .. }, _) => ops::hmac_sign(*hash, &key.material, data),
        (KeyAlgorithm::Ec { curve, .. }, Normalized::Ecdsa { hash }) => {
            asym::ecdsa_sign(*curve, *hash, &key.material, data)
        }
        (KeyAlgorithm::Ed25519, _) => asym::ed25519_sign(&key.material, data),
        (KeyAlgorithm::Ed448, Normalized::Ed448 { context }) => {
            asym::ed448_sign(&key.material, context.as_deref(), data)
        }
        (KeyAlgorithm::Rsa { hash, .. }, Normalized::RsaPss { salt_length }) => {
            asym::rsa_sign(*hash, Some(*salt_length), &key.material, data)
        }
        (
            KeyAlgorithm::Rsa {
                hash,
                scheme: RsaScheme::Pkcs1,
                ..
            },
            _,
        ) => asym::rsa_sign(*hash, None, &key.material, data),
        _ => Err(Failure::not_supported("unsupported operation")),
    }
}

/// The verify operation of the key's algorithm (after [`check_key`]).
fn verify(alg: &Normalized, key: &KeyParts, data: &[u8], signature: &[u8]) -> Outcome<bool> {
    if key.key_type == KeyType::Private {
        return Err(Failure::invalid_access("verifying needs a public key"));
    }
    match (&key.algorithm, alg) {
        (KeyAlgorithm::Hmac { hash, .. }, _) => {
            ops::hmac_verify(*hash, &key.material, data, signature)
        }
        (KeyAlgorithm::Ec { curve, .. }, Normalized::Ecdsa { hash }) => {
            asym::ecdsa_verify(*curve, *hash, &key.material, data, signature)
        }
        (KeyAlgorithm::Ed25519, _) => Ok(asym::ed25519_verify(&key.material, data, signature)),
        (KeyAlgorithm::Ed448, Normalized::Ed448 { context }) => {
            asym::ed448_verify(&key.material, context.as_deref(), data, signature)
        }
        (KeyAlgorithm::Rsa { hash, .. }, Normalized::RsaPss { salt_length }) => {
            asym::rsa_verify(*hash, Some(*salt_length), &key.material, data, signature)
        }
        (
            KeyAlgorithm::Rsa {
                hash,
                scheme: RsaScheme::Pkcs1,
                ..
            },
            _,
        ) => asym::rsa_verify(*hash, None, &key.material, data, signature),
        _ => Err(Failure::not_supported("unsupported operation")),
    }
}

fn encrypt_or_decrypt(
    alg: &Normalized,
    key: &KeyParts,
    data: &[u8],
    encrypt: bool,
) -> Outcome<Vec<u8>> {
    let material = &key.material;
    match alg {
        Normalized::AesCbc { iv } if encrypt => ops::aes_cbc_encrypt(material, iv, data),
        Normalized::AesCbc { iv } => ops::aes_cbc_decrypt(material, iv, data),
        Normalized::AesCtr { counter, length } => ops::aes_ctr(material, counter, *length, data),
        Normalized::AesGcm {
            additional_data,
            iv,
            tag_length,
        } => {
            let tag = tag_length.unwrap_or(128);
            if !matches!(tag, 32 | 64 | 96 | 104 | 112 | 120 | 128) {
                return Err(Failure::operation("invalid AES-GCM tagLength"));
            }
            ops::aes_gcm(
                material,
                iv,
                additional_data.as_deref().unwrap_or(&[]),
                tag,
                data,
                encrypt,
            )
        }
        Normalized::RsaOaep { label } => {
            let KeyAlgorithm::Rsa { hash, .. } = key.algorithm else {
                return Err(Failure::invalid_access("the key is not an RSA-OAEP key"));
            };
            asym::rsa_oaep(hash, label.as_deref(), key, data, encrypt)
        }
        Normalized::Plain("AES-KW") if encrypt => ops::aes_kw_wrap(material, data),
        Normalized::Plain("AES-KW") => ops::aes_kw_unwrap(material, data),
        _ => Err(Failure::not_supported("unsupported operation")),
    }
}

fn derive_bits(alg: &Normalized, key: &KeyParts, length: Option<u32>) -> Outcome<Vec<u8>> {
    // https://w3c.github.io/webcrypto/#ecdh-operations-derive-bits (and X25519's, X448's)
    if let Normalized::EcdhDerive { public, .. } = alg {
        return asym::ecdh_derive(key, public, length);
    }
    // If length is null or is not a multiple of 8, then throw an OperationError.
    let Some(length) = length.filter(|l| l % 8 == 0) else {
        return Err(Failure::operation("the length must be a multiple of 8"));
    };
    let mut out = vec![0; (length / 8) as usize];
    match alg {
        // https://w3c.github.io/webcrypto/#pbkdf2-operations-derive-bits
        Normalized::Pbkdf2 {
            hash,
            iterations,
            salt,
        } => {
            // If the iterations member of normalizedAlgorithm is zero, throw an OperationError.
            if *iterations == 0 {
                return Err(Failure::operation("PBKDF2 iterations must not be zero"));
            }
            if length == 0 {
                return Ok(out);
            }
            ops::pbkdf2(*hash, &key.material, salt, *iterations, &mut out)?;
        }
        // https://w3c.github.io/webcrypto/#hkdf-operations-derive-bits
        Normalized::Hkdf { hash, info, salt } => {
            ops::hkdf(*hash, &key.material, salt, info, &mut out)?;
        }
        _ => return Err(Failure::not_supported("unsupported operation")),
    }
    Ok(out)
}

/// The [get key length](https://w3c.github.io/webcrypto/#dfn-get-key-length) operation.
fn get_key_length(alg: &Normalized) -> Outcome<Option<u32>> {
    match alg {
        Normalized::AesLength { length, .. } => {
            if !matches!(length, 128 | 192 | 256) {
                return Err(Failure::operation(
                    "the AES key length must be 128, 192 or 256",
                ));
            }
            Ok(Some(u32::from(*length)))
        }
        Normalized::Hmac { hash, length } => match length {
            None => Ok(Some(hash.block_bits())),
            Some(0) => Err(Failure::new("TypeError", "the HMAC length is zero")),
            Some(n) => Ok(Some(*n)),
        },
        _ => Ok(None),
    }
}

// ---------------------------------------------------------------------------------------
// The promise plumbing
// ---------------------------------------------------------------------------------------

/// What an operation's "in parallel" steps produce.
enum Output {
    Bytes(Vec<u8>),
    Bool(bool),
    Key(KeyParts),
    KeyPair { public: KeyParts, private: KeyParts },
    Jwk(serde_json::Map<String, serde_json::Value>),
}

fn output_value(output: Output, ctx: &mut Context) -> JsResult<JsValue> {
    Ok(match output {
        Output::Bytes(bytes) => {
            let buffer =
                webidl::gc_pressure::new_array_buffer(AlignedVec::from_slice(64, &bytes), ctx)?;
            buffer.into()
        }
        Output::Bool(b) => b.into(),
        Output::Key(parts) => CryptoKey::create(parts, ctx)?.into(),
        Output::KeyPair { public, private } => {
            // A CryptoKeyPair dictionary: its members in lexicographic order.
            let private = CryptoKey::create(private, ctx)?;
            let public = CryptoKey::create(public, ctx)?;
            let pair = JsObject::with_object_proto(ctx.intrinsics());
            pair.create_data_property_or_throw(JsString::from("privateKey"), private, ctx)?;
            pair.create_data_property_or_throw(JsString::from("publicKey"), public, ctx)?;
            pair.into()
        }
        Output::Jwk(map) => JsValue::from_json(&serde_json::Value::Object(map), ctx)?,
    })
}

/// Inputs of at least this many bytes make an operation [`Work::Heavy`].
pub(crate) const HEAVY_BYTES: usize = 1 << 20;
/// PBKDF2 with at least this many iterations is [`Work::Heavy`].
pub(crate) const HEAVY_ITERATIONS: u32 = 10_000;
/// The most operations running on worker threads at once (one more runs on the event-loop
/// thread instead).
pub(crate) const MAX_WORKERS: usize = 4;

/// The operations running on worker threads now (all contexts of the process).
static WORKERS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Where an operation's "in parallel" steps run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Work {
    /// On the event-loop thread, at once (microseconds of work).
    Light,
    /// On a worker thread (RSA key generation, a digest or cipher of megabytes, PBKDF2 with
    /// many iterations), when fewer than [`MAX_WORKERS`] are busy.
    Heavy,
}

impl Work {
    /// Heavy when `bytes` is at least [`HEAVY_BYTES`].
    fn of_len(bytes: usize) -> Self {
        if bytes >= HEAVY_BYTES {
            Self::Heavy
        } else {
            Self::Light
        }
    }

    fn max(self, other: Self) -> Self {
        if self == Self::Heavy || other == Self::Heavy {
            Self::Heavy
        } else {
            Self::Light
        }
    }

    /// The weight of an algorithm's own parameters (PBKDF2 iterations, RSA generation).
    fn of_algorithm(alg: &Normalized) -> Self {
        match alg {
            Normalized::Pbkdf2 { iterations, .. } if *iterations >= HEAVY_ITERATIONS => Self::Heavy,
            Normalized::RsaGen { .. } => Self::Heavy,
            _ => Self::Light,
        }
    }
}

/// Marks one busy worker; frees it when dropped (also if the steps panic).
struct WorkerSlot;

impl WorkerSlot {
    fn acquire() -> Option<Self> {
        use std::sync::atomic::Ordering;
        WORKERS
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < MAX_WORKERS).then_some(n + 1)
            })
            .ok()
            .map(|_| Self)
    }
}

impl Drop for WorkerSlot {
    fn drop(&mut self) {
        WORKERS.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

/// Settle `promise` with the outcome of an operation's steps.
fn settle(promise: &PromiseCapability, result: Outcome<Output>, ctx: &mut Context) {
    match result.map_err(|f| failure_value(&f, ctx)) {
        Ok(output) => match output_value(output, ctx) {
            Ok(v) => promise.resolve(v, ctx),
            Err(e) => {
                let e = webidl::own_error_value(e, ctx);
                promise.reject(e, ctx);
            }
        },
        Err(reason) => promise.reject(reason, ctx),
    }
}

/// A new promise, settled by a task with the result of `steps` (the operation's "in
/// parallel" steps, which touch no JavaScript value: they own copies of the inputs and the
/// Rust key material).
///
/// [`Work::Light`] steps run now, on the event-loop thread, and a queued job settles the
/// promise (after the current script and its microtasks). [`Work::Heavy`] steps run on a
/// worker thread; when they finish, the event loop's native-future driver
/// (`boa_streams::native`, polled by the host's loop) settles the promise from a task.
// NOTE: which thread runs the steps is unobservable but for timing: the steps read no
// JavaScript state, and the spec runs them "in parallel" and then queues a task, so the
// order in which two operations' promises settle was never defined. When every worker is
// busy, heavy steps run on the event-loop thread as light ones do (a bound on the threads a
// script can start).
fn run_in_parallel(
    ctx: &mut Context,
    work: Work,
    steps: impl FnOnce() -> Outcome<Output> + Send + 'static,
) -> JsValue {
    let promise = PromiseCapability::new(ctx);
    let slot = (work == Work::Heavy).then(WorkerSlot::acquire).flatten();
    let Some(slot) = slot else {
        let result = steps();
        let settle_promise = promise.clone();
        let job = GenericJob::new(
            move |ctx| {
                settle(&settle_promise, result, ctx);
                Ok(JsValue::undefined())
            },
            ctx.realm().clone(),
        );
        ctx.enqueue_job(job.into());
        return promise.value();
    };
    let (sender, receiver) = futures::channel::oneshot::channel();
    let spawned = std::thread::Builder::new()
        .name("boa_crypto worker".into())
        .spawn(move || {
            let _slot = slot;
            // The receiver is gone only if the context was dropped: nothing to settle.
            let _ = sender.send(steps());
        });
    if let Err(e) = spawned {
        let failure = Failure::operation(format!("could not start a worker thread: {e}"));
        settle(&promise, Err(failure), ctx);
        return promise.value();
    }
    settle_from_worker(promise, receiver, ctx)
}

/// `promise`'s value, settled from a task when a worker thread sends its steps' outcome on
/// `receiver` (through `boa_streams::native`'s future driver).
fn settle_from_worker(
    promise: PromiseCapability,
    receiver: futures::channel::oneshot::Receiver<Outcome<Output>>,
    ctx: &mut Context,
) -> JsValue {
    let settle_promise = promise.clone();
    boa_streams::native::spawn_future(
        receiver,
        move |result, ctx| {
            let result =
                result.unwrap_or_else(|_| Err(Failure::operation("the worker thread stopped")));
            settle(&settle_promise, result, ctx);
        },
        ctx,
    );
    promise.value()
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
    let Ok(Normalized::Sha(hash)) = normalize(algorithm, Op::Digest, ctx) else {
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
            let mut state = ops::DigestState::new(hash);
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

fn this_subtle(this: &JsValue) -> JsResult<()> {
    webidl::brand::<SubtleCrypto>(this, "SubtleCrypto").map(|_| ())
}

/// `unsigned long? length = null` of deriveBits.
fn optional_length(value: &JsValue, ctx: &mut Context) -> JsResult<Option<u32>> {
    if value.is_null_or_undefined() {
        return Ok(None);
    }
    Ok(Some(value.to_u32(ctx)?))
}

/// The steps after an import: "If the [[type]] internal slot of result is "secret" or
/// "private" and usages is empty, then throw a SyntaxError."
fn require_usages(parts: KeyParts) -> Outcome<Output> {
    if parts.key_type != KeyType::Public && parts.usages.is_empty() {
        return Err(Failure::syntax(format!(
            "a {} key needs at least one usage",
            parts.key_type.as_str()
        )));
    }
    Ok(Output::Key(parts))
}

/// Normalize for wrapKey (unwrapKey), else for encrypt (decrypt) when that is not supported.
fn normalize_wrap(alg: &JsValue, wrap: bool, ctx: &mut Context) -> JsResult<Normalized> {
    let (first, second) = if wrap {
        (Op::WrapKey, Op::Encrypt)
    } else {
        (Op::UnwrapKey, Op::Decrypt)
    };
    match normalize(alg, first, ctx) {
        Ok(n) => Ok(n),
        Err(e) => {
            let not_supported = e
                .as_opaque()
                .and_then(JsValue::as_object)
                .and_then(|o| {
                    o.downcast_ref::<webidl::DomException>()
                        .map(|d| d.name().to_std_string_escaped() == "NotSupportedError")
                })
                .unwrap_or(false);
            if not_supported {
                normalize(alg, second, ctx)
            } else {
                Err(e)
            }
        }
    }
}

impl Class for SubtleCrypto {
    const NAME: &'static str = "SubtleCrypto";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::to_string_tag(class, "SubtleCrypto");
        // Promise<any> encrypt(AlgorithmIdentifier algorithm, CryptoKey key, BufferSource data);
        webidl::operation(
            class,
            "encrypt",
            3,
            NativeFunction::from_fn_ptr(|this, args, ctx| Ok(cipher_method(this, args, ctx, true))),
        );
        // Promise<any> decrypt(AlgorithmIdentifier algorithm, CryptoKey key, BufferSource data);
        webidl::operation(
            class,
            "decrypt",
            3,
            NativeFunction::from_fn_ptr(|this, args, ctx| {
                Ok(cipher_method(this, args, ctx, false))
            }),
        );
        // Promise<any> sign(AlgorithmIdentifier algorithm, CryptoKey key, BufferSource data);
        webidl::operation(
            class,
            "sign",
            3,
            NativeFunction::from_fn_ptr(|this, args, ctx| {
                Ok(webidl::promise_method(ctx, |ctx| {
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
            }),
        );
        // Promise<any> verify(AlgorithmIdentifier algorithm, CryptoKey key, BufferSource
        //   signature, BufferSource data);
        webidl::operation(
            class,
            "verify",
            4,
            NativeFunction::from_fn_ptr(|this, args, ctx| {
                Ok(webidl::promise_method(ctx, |ctx| {
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
            }),
        );
        // Promise<any> digest(AlgorithmIdentifier algorithm, BufferSource data);
        webidl::operation(
            class,
            "digest",
            2,
            NativeFunction::from_fn_ptr(|this, args, ctx| {
                Ok(webidl::promise_method(ctx, |ctx| {
                    this_subtle(this)?;
                    webidl::required_arguments(args, 2, "SubtleCrypto", "digest")?;
                    if let Some(promise) = digest_overlapped(&arg(args, 0), &arg(args, 1), ctx)? {
                        return Ok(promise);
                    }
                    // 2. Let data be the result of getting a copy of the bytes held by data.
                    let data = buffer_source_bytes(&arg(args, 1), "data", ctx)?;
                    // 3. Let normalizedAlgorithm be the result of normalizing an algorithm.
                    let Normalized::Sha(hash) = normalize(&arg(args, 0), Op::Digest, ctx)? else {
                        return Err(type_error("not a digest algorithm"));
                    };
                    // 6-8. In parallel: the digest; queue a task to resolve with an ArrayBuffer.
                    Ok(run_in_parallel(ctx, Work::of_len(data.len()), move || {
                        Ok(Output::Bytes(hash.digest(&data)))
                    }))
                }))
            }),
        );
        // Promise<any> generateKey(AlgorithmIdentifier algorithm, boolean extractable,
        //   sequence<KeyUsage> keyUsages);
        webidl::operation(
            class,
            "generateKey",
            3,
            NativeFunction::from_fn_ptr(|this, args, ctx| {
                Ok(webidl::promise_method(ctx, |ctx| {
                    this_subtle(this)?;
                    webidl::required_arguments(args, 3, "SubtleCrypto", "generateKey")?;
                    let extractable = arg(args, 1).to_boolean();
                    let usages = to_usages(&arg(args, 2), ctx)?;
                    let alg = normalize(&arg(args, 0), Op::GenerateKey, ctx)?;
                    Ok(run_in_parallel(ctx, Work::of_algorithm(&alg), move || {
                        finish_generate(generate_key(&alg, extractable, usages)?)
                    }))
                }))
            }),
        );
        // Promise<CryptoKey> deriveKey(AlgorithmIdentifier algorithm, CryptoKey baseKey,
        //   AlgorithmIdentifier derivedKeyType, boolean extractable, sequence<KeyUsage> keyUsages);
        webidl::operation(
            class,
            "deriveKey",
            5,
            NativeFunction::from_fn_ptr(|this, args, ctx| {
                Ok(webidl::promise_method(ctx, |ctx| {
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
                        let length = get_key_length(&length_alg)?;
                        let secret = derive_bits(&alg, &base, length)?;
                        let parts = import_key(
                            KeyFormat::Raw,
                            &KeyData::Bytes(secret),
                            &import,
                            extractable,
                            usages,
                        )?;
                        require_usages(parts)
                    }))
                }))
            }),
        );
        // Promise<ArrayBuffer> deriveBits(AlgorithmIdentifier algorithm, CryptoKey baseKey,
        //   optional unsigned long? length = null);
        webidl::operation(
            class,
            "deriveBits",
            2,
            NativeFunction::from_fn_ptr(|this, args, ctx| {
                Ok(webidl::promise_method(ctx, |ctx| {
                    this_subtle(this)?;
                    webidl::required_arguments(args, 2, "SubtleCrypto", "deriveBits")?;
                    let base = to_key(&arg(args, 1), "baseKey")?;
                    let length = optional_length(&arg(args, 2), ctx)?;
                    let alg = normalize(&arg(args, 0), Op::DeriveBits, ctx)?;
                    let base = key_parts(&base);
                    Ok(run_in_parallel(ctx, Work::of_algorithm(&alg), move || {
                        check_key(&alg, &base, "deriveBits")?;
                        derive_bits(&alg, &base, length).map(Output::Bytes)
                    }))
                }))
            }),
        );
        // Promise<CryptoKey> importKey(KeyFormat format, (BufferSource or JsonWebKey) keyData,
        //   AlgorithmIdentifier algorithm, boolean extractable, sequence<KeyUsage> keyUsages);
        webidl::operation(
            class,
            "importKey",
            5,
            NativeFunction::from_fn_ptr(|this, args, ctx| {
                Ok(webidl::promise_method(ctx, |ctx| {
                    this_subtle(this)?;
                    webidl::required_arguments(args, 5, "SubtleCrypto", "importKey")?;
                    let format = to_format(&arg(args, 0), ctx)?;
                    let key_data = arg(args, 1);
                    let is_buffer =
                        buffer_source::check_allow_shared_buffer_source(&key_data).is_ok();
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
                        require_usages(import_key(format, &key_data, &alg, extractable, usages)?)
                    }))
                }))
            }),
        );
        // Promise<any> exportKey(KeyFormat format, CryptoKey key);
        webidl::operation(
            class,
            "exportKey",
            2,
            NativeFunction::from_fn_ptr(|this, args, ctx| {
                Ok(webidl::promise_method(ctx, |ctx| {
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
            }),
        );
        // Promise<any> wrapKey(KeyFormat format, CryptoKey key, CryptoKey wrappingKey,
        //   AlgorithmIdentifier wrapAlgorithm);
        webidl::operation(
            class,
            "wrapKey",
            4,
            NativeFunction::from_fn_ptr(|this, args, ctx| {
                Ok(webidl::promise_method(ctx, |ctx| {
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
                            Exported::Jwk(j) => {
                                serde_json::Value::Object(j).to_string().into_bytes()
                            }
                        };
                        encrypt_or_decrypt(&alg, &wrapping, &bytes, true).map(Output::Bytes)
                    }))
                }))
            }),
        );
        // Promise<CryptoKey> unwrapKey(KeyFormat format, BufferSource wrappedKey, CryptoKey
        //   unwrappingKey, AlgorithmIdentifier unwrapAlgorithm, AlgorithmIdentifier
        //   unwrappedKeyAlgorithm, boolean extractable, sequence<KeyUsage> keyUsages);
        webidl::operation(
            class,
            "unwrapKey",
            7,
            NativeFunction::from_fn_ptr(|this, args, ctx| {
                Ok(webidl::promise_method(ctx, |ctx| {
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
                            let bytes = encrypt_or_decrypt(&alg, &unwrapping, &wrapped, false)?;
                            let data = if format == KeyFormat::Jwk {
                                KeyData::Jwk(Box::new(parse_jwk(&bytes)?))
                            } else {
                                KeyData::Bytes(bytes)
                            };
                            require_usages(import_key(format, &data, &import, extractable, usages)?)
                        },
                    ))
                }))
            }),
        );
        Ok(())
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        Err(webidl::illegal_constructor())
    }

    fn construct(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsObject> {
        Err(webidl::illegal_constructor())
    }
}

/// encrypt() / decrypt().
fn cipher_method(this: &JsValue, args: &[JsValue], ctx: &mut Context, encrypt: bool) -> JsValue {
    webidl::promise_method(ctx, |ctx| {
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
            encrypt_or_decrypt(&alg, &key, &data, encrypt).map(Output::Bytes)
        }))
    })
}
