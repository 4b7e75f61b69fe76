//! Hard limits (`boa_streams_host::limits`, issue 31): the plugin runner example survives each
//! hostile plugin with a Rust error naming the limit, the host stays usable, and the
//! `boa-streams` flags. (The heap is counted for the whole process: the in-process tests take
//! a lock so that one's allocations never count against another's budget.)

use std::process::Command;
use std::time::Duration;

use boa_streams_host::limits::{LimitExceeded, Limits};
use boa_streams_host::{run_with_large_stack, Host, HostError, HostOptions};

#[path = "../examples/plugin_runner.rs"]
mod plugin_runner;

use plugin_runner::{run_plugin, PluginError, LIMITS, PLUGINS};

/// Serializes the in-process tests (see the module docs).
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn plugin(name: &str) -> &'static str {
    PLUGINS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, source)| *source)
        .unwrap_or_else(|| panic!("no plugin {name}"))
}

#[test]
fn limits_plugin_runner_survives_every_hostile_plugin() {
    let _serial = serial();
    assert_eq!(
        run_plugin(plugin("well-behaved"), LIMITS).expect("well-behaved"),
        "2 4 6"
    );
    for name in [
        "endless-loop",
        "endless-loop-that-catches",
        "endless-promise-chain",
    ] {
        match run_plugin(plugin(name), LIMITS) {
            Err(PluginError::Limit(LimitExceeded::CpuTime { limit })) => {
                assert_eq!(Some(limit), LIMITS.cpu_time, "{name}")
            }
            other => panic!("{name}: {other:?}"),
        }
    }
    // Stopped by either budget, whichever it spends first.
    for name in ["huge-fill", "keeps-every-line"] {
        match run_plugin(plugin(name), LIMITS) {
            Err(PluginError::Limit(_)) => {}
            other => panic!("{name}: {other:?}"),
        }
    }
    // A single allocation that cannot fit: a RangeError the plugin could have caught.
    for name in ["10-gib-buffer", "1-gib-buffer"] {
        match run_plugin(plugin(name), LIMITS) {
            Err(PluginError::Script(message)) => {
                assert!(message.starts_with("RangeError"), "{name}: {message}")
            }
            other => panic!("{name}: {other:?}"),
        }
    }
    // The heap budget alone stops a plugin that keeps everything.
    let heap_only = Limits {
        cpu_time: None,
        max_heap_bytes: Some(128 << 20),
    };
    match run_plugin(plugin("keeps-every-line"), heap_only) {
        Err(PluginError::Limit(LimitExceeded::Heap { limit, in_use })) => {
            assert_eq!(limit, 128 << 20);
            assert!(in_use > limit);
        }
        other => panic!("keeps-every-line: {other:?}"),
    }
    // And the runner goes on.
    assert_eq!(
        run_plugin(plugin("well-behaved"), LIMITS).expect("well-behaved after"),
        "2 4 6"
    );
}

#[test]
fn limits_a_stopped_host_reports_once_and_runs_again_after_set_limits() {
    let _serial = serial();
    run_with_large_stack(|| {
        let mut host = Host::new(HostOptions {
            print_errors: false,
            ..HostOptions::default()
        })
        .unwrap();
        let limits = Limits {
            cpu_time: Some(Duration::from_millis(50)),
            max_heap_bytes: None,
        };
        host.set_limits(limits);
        host.eval_source(
            "setTimeout(() => { globalThis.timer = 'ran'; }, 0);
             queueMicrotask(() => { for (;;) {} });",
            "main.js",
        )
        .unwrap();
        host.run_event_loop(None);
        assert!(matches!(
            host.limit_exceeded(),
            Some(LimitExceeded::CpuTime { .. })
        ));
        let errors = host.take_errors();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            matches!(&errors[0], HostError::Uncaught { message, .. } if message.contains("CPU time limit of 50 ms")),
            "{errors:?}"
        );
        // The stopped script's queued timer was discarded.
        assert!(!host.has_pending_work());
        // A new budget: the host runs code again.
        host.set_limits(limits);
        assert_eq!(host.limit_exceeded(), None);
        let value = host.eval_source("typeof globalThis.timer", "check.js").unwrap();
        assert_eq!(value.as_string().unwrap().to_std_string_escaped(), "undefined");
        // Without limits nothing is armed.
        host.set_limits(Limits::default());
        let value = host.eval_source("1 + 1", "check.js").unwrap();
        assert_eq!(value.as_number(), Some(2.0));
    })
    .unwrap();
}

#[test]
fn limits_a_long_native_call_is_stopped_and_the_host_can_be_dropped() {
    let _serial = serial();
    run_with_large_stack(|| {
        for _ in 0..2 {
            let mut host = Host::new(HostOptions {
                print_errors: false,
                ..HostOptions::default()
            })
            .unwrap();
            host.set_limits(Limits {
                cpu_time: Some(Duration::from_millis(50)),
                max_heap_bytes: None,
            });
            let error = host
                .eval_source(
                    "const t = new Uint8Array(1 << 24), a = { length: 1 << 24 }; try { t.set(a); t.set(a); t.set(a); } catch { }",
                    "fill.js",
                )
                .expect_err("not stopped");
            assert!(error.as_engine().is_some());
            assert!(host.limit_exceeded().is_some());
            drop(host);
        }
    })
    .unwrap();
}

fn boa_streams(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_boa-streams"))
        .args(args)
        .output()
        .expect("run boa-streams");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn limits_cli_cpu_time_limit_stops_a_tight_loop() {
    let (code, stderr) = boa_streams(&["--cpu-time-limit-ms=100", "-e", "for (;;) {}"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("CPU time limit of 100 ms"), "{stderr}");
}

#[test]
fn limits_cli_max_heap_stops_a_script_that_keeps_everything() {
    let (code, stderr) = boa_streams(&[
        "--max-heap-mib=64",
        "-e",
        "const keep = []; for (let i = 0; ; i++) keep.push('line ' + i + 'x'.repeat(100));",
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("heap limit of 64 MiB"), "{stderr}");
}

#[test]
fn limits_cli_single_allocation_over_the_heap_budget_is_a_range_error() {
    let (code, stderr) = boa_streams(&[
        "--max-heap-mib=64",
        "-e",
        "try { new ArrayBuffer(2 ** 30) } catch (e) { console.error(e.name); }",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stderr.trim(), "RangeError");
}

#[test]
fn limits_cli_a_program_within_its_budgets_runs() {
    let (code, stderr) = boa_streams(&[
        "--cpu-time-limit-ms=10000",
        "--max-heap-mib=512",
        "-e",
        "setTimeout(() => console.error('done'), 1);",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stderr.trim(), "done");
}

#[test]
fn limits_cli_rejects_bad_values() {
    for flag in [
        "--cpu-time-limit-ms=0",
        "--cpu-time-limit-ms=abc",
        "--max-heap-mib=",
        "--max-heap-mib=-1",
    ] {
        let (code, stderr) = boa_streams(&[flag, "-e", "1"]);
        assert_eq!(code, 2, "{flag}: {stderr}");
        assert!(stderr.contains("needs a positive whole number"), "{stderr}");
    }
}
