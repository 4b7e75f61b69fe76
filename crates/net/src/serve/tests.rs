//! Server tests: `fetch()` and raw sockets on 127.0.0.1 as clients. Every wait is bounded.

use std::io::{Read, Write};
use std::time::Duration;

use crate::test_support::*;
use crate::tests::{run_for, run_until};

fn serving(handler: &str) -> (boa_engine::Context, u16) {
    let mut ctx = context();
    eval(
        &mut ctx,
        &format!(
            "globalThis.log = []; globalThis.done = false;
             globalThis.server = BoaStreams.serve({{ port: 0, onListen(a) {{ log.push('listening ' + a.hostname); }} }}, {handler});
             globalThis.base = 'http://127.0.0.1:' + server.addr.port;"
        ),
    );
    let port = eval(&mut ctx, "server.addr.port")
        .to_number(&mut ctx)
        .unwrap() as u16;
    (ctx, port)
}

#[test]
fn serves_fetch_clients() {
    let (mut ctx, _) = serving(
        "async (req) => {
            const url = { pathname: '/' + req.url.split('/').slice(3).join('/') };
            if (url.pathname === '/') return new Response('hello from boa', { headers: { 'x-path': '/' } });
            if (url.pathname === '/echo') return new Response(req.body, { headers: { 'x-method': req.method } });
            if (url.pathname === '/throw') throw new Error('handler failed');
            if (url.pathname === '/wrong') return 42;
            return new Response('nope', { status: 404 });
        }",
    );
    eval(
        &mut ctx,
        "(async () => {
            const a = await fetch(base + '/');
            log.push(a.status, a.headers.get('x-path'), await a.text());
            const body = new ReadableStream({ i: 0, pull(c) { if (this.i++ < 3) c.enqueue(new Uint8Array([65 + this.i])); else c.close(); } });
            const b = await fetch(base + '/echo', { method: 'POST', body, duplex: 'half' });
            log.push(b.headers.get('x-method'), await b.text());
            log.push((await fetch(base + '/throw')).status, (await fetch(base + '/wrong')).status);
            const h = await fetch(base + '/', { method: 'HEAD' });
            log.push(h.status, h.headers.get('content-length'));
            log.push((await fetch(base + '/missing')).status);
            await server.shutdown();
            log.push('finished');
        })().catch(e => log.push('error ' + e)).finally(() => { done = true; });",
    );
    run_until(&mut ctx, "done");
    assert_eq!(
        string(&mut ctx, "log.join()"),
        "listening 127.0.0.1,200,/,hello from boa,POST,BCD,500,500,200,14,404,finished"
    );
}

#[test]
fn streamed_response_stops_when_the_client_stops_and_disconnect_cancels() {
    let (mut ctx, port) = serving(
        "(req) => {
            globalThis.sent = 0;
            req.signal.addEventListener('abort', () => log.push('request aborted'));
            return new Response(new ReadableStream({
                pull(c) { sent++; c.enqueue(new Uint8Array(65536)); },
                cancel(reason) { log.push('cancelled ' + reason.name); },
            }, { highWaterMark: 0 }));
        }",
    );
    let client = std::thread::spawn(move || {
        let mut socket = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        socket
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        socket
            .write_all(b"GET /s HTTP/1.1\r\nhost: x\r\n\r\n")
            .unwrap();
        let mut buf = [0u8; 65536];
        let mut got = 0;
        for _ in 0..100 {
            got += socket.read(&mut buf).unwrap();
            if got > 100_000 {
                break;
            }
        }
        // Stop reading for a while, then hang up.
        std::thread::sleep(Duration::from_millis(600));
        drop(socket);
        got
    });
    run_for(&mut ctx, 400);
    let first = eval(&mut ctx, "sent").to_number(&mut ctx).unwrap();
    run_for(&mut ctx, 150);
    let second = eval(&mut ctx, "sent").to_number(&mut ctx).unwrap();
    assert_eq!(
        first, second,
        "the server kept producing while the client did not read"
    );
    assert!(
        first < 200.0,
        "{first} chunks produced for a client that read ~100 KB"
    );
    assert!(client.join().unwrap() > 0);
    run_until(&mut ctx, "log.includes('cancelled AbortError')");
    run_until(&mut ctx, "log.includes('request aborted')");
}

#[test]
fn limits_and_bad_requests() {
    let (mut ctx, port) = serving("() => new Response('ok')");
    let client = std::thread::spawn(move || {
        let mut answers = Vec::new();
        for request in [
            {
                let mut r = b"GET / HTTP/1.1\r\nhost: x\r\n".to_vec();
                for i in 0..150 {
                    r.extend_from_slice(format!("x-h{i}: v\r\n").as_bytes());
                }
                r.extend_from_slice(b"\r\n");
                r
            },
            {
                let mut r = b"GET / HTTP/1.1\r\nhost: x\r\nx-big: ".to_vec();
                r.extend(std::iter::repeat_n(b'a', 100_000));
                r.extend_from_slice(b"\r\n\r\n");
                r
            },
            b"GET / HTTP/1.1\r\nhost: x\r\n\r\n".to_vec(),
        ] {
            let mut socket = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
            socket
                .set_read_timeout(Some(Duration::from_secs(10)))
                .unwrap();
            let _ = socket.write_all(&request);
            let mut buf = [0u8; 64];
            let n = socket.read(&mut buf).unwrap_or(0);
            answers.push(String::from_utf8_lossy(&buf[..n.min(12)]).into_owned());
        }
        answers
    });
    for _ in 0..100 {
        run_for(&mut ctx, 20);
        if client.is_finished() {
            break;
        }
    }
    let answers = client.join().unwrap();
    assert_eq!(answers, ["HTTP/1.1 431", "HTTP/1.1 431", "HTTP/1.1 200"]);
}

#[test]
fn shutdown_by_signal_resolves_finished() {
    let mut ctx = context();
    eval(
        &mut ctx,
        "globalThis.log = [];
         const c = new AbortController();
         const s = BoaStreams.serve({ signal: c.signal }, () => new Response('x'));
         s.finished.then(() => log.push('finished'));
         c.abort();",
    );
    run_until(&mut ctx, "log.length == 1");
    let mut ctx = context();
    check(&mut ctx, "(() => { try { BoaStreams.serve({ port: -1 }, () => {}); } catch (e) { return e instanceof RangeError; } })()");
    check(
        &mut ctx,
        "(() => { try { BoaStreams.serve({}); } catch (e) { return e instanceof TypeError; } })()",
    );
}

#[test]
fn the_signal_stays_quiet_after_a_complete_response() {
    let (mut ctx, _) = serving(
        "(req) => {
            const path = '/' + req.url.split('/').slice(3).join('/');
            req.signal.addEventListener('abort', () => log.push('aborted ' + path));
            if (path === '/empty') return new Response(null, { status: 204 });
            if (path === '/stream') return new Response(new ReadableStream({ start(c) { c.enqueue(new Uint8Array(10)); c.close(); } }));
            return new Response('bytes');
        }",
    );
    eval(
        &mut ctx,
        "(async () => {
            for (const p of ['/', '/empty', '/stream']) {
                const r = await fetch(base + p);
                log.push(r.status, (await r.arrayBuffer()).byteLength);
            }
        })().catch(e => log.push('error ' + e)).finally(() => { done = true; });",
    );
    run_until(&mut ctx, "done");
    run_for(&mut ctx, 200);
    assert_eq!(
        string(&mut ctx, "log.join()"),
        "listening 127.0.0.1,200,5,204,0,200,10"
    );
}

#[test]
fn a_client_vanishing_during_a_pending_pull_cancels_once() {
    let (mut ctx, port) = serving(
        "(req) => {
            req.signal.addEventListener('abort', () => log.push('aborted'));
            let first = true;
            return new Response(new ReadableStream({
                pull(c) {
                    if (first) { first = false; c.enqueue(new Uint8Array(1000)); return; }
                    log.push('pending pull');
                    return new Promise(() => {});
                },
                cancel(reason) { log.push('cancelled ' + reason.name); },
            }, { highWaterMark: 0 }));
        }",
    );
    // The client leaves only once the second pull is pending (told through `leave`): it
    // must not win the race against that pull.
    let (leave, told) = std::sync::mpsc::channel::<()>();
    let client = std::thread::spawn(move || {
        let mut socket = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        socket
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        socket
            .write_all(b"GET / HTTP/1.1\r\nhost: x\r\n\r\n")
            .unwrap();
        let mut buf = [0u8; 4096];
        let mut got = 0;
        for _ in 0..20 {
            got += socket.read(&mut buf).unwrap_or(0);
            if got > 1000 {
                break;
            }
        }
        let _ = told.recv_timeout(Duration::from_secs(10));
        got
    });
    run_until(&mut ctx, "log.includes('pending pull')");
    let _ = leave.send(());
    assert!(client.join().unwrap() > 1000);
    run_until(
        &mut ctx,
        "log.includes('cancelled AbortError') && log.includes('aborted')",
    );
    run_for(&mut ctx, 200);
    assert_eq!(
        string(
            &mut ctx,
            "log.filter(x => x.startsWith('cancelled')).length + ''"
        ),
        "1"
    );
}

/// A context on its own thread serving with `reusePort: true`; each request it takes keeps
/// its thread busy for 300 ms and answers with `name`.
fn reuse_port_server(
    name: &'static str,
    port: u16,
    ports: std::sync::mpsc::Sender<u16>,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut ctx = context();
        eval(
            &mut ctx,
            &format!(
                "globalThis.log = []; globalThis.done = false;
                 globalThis.server = BoaStreams.serve({{ port: {port}, reusePort: true }}, () => {{
                     const t = Date.now();
                     while (Date.now() - t < 300) {{}}
                     log.push('served');
                     return new Response('{name}');
                 }});
                 server.finished.then(() => {{ done = true; }});"
            ),
        );
        let port = eval(&mut ctx, "server.addr.port")
            .to_number(&mut ctx)
            .unwrap() as u16;
        ports.send(port).unwrap();
        // Bounded: at most 10 s.
        for _ in 0..500 {
            run_for(&mut ctx, 20);
            if stop.load(std::sync::atomic::Ordering::SeqCst) {
                break;
            }
        }
        eval(&mut ctx, "server.shutdown()");
        run_until(&mut ctx, "done");
        string(&mut ctx, "log.join()")
    })
}

#[test]
fn reuse_port_contexts_share_one_listener() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let (tx, rx) = std::sync::mpsc::channel();
    let a = reuse_port_server("a", 0, tx.clone(), stop.clone());
    let port = rx.recv_timeout(Duration::from_secs(10)).unwrap();
    // Port 0 again: the second context joins the first one's listener.
    let b = reuse_port_server("b", 0, tx, stop.clone());
    assert_eq!(rx.recv_timeout(Duration::from_secs(10)).unwrap(), port);
    // Two requests at once: each context is busy for 300 ms with one, so the other takes
    // the second.
    let clients: Vec<_> = (0..2)
        .map(|_| {
            std::thread::spawn(move || {
                let mut socket = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
                socket
                    .set_read_timeout(Some(Duration::from_secs(10)))
                    .unwrap();
                socket
                    .write_all(b"GET / HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n")
                    .unwrap();
                let mut answer = String::new();
                socket.read_to_string(&mut answer).unwrap();
                answer.rsplit("\r\n").next().unwrap_or_default().to_string()
            })
        })
        .collect();
    let mut names: Vec<String> = clients.into_iter().map(|c| c.join().unwrap()).collect();
    names.sort();
    stop.store(true, Ordering::SeqCst);
    assert_eq!(a.join().unwrap(), "served");
    assert_eq!(b.join().unwrap(), "served");
    assert_eq!(names, ["a", "b"]);
    // The last context that shut down closed the listener.
    let mut refused = false;
    for _ in 0..50 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            refused = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(refused, "the shared listener is still open");
}

#[test]
fn a_client_slower_than_the_header_timeout_is_dropped() {
    let mut ctx = context();
    eval(
        &mut ctx,
        "globalThis.log = [];
         globalThis.server = BoaStreams.serve({ port: 0, headersTimeout: 200 }, () => new Response('ok'));",
    );
    let port = eval(&mut ctx, "server.addr.port")
        .to_number(&mut ctx)
        .unwrap() as u16;
    let client = std::thread::spawn(move || {
        let mut socket = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        socket
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let started = std::time::Instant::now();
        // Half a request head, then nothing.
        socket.write_all(b"GET / HTTP/1.1\r\nhost: x\r\n").unwrap();
        let mut buf = [0u8; 64];
        let n = socket.read(&mut buf).unwrap_or(0);
        (
            String::from_utf8_lossy(&buf[..n]).into_owned(),
            started.elapsed(),
        )
    });
    for _ in 0..250 {
        run_for(&mut ctx, 20);
        if client.is_finished() {
            break;
        }
    }
    let (answer, elapsed) = client.join().unwrap();
    // Closed (or answered 408) after about 200 ms, far before the 10 s read timeout.
    assert!(
        answer.is_empty() || answer.starts_with("HTTP/1.1 408"),
        "{answer}"
    );
    assert!(
        elapsed >= Duration::from_millis(150) && elapsed < Duration::from_secs(5),
        "{elapsed:?}"
    );
    // A bad value is a RangeError.
    assert_eq!(
        string(&mut ctx, "(() => { try { BoaStreams.serve({ headersTimeout: 0 }, () => {}); } catch (e) { return e.name; } })()"),
        "RangeError"
    );
}

fn idle_server(ctx: &mut boa_engine::Context, handler: &str) -> u16 {
    eval(
        ctx,
        &format!(
            "globalThis.log = [];
             globalThis.server = BoaStreams.serve({{ port: 0, idleTimeout: 1 }}, {handler});"
        ),
    );
    eval(ctx, "server.addr.port").to_number(ctx).unwrap() as u16
}

#[test]
fn idle_timeout_closes_a_connection_whose_pull_never_settles() {
    let mut ctx = context();
    let port = idle_server(
        &mut ctx,
        "(req) => {
            req.signal.addEventListener('abort', () => log.push('aborted ' + req.signal.reason.name));
            let first = true;
            return new Response(new ReadableStream({
                pull(c) {
                    if (first) { first = false; c.enqueue(new Uint8Array(1000)); return; }
                    log.push('pending pull');
                    return new Promise(() => {});
                },
                cancel(reason) { log.push('cancelled ' + reason.name + ': ' + reason.message); },
            }, { highWaterMark: 0 }));
        }",
    );
    let client = std::thread::spawn(move || {
        let mut socket = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        socket
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        socket
            .write_all(b"GET / HTTP/1.1\r\nhost: x\r\n\r\n")
            .unwrap();
        let mut buf = [0u8; 4096];
        let mut got = 0;
        let mut last_byte = std::time::Instant::now();
        // Until the server closes (EOF) or 10 s pass; bounded in count too.
        for _ in 0..1000 {
            match socket.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    got += n;
                    last_byte = std::time::Instant::now();
                }
            }
        }
        (got, last_byte.elapsed())
    });
    for _ in 0..400 {
        run_for(&mut ctx, 20);
        if client.is_finished() {
            break;
        }
    }
    let (got, quiet) = client.join().unwrap();
    assert!(got > 1000, "{got}");
    // Closed about 1 s after the last byte, far before the client's 10 s read timeout.
    assert!(
        quiet >= Duration::from_millis(800) && quiet < Duration::from_secs(5),
        "{quiet:?}"
    );
    run_until(
        &mut ctx,
        "log.some(x => x.startsWith('cancelled')) && log.some(x => x.startsWith('aborted'))",
    );
    run_for(&mut ctx, 200);
    assert_eq!(
        string(&mut ctx, "log.filter(x => x.startsWith('cancelled')).join('|')"),
        "cancelled TimeoutError: BoaStreams.serve: nothing was read or written on the connection for 1 s (idleTimeout)"
    );
    assert_eq!(
        string(
            &mut ctx,
            "log.filter(x => x.startsWith('aborted')).join('|')"
        ),
        "aborted TimeoutError"
    );
    // Bad values are RangeErrors; 0 is accepted (no limit).
    assert_eq!(
        string(&mut ctx, "['x', -1, 1e9].map(v => { try { BoaStreams.serve({ idleTimeout: v }, () => {}); return 'ok'; } catch (e) { return e.name; } }).join()"),
        "RangeError,RangeError,RangeError"
    );
    assert_eq!(
        string(&mut ctx, "(() => { const s = BoaStreams.serve({ idleTimeout: 0 }, () => {}); s.shutdown(); return 'ok'; })()"),
        "ok"
    );
}

#[test]
fn idle_timeout_leaves_a_slow_but_live_stream_alone() {
    let mut ctx = context();
    let port = idle_server(
        &mut ctx,
        "(req) => {
            req.signal.addEventListener('abort', () => log.push('aborted'));
            let sent = 0;
            return new Response(new ReadableStream({
                pull(c) {
                    return new Promise((resolve) => {
                        globalThis.next = () => {
                            globalThis.next = null;
                            c.enqueue(new Uint8Array(100).fill(65));
                            if (++sent === 6) c.close();
                            resolve();
                        };
                    });
                },
                cancel(reason) { log.push('cancelled ' + reason.name); },
            }, { highWaterMark: 0 }));
        }",
    );
    let client = std::thread::spawn(move || {
        let mut socket = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        socket
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        socket
            .write_all(b"GET / HTTP/1.1\r\nhost: x\r\n\r\n")
            .unwrap();
        let started = std::time::Instant::now();
        let mut all = Vec::new();
        let mut buf = [0u8; 4096];
        for _ in 0..1000 {
            match socket.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => all.extend_from_slice(&buf[..n]),
            }
            if all.ends_with(b"\r\n0\r\n\r\n") {
                break;
            }
        }
        (
            String::from_utf8_lossy(&all).into_owned(),
            started.elapsed(),
        )
    });
    // One 100-byte chunk every 400 ms: 2.4 s in all, more than twice the idle timeout.
    for _ in 0..6 {
        run_for(&mut ctx, 400);
        eval(&mut ctx, "if (globalThis.next) next();");
    }
    for _ in 0..250 {
        run_for(&mut ctx, 20);
        if client.is_finished() {
            break;
        }
    }
    let (answer, elapsed) = client.join().unwrap();
    assert!(answer.ends_with("\r\n0\r\n\r\n"), "{answer}");
    assert_eq!(answer.matches(&"A".repeat(100)).count(), 6, "{answer}");
    assert!(elapsed >= Duration::from_secs(2), "{elapsed:?}");
    run_for(&mut ctx, 200);
    assert_eq!(string(&mut ctx, "log.join()"), "");
}

/// Send each raw request on its own connection; the first line of each answer (or "" if
/// none came within 10 s) and the whole answer.
fn raw_exchanges(port: u16, requests: Vec<Vec<u8>>) -> std::thread::JoinHandle<Vec<String>> {
    std::thread::spawn(move || {
        let mut answers = Vec::new();
        for request in requests {
            let mut socket = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
            socket
                .set_read_timeout(Some(Duration::from_secs(10)))
                .unwrap();
            let _ = socket.write_all(&request);
            let mut all = Vec::new();
            let mut buf = [0u8; 4096];
            // Bounded: every request asks for `Connection: close` (or gets it with a 400).
            for _ in 0..64 {
                match socket.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => all.extend_from_slice(&buf[..n]),
                }
            }
            answers.push(String::from_utf8_lossy(&all).into_owned());
        }
        answers
    })
}

fn drive(ctx: &mut boa_engine::Context, client: &std::thread::JoinHandle<Vec<String>>) {
    for _ in 0..500 {
        run_for(ctx, 20);
        if client.is_finished() {
            break;
        }
    }
}

#[test]
fn bad_hosts_and_request_targets_get_400_and_never_reach_the_handler() {
    let (mut ctx, port) = serving(
        "(req) => { log.push(req.method + ' ' + req.url); return new Response(new URL(req.url).pathname); }",
    );
    let attacks: Vec<(&str, Vec<u8>)> = vec![
        (
            "Host with a path and fragment",
            b"GET /public HTTP/1.1\r\nHost: x/admin#\r\nConnection: close\r\n\r\n".to_vec(),
        ),
        (
            "Host with a space",
            b"GET / HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n".to_vec(),
        ),
        (
            "duplicate Host",
            b"GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\nConnection: close\r\n\r\n".to_vec(),
        ),
        (
            "missing Host in HTTP/1.1",
            b"GET / HTTP/1.1\r\nConnection: close\r\n\r\n".to_vec(),
        ),
        (
            "relative target",
            b"GET x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".to_vec(),
        ),
        (
            "asterisk for GET",
            b"GET * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".to_vec(),
        ),
        (
            "authority-form",
            b"CONNECT x:443 HTTP/1.1\r\nHost: x:443\r\nConnection: close\r\n\r\n".to_vec(),
        ),
        (
            "userinfo in absolute-form",
            b"GET http://u@y/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".to_vec(),
        ),
        (
            "port out of range",
            b"GET / HTTP/1.1\r\nHost: x:99999\r\nConnection: close\r\n\r\n".to_vec(),
        ),
    ];
    let granted: Vec<(&str, Vec<u8>)> = vec![
        (
            "OPTIONS *",
            b"OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".to_vec(),
        ),
        (
            "absolute-form wins over Host",
            b"GET http://y:81/p?q HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".to_vec(),
        ),
        (
            "double slash stays a path",
            b"GET //evil/x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".to_vec(),
        ),
        (
            "HTTP/1.0 without Host",
            b"GET /old HTTP/1.0\r\n\r\n".to_vec(),
        ),
    ];
    let requests = attacks
        .iter()
        .chain(granted.iter())
        .map(|(_, r)| r.clone())
        .collect();
    let client = raw_exchanges(port, requests);
    drive(&mut ctx, &client);
    let answers = client.join().unwrap();
    for ((name, _), answer) in attacks.iter().chain(granted.iter()).zip(&answers) {
        eprintln!("{name}: {:?}", answer.lines().next().unwrap_or_default());
    }
    eprintln!("handler saw: {}", string(&mut ctx, "log.join('|')"));
    for ((name, _), answer) in attacks.iter().zip(&answers) {
        assert!(answer.starts_with("HTTP/1.1 400"), "{name}: {answer:?}");
    }
    let statuses: Vec<_> = answers[attacks.len()..]
        .iter()
        .map(|a| a.lines().next().unwrap_or_default().to_owned())
        .collect();
    assert!(
        statuses.iter().all(|s| s.ends_with("200 OK")),
        "{statuses:?}"
    );
    assert!(answers[attacks.len()].ends_with("/*"), "{answers:?}");
    assert_eq!(
        string(&mut ctx, "log.join('|')"),
        format!(
            "listening 127.0.0.1|OPTIONS http://x/*|GET http://y:81/p?q|GET http://x//evil/x|GET http://127.0.0.1:{port}/old"
        )
    );
}
