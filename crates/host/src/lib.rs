//! Scripting host for boa_streams: an HTML-style event loop, timers, console, unhandled
//! rejection reporting, and the streams and DOM globals.
//!
//! CONTRACT: the WPT runner (`wpt/`), the benches and the CLI build on exactly this API.
//!
//! # The event loop
//!
//! [`Host`] installs its own Boa `JobExecutor`, because Boa's default one runs due timers
//! before queued promise jobs and drops every queue when one job throws. Ours follows HTML:
//!
//! * **Microtasks** (`PromiseJob`: promise reactions, `await` continuations,
//!   `queueMicrotask`, native jobs of boa_streams) form one FIFO queue. A *microtask
//!   checkpoint* drains it completely, including microtasks queued meanwhile.
//! * **Ticks** (`process.nextTick`) form Node's next-tick queue: a checkpoint runs every
//!   queued tick before the microtasks, and again after them while more were queued.
//! * **Tasks** are timers (`setTimeout`/`setInterval`, Boa's `TimeoutJob`/`IntervalJob`) and
//!   `GenericJob`s (due at once), ordered by due time, then by insertion. One task runs, then a
//!   checkpoint. No task runs while a microtask is queued. An interval re-arms after its
//!   callback (unless cleared), cancelled timers are dropped.
//! * **Async jobs** (`NativeAsyncJob`, and `FinalizationRegistry` cleanups which Boa also
//!   models as futures) are polled by [`Host::run_event_loop`] when their waker fires. A
//!   pending `NativeAsyncJob` keeps the loop alive, a pending cleanup does not. (Boa ties a
//!   started future to the context borrow of that call, so one still pending when
//!   `run_event_loop` returns is dropped; not-yet-started ones stay queued.)
//! * **Native futures** of boa_streams' async adapters (`boa_web::boa_streams::native`: a Rust
//!   `futures::Stream` / `AsyncRead` behind a `ReadableStream`, a `Sink` / `AsyncWrite`
//!   behind a `WritableStream`, the reads a `ChunkStream` asks for) are `'static` and live in
//!   the context, not in this call: each turn the loop polls the woken ones
//!   (`boa_web::boa_streams::native::poll_tasks`, a task) and, while any is pending, waits for its
//!   waker (which may fire on another thread, e.g. tokio I/O) instead of returning. A deadline
//!   that passes first returns `DeadlineReached`; nothing is dropped, and the next
//!   `run_event_loop` goes on with them. Embedders of native async I/O should prefer these
//!   adapters over `NativeAsyncJob`s.
//! * An exception thrown by any job is reported: it fires the global's `error` event and,
//!   unless a listener canceled that, is recorded as [`HostError::Uncaught`] (and printed when
//!   [`HostOptions::print_errors`]); the loop goes on and nothing queued is lost. An
//!   exception from the script itself is returned by `eval_*`; pass it to
//!   [`Host::report_exception`] to record it the same way.
//! * After every checkpoint, each promise rejected without a handler during it (and not
//!   handled before its end) fires a cancelable `PromiseRejectionEvent` named
//!   `unhandledrejection` at the global; unless a listener canceled it, it is reported as
//!   [`HostError::UnhandledRejection`] (HTML's "about-to-be-notified rejected promises list"
//!   and "notify about rejected promises", fed by Boa's `HostHooks::promise_rejection_tracker`;
//!   the events fire at the end of the checkpoint rather than in a task of their own). A
//!   promise so notified that gets a handler later fires `rejectionhandled` (in a task).
//!   Then `Context::clear_kept_objects` runs.
//! * Reported exceptions and rejection reasons are described without running script: a
//!   primitive as `String(value)`, an Error-like object from its `name`/`message`/`stack`
//!   data properties (accessors and `toString` are never called; a `DOMException` from its
//!   slots), any other object as `[object Tag]`. (The `error` event's listeners are script,
//!   and can queue more work, as in HTML.)
//! * With [`HostOptions::virtual_time`] the context gets a virtual clock: when nothing but
//!   timers is pending, the loop moves the clock to the next due timer instead of sleeping;
//!   each script or module the host evaluates moves it on by 1 ms first (time passes between
//!   the realm's creation, its time origin, and its first script, as on a real clock).
//!   `performance.now()` and `Date.now()` follow that clock (a busy-wait on `Date.now()` never
//!   ends in that mode).
//!
//! # Embedding
//!
//! ```no_run
//! use boa_streams_host::{run_with_large_stack, Host, HostOptions, LoopOutcome};
//!
//! let errors = run_with_large_stack(|| {
//!     let mut host = Host::new(HostOptions::default()).expect("host");
//!     if let Err(e) = host.eval_source("setTimeout(() => console.log('hi'), 10)", "main.js") {
//!         host.report_exception(e); // an exception from the script itself
//!     }
//!     assert_eq!(host.run_event_loop(None), LoopOutcome::Idle);
//!     host.take_errors()
//! })
//! .expect("no engine panic");
//! std::process::exit(boa_streams_host::exit_code::for_errors(&errors));
//! ```
//!
//! ES modules: [`Host::eval_module_file`] / [`Host::eval_module_source`] run an entry module
//! (its imports, `import.meta` and top-level `await` are handled by the host's module loader;
//! dynamic `import()` works from classic scripts too), and [`Host::is_module_program`] is the
//! CLI's module-or-script rule. The README's "Modules" section gives the resolution order.
//!
//! `eval_source`/`eval_file` never run jobs: call [`Host::run_microtasks`] for a checkpoint
//! or [`Host::run_event_loop`] for everything. `Context::run_jobs` on [`Host::context`] runs
//! the same loop (no deadline). Build and use the host on one thread; prefer
//! [`run_with_large_stack`], which also lets [`Host::new`] raise Boa's recursion limits.
//!
//! # Globals
//!
//! boa_runtime's `console` (writing `log`/`info`/`debug` to standard output and
//! `warn`/`error`/`trace`/a failing `assert` to standard error, as Node and Deno do),
//! `setTimeout`/`setInterval`/`clearTimeout`/`clearInterval`,
//! `queueMicrotask` and `structuredClone` (boa_runtime's `URL`, `AbortController` and
//! `TextEncoder`/`TextDecoder` are *not* installed: boa_streams provides its own, nor its
//! `atob`/`btoa`: boa_html's follow HTML); then `self` (= `globalThis`), `atob`/`btoa`,
//! `scriptArgs` (an array of strings, empty unless
//! [`Host::set_script_args`] is called), `gc()` when [`HostOptions::expose_gc`], `Worker` (see
//! the `worker` module: a script in its own `Host` on its own thread), everything
//! `boa_web::register` installs (its `structuredClone` replaces boa_runtime's; `URL` with
//! `URL.createObjectURL`/`URL.revokeObjectURL` is boa_url's and boa_fileapi's), and
//! `ErrorEvent` and `PromiseRejectionEvent` (HTML), and `process` (the part of Node's that
//! packages probe: see the `process` module, [`Host::exit_requested`], [`SignalHandle`]).
//!
//! CommonJS: [`Host::eval_commonjs_source`] runs a CommonJS entry; imported and required
//! CommonJS files, and `require()` of ES modules, follow the README's "Modules" section.
//!
//! An exception that is reported (uncaught in a job, thrown by an event listener, or passed
//! to [`Host::report_exception`]) first fires a cancelable `ErrorEvent` named `error` at the
//! global (`error` is the exception, `message` its description, `filename`/`lineno`/`colno`
//! the innermost frame of an Error's stack); only if no listener
//! canceled it is it recorded as [`HostError::Uncaught`]. An exception reported while that
//! event is being dispatched is recorded without another event.
//!
//! The global has HTML's event handler IDL attributes `onerror`, `onunhandledrejection` and
//! `onrejectionhandled` (own accessors; a non-object value is null; the handler's listener
//! keeps the place of its first activation until it is set to null). `onerror` gets an
//! `error` ErrorEvent as `(message, filename, lineno, colno, error)` and returning `true`
//! cancels it; other handlers get the event and returning `false` cancels it.

use std::cell::Cell;
use std::path::Path;
use std::rc::Rc;

pub use boa_engine;
use boa_engine::object::builtins::{JsArray, JsPromise};
use boa_engine::property::Attribute;
use boa_engine::{
    js_string, Context, JsError, JsNativeError, JsObject, JsResult, JsString, JsValue,
    NativeFunction, Source,
};
use boa_runtime::extensions::{
    ConsoleExtension, MicrotaskExtension, StructuredCloneExtension, TimeoutExtension,
};
pub use boa_web::capabilities::{self, Capabilities};

mod cjs;
mod cjs_lexer;
mod cjs_wrapper;
mod clock;
mod commonjs_hint;
mod console;
mod event_loop;
pub mod limits;
mod loader;
mod modules;
pub mod native_file;
mod options;
mod outcome;
mod package_json;
mod process;
mod resolve;
mod signals;
mod stack;
mod worker;
mod worker_group;

use clock::VirtualClock;
use event_loop::{EventLoop, Hooks, Shared};
pub use options::HostOptions;
pub use outcome::{HostError, LoopOutcome};
pub use signals::{Signal, SignalHandle};
use stack::ON_LARGE_STACK;
pub use stack::{
    run_with_large_stack, LARGE_STACK_PARSER_STACK_LIMIT, LARGE_STACK_RECURSION_LIMIT,
    LARGE_STACK_SIZE, LARGE_STACK_VALUE_STACK_LIMIT,
};

/// Process exit codes of the `boa-streams` binary.
pub mod exit_code {
    /// Script and event loop finished with no error.
    pub const OK: i32 = 0;
    /// An uncaught exception (script or job).
    pub const UNCAUGHT_ERROR: i32 = 1;
    /// Usage error (bad arguments, unreadable file).
    pub const USAGE: i32 = 2;
    /// An unhandled promise rejection (and no uncaught error).
    pub const UNHANDLED_REJECTION: i32 = 3;
    /// The engine panicked.
    pub const ENGINE_PANIC: i32 = 70;

    /// The exit code for the errors a run reported: `UNCAUGHT_ERROR` if any error is
    /// uncaught, else `UNHANDLED_REJECTION` if any is, else `OK`.
    pub fn for_errors(errors: &[super::HostError]) -> i32 {
        if errors
            .iter()
            .any(|e| matches!(e, super::HostError::Uncaught { .. }))
        {
            UNCAUGHT_ERROR
        } else if errors.is_empty() {
            OK
        } else {
            UNHANDLED_REJECTION
        }
    }
}

/// `navigator.userAgent`: `boa-streams/<version of this crate>`.
pub const USER_AGENT: &str = concat!("boa-streams/", env!("CARGO_PKG_VERSION"));

/// A Boa `Context` set up as the scripting host.
pub struct Host {
    context: Context,
    event_loop: Rc<EventLoop>,
    shared: Rc<Shared>,
}

impl Host {
    /// Build a context with the host event loop and rejection tracker, boa_runtime's
    /// console, timers, queueMicrotask and structuredClone, plus `self`, `atob`/`btoa`,
    /// `gc()` (if asked), `boa_web::register` (which brings TextEncoder/TextDecoder, `URL`,
    /// `performance`, ...) and `ErrorEvent`.
    ///
    /// On a thread started by [`run_with_large_stack`] it also raises Boa's recursion and
    /// value-stack limits ([`LARGE_STACK_RECURSION_LIMIT`]).
    pub fn new(options: HostOptions) -> JsResult<Self> {
        Self::new_for(options, false)
    }

    /// [`Host::new`] for a window-like global (`worker` false: `navigator` is a `Navigator`)
    /// or a dedicated worker's (`navigator` is a `WorkerNavigator`).
    pub(crate) fn new_for(options: HostOptions, worker: bool) -> JsResult<Self> {
        let shared = Rc::new(Shared::new(options.print_errors));
        let virtual_clock = options.virtual_time.then(|| Rc::new(VirtualClock::new()));
        let event_loop = Rc::new(EventLoop::new(shared.clone(), virtual_clock.clone()));
        let mut builder = Context::builder()
            .job_executor(event_loop.clone())
            .host_hooks(Rc::new(Hooks {
                shared: shared.clone(),
            }))
            .module_loader(Rc::new(loader::HostLoader::default()));
        if let Some(clock) = virtual_clock {
            builder = builder.clock(clock);
        }
        let mut context = builder.build()?;

        if ON_LARGE_STACK.with(Cell::get) {
            let limits = context.runtime_limits_mut();
            limits.set_recursion_limit(LARGE_STACK_RECURSION_LIMIT);
            limits.set_stack_size_limit(LARGE_STACK_VALUE_STACK_LIMIT);
            limits.set_parser_stack_limit(LARGE_STACK_PARSER_STACK_LIMIT);
        }

        boa_runtime::register_extensions(
            (
                ConsoleExtension(console::HostLogger),
                TimeoutExtension,
                MicrotaskExtension,
                StructuredCloneExtension,
            ),
            None,
            &mut context,
        )?;
        console_operations_enumerable(&mut context)?;
        event_loop::capture_error_stack_getter(&mut context);
        register_host_globals(&mut context, &options)?;
        // `atob`/`btoa` (boa_html's; `boa_web::register` installs them again in place).
        boa_web::boa_html::base64::register(&mut context)?;
        boa_web::register_with(&mut context, options.capabilities.clone())?;
        worker::register(&mut context, &options, run_worker)?;
        process::register(&mut context)?;
        // HTML's `navigator`: the values are the host's.
        let mut navigator = boa_web::boa_html::navigator::NavigatorInfo::new(USER_AGENT);
        navigator.worker = worker;
        boa_web::boa_html::navigator::install_navigator(&mut context, navigator)?;
        // Exceptions thrown by event listeners and abort algorithms are "reported" (HTML):
        // route them into this host's error list.
        boa_web::boa_dom::set_exception_reporter(event_loop::report_listener_exception);
        // The global's error and rejection event handlers, and the functions firing the `error`,
        // `unhandledrejection` and `rejectionhandled` events at the global.
        let dispatchers = context.eval(Source::from_bytes(ERROR_EVENT_JS))?;
        if let Some(dispatchers) = dispatchers.as_object() {
            let error = dispatchers.get(0, &mut context)?;
            let rejection = dispatchers.get(1, &mut context)?;
            if let (Some(error), Some(rejection)) = (error.as_object(), rejection.as_object()) {
                let outstanding = boa_engine::object::builtins::JsWeakMap::new(&mut context);
                shared.set_dispatchers(error.clone(), rejection.clone(), outstanding);
            }
        }

        Ok(Self {
            context,
            event_loop,
            shared,
        })
    }

    /// The underlying context.
    pub fn context(&mut self) -> &mut Context {
        &mut self.context
    }

    /// Evaluate a classic script. Does not run jobs. An exception is returned (and not
    /// recorded in `take_errors`).
    pub fn eval_source(&mut self, source: &str, name: &str) -> JsResult<JsValue> {
        let source = Source::from_bytes(source).with_path(Path::new(name));
        self.event_loop.script_tick();
        self.context.eval(source)
    }

    /// Read and evaluate a file as a classic script (see `eval_source`).
    pub fn eval_file(&mut self, path: &Path) -> JsResult<JsValue> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            JsError::from(
                JsNativeError::error().with_message(format!("cannot read {}: {e}", path.display())),
            )
        })?;
        self.set_main_script(path);
        let name = path.to_string_lossy();
        self.eval_source(&text, &name)
    }

    /// Run `source` as an ES module (the entry of a module graph) whose file is `path`:
    /// relative imports, `import.meta.url`/`filename`/`dirname` and `import.meta.resolve()`
    /// use `path`, which need not exist (a relative `path` is taken from the current
    /// directory). Imports are resolved as the README's "Modules" section says (relative
    /// and absolute paths, `file:` URLs, `node_modules` packages with `exports`, `#imports`,
    /// JSON with `with { type: "json" }`); each file is evaluated once per host.
    ///
    /// Returns the module's evaluation promise. Like `eval_source`, this runs no job: the
    /// imports load, and the module evaluates, as [`Host::run_event_loop`] (or
    /// [`Host::run_microtasks`]) runs; the loop keeps running timers and tasks while a
    /// top-level `await` waits. A failure after parsing (an import that does not resolve, a
    /// missing export, an exception, a rejected top-level `await`) is reported like an
    /// uncaught exception (the `error` event first) when it happens, so the returned promise
    /// never counts as an unhandled rejection. `Err` is a `SyntaxError` in `source` itself
    /// (one line ending in `(file:line:col)`), not recorded. Unlike
    /// [`eval_module_file`](Self::eval_module_file), this does not make `path`'s directory
    /// readable: imports need [`HostOptions::capabilities`] (or
    /// [`set_main_script`](Self::set_main_script)) to allow their files.
    ///
    /// ```
    /// use boa_streams_host::{run_with_large_stack, Host, HostOptions};
    /// use boa_streams_host::boa_engine::builtins::promise::PromiseState;
    ///
    /// run_with_large_stack(|| {
    ///     let mut host = Host::new(HostOptions::default()).unwrap();
    ///     let promise = host
    ///         .eval_module_source(
    ///             "await new Promise((resolve) => setTimeout(resolve, 5));
    ///              globalThis.url = import.meta.url;",
    ///             std::path::Path::new("/tmp/entry.mjs"),
    ///         )
    ///         .unwrap();
    ///     host.run_event_loop(None);
    ///     assert!(matches!(promise.state(), PromiseState::Fulfilled(_)));
    ///     let url = host.eval_source("url", "check.js").unwrap();
    ///     assert_eq!(url.as_string().unwrap().to_std_string_escaped(), "file:///tmp/entry.mjs");
    ///     assert!(host.take_errors().is_empty());
    ///
    ///     // A syntax error is returned, with its position.
    ///     let error = host.eval_module_source("let let;", std::path::Path::new("/tmp/bad.mjs"));
    ///     assert!(error.unwrap_err().to_string().contains("/tmp/bad.mjs:1:"));
    /// })
    /// .unwrap();
    /// ```
    pub fn eval_module_source(&mut self, source: &str, path: &Path) -> JsResult<JsPromise> {
        let path = if path.is_absolute() {
            path.to_owned()
        } else {
            std::env::current_dir().unwrap_or_default().join(path)
        };
        self.set_main_path(&path);
        self.event_loop.script_tick();
        modules::eval_entry(source, &path, &mut self.context)
    }

    /// The main script or module is `path` (`eval_file` and the module entry points set it;
    /// a host that evaluates a file's text with `eval_source` calls it): workers' relative
    /// URLs resolve against its directory, and `fetch()`'s, `Request`'s and
    /// `Response.redirect()`'s relative URLs against its `file:` URL (the API base URL,
    /// boa_fetch's `set_api_base_url`).
    ///
    /// ```
    /// use boa_streams_host::{run_with_large_stack, Host, HostOptions};
    ///
    /// run_with_large_stack(|| {
    ///     let mut host = Host::new(HostOptions::default()).unwrap();
    ///     host.set_main_script(std::path::Path::new("/srv/app/main.js"));
    ///     let url = host.eval_source("new Request('./data.json').url", "check.js").unwrap();
    ///     assert_eq!(url.as_string().unwrap().to_std_string_escaped(), "file:///srv/app/data.json");
    /// })
    /// .unwrap();
    /// ```
    ///
    /// The file's directory tree becomes readable (imports and `file:` fetches) whatever
    /// [`HostOptions::capabilities`] says, as under `boa-streams --permission`.
    pub fn set_main_script(&mut self, path: &Path) {
        let path = if path.is_absolute() {
            path.to_owned()
        } else {
            std::env::current_dir().unwrap_or_default().join(path)
        };
        self.allow_script_tree(&path);
        self.set_main_path(&path);
    }

    /// Make the directory tree of the entry script `path` readable (added to the context's
    /// capabilities' fs-read roots).
    fn allow_script_tree(&mut self, path: &Path) {
        let Some(dir) = path.parent() else { return };
        let capabilities = Capabilities::of(&self.context);
        if let capabilities::FsAccess::Roots(_) = capabilities.fs_read() {
            (*capabilities)
                .clone()
                .allow_fs_read([dir])
                .install(&mut self.context);
        }
    }

    /// [`set_main_script`](Self::set_main_script) without the read grant (`path` absolute).
    fn set_main_path(&mut self, path: &Path) {
        if let Some(dir) = path.parent() {
            self.context.insert_data(worker::ScriptBase(dir.to_owned()));
        }
        if let Ok(url) = ::url::Url::from_file_path(path) {
            boa_web::boa_fetch::set_api_base_url(&mut self.context, Some(url.as_str()));
        }
        let script = path.to_string_lossy().into_owned();
        // Setting an own data property of `process` only fails if the program made it
        // read-only: then `argv` stays as the program left it.
        let _ = process::update_argv(&mut self.context, |argv| argv.script = Some(script));
    }

    /// Read the file at `path` and run it as an ES module (see
    /// [`eval_module_source`](Self::eval_module_source)); the path is canonicalized first,
    /// so a module that imports the entry back gets the same module record.
    ///
    /// ```
    /// use boa_streams_host::{run_with_large_stack, Host, HostOptions};
    ///
    /// run_with_large_stack(|| {
    ///     let dir = std::env::temp_dir().join(format!("boa-streams-doc-{}", std::process::id()));
    ///     std::fs::create_dir_all(&dir).unwrap();
    ///     std::fs::write(dir.join("lib.mjs"), "export const twice = (x) => 2 * x;").unwrap();
    ///     std::fs::write(
    ///         dir.join("main.mjs"),
    ///         "import { twice } from './lib.mjs'; globalThis.result = twice(21);",
    ///     )
    ///     .unwrap();
    ///     let mut host = Host::new(HostOptions::default()).unwrap();
    ///     host.eval_module_file(&dir.join("main.mjs")).unwrap();
    ///     host.run_event_loop(None);
    ///     assert_eq!(host.eval_source("result", "check.js").unwrap().as_number(), Some(42.0));
    ///     std::fs::remove_dir_all(&dir).unwrap();
    /// })
    /// .unwrap();
    /// ```
    pub fn eval_module_file(&mut self, path: &Path) -> JsResult<JsPromise> {
        let canonical = std::fs::canonicalize(path).map_err(|e| {
            JsError::from(
                JsNativeError::error().with_message(format!("cannot read {}: {e}", path.display())),
            )
        })?;
        let text = std::fs::read_to_string(&canonical).map_err(|e| {
            JsError::from(
                JsNativeError::error().with_message(format!("cannot read {}: {e}", path.display())),
            )
        })?;
        self.allow_script_tree(&canonical);
        self.eval_module_source(&text, &canonical)
    }

    /// Import the ES module (or, for a specifier ending in `.json`, the JSON module) that
    /// `specifier` names and return its namespace object, whose properties are the module's
    /// exports: an embedder calls a module's functions from Rust without a wrapper module.
    ///
    /// `specifier` is resolved as an `import` in a module of the current directory would be
    /// (a relative or absolute path, a `file:` URL, a package in `node_modules`; see the
    /// README's "Modules"). The module graph is loaded, linked and evaluated, and the event
    /// loop runs (timers, tasks, native futures) until the module's evaluation has settled,
    /// top-level `await` included; work the module started and that outlives it (a server, a
    /// timer) stays queued for the next [`run_event_loop`](Self::run_event_loop). A module
    /// already imported (by this call or an `import`) is not evaluated again: the same
    /// namespace comes back.
    ///
    /// ```
    /// use boa_streams_host::{run_with_large_stack, Capabilities, Host, HostOptions};
    /// use boa_streams_host::boa_engine::{js_string, JsValue};
    ///
    /// run_with_large_stack(|| {
    ///     let dir = std::env::temp_dir().join(format!("boa-streams-import-{}", std::process::id()));
    ///     std::fs::create_dir_all(&dir).unwrap();
    ///     let lib = dir.join("lib.mjs");
    ///     std::fs::write(
    ///         &lib,
    ///         "await new Promise((resolve) => setTimeout(resolve, 1));
    ///          export const twice = (x) => 2 * x;
    ///          export function fail() { throw new RangeError('no'); }",
    ///     )
    ///     .unwrap();
    ///     // The host may read the plugin's directory (and nothing else).
    ///     let mut host = Host::new(HostOptions {
    ///         capabilities: Capabilities::default().allow_fs_read([&dir]),
    ///         ..HostOptions::default()
    ///     })
    ///     .unwrap();
    ///     let exports = host.import_module(lib.to_str().unwrap()).unwrap();
    ///     let twice = exports.get(js_string!("twice"), host.context()).unwrap();
    ///     let result = twice
    ///         .as_callable()
    ///         .unwrap()
    ///         .call(&JsValue::undefined(), &[21.into()], host.context())
    ///         .unwrap();
    ///     assert_eq!(result.as_number(), Some(42.0));
    ///
    ///     // An error from a later call names the module's file in its stack.
    ///     let fail = exports.get(js_string!("fail"), host.context()).unwrap();
    ///     let error = fail.as_callable().unwrap().call(&JsValue::undefined(), &[], host.context());
    ///     let described = host.describe_error(&error.unwrap_err());
    ///     assert!(described.starts_with("RangeError: no"), "{described}");
    ///     assert!(described.contains("lib.mjs"), "{described}");
    ///
    ///     // A module that fails to import rejects with its error.
    ///     let missing = host.import_module(dir.join("missing.mjs").to_str().unwrap());
    ///     assert!(missing.unwrap_err().to_string().contains("missing.mjs"));
    ///     std::fs::remove_dir_all(&dir).unwrap();
    /// })
    /// .unwrap();
    /// ```
    ///
    /// # Errors
    /// What the import rejects with: the specifier does not resolve or the file cannot be
    /// read (a TypeError naming it), a SyntaxError (naming the file), the exception the
    /// module's evaluation threw; an Error if the evaluation never settles (a top-level
    /// `await` on a promise nothing will settle) or the call is made from inside the event
    /// loop. The error is returned, not reported as uncaught.
    pub fn import_module(&mut self, specifier: &str) -> JsResult<JsObject> {
        use boa_engine::builtins::promise::PromiseState;
        self.event_loop.script_tick();
        let promise = modules::import_namespace(specifier, &mut self.context)?;
        // Handled here: a rejection is returned, never reported as unhandled.
        let ignore = NativeFunction::from_fn_ptr(|_, _, _| Ok(JsValue::undefined()))
            .to_js_function(self.context.realm());
        promise.then(None, Some(ignore), &mut self.context)?;
        let pending = |p: &JsPromise| matches!(p.state(), PromiseState::Pending);
        if pending(&promise) {
            let watched = promise.clone();
            self.run_event_loop_with_budget(None, &mut || !pending(&watched));
        }
        match promise.state() {
            PromiseState::Fulfilled(namespace) => namespace.as_object().ok_or_else(|| {
                JsNativeError::typ()
                    .with_message(format!("importing {specifier} gave no namespace object"))
                    .into()
            }),
            PromiseState::Rejected(error) => Err(JsError::from_opaque(error)),
            PromiseState::Pending => Err(JsNativeError::error()
                .with_message(format!(
                    "importing {specifier}: the module's evaluation did not settle (a top-level await waits for something nothing will do, or import_module was called from inside the event loop)"
                ))
                .into()),
        }
    }

    /// A description of an exception, as the host prints an uncaught one: `Name: message`,
    /// then the stack (one `    at function (file:line:col)` line per frame) when the value
    /// is an Error. No script runs (no getter, no `toString`). For an error thrown by a
    /// module's function that Rust called (see [`import_module`](Self::import_module)), the
    /// stack names the module's file.
    ///
    /// ```
    /// use boa_streams_host::{run_with_large_stack, Host, HostOptions};
    ///
    /// run_with_large_stack(|| {
    ///     let mut host = Host::new(HostOptions::default()).unwrap();
    ///     let error = host
    ///         .eval_source("function f() { throw new TypeError('bad'); }\nf();", "/srv/plugin.js")
    ///         .unwrap_err();
    ///     let text = host.describe_error(&error);
    ///     assert!(text.starts_with("TypeError: bad\n"), "{text}");
    ///     assert!(text.contains("/srv/plugin.js:1:"), "{text}");
    /// })
    /// .unwrap();
    /// ```
    pub fn describe_error(&mut self, error: &JsError) -> String {
        let value = match error.clone().into_opaque(&mut self.context) {
            Ok(value) => value,
            // An engine error with no JS value (a runtime limit): its own text.
            Err(e) => return e.to_string(),
        };
        match event_loop::describe(&value, &mut self.context) {
            (message, Some(stack)) if !stack.is_empty() => format!("{message}\n{stack}"),
            (message, _) => message,
        }
    }

    /// Does the program `source` (from the file `path`, if any) run as a module? The rule of
    /// `boa-streams FILE`: a `.mjs` file is a module and a `.cjs` file a script; for another
    /// file, the nearest `package.json`'s `"type"` decides (`"module"` or `"commonjs"`);
    /// otherwise (as for a program without a file) it is a module if it fails to parse as a
    /// script but parses as a module (it uses `import`/`export` or top-level `await`).
    ///
    /// ```
    /// use boa_streams_host::{run_with_large_stack, Host, HostOptions};
    ///
    /// run_with_large_stack(|| {
    ///     let mut host = Host::new(HostOptions::default()).unwrap();
    ///     assert!(host.is_module_program(None, "await 1;"));
    ///     assert!(host.is_module_program(None, "export {};"));
    ///     assert!(!host.is_module_program(None, "var await = 1;"));
    ///     assert!(!host.is_module_program(None, "syntax error ("));
    ///     assert!(host.is_module_program(Some(std::path::Path::new("x.mjs")), "1"));
    ///     assert!(!host.is_module_program(Some(std::path::Path::new("x.cjs")), "export {};"));
    ///     // Detection leaves no trace: the program then runs once as a script.
    ///     assert!(!host.is_module_program(None, "let x = 1;"));
    ///     host.eval_source("let x = 1;", "main.js").unwrap();
    /// })
    /// .unwrap();
    /// ```
    pub fn is_module_program(&self, path: Option<&Path>, source: &str) -> bool {
        if let Some(path) = path {
            match path.extension().and_then(|e| e.to_str()) {
                Some("mjs") => return true,
                Some("cjs") => return false,
                _ => {}
            }
            match resolve::package_type(path).as_deref() {
                Some("module") => return true,
                Some("commonjs") => return false,
                _ => {}
            }
        }
        modules::has_module_syntax(source)
    }

    /// Does the file `path` run as CommonJS when it is the program ([`Host::eval_commonjs_source`])?
    /// It does when it ends in `.cjs`, or the nearest `package.json` says
    /// `"type": "commonjs"`. (A `.js` file without a type runs as a classic script, or as a
    /// module when [`Host::is_module_program`] says so; imported and required files follow
    /// Node's rules, see the README.)
    ///
    /// ```
    /// use boa_streams_host::{run_with_large_stack, Host, HostOptions};
    ///
    /// run_with_large_stack(|| {
    ///     let host = Host::new(HostOptions::default()).unwrap();
    ///     assert!(host.is_commonjs_file(std::path::Path::new("/nowhere/x.cjs")));
    ///     assert!(!host.is_commonjs_file(std::path::Path::new("/nowhere/x.mjs")));
    /// })
    /// .unwrap();
    /// ```
    pub fn is_commonjs_file(&self, path: &Path) -> bool {
        match path.extension().and_then(|e| e.to_str()) {
            Some("cjs") => true,
            Some("mjs") => false,
            _ => resolve::package_type(path).as_deref() == Some("commonjs"),
        }
    }

    /// Perform a microtask checkpoint only (drain the microtask queue, report rejections).
    pub fn run_microtasks(&mut self) {
        self.event_loop.run_microtasks(&mut self.context);
    }

    /// Run the event loop until idle or until `deadline` (wall-clock) passes. Microtasks are
    /// drained after every task; exceptions in jobs are recorded and the loop goes on.
    ///
    /// Async jobs (`NativeAsyncJob`, `FinalizationRegistry` cleanups) only make progress
    /// inside this call; one still pending when it returns is dropped, because Boa ties such
    /// a future to the borrow of the context made for this call. (So a `FinalizationRegistry`
    /// callback only runs within the `run_event_loop` call its registry was created before.)
    pub fn run_event_loop(&mut self, deadline: Option<std::time::Instant>) -> LoopOutcome {
        self.event_loop
            .run_loop(&mut self.context, event_loop::Stop::at(deadline))
    }

    /// [`run_event_loop`](Self::run_event_loop) that also stops (with
    /// [`LoopOutcome::DeadlineReached`]) once `budget_spent()` returns true: a budget other
    /// than wall-clock time, such as the CPU time spent (which a loaded machine does not
    /// stretch). It is asked wherever the deadline is checked: after every 1024 microtasks
    /// and before each task; a loop waiting for a timer or a wake-up (spending no CPU) is
    /// bounded by `deadline` only.
    ///
    /// ```
    /// use boa_streams_host::{run_with_large_stack, Host, HostOptions, LoopOutcome};
    ///
    /// run_with_large_stack(|| {
    ///     let mut host = Host::new(HostOptions::default()).unwrap();
    ///     // An endless microtask chain: only the budget stops it.
    ///     host.eval_source("globalThis.n = 0; (function f() { n++; queueMicrotask(f); })();", "main.js")
    ///         .unwrap();
    ///     let mut checks = 0;
    ///     let outcome = host.run_event_loop_with_budget(None, &mut || {
    ///         checks += 1;
    ///         checks > 3
    ///     });
    ///     assert!(matches!(outcome, LoopOutcome::DeadlineReached));
    ///     let n = host.eval_source("n", "check.js").unwrap().as_number().unwrap();
    ///     assert!(n >= 3.0 * 1024.0);
    /// })
    /// .unwrap();
    /// ```
    pub fn run_event_loop_with_budget(
        &mut self,
        deadline: Option<std::time::Instant>,
        budget_spent: &mut dyn FnMut() -> bool,
    ) -> LoopOutcome {
        let stop = event_loop::Stop {
            deadline,
            budget: Some(budget_spent),
        };
        self.event_loop.run_loop(&mut self.context, stop)
    }

    /// Errors reported since the last call (uncaught errors, unhandled rejections), in order.
    pub fn take_errors(&mut self) -> Vec<HostError> {
        std::mem::take(&mut *self.shared.errors.borrow_mut())
    }

    /// Record (and print, when `print_errors`) an exception as [`HostError::Uncaught`]: for
    /// an exception that `eval_source`/`eval_file` returned, as HTML "report the exception".
    pub fn report_exception(&mut self, error: JsError) {
        self.shared.report_exception(error, &mut self.context);
    }

    /// Set the directory relative to which `new Worker(url)` resolves `url` (`eval_file`
    /// sets it to the file's directory).
    pub fn set_script_base(&mut self, dir: &Path) {
        self.context.insert_data(worker::ScriptBase(dir.to_owned()));
    }

    /// Set the global `scriptArgs` (an array of strings; `boa-streams FILE a b` gives
    /// `["a", "b"]`).
    pub fn set_script_args(&mut self, args: &[String]) -> JsResult<()> {
        set_script_args(&mut self.context, args)?;
        process::update_argv(&mut self.context, |argv| argv.args = args.to_vec())
    }

    /// Run `source` as the main CommonJS module whose file is `path` (see the README's
    /// "Modules" section): `require`, `module`, `exports`, `__filename` and `__dirname` are
    /// its own, `require.main` is its `module`. Like `eval_source`, no job runs; an
    /// exception (a `SyntaxError` naming `file:line:col` included) is returned.
    ///
    /// ```
    /// use boa_streams_host::{run_with_large_stack, Host, HostOptions};
    ///
    /// run_with_large_stack(|| {
    ///     let dir = std::env::temp_dir().join(format!("boa-streams-cjs-doc-{}", std::process::id()));
    ///     std::fs::create_dir_all(&dir).unwrap();
    ///     std::fs::write(dir.join("lib.js"), "exports.twice = (x) => 2 * x;").unwrap();
    ///     let mut host = Host::new(HostOptions::default()).unwrap();
    ///     host.eval_commonjs_source(
    ///         "globalThis.result = require('./lib').twice(21);",
    ///         &dir.join("main.cjs"),
    ///     )
    ///     .unwrap();
    ///     assert_eq!(host.eval_source("result", "check.js").unwrap().as_number(), Some(42.0));
    ///     std::fs::remove_dir_all(&dir).unwrap();
    /// })
    /// .unwrap();
    /// ```
    pub fn eval_commonjs_source(&mut self, source: &str, path: &Path) -> JsResult<()> {
        let path = if path.is_absolute() {
            path.to_owned()
        } else {
            std::env::current_dir().unwrap_or_default().join(path)
        };
        let path = std::fs::canonicalize(&path).unwrap_or(path);
        self.set_main_script(&path);
        self.event_loop.script_tick();
        cjs::eval_main(source, &path, &mut self.context)
    }

    /// The code `process.exit(code)` ended the run with, if the program called it (the
    /// event loop then returns at once, dropping queued work, and nothing more is reported).
    ///
    /// ```
    /// use boa_streams_host::{run_with_large_stack, Host, HostOptions};
    ///
    /// run_with_large_stack(|| {
    ///     let mut host = Host::new(HostOptions::default()).unwrap();
    ///     let result = host.eval_source(
    ///         "setTimeout(() => { try { process.exit(3); } finally { globalThis.after = 1; } }, 1);",
    ///         "main.js",
    ///     );
    ///     assert!(result.is_ok());
    ///     host.run_event_loop(None);
    ///     assert_eq!(host.exit_requested(), Some(3));
    ///     assert!(host.take_errors().is_empty());
    /// })
    /// .unwrap();
    /// ```
    pub fn exit_requested(&self) -> Option<i32> {
        self.shared.exit.get()
    }

    /// `process.exitCode` as the program set it (an integer, as an exit status), if it did:
    /// the exit code of a run that ends without `process.exit()` and without errors.
    ///
    /// ```
    /// use boa_streams_host::{run_with_large_stack, Host, HostOptions};
    ///
    /// run_with_large_stack(|| {
    ///     let mut host = Host::new(HostOptions::default()).unwrap();
    ///     assert_eq!(host.process_exit_code(), None);
    ///     host.eval_source("process.exitCode = 4;", "main.js").unwrap();
    ///     assert_eq!(host.process_exit_code(), Some(4));
    /// })
    /// .unwrap();
    /// ```
    pub fn process_exit_code(&mut self) -> Option<i32> {
        process::exit_code(&mut self.context)
    }

    /// A handle that delivers `SIGINT`/`SIGTERM` to the program's `process.on(...)`
    /// listeners from any thread (see [`SignalHandle`]).
    pub fn signal_handle(&self) -> SignalHandle {
        SignalHandle(self.event_loop.signals.clone())
    }

    /// Is any microtask, timer, async job or native future pending (FinalizationRegistry
    /// cleanups aside)?
    pub fn has_pending_work(&self) -> bool {
        self.event_loop.has_pending_work()
            || boa_web::boa_streams::native::pending_tasks(&self.context) > 0
    }

    /// Run the event loop until `future` is ready (see [`Host::run_event_loop`]; `future` is
    /// polled once per turn and when its waker fires, which may be on another thread), e.g.
    /// to await a `boa_web::boa_streams::native::StreamReader` read. A pending `future` keeps the loop
    /// alive; returns `None` if `deadline` passed first (or on a re-entrant call).
    ///
    /// ```
    /// use boa_web::boa_streams::native::StreamReader;
    /// use boa_streams_host::{run_with_large_stack, Host, HostOptions};
    ///
    /// run_with_large_stack(|| {
    ///     let mut host = Host::new(HostOptions::default()).unwrap();
    ///     let stream = host
    ///         .eval_source(
    ///             "new ReadableStream({ start(c) {
    ///                  setTimeout(() => { c.enqueue(new Uint8Array([111, 107])); c.close(); }, 1);
    ///              } })",
    ///             "main.js",
    ///         )
    ///         .unwrap();
    ///     let reader = StreamReader::from_value(&stream, host.context()).unwrap();
    ///     let all = reader.read_all(host.context());
    ///     let bytes = host.run_until(all, None).unwrap().unwrap();
    ///     assert_eq!(&bytes[..], b"ok");
    /// })
    /// .unwrap();
    /// ```
    pub fn run_until<F: std::future::Future>(
        &mut self,
        future: F,
        deadline: Option<std::time::Instant>,
    ) -> Option<F::Output> {
        self.event_loop
            .run_until(&mut self.context, std::pin::pin!(future), deadline)
    }
}

impl Drop for Host {
    fn drop(&mut self) {
        // Release the JS handles held by queued jobs before the context goes.
        self.event_loop.clear();
        self.shared.clear();
        // Release the Blobs of the blob URL store.
        boa_web::boa_fileapi::blob_url::clear(&self.context);
        if let Some(loader) = self.context.downcast_module_loader::<loader::HostLoader>() {
            loader.clear();
        }
    }
}

impl Host {
    /// Arms (or with [`Limits::default`](crate::limits::Limits::default) disarms) the hard limits for the scripts this host
    /// runs from now on (see the [module docs](crate::limits)). The CPU-time budget starts
    /// now; calling it again starts a new budget and clears a previous stop.
    ///
    /// ```
    /// use std::time::Duration;
    /// use boa_streams_host::limits::{LimitExceeded, Limits};
    /// use boa_streams_host::{run_with_large_stack, Host, HostOptions};
    ///
    /// run_with_large_stack(|| {
    ///     let mut host = Host::new(HostOptions { print_errors: false, ..Default::default() }).unwrap();
    ///     host.set_limits(Limits { cpu_time: Some(Duration::from_millis(50)), ..Limits::default() });
    ///     // Not catchable by the script: `catch` does not run.
    ///     let error = host.eval_source("try { for (;;) {} } catch { 'caught' }", "plugin.js");
    ///     assert!(error.is_err());
    ///     assert!(matches!(host.limit_exceeded(), Some(LimitExceeded::CpuTime { .. })));
    /// })
    /// .unwrap();
    /// ```
    pub fn set_limits(&mut self, limits: limits::Limits) {
        limits::arm(&mut self.context, limits);
    }

    /// The limit that stopped this host's script, if one did (see [`Host::set_limits`]).
    pub fn limit_exceeded(&self) -> Option<limits::LimitExceeded> {
        limits::exceeded(&self.context)
    }
}

fn set_script_args(context: &mut Context, args: &[String]) -> JsResult<()> {
    let array = JsArray::from_iter(
        args.iter().map(|a| JsString::from(a.as_str()).into()),
        context,
    );
    context.register_global_property(
        js_string!("scriptArgs"),
        array,
        Attribute::WRITABLE | Attribute::CONFIGURABLE,
    )
}

/// The global's `onerror`, `onunhandledrejection` and `onrejectionhandled`; its value is the
/// pair of functions firing the global's `error` and rejection events.
const ERROR_EVENT_JS: &str = include_str!("error_event.js");

/// The Console Standard's `console` is a WebIDL namespace, whose operations are enumerable
/// (WebIDL "define the regular operations"); boa_runtime's console defines them
/// non-enumerable. Redefine each own function-valued property as enumerable (same value,
/// writable, configurable).
fn console_operations_enumerable(context: &mut Context) -> JsResult<()> {
    let console = context
        .global_object()
        .get(js_string!("console"), context)?;
    let Some(console) = console.as_object() else {
        return Ok(());
    };
    for key in console.own_property_keys(context)? {
        // No script has seen the console yet: reading its property map runs no code.
        let Some(desc) = console.borrow().properties().get(&key) else {
            continue;
        };
        let Some(value) = desc.value().filter(|v| v.is_callable()).cloned() else {
            continue;
        };
        console.define_property_or_throw(
            key,
            boa_engine::property::PropertyDescriptor::builder()
                .value(value)
                .writable(true)
                .enumerable(true)
                .configurable(true),
            context,
        )?;
    }
    Ok(())
}

/// `self`, `scriptArgs`, `gc`.
fn register_host_globals(context: &mut Context, options: &HostOptions) -> JsResult<()> {
    // `self`: the global object ([Replaceable] in HTML, hence writable).
    let global = context.global_object();
    context.register_global_property(js_string!("self"), global, Attribute::all())?;

    set_script_args(context, &[])?;

    if options.expose_gc {
        context.register_global_callable(
            js_string!("gc"),
            0,
            NativeFunction::from_fn_ptr(|_, _, _| {
                boa_gc::force_collect();
                Ok(JsValue::undefined())
            }),
        )?;
    }
    Ok(())
}

/// The body of a worker thread ([`worker::WorkerMain`]): the worker's own host, its script
/// and its event loop.
fn run_worker(start: worker::WorkerStart) {
    let worker::WorkerStart {
        group,
        options,
        port,
        errors,
        filename,
        module,
        source,
        name,
        base,
    } = start;
    let (source, name) = (source.as_str(), name.as_str());
    let Ok(mut host) = Host::new_for(options, true) else {
        eprintln!("worker {name}: cannot set up the host");
        return;
    };
    if let Some(event_loop) = host.context.downcast_job_executor::<EventLoop>() {
        *event_loop.group.borrow_mut() = Some(group.clone());
    }
    if let Some(base) = base {
        host.context.insert_data(worker::ScriptBase(base));
    }
    let setup = (|| -> JsResult<()> {
        let port = boa_web::boa_html::message::receive_port(port, &mut host.context)?;
        let errors = boa_web::boa_html::message::receive_port(errors, &mut host.context)?;
        for (key, value) in [
            (js_string!("__boaWorkerPort"), JsValue::from(port)),
            (js_string!("__boaWorkerErrorPort"), errors.into()),
            (
                js_string!("__boaWorkerFilename"),
                boa_engine::JsString::from(filename.as_str()).into(),
            ),
        ] {
            host.context.register_global_property(
                key,
                value,
                boa_engine::property::Attribute::all(),
            )?;
        }
        let forwarder = host.eval_source(worker::WORKER_PRELUDE, "worker prelude")?;
        if let Some(forwarder) = forwarder.as_object() {
            host.shared.set_error_forwarder(forwarder.clone());
        }
        Ok(())
    })();
    if let Err(e) = setup {
        host.report_exception(e);
        return;
    }
    let evaluated = if module {
        host.eval_module_source(source, Path::new(name)).map(drop)
    } else {
        host.eval_source(source, name).map(drop)
    };
    if let Err(e) = evaluated {
        host.report_exception(e);
    }
    host.run_event_loop(None);
    if group.is_terminated() {
        // The worker's ports are disentangled (their partners get `close`).
        boa_web::boa_html::message::close_all_ports(&mut host.context);
    }
}
