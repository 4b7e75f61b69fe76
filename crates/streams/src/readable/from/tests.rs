//! Microtask positions of ReadableStream.from() that WPT cannot see (it only awaits), per
//! WebIDL's async sequence algorithms and ECMA-262's CreateAsyncFromSyncIterator.

use crate::test_support::{context, eval, fast_paths_scope, string};

fn ticks(src: &str, fast: bool) -> String {
    let _fast_paths = fast_paths_scope(fast);
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        globalThis.log = [];
        globalThis.tick = 0;
        const count = () => { tick++; if (tick < 60) Promise.resolve().then(count); };
        Promise.resolve().then(count);
        "#,
    );
    eval(&mut ctx, src);
    ctx.run_jobs().unwrap();
    string(&mut ctx, "log.join()")
}

#[test]
fn sync_iterator_return_is_called_inside_cancel() {
    // "close an async iterator" calls %AsyncFromSyncIteratorPrototype%.return, which calls
    // the sync iterator's return() synchronously: also before any read.
    let src = r#"
        const it = {
            [Symbol.iterator]() { return this; },
            next() { return { value: 1, done: false }; },
            return(r) { log.push('return ' + r + '@' + tick); return { done: true }; },
        };
        const rs = ReadableStream.from(it);
        rs.cancel('why').then(() => log.push('cancelled@' + tick));
        log.push('cancel returned');
        "#;
    for fast in [true, false] {
        let out = ticks(src, fast);
        assert!(
            out.starts_with("return why@0,cancel returned,cancelled@"),
            "fast paths {fast}: {out}"
        );
    }
}

#[test]
fn async_iterator_reads_take_the_webidl_positions() {
    // The first pull runs after start (tick 1): next() returns an already-fulfilled
    // promise G. "A promise resolved with" G is a new promise: thenable job (tick 2),
    // reaction (tick 3) fulfil nextPromise; the get-next-value reaction (tick 4), the pull
    // reaction enqueues (tick 5); the read's then runs at tick 6. A non-object result errors
    // the stream in the pull reaction (tick 5): the read's catch runs at tick 6.
    let src = r#"
        let i = 0;
        const good = ReadableStream.from({
            [Symbol.asyncIterator]() { return this; },
            next() { return Promise.resolve({ value: i++, done: false }); },
        });
        good.getReader().read().then((r) => log.push('read ' + r.value + '@' + tick));
        const bad = ReadableStream.from({
            [Symbol.asyncIterator]() { return this; },
            next() { return Promise.resolve(42); },
        });
        bad.getReader().read().catch((e) => log.push(e.name + '@' + tick));
        "#;
    for fast in [true, false] {
        assert_eq!(
            ticks(src, fast),
            "read 0@6,TypeError@6",
            "fast paths {fast}"
        );
    }
}

/// The log of `src` (each entry stamped with its microtask tick) with fast paths on and off:
/// they must be identical.
fn same_both_ways(src: &str) -> String {
    let fast = ticks(src, true);
    let slow = ticks(src, false);
    assert_eq!(fast, slow, "fast paths on vs off");
    fast
}

#[test]
fn constructor_getter_after_the_pull_sees_the_wrapper_promise() {
    // nextPromise's thenable job calls %Promise.prototype.then% on the wrapper's promise:
    // its SpeciesConstructor reads `constructor` with that promise as the receiver, so script
    // holds it and can react to it (the fast path must have made it a JS promise by then).
    let src = r#"
        (async () => {
        const orig = Object.getOwnPropertyDescriptor(Promise.prototype, 'constructor');
        const r = ReadableStream.from(['a', 'b']).getReader();
        await null; await null; await null;
        // The stream has started: read() pulls synchronously.
        r.read().then((v) => log.push('read1 ' + v.value + '@' + tick));
        const mine = new Set();
        Object.defineProperty(Promise.prototype, 'constructor', {
            configurable: true,
            get() {
                if (!mine.has(this)) {
                    mine.add(this);
                    log.push('get constructor@' + tick);
                    Promise.prototype.then.call(this, (v) => {
                        log.push('seen ' + JSON.stringify(v) + '@' + tick);
                    });
                }
                return Promise;
            },
        });
        (async () => {
            await undefined;
            Object.defineProperty(Promise.prototype, 'constructor', orig);
            log.push('restored@' + tick);
        })();
        })();
        "#;
    let out = same_both_ways(src);
    assert!(
        out.contains(r#"seen {"value":"a","done":false}"#),
        "the wrapper promise reached script: {out}"
    );
    assert!(out.contains("read1 a@"), "{out}");
}

#[test]
fn then_getter_installing_a_constructor_getter_before_the_thenable_job() {
    // The Object.prototype.then getter, run by the wrapper promise's resolve function on the
    // iterator result, installs a constructor getter that the very next job (nextPromise's
    // thenable job) calls on the wrapper's promise.
    let src = r#"
        const orig = Object.getOwnPropertyDescriptor(Promise.prototype, 'constructor');
        (async () => {
        let armed = 1;
        const r = ReadableStream.from(['a', 'b']).getReader();
        await null; await null; await null;
        Object.defineProperty(Object.prototype, 'then', {
            configurable: true,
            get() {
                log.push('get then ' + Object.keys(this).sort() + '@' + tick);
                if (armed === 1) {
                    armed = 2;
                    Object.defineProperty(Promise.prototype, 'constructor', {
                        configurable: true,
                        get() {
                            if (armed === 2) {
                                armed = 3;
                                log.push('get constructor@' + tick);
                                Promise.prototype.then.call(this, (v) => log.push('seen ' + v.value + '@' + tick));
                            }
                            return Promise;
                        },
                    });
                }
                return undefined;
            },
        });
        r.read().then((v) => log.push('read1 ' + v.value + '@' + tick));
        r.read().then((v) => {
            log.push('read2 ' + v.value + '@' + tick);
            Object.defineProperty(Promise.prototype, 'constructor', orig);
            delete Object.prototype.then;
        });
        })();
        "#;
    let out = same_both_ways(src);
    assert!(out.contains("seen a@"), "{out}");
    assert!(out.contains("read2 b@"), "{out}");
}

#[test]
fn species_replaced_after_a_throwing_next() {
    // next() throws: the wrapper's promise is rejected at the pull (fast path: a Rust
    // promise). A Promise[Symbol.species] installed right after is used by the thenable job's `then` on that promise (a derived
    // MyPromise, resolved with undefined when the reaction runs).
    let src = r#"
        (async () => {
        const origSpecies = Object.getOwnPropertyDescriptor(Promise, Symbol.species);
        const it = { [Symbol.iterator]() { return { next() { throw new Error('boom'); } }; } };
        const r = ReadableStream.from(it).getReader();
        await null; await null; await null;
        r.read().catch((e) => log.push('read1 ' + e.message + '@' + tick));
        class MyPromise extends Promise {
            constructor(executor) {
                log.push('MyPromise@' + tick);
                super((res, rej) => executor(
                    (v) => { log.push('MyPromise resolve ' + v + '@' + tick); res(v); },
                    (e) => { log.push('MyPromise reject@' + tick); rej(e); }));
            }
        }
        Object.defineProperty(Promise, Symbol.species, { configurable: true, get() { return MyPromise; } });
        (async () => {
            await undefined;
            Object.defineProperty(Promise, Symbol.species, origSpecies);
            log.push('restored@' + tick);
        })();
        })();
        "#;
    let out = same_both_ways(src);
    assert!(out.contains("MyPromise resolve undefined@"), "{out}");
    assert!(out.contains("read1 boom@"), "{out}");
}

#[test]
fn iterator_result_made_where_a_then_lookup_first_finds_a_function() {
    // The fast path keeps the wrapper's iterator result as its parts while the `then` lookups
    // on it run no code and find nothing callable. A callable Object.prototype.then installed
    // at each microtask offset of one pull must still receive the iterator result, at the tick
    // the spec's lookup first finds it (then adopt it through that function).
    let src = r#"
        (async () => {
        for (let offset = 0; offset < 6; offset++) {
            const r = ReadableStream.from(['a' + offset, 'b' + offset]).getReader();
            await null; await null; await null;
            r.read().then((v) => log.push('read1 ' + offset + ' ' + v.value + '@' + tick));
            let k = 0;
            const step = () => {
                if (k++ < offset) { Promise.resolve().then(step); return; }
                Object.defineProperty(Object.prototype, 'then', {
                    configurable: true,
                    value: function (res) {
                        log.push('then ' + offset + ' ' + Object.keys(this).sort() + ' ' + this.value + '@' + tick);
                        delete Object.prototype.then;
                        res(this);
                    },
                });
            };
            Promise.resolve().then(step);
            r.read().then((v) => log.push('read2 ' + offset + ' ' + v.value + '@' + tick));
            await new Promise((res) => { let n = 0; const w = () => (n++ < 40 ? Promise.resolve().then(w) : res()); w(); });
            delete Object.prototype.then;
        }
        })();
        "#;
    let out = same_both_ways(src);
    assert!(out.contains("then 0 done,value a0@"), "{out}");
    assert!(out.contains("then 5 done,value b5@"), "{out}");
    assert!(out.contains("read2 5 b5@"), "{out}");
}

#[test]
fn array_iterator_reached_by_script_is_not_counted() {
    // The fast path counts the elements next() returned only while nothing but the stream can
    // reach the ArrayIterator. A `next` getter on %ArrayIteratorPrototype% (it keeps the
    // iterator and script advances it), a replaced next(), and a `return` getter reached at
    // cancel (script drains the iterator) must all read as with fast paths off.
    let src = r#"
        (async () => {
        const ArrayIteratorPrototype = Object.getPrototypeOf([][Symbol.iterator]());
        const IteratorPrototype = Object.getPrototypeOf(ArrayIteratorPrototype);
        const origNext = ArrayIteratorPrototype.next;
        const show = (v) => log.push(v.done ? 'done@' + tick : v.value + '@' + tick);
        let seen;
        Object.defineProperty(ArrayIteratorPrototype, 'next', {
            configurable: true,
            get() { seen = this; return origNext; },
        });
        const r1 = ReadableStream.from([10, 11, 12]).getReader();
        Object.defineProperty(ArrayIteratorPrototype, 'next', { configurable: true, writable: true, value: origNext });
        log.push('script took ' + origNext.call(seen).value);
        for (let i = 0; i < 3; i++) r1.read().then(show);
        await null; await null; await null; await null; await null; await null; await null;
        ArrayIteratorPrototype.next = function () { const v = origNext.call(this); log.push('my next ' + v.value); return v; };
        const r2 = ReadableStream.from([20, 21]).getReader();
        ArrayIteratorPrototype.next = origNext;
        for (let i = 0; i < 3; i++) r2.read().then(show);
        await null; await null; await null; await null; await null; await null; await null;
        const r4 = ReadableStream.from([40, 41, 42, 43]).getReader();
        show(await r4.read());
        let taken;
        Object.defineProperty(IteratorPrototype, 'return', { configurable: true, get() { taken = this; return undefined; } });
        r4.cancel('stop').then(() => log.push('cancelled@' + tick));
        delete IteratorPrototype.return;
        log.push('taken ' + JSON.stringify(taken.next()) + ' ' + JSON.stringify(taken.next()));
        r4.read().then(show);
        })();
        "#;
    let out = same_both_ways(src);
    assert!(out.contains("script took 10,11@"), "{out}");
    assert!(out.contains("12@") && out.contains("my next 21"), "{out}");
    assert!(
        out.contains(r#"taken {"value":41,"done":false} {"value":42,"done":false}"#),
        "{out}"
    );
}
