//! The shared test helpers (`boa_webidl::test_support`) with `context()` registering this
//! crate (and, through its `register`, only what it depends on) under unrestricted
//! capabilities (the tests talk to loopback servers and read temporary files; the
//! capability tests build their contexts themselves).

#![allow(unused_imports, dead_code)]

pub(crate) use boa_webidl::test_support::*;

/// `register` after installing `Capabilities::unrestricted()`.
fn register_unrestricted(context: &mut boa_engine::Context) -> boa_engine::JsResult<()> {
    boa_webidl::capabilities::Capabilities::unrestricted().install(context);
    crate::register(context)
}

/// A context with this crate registered (everything allowed) and a global `gc()`.
pub(crate) fn context() -> boa_engine::Context {
    context_with(register_unrestricted)
}

/// A context with this crate registered under `capabilities`.
pub(crate) fn context_with_capabilities(
    capabilities: boa_webidl::capabilities::Capabilities,
) -> boa_engine::Context {
    let mut context = context_with(crate::register);
    capabilities.install(&mut context);
    context
}

/// `run_log_in` in a fresh [`context`].
#[track_caller]
pub(crate) fn run_log(script: &str, result: &str) -> String {
    run_log_in(context(), script, result)
}

/// `run_out_in` in a fresh [`context`].
#[track_caller]
pub(crate) fn run_out(src: &str) -> String {
    run_out_in(context(), src)
}
