//! Criterion benches of the Rust-level paths, driven through the public API only
//! (`boa_web::boa_streams::native`, the registered globals): each group has a baseline so results
//! read as ratios.
//!
//! * `read-1000-chunks`: JS read loops against `await Promise.resolve()`.
//! * `native-source`: a native byte source (`native_byte_stream`, 1 KiB chunks) read by a JS
//!   reader, against the same chunks from a JS pull source.
//! * `native-pipe`: a native source of 64 KiB chunks piped to a sink, directly and through
//!   `CompressionStream('gzip')`.
//! * `byob-fill-16MiB`: a Rust [`ByteSource`] read by a JS BYOB reader that hands the same
//!   64 KiB buffer back on every read: filled in place (1 copy per byte, into the caller's
//!   buffer; checked after each run), against enqueueing owned `Bytes` (a copy into a new
//!   buffer, then one into the reader's view) and against a default reader on
//!   `autoAllocateChunkSize` (filled in place, a new buffer per read).

use std::cell::Cell;
use std::rc::Rc;

use boa_engine::{js_string, property::Attribute, Context};
use boa_gc::{Finalize, Trace};
use boa_streams_host::Host;
use boa_web::boa_streams::native::{
    native_readable_byte_stream, ByteController, ByteSource, ByteStreamOptions, Completion,
};
use bytes::Bytes;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const SETUP: &str = r#"
globalThis.baseline = async (n) => { for (let i = 0; i < n; i++) await Promise.resolve(i); };
globalThis.readAll = async (rs) => {
  const r = rs.getReader();
  let bytes = 0;
  for (;;) { const { done, value } = await r.read(); if (done) return bytes; bytes += value ? value.byteLength || 1 : 1; }
};
globalThis.readBuffered = (n) => readAll(new ReadableStream(
  { start(c) { for (let i = 0; i < n; i++) c.enqueue(i); c.close(); } }, { highWaterMark: n }));
globalThis.readPull = (n) => {
  let i = 0;
  return readAll(new ReadableStream({ pull(c) { if (i++ < n) c.enqueue(i); else c.close(); } }));
};
const KIB = new Uint8Array(1024);
globalThis.jsBytes = (n) => {
  let i = 0;
  return new ReadableStream({ pull(c) { if (i++ < n) c.enqueue(KIB.slice()); else c.close(); } });
};
globalThis.sinkCount = () => {
  const s = { bytes: 0, write(c) { s.bytes += c.byteLength; } };
  return [s, new WritableStream(s)];
};
"#;

fn run(host: &mut Host, call: &str) {
    if let Err(e) = host.eval_source(call, "bench.js") {
        panic!("bench: {e}");
    }
    host.run_event_loop(None);
    let errors = host.take_errors();
    assert!(errors.is_empty(), "{errors:?}");
}

/// Fail the bench if `condition` (JS) is not true after a run (a pipe that lost data).
fn check(host: &mut Host, condition: &str) {
    let ok = host
        .eval_source(condition, "check.js")
        .unwrap_or_else(|e| panic!("check: {e}"));
    assert_eq!(ok.as_boolean(), Some(true), "failed: {condition}");
}

/// Install `native_byte_stream(chunks)` as the global `src`.
fn native_source(host: &mut Host, chunk: &Bytes, count: usize) {
    let chunks = std::iter::repeat_n(chunk.clone(), count);
    let ctx = host.context();
    let stream = boa_web::boa_streams::native::native_byte_stream(chunks, ctx)
        .unwrap_or_else(|e| panic!("native_byte_stream: {e}"));
    ctx.register_global_property(js_string!("src"), stream, Attribute::all())
        .unwrap_or_else(|e| panic!("global: {e}"));
}

fn read_loops(c: &mut Criterion) {
    let mut host = boa_streams_benches::host_with(SETUP);
    let mut group = c.benchmark_group("read-1000-chunks");
    group.throughput(Throughput::Elements(1000));
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

fn native_source_reads(c: &mut Criterion) {
    let mut host = boa_streams_benches::host_with(SETUP);
    let chunk = Bytes::from(vec![7u8; 1024]);
    let mut group = c.benchmark_group("native-source-1000x1KiB");
    group.throughput(Throughput::Bytes(1000 * 1024));
    group.bench_function("JS pull source, read loop", |b| {
        b.iter(|| run(&mut host, "readAll(jsBytes(1000))"))
    });
    group.bench_function("native_byte_stream, read loop", |b| {
        b.iter(|| {
            native_source(&mut host, &chunk, 1000);
            run(&mut host, "readAll(src)")
        })
    });
    group.finish();
}

fn native_pipes(c: &mut Criterion) {
    let mut host = boa_streams_benches::host_with(SETUP);
    let chunk = Bytes::from(
        (0..65536u32)
            .map(|i| {
                if i % 7 == 0 {
                    b' '
                } else {
                    b'a' + (i / 8 % 26) as u8
                }
            })
            .collect::<Vec<u8>>(),
    );
    let mut group = c.benchmark_group("native-pipe-100x64KiB");
    group.throughput(Throughput::Bytes(100 * 65536));
    group.sample_size(20);
    group.bench_function("native source -> pipeTo(JS sink)", |b| {
        b.iter(|| {
            native_source(&mut host, &chunk, 100);
            run(
                &mut host,
                "{ const [s, ws] = sinkCount(); globalThis.last = s; src.pipeTo(ws); }",
            );
            check(&mut host, "last.bytes === 100 * 65536");
        })
    });
    group.bench_function(
        "native source -> CompressionStream('gzip') -> JS sink",
        |b| {
            b.iter(|| {
                native_source(&mut host, &chunk, 100);
                run(
                    &mut host,
                    "{ const [s, ws] = sinkCount(); globalThis.last = s; \
                 src.pipeThrough(new CompressionStream('gzip')).pipeTo(ws); }",
                );
                check(&mut host, "last.bytes > 0 && last.bytes < 100 * 65536");
            })
        },
    );
    group.finish();
}

/// `total` bytes from a repeating 64 KiB pattern: filled in place when a read is pending (and
/// `enqueue_only` is false), else enqueued as `Bytes`; counts the bytes it copies.
#[derive(Trace, Finalize)]
struct PatternSource {
    #[unsafe_ignore_trace]
    pattern: Bytes,
    #[unsafe_ignore_trace]
    total: usize,
    #[unsafe_ignore_trace]
    sent: Cell<usize>,
    #[unsafe_ignore_trace]
    copied: Rc<Cell<usize>>,
    #[unsafe_ignore_trace]
    enqueue_only: bool,
}

impl ByteSource for PatternSource {
    fn pull(&self, controller: &ByteController, ctx: &mut Context) -> Completion {
        let sent = self.sent.get();
        let left = self.total - sent;
        if left == 0 {
            return Completion::from_result(controller.close(ctx), ctx);
        }
        let at = sent % self.pattern.len();
        let from = &self.pattern[at..at + left.min(self.pattern.len() - at)];
        let result = if self.enqueue_only || controller.byob_request().is_none() {
            // Bytes -> a new ArrayBuffer (the copy counted here), then the controller's
            // copy into the reader's view (not counted: the figure is the source's).
            self.copied.set(self.copied.get() + from.len());
            controller
                .enqueue(self.pattern.slice(at..at + from.len()), ctx)
                .map(|()| from.len())
        } else {
            controller.fill(
                |view| {
                    let n = view.len().min(from.len());
                    view[..n].copy_from_slice(&from[..n]);
                    self.copied.set(self.copied.get() + n);
                    n
                },
                ctx,
            )
        };
        match result {
            Ok(n) => {
                self.sent.set(sent + n);
                Completion::undefined()
            }
            Err(e) => Completion::from_error(e, ctx),
        }
    }
}

const BYOB_TOTAL: usize = 16 << 20;

const BYOB_SETUP: &str = r#"
globalThis.byobRead = async (rs) => {
  const r = rs.getReader({ mode: 'byob' });
  let buffer = new ArrayBuffer(65536), bytes = 0;
  for (;;) {
    const { done, value } = await r.read(new Uint8Array(buffer));
    if (done) break;
    bytes += value.byteLength;
    buffer = value.buffer;
  }
  globalThis.delivered = bytes;
};
globalThis.defaultRead = async (rs) => {
  let bytes = 0;
  for await (const c of rs) bytes += c.byteLength;
  globalThis.delivered = bytes;
};
"#;

/// Install a [`PatternSource`] stream as the global `src`; returns its copy counter.
fn pattern_source(
    host: &mut Host,
    pattern: &Bytes,
    enqueue_only: bool,
    auto_allocate_chunk_size: Option<u64>,
) -> Rc<Cell<usize>> {
    let copied = Rc::new(Cell::new(0));
    let source = PatternSource {
        pattern: pattern.clone(),
        total: BYOB_TOTAL,
        sent: Cell::new(0),
        copied: copied.clone(),
        enqueue_only,
    };
    let options = ByteStreamOptions {
        auto_allocate_chunk_size,
        ..Default::default()
    };
    let ctx = host.context();
    let stream = native_readable_byte_stream(source, options, ctx)
        .unwrap_or_else(|e| panic!("native_readable_byte_stream: {e}"));
    ctx.register_global_property(js_string!("src"), stream, Attribute::all())
        .unwrap_or_else(|e| panic!("global: {e}"));
    copied
}

fn byob_fill(c: &mut Criterion) {
    let mut host = boa_streams_benches::host_with(BYOB_SETUP);
    let pattern = Bytes::from((0..65536u32).map(|i| (i % 251) as u8).collect::<Vec<u8>>());
    let mut group = c.benchmark_group("byob-fill-16MiB");
    group.throughput(Throughput::Bytes(BYOB_TOTAL as u64));
    group.sample_size(20);
    let delivered = format!("delivered === {BYOB_TOTAL}");
    group.bench_function("BYOB reader, ByteSource fills in place", |b| {
        b.iter(|| {
            let copied = pattern_source(&mut host, &pattern, false, None);
            run(&mut host, "byobRead(src)");
            check(&mut host, &delivered);
            // Bytes copied per byte delivered: 1.
            assert_eq!(copied.get(), BYOB_TOTAL);
        })
    });
    group.bench_function("BYOB reader, ByteSource enqueues Bytes", |b| {
        b.iter(|| {
            pattern_source(&mut host, &pattern, true, None);
            run(&mut host, "byobRead(src)");
            check(&mut host, &delivered);
        })
    });
    group.bench_function("default reader, autoAllocateChunkSize 64 KiB", |b| {
        b.iter(|| {
            let copied = pattern_source(&mut host, &pattern, false, Some(65536));
            run(&mut host, "defaultRead(src)");
            check(&mut host, &delivered);
            assert_eq!(copied.get(), BYOB_TOTAL);
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    read_loops,
    native_source_reads,
    native_pipes,
    byob_fill
);
criterion_main!(benches);
