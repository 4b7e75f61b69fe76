//! Engine bug `native-catch-stack` (docs/engine-bugs/README.md): a user callback that throws
//! from a nested frame while the library catches its exception must not corrupt the pending
//! operands of the script expression that triggered it. Each test calls
//! `g(1, 2, <stream operation>, 'd')` and checks that `g` gets its four arguments, with the
//! fast paths on and off.

use boa_engine::{Context, JsValue};

use crate::test_support::{context, eval, run_jobs, string, with_fast_paths};

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
    with_fast_paths(fast, || {
        let mut ctx = context();
        eval(&mut ctx, PRELUDE);
        eval(&mut ctx, setup);
        run_jobs(&mut ctx);
        let out = string(&mut ctx, call);
        run_jobs(&mut ctx);
        out
    })
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
    let mut ctx = context();
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
        let r = boa_webidl::call_catching(&f, &this, &args, &mut ctx).unwrap();
        assert_eq!(r, JsValue::from(7));
    }
    let seen = eval(&mut ctx, "JSON.stringify(seen)");
    assert_eq!(
        seen.to_string(&mut ctx).unwrap().to_std_string_escaped(),
        r#"[["t",0],["t",1,0],["t",2,0,1],["t",3,0,1,2]]"#
    );
    let thrower = eval(&mut ctx, "thrower").as_object().unwrap();
    let err = boa_webidl::call_catching(&thrower, &this, &[], &mut ctx).unwrap_err();
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

/// Per-call cost of the catching mechanism (run with `--ignored --nocapture`; numbers are
/// only meaningful in an optimized build): a direct `JsObject::call`, `call_catching`, a
/// `catching` closure making the same call, and the throw path.
#[test]
#[ignore = "micro-benchmark"]
fn catching_cost() {
    use std::time::Instant;
    let mut ctx = context();
    eval(
        &mut ctx,
        "globalThis.f = function (x) { return x; };
         globalThis.thrower = function () { fail(); };
         function fail() { throw new Error('x'); }",
    );
    let f = eval(&mut ctx, "f").as_object().unwrap();
    let thrower = eval(&mut ctx, "thrower").as_object().unwrap();
    let this = JsValue::undefined();
    let args = [JsValue::from(1)];
    const N: u32 = 200_000;
    let measure = |name: &str, ctx: &mut Context, run: &mut dyn FnMut(&mut Context)| {
        for _ in 0..N / 10 {
            run(ctx);
        }
        let mut best = f64::MAX;
        for _ in 0..5 {
            let start = Instant::now();
            for _ in 0..N {
                run(ctx);
            }
            best = best.min(start.elapsed().as_secs_f64() * 1e9 / f64::from(N));
        }
        println!("{name}: {best:.0} ns/call");
        best
    };
    let direct = measure("direct JsObject::call", &mut ctx, &mut |ctx| {
        f.call(&this, &args, ctx).unwrap();
    });
    let caught = measure("call_catching", &mut ctx, &mut |ctx| {
        boa_webidl::call_catching(&f, &this, &args, ctx).unwrap();
    });
    let closure = measure("catching(closure: call + ToNumber)", &mut ctx, &mut |ctx| {
        boa_webidl::catching(ctx, |ctx| f.call(&this, &args, ctx)?.to_number(ctx)).unwrap();
    });
    let throws = measure(
        "call_catching, callee throws from a nested frame",
        &mut ctx,
        &mut |ctx| {
            boa_webidl::call_catching(&thrower, &this, &[], ctx).unwrap_err();
        },
    );
    println!(
        "overhead: call_catching {:.0} ns, catching closure {:.0} ns, throw path {:.0} ns",
        caught - direct,
        closure - direct,
        throws
    );
}

#[test]
fn catching_turns_the_recursion_limit_into_a_range_error_and_restores_the_limits() {
    let mut ctx = context();
    eval(&mut ctx, "function rec() { return rec() + 1; }");
    let before = ctx.runtime_limits();
    let rec = eval(&mut ctx, "rec").as_object().unwrap();
    // Nested: the inner catching runs under the host's limits and reports the RangeError;
    // the outer one completes normally.
    let outer = boa_webidl::catching(&mut ctx, |ctx| {
        let inner = boa_webidl::call_catching(&rec, &JsValue::undefined(), &[], ctx);
        Ok(inner.unwrap_err().into_value())
    })
    .unwrap();
    let name = outer
        .as_object()
        .unwrap()
        .get(boa_engine::js_string!("name"), &mut ctx)
        .unwrap();
    assert_eq!(
        name.as_string().unwrap().to_std_string_escaped(),
        "RangeError"
    );
    let after = ctx.runtime_limits();
    assert_eq!(before.recursion_limit(), after.recursion_limit());
    assert_eq!(before.stack_size_limit(), after.stack_size_limit());
    // The operand stack is intact afterwards.
    assert_eq!(
        run_in(&mut ctx, "g(1, 2, Promise.resolve(), 'd')"),
        "1:2:true:d"
    );
}

fn run_in(ctx: &mut Context, src: &str) -> String {
    eval(ctx, PRELUDE);
    string(ctx, src)
}
