//! A failed operation as the specification reports it: the name of the `DOMException` (or
//! `TypeError`) and a message, and its JavaScript value.

use boa_engine::{Context, JsError, JsValue};
use boa_webidl as webidl;

/// A failed operation: the name of the `DOMException` the spec throws and a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Failure {
    /// The DOMException name (`OperationError`, `DataError`, ...), or `TypeError` for a
    /// TypeError.
    pub(crate) name: &'static str,
    /// What went wrong.
    pub(crate) message: String,
}

impl Failure {
    pub(crate) fn new(name: &'static str, message: impl Into<String>) -> Self {
        Self {
            name,
            message: message.into(),
        }
    }
    pub(crate) fn operation(message: impl Into<String>) -> Self {
        Self::new("OperationError", message)
    }
    pub(crate) fn data(message: impl Into<String>) -> Self {
        Self::new("DataError", message)
    }
    pub(crate) fn not_supported(message: impl Into<String>) -> Self {
        Self::new("NotSupportedError", message)
    }
    pub(crate) fn invalid_access(message: impl Into<String>) -> Self {
        Self::new("InvalidAccessError", message)
    }
    pub(crate) fn syntax(message: impl Into<String>) -> Self {
        Self::new("SyntaxError", message)
    }
}

/// The result of an operation.
pub(crate) type Outcome<T> = Result<T, Failure>;

/// The JS value of a failure: a DOMException of its name (a TypeError for "TypeError").
pub(crate) fn failure_value(failure: &Failure, ctx: &mut Context) -> JsValue {
    if failure.name == "TypeError" {
        return webidl::type_error_value(failure.message.clone(), ctx);
    }
    match webidl::create_dom_exception(&failure.message, failure.name, ctx) {
        Ok(v) => v,
        Err(e) => webidl::own_error_value(e, ctx),
    }
}

/// A failure thrown from the synchronous steps (it rejects the promise at once).
pub(crate) fn throw(failure: Failure, ctx: &mut Context) -> JsError {
    JsError::from_opaque(failure_value(&failure, ctx))
}

/// A `DOMException` named `name` as an error to throw.
pub(crate) fn dom_exception(message: &str, name: &str, ctx: &mut Context) -> JsError {
    match webidl::create_dom_exception(message, name, ctx) {
        Ok(v) => JsError::from_opaque(v),
        Err(e) => e,
    }
}
