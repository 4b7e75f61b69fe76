//! # boa_html
//!
//! The pieces of the [HTML Standard](https://html.spec.whatwg.org/) the web APIs of this
//! workspace need, as native host objects for Boa: structured serialization and
//! `structuredClone(value, { transfer })` ([`structured_clone`]), channel messaging
//! (`MessageChannel`, `MessagePort`, `MessageEvent`: [`message`]), `navigator`
//! ([`navigator`]), `reportError` (`report_error`), `atob`/`btoa` ([`base64`]), `ErrorEvent`
//! (`error_event`) and `PromiseRejectionEvent` (`promise_rejection_event`), and the
//! transfer steps of
//! `ReadableStream`, `WritableStream` and `TransformStream` with the Streams Standard's
//! cross-realm transforms (`transfer_streams`).
//!
//! Layout, from the ground up: `records` (the `Send` records that cross realms and threads:
//! serialized values, transfer data holders, a port's shared half), `transfer` (the transfer
//! steps interface through which serialization reaches the transferable platform objects),
//! [`structured_clone`], [`message`], `transfer_streams`, `transferable` (the transferable
//! interfaces of this crate, installed by [`register`]) and `owning` (the owning streams'
//! hooks).
//!
//! ```
//! use boa_engine::{Context, Source};
//!
//! let mut context = Context::default();
//! boa_html::register(&mut context).unwrap();
//! let copy = context
//!     .eval(Source::from_bytes(
//!         "const m = structuredClone(new Map([[1, { a: [2n] }]])); typeof m.get(1).a[0]",
//!     ))
//!     .unwrap();
//! assert_eq!(copy.as_string().unwrap().to_std_string_escaped(), "bigint");
//! ```
//!
//! Registering HTML also installs the Streams crate's [`boa_streams::OwningHooks`], so an
//! owning `ReadableStream` (experimental) clones and transfers its chunks with structured
//! serialization and closes a `MessagePort` it drops unread.

#![warn(missing_docs)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

use boa_engine::{Context, JsResult};

pub mod base64;
mod error_event;
pub mod message;
pub mod navigator;
mod owning;
mod promise_rejection_event;
mod records;
mod report_error;
pub mod structured_clone;
mod transfer;
mod transfer_streams;
mod transferable;

/// Register `structuredClone` (replacing boa_runtime's), `MessageChannel`, `MessagePort`,
/// `MessageEvent`, `ErrorEvent`, `PromiseRejectionEvent`, `reportError` and `atob`/`btoa`
/// ([`base64`], replacing boa_runtime's) (`navigator` is the host's:
/// [`navigator::install_navigator`]) on the context's current realm, after what they depend
/// on (registered first if it is not there yet), and install the owning streams' hooks.
/// Registering twice does nothing the second time.
pub fn register(context: &mut Context) -> JsResult<()> {
    if !boa_webidl::first_registration::<Registered>(context) {
        return Ok(());
    }
    boa_fileapi::register(context)?;
    structured_clone::register(context)?;
    message::register(context)?;
    transferable::register(context);
    report_error::register(context)?;
    error_event::register(context)?;
    promise_rejection_event::register(context)?;
    base64::register(context)?;
    owning::install(context);
    Ok(())
}

boa_webidl::runtime_extension!(
    /// A boa_runtime `RuntimeExtension` that registers HTML (see [`register`]).
    HtmlExtension,
    register
);

/// The realm mark of [`register`].
#[derive(Debug, Default, boa_gc::Trace, boa_gc::Finalize, boa_engine::JsData)]
struct Registered;

#[cfg(test)]
mod test_support;
#[cfg(test)]
mod tests;
