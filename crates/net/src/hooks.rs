//! Embedder hooks: the base URL relative URLs resolve against ([`set_base_url`]) and
//! in-process handlers that answer `fetch()` for an origin without a socket
//! ([`serve_origin_locally`]).

use std::rc::Rc;

use boa_engine::Context;
use boa_fetch::headers::Header;
use boa_gc::{Finalize, Trace};
use bytes::Bytes;

/// Set the base URL of the context's current realm: relative URLs given to `fetch()`,
/// `Request` and `Response.redirect()` resolve against it (the Fetch Standard parses them
/// with the environment's API base URL). A host sets the URL of its main script or module
/// (a `file:` URL for a script on disk, so `fetch("./data.json")` reads the file beside it).
///
/// ```
/// use boa_engine::{Context, Source};
///
/// let mut context = Context::default();
/// boa_net::register(&mut context).unwrap();
/// boa_net::set_base_url(&mut context, Some("file:///srv/app/main.js"));
/// let url = context.eval(Source::from_bytes("new Request('./data.json').url")).unwrap();
/// assert_eq!(url.as_string().unwrap().to_std_string_escaped(), "file:///srv/app/data.json");
/// ```
pub fn set_base_url(context: &mut Context, url: Option<&str>) {
    boa_fetch::set_api_base_url(context, url);
}

/// A request given to a [local handler](serve_origin_locally).
#[derive(Debug, Clone)]
pub struct LocalRequest {
    /// The method (`GET`, `POST`, ...).
    pub method: String,
    /// The request's URL (absolute, without its fragment).
    pub url: String,
    /// The request's headers.
    pub headers: Vec<Header>,
    /// The request's body when it was made from bytes (a stream body is cancelled: local
    /// handlers answer from what they are given at once).
    pub body: Option<Bytes>,
}

/// What a [local handler](serve_origin_locally) answers.
#[derive(Debug, Clone, Default)]
pub struct LocalResponse {
    /// The status (a redirect status with a `Location` header is followed like any other).
    pub status: u16,
    /// The headers.
    pub headers: Vec<Header>,
    /// The body.
    pub body: Bytes,
}

impl LocalResponse {
    /// A response with `status`, no headers and `body`.
    ///
    /// ```
    /// let r = boa_net::LocalResponse::new(404, "not found");
    /// assert_eq!((r.status, &r.body[..]), (404, &b"not found"[..]));
    /// ```
    pub fn new(status: u16, body: impl Into<Bytes>) -> Self {
        Self {
            status,
            headers: Vec::new(),
            body: body.into(),
        }
    }

    /// This response with the header (`name`, `value`) appended.
    ///
    /// ```
    /// let r = boa_net::LocalResponse::new(200, "{}").with_header("content-type", "application/json");
    /// assert_eq!(r.headers, vec![(b"content-type".to_vec(), b"application/json".to_vec())]);
    /// ```
    #[must_use]
    pub fn with_header(mut self, name: &str, value: &str) -> Self {
        self.headers
            .push((name.as_bytes().to_vec(), value.as_bytes().to_vec()));
        self
    }
}

/// A local handler.
pub(crate) type Handler = Rc<dyn Fn(&LocalRequest) -> LocalResponse>;

/// The realm's local handlers, by origin (ASCII serialization).
#[derive(Default, Trace, Finalize, boa_engine::JsData)]
struct LocalOrigins {
    #[unsafe_ignore_trace]
    handlers: Vec<(String, Handler)>,
}

/// The ASCII serialization of `url`'s origin (`None` for an opaque origin or a bad URL).
fn origin_of(url: &str) -> Option<String> {
    let origin = url::Url::parse(url).ok()?.origin();
    origin.is_tuple().then(|| origin.ascii_serialization())
}

/// Answer `fetch()` for `origin` (e.g. `http://app.test:8000`) in process: every request
/// to a URL of that origin made in the context's current realm goes to `handler` instead of
/// the network, and its [`LocalResponse`] becomes the `Response` (a basic response whose body
/// is a byte stream, redirects followed as usual). Handlers are for embedders that serve
/// bundled resources or tests (the WPT runner serves its corpus this way). Setting a handler
/// for an origin again replaces it. Returns `false` if `origin` is not an HTTP(S) origin.
///
/// ```
/// use boa_engine::{Context, Source};
///
/// let mut context = Context::default();
/// boa_net::register(&mut context).unwrap();
/// assert!(boa_net::serve_origin_locally(&mut context, "http://app.test", |request| {
///     boa_net::LocalResponse::new(200, format!("{} {}", request.method, request.url))
///         .with_header("content-type", "text/plain")
/// }));
/// context
///     .eval(Source::from_bytes(
///         "globalThis.out = '';
///          fetch('http://app.test/a?b').then(r => r.text()).then(t => { out = t; });",
///     ))
///     .unwrap();
/// boa_streams::native::run_until_idle(&mut context).unwrap();
/// let out = context.eval(Source::from_bytes("out")).unwrap();
/// assert_eq!(out.as_string().unwrap().to_std_string_escaped(), "GET http://app.test/a?b");
/// ```
pub fn serve_origin_locally(
    context: &mut Context,
    origin: &str,
    handler: impl Fn(&LocalRequest) -> LocalResponse + 'static,
) -> bool {
    let Some(origin) = origin_of(origin) else {
        return false;
    };
    if !origin.starts_with("http") {
        return false;
    }
    let realm = context.realm().clone();
    let mut host_defined = realm.host_defined_mut();
    if host_defined.get::<LocalOrigins>().is_none() {
        host_defined.insert(LocalOrigins::default());
    }
    if let Some(origins) = host_defined.get_mut::<LocalOrigins>() {
        origins.handlers.retain(|(o, _)| *o != origin);
        origins.handlers.push((origin, Rc::new(handler)));
    }
    true
}

/// The local handler for `url`'s origin in the context's current realm, if any.
pub(crate) fn local_handler(context: &Context, url: &str) -> Option<Handler> {
    let realm = context.realm().clone();
    let host_defined = realm.host_defined();
    let origins = host_defined.get::<LocalOrigins>()?;
    if origins.handlers.is_empty() {
        return None;
    }
    let origin = origin_of(url)?;
    origins
        .handlers
        .iter()
        .find(|(o, _)| *o == origin)
        .map(|(_, h)| h.clone())
}
