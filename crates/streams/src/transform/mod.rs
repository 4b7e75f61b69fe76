//! Transform streams ([spec §6](https://streams.spec.whatwg.org/#ts)): `TransformStream` and
//! `TransformStreamDefaultController`.
//!
//! The writable side's sink algorithms are a [`TransformSink`] (a
//! [`SinkSteps`](crate::writable::SinkSteps): writable/ does not know transform streams) and
//! the readable side's source algorithms are [`SourceAlgorithms::Rust`], dispatching to the
//! `TransformStreamDefaultSink*` / `TransformStreamDefaultSource*` operations below, no
//! closures. Internal promises (`[[backpressureChangePromise]]`, `[[finishPromise]]`, the
//! results of the sink algorithms) are Rust-side [`RustPromise`]s: script never sees them, and
//! their reactions run at the microtask positions JS promise reactions would take.
//!
//! Sync fast path ([`crate::fast_paths`]): a transformer's `transform()` / `flush()` /
//! `cancel()` returning a non-object (or throwing) yields an already-settled [`Completion`]
//! (no promise allocated); the reaction to it is a native microtask at the position of the
//! spec's reaction to "a promise resolved with" that value.

mod controller;
mod sink;
mod source;
mod stream;
#[cfg(test)]
mod tests;

pub use controller::*;
pub use sink::*;
pub use source::*;
pub use stream::*;

use std::cell::Cell;

use boa_engine::{
    class::{Class, ClassBuilder},
    property::Attribute,
    Context, JsData, JsError, JsObject, JsResult, JsValue,
};
use boa_gc::{Finalize, Gc, GcRefCell, Trace};

use crate::readable::{
    create_readable_stream, readable_stream_default_controller_can_close_or_enqueue,
    readable_stream_default_controller_close, readable_stream_default_controller_enqueue_native,
    readable_stream_default_controller_error, readable_stream_default_controller_get_desired_size,
    readable_stream_default_controller_has_backpressure, Completion, ReadableStream,
    ReadableStreamDefaultController, RustPromise, RustSource, SourceAlgorithms, StartAlgorithm,
    StreamController, StreamState,
};
use crate::strategies::{
    extract_high_water_mark, extract_size_algorithm, QueuingStrategy, SizeAlgorithm,
};
use crate::writable::{
    create_writable_stream_with_start, writable_stream_default_controller_error_if_needed,
    SinkAlgorithms, WritableStreamRef, WritableStreamState,
};
use boa_webidl::promise::{
    invoke_promise_callback, promise_resolved_with, react, PromiseCapability,
};
use boa_webidl::{
    self as webidl, arg, brand, illegal_constructor, range_error, type_error, Dictionary, Member,
    INTERFACE_ATTRIBUTES,
};

/// Register `TransformStream` and `TransformStreamDefaultController`.
pub(crate) fn register(context: &mut Context) -> JsResult<()> {
    webidl::register_interface::<TransformStream>(context)?;
    webidl::register_interface::<TransformStreamDefaultController>(context)?;
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Slot accessors shared by the files of this module
// ---------------------------------------------------------------------------------------

fn ts<R>(stream: &JsObject<TransformStream>, f: impl FnOnce(&TransformStream) -> R) -> R {
    f(stream.borrow().data())
}

/// Whether `stream.[[controller]]` is set (SetUpTransformStreamDefaultController ran; a
/// transferred stream has none).
fn has_controller(stream: &JsObject<TransformStream>) -> bool {
    ts(stream, |s| s.has_controller.get())
}

/// The controller's JS object, if it was made (see `set_up_transform_stream_default_controller`).
fn controller_object(
    stream: &JsObject<TransformStream>,
) -> Option<JsObject<TransformStreamDefaultController>> {
    ts(stream, |s| s.controller.borrow().clone())
}

fn readable_of(stream: &JsObject<TransformStream>) -> Option<JsObject<ReadableStream>> {
    ts(stream, TransformStream::readable)
}

fn writable_of(stream: &JsObject<TransformStream>) -> Option<WritableStreamRef> {
    ts(stream, TransformStream::writable_slots)
}

/// `stream.[[readable]].[[controller]]`.
fn readable_controller_of(
    stream: &JsObject<TransformStream>,
) -> Option<JsObject<ReadableStreamDefaultController>> {
    let readable = readable_of(stream)?;
    let controller = readable.borrow().data().controller();
    controller.and_then(StreamController::into_default)
}

fn readable_state_and_error(stream: &JsObject<TransformStream>) -> (StreamState, JsValue) {
    readable_of(stream).map_or((StreamState::Closed, JsValue::undefined()), |r| {
        let b = r.borrow();
        (b.data().state(), b.data().stored_error())
    })
}

fn controller_stream(c: &JsObject<TransformStreamDefaultController>) -> JsObject<TransformStream> {
    c.borrow().data().stream.clone()
}

/// `stream.[[controller]]`'s `[[transformAlgorithm]]`, `[[flushAlgorithm]]` and
/// `[[cancelAlgorithm]]` (`None` once cleared, or without a controller).
fn stream_algorithms(stream: &JsObject<TransformStream>) -> Option<TransformerAlgorithms> {
    ts(stream, |s| s.algorithms.borrow().clone())
}
