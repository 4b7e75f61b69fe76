//! boa_streams' native async adapters under the host's event loop: the loop stays alive
//! while a native future is pending, is woken from another thread, and keeps pending
//! futures across `run_event_loop` calls; the examples' logic.

use std::time::{Duration, Instant};

use boa_engine::js_string;
use boa_streams_host::{run_with_large_stack, Host, HostOptions, LoopOutcome};
use boa_web::boa_streams::native::{readable_stream_from_stream, StreamReader};
use bytes::Bytes;

#[path = "../examples/duplex.rs"]
mod duplex;
#[path = "../examples/read_script_stream.rs"]
mod read_script_stream;

fn string(host: &mut Host, expr: &str) -> String {
    let value = host.eval_source(expr, "read.js").expect("read back");
    value
        .to_string(host.context())
        .expect("to string")
        .to_std_string_escaped()
}

type Sender = futures::channel::mpsc::UnboundedSender<Result<Bytes, std::io::Error>>;

/// A host whose global `rs` is a stream fed by the returned channel, and a script that
/// collects its chunks into `out`.
fn host_with_channel_stream() -> (Host, Sender) {
    let mut host = Host::new(HostOptions::default()).expect("host");
    let (tx, rx) = futures::channel::mpsc::unbounded();
    let context = host.context();
    let rs = readable_stream_from_stream(rx, context).expect("stream");
    context
        .global_object()
        .set(js_string!("rs"), rs.upcast(), false, context)
        .expect("global");
    host.eval_source(
        "globalThis.out = [];
         (async () => {
           try { for await (const c of rs) out.push(String.fromCharCode(...c)); out.push('end'); }
           catch (e) { out.push(e.name + ': ' + e.message); }
         })();",
        "main.js",
    )
    .expect("script");
    (host, tx)
}

#[test]
fn the_loop_waits_for_a_native_future_woken_from_another_thread() {
    run_with_large_stack(|| {
        let (mut host, tx) = host_with_channel_stream();
        let started = Instant::now();
        let sender = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            tx.unbounded_send(Ok(Bytes::from_static(b"late"))).unwrap();
            std::thread::sleep(Duration::from_millis(20));
            tx.unbounded_send(Err(std::io::Error::other("peer went away")))
                .unwrap();
        });
        let deadline = Instant::now() + Duration::from_secs(20);
        assert_eq!(host.run_event_loop(Some(deadline)), LoopOutcome::Idle);
        assert!(started.elapsed() >= Duration::from_millis(60));
        sender.join().unwrap();
        assert_eq!(
            string(&mut host, "out.join()"),
            "late,TypeError: peer went away"
        );
        assert!(!host.has_pending_work());
    })
    .unwrap();
}

#[test]
fn a_pending_native_future_survives_the_loop_returning() {
    run_with_large_stack(|| {
        let (mut host, tx) = host_with_channel_stream();
        // The deadline passes while the read waits: nothing is dropped.
        let outcome = host.run_event_loop(Some(Instant::now() + Duration::from_millis(20)));
        assert_eq!(outcome, LoopOutcome::DeadlineReached);
        assert!(host.has_pending_work());
        tx.unbounded_send(Ok(Bytes::from_static(b"kept"))).unwrap();
        drop(tx);
        let deadline = Instant::now() + Duration::from_secs(20);
        assert_eq!(host.run_event_loop(Some(deadline)), LoopOutcome::Idle);
        assert_eq!(string(&mut host, "out.join()"), "kept,end");
    })
    .unwrap();
}

#[test]
fn run_until_reads_a_script_stream_fed_by_timers() {
    run_with_large_stack(|| {
        let mut host = Host::new(HostOptions::default()).expect("host");
        let stream = host
            .eval_source(
                "new ReadableStream({
                   start(c) { setTimeout(() => { c.enqueue(new Uint8Array([104, 105])); c.close(); }, 10); },
                 })",
                "main.js",
            )
            .expect("script");
        let reader = StreamReader::from_value(&stream, host.context()).expect("reader");
        let all = reader.read_all(host.context());
        let bytes = host.run_until(all, None).expect("completes").expect("bytes");
        assert_eq!(&bytes[..], b"hi");
        // A future nothing completes returns None at the deadline.
        let never = std::future::pending::<()>();
        let deadline = Instant::now() + Duration::from_millis(10);
        assert!(host.run_until(never, Some(deadline)).is_none());
    })
    .unwrap();
}

#[test]
fn example_duplex_echoes_both_ways() {
    assert_eq!(duplex::run(), "HELLO FROM RUST\nSTREAMS BOTH WAYS\n");
}

#[test]
fn example_read_script_stream_reads_every_tick() {
    assert_eq!(read_script_stream::run(), ["tick 1", "tick 2", "tick 3"]);
}
