//! Helpers shared by the unit tests: a context with every interface registered (plus a global
//! `gc()` that forces a collection), and script evaluation that panics with the script's
//! exception.

use boa_engine::{js_string, Context, JsValue, NativeFunction, Source};

/// A context with boa_streams registered and a global `gc()`.
pub(crate) fn context() -> Context {
    let mut ctx = Context::default();
    crate::register(&mut ctx).unwrap();
    ctx.register_global_builtin_callable(
        js_string!("gc"),
        0,
        NativeFunction::from_fn_ptr(|_, _, _| {
            boa_gc::force_collect();
            Ok(JsValue::undefined())
        }),
    )
    .unwrap();
    ctx
}

/// Evaluate `src`; panic with the exception if it throws.
pub(crate) fn eval(ctx: &mut Context, src: &str) -> JsValue {
    match ctx.eval(Source::from_bytes(src)) {
        Ok(v) => v,
        Err(e) => panic!("script failed: {e}\n{src}"),
    }
}

/// Evaluate `src` and convert the result with `ToString`.
pub(crate) fn string(ctx: &mut Context, src: &str) -> String {
    let v = eval(ctx, src);
    v.to_string(ctx).unwrap().to_std_string_escaped()
}
