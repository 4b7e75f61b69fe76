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
