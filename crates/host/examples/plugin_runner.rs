//! Example: an embedder runs untrusted plugins under hard limits (a CPU-time budget and a
//! heap budget, `boa_streams_host::limits`) and gets a Rust error for each hostile one: an
//! endless loop, a huge `Array.prototype.fill`, a 10 GiB and a 1 GiB `ArrayBuffer`, an endless
//! promise chain, a plugin that keeps every line it makes. The process stays alive; each
//! plugin gets a fresh `Host`, dropped afterwards.
//!
//! `cargo run --release --example plugin_runner -p boa_streams_host`
//!
//! With `--bench`, it times a well-behaved workload with the limits off and on instead
//! (minimum of several runs each) and prints the ratio.

use std::time::{Duration, Instant};

use boa_streams_host::limits::{CountingAllocator, LimitExceeded, Limits};
use boa_streams_host::{run_with_large_stack, Host, HostError, HostOptions};

/// Counts every allocation, so the heap budget covers all memory (arrays' elements and
/// strings included), not only the engine's garbage-collected boxes.
#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// The limits every plugin runs under.
pub const LIMITS: Limits = Limits {
    cpu_time: Some(Duration::from_millis(500)),
    max_heap_bytes: Some(256 << 20),
};

/// The plugins: a name and the script.
pub const PLUGINS: &[(&str, &str)] = &[
    ("well-behaved", "[1, 2, 3].map((x) => x * 2).join(' ')"),
    ("endless-loop", "for (;;) {}"),
    (
        "endless-loop-that-catches",
        "for (;;) { try { for (;;) {} } catch (e) { } finally { } }",
    ),
    ("huge-fill", "new Array(1e9).fill(0)"),
    ("10-gib-buffer", "new ArrayBuffer(10 * 2 ** 30)"),
    ("1-gib-buffer", "new ArrayBuffer(2 ** 30)"),
    (
        "endless-promise-chain",
        "(function next() { return Promise.resolve().then(next); })()",
    ),
    (
        "keeps-every-line",
        "globalThis.lines = [];
         for (let i = 0; ; i++) lines.push(`line ${i}: ` + 'x'.repeat(80 + (i % 7)));",
    ),
];

/// Why a plugin failed.
#[derive(Debug)]
pub enum PluginError {
    /// A hard limit stopped it.
    Limit(LimitExceeded),
    /// It threw (or its setup failed).
    Script(String),
}

impl std::fmt::Display for PluginError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Limit(limit) => write!(f, "{limit}"),
            Self::Script(message) => write!(f, "{message}"),
        }
    }
}

impl std::error::Error for PluginError {}

/// Run one plugin in a fresh host (on a large-stack thread) under `limits`: its completion
/// value as a string, or why it failed.
pub fn run_plugin(source: &str, limits: Limits) -> Result<String, PluginError> {
    let source = source.to_owned();
    run_with_large_stack(move || {
        let options = HostOptions {
            print_errors: false,
            ..HostOptions::default()
        };
        let mut host = Host::new(options).map_err(|e| PluginError::Script(e.to_string()))?;
        host.set_limits(limits);
        let value = match host.eval_source(&source, "plugin.js") {
            Ok(value) => value
                .to_string(host.context())
                .map(|s| s.to_std_string_escaped())
                .unwrap_or_default(),
            Err(error) => {
                host.report_exception(error);
                String::new()
            }
        };
        host.run_event_loop(None);
        if let Some(limit) = host.limit_exceeded() {
            return Err(PluginError::Limit(limit));
        }
        match host.take_errors().into_iter().next() {
            Some(HostError::Uncaught { message, .. })
            | Some(HostError::UnhandledRejection { message, .. }) => {
                Err(PluginError::Script(message))
            }
            None => Ok(value),
        }
    })
    .unwrap_or_else(|panic| Err(PluginError::Script(format!("engine panic: {panic}"))))
}

/// A well-behaved workload for `--bench`: objects, strings, JSON, closures, sorting, promises.
pub const WORKLOAD: &str = "
let total = 0;
for (let i = 0; i < 100000; i++) {
  const o = { i, name: 'item ' + i, tags: [i % 3, i % 5] };
  total += JSON.stringify(o).length;
}
const a = Array.from({ length: 50000 }, (_, i) => (i * 7919) % 50000);
a.sort((x, y) => x - y);
total += a.join(',').length;
let p = Promise.resolve(0);
for (let i = 0; i < 10000; i++) p = p.then((v) => v + 1);
p.then((v) => { total += v; });
";

/// Time `WORKLOAD` under `limits`: the fastest of `runs`.
pub fn time_workload(limits: Limits, runs: usize) -> Duration {
    (0..runs)
        .map(|_| {
            let start = Instant::now();
            let result = run_plugin(WORKLOAD, limits);
            let elapsed = start.elapsed();
            if let Err(e) = result {
                eprintln!("workload failed: {e}");
            }
            elapsed
        })
        .min()
        .unwrap_or_default()
}

#[allow(dead_code)]
fn main() {
    if std::env::args().any(|a| a == "--bench") {
        // Generous budgets: they are armed (watchdog thread, heap checks) but never reached.
        let on = Limits {
            cpu_time: Some(Duration::from_secs(600)),
            max_heap_bytes: Some(8 << 30),
        };
        let off = time_workload(Limits::default(), 7);
        let with = time_workload(on, 7);
        println!(
            "workload: limits off {:.1} ms, on {:.1} ms, ratio {:.3}",
            off.as_secs_f64() * 1e3,
            with.as_secs_f64() * 1e3,
            with.as_secs_f64() / off.as_secs_f64()
        );
        return;
    }
    for (name, source) in PLUGINS {
        let start = Instant::now();
        let outcome = run_plugin(source, LIMITS);
        let ms = start.elapsed().as_millis();
        match outcome {
            Ok(value) => println!("{name}: ok ({value}) in {ms} ms"),
            Err(error) => println!("{name}: error: {error} (after {ms} ms)"),
        }
    }
    println!("the runner is still alive");
}
