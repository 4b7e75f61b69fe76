//! Process signals (`SIGINT`, `SIGTERM`): which ones a host's program listens to, and their
//! delivery from any thread to the host's event loop, which dispatches them as tasks to
//! `process.on(...)` listeners. A leaf: the event loop and `process` both speak it.

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::Mutex;
use std::thread::Thread;

/// A process signal a program can listen to with `process.on(name, listener)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signal {
    /// `SIGINT` (2): Ctrl-C.
    Interrupt,
    /// `SIGTERM` (15): a request to terminate.
    Terminate,
}

impl Signal {
    /// The name listeners use (`"SIGINT"`, `"SIGTERM"`).
    ///
    /// ```
    /// assert_eq!(boa_streams_host::Signal::Terminate.name(), "SIGTERM");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Signal::Interrupt => "SIGINT",
            Signal::Terminate => "SIGTERM",
        }
    }

    /// The signal's number on Unix (2, 15): a process that a signal ends without a
    /// listener exits with 128 plus it.
    ///
    /// ```
    /// assert_eq!(boa_streams_host::Signal::Interrupt.number(), 2);
    /// ```
    pub fn number(self) -> i32 {
        match self {
            Signal::Interrupt => 2,
            Signal::Terminate => 15,
        }
    }

    fn bit(self) -> u8 {
        match self {
            Signal::Interrupt => 1,
            Signal::Terminate => 2,
        }
    }

    fn index(self) -> usize {
        match self {
            Signal::Interrupt => 0,
            Signal::Terminate => 1,
        }
    }
}

/// The signals delivered to one host and which ones it listens to (shared with other
/// threads).
#[derive(Debug, Default)]
pub(crate) struct SignalState {
    pending: AtomicU8,
    listening: [AtomicBool; 2],
    thread: Mutex<Option<Thread>>,
}

impl SignalState {
    pub(crate) fn set_thread(&self, thread: Thread) {
        if let Ok(mut slot) = self.thread.lock() {
            *slot = Some(thread);
        }
    }

    /// Whether the program listens to `signal` (`process.on`/`off` of its name).
    pub(crate) fn set_listening(&self, signal: Signal, on: bool) {
        if let Some(flag) = self.listening.get(signal.index()) {
            flag.store(on, Ordering::SeqCst);
        }
    }

    /// A delivered signal not dispatched yet (SIGINT first).
    pub(crate) fn take_pending(&self) -> Option<Signal> {
        for signal in [Signal::Interrupt, Signal::Terminate] {
            let before = self.pending.fetch_and(!signal.bit(), Ordering::SeqCst);
            if before & signal.bit() != 0 {
                return Some(signal);
            }
        }
        None
    }
}

/// Delivers process signals to a `Host`'s `process.on('SIGINT'|'SIGTERM')`
/// listeners from any thread (get one with `Host::signal_handle`).
///
/// ```
/// use boa_streams_host::{run_with_large_stack, Host, HostOptions, Signal};
///
/// run_with_large_stack(|| {
///     let mut host = Host::new(HostOptions::default()).unwrap();
///     let signals = host.signal_handle();
///     // No listener: the caller decides (the CLI exits with 128 + 15).
///     assert!(!signals.deliver(Signal::Terminate));
///     host.eval_source(
///         "process.on('SIGTERM', (name) => { globalThis.got = name; })",
///         "main.js",
///     )
///     .unwrap();
///     assert!(signals.deliver(Signal::Terminate));
///     host.run_event_loop(None);
///     let got = host.eval_source("got", "check.js").unwrap();
///     assert_eq!(got.as_string().unwrap().to_std_string_escaped(), "SIGTERM");
/// })
/// .unwrap();
/// ```
#[derive(Debug, Clone)]
pub struct SignalHandle(pub(crate) std::sync::Arc<SignalState>);

impl SignalHandle {
    /// Queue `signal` for the host's listeners and wake its event loop. Returns `false` (and
    /// queues nothing) when the program has no listener for it.
    pub fn deliver(&self, signal: Signal) -> bool {
        let state = &self.0;
        let listening = state
            .listening
            .get(signal.index())
            .is_some_and(|l| l.load(Ordering::SeqCst));
        if !listening {
            return false;
        }
        state.pending.fetch_or(signal.bit(), Ordering::SeqCst);
        if let Ok(thread) = state.thread.lock() {
            if let Some(thread) = thread.as_ref() {
                thread.unpark();
            }
        }
        true
    }
}
