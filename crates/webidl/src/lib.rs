//! # boa_webidl
//!
//! The [WebIDL](https://webidl.spec.whatwg.org/) glue every web API crate of this workspace
//! builds on, for the [Boa](https://boajs.dev) engine: interface, operation and attribute
//! installation with the WebIDL property shapes, brand checks, the spec's errors, dictionary
//! members, type conversions, buffer sources, the promise vocabulary ([`promise`]) and
//! `DOMException` (which WebIDL defines).
//!
//! ```
//! use boa_engine::{Context, Source};
//!
//! let mut context = Context::default();
//! boa_webidl::register(&mut context).unwrap();
//! let name = context
//!     .eval(Source::from_bytes("new DOMException('gone', 'AbortError').code"))
//!     .unwrap();
//! assert_eq!(name.as_number(), Some(20.0));
//! ```
//!
//! Rules every interface follows:
//! - operations are enumerable, writable, configurable data properties (Boa's
//!   `ClassBuilder::method` makes them non-enumerable, so never use it);
//! - attributes are enumerable, configurable accessors whose getter is named `get <name>`;
//! - `Symbol.toStringTag` is a non-writable, non-enumerable, configurable string;
//! - the global binding is writable + configurable, not enumerable ([`INTERFACE_ATTRIBUTES`]).
//!
//! # Modules
//!
//! | module | what |
//! | --- | --- |
//! | (root) | installation of operations and attributes, brand checks, errors, conversions, dictionaries, [`catching`] (user code run inside a JS try/catch trampoline, `docs/engine-bugs/`), the fast-path switch |
//! | [`promise`] | the promise vocabulary: JS-visible promises, Rust-side promises script never sees, [`Completion`](promise::Completion), [`Reaction`](promise::Reaction), [`PromiseSlot`](promise::PromiseSlot) |
//! | [`capabilities`] | the capability policy ("least authority"): what a context's scripts may reach (network, files, workers, environment), checked by every crate at operation time |
//! | [`exception`] | `DOMException` |
//! | [`gc_pressure`] | the one way the library makes an `ArrayBuffer`: counts its data block and forces a collection every 4 MiB or more |
//! | [`pair_iterable`] | WebIDL pair iterators (`entries`/`keys`/`values`/`forEach`) |

#![warn(missing_docs)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

use std::cell::{Cell, RefCell};

pub mod buffer_source;
pub mod capabilities;
pub mod exception;
pub mod gc_pressure;
pub mod pair_iterable;
pub mod promise;
pub mod sequence;
#[cfg(any(test, feature = "test-support"))]
#[doc(hidden)]
pub mod test_support;

pub use exception::{create_dom_exception, DomException};

use boa_engine::object::builtins::JsFunction;

use crate::promise::promise_rejected_with;
use boa_engine::{
    class::ClassBuilder,
    object::{FunctionObjectBuilder, JsObject},
    property::{Attribute, PropertyDescriptor, PropertyKey},
    Context, JsError, JsNativeError, JsResult, JsString, JsSymbol, JsValue, NativeFunction,
    NativeObject,
};

/// Attributes of an interface's global binding: `{writable: true, enumerable: false,
/// configurable: true}`. Use as `Class::ATTRIBUTES`.
pub const INTERFACE_ATTRIBUTES: Attribute = Attribute::WRITABLE.union(Attribute::CONFIGURABLE);

/// Build a built-in function object with the given `name` and `length`, not a constructor.
///
/// An engine error (a runtime limit hit by user code the operation runs, which Boa makes
/// uncatchable) leaves the function as the catchable RangeError other engines throw: see
/// [`limits_catchable`].
pub fn function(ctx: &mut Context, name: &str, length: usize, f: NativeFunction) -> JsFunction {
    let f = NativeFunction::from_copy_closure_with_captures(
        |this, args, f: &NativeFunction, ctx| limits_catchable(f.call(this, args, ctx)),
        f,
    );
    FunctionObjectBuilder::new(ctx.realm(), f)
        .name(JsString::from(name))
        .length(length)
        .constructor(false)
        .build()
}

/// Install a regular operation `name` on the prototype (enumerable, writable, configurable).
pub fn operation(class: &mut ClassBuilder<'_>, name: &str, length: usize, f: NativeFunction) {
    let func = function(class.context(), name, length, f);
    class.property_descriptor(
        JsString::from(name),
        PropertyDescriptor::builder()
            .value(func)
            .writable(true)
            .enumerable(true)
            .configurable(true),
    );
}

/// Install a static operation `name` on the interface object.
pub fn static_operation(
    class: &mut ClassBuilder<'_>,
    name: &str,
    length: usize,
    f: NativeFunction,
) {
    let func = function(class.context(), name, length, f);
    class.static_property_descriptor(
        JsString::from(name),
        PropertyDescriptor::builder()
            .value(func)
            .writable(true)
            .enumerable(true)
            .configurable(true),
    );
}

/// Install a (regular) attribute: an enumerable, configurable accessor with getter
/// `get <name>` and, if given, setter `set <name>`.
pub fn attribute(
    class: &mut ClassBuilder<'_>,
    name: &str,
    getter: NativeFunction,
    setter: Option<NativeFunction>,
) {
    let get = function(class.context(), &format!("get {name}"), 0, getter);
    let set = setter.map(|s| function(class.context(), &format!("set {name}"), 1, s));
    class.accessor(
        JsString::from(name),
        Some(get),
        set,
        Attribute::ENUMERABLE | Attribute::CONFIGURABLE,
    );
}

/// Install a constant (`const unsigned short X = n;`) on both the interface object and the
/// prototype: `{writable: false, enumerable: true, configurable: false}`.
///
/// On the interface object it is installed configurable first, so that [`register_interface`]
/// can move it after `length`, `name` and `prototype`; it makes it non-configurable then.
#[inline]
pub fn constant(class: &mut ClassBuilder<'_>, name: &str, value: JsValue) {
    class.static_property(
        JsString::from(name),
        value.clone(),
        Attribute::ENUMERABLE | Attribute::CONFIGURABLE,
    );
    class.property(JsString::from(name), value, Attribute::ENUMERABLE);
}

/// Register the interface `T` on the global object, with the own-key order of WebIDL's
/// algorithms.
///
/// [create an interface object](https://webidl.spec.whatwg.org/#create-an-interface-object):
/// `CreateBuiltinFunction(steps, length, id, ...)` (`length`, then `name`), then "Perform !
/// DefinePropertyOrThrow(F, "prototype", ...)", then "Define the constants", "Define the static
/// attributes", "Define the static operations" of the interface on F. Boa's class builder
/// defines the statics (in the order `init` installs them: constants, static attributes,
/// static operations) before `length`/`name`/`prototype`; this redefines each of them, in
/// that order, after those three.
///
/// The prototype's order is each `init`'s: [create an interface prototype
/// object](https://webidl.spec.whatwg.org/#create-an-interface-prototype-object) "Define the
/// regular attributes", "Define the regular operations", "Define the iteration methods",
/// "Define the asynchronous iteration methods", "Define the constants", then "Perform !
/// DefinePropertyOrThrow(interfaceProtoObj, "constructor", desc)", which the class builder
/// adds last. (`Symbol.toStringTag`, "at the time it is created", goes before any other
/// symbol.)
pub fn register_interface<T: boa_engine::class::Class>(context: &mut Context) -> JsResult<()> {
    context.register_global_class::<T>()?;
    let Some(class) = context.get_global_class::<T>() else {
        return Ok(());
    };
    let constructor = class.constructor();
    let keys = constructor.own_property_keys(context)?;
    for key in keys {
        let fixed = matches!(&key, PropertyKey::String(s)
            if s == &JsString::from("length")
                || s == &JsString::from("name")
                || s == &JsString::from("prototype"));
        if fixed {
            continue;
        }
        // The interface object is an ordinary built-in function that no script has seen yet:
        // reading its property map runs no code.
        let Some(desc) = constructor.borrow().properties().get(&key) else {
            continue;
        };
        constructor.delete_property_or_throw(key.clone(), context)?;
        // A constant is the only non-writable static data property: "Let desc be the
        // PropertyDescriptor{[[Writable]]: false, [[Enumerable]]: true, [[Configurable]]:
        // false, [[Value]]: value}" (WebIDL "define the constants").
        let desc = if desc.writable() == Some(false) {
            PropertyDescriptor::builder()
                .value(desc.value().cloned().unwrap_or_default())
                .writable(false)
                .enumerable(true)
                .configurable(false)
                .build()
        } else {
            desc
        };
        constructor.define_property_or_throw(key, desc, context)?;
    }
    Ok(())
}

/// Install `Symbol.toStringTag` = `name` on the prototype.
#[inline]
pub fn to_string_tag(class: &mut ClassBuilder<'_>, name: &str) {
    class.property(
        JsSymbol::to_string_tag(),
        JsString::from(name),
        Attribute::CONFIGURABLE,
    );
}

/// Brand check: `this` must be an object implementing `T`, else TypeError.
/// Returns a typed handle; borrow its data only briefly and never across a call into JS.
pub fn brand<T: NativeObject>(this: &JsValue, interface: &str) -> JsResult<JsObject<T>> {
    this.as_object()
        .and_then(|o| o.clone().downcast::<T>().ok())
        .ok_or_else(|| {
            JsNativeError::typ()
                .with_message(format!("'this' is not a {interface} object"))
                .into()
        })
}

/// An interface constructor called without `new` throws TypeError.
#[inline]
pub fn require_new(new_target: &JsValue, interface: &str) -> JsResult<()> {
    if new_target.is_undefined() {
        return Err(type_error(format!(
            "Failed to construct '{interface}': Please use the 'new' operator"
        )));
    }
    Ok(())
}

/// `Class::construct` in WebIDL order for interfaces whose `data_constructor` converts the
/// arguments: require `new`, convert the arguments (and run the constructor steps), then
/// GetPrototypeFromConstructor(newTarget).
pub fn construct_converted<T: boa_engine::class::Class>(
    new_target: &JsValue,
    args: &[JsValue],
    ctx: &mut Context,
) -> JsResult<JsObject> {
    require_new(new_target, T::NAME)?;
    let data = limits_catchable(T::data_constructor(new_target, args, ctx))?;
    let proto = crate::prototype_from_new_target::<T>(new_target, ctx)?;
    Ok(JsObject::from_proto_and_data(Some(proto), data))
}

/// The TypeError a non-constructible interface throws when called or constructed.
#[inline]
pub fn illegal_constructor() -> JsError {
    JsNativeError::typ()
        .with_message("Illegal constructor")
        .into()
}

/// WebIDL's argument-count check of an operation: a TypeError when fewer than `n` arguments
/// were passed to `interface`'s `method`.
///
/// ```
/// use boa_engine::JsValue;
/// assert!(boa_webidl::required_arguments(&[JsValue::undefined()], 1, "Headers", "get").is_ok());
/// let error = boa_webidl::required_arguments(&[], 2, "Headers", "set").unwrap_err();
/// assert!(error.to_string().contains("Failed to execute 'set' on 'Headers': 2 argument(s) required"));
/// ```
pub fn required_arguments(
    args: &[JsValue],
    n: usize,
    interface: &str,
    method: &str,
) -> JsResult<()> {
    if args.len() < n {
        return Err(type_error(format!(
            "Failed to execute '{method}' on '{interface}': {n} argument(s) required, but only {} present.",
            args.len()
        )));
    }
    Ok(())
}

/// A TypeError with `message`.
pub fn type_error(message: impl Into<String>) -> JsError {
    let message: String = message.into();
    JsNativeError::typ().with_message(message).into()
}

/// A RangeError with `message`.
pub fn range_error(message: impl Into<String>) -> JsError {
    let message: String = message.into();
    JsNativeError::range().with_message(message).into()
}

/// The argument at `index`, or `undefined`.
#[inline]
pub fn arg(args: &[JsValue], index: usize) -> JsValue {
    args.get(index).cloned().unwrap_or_default()
}

// ---------------------------------------------------------------------------------------
// Dictionaries and conversions
// ---------------------------------------------------------------------------------------

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
        let fast = if crate::fast_paths() {
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

// ---------------------------------------------------------------------------------------
// Resolving functions and promise-returning methods (the vocabulary: crate::promise)
// ---------------------------------------------------------------------------------------

/// Call a promise's resolve function with `value` (see
/// [`PromiseCapability::resolve`](crate::promise::PromiseCapability::resolve)): the only way
/// the library resolves a JS promise it created.
pub fn resolve_promise(resolve: &JsObject, reject: &JsObject, value: JsValue, ctx: &mut Context) {
    let result = match value.as_object() {
        Some(o) if !lookup_runs_no_code(&o, "then") => catching(ctx, |ctx| {
            let region = raise_limits(ctx);
            let r = resolve.call(&JsValue::undefined(), &[value], ctx);
            end_region(ctx, region);
            r
        }),
        _ => settle(resolve, value, ctx),
    };
    if let Err(caught) = result {
        // The resolving functions were not run (the only errors besides the residual case
        // documented on `PromiseCapability::resolve`), so the reject function still settles
        // the promise; if they did run, it is a no-op.
        reject_promise(reject, caught.into_value(), ctx);
    }
}

/// Call a promise's reject function with `reason` (runs no user code): the only way the
/// library rejects a JS promise it created.
#[inline]
pub fn reject_promise(reject: &JsObject, reason: JsValue, ctx: &mut Context) {
    if let Err(caught) = settle(reject, reason, ctx) {
        // Only a failure to enter the function at all (with the margin granted, not
        // expected): reject with that error instead.
        let _already_reported = settle(reject, caught.into_value(), ctx);
    }
}

/// Call a resolving function with `value` when no user code can run (a non-object, a
/// rejection reason, an object whose `then` lookup is plain data), with the library's limit
/// margin so the call can be made even when user code used the limits up.
fn settle(function: &JsObject, value: JsValue, ctx: &mut Context) -> Result<JsValue, Caught> {
    let region = raise_limits(ctx);
    let result = function.call(&JsValue::undefined(), &[value], ctx);
    end_region(ctx, region);
    result.map_err(|e| caught_from_error(e, ctx))
}

/// Whether `Get(object, "then")` runs no user code: every object on the lookup path is an
/// ordinary object (no proxy traps or exotic lookups) and the property found, if any, is a
/// data property.
#[inline]
pub fn lookup_runs_no_code(object: &JsObject, name: &'static str) -> bool {
    let key = PropertyKey::from(match name {
        "then" => boa_engine::js_string!("then"),
        "constructor" => boa_engine::js_string!("constructor"),
        other => JsString::from(other),
    });
    plain_data_lookup(object, &key).is_some()
}

/// `Get(object, "then")` for a caller that catches the exception (the resolve function's
/// steps mirrored in Rust): through [`catching`] unless the lookup runs no user code.
#[inline]
pub fn get_then(object: &JsObject, ctx: &mut Context) -> Result<JsValue, Caught> {
    if lookup_runs_no_code(object, "then") {
        return catching_free_get(object, "then", ctx);
    }
    get_catching(object, "then", ctx)
}

/// `Get` on a lookup path [`lookup_runs_no_code`] checked: it cannot throw.
fn catching_free_get(object: &JsObject, name: &str, ctx: &mut Context) -> Result<JsValue, Caught> {
    object
        .get(key(name), ctx)
        .map_err(|e| caught_from_error(e, ctx))
}

/// Turn a `JsResult` of a promise-returning method into the promise: an exception becomes a
/// rejected promise (promise-returning methods never throw).
#[inline]
pub fn promise_from_result(result: Result<JsValue, Caught>, ctx: &mut Context) -> JsValue {
    match result {
        Ok(v) => v,
        Err(caught) => promise_rejected_with(caught.into_value(), ctx).into(),
    }
}

/// Like [`promise_from_result`] for steps that run no user code whose exception they return
/// (brand checks, the library's own TypeErrors; callbacks they run are caught inside): see
/// [`own_error_value`].
pub fn promise_from_own_result(result: JsResult<JsValue>, ctx: &mut Context) -> JsValue {
    match result {
        Ok(v) => v,
        Err(e) => {
            let reason = own_error_value(e, ctx);
            promise_rejected_with(reason, ctx).into()
        }
    }
}

/// The steps of a promise-returning method, run by [`catching`]: an exception (from a
/// conversion's user code or the steps themselves) becomes a rejected promise.
#[inline]
pub fn promise_method(
    ctx: &mut Context,
    steps: impl FnOnce(&mut Context) -> JsResult<JsValue>,
) -> JsValue {
    let result = catching(ctx, steps);
    promise_from_result(result, ctx)
}

/// A property key for a name known only at run time. For a literal, use [`js_key!`]: this
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

// ---------------------------------------------------------------------------------------
// Running user code whose exception the library catches (engine bug native-catch-stack)
// ---------------------------------------------------------------------------------------

/// An exception the library caught from user code, as the JS value that was thrown.
///
/// Only [`catching`] constructs one, so every path that turns an exception of user code
/// into a rejection reason or a stream error goes through it (and so runs the user code
/// inside the JS trampoline that keeps the engine's operand stack intact). The library's own
/// errors become values with [`new_error`] / [`type_error_value`], which take a
/// [`JsNativeError`] (no user code ran), never a [`JsError`].
#[derive(Debug, Clone)]
pub struct Caught(JsValue);

impl Caught {
    /// The thrown value.
    #[inline]
    pub fn value(&self) -> &JsValue {
        &self.0
    }

    /// The thrown value, by value (a rejection reason, a stream's stored error).
    #[inline]
    pub fn into_value(self) -> JsValue {
        self.0
    }
}

/// Rethrow a caught exception to script (where the spec propagates it).
impl From<Caught> for JsError {
    fn from(c: Caught) -> Self {
        JsError::from_opaque(c.0)
    }
}

/// The JS value of an error the library creates itself (no user code involved).
#[inline]
pub fn new_error(error: JsNativeError, ctx: &mut Context) -> JsValue {
    error.into_opaque(ctx).into()
}

/// A new TypeError object with `message`, as a value (a rejection reason).
pub fn type_error_value(message: impl Into<String>, ctx: &mut Context) -> JsValue {
    let message: String = message.into();
    new_error(JsNativeError::typ().with_message(message), ctx)
}

/// For a native function or constructor that lets the exceptions of user code it runs
/// directly propagate to script (where the spec rethrows): an engine error (a runtime limit,
/// uncatchable by script in Boa) becomes the catchable RangeError other engines throw. The
/// engine has already truncated the frames the error unwound; script catching it restores
/// the rest (the frame's stack is truncated when it returns).
pub fn limits_catchable<T>(result: JsResult<T>) -> JsResult<T> {
    result.map_err(catchable)
}

/// The value of an error that no user code threw: one the library's own steps raise, one an
/// engine built-in operation that runs no user code raises (allocating, transferring or
/// cloning an ArrayBuffer, constructing a view on a buffer the library holds), or an
/// exception already caught by [`catching`] and propagated as its value. No nested JS frame
/// can have thrown it uncaught, so it needs no trampoline. Anything that can run user code (a
/// getter, `valueOf`/`toString`, a callback) goes through [`catching`] instead.
#[inline]
pub fn own_error_value(error: JsError, ctx: &mut Context) -> JsValue {
    caught_from_error(error, ctx).into_value()
}

/// A JS error for an engine error (uncatchable in Boa: runtime limits, internal panics), as
/// other engines report it: the recursion and value-stack limits are a RangeError "Maximum
/// call stack size exceeded". Catchable errors are returned unchanged.
fn catchable(error: JsError) -> JsError {
    use boa_engine::error::{EngineError, RuntimeLimitError};
    match error.as_engine() {
        None => error,
        Some(EngineError::RuntimeLimit(RuntimeLimitError::LoopIteration)) => {
            range_error("Maximum loop iteration count exceeded")
        }
        Some(EngineError::RuntimeLimit(_)) => range_error("Maximum call stack size exceeded"),
        Some(panic @ EngineError::Panic(_)) => JsNativeError::error()
            .with_message(format!("{panic}"))
            .into(),
        // Any other engine error stops the script (the engine series' interrupt and heap
        // limit, third_party/boa): it stays uncatchable. (No such variant on a stock engine.)
        #[allow(unreachable_patterns)]
        Some(_) => error,
    }
}

/// The value of an error that reached Rust without passing through the trampoline's JS
/// `catch` (only when the trampoline cannot be entered at all): never `undefined`.
fn caught_from_error(error: JsError, ctx: &mut Context) -> Caught {
    match catchable(error).into_opaque(ctx) {
        Ok(v) => Caught(v),
        Err(_) => Caught(type_error_value("uncaught engine error", ctx)),
    }
}

/// The recursion and value-stack limits of the context (see [`catching`]).
#[derive(Clone, Copy)]
struct Limits {
    recursion: usize,
    stack: usize,
}

/// Extra recursion depth and value-stack slots granted to the library's own frames (the
/// trampoline, a promise's resolving functions) beyond the host's limits, so they can always
/// be entered once user code has used the budget up.
const RECURSION_MARGIN: usize = 16;
const STACK_MARGIN: usize = 1024;

thread_local! {
    /// The closures [`catching`] has handed to the trampoline, innermost last.
    static PENDING: RefCell<Vec<ErasedClosure>> = const { RefCell::new(Vec::new()) };
    /// The host's limits while the library runs with raised ones (see [`raise_limits`]).
    static RAISED_FROM: Cell<Option<Limits>> = const { Cell::new(None) };
}

type ErasedClosure = *mut (dyn FnMut(&mut Context) -> JsResult<()> + 'static);

/// The limits and raise state to restore when a region ends.
#[must_use]
struct LimitsRegion {
    limits: Limits,
    raised_from: Option<Limits>,
}

fn current_limits(ctx: &mut Context) -> Limits {
    let l = ctx.runtime_limits();
    Limits {
        recursion: l.recursion_limit(),
        stack: l.stack_size_limit(),
    }
}

fn set_limits(ctx: &mut Context, limits: Limits) {
    let l = ctx.runtime_limits_mut();
    l.set_recursion_limit(limits.recursion);
    l.set_stack_size_limit(limits.stack);
}

/// Grant the margins above the host's limits until [`end_region`].
fn raise_limits(ctx: &mut Context) -> LimitsRegion {
    let limits = current_limits(ctx);
    let raised_from = RAISED_FROM.with(Cell::get);
    let base = raised_from.unwrap_or(limits);
    RAISED_FROM.with(|r| r.set(Some(base)));
    set_limits(
        ctx,
        Limits {
            recursion: base.recursion.saturating_add(RECURSION_MARGIN),
            stack: base.stack.saturating_add(STACK_MARGIN),
        },
    );
    LimitsRegion {
        limits,
        raised_from,
    }
}

/// Back to the host's limits (user code runs under them) until [`end_region`].
fn lower_limits(ctx: &mut Context) -> LimitsRegion {
    let limits = current_limits(ctx);
    let raised_from = RAISED_FROM.with(Cell::get);
    if let Some(base) = raised_from {
        set_limits(ctx, base);
    }
    RAISED_FROM.with(|r| r.set(None));
    LimitsRegion {
        limits,
        raised_from,
    }
}

fn end_region(ctx: &mut Context, region: LimitsRegion) {
    set_limits(ctx, region.limits);
    RAISED_FROM.with(|r| r.set(region.raised_from));
}

/// Whether the engine's depth is already at the host's limits (only possible while the
/// margins are granted, i.e. inside a `then` getter a resolving function runs): a native
/// call under the host's limits fails its limit check before it runs, leaving nothing on the
/// operand stack.
fn host_limits_exhausted(ctx: &mut Context, probe: &JsFunction) -> bool {
    if RAISED_FROM.with(Cell::get).is_none() {
        return false;
    }
    let region = lower_limits(ctx);
    let result = probe.call(&JsValue::undefined(), &[], ctx);
    end_region(ctx, region);
    result.is_err()
}

/// The realm's trampoline (see [`catching`]): the JS function, the native [`invoke`] it is
/// called with, and a native no-op used to probe the depth.
#[derive(Clone, boa_gc::Trace, boa_gc::Finalize, boa_engine::JsData)]
struct Trampoline {
    function: JsFunction,
    invoke: JsValue,
    probe: JsFunction,
}

/// The trampoline's source: called with the native [`invoke`] as its argument; it returns
/// what `invoke` threw (the closure's result says whether it completed normally). The
/// function reads no global and no outer binding (its one binding is a parameter, so the
/// engine reaches it without a scope lookup), so script patching built-ins cannot affect it,
/// and its `catch` makes no call, so it runs even at the recursion limit.
const TRAMPOLINE: &str = "(function (invoke) {
  'use strict';
  try {
    invoke();
  } catch (e) {
    return e;
  }
})";

/// The trampoline's native callee: runs the innermost closure of [`catching`] under the
/// host's limits, and turns an engine error (uncatchable by script) into the RangeError
/// other engines throw, so the trampoline's `catch` (which truncates the operand stack on
/// its normal return) receives it.
fn invoke(_: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let Some(closure) = PENDING.with(|p| p.borrow_mut().pop()) else {
        return Err(type_error("nothing to invoke"));
    };
    let region = lower_limits(ctx);
    // SAFETY: `catching` pushed this pointer to a closure that lives in its own stack frame
    // and stays there until the trampoline call returns; the trampoline calls `invoke` once
    // and this pop hands each pointer out once.
    let result = unsafe { (*closure)(ctx) };
    end_region(ctx, region);
    result.map(|()| JsValue::undefined()).map_err(catchable)
}

/// Create the current realm's trampoline now. [`crate::register`] calls it; [`catching`]
/// creates it on first use in a realm that has none.
pub fn install_call_trampoline(ctx: &mut Context) -> JsResult<()> {
    trampoline(ctx).map(|_| ())
}

fn trampoline(ctx: &mut Context) -> JsResult<Trampoline> {
    if let Some(t) = ctx.realm().host_defined().get::<Trampoline>() {
        return Ok(t.clone());
    }
    let trampoline_fn = ctx
        .eval(boa_engine::Source::from_bytes(TRAMPOLINE))?
        .as_object()
        .and_then(JsFunction::from_object)
        .ok_or_else(|| type_error("the trampoline is not a function"))?;
    let invoke = function(ctx, "invoke", 0, NativeFunction::from_fn_ptr(invoke)).into();
    let probe =
        NativeFunction::from_fn_ptr(|_, _, _| Ok(JsValue::undefined())).to_js_function(ctx.realm());
    let t = Trampoline {
        function: trampoline_fn,
        invoke,
        probe,
    };
    ctx.realm().host_defined_mut().insert(t.clone());
    Ok(t)
}

/// Run `f`, which runs user code (a callback, a getter, a conversion calling `valueOf` /
/// `toString`, a promise resolving function reading `then`), for a caller that CATCHES its
/// exception instead of letting it reach script: the exception becomes a rejection, a stream
/// error, a reported listener error. The only way to get a [`Caught`].
///
/// Boa 0.22 leaves a frame's values on the operand stack when an exception thrown in a nested
/// JS frame unwinds to a host-called frame (docs/engine-bugs/native-catch-stack.js); if the
/// host then returns normally, the JS caller's pending operands are corrupted. `f` therefore
/// runs inside a JS `try`/`catch` (the per-realm trampoline calling the native `invoke`),
/// whose normal return truncates the stack to its frame. An engine error (the recursion and
/// stack limits, which Boa makes uncatchable by script) becomes a RangeError inside `invoke`,
/// before it reaches the trampoline, so the same `catch` handles it and the caller gets a
/// real error object. The trampoline itself is entered with a small margin above the limits,
/// so it can be entered when user code used them up; `f` runs under the host's limits.
///
/// The success path allocates nothing: `f` is handed to `invoke` through a thread-local
/// stack of pointers (the trampoline is called with `invoke` as its one argument), and
/// normal completion is the closure's own result.
///
/// Where the spec rethrows to script (a constructor's `start()`), call directly instead: the
/// engine cleans the stack up when script catches the exception.
// NOTE: user code sees the same calls, `this`, arguments and values as without the
// trampoline; its frame shows up only in error stack traces and counts towards the
// recursion limit.
pub fn catching<T>(
    ctx: &mut Context,
    f: impl FnOnce(&mut Context) -> JsResult<T>,
) -> Result<T, Caught> {
    let t = match trampoline(ctx) {
        Ok(t) => t,
        Err(e) => return Err(caught_from_error(e, ctx)),
    };
    // Inside a `then` getter run with the margins granted, user code must not get them.
    if host_limits_exhausted(ctx, &t.probe) {
        return Err(Caught(new_error(
            JsNativeError::range().with_message("Maximum call stack size exceeded"),
            ctx,
        )));
    }
    let mut f = Some(f);
    let mut out: Option<T> = None;
    let mut run = |ctx: &mut Context| -> JsResult<()> {
        if let Some(f) = f.take() {
            out = Some(f(ctx)?);
        }
        Ok(())
    };
    let closure: &mut (dyn FnMut(&mut Context) -> JsResult<()> + '_) = &mut run;
    // SAFETY: only the lifetime is erased. The pointer is popped (by `invoke`, or below)
    // before `run` goes out of scope, and `invoke` is reachable only through the
    // trampoline, which only this function calls.
    let closure: ErasedClosure = unsafe {
        std::mem::transmute::<*mut (dyn FnMut(&mut Context) -> JsResult<()> + '_), ErasedClosure>(
            closure,
        )
    };
    let depth = PENDING.with(|p| {
        let mut p = p.borrow_mut();
        p.push(closure);
        p.len()
    });
    let region = raise_limits(ctx);
    let result = t
        .function
        .call(&JsValue::undefined(), std::slice::from_ref(&t.invoke), ctx);
    end_region(ctx, region);
    PENDING.with(|p| p.borrow_mut().truncate(depth - 1));
    match (result, out) {
        // The closure ran to completion: `invoke` returned normally and so did the trampoline.
        (Ok(_), Some(v)) => Ok(v),
        // Otherwise the trampoline's `catch` returned what was thrown.
        (Ok(thrown), None) => Err(Caught(thrown)),
        (Err(e), _) => Err(caught_from_error(e, ctx)),
    }
}

/// `Call(f, this, args)` for a caller that catches the exception (see [`catching`]).
#[inline]
pub fn call_catching(
    f: &JsObject,
    this: &JsValue,
    args: &[JsValue],
    ctx: &mut Context,
) -> Result<JsValue, Caught> {
    catching(ctx, |ctx| f.call(this, args, ctx))
}

/// `Get(object, key)` for a caller that catches the exception (see [`catching`]), e.g.
/// `pipeTo()` converting its options.
#[inline]
pub fn get_catching(object: &JsObject, name: &str, ctx: &mut Context) -> Result<JsValue, Caught> {
    catching(ctx, |ctx| object.get(key(name), ctx))
}

/// [Convert a JS object to a `record<K, V>`](https://webidl.spec.whatwg.org/#js-record)
/// (the object case; `undefined`/`null` are the caller's): for each own key in order whose
/// property is enumerable, the key converted by `key` (given as a JS value: a Symbol key throws in
/// a string conversion), then `Get(O, key)` converted by `value`. Runs user code (proxy traps,
/// getters, conversions): hold no borrow across it.
pub fn create_record<K, V>(
    object: &JsObject,
    ctx: &mut Context,
    mut key: impl FnMut(&JsValue, &mut Context) -> JsResult<K>,
    mut value: impl FnMut(&JsValue, &mut Context) -> JsResult<V>,
) -> JsResult<Vec<(K, V)>> {
    let mut result = Vec::new();
    // 4. Let keys be ? O.[[OwnPropertyKeys]]().
    for k in object.own_property_keys(ctx)? {
        // 1. Let desc be ? O.[[GetOwnProperty]](key).
        // (Through %Object.getOwnPropertyDescriptor%: Boa's [[GetOwnProperty]] is internal;
        // the descriptor object it makes is not observable.)
        let desc = boa_engine::builtins::object::OrdinaryObject::get_own_property_descriptor(
            &JsValue::undefined(),
            &[object.clone().into(), JsValue::from(&k)],
            ctx,
        )?;
        // 2. If desc is not undefined and desc.[[Enumerable]] is true:
        let Some(desc) = desc.as_object() else {
            continue;
        };
        if !desc.get(js_key!("enumerable"), ctx)?.to_boolean() {
            continue;
        }
        //   1. Let typedKey be key converted to an IDL value of type K.
        let typed_key = key(&JsValue::from(&k), ctx)?;
        //   2. Let value be ? Get(O, key).
        let v = object.get(k, ctx)?;
        //   3. Let typedValue be value converted to an IDL value of type V.
        let typed_value = value(&v, ctx)?;
        //   4. Set result[typedKey] to typedValue (own keys are unique: always a new entry).
        result.push((typed_key, typed_value));
    }
    Ok(result)
}

/// [Create a sequence from an iterable](https://webidl.spec.whatwg.org/#create-sequence-from-iterable):
/// each value converted by `convert` as it is produced.
pub fn create_sequence_from_iterable<T>(
    value: &JsValue,
    method: &JsObject,
    ctx: &mut Context,
    mut convert: impl FnMut(JsValue, &mut Context) -> JsResult<T>,
) -> JsResult<Vec<T>> {
    let iterator = method.call(value, &[], ctx)?;
    let Some(iterator) = iterator.as_object() else {
        return Err(type_error("the iterator is not an object"));
    };
    let next = iterator.get(boa_engine::js_string!("next"), ctx)?;
    let mut items = Vec::new();
    loop {
        let Some(next_fn) = next.as_callable() else {
            return Err(type_error("the iterator's next is not callable"));
        };
        let result = next_fn.call(&iterator.clone().into(), &[], ctx)?;
        let Some(result) = result.as_object() else {
            return Err(type_error("the iterator result is not an object"));
        };
        if result
            .get(boa_engine::js_string!("done"), ctx)?
            .to_boolean()
        {
            return Ok(items);
        }
        let v = result.get(boa_engine::js_string!("value"), ctx)?;
        items.push(convert(v, ctx)?);
    }
}

// ---------------------------------------------------------------------------------------
// Registration, the fast-path switch, objects made for a constructor
// ---------------------------------------------------------------------------------------

/// Register what WebIDL itself defines on the context's current realm: `DOMException` (its
/// prototype chained to `%Error.prototype%`) and the realm's call trampoline (see
/// [`catching`]). Every web API crate of the workspace registers it first (registering twice
/// does nothing the second time).
pub fn register(context: &mut Context) -> JsResult<()> {
    if first_registration::<Registered>(context) {
        install_call_trampoline(context)?;
        exception::register(context)?;
    }
    Ok(())
}

/// The realm mark of [`register`].
#[derive(Debug, Default, boa_gc::Trace, boa_gc::Finalize, boa_engine::JsData)]
struct Registered;

/// Mark the current realm as having `M` registered: `true` the first time (the caller then
/// registers its interfaces), `false` once `M` is there. Each crate's `register` is
/// idempotent through its own mark type.
///
/// ```
/// use boa_engine::Context;
///
/// #[derive(Default, boa_gc::Trace, boa_gc::Finalize, boa_engine::JsData)]
/// struct Mine;
///
/// let mut context = Context::default();
/// assert!(boa_webidl::first_registration::<Mine>(&mut context));
/// assert!(!boa_webidl::first_registration::<Mine>(&mut context));
/// ```
pub fn first_registration<M: NativeObject + Default>(context: &mut Context) -> bool {
    let realm = context.realm().clone();
    if realm.host_defined().get::<M>().is_some() {
        return false;
    }
    realm.host_defined_mut().insert(M::default());
    true
}

/// Run `register` on `realm` (the context's current realm is restored after), or on the
/// current realm when `realm` is `None`: what a boa_runtime `RuntimeExtension` does with the
/// realm it is given.
///
/// ```
/// use boa_engine::Context;
///
/// let mut context = Context::default();
/// let realm = context.create_realm().unwrap();
/// boa_webidl::register_in(Some(realm.clone()), &mut context, boa_webidl::register).unwrap();
/// assert!(realm.get_class::<boa_webidl::DomException>().is_some());
/// assert!(context.realm().get_class::<boa_webidl::DomException>().is_none());
/// ```
pub fn register_in(
    realm: Option<boa_engine::realm::Realm>,
    context: &mut Context,
    register: fn(&mut Context) -> JsResult<()>,
) -> JsResult<()> {
    let Some(realm) = realm else {
        return register(context);
    };
    let old = context.enter_realm(realm);
    let result = register(context);
    context.enter_realm(old);
    result
}

/// Define a boa_runtime `RuntimeExtension` named `$name` whose registration is `$register`
/// (on the realm boa_runtime passes, see [`register_in`]). The crate using it depends on
/// `boa_runtime`.
#[macro_export]
macro_rules! runtime_extension {
    ($(#[$meta:meta])* $name:ident, $register:path) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, Default)]
        pub struct $name;

        impl ::boa_runtime::extensions::RuntimeExtension for $name {
            fn register(
                self,
                realm: ::core::option::Option<::boa_engine::realm::Realm>,
                context: &mut ::boa_engine::Context,
            ) -> ::boa_engine::JsResult<()> {
                $crate::register_in(realm, context, $register)
            }
        }
    };
}

thread_local! {
    static FAST_PATHS: Cell<bool> = Cell::new(default_fast_paths());
}

fn default_fast_paths() -> bool {
    if !cfg!(feature = "fast-paths") {
        return false;
    }
    !matches!(
        std::env::var("BOA_STREAMS_FAST_PATHS").as_deref(),
        Ok("0" | "off" | "false")
    )
}

/// Whether the synchronous fast paths are on (cargo feature `fast-paths`, default on; the
/// environment variable `BOA_STREAMS_FAST_PATHS=0` or [`set_fast_paths`] turn them off).
/// When off, every step takes the spec's literal promise path. One switch for every crate of
/// the workspace (re-exported as `boa_streams::fast_paths`).
///
/// ```
/// boa_webidl::set_fast_paths(false);
/// assert!(!boa_webidl::fast_paths());
/// ```
#[inline]
pub fn fast_paths() -> bool {
    FAST_PATHS.with(Cell::get)
}

/// Turn the fast paths on or off for this thread (affects streams created afterwards and
/// steps taken afterwards).
///
/// ```
/// boa_webidl::set_fast_paths(true);
/// assert_eq!(boa_webidl::fast_paths(), cfg!(feature = "fast-paths"));
/// ```
#[inline]
pub fn set_fast_paths(on: bool) {
    FAST_PATHS.with(|f| f.set(on && cfg!(feature = "fast-paths")));
}

/// GetPrototypeFromConstructor(newTarget, the interface `C`'s prototype).
pub fn prototype_from_new_target<C: boa_engine::class::Class>(
    new_target: &JsValue,
    context: &mut Context,
) -> JsResult<JsObject> {
    let Some(constructor) = new_target.as_object() else {
        return Err(JsNativeError::typ()
            .with_message(format!("Failed to construct '{}': use 'new'", C::NAME))
            .into());
    };
    if let Some(proto) = constructor
        .get(boa_engine::js_string!("prototype"), context)?
        .as_object()
    {
        return Ok(proto);
    }
    // NOTE: GetFunctionRealm(newTarget) is not public in Boa; the current realm is used.
    // Only observable with a cross-realm newTarget whose `prototype` is not an object.
    context
        .realm()
        .get_class::<C>()
        .map(|c| c.prototype())
        .ok_or_else(|| {
            JsNativeError::typ()
                .with_message(format!("{} is not registered", C::NAME))
                .into()
        })
}

#[cfg(test)]
mod tests {
    use super::get_plain_data;
    use crate::test_support::{context, eval};
    use boa_engine::JsValue;

    /// `get_plain_data` reads own, inherited and absent data members, and declines getters,
    /// proxies and exotic objects on the chain (their lookups can run code).
    #[test]
    fn plain_data_lookup_and_what_it_declines() {
        let mut ctx = context();
        let get = |ctx: &mut boa_engine::Context, src: &str, key| {
            let o = eval(ctx, src);
            get_plain_data(&o.as_object().expect("an object"), &key)
        };
        let own = get(&mut ctx, "({ pull: 1 })", js_key!("pull"));
        assert_eq!(own, Some(JsValue::from(1)));
        let inherited = get(
            &mut ctx,
            "Object.create(Object.create({ pull: 2 }))",
            js_key!("pull"),
        );
        assert_eq!(inherited, Some(JsValue::from(2)));
        let absent = get(&mut ctx, "({ pull: 1 })", js_key!("start"));
        assert_eq!(absent, Some(JsValue::undefined()));
        let null_proto = get(&mut ctx, "Object.create(null)", js_key!("start"));
        assert_eq!(null_proto, Some(JsValue::undefined()));
        let getter = get(&mut ctx, "({ get pull() { return 1; } })", js_key!("pull"));
        assert_eq!(getter, None);
        let inherited_getter = get(
            &mut ctx,
            "Object.create({ get pull() { return 1; } })",
            js_key!("pull"),
        );
        assert_eq!(inherited_getter, None);
        let proxy_on_chain = get(
            &mut ctx,
            "Object.create(new Proxy({}, {}))",
            js_key!("pull"),
        );
        assert_eq!(proxy_on_chain, None);
        let function = get(&mut ctx, "(function () {})", js_key!("pull"));
        assert_eq!(function, None);
        // A member installed on Object.prototype is found, as a data property or declined as
        // a getter.
        eval(&mut ctx, "Object.prototype.type = 'bytes';");
        let from_object_prototype = get(&mut ctx, "({})", js_key!("type"));
        assert_eq!(
            from_object_prototype,
            Some(JsValue::from(boa_engine::js_string!("bytes")))
        );
        eval(
            &mut ctx,
            "Object.defineProperty(Object.prototype, 'type', { get() { return 'x'; } });",
        );
        assert_eq!(get(&mut ctx, "({})", js_key!("type")), None);
    }

    /// `register` alone installs this crate's interfaces and its dependencies', and nothing of
    /// the other crates.
    #[test]
    fn register_installs_only_this_crate_and_its_dependencies() {
        let mut ctx = crate::test_support::context();
        crate::test_support::assert_crates_registered(&mut ctx, &["webidl"]);
    }
}
