//! The library's errors: the spec's TypeError and RangeError, WebIDL's argument-count check,
//! [`Caught`] (an exception of user code the library caught), and engine errors made catchable.

use boa_engine::{Context, JsError, JsNativeError, JsResult, JsValue};

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

/// An exception the library caught from user code, as the JS value that was thrown.
///
/// Only [`catching`](crate::catching) constructs one, so every path that turns an exception of user code
/// into a rejection reason or a stream error goes through it (and so runs the user code
/// inside the JS trampoline that keeps the engine's operand stack intact). The library's own
/// errors become values with [`new_error`] / [`type_error_value`], which take a
/// [`JsNativeError`] (no user code ran), never a [`JsError`].
#[derive(Debug, Clone)]
pub struct Caught(pub(crate) JsValue);

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
/// exception already caught by [`catching`](crate::catching) and propagated as its value. No nested JS frame
/// can have thrown it uncaught, so it needs no trampoline. Anything that can run user code (a
/// getter, `valueOf`/`toString`, a callback) goes through [`catching`](crate::catching) instead.
#[inline]
pub fn own_error_value(error: JsError, ctx: &mut Context) -> JsValue {
    caught_from_error(error, ctx).into_value()
}

/// A JS error for an engine error (uncatchable in Boa: runtime limits, internal panics), as
/// other engines report it: the recursion and value-stack limits are a RangeError "Maximum
/// call stack size exceeded". Catchable errors are returned unchanged.
pub(crate) fn catchable(error: JsError) -> JsError {
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
pub(crate) fn caught_from_error(error: JsError, ctx: &mut Context) -> Caught {
    match catchable(error).into_opaque(ctx) {
        Ok(v) => Caught(v),
        Err(_) => Caught(type_error_value("uncaught engine error", ctx)),
    }
}
