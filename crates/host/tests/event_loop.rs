//! Event loop ordering, error reporting, rejection tracking, virtual time, host globals.

use std::time::{Duration, Instant};

use boa_streams_host::{run_with_large_stack, Host, HostError, HostOptions, LoopOutcome};

fn host(virtual_time: bool) -> Host {
    Host::new(HostOptions {
        expose_gc: false,
        virtual_time,
        print_errors: false,
        ..HostOptions::default()
    })
    .expect("host")
}

/// Evaluate `source` (which must not throw).
fn eval(host: &mut Host, source: &str) {
    if let Err(e) = host.eval_source(source, "test.js") {
        panic!("script threw: {e}");
    }
}

/// Evaluate `expr` and convert the result to a Rust string.
fn string(host: &mut Host, expr: &str) -> String {
    let value = host.eval_source(expr, "read.js").expect("read back");
    value
        .to_string(host.context())
        .expect("to string")
        .to_std_string_escaped()
}

fn log(host: &mut Host) -> String {
    string(host, "log.join(',')")
}

fn run_to_idle(host: &mut Host) {
    let deadline = Instant::now() + Duration::from_secs(20);
    assert_eq!(host.run_event_loop(Some(deadline)), LoopOutcome::Idle);
}

fn messages(errors: &[HostError]) -> Vec<String> {
    errors
        .iter()
        .map(|e| match e {
            HostError::Uncaught { message, .. } => format!("uncaught {message}"),
            HostError::UnhandledRejection { message, .. } => format!("rejection {message}"),
        })
        .collect()
}

#[test]
fn timeout_runs_after_all_microtasks() {
    for virtual_time in [false, true] {
        let mut h = host(virtual_time);
        eval(
            &mut h,
            r#"
            var log = [];
            setTimeout(() => log.push("timeout"), 0);
            Promise.resolve().then(() => {
                log.push("p1");
                // p2 is queued by p1's reaction, after qm.
                Promise.resolve().then(() => log.push("p2"));
            });
            queueMicrotask(() => log.push("qm"));
            "#,
        );
        assert_eq!(log(&mut h), "", "eval must not run jobs");
        run_to_idle(&mut h);
        assert_eq!(log(&mut h), "p1,qm,p2,timeout");
        assert!(h.take_errors().is_empty());
    }
}

#[test]
fn microtasks_queued_by_a_task_run_before_the_next_task() {
    let mut h = host(true);
    eval(
        &mut h,
        r#"
        var log = [];
        setTimeout(() => { log.push("A"); Promise.resolve().then(() => log.push("A-micro")); }, 0);
        setTimeout(() => log.push("B"), 0);
        "#,
    );
    run_to_idle(&mut h);
    assert_eq!(log(&mut h), "A,A-micro,B");
}

#[test]
fn run_microtasks_is_a_checkpoint_only() {
    let mut h = host(true);
    eval(
        &mut h,
        r#"
        var log = [];
        setTimeout(() => log.push("timeout"), 0);
        queueMicrotask(() => { log.push("m1"); queueMicrotask(() => log.push("m2")); });
        "#,
    );
    h.run_microtasks();
    assert_eq!(log(&mut h), "m1,m2");
    assert!(h.has_pending_work());
    run_to_idle(&mut h);
    assert_eq!(log(&mut h), "m1,m2,timeout");
    assert!(!h.has_pending_work());
}

#[test]
fn throwing_jobs_are_reported_and_nothing_is_lost() {
    let mut h = host(true);
    eval(
        &mut h,
        r#"
        var log = [];
        queueMicrotask(() => { log.push("a"); throw new Error("microtask boom"); });
        queueMicrotask(() => log.push("b"));
        Promise.resolve().then(() => log.push("c"));
        setTimeout(() => { log.push("t1"); throw new RangeError("task boom"); }, 0);
        setTimeout(() => log.push("t2"), 0);
        "#,
    );
    run_to_idle(&mut h);
    assert_eq!(log(&mut h), "a,b,c,t1,t2");
    let errors = h.take_errors();
    assert_eq!(
        messages(&errors),
        [
            "uncaught Error: microtask boom",
            "uncaught RangeError: task boom"
        ]
    );
    match errors.first() {
        Some(HostError::Uncaught {
            stack: Some(stack), ..
        }) => {
            assert!(stack.contains("test.js"), "stack: {stack}")
        }
        other => panic!("expected an uncaught error with a stack, got {other:?}"),
    }
    assert!(h.take_errors().is_empty(), "take_errors drains");
}

#[test]
fn timers_order_by_due_time_then_insertion() {
    for virtual_time in [true, false] {
        let mut h = host(virtual_time);
        eval(
            &mut h,
            r#"
            var log = [];
            setTimeout(() => log.push("c30"), 30);
            setTimeout(() => log.push("a10"), 10);
            setTimeout(() => log.push("b10"), 10);
            setTimeout(() => log.push("z0"), 0);
            setTimeout(() => log.push("d10"), 10);
            setTimeout(() => log.push("neg"), -5);
            "#,
        );
        run_to_idle(&mut h);
        assert_eq!(log(&mut h), "z0,neg,a10,b10,d10,c30");
    }
}

#[test]
fn intervals_rearm_and_cleared_timers_are_dropped() {
    let mut h = host(true);
    eval(
        &mut h,
        r#"
        var log = [];
        let n = 0;
        const id = setInterval(() => { n++; log.push("i" + n); if (n === 3) clearInterval(id); }, 5);
        setTimeout(() => log.push("t12"), 12);
        const never = setTimeout(() => log.push("never"), 1);
        clearTimeout(never);
        const late = setTimeout(() => log.push("late"), 100000);
        setTimeout(() => clearTimeout(late), 20);
        var t0 = performance.now();
        "#,
    );
    run_to_idle(&mut h);
    assert_eq!(log(&mut h), "i1,i2,t12,i3");
    // 20 ms of timers, and a tick (1 ms) for each of the two scripts that read back.
    assert_eq!(
        string(&mut h, "String(Math.round(performance.now() - t0))"),
        "22",
        "the virtual clock must not have jumped to the cleared 100 s timer"
    );
}

#[test]
fn unhandled_rejection_is_reported_but_not_one_handled_in_the_same_checkpoint() {
    let mut h = host(true);
    eval(
        &mut h,
        r#"
        const unhandled = Promise.reject(new Error("nobody handles me"));
        const handledLater = Promise.reject(new Error("handled later"));
        queueMicrotask(() => handledLater.catch(() => {}));
        Promise.resolve().then(() => { throw new TypeError("from a reaction"); });
        "#,
    );
    h.run_microtasks();
    let errors = h.take_errors();
    assert_eq!(
        messages(&errors),
        [
            "rejection Error: nobody handles me",
            "rejection TypeError: from a reaction"
        ]
    );
    match errors.first() {
        Some(HostError::UnhandledRejection {
            stack: Some(stack), ..
        }) => {
            assert!(stack.contains("test.js"), "stack: {stack}")
        }
        other => panic!("expected a rejection with a stack, got {other:?}"),
    }
}

#[test]
fn rejection_stack_comes_from_error_like_reasons_only() {
    let mut h = host(true);
    eval(
        &mut h,
        r#"
        const fake = Object.create(Error.prototype, {
            stack: { value: "fake stack" },
            toString: { value: () => "fake error" },
        });
        Promise.reject(fake);
        Promise.reject({ stack: "not an error", toString() { return "plain"; } });
        Promise.reject(Symbol("sym"));
        Promise.reject(12n);
        Promise.reject([1, 2]);
        Promise.reject({ [Symbol.toStringTag]: "Tagged" });
        "#,
    );
    h.run_microtasks();
    let rejection = |message: &str, stack: Option<&str>| HostError::UnhandledRejection {
        message: message.into(),
        stack: stack.map(Into::into),
    };
    // Reasons are described from their slots and data properties: their own `toString` is
    // never called.
    assert_eq!(
        h.take_errors(),
        [
            rejection("Error", Some("fake stack")),
            rejection("[object Object]", None),
            rejection("Symbol(sym)", None),
            rejection("12", None),
            rejection("[object Array]", None),
            rejection("[object Tagged]", None),
        ]
    );
}

#[test]
fn reporting_a_reason_runs_no_user_code() {
    let mut h = host(true);
    eval(
        &mut h,
        r#"
        var calls = 0;
        const handler = new Proxy({}, {
            get() { calls++; return () => "trap"; },
            getOwnPropertyDescriptor() { calls++; return undefined; },
            getPrototypeOf() { calls++; return Error.prototype; },
            has() { calls++; return true; },
        });
        Promise.reject(new Proxy({}, handler));
        Promise.reject(new Proxy(new Error("target"), handler));
        const getter = new Error("ignored");
        Object.defineProperty(getter, "message", { get() { calls++; return "from getter"; } });
        Object.defineProperty(getter, "name", { get() { calls++; return "Named"; } });
        Promise.reject(getter);
        const prim = { [Symbol.toPrimitive]() { calls++; return "prim"; }, toString() { calls++; return "s"; } };
        Promise.reject(prim);
        Object.defineProperty(TypeError.prototype, "message", { get() { calls++; return "proto getter"; } });
        Promise.reject(Object.create(TypeError.prototype));
        queueMicrotask(() => { throw getter; });
        "#,
    );
    h.run_microtasks();
    let errors = h.take_errors();
    assert_eq!(string(&mut h, "String(calls)"), "0", "{errors:?}");
    let messages: Vec<&str> = errors
        .iter()
        .map(|e| match e {
            HostError::Uncaught { message, .. } | HostError::UnhandledRejection { message, .. } => {
                message.as_str()
            }
        })
        .collect();
    assert_eq!(
        messages,
        [
            // The thrown error (a microtask runs before rejections are reported); its
            // accessor `name` and `message` are skipped for Error.prototype's data.
            "Error",
            "[object Object]",
            "[object Object]",
            "Error",
            "[object Object]",
            "TypeError",
        ]
    );
}

#[test]
fn error_subclass_is_reported_with_its_name_and_message() {
    let mut h = host(true);
    eval(
        &mut h,
        r#"
        class MyError extends Error {}
        class NamedError extends Error { constructor(m) { super(m); this.name = "NamedError"; } }
        Promise.reject(new MyError("sub message"));
        Promise.reject(new NamedError("named message"));
        Promise.reject(new DOMException("dom message", "AbortError"));
        "#,
    );
    h.run_microtasks();
    let errors = h.take_errors();
    assert_eq!(
        messages(&errors),
        [
            "rejection Error: sub message",
            "rejection NamedError: named message",
            "rejection AbortError: dom message"
        ]
    );
    assert!(
        matches!(&errors[0], HostError::UnhandledRejection { stack: Some(s), .. } if s.contains("test.js")),
        "{errors:?}"
    );
}

#[test]
fn a_reason_whose_to_string_rejects_again_is_reported_once() {
    let mut h = host(true);
    eval(
        &mut h,
        r#"
        var calls = 0;
        const evil = { toString() { calls++; Promise.reject(evil); return "evil"; } };
        Promise.reject(evil);
        "#,
    );
    let deadline = Instant::now() + Duration::from_secs(20);
    assert_eq!(h.run_event_loop(Some(deadline)), LoopOutcome::Idle);
    assert_eq!(
        h.take_errors(),
        [HostError::UnhandledRejection {
            message: "[object Object]".into(),
            stack: None
        }]
    );
    assert_eq!(string(&mut h, "String(calls)"), "0");
}

#[test]
fn rejection_handled_only_in_a_later_task_is_reported_once() {
    let mut h = host(true);
    eval(
        &mut h,
        r#"
        var log = [];
        const p = Promise.reject(42);
        setTimeout(() => p.catch((v) => log.push("caught " + v)), 0);
        "#,
    );
    run_to_idle(&mut h);
    assert_eq!(log(&mut h), "caught 42");
    let errors = h.take_errors();
    assert_eq!(
        errors,
        [HostError::UnhandledRejection {
            message: "42".into(),
            stack: None
        }]
    );
}

#[test]
fn virtual_time_skips_waiting() {
    let mut h = host(true);
    let start = Instant::now();
    eval(
        &mut h,
        r#"
        var log = [];
        const t0 = performance.now(), d0 = Date.now();
        setTimeout(() => {
            log.push("fired", performance.now() - t0 >= 10000, Date.now() - d0 >= 10000);
        }, 10000);
        "#,
    );
    run_to_idle(&mut h);
    assert_eq!(log(&mut h), "fired,true,true");
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "a 10 s timer must not be waited for in virtual time"
    );
}

#[test]
fn virtual_time_moves_on_a_tick_per_script() {
    // Time passes between the realm's creation (its time origin) and its first script, and
    // between scripts, as on a real clock; it stands still inside a script.
    let mut h = host(true);
    eval(
        &mut h,
        "var first = performance.now(); var same = performance.now() === first;",
    );
    assert_eq!(string(&mut h, "String(first > 0 && same)"), "true");
    assert_eq!(string(&mut h, "String(performance.now() - first)"), "2");
    // Timers keep their order across scripts: each is due at a point of the one clock.
    eval(
        &mut h,
        "var log = []; setTimeout(() => log.push('a2'), 2); setTimeout(() => log.push('b3'), 3);",
    );
    eval(&mut h, "setTimeout(() => log.push('c1'), 1);");
    run_to_idle(&mut h);
    assert_eq!(log(&mut h), "a2,c1,b3");
}

#[test]
fn deadline_stops_endless_work() {
    let mut h = host(false);
    eval(&mut h, "setInterval(() => {}, 1);");
    let outcome = h.run_event_loop(Some(Instant::now() + Duration::from_millis(30)));
    assert_eq!(outcome, LoopOutcome::DeadlineReached);
    assert!(h.has_pending_work());

    let mut h = host(true);
    eval(
        &mut h,
        "var n = 0; (function f() { n++; queueMicrotask(f); })();",
    );
    let outcome = h.run_event_loop(Some(Instant::now() + Duration::from_millis(30)));
    assert_eq!(outcome, LoopOutcome::DeadlineReached);
    assert_ne!(string(&mut h, "String(n)"), "1");
}

#[test]
fn a_budget_stops_endless_work_and_the_next_run_goes_on() {
    // Endless timers (virtual time): the budget is asked before each task.
    let mut h = host(true);
    eval(&mut h, "var ticks = 0; setInterval(() => { ticks++; }, 1);");
    let mut asked = 0;
    let outcome = h.run_event_loop_with_budget(None, &mut || {
        asked += 1;
        asked > 50
    });
    assert_eq!(outcome, LoopOutcome::DeadlineReached);
    assert!(h.has_pending_work());
    let ticks: u32 = string(&mut h, "String(ticks)").parse().unwrap();
    // Asked before each task (and again after virtual time jumps to the next timer).
    assert!((10..=50).contains(&ticks), "{ticks}");
    // The interval goes on in the next run.
    let mut asked = 0;
    let outcome = h.run_event_loop_with_budget(None, &mut || {
        asked += 1;
        asked > 10
    });
    assert_eq!(outcome, LoopOutcome::DeadlineReached);
    let more: u32 = string(&mut h, "String(ticks)").parse().unwrap();
    assert!(more > ticks, "{more} > {ticks}");

    // An endless microtask chain: asked every 1024 microtasks.
    let mut h = host(true);
    eval(
        &mut h,
        "var n = 0; (function f() { n++; queueMicrotask(f); })();",
    );
    let mut asked = 0;
    let outcome = h.run_event_loop_with_budget(None, &mut || {
        asked += 1;
        asked >= 3
    });
    assert_eq!(outcome, LoopOutcome::DeadlineReached);
    assert_eq!(string(&mut h, "String(n)"), String::from("3073"));

    // Work that ends is not stopped by a budget never spent.
    let mut h = host(true);
    eval(
        &mut h,
        "var done = false; setTimeout(() => { done = true; }, 1000);",
    );
    let outcome = h.run_event_loop_with_budget(None, &mut || false);
    assert_eq!(outcome, LoopOutcome::Idle);
    assert_eq!(string(&mut h, "String(done)"), "true");
}

#[test]
fn context_run_jobs_uses_the_host_loop() {
    let mut h = host(true);
    eval(
        &mut h,
        r#"
        var log = [];
        setTimeout(() => log.push("timeout"), 0);
        queueMicrotask(() => { log.push("qm"); throw new Error("x"); });
        Promise.resolve().then(() => log.push("p"));
        "#,
    );
    h.context().run_jobs().expect("run_jobs");
    assert_eq!(log(&mut h), "qm,p,timeout");
    assert_eq!(messages(&h.take_errors()), ["uncaught Error: x"]);
}

#[test]
fn report_exception_records_script_errors() {
    let mut h = host(true);
    let err = h.eval_source("null.x", "bad.js").expect_err("must throw");
    assert!(h.take_errors().is_empty(), "eval_source does not record");
    h.report_exception(err);
    let errors = h.take_errors();
    assert_eq!(errors.len(), 1);
    assert!(
        matches!(&errors[..], [HostError::Uncaught { message, .. }] if message.starts_with("TypeError")),
        "{errors:?}"
    );
}

#[test]
fn gc_exists_only_when_asked() {
    let mut h = host(true);
    assert_eq!(string(&mut h, "typeof gc"), "undefined");

    let mut h = Host::new(HostOptions {
        expose_gc: true,
        virtual_time: true,
        print_errors: false,
        ..HostOptions::default()
    })
    .expect("host");
    assert_eq!(string(&mut h, "typeof gc"), "function");
    eval(
        &mut h,
        r#"
        var log = [];
        var w = (() => new WeakRef({ big: new Array(100).fill(1) }))();
        // WeakRef targets are kept until the end of the current job's checkpoint.
        setTimeout(() => { gc(); log.push(w.deref() === undefined ? "collected" : "alive"); }, 0);
        "#,
    );
    run_to_idle(&mut h);
    assert_eq!(log(&mut h), "collected");
}

#[test]
fn host_globals() {
    let mut h = host(false);
    h.set_script_args(&["a".into(), "b c".into()])
        .expect("args");
    assert_eq!(
        string(
            &mut h,
            r#"[self === globalThis, typeof performance.now(), performance.now() >= 0,
                typeof performance.timeOrigin, JSON.stringify(scriptArgs),
                typeof console.log, typeof setTimeout, typeof clearInterval, typeof queueMicrotask,
                typeof TextEncoder, typeof TextDecoder, typeof structuredClone, atob(btoa("hi")),
                new TextDecoder("latin1", {fatal: true}).fatal, new URL("../b?x#y", "http://h/a/c").href,
                typeof ErrorEvent].join()"#
        ),
        r#"true,number,true,number,["a","b c"],function,function,function,function,function,function,function,hi,true,http://h/b?x#y,function"#
    );
}

#[test]
fn reported_exceptions_fire_the_global_error_event() {
    let mut h = host(false);
    // A listener sees the ErrorEvent; canceling it handles the error (not recorded).
    h.eval_source(
        r#"globalThis.seen = [];
           addEventListener("error", (e) => {
             seen.push(e.constructor.name + ":" + e.message + ":" + (e.error && e.error.message) + ":" + e.cancelable);
             if (e.error && e.error.message === "handled") e.preventDefault();
             if (e.error && e.error.message === "listener") throw new Error("from listener");
           });
           queueMicrotask(() => { throw new Error("handled"); });
           setTimeout(() => { throw new Error("unhandled"); }, 0);
           setTimeout(() => { throw new Error("listener"); }, 1);"#,
        "main.js",
    )
    .expect("script");
    h.run_event_loop(None);
    assert_eq!(
        string(&mut h, "seen.join('|')"),
        "ErrorEvent:Error: handled:handled:true|ErrorEvent:Error: unhandled:unhandled:true|\
         ErrorEvent:Error: listener:listener:true"
    );
    let errors: Vec<String> = h
        .take_errors()
        .iter()
        .map(|e| match e {
            HostError::Uncaught { message, .. } => message.clone(),
            other => format!("{other:?}"),
        })
        .collect();
    // The unhandled one, then the listener's own exception (no second event for it), then
    // the exception the listener did not cancel.
    assert_eq!(
        errors,
        vec![
            "Error: unhandled".to_owned(),
            "Error: from listener".to_owned(),
            "Error: listener".to_owned()
        ]
    );
}

#[test]
fn large_stack_raises_the_recursion_limit() {
    let depth = run_with_large_stack(|| {
        let mut h = host(true);
        eval(
            &mut h,
            "function f(n) { return n === 0 ? 0 : 1 + f(n - 1); } var r = f(5000);",
        );
        // Native re-entry up to the limit ends in an engine error, not a stack overflow.
        let deep = h.eval_source("function g() { [0].forEach(g); } g();", "deep.js");
        assert!(deep.is_err());
        string(&mut h, "String(r)")
    })
    .expect("no panic");
    assert_eq!(depth, "5000");

    // On an ordinary thread Boa's default limit stays.
    let mut h = host(true);
    assert!(h
        .eval_source(
            "function f(n) { return n === 0 ? 0 : 1 + f(n - 1); } f(5000);",
            "x.js"
        )
        .is_err());
}

#[test]
fn run_with_large_stack_reports_panics() {
    let result = run_with_large_stack(|| -> i32 { panic!("deliberate") });
    assert_eq!(result, Err("deliberate".to_owned()));
}

#[test]
fn finalization_registry_callbacks_run_and_do_not_keep_the_loop_alive() {
    let mut h = Host::new(HostOptions {
        expose_gc: true,
        virtual_time: true,
        print_errors: false,
        ..HostOptions::default()
    })
    .expect("host");
    eval(
        &mut h,
        r#"
        var log = [];
        var registry = new FinalizationRegistry((held) => log.push("cleaned " + held));
        (() => { registry.register({ some: "object" }, "x"); })();
        setTimeout(() => gc(), 0);
        "#,
    );
    run_to_idle(&mut h);
    assert_eq!(log(&mut h), "cleaned x");
    assert!(h.take_errors().is_empty());
}

/// A future that is pending once (waking itself), then ready.
struct YieldOnce(bool);

impl std::future::Future for YieldOnce {
    type Output = ();
    fn poll(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<()> {
        if self.0 {
            std::task::Poll::Ready(())
        } else {
            self.0 = true;
            cx.waker().wake_by_ref();
            std::task::Poll::Pending
        }
    }
}

#[test]
fn native_async_jobs_run_and_their_errors_are_reported() {
    use boa_streams_host::boa_engine::job::NativeAsyncJob;
    use boa_streams_host::boa_engine::{JsNativeError, JsValue, Source};

    let mut h = host(true);
    eval(&mut h, "var log = [];");
    h.context().enqueue_job(
        NativeAsyncJob::new(async |context| {
            YieldOnce(false).await;
            let mut context = context.borrow_mut();
            context.eval(Source::from_bytes(
                "log.push('async done'); Promise.resolve().then(() => log.push('its microtask'));",
            ))?;
            Ok(JsValue::undefined())
        })
        .into(),
    );
    h.context().enqueue_job(
        NativeAsyncJob::new(async |_| {
            YieldOnce(false).await;
            Err(JsNativeError::typ().with_message("async boom").into())
        })
        .into(),
    );
    assert!(h.has_pending_work(), "an async job is pending work");
    run_to_idle(&mut h);
    assert_eq!(log(&mut h), "async done,its microtask");
    assert_eq!(
        messages(&h.take_errors()),
        ["uncaught TypeError: async boom"]
    );
}

#[test]
fn listener_exception_is_reported_and_dispatch_goes_on() {
    let mut host = Host::new(HostOptions {
        print_errors: false,
        ..HostOptions::default()
    })
    .unwrap();
    host.eval_source(
        r#"
        globalThis.log = [];
        const t = new EventTarget();
        t.addEventListener("x", () => { throw new TypeError("from listener"); });
        t.addEventListener("x", () => log.push("second"));
        t.dispatchEvent(new Event("x"));
        "#,
        "listener.js",
    )
    .unwrap();
    host.run_event_loop(None);
    let errors = host.take_errors();
    assert_eq!(errors.len(), 1, "{errors:?}");
    match &errors[0] {
        HostError::Uncaught { message, .. } => {
            assert!(message.contains("from listener"), "{message}")
        }
        other => panic!("unexpected {other:?}"),
    }
    let log = host.eval_source("log.join()", "read.js").unwrap();
    assert_eq!(
        log.as_string()
            .map(|s| s.to_std_string_escaped())
            .as_deref(),
        Some("second")
    );
}

#[test]
fn error_event_carries_the_throw_location() {
    let mut h = host(true);
    h.eval_source(
        "globalThis.seen = [];\n\
         addEventListener('error', (e) => { seen.push([e.filename, e.lineno, e.colno].join(':')); e.preventDefault(); });\n\
         setTimeout(function thrower() {\n  throw new Error('x');\n}, 0);\n\
         queueMicrotask(() => { throw 7; });",
        "loc.js",
    )
    .expect("script");
    run_to_idle(&mut h);
    // The microtask's primitive has no stack: "" and 0; the Error its innermost frame (Boa
    // places it at the `new Error(...)` expression).
    assert_eq!(string(&mut h, "seen.join('|')"), ":0:0|loc.js:4:9");
    assert!(h.take_errors().is_empty());
}

#[test]
fn unhandledrejection_fires_before_the_report_and_canceling_suppresses_it() {
    let mut h = host(true);
    eval(
        &mut h,
        r#"
        var log = [];
        addEventListener("unhandledrejection", (e) => {
            log.push(e.constructor.name + ":" + e.type + ":" + e.reason + ":" + e.cancelable + ":" +
                     (e.promise instanceof Promise) + ":" + (e.target === globalThis));
            if (e.reason === "quiet") e.preventDefault();
            queueMicrotask(() => log.push("listener microtask " + e.reason));
        });
        addEventListener("rejectionhandled", (e) => log.push("handled " + e.reason + ":" + e.cancelable));
        Promise.reject("loud");
        Promise.reject("quiet");
        const late = Promise.reject("caught in same checkpoint");
        queueMicrotask(() => late.catch(() => {}));
        "#,
    );
    h.run_microtasks();
    assert_eq!(
        log(&mut h),
        "PromiseRejectionEvent:unhandledrejection:loud:true:true:true,\
         PromiseRejectionEvent:unhandledrejection:quiet:true:true:true,\
         listener microtask loud,listener microtask quiet"
    );
    // Only the uncanceled one is reported.
    assert_eq!(messages(&h.take_errors()), ["rejection loud"]);
}

#[test]
fn rejectionhandled_fires_in_a_task_after_a_late_handler() {
    let mut h = host(true);
    eval(
        &mut h,
        r#"
        var log = [];
        addEventListener("unhandledrejection", (e) => log.push("unhandled " + e.reason));
        addEventListener("rejectionhandled", (e) => {
            log.push("rejectionhandled " + e.reason + " " + e.cancelable + " " + (e.promise === p));
        });
        var p = Promise.reject(1);
        setTimeout(() => {
            log.push("timer");
            p.catch(() => log.push("catch reaction"));
            queueMicrotask(() => log.push("timer microtask"));
            // Handling it again fires nothing more.
            p.catch(() => {});
        }, 0);
        setTimeout(() => log.push("second timer"), 0);
        "#,
    );
    run_to_idle(&mut h);
    // rejectionhandled is a task queued by the handler: after the reactions and the other
    // microtasks of the timer's checkpoint, after the timer already due.
    assert_eq!(
        log(&mut h),
        "unhandled 1,timer,catch reaction,timer microtask,second timer,rejectionhandled 1 false true"
    );
    assert_eq!(messages(&h.take_errors()), ["rejection 1"]);
}

#[test]
fn a_promise_handled_by_an_unhandledrejection_listener_is_not_outstanding() {
    let mut h = host(true);
    eval(
        &mut h,
        r#"
        var log = [];
        var second;
        addEventListener("unhandledrejection", (e) => {
            log.push("unhandled " + e.reason);
            // Handling the next promise of the same batch skips its event.
            if (e.reason === "a") second.catch(() => log.push("b caught"));
            e.promise.catch(() => {});
        });
        addEventListener("rejectionhandled", (e) => log.push("rejectionhandled " + e.reason));
        Promise.reject("a");
        second = Promise.reject("b");
        "#,
    );
    run_to_idle(&mut h);
    assert_eq!(log(&mut h), "unhandled a,b caught");
    assert_eq!(messages(&h.take_errors()), ["rejection a"]);
}

#[test]
fn promise_rejection_event_interface() {
    let mut h = host(true);
    assert_eq!(
        string(
            &mut h,
            r#"(() => {
              const out = [];
              const p = Promise.resolve();
              const e = new PromiseRejectionEvent("x", { promise: p, reason: 5, cancelable: true });
              out.push(e.promise === p, e.reason, e.cancelable, e instanceof Event,
                       Object.prototype.toString.call(e));
              for (const bad of [() => new PromiseRejectionEvent("x"), () => new PromiseRejectionEvent("x", {}),
                                 () => new PromiseRejectionEvent("x", { promise: 1 }),
                                 () => PromiseRejectionEvent("x", { promise: p })])
                try { bad(); out.push("no"); } catch (err) { out.push(err.name); }
              const d = Object.getOwnPropertyDescriptor(PromiseRejectionEvent.prototype, "reason");
              out.push(d.enumerable, d.configurable, d.get.name);
              try { d.get.call(new Event("x")); } catch (err) { out.push(err.name); }
              out.push(new PromiseRejectionEvent("y", { promise: p }).reason);
              return out.join();
            })()"#
        ),
        "true,5,true,true,[object PromiseRejectionEvent],TypeError,TypeError,TypeError,TypeError,\
         true,true,get reason,TypeError,"
    );
}

#[test]
fn global_event_handler_attributes_have_the_idl_shape() {
    let mut h = host(true);
    assert_eq!(
        string(
            &mut h,
            r#"(() => {
              const out = [];
              for (const name of ["onerror", "onunhandledrejection", "onrejectionhandled"]) {
                const d = Object.getOwnPropertyDescriptor(globalThis, name);
                out.push([name, typeof d.get, typeof d.set, d.enumerable, d.configurable,
                          d.get.name, d.set.name, d.get.length, d.set.length,
                          String(globalThis[name]), String(d.get.call(undefined))].join(":"));
                // A non-object is null; any object is kept (callable or not).
                const f = () => {};
                globalThis[name] = f;
                out.push(globalThis[name] === f);
                globalThis[name] = 1;
                out.push(String(globalThis[name]));
                const o = {};
                globalThis[name] = o;
                out.push(globalThis[name] === o);
                globalThis[name] = "x";
                out.push(String(globalThis[name]));
                for (const bad of [() => d.get.call({}), () => d.set.call({}, f), () => d.set.call(globalThis)])
                  try { bad(); out.push("no"); } catch (e) { out.push(e.constructor.name); }
              }
              return out.join(",");
            })()"#
        ),
        "onerror:function:function:true:true:get onerror:set onerror:0:1:null:null,\
         true,null,true,null,TypeError,TypeError,TypeError,\
         onunhandledrejection:function:function:true:true:get onunhandledrejection:\
         set onunhandledrejection:0:1:null:null,true,null,true,null,TypeError,TypeError,TypeError,\
         onrejectionhandled:function:function:true:true:get onrejectionhandled:\
         set onrejectionhandled:0:1:null:null,true,null,true,null,TypeError,TypeError,TypeError"
    );
}

#[test]
fn onerror_gets_five_arguments_and_returning_true_cancels() {
    let mut h = host(true);
    eval(
        &mut h,
        "var log = [];\n\
         onerror = function (message, filename, lineno, colno, error) {\n\
           log.push([arguments.length, message, filename, lineno, colno, error && error.message,\n\
                     this === globalThis].join(':'));\n\
           return error && error.message === 'handled';\n\
         };\n\
         setTimeout(() => { throw new Error('handled'); }, 0);\n\
         setTimeout(() => { throw new Error('reported'); }, 1);\n\
         // Only true cancels: false and a truthy non-true value do not.\n\
         setTimeout(() => { onerror = () => 1; throw 'one'; }, 2);\n\
         setTimeout(() => { onerror = () => false; throw 'false'; }, 3);\n\
         // A non-callable object: nothing is called, nothing canceled.\n\
         setTimeout(() => { onerror = {}; throw 'object'; }, 4);",
    );
    run_to_idle(&mut h);
    assert_eq!(
        log(&mut h),
        "5:Error: handled:test.js:7:26:handled:true,5:Error: reported:test.js:8:26:reported:true"
    );
    assert_eq!(
        messages(&h.take_errors()),
        [
            "uncaught Error: reported",
            "uncaught one",
            "uncaught false",
            "uncaught object"
        ]
    );
}

#[test]
fn onerror_on_other_events_gets_the_event_and_false_cancels() {
    let mut h = host(true);
    assert_eq!(
        string(
            &mut h,
            r#"(() => {
              const out = [];
              onerror = function (...args) {
                out.push(args.length + ":" + (args[0] instanceof Event) + ":" + args[0].type);
                return false;
              };
              // A plain Event named error: no special handling, false cancels.
              out.push(dispatchEvent(new Event("error", { cancelable: true })));
              // A script-made ErrorEvent named error at the global: five arguments, and
              // false does not cancel.
              onerror = function (message, filename, lineno, colno, error) {
                out.push([arguments.length, message, filename, lineno, colno, error].join(":"));
                return false;
              };
              out.push(dispatchEvent(new ErrorEvent("error", { cancelable: true, message: "m",
                filename: "f", lineno: 2, colno: 3, error: "e" })));
              // An ErrorEvent of another type gets the event.
              onerror = null;
              onunhandledrejection = (e) => { out.push(e instanceof ErrorEvent); return false; };
              out.push(dispatchEvent(new ErrorEvent("unhandledrejection", { cancelable: true })));
              onunhandledrejection = null;
              return out.join(",");
            })()"#
        ),
        "1:true:error,false,5:m:f:2:3:e,true,true,false"
    );
}

#[test]
fn an_event_handler_keeps_its_listener_position_until_set_to_null() {
    let mut h = host(true);
    assert_eq!(
        string(
            &mut h,
            r#"(() => {
              const out = [];
              addEventListener("error", () => out.push("A"));
              onerror = () => { out.push("handler 1"); };
              addEventListener("error", () => out.push("B"));
              // A new value keeps the position of the first activation.
              onerror = () => { out.push("handler 2"); };
              dispatchEvent(new Event("error"));
              // null removes the listener; a later value is added at the end.
              onerror = null;
              dispatchEvent(new Event("error"));
              onerror = () => { out.push("handler 3"); };
              dispatchEvent(new Event("error"));
              onerror = null;
              return out.join(",");
            })()"#
        ),
        "A,handler 2,B,A,B,A,B,handler 3"
    );
}

#[test]
fn onunhandledrejection_returning_false_cancels_and_onrejectionhandled_runs() {
    let mut h = host(true);
    eval(
        &mut h,
        r#"
        var log = [];
        var p;
        onunhandledrejection = function (e) {
            log.push("unhandled " + e.reason + " " + (this === globalThis));
            if (e.reason === "quiet") return false;
            if (e.reason === "prevented") e.preventDefault();
            if (e.reason === "late") setTimeout(() => p.catch(() => {}), 0);
            // true does not cancel.
            return true;
        };
        onrejectionhandled = (e) => log.push("handled " + e.reason + " " + (e.promise === p));
        Promise.reject("quiet");
        Promise.reject("prevented");
        Promise.reject("loud");
        p = Promise.reject("late");
        "#,
    );
    run_to_idle(&mut h);
    assert_eq!(
        log(&mut h),
        "unhandled quiet true,unhandled prevented true,unhandled loud true,\
         unhandled late true,handled late true"
    );
    assert_eq!(
        messages(&h.take_errors()),
        ["rejection loud", "rejection late"]
    );
}

#[test]
fn an_exception_in_onerror_is_reported_without_another_event() {
    let mut h = host(true);
    eval(
        &mut h,
        r#"
        var count = 0;
        onerror = () => { count++; throw new Error("from handler"); };
        setTimeout(() => { throw new Error("first"); }, 0);
        "#,
    );
    run_to_idle(&mut h);
    assert_eq!(string(&mut h, "count"), "1");
    assert_eq!(
        messages(&h.take_errors()),
        ["uncaught Error: from handler", "uncaught Error: first"]
    );
}

#[test]
fn report_error_fires_the_error_event_first_and_records_only_if_not_canceled() {
    let mut h = host(true);
    eval(
        &mut h,
        r#"
        globalThis.log = [];
        addEventListener("error", (e) => {
          log.push("event " + e.message);
          if (e.error === "handled") e.preventDefault();
        });
        reportError("handled");
        log.push("between");
        reportError(new TypeError("reported"));
        log.push("after");
        "#,
    );
    assert_eq!(
        log(&mut h),
        "event handled,between,event TypeError: reported,after"
    );
    let errors = h.take_errors();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        matches!(&errors[0], HostError::Uncaught { message, .. } if message.contains("reported")),
        "{errors:?}"
    );
}

#[test]
fn fetch_resolves_relative_urls_against_the_main_script() {
    let dir = std::env::temp_dir().join(format!("boa-host-fetch-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("data")).unwrap();
    std::fs::write(dir.join("data/x.json"), r#"{"from":"disk"}"#).unwrap();
    std::fs::write(
        dir.join("main.js"),
        "globalThis.log = [];
         fetch('./data/x.json').then(r => r.json()).then(j => log.push(j.from),
           e => log.push('error ' + e));
         fetch('missing.json').catch(e => log.push(e.name));",
    )
    .unwrap();
    let mut h = host(false);
    h.eval_file(&dir.join("main.js")).unwrap();
    let outcome = h.run_event_loop(Some(Instant::now() + Duration::from_secs(10)));
    assert_eq!(outcome, LoopOutcome::Idle);
    let mut got: Vec<String> = log(&mut h).split(',').map(str::to_owned).collect();
    got.sort();
    assert_eq!(got, ["TypeError", "disk"]);
    std::fs::remove_dir_all(&dir).unwrap();
}
