//! Calling the resolving functions of a JS promise when no user code can run, and `Get(object,
//! "then")` for callers that catch (the promise vocabulary is [`crate::promise`]).

use crate::catching::{catching, end_region, get_catching, raise_limits};
use crate::convert::{key, plain_data_lookup};
use crate::error::{caught_from_error, Caught};
use boa_engine::{object::JsObject, property::PropertyKey, Context, JsString, JsValue};

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
