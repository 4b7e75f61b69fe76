//! The transferable platform objects of this crate, together: `MessagePort` (`message`) and
//! the streams (`transfer_streams`), as the [`PlatformTransfer`] that structured
//! serialization consults.

use boa_engine::{Context, JsObject, JsResult};

use crate::records::PlatformHolder;
use crate::transfer::{set_platform_transfer, PlatformTransfer, TransferSteps};
use crate::{message, transfer_streams};

/// The transfer steps of `object`'s interface, if it is a transferable platform object.
fn transfer_steps_of(object: &JsObject) -> Option<TransferSteps> {
    message::port_transfer_steps_of(object).or_else(|| transfer_streams::transfer_steps_of(object))
}

/// The transfer-receiving steps of the holder's interface: a new object in the current realm.
fn transfer_receiving_steps(holder: PlatformHolder, ctx: &mut Context) -> JsResult<JsObject> {
    match holder {
        PlatformHolder::MessagePort(port) => message::receive_port(port, ctx),
        other => transfer_streams::transfer_receiving_steps(other, ctx),
    }
}

/// Make `MessagePort`, `ReadableStream`, `WritableStream` and `TransformStream` transferable
/// in `ctx`.
pub(crate) fn register(ctx: &mut Context) {
    set_platform_transfer(
        ctx,
        PlatformTransfer {
            transfer_steps_of,
            transfer_receiving_steps,
        },
    );
}
