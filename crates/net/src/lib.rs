//! # boa_net
//!
//! Fetch over the network: the global [`fetch()`](https://fetch.spec.whatwg.org/#fetch-method)
//! for `http:` (HTTP/1.1 with a keep-alive connection pool), `https:` (rustls; roots from
//! webpki-roots and [`add_root_certificate`]), `data:`, `blob:` and `file:` URLs (relative URLs resolve
//! against [`set_base_url`]; [`serve_origin_locally`] answers an origin in process), with
//! `Content-Encoding: gzip, deflate` decoded, and bodies
//! streamed both ways, and an HTTP/1.1 server host API, `BoaStreams.serve()` (see
//! [`serve`](mod@serve)). Built on the public embedder APIs of `boa_streams`
//! ([`boa_streams::native`]: byte sources, [`spawn_future`](boa_streams::native::spawn_future),
//! [`StreamReader`](boa_streams::native::StreamReader)) and `boa_fetch`
//! ([`boa_fetch::network`]), with hyper 1 on tokio.
//!
//! ## Schemes
//!
//! Each hop of a fetch goes to the [`SchemeHandler`] registered for its URL's scheme (one
//! file each under [`scheme`]: `http:`/`https:`, `data:`, `blob:`, `file:`); an embedder adds
//! its own with [`register_scheme`]. A failed hop is a typed [`NetworkError`], turned into
//! the `TypeError` `fetch()` rejects with in one place.
//!
//! ## How the I/O runs
//!
//! All sockets live on one process-wide tokio runtime (multi-threaded, started on first use,
//! its worker threads named `boa-net`): hyper's connection tasks (client and server) run
//! there, so reading and writing sockets never blocks a script's thread and several contexts
//! (workers) share it. A context never runs on a tokio thread: what a script awaits is a Rust
//! future on the context's [driver](boa_streams::native::poll_tasks) (spawned with
//! [`spawn_future`](boa_streams::native::spawn_future)): a tokio `JoinHandle`, a hyper body
//! frame, a channel. Tokio's wakers fire on the runtime's threads and wake the driver, which
//! wakes the event loop (the host's loop parks its thread while it waits and keeps running
//! while any such future is pending, so a pending `fetch()` keeps a script alive).
//!
//! Bodies keep their backpressure across that boundary:
//!
//! - A **response body** is a `type: "bytes"` `ReadableStream` whose pull polls hyper's body
//!   for one frame, only while a read is pending (high water mark 0). hyper's connection task
//!   reads more of the body from the socket only once the previous frame was taken, so a
//!   reader that stops reading stops the socket reads (the TCP window then stops the peer).
//! - A **request body** made from bytes is sent with a `Content-Length`; a `ReadableStream`
//!   body (with `duplex: "half"`) is read by a [`StreamReader`](boa_streams::native::StreamReader)
//!   into a one-chunk channel that hyper's connection task drains as the socket accepts
//!   bytes (chunked transfer coding), so the stream is read only as fast as the peer takes it.
//!
//! ## Capabilities
//!
//! Every fetch hop (redirects included) and every `serve()` asks the context's
//! [`Capabilities`](boa_webidl::capabilities::Capabilities) first: `http:`/`https:` need the
//! net capability for the URL's host and port (the scheme's default port when it has none),
//! `file:` the fs-read capability for the file's canonical path (the file opened is that
//! path), `serve()` the listen capability for its hostname and port; `data:` and `blob:` need
//! none, and an origin answered in process ([`serve_origin_locally`]) contacts no host. A
//! context with no policy installed (this crate registered on its own) gets the restrictive
//! default: no network, no files, no listening. A denial is a TypeError naming the capability
//! and its flag (`fetch()` rejects, `serve()` throws):
//!
//! ```
//! use boa_engine::{Context, Source};
//! use boa_webidl::capabilities::Capabilities;
//!
//! let mut context = Context::default();
//! boa_net::register(&mut context).unwrap(); // no policy installed: the default
//! context
//!     .eval(Source::from_bytes(
//!         "globalThis.out = '';
//!          fetch('http://127.0.0.1:9/').catch((e) => { out = e.message; });",
//!     ))
//!     .unwrap();
//! boa_streams::native::run_until_idle(&mut context).unwrap();
//! let out = context.eval(Source::from_bytes("out")).unwrap();
//! assert_eq!(
//!     out.as_string().unwrap().to_std_string_escaped(),
//!     "fetch of http://127.0.0.1:9/ denied: network access needs the net capability (--allow-net)"
//! );
//! // Grant it: `Capabilities::default().allow_net(["127.0.0.1"]).install(&mut context)`.
//! # Capabilities::default().allow_net(["127.0.0.1"]).install(&mut context);
//! ```
//!
//! Aborting (the request's `signal`) drops the in-flight request (hyper closes the
//! connection), cancels the request body stream, rejects the `fetch()` promise or errors
//! the response body stream with the abort reason.
//!
//! ```
//! use boa_engine::{Context, Source};
//!
//! let mut context = Context::default();
//! boa_net::register(&mut context).unwrap();
//! context
//!     .eval(Source::from_bytes(
//!         "globalThis.out = '';
//!          fetch('data:text/plain,hello').then(r => r.text()).then(t => { out = t; });",
//!     ))
//!     .unwrap();
//! boa_streams::native::run_until_idle(&mut context).unwrap();
//! let out = context.eval(Source::from_bytes("out")).unwrap();
//! assert_eq!(out.as_string().unwrap().to_std_string_escaped(), "hello");
//! ```

#![warn(missing_docs)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

use boa_engine::{js_string, Context, JsResult, NativeFunction};

mod body;
mod decode;
mod error;
mod fetch;
mod hooks;
mod hop;
pub mod integrity;
mod runtime;
pub mod scheme;
pub mod serve;

pub use error::{NetworkError, NetworkErrorKind};
pub use hooks::{serve_origin_locally, set_base_url, LocalRequest, LocalResponse};
pub use scheme::http::add_root_certificate;
pub use scheme::{register_scheme, SchemeFetch, SchemeHandler};

boa_webidl::runtime_extension!(
    /// A boa_runtime `RuntimeExtension` that registers `fetch` (see [`register`]).
    NetExtension,
    register
);

/// The realm mark of [`register`].
#[derive(Debug, Default, boa_gc::Trace, boa_gc::Finalize, boa_engine::JsData)]
struct Registered;

#[cfg(test)]
mod caps_tests;
#[cfg(test)]
mod integrity_tests;
#[cfg(test)]
mod scheme_tests;
#[cfg(test)]
mod test_support;
#[cfg(test)]
mod tests;

/// Register `fetch()` and `BoaStreams.serve()` on the context's current realm, after what
/// they depend on (boa_fetch's `Headers`, `Request`, `Response`, registered first if they are
/// not there yet). Registering twice does nothing the second time. What they may reach is
/// the context's capability policy, checked at each call (see [Capabilities](crate#capabilities);
/// none installed: no network, no files, no listening).
pub fn register(context: &mut Context) -> JsResult<()> {
    if !boa_webidl::first_registration::<Registered>(context) {
        return Ok(());
    }
    boa_fetch::register(context)?;
    scheme::register_builtins(context);
    let fetch = NativeFunction::from_fn_ptr(fetch::fetch_method);
    let fetch = boa_engine::object::FunctionObjectBuilder::new(context.realm(), fetch)
        .name(js_string!("fetch"))
        .length(1)
        .constructor(false)
        .build();
    context.register_global_property(
        js_string!("fetch"),
        fetch,
        boa_engine::property::Attribute::WRITABLE | boa_engine::property::Attribute::CONFIGURABLE,
    )?;
    serve::register(context)?;
    Ok(())
}
