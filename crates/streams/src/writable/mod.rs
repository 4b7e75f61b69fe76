//! Writable streams ([spec §5](https://streams.spec.whatwg.org/#ws)): `WritableStream`,
//! `WritableStreamDefaultWriter`, `WritableStreamDefaultController`.
//!
//! # Internal API (for pipeTo and TransformStream; embedders use `native`)
//!
//! State lives in GC boxes, not in the JS objects: a stream and its controller share one
//! [`WritableStreamSlots`] box ([`WritableStreamRef`]); a writer is a [`WriterSlots`] box
//! ([`WriterRef`]). A writer acquired from Rust has no JS object at all. Get the box of a JS
//! `WritableStream` with [`WritableStream::slots_of`].
//!
//! Operations are named as the spec names them, each in the file of the interface the spec
//! groups it with (`stream.rs`, `writer.rs`, `controller.rs`; sink algorithms in `sink.rs`):
//!
//! - [`create_writable_stream`]`(algorithms, hwm, size)`: CreateWritableStream with
//!   [`SinkAlgorithms`] (`Js` underlying sink, `Native` (a Rust [`NativeSink`]: an
//!   embedder's, or a TransformStream's writable side)). Returns the JS
//!   stream object and its slots.
//! - [`acquire_writable_stream_default_writer`]`(stream) -> WriterRef`.
//! - [`writable_stream_default_writer_write`]`(writer, chunk, request)`: the request's promise
//!   is a [`Reaction`]: `Reaction::Promise` (a JS promise capability script holds) or
//!   `Reaction::Steps` (`fn` steps + traced captures, run as a microtask where a reaction to
//!   the spec's promise would run; no JS promise allocated).
//! - [`writable_stream_default_writer_close_with_error_propagation`]`(writer, completion)`,
//!   [`writable_stream_default_writer_close`], [`writable_stream_close`].
//! - [`writable_stream_abort`]`(stream, reason, AbortWaiter::{Js, Native})`: returns the
//!   (shared) JS promise for `Js`, settles the native completion otherwise.
//! - [`writable_stream_close_queued_or_in_flight`], [`is_writable_stream_locked`],
//!   [`WritableStreamSlots::state`] / [`WritableStreamSlots::stored_error`].
//! - [`writable_stream_default_writer_get_desired_size`] (`None` = null).
//! - Writer's ready / closed from Rust: [`writable_stream_default_writer_ready_state`],
//!   the writer's `[[closedPromise]]` slot (`None` while pending), and
//!   [`writable_stream_default_writer_upon_ready`] / [`writable_stream_default_writer_upon_closed`]
//!   (register a [`Reaction`] on the current promise, no JS promise allocated).
//! - [`writable_stream_default_writer_release`].
//! - [`writable_stream_default_controller_error_if_needed`],
//!   [`writable_stream_default_controller_error`],
//!   [`writable_stream_default_controller_get_desired_size`].
//!
//! Promises script can see (`writer.closed`, `writer.ready`, the results of `write()`,
//! `close()`, `abort()`) are real JS promises; `closed`/`ready` are materialised on first read
//! (see [`PromiseSlot`]). Sink results are
//! [`Completion`]s (settled, a JS promise, or a Rust promise);
//! requests are settled through their [`Reaction`]. With the fast paths on
//! ([`crate::fast_paths`]) a sink method returning a non-object (or throwing) settles through
//! one native microtask at the exact position of the spec's promise reaction.

mod controller;
mod sink;
mod stream;
#[cfg(test)]
mod tests;
mod writer;

pub use crate::strategies::SizeAlgorithm;
pub use controller::*;
pub use sink::{JsSink, NativeSink, SinkAlgorithms};
pub(crate) use sink::{SinkSteps, SinkWrite};
pub use stream::*;
pub use writer::*;

use std::cell::Cell;
use std::collections::VecDeque;

use boa_engine::{
    class::{Class, ClassBuilder},
    Context, JsData, JsNativeError, JsObject, JsResult, JsValue,
};
use boa_gc::{Finalize, Gc, GcRefCell, Trace};

use crate::chunk::Chunk;
use crate::queue::QueueWithSizes;
use boa_webidl::promise::{
    promise_from_own_result, promise_rejected_with, promise_resolved_with, Completion,
    PromiseCapability, PromiseSlot, Reaction, Settlement,
};
use boa_webidl::{
    self as webidl, arg, illegal_constructor, type_error, Dictionary, Member, INTERFACE_ATTRIBUTES,
};

/// Register `WritableStream`, `WritableStreamDefaultWriter`, `WritableStreamDefaultController`.
pub(crate) fn register(context: &mut Context) -> JsResult<()> {
    webidl::register_interface::<WritableStream>(context)?;
    webidl::register_interface::<WritableStreamDefaultWriter>(context)?;
    webidl::register_interface::<WritableStreamDefaultController>(context)?;
    Ok(())
}

fn rejected_type_error(message: &str, ctx: &mut Context) -> JsValue {
    let e = boa_webidl::type_error_value(message, ctx);
    promise_rejected_with(e, ctx).into()
}

fn type_error_value(message: &str, ctx: &mut Context) -> JsValue {
    boa_webidl::type_error_value(message, ctx)
}
