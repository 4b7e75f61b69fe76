//! Native byte chunks (issue 11 item 4; moved from `boa_streams`'s `chunk` module, since they
//! pipe through the Encoding and Compression streams too): a native source's bytes reach a native sink's
//! `write_bytes` through a pipe (fast paths on) and become one `Uint8Array` at every exit to
//! script; what script observes is the same with the fast paths on and off.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use boa_engine::{Context, JsObject, JsValue};
use boa_gc::{Finalize, Trace};
use bytes::Bytes;

use crate::test_support::{both_modes, context, eval, set_global, string, with_fast_paths};
use boa_streams::native::{
    enqueue_bytes, native_readable_stream, native_writable_stream,
    readable_stream_default_controller_close, Completion, NativeSink, NativeSource,
    StreamController,
};

/// `n` chunks of `b"abc"` through `enqueue_bytes`, then close.
#[derive(Trace, Finalize)]
struct BytesSource {
    #[unsafe_ignore_trace]
    left: Cell<u32>,
}

impl NativeSource for BytesSource {
    fn pull(&self, controller: &StreamController, ctx: &mut Context) -> Completion {
        let Some(controller) = controller.clone().into_default() else {
            return Completion::undefined();
        };
        match self.left.get() {
            0 => readable_stream_default_controller_close(&controller, ctx),
            n => {
                self.left.set(n - 1);
                enqueue_bytes(&controller, &Bytes::from_static(b"abc"), ctx).unwrap();
            }
        }
        Completion::undefined()
    }

    fn cancel(&self, _reason: JsValue, _ctx: &mut Context) -> Completion {
        Completion::undefined()
    }
}

/// Records how each chunk arrived: `bytes:N` through `write_bytes`, `js:Type:N` through
/// `write`.
#[derive(Trace, Finalize)]
struct Recorder {
    #[unsafe_ignore_trace]
    log: Rc<RefCell<Vec<String>>>,
}

impl NativeSink for Recorder {
    fn write(&self, chunk: JsValue, _controller: &JsObject, ctx: &mut Context) -> Completion {
        let name = chunk
            .as_object()
            .and_then(|o| o.get(boa_engine::js_string!("constructor"), ctx).ok())
            .and_then(|c| c.as_object())
            .and_then(|c| c.get(boa_engine::js_string!("name"), ctx).ok())
            .map(|n| n.display().to_string().replace('"', ""))
            .unwrap_or_default();
        let len = chunk
            .as_object()
            .and_then(|o| o.get(boa_engine::js_string!("length"), ctx).ok())
            .map(|n| n.display().to_string().replace('"', ""))
            .unwrap_or_default();
        self.log.borrow_mut().push(format!("js:{name}:{len}"));
        Completion::undefined()
    }

    fn write_bytes(&self, chunk: Bytes, _controller: &JsObject, _ctx: &mut Context) -> Completion {
        self.log.borrow_mut().push(format!("bytes:{}", chunk.len()));
        Completion::undefined()
    }

    fn close(&self, _ctx: &mut Context) -> Completion {
        self.log.borrow_mut().push("close".into());
        Completion::undefined()
    }
}

/// A script that pipes `rs` into `ws` and logs the pipe's settlement and the streams'
/// states against a counter of microtask ticks.
const OBSERVE: &str = r#"
  globalThis.log = [];
  let tick = 0;
  let running = true;
  (function spin() { tick++; if (running && tick < 200) Promise.resolve().then(spin); })();
  const w = ws;
  rs.pipeTo(w).then(
    () => { log.push('pipe done @' + tick + ' locked ' + rs.locked + '/' + w.locked); running = false; },
    (e) => { log.push('pipe rejected ' + e); running = false; });
  log.push('started locked ' + rs.locked + '/' + w.locked);
"#;

fn pipe_run(chunks: u32) -> (String, String) {
    let mut ctx = context();
    let log = Rc::new(RefCell::new(Vec::new()));
    let rs = native_readable_stream(
        BytesSource {
            left: Cell::new(chunks),
        },
        1.0,
        &mut ctx,
    )
    .unwrap();
    let ws = native_writable_stream(Recorder { log: log.clone() }, 1.0, &mut ctx).unwrap();
    set_global(&mut ctx, "rs", rs.upcast());
    set_global(&mut ctx, "ws", ws);
    eval(&mut ctx, OBSERVE);
    ctx.run_jobs().unwrap();
    let sink_log = log.borrow().join(",");
    (string(&mut ctx, "log.join('; ')"), sink_log)
}

#[test]
fn a_pipe_hands_a_native_sink_the_bytes_and_script_sees_the_same_on_and_off() {
    let (on_script, on_sink) = with_fast_paths(true, || pipe_run(3));
    let (off_script, off_sink) = with_fast_paths(false, || pipe_run(3));
    // Fast paths on: the bytes reach write_bytes, no Uint8Array; off: the Uint8Array that
    // enqueue_bytes made.
    assert_eq!(on_sink, "bytes:3,bytes:3,bytes:3,close");
    assert_eq!(
        off_sink,
        "js:Uint8Array:3,js:Uint8Array:3,js:Uint8Array:3,close"
    );
    // What script observes (settlement tick, locks) is identical.
    assert_eq!(on_script, off_script);
    assert!(on_script.contains("pipe done @"), "{on_script}");
}

/// Every exit to script gets a Uint8Array with the bytes: reads, a tee (one object for both
/// branches), a JS sink behind a pipe and a JS size() of the destination.
#[test]
fn every_exit_to_script_gets_one_uint8array() {
    let out = both_modes(|_| {
        let mut ctx = context();
        for name in ["a", "b", "c"] {
            let rs =
                native_readable_stream(BytesSource { left: Cell::new(2) }, 1.0, &mut ctx).unwrap();
            set_global(&mut ctx, name, rs.upcast());
        }
        eval(
            &mut ctx,
            r#"
            globalThis.out = [];
            const show = (c) => c.constructor.name + ':' + String.fromCharCode(...c);
            (async () => {
              const r = a.getReader();
              for (;;) {
                const { value, done } = await r.read();
                if (done) break;
                out.push('read ' + show(value));
              }
              const [t1, t2] = b.tee();
              const r1 = t1.getReader(), r2 = t2.getReader();
              const [x, y] = await Promise.all([r1.read(), r2.read()]);
              out.push('tee ' + show(x.value) + ' same ' + (x.value === y.value));
              await c.pipeTo(new WritableStream(
                { write(chunk) { out.push('write ' + show(chunk)); } },
                { highWaterMark: 2, size(chunk) { out.push('size ' + show(chunk)); return 1; } }));
              out.push('done');
            })();
            "#,
        );
        ctx.run_jobs().unwrap();
        string(&mut ctx, "out.join('; ')")
    });
    assert_eq!(
        out,
        "read Uint8Array:abc; read Uint8Array:abc; tee Uint8Array:abc same true; \
         size Uint8Array:abc; write Uint8Array:abc; size Uint8Array:abc; \
         write Uint8Array:abc; done"
    );
}

/// Collects what a pipe writes: `bytes` chunks through `write_bytes`, `js:Type` through
/// `write` (a `Uint8Array`'s bytes collected too).
#[derive(Trace, Finalize)]
struct Collector {
    #[unsafe_ignore_trace]
    log: Rc<RefCell<Vec<String>>>,
    #[unsafe_ignore_trace]
    data: Rc<RefCell<Vec<u8>>>,
}

impl NativeSink for Collector {
    fn write(&self, chunk: JsValue, _controller: &JsObject, ctx: &mut Context) -> Completion {
        let array = chunk
            .as_object()
            .and_then(|o| boa_engine::object::builtins::JsUint8Array::from_object(o.clone()).ok());
        let Some(array) = array else {
            self.log.borrow_mut().push("js:other".into());
            return Completion::undefined();
        };
        let len = array.length(ctx).unwrap_or(0);
        for i in 0..len {
            let byte = array.get(i, ctx).ok().and_then(|v| v.as_number());
            self.data.borrow_mut().push(byte.unwrap_or(0.0) as u8);
        }
        self.log.borrow_mut().push("js".into());
        Completion::undefined()
    }

    fn write_bytes(&self, chunk: Bytes, _controller: &JsObject, _ctx: &mut Context) -> Completion {
        self.data.borrow_mut().extend_from_slice(&chunk);
        self.log.borrow_mut().push("bytes".into());
        Completion::undefined()
    }

    fn close(&self, _ctx: &mut Context) -> Completion {
        self.log.borrow_mut().push("close".into());
        Completion::undefined()
    }
}

/// Pipe `chunks` native `abc` chunks through the transforms `through` (a script expression
/// mapping `rs` to a readable stream) into a [`Collector`]; the script log (pipe settlement
/// tick, writer's ready/closed order), the sink's log and the bytes it got.
fn pipe_through_run(chunks: u32, through: &str) -> (String, String, Vec<u8>) {
    let mut ctx = context();
    let log = Rc::new(RefCell::new(Vec::new()));
    let data = Rc::new(RefCell::new(Vec::new()));
    let source = native_readable_stream(
        BytesSource {
            left: Cell::new(chunks),
        },
        1.0,
        &mut ctx,
    )
    .unwrap();
    let ws = native_writable_stream(
        Collector {
            log: log.clone(),
            data: data.clone(),
        },
        1.0,
        &mut ctx,
    )
    .unwrap();
    set_global(&mut ctx, "source", source.upcast());
    set_global(&mut ctx, "ws", ws);
    eval(
        &mut ctx,
        &format!("globalThis.rs = (rs => {through})(source);"),
    );
    eval(&mut ctx, OBSERVE);
    ctx.run_jobs().unwrap();
    let sink_log = log.borrow().join(",");
    let bytes = data.borrow().clone();
    (string(&mut ctx, "log.join('; ')"), sink_log, bytes)
}

/// A pipe through a native transform (TextDecoderStream) into a JS sink: the transform's
/// writable side gets the Uint8Array, the result is the same on and off.
#[test]
fn native_bytes_through_a_native_transform() {
    let out = both_modes(|_| {
        let mut ctx = context();
        let rs = native_readable_stream(BytesSource { left: Cell::new(3) }, 1.0, &mut ctx).unwrap();
        set_global(&mut ctx, "rs", rs.upcast());
        eval(
            &mut ctx,
            r#"
            globalThis.out = [];
            let tick = 0, running = true;
            (function spin() { tick++; if (running && tick < 300) Promise.resolve().then(spin); })();
            rs.pipeThrough(new TextDecoderStream()).pipeTo(new WritableStream({
              write(s) { out.push(s + '@' + tick); },
              close() { out.push('close@' + tick); },
            })).then(() => { out.push('done@' + tick); running = false; });
            "#,
        );
        ctx.run_jobs().unwrap();
        string(&mut ctx, "out.join('; ')")
    });
    assert!(out.starts_with("abc@"), "{out}");
    assert!(out.contains("done@"), "{out}");
}

#[test]
fn a_pipe_through_compression_streams_moves_bytes_and_script_sees_the_same_on_and_off() {
    for through in [
        "rs.pipeThrough(new CompressionStream('gzip'))",
        "rs.pipeThrough(new CompressionStream('deflate')).pipeThrough(new DecompressionStream('deflate'))",
        // The identity TransformStream passes bytes through as they are.
        "rs.pipeThrough(new TransformStream())",
    ] {
        let (on_script, on_sink, on_bytes) = with_fast_paths(true, || pipe_through_run(40, through));
        let (off_script, off_sink, off_bytes) =
            with_fast_paths(false, || pipe_through_run(40, through));
        assert!(on_sink.contains("bytes"), "{through}: {on_sink}");
        assert!(!on_sink.contains("js"), "{through}: {on_sink}");
        assert!(off_sink.contains("js") && !off_sink.contains("bytes"), "{off_sink}");
        assert_eq!(
            on_sink.split(',').count(),
            off_sink.split(',').count(),
            "{through}"
        );
        assert!(on_sink.ends_with("close"), "{on_sink}");
        assert_eq!(on_bytes, off_bytes, "{through}");
        assert_eq!(on_script, off_script, "{through}");
        assert!(on_script.contains("pipe done @"), "{on_script}");
    }
    // The round trip gives the input back.
    let (_, _, round) = with_fast_paths(true, || {
        pipe_through_run(
            40,
            "rs.pipeThrough(new CompressionStream('gzip')).pipeThrough(new DecompressionStream('gzip'))",
        )
    });
    assert_eq!(round, b"abc".repeat(40));
}

/// TextDecoderStream takes bytes (fast paths on) and gives the same strings; TextEncoderStream
/// hands its output to the native sink as bytes (fast paths on) or Uint8Arrays (off); what
/// script observes and the bytes written are the same on and off.
#[test]
fn a_pipe_through_text_decoder_and_encoder_streams_is_the_same_on_and_off() {
    let through = "rs.pipeThrough(new TextDecoderStream()).pipeThrough(new TextEncoderStream())";
    let on = with_fast_paths(true, || pipe_through_run(5, through));
    let off = with_fast_paths(false, || pipe_through_run(5, through));
    assert_eq!(on.0, off.0);
    assert_eq!(on.2, off.2);
    assert!(on.1.contains("bytes") && !on.1.contains("js"), "{}", on.1);
    assert!(
        off.1.contains("js") && !off.1.contains("bytes"),
        "{}",
        off.1
    );
    assert_eq!(on.1.matches(',').count(), off.1.matches(',').count());
    assert_eq!(on.2, b"abc".repeat(5));
    assert!(on.0.contains("pipe done @"), "{}", on.0);
}

/// A JS transformer between native ends gets Uint8Arrays (the bytes leave the Rust side
/// there); a JS reader of a CompressionStream's readable side gets Uint8Arrays.
#[test]
fn script_between_native_ends_gets_uint8arrays() {
    let (script, sink, bytes) = with_fast_paths(true, || {
        pipe_through_run(
            3,
            "rs.pipeThrough(new TransformStream({ transform(c, ctl) { \
               log.push('transform ' + c.constructor.name + ':' + c.length); ctl.enqueue(c); } }))",
        )
    });
    assert!(script.contains("transform Uint8Array:3"), "{script}");
    assert_eq!(sink, "js,js,js,close");
    assert_eq!(bytes, b"abcabcabc");
    let out = both_modes(|_| {
        let mut ctx = context();
        let rs = native_readable_stream(BytesSource { left: Cell::new(3) }, 1.0, &mut ctx).unwrap();
        set_global(&mut ctx, "rs", rs.upcast());
        eval(
            &mut ctx,
            r#"
            globalThis.out = [];
            (async () => {
              const r = rs.pipeThrough(new CompressionStream('deflate-raw')).getReader();
              let n = 0;
              for (;;) {
                const { value, done } = await r.read();
                if (done) break;
                out.push(value.constructor.name);
                n += value.length;
              }
              out.push(n > 0 ? 'some bytes' : 'none');
            })();
            "#,
        );
        ctx.run_jobs().unwrap();
        string(&mut ctx, "out.join('; ')")
    });
    assert!(out.starts_with("Uint8Array"), "{out}");
    assert!(out.ends_with("some bytes"), "{out}");
    let names: Vec<&str> = out.split("; ").collect();
    assert!(
        names
            .iter()
            .take(names.len() - 1)
            .all(|n| *n == "Uint8Array"),
        "{out}"
    );
}
