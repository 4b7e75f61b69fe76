//! Unit tests for readable byte streams that WPT cannot see: zero-copy buffer reuse in a BYOB
//! read loop, TransferArrayBuffer's real detachment, enqueue() of a detached view leaving the
//! stream usable, element sizes of every view type, GC, fast-path equivalence.

use boa_engine::{js_string, object::builtins::JsArrayBuffer, Context, JsValue, NativeFunction};

use crate::readable::buffers::{is_detached_buffer, transfer_array_buffer};
use crate::test_support::{eval, run_jobs, string, with_fast_paths};

/// The shared test context plus `dataPointer(arrayBuffer)`: the address of the buffer's data
/// block (as a string), or "detached".
fn context() -> Context {
    let mut ctx = crate::test_support::context();
    ctx.register_global_builtin_callable(
        js_string!("dataPointer"),
        1,
        NativeFunction::from_fn_ptr(|_, args, _| {
            let buffer = args
                .first()
                .and_then(JsValue::as_object)
                .and_then(|o| JsArrayBuffer::from_object(o.clone()).ok())
                .expect("dataPointer takes an ArrayBuffer");
            let s = match buffer.data() {
                Some(data) => format!("{:p}", data.as_ptr()),
                None => "detached".to_owned(),
            };
            Ok(js_string!(s).into())
        }),
    )
    .unwrap();
    ctx
}

/// Run `script`, drain the job queue, return `log.join(sep)`.
fn run_log(script: &str, sep: &str) -> String {
    crate::test_support::run_log(script, &format!("log.join({sep:?})"))
}

#[test]
fn transfer_array_buffer_detaches_and_keeps_the_data_block() {
    let mut ctx = context();
    let original = boa_webidl::gc_pressure::zeroed_array_buffer(16, &mut ctx).unwrap();
    original.data_mut().unwrap()[3] = 42;
    let before = original.data().unwrap().as_ptr();
    let transferred = transfer_array_buffer(&original, &mut ctx).unwrap();
    assert!(is_detached_buffer(&original));
    assert_eq!(original.byte_length(), 0);
    let data = transferred.data().unwrap();
    assert_eq!(
        data.as_ptr(),
        before,
        "the data block moved instead of being transferred"
    );
    assert_eq!(data.len(), 16);
    assert_eq!(data[3], 42);
    drop(data);
    // A second transfer of the detached buffer is a TypeError.
    assert!(transfer_array_buffer(&original, &mut ctx).is_err());
}

/// A 64 KiB BYOB read loop over 100 MiB: every read lands in the caller's original memory block
/// (the transferred buffers form an identity chain over one data block; no per-read copy or
/// allocation of chunk memory), and the source writes into that same block.
#[test]
fn byob_read_loop_reuses_the_callers_buffer() {
    const CHUNK: u64 = 64 * 1024;
    const TOTAL: u64 = 100 * 1024 * 1024;
    let mut ctx = context();
    eval(
        &mut ctx,
        &format!(
            r#"
        globalThis.CHUNK = {CHUNK};
        globalThis.TOTAL = {TOTAL};
        globalThis.sourcePointers = new Set();
        globalThis.readPointers = new Set();
        globalThis.reads = 0;
        globalThis.received = 0;
        globalThis.mismatches = 0;
        globalThis.finished = false;
        let produced = 0;
        const rs = new ReadableStream({{
            type: 'bytes',
            pull(c) {{
                const request = c.byobRequest;
                if (produced >= TOTAL) {{
                    c.close();
                    request.respond(0);
                    return;
                }}
                const view = request.view;
                sourcePointers.add(dataPointer(view.buffer));
                view[0] = (produced / CHUNK) & 255;
                produced += view.byteLength;
                request.respond(view.byteLength);
            }},
        }});
        const original = new ArrayBuffer(CHUNK);
        globalThis.originalPointer = dataPointer(original);
        (async () => {{
            const reader = rs.getReader({{ mode: 'byob' }});
            let buffer = original;
            for (;;) {{
                const view = new Uint8Array(buffer);
                const {{ value, done }} = await reader.read(view);
                if (view.byteLength !== 0 || buffer.byteLength !== 0) mismatches++;
                if (done) break;
                reads++;
                received += value.byteLength;
                if (value[0] !== ((reads - 1) & 255)) mismatches++;
                readPointers.add(dataPointer(value.buffer));
                buffer = value.buffer;
            }}
            finished = true;
        }})();
        "#
        ),
    );
    ctx.run_jobs().unwrap();
    assert_eq!(string(&mut ctx, "String(finished)"), "true");
    assert_eq!(
        string(&mut ctx, "String(reads)"),
        (TOTAL / CHUNK).to_string()
    );
    assert_eq!(string(&mut ctx, "String(received)"), TOTAL.to_string());
    assert_eq!(string(&mut ctx, "String(mismatches)"), "0");
    let original = string(&mut ctx, "originalPointer");
    assert_eq!(string(&mut ctx, "[...readPointers].join()"), original);
    assert_eq!(string(&mut ctx, "[...sourcePointers].join()"), original);
}

#[test]
fn enqueue_of_a_detached_view_throws_type_error_and_leaves_the_stream_usable() {
    let log = run_log(
        r#"
        let controller;
        const rs = new ReadableStream({ type: 'bytes', start(c) { controller = c; } });
        const reader = rs.getReader();
        const view = new Uint8Array([1, 2, 3]);
        view.buffer.transfer();
        try {
            controller.enqueue(view);
            log.push('no throw');
        } catch (e) {
            log.push(e instanceof TypeError ? 'TypeError' : String(e));
        }
        // A DataView whose buffer was detached after creation.
        const buffer = new ArrayBuffer(4);
        const dv = new DataView(buffer, 1, 2);
        buffer.transfer();
        try { controller.enqueue(dv); } catch (e) { log.push(e.constructor.name); }
        // A view on a SharedArrayBuffer is rejected by the IDL conversion.
        try {
            controller.enqueue(new Uint8Array(new SharedArrayBuffer(4)));
        } catch (e) { log.push(e.constructor.name); }
        // So is a view on a resizable ArrayBuffer (no [AllowResizable]); its buffer is kept.
        const resizable = new ArrayBuffer(4, { maxByteLength: 8 });
        try { controller.enqueue(new Uint8Array(resizable)); } catch (e) { log.push(e.constructor.name); }
        log.push('resizable ' + resizable.byteLength + ' ' + resizable.resizable);
        log.push('desiredSize=' + controller.desiredSize);
        controller.enqueue(new Uint8Array([7, 8]));
        reader.read().then(r => log.push(r.done, Array.from(r.value).join('+')));
        reader.closed.then(() => log.push('closed'));
        Promise.resolve().then(() => controller.close());
        "#,
        ",",
    );
    assert_eq!(
        log,
        "TypeError,TypeError,TypeError,TypeError,resizable 4 true,desiredSize=0,false,7+8,closed"
    );
}

#[test]
fn byob_reads_fill_every_view_type_by_whole_elements() {
    let log = run_log(
        r#"
        const types = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array,
            Int32Array, Uint32Array, Float16Array, Float32Array, Float64Array, BigInt64Array,
            BigUint64Array, DataView];
        for (const T of types) {
            const size = T === DataView ? 1 : T.BYTES_PER_ELEMENT;
            let controller;
            const rs = new ReadableStream({ type: 'bytes', start(c) { controller = c; } });
            const reader = rs.getReader({ mode: 'byob' });
            // 2 elements + 1 byte, in odd pieces.
            const bytes = new Uint8Array(2 * size + 1).map((_, i) => i + 1);
            controller.enqueue(bytes.slice(0, 1));
            if (2 * size + 1 > 2) controller.enqueue(bytes.slice(1, 2 * size));
            controller.enqueue(bytes.slice(2 * size));
            const view = T === DataView ? new DataView(new ArrayBuffer(8), 2, 4)
                                        : new T(new ArrayBuffer(8 * size), size, 4);
            reader.read(view, { min: 2 }).then(({ value, done }) => {
                const u8 = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
                log.push([T.name, value.constructor.name, value.byteOffset, value.byteLength,
                    value.buffer.byteLength, Array.from(u8).join('.'), done].join(' '));
                return reader.read(new Uint8Array(4));
            }).then(({ value }) => {
                log.push(T.name + ' rest ' + Array.from(value).join('.'));
            });
        }
        "#,
        "\n",
    );
    let lines: Vec<&str> = log.lines().collect();
    // Elements of 1 byte take all 3 queued bytes; wider elements take the 2 whole elements
    // and leave the odd byte queued for the next read.
    let expect = |name: &str, size: usize| {
        let taken = if size == 1 { 3 } else { 2 * size };
        let filled: Vec<String> = (1..=taken).map(|i| i.to_string()).collect();
        let offset = if name == "DataView" { 2 } else { size };
        let buffer_len = if name == "DataView" { 8 } else { 8 * size };
        let filled = format!(
            "{name} {name} {offset} {taken} {buffer_len} {} false",
            filled.join(".")
        );
        let rest = (size > 1).then(|| format!("{name} rest {}", 2 * size + 1));
        (filled, rest)
    };
    for (name, size) in [
        ("Int8Array", 1),
        ("Uint8Array", 1),
        ("Uint8ClampedArray", 1),
        ("Int16Array", 2),
        ("Uint16Array", 2),
        ("Int32Array", 4),
        ("Uint32Array", 4),
        ("Float16Array", 2),
        ("Float32Array", 4),
        ("Float64Array", 8),
        ("BigInt64Array", 8),
        ("BigUint64Array", 8),
        ("DataView", 1),
    ] {
        let (filled, rest) = expect(name, size);
        assert!(
            lines.contains(&filled.as_str()),
            "missing {filled:?} in\n{log}"
        );
        if let Some(rest) = rest {
            assert!(lines.contains(&rest.as_str()), "missing {rest:?} in\n{log}");
        }
    }
}

#[test]
fn byte_stream_and_byob_reader_are_collected_once_unreachable() {
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        globalThis.refs = (() => {
            const rs = new ReadableStream({ type: 'bytes', autoAllocateChunkSize: 16,
                pull(c) { c.byobRequest.view; } });
            const reader = rs.getReader({ mode: 'byob' });
            reader.read(new Uint8Array(8));
            const [b1, b2] = new ReadableStream({ type: 'bytes' }).tee();
            b1.getReader({ mode: 'byob' }).read(new Uint8Array(4));
            return [new WeakRef(rs), new WeakRef(reader), new WeakRef(b1), new WeakRef(b2)];
        })();
        "#,
    );
    ctx.run_jobs().unwrap();
    ctx.clear_kept_objects();
    crate::test_support::gc_now();
    assert_eq!(
        string(&mut ctx, "refs.map(r => String(r.deref())).join()"),
        "undefined,undefined,undefined,undefined"
    );
}

const ORDERING_SCRIPT: &str = r#"
    const step = name => r => log.push(name + ':' + (r.done ? 'done' : Array.from(r.value).join('.')));
    let n = 0;
    const rs = new ReadableStream({
        type: 'bytes',
        start() { log.push('start'); },
        pull(c) {
            n++;
            log.push('pull' + n + ' ' + (c.byobRequest ? c.byobRequest.view.byteLength : 'none'));
            if (n === 1) c.enqueue(new Uint8Array([1, 2]));
            else if (n === 2) { c.byobRequest.view[0] = 9; c.byobRequest.respond(1); }
            else if (n === 3) c.close();
        },
    });
    const reader = rs.getReader({ mode: 'byob' });
    reader.read(new Uint8Array(4)).then(step('r1'));
    reader.read(new Uint8Array(4)).then(step('r2'));
    Promise.resolve().then(() => log.push('tick1')).then(() => log.push('tick2'));
    const [b1, b2] = new ReadableStream({
        type: 'bytes',
        pull(c) { log.push('tee src pull'); c.enqueue(new Uint8Array([5])); },
    }).tee();
    b1.getReader({ mode: 'byob' }).read(new Uint8Array(2)).then(step('b1'));
    b2.getReader().read().then(step('b2'));
    reader.closed.then(() => log.push('closed'));
"#;

fn run_ordering(fast: bool) -> String {
    with_fast_paths(fast, || run_log(ORDERING_SCRIPT, "\n"))
}

#[test]
fn byte_stream_sync_fast_path_preserves_ordering() {
    let fast = run_ordering(true);
    let slow = run_ordering(false);
    assert!(fast.contains("r1:1.2"), "{fast}");
    assert!(fast.contains("b1:5"), "{fast}");
    assert!(fast.contains("b2:5"), "{fast}");
    assert_eq!(fast, slow);
}

/// Releasing a BYOB reader marks its rejected `closed` promise as handled; Boa's species lookup
/// in that step can run script (a patched `Promise.prototype.constructor` getter). A lock taken
/// by that script must survive the rest of the outer release.
#[test]
fn byob_lock_taken_from_species_lookup_during_release_is_kept() {
    let log = run_log(
        r#"
        const rs = new ReadableStream({ type: 'bytes' });
        const r1 = rs.getReader({ mode: 'byob' });
        let r2;
        let hooked = false;
        Object.defineProperty(Promise.prototype, 'constructor', {
          configurable: true,
          get() {
            if (!hooked) {
              hooked = true;
              r1.releaseLock();
              r2 = rs.getReader({ mode: 'byob' });
            }
            return Promise;
          },
        });
        r1.releaseLock();
        delete Promise.prototype.constructor;
        Promise.prototype.constructor = Promise;
        log.push(r2 === undefined ? 'no reentry' : String(rs.locked));
        if (r2 !== undefined) {
          // r2 holds the lock: its stream is not undefined, so read() does not reject with
          // "released", and nobody else can take the lock.
          try { rs.getReader(); log.push('second reader'); } catch (e) { log.push(e.name); }
        }
    "#,
        ",",
    );
    assert!(log == "no reentry" || log == "true,TypeError", "{log}");
}

/// The script of [`pull_into_buffers_behave_as_transferred_objects`]: every place a pull-into
/// descriptor's buffer reaches script.
const PULL_INTO_BUFFER_SCRIPT: &str = r#"
const p = (...a) => log.push(a.join(' '));
(async () => {
  // 1. The buffer of read(view) is detached at once; the request's view is over a new
  //    buffer (same bytes, same realm), stable while the request lives, detached by respond.
  let req, reqBuf;
  const rs = new ReadableStream({
    type: 'bytes',
    pull(c) {
      req = c.byobRequest;
      const v = req.view;
      reqBuf = v.buffer;
      p('pull', v.byteOffset, v.byteLength, reqBuf.byteLength, v[0], v[1],
        Object.getPrototypeOf(reqBuf) === ArrayBuffer.prototype,
        c.byobRequest === req, c.byobRequest.view === v, req.view.buffer === reqBuf);
      v[0] = 7;
      req.respond(2);
      p('responded', reqBuf.byteLength, req.view, c.byobRequest);
    },
  });
  const reader = rs.getReader({ mode: 'byob' });
  const buf = new ArrayBuffer(8);
  new Uint8Array(buf).set([1, 2, 3, 4, 5, 6, 7, 8]);
  const pr = reader.read(new Uint8Array(buf, 2, 4));
  p('after read', buf.byteLength);
  const { value, done } = await pr;
  p('value', done, value.byteOffset, value.byteLength, value.buffer.byteLength, Array.from(new Uint8Array(value.buffer)).join('.'),
    value.buffer === reqBuf, value.buffer === buf, Object.getPrototypeOf(value.buffer) === ArrayBuffer.prototype);
  // 2. Script detaches the request's buffer: respond and enqueue see it detached.
  let step = 0;
  const rs2 = new ReadableStream({
    type: 'bytes',
    pull(c) {
      step++;
      const v = c.byobRequest.view;
      if (step === 1) {
        v.buffer.transfer();
        try { c.byobRequest.respond(1); } catch (e) { p('respond', e.constructor.name); }
        try { c.enqueue(new Uint8Array([1])); } catch (e) { p('enqueue', e.constructor.name); }
        const nv = new Uint8Array(new ArrayBuffer(4), 0, 3);
        nv.set([4, 5, 6]);
        try { c.byobRequest.respondWithNewView(nv); } catch (e) { p('rwnv', e.constructor.name); }
        p('new view buffer', nv.buffer.byteLength);
      }
    },
  });
  const r2 = rs2.getReader({ mode: 'byob' });
  const res2 = await r2.read(new Uint8Array(4)).then(r => 'ok ' + Array.from(r.value).join('.') + ' ' + r.value.buffer.byteLength, e => 'err ' + e.constructor.name);
  p('read2', res2);
  // 3. enqueue() while the request's view was never made; fill from the queue; close case.
  let c3;
  const rs3 = new ReadableStream({ type: 'bytes', start(c) { c3 = c; } });
  const r3 = rs3.getReader({ mode: 'byob' });
  const pr3 = r3.read(new Uint8Array(3));
  c3.enqueue(new Uint8Array([9, 8, 7, 6, 5]));
  const a = await pr3;
  p('read3', Array.from(a.value).join('.'), a.value.buffer.byteLength, c3.byobRequest);
  const b = await r3.read(new Uint16Array(2));
  p('read3b', b.value.constructor.name, b.value.length, Array.from(new Uint8Array(b.value.buffer)).join('.'));
  c3.close();
  const closeBuf = new ArrayBuffer(6);
  const c = await r3.read(new DataView(closeBuf, 1, 4));
  p('read3c', c.done, c.value.constructor.name, c.value.byteOffset, c.value.byteLength, c.value.buffer.byteLength, closeBuf.byteLength);
  // 4. Released reader with a partly filled descriptor: its bytes are cloned into the queue.
  let c4;
  const rs4 = new ReadableStream({ type: 'bytes', start(c) { c4 = c; }, pull(c) {
    const v = c.byobRequest.view; if (v.byteLength === 4) { v.set([1, 2]); c.byobRequest.respond(2); }
  } });
  const r4 = rs4.getReader({ mode: 'byob' });
  const pr4 = r4.read(new Uint8Array(4), { min: 4 }).then(() => 'resolved', e => e.constructor.name);
  await Promise.resolve();
  await Promise.resolve();
  r4.releaseLock();
  p('read4', await pr4);
  c4.enqueue(new Uint8Array([3]));
  const d4 = rs4.getReader();
  const x = await d4.read();
  const y = await d4.read();
  p('read4 default', Array.from(x.value).join('.'), x.value.buffer.byteLength, Array.from(y.value).join('.'));
})().catch(e => p('fail', e)).then(() => p('end'));
"#;

/// With the fast paths on a pull-into descriptor keeps a transferred data block until script
/// could see its buffer; every observation is the literal spec's: the caller's buffer detached
/// at `read(view)`, the request view's buffer a new `%ArrayBuffer.prototype%` object with the
/// same bytes (the same object while the request lives, detached by `respond`), script
/// detaching it (respond and enqueue throw), `respondWithNewView`, reads filled from the
/// queue, the closed case's empty view, a released reader's partly filled descriptor cloned
/// into the queue.
#[test]
fn pull_into_buffers_behave_as_transferred_objects() {
    let log = crate::test_support::both_modes(|_| run_log(PULL_INTO_BUFFER_SCRIPT, "\n"));
    assert_eq!(
        log,
        "after read 0\n\
         pull 2 4 8 3 4 true true true true\n\
         responded 0  \n\
         value false 2 2 8 1.2.7.4.5.6.7.8 false false true\n\
         respond TypeError\n\
         enqueue TypeError\n\
         new view buffer 0\n\
         read2 ok 4.5.6 4\n\
         read3 9.8.7 3 \n\
         read3b Uint16Array 1 6.5.0.0\n\
         read3c true DataView 1 0 6 0\n\
         read4 TypeError\n\
         read4 default 1.2 2 3\n\
         end"
    );
}

/// The pending descriptor's buffer: a block after `read(view)` (fast paths), the object once
/// `byobRequest.view` was asked for, again a block after `respond` made the next descriptor
/// current; with the fast paths off always an object.
#[test]
fn pull_into_buffer_is_a_block_until_the_request_view_is_made() {
    use crate::readable::buffers::PullIntoBuffer;
    use crate::readable::byte_controller::ReadableByteStreamController;
    fn state(ctx: &mut Context) -> &'static str {
        let c = eval(ctx, "ctrl");
        let c = c
            .as_object()
            .and_then(|o| o.clone().downcast::<ReadableByteStreamController>().ok())
            .expect("ctrl is a byte controller");
        let first = c.borrow().data().first_pending_pull_into();
        match first.map(|p| matches!(p.borrow().buffer, PullIntoBuffer::Block(..))) {
            None => "none",
            Some(true) => "block",
            Some(false) => "object",
        }
    }
    for fast in [true, false] {
        with_fast_paths(fast, || {
            let mut ctx = context();
            eval(
                &mut ctx,
                "globalThis.ctrl = undefined;
                 const rs = new ReadableStream({ type: 'bytes', start(c) { ctrl = c; } });
                 globalThis.reader = rs.getReader({ mode: 'byob' });
                 globalThis.orig = new ArrayBuffer(4);
                 globalThis.p1 = dataPointer(orig);
                 reader.read(new Uint8Array(orig)).then(r => { globalThis.got = r.value; });",
            );
            run_jobs(&mut ctx);
            assert_eq!(state(&mut ctx), if fast { "block" } else { "object" });
            eval(&mut ctx, "globalThis.v = ctrl.byobRequest.view;");
            assert_eq!(state(&mut ctx), "object");
            assert_eq!(
                string(&mut ctx, "String(dataPointer(v.buffer) === p1)"),
                "true"
            );
            eval(&mut ctx, "ctrl.byobRequest.respond(1);");
            run_jobs(&mut ctx);
            assert_eq!(state(&mut ctx), "none");
            // The result is over the caller's block (no copy at any transfer).
            assert_eq!(
                string(
                    &mut ctx,
                    "[dataPointer(got.buffer) === p1, dataPointer(v.buffer), got.length].join()"
                ),
                "true,detached,1"
            );
        });
    }
}

/// `ViewConstructor::construct` over all of a buffer (the fast path's whole-buffer
/// construction) makes the view `Construct(ctor, « buffer, 0, length »)` makes: a fixed
/// length even over a resizable buffer, the same slots for every kind.
#[test]
fn view_construct_over_a_whole_buffer_matches_construct_with_offset_and_length() {
    use crate::readable::buffers::{TypedArrayKind, ViewConstructor};
    let run = |fast: bool| {
        with_fast_paths(fast, || {
            let mut ctx = context();
            eval(
                &mut ctx,
                "globalThis.rab = new ArrayBuffer(8, { maxByteLength: 16 });
                 globalThis.fab = new ArrayBuffer(8); globalThis.out = []; globalThis.views = [];",
            );
            let kinds = [
                ViewConstructor::Typed(TypedArrayKind::Uint8),
                ViewConstructor::Typed(TypedArrayKind::Uint16),
                ViewConstructor::Typed(TypedArrayKind::Float64),
                ViewConstructor::DataView,
            ];
            for name in ["rab", "fab"] {
                let buffer = eval(&mut ctx, name);
                let buffer = buffer
                    .as_object()
                    .and_then(|o| JsArrayBuffer::from_object(o.clone()).ok())
                    .expect("an ArrayBuffer");
                for kind in kinds {
                    let length = 8 / kind.element_size();
                    let view = kind.construct(&buffer, 0, length, &mut ctx).unwrap();
                    crate::test_support::set_global(&mut ctx, "v", view);
                    eval(
                        &mut ctx,
                        "views.push(v); \
                         out.push([v.constructor.name, v.byteOffset, v.byteLength, v.length].join());",
                    );
                }
            }
            eval(&mut ctx, "rab.resize(16);");
            eval(
                &mut ctx,
                "out.push('resized', new Uint8Array(rab).length, views.map(v => v.byteLength).join('/'));",
            );
            string(&mut ctx, "out.join(' ')")
        })
    };
    let fast = run(true);
    assert_eq!(fast, run(false));
    assert_eq!(
        fast,
        "Uint8Array,0,8,8 Uint16Array,0,8,4 Float64Array,0,8,1 DataView,0,8, \
         Uint8Array,0,8,8 Uint16Array,0,8,4 Float64Array,0,8,1 DataView,0,8, resized 16 8/8/8/8/8/8/8/8"
    );
}
