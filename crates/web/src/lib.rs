//! # boa_web
//!
//! Every web API of the boa_streams workspace on a [Boa](https://boajs.dev) context in one
//! call: the one line an embedder writes.
//!
//! ```
//! use boa_engine::{Context, Source};
//!
//! let mut context = Context::default();
//! boa_web::register(&mut context).unwrap();
//! context
//!     .eval(Source::from_bytes(
//!         "globalThis.got = '';
//!          new Blob(['hello ', 'streams']).stream()
//!              .pipeThrough(new TextDecoderStream())
//!              .pipeTo(new WritableStream({ write(s) { got += s; } }));",
//!     ))
//!     .unwrap();
//! context.run_jobs().unwrap();
//! let got = context.eval(Source::from_bytes("got")).unwrap();
//! assert_eq!(got.as_string().unwrap().to_std_string_escaped(), "hello streams");
//! ```
//!
//! Streams need a job executor that runs microtasks in FIFO order and drains them before
//! timers: the host crate (`boa_streams_host`) has one; `Context::run_jobs` with Boa's default
//! executor is enough for scripts without timers (as above).
//!
//! # The crates
//!
//! One crate per standard, re-exported here behind a cargo feature of the same name (all on
//! by default, `boa_webidl` always): [`boa_webidl`], [`boa_dom`], [`boa_streams`],
//! [`boa_encoding`], [`boa_compression`], [`boa_url`], [`boa_fileapi`], [`boa_json`],
//! [`boa_fetch`], `boa_net` (feature `net`), [`boa_html`], [`boa_crypto`], [`boa_hrtime`].
//! Each has its own `register`, which registers what it depends on first, so it works alone.
//! What each implements, what it depends on and which globals it adds is the one table of the
//! workspace, ["The crates" in the README](https://github.com/boa-streams/boa_streams#the-crates)
//! (boa_web's test `dependency_table` checks it against `cargo metadata`); each crate's own
//! README explains its design.
//!
//! Where a lower crate needs a higher one at run time, the lower one defines a hook and the
//! higher one installs it when registered: [`boa_streams::OwningHooks`] (the owning type's
//! StructuredTransferOrClone and dispose steps, installed by `boa_html`).
//!
//! # Registering a subset
//!
//! Two ways, which combine: turn cargo features off (`boa_web = { default-features = false,
//! features = ["encoding"] }` compiles only `boa_encoding` and what it depends on), or call
//! the `register` of the crates you want instead of [`register`] (each registers what it
//! depends on first, and nothing else):
//!
//! ```
//! use boa_engine::{Context, Source};
//!
//! let mut context = Context::default();
//! boa_web::boa_streams::register(&mut context).unwrap();
//! boa_web::boa_encoding::register(&mut context).unwrap();
//! let kinds = context
//!     .eval(Source::from_bytes("[typeof TextDecoderStream, typeof fetch, typeof Blob].join()"))
//!     .unwrap();
//! assert_eq!(kinds.as_string().unwrap().to_std_string_escaped(), "function,undefined,undefined");
//! ```
//!
//! # Capabilities (least authority)
//!
//! What scripts may reach beyond their own memory is a per-context policy,
//! [`Capabilities`] (`boa_webidl::capabilities`, re-exported here as [`capabilities`]),
//! checked when the operation runs. [`register`] leaves the context under the **restrictive
//! default** unless a policy was installed: no `file:` fetch, no module loading outside the
//! directories the embedder names, no network (neither `fetch()` to any host nor
//! `BoaStreams.serve()`), no workers, no environment. `data:` and `blob:` URLs carry no
//! authority and always work, as does everything that only computes. Grant what the scripts
//! need with [`register_with`]:
//!
//! ```
//! use boa_engine::{Context, Source};
//! use boa_web::Capabilities;
//!
//! let mut context = Context::default();
//! boa_web::register_with(
//!     &mut context,
//!     Capabilities::default().allow_net(["api.example.com:443"]),
//! )
//! .unwrap();
//! // file: is still denied: the promise rejects with a TypeError naming the capability.
//! context
//!     .eval(Source::from_bytes(
//!         "globalThis.out = '';
//!          fetch('file:///etc/passwd').catch((e) => { out = e.name + ': ' + e.message; });",
//!     ))
//!     .unwrap();
//! boa_web::boa_streams::native::run_until_idle(&mut context).unwrap();
//! let out = context.eval(Source::from_bytes("out")).unwrap();
//! assert_eq!(
//!     out.as_string().unwrap().to_std_string_escaped(),
//!     "TypeError: fetch of file:///etc/passwd denied: reading files needs the fs-read capability (--allow-fs-read)"
//! );
//! ```
//!
//! A crate registered on its own (`boa_net::register`) with no policy installed behaves the
//! same way: [`Capabilities::of`] returns the restrictive default when none is installed.

#![warn(missing_docs)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

use boa_engine::{realm::Realm, Context, JsResult};

#[cfg(feature = "compression")]
pub use boa_compression;
#[cfg(feature = "crypto")]
pub use boa_crypto;
#[cfg(feature = "dom")]
pub use boa_dom;
#[cfg(feature = "encoding")]
pub use boa_encoding;
#[cfg(feature = "fetch")]
pub use boa_fetch;
#[cfg(feature = "fileapi")]
pub use boa_fileapi;
#[cfg(feature = "hrtime")]
pub use boa_hrtime;
#[cfg(feature = "html")]
pub use boa_html;
#[cfg(feature = "json")]
pub use boa_json;
#[cfg(feature = "net")]
pub use boa_net;
#[cfg(feature = "streams")]
pub use boa_streams;
#[cfg(feature = "url")]
pub use boa_url;
pub use boa_webidl;
pub use boa_webidl::capabilities;
pub use boa_webidl::capabilities::Capabilities;
pub use boa_webidl::{fast_paths, set_fast_paths};

/// Register every enabled crate's interfaces on the context's current realm, in dependency
/// order. The context keeps the capability policy installed on it, or gets the restrictive
/// [`Capabilities::default()`] when none was (see [`register_with`]).
pub fn register(context: &mut Context) -> JsResult<()> {
    boa_webidl::register(context)?;
    #[cfg(feature = "json")]
    boa_json::register(context)?;
    #[cfg(feature = "dom")]
    boa_dom::register(context)?;
    #[cfg(feature = "streams")]
    boa_streams::register(context)?;
    #[cfg(feature = "encoding")]
    boa_encoding::register(context)?;
    #[cfg(feature = "compression")]
    boa_compression::register(context)?;
    #[cfg(feature = "url")]
    boa_url::register(context)?;
    #[cfg(feature = "fileapi")]
    boa_fileapi::register(context)?;
    #[cfg(feature = "fetch")]
    boa_fetch::register(context)?;
    #[cfg(feature = "html")]
    boa_html::register(context)?;
    #[cfg(feature = "crypto")]
    boa_crypto::register(context)?;
    #[cfg(feature = "hrtime")]
    boa_hrtime::register(context)?;
    #[cfg(feature = "net")]
    boa_net::register(context)?;
    Ok(())
}

/// Install `capabilities` as the context's policy (what its scripts may reach: network,
/// files, workers, environment; see [`capabilities`]), then [`register`] everything.
///
/// ```
/// use boa_engine::Context;
/// use boa_web::Capabilities;
///
/// let mut context = Context::default();
/// boa_web::register_with(&mut context, Capabilities::unrestricted()).unwrap();
/// assert!(Capabilities::of(&context).check_connect("example.com", 443).is_ok());
/// ```
pub fn register_with(context: &mut Context, capabilities: Capabilities) -> JsResult<()> {
    capabilities.install(context);
    register(context)
}

/// Register everything on `realm` (the context's current realm is restored after).
///
/// ```
/// use boa_engine::Context;
///
/// let mut context = Context::default();
/// let realm = context.create_realm().unwrap();
/// boa_web::register_in_realm(realm.clone(), &mut context).unwrap();
/// assert!(realm.get_class::<boa_web::boa_streams::native::ReadableStream>().is_some());
/// ```
pub fn register_in_realm(realm: Realm, context: &mut Context) -> JsResult<()> {
    let old = context.enter_realm(realm);
    let result = register(context);
    context.enter_realm(old);
    result
}

/// A boa_runtime extension that registers everything (compose it with boa_runtime's
/// `ConsoleExtension`, `TimeoutExtension`, `MicrotaskExtension`; leave out its
/// `AbortControllerExtension` and `EncodingExtension`, which these crates replace).
///
/// ```
/// use boa_engine::Context;
///
/// let mut context = Context::default();
/// boa_runtime::register_extensions(
///     (boa_runtime::extensions::ConsoleExtension::default(), boa_web::WebExtension),
///     None,
///     &mut context,
/// )
/// .unwrap();
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct WebExtension;

impl boa_runtime::extensions::RuntimeExtension for WebExtension {
    fn register(self, realm: Option<Realm>, context: &mut Context) -> JsResult<()> {
        match realm {
            Some(realm) => register_in_realm(realm, context),
            None => register(context),
        }
    }
}

#[cfg(test)]
mod test_support;
#[cfg(test)]
mod tests;
