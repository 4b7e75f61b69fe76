//! The capability policy (`boa_webidl::capabilities`) as `fetch()` and `BoaStreams.serve()`
//! enforce it: each capability denied (a TypeError naming it and its flag) and granted.
//! Loopback servers only; every wait is bounded (`run_until`).

use boa_engine::Context;
use boa_webidl::capabilities::Capabilities;

use crate::test_support::*;
use crate::tests::{run_until, server};

/// A context under `capabilities` with `base` the test server's origin, running `script`
/// (an async body pushing to `log`) to its end.
fn run(capabilities: Capabilities, port: u16, body: &str) -> String {
    let mut ctx = context_with_capabilities(capabilities);
    run_in(&mut ctx, port, body)
}

fn run_in(ctx: &mut Context, port: u16, body: &str) -> String {
    eval(
        ctx,
        &format!(
            "globalThis.log = []; globalThis.done = false;
             globalThis.base = 'http://127.0.0.1:{port}';
             globalThis.attempt = async (...args) => {{
               try {{ const r = await fetch(...args); log.push('ok ' + r.status + ' ' + await r.text()); }}
               catch (e) {{ log.push(e.name + ': ' + e.message); }}
             }};
             (async () => {{ {body} }})().catch(e => log.push('error ' + e)).finally(() => {{ done = true; }});"
        ),
    );
    run_until(ctx, "done");
    string(ctx, "log.join('\\n')")
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("boa-net-caps-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("root")).unwrap();
    std::fs::create_dir_all(dir.join("outside")).unwrap();
    std::fs::write(dir.join("root/in.txt"), "inside").unwrap();
    std::fs::write(dir.join("outside/secret.txt"), "the secret").unwrap();
    dir
}

fn file_url(path: &std::path::Path) -> String {
    url::Url::from_file_path(path).unwrap().to_string()
}

#[test]
fn file_fetch_denied_without_fs_read() {
    let dir = temp_dir("fs-denied");
    let secret = file_url(&dir.join("outside/secret.txt"));
    let log = run(
        Capabilities::default(),
        0,
        &format!("await attempt('{secret}'); await attempt('file:///etc/passwd');"),
    );
    assert_eq!(
        log,
        format!(
            "TypeError: fetch of {secret} denied: reading files needs the fs-read capability (--allow-fs-read)\n\
             TypeError: fetch of file:///etc/passwd denied: reading files needs the fs-read capability (--allow-fs-read)"
        )
    );
    assert!(!log.contains("the secret"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn file_fetch_granted_inside_the_roots_only() {
    let dir = temp_dir("fs-granted");
    let inside = file_url(&dir.join("root/in.txt"));
    let outside = file_url(&dir.join("outside/secret.txt"));
    // `..` out of the root is resolved before the check.
    let escape = format!("{}/../outside/secret.txt", file_url(&dir.join("root")));
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.join("outside/secret.txt"), dir.join("root/link.txt")).unwrap();
    let link = file_url(&dir.join("root/link.txt"));
    let caps = Capabilities::default().allow_fs_read([dir.join("root")]);
    let log = run(
        caps,
        0,
        &format!(
            "await attempt('{inside}'); await attempt('{outside}'); await attempt('{escape}');
             await attempt('{link}');"
        ),
    );
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines[0], "ok 200 inside");
    let denied = "denied: reading files outside the readable directories needs the fs-read capability (--allow-fs-read)";
    assert_eq!(lines[1], format!("TypeError: fetch of {outside} {denied}"));
    assert!(lines[2].ends_with(denied), "{}", lines[2]);
    #[cfg(unix)]
    assert_eq!(lines[3], format!("TypeError: fetch of {link} {denied}"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn network_denied_without_net() {
    let (port, counters) = server();
    let log = run(
        Capabilities::default(),
        port,
        "await attempt(base + '/text');",
    );
    assert_eq!(
        log,
        format!("TypeError: fetch of http://127.0.0.1:{port}/text denied: network access needs the net capability (--allow-net)")
    );
    // Nothing was sent.
    assert_eq!(
        counters
            .connections
            .load(std::sync::atomic::Ordering::SeqCst),
        0
    );
}

#[test]
fn network_granted_for_listed_hosts_and_ports() {
    let (port, _) = server();
    let listed = Capabilities::default().allow_net([format!("127.0.0.1:{port}")]);
    assert_eq!(
        run(listed, port, "await attempt(base + '/text');"),
        "ok 200 hello"
    );
    let host_only = Capabilities::default().allow_net(["127.0.0.1"]);
    assert_eq!(
        run(host_only, port, "await attempt(base + '/text');"),
        "ok 200 hello"
    );
    let any = Capabilities::default().allow_net_any();
    assert_eq!(
        run(any, port, "await attempt(base + '/text');"),
        "ok 200 hello"
    );
    let other_port = Capabilities::default().allow_net([format!("127.0.0.1:{}", port ^ 1)]);
    assert_eq!(
        run(other_port, port, "await attempt(base + '/text');"),
        format!("TypeError: fetch of http://127.0.0.1:{port}/text denied: network access to 127.0.0.1:{port} needs the net capability (--allow-net)")
    );
    let port80 = Capabilities::default().allow_net(["localhost:80"]);
    let log = run(port80, port, "await attempt('http://LOCALHOST:81/');");
    assert!(
        log.contains("network access to localhost:81 needs the net capability"),
        "{log}"
    );
}

#[test]
fn every_redirect_hop_is_checked() {
    let (first, _) = server();
    let (second, counters) = server();
    let caps = Capabilities::default().allow_net([format!("127.0.0.1:{first}")]);
    let target = format!("http://127.0.0.1:{second}/text");
    let log = run(
        caps,
        first,
        &format!("await attempt(base + '/goto?{target}'); await attempt(base + '/redirect?n=2');"),
    );
    assert_eq!(
        log,
        format!(
            "TypeError: fetch of {target} denied: network access to 127.0.0.1:{second} needs the net capability (--allow-net)\n\
             ok 200 arrived"
        )
    );
    assert_eq!(
        counters
            .connections
            .load(std::sync::atomic::Ordering::SeqCst),
        0
    );
}

#[test]
fn a_denied_request_body_stream_is_canceled() {
    let log = run(
        Capabilities::default(),
        1,
        "const body = new ReadableStream({ cancel(r) { log.push('canceled: ' + r.message.slice(0, 33)); } });
         await attempt(base + '/echo', { method: 'POST', body, duplex: 'half' });",
    );
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines[0], "canceled: fetch of http://127.0.0.1:1/echo ");
    assert!(lines[1].starts_with("TypeError: fetch of http://127.0.0.1:1/echo denied"));
}

#[test]
fn schemes_can_be_restricted_and_authority_free_ones_stay() {
    let (port, _) = server();
    let caps = Capabilities::unrestricted().only_schemes(["https"]);
    let log = run(
        caps,
        port,
        "await attempt(base + '/text'); await attempt('data:,free');
         const url = URL.createObjectURL(new Blob(['blob body'])); await attempt(url);
         await attempt('about:blank');",
    );
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(
        lines[0],
        format!("TypeError: fetch of http://127.0.0.1:{port}/text denied: the http: scheme is not allowed by this context's capabilities")
    );
    assert_eq!(lines[1], "ok 200 free");
    assert_eq!(lines[2], "ok 200 blob body");
    // about: is allowed by the policy (and then not supported by this fetch).
    assert!(
        lines[3].starts_with("TypeError: fetch failed: about:blank"),
        "{}",
        lines[3]
    );
}

#[test]
fn data_and_blob_need_no_capability() {
    let log = run(
        Capabilities::default(),
        0,
        "await attempt('data:,x'); await attempt(URL.createObjectURL(new Blob(['y'])));",
    );
    assert_eq!(log, "ok 200 x\nok 200 y");
}

#[test]
fn register_alone_falls_back_to_the_restrictive_default() {
    let mut ctx = context_with(crate::register);
    let log = run_in(
        &mut ctx,
        0,
        "await attempt('file:///etc/hostname'); await attempt('http://127.0.0.1:1/');
         try { BoaStreams.serve(() => new Response('x')); log.push('listening'); }
         catch (e) { log.push(e.name + ': ' + e.message); }",
    );
    let lines: Vec<&str> = log.lines().collect();
    assert!(lines[0].contains("needs the fs-read capability"), "{log}");
    assert!(lines[1].contains("needs the net capability"), "{log}");
    assert_eq!(
        lines[2],
        "TypeError: BoaStreams.serve on 127.0.0.1:0 denied: listening for connections needs the net capability (--allow-net)"
    );
}

#[test]
fn serve_denied_and_granted() {
    let script = "try {
           const s = BoaStreams.serve({ hostname: '127.0.0.1', port: 0 }, () => new Response('x'));
           log.push('listening ' + (s.addr.port > 0)); await s.shutdown();
         } catch (e) { log.push(e.name + ': ' + e.message); }";
    assert_eq!(
        run(Capabilities::default(), 0, script),
        "TypeError: BoaStreams.serve on 127.0.0.1:0 denied: listening for connections needs the net capability (--allow-net)"
    );
    // Listening is its own grant: an outbound one does not give it.
    assert!(run(Capabilities::default().allow_net_any(), 0, script).starts_with("TypeError"));
    assert_eq!(
        run(
            Capabilities::default().allow_listen(["127.0.0.1"]),
            0,
            script
        ),
        "listening true"
    );
    assert_eq!(
        run(Capabilities::default().allow_listen_any(), 0, script),
        "listening true"
    );
    // A fixed port in the list does not admit "any free port".
    assert_eq!(
        run(Capabilities::default().allow_listen(["127.0.0.1:1"]), 0, script),
        "TypeError: BoaStreams.serve on 127.0.0.1:0 denied: listening for connections on 127.0.0.1:0 needs the net capability (--allow-net)"
    );
}
