//! Criterion benches: per-operation costs measured through the scripting host. Each group has
//! a baseline (`await Promise.resolve()` loop) so results read as ratios.

use criterion::{criterion_group, criterion_main, Criterion};

const SETUP: &str = r#"
globalThis.baseline = async (n) => { for (let i = 0; i < n; i++) await Promise.resolve(i); };
globalThis.readBuffered = async (n) => {
  const rs = new ReadableStream({ start(c) { for (let i = 0; i < n; i++) c.enqueue(i); c.close(); } },
                                { highWaterMark: n });
  const r = rs.getReader();
  for (;;) { const { done } = await r.read(); if (done) break; }
};
globalThis.readPull = async (n) => {
  let i = 0;
  const rs = new ReadableStream({ pull(c) { if (i++ < n) c.enqueue(i); else c.close(); } });
  const r = rs.getReader();
  for (;;) { const { done } = await r.read(); if (done) break; }
};
"#;

fn run(host: &mut boa_streams_host::Host, call: &str) {
    if let Err(e) = host.eval_source(call, "bench.js") {
        panic!("bench: {e}");
    }
    host.run_event_loop(None);
}

fn read_loops(c: &mut Criterion) {
    let mut host = boa_streams_benches::host_with(SETUP);
    let mut group = c.benchmark_group("read-1000-chunks");
    group.bench_function("baseline: await Promise.resolve()", |b| {
        b.iter(|| run(&mut host, "baseline(1000)"))
    });
    group.bench_function("reader.read() buffered", |b| {
        b.iter(|| run(&mut host, "readBuffered(1000)"))
    });
    group.bench_function("reader.read() sync pull", |b| {
        b.iter(|| run(&mut host, "readPull(1000)"))
    });
    group.finish();
}

criterion_group!(benches, read_loops);
criterion_main!(benches);
