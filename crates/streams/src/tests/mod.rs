//! Crate-wide tests: the engine-bug regressions of `webidl::catching` as the streams' callbacks
//! meet them. (The WebIDL shape of every interface and the hostile-input injection table span
//! every crate: they are the facade crate's, `boa_web`.)

mod dictionary;
mod native_catch;

/// `register` alone installs this crate's interfaces and its dependencies', and nothing of
/// the other crates.
#[test]
fn register_installs_only_this_crate_and_its_dependencies() {
    let mut ctx = crate::test_support::context();
    crate::test_support::assert_crates_registered(&mut ctx, &["webidl", "dom", "streams"]);
}
