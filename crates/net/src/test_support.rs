//! The shared test helpers (`boa_webidl::test_support`) with [`context`] registering this
//! crate (and, through its `register`, only what it depends on).

#![allow(unused_imports, dead_code)]

pub(crate) use boa_webidl::test_support::*;

use boa_engine::Context;

/// A context with this crate registered and a global `gc()`.
pub(crate) fn context() -> Context {
    context_with(crate::register)
}

/// [`run_log_in`] in a fresh [`context`].
#[track_caller]
pub(crate) fn run_log(script: &str, result: &str) -> String {
    run_log_in(context(), script, result)
}

/// [`run_out_in`] in a fresh [`context`].
#[track_caller]
pub(crate) fn run_out(src: &str) -> String {
    run_out_in(context(), src)
}
