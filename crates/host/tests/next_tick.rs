//! `process.nextTick` ordering as Node's: a next-tick queue drained before the promise jobs
//! at each checkpoint, and again after them while ticks were queued. Each expected output
//! is what Node 20 prints for the same file (run as `.cjs` and as `.mjs`); an ES module's
//! body runs in a promise job, so its promise jobs come before its ticks.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use boa_streams_host::{run_with_large_stack, Host, HostError, HostOptions, LoopOutcome};

/// The cases, chosen by `process.argv[2]`; the log is printed by a timer.
const CASES: &str = r#"
const log = [];
const P = (name, fn) => Promise.resolve().then(() => { log.push(name); fn && fn(); });
const T = (name, fn) => process.nextTick(() => { log.push(name); fn && fn(); });
const cases = {
  basic() { P('p1'); T('t1'); log.push('sync'); },
  tickInThen() { P('p1', () => { T('t2'); P('p2'); }); P('p3'); },
  thenInTick() { T('t1', () => { P('p1'); T('t2'); }); T('t3'); },
  nested() { T('a', () => T('b', () => T('c', () => P('p', () => T('d'))))); P('q'); },
  queueMicrotask() {
    queueMicrotask(() => log.push('q1')); T('t1'); P('p1');
    queueMicrotask(() => { log.push('q2'); T('t2'); });
  },
  args() { process.nextTick(function (a, b) { log.push('args:' + a + ',' + b + ':' + (this === undefined)); }, 1, 2); },
  timers() {
    setTimeout(() => { P('p'); T('t'); log.push('timer1'); }, 0);
    setTimeout(() => { log.push('timer2'); }, 0);
  },
};
cases[process.argv[2]]();
setTimeout(() => console.log(log.join(' ')), 5);
"#;

fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "boa-streams-next-tick-{}-{test}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Run `file` in `dir` with `args`; its stdout (the exit code must be 0).
fn run(dir: &Path, file: &str, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_boa-streams"))
        .arg(file)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run boa-streams");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{file} {args:?}: {stderr}");
    String::from_utf8_lossy(&out.stdout).trim_end().to_owned()
}

/// Each case as CommonJS and as an ES module, with Node 20's output for each.
#[test]
fn orderings_match_node_in_commonjs_and_es_modules() {
    let dir = temp_dir("cases");
    std::fs::write(dir.join("cases.cjs"), CASES).expect("write");
    std::fs::write(dir.join("cases.mjs"), CASES).expect("write");
    // (case, CommonJS, ES module): Node 20.
    let expected = [
        ("basic", "sync t1 p1", "sync p1 t1"),
        ("tickInThen", "p1 p3 p2 t2", "p1 p3 p2 t2"),
        ("thenInTick", "t1 t3 t2 p1", "t1 t3 t2 p1"),
        ("nested", "a b c q p d", "q a b c p d"),
        ("queueMicrotask", "t1 q1 p1 q2 t2", "q1 p1 q2 t1 t2"),
        ("args", "args:1,2:false", "args:1,2:true"),
        ("timers", "timer1 t p timer2", "timer1 t p timer2"),
    ];
    let mut failures = Vec::new();
    for (case, cjs, esm) in expected {
        let got_cjs = run(&dir, "cases.cjs", &[case]);
        let got_esm = run(&dir, "cases.mjs", &[case]);
        if got_cjs != cjs || got_esm != esm {
            failures.push(format!(
                "{case}: CommonJS [{got_cjs}] (Node [{cjs}]), ES module [{got_esm}] (Node [{esm}])"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn after_top_level_await_promise_jobs_come_first() {
    let dir = temp_dir("tla");
    std::fs::write(
        dir.join("main.mjs"),
        "const log = [];\n\
         await null;\n\
         Promise.resolve().then(() => log.push('p1'));\n\
         process.nextTick(() => log.push('t1'));\n\
         log.push('sync');\n\
         setTimeout(() => console.log(log.join(' ')), 5);\n",
    )
    .expect("write");
    // Node 20: "sync p1 t1".
    assert_eq!(run(&dir, "main.mjs", &[]), "sync p1 t1");
}

fn host() -> Host {
    Host::new(HostOptions {
        virtual_time: true,
        print_errors: false,
        ..HostOptions::default()
    })
    .expect("host")
}

fn string(host: &mut Host, expr: &str) -> String {
    let value = host.eval_source(expr, "read.js").expect("read back");
    value
        .to_string(host.context())
        .expect("to string")
        .to_std_string_escaped()
}

/// `Host::run_microtasks` (an embedder's checkpoint) runs the ticks too, ticks first.
#[test]
fn an_embedders_checkpoint_runs_ticks_first() {
    run_with_large_stack(|| {
        let mut h = host();
        h.eval_source(
            "globalThis.log = [];\n\
             setTimeout(() => log.push('timeout'), 0);\n\
             Promise.resolve().then(() => log.push('p'));\n\
             process.nextTick(() => { log.push('t'); process.nextTick(() => log.push('t2')); });",
            "main.js",
        )
        .expect("eval");
        assert!(h.has_pending_work());
        h.run_microtasks();
        assert_eq!(string(&mut h, "log.join()"), "t,t2,p");
        let deadline = Instant::now() + Duration::from_secs(20);
        assert_eq!(h.run_event_loop(Some(deadline)), LoopOutcome::Idle);
        assert_eq!(string(&mut h, "log.join()"), "t,t2,p,timeout");
        assert!(!h.has_pending_work());
    })
    .expect("thread");
}

/// A tick that throws is reported; the queue goes on (Node would end the process).
#[test]
fn a_throwing_tick_is_reported_and_the_rest_run() {
    run_with_large_stack(|| {
        let mut h = host();
        h.eval_source(
            "globalThis.log = [];\n\
             process.nextTick(() => { throw new RangeError('tick boom'); });\n\
             process.nextTick(() => log.push('after'));\n\
             Promise.resolve().then(() => log.push('p'));",
            "main.js",
        )
        .expect("eval");
        let deadline = Instant::now() + Duration::from_secs(20);
        assert_eq!(h.run_event_loop(Some(deadline)), LoopOutcome::Idle);
        assert_eq!(string(&mut h, "log.join()"), "after,p");
        let errors = h.take_errors();
        assert!(
            matches!(errors.as_slice(), [HostError::Uncaught { message, .. }] if message == "RangeError: tick boom"),
            "{errors:?}"
        );
    })
    .expect("thread");
}

/// `process.exit()` in a tick ends the run: nothing queued after it runs.
#[test]
fn process_exit_in_a_tick_drops_the_rest() {
    let dir = temp_dir("exit");
    std::fs::write(
        dir.join("main.cjs"),
        "process.nextTick(() => { console.log('t1'); process.exit(3); });\n\
         process.nextTick(() => console.log('t2'));\n\
         Promise.resolve().then(() => console.log('p'));\n",
    )
    .expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_boa-streams"))
        .arg("main.cjs")
        .current_dir(&dir)
        .output()
        .expect("run boa-streams");
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "t1\n");
}
