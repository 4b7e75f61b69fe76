#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing
)]
//! Helpers shared by every unit test of the crate (the one place they are defined):
//!
//! - [`context_with`]: a `Context` with a crate registered plus a global `gc()` that forces a
//!   collection (each crate's `test_support::context` passes its own `register`).
//! - [`eval`], [`string`]: evaluate a script (panicking with the script's exception), and
//!   convert its result with `ToString`; [`set_global`] puts a Rust-made value on the global.
//! - [`run_jobs`], [`run_jobs_past_errors`]: run the microtask queue until it is empty.
//! - [`run_log_in`]: a fresh context, a `globalThis.log = []`, a script, the jobs, and the result
//!   of one expression.
//! - [`fast_paths_scope`], [`with_fast_paths`], [`both_modes`]: run code with the fast paths
//!   on or off (restored afterwards, even on a panic), and run it both ways asserting the
//!   results agree.
//! - [`check`]: assert that an expression is `true`.
//! - [`joined_out`], [`run_out_in`], [`run_async_out`]: the `globalThis.out` array idiom (push
//!   results, join them).
//! - [`Log`], [`new_log`], [`display`]: a log Rust test doubles (sources, sinks) write to, and
//!   a value's `ToString` for it.
//! - [`gc_now`], [`DropFlag`], [`array_buffer_pointer`]: collection, drop and zero-copy
//!   checks.
//!
//! The test layout (one rule): the unit tests of module `m` are its child module `tests`,
//! declared in `m` as `#[cfg(test)] mod tests;`, in the file `m/tests.rs` (for `m.rs` and
//! `m/mod.rs` alike), or `m/tests/mod.rs` plus topic files when they are many. No inline test
//! modules, no `*_tests.rs` siblings. Crate-wide tests (every interface's shape, the
//! hostile-input injection table, engine-bug regressions) are lib.rs's `tests` module
//! (`src/tests/`).

use std::cell::{Cell, RefCell};
use std::fmt::Debug;
use std::rc::Rc;

use boa_engine::object::builtins::JsArrayBuffer;
use boa_engine::{js_string, Context, JsString, JsValue, NativeFunction, Source};

/// A context with WebIDL registered and a global `gc()` (this crate's own tests).
#[cfg(test)]
pub(crate) fn context() -> Context {
    context_with(crate::registration::register)
}

/// A context with `register` run on it and a global `gc()` that forces a collection.
pub fn context_with(register: fn(&mut Context) -> boa_engine::JsResult<()>) -> Context {
    let mut ctx = Context::default();
    register(&mut ctx).unwrap();
    ctx.register_global_builtin_callable(
        js_string!("gc"),
        0,
        NativeFunction::from_fn_ptr(|_, _, _| {
            gc_now();
            Ok(JsValue::undefined())
        }),
    )
    .unwrap();
    ctx
}

/// Evaluate `src`; panic with the exception if it throws.
#[track_caller]
pub fn eval(ctx: &mut Context, src: &str) -> JsValue {
    match ctx.eval(Source::from_bytes(src)) {
        Ok(v) => v,
        Err(e) => panic!("script failed: {e}\n{src}"),
    }
}

/// Evaluate `src` and convert the result with `ToString`.
#[track_caller]
pub fn string(ctx: &mut Context, src: &str) -> String {
    let v = eval(ctx, src);
    v.to_string(ctx).unwrap().to_std_string_escaped()
}

/// Assert that `src` evaluates to `true`.
#[track_caller]
pub fn check(ctx: &mut Context, src: &str) {
    let v = eval(ctx, src);
    assert_eq!(v, JsValue::from(true), "expected true: {src}");
}

/// Define the global `name` as `value` (a value made in Rust, for a script to use).
pub fn set_global(ctx: &mut Context, name: &str, value: impl Into<JsValue>) {
    ctx.global_object()
        .set(JsString::from(name), value.into(), false, ctx)
        .unwrap();
}

/// Run the job queue until it is empty; panic if a job throws.
#[track_caller]
pub fn run_jobs(ctx: &mut Context) {
    if let Err(e) = ctx.run_jobs() {
        panic!("a job failed: {e}");
    }
}

/// Run the job queue until it is empty, going on after jobs that throw (script errors inside
/// reactions of hostile tests); gives up after 100 failing rounds.
pub fn run_jobs_past_errors(ctx: &mut Context) {
    for _ in 0..100 {
        if ctx.run_jobs().is_ok() {
            break;
        }
    }
}

/// In `ctx` (a fresh context): set `globalThis.log = []`, evaluate `script`, run the jobs,
/// and return `result` (an expression, e.g. `"log.join(',')"`) as a string.
#[track_caller]
pub fn run_log_in(mut ctx: Context, script: &str, result: &str) -> String {
    eval(&mut ctx, "globalThis.log = [];");
    eval(&mut ctx, script);
    run_jobs(&mut ctx);
    string(&mut ctx, result)
}

/// Switch this thread's fast paths on or off until the returned guard drops; the previous
/// setting comes back then, also when the test panics. (Each test runs on its own thread.)
#[must_use = "the fast paths are restored when the guard drops"]
pub fn fast_paths_scope(fast: bool) -> FastPathsScope {
    let scope = FastPathsScope(crate::fast_paths::fast_paths());
    crate::fast_paths::set_fast_paths(fast);
    scope
}

/// The guard of [`fast_paths_scope`].
pub struct FastPathsScope(bool);

impl Drop for FastPathsScope {
    fn drop(&mut self) {
        crate::fast_paths::set_fast_paths(self.0);
    }
}

/// Run `f` with the fast paths on or off (see [`fast_paths_scope`]).
pub fn with_fast_paths<R>(fast: bool, f: impl FnOnce() -> R) -> R {
    let _scope = fast_paths_scope(fast);
    f()
}

/// Run `f(fast)` with the fast paths on, then off; assert both give the same result and return
/// it.
#[track_caller]
pub fn both_modes<R: PartialEq + Debug>(mut f: impl FnMut(bool) -> R) -> R {
    let fast = with_fast_paths(true, || f(true));
    let slow = with_fast_paths(false, || f(false));
    assert_eq!(fast, slow, "fast paths on vs off");
    fast
}

/// `globalThis.out.join()` (the results a script pushed to `out`).
#[track_caller]
pub fn joined_out(ctx: &mut Context) -> String {
    string(ctx, "out.join()")
}

/// In `ctx` (a fresh context): evaluate `src` (which sets `globalThis.out = []` and pushes
/// to it), run the jobs, and return [`joined_out`].
#[track_caller]
pub fn run_out_in(mut ctx: Context, src: &str) -> String {
    eval(&mut ctx, src);
    run_jobs(&mut ctx);
    joined_out(&mut ctx)
}

/// Run `body` as an async function with `globalThis.out = []`; it pushes `"done"` when it
/// returns, `"threw <e>"` when it throws. Run the jobs and return `out.join('|')`.
#[track_caller]
pub fn run_async_out(ctx: &mut Context, body: &str) -> String {
    eval(
        ctx,
        &format!(
            "globalThis.out = []; (async () => {{ {body} }})().then(() => out.push('done'), (e) => out.push('threw ' + e));"
        ),
    );
    run_jobs(ctx);
    string(ctx, "out.join('|')")
}

/// A log Rust test doubles write to.
pub type Log = Rc<RefCell<Vec<String>>>;

/// An empty [`Log`].
pub fn new_log() -> Log {
    Rc::new(RefCell::new(Vec::new()))
}

/// `ToString(value)` for a log, `"?"` if it throws.
pub fn display(value: &JsValue, ctx: &mut Context) -> String {
    value
        .to_string(ctx)
        .map_or_else(|_| "?".to_owned(), |s| s.to_std_string_escaped())
}

/// Force a garbage collection.
pub fn gc_now() {
    boa_gc::force_collect();
}

/// Sets its flag when dropped (to see that a Rust value was dropped).
pub struct DropFlag(Rc<Cell<bool>>);

impl DropFlag {
    /// A flag and the cell it sets.
    pub fn new() -> (Self, Rc<Cell<bool>>) {
        let dropped = Rc::new(Cell::new(false));
        (Self(dropped.clone()), dropped)
    }
}

impl Drop for DropFlag {
    fn drop(&mut self) {
        self.0.set(true);
    }
}

/// The address of the data block of the `ArrayBuffer` that `expr` evaluates to.
#[track_caller]
pub fn array_buffer_pointer(ctx: &mut Context, expr: &str) -> usize {
    let v = eval(ctx, expr);
    let object = v.as_object().expect("an ArrayBuffer").clone();
    let buffer = JsArrayBuffer::from_object(object).expect("an ArrayBuffer");
    let data = buffer.data().expect("not detached");
    data.as_ptr() as usize
}

/// Assert which globals a context has: each of `present` is a function (an interface object
/// or operation), each of `absent` is undefined (what a crate registers alone, with only its
/// dependencies).
#[track_caller]
pub fn assert_globals(ctx: &mut Context, present: &[&str], absent: &[&str]) {
    for name in present {
        assert_eq!(
            string(ctx, &format!("typeof globalThis.{name}")),
            "function",
            "{name} should be registered"
        );
    }
    for name in absent {
        assert_eq!(
            string(ctx, &format!("typeof globalThis.{name}")),
            "undefined",
            "{name} should not be registered"
        );
    }
}

/// The globals each crate of the workspace registers (by crate directory name), for
/// [`assert_crates_registered`].
pub const CRATE_GLOBALS: &[(&str, &[&str])] = &[
    ("webidl", &["DOMException", "QuotaExceededError"]),
    (
        "dom",
        &[
            "Event",
            "CustomEvent",
            "ProgressEvent",
            "EventTarget",
            "AbortController",
            "AbortSignal",
        ],
    ),
    (
        "streams",
        &[
            "ReadableStream",
            "WritableStream",
            "TransformStream",
            "ReadableStreamDefaultReader",
            "ReadableStreamBYOBReader",
            "WritableStreamDefaultWriter",
            "ByteLengthQueuingStrategy",
            "CountQueuingStrategy",
        ],
    ),
    (
        "encoding",
        &[
            "TextEncoder",
            "TextDecoder",
            "TextEncoderStream",
            "TextDecoderStream",
        ],
    ),
    ("compression", &["CompressionStream", "DecompressionStream"]),
    ("fileapi", &["Blob", "File", "FileList", "FileReader"]),
    ("url", &["URL", "URLSearchParams"]),
    ("fetch", &["Headers", "Request", "Response", "FormData"]),
    (
        "html",
        &[
            "structuredClone",
            "MessageChannel",
            "MessagePort",
            "MessageEvent",
            "ErrorEvent",
            "PromiseRejectionEvent",
        ],
    ),
    (
        "hrtime",
        &[
            "Performance",
            "PerformanceEntry",
            "PerformanceMark",
            "PerformanceMeasure",
            "PerformanceObserver",
            "PerformanceObserverEntryList",
        ],
    ),
];

/// Assert that exactly the globals of the crates named in `registered` (directory names of
/// [`CRATE_GLOBALS`]) are there, and none of the other crates': what a crate's `register`
/// installs alone, with its dependencies.
#[track_caller]
pub fn assert_crates_registered(ctx: &mut Context, registered: &[&str]) {
    let pick = |wanted: bool| -> Vec<&str> {
        CRATE_GLOBALS
            .iter()
            .filter(|(name, _)| registered.contains(name) == wanted)
            .flat_map(|(_, globals)| globals.iter().copied())
            .collect()
    };
    assert_globals(ctx, &pick(true), &pick(false));
}

/// The body of a crate's `test_support` module: everything here, plus `context()` (a context
/// with that crate's `register` run and a global `gc()`), `run_log` and `run_out` in such a
/// fresh context.
// `crate::register` is the calling crate's, on purpose.
#[allow(clippy::crate_in_macro_def)]
#[macro_export]
macro_rules! crate_test_support {
    () => {
        pub(crate) use $crate::test_support::*;

        /// A context with this crate registered and a global `gc()`.
        pub(crate) fn context() -> ::boa_engine::Context {
            context_with(crate::register)
        }

        /// `run_log_in` in a fresh [`context`].
        #[track_caller]
        pub(crate) fn run_log(script: &str, result: &str) -> String {
            run_log_in(context(), script, result)
        }

        /// `run_out_in` in a fresh [`context`].
        #[track_caller]
        pub(crate) fn run_out(src: &str) -> String {
            run_out_in(context(), src)
        }
    };
}
