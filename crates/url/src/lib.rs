//! # boa_url
//!
//! The URL Standard's [`URL`](https://url.spec.whatwg.org/#url-class) interface (on `ada-url`:
//! ada, the parser Node uses, implements the standard's basic URL parser) and
//! [`URLSearchParams`](https://url.spec.whatwg.org/#interface-urlsearchparams): a list of
//! name-value pairs parsed from and serialized to `application/x-www-form-urlencoded`
//! (through the `form_urlencoded` crate).
//!
//! A `URL`'s `searchParams` is linked both ways: the params' update steps set the URL's
//! query, and the `href`/`search` setters re-parse the params' list. The same hooks are
//! public for another URL-like object: [`new_linked`] (the params' update steps call a
//! [`QueryUpdate`]) and [`set_list_from_query`].
//!
//! # Modules
//!
//! | module | what |
//! | --- | --- |
//! | `url_interface` | the `URL` interface and the API URL parser ([`Url`], [`api_url_parse`]) |
//! | `url_search_params` | `URLSearchParams`, the urlencoded parser and serializer, the link to a URL object ([`UrlSearchParams`], [`parse`], [`serialize`], [`new_linked`]) |
//!
//! The File API's `URL.createObjectURL`/`revokeObjectURL` are boa_fileapi's (it registers
//! this crate and adds them).

#![warn(missing_docs)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

use boa_engine::{Context, JsResult};

use boa_webidl as webidl;

mod url_interface;
mod url_search_params;

#[cfg(test)]
mod test_support;
#[cfg(test)]
mod tests;

pub use url_interface::{api_url_parse, Url};
pub use url_search_params::{
    new_linked, parse, serialization_of, serialize, set_list_from_query, Pair, QueryUpdate,
    UrlSearchParams,
};

/// The URL parser behind [`Url`] and [`api_url_parse`] (ada), re-exported so that code using
/// their records names the same crate version.
///
/// ```
/// let url: boa_url::ada_url::Url = boa_url::api_url_parse("https://a.test/x", None).unwrap();
/// assert_eq!(url.origin(), "https://a.test");
/// ```
pub use ada_url;

boa_webidl::runtime_extension!(
    /// A boa_runtime `RuntimeExtension` that registers the URL Standard (see [`register`]).
    UrlExtension,
    register
);

/// The realm mark of [`register`].
#[derive(Debug, Default, boa_gc::Trace, boa_gc::Finalize, boa_engine::JsData)]
struct Registered;

/// Register URL and URLSearchParams on the context's current realm, after what they depend on (registered
/// first if it is not there yet). Registering twice does nothing the second time.
pub fn register(ctx: &mut Context) -> JsResult<()> {
    if !boa_webidl::first_registration::<Registered>(ctx) {
        return Ok(());
    }
    boa_webidl::register(ctx)?;
    webidl::register_interface::<Url>(ctx)?;
    webidl::register_interface::<UrlSearchParams>(ctx)?;
    webidl::pair_iterable::register_iterator_prototype::<UrlSearchParams>(ctx)
}
