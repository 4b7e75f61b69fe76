//! Unit tests for what WPT cannot see: fast-path ordering equivalence, the Rust-side API,
//! lazy promises, GC and reentrancy.

use super::*;
use boa_engine::js_string;
use boa_gc::GcRefCell;
use boa_webidl::promise::{Completion, Reaction, Settlement};

use crate::test_support::{context, eval, fast_paths_scope, string as eval_string};

/// A script exercising every kind of sink result (undefined, throw, native promise, thenable,
/// rejected promise, start promise), writer promises, abort and close, interleaved with
/// script microtasks. Everything goes to `log`.
const ORDERING_SCRIPT: &str = r#"
var log = [];
function tick(label) { Promise.resolve().then(() => log.push('tick:' + label)); }
function track(label, p) {
  p.then(v => log.push(label + ':ok'), e => log.push(label + ':err:' + (e && e.message || e)));
}
// 1. A sync sink: write returns undefined.
{
  const ws = new WritableStream({
    start() { log.push('s1:start'); },
    write(c) { log.push('s1:write:' + c); },
    close() { log.push('s1:close'); },
  });
  const w = ws.getWriter();
  track('s1:ready', w.ready);
  track('s1:closed', w.closed);
  track('s1:w1', w.write('a'));
  tick('a');
  track('s1:w2', w.write('b'));
  tick('b');
  track('s1:close', w.close());
}
// 2. A sink that throws from write, plus size() and backpressure.
{
  const ws = new WritableStream({
    write(c) { log.push('s2:write:' + c); if (c === 'x') throw new Error('boom'); },
    abort(r) { log.push('s2:abort:' + r); },
  }, { highWaterMark: 1, size() { return 1; } });
  const w = ws.getWriter();
  track('s2:w1', w.write('ok'));
  track('s2:ready', w.ready);
  track('s2:w2', w.write('x'));
  track('s2:w3', w.write('never'));
  track('s2:closed', w.closed);
  tick('c');
}
// 3. Promises and thenables from the sink; start returns a promise.
{
  const ws = new WritableStream({
    start() { log.push('s3:start'); return Promise.resolve(); },
    write(c) {
      log.push('s3:write:' + c);
      if (c === 1) return Promise.resolve();
      if (c === 2) return { then(f) { log.push('s3:then'); f(); } };
      if (c === 3) return Promise.reject(new Error('rej'));
    },
    abort() { log.push('s3:abort'); return Promise.resolve(); },
  });
  const w = ws.getWriter();
  track('s3:w1', w.write(1));
  track('s3:w2', w.write(2));
  track('s3:w3', w.write(3));
  track('s3:closed', w.closed);
  tick('d');
}
// 4. Abort while a write is in flight, then close a released stream.
{
  let resolveWrite;
  const ws = new WritableStream({
    write() { log.push('s4:write'); return new Promise(r => { resolveWrite = r; }); },
    abort(r) { log.push('s4:abort:' + r); },
  });
  const w = ws.getWriter();
  track('s4:w1', w.write('q'));
  Promise.resolve().then(() => {
    track('s4:abort', w.abort('why'));
    track('s4:abort2', w.abort('again'));
    tick('e');
    resolveWrite();
  });
  track('s4:ready', w.ready);
  track('s4:closed', w.closed);
}
// 5. Stream-level close/abort and an erroring start.
{
  const ws = new WritableStream({ close() { log.push('s5:sinkclose'); } });
  track('s5:close', ws.close());
  const ws2 = new WritableStream({ start() { return Promise.reject(new Error('bad start')); } });
  const w2 = ws2.getWriter();
  track('s5:closed', w2.closed);
  track('s5:w', w2.write('z'));
  const ws3 = new WritableStream();
  track('s5:abort', ws3.abort('r'));
  tick('f');
}
"#;

fn run_ordering(fast: bool) -> String {
    let _fast_paths = fast_paths_scope(fast);
    let mut ctx = context();
    eval(&mut ctx, ORDERING_SCRIPT);
    ctx.run_jobs().unwrap();
    eval_string(&mut ctx, "log.join('\\n')")
}

#[test]
fn ordering_identical_with_and_without_fast_paths() {
    let fast = run_ordering(true);
    let slow = run_ordering(false);
    assert!(fast.contains("s1:w1:ok"), "{fast}");
    assert!(fast.contains("s2:w2:err:boom"), "{fast}");
    assert!(fast.contains("s3:w3:err:rej"), "{fast}");
    assert!(fast.contains("s4:abort:ok"), "{fast}");
    assert!(fast.contains("s5:closed:err:bad start"), "{fast}");
    assert_eq!(fast, slow);
}

#[test]
fn sync_sink_settles_at_the_reaction_position() {
    // write() returning undefined: the write promise fulfills after exactly the microtasks
    // the spec's promise reactions take (start reaction, then write reaction).
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        var log = [];
        const w = new WritableStream({ write() { log.push('write'); } }).getWriter();
        w.write('a').then(() => log.push('written'));
        Promise.resolve().then(() => log.push('t1')).then(() => log.push('t2'))
          .then(() => log.push('t3')).then(() => log.push('t4'));
    "#,
    );
    ctx.run_jobs().unwrap();
    assert_eq!(
        eval_string(&mut ctx, "log.join()"),
        "write,t1,t2,written,t3,t4"
    );
}

#[test]
fn returned_promise_is_converted_to_a_new_promise() {
    // WebIDL converts a callback's return value to `Promise<undefined>` by resolving a *new*
    // promise with it (https://webidl.spec.whatwg.org/#js-promise): a returned native promise
    // costs the two thenable-resolution ticks before the stream reacts.
    for fast in [true, false] {
        let _fast_paths = fast_paths_scope(fast);
        let mut ctx = context();
        eval(
            &mut ctx,
            r#"
            var log = [];
            const w = new WritableStream({
              write() { log.push('write'); return Promise.resolve(); },
            }).getWriter();
            w.write('a').then(() => log.push('written'));
            let p = Promise.resolve();
            for (let i = 1; i <= 6; i++) p = p.then(() => log.push('t' + i));
        "#,
        );
        ctx.run_jobs().unwrap();
        assert_eq!(
            eval_string(&mut ctx, "log.join()"),
            "write,t1,t2,t3,t4,written,t5,t6",
            "fast paths {fast}"
        );
    }
}

#[test]
fn released_writer_with_pending_ready_rejects() {
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        var log = [];
        const ws = new WritableStream({}, { highWaterMark: 0 });
        const w = ws.getWriter();
        const ready = w.ready;
        w.releaseLock();
        log.push('same:' + (w.ready === ready));
        ready.then(() => log.push('ready:fulfilled'),
                   e => log.push('ready:' + e.constructor.name));
        w.closed.catch(e => log.push('closed:' + e.constructor.name));
        log.push('locked:' + ws.locked);
        // Released before anyone read ready/closed (the lazy path).
        const w2 = ws.getWriter();
        w2.releaseLock();
        w2.ready.catch(e => log.push('ready2:' + e.constructor.name));
        w2.closed.catch(e => log.push('closed2:' + e.constructor.name));
        try { w2.desiredSize; } catch (e) { log.push('desiredSize:' + e.constructor.name); }
        w2.write('x').catch(e => log.push('write:' + e.constructor.name));
    "#,
    );
    ctx.run_jobs().unwrap();
    assert_eq!(
        eval_string(&mut ctx, "log.join()"),
        "same:true,locked:false,desiredSize:TypeError,ready:TypeError,closed:TypeError,\
         ready2:TypeError,closed2:TypeError,write:TypeError"
    );
}

#[test]
fn reentrant_write_from_size() {
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        var log = [];
        let writer;
        const ws = new WritableStream({ write(c) { log.push('write:' + c); } }, {
          highWaterMark: 10,
          size(c) {
            if (c === 'a') writer.write('b').then(() => log.push('b:ok'));
            if (c === 'r') writer.releaseLock();
            return 1;
          },
        });
        writer = ws.getWriter();
        writer.write('a').then(() => log.push('a:ok'));
        log.push('desired:' + writer.desiredSize);
    "#,
    );
    ctx.run_jobs().unwrap();
    assert_eq!(
        eval_string(&mut ctx, "log.join()"),
        "desired:8,write:b,write:a,b:ok,a:ok"
    );
    // Releasing the lock inside size() makes that write reject with a TypeError.
    eval(
        &mut ctx,
        "writer.write('r').catch(e => log.push('r:' + e.constructor.name));",
    );
    ctx.run_jobs().unwrap();
    assert_eq!(eval_string(&mut ctx, "log.slice(5).join()"), "r:TypeError");
}

#[test]
fn unreachable_stream_and_writer_are_collected() {
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        var refs = [];
        (function () {
          let resolveWrite;
          const ws = new WritableStream({
            write() { return new Promise(r => { resolveWrite = r; }); },
          });
          const w = ws.getWriter();
          w.write('pending');
          w.write('queued');
          w.closed;
          w.ready;
          refs.push(new WeakRef(ws), new WeakRef(w));
        })();
    "#,
    );
    ctx.run_jobs().unwrap();
    ctx.clear_kept_objects();
    crate::test_support::gc_now();
    assert_eq!(
        eval_string(&mut ctx, "refs.map(r => r.deref() === undefined).join()"),
        "true,true"
    );
}

#[test]
fn live_stream_survives_collection() {
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        var log = [];
        var ws = new WritableStream({ write(c) { log.push(c); } });
        var w = ws.getWriter();
    "#,
    );
    ctx.run_jobs().unwrap();
    crate::test_support::gc_now();
    eval(
        &mut ctx,
        "w.write('after-gc'); w.close().then(() => log.push('closed'));",
    );
    ctx.run_jobs().unwrap();
    assert_eq!(eval_string(&mut ctx, "log.join()"), "after-gc,closed");
}

/// A Rust sink recording chunks; fails on the chunk "fail".
#[derive(Trace, Finalize)]
struct RecordingSink {
    chunks: Gc<GcRefCell<Vec<JsValue>>>,
}

impl NativeSink for RecordingSink {
    fn write(&self, chunk: JsValue, _: &JsObject, ctx: &mut Context) -> Completion {
        if chunk.to_string(ctx).map(|s| s.to_std_string_escaped()) == Ok("fail".into()) {
            return Completion::Rejected(js_string!("sink failed").into());
        }
        self.chunks.borrow_mut().push(chunk);
        Completion::undefined()
    }
}

fn record_outcome(target: &JsObject, result: Settlement, ctx: &mut Context) {
    let log = target.get(js_string!("log"), ctx).unwrap();
    let entry = match result {
        Ok(_) => js_string!("ok"),
        Err(e) => e.to_string(ctx).unwrap(),
    };
    let push = log
        .as_object()
        .unwrap()
        .get(js_string!("push"), ctx)
        .unwrap();
    push.as_callable()
        .unwrap()
        .call(&log, &[entry.into()], ctx)
        .unwrap();
}

#[test]
fn native_sink_and_native_completions() {
    let mut ctx = context();
    let chunks = Gc::new(GcRefCell::new(Vec::new()));
    let (stream_obj, stream) = create_writable_stream(
        SinkAlgorithms::native(RecordingSink {
            chunks: chunks.clone(),
        }),
        1.0,
        SizeAlgorithm::ReturnOne,
        &mut ctx,
    )
    .unwrap();
    assert!(WritableStream::slots_of(&stream_obj.clone().into()).is_some());
    let writer = acquire_writable_stream_default_writer(&stream, &mut ctx).unwrap();
    assert!(is_writable_stream_locked(&stream));
    let target = eval(&mut ctx, "var target = { log: [] }; target")
        .as_object()
        .unwrap();
    let completion = || Reaction::new(target.clone(), record_outcome);
    writable_stream_default_writer_upon_ready(&writer, completion(), &mut ctx);
    for c in ["a", "b"] {
        writable_stream_default_writer_write(&writer, js_string!(c).into(), completion(), &mut ctx);
    }
    assert_eq!(
        writable_stream_default_writer_get_desired_size(&writer),
        Some(-1.0)
    );
    assert!(writable_stream_default_writer_ready_state(&writer).is_none());
    ctx.run_jobs().unwrap();
    assert_eq!(eval_string(&mut ctx, "target.log.join()"), "ok,ok,ok");
    assert_eq!(chunks.borrow().len(), 2);
    assert!(matches!(
        writable_stream_default_writer_ready_state(&writer),
        Some(Ok(_))
    ));

    // A failing write errors the stream; the queued one and close reject.
    writable_stream_default_writer_write(
        &writer,
        js_string!("fail").into(),
        completion(),
        &mut ctx,
    );
    writable_stream_default_writer_upon_closed(&writer, completion(), &mut ctx);
    ctx.run_jobs().unwrap();
    assert_eq!(stream.state(), WritableStreamState::Errored);
    writable_stream_default_writer_close_with_error_propagation(&writer, completion(), &mut ctx);
    ctx.run_jobs().unwrap();
    assert_eq!(
        eval_string(&mut ctx, "target.log.join()"),
        "ok,ok,ok,sink failed,sink failed,sink failed"
    );
    writable_stream_default_writer_release(&writer, &mut ctx);
    assert!(!is_writable_stream_locked(&stream));
}

#[test]
fn native_abort_waiters_share_the_outcome() {
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        var target = { log: [] };
        var ws = new WritableStream({ abort(r) { target.log.push('abort:' + r); } });
    "#,
    );
    let ws = eval(&mut ctx, "ws");
    let stream = WritableStream::slots_of(&ws).unwrap();
    let target = eval(&mut ctx, "target").as_object().unwrap();
    let waiter = || AbortWaiter::Native(Reaction::new(target.clone(), record_outcome));
    assert!(writable_stream_abort(&stream, js_string!("r1").into(), waiter(), &mut ctx).is_none());
    assert!(writable_stream_abort(&stream, js_string!("r2").into(), waiter(), &mut ctx).is_none());
    // A JS caller gets one promise for the same request.
    let p1 = writable_stream_abort(&stream, JsValue::undefined(), AbortWaiter::Js, &mut ctx);
    let p2 = writable_stream_abort(&stream, JsValue::undefined(), AbortWaiter::Js, &mut ctx);
    assert!(p1.is_some() && p1 == p2);
    ctx.run_jobs().unwrap();
    assert_eq!(eval_string(&mut ctx, "target.log.join()"), "abort:r1,ok,ok");
    assert_eq!(stream.state(), WritableStreamState::Errored);
}

#[test]
fn constructor_reads_sink_members_in_lexicographic_order() {
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        var log = [];
        const sink = {};
        for (const k of ['write', 'type', 'start', 'close', 'abort']) {
          Object.defineProperty(sink, k, { get() { log.push(k); return undefined; } });
        }
        const strategy = {
          get size() { log.push('size'); return undefined; },
          get highWaterMark() { log.push('highWaterMark'); return 1; },
        };
        new WritableStream(sink, strategy);
        try { new WritableStream({ type: 'bytes' }); } catch (e) { log.push(e.constructor.name); }
        try { new WritableStream(null); } catch (e) { log.push(e.constructor.name); }
    "#,
    );
    assert_eq!(
        eval_string(&mut ctx, "log.join()"),
        "highWaterMark,size,abort,close,start,type,write,RangeError,TypeError"
    );
}

#[test]
fn controller_signal_is_created_lazily_and_aborts_with_the_reason() {
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        var log = [];
        // Read eagerly: the listener runs synchronously inside abort().
        let c1;
        const ws1 = new WritableStream({ start(c) { c1 = c; } });
        const s1 = c1.signal;
        log.push('same:' + (c1.signal === s1) + ':' + (s1 instanceof AbortSignal));
        s1.addEventListener('abort', () => log.push('abort-event:' + s1.reason));
        ws1.abort('r1');
        log.push('after-abort1');
        // Never read before abort: the signal is created aborted, with an AbortError reason
        // for an undefined abort reason.
        let c2;
        const ws2 = new WritableStream({
          start(c) { c2 = c; },
          abort(r) {
            log.push('sink-abort:' + r + ':' + c2.signal.aborted + ':' + c2.signal.reason.name);
          },
        });
        ws2.abort();
        // Errors do not signal abort.
        let c3;
        new WritableStream({ start(c) { c3 = c; } }).getWriter();
        c3.error(new Error('x'));
        log.push('errored-signal:' + c3.signal.aborted);
    "#,
    );
    ctx.run_jobs().unwrap();
    assert_eq!(
        eval_string(&mut ctx, "log.join()"),
        "same:true:true,abort-event:r1,after-abort1,errored-signal:false,\
         sink-abort:undefined:true:AbortError"
    );
}

#[test]
fn reentrant_user_code_from_promise_species_lookup_does_not_panic() {
    // Boa's `then` (used to mark promises handled and to react) reads
    // `Promise.prototype.constructor`; a getter there re-enters the writer mid-operation.
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        var log = [];
        let w;
        let depth = 0;
        const ws = new WritableStream({ write() { return Promise.resolve(); } });
        w = ws.getWriter();
        w.write('a');
        Object.defineProperty(Promise.prototype, 'constructor', {
          configurable: true,
          get() {
            if (depth++ < 3) {
              try { w.closed; w.ready; w.desiredSize; w.write('b'); w.releaseLock(); }
              catch (e) { log.push(e.constructor.name); }
            }
            return Promise;
          },
        });
        w.abort('x');
        w.closed.catch(() => log.push('closed-rejected'));
        w.ready.catch(() => log.push('ready-rejected'));
    "#,
    );
    ctx.run_jobs().unwrap();
    eval(
        &mut ctx,
        "delete Promise.prototype.constructor; Promise.prototype.constructor = Promise;",
    );
    assert!(eval_string(&mut ctx, "log.join()").contains("rejected"));
    assert_eq!(eval_string(&mut ctx, "String(depth > 3)"), "true");
}

/// A Rust sink whose writes complete when the test settles the returned Rust promise.
#[derive(Trace, Finalize)]
struct DeferredSink {
    pending: Gc<GcRefCell<Vec<Gc<boa_webidl::promise::RustPromise>>>>,
}

impl NativeSink for DeferredSink {
    fn write(&self, _: JsValue, _: &JsObject, _: &mut Context) -> Completion {
        let p = boa_webidl::promise::RustPromise::new();
        self.pending.borrow_mut().push(p.clone());
        Completion::Rust(p)
    }
}

#[test]
fn native_sink_returning_rust_promises() {
    let mut ctx = context();
    let pending = Gc::new(GcRefCell::new(Vec::new()));
    let (stream_obj, _) = create_writable_stream(
        SinkAlgorithms::native(DeferredSink {
            pending: pending.clone(),
        }),
        1.0,
        SizeAlgorithm::ReturnOne,
        &mut ctx,
    )
    .unwrap();
    ctx.global_object()
        .set(js_string!("ws"), stream_obj, false, &mut ctx)
        .unwrap();
    eval(
        &mut ctx,
        r#"
        var log = [];
        var w = ws.getWriter();
        w.write('a').then(() => log.push('a'));
        w.write('b').then(() => log.push('b'), e => log.push('b:' + e));
    "#,
    );
    ctx.run_jobs().unwrap();
    assert_eq!(pending.borrow().len(), 1, "one write in flight");
    let first = pending.borrow()[0].clone();
    first.resolve_undefined(&mut ctx);
    ctx.run_jobs().unwrap();
    assert_eq!(eval_string(&mut ctx, "log.join()"), "a");
    let second = pending.borrow()[1].clone();
    second.settle(Err(js_string!("nope").into()), &mut ctx);
    ctx.run_jobs().unwrap();
    assert_eq!(eval_string(&mut ctx, "log.join()"), "a,b:nope");
    assert_eq!(eval_string(&mut ctx, "String(w.desiredSize)"), "null");
}

#[test]
fn lock_taken_from_species_lookup_during_release_is_kept() {
    // Releasing a writer rejects its materialised `closed` promise. Marking that promise as
    // handled must not run script in the middle of WritableStreamDefaultWriterRelease: a
    // `constructor` getter that releases the writer and takes a new lock there would have
    // that new lock dropped by the rest of the outer release.
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        var ws = new WritableStream();
        var w1 = ws.getWriter();
        w1.closed;
        var w2;
        var hooked = false;
        Object.defineProperty(Promise.prototype, 'constructor', {
          configurable: true,
          get() {
            if (!hooked) {
              hooked = true;
              w1.releaseLock();
              w2 = ws.getWriter();
            }
            return Promise;
          },
        });
        w1.releaseLock();
        delete Promise.prototype.constructor;
        Promise.prototype.constructor = Promise;
    "#,
    );
    ctx.run_jobs().unwrap();
    // Either the getter never ran mid-release, or the lock it took is still held.
    assert_eq!(
        eval_string(
            &mut ctx,
            "String(w2 === undefined || (ws.locked && typeof w2.desiredSize === 'number'))"
        ),
        "true"
    );
}

#[test]
fn erroring_does_not_run_script_between_its_steps() {
    // WritableStreamStartErroring rejects the writer's materialised `ready` promise and then
    // (step 9) may finish erroring. No script may run in between (the spec's "set
    // [[PromiseIsHandled]]" runs none).
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        var calls = 0;
        // start() never settles, so erroring does not finish and nothing reacts to a
        // promise during abort().
        var ws = new WritableStream({ start() { return new Promise(() => {}); } },
                                    { highWaterMark: 0 });
        var w = ws.getWriter();
        w.ready; w.closed;
        var armed = true;
        Object.defineProperty(Promise.prototype, 'constructor', {
          configurable: true,
          get() { if (armed) calls++; return Promise; },
        });
    "#,
    );
    ctx.run_jobs().unwrap();
    eval(&mut ctx, "calls = 0; w.abort('r'); armed = false;");
    eval(
        &mut ctx,
        "delete Promise.prototype.constructor; Promise.prototype.constructor = Promise;",
    );
    ctx.run_jobs().unwrap();
    // Rejecting the materialised `ready` promise must not reach the species getter.
    assert_eq!(eval_string(&mut ctx, "String(calls)"), "0");
}

#[test]
fn size_reentering_release_acquire_abort_and_error() {
    // size() runs user code in the middle of WritableStreamDefaultWriterWrite (step 4):
    // releasing and re-acquiring the lock, aborting, and erroring from there take the spec's
    // steps 5, 7 and 9.
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        var log = [];
        var w1, w2, controller;
        var ws = new WritableStream({
          start(c) { controller = c; },
          write(c) { log.push('write:' + c); },
          abort(r) { log.push('sink-abort:' + r); },
        }, {
          size(c) {
            if (c === 'swap') { w1.releaseLock(); w2 = ws.getWriter(); }
            if (c === 'abort') w2.abort('A').then(() => log.push('abort:ok'));
            return 1;
          },
        });
        w1 = ws.getWriter();
        w1.write('swap').catch(e => log.push('swap:' + e.constructor.name));
        log.push('locked:' + ws.locked + ':' + (w2.desiredSize === 1));
        w2.write('abort').catch(e => log.push('abort-write:' + e));
        w2.closed.catch(e => log.push('closed:' + e));
    "#,
    );
    ctx.run_jobs().unwrap();
    assert_eq!(
        eval_string(&mut ctx, "log.join()"),
        // The start reaction (queued first) finishes erroring: the sink's abort runs before
        // the reactions to the two rejected writes.
        "locked:true:true,sink-abort:A,swap:TypeError,abort-write:A,abort:ok,closed:A"
    );
    // controller.error() from size() (stream errored) rejects the write with the error.
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        var log = [];
        var controller;
        var ws = new WritableStream({ start(c) { controller = c; } },
          { size() { controller.error('E'); return 1; } });
        var w = ws.getWriter();
        w.write('x').catch(e => log.push('write:' + e));
    "#,
    );
    ctx.run_jobs().unwrap();
    assert_eq!(eval_string(&mut ctx, "log.join()"), "write:E");
}
