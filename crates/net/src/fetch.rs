//! [`fetch(input, init)`](https://fetch.spec.whatwg.org/#dom-global-fetch) as a server
//! runtime does it (no CORS, no cookie store, no cache): `data:` URLs through the data: URL
//! processor, `http:` through hyper's pooled HTTP/1.1 client, redirects followed here (so
//! each hop is visible: URL list, method changes, the 20-redirect limit).

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::Duration;

use boa_engine::{
    object::FunctionObjectBuilder, Context, JsObject, JsResult, JsValue, NativeFunction,
};
use boa_fetch::headers::Header;
use boa_fetch::network::{
    construct_request, new_network_response, request_parts, NetworkResponse, ResponseKind,
};
use boa_fetch::{HeadersPolicy, RequestCache, RequestRedirect};
use boa_gc::{Finalize, Trace};
use boa_streams::native::{
    native_byte_stream, spawn_future, ReadableStream, SpawnedFuture, StreamReader,
};
use boa_webidl::capabilities::{Capabilities, Denied};
use boa_webidl::promise::PromiseCapability;
use boa_webidl::{arg, own_error_value, type_error};
use hyper_util::client::legacy::{connect::HttpConnector, Client};
use hyper_util::rt::{TokioExecutor, TokioTimer};

use crate::body::{abort_incoming, incoming_stream, pump, InState, OutBody, PumpEnd};

/// The most redirects a fetch follows (the Fetch Standard's limit).
const MAX_REDIRECTS: usize = 20;

/// The connector: TCP, and TLS (rustls) for `https:`.
type Connector = hyper_rustls::HttpsConnector<HttpConnector>;

/// Certificates an embedder added to the trusted roots ([`add_root_certificate`]).
static EXTRA_ROOTS: std::sync::Mutex<Vec<rustls::pki_types::CertificateDer<'static>>> =
    std::sync::Mutex::new(Vec::new());

/// The process-wide pooled client (keep-alive connections are reused across fetches and
/// contexts), made on first use and again after the roots change.
static CLIENT: std::sync::RwLock<Option<Client<Connector, OutBody>>> = std::sync::RwLock::new(None);

/// The client (see [`CLIENT`]).
fn client() -> Result<Client<Connector, OutBody>, String> {
    if let Some(client) = CLIENT.read().ok().and_then(|c| c.clone()) {
        return Ok(client);
    }
    // The trusted roots: the Mozilla roots of webpki-roots, and the embedder's.
    let mut roots = rustls::RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    if let Ok(extra) = EXTRA_ROOTS.lock() {
        for cert in extra.iter() {
            roots
                .add(cert.clone())
                .map_err(|e| format!("a root certificate was refused: {e}"))?;
        }
    }
    let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("cannot set up TLS: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    let mut http = HttpConnector::new();
    http.set_nodelay(true);
    http.enforce_http(false);
    let connector = hyper_rustls::HttpsConnectorBuilder::new()
        .with_tls_config(config)
        .https_or_http()
        .enable_http1()
        .wrap_connector(http);
    let client = Client::builder(TokioExecutor::new())
        .pool_timer(TokioTimer::new())
        .pool_idle_timeout(Duration::from_secs(30))
        .pool_max_idle_per_host(64)
        .build(connector);
    if let Ok(mut slot) = CLIENT.write() {
        *slot = Some(client.clone());
    }
    Ok(client)
}

/// Trust `der` (a DER-encoded X.509 certificate) as a root for `https:` fetches, besides the
/// Mozilla roots of `webpki-roots`: for a private CA or a test server. Process-wide; fetches
/// started afterwards use it (the connection pool starts anew). An error if it is not a
/// certificate rustls accepts as a trust anchor.
///
/// ```
/// assert!(boa_net::add_root_certificate(b"not a certificate").is_err());
/// ```
pub fn add_root_certificate(der: &[u8]) -> Result<(), String> {
    let cert = rustls::pki_types::CertificateDer::from(der.to_vec());
    rustls::RootCertStore::empty()
        .add(cert.clone())
        .map_err(|e| format!("not a usable root certificate: {e}"))?;
    EXTRA_ROOTS
        .lock()
        .map_err(|_| "the root certificates are poisoned".to_string())?
        .push(cert);
    if let Ok(mut slot) = CLIENT.write() {
        *slot = None;
    }
    Ok(())
}

/// Where a fetch is.
enum Phase {
    /// Waiting for the response head: the tokio task and the driver future awaiting it.
    Requesting {
        abort: tokio::task::AbortHandle,
        /// (`None` while it is first polled.)
        task: Option<SpawnedFuture>,
    },
    /// The response was delivered; its body is being read.
    Body {
        stream: JsObject<ReadableStream>,
        state: Rc<InState>,
    },
    /// Finished (settled and body done, or aborted).
    Done,
}

/// One fetch in progress.
struct FetchState {
    capability: PromiseCapability,
    /// The request's signal, and the id of our abort algorithm on it (cleared when the fetch
    /// is finished, which breaks the signal → algorithm → state cycle).
    signal: RefCell<Option<(JsObject, boa_dom::AbortAlgorithmId)>>,
    redirect: RequestRedirect,
    /// The cache mode (no cache here: it adds request headers, or fails "only-if-cached").
    cache: RequestCache,
    /// The realm's headers policy when the fetch started: whether a manual redirect is the
    /// real 3xx response (server runtime) or an opaque-redirect response (browser).
    policy: HeadersPolicy,
    method: RefCell<Vec<u8>>,
    headers: RefCell<Vec<Header>>,
    url_list: RefCell<Vec<String>>,
    /// The body's bytes (resent after a 307/308), if it was made from bytes.
    body_bytes: RefCell<Option<bytes::Bytes>>,
    /// The body's stream, when the body is a `ReadableStream` not yet sent.
    body_stream: RefCell<Option<JsObject<ReadableStream>>>,
    /// Whether the request has a body that was a stream (it cannot be sent twice).
    streamed_body: Cell<bool>,
    /// The request's integrity metadata (`integrity`; empty when none): when not empty, the
    /// response body is read whole and checked before the fetch resolves.
    integrity: String,
    /// The pump reading the request body stream, and its reader.
    pump: RefCell<Option<(SpawnedFuture, StreamReader)>>,
    phase: RefCell<Phase>,
    settled: Cell<bool>,
}

/// The captures of the abort algorithm.
#[derive(Trace, Finalize)]
struct AbortCapture(#[unsafe_ignore_trace] Rc<FetchState>);

/// The `fetch(input, init)` method.
pub(crate) fn fetch_method(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    // 1. Let p be a new promise.
    let capability = PromiseCapability::new(ctx);
    if let Err(e) = start(&arg(args, 0), &arg(args, 1), &capability, ctx) {
        let reason = own_error_value(e, ctx);
        capability.reject(reason, ctx);
    }
    Ok(capability.value())
}

/// Steps 2-12 of fetch(): make the request, then fetch it.
fn start(
    input: &JsValue,
    init: &JsValue,
    capability: &PromiseCapability,
    ctx: &mut Context,
) -> JsResult<()> {
    // 2. Let requestObject be the result of invoking the initial value of Request as
    //    constructor with input and init as arguments. If this throws, reject p.
    let request = construct_request(input, init, ctx)?;
    // 3. Let request be requestObject's request.
    let parts = request_parts(&request).ok_or_else(|| type_error("not a Request"))?;
    let streamed = parts.body.is_some() && parts.body_bytes.is_none();
    let state = Rc::new(FetchState {
        capability: capability.clone(),
        signal: RefCell::new(None),
        redirect: parts.redirect,
        cache: parts.cache,
        policy: boa_fetch::headers_policy(ctx),
        method: RefCell::new(parts.method),
        headers: RefCell::new(parts.headers),
        url_list: RefCell::new(vec![parts.url.clone()]),
        body_bytes: RefCell::new(parts.body_bytes),
        body_stream: RefCell::new(if streamed { parts.body.clone() } else { None }),
        streamed_body: Cell::new(streamed),
        integrity: parts.integrity,
        pump: RefCell::new(None),
        phase: RefCell::new(Phase::Done),
        settled: Cell::new(false),
    });
    // 4. If requestObject's signal is aborted, then abort the fetch() call with p, request,
    //    null, and requestObject's signal's abort reason, and return p.
    if boa_dom::is_aborted(&parts.signal) {
        let reason = boa_dom::abort_reason(&parts.signal);
        if let Some(body) = &parts.body {
            cancel_stream(body, reason.clone(), ctx);
        }
        capability.reject(reason, ctx);
        return Ok(());
    }
    // 11. Add the following abort steps to requestObject's signal: abort the fetch() call.
    let algorithm = FunctionObjectBuilder::new(
        ctx.realm(),
        NativeFunction::from_copy_closure_with_captures(
            |_, _, capture: &AbortCapture, ctx| {
                let state = capture.0.clone();
                let reason = state
                    .signal
                    .borrow()
                    .as_ref()
                    .map(|(s, _)| boa_dom::abort_reason(s))
                    .unwrap_or_default();
                abort_fetch(&state, reason, ctx);
                Ok(JsValue::undefined())
            },
            AbortCapture(state.clone()),
        ),
    )
    .build();
    let id = boa_dom::add_abort_algorithm(&parts.signal, algorithm);
    *state.signal.borrow_mut() = Some((parts.signal.clone(), id));
    // 12. Set controller to the result of calling fetch given request.
    scheme_fetch(&state, ctx);
    Ok(())
}

/// Cancel `stream` with `reason` (a request body no one will send).
fn cancel_stream(stream: &JsObject<ReadableStream>, reason: JsValue, ctx: &mut Context) {
    if boa_streams::native::readable_stream_is_locked(stream) {
        return;
    }
    if let Ok(reader) = StreamReader::new(stream, ctx) {
        drop(reader.cancel(reason, ctx));
    }
}

/// Forget the abort algorithm and mark the fetch done.
fn finish(state: &FetchState) {
    let signal = state.signal.borrow_mut().take();
    if let Some((signal, id)) = signal {
        boa_dom::remove_abort_algorithm(&signal, id);
    }
    *state.phase.borrow_mut() = Phase::Done;
}

/// [Abort the fetch() call](https://fetch.spec.whatwg.org/#abort-fetch) with `reason`.
fn abort_fetch(state: &Rc<FetchState>, reason: JsValue, ctx: &mut Context) {
    let phase = std::mem::replace(&mut *state.phase.borrow_mut(), Phase::Done);
    // 1. Reject promise with error (no-op once settled).
    if !state.settled.replace(true) {
        state.capability.reject(reason.clone(), ctx);
    }
    match phase {
        // Drop the in-flight request: hyper closes its connection.
        Phase::Requesting { abort, task } => {
            abort.abort();
            if let Some(task) = task {
                task.abort();
            }
        }
        // 3. If responseObject is null, return. 5-6. If response's body is non-null and
        //    is readable, then error response's body with error.
        Phase::Body {
            stream,
            state: body,
        } => abort_incoming(&stream, &body, reason.clone(), ctx),
        Phase::Done => {}
    }
    // 2. If request's body is non-null and is readable, then cancel request's body with
    //    error.
    let pump = state.pump.borrow_mut().take();
    if let Some((task, reader)) = pump {
        task.abort();
        drop(reader.cancel(reason.clone(), ctx));
    }
    let unsent = state.body_stream.borrow_mut().take();
    if let Some(stream) = unsent {
        cancel_stream(&stream, reason, ctx);
    }
    finish(state);
}

/// Reject the fetch with a network error: a TypeError with `message`.
fn network_error(state: &Rc<FetchState>, message: String, ctx: &mut Context) {
    fail(state, &format!("fetch failed: {message}"), ctx);
}

/// Reject the fetch of `url` (the current hop) that the context's capabilities deny: a
/// TypeError naming the capability and its flag (nothing was sent or read).
fn denied(state: &Rc<FetchState>, url: &str, denied: &Denied, ctx: &mut Context) {
    let message = format!("fetch of {url} denied: {}", denied.reason());
    // A request body stream not sent is canceled with the same error.
    let unsent = state.body_stream.borrow_mut().take();
    if let Some(stream) = unsent {
        let reason = own_error_value(type_error(message.as_str()), ctx);
        cancel_stream(&stream, reason, ctx);
    }
    fail(state, &message, ctx);
}

/// Reject the fetch with a TypeError whose message is `message`, and cancel what it sends.
fn fail(state: &Rc<FetchState>, message: &str, ctx: &mut Context) {
    if !state.settled.replace(true) {
        let e = own_error_value(type_error(message), ctx);
        state.capability.reject(e, ctx);
    }
    let pump = state.pump.borrow_mut().take();
    if let Some((task, reader)) = pump {
        task.abort();
        let reason = own_error_value(type_error(message), ctx);
        drop(reader.cancel(reason, ctx));
    }
    finish(state);
}

/// Resolve the fetch with `response`, or, when the request has integrity metadata, read its
/// body first and check it (main fetch: "if request's integrity metadata is not the empty
/// string").
fn respond(state: &Rc<FetchState>, response: NetworkResponse, ctx: &mut Context) {
    if state.settled.get() {
        return;
    }
    if !state.integrity.is_empty() {
        return check_integrity(state, response, ctx);
    }
    handover(state, response, ctx);
}

/// Main fetch's integrity step: a response with a null body is a network error; else its body
/// is fully read (the whole body is buffered: the heap limit, if any, bounds it) and, if the
/// bytes do not [match](crate::integrity::matches) the request's integrity metadata, the
/// fetch is a network error; if they do, the response gets those bytes as its body.
fn check_integrity(state: &Rc<FetchState>, mut response: NetworkResponse, ctx: &mut Context) {
    let url = current_url(state);
    let Some(body) = response.body.take() else {
        return network_error(
            state,
            format!("{url}: integrity mismatch (the response has no body)"),
            ctx,
        );
    };
    let reader = match StreamReader::new(&body, ctx) {
        Ok(r) => r,
        Err(e) => return network_error(state, format!("{url}: {e}"), ctx),
    };
    let weak = Rc::downgrade(state);
    let read = reader.read_all(ctx);
    // Not kept: an abort errors the body stream (http:, file:) or finds the fetch settled.
    drop(spawn_future(
        read,
        move |result, ctx| {
            let Some(state) = weak.upgrade() else { return };
            if state.settled.get() {
                return;
            }
            let bytes = match result {
                Ok(bytes) => bytes,
                Err(e) => return network_error(&state, format!("{url}: {e}"), ctx),
            };
            if !crate::integrity::matches(&bytes, &state.integrity) {
                return network_error(&state, format!("{url}: integrity mismatch"), ctx);
            }
            match native_byte_stream(std::iter::once(bytes), ctx) {
                Ok(stream) => {
                    response.body = Some(stream);
                    handover(&state, response, ctx);
                }
                Err(e) => network_error(&state, format!("{url}: {e}"), ctx),
            }
        },
        ctx,
    ));
}

/// Fetch response handover: resolve the fetch with `response`.
fn handover(state: &Rc<FetchState>, response: NetworkResponse, ctx: &mut Context) {
    if state.settled.replace(true) {
        return;
    }
    match new_network_response(response, ctx) {
        Ok(object) => state.capability.resolve(object.into(), ctx),
        Err(e) => {
            let e = own_error_value(e, ctx);
            state.capability.reject(e, ctx);
        }
    }
}

/// The current URL (the last of the URL list).
fn current_url(state: &FetchState) -> String {
    state.url_list.borrow().last().cloned().unwrap_or_default()
}

/// [Scheme fetch](https://fetch.spec.whatwg.org/#scheme-fetch) (and HTTP fetch for http:).
fn scheme_fetch(state: &Rc<FetchState>, ctx: &mut Context) {
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
    match scheme.as_str() {
        "data" => data_fetch(state, &url, ctx),
        "blob" => blob_fetch(state, &url, ctx),
        "http" | "https" => http_fetch(state, ctx),
        "file" => file_fetch(state, &url, ctx),
        "about" => network_error(
            state,
            format!("{url}: the {scheme}: scheme is not supported"),
            ctx,
        ),
        _ => network_error(state, format!("{url}: unknown scheme \"{scheme}\""), ctx),
    }
}

/// "blob": the Blob the blob URL store has for the URL (`crate::blob_url`).
fn blob_fetch(state: &Rc<FetchState>, url: &str, ctx: &mut Context) {
    let method = state.method.borrow().clone();
    let headers = state.headers.borrow().clone();
    let response = match crate::blob_url::blob_fetch(url, &method, &headers, ctx) {
        Ok(r) => r,
        Err(message) => return network_error(state, message, ctx),
    };
    let url_list = state.url_list.borrow().clone();
    finish(state);
    respond(
        state,
        NetworkResponse {
            status: response.status,
            status_text: response.status_text.to_vec(),
            headers: response.headers,
            body: Some(response.body),
            url_list,
            kind: ResponseKind::Basic,
        },
        ctx,
    );
}

/// "data": the data: URL processor; a 200 response with the MIME type as `Content-Type`.
fn data_fetch(state: &Rc<FetchState>, url: &str, ctx: &mut Context) {
    // 1. Let dataURLStruct be the result of running the data: URL processor on request's
    //    current URL.
    // 2. If dataURLStruct is failure, then return a network error.
    let data = match crate::data_url::process(url) {
        Ok(d) => d,
        Err(message) => return network_error(state, message, ctx),
    };
    // The request body (if any) is not read: cancel it.
    let unsent = state.body_stream.borrow_mut().take();
    if let Some(stream) = unsent {
        cancel_stream(&stream, JsValue::undefined(), ctx);
    }
    // 3-4. Return a new response whose status message is `OK`, header list is
    //    « (`Content-Type`, mimeType) », and body is dataURLStruct's body as a body.
    let body = match native_byte_stream(std::iter::once(data.body), ctx) {
        Ok(b) => b,
        Err(e) => return network_error(state, e.to_string(), ctx),
    };
    let url_list = state.url_list.borrow().clone();
    finish(state);
    respond(
        state,
        NetworkResponse {
            status: 200,
            status_text: b"OK".to_vec(),
            headers: vec![(b"Content-Type".to_vec(), data.mime_type.into_bytes())],
            body: Some(body),
            url_list,
            kind: ResponseKind::Basic,
        },
        ctx,
    );
}

/// The request headers HTTP-network-or-cache fetch adds for the cache mode (steps 15-17):
/// a conditional request (`If-Modified-Since`, `If-None-Match`, `If-Unmodified-Since`,
/// `If-Match`, `If-Range`) in mode "default" is treated as "no-store"; "no-cache" adds
/// `Cache-Control: max-age=0`; "no-store" and "reload" add `Pragma: no-cache` and
/// `Cache-Control: no-cache`; none replaces a header the request has.
fn cache_headers(state: &FetchState) -> Vec<(&'static str, &'static str)> {
    let headers = state.headers.borrow();
    let has = |name: &str| {
        headers
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(name.as_bytes()))
    };
    let mut cache = state.cache;
    let conditional = [
        "if-modified-since",
        "if-none-match",
        "if-unmodified-since",
        "if-match",
        "if-range",
    ];
    if cache == RequestCache::Default && conditional.iter().any(|n| has(n)) {
        cache = RequestCache::NoStore;
    }
    let mut extra = Vec::new();
    if cache == RequestCache::NoCache && !has("cache-control") {
        extra.push(("cache-control", "max-age=0"));
    }
    if matches!(cache, RequestCache::NoStore | RequestCache::Reload) {
        if !has("pragma") {
            extra.push(("pragma", "no-cache"));
        }
        if !has("cache-control") {
            extra.push(("cache-control", "no-cache"));
        }
    }
    extra
}

/// Build the hyper request for the current URL, method, headers and body.
fn build_request(
    state: &Rc<FetchState>,
    ctx: &mut Context,
) -> Result<http::Request<OutBody>, String> {
    let url = current_url(state);
    let uri: http::Uri = url
        .split('#')
        .next()
        .unwrap_or_default()
        .parse()
        .map_err(|e| format!("{url}: invalid URL for HTTP ({e})"))?;
    let method = http::Method::from_bytes(&state.method.borrow())
        .map_err(|_| "invalid method".to_string())?;
    let mut builder = http::Request::builder().method(method).uri(uri);
    for (name, value) in state.headers.borrow().iter() {
        let name = http::HeaderName::from_bytes(name)
            .map_err(|_| format!("invalid header name {}", String::from_utf8_lossy(name)))?;
        let value = http::HeaderValue::from_bytes(value)
            .map_err(|_| format!("invalid value for header {name}"))?;
        builder = builder.header(name, value);
    }
    for (name, value) in cache_headers(state) {
        builder = builder.header(name, value);
    }
    // HTTP-network-or-cache fetch: "if httpRequest's header list does not contain
    // `Accept-Encoding`", append the codings decoded here.
    let has_accept_encoding = state
        .headers
        .borrow()
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case(b"accept-encoding"));
    if !has_accept_encoding {
        builder = builder.header(http::header::ACCEPT_ENCODING, "gzip, deflate");
    }
    let stream = state.body_stream.borrow_mut().take();
    let body = if let Some(stream) = stream {
        let (body, future, reader) = pump(&stream, ctx).map_err(|e| e.to_string())?;
        let weak = Rc::downgrade(state);
        let task = spawn_future(
            future,
            move |end, ctx| {
                let Some(state) = weak.upgrade() else { return };
                let pump = state.pump.borrow_mut().take();
                if let (PumpEnd::ReceiverGone, Some((_, reader))) = (end, pump) {
                    let reason = own_error_value(
                        type_error(
                            "fetch failed: the connection closed before the request body was sent",
                        ),
                        ctx,
                    );
                    drop(reader.cancel(reason, ctx));
                }
            },
            ctx,
        );
        *state.pump.borrow_mut() = Some((task, reader));
        body
    } else {
        match state.body_bytes.borrow().clone() {
            Some(bytes) => OutBody::Full(Some(bytes)),
            None => OutBody::Empty,
        }
    };
    builder.body(body).map_err(|e| e.to_string())
}

/// HTTP-network fetch: send the request on the pooled client; the response head comes
/// back to [`on_response`].
fn http_fetch(state: &Rc<FetchState>, ctx: &mut Context) {
    let request = match build_request(state, ctx) {
        Ok(r) => r,
        Err(message) => return network_error(state, message, ctx),
    };
    let runtime = match crate::runtime() {
        Ok(r) => r,
        Err(e) => return network_error(state, e.to_string(), ctx),
    };
    let client = match client() {
        Ok(c) => c,
        Err(message) => return network_error(state, message, ctx),
    };
    let join = runtime.spawn(client.request(request));
    let abort = join.abort_handle();
    // The phase is set before the first poll: the response can be there already.
    *state.phase.borrow_mut() = Phase::Requesting { abort, task: None };
    let weak = Rc::downgrade(state);
    let task = spawn_future(
        join,
        move |result, ctx| {
            if let Some(state) = weak.upgrade() {
                on_response(&state, result, ctx);
            }
        },
        ctx,
    );
    if let Phase::Requesting { task: slot, .. } = &mut *state.phase.borrow_mut() {
        if slot.is_none() && !task.is_finished() {
            *slot = Some(task);
        }
    }
}

type ClientResult = Result<
    Result<http::Response<hyper::body::Incoming>, hyper_util::client::legacy::Error>,
    tokio::task::JoinError,
>;

/// Whether `status` is a [redirect status](https://fetch.spec.whatwg.org/#redirect-status).
fn is_redirect_status(status: u16) -> bool {
    matches!(status, 301 | 302 | 303 | 307 | 308)
}

/// The response head arrived (or the request failed).
fn on_response(state: &Rc<FetchState>, result: ClientResult, ctx: &mut Context) {
    if !matches!(*state.phase.borrow(), Phase::Requesting { .. }) {
        return;
    }
    *state.phase.borrow_mut() = Phase::Done;
    let response = match result {
        Err(e) => return network_error(state, format!("{}: {e}", current_url(state)), ctx),
        Ok(Err(e)) => return network_error(state, describe_error(&current_url(state), &e), ctx),
        Ok(Ok(r)) => r,
    };
    let status = response.status().as_u16();
    let location = response
        .headers()
        .get(http::header::LOCATION)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
    if is_redirect_status(status) && redirect(state, status, location.as_deref(), ctx) {
        return;
    }
    let headers: Vec<Header> = response
        .headers()
        .iter()
        .map(|(n, v)| (n.as_str().as_bytes().to_vec(), v.as_bytes().to_vec()))
        .collect();
    let status_text = response
        .extensions()
        .get::<hyper::ext::ReasonPhrase>()
        .map(|r| r.as_bytes().to_vec())
        .or_else(|| {
            response
                .status()
                .canonical_reason()
                .map(|r| r.as_bytes().to_vec())
        })
        .unwrap_or_default();
    // The codings of `Content-Encoding` (a comma-separated list, in the order applied).
    // NOTE: the headers stay as received (Content-Encoding and Content-Length included), as
    // the Fetch Standard and undici leave them: they describe the bytes on the wire.
    let codings: Vec<String> = response
        .headers()
        .get_all(http::header::CONTENT_ENCODING)
        .iter()
        .flat_map(|v| {
            String::from_utf8_lossy(v.as_bytes())
                .split(',')
                .map(|c| c.trim().to_ascii_lowercase())
                .collect::<Vec<_>>()
        })
        .filter(|c| !c.is_empty() && c != "identity")
        .collect();
    let body = response.into_body();
    // An unknown coding (br, zstd): the body is handed over as received.
    let decodable = codings
        .iter()
        .all(|c| matches!(c.as_str(), "gzip" | "x-gzip" | "deflate"));
    if !codings.is_empty() && decodable {
        if let Some(decoded) = crate::decode::Decoded::new(body, &codings) {
            return respond_with_body(state, status, status_text, headers, decoded, ctx);
        }
        return network_error(
            state,
            format!("{}: cannot decode {codings:?}", current_url(state)),
            ctx,
        );
    }
    respond_with_body(state, status, status_text, headers, body, ctx);
}

/// Resolve the fetch with a basic response whose body is `body` read as a byte stream (a
/// null body for `HEAD` and the null body statuses).
fn respond_with_body<B>(
    state: &Rc<FetchState>,
    status: u16,
    status_text: Vec<u8>,
    headers: Vec<Header>,
    body: B,
    ctx: &mut Context,
) where
    B: hyper::body::Body<Data = bytes::Bytes> + Send + 'static,
    B::Error: Into<crate::body::BoxError>,
{
    let null_body = state.method.borrow().as_slice() == b"HEAD"
        || matches!(status, 101 | 103 | 204 | 205 | 304);
    let body = if null_body {
        drop(body);
        finish(state);
        None
    } else {
        let weak = Rc::downgrade(state);
        let on_done: Box<dyn FnOnce()> = Box::new(move || {
            if let Some(state) = weak.upgrade() {
                finish(&state);
            }
        });
        match incoming_stream(body, Some(on_done), ctx) {
            Ok((stream, body)) => {
                *state.phase.borrow_mut() = Phase::Body {
                    stream: stream.clone(),
                    state: body,
                };
                Some(stream)
            }
            Err(e) => return network_error(state, e.to_string(), ctx),
        }
    };
    let url_list = state.url_list.borrow().clone();
    respond(
        state,
        NetworkResponse {
            status,
            status_text,
            headers,
            body,
            url_list,
            kind: ResponseKind::Basic,
        },
        ctx,
    );
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
    let request = crate::LocalRequest {
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
    let location = response
        .headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(b"location"))
        .map(|(_, v)| String::from_utf8_lossy(v).into_owned());
    if is_redirect_status(response.status)
        && redirect(state, response.status, location.as_deref(), ctx)
    {
        return;
    }
    if !(200..=599).contains(&response.status) {
        let message = format!(
            "{}: local handler answered status {}",
            request.url, response.status
        );
        return network_error(state, message, ctx);
    }
    let status_text = http::StatusCode::from_u16(response.status)
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

/// The most bytes of a file read ahead of its response body stream.
const FILE_CHUNK: usize = 64 * 1024;

/// "file": a local file (as Deno allows), read on the runtime in chunks of 64 KiB through a
/// one-chunk channel, so the file is read only as fast as the body stream is.
fn file_fetch(state: &Rc<FetchState>, url: &str, ctx: &mut Context) {
    let method = state.method.borrow().clone();
    if !matches!(method.as_slice(), b"GET" | b"HEAD") {
        let message = format!(
            "{url}: the method {} is not allowed for a file: URL (only GET and HEAD)",
            String::from_utf8_lossy(&method)
        );
        return network_error(state, message, ctx);
    }
    let path = match url::Url::parse(url)
        .ok()
        .and_then(|u| u.to_file_path().ok())
    {
        Some(p) => p,
        None => {
            return network_error(state, format!("{url}: not a local file path"), ctx);
        }
    };
    // Open the canonical path the check admitted (not a name that could be swapped).
    let path = match Capabilities::of(ctx).check_read(&path) {
        Ok(p) => p,
        Err(d) => return denied(state, url, &d, ctx),
    };
    let unsent = state.body_stream.borrow_mut().take();
    if let Some(stream) = unsent {
        cancel_stream(&stream, JsValue::undefined(), ctx);
    }
    let runtime = match crate::runtime() {
        Ok(r) => r,
        Err(e) => return network_error(state, e.to_string(), ctx),
    };
    let join = runtime.spawn(async move {
        use tokio::io::AsyncReadExt;
        let mut file = tokio::fs::File::open(&path).await?;
        let metadata = file.metadata().await?;
        if metadata.is_dir() {
            return Err(std::io::Error::other("is a directory"));
        }
        let (tx, rx) = tokio::sync::mpsc::channel(1);
        tokio::spawn(async move {
            // Bounded by the file's length: each turn reads at least one byte or ends.
            loop {
                let mut buffer = bytes::BytesMut::with_capacity(FILE_CHUNK);
                match file.read_buf(&mut buffer).await {
                    Ok(0) => break,
                    Ok(_) => {
                        if tx.send(Ok(buffer.freeze())).await.is_err() {
                            break;
                        }
                    }
                    Err(e) => {
                        let _ = tx.send(Err(e)).await;
                        break;
                    }
                }
            }
        });
        Ok((metadata.len(), rx))
    });
    let abort = join.abort_handle();
    *state.phase.borrow_mut() = Phase::Requesting { abort, task: None };
    let weak = Rc::downgrade(state);
    let url = url.to_owned();
    let task = spawn_future(
        join,
        move |result, ctx| {
            let Some(state) = weak.upgrade() else { return };
            if !matches!(*state.phase.borrow(), Phase::Requesting { .. }) {
                return;
            }
            *state.phase.borrow_mut() = Phase::Done;
            match result {
                Err(e) => network_error(&state, format!("{url}: {e}"), ctx),
                Ok(Err(e)) => network_error(&state, format!("{url}: {e}"), ctx),
                Ok(Ok((length, rx))) => {
                    let headers =
                        vec![(b"content-length".to_vec(), length.to_string().into_bytes())];
                    let body = crate::body::ChannelBody(rx);
                    respond_with_body(&state, 200, b"OK".to_vec(), headers, body, ctx);
                }
            }
        },
        ctx,
    );
    if let Phase::Requesting { task: slot, .. } = &mut *state.phase.borrow_mut() {
        if slot.is_none() && !task.is_finished() {
            *slot = Some(task);
        }
    }
}

/// HTTP fetch's switch on the redirect mode, for a response whose status is a
/// [redirect status](https://fetch.spec.whatwg.org/#redirect-status) (`location`: its
/// `Location` value, if any). `true` when it was dealt with here; `false` when the response
/// itself is the answer, for the caller to deliver: a manual redirect in a server runtime
/// (Node, Deno and workerd give script the 3xx with its headers and body), or a redirect
/// without a `Location` to follow.
fn redirect(
    state: &Rc<FetchState>,
    status: u16,
    location: Option<&str>,
    ctx: &mut Context,
) -> bool {
    match state.redirect {
        // "error": set response to a network error.
        RequestRedirect::Error => {
            network_error(
                state,
                format!(
                    "{}: redirected ({status}) with redirect mode \"error\"",
                    current_url(state)
                ),
                ctx,
            );
            true
        }
        // "manual": in a server runtime, the response as is.
        RequestRedirect::Manual if state.policy == HeadersPolicy::ServerRuntime => false,
        // "manual" (browser): an opaque-redirect filtered response.
        RequestRedirect::Manual => {
            let url_list = state.url_list.borrow().clone();
            let pump = state.pump.borrow_mut().take();
            drop(pump);
            finish(state);
            respond(
                state,
                NetworkResponse {
                    status: 0,
                    status_text: Vec::new(),
                    headers: Vec::new(),
                    body: None,
                    url_list,
                    kind: ResponseKind::OpaqueRedirect,
                },
                ctx,
            );
            true
        }
        // "follow": HTTP-redirect fetch; 3. a null location URL returns the response.
        RequestRedirect::Follow => match location {
            Some(location) => {
                follow_redirect(state, status, location, ctx);
                true
            }
            None => false,
        },
    }
}

/// [HTTP-redirect fetch](https://fetch.spec.whatwg.org/#http-redirect-fetch) to `location`.
fn follow_redirect(state: &Rc<FetchState>, status: u16, location: &str, ctx: &mut Context) {
    // 3. Let locationURL be actualResponse's location URL given request's current URL's
    //    fragment. 4. If locationURL is failure, then return a network error.
    let current = current_url(state);
    let next = match url::Url::parse(&current).and_then(|base| base.join(location)) {
        Ok(u) => u,
        Err(e) => {
            return network_error(
                state,
                format!("{current}: invalid Location \"{location}\" ({e})"),
                ctx,
            )
        }
    };
    // 6. If locationURL's scheme is not an HTTP(S) scheme, then return a network error.
    if !matches!(next.scheme(), "http" | "https") {
        return network_error(
            state,
            format!("{current}: redirect to a non-HTTP URL {next}"),
            ctx,
        );
    }
    // 7. If request's redirect count is 20, then return a network error.
    if state.url_list.borrow().len() > MAX_REDIRECTS {
        return network_error(state, format!("{current}: too many redirects"), ctx);
    }
    // 11. If status is 307 or 308 and request's body's source is null (a stream), then
    //     return a network error. (Checked whatever the status when the stream was sent:
    //     its bytes are gone.)
    let method_changes = {
        let method = state.method.borrow();
        ((status == 301 || status == 302) && method.as_slice() == b"POST")
            || (status == 303 && !matches!(method.as_slice(), b"GET" | b"HEAD"))
    };
    if state.streamed_body.get() && !method_changes {
        return network_error(
            state,
            format!("{current}: cannot follow a {status} redirect with a streamed request body"),
            ctx,
        );
    }
    // 12. If one of the following is true: (301/302 and POST) or (303 and not GET/HEAD),
    //     set method to `GET` and body to null; remove the request-body-header names.
    if method_changes {
        *state.method.borrow_mut() = b"GET".to_vec();
        *state.body_bytes.borrow_mut() = None;
        state.streamed_body.set(false);
        let pump = state.pump.borrow_mut().take();
        drop(pump);
        state.headers.borrow_mut().retain(|(name, _)| {
            let name = name.to_ascii_lowercase();
            !matches!(
                name.as_slice(),
                b"content-encoding"
                    | b"content-language"
                    | b"content-location"
                    | b"content-type"
                    | b"content-length"
            )
        });
    }
    // 13. If request's current URL's origin is not same origin with locationURL's origin,
    //     remove `Authorization` from request's header list.
    let same_origin = url::Url::parse(&current).is_ok_and(|u| u.origin() == next.origin());
    if !same_origin {
        state
            .headers
            .borrow_mut()
            .retain(|(name, _)| !name.eq_ignore_ascii_case(b"authorization"));
    }
    // 18. Append locationURL to request's URL list. 20. Return main fetch.
    state.url_list.borrow_mut().push(next.to_string());
    scheme_fetch(state, ctx);
}

/// A readable message for a failed request to `url`: what went wrong first (the DNS lookup,
/// the connection, TLS, the peer closing), then the error chain for details.
pub(crate) fn describe_error(url: &str, error: &(dyn std::error::Error + 'static)) -> String {
    let chain = crate::error_chain(error);
    let host = url::Url::parse(url)
        .ok()
        .map(|u| {
            let host = u.host_str().unwrap_or_default().to_owned();
            match u.port_or_known_default() {
                Some(port) => format!("{host}:{port}"),
                None => host,
            }
        })
        .unwrap_or_default();
    // The first io::Error in the chain says what the socket saw.
    let mut io_kind = None;
    let mut source = Some(error);
    for _ in 0..16 {
        let Some(e) = source else { break };
        if let Some(io) = e.downcast_ref::<std::io::Error>() {
            io_kind = Some(io.kind());
            break;
        }
        source = e.source();
    }
    let lower = chain.to_ascii_lowercase();
    let what = if lower.contains("dns error") || lower.contains("failed to lookup address") {
        format!("DNS lookup for {host} failed")
    } else if lower.contains("certificate") || lower.contains("tls") || lower.contains("handshake")
    {
        format!("TLS handshake with {host} failed")
    } else {
        match io_kind {
            Some(std::io::ErrorKind::ConnectionRefused) => {
                format!("connection refused by {host}")
            }
            Some(std::io::ErrorKind::ConnectionReset | std::io::ErrorKind::ConnectionAborted)
            | Some(std::io::ErrorKind::BrokenPipe) => format!("connection reset by {host}"),
            Some(std::io::ErrorKind::TimedOut) => format!("connection to {host} timed out"),
            _ if lower.contains("connection closed before message completed")
                || lower.contains("incomplete message") =>
            {
                format!("connection closed by {host} before a complete response")
            }
            _ => format!("request to {host} failed"),
        }
    };
    format!("{url}: {what} ({chain})")
}
