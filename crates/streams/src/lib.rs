//! # boa_streams
//!
//! The [WHATWG Streams Standard](https://streams.spec.whatwg.org/) as native host objects for
//! the [Boa](https://boajs.dev) JavaScript engine, plus the DOM pieces streams need
//! (`DOMException`, `Event`, `EventTarget`, `AbortController`, `AbortSignal`).
//!
//! ```no_run
//! let mut context = boa_engine::Context::default();
//! boa_streams::register(&mut context).unwrap();
//! ```
//!
//! Or compose with boa_runtime's extensions:
//! `boa_runtime::register_extensions((ConsoleExtension::default(), boa_streams::StreamsExtension), None, ctx)`.
//! (Do not register boa_runtime's own `AbortController`: ours replaces it.)

#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

use std::cell::Cell;

use boa_engine::{realm::Realm, Context, JsResult};

pub mod completion;
pub mod compression;
pub mod dom;
pub mod encoding;
pub mod message;
pub mod native;
pub mod queue;
pub mod readable;
pub mod strategies;
pub mod structured_clone;
pub mod transfer_streams;
pub mod transform;
pub mod webidl;
pub mod writable;

#[cfg(test)]
mod injection_tests;
#[cfg(test)]
mod native_catch_tests;
#[cfg(test)]
mod test_support;
#[cfg(test)]
mod webidl_shape_tests;

/// Register every interface of this crate on the context's current realm.
pub fn register(context: &mut Context) -> JsResult<()> {
    webidl::install_call_trampoline(context)?;
    dom::register(context)?;
    strategies::register(context)?;
    readable::register(context)?;
    writable::register(context)?;
    encoding::register(context)?;
    transform::register(context)?;
    compression::register(context)?;
    // Issue 13: structuredClone, MessageChannel/MessagePort, transferable streams.
    structured_clone::register(context)?;
    message::register(context)?;
    Ok(())
}

/// Register every interface on `realm` (the context's current realm is restored after).
pub fn register_in_realm(realm: Realm, context: &mut Context) -> JsResult<()> {
    let old = context.enter_realm(realm);
    let result = register(context);
    context.enter_realm(old);
    result
}

/// A boa_runtime extension that registers boa_streams (compose it with boa_runtime's others).
#[derive(Debug, Clone, Copy, Default)]
pub struct StreamsExtension;

impl boa_runtime::extensions::RuntimeExtension for StreamsExtension {
    fn register(self, realm: Option<Realm>, context: &mut Context) -> JsResult<()> {
        match realm {
            Some(realm) => register_in_realm(realm, context),
            None => register(context),
        }
    }
}

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
/// When off, every step takes the spec's literal promise path.
pub fn fast_paths() -> bool {
    FAST_PATHS.with(Cell::get)
}

/// Turn the fast paths on or off for this thread (affects streams created afterwards and
/// steps taken afterwards).
pub fn set_fast_paths(on: bool) {
    FAST_PATHS.with(|f| f.set(on && cfg!(feature = "fast-paths")));
}
