//! [Report an exception](https://html.spec.whatwg.org/multipage/webappapis.html#report-an-exception):
//! the DOM reports what event listeners and abort algorithms throw (it must not reach the
//! dispatcher), through a hook the host sets.

use std::cell::Cell;

use boa_engine::{Context, JsValue};

/// The host hook that receives reported exceptions.
pub type ExceptionReporter = fn(JsValue, &mut Context);

thread_local! {
    static EXCEPTION_REPORTER: Cell<Option<ExceptionReporter>> = const { Cell::new(None) };
}

/// Set the hook that receives exceptions the DOM "reports" (thrown by event listeners and
/// abort algorithms, which must not propagate to the dispatcher). Thread-local; the default
/// ignores them.
pub fn set_exception_reporter(reporter: ExceptionReporter) {
    EXCEPTION_REPORTER.with(|r| r.set(Some(reporter)));
}

/// [Report an exception](https://html.spec.whatwg.org/multipage/webappapis.html#report-an-exception)
/// through the hook set by [`set_exception_reporter`].
pub fn report_exception(error: boa_webidl::Caught, context: &mut Context) {
    report_exception_value(error.into_value(), context);
}

/// [Report an exception](https://html.spec.whatwg.org/multipage/webappapis.html#report-an-exception)
/// `value` that no library code caught (HTML's `reportError(e)` hands script's value over)
/// through the hook set by [`set_exception_reporter`].
///
/// ```
/// let mut context = boa_engine::Context::default();
/// boa_dom::report_exception_value(boa_engine::JsValue::from(1), &mut context);
/// ```
pub fn report_exception_value(value: JsValue, context: &mut Context) {
    if let Some(reporter) = EXCEPTION_REPORTER.with(Cell::get) {
        reporter(value, context);
    }
}
