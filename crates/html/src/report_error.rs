//! HTML's [`reportError(e)`](https://html.spec.whatwg.org/multipage/webappapis.html#dom-reporterror):
//! a global operation that reports `e` as an uncaught exception would be (through boa_dom's
//! exception reporter, which the host sets).

use boa_engine::{property::PropertyDescriptor, Context, JsResult, JsValue, NativeFunction};
use boa_webidl::{self as webidl, arg, js_key, type_error};

/// [`reportError(e)`](https://html.spec.whatwg.org/multipage/webappapis.html#dom-reporterror)
fn report_error(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    if args.is_empty() {
        return Err(type_error(
            "Failed to execute 'reportError': 1 argument required, but only 0 present.",
        ));
    }
    // The reportError(e) method steps are to report an exception e for this.
    boa_dom::report_exception_value(arg(args, 0), ctx);
    Ok(JsValue::undefined())
}

/// Install the global operation `reportError(e)`.
pub(crate) fn register(ctx: &mut Context) -> JsResult<()> {
    let f = webidl::function(
        ctx,
        "reportError",
        1,
        NativeFunction::from_fn_ptr(report_error),
    );
    ctx.global_object().define_property_or_throw(
        js_key!("reportError"),
        PropertyDescriptor::builder()
            .value(f)
            .writable(true)
            .enumerable(true)
            .configurable(true),
        ctx,
    )?;
    Ok(())
}
