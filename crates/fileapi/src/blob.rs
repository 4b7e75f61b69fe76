//! The [`Blob`](https://w3c.github.io/FileAPI/#blob-section) interface: its members,
//! [get stream](https://w3c.github.io/FileAPI/#blob-get-stream) as a native byte source, and
//! slice blob.

use std::cell::RefCell;

use boa_engine::{
    class::{Class, ClassBuilder},
    property::Attribute,
    Context, JsObject, JsResult, JsString, JsValue,
};
use boa_gc::{Finalize, Trace};

use boa_streams::native::{
    native_readable_byte_stream, ByteController, ByteSource, ByteStreamOptions,
};
use boa_streams::spec::ReadableStream;
use boa_webidl::promise::Completion;
use boa_webidl::{self as webidl, arg, Member, INTERFACE_ATTRIBUTES};

use crate::blob_data::{blob_data, normalize_type_js, this_blob, Blob};
use crate::bytes::{array_buffer_from, uint8_array_from, ByteSeq};
use crate::objects::blob_object;
use crate::parts::{
    convert_property_bag, process_blob_parts, to_blob_part_sequence, to_clamped_long_long,
};

/// The size of the chunks `Blob.stream()` enqueues when no BYOB request asks for less.
pub const STREAM_CHUNK_SIZE: usize = 64 * 1024;

/// [Get stream](https://w3c.github.io/FileAPI/#blob-get-stream): a byte `ReadableStream` over
/// `bytes`.
// NOTE: the spec reads the blob "in parallel" and enqueues every chunk in its own task,
// ignoring backpressure; here the stream's pull algorithm runs "pull from bytes" with chunks
// of at most STREAM_CHUNK_SIZE bytes (or the BYOB request's size). The chunk sizes and the
// timing are implementation-defined (the spec leaves them open).
pub fn blob_stream(bytes: ByteSeq, ctx: &mut Context) -> JsResult<JsObject<ReadableStream>> {
    // 1. Let stream be a new ReadableStream created in blob's relevant Realm.
    // 2. Set up stream with byte reading support (high water mark 0), its pull algorithm
    //    "pull from bytes" in Rust (a native byte source: no JS function objects, no
    //    trampoline).
    let state = BlobStreamState {
        remaining: RefCell::new(bytes),
    };
    native_readable_byte_stream(state, ByteStreamOptions::default(), ctx)
}

/// The bytes a `Blob.stream()` has not handed out yet.
#[derive(Trace, Finalize)]
struct BlobStreamState {
    #[unsafe_ignore_trace]
    remaining: RefCell<ByteSeq>,
}

impl ByteSource for BlobStreamState {
    /// [Pull from bytes](https://streams.spec.whatwg.org/#readablestream-pull-from-bytes), or
    /// [close](https://streams.spec.whatwg.org/#readablestream-close) once every byte went.
    fn pull(&self, controller: &ByteController, ctx: &mut Context) -> Completion {
        // (No borrow of `remaining` lives across a controller call: those can run script.)
        if self.remaining.borrow().is_empty() {
            let closed = controller.close(ctx);
            return Completion::from_result(closed, ctx);
        }
        // 1-4. available; desiredSize is the current BYOB request view's byte length if
        //      there is one.
        let request = controller.byob_request();
        let desired = request.map_or(STREAM_CHUNK_SIZE, |r| r.remaining);
        // 5-7. pulled = the first min(available, desiredSize) bytes, removed from bytes.
        let pulled = self.remaining.borrow_mut().take_front(desired);
        let result = match request {
            // 8. Write pulled into the current BYOB request view, then respond.
            Some(_) => controller
                .fill(
                    |view| match view.get_mut(..pulled.len()) {
                        Some(to) => {
                            to.copy_from_slice(&pulled);
                            pulled.len()
                        }
                        None => 0,
                    },
                    ctx,
                )
                .map(drop),
            // 9. Otherwise enqueue a new Uint8Array of pulled.
            None => controller.enqueue(&pulled, ctx),
        };
        Completion::from_result(result, ctx)
    }

    fn cancel(&self, _reason: JsValue, _ctx: &mut Context) -> Completion {
        *self.remaining.borrow_mut() = ByteSeq::new();
        Completion::undefined()
    }
}

/// A promise-returning Blob method: `steps` gets the blob's bytes and type.
fn blob_promise_method(
    this: &JsValue,
    ctx: &mut Context,
    steps: fn(ByteSeq, &mut Context) -> JsResult<JsValue>,
) -> JsValue {
    let result = this_blob(this).map(|b| blob_data(&b, |d| d.bytes.clone()));
    let result = result.and_then(|bytes| steps(bytes, ctx));
    let result = result.map(|v| boa_webidl::promise::promise_resolved_with(v, ctx).into());
    boa_webidl::promise::promise_from_own_result(result, ctx)
}

/// UTF-8 decode (BOM stripped, replacement on errors).
pub fn utf8_decode(bytes: &[u8]) -> JsString {
    let (text, _) = encoding_rs::UTF_8.decode_with_bom_removal(bytes);
    JsString::from(&*text)
}

/// [size](https://w3c.github.io/FileAPI/#dfn-size)
fn size(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let b = this_blob(this)?;
    // Return this's size.
    Ok(JsValue::from(blob_data(&b, |d| d.bytes.len()) as f64))
}

/// [type](https://w3c.github.io/FileAPI/#dfn-type)
fn type_(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let b = this_blob(this)?;
    // Return this's type.
    Ok(JsString::from(blob_data(&b, |d| d.type_.clone()).as_str()).into())
}

/// [slice(start, end, contentType)](https://w3c.github.io/FileAPI/#dfn-slice)
fn slice(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let b = this_blob(this)?;
    // IDL: optional [Clamp] long long start, optional [Clamp] long long end,
    // optional DOMString contentType.
    let start = match arg(args, 0) {
        v if v.is_undefined() => None,
        v => Some(to_clamped_long_long(&v, ctx)?),
    };
    let end = match arg(args, 1) {
        v if v.is_undefined() => None,
        v => Some(to_clamped_long_long(&v, ctx)?),
    };
    let content_type = match arg(args, 2) {
        v if v.is_undefined() => None,
        v => Some(v.to_string(ctx)?),
    };
    // 1. Let sliceStart, sliceEnd and sliceContentType be start, end, contentType.
    // 2. Return the result of slice blob given this, start, end, contentType.
    let bytes = blob_data(&b, |d| d.bytes.clone());
    let seq = slice_blob(&bytes, start, end);
    let type_ = content_type.map_or_else(String::new, |t| normalize_type_js(&t));
    Ok(blob_object(seq, type_, None, ctx)?.into())
}

/// [stream()](https://w3c.github.io/FileAPI/#dom-blob-stream)
fn stream(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let b = this_blob(this)?;
    // Return the result of calling get stream on this.
    let bytes = blob_data(&b, |d| d.bytes.clone());
    Ok(blob_stream(bytes, ctx)?.upcast().into())
}

/// [text()](https://w3c.github.io/FileAPI/#dom-blob-text)
fn text(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    // 1-5. Read all bytes from the blob's stream, then UTF-8 decode them.
    // NOTE: the stream is internal and unobservable; the bytes are read directly.
    Ok(blob_promise_method(this, ctx, |bytes, _| {
        Ok(utf8_decode(&bytes.to_vec()).into())
    }))
}

/// [arrayBuffer()](https://w3c.github.io/FileAPI/#dom-blob-arraybuffer)
fn array_buffer(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    // Resolve with a new ArrayBuffer whose contents are the bytes.
    Ok(blob_promise_method(this, ctx, |bytes, ctx| {
        Ok(JsValue::from(array_buffer_from(&bytes, ctx)?))
    }))
}

/// [bytes()](https://w3c.github.io/FileAPI/#dom-blob-bytes)
fn bytes(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    // Resolve with a new Uint8Array over a new ArrayBuffer of the bytes.
    Ok(blob_promise_method(this, ctx, |bytes, ctx| {
        Ok(uint8_array_from(&bytes, ctx)?.into())
    }))
}

impl Class for Blob {
    const NAME: &'static str = "Blob";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(
            class,
            &[
                Member::attribute("size", size),
                Member::attribute("type", type_),
                Member::operation("slice", 0, slice),
                Member::operation("stream", 0, stream),
                Member::operation("text", 0, text),
                Member::operation("arrayBuffer", 0, array_buffer),
                Member::operation("bytes", 0, bytes),
                Member::to_string_tag("Blob"),
            ],
        )
    }

    fn data_constructor(
        _new_target: &JsValue,
        args: &[JsValue],
        ctx: &mut Context,
    ) -> JsResult<Self> {
        // IDL: optional sequence<BlobPart> blobParts, optional BlobPropertyBag options = {}.
        let parts = match arg(args, 0) {
            v if v.is_undefined() => Vec::new(),
            v => to_blob_part_sequence(&v, ctx)?,
        };
        let options = convert_property_bag(&arg(args, 1), false, ctx)?;
        // 1. If invoked with zero parameters, return a new Blob of size 0 and type "".
        // 2. Let bytes be the result of processing blob parts given blobParts and options.
        let bytes = process_blob_parts(parts, options.endings);
        // 3. If the type member of options is not empty: t = type, emptied if it has a
        //    character outside U+0020–U+007E, else ASCII lowercased.
        // 4. Return a Blob referring to bytes, with size its length and type t.
        Ok(Self {
            bytes,
            type_: options.type_,
            file: None,
        })
    }

    fn construct(new_target: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsObject> {
        webidl::construct_converted::<Self>(new_target, args, ctx)
    }
}

/// [Slice blob](https://w3c.github.io/FileAPI/#slice-blob)'s byte range steps.
fn slice_blob(bytes: &ByteSeq, start: Option<i64>, end: Option<i64>) -> ByteSeq {
    // 1. Let originalSize be blob's size.
    let size = i128::from(bytes.len());
    // 2. relativeStart: 0 if start is not given; max(originalSize + start, 0) if negative;
    //    else min(start, originalSize).
    let relative = |v: i64| {
        let v = i128::from(v);
        if v < 0 {
            (size + v).max(0)
        } else {
            v.min(size)
        }
    };
    let relative_start = start.map_or(0, relative);
    // 3. relativeEnd: originalSize if end is not given; likewise otherwise.
    let relative_end = end.map_or(size, relative);
    // 5. Let span be max((relativeEnd - relativeStart), 0).
    let span = (relative_end - relative_start).max(0);
    // 6. Return a new Blob of the span bytes from relativeStart.
    let from = u64::try_from(relative_start).unwrap_or(0);
    let to = u64::try_from(relative_start + span).unwrap_or(0);
    bytes.slice(from, to)
}
