//! WebIDL glue shared by every interface: operation and attribute installation with the
//! WebIDL property shapes, brand checks, errors, dictionary members, type conversions and the
//! WebIDL promise vocabulary ("a new promise", "a promise resolved with", "react").
//!
//! Rules every interface follows (see the README's "Conventions"):
//! - operations are enumerable, writable, configurable data properties (Boa's
//!   `ClassBuilder::method` makes them non-enumerable, so never use it);
//! - attributes are enumerable, configurable accessors whose getter is named `get <name>`;
//! - `Symbol.toStringTag` is a non-writable, non-enumerable, configurable string;
//! - the global binding is writable + configurable, not enumerable ([`INTERFACE_ATTRIBUTES`]).

use boa_engine::object::builtins::JsFunction;
use boa_engine::{
    class::ClassBuilder,
    object::{builtins::JsPromise, FunctionObjectBuilder, JsObject},
    property::{Attribute, PropertyDescriptor, PropertyKey},
    value::TryFromJs,
    Context, JsError, JsNativeError, JsResult, JsString, JsSymbol, JsValue, NativeFunction,
    NativeObject,
};

/// Attributes of an interface's global binding: `{writable: true, enumerable: false,
/// configurable: true}`. Use as `Class::ATTRIBUTES`.
pub const INTERFACE_ATTRIBUTES: Attribute = Attribute::WRITABLE.union(Attribute::CONFIGURABLE);

/// Build a built-in function object with the given `name` and `length`, not a constructor.
pub fn function(ctx: &mut Context, name: &str, length: usize, f: NativeFunction) -> JsFunction {
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

/// Install a static attribute (getter only) on the interface object.
pub fn static_attribute(class: &mut ClassBuilder<'_>, name: &str, getter: NativeFunction) {
    let get = function(class.context(), &format!("get {name}"), 0, getter);
    class.static_accessor(
        JsString::from(name),
        Some(get),
        None,
        Attribute::ENUMERABLE | Attribute::CONFIGURABLE,
    );
}

/// Install a constant (`const unsigned short X = n;`) on both the interface object and the
/// prototype: `{writable: false, enumerable: true, configurable: false}`.
pub fn constant(class: &mut ClassBuilder<'_>, name: &str, value: JsValue) {
    class.static_property(JsString::from(name), value.clone(), Attribute::ENUMERABLE);
    class.property(JsString::from(name), value, Attribute::ENUMERABLE);
}

/// Install `Symbol.toStringTag` = `name` on the prototype.
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
    let data = T::data_constructor(new_target, args, ctx)?;
    let proto = crate::dom::prototype_from_new_target::<T>(new_target, ctx)?;
    Ok(JsObject::from_proto_and_data(Some(proto), data))
}

/// The TypeError a non-constructible interface throws when called or constructed.
pub fn illegal_constructor() -> JsError {
    JsNativeError::typ()
        .with_message("Illegal constructor")
        .into()
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

/// Convert a `JsError` into the JS value that is thrown / used as a rejection reason.
pub fn error_value(err: JsError, ctx: &mut Context) -> JsValue {
    err.into_opaque(ctx)
        .unwrap_or_else(|_| JsValue::undefined())
}

/// The argument at `index`, or `undefined`.
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
    pub fn from_object(object: Option<JsObject>) -> Self {
        Self(object)
    }

    /// The object, if any.
    pub fn object(&self) -> Option<&JsObject> {
        self.0.as_ref()
    }

    /// `Get(dict, key)`; `None` when the member is absent (value `undefined`).
    /// Can run user code (getters): hold no borrow across it.
    pub fn get(&self, key: &str, ctx: &mut Context) -> JsResult<Option<JsValue>> {
        let Some(o) = &self.0 else { return Ok(None) };
        let v = o.get(PropertyKey::from(JsString::from(key)), ctx)?;
        Ok(if v.is_undefined() { None } else { Some(v) })
    }

    /// A callback-function member: absent → `None`, callable → `Some`, else TypeError.
    pub fn get_callback(&self, key: &str, ctx: &mut Context) -> JsResult<Option<JsObject>> {
        match self.get(key, ctx)? {
            None => Ok(None),
            Some(v) => match v.as_callable() {
                Some(f) => Ok(Some(f.clone())),
                None => Err(type_error(format!("'{key}' must be a function"))),
            },
        }
    }

    /// A `boolean` member with a default.
    pub fn get_bool(&self, key: &str, default: bool, ctx: &mut Context) -> JsResult<bool> {
        Ok(self.get(key, ctx)?.map_or(default, |v| v.to_boolean()))
    }

    /// An `unrestricted double` member.
    pub fn get_unrestricted_double(&self, key: &str, ctx: &mut Context) -> JsResult<Option<f64>> {
        match self.get(key, ctx)? {
            None => Ok(None),
            Some(v) => Ok(Some(v.to_number(ctx)?)),
        }
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
pub fn to_dom_string(value: &JsValue, ctx: &mut Context) -> JsResult<JsString> {
    value.to_string(ctx)
}

/// Convert with Boa's `TryFromJs` (rarely needed; kept for symmetry).
pub fn convert<T: TryFromJs>(value: &JsValue, ctx: &mut Context) -> JsResult<T> {
    T::try_from_js(value, ctx)
}

// ---------------------------------------------------------------------------------------
// Promises (WebIDL "promise" vocabulary)
// ---------------------------------------------------------------------------------------

/// A promise created by "a new promise", with its resolving functions kept so Rust can
/// settle it later. Trace it when stored in GC state.
#[derive(Debug, Clone, boa_gc::Trace, boa_gc::Finalize)]
pub struct PromiseCapability {
    pub promise: JsObject,
    pub resolve: JsObject,
    pub reject: JsObject,
}

impl PromiseCapability {
    /// "A new promise".
    pub fn new(ctx: &mut Context) -> Self {
        let (promise, funcs) = JsPromise::new_pending(ctx);
        Self {
            promise: promise.into(),
            resolve: funcs.resolve.into(),
            reject: funcs.reject.into(),
        }
    }

    /// "Resolve p with v". Can run user code (`Get(v, "then")`).
    pub fn resolve(&self, value: JsValue, ctx: &mut Context) {
        // The resolving functions never throw; a throwing `then` getter rejects instead.
        let _ = self.resolve.call(&JsValue::undefined(), &[value], ctx);
    }

    /// "Reject p with r".
    pub fn reject(&self, reason: JsValue, ctx: &mut Context) {
        let _ = self.reject.call(&JsValue::undefined(), &[reason], ctx);
    }

    /// The promise as a value.
    pub fn value(&self) -> JsValue {
        self.promise.clone().into()
    }
}

/// "A promise resolved with `value`": always a new promise (never `value` itself).
pub fn promise_resolved_with(value: JsValue, ctx: &mut Context) -> JsObject {
    let p = PromiseCapability::new(ctx);
    p.resolve(value, ctx);
    p.promise.clone()
}

/// "A promise rejected with `reason`".
pub fn promise_rejected_with(reason: JsValue, ctx: &mut Context) -> JsObject {
    let p = PromiseCapability::new(ctx);
    p.reject(reason, ctx);
    p.promise.clone()
}

/// Turn a `JsResult` of a promise-returning method into the promise: an exception becomes a
/// rejected promise (promise-returning methods never throw).
pub fn promise_from_result(result: JsResult<JsValue>, ctx: &mut Context) -> JsValue {
    match result {
        Ok(v) => v,
        Err(e) => {
            let reason = error_value(e, ctx);
            promise_rejected_with(reason, ctx).into()
        }
    }
}

/// "Set promise.[[PromiseIsHandled]] to true". Boa has no public setter: attaching a no-op
/// rejection reaction sets the flag.
// NOTE: this allocates one derived promise and, if `promise` rejects, queues one reaction job
// that runs a no-op; neither is observable by script.
pub fn mark_as_handled(promise: &JsObject, ctx: &mut Context) {
    if let Ok(p) = JsPromise::from_object(promise.clone()) {
        let noop = NativeFunction::from_fn_ptr(|_, _, _| Ok(JsValue::undefined()))
            .to_js_function(ctx.realm());
        let _ = p.then(None, Some(noop), ctx);
    }
}

/// "React to `promise`": run native steps on fulfillment / rejection, in the promise's
/// reaction order (so they interleave correctly with script reactions). `captures` is traced.
/// The steps must not throw; they get the settlement value.
// NOTE: Boa's public `then` performs a SpeciesConstructor lookup on `promise`; for the
// promises this library creates that reads `%Promise.prototype%.constructor`, which script can
// only observe by patching it. The derived promise never rejects (the steps cannot throw).
pub fn react<C: boa_gc::Trace + Clone + 'static>(
    promise: &JsObject,
    captures: C,
    on_fulfilled: fn(JsValue, &C, &mut Context),
    on_rejected: fn(JsValue, &C, &mut Context),
    ctx: &mut Context,
) {
    crate::completion::Completion::Js(promise.clone()).upon_either(
        captures,
        on_fulfilled,
        on_rejected,
        ctx,
    );
}

/// A step function pointer that is `Trace` (it holds no GC data).
pub struct StepFn<C>(pub fn(JsValue, &C, &mut Context));

impl<C> Clone for StepFn<C> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<C> Copy for StepFn<C> {}
impl<C> boa_gc::Finalize for StepFn<C> {}
// SAFETY: a function pointer holds no GC handles.
unsafe impl<C> boa_gc::Trace for StepFn<C> {
    boa_gc::empty_trace!();
}

/// Enqueue native steps as a microtask (a `PromiseJob`): the position a reaction to an
/// already-settled promise would take. Used by the sync fast paths.
pub fn enqueue_microtask(ctx: &mut Context, f: impl FnOnce(&mut Context) + 'static) {
    let job = boa_engine::job::PromiseJob::new(move |ctx| {
        f(ctx);
        Ok(JsValue::undefined())
    });
    ctx.enqueue_job(job.into());
}

/// Key helper for `js_string!`-free property names.
pub fn key(name: &str) -> PropertyKey {
    PropertyKey::from(JsString::from(name))
}

/// `undefined`, for brevity in native functions.
pub fn undefined() -> JsValue {
    JsValue::undefined()
}

// ---------------------------------------------------------------------------------------
// Engine workaround: catching exceptions of nested frames
// ---------------------------------------------------------------------------------------

/// The realm's `Get` trampoline (see [`get_catching`]).
#[derive(boa_gc::Trace, boa_gc::Finalize, boa_engine::JsData)]
struct CatchingGet(JsFunction);

/// `Get(object, key)` for a caller that turns an exception into a rejected promise instead of
/// rethrowing it (e.g. `pipeTo()` converting its options).
///
/// Boa 0.22 leaves the frames' values on the operand stack when an exception thrown in a
/// nested JS frame (a getter calling a throwing helper) unwinds to a host-called frame and the
/// host swallows it; the caller's pending operands are then corrupted (see
/// docs/engine-bugs/native-catch-stack.js). The `Get` therefore runs inside a JS `try`/`catch`
/// (a per-realm function), where the engine restores the stack correctly.
// NOTE: the trampoline performs exactly one [[Get]] with `object` as the receiver, like
// `JsObject::get`; its frame shows up only in error stack traces.
pub fn get_catching(object: &JsObject, key: &str, ctx: &mut Context) -> JsResult<JsValue> {
    let cached = ctx
        .realm()
        .host_defined()
        .get::<CatchingGet>()
        .map(|c| c.0.clone());
    let trampoline = match cached {
        Some(f) => f,
        None => {
            let source = boa_engine::Source::from_bytes(
                "(function (o, k, fail) { try { return o[k]; } catch (e) { fail.e = e; return fail; } })",
            );
            let f = ctx
                .eval(source)?
                .as_object()
                .and_then(JsFunction::from_object)
                .ok_or_else(|| type_error("the Get trampoline is not a function"))?;
            ctx.realm()
                .host_defined_mut()
                .insert(CatchingGet(f.clone()));
            f
        }
    };
    // The realm's sentinel of `call_catching` (never visible to script) reports a throw.
    let fail = catching_call(ctx)?.thrown.clone();
    let result = trampoline.call(
        &JsValue::undefined(),
        &[
            object.clone().into(),
            JsString::from(key).into(),
            fail.clone().into(),
        ],
        ctx,
    )?;
    if result
        .as_object()
        .is_some_and(|o| JsObject::equals(&o, &fail))
    {
        let e = fail.get(key_e(), ctx)?;
        fail.set(key_e(), JsValue::undefined(), false, ctx)?;
        return Err(JsError::from_opaque(e));
    }
    Ok(result)
}

fn key_e() -> PropertyKey {
    key("e")
}

/// The realm's call trampoline (see [`call_catching`]): the JS function and the object it
/// returns (with the exception in its `e` slot) when the callee throws.
#[derive(Clone, boa_gc::Trace, boa_gc::Finalize, boa_engine::JsData)]
struct CatchingCall {
    trampoline: JsFunction,
    thrown: JsObject,
}

/// The trampoline's source: `invoke(f, t, n, a, b)` is a native function (see [`invoke`])
/// that calls `f` with `this` = `t` and the first `n` of `a`, `b` (or, for `n` = -1, the
/// elements of the array `a`), so script patching `Function.prototype.call` or `Reflect.apply`
/// is never seen and no argument array is allocated for up to two arguments.
const CALL_TRAMPOLINE: &str = "(function (invoke, thrown) {
  'use strict';
  return function (f, t, n, a, b) {
    try {
      return invoke(f, t, n, a, b);
    } catch (e) {
      thrown.e = e;
      return thrown;
    }
  };
})";

/// The trampoline's native callee: `Call(f, t, args)` where the arguments are described by
/// `n`, `a`, `b` (see [`CALL_TRAMPOLINE`]).
fn invoke(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let Some(f) = args.first().and_then(JsValue::as_callable) else {
        return Err(type_error("not a function"));
    };
    let this = arg(args, 1);
    let n = arg(args, 2).as_number().unwrap_or(0.0);
    if n >= 0.0 {
        let n = (n as usize).min(2);
        let list = args.get(3..3 + n).unwrap_or_default();
        return f.call(&this, list, ctx);
    }
    let Some(array) = arg(args, 3).as_object() else {
        return Err(type_error("not an argument list"));
    };
    let length = array.get(key("length"), ctx)?.to_length(ctx)?;
    let mut list = Vec::new();
    for i in 0..length {
        list.push(array.get(i, ctx)?);
    }
    f.call(&this, &list, ctx)
}

/// Create the current realm's call trampoline now. [`crate::register`] calls it;
/// [`call_catching`] creates it on first use in a realm that has none. The trampoline reads no
/// global, so script patching built-ins cannot affect it.
pub fn install_call_trampoline(ctx: &mut Context) -> JsResult<()> {
    catching_call(ctx).map(|_| ())
}

fn catching_call(ctx: &mut Context) -> JsResult<CatchingCall> {
    if let Some(c) = ctx.realm().host_defined().get::<CatchingCall>() {
        return Ok(c.clone());
    }
    let thrown = JsObject::with_null_proto();
    let factory = ctx
        .eval(boa_engine::Source::from_bytes(CALL_TRAMPOLINE))?
        .as_object()
        .and_then(JsFunction::from_object)
        .ok_or_else(|| type_error("the call trampoline factory is not a function"))?;
    let invoke = function(ctx, "invoke", 5, NativeFunction::from_fn_ptr(invoke));
    let trampoline = factory
        .call(
            &JsValue::undefined(),
            &[invoke.into(), thrown.clone().into()],
            ctx,
        )?
        .as_object()
        .and_then(JsFunction::from_object)
        .ok_or_else(|| type_error("the call trampoline is not a function"))?;
    let c = CatchingCall { trampoline, thrown };
    ctx.realm().host_defined_mut().insert(c.clone());
    Ok(c)
}

/// `Call(f, this, args)` for a caller that CATCHES the exception instead of letting it reach
/// script (a callback whose exception becomes a rejected promise or an errored stream, an
/// event listener whose exception is reported, ...).
///
/// Boa 0.22 leaves a frame's values on the operand stack when an exception thrown in a nested
/// JS frame unwinds to a host-called frame (docs/engine-bugs/native-catch-stack.js); if the
/// host then returns normally, the JS caller's pending operands are corrupted. The call
/// therefore runs inside a JS `try`/`catch` (a per-realm function), where the engine restores
/// the stack on its normal return. The success path allocates nothing; a throw is reported as
/// a per-realm object the callee can never return (script never sees it), with the exception
/// in a slot read (and cleared) here.
///
/// Where the spec rethrows the callback's exception to script (a constructor's `start()`),
/// call directly: the engine cleans the stack up when script catches it.
// NOTE: `f` sees the same `this`, arguments and argument count as a direct call; the
// trampoline's frames show up only in error stack traces and count towards the recursion
// limit.
pub fn call_catching(
    f: &JsObject,
    this: &JsValue,
    args: &[JsValue],
    ctx: &mut Context,
) -> JsResult<JsValue> {
    let c = catching_call(ctx)?;
    let (trampoline, thrown) = (&c.trampoline, &c.thrown);
    let f: JsValue = f.clone().into();
    let result = match args {
        [] => trampoline.call(
            &JsValue::undefined(),
            &[f, this.clone(), JsValue::from(0)],
            ctx,
        ),
        [a] => trampoline.call(
            &JsValue::undefined(),
            &[f, this.clone(), JsValue::from(1), a.clone()],
            ctx,
        ),
        [a, b] => trampoline.call(
            &JsValue::undefined(),
            &[f, this.clone(), JsValue::from(2), a.clone(), b.clone()],
            ctx,
        ),
        _ => {
            let list = boa_engine::object::builtins::JsArray::from_iter(args.iter().cloned(), ctx);
            trampoline.call(
                &JsValue::undefined(),
                &[f, this.clone(), JsValue::from(-1), list.into()],
                ctx,
            )
        }
    }?;
    if result
        .as_object()
        .is_some_and(|o| JsObject::equals(&o, thrown))
    {
        let e = thrown.get(key_e(), ctx)?;
        thrown.set(key_e(), JsValue::undefined(), false, ctx)?;
        return Err(JsError::from_opaque(e));
    }
    Ok(result)
}
