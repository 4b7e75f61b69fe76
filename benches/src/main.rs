//! `bench-js [SCRIPT...]`: run the JS bench scripts in `benches/js/` (all by default), each
//! twice in this one process: with the fast paths on, then off. Each script prints its own
//! variants as ratios to its baseline, so the numbers compare within one run.
//!
//! Build with `--release` for meaningful numbers:
//! `cargo run --release -p boa_streams_benches --bin bench-js`.

use std::path::PathBuf;

fn main() {
    let mut scripts: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    if scripts.is_empty() {
        let dir = boa_streams_benches::js_dir();
        let mut all: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        all.retain(|p| {
            p.extension().is_some_and(|e| e == "js")
                && p.file_name().is_some_and(|n| n != "harness.js")
        });
        all.sort();
        scripts = all;
    }
    let mut failed = false;
    for script in &scripts {
        for fast in [true, false] {
            println!(
                "== {} (fast paths {})",
                script.display(),
                if fast { "on" } else { "off" }
            );
            let s = script.clone();
            let result = boa_streams_host::run_with_large_stack(move || {
                boa_streams_benches::run_script(&s, fast)
            });
            match result {
                Ok(Ok(())) => {}
                Ok(Err(e)) => {
                    eprintln!("error: {e}");
                    failed = true;
                }
                Err(panic) => {
                    eprintln!("panic: {panic}");
                    failed = true;
                }
            }
        }
    }
    if failed {
        std::process::exit(1);
    }
}
