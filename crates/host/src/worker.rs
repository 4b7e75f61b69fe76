//! Dedicated workers: `new Worker(url)` runs a script in its own [`Host`] (its own Boa
//! context and event loop) on its own thread. The worker and its creator talk over an
//! entangled pair of boa_streams `MessagePort`s that spans the two threads: messages are
//! structured-serialized into `Send` Rust values at `postMessage` and deserialized by the
//! receiving thread's event loop, one task per message. Any MessagePort or stream can be
//! transferred the same way (a transferred `ReadableStream` is read in the other thread
//! through its cross-realm port pair, with backpressure).
//!
//! # Lifetime
//!
//! The threads that share workers form a [`Group`]. A thread whose event loop has nothing
//! left (no microtask, timer or async job) is *idle*; a message for one of its ports makes it
//! busy again. When every thread of the group is idle and no message is queued for any of
//! them, the whole group is quiescent: every event loop returns, so the main script's
//! `run_event_loop` ends and the worker threads finish. `worker.terminate()` closes the
//! worker's port (the worker then finishes when it is idle); `close()` in the worker does
//! the same from the inside.

use std::collections::{HashMap, HashSet, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::{Thread, ThreadId};
use std::time::Instant;

use boa_engine::{js_string, Context, JsNativeError, JsResult, JsValue, NativeFunction};
use boa_streams::message;

use crate::{Host, HostOptions};

/// The threads (event loops) that exchange messages.
pub(crate) struct Group {
    state: Mutex<GroupState>,
    changed: Condvar,
}

#[derive(Default)]
struct GroupState {
    /// Member threads (and how to unpark them).
    members: HashMap<ThreadId, Thread>,
    /// Members whose event loop is idle.
    idle: HashSet<ThreadId>,
    /// Port ids with a message to deliver, per member.
    queues: HashMap<ThreadId, VecDeque<u64>>,
}

/// What an idle event loop learns when it waits.
pub(crate) enum Wake {
    /// A message arrived for this thread.
    Message,
    /// Every member is idle with nothing queued: the loop ends.
    Quiescent,
    /// The deadline passed.
    Deadline,
}

impl Group {
    fn new() -> Arc<Self> {
        Arc::new(Self {
            state: Mutex::new(GroupState::default()),
            changed: Condvar::new(),
        })
    }

    fn lock(&self) -> MutexGuard<'_, GroupState> {
        // Every update under the lock is a single insert/remove: a poisoned lock is usable.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Add the current thread (busy) and install its port notifier.
    fn join(self: &Arc<Self>) {
        let thread = std::thread::current();
        let id = thread.id();
        self.lock().members.insert(id, thread);
        let group = self.clone();
        message::set_port_notifier(Arc::new(move |port| group.notify(id, port)));
    }

    /// Remove the current thread.
    fn leave(&self) {
        let id = std::thread::current().id();
        message::clear_port_notifier();
        let mut s = self.lock();
        s.members.remove(&id);
        s.idle.remove(&id);
        s.queues.remove(&id);
        drop(s);
        self.changed.notify_all();
    }

    /// A message for port `port` of member `member`: queue it, mark the member busy, wake it.
    fn notify(&self, member: ThreadId, port: u64) {
        let mut s = self.lock();
        s.queues.entry(member).or_default().push_back(port);
        s.idle.remove(&member);
        let thread = s.members.get(&member).cloned();
        drop(s);
        self.changed.notify_all();
        if let Some(t) = thread {
            t.unpark();
        }
    }

    /// The next port id queued for the current thread.
    pub(crate) fn take(&self) -> Option<u64> {
        let id = std::thread::current().id();
        self.lock()
            .queues
            .get_mut(&id)
            .and_then(VecDeque::pop_front)
    }

    /// The current thread's loop is idle: wait for a message or for quiescence.
    pub(crate) fn wait_idle(&self, deadline: Option<Instant>) -> Wake {
        let id = std::thread::current().id();
        let mut s = self.lock();
        s.idle.insert(id);
        self.changed.notify_all();
        loop {
            if s.queues.get(&id).is_some_and(|q| !q.is_empty()) {
                s.idle.remove(&id);
                return Wake::Message;
            }
            let quiescent = s.members.keys().all(|m| s.idle.contains(m))
                && s.queues.values().all(VecDeque::is_empty);
            if quiescent {
                return Wake::Quiescent;
            }
            match deadline {
                Some(d) => {
                    let left = d.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        s.idle.remove(&id);
                        return Wake::Deadline;
                    }
                    s = self
                        .changed
                        .wait_timeout(s, left)
                        .map(|(g, _)| g)
                        .unwrap_or_else(|e| e.into_inner().0);
                }
                None => {
                    s = self.changed.wait(s).unwrap_or_else(|e| e.into_inner());
                }
            }
        }
    }
}

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
    let path = Path::new(url.strip_prefix("file://").unwrap_or(url));
    if path.is_absolute() {
        return path.to_owned();
    }
    match context.get_data::<ScriptBase>() {
        Some(base) => base.0.join(path),
        None => path.to_owned(),
    }
}

/// `__boaWorkerSpawn(url)`: start a worker thread running `url`; returns this side's port.
fn spawn(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let url = args
        .first()
        .cloned()
        .unwrap_or_default()
        .to_string(context)?
        .to_std_string_escaped();
    let path = resolve(&url, context);
    let source = std::fs::read_to_string(&path).map_err(|e| {
        JsNativeError::error().with_message(format!("Worker: cannot read {}: {e}", path.display()))
    })?;
    let group = group_of(context)
        .ok_or_else(|| JsNativeError::typ().with_message("Worker needs the host event loop"))?;
    let options = context
        .get_data::<WorkerOptions>()
        .map(|o| o.0.clone())
        .unwrap_or_default();
    let (here, there) = message::create_entangled_ports(context)?;
    let handle = message::ship_port(&there, context)?;
    let name = path.to_string_lossy().into_owned();
    let base = path.parent().map(Path::to_owned);
    // The worker joins the group before this call returns, so the group cannot look
    // quiescent while it starts.
    let (started_tx, started_rx) = std::sync::mpsc::channel::<()>();
    let group_for_thread = group.clone();
    std::thread::Builder::new()
        .name(format!("worker {name}"))
        .stack_size(crate::LARGE_STACK_SIZE)
        .spawn(move || {
            crate::ON_LARGE_STACK.with(|f| f.set(true));
            group_for_thread.join();
            let _ = started_tx.send(());
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                run_worker(&group_for_thread, options, handle, &source, &name, base)
            }));
            if result.is_err() {
                eprintln!("worker {name}: the engine panicked");
            }
            group_for_thread.leave();
        })
        .map_err(|e| JsNativeError::error().with_message(format!("Worker: cannot start: {e}")))?;
    let _ = started_rx.recv();
    Ok(here.into())
}

/// The body of a worker thread.
fn run_worker(
    group: &Arc<Group>,
    options: HostOptions,
    port: message::PortHandle,
    source: &str,
    name: &str,
    base: Option<PathBuf>,
) {
    let Ok(mut host) = Host::new(options) else {
        eprintln!("worker {name}: cannot set up the host");
        return;
    };
    if let Some(event_loop) = host
        .context
        .downcast_job_executor::<crate::event_loop::EventLoop>()
    {
        *event_loop.group.borrow_mut() = Some(group.clone());
    }
    if let Some(base) = base {
        host.context.insert_data(ScriptBase(base));
    }
    let setup = (|| -> JsResult<()> {
        let port = message::receive_port(port, &mut host.context)?;
        host.context.register_global_property(
            js_string!("__boaWorkerPort"),
            port,
            boa_engine::property::Attribute::all(),
        )?;
        host.eval_source(WORKER_PRELUDE, "worker prelude")?;
        Ok(())
    })();
    if let Err(e) = setup {
        host.report_exception(e);
        return;
    }
    if let Err(e) = host.eval_source(source, name) {
        host.report_exception(e);
    }
    host.run_event_loop(None);
}

/// The host options workers get (the creator's).
#[derive(Clone)]
pub(crate) struct WorkerOptions(pub(crate) HostOptions);

/// The `Worker` interface (on the creator's side), written over the native spawn function.
const MAIN_PRELUDE: &str = r#"(function () {
  "use strict";
  const spawn = globalThis.__boaWorkerSpawn;
  delete globalThis.__boaWorkerSpawn;
  const handlers = new WeakMap();
  class Worker extends EventTarget {
    #port;
    constructor(url, options) {
      super();
      if (arguments.length < 1) throw new TypeError("Worker: 1 argument required");
      const port = spawn(String(url));
      this.#port = port;
      port.onmessage = (e) => this.dispatchEvent(new MessageEvent("message", { data: e.data, ports: e.ports }));
      port.onmessageerror = () => this.dispatchEvent(new MessageEvent("messageerror"));
    }
    postMessage(message, transfer) {
      if (arguments.length < 1) throw new TypeError("postMessage: 1 argument required");
      this.#port.postMessage(message, transfer);
    }
    terminate() { this.#port.close(); }
  }
  for (const type of ["message", "messageerror"]) {
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
const WORKER_PRELUDE: &str = r#"(function () {
  "use strict";
  const port = globalThis.__boaWorkerPort;
  delete globalThis.__boaWorkerPort;
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
})();"#;

/// Install `Worker` on the main host's global.
pub(crate) fn register(context: &mut Context, options: &HostOptions) -> JsResult<()> {
    context.insert_data(WorkerOptions(options.clone()));
    context.register_global_callable(
        js_string!("__boaWorkerSpawn"),
        1,
        NativeFunction::from_fn_ptr(spawn),
    )?;
    context.eval(boa_engine::Source::from_bytes(MAIN_PRELUDE))?;
    Ok(())
}
