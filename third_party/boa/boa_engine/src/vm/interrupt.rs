//! Stopping a running script from outside the engine (another thread, a watchdog).

use std::sync::{
    Arc,
    atomic::{AtomicU8, Ordering},
};

use crate::{
    JsResult,
    error::{EngineError, JsError},
};

/// No interrupt is requested.
const RUNNING: u8 = 0;
/// [`InterruptHandle::interrupt`] was called.
const INTERRUPTED: u8 = 1;
/// The heap limit of the context was exceeded after a garbage collection.
const HEAP_LIMIT: u8 = 2;

/// A handle that stops the script a [`Context`][crate::Context] is running, from any thread.
///
/// The engine checks the handle on every loop iteration, on every function call and
/// periodically inside long native operations (`Array.prototype.fill`, `join`, the
/// `TypedArray` `fill`/`set`/`copyWithin`, `String.prototype.repeat`, `JSON.stringify`). Once
/// [`interrupt`][Self::interrupt] has been called, the next check ends the running script with
/// [`EngineError::Interrupted`], which script cannot catch (`try`/`catch` and `finally`
/// blocks do not run), and the embedder receives it as the `Err` of `eval`, `call` or
/// `run_jobs`. The request stays set until [`reset`][Self::reset], so code that the embedder
/// runs afterwards (a job, a callback) is stopped too.
///
/// Checking costs one relaxed atomic load.
///
/// # Example
///
/// ```
/// use boa_engine::{Context, Source};
///
/// let mut context = Context::default();
/// let handle = context.interrupt_handle();
/// let watchdog = std::thread::spawn(move || {
///     std::thread::sleep(std::time::Duration::from_millis(20));
///     handle.interrupt();
/// });
/// let result = context.eval(Source::from_bytes("try { for (;;) {} } catch { }"));
/// watchdog.join().unwrap();
/// let error = result.unwrap_err();
/// assert!(error.as_engine().is_some());
/// assert!(error.to_string().contains("interrupted"));
/// context.interrupt_handle().reset();
/// assert!(context.eval(Source::from_bytes("1 + 1")).is_ok());
/// ```
#[derive(Debug, Clone, Default)]
pub struct InterruptHandle {
    state: Arc<AtomicU8>,
}

impl InterruptHandle {
    /// Asks the engine to stop the running script at its next check.
    pub fn interrupt(&self) {
        // Keep a reason already recorded (the heap limit).
        let _ =
            self.state
                .compare_exchange(RUNNING, INTERRUPTED, Ordering::Relaxed, Ordering::Relaxed);
    }

    /// Clears a pending request, so that the context can run code again.
    pub fn reset(&self) {
        self.state.store(RUNNING, Ordering::Relaxed);
    }

    /// Whether a request to stop is pending.
    #[must_use]
    pub fn is_interrupted(&self) -> bool {
        self.state.load(Ordering::Relaxed) != RUNNING
    }

    /// Records that the heap limit was exceeded: the next check ends the script with
    /// [`EngineError::HeapLimit`].
    pub(crate) fn heap_limit_exceeded(&self) {
        self.state.store(HEAP_LIMIT, Ordering::Relaxed);
    }

    /// Ends the running script if a request to stop is pending.
    #[inline]
    pub(crate) fn check(&self) -> JsResult<()> {
        let state = self.state.load(Ordering::Relaxed);
        if state == RUNNING {
            Ok(())
        } else {
            Err(Self::error(state))
        }
    }

    #[cold]
    #[inline(never)]
    fn error(state: u8) -> JsError {
        if state == HEAP_LIMIT {
            EngineError::HeapLimit.into()
        } else {
            EngineError::Interrupted.into()
        }
    }
}
