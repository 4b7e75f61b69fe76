//! The DOM pieces streams need and Boa lacks: `DOMException`, `Event`, `EventTarget`,
//! `AbortController`, `AbortSignal`.
//!
//! CONTRACT: the Rust API below is what the streams modules (WritableStream's
//! `controller.signal`, pipeTo's `signal` option) build on. Signatures are fixed; bodies are
//! being written.

use boa_engine::{object::builtins::JsFunction, Context, JsObject, JsResult, JsValue};

/// Register `DOMException`, `Event`, `EventTarget`, `AbortController`, `AbortSignal`.
pub(crate) fn register(_context: &mut Context) -> JsResult<()> {
    Ok(())
}

/// Create a `DOMException` object with `message` and `name` (e.g. "AbortError").
pub fn create_dom_exception(message: &str, name: &str, context: &mut Context) -> JsResult<JsValue> {
    let _ = (message, name, context);
    todo!()
}

/// Create a new, non-aborted `AbortSignal` (the one an `AbortController` would own).
pub fn create_abort_signal(context: &mut Context) -> JsResult<JsObject> {
    let _ = context;
    todo!()
}

/// Whether `value` is an `AbortSignal` (brand check, no JS runs).
pub fn is_abort_signal(value: &JsValue) -> bool {
    let _ = value;
    todo!()
}

/// `signal`'s aborted flag (false if `signal` is not an AbortSignal).
pub fn is_aborted(signal: &JsObject) -> bool {
    let _ = signal;
    todo!()
}

/// `signal`'s abort reason (undefined if not aborted).
pub fn abort_reason(signal: &JsObject) -> JsValue {
    let _ = signal;
    todo!()
}

/// [signal abort](https://dom.spec.whatwg.org/#abortsignal-signal-abort): sets the reason
/// (`undefined` → a new "AbortError" DOMException), runs the abort algorithms in order, then
/// fires `abort` synchronously, then the dependent signals.
pub fn signal_abort(signal: &JsObject, reason: JsValue, context: &mut Context) -> JsResult<()> {
    let _ = (signal, reason, context);
    todo!()
}

/// An abort algorithm's handle, to remove it later.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AbortAlgorithmId(pub u64);

/// [add](https://dom.spec.whatwg.org/#abortsignal-add) an abort algorithm: `algorithm` is
/// called with no arguments (this = undefined) when the signal aborts, before the `abort`
/// event fires. No-op (returns an id that removes nothing) if already aborted.
pub fn add_abort_algorithm(signal: &JsObject, algorithm: JsFunction) -> AbortAlgorithmId {
    let _ = (signal, algorithm);
    todo!()
}

/// [remove](https://dom.spec.whatwg.org/#abortsignal-remove) an abort algorithm.
pub fn remove_abort_algorithm(signal: &JsObject, id: AbortAlgorithmId) {
    let _ = (signal, id);
    todo!()
}
