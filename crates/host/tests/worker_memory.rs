//! A large byte stream made in a worker thread and read in the main thread keeps memory
//! bounded (the cross-realm pipe pulls one chunk at a time). Alone in its test binary, so
//! the process's peak RSS is this test's.

use boa_streams_host::{run_with_large_stack, Capabilities, Host, HostOptions, LoopOutcome};

fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Stream `mib` MiB from a worker; returns the bytes read.
fn stream(mib: u64) -> Option<f64> {
    let dir = std::env::temp_dir().join(format!("boa-streams-worker-mem-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(
        dir.join("producer.js"),
        r#"
        onmessage = (e) => {
          const total = e.data * 1024 * 1024;
          let sent = 0;
          const rs = new ReadableStream({
            pull(c) {
              if (sent >= total) { c.close(); close(); return; }
              // Boa's collector does not count array buffer bytes: collect now and then,
              // so the peak measures what the stream holds, not collection lag.
              if (sent % (4 * 1024 * 1024) === 0) gc();
              const chunk = new Uint8Array(64 * 1024);
              sent += chunk.byteLength;
              c.enqueue(chunk);
            },
          }, { highWaterMark: 0 });
          postMessage(rs, [rs]);
        };
        "#,
    )
    .expect("write");
    let main = dir.join("main.js");
    std::fs::write(
        &main,
        format!(
            r#"
            globalThis.out = 0;
            const w = new Worker("producer.js");
            w.onmessage = async (e) => {{
              for await (const c of e.data) {{
                out += c.byteLength;
                if (out % (4 * 1024 * 1024) === 0) gc();
              }}
              w.terminate();
            }};
            w.postMessage({mib});
            "#
        ),
    )
    .expect("write");
    run_with_large_stack(move || {
        let options = HostOptions {
            expose_gc: true,
            capabilities: Capabilities::default().allow_worker(),
            ..HostOptions::default()
        };
        let mut host = Host::new(options).expect("host");
        host.eval_file(&main).expect("script");
        assert_eq!(host.run_event_loop(None), LoopOutcome::Idle);
        assert!(host.take_errors().is_empty());
        host.eval_source("out", "out").expect("out").as_number()
    })
    .expect("no panic")
}

#[test]
fn a_64_mib_stream_crosses_threads_in_bounded_memory() {
    const MIB: u64 = 64;
    // A small run first: the two hosts' own memory is then part of the baseline.
    assert_eq!(stream(2), Some((2 * 1024 * 1024) as f64));
    let before = peak_rss_kib();
    assert_eq!(stream(MIB), Some((MIB * 1024 * 1024) as f64));
    if let (Some(before), Some(after)) = (before, peak_rss_kib()) {
        let growth_mib = after.saturating_sub(before) / 1024;
        eprintln!("peak RSS growth while streaming {MIB} MiB: {growth_mib} MiB");
        assert!(
            growth_mib < MIB / 4,
            "peak RSS grew by {growth_mib} MiB while streaming {MIB} MiB"
        );
    }
}
