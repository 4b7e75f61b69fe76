//! Dedicated workers: `new Worker(url)` runs a script in its own `Host` (its own Boa
//! context and event loop) on its own thread. The worker and its creator talk over an
//! entangled pair of boa_streams `MessagePort`s that spans the two threads: messages are
//! structured-serialized into `Send` Rust values at `postMessage` and deserialized by the
//! receiving thread's event loop, one task per message. Any MessagePort or stream can be
//! transferred the same way (a transferred `ReadableStream` is read in the other thread
//! through its cross-realm port pair, with backpressure).
//!
//! # Lifetime
//!
//! The threads that share workers form a group (`worker_group`). A thread whose event loop has nothing
//! left (no microtask, timer or async job) is *idle*; a message for one of its ports makes it
//! busy again. When every thread of the group is idle and no message is queued for any of
//! them, the whole group is quiescent: every event loop returns, so the main script's
//! `run_event_loop` ends and the worker threads finish. `worker.terminate()` stops the
//! worker: its event loop runs no further task (a script or microtask checkpoint already
//! running ends first: Boa cannot abort running script) and every port of the worker is
//! closed, so their partners get a `close` event. `close()` in the worker closes its port
//! to the creator (the worker then finishes when it is idle).
//!
//! # Errors
//!
//! An exception the worker reports (uncaught in its script or a task) fires `error` at the
//! worker's global first; if no listener cancels it, an `ErrorEvent` named `error` (its
//! `message`, `filename` the worker's script) is fired at the `Worker` object in the creator,
//! and if that is not canceled either, the exception is reported in the creator (recorded
//! there as uncaught). A worker script that cannot be read throws from `new Worker()`.
//!
//! `new Worker()` needs the worker capability and its script the fs-read capability (the
//! context's `Capabilities`; a TypeError naming the capability otherwise); the worker runs
//! with its creator's capabilities.
//!
//! `new Worker(url, { type: "module" })` runs the file as an ES module (its imports resolve
//! from its own path, with the `worker` condition active); `type` is `"classic"` by default
//! and any other value is a TypeError.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::thread::ThreadId;

use boa_engine::{js_string, Context, JsNativeError, JsResult, JsValue, NativeFunction};
use boa_web::boa_html::message;

use crate::options::HostOptions;
use crate::stack::{LARGE_STACK_SIZE, ON_LARGE_STACK};
use crate::worker_group::Group;

/// The group of `context`'s event loop, created (with this thread as a member) if needed.
fn group_of(context: &mut Context) -> Option<Arc<Group>> {
    let event_loop = context.downcast_job_executor::<crate::event_loop::EventLoop>()?;
    let existing = event_loop.group.borrow().clone();
    if let Some(g) = existing {
        return Some(g);
    }
    let group = Group::new();
    group.join();
    *event_loop.group.borrow_mut() = Some(group.clone());
    Some(group)
}

/// The directory relative to which worker URLs resolve (the main script's).
pub(crate) struct ScriptBase(pub(crate) PathBuf);

fn resolve(url: &str, context: &Context) -> PathBuf {
    if url.starts_with("file:") {
        if let Ok(path) = url::Url::parse(url).and_then(|u| {
            u.to_file_path()
                .map_err(|()| url::ParseError::RelativeUrlWithoutBase)
        }) {
            return path;
        }
    }
    let path = Path::new(url.strip_prefix("file://").unwrap_or(url));
    if path.is_absolute() {
        return path.to_owned();
    }
    match context.get_data::<ScriptBase>() {
        Some(base) => base.0.join(path),
        None => path.to_owned(),
    }
}

/// The worker threads this context started, by the id `__boaWorkerSpawn` returned.
#[derive(Default)]
struct WorkerThreads(std::cell::RefCell<Vec<ThreadId>>);

/// `__boaWorkerTerminate(id)`: terminate the worker `id` (see the module docs).
fn terminate(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let id = args.first().and_then(JsValue::as_number).unwrap_or(-1.0);
    let thread = context
        .get_data::<WorkerThreads>()
        .and_then(|w| w.0.borrow().get(id as usize).copied())
        .filter(|_| id >= 0.0);
    if let (Some(thread), Some(group)) = (thread, group_of(context)) {
        group.terminate(thread);
    }
    Ok(JsValue::undefined())
}

/// `__boaWorkerReport(message)`: report, in the creator, an error of a worker that neither
/// the worker's global nor the `Worker` object handled.
fn report(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let message = args.first().cloned().unwrap_or_default();
    if let Some(event_loop) = context.downcast_job_executor::<crate::event_loop::EventLoop>() {
        event_loop
            .shared
            .report_exception(boa_engine::JsError::from_opaque(message), context);
    }
    Ok(JsValue::undefined())
}

/// `__boaWorkerSpawn(url)`: start a worker thread running `url`; returns `[port, id,
/// errorPort]`: this side's port, the worker's id (for `__boaWorkerTerminate`) and the port
/// on which the worker's unhandled errors arrive.
fn spawn(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let url = args
        .first()
        .cloned()
        .unwrap_or_default()
        .to_string(context)?
        .to_std_string_escaped();
    let module = args.get(1).is_some_and(JsValue::to_boolean);
    // The context's capabilities: starting a worker, and reading its script; the worker
    // runs with the creator's capabilities (below).
    let capabilities = boa_web::Capabilities::of(context);
    let denied = |d: boa_web::capabilities::Denied| d.to_error(&format!("new Worker(\"{url}\")"));
    capabilities.check_worker().map_err(denied)?;
    let path = capabilities
        .check_read(&resolve(&url, context))
        .map_err(denied)?;
    let source = std::fs::read_to_string(&path).map_err(|e| {
        JsNativeError::error().with_message(format!("Worker: cannot read {}: {e}", path.display()))
    })?;
    let group = group_of(context)
        .ok_or_else(|| JsNativeError::typ().with_message("Worker needs the host event loop"))?;
    let Some((mut options, main)) = context
        .get_data::<WorkerOptions>()
        .map(|o| (o.options.clone(), o.main))
    else {
        return Err(JsNativeError::typ()
            .with_message("Worker needs the host event loop")
            .into());
    };
    options.capabilities = (*capabilities).clone();
    let (here, there) = message::create_entangled_ports(context)?;
    let handle = message::ship_port(&there, context)?;
    let (errors_here, errors_there) = message::create_entangled_ports(context)?;
    let error_handle = message::ship_port(&errors_there, context)?;
    let name = path.to_string_lossy().into_owned();
    let base = path.parent().map(Path::to_owned);
    // The worker joins the group before this call returns, so the group cannot look
    // quiescent while it starts.
    let (started_tx, started_rx) = std::sync::mpsc::channel::<()>();
    let group_for_thread = group.clone();
    let filename = url.clone();
    let thread = std::thread::Builder::new()
        .name(format!("worker {name}"))
        .stack_size(LARGE_STACK_SIZE)
        .spawn(move || {
            ON_LARGE_STACK.with(|f| f.set(true));
            group_for_thread.join();
            let _ = started_tx.send(());
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                main(WorkerStart {
                    group: group_for_thread.clone(),
                    options,
                    port: handle,
                    errors: error_handle,
                    filename,
                    module,
                    source,
                    name: name.clone(),
                    base,
                });
            }));
            if result.is_err() {
                eprintln!("worker {name}: the engine panicked");
            }
            group_for_thread.leave();
        })
        .map_err(|e| JsNativeError::error().with_message(format!("Worker: cannot start: {e}")))?;
    let _ = started_rx.recv();
    let id = {
        if context.get_data::<WorkerThreads>().is_none() {
            context.insert_data(WorkerThreads::default());
        }
        let threads = context
            .get_data::<WorkerThreads>()
            .ok_or_else(|| JsNativeError::typ().with_message("Worker: no thread table"))?;
        let mut threads = threads.0.borrow_mut();
        threads.push(thread.thread().id());
        threads.len() - 1
    };
    Ok(boa_engine::object::builtins::JsArray::from_iter(
        [here.into(), JsValue::from(id as f64), errors_here.into()],
        context,
    )
    .into())
}

/// What a worker thread starts with.
pub(crate) struct WorkerStart {
    /// The group the thread joined.
    pub(crate) group: Arc<Group>,
    /// The worker host's options (the creator's, with its capabilities).
    pub(crate) options: HostOptions,
    /// The worker's end of its port to the creator.
    pub(crate) port: message::PortHandle,
    /// The worker's end of the port its unhandled errors go through.
    pub(crate) errors: message::PortHandle,
    /// The script URL as given to `new Worker()` (the `filename` of its error events).
    pub(crate) filename: String,
    /// `{ type: "module" }`: the script is an ES module.
    pub(crate) module: bool,
    /// The script's text and its name (its path).
    pub(crate) source: String,
    pub(crate) name: String,
    /// The directory its worker URLs resolve against.
    pub(crate) base: Option<PathBuf>,
}

/// The body of a worker thread: builds the worker's own host, runs the script and its event
/// loop (the `Host`'s, given to [`register`]: a worker is a host of its own).
pub(crate) type WorkerMain = fn(WorkerStart);

/// The host options workers get (the creator's), and how a worker thread runs.
struct WorkerOptions {
    options: HostOptions,
    main: WorkerMain,
}

/// The `Worker` interface (on the creator's side), written over the native spawn function.
const MAIN_PRELUDE: &str = r#"(function () {
  "use strict";
  const spawn = globalThis.__boaWorkerSpawn;
  const terminate = globalThis.__boaWorkerTerminate;
  const report = globalThis.__boaWorkerReport;
  delete globalThis.__boaWorkerSpawn;
  delete globalThis.__boaWorkerTerminate;
  delete globalThis.__boaWorkerReport;
  const handlers = new WeakMap();
  class Worker extends EventTarget {
    #port;
    #id;
    #errors;
    constructor(url, options) {
      super();
      if (arguments.length < 1) throw new TypeError("Worker: 1 argument required");
      const type = options == null || options.type === undefined ? "classic" : String(options.type);
      if (type !== "classic" && type !== "module") {
        throw new TypeError(`Worker: options.type must be "classic" or "module", not "${type}"`);
      }
      const [port, id, errors] = spawn(String(url), type === "module");
      this.#port = port;
      this.#id = id;
      this.#errors = errors;
      port.onmessage = (e) => this.dispatchEvent(new MessageEvent("message", { data: e.data, ports: e.ports }));
      port.onmessageerror = () => this.dispatchEvent(new MessageEvent("messageerror"));
      errors.onmessage = (e) => {
        const { message, filename } = e.data;
        const event = new ErrorEvent("error", { cancelable: true, message, filename, error: null });
        if (this.dispatchEvent(event)) report(message);
      };
    }
    postMessage(message, transfer) {
      if (arguments.length < 1) throw new TypeError("postMessage: 1 argument required");
      this.#port.postMessage(message, transfer);
    }
    terminate() {
      terminate(this.#id);
      this.#port.close();
      this.#errors.close();
    }
  }
  for (const type of ["message", "messageerror", "error"]) {
    Object.defineProperty(Worker.prototype, "on" + type, {
      get() { return (handlers.get(this) || {})[type] ?? null; },
      set(v) {
        const h = handlers.get(this) || {};
        handlers.set(this, h);
        if (h[type]) this.removeEventListener(type, h[type]);
        h[type] = typeof v === "function" ? v : null;
        if (h[type]) this.addEventListener(type, h[type]);
      },
      enumerable: true, configurable: true,
    });
  }
  Object.defineProperty(Worker.prototype, Symbol.toStringTag, { value: "Worker", configurable: true });
  Object.defineProperty(globalThis, "Worker", { value: Worker, writable: true, configurable: true });
})();"#;

/// The worker global scope's `postMessage`, `onmessage`, `onmessageerror`, `close`.
pub(crate) const WORKER_PRELUDE: &str = r#"(function () {
  "use strict";
  const port = globalThis.__boaWorkerPort;
  const errors = globalThis.__boaWorkerErrorPort;
  const filename = globalThis.__boaWorkerFilename;
  delete globalThis.__boaWorkerPort;
  delete globalThis.__boaWorkerErrorPort;
  delete globalThis.__boaWorkerFilename;
  port.onmessage = (e) => globalThis.dispatchEvent(new MessageEvent("message", { data: e.data, ports: e.ports }));
  port.onmessageerror = () => globalThis.dispatchEvent(new MessageEvent("messageerror"));
  const define = (name, value) => Object.defineProperty(globalThis, name, { value, writable: true, configurable: true });
  define("postMessage", function postMessage(message, transfer) {
    if (arguments.length < 1) throw new TypeError("postMessage: 1 argument required");
    port.postMessage(message, transfer);
  });
  define("close", function close() { port.close(); });
  const handlers = {};
  for (const type of ["message", "messageerror"]) {
    Object.defineProperty(globalThis, "on" + type, {
      get() { return handlers[type] ?? null; },
      set(v) {
        if (handlers[type]) globalThis.removeEventListener(type, handlers[type]);
        handlers[type] = typeof v === "function" ? v : null;
        if (handlers[type]) globalThis.addEventListener(type, handlers[type]);
      },
      enumerable: true, configurable: true,
    });
  }
  // The host's error forwarder: an error the worker's global did not handle goes to the
  // Worker object.
  return function forwardError(message) {
    try { errors.postMessage({ message: String(message), filename }); } catch (e) {}
  };
})();"#;

/// Install `Worker` on the main host's global; `main` runs each worker thread.
pub(crate) fn register(
    context: &mut Context,
    options: &HostOptions,
    main: WorkerMain,
) -> JsResult<()> {
    context.insert_data(WorkerOptions {
        options: options.clone(),
        main,
    });
    context.register_global_callable(
        js_string!("__boaWorkerSpawn"),
        1,
        NativeFunction::from_fn_ptr(spawn),
    )?;
    context.register_global_callable(
        js_string!("__boaWorkerTerminate"),
        1,
        NativeFunction::from_fn_ptr(terminate),
    )?;
    context.register_global_callable(
        js_string!("__boaWorkerReport"),
        1,
        NativeFunction::from_fn_ptr(report),
    )?;
    context.eval(boa_engine::Source::from_bytes(MAIN_PRELUDE))?;
    Ok(())
}
