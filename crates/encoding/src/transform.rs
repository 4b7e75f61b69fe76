//! What `TextDecoderStream` and `TextEncoderStream` share as
//! [GenericTransformStream](https://streams.spec.whatwg.org/#generictransformstream)s set up
//! from Rust: the object their transform algorithms were set up with, and enqueueing into
//! their transform.

use boa_engine::{Context, JsObject, JsResult, JsValue};

use boa_streams::spec::{
    transform_stream_default_controller_enqueue, TransformStreamDefaultController,
};
use boa_webidl::type_error;

/// The decoder or encoder a transform stream's Rust algorithms were set up with.
pub(crate) fn state_as<T: boa_engine::NativeObject>(state: &JsValue) -> JsResult<JsObject<T>> {
    state
        .as_object()
        .and_then(|o| o.clone().downcast::<T>().ok())
        .ok_or_else(|| type_error("transform state is not the expected stream"))
}

/// [Enqueue](https://streams.spec.whatwg.org/#transformstream-enqueue) `chunk` into the
/// `TransformStream` whose controller is `controller`.
pub(crate) fn enqueue(
    controller: &JsObject<TransformStreamDefaultController>,
    chunk: JsValue,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. Perform ? TransformStreamDefaultControllerEnqueue(stream.[[controller]], chunk).
    transform_stream_default_controller_enqueue(controller, chunk, ctx)
}
