//! MessageChannel ordering under the host event loop, and workers (threads) exchanging
//! messages, transferred buffers and ports.

use std::path::PathBuf;

use boa_streams_host::{run_with_large_stack, Capabilities, Host, HostOptions, LoopOutcome};

/// The default host options plus the worker capability (the scripts beside the main one are
/// readable: its directory tree is).
fn with_workers() -> HostOptions {
    HostOptions {
        capabilities: Capabilities::default().allow_worker(),
        ..HostOptions::default()
    }
}

fn dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("boa-streams-messaging-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Run `main` (with `files` beside it) and return the global `out` joined with "|".
fn run(main: &str, files: &[(&str, &str)]) -> String {
    let dir = dir();
    for (name, source) in files {
        std::fs::write(dir.join(name), source).expect("write");
    }
    // One file per call: tests run in parallel in this directory.
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let main_path = dir.join(format!("main-{n}.js"));
    std::fs::write(&main_path, main).expect("write");
    run_with_large_stack(move || {
        let mut host = Host::new(with_workers()).expect("host");
        host.eval_file(&main_path).expect("script");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        assert_eq!(host.run_event_loop(Some(deadline)), LoopOutcome::Idle);
        assert!(host.take_errors().is_empty());
        host.eval_source("globalThis.out.join('|')", "out")
            .expect("out")
            .as_string()
            .map(|s| s.to_std_string_escaped())
            .unwrap_or_default()
    })
    .expect("no panic")
}

#[test]
fn messages_are_tasks_in_order_with_timers_and_microtasks() {
    let out = run(
        r#"
        globalThis.out = [];
        const { port1, port2 } = new MessageChannel();
        port2.onmessage = (e) => {
          out.push("message " + e.data);
          Promise.resolve().then(() => out.push("microtask after " + e.data));
        };
        setTimeout(() => out.push("timeout"), 0);
        port1.postMessage(1);
        port1.postMessage(2);
        queueMicrotask(() => { out.push("microtask"); port1.postMessage(3); });
        "#,
        &[],
    );
    assert_eq!(
        out,
        "microtask|timeout|message 1|microtask after 1|message 2|microtask after 2|message 3|microtask after 3"
    );
}

#[test]
fn a_worker_talks_both_ways_and_buffers_move_between_threads() {
    let out = run(
        r#"
        globalThis.out = [];
        const w = new Worker("echo-worker.js");
        const buf = new Uint8Array([1, 2, 3]).buffer;
        w.onmessage = (e) => {
          out.push(e.data.reply + ":" + e.data.sum + ":" + e.data.back.byteLength);
          w.terminate();
        };
        w.postMessage({ buf }, [buf]);
        out.push("detached " + buf.byteLength);
        "#,
        &[(
            "echo-worker.js",
            r#"
            onmessage = (e) => {
              const u8 = new Uint8Array(e.data.buf);
              const sum = u8.reduce((a, b) => a + b, 0);
              postMessage({ reply: "pong", sum, back: e.data.buf }, [e.data.buf]);
            };
            "#,
        )],
    );
    assert_eq!(out, "detached 0|pong:6:3");
}

#[test]
fn a_stream_created_in_a_worker_is_read_in_the_main_thread() {
    let out = run(
        r#"
        globalThis.out = [];
        const w = new Worker("stream-worker.js");
        w.onmessage = async (e) => {
          let bytes = 0, chunks = 0;
          for await (const c of e.data) { bytes += c.byteLength; chunks++; }
          out.push(bytes, chunks);
        };
        "#,
        &[(
            "stream-worker.js",
            r#"
            let i = 0;
            const rs = new ReadableStream({
              pull(c) { if (i++ === 64) { c.close(); close(); } else c.enqueue(new Uint8Array(1024)); },
            }, { highWaterMark: 0 });
            postMessage(rs, [rs]);
            "#,
        )],
    );
    assert_eq!(out, "65536|64");
}

#[test]
fn worker_errors_not_handled_in_the_worker_fire_error_at_the_worker_object() {
    let out = run(
        r#"
        globalThis.out = [];
        const w = new Worker("throw-worker.js");
        w.onerror = (e) => {
          out.push(e.constructor.name + " " + e.message + " " + e.filename + " " + e.error + " " + e.cancelable);
          e.preventDefault();
        };
        "#,
        &[(
            "throw-worker.js",
            r#"
            addEventListener("error", (e) => { if (String(e.message).includes("handled")) e.preventDefault(); });
            setTimeout(() => { throw new Error("handled in the worker"); }, 0);
            setTimeout(() => { throw new TypeError("later"); }, 0);
            throw new Error("boom");
            "#,
        )],
    );
    assert_eq!(
        out,
        "ErrorEvent Error: boom throw-worker.js null true|ErrorEvent TypeError: later throw-worker.js null true"
    );
}

#[test]
fn a_worker_error_nobody_handles_is_reported_in_the_creator() {
    let dir = dir();
    std::fs::write(
        dir.join("unhandled-worker.js"),
        "throw new RangeError('nobody');",
    )
    .expect("write");
    let main_path = dir.join("unhandled-main.js");
    std::fs::write(
        &main_path,
        "globalThis.seen = 0; new Worker('unhandled-worker.js').addEventListener('error', () => seen++);",
    )
    .expect("write");
    let (errors, seen) = run_with_large_stack(move || {
        let mut host = Host::new(with_workers()).expect("host");
        host.eval_file(&main_path).expect("script");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        assert_eq!(host.run_event_loop(Some(deadline)), LoopOutcome::Idle);
        let errors: Vec<String> = host.take_errors().iter().map(|e| e.to_string()).collect();
        let seen = host
            .eval_source("String(seen)", "seen")
            .expect("seen")
            .as_string()
            .map(|s| s.to_std_string_escaped())
            .unwrap_or_default();
        (errors, seen)
    })
    .expect("no panic");
    assert_eq!(seen, "1");
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("RangeError: nobody"), "{errors:?}");
}

#[test]
fn terminate_stops_the_worker_and_closes_its_ports() {
    let out = run(
        r#"
        globalThis.out = [];
        const w = new Worker("ticking-worker.js");
        const { port1, port2 } = new MessageChannel();
        port1.onclose = () => out.push("partner closed");
        w.postMessage(null, [port2]);
        let done = false;
        w.onmessage = (e) => {
          if (done) return;
          done = true;
          out.push(e.data);
          w.terminate();
          w.terminate();
        };
        "#,
        &[(
            "ticking-worker.js",
            r#"
            const kept = [];
            onmessage = (e) => {
              kept.push(e.ports[0]);
              // Without terminate() this worker would never be idle.
              setInterval(() => postMessage("tick"), 1);
            };
            "#,
        )],
    );
    assert_eq!(out, "tick|partner closed");
}

#[test]
fn a_worker_round_trips_form_data_and_posts_its_files() {
    let out = run(
        r#"
        globalThis.out = [];
        const w = new Worker("form-worker.js");
        w.onmessage = async (e) => {
          out.push(e.data.kind, e.data.file instanceof File, e.data.file.name);
          out.push(await e.data.file.text());
          w.terminate();
        };
        "#,
        &[(
            "form-worker.js",
            r#"
            const fd = new FormData();
            fd.append("a", new Blob(["xyz"]), "f.txt");
            new Response(fd).formData().then((back) => {
              let kind;
              try { structuredClone(back); kind = "cloned"; } catch (e) { kind = e.name; }
              postMessage({ kind, file: back.get("a") });
            });
            "#,
        )],
    );
    assert_eq!(out, "DataCloneError|true|f.txt|xyz");
}

#[test]
fn a_worker_has_its_own_time_origin_entry_buffer_and_worker_navigator() {
    let out = run(
        r#"
        globalThis.out = [];
        performance.mark("main");
        const w = new Worker("perf-worker.js");
        w.onmessage = (e) => {
          const d = e.data;
          out.push(String(navigator), d.nav, d.types, d.entries,
                   d.origin >= performance.timeOrigin, d.ownState);
          w.terminate();
        };
        "#,
        &[(
            "perf-worker.js",
            r#"
            postMessage({
              nav: String(navigator),
              types: typeof Navigator + "/" + typeof WorkerNavigator,
              entries: performance.getEntries().length,
              origin: performance.timeOrigin,
              ownState: performance.now() >= 0 && navigator.userAgent.startsWith("boa-streams/"),
            });
            "#,
        )],
    );
    assert_eq!(
        out,
        "[object Navigator]|[object WorkerNavigator]|undefined/function|0|true|true"
    );
}

#[test]
fn a_performance_observer_in_a_worker_sees_only_the_worker_entries() {
    let out = run(
        r#"
        globalThis.out = [];
        new PerformanceObserver((list) => out.push("main saw " + list.getEntries().map(e => e.name)))
          .observe({ type: "mark" });
        performance.mark("main mark");
        const w = new Worker("observer-worker.js");
        w.onmessage = (e) => { out.push(e.data); w.terminate(); };
        "#,
        &[(
            "observer-worker.js",
            r#"
            performance.mark("before");
            new PerformanceObserver((list, observer, options) => {
              postMessage("worker saw " + list.getEntries().map(e => e.name) + " dropped "
                + options.droppedEntriesCount);
              observer.disconnect();
            }).observe({ type: "mark", buffered: true });
            performance.mark("after");
            "#,
        )],
    );
    assert_eq!(out, "main saw main mark|worker saw before,after dropped 0");
}

#[test]
fn a_crypto_key_posted_to_a_worker_signs_there() {
    // CryptoKey is serializable (boa_crypto's hook in boa_html's structured clone): a
    // non-extractable private key crosses to the worker thread and signs there; the RSA key
    // pair is generated on a boa_crypto worker thread and settles through the host loop.
    let out = run(
        r#"
        globalThis.out = [];
        const w = new Worker("crypto-signer.js");
        (async () => {
          const ec = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"]);
          const rsa = await crypto.subtle.generateKey({ name: "RSA-PSS", modulusLength: 1024,
            publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" }, false, ["sign", "verify"]);
          const data = new Uint8Array([1, 2, 3]);
          w.onmessage = async (e) => {
            out.push(e.data.info);
            out.push(await crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, ec.publicKey, e.data.ecdsa, data));
            out.push(await crypto.subtle.verify({ name: "RSA-PSS", saltLength: 32 }, rsa.publicKey, e.data.pss, data));
            w.terminate();
          };
          w.postMessage({ ec: ec.privateKey, rsa: rsa.privateKey, data });
        })();
        "#,
        &[(
            "crypto-signer.js",
            r#"
            onmessage = async (e) => {
              const { ec, rsa, data } = e.data;
              const info = [ec instanceof CryptoKey, ec.type, ec.extractable, ec.algorithm.namedCurve,
                rsa.algorithm.modulusLength].join(",");
              const ecdsa = await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, ec, data);
              const pss = await crypto.subtle.sign({ name: "RSA-PSS", saltLength: 32 }, rsa, data);
              postMessage({ info, ecdsa, pss });
            };
            "#,
        )],
    );
    assert_eq!(out, "true,private,false,P-256,1024|true|true");
}
