//! Unit tests for what WPT cannot see: GC, reentrancy, deep synchronous queues, fast-path
//! equivalence, the native source and read request API.

use boa_engine::{js_string, Context, JsObject, JsValue};
use boa_gc::{Finalize, Gc, Trace};

use super::*;
use crate::readable::byte_controller::{
    readable_byte_stream_controller_get_byob_request, readable_byte_stream_controller_respond,
};
use crate::readable::source::NativeSourceBox;

use crate::test_support::{context, eval, run_jobs, string, with_fast_paths};

mod adversarial;
mod bytes;

/// Run `script`, drain the job queue, return `String(log)` where the script pushes to `log`.
fn run_log(script: &str) -> String {
    crate::test_support::run_log(script, "log.join(',')")
}

#[test]
fn stream_and_reader_are_collected_once_unreachable() {
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        globalThis.refs = (() => {
            const rs = new ReadableStream({ pull(c) { c.enqueue(1); } });
            const reader = rs.getReader();
            reader.read();
            return [new WeakRef(rs), new WeakRef(reader)];
        })();
        "#,
    );
    ctx.run_jobs().unwrap();
    ctx.clear_kept_objects();
    crate::test_support::gc_now();
    assert_eq!(
        string(
            &mut ctx,
            "String(refs[0].deref()) + ',' + String(refs[1].deref())"
        ),
        "undefined,undefined"
    );
}

#[test]
fn pending_read_keeps_its_stream_alive() {
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        globalThis.result = 'pending';
        globalThis.controller = undefined;
        globalThis.ref = (() => {
            const rs = new ReadableStream({ start(c) { controller = c; } });
            rs.getReader().read().then(r => { result = r.value; });
            return new WeakRef(rs);
        })();
        "#,
    );
    ctx.run_jobs().unwrap();
    ctx.clear_kept_objects();
    crate::test_support::gc_now();
    assert_eq!(string(&mut ctx, "typeof ref.deref()"), "object");
    eval(&mut ctx, "controller.enqueue('chunk');");
    ctx.run_jobs().unwrap();
    assert_eq!(string(&mut ctx, "result"), "chunk");
}

#[test]
fn reentrant_enqueue_from_size() {
    let log = run_log(
        r#"
        let controller;
        const rs = new ReadableStream({ start(c) { controller = c; } }, {
            size(chunk) {
                if (chunk === 'a') controller.enqueue('b');
                return 1;
            },
            highWaterMark: 10,
        });
        controller.enqueue('a');
        log.push(controller.desiredSize);
        const reader = rs.getReader();
        reader.read().then(r => log.push(r.value));
        reader.read().then(r => log.push(r.value));
        "#,
    );
    assert_eq!(log, "8,b,a");
}

#[test]
fn thirty_thousand_chunks_from_one_pull() {
    let log = run_log(
        r#"
        const N = 30000;
        let pulls = 0;
        const rs = new ReadableStream({
            pull(c) {
                pulls++;
                for (let i = 0; i < N; i++) c.enqueue(i);
                c.close();
            },
        }, { highWaterMark: 0 });
        (async () => {
            const reader = rs.getReader();
            let count = 0, sum = 0;
            for (;;) {
                const { value, done } = await reader.read();
                if (done) break;
                count++; sum += value;
            }
            log.push(count, sum, pulls);
        })();
        "#,
    );
    assert_eq!(log, format!("30000,{},1", (0..30000u64).sum::<u64>()));
}

#[test]
fn release_lock_rejects_pending_reads_with_type_error() {
    let log = run_log(
        r#"
        const rs = new ReadableStream();
        const reader = rs.getReader();
        const p1 = reader.read(), p2 = reader.read();
        reader.releaseLock();
        p1.catch(e => log.push('1:' + (e instanceof TypeError)));
        p2.catch(e => log.push('2:' + (e instanceof TypeError)));
        reader.closed.catch(e => log.push('closed:' + (e instanceof TypeError)));
        log.push('locked:' + rs.locked);
        "#,
    );
    assert_eq!(log, "locked:false,1:true,2:true,closed:true");
}

const ORDERING_SCRIPT: &str = r#"
    let n = 0;
    const rs = new ReadableStream({
        start(c) { log.push('start'); },
        pull(c) {
            n++;
            log.push('pull' + n + ':' + c.desiredSize);
            if (n === 3) { log.push('pull-throws'); throw new Error('boom'); }
            c.enqueue(n);
            if (n === 2) return { not: 'a thenable' };
        },
        cancel() { log.push('cancel'); },
    }, { highWaterMark: 2 });
    Promise.resolve().then(() => log.push('tick1')).then(() => log.push('tick2'))
        .then(() => log.push('tick3')).then(() => log.push('tick4'));
    queueMicrotask(() => log.push('qm'));
    const reader = rs.getReader();
    const step = (label) => (r) => log.push(label + ':' + JSON.stringify(r));
    reader.read().then(step('r1'));
    reader.read().then(step('r2'));
    reader.read().then(step('r3'), e => log.push('r3 rejected:' + e.message));
    reader.closed.catch(e => log.push('closed:' + e.message));
    const rs2 = new ReadableStream({
        start() { return Promise.resolve(); },
        pull(c) { log.push('rs2 pull'); c.enqueue('x'); return undefined; },
    });
    rs2.getReader().read().then(step('rs2'));
    const [b1, b2] = new ReadableStream({
        pull(c) { log.push('tee src pull'); c.enqueue('t'); },
    }).tee();
    b1.getReader().read().then(step('b1'));
    b2.cancel('why').then(() => log.push('b2 canceled'));
"#;

fn run_ordering(fast: bool) -> String {
    with_fast_paths(fast, || {
        let mut ctx = context();
        eval(
            &mut ctx,
            "globalThis.log = []; globalThis.queueMicrotask = f => Promise.resolve().then(f);",
        );
        eval(&mut ctx, ORDERING_SCRIPT);
        run_jobs(&mut ctx);
        string(&mut ctx, "log.join('\\n')")
    })
}

#[test]
fn sync_fast_path_preserves_pull_counts_and_ordering() {
    let fast = run_ordering(true);
    let slow = run_ordering(false);
    assert!(fast.contains("pull3"), "{fast}");
    assert!(fast.contains("rs2 pull"), "{fast}");
    assert_eq!(fast, slow);
}

#[test]
fn buffered_read_result_shape() {
    let log = run_log(
        r#"
        const rs = new ReadableStream({ start(c) { c.enqueue('a'); c.close(); } });
        const reader = rs.getReader();
        reader.read().then(r => log.push(Object.keys(r).join('|'), r.value, r.done,
            Object.getPrototypeOf(r) === Object.prototype));
        reader.read().then(r => log.push(r.value, r.done));
        "#,
    );
    assert_eq!(log, "done|value,a,false,true,,true");
}

#[test]
fn read_results_are_extensible_objects_of_plain_data_properties() {
    // Default and BYOB reads, settled at once and after a pending read: `done` then `value`,
    // each writable, enumerable and configurable, on an extensible ordinary object.
    let log = run_log(
        r#"
        const show = (r) => {
          const d = Object.getOwnPropertyDescriptors(r);
          r.extra = 1;
          delete r.done;
          return Object.keys(d).map(k => k + ':' + d[k].writable + d[k].enumerable
            + d[k].configurable + ('get' in d[k])).join('/') + ' ' + Object.keys(r).join('|')
            + ' ' + Object.isExtensible(r);
        };
        const rs = new ReadableStream({ start(c) { c.enqueue('a'); } });
        rs.getReader().read().then(r => log.push(show(r)));
        let ctrl;
        const bs = new ReadableStream({ type: 'bytes', start(c) { ctrl = c; } });
        bs.getReader({ mode: 'byob' }).read(new Uint8Array(4)).then(r => log.push(show(r)));
        Promise.resolve().then(() => ctrl.enqueue(new Uint8Array([1, 2])));
        "#,
    );
    let one = "done:truetruetruefalse/value:truetruetruefalse value|extra true";
    assert_eq!(log, format!("{one},{one}"));
}

#[test]
fn values_and_async_iterator_are_the_same_function() {
    let mut ctx = context();
    assert_eq!(
        string(
            &mut ctx,
            "String(ReadableStream.prototype.values === ReadableStream.prototype[Symbol.asyncIterator])"
        ),
        "true"
    );
}

#[test]
fn async_iterator_next_and_return_queue_behind_each_other() {
    let log = run_log(
        r#"
        let c;
        const rs = new ReadableStream({ start(ctrl) { c = ctrl; }, cancel(r) { log.push('cancel:' + r); } });
        const it = rs.values();
        it.next().then(r => log.push('next:' + r.value + ':' + r.done));
        it.return('bye').then(r => log.push('return:' + r.value + ':' + r.done));
        it.next().then(r => log.push('next2:' + r.value + ':' + r.done));
        Promise.resolve().then(() => c.enqueue('x'));
        "#,
    );
    assert_eq!(
        log,
        "next:x:false,cancel:bye,return:bye:true,next2:undefined:true"
    );
}

#[test]
fn async_iterator_return_with_prevent_cancel_keeps_stream_open() {
    let log = run_log(
        r#"
        const rs = new ReadableStream({ cancel() { log.push('cancel'); } });
        const it = rs.values({ preventCancel: true });
        it.return('r').then(r => log.push('return:' + r.done + ':' + rs.locked));
        "#,
    );
    assert_eq!(log, "return:true:false");
}

/// A native source producing `0..limit` then closing; it counts cancels.
#[derive(Trace, Finalize)]
struct Counter {
    #[unsafe_ignore_trace]
    next: std::cell::Cell<u32>,
    #[unsafe_ignore_trace]
    limit: u32,
    #[unsafe_ignore_trace]
    cancels: std::rc::Rc<std::cell::Cell<u32>>,
}

impl NativeSource for Counter {
    fn pull(&self, controller: &StreamController, ctx: &mut Context) -> Completion {
        let StreamController::Default(controller) = controller else {
            panic!("Counter sits behind a default controller");
        };
        let n = self.next.get();
        if n >= self.limit {
            readable_stream_default_controller_close(controller, ctx);
        } else {
            self.next.set(n + 1);
            readable_stream_default_controller_enqueue(controller, JsValue::from(n), ctx).unwrap();
        }
        Completion::undefined()
    }

    fn cancel(&self, _reason: JsValue, _ctx: &mut Context) -> Completion {
        self.cancels.set(self.cancels.get() + 1);
        Completion::undefined()
    }
}

/// A native read request collecting into a shared log.
#[derive(Trace, Finalize)]
struct Collect {
    #[unsafe_ignore_trace]
    log: std::rc::Rc<std::cell::RefCell<Vec<String>>>,
}

impl ReadRequestSteps for Collect {
    fn chunk_steps(self: Box<Self>, chunk: JsValue, _ctx: &mut Context) {
        self.log
            .borrow_mut()
            .push(format!("chunk {}", chunk.display()));
    }
    fn close_steps(self: Box<Self>, _ctx: &mut Context) {
        self.log.borrow_mut().push("close".into());
    }
    fn error_steps(self: Box<Self>, e: JsValue, _ctx: &mut Context) {
        self.log.borrow_mut().push(format!("error {}", e.display()));
    }
}

#[test]
fn native_source_and_native_read_requests() {
    let mut ctx = context();
    let cancels = std::rc::Rc::new(std::cell::Cell::new(0));
    let stream = create_readable_stream(
        StartAlgorithm::ReturnUndefined,
        SourceAlgorithms::Native(Gc::new(NativeSourceBox(Box::new(Counter {
            next: std::cell::Cell::new(0),
            limit: 2,
            cancels: cancels.clone(),
        })))),
        Some(0.0),
        None,
        &mut ctx,
    )
    .unwrap();
    let reader = acquire_readable_stream_default_reader(&stream, &mut ctx).unwrap();
    assert!(is_readable_stream_locked(&stream));
    let log = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    for _ in 0..3 {
        let request = ReadRequest::Native(Box::new(Collect { log: log.clone() }));
        readable_stream_default_reader_read(&reader, request, &mut ctx);
    }
    ctx.run_jobs().unwrap();
    assert_eq!(*log.borrow(), vec!["chunk 0", "chunk 1", "close"]);
    assert_eq!(stream.borrow().data().state(), StreamState::Closed);
    // Cancel on a closed stream resolves without calling the source.
    let c = readable_stream_cancel(&stream, JsValue::undefined(), &mut ctx);
    assert!(matches!(c, Completion::Fulfilled(_)));
    assert_eq!(cancels.get(), 0);

    // A second stream: cancel reaches the native source and the completion settles.
    let stream = create_readable_stream(
        StartAlgorithm::ReturnUndefined,
        SourceAlgorithms::Native(Gc::new(NativeSourceBox(Box::new(Counter {
            next: std::cell::Cell::new(0),
            limit: 10,
            cancels: cancels.clone(),
        })))),
        None,
        None,
        &mut ctx,
    )
    .unwrap();
    ctx.run_jobs().unwrap();
    let settled = std::rc::Rc::new(std::cell::Cell::new(false));
    #[derive(Trace, Finalize, Clone)]
    struct Flag(#[unsafe_ignore_trace] std::rc::Rc<std::cell::Cell<bool>>);
    readable_stream_cancel(&stream, JsValue::undefined(), &mut ctx).upon(
        Flag(settled.clone()),
        |flag, s, _| flag.0.set(s.is_ok()),
        &mut ctx,
    );
    assert!(!settled.get());
    ctx.run_jobs().unwrap();
    assert!(settled.get());
    assert_eq!(cancels.get(), 1);
}

#[test]
fn rust_promise_resolve_with_takes_the_thenable_ticks() {
    // A RustPromise resolved with another promise settles at the same tick a JS promise
    // resolved with a native promise does.
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        globalThis.log = [];
        const inner = Promise.resolve();
        new Promise(r => r(inner)).then(() => log.push('js'));
        "#,
    );
    let out = RustPromise::new();
    let inner = boa_webidl::promise::promise_resolved_with(JsValue::undefined(), &mut ctx);
    RustPromise::resolve_with(&out, Completion::Js(inner), &mut ctx);
    #[derive(Trace, Finalize, Clone)]
    struct G(JsObject);
    let global = ctx.global_object();
    Completion::Rust(out).upon(
        G(global),
        |g, _, ctx| {
            let log = g.0.get(js_string!("log"), ctx).unwrap();
            let log = log.as_object().unwrap();
            let push = log.get(js_string!("push"), ctx).unwrap();
            push.as_callable()
                .unwrap()
                .call(&log.clone().into(), &[js_string!("rust").into()], ctx)
                .unwrap();
        },
        &mut ctx,
    );
    ctx.run_jobs().unwrap();
    assert_eq!(string(&mut ctx, "log.join(',')"), "js,rust");
}

#[test]
fn from_sync_iterable_and_bad_inputs() {
    let log = run_log(
        r#"
        (async () => {
            const out = [];
            for await (const x of ReadableStream.from([1, Promise.resolve(2), 3])) out.push(x);
            log.push(out.join(' '));
            try { ReadableStream.from('abc'); } catch (e) { log.push('string:' + e.constructor.name); }
            try { ReadableStream.from({ [Symbol.asyncIterator]: 1 }); } catch (e) { log.push('bad:' + e.constructor.name); }
        })();
        "#,
    );
    assert_eq!(log, "1 2 3,string:TypeError,bad:TypeError");
}

fn call_state(state: &JsValue, ctx: &mut Context) -> Completion {
    if let Some(f) = state.as_callable() {
        f.call(&JsValue::undefined(), &[], ctx).unwrap();
    }
    Completion::undefined()
}

fn no_cancel(_: &JsValue, _: JsValue, _: &mut Context) -> Completion {
    Completion::undefined()
}

#[test]
fn start_algorithm_returning_a_promise_takes_the_adoption_ticks() {
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        globalThis.log = [];
        new ReadableStream({ start() { return Promise.resolve(); }, pull() { log.push('js'); } });
        globalThis.rustPull = () => log.push('rust');
        globalThis.settledPull = () => log.push('settled');
        let p = Promise.resolve();
        for (let i = 1; i <= 5; i++) p = p.then(() => log.push('tick' + i));
        "#,
    );
    let started = boa_webidl::promise::promise_resolved_with(JsValue::undefined(), &mut ctx);
    let pull = eval(&mut ctx, "rustPull");
    create_readable_stream(
        StartAlgorithm::Return(Completion::Js(started)),
        SourceAlgorithms::Rust(RustSource {
            state: pull,
            pull: call_state,
            cancel: no_cancel,
        }),
        None,
        None,
        &mut ctx,
    )
    .unwrap();
    let pull = eval(&mut ctx, "settledPull");
    create_readable_stream(
        StartAlgorithm::Return(Completion::undefined()),
        SourceAlgorithms::Rust(RustSource {
            state: pull,
            pull: call_state,
            cancel: no_cancel,
        }),
        None,
        None,
        &mut ctx,
    )
    .unwrap();
    ctx.run_jobs().unwrap();
    assert_eq!(
        string(&mut ctx, "log.join(',')"),
        // The JS stream's thenable job is queued before tick1, the Rust ones after it: each
        // start promise takes three jobs (thenable job, adoption reaction, start reaction).
        "tick1,tick2,js,tick3,rust,settled,tick4,tick5"
    );
}

#[test]
fn from_async_iterables_end_values_and_bad_next_results() {
    let log = run_log(
        r#"
        (async () => {
            async function* gen() { yield 'a'; yield Symbol.for('s'); yield undefined; }
            const out = [];
            for await (const x of ReadableStream.from(gen())) out.push(String(x));
            log.push(out.join(' '));
            const bad = { [Symbol.asyncIterator]() { return { next() { return 42; } }; } };
            try {
                await ReadableStream.from(bad).getReader().read();
            } catch (e) {
                log.push('bad next:' + e.constructor.name);
            }
            let returned;
            const it = { [Symbol.asyncIterator]() { return {
                next() { return Promise.resolve({ value: 1, done: false }); },
                return(r) { returned = r; return Promise.resolve({ done: true }); },
            }; } };
            await ReadableStream.from(it).cancel('stop');
            log.push('return got:' + returned);
        })();
        "#,
    );
    assert_eq!(
        log,
        "a Symbol(s) undefined,bad next:TypeError,return got:stop"
    );
}

const THENABLE_SCRIPT: &str = r#"
    let p = Promise.resolve();
    for (let i = 1; i <= 12; i++) p = p.then(() => log.push('tick' + i));
    const thenable = { then(res) { log.push('then called'); res('from thenable'); } };
    const badThen = { get then() { log.push('then getter'); throw new Error('getter'); } };
    let n = 0;
    const rs = new ReadableStream({
        start() { return { plain: 'object' }; },
        pull(c) {
            n++;
            log.push('pull' + n);
            if (n === 1) { c.enqueue({ chunk: 1 }); return { not: 'thenable' }; }
            if (n === 2) { c.enqueue(thenable); return thenable; }
            if (n === 3) { c.enqueue(badThen); return Promise.resolve(); }
            c.close();
        },
    });
    (async () => {
        try {
            for await (const x of rs) log.push('got ' + JSON.stringify(x));
        } catch (e) { log.push('loop error ' + e.message); }
        log.push('loop done');
    })();
"#;

fn run_thenables(fast: bool) -> String {
    with_fast_paths(fast, || {
        crate::test_support::run_log(THENABLE_SCRIPT, "log.join('\\n')")
    })
}

#[test]
fn object_and_thenable_results_take_identical_ticks_with_and_without_fast_paths() {
    let fast = run_thenables(true);
    let slow = run_thenables(false);
    assert!(fast.contains("got \"from thenable\""), "{fast}");
    assert!(fast.contains("loop error getter"), "{fast}");
    assert_eq!(fast, slow);
}

/// nextSteps reacts to "get the next iteration result"'s promise only after
/// ReadableStreamDefaultReaderRead returns: what a pull() that runs synchronously inside the read
/// queues (the thenable job for its result, the pull promise's reaction) comes first.
const ITERATOR_SYNC_PULL_SCRIPT: &str = r#"
    Object.defineProperty(Object.prototype, 'then', {
        configurable: true,
        get() { log.push('get then'); return undefined; },
    });
    let n = 0;
    globalThis.it1 = new ReadableStream({
        pull(c) {
            c.enqueue('a');
            return { then(r) { log.push('pull1 then'); r(); } };
        },
    }, { highWaterMark: 0 }).values();
    globalThis.it2 = new ReadableStream({
        type: 'bytes',
        pull(c) {
            c.enqueue(new Uint8Array([1]));
            return { then(r) { log.push('pull2 then'); r(); } };
        },
    }).values();
    globalThis.it3 = new ReadableStream({
        pull(c) { n++; log.push('pull3 #' + n); if (n === 2) c.enqueue('b'); },
    }).values();
    globalThis.it4 = new ReadableStream({
        pull(c) { c.close(); return { then(r) { log.push('pull4 then'); r(); } }; },
    }, { highWaterMark: 0 }).values();
"#;

fn run_iterator_sync_pull(fast: bool) -> Vec<String> {
    with_fast_paths(fast, || {
        let mut ctx = context();
        eval(&mut ctx, "globalThis.log = [];");
        eval(&mut ctx, ITERATOR_SYNC_PULL_SCRIPT);
        run_jobs(&mut ctx);
        let mut logs = Vec::new();
        for it in ["it1", "it2", "it3", "it4"] {
            eval(&mut ctx, "log.length = 0;");
            eval(&mut ctx, &format!("{it}.next();"));
            run_jobs(&mut ctx);
            logs.push(string(&mut ctx, "log.join(',')"));
        }
        logs
    })
}

#[test]
fn iterator_reacts_to_the_read_after_a_synchronous_pull() {
    for fast in [true, false] {
        let logs = run_iterator_sync_pull(fast);
        assert_eq!(logs[0], "pull1 then,get then", "fast={fast}");
        assert_eq!(logs[1], "get then,pull2 then,get then", "fast={fast}");
        assert_eq!(logs[2], "pull3 #2,pull3 #3,get then", "fast={fast}");
        assert_eq!(logs[3], "pull4 then,get then", "fast={fast}");
    }
}

/// A native source behind a byte controller: fills the BYOB request's view in place.
#[derive(Trace, Finalize)]
struct ByteFiller {
    #[unsafe_ignore_trace]
    next: std::cell::Cell<u8>,
}

impl NativeSource for ByteFiller {
    fn pull(&self, controller: &StreamController, ctx: &mut Context) -> Completion {
        let StreamController::Byte(controller) = controller else {
            panic!("ByteFiller sits behind a byte controller");
        };
        let request = readable_byte_stream_controller_get_byob_request(controller, ctx)
            .unwrap()
            .expect("a pull-into descriptor is pending");
        let view = request.borrow().data().view().unwrap();
        let length = view
            .get(js_string!("length"), ctx)
            .unwrap()
            .to_number(ctx)
            .unwrap() as u64;
        let written = length.min(3);
        for i in 0..written {
            let b = self.next.get();
            self.next.set(b + 1);
            view.set(i as u32, JsValue::from(b), true, ctx).unwrap();
        }
        readable_byte_stream_controller_respond(controller, written, ctx).unwrap();
        Completion::undefined()
    }

    fn cancel(&self, _reason: JsValue, _ctx: &mut Context) -> Completion {
        Completion::undefined()
    }
}

#[test]
fn native_source_behind_a_byte_controller_fills_byob_requests() {
    for fast in [true, false] {
        boa_webidl::set_fast_paths(fast);
        let mut ctx = context();
        let stream = create_readable_byte_stream(
            StartAlgorithm::ReturnUndefined,
            SourceAlgorithms::Native(Gc::new(NativeSourceBox(Box::new(ByteFiller {
                next: std::cell::Cell::new(1),
            })))),
            None,
            Some(8),
            &mut ctx,
        )
        .unwrap();
        ctx.global_object()
            .set(
                js_string!("bytes"),
                JsValue::from(stream.upcast()),
                false,
                &mut ctx,
            )
            .unwrap();
        eval(
            &mut ctx,
            r#"
            globalThis.log = [];
            (async () => {
              // A default reader: the auto-allocated buffer (8 bytes) is the request's view.
              const r = bytes.getReader();
              const a = await r.read();
              log.push(a.value.constructor.name + ':' + Array.from(a.value).join('.'));
              r.releaseLock();
              // A BYOB reader: the reader's view (2 bytes) is the request's view.
              const byob = bytes.getReader({ mode: 'byob' });
              const b = await byob.read(new Uint8Array(2));
              log.push(b.value.constructor.name + ':' + Array.from(b.value).join('.'));
            })();
            "#,
        );
        ctx.run_jobs().unwrap();
        assert_eq!(
            string(&mut ctx, "log.join()"),
            "Uint8Array:1.2.3,Uint8Array:4.5",
            "fast paths {fast}"
        );
    }
    boa_webidl::set_fast_paths(true);
}
