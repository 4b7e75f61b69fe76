//! `ReadableStreamBYOBRequest` ([spec](https://streams.spec.whatwg.org/#rs-byob-request-class)):
//! the interface. Its slots ([`ReadableStreamBYOBRequest`]) live with the controller that
//! creates and invalidates it (`byte_controller`).

use boa_engine::{
    class::{Class, ClassBuilder},
    object::builtins::JsArrayBuffer,
    object::builtins::JsTypedArray,
    property::Attribute,
    Context, JsObject, JsResult, JsValue,
};

use super::buffers::{is_detached_buffer, to_array_buffer_view};
use super::byte_controller::{
    readable_byte_stream_controller_respond, readable_byte_stream_controller_respond_with_new_view,
    ReadableStreamBYOBRequest,
};
use boa_webidl::{
    self as webidl, arg, brand, illegal_constructor, to_enforce_range_u64, type_error, Member,
    INTERFACE_ATTRIBUTES,
};

fn view_buffer(view: &JsObject, ctx: &mut Context) -> JsResult<JsArrayBuffer> {
    let ta = JsTypedArray::from_object(view.clone())?;
    let buffer = ta.buffer(ctx)?;
    buffer
        .as_object()
        .and_then(|o| JsArrayBuffer::from_object(o.clone()).ok())
        .ok_or_else(|| type_error("The BYOB request's view has no ArrayBuffer"))
}

/// The interface's identifier.
const NAME: &str = "ReadableStreamBYOBRequest";

/// [view](https://streams.spec.whatwg.org/#rs-byob-request-view)
fn view(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let r = brand::<ReadableStreamBYOBRequest>(this, NAME)?;
    // 1. Return this.[[view]].
    let view = r.borrow().data().view();
    Ok(view.map_or(JsValue::null(), JsValue::from))
}

/// [respond(bytesWritten)](https://streams.spec.whatwg.org/#rs-byob-request-respond)
fn respond(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let r = brand::<ReadableStreamBYOBRequest>(this, NAME)?;
    // IDL layer: `[EnforceRange] unsigned long long bytesWritten`.
    let bytes_written = to_enforce_range_u64(&arg(args, 0), "bytesWritten", ctx)?;
    // 1. If this.[[controller]] is undefined, throw a TypeError exception.
    let (controller, view) = {
        let b = r.borrow();
        (b.data().controller(), b.data().view())
    };
    let (Some(controller), Some(view)) = (controller, view) else {
        return Err(type_error("This BYOB request has been invalidated"));
    };
    // 2. If ! IsDetachedBuffer(this.[[view]].[[ArrayBuffer]]) is true, throw a
    //    TypeError exception.
    if is_detached_buffer(&view_buffer(&view, ctx)?) {
        return Err(type_error("The BYOB request's buffer is detached"));
    }
    // 3. Assert: this.[[view]].[[ByteLength]] > 0.
    // 4. Assert: this.[[view]].[[ViewedArrayBuffer]].[[ByteLength]] > 0.
    // 5. Perform ? ReadableByteStreamControllerRespond(this.[[controller]],
    //    bytesWritten).
    readable_byte_stream_controller_respond(&controller, bytes_written, ctx)?;
    Ok(JsValue::undefined())
}

/// [respondWithNewView(view)](https://streams.spec.whatwg.org/#rs-byob-request-respond-with-new-view)
fn respond_with_new_view(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let r = brand::<ReadableStreamBYOBRequest>(this, NAME)?;
    // IDL layer: `ArrayBufferView view`.
    let view = to_array_buffer_view(&arg(args, 0), "view", ctx)?;
    // 1. If this.[[controller]] is undefined, throw a TypeError exception.
    let Some(controller) = r.borrow().data().controller() else {
        return Err(type_error("This BYOB request has been invalidated"));
    };
    // 2. If ! IsDetachedBuffer(view.[[ViewedArrayBuffer]]) is true, throw a
    //    TypeError exception.
    if is_detached_buffer(&view.buffer) {
        return Err(type_error("The view's buffer is detached"));
    }
    // 3. Return ? ReadableByteStreamControllerRespondWithNewView(
    //    this.[[controller]], view).
    readable_byte_stream_controller_respond_with_new_view(&controller, &view, ctx)?;
    Ok(JsValue::undefined())
}

impl Class for ReadableStreamBYOBRequest {
    const NAME: &'static str = "ReadableStreamBYOBRequest";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(
            class,
            &[
                Member::attribute("view", view),
                Member::operation("respond", 1, respond),
                Member::operation("respondWithNewView", 1, respond_with_new_view),
                Member::to_string_tag(NAME),
            ],
        )
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        Err(illegal_constructor())
    }
}
