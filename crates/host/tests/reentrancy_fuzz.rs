//! A seeded reentrancy fuzzer (`tests/fuzz/reentrancy.js`): random operations on streams,
//! readers, writers, controllers, signals and event targets, re-entered from every hook script
//! can install (promise species lookup, `then` probes, dictionary getters, `size()`, sink and
//! source callbacks, listeners). Script exceptions are expected; a Rust panic fails the test
//! and names the seed. `FUZZ_SEEDS=n` runs n seeds per mode (default 6); each seed's event
//! loop is cut off after 5 s (some seeds build legitimately endless streams).

use std::time::{Duration, Instant};

use boa_streams_host::{run_with_large_stack, Host, HostOptions};

const SCRIPT: &str = include_str!("fuzz/reentrancy.js");

fn run_seed(seed: u32, fast_paths: bool) -> Result<(), String> {
    run_with_large_stack(move || {
        boa_web::set_fast_paths(fast_paths);
        let mut host = Host::new(HostOptions {
            expose_gc: true,
            virtual_time: true,
            print_errors: false,
            ..HostOptions::default()
        })
        .expect("host");
        let source = format!("var SEED = {seed};\n{SCRIPT}");
        if let Err(e) = host.eval_source(&source, "fuzz.js") {
            host.report_exception(e);
        }
        let deadline = Instant::now() + Duration::from_secs(5);
        let _ = host.run_event_loop(Some(deadline));
        let _ = host.take_errors();
    })
}

fn fuzz(seeds: std::ops::Range<u32>, fast_paths: bool) {
    let failures: Vec<String> = seeds
        .filter_map(|seed| {
            run_seed(seed, fast_paths)
                .err()
                .map(|m| format!("seed {seed}: {m}"))
        })
        .collect();
    assert!(failures.is_empty(), "panics:\n{}", failures.join("\n"));
}

#[test]
fn reentrancy_fuzz_fast_paths() {
    let n = std::env::var("FUZZ_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(6);
    fuzz(1..n + 1, true);
}

#[test]
fn reentrancy_fuzz_spec_paths() {
    let n = std::env::var("FUZZ_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(6);
    fuzz(1001..1001 + n, false);
}
