//! Dictionaries and conversions: dictionary members, plain-data lookups that run no code,
//! the WebIDL type conversions the crates share.

use crate::error::type_error;
use boa_engine::{object::JsObject, property::PropertyKey, Context, JsResult, JsString, JsValue};

/// A value being converted to a WebIDL dictionary: `undefined`/`null` has no members, an
/// object is read with `Get`, anything else is a TypeError (WebIDL §3.2.18 step 1).
pub struct Dictionary(Option<JsObject>);

impl Dictionary {
    /// Start converting `value` to a dictionary named `name` (for error messages).
    pub fn new(value: &JsValue, name: &str) -> JsResult<Self> {
        if value.is_null_or_undefined() {
            return Ok(Self(None));
        }
        match value.as_object() {
            Some(o) => Ok(Self(Some(o.clone()))),
            None => Err(type_error(format!("{name} must be an object"))),
        }
    }

    /// Wrap an object already known to be one (e.g. an underlying source given as `object`).
    #[inline]
    pub fn from_object(object: Option<JsObject>) -> Self {
        Self(object)
    }

    /// `Get(dict, key)`; `None` when the member is absent (value `undefined`).
    /// Can run user code (getters): hold no borrow across it.
    #[inline]
    pub fn get(&self, key: PropertyKey, ctx: &mut Context) -> JsResult<Option<JsValue>> {
        // An absent dictionary (the common `new WritableStream()`) costs a branch per member.
        match &self.0 {
            None => Ok(None),
            Some(o) => Self::get_member(o, key, ctx),
        }
    }

    /// [`Dictionary::get`] on the dictionary's object.
    fn get_member(o: &JsObject, key: PropertyKey, ctx: &mut Context) -> JsResult<Option<JsValue>> {
        // NOTE: when the lookup is plain data (see `get_plain_data`) it is read straight from
        // the objects' property storage: the same value, and no user code could run.
        let fast = if crate::fast_paths::fast_paths() {
            get_plain_data(o, &key)
        } else {
            None
        };
        let v = match fast {
            Some(v) => v,
            None => o.get(key, ctx)?,
        };
        Ok(if v.is_undefined() { None } else { Some(v) })
    }

    /// A callback-function member: absent → `None`, callable → `Some`, else TypeError.
    #[inline]
    pub fn get_callback(&self, key: PropertyKey, ctx: &mut Context) -> JsResult<Option<JsObject>> {
        if self.0.is_none() {
            return Ok(None);
        }
        let name = key.clone();
        to_callback(self.get(key, ctx)?, name)
    }

    /// A `boolean` member with a default.
    #[inline]
    pub fn get_bool(&self, key: PropertyKey, default: bool, ctx: &mut Context) -> JsResult<bool> {
        Ok(self.get(key, ctx)?.map_or(default, |v| v.to_boolean()))
    }

    /// An `unrestricted double` member.
    pub fn get_unrestricted_double(
        &self,
        key: PropertyKey,
        ctx: &mut Context,
    ) -> JsResult<Option<f64>> {
        match self.get(key, ctx)? {
            None => Ok(None),
            Some(v) => Ok(Some(v.to_number(ctx)?)),
        }
    }
}

/// `Get(object, key)` when the lookup is plain data, without entering the engine's internal
/// methods: every object met on the prototype chain is an ordinary object or a promise (their
/// `[[GetOwnProperty]]` and `[[GetPrototypeOf]]` are the ordinary ones, so no proxy trap or
/// exotic lookup) and the property found, if any, is a data property (no getter).
/// `Some(Some(value))` for a data property found on the chain, `Some(None)` when nothing is
/// found, `None` when the lookup could run user code or throw (a proxy, another exotic object,
/// an accessor): the caller then does the full `Get`. The one walk every "does this lookup run
/// code" check of the library goes through.
// NOTE: unobservable: OrdinaryGet on such a chain reads the same storage and calls nothing;
// the walk itself runs no code, so falling back to the full `Get` after it changes nothing.
pub fn plain_data_lookup(object: &JsObject, key: &PropertyKey) -> Option<Option<JsValue>> {
    let mut current = object.clone();
    // The chain is finite; the bound only caps the work on very long chains.
    for _ in 0..64 {
        if !looks_up_plainly(&current) {
            return None;
        }
        let (found, prototype) = {
            let o = current.borrow();
            (o.properties().get(key), o.prototype())
        };
        if let Some(descriptor) = found {
            return if descriptor.is_data_descriptor() {
                Some(Some(descriptor.value().cloned().unwrap_or_default()))
            } else {
                None
            };
        }
        match prototype {
            Some(p) => current = p,
            None => return Some(None),
        }
    }
    None
}

/// [`plain_data_lookup`] with `Get`'s result: an absent property is `Some(undefined)`.
#[inline]
pub fn get_plain_data(object: &JsObject, key: &PropertyKey) -> Option<JsValue> {
    plain_data_lookup(object, key).map(Option::unwrap_or_default)
}

/// [`get_plain_data`] for several members of one dictionary: the values of `keys`
/// (`undefined` when absent), or `None` when any of those lookups could run user code (the
/// caller then does the full `Get`s in member order).
// NOTE: unobservable, as for `get_plain_data`: each lookup reads what OrdinaryGet would and
// runs no code. Reading all members before converting any is the same as reading them between
// the conversions only when those conversions run no code either: the caller checks that.
pub fn get_plain_data_members<const N: usize>(
    object: &JsObject,
    keys: &[PropertyKey; N],
) -> Option<[JsValue; N]> {
    // One walk of the chain for all the keys (five separate walks cost ≈700 instructions more
    // per `new ReadableStream(source)`).
    let mut found: [Option<JsValue>; N] = [const { None }; N];
    let mut missing = N;
    let mut next = Some(object.clone());
    // The chain is finite; the bound only caps the work on very long chains.
    for _ in 0..64 {
        let Some(current) = next else {
            return Some(found.map(Option::unwrap_or_default));
        };
        if !looks_up_plainly(&current) {
            return None;
        }
        let o = current.borrow();
        let properties = o.properties();
        for (slot, key) in found.iter_mut().zip(keys) {
            if slot.is_some() {
                continue;
            }
            if let Some(d) = properties.get(key) {
                if !d.is_data_descriptor() {
                    return None;
                }
                *slot = Some(d.value().cloned().unwrap_or_default());
                missing -= 1;
            }
        }
        if missing == 0 {
            return Some(found.map(Option::unwrap_or_default));
        }
        next = o.prototype();
    }
    None
}

/// Whether `object`'s `[[GetOwnProperty]]` and `[[GetPrototypeOf]]` are the ordinary ones, so
/// that a string key is looked up in its property storage: ordinary objects (including
/// %Object.prototype%, an immutable-prototype exotic object whose other internal methods are
/// ordinary) and promises; anything else (a proxy, a function, a module namespace) may not.
fn looks_up_plainly(object: &JsObject) -> bool {
    object.is_ordinary() || object.is::<boa_engine::builtins::promise::Promise>()
}

/// A dictionary member's value: `undefined` is absent (`None`).
#[inline]
pub fn defined(value: JsValue) -> Option<JsValue> {
    (!value.is_undefined()).then_some(value)
}

/// A callback-function member's conversion (as [`Dictionary::get_callback`] after its `Get`):
/// absent → `None`, callable → `Some`, else TypeError. Runs no user code.
pub fn to_callback(
    value: Option<JsValue>,
    name: impl std::fmt::Display,
) -> JsResult<Option<JsObject>> {
    match value {
        None => Ok(None),
        Some(v) => match v.as_callable() {
            Some(f) => Ok(Some(f.clone())),
            None => Err(type_error(format!("'{name}' must be a function"))),
        },
    }
}

/// WebIDL `[EnforceRange] unsigned long long` conversion.
pub fn to_enforce_range_u64(value: &JsValue, what: &str, ctx: &mut Context) -> JsResult<u64> {
    let x = value.to_number(ctx)?;
    if !x.is_finite() {
        return Err(type_error(format!("{what} must be a finite number")));
    }
    let x = x.trunc();
    // 2^53 - 1
    if !(0.0..=9_007_199_254_740_991.0).contains(&x) {
        return Err(type_error(format!("{what} is out of range")));
    }
    Ok(x as u64)
}

/// WebIDL `DOMString` conversion.
#[inline]
pub fn to_dom_string(value: &JsValue, ctx: &mut Context) -> JsResult<JsString> {
    value.to_string(ctx)
}

/// The argument at `index`, or `undefined`.
#[inline]
pub fn arg(args: &[JsValue], index: usize) -> JsValue {
    args.get(index).cloned().unwrap_or_default()
}

/// A property key for a name known only at run time. For a literal, use [`js_key!`](crate::js_key): this
/// one pays `JsString::from(&str)` (a static-string table lookup, an allocation when the
/// name is not in it) on every call.
#[inline]
pub fn key(name: &str) -> PropertyKey {
    PropertyKey::from(JsString::from(name))
}

/// The property key of a string literal, built at compile time: no table lookup and no
/// allocation per use (hot paths get `done`/`value`/`then` and dictionary members on every
/// chunk or constructor call). The literal must not be an array index (it becomes a
/// `PropertyKey::String` directly).
#[macro_export]
macro_rules! js_key {
    ($name:literal) => {
        boa_engine::property::PropertyKey::String(boa_engine::js_string!($name))
    };
}
