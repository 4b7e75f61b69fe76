//! HTML's operations for the Streams Standard's owning streams (experimental): the
//! [`boa_streams::OwningHooks`] with which an owning `ReadableStream` clones and transfers its
//! chunks (structured serialization) and disposes of a chunk it drops unread (a
//! `MessagePort` is closed).

use boa_engine::{Context, JsObject, JsResult, JsValue};

use crate::{message, structured_clone};

/// [StructuredTransferOrClone](https://streams.spec.whatwg.org/#abstract-opdef-structuredtransferorclone)
/// for owning streams.
fn owning_transfer_or_clone(
    value: &JsValue,
    transfer_list: &[JsObject],
    ctx: &mut Context,
) -> JsResult<JsValue> {
    structured_clone::structured_transfer_or_clone(value, transfer_list, ctx)
}

/// The dispose steps of a chunk an owning stream drops unread. The proposal leaves dispose
/// steps to the chunk's own interface (VideoFrame's are its `close()`). Of this crate's
/// objects only `MessagePort` has any: the port is closed (disentangled), since nothing can
/// reach a port the stream owned once the stream drops it. Other chunks have none.
fn owning_dispose(chunk: &JsValue, ctx: &mut Context) {
    if let Some(port) = chunk
        .as_object()
        .filter(|_| message::is_message_port(chunk))
    {
        message::message_port_close(&port, ctx);
    }
}

/// Install the owning streams' hooks on `context`.
pub(crate) fn install(context: &mut Context) {
    boa_streams::set_owning_hooks(
        context,
        boa_streams::OwningHooks {
            structured_transfer_or_clone: owning_transfer_or_clone,
            dispose: owning_dispose,
        },
    );
}
