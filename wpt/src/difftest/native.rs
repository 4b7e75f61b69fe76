//! Native stream ends for difftest programs: `nativeSource(name, chunks, hwm)` and
//! `nativeSink(name, hwm)`.
//!
//! In the `ours` modes they are Rust ends built with the embedder API
//! (`boa_web::boa_streams::native`): the source enqueues through `enqueue_bytes` (with fast paths on,
//! the chunks stay Rust bytes in the queues) and the sink takes bytes through
//! `NativeSink::write_bytes`, so a pipe between them is the native-to-native path. In the
//! `ref` mode the same names are JS ends with the same algorithms (a pull that enqueues the
//! next chunk or closes and returns undefined; a sink whose write/close/abort log and return
//! undefined), built on the reference implementation's classes. A native algorithm that
//! completes synchronously reacts at the position a promise resolved with undefined would,
//! so the logs must be identical.
//!
//! Chunks are arrays of byte values; the sink logs each chunk as `name.write` and its bytes
//! joined by `,`. Sources log `name.cancel` with the reason.

use std::cell::{Cell, RefCell};

use boa_engine::object::builtins::{JsArray, JsUint8Array};
use boa_engine::{js_string, Context, JsNativeError, JsObject, JsResult, JsValue, NativeFunction};
use boa_gc::{Finalize, Trace};
use boa_web::boa_streams::native::{
    enqueue_bytes, native_readable_stream, native_writable_stream,
    readable_stream_default_controller_close, Completion, NativeSink, NativeSource,
    StreamController,
};
use bytes::Bytes;

/// The JS equivalents for the `ref` mode (evaluated after the prelude).
pub const REF_ENDS: &str = r#"
(function (global) {
  const hex = (chunk) => Array.prototype.join.call(chunk, ',');
  global.nativeSource = function (name, chunks, hwm) {
    let i = 0;
    return new ReadableStream({
      pull(c) {
        if (i < chunks.length) c.enqueue(new Uint8Array(chunks[i++]));
        else c.close();
      },
      cancel(reason) { log(name + '.cancel', reason); },
    }, { highWaterMark: hwm });
  };
  global.nativeSink = function (name, hwm) {
    return new WritableStream({
      write(chunk) { log(name + '.write', hex(chunk)); },
      close() { log(name + '.close'); },
      abort(reason) { log(name + '.abort', reason); },
    }, { highWaterMark: hwm });
  };
})(globalThis);
"#;

/// Define `nativeSource` and `nativeSink` as Rust ends on the global.
pub fn install(context: &mut Context) -> JsResult<()> {
    let source = NativeFunction::from_fn_ptr(native_source);
    let sink = NativeFunction::from_fn_ptr(native_sink);
    context.register_global_builtin_callable(js_string!("nativeSource"), 3, source)?;
    context.register_global_builtin_callable(js_string!("nativeSink"), 2, sink)?;
    Ok(())
}

fn arg(args: &[JsValue], i: usize) -> JsValue {
    args.get(i).cloned().unwrap_or_default()
}

fn name_of(args: &[JsValue], ctx: &mut Context) -> JsResult<String> {
    Ok(arg(args, 0).to_string(ctx)?.to_std_string_escaped())
}

/// Call the prelude's `log(...)`.
fn log(values: &[JsValue], ctx: &mut Context) -> JsResult<()> {
    let log = ctx.global_object().get(js_string!("log"), ctx)?;
    let Some(log) = log.as_callable() else {
        return Err(JsNativeError::typ().with_message("no log()").into());
    };
    log.call(&JsValue::undefined(), values, ctx)?;
    Ok(())
}

fn completion(result: JsResult<()>, ctx: &mut Context) -> Completion {
    match result {
        Ok(()) => Completion::undefined(),
        Err(e) => Completion::Rejected(e.into_opaque(ctx).unwrap_or_default()),
    }
}

fn native_source(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let name = name_of(args, ctx)?;
    let list = arg(args, 1);
    let Some(list) = list
        .as_object()
        .and_then(|o| JsArray::from_object(o.clone()).ok())
    else {
        return Err(JsNativeError::typ().with_message("chunks: an array").into());
    };
    let mut chunks = Vec::new();
    for i in 0..list.length(ctx)? {
        let chunk = list.get(i, ctx)?;
        let Some(chunk) = chunk
            .as_object()
            .and_then(|o| JsArray::from_object(o.clone()).ok())
        else {
            return Err(JsNativeError::typ()
                .with_message("a chunk: an array")
                .into());
        };
        let mut bytes = Vec::new();
        for j in 0..chunk.length(ctx)? {
            bytes.push(chunk.get(j, ctx)?.to_uint8(ctx)?);
        }
        chunks.push(Bytes::from(bytes));
    }
    let hwm = arg(args, 2).to_number(ctx)?;
    let source = ListSource {
        name,
        chunks,
        next: Cell::new(0),
    };
    Ok(native_readable_stream(source, hwm, ctx)?.upcast().into())
}

fn native_sink(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let name = name_of(args, ctx)?;
    let hwm = arg(args, 1).to_number(ctx)?;
    let sink = LogSink {
        name: RefCell::new(name),
    };
    Ok(native_writable_stream(sink, hwm, ctx)?.into())
}

/// Enqueues its chunks one per pull, then closes.
#[derive(Trace, Finalize)]
struct ListSource {
    #[unsafe_ignore_trace]
    name: String,
    #[unsafe_ignore_trace]
    chunks: Vec<Bytes>,
    #[unsafe_ignore_trace]
    next: Cell<usize>,
}

impl NativeSource for ListSource {
    fn pull(&self, controller: &StreamController, ctx: &mut Context) -> Completion {
        let Some(controller) = controller.clone().into_default() else {
            return Completion::undefined();
        };
        let i = self.next.get();
        let result = match self.chunks.get(i) {
            Some(chunk) => {
                self.next.set(i + 1);
                enqueue_bytes(&controller, chunk, ctx)
            }
            None => {
                readable_stream_default_controller_close(&controller, ctx);
                Ok(())
            }
        };
        completion(result, ctx)
    }

    fn cancel(&self, reason: JsValue, ctx: &mut Context) -> Completion {
        let label = JsValue::from(js_string!(format!("{}.cancel", self.name).as_str()));
        completion(log(&[label, reason], ctx), ctx)
    }
}

/// Logs what it is given; takes bytes without a JS object when they arrive as bytes.
#[derive(Trace, Finalize)]
struct LogSink {
    #[unsafe_ignore_trace]
    name: RefCell<String>,
}

impl LogSink {
    fn label(&self, what: &str) -> JsValue {
        js_string!(format!("{}.{what}", self.name.borrow()).as_str()).into()
    }

    fn log_bytes(&self, bytes: &[u8], ctx: &mut Context) -> Completion {
        let text: Vec<String> = bytes.iter().map(u8::to_string).collect();
        let text = JsValue::from(js_string!(text.join(",").as_str()));
        let label = self.label("write");
        completion(log(&[label, text], ctx), ctx)
    }
}

impl NativeSink for LogSink {
    fn write(&self, chunk: JsValue, _controller: &JsObject, ctx: &mut Context) -> Completion {
        let view = chunk
            .as_object()
            .and_then(|o| JsUint8Array::from_object(o.clone()).ok());
        let Some(view) = view else {
            let label = self.label("write");
            return completion(log(&[label, chunk], ctx), ctx);
        };
        let mut bytes = Vec::new();
        let len = view.length(ctx).unwrap_or(0);
        for i in 0..len {
            let byte = view.get(i, ctx).and_then(|v| v.to_uint8(ctx));
            match byte {
                Ok(b) => bytes.push(b),
                Err(e) => return completion(Err(e), ctx),
            }
        }
        self.log_bytes(&bytes, ctx)
    }

    fn write_bytes(&self, chunk: Bytes, _controller: &JsObject, ctx: &mut Context) -> Completion {
        self.log_bytes(&chunk, ctx)
    }

    fn close(&self, ctx: &mut Context) -> Completion {
        let label = self.label("close");
        completion(log(&[label], ctx), ctx)
    }

    fn abort(&self, reason: JsValue, ctx: &mut Context) -> Completion {
        let label = self.label("abort");
        completion(log(&[label, reason], ctx), ctx)
    }
}
