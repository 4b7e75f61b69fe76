//! Running one program in one mode and collecting its log.
//!
//! A [`Runner`] owns a host for one mode (`ref`, `ours`, `ours-slow`). `run_fresh` builds a
//! new host per program (corpus mode, confirmations); `run_batched` reuses the host across
//! programs (campaigns): the program is wrapped in a function so its bindings stay local,
//! the prelude's log is reset before it and the event loop runs to idle after it. A host that
//! panicked or did not go idle is discarded.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use boa_engine::object::builtins::JsArray;
use boa_engine::{js_string, JsValue};
use boa_streams_host::{Host, HostError, HostOptions, LoopOutcome};

/// The prelude every program runs after (see its header).
pub const PRELUDE: &str = include_str!("../../difftest/prelude.js");

/// How long one program's event loop may run (wall clock) before it counts as a hang.
pub const PROGRAM_DEADLINE: Duration = Duration::from_secs(10);

/// The last log line when the event loop did not go idle before the deadline.
pub const HANG_LINE: &str = "!hang: the event loop did not go idle";

/// Which implementation a run uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The WHATWG reference implementation (patched, see `oracle`).
    Ref,
    /// boa_streams with its fast paths on.
    Ours,
    /// boa_streams with its fast paths off.
    OursSlow,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Ref => "ref",
            Mode::Ours => "ours",
            Mode::OursSlow => "ours-slow",
        }
    }
}

/// The log of one run: the prelude's lines, then one line per host error (`!uncaught ...`,
/// `!unhandled ...`), then [`HANG_LINE`] or `!panic ...` when that happened.
pub type Log = Vec<String>;

/// A host for one mode, created on demand.
pub struct Runner {
    mode: Mode,
    oracle: Arc<str>,
    host: Option<Host>,
}

impl Runner {
    pub fn new(mode: Mode, oracle: Arc<str>) -> Self {
        Self {
            mode,
            oracle,
            host: None,
        }
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    fn set_fast_paths(&self) {
        boa_web::set_fast_paths(self.mode != Mode::OursSlow);
    }

    fn make_host(&self) -> Result<Host, String> {
        self.set_fast_paths();
        let mut host = Host::new(HostOptions {
            expose_gc: false,
            virtual_time: true,
            print_errors: false,
            ..HostOptions::unrestricted()
        })
        .map_err(|e| format!("cannot create a host: {e}"))?;
        if self.mode == Mode::Ref {
            install_abort_hooks(&mut host)?;
            host.eval_source(&self.oracle, "streams-refimpl.js")
                .map_err(|e| format!("the reference implementation threw while loading: {e}"))?;
            host.eval_source("Object.assign(globalThis, ReferenceStreams);", "assign.js")
                .map_err(|e| format!("Object.assign(globalThis, ReferenceStreams) threw: {e}"))?;
        }
        host.eval_source(PRELUDE, "prelude.js")
            .map_err(|e| format!("the prelude threw: {e}"))?;
        // The native stream ends (`nativeSource`, `nativeSink`): Rust in our modes, their JS
        // equivalents on the reference implementation.
        if self.mode == Mode::Ref {
            host.eval_source(crate::native::REF_ENDS, "native-ends.js")
                .map_err(|e| format!("the native ends threw: {e}"))?;
        } else {
            crate::native::install(host.context())
                .map_err(|e| format!("cannot install the native ends: {e}"))?;
        }
        host.run_event_loop(None);
        let _ = host.take_errors();
        Ok(host)
    }

    /// Run `program` in a new host (dropped afterwards).
    pub fn run_fresh(&mut self, program: &str, name: &str, wrap: bool) -> Log {
        self.host = None;
        let log = self.run_batched(program, name, wrap);
        self.host = None;
        log
    }

    /// Run `program` in this runner's host (created if needed). With `wrap`, the program is
    /// the body of a function (generated programs are written for that).
    pub fn run_batched(&mut self, program: &str, name: &str, wrap: bool) -> Log {
        let source = if wrap {
            format!("(function () {{\n{program}\n}})();\n")
        } else {
            program.to_owned()
        };
        if self.host.is_none() {
            match self.make_host() {
                Ok(host) => self.host = Some(host),
                Err(e) => return vec![format!("!setup {e}")],
            }
        }
        self.set_fast_paths();
        let mut host = self.host.take();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let host = host.as_mut()?;
            Some(run_in(host, &source, name))
        }));
        match outcome {
            Ok(Some((log, idle))) => {
                if idle {
                    self.host = host;
                }
                log
            }
            Ok(None) => vec!["!setup no host".into()],
            Err(payload) => {
                // The host may be inconsistent after a panic: drop it (it may panic again
                // while dropping, which we also contain).
                let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || drop(host)));
                vec![format!("!panic {}", panic_text(payload.as_ref()))]
            }
        }
    }
}

fn run_in(host: &mut Host, source: &str, name: &str) -> (Log, bool) {
    let _ = host.take_errors();
    let global = host.context().global_object();
    if let Ok(reset) = global.get(js_string!("__difftestReset"), host.context()) {
        if let Some(f) = reset.as_callable() {
            let _ = f.call(&JsValue::undefined(), &[], host.context());
        }
    }
    if let Err(e) = host.eval_source(source, name) {
        host.report_exception(e);
    }
    let outcome = host.run_event_loop(Some(Instant::now() + PROGRAM_DEADLINE));
    let mut log = read_lines(host);
    for e in host.take_errors() {
        log.push(error_line(&e));
    }
    let idle = outcome == LoopOutcome::Idle;
    if !idle {
        log.push(HANG_LINE.into());
    }
    (log, idle)
}

fn read_lines(host: &mut Host) -> Log {
    let context = host.context();
    let global = context.global_object();
    let Ok(value) = global.get(js_string!("__difftestLines"), context) else {
        return vec!["!setup __difftestLines is missing".into()];
    };
    let Some(array) = value
        .as_object()
        .and_then(|o| JsArray::from_object(o.clone()).ok())
    else {
        return vec!["!setup __difftestLines is not an array".into()];
    };
    let len = array.length(context).unwrap_or(0);
    let mut out = Vec::with_capacity(len as usize);
    for i in 0..len {
        let line = array
            .get(i, context)
            .ok()
            .and_then(|v| v.as_string().map(|s| s.to_std_string_escaped()))
            .unwrap_or_else(|| "!setup non-string line".into());
        out.push(line);
    }
    out
}

/// One log line for a host error. Messages of errors the library creates are
/// implementation-defined, so only their kind is kept (`TypeError`, `AbortError`); a plain
/// `Error` (which only programs create) keeps its message; any other thrown value keeps its
/// string form.
pub fn error_line(e: &HostError) -> String {
    let (what, message) = match e {
        HostError::Uncaught { message, .. } => ("!uncaught", message),
        HostError::UnhandledRejection { message, .. } => ("!unhandled", message),
    };
    if std::env::var_os("DIFFTEST_RAW_ERRORS").is_some() {
        return format!("{what} {message}");
    }
    format!("{what} {}", normalise_error_message(message))
}

/// `String(error)` with a library message removed: `TypeError: x` -> `TypeError`.
pub fn normalise_error_message(message: &str) -> String {
    let kind = message.split_once(": ").map_or(message, |(k, _)| k);
    let is_kind = !kind.is_empty()
        && kind.chars().all(|c| c.is_ascii_alphanumeric())
        && (kind.ends_with("Error") || kind.ends_with("Exception"));
    if is_kind && kind != "Error" {
        kind.to_owned()
    } else {
        message.to_owned()
    }
}

fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(non-string payload)".into()
    }
}

/// Where the reference implementation is: `--refimpl`, else `$DIFFTEST_REFIMPL`, else
/// `../shared/refimpl/streams-refimpl.js` beside the repository (or beside any ancestor, for
/// worktrees nested one level deeper).
pub fn find_refimpl(repo_root: &Path, flag: Option<PathBuf>) -> Result<PathBuf, String> {
    if let Some(p) = flag.or_else(|| std::env::var_os("DIFFTEST_REFIMPL").map(PathBuf::from)) {
        return Ok(p);
    }
    let rel = Path::new("shared/refimpl/streams-refimpl.js");
    let mut dir = repo_root.parent();
    while let Some(d) = dir {
        let candidate = d.join(rel);
        if candidate.is_file() {
            return Ok(candidate);
        }
        dir = d.parent();
    }
    Err(format!(
        "cannot find ../shared/refimpl/streams-refimpl.js from {} (use --refimpl PATH or DIFFTEST_REFIMPL)",
        repo_root.display()
    ))
}

/// The hooks of the oracle patch `pipe-abort-algorithm` (see `oracle.rs`): a global
/// `__difftestAbortHooks` with `add(signal, algorithm)` (returns an id) and `remove(signal,
/// id)` over the host signal's abort algorithms. The patched bundle captures and deletes it
/// while it loads, so programs never see it.
fn install_abort_hooks(host: &mut Host) -> Result<(), String> {
    use boa_engine::object::builtins::JsFunction;
    use boa_engine::object::ObjectInitializer;
    use boa_engine::property::Attribute;
    use boa_engine::{JsNativeError, NativeFunction};
    use boa_web::boa_dom::{add_abort_algorithm, remove_abort_algorithm, AbortAlgorithmId};

    fn add(
        _: &JsValue,
        args: &[JsValue],
        _: &mut boa_engine::Context,
    ) -> boa_engine::JsResult<JsValue> {
        let signal = args.first().and_then(JsValue::as_object);
        let algorithm = args
            .get(1)
            .and_then(JsValue::as_object)
            .and_then(JsFunction::from_object);
        match (signal, algorithm) {
            (Some(signal), Some(algorithm)) => {
                let id = add_abort_algorithm(&signal, algorithm);
                Ok(JsValue::from(id.0 as f64))
            }
            _ => Err(JsNativeError::typ()
                .with_message("difftest abort hook: bad arguments")
                .into()),
        }
    }
    fn remove(
        _: &JsValue,
        args: &[JsValue],
        _: &mut boa_engine::Context,
    ) -> boa_engine::JsResult<JsValue> {
        let signal = args.first().and_then(JsValue::as_object);
        let id = args.get(1).and_then(JsValue::as_number);
        if let (Some(signal), Some(id)) = (signal, id) {
            remove_abort_algorithm(&signal, AbortAlgorithmId(id as u64));
        }
        Ok(JsValue::undefined())
    }
    let ctx = host.context();
    let hooks = ObjectInitializer::new(ctx)
        .function(NativeFunction::from_fn_ptr(add), js_string!("add"), 2)
        .function(NativeFunction::from_fn_ptr(remove), js_string!("remove"), 2)
        .build();
    ctx.register_global_property(js_string!("__difftestAbortHooks"), hooks, Attribute::all())
        .map_err(|e| format!("cannot install the abort hooks: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn library_messages_are_dropped_user_errors_kept() {
        assert_eq!(
            normalise_error_message("TypeError: the stream is locked"),
            "TypeError"
        );
        assert_eq!(
            normalise_error_message("AbortError: signal is aborted"),
            "AbortError"
        );
        assert_eq!(normalise_error_message("Error: boom"), "Error: boom");
        assert_eq!(normalise_error_message("Error"), "Error");
        assert_eq!(normalise_error_message("RangeError"), "RangeError");
        assert_eq!(
            normalise_error_message("some string: with colon"),
            "some string: with colon"
        );
        assert_eq!(normalise_error_message("42"), "42");
    }
}
