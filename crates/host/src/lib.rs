//! Scripting host for boa_streams: an HTML-style event loop, timers, console, unhandled
//! rejection reporting, and the streams and DOM globals.
//!
//! CONTRACT: the WPT runner (`wpt/`), the benches and the CLI build on exactly this API.
//! Bodies marked `todo!` are being written (issue 2); signatures are fixed.

use std::path::Path;

pub use boa_engine;
use boa_engine::{Context, JsResult, JsValue};

/// What the host installs and how the loop behaves.
#[derive(Debug, Clone)]
pub struct HostOptions {
    /// Expose a global `gc()` that runs a full collection (`boa_gc::force_collect`).
    pub expose_gc: bool,
    /// Use a virtual clock: when only timers are pending, the loop jumps the clock to the
    /// next due timer instead of sleeping (tests and WPT run fast and deterministically).
    pub virtual_time: bool,
    /// Print uncaught errors and unhandled rejections to stderr as they are reported.
    pub print_errors: bool,
}

impl Default for HostOptions {
    fn default() -> Self {
        Self {
            expose_gc: false,
            virtual_time: false,
            print_errors: true,
        }
    }
}

/// One error the host reported: an uncaught exception from a script or job, or a promise
/// rejection that stayed unhandled after a microtask checkpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostError {
    /// An exception escaped a script or a job (task or microtask).
    Uncaught {
        message: String,
        stack: Option<String>,
    },
    /// A rejected promise had no handler at the end of the checkpoint in which it was rejected.
    UnhandledRejection {
        message: String,
        stack: Option<String>,
    },
}

/// Why `run_event_loop` returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoopOutcome {
    /// No microtask and no timer is left.
    Idle,
    /// The deadline passed with work still pending (timers or an endless microtask chain).
    DeadlineReached,
}

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
}

/// A Boa `Context` set up as the scripting host.
pub struct Host {
    context: Context,
}

impl Host {
    /// Build a context with the host event loop and rejection tracker, boa_runtime's
    /// console, timers, queueMicrotask, TextEncoder/TextDecoder, structuredClone, atob/btoa,
    /// plus `self`, `performance.now()`, `gc()` (if asked) and `boa_streams::register`.
    pub fn new(options: HostOptions) -> JsResult<Self> {
        let _ = options;
        todo!()
    }

    /// The underlying context.
    pub fn context(&mut self) -> &mut Context {
        &mut self.context
    }

    /// Evaluate a classic script. Does not run jobs. An exception is returned (and not
    /// recorded in `take_errors`).
    pub fn eval_source(&mut self, source: &str, name: &str) -> JsResult<JsValue> {
        let _ = (source, name);
        todo!()
    }

    /// Read and evaluate a file as a classic script (see `eval_source`).
    pub fn eval_file(&mut self, path: &Path) -> JsResult<JsValue> {
        let _ = path;
        todo!()
    }

    /// Perform a microtask checkpoint only (drain the microtask queue, report rejections).
    pub fn run_microtasks(&mut self) {
        todo!()
    }

    /// Run the event loop until idle or until `deadline` (wall-clock) passes. Microtasks are
    /// drained after every task; exceptions in jobs are recorded and the loop goes on.
    pub fn run_event_loop(&mut self, deadline: Option<std::time::Instant>) -> LoopOutcome {
        let _ = deadline;
        todo!()
    }

    /// Errors reported since the last call (uncaught errors, unhandled rejections), in order.
    pub fn take_errors(&mut self) -> Vec<HostError> {
        todo!()
    }
}

/// Run `f` on a thread with a large stack (256 MiB), catching a panic. `Err` carries the
/// panic message.
pub fn run_with_large_stack<F, R>(f: F) -> Result<R, String>
where
    F: FnOnce() -> R + Send + 'static,
    R: Send + 'static,
{
    let _ = f;
    todo!()
}
