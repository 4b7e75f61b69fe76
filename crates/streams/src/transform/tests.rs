//! TransformStream unit tests: what WPT cannot see (fast-path equivalence, GC, no JS promise
//! for the default transform, member read order).

use crate::test_support::{context, eval, fast_paths_scope, string};

fn run_ordering(fast: bool) -> String {
    let _fast_paths = fast_paths_scope(fast);
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        globalThis.log = [];
        let tick = 0;
        const count = () => { tick++; if (tick < 40) Promise.resolve().then(count); };
        Promise.resolve().then(count);
        const ts = new TransformStream({
            transform(chunk, c) {
                log.push('transform ' + chunk + '@' + tick);
                c.enqueue(chunk.toUpperCase());
                if (chunk === 'c') throw new Error('bad chunk');
            },
            flush() { log.push('flush@' + tick); },
            cancel(r) { log.push('cancel@' + tick); },
        });
        const writer = ts.writable.getWriter();
        const reader = ts.readable.getReader();
        const read = () => reader.read().then(r => {
            log.push('read ' + r.value + '@' + tick);
            if (!r.done) read();
        }, e => log.push('read error ' + e.message + '@' + tick));
        read();
        for (const x of ['a', 'b', 'c']) {
            writer.write(x).then(() => log.push('written ' + x + '@' + tick),
                                 e => log.push('write failed ' + x + '@' + tick));
        }
        writer.closed.catch(e => log.push('closed rejected@' + tick));
        "#,
    );
    ctx.run_jobs().unwrap();
    string(&mut ctx, "log.join()")
}

#[test]
fn fast_paths_keep_the_microtask_positions() {
    let fast = run_ordering(true);
    let slow = run_ordering(false);
    assert!(fast.contains("write failed c"), "{fast}");
    assert_eq!(fast, slow);
}

#[test]
fn transformer_members_are_read_in_lexicographic_order_after_the_strategies() {
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        globalThis.order = [];
        const spy = (name, value) => new Proxy({}, {
            get(_, key) { order.push(name + '.' + String(key)); return value(key); },
        });
        new TransformStream(
            spy('transformer', () => undefined),
            spy('writable', k => (k === 'highWaterMark' ? 1 : undefined)),
            spy('readable', k => (k === 'highWaterMark' ? 0 : undefined)));
        "#,
    );
    assert_eq!(
        string(&mut ctx, "order.join()"),
        "writable.highWaterMark,writable.size,readable.highWaterMark,readable.size,\
         transformer.cancel,transformer.flush,transformer.readableType,transformer.start,\
         transformer.transform,transformer.writableType"
    );
}

#[test]
fn transform_stream_is_collected_with_its_controller_and_transformer() {
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        globalThis.refs = (() => {
            let controller;
            const transformer = { start(c) { controller = c; }, transform(x, c) { c.enqueue(x); } };
            const ts = new TransformStream(transformer);
            ts.writable.getWriter().write('x');
            ts.readable.getReader().read();
            return [new WeakRef(ts), new WeakRef(controller), new WeakRef(transformer),
                    new WeakRef(ts.readable), new WeakRef(ts.writable)];
        })();
        "#,
    );
    ctx.run_jobs().unwrap();
    ctx.clear_kept_objects();
    crate::test_support::gc_now();
    assert_eq!(
        string(&mut ctx, "refs.map(r => String(r.deref())).join()"),
        "undefined,undefined,undefined,undefined,undefined"
    );
}

#[test]
fn cleared_algorithms_release_the_transformer() {
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        globalThis.ts = undefined;
        globalThis.ref = (() => {
            const transformer = { transform(x, c) { c.enqueue(x); } };
            ts = new TransformStream(transformer);
            ts.readable.cancel('stop');
            return new WeakRef(transformer);
        })();
        "#,
    );
    ctx.run_jobs().unwrap();
    ctx.clear_kept_objects();
    crate::test_support::gc_now();
    // The stream is alive, but its algorithms were cleared: the transformer is not.
    assert_eq!(
        string(&mut ctx, "typeof ts + ',' + String(ref.deref())"),
        "object,undefined"
    );
}

#[test]
fn desired_size_follows_the_readable_side() {
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        globalThis.sizes = [];
        const ts = new TransformStream({
            start(c) { sizes.push(c.desiredSize); c.enqueue(1); sizes.push(c.desiredSize); },
        }, undefined, { highWaterMark: 2 });
        ts.readable.cancel();
        Promise.resolve().then(() => Promise.resolve()).then(() => { });
        "#,
    );
    ctx.run_jobs().unwrap();
    assert_eq!(string(&mut ctx, "sizes.join()"), "2,1");
}

fn write_while_the_source_cancel_is_pending(fast: bool, transform: &str) -> String {
    let _fast_paths = fast_paths_scope(fast);
    let mut ctx = context();
    eval(
        &mut ctx,
        &format!(
            r#"
        globalThis.log = [];
        let resolveCancel;
        const ts = new TransformStream({{
            {transform}
            cancel(r) {{ log.push('cancel ' + r); return new Promise(res => {{ resolveCancel = res; }}); }},
        }}, undefined, {{ highWaterMark: 1 }});
        const writer = ts.writable.getWriter();
        writer.closed.catch(e => log.push('closed rejected ' + e));
        // Both sides started and the readable side pulled (no backpressure).
        let p = Promise.resolve();
        for (let i = 0; i < 5; i++) p = p.then(() => {{ }});
        p.then(() => {{
            ts.readable.cancel('stop').then(() => log.push('cancelled'));
            writer.write('a').then(() => log.push('written'), e => log.push('write failed ' + e));
        }});
        for (let i = 0; i < 5; i++) p = p.then(() => {{ }});
        p.then(() => {{ log.push('resolve cancel'); resolveCancel(); }});
        "#
        ),
    );
    ctx.run_jobs().unwrap();
    string(&mut ctx, "log.join()")
}

/// difftest seed 29546: `readable.cancel()` clears the algorithms at once but errors the
/// writable side only when the cancel promise settles; a write processed in between (no
/// backpressure) reaches PerformTransform with the transform algorithm cleared. It does
/// nothing and fulfils; the writable side errors with the reason afterwards.
#[test]
fn a_write_between_cancel_and_its_settlement_runs_no_transform() {
    let expected = "cancel stop,written,resolve cancel,closed rejected stop,cancelled";
    for transform in ["transform(x) { log.push('transform ' + x); },", ""] {
        for fast in [true, false] {
            assert_eq!(
                write_while_the_source_cancel_is_pending(fast, transform),
                expected,
                "fast={fast} transform={transform:?}"
            );
        }
    }
}

fn run_backpressure_ordering(fast: bool) -> String {
    let _fast_paths = fast_paths_scope(fast);
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        globalThis.log = [];
        let tick = 0;
        const count = () => { tick++; if (tick < 60) Promise.resolve().then(count); };
        Promise.resolve().then(count);
        const ts = new TransformStream({
            transform(chunk, c) { log.push('transform ' + chunk + '@' + tick); c.enqueue(chunk); },
        }, undefined, { highWaterMark: 1 });
        const writer = ts.writable.getWriter();
        // Writes queued while [[backpressure]] is true wait on the backpressure-change promise.
        for (const x of [1, 2, 3, 4]) {
            writer.write(x).then(() => log.push('written ' + x + '@' + tick));
        }
        const reader = ts.readable.getReader();
        const read = () => reader.read().then(r => {
            log.push('read ' + r.value + '@' + tick);
            if (!r.done) Promise.resolve().then(read);
        });
        Promise.resolve().then(() => Promise.resolve()).then(read);
        writer.close().then(() => log.push('closed@' + tick));
        "#,
    );
    ctx.run_jobs().unwrap();
    string(&mut ctx, "log.join()")
}

#[test]
fn backpressure_change_promise_made_on_demand_keeps_the_order() {
    let fast = run_backpressure_ordering(true);
    let slow = run_backpressure_ordering(false);
    assert!(fast.contains("written 4"), "{fast}");
    assert!(fast.contains("read undefined"), "{fast}");
    assert_eq!(fast, slow);
}

#[test]
fn backpressure_change_promise_is_made_only_when_something_waits_on_it() {
    for fast in [true, false] {
        let _fast_paths = fast_paths_scope(fast);
        let mut ctx = context();
        let value = ctx
            .eval(boa_engine::Source::from_bytes("new TransformStream()"))
            .unwrap();
        let stream = value
            .as_object()
            .and_then(|o| o.clone().downcast::<super::TransformStream>().ok())
            .unwrap();
        let made = stream
            .borrow()
            .data()
            .backpressure_change_promise
            .borrow()
            .is_some();
        assert_eq!(made, !fast, "fast paths {fast}");
        // A writer's write waits on it: now it exists in both modes.
        super::transform_stream_default_sink_write_algorithm(
            &stream,
            boa_engine::JsValue::from(1).into(),
            &mut ctx,
        );
        assert!(stream
            .borrow()
            .data()
            .backpressure_change_promise
            .borrow()
            .is_some());
    }
}

/// Writes whose transform settles synchronously while the readable side has room (the write
/// processing's `SinkWrite::FulfilledNextTick` fast path), a transform returning a promise and
/// one that throws: every write settles on the same tick with fast paths on and off.
fn run_sync_transform_write_ticks(fast: bool, transformer: &str) -> String {
    let _fast_paths = fast_paths_scope(fast);
    let mut ctx = context();
    eval(
        &mut ctx,
        &format!(
            r#"
        var log = [];
        let tick = 0;
        const count = () => {{ tick++; if (tick < 60) Promise.resolve().then(count); }};
        Promise.resolve().then(count);
        const ts = new TransformStream({transformer}, {{ highWaterMark: 8 }}, {{ highWaterMark: 4 }});
        const writer = ts.writable.getWriter();
        for (const x of ['a', 'b', 'async', 'c', 'throw', 'd']) {{
            writer.write(x).then(
                () => log.push('written ' + x + '@' + tick),
                e => log.push('failed ' + x + ' ' + e.message + '@' + tick));
        }}
        writer.closed.catch(e => log.push('closed ' + e.message + '@' + tick));
        const reader = ts.readable.getReader();
        const read = () => reader.read().then(r => {{
            log.push('read ' + r.value + '@' + tick);
            if (!r.done) read();
        }}, e => log.push('read failed@' + tick));
        read();
        "#
        ),
    );
    ctx.run_jobs().unwrap();
    string(&mut ctx, "log.join()")
}

#[test]
fn sync_transform_writes_settle_on_the_same_ticks_with_fast_paths_on_and_off() {
    for (transformer, last) in [
        (
            r#"{ transform(x, c) {
            if (x === 'throw') throw new Error('boom');
            c.enqueue(x);
            if (x === 'async') return Promise.resolve();
        } }"#,
            "failed throw boom@",
        ),
        ("{}", "read d@"),
    ] {
        let fast = run_sync_transform_write_ticks(true, transformer);
        let slow = run_sync_transform_write_ticks(false, transformer);
        assert!(fast.contains("written a@"), "{fast}");
        assert!(fast.contains(last), "{fast}");
        assert_eq!(fast, slow, "{transformer}");
    }
}
