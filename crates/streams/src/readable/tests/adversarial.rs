//! Adversarial reentrancy tests: script re-entering streams from getters (`then`,
//! `constructor`), `size()`, `pull()`, abort listeners, iterator methods; brand checks of
//! promise-returning methods. A Rust panic (e.g. "already borrowed") fails the test.

use crate::test_support::{context, eval, run_jobs_past_errors, string, with_fast_paths};

/// Run `script` in a fresh context with `globalThis.log = []`; drain jobs (jobs may throw:
/// script errors inside reactions); return `log.join(',')`.
fn run_once(script: &str) -> String {
    let mut ctx = context();
    eval(&mut ctx, "globalThis.log = [];");
    eval(&mut ctx, script);
    run_jobs_past_errors(&mut ctx);
    string(&mut ctx, "log.join(',')")
}

/// Run `script` with fast paths on and off; drain jobs; return `log.join(',')` per mode (they
/// must agree).
fn run(script: &str) -> String {
    crate::test_support::both_modes(|_| run_once(script))
}

/// Like [`run`] without comparing the modes; returns the fast-paths-off log.
fn run_each(script: &str) -> String {
    with_fast_paths(true, || run_once(script));
    with_fast_paths(false, || run_once(script))
}

/// Installs `globalThis.chaos(f)`: a `Promise.prototype.constructor` getter and an
/// `Object.prototype.then` getter that run `f` (guarded against recursion, exceptions
/// swallowed) and then behave as if untouched.
const CHAOS: &str = r#"
    globalThis.chaosFn = null;
    let inChaos = false;
    function runChaos(tag) {
        if (!chaosFn || inChaos) return;
        inChaos = true;
        try { chaosFn(tag); } catch (e) { log.push('chaos threw ' + (e && e.name)); }
        inChaos = false;
    }
    Object.defineProperty(Promise.prototype, 'constructor', {
        configurable: true,
        get() { runChaos('ctor'); return Promise; },
    });
    Object.defineProperty(Object.prototype, 'then', {
        configurable: true,
        get() { runChaos('then'); return undefined; },
    });
    globalThis.chaos = (f) => { chaosFn = f; };
"#;

#[test]
fn constructor_and_then_getters_release_cancel_enqueue_during_reads() {
    let log = run(&format!(
        "{CHAOS}
        let c;
        const rs = new ReadableStream({{ start(ctrl) {{ c = ctrl; }}, pull() {{}} }});
        const reader = rs.getReader();
        let n = 0;
        chaos(() => {{
            n++;
            if (n === 3) reader.releaseLock();
            if (n === 4) rs.cancel('x').catch(() => {{}});
            if (n % 2) try {{ c.enqueue({{ n }}); }} catch (e) {{}}
            if (n === 6) try {{ c.close(); }} catch (e) {{}}
            if (n === 8) try {{ c.error('boom'); }} catch (e) {{}}
        }});
        c.enqueue({{}});
        for (let i = 0; i < 5; i++) {{
            reader.read().then(r => log.push('r' + r.done), e => log.push('e' + e.name));
        }}
        reader.closed.then(() => log.push('closed'), e => log.push('closedErr'));
        log.push('sync-done');
        "
    ));
    assert!(log.contains("sync-done"), "{log}");
}

#[test]
fn then_getter_reenters_async_iterator_next_and_return() {
    let log = run(&format!(
        "{CHAOS}
        let c;
        const rs = new ReadableStream({{ start(ctrl) {{ c = ctrl; }} }});
        const it = rs.values();
        let n = 0;
        chaos(() => {{
            n++;
            if (n < 4) it.next().then(r => log.push('inner' + r.done), e => log.push('innerE'));
            if (n === 4) it.return('bye').then(r => log.push('ret' + r.done), e => log.push('retE'));
        }});
        c.enqueue({{ a: 1 }});
        c.enqueue({{ a: 2 }});
        it.next().then(r => log.push('outer' + r.done), e => log.push('outerE'));
        it.next().then(r => log.push('outer2' + r.done), e => log.push('outer2E'));
        it.return('z').then(r => log.push('outerRet' + r.done), e => log.push('outerRetE'));
        log.push('sync-done');
        "
    ));
    assert!(log.contains("sync-done"), "{log}");
}

#[test]
fn size_calls_close_error_enqueue_and_release() {
    let log = run(r#"
        let c, reader, n = 0;
        const rs = new ReadableStream({ start(ctrl) { c = ctrl; } }, {
            size(chunk) {
                n++;
                if (n === 1) { try { c.enqueue('inner'); } catch (e) { log.push('enqE'); } }
                if (n === 2) { reader.releaseLock(); }
                if (n === 3) { c.close(); }
                if (n === 4) { c.error('boom'); }
                return 1;
            },
            highWaterMark: 10,
        });
        reader = rs.getReader();
        c.enqueue('a');
        try { c.enqueue('b'); } catch (e) { log.push('b:' + e); }
        try { c.enqueue('c'); } catch (e) { log.push('c:' + e.name); }
        try { c.enqueue('d'); } catch (e) { log.push('d:' + e.name); }
        log.push(String(c.desiredSize));
        const r2 = rs.getReader();
        r2.read().then(r => log.push('read ' + r.value + ' ' + r.done), e => log.push('readE'));
        r2.closed.then(() => log.push('closed'), e => log.push('closedE'));
    "#);
    assert!(log.contains("c:TypeError"), "{log}");
}

#[test]
fn size_errors_stream_then_chunk_is_still_queued_harmlessly() {
    let log = run(r#"
        let c;
        const rs = new ReadableStream({ start(ctrl) { c = ctrl; } }, {
            size() { c.error('boom'); return 1; },
        });
        c.enqueue('a');
        log.push(String(c.desiredSize));
        rs.getReader().read().then(() => log.push('read'), e => log.push('err ' + e));
    "#);
    assert_eq!(log, "null,err boom");
}

#[test]
fn size_returning_object_whose_valueof_reenters() {
    let log = run(r#"
        let c;
        const rs = new ReadableStream({ start(ctrl) { c = ctrl; } }, {
            size() { return { valueOf() { c.enqueue('x'); return 2; } }; },
            highWaterMark: 1e9,
        });
        try { c.enqueue('a'); } catch (e) { log.push('E'); }
        log.push(String(c.desiredSize));
        log.push('done');
    "#);
    assert!(log.ends_with("done"), "{log}");
}

#[test]
fn size_returning_huge_or_nan() {
    let log = run(r#"
        let c;
        const rs = new ReadableStream({ start(ctrl) { c = ctrl; } }, {
            size(ch) { return ch; },
            highWaterMark: Infinity,
        });
        for (const v of [Number.MAX_VALUE, Number.MAX_VALUE, -1, NaN, Infinity]) {
            try { c.enqueue(v); log.push('ok'); } catch (e) { log.push(e.name); }
        }
    "#);
    // After the RangeError the stream is errored: later enqueues throw TypeError.
    assert_eq!(log, "ok,ok,RangeError,TypeError,TypeError");
}

#[test]
fn pull_cancels_both_tee_branches() {
    let log = run(r#"
        let branches;
        const rs = new ReadableStream({
            pull(c) {
                branches[0].cancel('a').then(() => log.push('c1'));
                branches[1].cancel('b').then(() => log.push('c2'));
                c.enqueue('x');
            },
            cancel(r) { log.push('src cancel ' + r); },
        });
        branches = rs.tee();
        branches[0].getReader; // touch
        log.push('sync');
    "#);
    assert!(log.contains("src cancel a,b"), "{log}");
}

#[test]
fn tee_branch_cancelled_from_other_branch_read() {
    let log = run(&format!(
        "{CHAOS}
        let c;
        const rs = new ReadableStream({{ start(ctrl) {{ c = ctrl; }}, cancel(r) {{ log.push('src ' + r); }} }});
        const [b1, b2] = rs.tee();
        const r1 = b1.getReader();
        const r2 = b2.getReader();
        chaos(() => {{ r2.cancel('from-then').then(() => log.push('r2 cancelled')); r1.cancel('r1').catch(() => {{}}); }});
        r1.read().then(r => log.push('r1 ' + r.done), e => log.push('r1E'));
        r2.read().then(r => log.push('r2 ' + r.done), e => log.push('r2E'));
        try {{ c.enqueue({{}}); c.enqueue({{}}); }} catch (e) {{ log.push('enq ' + e.name); }}
        "
    ));
    assert!(log.contains("src r1,from-then"), "{log}");
}

#[test]
fn abort_listener_repipes_releases_and_cancels() {
    let log = run(r#"
        const ac = new AbortController();
        let c;
        const rs = new ReadableStream({ start(ctrl) { c = ctrl; }, cancel(r) { log.push('cancel'); } });
        const ws = new WritableStream({ abort(r) { log.push('abort'); } });
        ac.signal.addEventListener('abort', () => {
            log.push('listener');
            rs.pipeTo(ws, { signal: ac.signal }).then(() => log.push('p2 ok'), e => log.push('p2 ' + e.name));
            rs.cancel('x').then(() => log.push('cancel ok'), e => log.push('cancel ' + e.name));
            try { rs.getReader().releaseLock(); log.push('got reader'); } catch (e) { log.push('gr ' + e.name); }
            c.enqueue('y');
        });
        rs.pipeTo(ws, { signal: ac.signal }).then(() => log.push('p1 ok'), e => log.push('p1 ' + e.name));
        Promise.resolve().then(() => { c.enqueue('a'); ac.abort(); });
    "#);
    assert!(log.contains("p1 AbortError"), "{log}");
}

#[test]
fn abort_listener_aborts_another_pipe_and_itself_reentrantly() {
    let log = run(r#"
        const ac = new AbortController();
        const ac2 = new AbortController();
        const rs = new ReadableStream({ cancel() { ac2.abort('two'); } });
        const rs2 = new ReadableStream({ cancel() { ac.abort('again'); } });
        const ws = new WritableStream({ abort() { ac2.abort('from abort'); } });
        const ws2 = new WritableStream();
        ac.signal.addEventListener('abort', () => { ac.abort('re'); });
        rs.pipeTo(ws, { signal: ac.signal }).catch(e => log.push('p1 ' + e));
        rs2.pipeTo(ws2, { signal: ac2.signal }).catch(e => log.push('p2 ' + e));
        Promise.resolve().then(() => ac.abort('one'));
    "#);
    assert!(log.contains("p1 one"), "{log}");
}

#[test]
fn pipe_chunk_with_then_getter_and_constructor_getter_reentering() {
    // The number of `constructor` getter calls differs between the modes (Boa's
    // JsPromise::then performs SpeciesConstructor), so the modes are not compared.
    let log = run_each(&format!(
        "{CHAOS}
        let c, w;
        const rs = new ReadableStream({{ start(ctrl) {{ c = ctrl; }} }});
        const ws = new WritableStream({{ write(ch) {{ log.push('w'); }} }});
        const ac = new AbortController();
        let n = 0;
        chaos(() => {{ n++; if (n === 5) ac.abort('mid'); if (n < 5) try {{ c.enqueue({{}}); }} catch (e) {{}} }});
        rs.pipeTo(ws, {{ signal: ac.signal }}).then(() => log.push('ok'), e => log.push('pipe ' + e));
        c.enqueue({{}});
        "
    ));
    assert!(log.contains("pipe mid"), "{log}");
}

#[test]
fn transform_terminate_then_enqueue_and_reenter() {
    let log = run(r#"
        const ts = new TransformStream({
            transform(chunk, c) {
                c.enqueue(chunk);
                c.terminate();
                try { c.enqueue('after'); } catch (e) { log.push('enq ' + e.name); }
                try { c.terminate(); log.push('term2 ok'); } catch (e) { log.push('term2 ' + e.name); }
                c.error('late');
            },
            flush() { log.push('flush'); },
        });
        const w = ts.writable.getWriter();
        w.write('a').then(() => log.push('w ok'), e => log.push('w ' + e.name));
        const r = ts.readable.getReader();
        r.read().then(x => log.push('r ' + x.value));
        r.read().then(x => log.push('r ' + x.done));
    "#);
    assert!(log.contains("enq TypeError"), "{log}");
}

#[test]
fn transform_readable_size_reenters_controller() {
    let log = run(r#"
        let tc;
        const ts = new TransformStream({
            start(c) { tc = c; },
            transform(chunk, c) { c.enqueue(chunk); },
        }, undefined, {
            size() { try { tc.terminate(); } catch (e) { log.push('t ' + e.name); } try { tc.enqueue('in-size'); } catch (e) { log.push('in ' + e.name); } return 1; },
            highWaterMark: 4,
        });
        const w = ts.writable.getWriter();
        w.write('a').then(() => log.push('w ok'), e => log.push('w ' + e.name));
        // Read only once the chunk is queued, so that enqueue() calls size().
        Promise.resolve().then(() => Promise.resolve()).then(() => Promise.resolve()).then(() => {
            const r = ts.readable.getReader();
            r.read().then(x => log.push('r ' + x.value + x.done));
            r.read().then(x => log.push('r ' + x.value + x.done));
        });
    "#);
    assert!(log.contains("in TypeError"), "{log}");
}

#[test]
fn transform_chaos_getters_during_flush_and_cancel() {
    let log = run(&format!(
        "{CHAOS}
        let tc;
        const ts = new TransformStream({{
            start(c) {{ tc = c; }},
            flush(c) {{ return {{}}; }},
            cancel(r) {{ return {{}}; }},
        }});
        const w = ts.writable.getWriter();
        const r = ts.readable.getReader();
        chaos(() => {{ try {{ tc.terminate(); }} catch (e) {{}} r.cancel('c').catch(() => {{}}); w.abort('a').catch(() => {{}}); }});
        w.write({{}}).catch(() => {{}});
        w.close().then(() => log.push('closed'), e => log.push('close ' + e));
        log.push('sync');
        "
    ));
    assert!(log.contains("sync"), "{log}");
}

#[test]
fn from_with_throwing_and_reentrant_iterator_getters() {
    let log = run(r#"
        let rs;
        const it = {
            get next() {
                log.push('get next');
                return function () {
                    return { get done() { rs.cancel('in-done').catch(() => {}); return false; },
                             get value() { throw new Error('value getter'); } };
                };
            },
            get return() { log.push('get return'); throw new TypeError('return getter'); },
        };
        rs = ReadableStream.from({ [Symbol.iterator]() { return it; } });
        const reader = rs.getReader();
        reader.read().then(r => log.push('r ' + r.done), e => log.push('r ' + e.message));
        reader.cancel('c').then(() => log.push('c ok'), e => log.push('c ' + e.name));
    "#);
    assert!(log.contains("get next"), "{log}");
}

#[test]
fn from_async_iterator_whose_next_reenters() {
    let log = run(r#"
        let rs, reader, n = 0;
        const src = {
            [Symbol.asyncIterator]() {
                return {
                    next() {
                        n++;
                        if (n === 1) { reader.read().then(r => log.push('inner ' + r.value)); }
                        if (n === 2) { reader.releaseLock(); }
                        if (n === 3) { return 'not an object'; }
                        return Promise.resolve({ value: n, done: n > 4 });
                    },
                    return(v) { log.push('return ' + v); return {}; },
                };
            },
        };
        rs = ReadableStream.from(src);
        reader = rs.getReader();
        reader.read().then(r => log.push('outer ' + r.value), e => log.push('outerE ' + e.name));
        Promise.resolve().then(() => Promise.resolve()).then(() => {
            const r2 = rs.getReader();
            r2.read().then(r => log.push('r2 ' + r.value), e => log.push('r2E ' + e.name));
        });
    "#);
    assert!(log.contains("outer 1"), "{log}");
}

#[test]
fn from_sync_iterator_closes_on_rejected_value_wrapper() {
    // AsyncFromSyncIteratorContinuation step 7: an abrupt PromiseResolve (a promise whose
    // `constructor` getter throws) closes the sync iterator.
    let log = run(r#"
        const p = Promise.resolve(1);
        Object.defineProperty(p, 'constructor', { get() { throw new Error('ctor'); } });
        function* g() { try { yield p; yield 2; } finally { log.push('closed'); } }
        const reader = ReadableStream.from(g()).getReader();
        reader.read().then(r => log.push('r ' + r.value), e => log.push('e ' + e.message));
    "#);
    assert_eq!(log, "closed,e ctor");
}

#[test]
fn promise_methods_reject_on_bad_this() {
    let log = run(r#"
        const calls = [
            ['rs.cancel', () => ReadableStream.prototype.cancel.call({})],
            ['rs.pipeTo', () => ReadableStream.prototype.pipeTo.call({}, new WritableStream())],
            ['rs.pipeTo bad dest', () => new ReadableStream().pipeTo({})],
            ['rs.pipeTo bad signal', () => new ReadableStream().pipeTo(new WritableStream(), { signal: {} })],
            ['reader.read', () => ReadableStreamDefaultReader.prototype.read.call({})],
            ['reader.cancel', () => ReadableStreamDefaultReader.prototype.cancel.call({})],
            ['reader.closed', () => Object.getOwnPropertyDescriptor(ReadableStreamDefaultReader.prototype, 'closed').get.call({})],
            ['it.next', () => Object.getPrototypeOf(new ReadableStream().values()).next.call({})],
            ['it.return', () => Object.getPrototypeOf(new ReadableStream().values()).return.call({})],
        ];
        for (const [name, f] of calls) {
            let p;
            try { p = f(); } catch (e) { log.push(name + ' threw'); continue; }
            if (!(p instanceof Promise)) { log.push(name + ' not a promise'); continue; }
            p.then(() => log.push(name + ' fulfilled'), e => log.push(name + ':' + e.constructor.name));
        }
    "#);
    assert_eq!(
        log,
        "rs.cancel:TypeError,rs.pipeTo:TypeError,rs.pipeTo bad dest:TypeError,\
         rs.pipeTo bad signal:TypeError,reader.read:TypeError,reader.cancel:TypeError,\
         reader.closed:TypeError,it.next:TypeError,it.return:TypeError"
    );
}

#[test]
fn non_promise_methods_throw_type_error_on_bad_this() {
    let log = run(r#"
        const C = ReadableStreamDefaultController.prototype;
        const calls = [
            () => ReadableStream.prototype.getReader.call({}),
            () => ReadableStream.prototype.tee.call({}),
            () => ReadableStream.prototype.pipeThrough.call({}, new TransformStream()),
            () => ReadableStream.prototype.values.call({}),
            () => ReadableStreamDefaultReader.prototype.releaseLock.call({}),
            () => C.enqueue.call({}),
            () => C.close.call({}),
            () => C.error.call({}),
            () => Object.getOwnPropertyDescriptor(C, 'desiredSize').get.call({}),
            () => TransformStreamDefaultController.prototype.enqueue.call({}),
            () => TransformStreamDefaultController.prototype.terminate.call({}),
        ];
        for (const f of calls) {
            try { f(); log.push('no throw'); } catch (e) { log.push(e.constructor.name); }
        }
    "#);
    assert_eq!(log, ["TypeError"; 11].join(","));
}

#[test]
fn throwing_constructor_getter_does_not_panic() {
    // Boa's JsPromise::then fails (uncatchably) when `constructor` throws: nothing may panic.
    let log = run(r#"
        Object.defineProperty(Promise.prototype, 'constructor', {
            configurable: true, get() { throw new Error('ctor'); },
        });
        let c;
        const rs = new ReadableStream({ start(ctrl) { c = ctrl; } });
        const it = rs.values();
        try { it.next(); it.next(); it.return(); } catch (e) { log.push('it ' + e.message); }
        const [a, b] = new ReadableStream().tee();
        try { a.cancel(); b.cancel(); } catch (e) { log.push('tee'); }
        try { new ReadableStream().pipeTo(new WritableStream()); } catch (e) { log.push('pipe'); }
        try { new ReadableStream().pipeThrough(new TransformStream()); } catch (e) { log.push('pt'); }
        const r = new ReadableStream().getReader();
        try { r.releaseLock(); } catch (e) { log.push('rl'); }
        c.enqueue(1);
        log.push('end');
    "#);
    assert!(log.contains("end"), "{log}");
}

#[test]
fn reader_acquired_during_release_keeps_its_lock() {
    // ReadableStreamReaderGenericRelease sets [[PromiseIsHandled]] on the closed promise.
    // That once went through Boa's JsPromise::then, which reads `constructor`, so script could
    // run mid-release; the closed promise is now a `PromiseSlot` (handled when its JS promise
    // is created), so release runs no script and a reader acquired after it keeps its lock.
    let log = run(r#"
        let c, reader2 = null;
        const rs = new ReadableStream({ start(ctrl) { c = ctrl; } });
        const reader = rs.getReader();
        let armed = false;
        Object.defineProperty(Promise.prototype, 'constructor', {
            configurable: true,
            get() {
                if (armed) {
                    armed = false;
                    reader.releaseLock();
                    reader2 = rs.getReader();
                }
                return Promise;
            },
        });
        armed = true;
        reader.releaseLock();
        armed = false;
        log.push(String(reader2 !== null), String(rs.locked));
        reader2 = rs.getReader();
        c.enqueue('a');
        reader2.read().then(r => log.push(r.value), e => log.push('err ' + e.name));
        try { rs.getReader(); log.push('second lock'); } catch (e) { log.push(e.name); }
    "#);
    assert_eq!(log, "false,false,TypeError,a");
}

#[test]
fn pending_reads_reject_with_the_stream_error_even_if_released_mid_error() {
    // ReadableStreamError marks the closed promise handled (JsPromise::then reads
    // `constructor`: script can run) before it errors the read requests; a release from that
    // getter must not make them reject with the release TypeError instead of e.
    let log = run(r#"
        let c;
        const rs = new ReadableStream({ start(ctrl) { c = ctrl; } });
        const reader = rs.getReader();
        reader.read().then(() => log.push('read ok'), e => log.push('read ' + e));
        let armed = false;
        Object.defineProperty(Promise.prototype, 'constructor', {
            configurable: true,
            get() { if (armed) { armed = false; reader.releaseLock(); } return Promise; },
        });
        armed = true;
        c.error('boom');
        armed = false;
    "#);
    assert_eq!(log, "read boom");
}

#[test]
fn pipe_reentered_from_sink_size_pull_and_cancel() {
    let log = run(r#"
        const ac = new AbortController();
        let rc, n = 0;
        const rs = new ReadableStream({
            start(c) { rc = c; },
            pull(c) { n++; c.enqueue(n); if (n === 3) ac.abort('from pull'); },
            cancel(r) { log.push('cancel ' + r); rs.pipeTo(ws).catch(e => log.push('re ' + e.name)); },
        }, { highWaterMark: 0 });
        const ws = new WritableStream({
            write(ch) {
                log.push('w' + ch);
                rs.pipeTo(ws).catch(e => log.push('rp ' + e.name));
                try { rc.close(); } catch (e) {}
            },
            abort(r) { log.push('abort ' + r); ws.getWriter; },
        }, {
            size(ch) { if (ch === 2) { try { rc.error('in size'); } catch (e) {} } return 1; },
            highWaterMark: 2,
        });
        rs.pipeTo(ws, { signal: ac.signal }).then(() => log.push('done'), e => log.push('pipe ' + e));
    "#);
    // write(1) closes the source: the pipe closes the destination and resolves.
    assert_eq!(log, "w1,rp TypeError,done");
}

#[test]
fn pipe_through_transform_that_terminates_and_reenters() {
    let log = run(r#"
        let rc;
        const rs = new ReadableStream({ start(c) { rc = c; c.enqueue('a'); c.enqueue('b'); } });
        const ts = new TransformStream({
            transform(ch, c) {
                c.enqueue(ch);
                if (ch === 'b') { c.terminate(); try { rc.close(); } catch (e) {} }
            },
        });
        const out = rs.pipeThrough(ts);
        const r = out.getReader();
        const read = () => r.read().then(x => { log.push(x.done ? 'end' : x.value); if (!x.done) return read(); },
                                         e => log.push('err ' + e.name));
        read();
    "#);
    assert!(log.starts_with("a,b,end"), "{log}");
}

#[test]
fn option_getters_that_lock_or_throw() {
    let log = run(r#"
        const rs1 = new ReadableStream();
        try { rs1.values({ get preventCancel() { rs1.getReader(); return false; } }); log.push('no'); }
        catch (e) { log.push('values ' + e.name); }
        const rs2 = new ReadableStream();
        try { rs2.getReader({ get mode() { rs2.getReader(); return undefined; } }); log.push('no'); }
        catch (e) { log.push('getReader ' + e.name); }
        const rs3 = new ReadableStream(), ws3 = new WritableStream();
        rs3.pipeTo(ws3, { get signal() { ws3.getWriter(); return undefined; } })
            .then(() => log.push('no'), e => log.push('pipeTo ' + e.name));
        const rs4 = new ReadableStream(), ws4 = new WritableStream();
        rs4.pipeTo(ws4, { get preventAbort() { throw new RangeError('x'); } })
            .then(() => log.push('no'), e => log.push('pipeTo4 ' + e.name));
        const rs5 = new ReadableStream(), ts5 = new TransformStream();
        try { rs5.pipeThrough({ get readable() { rs5.getReader(); return ts5.readable; }, writable: ts5.writable }); log.push('no'); }
        catch (e) { log.push('pipeThrough ' + e.name); }
        log.push(String(rs1.locked), String(rs2.locked), String(ws3.locked), String(rs4.locked), String(ts5.writable.locked));
    "#);
    assert_eq!(
        log,
        "values TypeError,getReader TypeError,pipeThrough TypeError,true,true,true,false,false,\
         pipeTo TypeError,pipeTo4 RangeError"
    );
}

#[test]
fn transform_callbacks_reenter_both_sides() {
    let log = run(r#"
        let w, n = 0;
        const ts = new TransformStream({
            transform(ch, c) {
                n++;
                if (n === 1) { r.cancel('rc').then(() => log.push('rc ok'), e => log.push('rc ' + e)); }
                if (n === 1) { w.abort('wa').then(() => log.push('wa ok'), e => log.push('wa ' + e)); }
                try { c.enqueue(ch); } catch (e) { log.push('enq ' + e.name); }
                try { c.terminate(); } catch (e) { log.push('term ' + e.name); }
                return { then(res) { c.error('late'); res(); } };
            },
            flush(c) { log.push('flush'); c.terminate(); },
            cancel(reason) {
                log.push('cancel ' + reason);
                try { c2.enqueue(1); } catch (e) {}
                w.abort('again').catch(() => {});
                return r.cancel('nested').then(() => log.push('nested ok'));
            },
        });
        let c2;
        const r = ts.readable.getReader();
        r.read().then(x => log.push('read ' + x.done), e => log.push('read ' + e));
        w = ts.writable.getWriter();
        w.write('x').then(() => log.push('w ok'), e => log.push('w ' + e));
        w.write('y').then(() => log.push('w2 ok'), e => log.push('w2 ' + e));
        w.close().then(() => log.push('close ok'), e => log.push('close ' + e));
    "#);
    assert!(
        log.contains("cancel rc") && log.contains("nested ok"),
        "{log}"
    );
}
