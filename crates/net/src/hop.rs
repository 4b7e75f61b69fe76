//! One fetch in progress and how it settles: the record a `fetch()` call keeps
//! ([`FetchState`]: the request as it goes from hop to hop, the promise, the phase), the
//! network errors and responses that settle it, the integrity check, and HTTP fetch's
//! redirect steps. A leaf under the scheme handlers (`scheme`) and `fetch()` itself.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use boa_engine::{Context, JsObject, JsValue};
use boa_fetch::headers::Header;
use boa_fetch::network::{new_network_response, NetworkResponse, ResponseKind};
use boa_fetch::{HeadersPolicy, RequestCache, RequestRedirect};
use boa_streams::native::{
    native_byte_stream, spawn_future, ReadableStream, SpawnedFuture, StreamReader,
};
use boa_webidl::capabilities::Denied;
use boa_webidl::own_error_value;
use boa_webidl::promise::PromiseCapability;

use crate::body::{incoming_stream, InState};
use crate::error::{NetworkError, NetworkErrorKind};

/// The most redirects a fetch follows (the Fetch Standard's limit).
const MAX_REDIRECTS: usize = 20;

/// Where a fetch is.
pub(crate) enum Phase {
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
pub(crate) struct FetchState {
    pub(crate) capability: PromiseCapability,
    /// The request's signal, and the id of our abort algorithm on it (cleared when the fetch
    /// is finished, which breaks the signal → algorithm → state cycle).
    pub(crate) signal: RefCell<Option<(JsObject, boa_dom::AbortAlgorithmId)>>,
    pub(crate) redirect: RequestRedirect,
    /// The cache mode (no cache here: it adds request headers, or fails "only-if-cached").
    pub(crate) cache: RequestCache,
    /// The realm's headers policy when the fetch started: whether a manual redirect is the
    /// real 3xx response (server runtime) or an opaque-redirect response (browser).
    pub(crate) policy: HeadersPolicy,
    pub(crate) method: RefCell<Vec<u8>>,
    pub(crate) headers: RefCell<Vec<Header>>,
    pub(crate) url_list: RefCell<Vec<String>>,
    /// The body's bytes (resent after a 307/308), if it was made from bytes.
    pub(crate) body_bytes: RefCell<Option<bytes::Bytes>>,
    /// The body's stream, when the body is a `ReadableStream` not yet sent.
    pub(crate) body_stream: RefCell<Option<JsObject<ReadableStream>>>,
    /// Whether the request has a body that was a stream (it cannot be sent twice).
    pub(crate) streamed_body: Cell<bool>,
    /// The request's integrity metadata (`integrity`; empty when none): when not empty, the
    /// response body is read whole and checked before the fetch resolves.
    pub(crate) integrity: String,
    /// The pump reading the request body stream, and its reader.
    pub(crate) pump: RefCell<Option<(SpawnedFuture, StreamReader)>>,
    pub(crate) phase: RefCell<Phase>,
    pub(crate) settled: Cell<bool>,
}

/// Cancel `stream` with `reason` (a request body no one will send).
pub(crate) fn cancel_stream(stream: &JsObject<ReadableStream>, reason: JsValue, ctx: &mut Context) {
    if boa_streams::native::readable_stream_is_locked(stream) {
        return;
    }
    if let Ok(reader) = StreamReader::new(stream, ctx) {
        drop(reader.cancel(reason, ctx));
    }
}

/// Forget the abort algorithm and mark the fetch done.
pub(crate) fn finish(state: &FetchState) {
    let signal = state.signal.borrow_mut().take();
    if let Some((signal, id)) = signal {
        boa_dom::remove_abort_algorithm(&signal, id);
    }
    *state.phase.borrow_mut() = Phase::Done;
}

/// Reject the fetch with a network error of `kind` for the current URL: a TypeError whose
/// message is `fetch failed: ` and `message`.
pub(crate) fn network_error(
    state: &Rc<FetchState>,
    kind: NetworkErrorKind,
    message: String,
    ctx: &mut Context,
) {
    let error = NetworkError::new(kind, current_url(state), message);
    fail(state, &error, ctx);
}

/// Reject the fetch of `url` (the current hop) that the context's capabilities deny: a
/// TypeError naming the capability and its flag (nothing was sent or read).
pub(crate) fn denied(state: &Rc<FetchState>, url: &str, denied: &Denied, ctx: &mut Context) {
    let error = NetworkError::denied(url, denied);
    // A request body stream not sent is canceled with the same error.
    let unsent = state.body_stream.borrow_mut().take();
    if let Some(stream) = unsent {
        let reason = own_error_value(error.to_type_error(), ctx);
        cancel_stream(&stream, reason, ctx);
    }
    fail(state, &error, ctx);
}

/// Reject the fetch with `error`'s TypeError, and cancel what it sends.
pub(crate) fn fail(state: &Rc<FetchState>, error: &NetworkError, ctx: &mut Context) {
    if !state.settled.replace(true) {
        let e = own_error_value(error.to_type_error(), ctx);
        state.capability.reject(e, ctx);
    }
    let pump = state.pump.borrow_mut().take();
    if let Some((task, reader)) = pump {
        task.abort();
        let reason = own_error_value(error.to_type_error(), ctx);
        drop(reader.cancel(reason, ctx));
    }
    finish(state);
}

/// Resolve the fetch with `response`, or, when the request has integrity metadata, read its
/// body first and check it (main fetch: "if request's integrity metadata is not the empty
/// string").
pub(crate) fn respond(state: &Rc<FetchState>, response: NetworkResponse, ctx: &mut Context) {
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
            NetworkErrorKind::Integrity,
            format!("{url}: integrity mismatch (the response has no body)"),
            ctx,
        );
    };
    let reader = match StreamReader::new(&body, ctx) {
        Ok(r) => r,
        Err(e) => {
            return network_error(
                state,
                NetworkErrorKind::Internal,
                format!("{url}: {e}"),
                ctx,
            )
        }
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
                Err(e) => {
                    return network_error(
                        &state,
                        NetworkErrorKind::Transport,
                        format!("{url}: {e}"),
                        ctx,
                    )
                }
            };
            if !crate::integrity::matches(&bytes, &state.integrity) {
                return network_error(
                    &state,
                    NetworkErrorKind::Integrity,
                    format!("{url}: integrity mismatch"),
                    ctx,
                );
            }
            match native_byte_stream(std::iter::once(bytes), ctx) {
                Ok(stream) => {
                    response.body = Some(stream);
                    handover(&state, response, ctx);
                }
                Err(e) => network_error(
                    &state,
                    NetworkErrorKind::Internal,
                    format!("{url}: {e}"),
                    ctx,
                ),
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
pub(crate) fn current_url(state: &FetchState) -> String {
    state.url_list.borrow().last().cloned().unwrap_or_default()
}

/// The request headers HTTP-network-or-cache fetch adds for the cache mode (steps 15-17):
/// a conditional request (`If-Modified-Since`, `If-None-Match`, `If-Unmodified-Since`,
/// `If-Match`, `If-Range`) in mode "default" is treated as "no-store"; "no-cache" adds
/// `Cache-Control: max-age=0`; "no-store" and "reload" add `Pragma: no-cache` and
/// `Cache-Control: no-cache`; none replaces a header the request has.
pub(crate) fn cache_headers(state: &FetchState) -> Vec<(&'static str, &'static str)> {
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

/// Resolve the fetch with a basic response whose body is `body` read as a byte stream (a
/// null body for `HEAD` and the null body statuses).
pub(crate) fn respond_with_body<B>(
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
            Err(e) => return network_error(state, NetworkErrorKind::Internal, e.to_string(), ctx),
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

/// Whether `status` is a [redirect status](https://fetch.spec.whatwg.org/#redirect-status).
pub(crate) fn is_redirect_status(status: u16) -> bool {
    matches!(status, 301 | 302 | 303 | 307 | 308)
}

/// What HTTP fetch's switch on the redirect mode made of a redirect response.
pub(crate) enum Redirected {
    /// The response itself is the answer, for the caller to deliver: a manual redirect in a
    /// server runtime (Node, Deno and workerd give script the 3xx with its headers and body),
    /// or a redirect without a `Location` to follow.
    Answer,
    /// Dealt with here: the fetch failed or got an opaque-redirect response.
    Settled,
    /// The location was appended to the URL list: fetch the new current URL (main fetch).
    NextHop,
}

/// HTTP fetch's switch on the redirect mode, for a response whose status is a
/// [redirect status](https://fetch.spec.whatwg.org/#redirect-status) (`location`: its
/// `Location` value, if any).
pub(crate) fn redirect(
    state: &Rc<FetchState>,
    status: u16,
    location: Option<&str>,
    ctx: &mut Context,
) -> Redirected {
    match state.redirect {
        // "error": set response to a network error.
        RequestRedirect::Error => {
            network_error(
                state,
                NetworkErrorKind::Redirect,
                format!(
                    "{}: redirected ({status}) with redirect mode \"error\"",
                    current_url(state)
                ),
                ctx,
            );
            Redirected::Settled
        }
        // "manual": in a server runtime, the response as is.
        RequestRedirect::Manual if state.policy == HeadersPolicy::ServerRuntime => {
            Redirected::Answer
        }
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
            Redirected::Settled
        }
        // "follow": HTTP-redirect fetch; 3. a null location URL returns the response.
        RequestRedirect::Follow => match location {
            Some(location) => {
                if follow_redirect(state, status, location, ctx) {
                    Redirected::NextHop
                } else {
                    Redirected::Settled
                }
            }
            None => Redirected::Answer,
        },
    }
}

/// [HTTP-redirect fetch](https://fetch.spec.whatwg.org/#http-redirect-fetch) to `location`:
/// `true` when the request now has the next URL to fetch, `false` when it failed.
fn follow_redirect(state: &Rc<FetchState>, status: u16, location: &str, ctx: &mut Context) -> bool {
    // 3. Let locationURL be actualResponse's location URL given request's current URL's
    //    fragment. 4. If locationURL is failure, then return a network error.
    let current = current_url(state);
    let next = match url::Url::parse(&current).and_then(|base| base.join(location)) {
        Ok(u) => u,
        Err(e) => {
            return fail_hop(
                state,
                format!("{current}: invalid Location \"{location}\" ({e})"),
                ctx,
            )
        }
    };
    // 6. If locationURL's scheme is not an HTTP(S) scheme, then return a network error.
    if !matches!(next.scheme(), "http" | "https") {
        return fail_hop(
            state,
            format!("{current}: redirect to a non-HTTP URL {next}"),
            ctx,
        );
    }
    // 7. If request's redirect count is 20, then return a network error.
    if state.url_list.borrow().len() > MAX_REDIRECTS {
        return fail_hop(state, format!("{current}: too many redirects"), ctx);
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
        return fail_hop(
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
    true
}

/// A redirect that may not be followed: a network error (of kind `Redirect`); `false`.
fn fail_hop(state: &Rc<FetchState>, message: String, ctx: &mut Context) -> bool {
    network_error(state, NetworkErrorKind::Redirect, message, ctx);
    false
}
