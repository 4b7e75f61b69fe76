//! Unit tests for readable byte streams that WPT cannot see: zero-copy buffer reuse in a BYOB
//! read loop, TransferArrayBuffer's real detachment, enqueue() of a detached view leaving the
//! stream usable, element sizes of every view type, GC, fast-path equivalence.

use boa_engine::{js_string, object::builtins::JsArrayBuffer, Context, JsValue, NativeFunction};

use crate::readable::buffers::{is_detached_buffer, transfer_array_buffer};
use crate::test_support::{eval, string, with_fast_paths};

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
    let original = JsArrayBuffer::new(16, &mut ctx).unwrap();
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
    boa_gc::force_collect();
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
