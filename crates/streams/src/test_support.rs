//! The shared test helpers (`boa_webidl::test_support`) with `context()` registering this
//! crate (and, through its `register`, only what it depends on).

#![allow(unused_imports, dead_code)]

boa_webidl::crate_test_support!();

use boa_engine::Context;

/// Run the jobs, one round of the native futures that are woken, and the jobs again (for a
/// future that stays pending, where `run_until_idle` would wait).
#[track_caller]
pub(crate) fn poll_once(ctx: &mut Context) {
    run_jobs(ctx);
    crate::native::poll_tasks(ctx, std::task::Waker::noop());
    run_jobs(ctx);
}
