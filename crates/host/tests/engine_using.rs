//! Engine patches 0006-explicit-resource-management (third_party/boa/README.md): `using` and
//! `await using` declarations, `SuppressedError`, `Symbol.dispose` / `Symbol.asyncDispose`
//! on the iterator prototypes; and 0007-disposable-stack: `DisposableStack`,
//! `AsyncDisposableStack`. Expected orders follow the proposal's `DisposeResources`
//! (ECMA-262 with explicit resource management); no Node >= 24 was at hand to compare with.

use boa_engine::{Context, JsResult, JsValue, Source};
use boa_streams_host::{run_with_large_stack, Host, HostOptions};

fn eval(context: &mut Context, code: &str) -> JsResult<JsValue> {
    context.eval(Source::from_bytes(code))
}

fn text(value: &JsValue) -> String {
    value
        .as_string()
        .map(|s| s.to_std_string_escaped())
        .unwrap_or_else(|| format!("{}", value.display()))
}

/// Helpers every script gets: `log` and `res(name)`, a resource whose `[Symbol.dispose]`
/// logs `-name`.
const PRELUDE: &str = "
    globalThis.log = [];
    globalThis.res = (name) => ({ [Symbol.dispose]() { log.push('-' + name); } });
";

/// Run a script, then its promise jobs; `log` joined with spaces, then `| uncaught: ...`
/// if the script threw.
fn run(code: &str) -> String {
    let mut context = Context::default();
    eval(&mut context, PRELUDE).unwrap();
    let result = eval(&mut context, code);
    context.run_jobs().unwrap();
    let log = text(&eval(&mut context, "log.join(' ')").unwrap());
    match result {
        Ok(_) => log,
        Err(e) => format!("{log} | uncaught: {e}"),
    }
}

/// Whether `code` is a SyntaxError as a script.
fn script_syntax_error(code: &str) -> bool {
    let mut context = Context::default();
    boa_engine::Script::parse(Source::from_bytes(code), None, &mut context).is_err()
}

/// Whether `code` is a SyntaxError as a module.
fn module_syntax_error(code: &str) -> bool {
    let mut context = Context::default();
    boa_engine::Module::parse(Source::from_bytes(code), None, &mut context).is_err()
}

#[test]
fn using_in_a_function_body_no_longer_panics() {
    // docs/engine-bugs/using-declaration-panic.js: stock 0.22 panics (index out of bounds).
    assert_eq!(
        run("function f() { using x = null; log.push(String(x)); } f();"),
        "null"
    );
}

#[test]
fn resources_are_disposed_in_reverse_order_at_the_end_of_a_block() {
    assert_eq!(
        run(
            "{ using a = res('a'), b = res('b'); using c = res('c'); log.push('body'); }
             log.push('after');"
        ),
        "body -c -b -a after"
    );
    // Nested blocks: the inner one first.
    assert_eq!(
        run(
            "{ using a = res('a'); { using b = res('b'); log.push('inner'); } log.push('outer'); }"
        ),
        "inner -b outer -a"
    );
}

#[test]
fn return_break_and_continue_dispose_before_leaving() {
    assert_eq!(
        run(
            "function f() { using a = res('a'); log.push('f'); return 'r'; }
             log.push(f());"
        ),
        "f -a r"
    );
    assert_eq!(
        run("for (let i = 0; i < 3; i++) {
               using r = res('r' + i);
               if (i === 1) continue;
               if (i === 2) break;
               log.push('i' + i);
             }
             log.push('end');"),
        "i0 -r0 -r1 -r2 end"
    );
    assert_eq!(
        run(
            "outer: for (const i of [1, 2]) { { using r = res('r' + i); break outer; } }
             log.push('end');"
        ),
        "-r1 end"
    );
    // A function's completion value is computed before the disposal runs.
    assert_eq!(
        run(
            "function f() { let v = 1; using a = { [Symbol.dispose]() { v = 2; } }; return v; }
             log.push(f());"
        ),
        "1"
    );
}

#[test]
fn a_throw_disposes_then_propagates() {
    assert_eq!(
        run("try { using a = res('a'); throw new Error('body'); }
             catch (e) { log.push('caught ' + e.message); }"),
        "-a caught body"
    );
    // A disposal that throws after a normal completion: its error as is.
    assert_eq!(
        run(
            "try { using a = { [Symbol.dispose]() { throw new RangeError('d'); } }; }
             catch (e) { log.push(e.constructor.name, e.message); }"
        ),
        "RangeError d"
    );
}

#[test]
fn disposal_errors_after_an_error_are_suppressed_errors() {
    assert_eq!(
        run("try {
               using a = { [Symbol.dispose]() { throw new Error('d1'); } };
               using b = { [Symbol.dispose]() { throw new Error('d2'); } };
               using c = res('c');
               throw new Error('body');
             } catch (e) {
               log.push(e.name, e.error.message, e.suppressed.name,
                        e.suppressed.error.message, e.suppressed.suppressed.message,
                        e instanceof SuppressedError, e instanceof Error,
                        Object.keys(e).length);
             }"),
        "-c SuppressedError d1 SuppressedError d2 body true true 0"
    );
}

#[test]
fn null_and_undefined_are_skipped_other_values_are_type_errors() {
    assert_eq!(
        run("{ using a = null, b = undefined, c = res('c'); log.push('body'); }"),
        "body -c"
    );
    // A non-object: TypeError at the declaration; the resources before it are disposed.
    assert_eq!(
        run(
            "try { using a = res('a'); using b = 42; log.push('unreached'); }
             catch (e) { log.push(e.constructor.name); }"
        ),
        "-a TypeError"
    );
    // No [Symbol.dispose], or not callable.
    assert_eq!(
        run("for (const v of [{}, { [Symbol.dispose]: 1 }]) {
               try { using x = v; } catch (e) { log.push(e.constructor.name); }
             }"),
        "TypeError TypeError"
    );
    // The method is read once, at the declaration, and called with the resource as this.
    assert_eq!(
        run("let reads = 0;
             const r = { get [Symbol.dispose]() { reads++; return function () { log.push(this === r); }; } };
             { using x = r; }
             log.push(reads);"),
        "true 1"
    );
}

#[test]
fn using_bindings_are_constant() {
    assert_eq!(
        run("try { using x = res('x'); x = null; } catch (e) { log.push(e.constructor.name); }"),
        "-x TypeError"
    );
    assert_eq!(
        run("try { for (using x of [null]) { x = 1; } } catch (e) { log.push(e.constructor.name); }"),
        "TypeError"
    );
}

#[test]
fn for_of_heads_dispose_each_iteration() {
    assert_eq!(
        run(
            "for (using x of [res('a'), null, res('b')]) log.push('body');
             log.push('end');"
        ),
        "body -a body body -b end"
    );
    // break: the resource is disposed before the iterator is closed.
    assert_eq!(
        run("let i = 0;
             const it = {
               [Symbol.iterator]() { return this; },
               next() { return { value: res('v' + i++), done: false }; },
               return() { log.push('return'); return {}; },
             };
             for (using x of it) { if (i === 2) break; }
             log.push('end');"),
        "-v0 -v1 return end"
    );
    // A throwing body: dispose, close the iterator, propagate.
    assert_eq!(
        run("const it = [res('a')][Symbol.iterator]();
             it.return = () => { log.push('return'); return {}; };
             try { for (using x of it) throw new Error('t'); }
             catch (e) { log.push(e.message); }"),
        "-a return t"
    );
}

#[test]
fn for_statement_heads_dispose_when_the_loop_ends() {
    assert_eq!(
        run("let n = 0;
             for (using x = res('x'); n < 2; n++) log.push('it' + n);
             log.push('end');"),
        "it0 it1 -x end"
    );
    // A later initializer that throws disposes the earlier ones.
    assert_eq!(
        run("try { for (using x = res('x'), y = 1; ;) {} } catch (e) { log.push(e.constructor.name); }"),
        "-x TypeError"
    );
}

#[test]
fn generator_return_disposes() {
    assert_eq!(
        run("function* g() { using a = res('a'); yield 1; yield 2; }
             const it = g();
             it.next();
             const r = it.return(5);
             log.push(r.value, r.done);"),
        "-a 5 true"
    );
    assert_eq!(
        run("function* g() { using a = res('a'); yield 1; }
             for (const v of g()) log.push(v);"),
        "1 -a"
    );
}

#[test]
fn await_using_awaits_async_dispose_in_async_functions() {
    assert_eq!(
        run("async function f() {
               await using a = {
                 async [Symbol.asyncDispose]() { log.push('start a'); await null; log.push('end a'); },
               };
               await using b = { [Symbol.dispose]() { log.push('sync b'); } };
               log.push('body');
             }
             f().then(() => log.push('done'));
             log.push('after call');"),
        "body sync b after call start a end a done"
    );
}

#[test]
fn await_using_null_still_awaits_once_and_sync_using_never_awaits() {
    assert_eq!(
        run("async function f() { { await using x = null; log.push('body'); } log.push('after block'); }
             f();
             log.push('sync');"),
        "body sync after block"
    );
    assert_eq!(
        run(
            "async function f() { { using x = null; log.push('body'); } log.push('after block'); }
             f();
             log.push('sync');"
        ),
        "body after block sync"
    );
}

#[test]
fn await_using_rejections_and_sync_dispose_throws_reject_the_function() {
    assert_eq!(
        run("async function f() {
               await using a = { [Symbol.asyncDispose]() { return Promise.reject(new Error('async')); } };
             }
             f().catch((e) => log.push('rejected ' + e.message));"),
        "rejected async"
    );
    // A [Symbol.dispose] used by `await using` that throws: a rejection (after a tick),
    // suppressed by nothing.
    assert_eq!(
        run("async function f() {
               await using a = { [Symbol.dispose]() { throw new Error('sync'); } };
               throw new Error('body');
             }
             f().catch((e) => log.push(e.name, e.error.message, e.suppressed.message));"),
        "SuppressedError sync body"
    );
}

#[test]
fn for_await_using_heads_in_async_functions() {
    assert_eq!(
        run(
            "const ar = (name) => ({ async [Symbol.asyncDispose]() { log.push('-' + name); } });
             async function f() {
               for (await using x of [ar('a'), ar('b')]) log.push('body');
               for await (using y of [res('c')]) log.push('body2');
             }
             f().then(() => log.push('done'));"
        ),
        "body -a body -b body2 -c done"
    );
}

#[test]
fn using_and_await_using_at_the_top_level_of_a_module() {
    let dir = std::env::temp_dir().join(format!("boa-series-using-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("main.mjs"),
        "globalThis.log = [];
         await using a = { async [Symbol.asyncDispose]() { log.push('-a'); } };
         using b = { [Symbol.dispose]() { log.push('-b'); } };
         log.push('body');",
    )
    .unwrap();
    let result = run_with_large_stack(move || {
        let mut host = Host::new(HostOptions {
            print_errors: false,
            ..HostOptions::default()
        })
        .unwrap();
        let promise = host.eval_module_file(&dir.join("main.mjs"));
        host.run_event_loop(None);
        let errors = host.take_errors();
        let value = host.eval_source("log.join(' ')", "check.js");
        let _ = std::fs::remove_dir_all(&dir);
        (promise.is_ok(), errors, value.map(|v| text(&v)).ok())
    })
    .unwrap();
    assert!(result.0, "{result:?}");
    assert_eq!(result.2.as_deref(), Some("body -b -a"), "{result:?}");
}

#[test]
fn using_is_still_an_identifier_where_the_grammar_says() {
    assert_eq!(
        run("var using = [1, 2], x = 0, of = [[7]];
             using[x] = 5;
             log.push(using.join());
             using = 3;
             log.push(using);
             {
               using
               let = 'let';
               log.push(typeof let);
             }
             var let;
             for (using of of [0]) log.push(using);
             using: for (;;) break using;
             log.push((using => using + 1)(1));"),
        "5,2 3 string 7 2"
    );
}

#[test]
fn early_errors() {
    // Not at the top level of a script or eval code, nor directly in a case clause.
    assert!(script_syntax_error("using x = null;"));
    assert!(!script_syntax_error("{ using x = null; }"));
    assert!(!script_syntax_error("for (using x = null;;) break;"));
    assert_eq!(
        run(
            "try { eval('using x = null;'); } catch (e) { log.push(e.constructor.name); }
             eval('{ using y = null; }');"
        ),
        "SyntaxError"
    );
    assert!(script_syntax_error(
        "switch (0) { case 0: using x = null; }"
    ));
    assert!(script_syntax_error(
        "switch (0) { default: using x = null; }"
    ));
    assert!(!script_syntax_error(
        "switch (0) { case 0: { using x = null; } }"
    ));
    // No patterns, initializer required, no for-in, no `let` binding.
    assert!(script_syntax_error("{ using { a } = null; }"));
    assert!(!script_syntax_error("{ using [a] = null; }")); // `using[a] = null`
    assert!(script_syntax_error("{ using x; }"));
    assert!(script_syntax_error("for (using x in {}) ;"));
    assert!(script_syntax_error("{ using let = null; }"));
    // `await using` only where `await` is an await.
    assert!(script_syntax_error(
        "function f() { await using x = null; }"
    ));
    assert!(!script_syntax_error(
        "async function f() { await using x = null; }"
    ));
    assert!(!script_syntax_error(
        "async function f() { for (await using x of []) ; }"
    ));
    assert!(!module_syntax_error("await using x = null;"));
    assert!(module_syntax_error("export using x = null;"));
    assert!(module_syntax_error("export await using x = null;"));
    // `await using` split over lines is `await using;` then `x = ...`.
    assert!(!script_syntax_error(
        "async function f() { let using; await using\nx = 1; }"
    ));
}

#[test]
fn suppressed_error_and_the_dispose_symbols() {
    assert_eq!(
        run("const e = new SuppressedError(1, 2, 'm');
             log.push(e.error, e.suppressed, e.message, e.name,
                      SuppressedError.length, Object.getPrototypeOf(SuppressedError) === Error,
                      Object.prototype.propertyIsEnumerable.call(e, 'error'),
                      'message' in SuppressedError(0, 0) && !Object.hasOwn(SuppressedError(0, 0), 'message'),
                      typeof Symbol.dispose, typeof Symbol.asyncDispose);"),
        "1 2 m SuppressedError 3 true false true symbol symbol"
    );
    // %IteratorPrototype%[Symbol.dispose] calls return(); the async one awaits it.
    assert_eq!(
        run(
            "function* g() { try { yield 1; } finally { log.push('closed'); } }
             const it = g();
             it.next();
             it[Symbol.dispose]();
             async function* ag() { try { yield 1; } finally { log.push('async closed'); } }
             const ait = ag();
             ait.next().then(() => ait[Symbol.asyncDispose]())
                       .then((v) => log.push('resolved ' + v));"
        ),
        "closed async closed resolved undefined"
    );
}

// --- 0007-disposable-stack ---

#[test]
fn disposable_stack_disposes_in_reverse_order_once() {
    assert_eq!(
        run("const stack = new DisposableStack();
             const r = stack.use(res('used'));
             stack.use(null);
             log.push(stack.adopt('v', (v) => log.push('adopted ' + v)));
             stack.defer(function () { 'use strict'; log.push('deferred', this === undefined); });
             log.push(r === undefined, stack.disposed);
             stack.dispose();
             log.push(stack.disposed);
             stack.dispose();
             try { stack.use(res('late')); } catch (e) { log.push(e.constructor.name); }
             log.push(Object.prototype.toString.call(stack),
                      DisposableStack.prototype[Symbol.dispose] === DisposableStack.prototype.dispose);"),
        "v false false deferred true adopted v -used true ReferenceError [object DisposableStack] true"
    );
}

#[test]
fn disposable_stack_errors_and_move() {
    assert_eq!(
        run("const stack = new DisposableStack();
             stack.defer(() => { throw new Error('first'); });
             stack.defer(() => { throw new Error('second'); });
             try { stack.dispose(); } catch (e) { log.push(e.name, e.error.message, e.suppressed.message); }
             const a = new DisposableStack();
             a.use(res('moved'));
             const b = a.move();
             log.push(a.disposed, b.disposed, b instanceof DisposableStack);
             a.dispose();
             { using s = b; log.push('block'); }
             try { DisposableStack(); } catch (e) { log.push(e.constructor.name); }
             try { stack.defer(1); } catch (e) { log.push(e.constructor.name); }"),
        "SuppressedError first second true false true block -moved TypeError ReferenceError"
    );
}

#[test]
fn async_disposable_stack_awaits_each_resource() {
    assert_eq!(
        run("const stack = new AsyncDisposableStack();
             stack.use({ async [Symbol.asyncDispose]() { log.push('start a'); await null; log.push('end a'); } });
             stack.use(res('sync'));
             stack.defer(async () => { log.push('deferred'); });
             stack.disposeAsync().then((v) => log.push('done', String(v), stack.disposed));
             log.push('after call');
             const failing = new AsyncDisposableStack();
             failing.defer(() => Promise.reject(new Error('no')));
             failing.disposeAsync().catch((e) => log.push('rejected ' + e.message));
             AsyncDisposableStack.prototype.disposeAsync.call({}).catch((e) => log.push(e.constructor.name));"),
        "deferred after call -sync TypeError start a rejected no end a done undefined true"
    );
}
