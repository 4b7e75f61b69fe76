//! TransformStream start ticks with a JS and a native (Rust-set-up) transformer: the same with
//! the fast paths on and off (moved from `boa_streams`: `TextEncoderStream` is the Encoding
//! crate's).

use crate::test_support::{context, eval, fast_paths_scope, string};

#[test]
fn start_without_a_start_method_keeps_its_ticks_with_fast_paths() {
    for make in [
        "new TransformStream()",
        "new TransformStream({ transform(c, ctl) { ctl.enqueue(c + c); } })",
        "new TextEncoderStream()",
    ] {
        let fast = run_start_ticks(true, make);
        let slow = run_start_ticks(false, make);
        assert!(fast.contains("written@"), "{make}: {fast}");
        assert!(fast.contains("reader closed@"), "{make}: {fast}");
        assert_eq!(fast, slow, "{make}");
    }
}

/// The start of a transform stream without `start` (the constructor, and a stream set up from
/// Rust such as TextEncoderStream): each side adopts the start promise in the same microtask
/// with fast paths on (an already fulfilled start, no promise) and off (a promise).
fn run_start_ticks(fast: bool, make: &str) -> String {
    let _fast_paths = fast_paths_scope(fast);
    let mut ctx = context();
    eval(
        &mut ctx,
        &format!(
            r#"
        globalThis.log = [];
        let tick = 0;
        const count = () => {{ tick++; if (tick < 40) Promise.resolve().then(count); }};
        Promise.resolve().then(count);
        const ts = {make};
        const writer = ts.writable.getWriter();
        const reader = ts.readable.getReader();
        log.push('desired ' + writer.desiredSize);
        writer.ready.then(() => log.push('ready@' + tick));
        reader.read().then(r => log.push('read ' + r.value + '@' + tick));
        writer.write('a').then(() => log.push('written@' + tick));
        writer.close().then(() => log.push('closed@' + tick));
        reader.closed.then(() => log.push('reader closed@' + tick));
        "#
        ),
    );
    ctx.run_jobs().unwrap();
    string(&mut ctx, "log.join()")
}
