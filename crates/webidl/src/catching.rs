//! Running user code whose exception the library catches (engine bug native-catch-stack):
//! [`Caught`], [`catching`] and the realm's call trampoline, and the errors the library makes.

use crate::convert::key;
use crate::error::{catchable, caught_from_error, new_error, type_error, Caught};
use crate::interface::function;
use crate::js_key;
use boa_engine::object::builtins::JsFunction;
use boa_engine::{object::JsObject, Context, JsNativeError, JsResult, JsValue, NativeFunction};
use std::cell::{Cell, RefCell};

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
pub(crate) struct LimitsRegion {
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
pub(crate) fn raise_limits(ctx: &mut Context) -> LimitsRegion {
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

pub(crate) fn end_region(ctx: &mut Context, region: LimitsRegion) {
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
