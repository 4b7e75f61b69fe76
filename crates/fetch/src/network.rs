//! The Rust API of a network layer built on this crate (a `fetch()` implementation, an HTTP
//! server): read what a `Request` asks for ([`request_parts`]), make the `Response` a
//! network fetch produced ([`new_network_response`]), and, for a server, make the `Request`
//! a client sent ([`new_incoming_request`]) and read the `Response` a handler returned
//! ([`response_parts`]).
//!
//! ```
//! use boa_engine::{Context, Source};
//! use boa_fetch::network::{new_network_response, request_parts, NetworkResponse, ResponseKind};
//!
//! let mut context = Context::default();
//! boa_fetch::register(&mut context).unwrap();
//! let request = context
//!     .eval(Source::from_bytes(
//!         "new Request('http://example.test/a', { method: 'POST', body: 'hi', redirect: 'manual' })",
//!     ))
//!     .unwrap();
//! let parts = request_parts(&request.as_object().unwrap()).unwrap();
//! assert_eq!(parts.method, b"POST");
//! assert_eq!(parts.url, "http://example.test/a");
//! assert_eq!(parts.body_bytes.as_deref(), Some(&b"hi"[..]));
//! assert_eq!(parts.redirect, boa_fetch::RequestRedirect::Manual);
//!
//! let response = NetworkResponse {
//!     status: 200,
//!     status_text: b"OK".to_vec(),
//!     headers: vec![(b"content-type".to_vec(), b"text/plain".to_vec())],
//!     body: None,
//!     url_list: vec!["http://example.test/a".into(), "http://example.test/b".into()],
//!     kind: ResponseKind::Basic,
//! };
//! let response = new_network_response(response, &mut context).unwrap();
//! context.global_object().set(boa_engine::js_string!("r"), response, false, &mut context).unwrap();
//! let seen = context
//!     .eval(Source::from_bytes("[r.url, r.redirected, r.type, r.status].join()"))
//!     .unwrap();
//! assert_eq!(seen.as_string().unwrap().to_std_string_escaped(), "http://example.test/b,true,basic,200");
//! ```

use std::cell::Cell;

use boa_engine::{Context, JsObject, JsResult, JsString};
use boa_gc::Gc;
use boa_streams::spec::ReadableStream;
use bytes::Bytes;

use crate::body::{Body, BodyHolder};
use crate::headers::{new_headers, Guard, Header};
use crate::request::{request_proto, RequestInterface};
use crate::response::{response_proto, ResponseInterface, ResponseType};

/// What a `Request` object asks for: its request's method, URL, header list, body and
/// signal.
#[derive(Debug, Clone)]
pub struct RequestParts {
    /// The method (normalized by the constructor).
    pub method: Vec<u8>,
    /// The URL (serialized).
    pub url: String,
    /// The header list, in order.
    pub headers: Vec<Header>,
    /// The body's stream, if the request has a body.
    pub body: Option<JsObject<ReadableStream>>,
    /// The body's bytes when it was made from bytes (a string, a buffer, a Blob, ...): a
    /// fetch can send them again after a redirect. `None` for a `ReadableStream` body.
    pub body_bytes: Option<Bytes>,
    /// The request's `AbortSignal`.
    pub signal: JsObject,
    /// The redirect mode (`redirect`).
    pub redirect: crate::options::RequestRedirect,
    /// The cache mode (`cache`).
    pub cache: crate::options::RequestCache,
    /// The mode (`mode`).
    pub mode: crate::options::RequestMode,
    /// The credentials mode (`credentials`).
    pub credentials: crate::options::RequestCredentials,
    /// Whether the request may outlive its global (`keepalive`).
    pub keepalive: bool,
    /// The integrity metadata (`integrity`; empty when none).
    pub integrity: String,
}

/// The parts of `request` if it is a `Request` object (`None` otherwise). Reading the body
/// stream is up to the caller (a fetch reads it, which makes the request's body used).
pub fn request_parts(request: &JsObject) -> Option<RequestParts> {
    let request = request.clone().downcast::<RequestInterface>().ok()?;
    let (holder, method, url, signal, options) = {
        let r = request.borrow();
        let d = r.data();
        (
            d.holder.clone(),
            d.method.clone(),
            d.url.clone(),
            d.signal.clone(),
            d.options.clone(),
        )
    };
    let headers = holder.headers.borrow().data().list();
    let body = holder.body();
    Some(RequestParts {
        method,
        url: url.to_std_string_lossy(),
        headers,
        body_bytes: body
            .as_ref()
            .and_then(|b| b.source.as_ref().map(boa_fileapi::ByteSeq::to_bytes)),
        body: body.map(|b| b.stream.clone()),
        signal,
        redirect: options.redirect,
        cache: options.cache,
        mode: options.mode,
        credentials: options.credentials,
        keepalive: options.keepalive,
        integrity: options.integrity,
    })
}

/// A response's [type](https://fetch.spec.whatwg.org/#concept-response-type) as a network
/// fetch produces it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResponseKind {
    /// "basic": a response from the network (no CORS filtering in a server runtime).
    Basic,
    /// "default": a response made by script (or by a server-side API).
    Default,
    /// "opaqueredirect": the answer to `redirect: "manual"` (status 0, no headers, no body).
    OpaqueRedirect,
}

/// A response a network fetch produced, to become a `Response` object.
#[derive(Debug, Clone)]
pub struct NetworkResponse {
    /// The status (0 for an opaque-redirect response).
    pub status: u16,
    /// The status message.
    pub status_text: Vec<u8>,
    /// The header list.
    pub headers: Vec<Header>,
    /// The body's stream (`None`: a null body).
    pub body: Option<JsObject<ReadableStream>>,
    /// The URL list: the request's URL and every redirect target followed (`url` is the last
    /// one, `redirected` is whether there is more than one).
    pub url_list: Vec<String>,
    /// The type.
    pub kind: ResponseKind,
}

/// A `Response` object for `response`, with an "immutable" headers guard (what `fetch()`
/// resolves with). Its status is taken as given (no range check: any status the network
/// sent).
pub fn new_network_response(response: NetworkResponse, ctx: &mut Context) -> JsResult<JsObject> {
    let headers = new_headers(Guard::Immutable, response.headers, ctx)?;
    let proto = response_proto(ctx)?;
    let body = response.body.map(|stream| Body {
        stream,
        source: None,
    });
    Ok(JsObject::from_proto_and_data(
        Some(proto),
        ResponseInterface {
            holder: Gc::new(BodyHolder::new(body, headers)),
            type_: Cell::new(match response.kind {
                ResponseKind::Basic => ResponseType::Basic,
                ResponseKind::Default => ResponseType::Default,
                ResponseKind::OpaqueRedirect => ResponseType::OpaqueRedirect,
            }),
            status: Cell::new(response.status),
            status_text: response.status_text,
            url_list: response
                .url_list
                .iter()
                .map(|u| JsString::from(u.as_str()))
                .collect(),
        },
    )
    .upcast())
}

/// What a `Response` object holds: its status, status message, header list and body.
#[derive(Debug, Clone)]
pub struct ResponseParts {
    /// The status.
    pub status: u16,
    /// The status message.
    pub status_text: Vec<u8>,
    /// The header list, in order.
    pub headers: Vec<Header>,
    /// The body's stream (`None`: a null body).
    pub body: Option<JsObject<ReadableStream>>,
    /// The body's bytes when it was made from bytes (a server can send them with a
    /// `Content-Length` without reading the stream).
    pub body_bytes: Option<Bytes>,
}

/// The parts of `response` if it is a `Response` object (`None` otherwise).
///
/// ```
/// use boa_engine::{Context, Source};
///
/// let mut context = Context::default();
/// boa_fetch::register(&mut context).unwrap();
/// let response = context
///     .eval(Source::from_bytes("new Response('ok', { status: 201 })"))
///     .unwrap();
/// let parts = boa_fetch::network::response_parts(&response.as_object().unwrap()).unwrap();
/// assert_eq!(parts.status, 201);
/// assert_eq!(parts.body_bytes.as_deref(), Some(&b"ok"[..]));
/// ```
pub fn response_parts(response: &JsObject) -> Option<ResponseParts> {
    let response = response.clone().downcast::<ResponseInterface>().ok()?;
    let (holder, status, status_text) = {
        let r = response.borrow();
        let d = r.data();
        (d.holder.clone(), d.status.get(), d.status_text.clone())
    };
    let headers = holder.headers.borrow().data().list();
    let body = holder.body();
    Some(ResponseParts {
        status,
        status_text,
        headers,
        body_bytes: body
            .as_ref()
            .and_then(|b| b.source.as_ref().map(boa_fileapi::ByteSeq::to_bytes)),
        body: body.map(|b| b.stream.clone()),
    })
}

/// A `Request` object for a request a server received: `method`, `url`, the header list
/// `headers` (kept as sent, "request" guard), the body stream `body` (`None`: no body) and
/// `signal` (the server aborts it when the client goes away).
///
/// ```
/// use boa_engine::{js_string, Context, Source};
///
/// let mut context = Context::default();
/// boa_fetch::register(&mut context).unwrap();
/// let signal = boa_dom::create_abort_signal(&mut context).unwrap();
/// let headers = vec![(b"cookie".to_vec(), b"a=1".to_vec())];
/// let request = boa_fetch::network::new_incoming_request(
///     b"GET".to_vec(), "http://127.0.0.1/x", headers, None, signal, &mut context,
/// ).unwrap();
/// context.global_object().set(js_string!("req"), request, false, &mut context).unwrap();
/// let seen = context
///     .eval(Source::from_bytes("req.method + ' ' + req.url + ' ' + req.headers.get('cookie')"))
///     .unwrap();
/// assert_eq!(seen.as_string().unwrap().to_std_string_escaped(), "GET http://127.0.0.1/x a=1");
/// ```
pub fn new_incoming_request(
    method: Vec<u8>,
    url: &str,
    headers: Vec<Header>,
    body: Option<JsObject<ReadableStream>>,
    signal: JsObject,
    ctx: &mut Context,
) -> JsResult<JsObject> {
    let headers = new_headers(Guard::Request, headers, ctx)?;
    let proto = request_proto(ctx)?;
    let body = body.map(|stream| Body {
        stream,
        source: None,
    });
    Ok(JsObject::from_proto_and_data(
        Some(proto),
        RequestInterface {
            holder: Gc::new(BodyHolder::new(body, headers)),
            method,
            url: JsString::from(url),
            signal,
            options: crate::options::RequestOptions::for_url(),
        },
    )
    .upcast())
}

/// `new Request(input, init)` with the realm's own `Request` constructor (not the global
/// property, which script can replace): the first step of
/// [`fetch()`](https://fetch.spec.whatwg.org/#dom-global-fetch).
///
/// ```
/// use boa_engine::{js_string, Context, JsValue};
///
/// let mut context = Context::default();
/// boa_fetch::register(&mut context).unwrap();
/// let input = JsValue::from(js_string!("http://example.test/"));
/// let request =
///     boa_fetch::network::construct_request(&input, &JsValue::undefined(), &mut context).unwrap();
/// let parts = boa_fetch::network::request_parts(&request).unwrap();
/// assert_eq!(parts.method, b"GET");
/// ```
pub fn construct_request(
    input: &boa_engine::JsValue,
    init: &boa_engine::JsValue,
    ctx: &mut Context,
) -> JsResult<JsObject> {
    let constructor = ctx
        .get_global_class::<RequestInterface>()
        .ok_or_else(|| boa_webidl::type_error("Request is not registered"))?
        .constructor();
    constructor.construct(&[input.clone(), init.clone()], None, ctx)
}
