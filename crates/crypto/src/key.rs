//! The [`CryptoKey`](https://w3c.github.io/webcrypto/#cryptokey-interface) interface: a key's
//! internal slots in Rust, its `algorithm` and `usages` as cached objects.

use boa_engine::{
    class::{Class, ClassBuilder},
    object::builtins::JsArray,
    property::Attribute,
    Context, JsData, JsObject, JsResult, JsString, JsValue, NativeFunction,
};
use boa_gc::{Finalize, Trace};
use boa_webidl::{self as webidl, type_error, INTERFACE_ATTRIBUTES};

use crate::asym::{Curve, RsaScheme};
use crate::ops::Hash;

/// A [`KeyType`](https://w3c.github.io/webcrypto/#dfn-KeyType).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyType {
    Secret,
    Public,
    Private,
}

impl KeyType {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Secret => "secret",
            Self::Public => "public",
            Self::Private => "private",
        }
    }
}

/// The [recognized key usage values](https://w3c.github.io/webcrypto/#dfn-RecognizedKeyUsage),
/// in their order.
pub(crate) const USAGES: [&str; 8] = [
    "encrypt",
    "decrypt",
    "sign",
    "verify",
    "deriveKey",
    "deriveBits",
    "wrapKey",
    "unwrapKey",
];

/// A set of key usages (bit `i` is `USAGES[i]`): iterating it gives the recognized order, as
/// the spec's "usage intersection" does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Usages(u8);

impl Usages {
    /// The set of the named usages.
    pub(crate) fn of(names: &[&str]) -> Self {
        let mut set = Self::default();
        for name in names {
            set = set.with(name);
        }
        set
    }

    /// `self` with `name` (a recognized usage; others are ignored).
    pub(crate) fn with(self, name: &str) -> Self {
        match USAGES.iter().position(|u| *u == name) {
            Some(i) => Self(self.0 | (1 << i)),
            None => self,
        }
    }

    pub(crate) fn contains(self, name: &str) -> bool {
        USAGES
            .iter()
            .position(|u| *u == name)
            .is_some_and(|i| self.0 & (1 << i) != 0)
    }

    pub(crate) fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The usages in `self` or `other`.
    pub(crate) fn union(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }

    /// The usages in both `self` and `other` (the spec's "usage intersection").
    pub(crate) fn intersection(self, other: Self) -> Self {
        Self(self.0 & other.0)
    }

    /// Whether every usage of `self` is in `allowed`.
    pub(crate) fn within(self, allowed: Self) -> bool {
        self.0 & !allowed.0 == 0
    }

    /// The usages in the recognized order.
    pub(crate) fn names(self) -> impl Iterator<Item = &'static str> {
        USAGES
            .iter()
            .enumerate()
            .filter(move |(i, _)| self.0 & (1 << i) != 0)
            .map(|(_, u)| *u)
    }
}

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

    /// The usages an AES key of this mode may have.
    pub(crate) fn allowed_usages(self) -> Usages {
        match self {
            Self::Kw => Usages::of(&["wrapKey", "unwrapKey"]),
            _ => Usages::of(&["encrypt", "decrypt", "wrapKey", "unwrapKey"]),
        }
    }
}

/// A key's [[algorithm]] in Rust: the `KeyAlgorithm` dictionary it is exposed as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum KeyAlgorithm {
    /// `AesKeyAlgorithm`: name and length in bits.
    Aes { mode: AesMode, length: u16 },
    /// `HmacKeyAlgorithm`: hash and length in bits.
    Hmac { hash: Hash, length: u32 },
    /// `KeyAlgorithm` { name: "PBKDF2" }.
    Pbkdf2,
    /// `KeyAlgorithm` { name: "HKDF" }.
    Hkdf,
    /// `EcKeyAlgorithm` of ECDSA (`ecdh` false) or ECDH: name and namedCurve.
    Ec { ecdh: bool, curve: Curve },
    /// `KeyAlgorithm` { name: "Ed25519" }.
    Ed25519,
    /// `KeyAlgorithm` { name: "X25519" }.
    X25519,
    /// `KeyAlgorithm` { name: "Ed448" }.
    Ed448,
    /// `KeyAlgorithm` { name: "X448" }.
    X448,
    /// `RsaHashedKeyAlgorithm`: name, modulusLength, publicExponent (big-endian, no leading
    /// zeros) and hash.
    Rsa {
        scheme: RsaScheme,
        modulus_length: u32,
        public_exponent: Vec<u8>,
        hash: Hash,
    },
}

impl KeyAlgorithm {
    /// The registered algorithm name.
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Self::Aes { mode, .. } => mode.name(),
            Self::Hmac { .. } => "HMAC",
            Self::Pbkdf2 => "PBKDF2",
            Self::Hkdf => "HKDF",
            Self::Ec { ecdh: false, .. } => "ECDSA",
            Self::Ec { ecdh: true, .. } => "ECDH",
            Self::Ed25519 => "Ed25519",
            Self::X25519 => "X25519",
            Self::Ed448 => "Ed448",
            Self::X448 => "X448",
            Self::Rsa { scheme, .. } => scheme.name(),
        }
    }

    /// The dictionary converted to an ECMAScript object (inherited members first, then each
    /// dictionary's in lexicographic order).
    fn to_object(&self, ctx: &mut Context) -> JsResult<JsObject> {
        let object = JsObject::with_object_proto(ctx.intrinsics());
        object.create_data_property_or_throw(
            JsString::from("name"),
            JsString::from(self.name()),
            ctx,
        )?;
        match self {
            Self::Aes { length, .. } => {
                object.create_data_property_or_throw(
                    JsString::from("length"),
                    u32::from(*length),
                    ctx,
                )?;
            }
            Self::Hmac { hash, length } => {
                let h = JsObject::with_object_proto(ctx.intrinsics());
                h.create_data_property_or_throw(
                    JsString::from("name"),
                    JsString::from(hash.name()),
                    ctx,
                )?;
                object.create_data_property_or_throw(JsString::from("hash"), h, ctx)?;
                object.create_data_property_or_throw(JsString::from("length"), *length, ctx)?;
            }
            Self::Ec { curve, .. } => {
                object.create_data_property_or_throw(
                    JsString::from("namedCurve"),
                    JsString::from(curve.name()),
                    ctx,
                )?;
            }
            Self::Rsa {
                modulus_length,
                public_exponent,
                hash,
                ..
            } => {
                // RsaKeyAlgorithm's members (modulusLength, publicExponent), then
                // RsaHashedKeyAlgorithm's (hash).
                object.create_data_property_or_throw(
                    JsString::from("modulusLength"),
                    *modulus_length,
                    ctx,
                )?;
                let exponent = boa_engine::object::builtins::JsUint8Array::from_iter(
                    public_exponent.iter().copied(),
                    ctx,
                )?;
                object.create_data_property_or_throw(
                    JsString::from("publicExponent"),
                    exponent,
                    ctx,
                )?;
                let h = JsObject::with_object_proto(ctx.intrinsics());
                h.create_data_property_or_throw(
                    JsString::from("name"),
                    JsString::from(hash.name()),
                    ctx,
                )?;
                object.create_data_property_or_throw(JsString::from("hash"), h, ctx)?;
            }
            Self::Pbkdf2 | Self::Hkdf | Self::Ed25519 | Self::X25519 | Self::Ed448 | Self::X448 => {
            }
        }
        Ok(object)
    }
}

/// The Rust side of a key: everything a `CryptoKey` holds, without JavaScript objects.
#[derive(Debug, Clone)]
pub(crate) struct KeyParts {
    pub(crate) key_type: KeyType,
    pub(crate) extractable: bool,
    pub(crate) algorithm: KeyAlgorithm,
    pub(crate) usages: Usages,
    /// The key material: the secret bytes of a secret key; for EC keys the private scalar
    /// (big-endian, the field's size) or the uncompressed SEC1 point; for Ed25519, X25519,
    /// Ed448 and X448 the private or public key's bytes (32, 32, 57 and 56 bytes); for RSA
    /// keys the PKCS #1 `RSAPrivateKey` or `RSAPublicKey` DER.
    pub(crate) material: Vec<u8>,
}

/// The native data of a [`CryptoKey`](https://w3c.github.io/webcrypto/#cryptokey-interface).
#[derive(Trace, Finalize, JsData)]
pub struct CryptoKey {
    #[unsafe_ignore_trace]
    parts: KeyParts,
    /// [[algorithm_cached]]: the object the `algorithm` getter returns.
    algorithm: JsObject,
    /// [[usages_cached]]: the array the `usages` getter returns.
    usages: JsObject,
}

impl std::fmt::Debug for CryptoKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The key material stays out of debug output.
        f.debug_struct("CryptoKey")
            .field("type", &self.parts.key_type)
            .field("extractable", &self.parts.extractable)
            .field("algorithm", &self.parts.algorithm)
            .field("usages", &self.parts.usages)
            .finish_non_exhaustive()
    }
}

impl CryptoKey {
    /// The key's internal slots.
    pub(crate) fn parts(&self) -> &KeyParts {
        &self.parts
    }

    /// A new `CryptoKey` object of the current realm holding `parts`.
    pub(crate) fn create(parts: KeyParts, ctx: &mut Context) -> JsResult<JsObject> {
        let proto = ctx
            .get_global_class::<Self>()
            .ok_or_else(|| type_error("CryptoKey is not registered"))?
            .prototype();
        let algorithm = parts.algorithm.to_object(ctx)?;
        let usages: Vec<JsValue> = parts
            .usages
            .names()
            .map(|u| JsString::from(u).into())
            .collect();
        let usages = JsArray::from_iter(usages, ctx).into();
        Ok(JsObject::from_proto_and_data(
            Some(proto),
            Self {
                parts,
                algorithm,
                usages,
            },
        ))
    }
}

/// The serialized `CryptoKey` (HTML's serializable object record): its internal slots.
struct SerializedKey(KeyParts);

impl std::fmt::Debug for SerializedKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The key material stays out of debug output.
        f.debug_struct("SerializedKey")
            .field("type", &self.0.key_type)
            .field("algorithm", &self.0.algorithm.name())
            .finish_non_exhaustive()
    }
}

impl boa_html::structured_clone::PlatformRecord for SerializedKey {
    /// The [deserialization steps](https://w3c.github.io/webcrypto/#cryptokey-interface-clone):
    /// a new `CryptoKey` with the same [[type]], [[extractable]], [[algorithm]], [[usages]]
    /// and [[handle]] (its cached algorithm and usages objects are new ones).
    fn deserialize(self: Box<Self>, ctx: &mut Context) -> JsResult<JsObject> {
        CryptoKey::create(self.0, ctx)
    }
}

/// The [serialization steps](https://w3c.github.io/webcrypto/#cryptokey-interface-clone) of
/// `CryptoKey` (a serializable interface), installed in boa_html's structured serialization.
pub(crate) fn serialization_steps(
    object: &JsObject,
) -> Option<Box<dyn boa_html::structured_clone::PlatformRecord>> {
    let key = object.downcast_ref::<CryptoKey>()?;
    Some(Box::new(SerializedKey(key.parts.clone())))
}

fn this_key(this: &JsValue) -> JsResult<JsObject<CryptoKey>> {
    webidl::brand::<CryptoKey>(this, "CryptoKey")
}

impl Class for CryptoKey {
    const NAME: &'static str = "CryptoKey";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::to_string_tag(class, "CryptoKey");
        // readonly attribute KeyType type;
        webidl::attribute(
            class,
            "type",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let key = this_key(this)?;
                let t = key.borrow().data().parts.key_type.as_str();
                Ok(JsString::from(t).into())
            }),
            None,
        );
        // readonly attribute boolean extractable;
        webidl::attribute(
            class,
            "extractable",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let key = this_key(this)?;
                let e = key.borrow().data().parts.extractable;
                Ok(e.into())
            }),
            None,
        );
        // readonly attribute object algorithm; (returns [[algorithm_cached]])
        webidl::attribute(
            class,
            "algorithm",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let key = this_key(this)?;
                let a = key.borrow().data().algorithm.clone();
                Ok(a.into())
            }),
            None,
        );
        // readonly attribute object usages; (returns [[usages_cached]])
        webidl::attribute(
            class,
            "usages",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let key = this_key(this)?;
                let u = key.borrow().data().usages.clone();
                Ok(u.into())
            }),
            None,
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
