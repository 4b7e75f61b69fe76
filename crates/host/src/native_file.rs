//! Files as streams, on the embedder API of `boa_web::boa_streams::native`: a file exposed to script as
//! a `ReadableStream` of `Uint8Array`s ([`file_readable_stream`], a [`NativeSource`]) and a
//! `WritableStream` that writes every chunk to a file ([`file_writable_stream`], a
//! [`NativeSink`]). The benches and the `gzip_file` example use them.
//!
//! Both do their I/O synchronously on the calling thread (a file in the page cache reads and
//! writes in microseconds per 64 KiB); their algorithms complete synchronously, so the stream
//! settles them through a native microtask (fast paths on) or a promise (off).
//!
//! The source enqueues its chunks as `bytes::Bytes` ([`enqueue_bytes`]): script reading the
//! stream gets `Uint8Array`s, while with the fast paths on a pipe into a native sink (such as
//! [`file_writable_stream`]) hands the sink the bytes without a JS object per chunk. The sink
//! writes `Uint8Array` chunks by borrowing their buffer (no copy).

use std::cell::{Cell, RefCell};
use std::fs::File;
use std::io::{Read, Write};
use std::path::Path;

use boa_engine::object::builtins::{JsArrayBuffer, JsTypedArray};
use boa_engine::{js_string, Context, JsNativeError, JsObject, JsResult, JsValue};
use boa_gc::{Finalize, Trace};
use boa_web::boa_streams::native::{
    enqueue_bytes, native_readable_stream, native_writable_stream,
    readable_stream_default_controller_close, readable_stream_default_controller_error, Completion,
    NativeSink, NativeSource, ReadableStream, StreamController,
};
use bytes::Bytes;

/// The source behind [`file_readable_stream`].
#[derive(Trace, Finalize)]
struct FileSource {
    // Holds no JS handles.
    #[unsafe_ignore_trace]
    file: RefCell<Option<File>>,
    #[unsafe_ignore_trace]
    chunk_size: usize,
}

fn io_error_in(e: &std::io::Error, ctx: &mut Context) -> JsValue {
    JsNativeError::typ()
        .with_message(format!("I/O error: {e}"))
        .into_opaque(ctx)
        .into()
}

/// The JS value of a Rust-side error (a native error becomes its error object).
fn js_error_value(e: boa_engine::JsError, ctx: &mut Context) -> JsValue {
    e.into_opaque(ctx).unwrap_or_default()
}

impl FileSource {
    /// Read the next chunk (at most `chunk_size` bytes; `None` at the end of the file).
    fn read_chunk(&self) -> std::io::Result<Option<Bytes>> {
        let mut file = self.file.borrow_mut();
        let Some(f) = file.as_mut() else {
            return Ok(None);
        };
        let mut block = vec![0; self.chunk_size];
        let mut filled = 0;
        while filled < block.len() {
            let n = f.read(block.get_mut(filled..).unwrap_or_default())?;
            if n == 0 {
                break;
            }
            filled += n;
        }
        if filled == 0 {
            *file = None;
            return Ok(None);
        }
        block.truncate(filled);
        Ok(Some(Bytes::from(block)))
    }
}

impl NativeSource for FileSource {
    fn pull(&self, controller: &StreamController, ctx: &mut Context) -> Completion {
        let Some(controller) = controller.clone().into_default() else {
            return Completion::undefined();
        };
        match self.read_chunk() {
            Ok(Some(chunk)) => {
                // A Uint8Array when it reaches script; with the fast paths on, piped into a
                // native sink (this module's, or any NativeSink::write_bytes) it stays bytes.
                match enqueue_bytes(&controller, &chunk, ctx) {
                    Ok(()) => Completion::undefined(),
                    Err(e) => Completion::Rejected(js_error_value(e, ctx)),
                }
            }
            Ok(None) => {
                readable_stream_default_controller_close(&controller, ctx);
                Completion::undefined()
            }
            Err(e) => {
                *self.file.borrow_mut() = None;
                let error = io_error_in(&e, ctx);
                readable_stream_default_controller_error(&controller, error, ctx);
                Completion::undefined()
            }
        }
    }

    fn cancel(&self, _reason: JsValue, _ctx: &mut Context) -> Completion {
        *self.file.borrow_mut() = None;
        Completion::undefined()
    }
}

/// A `ReadableStream` of the contents of the file at `path`, in `Uint8Array` chunks of
/// `chunk_size` bytes (the last one shorter), read on demand (high water mark: one chunk).
pub fn file_readable_stream(
    path: &Path,
    chunk_size: usize,
    ctx: &mut Context,
) -> JsResult<JsObject<ReadableStream>> {
    let file = File::open(path)
        .map_err(|e| JsNativeError::typ().with_message(format!("{}: {e}", path.display())))?;
    let source = FileSource {
        file: RefCell::new(Some(file)),
        chunk_size: chunk_size.max(1),
    };
    native_readable_stream(source, 1.0, ctx)
}

/// The sink behind [`file_writable_stream`].
#[derive(Trace, Finalize)]
struct FileSink {
    #[unsafe_ignore_trace]
    file: RefCell<Option<File>>,
    /// Bytes written so far.
    #[unsafe_ignore_trace]
    written: Cell<u64>,
}

/// Write the bytes of `chunk` (an ArrayBuffer or an ArrayBufferView) to `out` without copying
/// them.
fn write_buffer_source(chunk: &JsValue, out: &mut File, ctx: &mut Context) -> JsResult<usize> {
    let object = chunk
        .as_object()
        .ok_or_else(|| JsNativeError::typ().with_message("The chunk is not a BufferSource"))?;
    if let Ok(buffer) = JsArrayBuffer::from_object(object.clone()) {
        let data = buffer.data().map(|d| d.to_vec()).unwrap_or_default();
        out.write_all(&data)
            .map_err(|e| JsNativeError::typ().with_message(format!("I/O error: {e}")))?;
        return Ok(data.len());
    }
    let view = JsTypedArray::from_object(object.clone())
        .map_err(|_| JsNativeError::typ().with_message("The chunk is not a BufferSource"))?;
    // The built-in getters are called directly (no property lookup, no script).
    let offset = view.byte_offset(ctx)?;
    let length = view.byte_length(ctx)?;
    let buffer = view.buffer(ctx)?;
    let buffer = buffer
        .as_object()
        .and_then(|b| JsArrayBuffer::from_object(b.clone()).ok())
        .ok_or_else(|| JsNativeError::typ().with_message("The chunk is not a BufferSource"))?;
    let data = buffer.data();
    let bytes = data
        .as_deref()
        .and_then(|d| d.get(offset..offset.saturating_add(length)))
        .unwrap_or_default();
    out.write_all(bytes)
        .map_err(|e| JsNativeError::typ().with_message(format!("I/O error: {e}")))?;
    Ok(bytes.len())
}

impl FileSink {
    fn write_slice(&self, bytes: &[u8], ctx: &mut Context) -> Completion {
        let Ok(mut file) = self.file.try_borrow_mut() else {
            return Completion::Rejected(js_string!("the file sink is busy").into());
        };
        let Some(out) = file.as_mut() else {
            return Completion::Rejected(js_string!("the file sink is closed").into());
        };
        match out.write_all(bytes) {
            Ok(()) => {
                self.written.set(self.written.get() + bytes.len() as u64);
                Completion::undefined()
            }
            Err(e) => Completion::Rejected(io_error_in(&e, ctx)),
        }
    }
}

impl NativeSink for FileSink {
    /// A native source's bytes piped here (fast paths on): written as they are, no JS object.
    fn write_bytes(&self, chunk: Bytes, _controller: &JsObject, ctx: &mut Context) -> Completion {
        self.write_slice(&chunk, ctx)
    }

    fn write(&self, chunk: JsValue, _controller: &JsObject, ctx: &mut Context) -> Completion {
        // The borrow is not held across script: the conversion calls built-in getters only.
        let Ok(mut file) = self.file.try_borrow_mut() else {
            return Completion::Rejected(js_string!("the file sink is busy").into());
        };
        let Some(out) = file.as_mut() else {
            return Completion::Rejected(js_string!("the file sink is closed").into());
        };
        match write_buffer_source(&chunk, out, ctx) {
            Ok(n) => {
                self.written.set(self.written.get() + n as u64);
                Completion::undefined()
            }
            Err(e) => Completion::Rejected(js_error_value(e, ctx)),
        }
    }

    fn close(&self, ctx: &mut Context) -> Completion {
        let file = self.file.borrow_mut().take();
        match file.map(|mut f| f.flush()) {
            Some(Err(e)) => Completion::Rejected(io_error_in(&e, ctx)),
            _ => Completion::undefined(),
        }
    }

    fn abort(&self, _reason: JsValue, _ctx: &mut Context) -> Completion {
        *self.file.borrow_mut() = None;
        Completion::undefined()
    }
}

/// A `WritableStream` that writes each chunk (an ArrayBuffer or an ArrayBufferView; anything
/// else errors the stream with a TypeError) to a new file at `path` (created or truncated),
/// high water mark one chunk. The file is closed when the stream closes or is aborted.
pub fn file_writable_stream(path: &Path, ctx: &mut Context) -> JsResult<JsObject> {
    let file = File::create(path)
        .map_err(|e| JsNativeError::typ().with_message(format!("{}: {e}", path.display())))?;
    native_writable_stream(
        FileSink {
            file: RefCell::new(Some(file)),
            written: Cell::new(0),
        },
        1.0,
        ctx,
    )
}
