//! Crate-wide tests: the engine-bug regressions of `webidl::catching` as the streams' callbacks
//! meet them. (The WebIDL shape of every interface and the hostile-input injection table span
//! every crate: they are the facade crate's, `boa_web`.)

mod native_catch;
