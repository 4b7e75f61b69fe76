//! Unit tests for the DOM pieces: the Rust API other modules use, and behaviour the WPT files
//! do not reach (shapes, brand checks, reporting, event handler ordering).

use std::cell::RefCell;

use boa_engine::{
    js_string, object::builtins::JsFunction, Context, JsObject, JsValue, NativeFunction,
};

use super::*;
use crate::test_support::{check, context, eval, string};

#[test]
fn dom_exception_from_rust() {
    let mut ctx = context();
    let e = create_dom_exception("boom", "AbortError", &mut ctx).unwrap();
    ctx.global_object()
        .set(js_string!("e"), e, false, &mut ctx)
        .unwrap();
    check(&mut ctx, "e instanceof DOMException && e instanceof Error");
    check(
        &mut ctx,
        "e.name === 'AbortError' && e.message === 'boom' && e.code === 20",
    );
    check(
        &mut ctx,
        "e.code === DOMException.ABORT_ERR && e.ABORT_ERR === 20",
    );
    check(&mut ctx, "String(e) === 'AbortError: boom'");
    check(&mut ctx, "typeof e.stack === typeof new Error().stack");
}

#[test]
fn dom_exception_codes_and_shape() {
    let mut ctx = context();
    check(
        &mut ctx,
        "new DOMException('m', 'TimeoutError').code === 23",
    );
    check(
        &mut ctx,
        "new DOMException('m', 'DataCloneError').code === 25",
    );
    check(
        &mut ctx,
        "new DOMException('m', 'EncodingError').code === 0",
    );
    check(
        &mut ctx,
        "DOMException.length === 0 && DOMException.name === 'DOMException'",
    );
    check(
        &mut ctx,
        "Object.getPrototypeOf(DOMException.prototype) === Error.prototype",
    );
    check(
        &mut ctx,
        "!Object.getOwnPropertyDescriptor(globalThis, 'DOMException').enumerable",
    );
    check(
        &mut ctx,
        "(() => { try { DOMException(); return false } catch (e) { return e instanceof TypeError } })()",
    );
}

#[test]
fn abort_signal_rust_api() {
    let mut ctx = context();
    let signal = create_abort_signal(&mut ctx).unwrap();
    assert!(is_abort_signal(&signal.clone().into()));
    assert!(!is_aborted(&signal));
    assert!(abort_reason(&signal).is_undefined());

    ctx.global_object()
        .set(js_string!("s"), signal.clone(), false, &mut ctx)
        .unwrap();
    eval(
        &mut ctx,
        "var log = []; s.addEventListener('abort', e => log.push('event:' + e.type + ':' + (e.target === s)));",
    );

    let record = |name: &'static str| {
        NativeFunction::from_copy_closure(move |_, _, ctx| {
            let log = ctx.global_object().get(js_string!("log"), ctx)?;
            let push = log.as_object().unwrap().get(js_string!("push"), ctx)?;
            push.as_callable()
                .unwrap()
                .call(&log, &[js_string!(name).into()], ctx)?;
            Ok(JsValue::undefined())
        })
    };
    let a1 = record("alg1").to_js_function(ctx.realm());
    let a2 = record("alg2").to_js_function(ctx.realm());
    let a3 = record("alg3").to_js_function(ctx.realm());
    let id1 = add_abort_algorithm(&signal, a1);
    let id2 = add_abort_algorithm(&signal, a2);
    let _id3 = add_abort_algorithm(&signal, a3);
    assert_ne!(id1, id2);
    remove_abort_algorithm(&signal, id2);

    signal_abort(&signal, JsValue::undefined(), &mut ctx).unwrap();
    assert!(is_aborted(&signal));
    check(&mut ctx, "log.join() === 'alg1,alg3,event:abort:true'");
    check(
        &mut ctx,
        "s.reason instanceof DOMException && s.reason.name === 'AbortError' && s.aborted",
    );

    // Already aborted: a new algorithm is not added, a second abort does nothing.
    let late = record("late").to_js_function(ctx.realm());
    let _ = add_abort_algorithm(&signal, late);
    signal_abort(&signal, js_string!("again").into(), &mut ctx).unwrap();
    check(
        &mut ctx,
        "log.length === 3 && s.reason.name === 'AbortError'",
    );
}

#[test]
fn signal_abort_keeps_given_reason() {
    let mut ctx = context();
    let signal = create_abort_signal(&mut ctx).unwrap();
    signal_abort(&signal, JsValue::null(), &mut ctx).unwrap();
    assert!(is_aborted(&signal));
    assert!(abort_reason(&signal).is_null());
    // Not a signal: reports "not aborted", no panic.
    let plain = JsObject::with_null_proto();
    assert!(!is_aborted(&plain));
    assert!(!is_abort_signal(&plain.clone().into()));
    assert!(abort_reason(&plain).is_undefined());
    assert!(signal_abort(&plain, JsValue::undefined(), &mut ctx).is_ok());
}

#[test]
fn abort_signal_brand_checks_and_shape() {
    let mut ctx = context();
    check(
        &mut ctx,
        "Object.getPrototypeOf(AbortSignal.prototype) === EventTarget.prototype",
    );
    check(
        &mut ctx,
        "Object.getPrototypeOf(AbortSignal) === EventTarget",
    );
    check(
        &mut ctx,
        "(() => { try { new AbortSignal(); return false } catch (e) { return e instanceof TypeError } })()",
    );
    check(
        &mut ctx,
        "(() => { const fake = Object.create(AbortSignal.prototype); try { fake.aborted; return false } catch (e) { return e instanceof TypeError } })()",
    );
    check(
        &mut ctx,
        "(() => { const fake = Object.create(AbortSignal.prototype); try { fake.addEventListener('abort', () => {}); return false } catch (e) { return e instanceof TypeError } })()",
    );
    // An EventTarget is not an AbortSignal.
    check(
        &mut ctx,
        "(() => { const get = Object.getOwnPropertyDescriptor(AbortSignal.prototype, 'aborted').get; try { get.call(new EventTarget()); return false } catch (e) { return e instanceof TypeError } })()",
    );
    check(
        &mut ctx,
        "Object.prototype.toString.call(new AbortController().signal) === '[object AbortSignal]'",
    );
    check(
        &mut ctx,
        "Object.getOwnPropertyDescriptor(EventTarget.prototype, 'addEventListener').enumerable && EventTarget.prototype.addEventListener.length === 2",
    );
    check(
        &mut ctx,
        "AbortSignal.any.length === 1 && AbortSignal.timeout.length === 1 && AbortSignal.abort.length === 0",
    );
    let plain = eval(&mut ctx, "Object.create(AbortSignal.prototype)");
    assert!(!is_abort_signal(&plain));
}

thread_local! {
    static REPORTED: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

#[test]
fn listener_exceptions_are_reported_and_do_not_stop_dispatch() {
    let mut ctx = context();
    set_exception_reporter(|value, ctx| {
        let s = value
            .to_string(ctx)
            .map(|s| s.to_std_string_escaped())
            .unwrap_or_default();
        REPORTED.with(|r| r.borrow_mut().push(s));
    });
    check(
        &mut ctx,
        r#"(() => {
            const t = new EventTarget();
            const log = [];
            t.addEventListener('x', () => { log.push(1); throw new Error('first'); });
            t.addEventListener('x', { handleEvent() { log.push(2); } });
            t.addEventListener('x', { handleEvent: 5 });
            t.addEventListener('x', () => log.push(3));
            const r = t.dispatchEvent(new Event('x'));
            return r === true && log.join() === '1,2,3';
        })()"#,
    );
    let reported = REPORTED.with(|r| r.borrow().clone());
    assert_eq!(reported.len(), 2, "{reported:?}");
    assert_eq!(reported[0], "Error: first");
    assert!(reported[1].starts_with("TypeError"), "{reported:?}");
}

#[test]
fn handle_event_is_read_at_call_time() {
    let mut ctx = context();
    check(
        &mut ctx,
        r#"(() => {
            const t = new EventTarget();
            const log = [];
            const listener = {};
            t.addEventListener('x', listener);
            listener.handleEvent = function (e) { log.push(this === listener && e.currentTarget === t); };
            t.dispatchEvent(new Event('x'));
            return log.join() === 'true';
        })()"#,
    );
}

#[test]
fn event_handler_attribute_keeps_its_position() {
    let mut ctx = context();
    check(
        &mut ctx,
        r#"(() => {
            const c = new AbortController();
            const s = c.signal;
            const log = [];
            s.onabort = () => log.push('h1');
            s.addEventListener('abort', () => log.push('l'));
            s.onabort = function (e) { log.push('h2:' + (this === s) + ':' + e.isTrusted); };
            c.abort();
            return log.join() === 'h2:true:true,l' && typeof s.onabort === 'function';
        })()"#,
    );
    check(
        &mut ctx,
        r#"(() => {
            const c = new AbortController();
            const s = c.signal;
            const log = [];
            s.onabort = () => log.push('h1');
            s.addEventListener('abort', () => log.push('l'));
            s.onabort = null;
            s.onabort = () => log.push('h3');
            c.abort();
            return log.join() === 'l,h3';
        })()"#,
    );
    check(
        &mut ctx,
        r#"(() => {
            const s = new AbortController().signal;
            s.onabort = 5;
            const a = s.onabort === null;
            const o = {};
            s.onabort = o;
            return a && s.onabort === o;
        })()"#,
    );
}

#[test]
fn dispatch_state_and_errors() {
    let mut ctx = context();
    check(
        &mut ctx,
        r#"(() => {
            const t = new EventTarget();
            const e = new Event('x', { cancelable: true });
            let inner;
            t.addEventListener('x', ev => {
                try { t.dispatchEvent(ev); } catch (err) { inner = err; }
                ev.preventDefault();
            });
            const r = t.dispatchEvent(e);
            return r === false && inner instanceof DOMException && inner.name === 'InvalidStateError'
                && inner.code === 11 && e.eventPhase === 0 && e.currentTarget === null
                && e.target === t && e.defaultPrevented;
        })()"#,
    );
    check(
        &mut ctx,
        r#"(() => {
            const t = new EventTarget();
            try { t.dispatchEvent({ type: 'x' }); return false } catch (e) { return e instanceof TypeError }
        })()"#,
    );
    // Capture listeners run before non-capture ones at the target; stopPropagation in a
    // capture listener stops the bubbling pass.
    check(
        &mut ctx,
        r#"(() => {
            const t = new EventTarget();
            const log = [];
            t.addEventListener('x', () => log.push('bubble'));
            t.addEventListener('x', () => log.push('capture'), true);
            t.dispatchEvent(new Event('x'));
            t.addEventListener('y', () => log.push('b2'));
            t.addEventListener('y', e => { log.push('c2'); e.stopPropagation(); }, { capture: true });
            t.dispatchEvent(new Event('y'));
            return log.join() === 'capture,bubble,c2';
        })()"#,
    );
}

#[test]
fn global_object_is_an_event_target() {
    let mut ctx = context();
    check(
        &mut ctx,
        r#"(() => {
            const log = [];
            addEventListener('ping', function (e) { log.push(this === globalThis && e.target === globalThis); });
            const r = globalThis.dispatchEvent(new Event('ping'));
            return r && log.join() === 'true'
                && globalThis.addEventListener === EventTarget.prototype.addEventListener
                && Object.getPrototypeOf(globalThis) === Object.prototype;
        })()"#,
    );
}

#[test]
fn abort_signal_timeout_and_any() {
    let mut ctx = context();
    eval(
        &mut ctx,
        "var t = AbortSignal.timeout(0); var dep = AbortSignal.any(new Set([t])); var log = []; dep.onabort = () => log.push(dep.reason.name);",
    );
    check(&mut ctx, "!t.aborted && !dep.aborted");
    ctx.run_jobs().unwrap();
    check(
        &mut ctx,
        "t.aborted && t.reason.name === 'TimeoutError' && t.reason.code === 23 && dep.reason === t.reason && log.join() === 'TimeoutError'",
    );
    check(
        &mut ctx,
        "(() => { try { AbortSignal.any([{}]); return false } catch (e) { return e instanceof TypeError } })()",
    );
    check(
        &mut ctx,
        "(() => { try { AbortSignal.any(5); return false } catch (e) { return e instanceof TypeError } })()",
    );
    check(
        &mut ctx,
        "(() => { try { AbortSignal.timeout(-1); return false } catch (e) { return e instanceof TypeError } })()",
    );
}

#[test]
fn abort_algorithm_errors_are_reported_not_thrown() {
    let mut ctx = context();
    let signal = create_abort_signal(&mut ctx).unwrap();
    let thrower: JsFunction = NativeFunction::from_fn_ptr(|_, _, _| {
        Err(boa_engine::JsNativeError::typ()
            .with_message("algorithm failed")
            .into())
    })
    .to_js_function(ctx.realm());
    let _ = add_abort_algorithm(&signal, thrower);
    assert!(signal_abort(&signal, JsValue::undefined(), &mut ctx).is_ok());
    assert!(is_aborted(&signal));
}

#[test]
fn event_shape() {
    let mut ctx = context();
    check(
        &mut ctx,
        r#"(() => {
            const e = new Event('x');
            const d = Object.getOwnPropertyDescriptor(e, 'isTrusted');
            return d.enumerable && !d.configurable && d.set === undefined
                && Event.length === 1 && Event.AT_TARGET === 2 && Event.prototype.BUBBLING_PHASE === 3
                && e.composedPath().length === 0 && e.cancelBubble === false && e.returnValue === true;
        })()"#,
    );
    check(
        &mut ctx,
        r#"(() => {
            const e = new CustomEvent('x', { detail: 7 });
            const ok = e instanceof Event && e.detail === 7 && CustomEvent.length === 1;
            e.initCustomEvent('y', true, true, 'd');
            let brand = false;
            try { Object.getOwnPropertyDescriptor(CustomEvent.prototype, 'detail').get.call(new Event('z')); }
            catch (err) { brand = err instanceof TypeError; }
            return ok && e.type === 'y' && e.bubbles && e.cancelable && e.detail === 'd' && brand;
        })()"#,
    );
    check(
        &mut ctx,
        r#"(() => {
            const e = new Event('x', { cancelable: true });
            e.returnValue = false;
            const a = e.defaultPrevented;
            e.initEvent('y');
            return a && !e.defaultPrevented && !e.cancelable && e.type === 'y';
        })()"#,
    );
}

#[test]
fn state_survives_garbage_collection() {
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"var log = [];
        (() => {
            const c = new AbortController();
            globalThis.keep = c;
            const dep = AbortSignal.any([c.signal]);
            // Only reachable through the source signal's dependents and its own listener.
            dep.addEventListener('abort', { handleEvent: e => log.push('dep:' + (e.target.reason === 'r')) });
            c.signal.onabort = () => log.push('onabort');
            const t = new EventTarget();
            t.addEventListener('x', () => log.push('x'), { signal: c.signal });
            globalThis.target = t;
        })();"#,
    );
    crate::test_support::gc_now();
    eval(
        &mut ctx,
        "target.dispatchEvent(new Event('x')); keep.abort('r');",
    );
    crate::test_support::gc_now();
    eval(&mut ctx, "target.dispatchEvent(new Event('x'));");
    check(&mut ctx, "log.join() === 'x,onabort,dep:true'");
}

#[test]
fn reentrant_listeners_and_getters_do_not_panic() {
    // Every script hook of dispatch and abort re-enters the same objects: a listener that
    // aborts again and dispatches the event again, a `handleEvent` getter that removes and
    // adds listeners, an `onabort` handler that replaces itself, option getters that add
    // listeners to the same target, an AbortSignal.any dependent aborted from its source's
    // listener.
    let mut ctx = context();
    check(
        &mut ctx,
        r#"(() => {
            const log = [];
            const ac = new AbortController();
            const s = ac.signal;
            const dep = AbortSignal.any([s]);
            const t = new EventTarget();
            const ev = new Event('x');
            function l1(e) {
              log.push('l1');
              ac.abort('again');
              try { t.dispatchEvent(e); } catch (err) { log.push(err.name); }
              t.removeEventListener('x', l1);
              t.addEventListener('x', l1);
            }
            const getterListener = {
              get handleEvent() {
                log.push('get');
                t.removeEventListener('x', getterListener);
                s.removeEventListener('abort', getterListener);
                t.addEventListener('x', () => log.push('late'));
                return () => log.push('handled');
              },
            };
            const opts = {
              get once() { t.addEventListener('x', () => log.push('from-getter')); return true; },
              get signal() { return dep; },
            };
            t.addEventListener('x', l1, opts);
            t.addEventListener('x', getterListener);
            s.addEventListener('abort', getterListener);
            s.addEventListener('abort', () => {
              log.push('abort:' + s.reason);
              ac.abort('inner');
              s.onabort = () => log.push('replaced');
              t.dispatchEvent(ev);
            });
            s.onabort = () => { log.push('onabort'); s.onabort = null; };
            dep.addEventListener('abort', () => { log.push('dep'); t.dispatchEvent(new Event('x')); });
            t.dispatchEvent(ev);
            ac.abort('outer');
            t.dispatchEvent(new Event('x'));
            return s.aborted && dep.aborted && dep.reason === s.reason && log.length > 5;
        })()"#,
    );
}

#[test]
fn creating_a_dom_exception_runs_no_script() {
    // "Signal abort" without a reason creates an AbortError DOMException. Creating it must not
    // run script (a patched `Error.prototype.stack` getter): script aborting the signal from
    // there made the outer "signal abort" fire `abort` a second time with a replaced reason.
    let mut ctx = context();
    check(
        &mut ctx,
        r#"(() => {
            const ac = new AbortController();
            let events = 0;
            let getterCalls = 0;
            ac.signal.addEventListener('abort', () => events++);
            const original = Object.getOwnPropertyDescriptor(Error.prototype, 'stack');
            Object.defineProperty(Error.prototype, 'stack', {
              configurable: true,
              get() { getterCalls++; ac.abort('inner'); return 'patched'; },
            });
            ac.abort();
            const e = new DOMException('m', 'AbortError');
            Object.defineProperty(Error.prototype, 'stack', original);
            return events === 1 && getterCalls === 0 && ac.signal.reason instanceof DOMException
              && ac.signal.reason.name === 'AbortError' && typeof e.stack === 'string'
              && e.stack !== 'patched';
        })()"#,
    );
}

/// The `AbortSignal` in global `name`.
fn global_signal(ctx: &mut Context, name: &str) -> JsObject {
    eval(ctx, name)
        .as_object()
        .unwrap_or_else(|| panic!("{name} is not an object"))
}

#[test]
fn any_keeps_its_dependents_weakly_and_bounded() {
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        var long = new AbortController();
        for (let i = 0; i < 40000; i++) AbortSignal.any([long.signal, new AbortController().signal]);
        "#,
    );
    let source = global_signal(&mut ctx, "long.signal");
    let (entries_before, _) = abort::dependent_entry_counts(&source);
    // Pruning on growth keeps the set within a constant factor of the live dependents;
    // collections ran during the loop, so it never held all 40,000.
    // (411 entries were left when measured.)
    assert!(
        entries_before < 10_000,
        "dead entries were not pruned: {entries_before}"
    );
    crate::test_support::gc_now();
    let (entries, live) = abort::dependent_entry_counts(&source);
    assert!(live <= 1, "{live} dependents survived a collection");
    // One more dependent: at most one prune away from the floor.
    eval(&mut ctx, "var last = AbortSignal.any([long.signal]);");
    let (after, _) = abort::dependent_entry_counts(&source);
    assert!(after <= entries + 1, "{entries} -> {after}");
    check(
        &mut ctx,
        "(() => { long.abort('x'); return last.aborted && last.reason === 'x'; })()",
    );
    assert_eq!(abort::dependent_entry_counts(&source), (0, 0));
}

#[test]
fn any_chains_stay_flat() {
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        var root = new AbortController();
        var s = root.signal;
        for (let i = 0; i < 10000; i++) s = AbortSignal.any([s]);
        var fired = 0;
        s.addEventListener('abort', () => fired++);
        "#,
    );
    let chained = global_signal(&mut ctx, "s");
    // The 10,000th signal's sources are the root alone, not a 10,000-long chain.
    assert_eq!(abort::source_count(&chained), 1);
    // Only the last signal (it has a listener) is still a live dependent of the root.
    crate::test_support::gc_now();
    let root = global_signal(&mut ctx, "root.signal");
    let (entries, live) = abort::dependent_entry_counts(&root);
    assert_eq!(live, 1);
    assert!(entries < 10_000, "dead entries were not pruned: {entries}");
    check(
        &mut ctx,
        "(() => { root.abort('r'); return fired === 1 && s.reason === 'r'; })()",
    );
}

#[test]
fn a_dependent_with_abort_listeners_outlives_gc_while_its_source_can_abort() {
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        var ac = new AbortController();
        var log = [];
        var refs = (() => {
            const withListener = AbortSignal.any([ac.signal]);
            withListener.addEventListener('abort', () => log.push('listener'));
            const withHandler = AbortSignal.any([ac.signal]);
            withHandler.onabort = () => log.push('handler');
            // An abort algorithm: a listener elsewhere that withAlgorithm removes.
            const withAlgorithm = AbortSignal.any([ac.signal]);
            const target = new EventTarget();
            target.addEventListener('x', () => log.push('x'), { signal: withAlgorithm });
            globalThis.target = target;
            const removed = AbortSignal.any([ac.signal]);
            const f = () => log.push('removed');
            removed.addEventListener('abort', f);
            removed.removeEventListener('abort', f);
            const bare = AbortSignal.any([ac.signal]);
            return [new WeakRef(withListener), new WeakRef(withHandler),
                    new WeakRef(withAlgorithm), new WeakRef(removed), new WeakRef(bare)];
        })();
        "#,
    );
    ctx.clear_kept_objects();
    crate::test_support::gc_now();
    check(
        &mut ctx,
        r#"(() => {
            const alive = refs.map(r => r.deref() !== undefined).join();
            target.dispatchEvent(new Event('x'));
            ac.abort();
            target.dispatchEvent(new Event('x'));
            return alive === 'true,true,true,false,false'
              && log.join() === 'x,listener,handler';
        })()"#,
    );
    // Aborted: the source no longer holds them.
    let source = global_signal(&mut ctx, "ac.signal");
    assert_eq!(abort::dependent_entry_counts(&source), (0, 0));
}

#[test]
fn a_dependent_is_released_when_its_source_is_collected() {
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        var ref = (() => {
            const ac = new AbortController();
            const dep = AbortSignal.any([ac.signal]);
            dep.addEventListener('abort', () => {});
            return new WeakRef(dep);
        })();
        "#,
    );
    ctx.clear_kept_objects();
    crate::test_support::gc_now();
    // Its source can no longer abort it: the listener does not keep it alive.
    check(&mut ctx, "ref.deref() === undefined");
}

#[test]
fn a_dependent_that_loses_its_listeners_is_released() {
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        var ac = new AbortController();
        var dep = AbortSignal.any([ac.signal]);
        dep.onabort = () => {};
        var ref = new WeakRef(dep);
        "#,
    );
    let source = global_signal(&mut ctx, "ac.signal");
    eval(&mut ctx, "dep.onabort = null; dep = undefined;");
    ctx.clear_kept_objects();
    crate::test_support::gc_now();
    check(&mut ctx, "ref.deref() === undefined");
    assert_eq!(abort::dependent_entry_counts(&source).1, 0);
}

#[test]
fn progress_event_interface() {
    let mut ctx = context();
    assert_eq!(
        string(
            &mut ctx,
            r#"(() => {
              const out = [];
              const e = new ProgressEvent('p', { lengthComputable: 1, loaded: '5', total: 10.5, bubbles: true });
              out.push(e.type, e.lengthComputable, e.loaded, e.total, e.bubbles, e.isTrusted,
                       e instanceof Event, Object.prototype.toString.call(e));
              const d = new ProgressEvent('q');
              out.push(d.lengthComputable, d.loaded, d.total);
              // Dictionary members are read in order: EventInit's, then the rest sorted.
              const order = [];
              new ProgressEvent('r', new Proxy({}, { get(t, k) { order.push(String(k)); } }));
              out.push(order.join(' '));
              for (const bad of [() => new ProgressEvent(), () => ProgressEvent('x'),
                                 () => new ProgressEvent('x', { loaded: NaN }),
                                 () => new ProgressEvent('x', { total: Infinity }),
                                 () => new ProgressEvent('x', 1),
                                 () => Object.getOwnPropertyDescriptor(ProgressEvent.prototype, 'loaded').get.call(new Event('x'))])
                try { bad(); out.push('no'); } catch (err) { out.push(err.name); }
              out.push(Reflect.ownKeys(ProgressEvent.prototype).map(String).join(' '));
              out.push(Object.getPrototypeOf(ProgressEvent) === Event, ProgressEvent.length);
              return out.join();
            })()"#
        ),
        "p,true,5,10.5,true,false,true,[object ProgressEvent],false,0,0,\
         bubbles cancelable composed lengthComputable loaded total,\
         TypeError,TypeError,TypeError,TypeError,TypeError,TypeError,\
         lengthComputable loaded total constructor Symbol(Symbol.toStringTag),true,1"
    );
}

/// `register` alone installs this crate's interfaces and its dependencies', and nothing of
/// the other crates.
#[test]
fn register_installs_only_this_crate_and_its_dependencies() {
    let mut ctx = crate::test_support::context();
    crate::test_support::assert_crates_registered(&mut ctx, &["webidl", "dom"]);
}
