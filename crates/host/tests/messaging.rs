//! MessageChannel ordering under the host event loop, and workers (threads) exchanging
//! messages, transferred buffers and ports.

use std::path::PathBuf;

use boa_streams_host::{run_with_large_stack, Host, HostOptions, LoopOutcome};

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
    let main_path = dir.join(format!("main-{}.js", main.len()));
    std::fs::write(&main_path, main).expect("write");
    run_with_large_stack(move || {
        let mut host = Host::new(HostOptions::default()).expect("host");
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
