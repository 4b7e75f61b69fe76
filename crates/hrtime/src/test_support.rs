//! The shared test helpers (`boa_webidl::test_support`) with `context()` registering this
//! crate (and, through its `register`, only what it depends on).

#![allow(unused_imports, dead_code)]

boa_webidl::crate_test_support!();
