//! The global `process`: the part of Node's that packages probe.
//!
//! * `env`: the environment, read on first access into a plain object (later changes to
//!   the object stay in the program) when the context's capabilities grant `env`
//!   (`boa_webidl::capabilities`, `--allow-env` under `--permission`); denied, reading
//!   `process.env` throws a TypeError naming the capability (as Deno's permissions do);
//! * `argv` (`[execPath, scriptPath, ...scriptArgs]`), `argv0`, `execPath`, `execArgv`
//!   (empty), `platform`, `arch`, `pid`, `title`, `cwd()`;
//! * `exit(code)`: the run ends at once (the code after the call does not run, the event
//!   loop stops and drops what is queued); `Host::exit_requested` gives the code
//!   (the CLI exits with it). `exitCode`: the code of a run that ends normally
//!   (`Host::process_exit_code`);
//! * `nextTick(fn, ...args)`: Node's next-tick queue: each microtask checkpoint runs every
//!   queued tick (those the ticks queue included) before the promise jobs, and again after
//!   them while ticks were queued meanwhile (a tick queued by a promise job runs once the
//!   promise jobs are all done). An ES module's body runs in a promise job (its evaluation),
//!   so there, as in Node, the promise jobs it queued run before its ticks; after a classic
//!   script or a CommonJS main module, its ticks run first;
//! * `on`/`once`/`off`/`addListener`/`removeListener`/`removeAllListeners`/`emit`/
//!   `listeners`/`listenerCount`: `'SIGINT'` and `'SIGTERM'` listeners are called, as a
//!   task, when the embedder delivers that signal (`SignalHandle`; the CLI does on Unix);
//!   other events are stored and emitted only by `emit`;
//! * `stdout.write`/`stderr.write` (strings or bytes; `isTTY` false);
//! * `versions` is `{ boa_streams }` and there is no `version`: packages that find
//!   `versions.node` take their Node code paths, which need Node's built-ins.

use boa_engine::object::builtins::JsArray;
use boa_engine::object::{JsObject, ObjectInitializer};
use boa_engine::property::Attribute;
use boa_engine::{
    js_string, Context, JsError, JsNativeError, JsResult, JsString, JsValue, NativeFunction, Source,
};
use std::io::Write;

use crate::event_loop::EventLoop;
use crate::signals::Signal;

const PROCESS_JS: &str = include_str!("process.js");

/// Whether `process.env` may show the environment: the context's capability policy (the one
/// place that decides).
fn check_env(context: &Context) -> JsResult<()> {
    boa_web::capabilities::Capabilities::of(context)
        .check_env()
        .map_err(|denied| denied.to_error("process.env"))
}

/// `process.argv`'s parts.
#[derive(Debug, Clone, Default)]
pub(crate) struct Argv {
    pub(crate) script: Option<String>,
    pub(crate) args: Vec<String>,
}

fn exec_path() -> String {
    std::env::current_exe()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|_| "boa-streams".to_owned())
}

fn argv_array(argv: &Argv, context: &mut Context) -> JsArray {
    let mut items = vec![exec_path()];
    items.extend(argv.script.clone());
    items.extend(argv.args.iter().cloned());
    JsArray::from_iter(
        items.into_iter().map(|s| JsString::from(s.as_str()).into()),
        context,
    )
}

/// Set `process.argv` (and remember it) after the script path or arguments change.
pub(crate) fn update_argv(context: &mut Context, change: impl FnOnce(&mut Argv)) -> JsResult<()> {
    let mut argv = context.get_data::<Argv>().cloned().unwrap_or_default();
    change(&mut argv);
    let array = argv_array(&argv, context);
    context.insert_data(argv);
    let process = context
        .downcast_job_executor::<EventLoop>()
        .and_then(|l| l.shared.process.borrow().as_ref().map(|(p, _)| p.clone()));
    if let Some(process) = process {
        process.set(js_string!("argv"), array, false, context)?;
    }
    Ok(())
}

fn env_object(context: &mut Context) -> JsResult<JsValue> {
    check_env(context)?;
    let object = JsObject::with_object_proto(context.intrinsics());
    for (key, value) in std::env::vars_os() {
        let key = JsString::from(key.to_string_lossy().as_ref());
        let value = JsString::from(value.to_string_lossy().as_ref());
        object.create_data_property_or_throw(key, value, context)?;
    }
    Ok(object.into())
}

fn exit(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let code = match args.first() {
        None => 0,
        Some(v) if v.is_undefined() || v.is_null() => 0,
        Some(v) => {
            let n = v.to_number(context)?;
            if !n.is_finite() || n.fract() != 0.0 {
                return Err(JsNativeError::range()
                    .with_message(format!(
                        "process.exit: the code must be an integer (got {n})"
                    ))
                    .into());
            }
            // As a process exit status: the low 8 bits.
            (n.rem_euclid(256.0)) as i32
        }
    };
    if let Some(event_loop) = context.downcast_job_executor::<EventLoop>() {
        event_loop.shared.exit.set(Some(code));
    }
    // Unwind the program: an error scripts cannot catch.
    Err(JsError::from(boa_engine::error::PanicError::new(format!(
        "process.exit({code})"
    ))))
}

fn write_to(out: &mut dyn Write, args: &[JsValue]) {
    if let Some(text) = args.first().and_then(JsValue::as_string) {
        let _ = out.write_all(text.to_std_string_escaped().as_bytes());
        let _ = out.flush();
    }
}

fn listen(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let name = args
        .first()
        .and_then(JsValue::as_string)
        .map(|s| s.to_std_string_escaped())
        .unwrap_or_default();
    let on = args.get(1).is_some_and(JsValue::to_boolean);
    let signal = match name.as_str() {
        "SIGINT" => Signal::Interrupt,
        "SIGTERM" => Signal::Terminate,
        _ => return Ok(JsValue::undefined()),
    };
    if let Some(event_loop) = context.downcast_job_executor::<EventLoop>() {
        event_loop.signals.set_listening(signal, on);
    }
    Ok(JsValue::undefined())
}

/// `natives.nextTick(callback, ...args)`: queue a tick on the host's event loop; `false` if
/// the context runs another job executor (process.js then queues a microtask).
fn next_tick(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let Some(callback) = args.first().and_then(JsValue::as_callable) else {
        return Err(JsNativeError::typ()
            .with_message("process.nextTick: the \"callback\" argument must be a function")
            .into());
    };
    let Some(event_loop) = context.downcast_job_executor::<EventLoop>() else {
        return Ok(false.into());
    };
    event_loop.queue_tick(callback.clone(), args.get(1..).unwrap_or_default().to_vec());
    Ok(true.into())
}

/// Install the global `process`.
pub(crate) fn register(context: &mut Context) -> JsResult<()> {
    let argv = argv_array(&Argv::default(), context);
    let natives = ObjectInitializer::new(context)
        .function(
            NativeFunction::from_fn_ptr(|_, _, c| env_object(c)),
            js_string!("env"),
            0,
        )
        .function(
            NativeFunction::from_fn_ptr(|_, _, _| {
                let dir = std::env::current_dir().map_err(|e| {
                    JsError::from(
                        JsNativeError::error().with_message(format!("process.cwd(): {e}")),
                    )
                })?;
                Ok(JsString::from(dir.to_string_lossy().as_ref()).into())
            }),
            js_string!("cwd"),
            0,
        )
        .function(NativeFunction::from_fn_ptr(exit), js_string!("exit"), 1)
        .function(
            NativeFunction::from_fn_ptr(|_, args, _| {
                write_to(&mut std::io::stdout().lock(), args);
                Ok(JsValue::undefined())
            }),
            js_string!("stdout"),
            1,
        )
        .function(
            NativeFunction::from_fn_ptr(|_, args, _| {
                write_to(&mut std::io::stderr().lock(), args);
                Ok(JsValue::undefined())
            }),
            js_string!("stderr"),
            1,
        )
        .function(NativeFunction::from_fn_ptr(listen), js_string!("listen"), 2)
        .function(
            NativeFunction::from_fn_ptr(next_tick),
            js_string!("nextTick"),
            1,
        )
        .property(js_string!("argv"), argv, Attribute::all())
        .property(
            js_string!("platform"),
            js_string!(std::env::consts::OS),
            Attribute::all(),
        )
        .property(
            js_string!("arch"),
            JsString::from(node_arch()),
            Attribute::all(),
        )
        .property(js_string!("pid"), std::process::id(), Attribute::all())
        .property(
            js_string!("version"),
            js_string!(env!("CARGO_PKG_VERSION")),
            Attribute::all(),
        )
        .build();
    let setup = context.eval(Source::from_bytes(PROCESS_JS))?;
    let Some(setup) = setup.as_callable() else {
        return Ok(());
    };
    let made = setup.call(&JsValue::undefined(), &[natives.into()], context)?;
    let Some(made) = made.as_object() else {
        return Ok(());
    };
    let process = made.get(0, context)?;
    let dispatcher = made.get(1, context)?;
    if let (Some(process), Some(dispatcher)) = (process.as_object(), dispatcher.as_object()) {
        if let Some(event_loop) = context.downcast_job_executor::<EventLoop>() {
            *event_loop.shared.process.borrow_mut() = Some((process.clone(), dispatcher.clone()));
        }
        context.register_global_property(
            js_string!("process"),
            process.clone(),
            Attribute::WRITABLE | Attribute::CONFIGURABLE,
        )?;
    }
    Ok(())
}

/// Node's name for the CPU architecture.
fn node_arch() -> &'static str {
    match std::env::consts::ARCH {
        "x86_64" => "x64",
        "x86" => "ia32",
        "aarch64" => "arm64",
        "powerpc64" => "ppc64",
        other => other,
    }
}

/// `process.exitCode` as the program left it (an integer), if any.
pub(crate) fn exit_code(context: &mut Context) -> Option<i32> {
    let process = context
        .downcast_job_executor::<EventLoop>()
        .and_then(|l| l.shared.process.borrow().as_ref().map(|(p, _)| p.clone()))?;
    let code = process.get(js_string!("exitCode"), context).ok()?;
    let n = code.as_number()?;
    (n.is_finite() && n.fract() == 0.0).then(|| n.rem_euclid(256.0) as i32)
}
