//! The engine patch series (third_party/boa/README.md): one group of tests per patch, run on
//! the patched engine of this workspace. Each names its patch.

use std::time::Duration;

use boa_engine::error::EngineError;
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

/// Run `code` while another thread interrupts it after a short while; the error it ends with.
fn interrupted(context: &mut Context, code: &str) -> boa_engine::JsError {
    let handle = context.interrupt_handle();
    let watchdog = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(30));
        handle.interrupt();
    });
    let result = eval(context, code);
    watchdog.join().expect("watchdog");
    let error = result.expect_err("the script was not stopped");
    context.interrupt_handle().reset();
    error
}

// --- 0001-interrupt-hook ---

#[test]
fn interrupt_stops_an_endless_loop_and_is_not_catchable() {
    let mut context = Context::default();
    eval(&mut context, "globalThis.log = [];").unwrap();
    let error = interrupted(
        &mut context,
        "try { for (;;) {} } catch (e) { log.push('catch'); } finally { log.push('finally'); }",
    );
    assert!(matches!(error.as_engine(), Some(EngineError::Interrupted)));
    assert!(error.as_engine().is_some());
    // Neither `catch` nor `finally` ran, and the context runs code again after `reset`.
    let log = eval(&mut context, "log.join()").unwrap();
    assert_eq!(text(&log), "");
    assert_eq!(eval(&mut context, "6 * 7").unwrap(), JsValue::new(42));
}

#[test]
fn interrupt_stops_recursion_without_loops() {
    let mut context = Context::default();
    // Exponential recursion: no loop opcode, every call checks.
    let error = interrupted(
        &mut context,
        "function f(n) { if (n === 0) return 0; return f(n - 1) + f(n - 1); } f(60)",
    );
    assert!(matches!(error.as_engine(), Some(EngineError::Interrupted)));
}

#[test]
fn interrupt_stops_long_native_operations() {
    let mut context = Context::default();
    for code in [
        "new Array(5e8).fill(0)",
        "for (;;) new Uint8Array(64 << 20).fill(1)",
        "const a = new Array(1e6).fill('x'); for (;;) a.join('-')",
        "const o = Array.from({ length: 1e5 }, (_, i) => ({ i })); for (;;) JSON.stringify(o)",
        "const b = new Float64Array(1 << 22); for (;;) new Uint8Array(1 << 22).set(b)",
        "for (;;) 'ab'.repeat(1 << 26)",
    ] {
        let error = interrupted(&mut context, code);
        assert!(
            matches!(error.as_engine(), Some(EngineError::Interrupted)),
            "{code}: {error}"
        );
    }
}

#[test]
fn interrupt_handle_starts_clear_and_reports_its_state() {
    let context = Context::default();
    let handle = context.interrupt_handle();
    assert!(!handle.is_interrupted());
    assert!(context.check_interrupt().is_ok());
    handle.interrupt();
    assert!(context.interrupt_handle().is_interrupted());
    assert!(context.check_interrupt().is_err());
    handle.reset();
    assert!(context.check_interrupt().is_ok());
}

// --- 0002-heap-limit ---

#[test]
fn heap_limit_makes_large_single_allocations_a_range_error() {
    let mut context = Context::default();
    context.set_heap_limit(Some(64 << 20));
    assert_eq!(context.heap_limit(), Some(64 << 20));
    for code in [
        "new ArrayBuffer(128 * 1024 * 1024)",
        "new Uint8Array(128 * 1024 * 1024)",
        "new Float64Array(32 * 1024 * 1024)",
        "'abc'.repeat(64 * 1024 * 1024)",
    ] {
        let caught = eval(
            &mut context,
            &format!("try {{ {code}; 'allocated' }} catch (e) {{ e.name + ': ' + e.message }}"),
        )
        .unwrap();
        let caught = text(&caught);
        assert!(
            caught.starts_with("RangeError") && caught.contains("heap limit"),
            "{code}: {caught}"
        );
    }
    // Below the limit: allocated.
    let small = eval(&mut context, "new ArrayBuffer(1 << 20).byteLength").unwrap();
    assert_eq!(small, JsValue::new(1 << 20));
    context.set_heap_limit(None);
    let big = eval(
        &mut context,
        "new ArrayBuffer(128 * 1024 * 1024).byteLength",
    )
    .unwrap();
    assert_eq!(big, JsValue::new(128 * 1024 * 1024));
}

#[test]
fn heap_limit_ends_a_script_whose_live_heap_stays_above_it() {
    let mut context = Context::default();
    context.set_heap_limit(Some(8 << 20));
    let error = eval(
        &mut context,
        "const keep = []; try { for (;;) keep.push({ a: 1 }, [1], function () {}); } catch { }",
    )
    .expect_err("the heap limit did not stop the script");
    assert!(
        matches!(error.as_engine(), Some(EngineError::HeapLimit)),
        "{error}"
    );
    assert!(error.as_engine().is_some());
    assert!(boa_gc::allocated_bytes() > 8 << 20);
    context.set_heap_limit(None);
    context.interrupt_handle().reset();
    assert_eq!(eval(&mut context, "1 + 1").unwrap(), JsValue::new(2));
}

#[test]
fn reservation_for_a_huge_array_like_does_not_abort() {
    // Before the patch each call aborted the process (the reservation for 2^40 elements).
    let mut context = Context::default();
    let out = eval(
        &mut context,
        "const huge = { get length() { return 2 ** 40; }, get 0() { throw new Error('stop'); } };
         [Array.prototype.join, Array.prototype.toLocaleString, Array.prototype.sort]
           .map((f) => { try { f.call(huge); return 'returned'; } catch (e) { return e.message; } })
           .join()",
    )
    .unwrap();
    assert_eq!(text(&out), "stop,stop,stop");
}

// --- 0003-computed-method-key-scopes ---

#[test]
fn function_with_for_let_in_a_computed_method_key_compiles_and_runs() {
    let mut context = Context::default();
    // What TypeScript emits for a class with #private methods and [Symbol.asyncIterator]:
    // the private methods become functions assigned inside the first computed key.
    let out = eval(
        &mut context,
        "var _m;
         class C {
           [(_m = function () { let s = 0; for (let i = 0; i < 3; i++) { s += i; } return s; },
             'k')]() { return _m(); }
           get [(() => { for (const x of [1]) { return 'g' + x; } })()]() { return 'getter'; }
           static [(function () { for (let j in { a: 1 }) return j; })()]() { return 'static'; }
         }
         [new C().k(), new C().g1, C.a()].join()",
    )
    .unwrap();
    assert_eq!(text(&out), "3,getter,static");
}

// --- 0004-import-reserved-word-names ---

#[test]
fn import_and_export_reserved_words_and_strings_as_names() {
    let dir = std::env::temp_dir().join(format!("boa-series-import-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("m.mjs"),
        "const x = 1, y = 2, z = 3, w = 4;
         export { x as null, y as true, z as default, w as 'a-b' };",
    )
    .unwrap();
    std::fs::write(
        dir.join("main.mjs"),
        "import { null as n, true as t, default as d, 'a-b' as ab, false as f } from './m2.mjs';
         globalThis.result = [n, t, d, ab, f].join();",
    )
    .unwrap();
    std::fs::write(
        dir.join("m2.mjs"),
        "export { null, true, default, 'a-b' } from './m.mjs'; export const x = 5; export { x as false };",
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
        let value = host.eval_source("String(globalThis.result)", "check.js");
        let _ = std::fs::remove_dir_all(&dir);
        (promise.is_ok(), errors, value.map(|v| text(&v)).ok())
    })
    .unwrap();
    assert!(result.0, "{result:?}");
    assert_eq!(result.2.as_deref(), Some("1,2,3,4,5"), "{result:?}");
}

#[test]
fn importing_a_reserved_word_still_needs_as() {
    let mut context = Context::default();
    let parsed = boa_engine::Module::parse(
        Source::from_bytes("import { null } from './m.mjs';"),
        None,
        &mut context,
    );
    assert!(parsed.is_err());
    // A local export of a reserved word is still an early error.
    let parsed = boa_engine::Module::parse(
        Source::from_bytes("const x = 1; export { null };"),
        None,
        &mut context,
    );
    assert!(parsed.is_err());
}

// --- 0005-inline-cache-shape-checks ---

#[test]
fn inline_cache_prototype_slot_after_delete_and_add_on_the_prototype() {
    let mut context = Context::default();
    let out = eval(
        &mut context,
        "function f(o) { return o.zz; }
         const P = { a: 1, zz: 'p' };
         const out = [];
         Object.prototype.zz = 1;
         out.push(f({}), f({}));
         delete Object.prototype.zz;
         out.push(String(f({})), String(f({})));
         // A prototype whose property moves: another property deleted before it.
         function g(o) { return o.zz; }
         const o = Object.create(P);
         out.push(g(o), g(o));
         delete P.a;
         out.push(g(o));
         P.b = 2; delete P.zz; P.zz = 'q';
         out.push(g(o), g(o));
         out.join()",
    )
    .unwrap();
    assert_eq!(text(&out), "1,1,undefined,undefined,p,p,p,q,q");
}

#[test]
fn inline_cache_accessor_redefined_as_data_by_its_getter() {
    let mut context = Context::default();
    let out = eval(
        &mut context,
        "function defineLazy(object, key, compute) {
           Object.defineProperty(object, key, {
             configurable: true,
             get() { const value = compute(); object[key] = value; return value; },
             set(v) { Object.defineProperty(object, key, { value: v }); },
           });
         }
         function read(o) { return o.shape; }
         const out = [];
         for (const n of [1, 2]) {
           const o = {};
           defineLazy(o, 'shape', () => ({ n }));
           for (let i = 0; i < 2; i++) {
             try { out.push(read(o).n); } catch (e) { out.push(String(e)); }
           }
         }
         out.join(' / ')",
    )
    .unwrap();
    assert_eq!(text(&out), "1 / 1 / 2 / 2");
}

#[test]
fn inline_cache_setter_on_the_prototype_after_redefinition() {
    let mut context = Context::default();
    let out = eval(
        &mut context,
        "const log = [];
         const P = {};
         Object.defineProperty(P, 'x', { configurable: true, set(v) { log.push('s1:' + v); } });
         function w(o, v) { o.x = v; }
         const o = Object.create(P);
         w(o, 1); w(o, 2);
         Object.defineProperty(P, 'y', { configurable: true, value: 0 });
         delete P.x;
         Object.defineProperty(P, 'x', { configurable: true, set(v) { log.push('s2:' + v); } });
         w(o, 3);
         log.join()",
    )
    .unwrap();
    assert_eq!(text(&out), "s1:1,s1:2,s2:3");
}

// --- 0010-generator-return-iterator-close ---

/// `fixtures/generator_return/cases.js`: `return()` (and `throw()`, `break`) on generators
/// suspended in for-of loops, with finally blocks, nested loops, `yield*`, throwing and
/// non-object `return()` results; `expected.txt` is its output under Node.js (V8).
#[test]
fn generator_return_closes_the_for_of_iterator_like_node() {
    let mut context = Context::default();
    let got = eval(
        &mut context,
        include_str!("fixtures/generator_return/cases.js"),
    )
    .unwrap();
    let got = text(&got);
    let expected = include_str!("fixtures/generator_return/expected.txt");
    let differences: Vec<String> = got
        .lines()
        .zip(expected.lines())
        .filter(|(a, b)| a != b)
        .map(|(a, b)| format!("got {a:?}\nnode {b:?}"))
        .collect();
    assert!(differences.is_empty(), "{}", differences.join("\n"));
    assert_eq!(got.lines().count(), expected.lines().count());
}

#[test]
fn async_generator_return_closes_the_for_await_iterator() {
    let mut context = Context::default();
    eval(
        &mut context,
        r#"
        globalThis.log = [];
        const inner = {
          [Symbol.asyncIterator]() { return this; },
          next() { return Promise.resolve({ value: 1, done: false }); },
          return() { log.push("return"); return Promise.resolve({ done: true }); },
        };
        async function* g() {
          try { for await (const x of inner) yield x; } finally { log.push("finally"); }
        }
        const it = g();
        it.next().then(() => it.return(9)).then((r) => log.push(JSON.stringify(r)));
        "#,
    )
    .unwrap();
    context.run_jobs().unwrap();
    let log = eval(&mut context, "log.join(', ')").unwrap();
    assert_eq!(text(&log), r#"return, finally, {"value":9,"done":true}"#);
}

#[test]
fn the_generator_return_repro_closes_every_iterator() {
    let mut context = Context::default();
    let repro = include_str!("../../../docs/engine-bugs/generator-return-skips-iterator-close.js")
        .replace(
            "console.log(log.join(\", \"))",
            "globalThis.result = log.join(\", \")",
        );
    eval(&mut context, &repro).unwrap();
    context.run_jobs().unwrap();
    let result = eval(&mut context, "result").unwrap();
    assert_eq!(text(&result), "for-of, yield*, finally, for-await");
}
