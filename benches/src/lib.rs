//! Bench support: run a JS bench script (with `js/harness.js` loaded first) through the
//! scripting host and return what it printed as results.

use std::path::{Path, PathBuf};

use boa_streams_host::{Host, HostOptions, LoopOutcome};

/// Directory of the JS bench scripts.
pub fn js_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("js")
}

/// Run one bench script to completion on a fresh host. Errors if the script throws or leaves
/// an unhandled rejection.
pub fn run_script(path: &Path, fast_paths: bool) -> Result<(), String> {
    boa_streams::set_fast_paths(fast_paths);
    let mut host = Host::new(HostOptions::default()).map_err(|e| e.to_string())?;
    let harness =
        std::fs::read_to_string(js_dir().join("harness.js")).map_err(|e| e.to_string())?;
    host.eval_source(&harness, "harness.js")
        .map_err(|e| e.to_string())?;
    host.eval_file(path).map_err(|e| e.to_string())?;
    match host.run_event_loop(None) {
        LoopOutcome::Idle => {}
        LoopOutcome::DeadlineReached => return Err("deadline reached".into()),
    }
    let errors = host.take_errors();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(format!("{errors:?}"))
    }
}

/// Evaluate `setup` then time `body` (a JS expression producing a promise or value) through
/// the event loop; used by the criterion bench.
pub fn host_with(setup: &str) -> Host {
    let mut host = Host::new(HostOptions {
        print_errors: true,
        ..HostOptions::default()
    })
    .unwrap_or_else(|e| panic!("host: {e}"));
    if let Err(e) = host.eval_source(setup, "setup.js") {
        panic!("setup: {e}");
    }
    host.run_event_loop(None);
    host
}
