//! Smoke run of every bench scenario with a tiny N, fast paths on and off: each scenario's
//! validation must pass (a wrong count fails), and the output must have a line per scenario.

use boa_streams_benches::{run_file, scenario_files, Config};

#[test]
fn every_scenario_validates_with_tiny_n() {
    let files = scenario_files();
    assert!(files.len() >= 10, "scenario files: {files:?}");
    for file in files {
        for fast in [true, false] {
            let f = file.clone();
            let out = boa_streams_host::run_with_large_stack(move || {
                let config = Config {
                    n: 12,
                    scale: 1.0,
                    repeat: 1,
                    filter: String::new(),
                    quick: true,
                    no_floors: false,
                };
                run_file(&f, fast, &config)
            })
            .unwrap_or_else(|panic| panic!("{}: panic {panic}", file.display()))
            .unwrap_or_else(|e| panic!("{} (fast paths {fast}): {e}", file.display()));
            let results = out["results"].as_array().map_or(0, Vec::len);
            let memory = out["memory"].as_array().map_or(0, Vec::len);
            assert!(results + memory > 0, "{}: no results", file.display());
            for r in out["results"].as_array().into_iter().flatten() {
                assert!(r["ns"].as_f64().is_some_and(|ns| ns >= 0.0), "{r}");
            }
        }
    }
}

#[test]
fn a_failed_validation_fails_the_run() {
    let dir = std::env::temp_dir().join(format!("bench-smoke-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("wrong.js");
    std::fs::write(
        &path,
        "scenario({ group: 't', name: 'wrong count', n: 5, run: async (n) => n + 1 });",
    )
    .expect("write");
    let p = path.clone();
    let result = boa_streams_host::run_with_large_stack(move || {
        run_file(
            &p,
            true,
            &Config {
                n: 0,
                scale: 1.0,
                repeat: 1,
                filter: String::new(),
                quick: true,
                no_floors: false,
            },
        )
    })
    .expect("no panic");
    let _ = std::fs::remove_dir_all(&dir);
    let err = result.expect_err("a wrong count must fail");
    assert!(err.contains("wrong count"), "{err}");
}
