//! `pipeTo()` / `pipeThrough()` entry points.
//!
//! PLACEHOLDER for the pipeTo engineer: the operations are installed on
//! `ReadableStream.prototype` with their WebIDL shapes (name, length, enumerable); replace the
//! bodies of [`pipe_to`] and [`pipe_through`] (this file is yours). Building blocks:
//! [`super::acquire_readable_stream_default_reader`],
//! [`super::readable_stream_default_reader_read`] with [`super::ReadRequest::Pipe`],
//! [`super::readable_stream_cancel`] (a [`super::Completion`]),
//! [`super::readable_stream_default_reader_release`], [`super::ReadableStream::state`],
//! [`super::ReadableStream::set_disturbed`], [`super::ReadableStreamDefaultReader::closed_promise`].

use boa_engine::{Context, JsResult, JsValue};

use super::{rejected, ReadableStream};
use crate::webidl::{brand, type_error};

/// [pipeTo(destination, options)](https://streams.spec.whatwg.org/#rs-pipe-to)
pub(crate) fn pipe_to(this: &JsValue, _args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    if let Err(e) = brand::<ReadableStream>(this, "ReadableStream") {
        return Ok(rejected(e, ctx));
    }
    // NOTE: not implemented yet (needs WritableStream).
    Ok(rejected(
        type_error("ReadableStream.prototype.pipeTo is not implemented yet"),
        ctx,
    ))
}

/// [pipeThrough(transform, options)](https://streams.spec.whatwg.org/#rs-pipe-through)
pub(crate) fn pipe_through(
    this: &JsValue,
    _args: &[JsValue],
    _ctx: &mut Context,
) -> JsResult<JsValue> {
    brand::<ReadableStream>(this, "ReadableStream")?;
    // NOTE: not implemented yet (needs WritableStream).
    Err(type_error(
        "ReadableStream.prototype.pipeThrough is not implemented yet",
    ))
}
