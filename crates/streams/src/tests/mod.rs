//! Crate-wide tests: what spans every interface rather than one module (the WebIDL shape of
//! every interface, the generated hostile-input injection table, the engine-bug regressions of
//! `webidl::catching`).

mod injection;
mod native_catch;
mod webidl_shapes;
