//! pipeTo unit tests: what WPT cannot see (abort algorithm cleanup, GC of abandoned pipes,
//! bounded queues over a long pipe chain, fast-path equivalence).

use boa_engine::Context;

use crate::test_support::{context, eval, fast_paths_scope, string};

fn signal_algorithms(ctx: &mut Context) -> usize {
    let signal = eval(ctx, "signal");
    boa_dom::abort_algorithm_count(&signal.as_object().unwrap())
}

#[test]
fn finished_pipe_leaves_no_abort_algorithm_on_its_signal() {
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        globalThis.done = 'pending';
        globalThis.signal = new AbortController().signal;
        globalThis.source = undefined;
        const rs = new ReadableStream({ start(c) { source = c; } });
        rs.pipeTo(new WritableStream(), { signal }).then(() => { done = 'resolved'; });
        "#,
    );
    ctx.run_jobs().unwrap();
    // While the pipe runs, its abort algorithm is added to the signal.
    assert_eq!(signal_algorithms(&mut ctx), 1);
    eval(&mut ctx, "source.enqueue('a'); source.close();");
    ctx.run_jobs().unwrap();
    assert_eq!(string(&mut ctx, "done"), "resolved");
    assert_eq!(signal_algorithms(&mut ctx), 0);

    // The same for a pipe that ends with an error, and for one that the signal aborts.
    eval(
        &mut ctx,
        r#"
        done = 'pending';
        const rs2 = new ReadableStream({ start(c) { c.error(new Error('boom')); } });
        rs2.pipeTo(new WritableStream(), { signal }).catch(e => { done = e.message; });
        "#,
    );
    ctx.run_jobs().unwrap();
    assert_eq!(string(&mut ctx, "done"), "boom");
    assert_eq!(signal_algorithms(&mut ctx), 0);
    eval(
        &mut ctx,
        r#"
        done = 'pending';
        const ac = new AbortController();
        signal = ac.signal;
        new ReadableStream().pipeTo(new WritableStream(), { signal }).catch(e => { done = e.name; });
        "#,
    );
    ctx.run_jobs().unwrap();
    assert_eq!(signal_algorithms(&mut ctx), 1);
    eval(&mut ctx, "ac.abort();");
    ctx.run_jobs().unwrap();
    assert_eq!(string(&mut ctx, "done"), "AbortError");
    assert_eq!(signal_algorithms(&mut ctx), 0);
}

#[test]
fn many_pipes_on_one_long_lived_signal_do_not_accumulate() {
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        globalThis.signal = new AbortController().signal;
        globalThis.finished = 0;
        for (let i = 0; i < 200; i++) {
            const rs = new ReadableStream({ start(c) { c.enqueue(i); c.close(); } });
            rs.pipeTo(new WritableStream(), { signal }).then(() => { finished++; });
        }
        "#,
    );
    ctx.run_jobs().unwrap();
    assert_eq!(string(&mut ctx, "finished"), "200");
    assert_eq!(signal_algorithms(&mut ctx), 0);
}

#[test]
fn hundred_thousand_chunks_through_two_transforms_with_bounded_queues() {
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        globalThis.result = 'pending';
        globalThis.stats = { maxSourceQueue: 0, maxT1Queue: 0, maxT2Queue: 0, sizeCalls: 0,
                             written: 0, sum: 0 };
        const N = 100000;
        let next = 0;
        const source = new ReadableStream({
            pull(c) {
                c.enqueue(next++);
                stats.maxSourceQueue = Math.max(stats.maxSourceQueue, 1 - c.desiredSize);
                if (next === N) c.close();
            }
        }, { highWaterMark: 1 });
        const t1 = new TransformStream({
            transform(chunk, c) {
                c.enqueue(chunk * 2);
                stats.maxT1Queue = Math.max(stats.maxT1Queue, -c.desiredSize);
            }
        });
        const t2 = new TransformStream({
            transform(chunk, c) {
                c.enqueue(chunk + 1);
                stats.maxT2Queue = Math.max(stats.maxT2Queue, 1 - c.desiredSize);
            }
        }, undefined, { highWaterMark: 1 });
        const sink = new WritableStream({
            write(chunk) {
                stats.written++;
                stats.sum += chunk;
                // Every other write completes asynchronously: backpressure builds up.
                if (chunk % 4 === 1) return new Promise(r => Promise.resolve().then(r));
            }
        }, { highWaterMark: 1, size() { stats.sizeCalls++; return 1; } });
        source.pipeThrough(t1).pipeThrough(t2).pipeTo(sink).then(
            () => { result = 'done'; },
            e => { result = 'failed: ' + e; });
        "#,
    );
    ctx.run_jobs().unwrap();
    assert_eq!(string(&mut ctx, "result"), "done");
    assert_eq!(string(&mut ctx, "stats.written"), "100000");
    assert_eq!(string(&mut ctx, "stats.sizeCalls"), "100000");
    // sum of (2i + 1) for i < N = N^2.
    assert_eq!(string(&mut ctx, "stats.sum"), "10000000000");
    // Backpressure: no queue on the way grows beyond a couple of chunks.
    let max: f64 = string(
        &mut ctx,
        "Math.max(stats.maxSourceQueue, stats.maxT1Queue, stats.maxT2Queue)",
    )
    .parse()
    .unwrap();
    assert!(max <= 2.0, "a queue grew to {max} chunks");
}

#[test]
fn abandoned_pipe_is_collected() {
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        globalThis.refs = (() => {
            const rs = new ReadableStream({ start(c) { c.enqueue('first'); } });
            const ws = new WritableStream({ write() { return new Promise(() => {}); } });
            const ts = new TransformStream();
            const signal = new AbortController().signal;
            rs.pipeThrough(ts).pipeTo(ws, { signal });
            return [new WeakRef(rs), new WeakRef(ws), new WeakRef(ts), new WeakRef(signal)];
        })();
        "#,
    );
    ctx.run_jobs().unwrap();
    // Mid-way: the first chunk is stuck in the sink's write.
    ctx.clear_kept_objects();
    crate::test_support::gc_now();
    assert_eq!(
        string(&mut ctx, "refs.map(r => String(r.deref())).join()"),
        "undefined,undefined,undefined,undefined"
    );
}

#[test]
fn pipe_with_a_live_signal_stays_alive_until_it_finishes() {
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        globalThis.ac = new AbortController();
        globalThis.outcome = 'pending';
        globalThis.ref = (() => {
            const rs = new ReadableStream();
            rs.pipeTo(new WritableStream(), { signal: ac.signal })
              .catch(e => { outcome = e.name; });
            return new WeakRef(rs);
        })();
        "#,
    );
    ctx.run_jobs().unwrap();
    ctx.clear_kept_objects();
    crate::test_support::gc_now();
    // The signal's abort algorithm can still act on the pipe: it is not collected.
    assert_eq!(string(&mut ctx, "typeof ref.deref()"), "object");
    eval(&mut ctx, "ac.abort();");
    ctx.run_jobs().unwrap();
    assert_eq!(string(&mut ctx, "outcome"), "AbortError");
}

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
        const rs = new ReadableStream({
            start(c) { c.enqueue('a'); c.enqueue('b'); c.close(); },
        });
        const ts = new TransformStream({
            transform(chunk, c) { log.push('transform ' + chunk + '@' + tick); c.enqueue(chunk); },
            flush() { log.push('flush@' + tick); },
        });
        const ws = new WritableStream({
            write(chunk) { log.push('write ' + chunk + '@' + tick); },
            close() { log.push('close@' + tick); },
        });
        rs.pipeThrough(ts).pipeTo(ws).then(() => log.push('done@' + tick));
        "#,
    );
    ctx.run_jobs().unwrap();
    string(&mut ctx, "log.join()")
}

#[test]
fn fast_paths_keep_the_microtask_positions() {
    let fast = run_ordering(true);
    let slow = run_ordering(false);
    assert!(fast.contains("close@"), "{fast}");
    assert_eq!(fast, slow);
}

#[test]
fn throwing_option_getters_reject_without_corrupting_the_caller() {
    // A getter that throws from a nested frame, with pipeTo() called as an argument: the
    // options are read through webidl::get_catching (engine bug native-catch-stack).
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        globalThis.out = [];
        const options = {
            fail() { throw new Error('from a helper'); },
            get preventAbort() { out.push('preventAbort'); return false; },
            get preventCancel() { out.push('preventCancel'); this.fail(); },
            get preventClose() { out.push('preventClose'); return false; },
        };
        function g(a, b, promise, d) {
            promise.catch(e => out.push('rejected: ' + e.message));
            return a + b + d;
        }
        out.push(g(1, 2, new ReadableStream().pipeTo(new WritableStream(), options), 3));
        "#,
    );
    ctx.run_jobs().unwrap();
    assert_eq!(
        string(&mut ctx, "out.join()"),
        "preventAbort,preventCancel,6,rejected: from a helper"
    );
}

fn pre_aborted_signal_ticks(fast: bool) -> String {
    let _fast_paths = fast_paths_scope(fast);
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        globalThis.log = [];
        let tick = 0;
        const count = () => { tick++; if (tick < 40) Promise.resolve().then(count); };
        function run(name, opts, abort, cancel) {
            const ac = new AbortController();
            ac.abort(name);
            const rs = new ReadableStream({ cancel });
            const ws = new WritableStream({ abort });
            opts.signal = ac.signal;
            rs.pipeTo(ws, opts).catch((e) => log.push(name + '@' + tick));
        }
        Promise.resolve().then(count);
        // Shutdown first waits for the (settled) writes: the action runs at tick 2. The
        // signal's action is a promise to wait for all of the actions; finalize reacts to it.
        // Empty set: successSteps in a queued microtask (tick 3) resolve it, finalize rejects
        // the pipe's promise at tick 4, the catch runs at tick 5.
        run('none', { preventAbort: true, preventCancel: true });
        // Only cancel: ReadableStreamCancel's promise (a reaction to the source's cancel
        // result) settles at tick 3, wait-for-all's handler at tick 4, finalize at tick 5.
        run('cancel', { preventAbort: true }, undefined, () => {});
        "#,
    );
    ctx.run_jobs().unwrap();
    string(&mut ctx, "log.join()")
}

#[test]
fn pre_aborted_signal_settles_through_the_wait_for_all_promise() {
    for fast in [true, false] {
        let out = pre_aborted_signal_ticks(fast);
        assert_eq!(out, "none@5,cancel@6", "fast paths {fast}");
    }
}
