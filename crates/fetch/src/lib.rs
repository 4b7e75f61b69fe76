//! # boa_fetch
//!
//! The Fetch Standard's bodies, without the network: [`Headers`](headers::Headers),
//! `Response` and `Request` with the [`Body`](https://fetch.spec.whatwg.org/#body-mixin)
//! mixin (`body`, `bodyUsed`, `arrayBuffer()`, `blob()`, `bytes()`, `formData()`, `json()`,
//! `text()`), and `clone()` by teeing; and the XHR Standard's [`FormData`](form_data::FormData)
//! (see [`form_data`] for why it is here), extracted as a `multipart/form-data` body that
//! shares the files' bytes and parsed back by `formData()` chunk by chunk. `fetch()` itself is in `boa_net`, built on the [`network`] module
//! (read a `Request`, make a network `Response` with its URL list and type).
//!
//! `new Response(stream).text()` collects any `ReadableStream` of `Uint8Array`s.
//!
//! # Modules
//!
//! | module | what |
//! | --- | --- |
//! | `body` | a [`Body`] and its [`BodyHolder`]: extracting a `BodyInit`, consuming and cloning a body, the Body mixin's rows |
//! | [`headers`] | `Headers`: the header list, its guard, validation, sort and combine |
//! | [`form_data`] | `FormData` on boa_webidl's ordered entry list |
//! | `request`, `response` | the `Request` and `Response` interfaces (each includes the Body mixin) |
//! | [`network`] | what `boa_net`'s `fetch()` reads from a `Request` and makes a `Response` with |
//! | `multipart`, `mime` | the `multipart/form-data` encoder and streaming parser; MIME type parsing |
//! | `options`, `settings` | `RequestInit`'s enumerations; the realm's API base URL and headers policy |

#![warn(missing_docs)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

mod body;
pub mod form_data;
pub mod headers;
mod mime;
mod multipart;
pub mod network;
mod options;
mod request;
mod response;
mod settings;

pub use options::{RequestCache, RequestCredentials, RequestMode, RequestRedirect};
pub use settings::{
    api_base_url, headers_policy, set_api_base_url, set_headers_policy, HeadersPolicy,
};

boa_webidl::runtime_extension!(
    /// A boa_runtime `RuntimeExtension` that registers the Fetch Standard (see [`register`]).
    FetchExtension,
    register
);

/// The realm mark of [`register`].
#[derive(Debug, Default, boa_gc::Trace, boa_gc::Finalize, boa_engine::JsData)]
struct Registered;

#[cfg(test)]
mod test_support;
#[cfg(test)]
mod tests;

use boa_engine::{Context, JsResult};

pub use body::{Body, BodyHolder};

/// Register Headers, Request, Response on the context's current realm, after what they depend on (registered
/// first if it is not there yet). Registering twice does nothing the second time.
pub fn register(context: &mut Context) -> JsResult<()> {
    if !boa_webidl::first_registration::<Registered>(context) {
        return Ok(());
    }
    boa_fileapi::register(context)?;
    boa_url::register(context)?;
    headers::register(context)?;
    form_data::register(context)?;
    response::register(context)?;
    request::register(context)?;
    Ok(())
}
