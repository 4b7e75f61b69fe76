//! [Scheme fetch](https://fetch.spec.whatwg.org/#scheme-fetch): each hop of a `fetch()`
//! goes to the [`SchemeHandler`] registered for its URL's scheme, after the context's
//! capabilities allowed it. The built-in handlers are one file each: `http:`/`https:`
//! ([`http`]), `data:` ([`data`]), `blob:` ([`blob`]) and `file:` ([`file`](mod@file)); an embedder
//! adds its own schemes (or replaces a built-in one) with [`register_scheme`].
//!
//! ```text
//!   fetch() ─▶ scheme_fetch ─▶ capabilities ─▶ registry[scheme] ─▶ SchemeHandler::fetch
//!                 ▲                                                     │
//!                 └──── redirect (HTTP fetch: the next hop) ◀── respond / fail (settle)
//! ```
//!
//! Before any handler runs, every hop asks the context's capability policy, as it always
//! did: the scheme (`check_scheme`; `data:`, `blob:` and `about:` are free) and, for
//! `http:`/`https:`, the host and port (`check_connect`). An `http(s):` origin answered in
//! process ([`serve_origin_locally`](crate::serve_origin_locally)) contacts no host and needs
//! neither. The `file:` handler asks for the fs-read capability of the file itself. A handler
//! an embedder registers gets only hops the policy admitted, and whatever else it reads is
//! the embedder's grant.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use boa_engine::{Context, JsValue};
use boa_fetch::headers::Header;
use boa_fetch::RequestCache;
use boa_webidl::capabilities::Capabilities;
use bytes::Bytes;

use crate::error::{NetworkError, NetworkErrorKind};
use crate::hooks::{LocalRequest, LocalResponse};
use crate::hop::{
    cache_headers, cancel_stream, current_url, denied, fail, is_redirect_status, network_error,
    redirect, respond_with_body, FetchState, Redirected,
};

pub mod blob;
pub mod data;
pub mod file;
pub mod http;

/// What fetches the URLs of one scheme (Deno's `FetchHandler`, boa_runtime's `Fetcher`).
///
/// [`fetch`](Self::fetch) gets the hop as a [`SchemeFetch`] and settles it, at once or later
/// (from a future it spawned on the context's driver, say): with
/// [`SchemeFetch::respond`] or [`SchemeFetch::fail`]. A hop it drops unsettled leaves the
/// `fetch()` promise pending until the request is aborted.
pub trait SchemeHandler {
    /// Fetch `fetch`'s current URL (whose scheme this handler was registered for).
    fn fetch(&self, fetch: SchemeFetch, ctx: &mut Context);
}

/// One hop of a `fetch()` given to a [`SchemeHandler`]: the request as it stands (method,
/// headers, body) and how to settle it.
pub struct SchemeFetch {
    state: Rc<FetchState>,
}

impl SchemeFetch {
    /// The URL to fetch (the request's current URL, fragment included).
    pub fn url(&self) -> String {
        current_url(&self.state)
    }

    /// The request's method (`GET`, `POST`, ...).
    pub fn method(&self) -> String {
        String::from_utf8_lossy(&self.state.method.borrow()).into_owned()
    }

    /// The request's headers.
    pub fn headers(&self) -> Vec<Header> {
        self.state.headers.borrow().clone()
    }

    /// The request's body when it was made from bytes (a stream body is cancelled when the
    /// hop is answered with [`respond`](Self::respond)).
    pub fn body(&self) -> Option<Bytes> {
        self.state.body_bytes.borrow().clone()
    }

    /// Answer with `response`: a basic `Response` whose body is `response.body` (a redirect
    /// status with a `Location` is followed as HTTP fetch does; a status outside 200 to 599
    /// is a network error).
    pub fn respond(self, response: LocalResponse, ctx: &mut Context) {
        let unsent = self.state.body_stream.borrow_mut().take();
        if let Some(stream) = unsent {
            cancel_stream(&stream, JsValue::undefined(), ctx);
        }
        answer(&self.state, response, "scheme handler", ctx);
    }

    /// Fail with `error`: `fetch()` rejects with its TypeError.
    pub fn fail(self, error: &NetworkError, ctx: &mut Context) {
        fail(&self.state, error, ctx);
    }

    /// The fetch record (for the built-in handlers).
    pub(crate) fn state(&self) -> &Rc<FetchState> {
        &self.state
    }
}

/// The context's scheme handlers, by scheme (ASCII lowercase).
#[derive(Default)]
struct Registry(RefCell<HashMap<String, Rc<dyn SchemeHandler>>>);

/// Register `handler` for the URLs of `scheme` (case-insensitive) in `context`: `fetch()`
/// hands it each hop to such a URL that the context's capabilities admit (see the module
/// docs). Registering a scheme again replaces its handler; a built-in one (`http`, `https`,
/// `data`, `blob`, `file`) can be replaced too, and the replacement takes over what the
/// built-in checked itself (the `file:` handler's fs-read check).
///
/// ```
/// use boa_engine::{Context, Source};
/// use boa_net::scheme::{register_scheme, SchemeFetch, SchemeHandler};
/// use boa_net::LocalResponse;
///
/// struct Echo;
/// impl SchemeHandler for Echo {
///     fn fetch(&self, fetch: SchemeFetch, ctx: &mut Context) {
///         let body = format!("{} {}", fetch.method(), fetch.url());
///         fetch.respond(LocalResponse::new(200, body), ctx);
///     }
/// }
///
/// let mut context = Context::default();
/// boa_net::register(&mut context).unwrap();
/// register_scheme(&mut context, "echo", std::rc::Rc::new(Echo));
/// context
///     .eval(Source::from_bytes(
///         "globalThis.out = '';
///          fetch('echo:hello').then(r => r.text()).then(t => { out = t; });",
///     ))
///     .unwrap();
/// boa_streams::native::run_until_idle(&mut context).unwrap();
/// let out = context.eval(Source::from_bytes("out")).unwrap();
/// assert_eq!(out.as_string().unwrap().to_std_string_escaped(), "GET echo:hello");
/// ```
pub fn register_scheme(context: &mut Context, scheme: &str, handler: Rc<dyn SchemeHandler>) {
    if context.get_data::<Registry>().is_none() {
        context.insert_data(Registry::default());
    }
    if let Some(registry) = context.get_data::<Registry>() {
        registry
            .0
            .borrow_mut()
            .insert(scheme.to_ascii_lowercase(), handler);
    }
}

/// Register the built-in handlers where no handler is registered for their schemes yet.
pub(crate) fn register_builtins(context: &mut Context) {
    let builtins: [(&str, Rc<dyn SchemeHandler>); 5] = [
        ("http", Rc::new(http::HttpScheme)),
        ("https", Rc::new(http::HttpScheme)),
        ("data", Rc::new(data::DataScheme)),
        ("blob", Rc::new(blob::BlobScheme)),
        ("file", Rc::new(file::FileScheme)),
    ];
    for (scheme, handler) in builtins {
        let known = context
            .get_data::<Registry>()
            .is_some_and(|r| r.0.borrow().contains_key(scheme));
        if !known {
            register_scheme(context, scheme, handler);
        }
    }
}

/// The handler registered for `scheme` (ASCII lowercase).
fn handler_for(context: &Context, scheme: &str) -> Option<Rc<dyn SchemeHandler>> {
    let handler = context
        .get_data::<Registry>()?
        .0
        .borrow()
        .get(scheme)
        .cloned();
    handler
}

/// [Scheme fetch](https://fetch.spec.whatwg.org/#scheme-fetch) (and HTTP fetch for http:).
pub(crate) fn scheme_fetch(state: &Rc<FetchState>, ctx: &mut Context) {
    let url = current_url(state);
    let scheme = url
        .split_once(':')
        .map_or("", |(s, _)| s)
        .to_ascii_lowercase();
    if matches!(scheme.as_str(), "http" | "https") {
        // HTTP-network-or-cache fetch: "only-if-cached" with no cached response (there is
        // no HTTP cache here) is a network error.
        if state.cache == RequestCache::OnlyIfCached {
            return network_error(
                state,
                NetworkErrorKind::Unsupported,
                format!("{url}: cache mode \"only-if-cached\" and there is no HTTP cache"),
                ctx,
            );
        }
        // An origin the embedder answers in process contacts no host: no capability needed.
        if let Some(handler) = crate::hooks::local_handler(ctx, &url) {
            return local_fetch(state, &handler, ctx);
        }
    }
    // The context's capabilities, checked on every hop (redirects come back here).
    let capabilities = Capabilities::of(ctx);
    if let Err(d) = capabilities.check_scheme(&scheme) {
        return denied(state, &url, &d, ctx);
    }
    if matches!(scheme.as_str(), "http" | "https") {
        if let Ok(parsed) = url::Url::parse(&url) {
            let host = parsed.host_str().unwrap_or_default();
            let port = parsed.port_or_known_default().unwrap_or_default();
            if let Err(d) = capabilities.check_connect(host, port) {
                return denied(state, &url, &d, ctx);
            }
        }
    }
    match handler_for(ctx, &scheme) {
        Some(handler) => handler.fetch(
            SchemeFetch {
                state: state.clone(),
            },
            ctx,
        ),
        None if scheme == "about" => network_error(
            state,
            NetworkErrorKind::Unsupported,
            format!("{url}: the {scheme}: scheme is not supported"),
            ctx,
        ),
        None => network_error(
            state,
            NetworkErrorKind::Unsupported,
            format!("{url}: unknown scheme \"{scheme}\""),
            ctx,
        ),
    }
}

/// HTTP fetch's redirect steps for a response with a redirect status: `true` when the
/// fetch was dealt with (settled, or the next hop started), `false` when the response is
/// the answer to deliver.
pub(crate) fn after_redirect(
    state: &Rc<FetchState>,
    status: u16,
    location: Option<&str>,
    ctx: &mut Context,
) -> bool {
    match redirect(state, status, location, ctx) {
        Redirected::Answer => false,
        Redirected::Settled => true,
        // 20. Return the result of running main fetch given fetchParams (the next hop).
        Redirected::NextHop => {
            scheme_fetch(state, ctx);
            true
        }
    }
}

/// An HTTP(S) URL whose origin has a [local handler](crate::serve_origin_locally): the
/// handler answers at once, in process.
fn local_fetch(state: &Rc<FetchState>, handler: &crate::hooks::Handler, ctx: &mut Context) {
    let url = current_url(state);
    let url = url.split('#').next().unwrap_or_default().to_owned();
    let unsent = state.body_stream.borrow_mut().take();
    if let Some(stream) = unsent {
        cancel_stream(&stream, JsValue::undefined(), ctx);
    }
    let request = LocalRequest {
        method: String::from_utf8_lossy(&state.method.borrow()).into_owned(),
        url,
        headers: {
            let mut headers = state.headers.borrow().clone();
            headers.extend(
                cache_headers(state)
                    .into_iter()
                    .map(|(n, v)| (n.as_bytes().to_vec(), v.as_bytes().to_vec())),
            );
            headers
        },
        body: state.body_bytes.borrow().clone(),
    };
    let response = handler(&request);
    answer(state, response, "local handler", ctx);
}

/// Settle the fetch with what a handler in process answered (`who`, for the message): a
/// redirect is dealt with as HTTP fetch does; a status outside 200 to 599 is a network
/// error; else a basic response with `response`'s body.
fn answer(state: &Rc<FetchState>, response: LocalResponse, who: &str, ctx: &mut Context) {
    let location = response
        .headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(b"location"))
        .map(|(_, v)| String::from_utf8_lossy(v).into_owned());
    if is_redirect_status(response.status)
        && after_redirect(state, response.status, location.as_deref(), ctx)
    {
        return;
    }
    if !(200..=599).contains(&response.status) {
        let url = current_url(state);
        let url = url.split('#').next().unwrap_or_default();
        let message = format!("{url}: {who} answered status {}", response.status);
        return network_error(state, NetworkErrorKind::InvalidResponse, message, ctx);
    }
    let status_text = ::http::StatusCode::from_u16(response.status)
        .ok()
        .and_then(|s| s.canonical_reason())
        .unwrap_or_default()
        .as_bytes()
        .to_vec();
    let body = http_body_util::Full::new(response.body);
    respond_with_body(
        state,
        response.status,
        status_text,
        response.headers,
        body,
        ctx,
    );
}
