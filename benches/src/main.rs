//! `bench-js`: run the JS scenario suite of `benches/js/` and print a markdown table.
//!
//! ```text
//! bench-js [--fast-paths on|off|both] [--compare node] [--node PATH] [--n N] [--scale X]
//!          [--repeat R] [--filter TEXT] [--json PATH] [--quick] [--no-floors] [FILE.js ...]
//! ```
//!
//! Each file runs on a fresh host once per fast-path mode (default: both), and under Node
//! with `--compare node`. Every line reports ops/s, "× floor" (ns per op over the scenario's
//! floor model, calibrated in the same process) and, with Node, "× Node" (our ops/s over
//! Node's ops/s with the fast paths on). The JSON of every run goes to `--json` (default
//! `target/bench-js.json`). A failed validation exits with status 1.
//!
//! Build with `--release` for meaningful numbers:
//! `cargo run --release -p boa_streams_benches --bin bench-js -- --compare node`.

use std::path::PathBuf;

use boa_streams_benches::{Config, CountingAlloc};
use serde_json::{json, Value};

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

struct Args {
    modes: Vec<bool>,
    node: Option<String>,
    config: Config,
    json: PathBuf,
    files: Vec<PathBuf>,
}

fn usage() -> ! {
    eprintln!(
        "usage: bench-js [--fast-paths on|off|both] [--compare node] [--node PATH] [--n N] \
         [--scale X] [--repeat R] [--filter TEXT] [--json PATH] [--quick] [--no-floors] \
         [FILE.js ...]"
    );
    std::process::exit(2);
}

fn parse_args() -> Args {
    let mut args = Args {
        modes: vec![true, false],
        node: None,
        config: Config {
            scale: 1.0,
            repeat: 3,
            ..Config::default()
        },
        json: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/bench-js.json"),
        files: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut value = || it.next().unwrap_or_else(|| usage());
        match a.as_str() {
            "--fast-paths" => {
                args.modes = match value().as_str() {
                    "on" => vec![true],
                    "off" => vec![false],
                    "both" => vec![true, false],
                    _ => usage(),
                }
            }
            "--compare" => {
                if value() != "node" {
                    usage()
                }
                args.node.get_or_insert_with(|| "node".to_owned());
            }
            "--node" => args.node = Some(value()),
            "--n" => args.config.n = value().parse().unwrap_or_else(|_| usage()),
            "--scale" => args.config.scale = value().parse().unwrap_or_else(|_| usage()),
            "--repeat" => args.config.repeat = value().parse().unwrap_or_else(|_| usage()),
            "--filter" => args.config.filter = value(),
            "--json" => args.json = PathBuf::from(value()),
            "--quick" => args.config.quick = true,
            "--no-floors" => args.config.no_floors = true,
            "-h" | "--help" => usage(),
            f if !f.starts_with("--") => args.files.push(PathBuf::from(f)),
            _ => usage(),
        }
    }
    if args.files.is_empty() {
        args.files = boa_streams_benches::scenario_files();
    }
    args
}

fn main() {
    let args = parse_args();
    let mut failed = false;
    // Per file: { file, on, off, node }.
    let mut runs: Vec<Value> = Vec::new();
    for file in &args.files {
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut entry = json!({ "file": name });
        for &fast in &args.modes {
            eprintln!("{name}: fast paths {}", if fast { "on" } else { "off" });
            let f = file.clone();
            let config = args.config.clone();
            let result = boa_streams_host::run_with_large_stack(move || {
                boa_streams_benches::run_file(&f, fast, &config)
            });
            match result {
                Ok(Ok(v)) => entry[if fast { "on" } else { "off" }] = v,
                Ok(Err(e)) => {
                    eprintln!("error in {name}: {e}");
                    failed = true;
                }
                Err(panic) => {
                    eprintln!("panic in {name}: {panic}");
                    failed = true;
                }
            }
        }
        if let Some(node) = &args.node {
            eprintln!("{name}: node");
            match boa_streams_benches::run_file_node(node, file, &args.config) {
                Ok(v) => entry["node"] = v,
                Err(e) => {
                    eprintln!("node error in {name}: {e}");
                    failed = true;
                }
            }
        }
        runs.push(entry);
    }
    let report = json!({ "runs": runs });
    if let Some(dir) = args.json.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    match serde_json::to_string_pretty(&report) {
        Ok(text) => {
            if let Err(e) = std::fs::write(&args.json, text) {
                eprintln!("cannot write {}: {e}", args.json.display());
            } else {
                eprintln!("JSON: {}", args.json.display());
            }
        }
        Err(e) => eprintln!("cannot serialise the results: {e}"),
    }
    print!("{}", table(&runs, &args));
    if failed {
        std::process::exit(1);
    }
}

fn results(run: &Value) -> Vec<Value> {
    run["results"].as_array().cloned().unwrap_or_default()
}

fn find<'a>(list: &'a [Value], name: &str) -> Option<&'a Value> {
    list.iter().find(|r| r["name"].as_str() == Some(name))
}

fn ops(r: &Value) -> String {
    let Some(o) = r["opsPerSec"].as_f64() else {
        return "–".into();
    };
    let mut s = group_thousands(o);
    if let Some(mb) = r["mbPerSec"].as_f64() {
        s.push_str(&format!(" ({mb:.0} MB/s)"));
    }
    s
}

fn group_thousands(x: f64) -> String {
    let digits = format!("{:.0}", x);
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn ratio(x: Option<f64>) -> String {
    x.map_or("–".into(), |x| format!("{x:.2}×"))
}

fn table(runs: &[Value], args: &Args) -> String {
    let on = args.modes.contains(&true);
    let off = args.modes.contains(&false);
    let node = args.node.is_some();
    let mut head = vec!["scenario", "N"];
    if on {
        head.extend(["ops/s (on)", "floor ns", "× floor (on)"]);
    }
    if off {
        head.extend(["ops/s (off)", "× floor (off)"]);
    }
    if node {
        head.extend(["Node ops/s", "× Node"]);
    }
    let mut out = format!("| {} |\n", head.join(" | "));
    out.push_str(&format!(
        "|{}\n",
        head.iter()
            .enumerate()
            .map(|(i, _)| if i == 0 { " --- |" } else { " --: |" })
            .collect::<String>()
    ));
    let mut mem_rows = String::new();
    for run in runs {
        let r_on = results(&run["on"]);
        let r_off = results(&run["off"]);
        let r_node = results(&run["node"]);
        let primary = if on { &r_on } else { &r_off };
        for r in primary {
            let name = r["name"].as_str().unwrap_or("?");
            let mut row = vec![name.to_owned(), r["n"].to_string()];
            let ours = r["opsPerSec"].as_f64();
            if on {
                let x = find(&r_on, name);
                row.push(x.map_or("–".into(), ops));
                row.push(
                    x.and_then(|x| x["floorNs"].as_f64())
                        .map_or("–".into(), |f| format!("{f:.0}")),
                );
                row.push(ratio(x.and_then(|x| x["xFloor"].as_f64())));
            }
            if off {
                let x = find(&r_off, name);
                row.push(x.map_or("–".into(), ops));
                row.push(ratio(x.and_then(|x| x["xFloor"].as_f64())));
            }
            if node {
                let x = find(&r_node, name);
                row.push(x.map_or("–".into(), ops));
                let theirs = x.and_then(|x| x["opsPerSec"].as_f64());
                row.push(ratio(ours.zip(theirs).map(|(a, b)| a / b)));
            }
            out.push_str(&format!("| {} |\n", row.join(" | ")));
        }
        let m_on = run["on"]["memory"].as_array().cloned().unwrap_or_default();
        let m_off = run["off"]["memory"].as_array().cloned().unwrap_or_default();
        let m_node = run["node"]["memory"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let primary = if on { &m_on } else { &m_off };
        for m in primary {
            let name = m["name"].as_str().unwrap_or("?");
            let ours = m["bytesPerObject"].as_f64();
            let theirs = find(&m_node, name).and_then(|x| x["bytesPerObject"].as_f64());
            mem_rows.push_str(&format!(
                "| {} | {} | {} | {} |\n",
                name,
                ours.map_or("–".into(), |b| format!("{b:.0}")),
                theirs.map_or("–".into(), |b| format!("{b:.0}")),
                ratio(ours.zip(theirs).map(|(a, b)| b / a)),
            ));
        }
    }
    if !mem_rows.is_empty() {
        out.push_str(
            "\n| live object | bytes (ours) | bytes (Node) | Node / ours |\n| --- | --: | --: | --: |\n",
        );
        out.push_str(&mem_rows);
    }
    out
}
