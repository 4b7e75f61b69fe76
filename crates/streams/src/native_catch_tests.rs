//! Engine bug `native-catch-stack` (docs/engine-bugs/README.md): a user callback that throws
//! from a nested frame while the library catches its exception must not corrupt the pending
//! operands of the script expression that triggered it. Each test calls
//! `g(1, 2, <stream operation>, 'd')` and checks that `g` gets its four arguments, with the
//! fast paths on and off.

use boa_engine::{Context, JsValue};

use crate::test_support::eval;

fn context(fast: bool) -> Context {
    crate::set_fast_paths(fast);
    let mut ctx = Context::default();
    crate::register(&mut ctx).unwrap();
    ctx
}

const PRELUDE: &str = r#"
    function fail() { throw new Error('from a nested frame'); }
    function g(a, b, p, d) {
        if (p instanceof Promise) p.catch(() => {});
        return [a, b, p instanceof Promise, d].join(':');
    }
"#;

/// Run `setup`, drain the jobs (streams start), then evaluate `call` (a `g(...)` call) and
/// return its result as a string.
fn run(fast: bool, setup: &str, call: &str) -> String {
    let mut ctx = context(fast);
    eval(&mut ctx, PRELUDE);
    eval(&mut ctx, setup);
    ctx.run_jobs().unwrap();
    let v = eval(&mut ctx, call);
    let out = v.to_string(&mut ctx).unwrap().to_std_string_escaped();
    ctx.run_jobs().unwrap();
    crate::set_fast_paths(true);
    out
}

fn check(setup: &str, call: &str) {
    for fast in [true, false] {
        assert_eq!(run(fast, setup, call), "1:2:true:d", "fast paths {fast}");
    }
}

#[test]
fn throwing_pull() {
    check(
        "const rs = new ReadableStream({ pull() { fail(); } }, { highWaterMark: 0 });
         globalThis.reader = rs.getReader();",
        "g(1, 2, reader.read(), 'd')",
    );
}

#[test]
fn throwing_byte_source_pull() {
    check(
        "const rs = new ReadableStream({ type: 'bytes', pull() { fail(); } });
         globalThis.reader = rs.getReader();",
        "g(1, 2, reader.read(), 'd')",
    );
}

#[test]
fn throwing_cancel() {
    check(
        "globalThis.rs = new ReadableStream({ cancel() { fail(); } });",
        "g(1, 2, rs.cancel(), 'd')",
    );
}

#[test]
fn throwing_write() {
    check(
        "const ws = new WritableStream({ write() { fail(); } });
         globalThis.writer = ws.getWriter();",
        "g(1, 2, writer.write('x'), 'd')",
    );
}

#[test]
fn throwing_abort() {
    check(
        "globalThis.ws = new WritableStream({ abort() { fail(); } });",
        "g(1, 2, ws.abort('r'), 'd')",
    );
}

#[test]
fn throwing_transform() {
    check(
        "const ts = new TransformStream({ transform() { fail(); } }, undefined,
             { highWaterMark: 1 });
         globalThis.writer = ts.writable.getWriter();",
        "g(1, 2, writer.write('x'), 'd')",
    );
}

#[test]
fn throwing_size_in_write() {
    check(
        "const ws = new WritableStream({}, { size() { fail(); } });
         globalThis.writer = ws.getWriter();",
        "g(1, 2, writer.write('x'), 'd')",
    );
}

#[test]
fn throwing_readable_size_in_identity_transform() {
    check(
        "const ts = new TransformStream({}, undefined, { highWaterMark: 1, size() { fail(); } });
         globalThis.writer = ts.writable.getWriter();",
        "g(1, 2, writer.write('x'), 'd')",
    );
}

#[test]
fn throwing_from_iterator_next() {
    check(
        "const it = { [Symbol.iterator]() { return { next() { fail(); } }; } };
         globalThis.reader = ReadableStream.from(it).getReader();",
        "g(1, 2, reader.read(), 'd')",
    );
}

#[test]
fn call_catching_keeps_this_arguments_and_the_exception() {
    let mut ctx = context(true);
    eval(
        &mut ctx,
        "globalThis.seen = [];
         globalThis.f = function (...args) { seen.push([this, args.length, ...args]); return 7; };
         globalThis.thrower = function () { fail(); };
         Function.prototype.call = () => { throw new Error('patched'); };
         function fail() { throw new RangeError('boom'); }",
    );
    let f = eval(&mut ctx, "f").as_object().unwrap();
    let this = JsValue::from(boa_engine::js_string!("t"));
    for n in 0..4 {
        let args: Vec<JsValue> = (0..n).map(JsValue::from).collect();
        let r = crate::webidl::call_catching(&f, &this, &args, &mut ctx).unwrap();
        assert_eq!(r, JsValue::from(7));
    }
    let seen = eval(&mut ctx, "JSON.stringify(seen)");
    assert_eq!(
        seen.to_string(&mut ctx).unwrap().to_std_string_escaped(),
        r#"[["t",0],["t",1,0],["t",2,0,1],["t",3,0,1,2]]"#
    );
    let thrower = eval(&mut ctx, "thrower").as_object().unwrap();
    let err = crate::webidl::call_catching(&thrower, &this, &[], &mut ctx).unwrap_err();
    let v = err.into_value();
    let name = v
        .as_object()
        .unwrap()
        .get(boa_engine::js_string!("name"), &mut ctx)
        .unwrap();
    assert_eq!(
        name.to_string(&mut ctx).unwrap().to_std_string_escaped(),
        "RangeError"
    );
}
