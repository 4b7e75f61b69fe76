//! The interface between structured serialization and the
//! [transferable](https://html.spec.whatwg.org/multipage/structured-data.html#transferable-objects)
//! platform objects (`MessagePort`, `ReadableStream`, `WritableStream`, `TransformStream`):
//! their transfer steps and transfer-receiving steps.
//!
//! Those interfaces stand above the serializer (a port posts messages with it; a stream's
//! transfer steps ship a port), so the serializer reaches them only through the
//! [`PlatformTransfer`] installed on the context by [`crate::register`].

use boa_engine::{Context, JsObject, JsResult};

use crate::records::PlatformHolder;

/// The [transfer steps](https://html.spec.whatwg.org/multipage/structured-data.html#transfer-steps)
/// of an interface, run on `value` (they also set its \[\[Detached\]\]): its data holder.
pub(crate) type TransferSteps = fn(value: &JsObject, ctx: &mut Context) -> JsResult<PlatformHolder>;

/// The transferable platform interfaces, as structured serialization sees them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PlatformTransfer {
    /// The transfer steps of `object`'s interface, if `object` is a transferable platform
    /// object (the check of StructuredSerializeWithTransfer step 2.1; the steps run at 5.5).
    pub(crate) transfer_steps_of: fn(object: &JsObject) -> Option<TransferSteps>,
    /// The [transfer-receiving steps](https://html.spec.whatwg.org/multipage/structured-data.html#transfer-receiving-steps)
    /// of the holder's interface: a new object in the current realm.
    pub(crate) transfer_receiving_steps:
        fn(holder: PlatformHolder, ctx: &mut Context) -> JsResult<JsObject>,
}

/// Install the transferable platform interfaces on `ctx`.
pub(crate) fn set_platform_transfer(ctx: &mut Context, transfer: PlatformTransfer) {
    ctx.insert_data(transfer);
}

/// The transfer steps of `object`, if it is a transferable platform object of `ctx`.
pub(crate) fn transfer_steps_of(object: &JsObject, ctx: &Context) -> Option<TransferSteps> {
    (ctx.get_data::<PlatformTransfer>()?.transfer_steps_of)(object)
}

/// The transfer-receiving steps for `holder`.
pub(crate) fn transfer_receiving_steps(
    holder: PlatformHolder,
    ctx: &mut Context,
) -> JsResult<JsObject> {
    let Some(transfer) = ctx.get_data::<PlatformTransfer>().copied() else {
        return Err(boa_webidl::type_error(
            "The transferable platform objects are not registered",
        ));
    };
    (transfer.transfer_receiving_steps)(holder, ctx)
}
