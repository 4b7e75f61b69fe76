//! The large-stack thread a host runs on ([`run_with_large_stack`]) and the engine limits
//! such a thread allows. A leaf: the `Host` raises Boa's limits on it, workers start on one.

use std::cell::Cell;

/// The stack size [`run_with_large_stack`] gives its thread.
pub const LARGE_STACK_SIZE: usize = 256 * 1024 * 1024;

/// Boa's recursion limit (JS frames plus host re-entries) on a large-stack thread. Boa's
/// default (512) is meant for an 8 MiB stack; a deeper JS recursion is an uncatchable engine
/// error, so raise it where the stack allows.
pub const LARGE_STACK_RECURSION_LIMIT: usize = 10_000;

/// Boa's VM value-stack limit (slots) on a large-stack thread (default 10 240).
pub const LARGE_STACK_VALUE_STACK_LIMIT: usize = 1024 * 1024;

/// The native stack the parser may use on a large-stack thread (the engine's default, 1 MiB,
/// is meant for a 2 MiB thread): source text nested deeper than this allows is a SyntaxError
/// (engine patch 0009-parser-depth-limit). A quarter of the stack, leaving the rest to the
/// passes after the parser and to the script that called `eval`.
pub const LARGE_STACK_PARSER_STACK_LIMIT: usize = LARGE_STACK_SIZE / 4;

thread_local! {
    /// Set on threads started by `run_with_large_stack`.
    pub(crate) static ON_LARGE_STACK: Cell<bool> = const { Cell::new(false) };
}

/// Run `f` on a thread with a large stack (256 MiB), catching a panic. `Err` carries the
/// panic message.
pub fn run_with_large_stack<F, R>(f: F) -> Result<R, String>
where
    F: FnOnce() -> R + Send + 'static,
    R: Send + 'static,
{
    let handle = std::thread::Builder::new()
        .name("boa-streams-main".into())
        .stack_size(LARGE_STACK_SIZE)
        .spawn(move || {
            ON_LARGE_STACK.with(|flag| flag.set(true));
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
        })
        .map_err(|e| format!("cannot start a thread with a {LARGE_STACK_SIZE}-byte stack: {e}"))?;
    match handle.join() {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(payload)) | Err(payload) => Err(panic_message(payload.as_ref())),
    }
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "engine panic (non-string payload)".to_owned()
    }
}
