//! The [`CryptoKey`](https://w3c.github.io/webcrypto/#cryptokey-interface) interface: a key's
//! internal slots in Rust ([`KeyParts`]), its `algorithm` and `usages` as cached objects.

use boa_engine::{
    class::{Class, ClassBuilder},
    object::builtins::JsArray,
    property::Attribute,
    Context, JsData, JsObject, JsResult, JsString, JsValue,
};
use boa_gc::{Finalize, Trace};
use boa_webidl::{self as webidl, type_error, Member, INTERFACE_ATTRIBUTES};

use crate::records::KeyParts;

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

/// [`readonly attribute KeyType type`](https://w3c.github.io/webcrypto/#dom-cryptokey-type).
fn get_type(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let key = this_key(this)?;
    let t = key.borrow().data().parts.key_type.as_str();
    Ok(JsString::from(t).into())
}

/// [`readonly attribute boolean extractable`](https://w3c.github.io/webcrypto/#dom-cryptokey-extractable).
fn get_extractable(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let key = this_key(this)?;
    let e = key.borrow().data().parts.extractable;
    Ok(e.into())
}

/// [`readonly attribute object algorithm`](https://w3c.github.io/webcrypto/#dom-cryptokey-algorithm):
/// returns [[algorithm_cached]].
fn get_algorithm(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let key = this_key(this)?;
    let a = key.borrow().data().algorithm.clone();
    Ok(a.into())
}

/// [`readonly attribute object usages`](https://w3c.github.io/webcrypto/#dom-cryptokey-usages):
/// returns [[usages_cached]].
fn get_usages(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let key = this_key(this)?;
    let u = key.borrow().data().usages.clone();
    Ok(u.into())
}

impl Class for CryptoKey {
    const NAME: &'static str = "CryptoKey";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(
            class,
            &[
                Member::to_string_tag("CryptoKey"),
                Member::attribute("type", get_type),
                Member::attribute("extractable", get_extractable),
                Member::attribute("algorithm", get_algorithm),
                Member::attribute("usages", get_usages),
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
