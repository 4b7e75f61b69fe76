//! Tests against an in-test hyper server on 127.0.0.1 (port 0). Every wait is bounded in
//! time ([`run_until`]) and every loop in count.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context as TaskContext, Poll, Wake, Waker};
use std::time::{Duration, Instant};

use boa_engine::Context;
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::{Body, Frame, Incoming};
use hyper::{Request, Response};

use crate::test_support::*;

/// What the test server counts.
#[derive(Default)]
pub(crate) struct Counters {
    /// Connections accepted.
    pub(crate) connections: AtomicUsize,
    /// Bytes the `/stream` producer handed to hyper.
    produced: AtomicU64,
    /// Bytes `/sink` read from request bodies.
    consumed: AtomicU64,
    /// How many `/stream` bodies were dropped before their end.
    dropped: AtomicUsize,
}

/// A body of `total` bytes in 16 KiB chunks, counted in `produced` as hyper polls them.
struct Counted {
    left: u64,
    counters: Arc<Counters>,
}

impl Body for Counted {
    type Data = Bytes;
    type Error = Infallible;
    fn poll_frame(
        mut self: Pin<&mut Self>,
        _: &mut TaskContext<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        if self.left == 0 {
            return Poll::Ready(None);
        }
        let n = self.left.min(16384);
        self.left -= n;
        self.counters.produced.fetch_add(n, Ordering::SeqCst);
        Poll::Ready(Some(Ok(Frame::data(Bytes::from(vec![7u8; n as usize])))))
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        if self.left > 0 {
            self.counters.dropped.fetch_add(1, Ordering::SeqCst);
        }
    }
}

type BoxBody = http_body_util::combinators::BoxBody<Bytes, hyper::Error>;

fn full(text: &'static str) -> BoxBody {
    Full::new(Bytes::from_static(text.as_bytes()))
        .map_err(|never| match never {})
        .boxed()
}

fn reply(status: u16, body: BoxBody) -> Response<BoxBody> {
    let mut r = Response::new(body);
    *r.status_mut() = hyper::StatusCode::from_u16(status).unwrap();
    r
}

fn redirect_to(status: u16, location: &str) -> Response<BoxBody> {
    let mut r = reply(status, full(""));
    r.headers_mut()
        .insert("location", location.parse().unwrap());
    r
}

async fn route(
    req: Request<Incoming>,
    counters: Arc<Counters>,
) -> Result<Response<BoxBody>, Infallible> {
    let path = req.uri().path().to_string();
    let query = req.uri().query().unwrap_or("").to_string();
    let number = |prefix: &str| -> u64 {
        query
            .strip_prefix(prefix)
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    Ok(match path.as_str() {
        "/text" => {
            let mut r = reply(200, full("hello"));
            r.headers_mut().insert("x-test", "1".parse().unwrap());
            r
        }
        "/stream" => {
            let body = Counted {
                left: number("bytes="),
                counters: counters.clone(),
            };
            reply(200, body.map_err(|never| match never {}).boxed())
        }
        "/echo" => {
            let method = req.method().to_string();
            let ct = req
                .headers()
                .get("content-type")
                .map(|v| v.to_str().unwrap_or("").to_string());
            let mut r = reply(200, req.into_body().boxed());
            r.headers_mut().insert("x-method", method.parse().unwrap());
            if let Some(ct) = ct {
                r.headers_mut()
                    .insert("x-content-type", ct.parse().unwrap());
            }
            r
        }
        "/sink" => {
            // Read the request body slowly: one frame, then wait for `ms` milliseconds
            // before reading on (the client's stream must not be read ahead).
            let mut body = req.into_body();
            let mut total = 0u64;
            for _ in 0..10_000 {
                match body.frame().await {
                    Some(Ok(frame)) => {
                        if let Ok(data) = frame.into_data() {
                            total += data.len() as u64;
                            counters.consumed.store(total, Ordering::SeqCst);
                        }
                    }
                    _ => break,
                }
                if number("wait=") > 0 {
                    tokio::time::sleep(Duration::from_millis(number("wait="))).await;
                }
            }
            reply(200, full("ok"))
        }
        "/never" => {
            tokio::time::sleep(Duration::from_secs(30)).await;
            reply(200, full("late"))
        }
        "/redirect" => {
            let n = number("n=");
            if n == 0 {
                reply(200, full("arrived"))
            } else {
                redirect_to(302, &format!("/redirect?n={}", n - 1))
            }
        }
        "/r303" => redirect_to(303, "/echo"),
        "/r301" => redirect_to(301, "/echo"),
        "/r307" => redirect_to(307, "/echo"),
        "/rdata" => redirect_to(302, "data:,x"),
        "/goto" => redirect_to(302, &query),
        "/rbody" => {
            let mut r = redirect_to(301, "/text");
            *r.body_mut() = full("moved");
            r.headers_mut().insert("x-test", "r".parse().unwrap());
            r
        }
        "/rnoloc" => reply(302, full("nowhere")),
        "/cache" => {
            // The cache-related request headers, as `pragma;cache-control`.
            let seen: Vec<String> = ["pragma", "cache-control"]
                .iter()
                .map(|n| {
                    req.headers()
                        .get(*n)
                        .map_or("-", |v| v.to_str().unwrap_or("?"))
                        .to_string()
                })
                .collect();
            reply(
                200,
                Full::new(Bytes::from(seen.join(";")))
                    .map_err(|never| match never {})
                    .boxed(),
            )
        }
        "/nocontent" => reply(204, full("")),
        "/coded" => {
            // `?gzip`, `?deflate`, `?gzip,deflate` (applied in that order), `?bad`, `?br`.
            use std::io::Write as _;
            let plain: Vec<u8> = (0..200_000u32).map(|i| (i % 7) as u8 + b'a').collect();
            let gzip = |data: &[u8]| {
                let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
                e.write_all(data).unwrap();
                e.finish().unwrap()
            };
            let zlib = |data: &[u8]| {
                let mut e =
                    flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
                e.write_all(data).unwrap();
                e.finish().unwrap()
            };
            let (coding, body) = match query.as_str() {
                "gzip" => ("gzip", gzip(&plain)),
                "deflate" => ("deflate", zlib(&plain)),
                "gzip,deflate" => ("gzip, deflate", zlib(&gzip(&plain))),
                "bad" => ("gzip", b"not gzip at all".to_vec()),
                _ => ("br", b"opaque".to_vec()),
            };
            let length = body.len();
            let mut r = reply(
                200,
                Full::new(Bytes::from(body))
                    .map_err(|never| match never {})
                    .boxed(),
            );
            r.headers_mut()
                .insert("content-encoding", coding.parse().unwrap());
            r.headers_mut().insert("content-length", length.into());
            let ae = req
                .headers()
                .get("accept-encoding")
                .map_or("-", |v| v.to_str().unwrap_or("?"))
                .to_string();
            r.headers_mut()
                .insert("x-accept-encoding", ae.parse().unwrap());
            r
        }
        "/headers" => {
            // The request headers a server runtime must pass through, and two Set-Cookies.
            let seen: Vec<String> = ["cookie", "origin", "content-length", "host"]
                .iter()
                .map(|n| {
                    let v = req
                        .headers()
                        .get(*n)
                        .map_or("-", |v| v.to_str().unwrap_or("?"));
                    format!("{n}={v}")
                })
                .collect();
            let mut r = reply(
                200,
                Full::new(Bytes::from(seen.join(";")))
                    .map_err(|never| match never {})
                    .boxed(),
            );
            r.headers_mut().append("set-cookie", "a=1".parse().unwrap());
            r.headers_mut().append("set-cookie", "b=2".parse().unwrap());
            r
        }
        _ => reply(404, full("not found")),
    })
}

/// Start the test server on 127.0.0.1:0 (a thread with its own runtime); returns its port.
pub(crate) fn server() -> (u16, Arc<Counters>) {
    let counters = Arc::new(Counters::default());
    let shared = counters.clone();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap().port()).unwrap();
            loop {
                let Ok((socket, _)) = listener.accept().await else {
                    return;
                };
                shared.connections.fetch_add(1, Ordering::SeqCst);
                let counters = shared.clone();
                tokio::spawn(async move {
                    let service =
                        hyper::service::service_fn(move |req| route(req, counters.clone()));
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(hyper_util::rt::TokioIo::new(socket), service)
                        .await;
                });
            }
        });
    });
    let port = rx.recv_timeout(Duration::from_secs(10)).unwrap();
    (port, counters)
}

struct Unpark(std::thread::Thread);
impl Wake for Unpark {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }
}

/// Run jobs and native futures until `cond` (a JS expression) is true; panic after 10 s.
#[track_caller]
pub(crate) fn run_until(ctx: &mut Context, cond: &str) {
    let waker = Waker::from(Arc::new(Unpark(std::thread::current())));
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        run_jobs(ctx);
        let progress = boa_streams::native::poll_tasks(ctx, &waker);
        if progress.ran > 0 {
            continue;
        }
        if eval(ctx, cond) == true.into() {
            return;
        }
        let now = Instant::now();
        assert!(
            now < deadline,
            "timed out waiting for {cond}; log: {}",
            string(ctx, "log.join('|')")
        );
        std::thread::park_timeout((deadline - now).min(Duration::from_millis(50)));
    }
}

/// Run for `ms` milliseconds (jobs and native futures), whatever happens.
pub(crate) fn run_for(ctx: &mut Context, ms: u64) {
    let waker = Waker::from(Arc::new(Unpark(std::thread::current())));
    let deadline = Instant::now() + Duration::from_millis(ms);
    while Instant::now() < deadline {
        run_jobs(ctx);
        boa_streams::native::poll_tasks(ctx, &waker);
        std::thread::park_timeout(Duration::from_millis(10));
    }
    run_jobs(ctx);
}

pub(crate) fn start(script: &str, port: u16) -> Context {
    start_with(context(), script, port)
}

fn start_with(mut ctx: Context, script: &str, port: u16) -> Context {
    eval(&mut ctx, &format!("globalThis.log = []; globalThis.done = false; globalThis.base = 'http://127.0.0.1:{port}';"));
    eval(&mut ctx, script);
    ctx
}

#[test]
fn fetch_text_and_headers() {
    let (port, _) = server();
    let mut ctx = start(
        "(async () => {
            const r = await fetch(base + '/text');
            log.push(r.status, r.statusText, r.ok, r.type, r.url === base + '/text', r.redirected);
            log.push(r.headers.get('x-test'), r.headers.get('content-length'));
            log.push(await r.text());
        })().catch(e => log.push('error ' + e)).finally(() => { done = true; });",
        port,
    );
    run_until(&mut ctx, "done");
    assert_eq!(
        string(&mut ctx, "log.join()"),
        "200,OK,true,basic,true,false,1,5,hello"
    );
}

#[test]
fn fetch_head_and_no_content_have_null_bodies() {
    let (port, _) = server();
    let mut ctx = start(
        "(async () => {
            const h = await fetch(base + '/text', { method: 'HEAD' });
            log.push(h.status, h.body === null);
            const n = await fetch(base + '/nocontent');
            log.push(n.status, n.body === null);
        })().catch(e => log.push('error ' + e)).finally(() => { done = true; });",
        port,
    );
    run_until(&mut ctx, "done");
    assert_eq!(string(&mut ctx, "log.join()"), "200,true,204,true");
}

#[test]
fn response_body_streams_with_backpressure() {
    let (port, counters) = server();
    // 64 MiB offered; the script reads 3 chunks, then stops reading.
    let mut ctx = start(
        "(async () => {
            const r = await fetch(base + '/stream?bytes=67108864');
            globalThis.reader = r.body.getReader();
            let got = 0;
            for (let i = 0; i < 3; i++) {
                const { value } = await reader.read();
                got += value.length;
            }
            log.push(got > 0);
        })().catch(e => log.push('error ' + e)).finally(() => { done = true; });",
        port,
    );
    run_until(&mut ctx, "done");
    assert_eq!(string(&mut ctx, "log.join()"), "true");
    run_for(&mut ctx, 300);
    let stalled = counters.produced.load(Ordering::SeqCst);
    run_for(&mut ctx, 300);
    let later = counters.produced.load(Ordering::SeqCst);
    // The producer stopped (socket buffers hold a few MiB at most) and stays stopped.
    assert_eq!(stalled, later, "the producer went on while nobody read");
    assert!(
        later < 32 << 20,
        "produced {later} bytes for a reader that stopped"
    );
    // Reading on resumes it; cancelling drops the server's body.
    eval(
        &mut ctx,
        "done = false; (async () => {
            let got = 0;
            for (let i = 0; i < 200; i++) { const { value } = await reader.read(); got += value.length; }
            log.push(got > 0);
            await reader.cancel('enough');
        })().catch(e => log.push('error ' + e)).finally(() => { done = true; });",
    );
    run_until(&mut ctx, "done");
    assert!(counters.produced.load(Ordering::SeqCst) > later);
    let deadline = Instant::now() + Duration::from_secs(5);
    while counters.dropped.load(Ordering::SeqCst) == 0 && Instant::now() < deadline {
        run_for(&mut ctx, 20);
    }
    assert_eq!(
        counters.dropped.load(Ordering::SeqCst),
        1,
        "cancel did not close the connection"
    );
}

#[test]
fn whole_streamed_body_arrives() {
    let (port, _) = server();
    let mut ctx = start(
        "(async () => {
            const r = await fetch(base + '/stream?bytes=1000000');
            let total = 0, chunks = 0;
            for await (const c of r.body) { total += c.length; chunks++; }
            log.push(total, chunks > 1);
            const b = await fetch(base + '/stream?bytes=100000');
            log.push((await b.arrayBuffer()).byteLength);
        })().catch(e => log.push('error ' + e)).finally(() => { done = true; });",
        port,
    );
    run_until(&mut ctx, "done");
    assert_eq!(string(&mut ctx, "log.join()"), "1000000,true,100000");
}

#[test]
fn byob_reads_fill_the_callers_buffer() {
    let (port, _) = server();
    let mut ctx = start(
        "(async () => {
            const r = await fetch(base + '/stream?bytes=40000');
            const reader = r.body.getReader({ mode: 'byob' });
            let total = 0, max = 0;
            for (let i = 0; i < 1000; i++) {
                const { done, value } = await reader.read(new Uint8Array(1000));
                if (done) break;
                total += value.length; max = Math.max(max, value.length);
            }
            log.push(total, max);
        })().catch(e => log.push('error ' + e)).finally(() => { done = true; });",
        port,
    );
    run_until(&mut ctx, "done");
    assert_eq!(string(&mut ctx, "log.join()"), "40000,1000");
}

#[test]
fn request_bodies_are_sent() {
    let (port, _) = server();
    let mut ctx = start(
        "(async () => {
            const a = await fetch(base + '/echo', { method: 'POST', body: 'text body' });
            log.push(await a.text(), a.headers.get('x-content-type'));
            const b = await fetch(base + '/echo', { method: 'PUT', body: new Uint8Array([104, 105]) });
            log.push(await b.text(), b.headers.get('x-method'));
            const stream = new ReadableStream({
                i: 0,
                pull(c) { if (this.i++ < 3) c.enqueue(new Uint8Array([...('part' + this.i)].map(ch => ch.charCodeAt(0)))); else c.close(); },
            });
            const s = await fetch(base + '/echo', { method: 'POST', body: stream, duplex: 'half' });
            log.push(await s.text());
        })().catch(e => log.push('error ' + e)).finally(() => { done = true; });",
        port,
    );
    run_until(&mut ctx, "done");
    assert_eq!(
        string(&mut ctx, "log.join()"),
        "text body,text/plain;charset=UTF-8,hi,PUT,part1part2part3"
    );
}

#[test]
fn request_body_stream_is_read_as_the_server_takes_it() {
    let (port, counters) = server();
    // The server reads a frame every 200 ms; the script's stream counts its pulls.
    let mut ctx = start(
        "globalThis.pulled = 0;
        const stream = new ReadableStream({
            pull(c) {
                if (pulled++ < 400) c.enqueue(new Uint8Array(65536)); else c.close();
            },
        }, { highWaterMark: 0 });
        fetch(base + '/sink?wait=200', { method: 'POST', body: stream, duplex: 'half' })
            .then(r => r.text()).then(t => log.push(t), e => log.push('error ' + e))
            .finally(() => { done = true; });",
        port,
    );
    run_for(&mut ctx, 600);
    let pulled = eval(&mut ctx, "pulled").to_number(&mut ctx).unwrap();
    // 400 chunks of 64 KiB = 25 MiB offered; after 600 ms the slow server took a few frames
    // and the socket buffers hold a few MiB: the stream was not read to its end.
    assert!(
        pulled < 200.0,
        "the request stream was read ahead: {pulled} pulls"
    );
    assert!(counters.consumed.load(Ordering::SeqCst) > 0);
    // Abort to end the test quickly.
    drop(ctx);
}

#[test]
fn abort_before_the_response() {
    let (port, _) = server();
    let mut ctx = start(
        "const controller = new AbortController();
        fetch(base + '/never', { signal: controller.signal })
            .then(() => log.push('resolved'), e => log.push(e.name))
            .finally(() => { done = true; });",
        port,
    );
    run_for(&mut ctx, 100);
    eval(&mut ctx, "controller.abort();");
    run_until(&mut ctx, "done");
    assert_eq!(string(&mut ctx, "log.join()"), "AbortError");
    assert_eq!(boa_streams::native::pending_tasks(&ctx), 0);
}

#[test]
fn abort_before_the_call_and_with_a_reason() {
    let (port, _) = server();
    let mut ctx = start(
        "(async () => {
            const c = new AbortController();
            c.abort('stop');
            try { await fetch(base + '/text', { signal: c.signal }); } catch (e) { log.push(e); }
            try { await fetch(base + '/text', { signal: AbortSignal.abort() }); } catch (e) { log.push(e.name); }
        })().finally(() => { done = true; });",
        port,
    );
    run_until(&mut ctx, "done");
    assert_eq!(string(&mut ctx, "log.join()"), "stop,AbortError");
}

#[test]
fn abort_during_the_body() {
    let (port, counters) = server();
    let mut ctx = start(
        "(async () => {
            const c = new AbortController();
            const r = await fetch(base + '/stream?bytes=67108864', { signal: c.signal });
            const reader = r.body.getReader();
            await reader.read();
            c.abort(new Error('changed my mind'));
            try { for (let i = 0; i < 10000; i++) { const { done } = await reader.read(); if (done) break; } log.push('no error'); }
            catch (e) { log.push(e.message); }
        })().catch(e => log.push('error ' + e)).finally(() => { done = true; });",
        port,
    );
    run_until(&mut ctx, "done");
    assert_eq!(string(&mut ctx, "log.join()"), "changed my mind");
    let deadline = Instant::now() + Duration::from_secs(5);
    while counters.dropped.load(Ordering::SeqCst) == 0 && Instant::now() < deadline {
        run_for(&mut ctx, 20);
    }
    assert_eq!(
        counters.dropped.load(Ordering::SeqCst),
        1,
        "abort did not drop the connection"
    );
}

#[test]
fn abort_while_sending_the_body_cancels_it() {
    let (port, _) = server();
    let mut ctx = start(
        "const c = new AbortController();
        const stream = new ReadableStream({
            pull(ctrl) { ctrl.enqueue(new Uint8Array(65536)); },
            cancel(reason) { log.push('cancelled ' + reason); },
        }, { highWaterMark: 0 });
        fetch(base + '/sink?wait=1000', { method: 'POST', body: stream, duplex: 'half', signal: c.signal })
            .then(() => log.push('resolved'), e => log.push(String(e)))
            .finally(() => { done = true; });",
        port,
    );
    run_for(&mut ctx, 200);
    eval(&mut ctx, "c.abort('bye');");
    run_until(&mut ctx, "done && log.length == 2");
    assert_eq!(string(&mut ctx, "log.join()"), "cancelled bye,bye");
}

#[test]
fn redirects() {
    let (port, _) = server();
    let mut ctx = start(
        "(async () => {
            const r = await fetch(base + '/redirect?n=3');
            log.push(await r.text(), r.redirected, r.url === base + '/redirect?n=0');
            try { await fetch(base + '/redirect?n=21'); } catch (e) { log.push(e.name, /redirect/.test(e.message)); }
            const ok = await fetch(base + '/redirect?n=20');
            log.push(ok.status);
            try { await fetch(base + '/redirect?n=1', { redirect: 'error' }); } catch (e) { log.push(e.name); }
            const m = await fetch(base + '/redirect?n=1', { redirect: 'manual' });
            log.push(m.type, m.status, m.headers.get('location'));
            const p = await fetch(base + '/r303', { method: 'POST', body: 'x' });
            log.push(p.headers.get('x-method'), await p.text());
            const q = await fetch(base + '/r307', { method: 'POST', body: 'kept' });
            log.push(q.headers.get('x-method'), await q.text());
            const s = await fetch(base + '/r301', { method: 'POST', body: 'y' });
            log.push(s.headers.get('x-method'));
            try { await fetch(base + '/rdata'); } catch (e) { log.push(e.name); }
            const body = new ReadableStream({ start(c) { c.enqueue(new Uint8Array([1])); c.close(); } });
            try { await fetch(base + '/r307', { method: 'POST', body, duplex: 'half' }); } catch (e) { log.push(e.name); }
        })().catch(e => log.push('error ' + e)).finally(() => { done = true; });",
        port,
    );
    run_until(&mut ctx, "done");
    assert_eq!(
        string(&mut ctx, "log.join()"),
        "arrived,true,true,TypeError,true,200,TypeError,basic,302,/redirect?n=0,GET,,POST,kept,GET,TypeError,TypeError"
    );
}

#[test]
fn keep_alive_reuses_connections() {
    let (port, counters) = server();
    let mut ctx = start(
        "(async () => {
            for (let i = 0; i < 10; i++) {
                const r = await fetch(base + '/text');
                log.push(await r.text());
            }
        })().catch(e => log.push('error ' + e)).finally(() => { done = true; });",
        port,
    );
    run_until(&mut ctx, "done");
    assert_eq!(string(&mut ctx, "log.length"), "10");
    // One connection when the pool got it back in time for every request (the usual case:
    // hyper hands a connection back to its pool from a task of its own after the body ends);
    // on a loaded machine a request may start before that and open a second one. Ten
    // requests over at most three connections is reuse; without it there would be ten.
    let connections = counters.connections.load(Ordering::SeqCst);
    assert!(
        (1..=3).contains(&connections),
        "{connections} connections for 10 requests"
    );
}

#[test]
fn network_errors_are_type_errors() {
    // A port nothing listens on: bind one, note it, close it.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut ctx = start(
        "(async () => {
            for (const url of [base + '/', 'ftp://example.invalid/', 'https://127.0.0.1:1/', 'data:text/plain;base64,@@@']) {
                try { await fetch(url); log.push('resolved'); }
                catch (e) { log.push(e.name + (e.message.startsWith('fetch failed') ? '' : ':' + e.message)); }
            }
            try { await fetch('not a url'); } catch (e) { log.push(e.name); }
            try { await fetch(base, { redirect: 'sideways' }); } catch (e) { log.push(e.name); }
        })().finally(() => { done = true; });",
        port,
    );
    run_until(&mut ctx, "done");
    assert_eq!(
        string(&mut ctx, "log.join()"),
        "TypeError,TypeError,TypeError,TypeError,TypeError,TypeError"
    );
    let mut ctx = start(
        "fetch(base + '/').catch(e => { log.push(e.message); done = true; });",
        port,
    );
    run_until(&mut ctx, "done");
    let message = string(&mut ctx, "log[0]");
    assert!(
        message.contains("127.0.0.1") && message.to_lowercase().contains("refused"),
        "{message}"
    );
}

#[test]
fn data_urls() {
    let mut ctx = start(
        "(async () => {
            const a = await fetch('data:,Hello%2C%20World!');
            log.push(a.status, a.statusText, a.headers.get('content-type'), await a.text());
            const b = await fetch('data:text/html;base64,PGI+aGk8L2I+');
            log.push(b.headers.get('content-type'), await b.text(), b.url, b.type);
            const c = await fetch('data:application/octet-stream;base64,AAEC');
            log.push(new Uint8Array(await c.arrayBuffer()).join(' '));
        })().catch(e => log.push('error ' + e)).finally(() => { done = true; });",
        0,
    );
    run_until(&mut ctx, "done");
    assert_eq!(
        string(&mut ctx, "log.join('|')"),
        "200|OK|text/plain;charset=US-ASCII|Hello, World!|text/html|<b>hi</b>|data:text/html;base64,PGI+aGk8L2I+|basic|0 1 2"
    );
}

#[test]
fn blob_urls() {
    let mut ctx = start(
        "(async () => {
            const big = new Uint8Array(200 * 1024).map((_, i) => i % 251);
            const url = URL.createObjectURL(new Blob(['ab', big], { type: 'Text/X;A=B' }));
            const r = await fetch(url + '#frag');
            log.push(r.status, r.statusText, r.type, r.url === url,
                     r.headers.get('content-type'), r.headers.get('content-length'));
            // The body is streamed: more than one chunk for 200 KiB.
            let chunks = 0, size = 0, ok = true;
            for await (const c of r.body) {
              if (chunks === 0) ok = c[0] === 97 && c[1] === 98;
              chunks++; size += c.length;
            }
            log.push(chunks > 1, size, ok);
            // An empty type is an empty Content-Type.
            const e = await fetch(URL.createObjectURL(new Blob([])));
            log.push(JSON.stringify(e.headers.get('content-type')), e.headers.get('content-length'));
            // Range: one range, 206 with Content-Range.
            const p = await fetch(url, { headers: { Range: 'bytes=1-3' } });
            log.push(p.status, p.headers.get('content-range'), p.headers.get('content-length'),
                     new Uint8Array(await p.arrayBuffer()).join(' '));
            const q = await fetch(url, { headers: { Range: 'bytes=-2' } });
            log.push(q.headers.get('content-range'));
            // Not GET, a bad range, a revoked URL: TypeErrors.
            for (const [u, init] of [[url, { method: 'POST', body: 'x' }],
                                     [url, { method: 'HEAD' }],
                                     [url, { headers: { Range: 'bytes=9999999-' } }],
                                     ['blob:null/not-there', {}]])
              await fetch(u, init).then(() => log.push('no'), e => log.push(e.name));
            URL.revokeObjectURL(url);
            await fetch(url).then(() => log.push('no'), e => log.push(e.name));
        })().catch(e => log.push('error ' + e)).finally(() => { done = true; });",
        0,
    );
    run_until(&mut ctx, "done");
    assert_eq!(
        string(&mut ctx, "log.join('|')"),
        "200|OK|basic|true|text/x;a=b|204802|true|204802|true|\"\"|0|\
         206|bytes 1-3/204802|3|98 0 1|bytes 204800-204801/204802|\
         TypeError|TypeError|TypeError|TypeError|TypeError"
    );
    boa_fileapi::blob_url::clear(&ctx);
}

#[test]
fn register_twice_and_alone() {
    let mut ctx = Context::default();
    crate::register(&mut ctx).unwrap();
    crate::register(&mut ctx).unwrap();
    check(
        &mut ctx,
        "typeof fetch === 'function' && fetch.length === 1 && typeof Response === 'function'",
    );
}

#[test]
fn forbidden_headers_pass_through_both_ways() {
    let (port, _) = server();
    let mut ctx = start(
        "(async () => {
            const r = await fetch(base + '/headers', { method: 'POST', body: 'abc',
              headers: { Cookie: 'k=v', Origin: 'http://o.test', 'Content-Length': '3' } });
            log.push(await r.text(), r.headers.getSetCookie().join(','));
        })().catch(e => log.push('error ' + e)).finally(() => { done = true; });",
        port,
    );
    run_until(&mut ctx, "done");
    assert_eq!(
        string(&mut ctx, "log.join('|')"),
        format!("cookie=k=v;origin=http://o.test;content-length=3;host=127.0.0.1:{port}|a=1,b=2")
    );
}

/// A fresh directory under the system's temp dir for one test.
fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("boa-net-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn file_urls_stream_from_disk_and_resolve_against_the_base_url() {
    let dir = temp_dir("file");
    let data: Vec<u8> = (0..300_000u32).map(|i| (i % 251) as u8).collect();
    std::fs::write(dir.join("data.bin"), &data).unwrap();
    std::fs::write(dir.join("hello.txt"), "hello file").unwrap();
    let mut ctx = start("", 0);
    let base = url::Url::from_file_path(dir.join("main.js")).unwrap();
    crate::set_base_url(&mut ctx, Some(base.as_str()));
    eval(
        &mut ctx,
        "(async () => {
            const a = await fetch('./hello.txt');
            log.push(a.status, a.url.endsWith('/hello.txt'), a.url.startsWith('file:///'), await a.text());
            const b = await fetch('data.bin');
            log.push(b.headers.get('content-length'));
            const reader = b.body.getReader();
            let total = 0, chunks = 0, ok = true;
            for (let i = 0; i < 1000; i++) {
              const { done, value } = await reader.read();
              if (done) break;
              for (let j = 0; j < value.length; j += 997) ok = ok && value[j] === (total + j) % 251;
              total += value.length; chunks++;
            }
            log.push(total, chunks > 1, ok);
            for (const bad of ['missing.txt', '.', ['hello.txt', { method: 'POST', body: 'x' }]]) {
              try { await fetch(...[].concat(bad)); log.push('resolved'); }
              catch (e) { log.push(e.name + ':' + /missing|directory|method/.test(e.message)); }
            }
            const h = await fetch('hello.txt', { method: 'HEAD' });
            log.push(h.body === null);
            const c = new AbortController();
            const p = fetch('data.bin', { signal: c.signal }).then(r => r.body.getReader().read());
            c.abort();
            try { await p; log.push('resolved'); } catch (e) { log.push(e.name); }
        })().catch(e => log.push('error ' + e)).finally(() => { done = true; });",
    );
    run_until(&mut ctx, "done");
    assert_eq!(
        string(&mut ctx, "log.join('|')"),
        "200|true|true|hello file|300000|300000|true|true|TypeError:true|TypeError:true|TypeError:true|true|AbortError"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_slow_reader_stops_the_file_reads() {
    let dir = temp_dir("slow");
    std::fs::write(dir.join("big.bin"), vec![1u8; 4 * 1024 * 1024]).unwrap();
    let mut ctx = start("", 0);
    let base = url::Url::from_file_path(dir.join("main.js")).unwrap();
    crate::set_base_url(&mut ctx, Some(base.as_str()));
    eval(
        &mut ctx,
        "globalThis.got = 0; fetch('big.bin').then(async (r) => {
            globalThis.reader = r.body.getReader();
            const { value } = await reader.read();
            got += value.length; done = true;
        });",
    );
    run_until(&mut ctx, "done");
    // The reader stopped after one chunk: the file's reader task is parked on the one-chunk
    // channel, so at most a few chunks were read ahead.
    run_for(&mut ctx, 100);
    let got: f64 = eval(&mut ctx, "got").as_number().unwrap();
    assert!(got > 0.0 && got <= 64.0 * 1024.0, "{got}");
    eval(&mut ctx, "reader.cancel(); log.push('cancelled');");
    run_until(&mut ctx, "log.includes('cancelled')");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn local_handlers_answer_in_process() {
    let mut ctx = start("", 0);
    assert!(!crate::serve_origin_locally(&mut ctx, "data:,x", |_| {
        crate::LocalResponse::default()
    }));
    assert!(crate::serve_origin_locally(
        &mut ctx,
        "http://app.test:8000",
        |r| {
            if r.url.ends_with("/moved") {
                return crate::LocalResponse::new(302, "").with_header("location", "/json");
            }
            crate::LocalResponse::new(200, format!("{{\"m\":\"{}\"}}", r.method))
                .with_header("content-type", "application/json")
        }
    ));
    crate::set_base_url(&mut ctx, Some("http://app.test:8000/dir/page.html"));
    eval(
        &mut ctx,
        "(async () => {
            const a = await fetch('/moved');
            log.push(a.status, a.redirected, a.url, a.headers.get('content-type'), (await a.json()).m);
            const b = await fetch('http://app.test:8000/x', { method: 'PUT', body: 'z' });
            log.push((await b.json()).m);
        })().catch(e => log.push('error ' + e)).finally(() => { done = true; });",
    );
    run_until(&mut ctx, "done");
    assert_eq!(
        string(&mut ctx, "log.join('|')"),
        "200|true|http://app.test:8000/json|application/json|GET|PUT"
    );
}

#[test]
fn a_reset_connection_is_a_readable_type_error() {
    // A peer that accepts and closes at once, without answering.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for _ in 0..4 {
            match listener.accept() {
                Ok((socket, _)) => drop(socket),
                Err(_) => return,
            }
        }
    });
    let mut ctx = start(
        "fetch(base + '/').then(() => log.push('resolved'), e => log.push(e.name, e.message)).finally(() => { done = true; });",
        port,
    );
    run_until(&mut ctx, "done");
    let name = string(&mut ctx, "log[0]");
    let message = string(&mut ctx, "log[1]");
    assert_eq!(name, "TypeError");
    assert!(
        message.contains(&format!("127.0.0.1:{port}"))
            && (message.contains("closed by") || message.contains("reset by")),
        "{message}"
    );
}

#[test]
fn content_encodings_are_decoded() {
    let (port, _) = server();
    let mut ctx = start(
        "(async () => {
            const expected = (i) => (i % 7) + 97;
            for (const q of ['gzip', 'deflate', 'gzip,deflate']) {
              const r = await fetch(base + '/coded?' + q);
              const bytes = new Uint8Array(await r.arrayBuffer());
              let ok = bytes.length === 200000;
              for (let i = 0; ok && i < bytes.length; i += 101) ok = bytes[i] === expected(i);
              log.push(q + ':' + ok + ':' + r.headers.get('content-encoding') + ':' + (Number(r.headers.get('content-length')) < 200000));
            }
            log.push((await fetch(base + '/coded?gzip')).headers.get('x-accept-encoding'));
            const own = await fetch(base + '/coded?br', { headers: { 'accept-encoding': 'br' } });
            log.push(own.headers.get('x-accept-encoding'), await own.text());
            try { await (await fetch(base + '/coded?bad')).text(); log.push('resolved'); }
            catch (e) { log.push(e.name, /Content-Encoding/.test(e.message)); }
        })().catch(e => log.push('error ' + e)).finally(() => { done = true; });",
        port,
    );
    run_until(&mut ctx, "done");
    assert_eq!(
        string(&mut ctx, "log.join('|')"),
        "gzip:true:gzip:true|deflate:true:deflate:true|gzip,deflate:true:gzip, deflate:true|gzip, deflate|br|opaque|TypeError|true"
    );
}

/// A test CA and a certificate for 127.0.0.1 it signed: (CA DER, leaf DER, leaf key PKCS#8).
fn test_pki() -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    ca_params
        .distinguished_name
        .push(rcgen::DnType::CommonName, "boa_net test CA");
    let ca_key = rcgen::KeyPair::generate().unwrap();
    let ca = ca_params.self_signed(&ca_key).unwrap();
    let leaf_params =
        rcgen::CertificateParams::new(vec!["127.0.0.1".to_string(), "localhost".to_string()])
            .unwrap();
    let leaf_key = rcgen::KeyPair::generate().unwrap();
    let leaf = leaf_params.signed_by(&leaf_key, &ca, &ca_key).unwrap();
    (
        ca.der().to_vec(),
        leaf.der().to_vec(),
        leaf_key.serialize_der(),
    )
}

/// A TLS server on 127.0.0.1:0 with `leaf`/`key`, answering with the test routes.
fn tls_server(leaf: Vec<u8>, key: Vec<u8>) -> u16 {
    let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(
            vec![rustls::pki_types::CertificateDer::from(leaf)],
            rustls::pki_types::PrivateKeyDer::Pkcs8(key.into()),
        )
        .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let counters = Arc::new(Counters::default());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap().port()).unwrap();
            loop {
                let Ok((socket, _)) = listener.accept().await else {
                    return;
                };
                let acceptor = acceptor.clone();
                let counters = counters.clone();
                tokio::spawn(async move {
                    let Ok(tls) = acceptor.accept(socket).await else {
                        return;
                    };
                    let service =
                        hyper::service::service_fn(move |req| route(req, counters.clone()));
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(hyper_util::rt::TokioIo::new(tls), service)
                        .await;
                });
            }
        });
    });
    rx.recv_timeout(Duration::from_secs(10)).unwrap()
}

#[test]
fn https_with_a_test_ca_and_tls_errors() {
    // A server whose CA is not trusted: the handshake fails with a readable TypeError.
    let (_, untrusted_leaf, untrusted_key) = test_pki();
    let untrusted = tls_server(untrusted_leaf, untrusted_key);
    let mut ctx = start(
        &format!(
            "fetch('https://127.0.0.1:{untrusted}/text').then(() => log.push('resolved'), e => log.push(e.name, e.message)).finally(() => {{ done = true; }});"
        ),
        0,
    );
    run_until(&mut ctx, "done");
    assert_eq!(string(&mut ctx, "log[0]"), "TypeError");
    let message = string(&mut ctx, "log[1]");
    assert!(
        message.contains("TLS handshake with 127.0.0.1"),
        "{message}"
    );

    // With the test CA added to the roots: a response streamed over TLS.
    let (ca, leaf, key) = test_pki();
    crate::add_root_certificate(&ca).unwrap();
    let port = tls_server(leaf, key);
    let mut ctx = start(
        &format!(
            "(async () => {{
                const base = 'https://127.0.0.1:{port}';
                const r = await fetch(base + '/text');
                log.push(r.status, r.url === base + '/text', r.headers.get('x-test'), await r.text());
                const s = await fetch(base + '/stream?bytes=300000');
                log.push((await s.arrayBuffer()).byteLength);
                const e = await fetch(base + '/echo', {{ method: 'POST', body: 'over tls' }});
                log.push(await e.text());
            }})().catch(e => log.push('error ' + e)).finally(() => {{ done = true; }});"
        ),
        0,
    );
    run_until(&mut ctx, "done");
    assert_eq!(
        string(&mut ctx, "log.join('|')"),
        "200|true|1|hello|300000|over tls"
    );
}

/// What the manual-redirect test script logs, run in a context with `policy`.
fn manual_redirect_log(policy: boa_fetch::HeadersPolicy) -> String {
    let (port, _) = server();
    let mut ctx = context();
    boa_fetch::set_headers_policy(&mut ctx, policy);
    let mut ctx = start_with(
        ctx,
        "(async () => {
            const show = async (r) => [r.type, r.status, r.statusText, r.redirected,
              r.url === base + '/rbody', r.headers.get('location'), r.headers.get('x-test'),
              r.body === null ? 'null' : await r.text()].join();
            log.push(await show(await fetch(base + '/rbody', { redirect: 'manual' })));
            // The Request's redirect mode is what fetch() honours.
            log.push(await show(await fetch(new Request(base + '/rbody', { redirect: 'manual' }))));
            log.push(await show(await fetch(new Request(new Request(base + '/rbody', { redirect: 'manual' })))));
            const followed = await fetch(base + '/rbody');
            log.push(followed.status, followed.redirected, await followed.text());
            for (const redirect of ['follow', 'manual', 'error']) {
              try {
                const r = await fetch(base + '/rnoloc', { redirect });
                log.push(redirect + ' ' + r.status + ' ' + (r.body === null ? 'null' : await r.text()));
              } catch (e) { log.push(redirect + ' ' + e.name); }
            }
            try { await fetch(new Request(base + '/rbody', { redirect: 'error' })); log.push('no'); }
            catch (e) { log.push(e.name, /redirect mode/.test(e.message)); }
        })().catch(e => log.push('error ' + e)).finally(() => { done = true; });",
        port,
    );
    run_until(&mut ctx, "done");
    string(&mut ctx, "log.join('|')")
}

#[test]
fn manual_redirects_are_the_3xx_in_a_server_runtime_and_opaque_in_a_browser() {
    let server_runtime = manual_redirect_log(boa_fetch::HeadersPolicy::ServerRuntime);
    let real = "basic,301,Moved Permanently,false,true,/text,r,moved";
    assert_eq!(
        server_runtime,
        [
            real,
            real,
            real,
            "200",
            "true",
            "hello",
            "follow 302 nowhere",
            "manual 302 nowhere",
            "error TypeError",
            "TypeError",
            "true",
        ]
        .join("|")
    );
    let browser = manual_redirect_log(boa_fetch::HeadersPolicy::Browser);
    let opaque = "opaqueredirect,0,,false,true,,,null";
    assert_eq!(
        browser,
        [
            opaque,
            opaque,
            opaque,
            "200",
            "true",
            "hello",
            "follow 302 nowhere",
            "manual 0 null",
            "error TypeError",
            "TypeError",
            "true",
        ]
        .join("|")
    );
}

#[test]
fn cache_modes_add_request_headers_and_only_if_cached_fails() {
    let (port, _) = server();
    let mut ctx = start(
        "(async () => {
            const seen = async (init) => (await (await fetch(base + '/cache', init)).text());
            log.push(await seen({}));
            log.push(await seen({ cache: 'no-store' }));
            log.push(await seen({ cache: 'reload', headers: { 'cache-control': 'max-age=5' } }));
            log.push(await seen({ cache: 'no-cache' }));
            log.push(await seen({ cache: 'no-cache', headers: { 'cache-control': 'no-transform' } }));
            log.push(await seen({ headers: { 'if-none-match': 'x' } }));
            log.push(await seen({ cache: 'force-cache', headers: { 'if-none-match': 'x' } }));
            log.push(await seen(new Request(base + '/cache', { cache: 'no-store' })));
            try { await fetch(base + '/cache', { cache: 'only-if-cached', mode: 'same-origin' }); log.push('no'); }
            catch (e) { log.push(e.name, /only-if-cached/.test(e.message)); }
        })().catch(e => log.push('error ' + e)).finally(() => { done = true; });",
        port,
    );
    run_until(&mut ctx, "done");
    assert_eq!(
        string(&mut ctx, "log.join('|')"),
        "-;-|no-cache;no-cache|no-cache;max-age=5|-;max-age=0|-;no-transform|no-cache;no-cache|-;-|no-cache;no-cache|TypeError|true"
    );
}

#[test]
fn request_init_errors_reject_fetch() {
    let (port, _) = server();
    let mut ctx = start(
        "(async () => {
            const url = base.replace('http://', 'http://user:pass@') + '/text';
            const p = fetch(url);
            log.push(p instanceof Promise);
            try { await p; log.push('no'); } catch (e) { log.push(e.name, /credentials/.test(e.message)); }
            for (const init of [{ mode: 'navigate' }, { redirect: 'sideways' }, { window: {} }, { cache: 'only-if-cached' }]) {
              try { await fetch(base + '/text', init); log.push('no'); } catch (e) { log.push(e.name); }
            }
        })().catch(e => log.push('error ' + e)).finally(() => { done = true; });",
        port,
    );
    run_until(&mut ctx, "done");
    assert_eq!(
        string(&mut ctx, "log.join('|')"),
        "true|TypeError|true|TypeError|TypeError|TypeError|TypeError"
    );
}
