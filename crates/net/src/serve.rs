//! The HTTP/1.1 server host API: `BoaStreams.serve(options, handler)` (a namespaced host
//! API, not a web standard; the global `BoaStreams` object is created if missing).
//!
//! `serve({ hostname = "127.0.0.1", port = 0, signal, onListen, headersTimeout, idleTimeout }, handler)` (or
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
//! it passes; with `reusePort` the first server of a shared listener sets it). A malformed
//! request head gets a 400 (431 beyond the limits) from hyper and the handler never runs; a
//! malformed request body (bad chunk sizes, a body shorter than its `Content-Length`) errors
//! `request.body` with a TypeError and the connection is closed after the handler's response.
//! A client that shuts down its sending side before the response is written is taken as gone
//! (its `request.signal` aborts).
//!
//! The request target and `Host` are checked before the handler runs (RFC 9110 §7.2, RFC
//! 9112 §3.2): a missing `Host` in HTTP/1.1, more than one `Host`, a `Host` that is not
//! `host[:port]` (a reg-name, IPv4 or `[IPv6]`), or a target that is not origin-form
//! (`/path?query`), absolute-form (`http://` or `https://`, whose authority is then the
//! request's) nor `*` for `OPTIONS` get a 400 (with `Connection: close`) and never reach the
//! handler. `request.url` is made by the URL parser from those validated parts: always
//! `http:` (the connection's scheme), the authority, then the path and query; `OPTIONS *`
//! gives the path `/*`, as in Deno. An HTTP/1.0 request without `Host` gets the listener's
//! address as its authority.
//!
//! `idleTimeout` (seconds, as Bun names it; 0 to 86400, fractions allowed; default 0: no
//! limit) closes a connection on which nothing was read or written for that long: between
//! requests, while a handler has not answered, or while a response body's `pull()` has not
//! settled or the client does not read. The response body stream is then cancelled and
//! `request.signal` aborted, both with a `TimeoutError` `DOMException` saying so (a client
//! that goes away gives an `AbortError`). There is no limit by default, as in Node (whose
//! server has none for a response being written): a quiet but live stream (an event stream
//! that sends an event every few minutes, a long poll) is legitimate, and a default that
//! cuts it, as Bun's 10 s does, breaks it in a way a user discovers only in production; a
//! server exposed to clients that may stall sets one (with heartbeats shorter than it).
//! Idle keep-alive connections waiting for a next request are closed by the header read
//! timeout anyway. `shutdown()` stops accepting, lets requests in flight finish and closes
//! idle connections; `finished` resolves when every connection is closed. Aborting
//! `signal` shuts down.
//!
//! ## Several threads serving one port: `reusePort: true`
//!
//! With `reusePort: true`, every context of the process (a worker, or each copy of the
//! program the host's `--serve-threads N` runs on its own thread) that serves the same
//! `hostname` and `port` with `reusePort: true` shares **one listener**: the first one binds
//! it (port 0: any free port, which the others then share too), and each request goes to
//! whichever of those contexts takes it next, so N threads run the handlers in parallel.
//! The socket is also bound with `SO_REUSEPORT` (on Unix), so other processes may bind the
//! same port with their own listener and the kernel spreads connections between them.
//! `addr` is the shared address. A context's `shutdown()` (or its `signal`) makes it stop
//! taking requests and resolves its `finished`; the listener closes (and requests still
//! queued get a 503) when the last context sharing it shuts down.

use std::cell::RefCell;
use std::collections::HashMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::rc::Rc;
use std::sync::{Arc, Mutex};
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
    /// Set (before the connection is dropped) when the connection was closed for being idle.
    idle: Arc<IdleState>,
    /// `request.url`, made from the validated request target and `Host` (`target`).
    url: String,
}

/// How a connection task tells the script's side that it closed the connection for being
/// idle (`idleTimeout`), so the reasons given to the script say so.
#[derive(Default)]
struct IdleState {
    /// The idle timeout that closed the connection, in milliseconds (0: not closed for it).
    closed_after_ms: std::sync::atomic::AtomicU64,
}

impl IdleState {
    /// The reason of the aborts and cancels that follow the connection's end: a
    /// `TimeoutError` if it was closed for being idle, else an `AbortError` (the client
    /// went away).
    fn reason(&self, ctx: &mut Context) -> JsValue {
        let ms = self
            .closed_after_ms
            .load(std::sync::atomic::Ordering::SeqCst);
        let made = if ms == 0 {
            boa_webidl::create_dom_exception("the client closed the connection", "AbortError", ctx)
        } else {
            boa_webidl::create_dom_exception(
                &format!(
                    "BoaStreams.serve: nothing was read or written on the connection for {} s (idleTimeout)",
                    ms as f64 / 1000.0
                ),
                "TimeoutError",
                ctx,
            )
        };
        made.unwrap_or_default()
    }
}

/// The limits of a listener's connections.
#[derive(Clone, Copy)]
struct ConnLimits {
    /// How long a client has to send a request head.
    header_timeout: Duration,
    /// How long a connection may stay with nothing read or written (`None`: no limit).
    idle_timeout: Option<Duration>,
}

/// A socket that records when it last read or wrote a byte (for `idleTimeout`).
struct Watched {
    inner: tokio::net::TcpStream,
    /// Milliseconds since `since` at the last byte read or written.
    last: Arc<std::sync::atomic::AtomicU64>,
    since: tokio::time::Instant,
}

impl Watched {
    fn touch(&self) {
        let ms = u64::try_from(self.since.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.last.store(ms, std::sync::atomic::Ordering::Relaxed);
    }

    /// Note progress if `poll` moved bytes.
    fn note(&self, poll: &std::task::Poll<std::io::Result<usize>>) {
        if let std::task::Poll::Ready(Ok(n)) = poll {
            if *n > 0 {
                self.touch();
            }
        }
    }
}

impl tokio::io::AsyncRead for Watched {
    fn poll_read(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let poll = std::pin::Pin::new(&mut this.inner).poll_read(cx, buf);
        if buf.filled().len() > before {
            this.touch();
        }
        poll
    }
}

impl tokio::io::AsyncWrite for Watched {
    fn poll_write(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        let poll = std::pin::Pin::new(&mut this.inner).poll_write(cx, buf);
        this.note(&poll);
        poll
    }

    fn poll_write_vectored(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> std::task::Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        let poll = std::pin::Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        this.note(&poll);
        poll
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

/// Sends how the exchange ended when dropped.
struct EndGuard {
    tx: Option<oneshot::Sender<bool>>,
    /// Set once the body has nothing more to write (hyper may drop a body without polling
    /// it again once `is_end_stream()` says so, or never poll an empty one).
    complete: std::cell::Cell<bool>,
}

impl Drop for EndGuard {
    fn drop(&mut self) {
        if let Some(tx) = self.tx.take() {
            let _ = tx.send(self.complete.get());
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
            this.guard.complete.set(true);
        }
        if this.inner.is_end_stream() {
            this.guard.complete.set(true);
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        let end = self.inner.is_end_stream();
        if end {
            self.guard.complete.set(true);
        }
        end
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
    /// Stops this server: the accept loop (alone) or this context's share (`reusePort`).
    shutdown: watch::Sender<bool>,
    finished: PromiseCapability,
    hostname: String,
    port: u16,
    /// The listener this context shares with others (`reusePort: true`).
    shared: Option<Arc<SharedListener>>,
}

impl Server {
    /// Stop taking requests (once).
    fn stop(&self) {
        let was = self.shutdown.send_replace(true);
        if let (false, Some(shared)) = (was, &self.shared) {
            shared.leave();
        }
    }
}

/// One listener served by several contexts (`reusePort: true`): its accept loop feeds one
/// queue that every member takes requests from.
struct SharedListener {
    /// Where the accept loop's requests wait for whichever member takes them next.
    queue: Arc<tokio::sync::Mutex<mpsc::Receiver<Incoming1>>>,
    /// Stops the accept loop.
    shutdown: watch::Sender<bool>,
    addr: SocketAddr,
    /// The registry keys this listener is found under.
    keys: Vec<(String, u16)>,
    /// Contexts still serving it.
    members: Mutex<usize>,
}

/// Shared listeners by (hostname, port) as asked and as bound.
type Registry = Mutex<HashMap<(String, u16), Arc<SharedListener>>>;

/// The shared listeners of the process.
fn registry() -> &'static Registry {
    static REGISTRY: std::sync::OnceLock<Registry> = std::sync::OnceLock::new();
    REGISTRY.get_or_init(|| Mutex::new(HashMap::new()))
}

impl SharedListener {
    /// One member fewer; the last one closes the listener.
    fn leave(&self) {
        let mut registry = registry()
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut members = self
            .members
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *members = members.saturating_sub(1);
        if *members == 0 {
            for key in &self.keys {
                if registry
                    .get(key)
                    .is_some_and(|l| std::ptr::eq(Arc::as_ptr(l), self))
                {
                    registry.remove(key);
                }
            }
            self.shutdown.send_replace(true);
        }
    }
}

/// Bind a listening socket (with `SO_REUSEPORT` on Unix if `reuse_port`).
fn bind(hostname: &str, port: u16, reuse_port: bool) -> std::io::Result<std::net::TcpListener> {
    use std::net::ToSocketAddrs;
    if !reuse_port {
        return std::net::TcpListener::bind((hostname, port));
    }
    let mut last = None;
    for addr in (hostname, port).to_socket_addrs()? {
        let attempt = (|| {
            let socket = socket2::Socket::new(
                socket2::Domain::for_address(addr),
                socket2::Type::STREAM,
                Some(socket2::Protocol::TCP),
            )?;
            socket.set_reuse_address(true)?;
            #[cfg(all(unix, not(any(target_os = "solaris", target_os = "illumos"))))]
            socket.set_reuse_port(true)?;
            socket.bind(&addr.into())?;
            socket.listen(1024)?;
            Ok::<_, std::io::Error>(std::net::TcpListener::from(socket))
        })();
        match attempt {
            Ok(l) => return Ok(l),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no address to bind")))
}

/// Start listening at `hostname:port`: the accept loop on the runtime, and the queue it
/// feeds.
fn listen(
    hostname: &str,
    port: u16,
    reuse_port: bool,
    limits: ConnLimits,
) -> JsResult<(SocketAddr, mpsc::Receiver<Incoming1>, watch::Sender<bool>)> {
    let runtime = crate::runtime::runtime()?;
    let listener = bind(hostname, port, reuse_port).map_err(|e| {
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
    runtime.spawn(accept_loop(listener, tx, shutdown_rx, limits));
    Ok((local, rx, shutdown_tx))
}

/// Join the listener shared under `hostname:port`, or start it.
fn join_shared(hostname: &str, port: u16, limits: ConnLimits) -> JsResult<Arc<SharedListener>> {
    let mut registry = registry()
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(shared) = registry.get(&(hostname.to_string(), port)) {
        let mut members = shared
            .members
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if *members > 0 {
            *members += 1;
            drop(members);
            return Ok(shared.clone());
        }
    }
    let (addr, rx, shutdown) = listen(hostname, port, true, limits)?;
    let mut keys = vec![(hostname.to_string(), port)];
    if addr.port() != port {
        keys.push((hostname.to_string(), addr.port()));
    }
    let shared = Arc::new(SharedListener {
        queue: Arc::new(tokio::sync::Mutex::new(rx)),
        shutdown,
        addr,
        keys: keys.clone(),
        members: Mutex::new(1),
    });
    for key in keys {
        registry.insert(key, shared.clone());
    }
    Ok(shared)
}

#[derive(Trace, Finalize)]
struct Captured(#[unsafe_ignore_trace] Rc<Server>);

fn get(options: &JsValue, name: &str, ctx: &mut Context) -> JsResult<JsValue> {
    match options.as_object() {
        Some(o) => o.get(JsString::from(name), ctx),
        None => Ok(JsValue::undefined()),
    }
}

/// The options of `BoaStreams.serve(options, handler)`, read in this order.
struct ServeOptions {
    hostname: String,
    port: u16,
    limits: ConnLimits,
    signal: JsValue,
    on_listen: JsValue,
    reuse_port: bool,
}

impl ServeOptions {
    /// Read `hostname`, `port`, `headersTimeout`, `idleTimeout`, `signal`, `onListen` and
    /// `reusePort` from `options` (each once, in that order), with their defaults.
    fn read(options: &JsValue, ctx: &mut Context) -> JsResult<Self> {
        let hostname = match get(options, "hostname", ctx)? {
            v if v.is_undefined() => "127.0.0.1".to_string(),
            v => v.to_string(ctx)?.to_std_string_lossy(),
        };
        let port = match get(options, "port", ctx)? {
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
        let header_timeout = match get(options, "headersTimeout", ctx)? {
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
        // `idleTimeout`: seconds a connection may stay with nothing read or written (0: no
        // limit, the default).
        let idle_timeout = match get(options, "idleTimeout", ctx)? {
            v if v.is_undefined() => None,
            v => {
                let secs = v.to_number(ctx)?;
                if !(0.0..=86_400.0).contains(&secs) {
                    return Err(boa_engine::JsNativeError::range()
                        .with_message(format!(
                            "BoaStreams.serve: idleTimeout must be 0 (none) to 86400 s, not {secs}"
                        ))
                        .into());
                }
                // Whole milliseconds, at least one.
                let ms = (secs * 1000.0).round() as u64;
                (ms > 0).then(|| Duration::from_millis(ms))
            }
        };
        let limits = ConnLimits {
            header_timeout,
            idle_timeout,
        };
        let signal = get(options, "signal", ctx)?;
        let on_listen = get(options, "onListen", ctx)?;
        let reuse_port = get(options, "reusePort", ctx)?.to_boolean();
        Ok(Self {
            hostname,
            port,
            limits,
            signal,
            on_listen,
            reuse_port,
        })
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
    let ServeOptions {
        hostname,
        port,
        limits,
        signal,
        on_listen,
        reuse_port,
    } = ServeOptions::read(&options, ctx)?;

    // The context's capabilities: listening needs the net capability.
    boa_webidl::capabilities::Capabilities::of(ctx)
        .check_listen(&hostname, port)
        .map_err(|d| d.to_error(&format!("BoaStreams.serve on {hostname}:{port}")))?;

    let server = start_server(handler, &hostname, port, limits, reuse_port, ctx)?;
    server_object(&server, &signal, &on_listen, ctx)
}

/// Listen on `hostname:port` (or join the shared listener with `reuse_port`) and start
/// receiving its requests on this context.
fn start_server(
    handler: JsObject,
    hostname: &str,
    port: u16,
    limits: ConnLimits,
    reuse_port: bool,
    ctx: &mut Context,
) -> JsResult<Rc<Server>> {
    Ok(if reuse_port {
        let shared = join_shared(hostname, port, limits)?;
        let (shutdown, stop) = watch::channel(false);
        let server = Rc::new(Server {
            handler,
            shutdown,
            finished: PromiseCapability::new(ctx),
            hostname: shared.addr.ip().to_string(),
            port: shared.addr.port(),
            shared: Some(shared.clone()),
        });
        receive_shared(server.clone(), shared.queue.clone(), stop, ctx);
        server
    } else {
        let (local, rx, shutdown) = listen(hostname, port, false, limits)?;
        let server = Rc::new(Server {
            handler,
            shutdown,
            finished: PromiseCapability::new(ctx),
            hostname: local.ip().to_string(),
            port: local.port(),
            shared: None,
        });
        receive(server.clone(), rx, ctx);
        server
    })
}

/// The object `serve()` returns (`addr`, `finished`, `shutdown`), after tying the server's
/// stop to `signal` and calling `onListen(addr)`.
fn server_object(
    server: &Rc<Server>,
    signal: &JsValue,
    on_listen: &JsValue,
    ctx: &mut Context,
) -> JsResult<JsValue> {
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
                captured.0.stop();
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
        .filter(|_| boa_dom::is_abort_signal(signal))
    {
        if boa_dom::is_aborted(&signal) {
            server.stop();
        } else {
            let on_abort = FunctionObjectBuilder::new(
                ctx.realm(),
                NativeFunction::from_copy_closure_with_captures(
                    |_, _, captured: &Captured, _| {
                        captured.0.stop();
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
    limits: ConnLimits,
) {
    // The authority of an HTTP/1.0 request without `Host`.
    let local = listener
        .local_addr()
        .unwrap_or_else(|_| SocketAddr::from(([127, 0, 0, 1], 0)));
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
        tokio::spawn(serve_connection(
            socket,
            tx.clone(),
            shutdown.clone(),
            limits,
            local,
        ));
    }
}

/// Serve one accepted connection with hyper until it ends, the server shuts down (a
/// graceful shutdown: the request in progress finishes) or it stays idle too long.
async fn serve_connection(
    socket: tokio::net::TcpStream,
    tx: mpsc::Sender<Incoming1>,
    mut shutdown: watch::Receiver<bool>,
    limits: ConnLimits,
    local: SocketAddr,
) {
    let idle = Arc::new(IdleState::default());
    let last = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let since = tokio::time::Instant::now();
    let socket = Watched {
        inner: socket,
        last: last.clone(),
        since,
    };
    let idle_for_requests = idle.clone();
    let service = hyper::service::service_fn(move |request| {
        forward_request(request, tx.clone(), idle_for_requests.clone(), local)
    });
    let conn = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_headers(MAX_HEADERS)
        .max_buf_size(MAX_HEAD_BYTES)
        .serve_connection(TokioIo::new(socket), service);
    let mut conn = std::pin::pin!(conn);
    // Bounded by the connection: each turn either ends it or waits at least until
    // the idle deadline, which only moves forward.
    loop {
        let deadline = limits.idle_timeout.map(|t| {
            let last = last.load(std::sync::atomic::Ordering::Relaxed);
            since + Duration::from_millis(last) + t
        });
        let idle_passed = async {
            match deadline {
                Some(d) => tokio::time::sleep_until(d).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            _ = conn.as_mut() => return,
            _ = shutdown.wait_for(|s| *s) => break,
            () = idle_passed => {
                let (Some(t), Some(d)) = (limits.idle_timeout, deadline) else { continue };
                let last = last.load(std::sync::atomic::Ordering::Relaxed);
                if since + Duration::from_millis(last) + t > d {
                    continue; // bytes moved meanwhile
                }
                // Idle: say so first, then drop the connection (the response body and
                // the request's end guard go with it).
                let ms = u64::try_from(t.as_millis()).unwrap_or(u64::MAX).max(1);
                idle.closed_after_ms.store(ms, std::sync::atomic::Ordering::SeqCst);
                return;
            }
        }
    }
    conn.as_mut().graceful_shutdown();
    let _ = conn.await;
}

/// hyper's service for one request: hand it to the script's side (`tx`) and answer with
/// the response the script gives (503 when the server is gone; 400, without the script,
/// for a bad `Host` or request target).
async fn forward_request(
    request: http::Request<Incoming>,
    tx: mpsc::Sender<Incoming1>,
    idle: Arc<IdleState>,
    local: SocketAddr,
) -> Result<http::Response<Tracked>, Infallible> {
    let (respond, response) = oneshot::channel();
    let (ended_tx, ended) = oneshot::channel();
    let guard = EndGuard {
        tx: Some(ended_tx),
        complete: std::cell::Cell::new(false),
    };
    let internal = || {
        let mut r = http::Response::new(OutBody::Empty);
        *r.status_mut() = http::StatusCode::SERVICE_UNAVAILABLE;
        r
    };
    // A bad `Host` or request target: 400 here, the script never sees it.
    let url = match target::request_url(
        request.method(),
        request.uri(),
        request.version(),
        request.headers(),
        local,
    ) {
        Ok(url) => url,
        Err(_) => {
            let mut r = status_only(400);
            r.headers_mut().insert(
                http::header::CONNECTION,
                http::HeaderValue::from_static("close"),
            );
            return Ok(r.map(|inner| Tracked { inner, guard }));
        }
    };
    let incoming = Incoming1 {
        request,
        respond,
        ended,
        idle,
        url,
    };
    if tx.send(incoming).await.is_err() {
        return Ok(internal().map(|inner| Tracked { inner, guard }));
    }
    let response = response.await.unwrap_or_else(|_| internal());
    Ok(response.map(|inner| Tracked { inner, guard }))
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

/// Like [`receive`], for a context sharing a listener: take the next request from the
/// shared queue until this context stops (`stop`) or the listener closes.
fn receive_shared(
    server: Rc<Server>,
    queue: Arc<tokio::sync::Mutex<mpsc::Receiver<Incoming1>>>,
    mut stop: watch::Receiver<bool>,
    ctx: &mut Context,
) {
    spawn_future(
        async move {
            let next = tokio::select! {
                next = async { queue.lock().await.recv().await } => next,
                _ = stop.wait_for(|s| *s) => None,
            };
            (next, queue, stop)
        },
        move |(next, queue, stop), ctx| match next {
            None => server.finished.resolve(JsValue::undefined(), ctx),
            Some(incoming) => {
                handle(&server, incoming, ctx);
                receive_shared(server, queue, stop, ctx);
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
    #[unsafe_ignore_trace] Arc<IdleState>,
);

/// Run the handler for one request.
fn handle(server: &Rc<Server>, incoming: Incoming1, ctx: &mut Context) {
    let Incoming1 {
        request,
        respond,
        ended,
        idle,
        url,
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
    // The client going away (or the connection closed for being idle) before the response
    // was written to its end aborts the signal.
    {
        let signal = signal.clone();
        let idle = idle.clone();
        spawn_future(
            ended,
            move |ended, ctx| {
                if ended != Ok(true) && !boa_dom::is_aborted(&signal) {
                    let reason = idle.reason(ctx);
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
                let response = respond_with(&arg(args, 0), r.1.clone(), ctx);
                let response = response.unwrap_or_else(|e| {
                    let e = own_error_value(e, ctx);
                    report(e, ctx);
                    status_only(500)
                });
                send(&r.0, response);
                Ok(JsValue::undefined())
            },
            Responder(responder.clone(), idle.clone()),
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
            Responder(responder, idle),
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
fn respond_with(
    value: &JsValue,
    idle: Arc<IdleState>,
    ctx: &mut Context,
) -> JsResult<http::Response<OutBody>> {
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
                        let reason = idle.reason(ctx);
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

mod target;
#[cfg(test)]
mod tests;
