//! The HTTP/1.1 server host API: `BoaStreams.serve(options, handler)` (a namespaced host
//! API, not a web standard; the global `BoaStreams` object is created if missing).
//!
//! `serve({ hostname = "127.0.0.1", port = 0, signal, onListen, headersTimeout }, handler)` (or
//! `serve(handler)`) binds a TCP listener at once (a bind failure throws a TypeError) and
//! returns `{ addr: { hostname, port, transport: "tcp" }, finished, shutdown() }`.
//! `onListen(addr)` is called once it listens. For every request `handler(request)` runs
//! with a `Request` whose body is a byte stream read from the socket as the script reads it
//! and whose `signal` aborts when the client goes away; it returns (a promise for) a
//! `Response`, whose body is written out as the socket drains (a `ReadableStream` body is
//! read chunk by chunk, only as fast as the client takes it; a client that disconnects
//! cancels it). A handler that throws, rejects or returns something else than a `Response`
//! gives a 500, and the error is reported (the host prints it).
//!
//! HTTP/1.1 keep-alive, `Content-Length` for bodies made from bytes and chunked transfer
//! coding for streams, and `HEAD` (no body written) are hyper's. Limits: at most 100
//! request headers and 64 KiB of request head (hyper answers 431 beyond), 30 s to read a
//! request head (`headersTimeout`, in milliseconds, changes it; the connection is closed when
//! it passes). `shutdown()` stops accepting, lets requests in flight finish and closes
//! idle connections; `finished` resolves when every connection is closed. Aborting
//! `signal` shuts down.

use std::cell::RefCell;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::rc::Rc;
use std::time::Duration;

use boa_engine::{
    js_string, object::builtins::JsPromise, object::FunctionObjectBuilder,
    object::ObjectInitializer, property::Attribute, Context, JsError, JsObject, JsResult, JsString,
    JsValue, NativeFunction,
};
use boa_fetch::network::{new_incoming_request, response_parts};
use boa_gc::{Finalize, Trace};
use boa_streams::native::spawn_future;
use boa_webidl::promise::PromiseCapability;
use boa_webidl::{arg, own_error_value, type_error};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::sync::{mpsc, oneshot, watch};

use crate::body::{incoming_stream, pump, OutBody, PumpEnd};

/// The most request headers accepted (more: 431).
const MAX_HEADERS: usize = 100;
/// The most bytes of request head buffered (more: 431).
const MAX_HEAD_BYTES: usize = 64 * 1024;
/// How long a client has to send a request head.
const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(30);
/// Requests waiting for the script, at most (the connection tasks wait beyond).
const QUEUE: usize = 256;

/// A request handed from a connection task to the script, with the way back and the news
/// of how the exchange ended (`true`: the response body was written to its end; `false` or
/// a dropped sender: the client went away first).
struct Incoming1 {
    request: http::Request<Incoming>,
    respond: oneshot::Sender<http::Response<OutBody>>,
    ended: oneshot::Receiver<bool>,
}

/// Sends how the exchange ended when dropped.
struct EndGuard {
    tx: Option<oneshot::Sender<bool>>,
    complete: bool,
}

impl Drop for EndGuard {
    fn drop(&mut self) {
        if let Some(tx) = self.tx.take() {
            let _ = tx.send(self.complete);
        }
    }
}

/// A response body that reports, when dropped, whether it was written to its end.
struct Tracked {
    inner: OutBody,
    guard: EndGuard,
}

impl hyper::body::Body for Tracked {
    type Data = bytes::Bytes;
    type Error = std::io::Error;

    fn poll_frame(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<hyper::body::Frame<bytes::Bytes>, std::io::Error>>> {
        let this = self.get_mut();
        let polled = std::pin::Pin::new(&mut this.inner).poll_frame(cx);
        if let std::task::Poll::Ready(None) = polled {
            this.guard.complete = true;
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.inner.size_hint()
    }
}

/// Register `BoaStreams.serve`.
pub(crate) fn register(ctx: &mut Context) -> JsResult<()> {
    let global = ctx.global_object();
    let existing = global.get(js_string!("BoaStreams"), ctx)?;
    let namespace = match existing.as_object() {
        Some(o) => o.clone(),
        None => {
            let o = ObjectInitializer::new(ctx).build();
            ctx.register_global_property(
                js_string!("BoaStreams"),
                o.clone(),
                Attribute::WRITABLE | Attribute::CONFIGURABLE,
            )?;
            o
        }
    };
    let serve = FunctionObjectBuilder::new(ctx.realm(), NativeFunction::from_fn_ptr(serve))
        .name(js_string!("serve"))
        .length(2)
        .build();
    namespace.set(js_string!("serve"), serve, true, ctx)?;
    // `stdout` is made on first access: setting up a WritableStream runs its start step,
    // whose settled promise queues a reaction job, and registering must not queue work (a
    // host counting microtasks would see one it never asked for).
    let cache = boa_gc::Gc::new(boa_gc::GcRefCell::new(None::<JsObject>));
    let getter = FunctionObjectBuilder::new(
        ctx.realm(),
        NativeFunction::from_copy_closure_with_captures(
            |_, _, cache: &boa_gc::Gc<boa_gc::GcRefCell<Option<JsObject>>>, ctx| {
                let cached = cache.borrow().clone();
                if let Some(stream) = cached {
                    return Ok(stream.into());
                }
                let stream: JsObject =
                    boa_streams::native::native_writable_stream(Stdout, 1.0, ctx)?;
                *cache.borrow_mut() = Some(stream.clone());
                Ok(stream.into())
            },
            cache,
        ),
    )
    .name(js_string!("get stdout"))
    .build();
    namespace.define_property_or_throw(
        js_string!("stdout"),
        boa_engine::property::PropertyDescriptor::builder()
            .get(getter)
            .enumerable(true)
            .configurable(true),
        ctx,
    )?;
    Ok(())
}

/// The sink of `BoaStreams.stdout`: a `WritableStream` of byte chunks (`ArrayBuffer`s or
/// views) written to the process's standard output (blocking, flushed per chunk).
#[derive(Trace, Finalize)]
struct Stdout;

impl boa_streams::native::NativeSink for Stdout {
    fn write(
        &self,
        chunk: JsValue,
        _controller: &JsObject,
        ctx: &mut Context,
    ) -> boa_streams::native::Completion {
        use std::io::Write;
        let written = boa_streams::native::chunk_to_bytes(&chunk, ctx).and_then(|bytes| {
            let mut out = std::io::stdout().lock();
            out.write_all(&bytes)
                .and_then(|()| out.flush())
                .map_err(|e| type_error(format!("cannot write to stdout: {e}")))
        });
        boa_streams::native::Completion::from_result(written, ctx)
    }
}

/// The server's state on the script's side.
struct Server {
    handler: JsObject,
    shutdown: watch::Sender<bool>,
    finished: PromiseCapability,
    hostname: String,
    port: u16,
}

#[derive(Trace, Finalize)]
struct Captured(#[unsafe_ignore_trace] Rc<Server>);

fn get(options: &JsValue, name: &str, ctx: &mut Context) -> JsResult<JsValue> {
    match options.as_object() {
        Some(o) => o.get(JsString::from(name), ctx),
        None => Ok(JsValue::undefined()),
    }
}

/// `BoaStreams.serve(options, handler)`.
fn serve(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let (options, handler) = if arg(args, 0).is_callable() {
        (JsValue::undefined(), arg(args, 0))
    } else {
        (arg(args, 0), arg(args, 1))
    };
    let handler = handler
        .as_callable()
        .ok_or_else(|| type_error("BoaStreams.serve: the handler must be a function"))?;
    let hostname = match get(&options, "hostname", ctx)? {
        v if v.is_undefined() => "127.0.0.1".to_string(),
        v => v.to_string(ctx)?.to_std_string_lossy(),
    };
    let port = match get(&options, "port", ctx)? {
        v if v.is_undefined() => 0,
        v => {
            let n = v.to_number(ctx)?;
            if !(0.0..=65535.0).contains(&n) || n.fract() != 0.0 {
                return Err(boa_engine::JsNativeError::range()
                    .with_message(format!("BoaStreams.serve: invalid port {n}"))
                    .into());
            }
            n as u16
        }
    };
    // `headersTimeout`: milliseconds a client has to send a request head (default 30 s).
    let header_timeout = match get(&options, "headersTimeout", ctx)? {
        v if v.is_undefined() => HEADER_READ_TIMEOUT,
        v => {
            let ms = v.to_number(ctx)?;
            if !(1.0..=86_400_000.0).contains(&ms) {
                return Err(boa_engine::JsNativeError::range()
                    .with_message(format!(
                        "BoaStreams.serve: headersTimeout must be 1 to 86400000 ms, not {ms}"
                    ))
                    .into());
            }
            Duration::from_millis(ms as u64)
        }
    };
    let signal = get(&options, "signal", ctx)?;
    let on_listen = get(&options, "onListen", ctx)?;
    let runtime = crate::runtime()?;
    let listener = std::net::TcpListener::bind((hostname.as_str(), port)).map_err(|e| {
        type_error(format!(
            "BoaStreams.serve: cannot listen on {hostname}:{port}: {e}"
        ))
    })?;
    let local: SocketAddr = listener
        .local_addr()
        .map_err(|e| type_error(format!("BoaStreams.serve: {e}")))?;
    listener
        .set_nonblocking(true)
        .map_err(|e| type_error(format!("BoaStreams.serve: {e}")))?;
    let listener = {
        let _guard = runtime.enter();
        tokio::net::TcpListener::from_std(listener)
            .map_err(|e| type_error(format!("BoaStreams.serve: {e}")))?
    };
    let (tx, rx) = mpsc::channel::<Incoming1>(QUEUE);
    let (shutdown_tx, shutdown_rx) = watch::channel(false);
    runtime.spawn(accept_loop(listener, tx, shutdown_rx, header_timeout));

    let server = Rc::new(Server {
        handler,
        shutdown: shutdown_tx,
        finished: PromiseCapability::new(ctx),
        hostname: local.ip().to_string(),
        port: local.port(),
    });
    receive(server.clone(), rx, ctx);

    let addr = ObjectInitializer::new(ctx)
        .property(
            js_string!("hostname"),
            JsString::from(server.hostname.as_str()),
            Attribute::all(),
        )
        .property(js_string!("port"), server.port, Attribute::all())
        .property(js_string!("transport"), js_string!("tcp"), Attribute::all())
        .build();
    let shutdown = FunctionObjectBuilder::new(
        ctx.realm(),
        NativeFunction::from_copy_closure_with_captures(
            |_, _, captured: &Captured, _| {
                captured.0.shutdown.send_replace(true);
                Ok(captured.0.finished.value())
            },
            Captured(server.clone()),
        ),
    )
    .name(js_string!("shutdown"))
    .length(0)
    .build();
    if let Some(signal) = signal
        .as_object()
        .filter(|_| boa_dom::is_abort_signal(&signal))
    {
        if boa_dom::is_aborted(&signal) {
            server.shutdown.send_replace(true);
        } else {
            let on_abort = FunctionObjectBuilder::new(
                ctx.realm(),
                NativeFunction::from_copy_closure_with_captures(
                    |_, _, captured: &Captured, _| {
                        captured.0.shutdown.send_replace(true);
                        Ok(JsValue::undefined())
                    },
                    Captured(server.clone()),
                ),
            )
            .build();
            boa_dom::add_abort_algorithm(&signal, on_abort);
        }
    }
    let result = ObjectInitializer::new(ctx)
        .property(js_string!("addr"), addr.clone(), Attribute::all())
        .property(
            js_string!("finished"),
            server.finished.value(),
            Attribute::all(),
        )
        .property(js_string!("shutdown"), shutdown, Attribute::all())
        .build();
    if let Some(f) = on_listen.as_callable() {
        f.call(&JsValue::undefined(), &[addr.into()], ctx)?;
    }
    Ok(result.into())
}

/// Accept connections until shutdown; each is served by hyper on its own task.
async fn accept_loop(
    listener: tokio::net::TcpListener,
    tx: mpsc::Sender<Incoming1>,
    mut shutdown: watch::Receiver<bool>,
    header_timeout: Duration,
) {
    loop {
        let accepted = tokio::select! {
            a = listener.accept() => a,
            _ = shutdown.wait_for(|s| *s) => return,
        };
        let Ok((socket, _)) = accepted else {
            // Out of descriptors and the like: wait a little rather than spin.
            tokio::time::sleep(Duration::from_millis(10)).await;
            continue;
        };
        let _ = socket.set_nodelay(true);
        let tx = tx.clone();
        let mut shutdown = shutdown.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |request| {
                let tx = tx.clone();
                async move {
                    let (respond, response) = oneshot::channel();
                    let (ended_tx, ended) = oneshot::channel();
                    let guard = EndGuard {
                        tx: Some(ended_tx),
                        complete: false,
                    };
                    let internal = || {
                        let mut r = http::Response::new(OutBody::Empty);
                        *r.status_mut() = http::StatusCode::SERVICE_UNAVAILABLE;
                        r
                    };
                    let incoming = Incoming1 {
                        request,
                        respond,
                        ended,
                    };
                    if tx.send(incoming).await.is_err() {
                        return Ok::<_, Infallible>(
                            internal().map(|inner| Tracked { inner, guard }),
                        );
                    }
                    let response = response.await.unwrap_or_else(|_| internal());
                    Ok(response.map(|inner| Tracked { inner, guard }))
                }
            });
            let conn = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout)
                .max_headers(MAX_HEADERS)
                .max_buf_size(MAX_HEAD_BYTES)
                .serve_connection(TokioIo::new(socket), service);
            let mut conn = std::pin::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => return,
                _ = shutdown.wait_for(|s| *s) => {}
            }
            conn.as_mut().graceful_shutdown();
            let _ = conn.await;
        });
    }
}

/// Wait for the next request on the script's side; resolve `finished` when there will be
/// no more (the accept loop and every connection ended).
fn receive(server: Rc<Server>, mut rx: mpsc::Receiver<Incoming1>, ctx: &mut Context) {
    spawn_future(
        async move {
            let next = rx.recv().await;
            (next, rx)
        },
        move |(next, rx), ctx| match next {
            None => server.finished.resolve(JsValue::undefined(), ctx),
            Some(incoming) => {
                handle(&server, incoming, ctx);
                receive(server, rx, ctx);
            }
        },
        ctx,
    );
}

/// A response with `status` and no body.
fn status_only(status: u16) -> http::Response<OutBody> {
    let mut r = http::Response::new(OutBody::Empty);
    *r.status_mut() =
        http::StatusCode::from_u16(status).unwrap_or(http::StatusCode::INTERNAL_SERVER_ERROR);
    r
}

/// Report `error` (the host prints it).
fn report(error: JsValue, ctx: &mut Context) {
    if let Err(caught) = boa_webidl::catching(ctx, |_| Err::<(), _>(JsError::from_opaque(error))) {
        boa_dom::report_exception(caught, ctx);
    }
}

/// The way back to a connection task, taken once.
#[derive(Trace, Finalize)]
struct Responder(
    #[unsafe_ignore_trace] Rc<RefCell<Option<oneshot::Sender<http::Response<OutBody>>>>>,
);

/// Run the handler for one request.
fn handle(server: &Rc<Server>, incoming: Incoming1, ctx: &mut Context) {
    let Incoming1 {
        request,
        respond,
        ended,
    } = incoming;
    let (head, body) = request.into_parts();
    // 431 beyond the header limits (hyper enforces the count; the size is checked here too).
    let head_bytes: usize = head
        .headers
        .iter()
        .map(|(n, v)| n.as_str().len() + v.len() + 4)
        .sum();
    if head_bytes > MAX_HEAD_BYTES {
        let _ = respond.send(status_only(431));
        return;
    }
    let host = head
        .headers
        .get(http::header::HOST)
        .and_then(|h| h.to_str().ok())
        .map_or_else(
            || format!("{}:{}", server.hostname, server.port),
            str::to_string,
        );
    let path = head
        .uri
        .path_and_query()
        .map_or("/", http::uri::PathAndQuery::as_str);
    let url = format!("http://{host}{path}");
    let headers = head
        .headers
        .iter()
        .map(|(n, v)| (n.as_str().as_bytes().to_vec(), v.as_bytes().to_vec()))
        .collect();
    let result = (|| -> JsResult<(JsObject, JsObject)> {
        let signal = boa_dom::create_abort_signal(ctx)?;
        let body = if hyper::body::Body::is_end_stream(&body) {
            None
        } else {
            Some(incoming_stream(Box::pin(body), None, ctx)?.0)
        };
        let request = new_incoming_request(
            head.method.as_str().as_bytes().to_vec(),
            &url,
            headers,
            body,
            signal.clone(),
            ctx,
        )?;
        Ok((request, signal))
    })();
    let (request, signal) = match result {
        Ok(r) => r,
        Err(e) => {
            let e = own_error_value(e, ctx);
            report(e, ctx);
            let _ = respond.send(status_only(500));
            return;
        }
    };
    let responder = Rc::new(RefCell::new(Some(respond)));
    // The client going away before the response was written to its end aborts the signal.
    {
        let signal = signal.clone();
        spawn_future(
            ended,
            move |ended, ctx| {
                if ended != Ok(true) && !boa_dom::is_aborted(&signal) {
                    let reason = boa_webidl::create_dom_exception(
                        "the client closed the connection",
                        "AbortError",
                        ctx,
                    )
                    .unwrap_or_default();
                    let _ = boa_dom::signal_abort(&signal, reason, ctx);
                }
            },
            ctx,
        );
    }
    let handler = server.handler.clone();
    let called = boa_webidl::catching(ctx, |ctx| {
        handler.call(&JsValue::undefined(), &[request.into()], ctx)
    });
    let value = match called {
        Ok(v) => v,
        Err(caught) => {
            boa_dom::report_exception(caught, ctx);
            send(&responder, status_only(500));
            return;
        }
    };
    let promise = match JsPromise::resolve(value, ctx) {
        Ok(p) => p,
        Err(e) => {
            let e = own_error_value(e, ctx);
            report(e, ctx);
            send(&responder, status_only(500));
            return;
        }
    };
    let on_fulfilled = FunctionObjectBuilder::new(
        ctx.realm(),
        NativeFunction::from_copy_closure_with_captures(
            |_, args, r: &Responder, ctx| {
                let response = respond_with(&arg(args, 0), ctx);
                let response = response.unwrap_or_else(|e| {
                    let e = own_error_value(e, ctx);
                    report(e, ctx);
                    status_only(500)
                });
                send(&r.0, response);
                Ok(JsValue::undefined())
            },
            Responder(responder.clone()),
        ),
    )
    .build();
    let on_rejected = FunctionObjectBuilder::new(
        ctx.realm(),
        NativeFunction::from_copy_closure_with_captures(
            |_, args, r: &Responder, ctx| {
                report(arg(args, 0), ctx);
                send(&r.0, status_only(500));
                Ok(JsValue::undefined())
            },
            Responder(responder),
        ),
    )
    .build();
    let _ = promise.then(Some(on_fulfilled), Some(on_rejected), ctx);
}

fn send(
    responder: &Rc<RefCell<Option<oneshot::Sender<http::Response<OutBody>>>>>,
    response: http::Response<OutBody>,
) {
    let tx = responder.borrow_mut().take();
    if let Some(tx) = tx {
        let _ = tx.send(response);
    }
}

/// The hyper response for the handler's `value` (a `Response`).
fn respond_with(value: &JsValue, ctx: &mut Context) -> JsResult<http::Response<OutBody>> {
    let parts = value
        .as_object()
        .and_then(|o| response_parts(&o))
        .ok_or_else(|| type_error("BoaStreams.serve: the handler did not return a Response"))?;
    let mut builder = http::Response::builder().status(parts.status);
    for (name, value) in &parts.headers {
        builder = builder.header(name.as_slice(), value.as_slice());
    }
    let body = match (parts.body_bytes, parts.body) {
        (Some(bytes), _) => OutBody::Full(Some(bytes)),
        (None, Some(stream)) => {
            let (body, future, reader) = pump(&stream, ctx)?;
            spawn_future(
                future,
                move |end, ctx| {
                    if let PumpEnd::ReceiverGone = end {
                        let reason = boa_webidl::create_dom_exception(
                            "the client closed the connection",
                            "AbortError",
                            ctx,
                        )
                        .unwrap_or_default();
                        drop(reader.cancel(reason, ctx));
                    }
                },
                ctx,
            );
            body
        }
        (None, None) => OutBody::Empty,
    };
    builder
        .body(body)
        .map_err(|e| type_error(format!("BoaStreams.serve: invalid response: {e}")))
}

#[cfg(test)]
mod tests;
