//! What the owning type (experimental, whatwg/streams#1271) needs from HTML, as a hook.
//!
//! An owning stream's controller stores a
//! [StructuredTransferOrClone](https://streams.spec.whatwg.org/#abstract-opdef-structuredtransferorclone)
//! of each chunk, its `tee()` clones chunks for the second branch, and chunks dropped unread
//! run their dispose steps. Structured serialization and `MessagePort` belong to HTML, a
//! crate above this one (`boa_html`), so HTML installs [`OwningHooks`] on the context when it
//! is registered. Without them an owning stream can hold no chunk: the clone throws a
//! "DataCloneError" `DOMException` saying structured clone is not registered (the error the
//! operation throws for a value it cannot clone), and dispose does nothing (no interface
//! with dispose steps exists without HTML).

use boa_engine::{Context, JsObject, JsResult, JsValue};

/// HTML's operations an owning stream calls (installed with [`set_owning_hooks`]).
#[derive(Debug, Clone, Copy)]
pub struct OwningHooks {
    /// [StructuredTransferOrClone](https://streams.spec.whatwg.org/#abstract-opdef-structuredtransferorclone)(value,
    /// transferList): a structured clone of `value` in the current realm with the objects of
    /// the list transferred.
    pub structured_transfer_or_clone:
        fn(value: &JsValue, transfer_list: &[JsObject], ctx: &mut Context) -> JsResult<JsValue>,
    /// The dispose steps of a chunk an owning stream drops unread (a `MessagePort` is
    /// closed; other chunks have none).
    pub dispose: fn(chunk: &JsValue, ctx: &mut Context),
}

/// Install HTML's operations for owning streams on `context` (`boa_html::register` does).
///
/// ```
/// use boa_engine::{Context, JsValue};
/// use boa_streams::{set_owning_hooks, OwningHooks};
///
/// let mut context = Context::default();
/// boa_streams::register(&mut context).unwrap();
/// set_owning_hooks(
///     &mut context,
///     OwningHooks {
///         // Clones nothing: every chunk is kept as it is (an embedder's own policy).
///         structured_transfer_or_clone: |value, _transfer, _ctx| Ok(value.clone()),
///         dispose: |_chunk, _ctx| {},
///     },
/// );
/// let kept = context
///     .eval(boa_engine::Source::from_bytes(
///         "let c; new ReadableStream({ type: 'owning', start(x) { c = x; } }); \
///          c.enqueue('chunk'); c.desiredSize",
///     ))
///     .unwrap();
/// assert_eq!(kept, JsValue::from(0));
/// ```
pub fn set_owning_hooks(context: &mut Context, hooks: OwningHooks) {
    context.insert_data(hooks);
}

/// StructuredTransferOrClone through the installed hook.
pub(crate) fn structured_transfer_or_clone(
    value: &JsValue,
    transfer_list: &[JsObject],
    ctx: &mut Context,
) -> JsResult<JsValue> {
    match ctx.get_data::<OwningHooks>().copied() {
        Some(hooks) => (hooks.structured_transfer_or_clone)(value, transfer_list, ctx),
        None => Err(boa_engine::JsError::from_opaque(
            boa_webidl::create_dom_exception(
                "The chunk could not be cloned: structured clone (boa_html) is not registered",
                "DataCloneError",
                ctx,
            )?,
        )),
    }
}

/// The dispose steps of `chunk` through the installed hook (none without one).
pub(crate) fn dispose(chunk: &JsValue, ctx: &mut Context) {
    if let Some(hooks) = ctx.get_data::<OwningHooks>().copied() {
        (hooks.dispose)(chunk, ctx);
    }
}
