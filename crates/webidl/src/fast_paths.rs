//! The fast-path switch: one for every crate of the workspace.

use std::cell::Cell;

thread_local! {
    static FAST_PATHS: Cell<bool> = Cell::new(default_fast_paths());
}

fn default_fast_paths() -> bool {
    if !cfg!(feature = "fast-paths") {
        return false;
    }
    !matches!(
        std::env::var("BOA_STREAMS_FAST_PATHS").as_deref(),
        Ok("0" | "off" | "false")
    )
}

/// Whether the synchronous fast paths are on (cargo feature `fast-paths`, default on; the
/// environment variable `BOA_STREAMS_FAST_PATHS=0` or [`set_fast_paths`] turn them off).
/// When off, every step takes the spec's literal promise path. One switch for every crate of
/// the workspace (re-exported as `boa_streams::fast_paths`).
///
/// ```
/// boa_webidl::set_fast_paths(false);
/// assert!(!boa_webidl::fast_paths());
/// ```
#[inline]
pub fn fast_paths() -> bool {
    FAST_PATHS.with(Cell::get)
}

/// Turn the fast paths on or off for this thread (affects streams created afterwards and
/// steps taken afterwards).
///
/// ```
/// boa_webidl::set_fast_paths(true);
/// assert_eq!(boa_webidl::fast_paths(), cfg!(feature = "fast-paths"));
/// ```
#[inline]
pub fn set_fast_paths(on: bool) {
    FAST_PATHS.with(|f| f.set(on && cfg!(feature = "fast-paths")));
}
