//! [Scheme fetch](https://fetch.spec.whatwg.org/#scheme-fetch) "http"/"https":
//! HTTP-network fetch on hyper's pooled HTTP/1.1 client (rustls for `https:`; roots from
//! webpki-roots and [`add_root_certificate`]), with `Content-Encoding: gzip, deflate`
//! decoded and redirects followed by the fetch itself (each hop visible).

use std::rc::Rc;
use std::time::Duration;

use boa_engine::Context;
use boa_fetch::headers::Header;
use boa_streams::native::spawn_future;
use boa_webidl::{own_error_value, type_error};
use hyper_util::client::legacy::{connect::HttpConnector, Client};
use hyper_util::rt::{TokioExecutor, TokioTimer};

use super::{after_redirect, SchemeFetch, SchemeHandler};
use crate::body::{pump, OutBody, PumpEnd};
use crate::error::NetworkErrorKind;
use crate::hop::{
    cache_headers, current_url, is_redirect_status, network_error, respond_with_body, FetchState,
    Phase,
};

/// The `http:` and `https:` schemes: the request on the network (after the capability
/// check of its host and port).
pub struct HttpScheme;

impl SchemeHandler for HttpScheme {
    fn fetch(&self, fetch: SchemeFetch, ctx: &mut Context) {
        http_fetch(fetch.state(), ctx);
    }
}

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
        Err(message) => {
            return network_error(state, NetworkErrorKind::InvalidRequest, message, ctx)
        }
    };
    let runtime = match crate::runtime::runtime() {
        Ok(r) => r,
        Err(e) => return network_error(state, NetworkErrorKind::Internal, e.to_string(), ctx),
    };
    let client = match client() {
        Ok(c) => c,
        Err(message) => return network_error(state, NetworkErrorKind::Internal, message, ctx),
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

/// The response head arrived (or the request failed).
fn on_response(state: &Rc<FetchState>, result: ClientResult, ctx: &mut Context) {
    if !matches!(*state.phase.borrow(), Phase::Requesting { .. }) {
        return;
    }
    *state.phase.borrow_mut() = Phase::Done;
    let response = match result {
        Err(e) => {
            let message = format!("{}: {e}", current_url(state));
            return network_error(state, NetworkErrorKind::Internal, message, ctx);
        }
        Ok(Err(e)) => {
            let message = describe_error(&current_url(state), &e);
            return network_error(state, NetworkErrorKind::Transport, message, ctx);
        }
        Ok(Ok(r)) => r,
    };
    let status = response.status().as_u16();
    let location = response
        .headers()
        .get(http::header::LOCATION)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
    if is_redirect_status(status) && after_redirect(state, status, location.as_deref(), ctx) {
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
            NetworkErrorKind::InvalidResponse,
            format!("{}: cannot decode {codings:?}", current_url(state)),
            ctx,
        );
    }
    respond_with_body(state, status, status_text, headers, body, ctx);
}

/// A readable message for a failed request to `url`: what went wrong first (the DNS lookup,
/// the connection, TLS, the peer closing), then the error chain for details.
fn describe_error(url: &str, error: &(dyn std::error::Error + 'static)) -> String {
    let chain = crate::runtime::error_chain(error);
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
