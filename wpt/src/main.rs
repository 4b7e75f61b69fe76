//! `wpt-runner`: runs the pinned web-platform-tests against boa_streams and compares the
//! results with `wpt/expectations.json`.
//!
//! ```text
//! wpt-runner [OPTIONS] [FILTER...]
//!   FILTER               corpus-relative path or directory (`streams/piping`), or a glob
//!                        (`streams/readable-streams/*`; `*` stays in a directory, `**` does not)
//!   --json PATH          results JSON (default wpt/results/latest.json)
//!   --summary PATH       markdown summary (default wpt/results/summary.md)
//!   --expectations PATH  (default wpt/expectations.json)
//!   --corpus DIR         the laid corpus (default third_party/wpt)
//!   --update             rewrite the expectations from this run (keeps reasons and notes)
//!   --no-fast-paths      run the children with BOA_STREAMS_FAST_PATHS=0
//!   -j, --jobs N         files run in parallel (default 2)
//!   -v, --verbose        print every non-passing subtest
//! ```
//!
//! Exit status: 0 when every result matches the expectations (or after `--update`), 1 on a
//! mismatch, 2 on a usage or setup error. The last line is `N passed, M failed`: N subtests
//! matched their expectation, M mismatches.

mod child;
#[cfg(test)]
mod child_tests;
mod corpus;
mod discover;
mod expectations;
mod limits;
mod meta;
mod pool;
mod report;
mod results;

use std::path::{Path, PathBuf};
use std::time::Instant;

use expectations::{compare, update, Expectations};
use report::{RunReport, Skipped, Totals};
use results::{FileResult, HarnessStatus};

struct Args {
    filters: Vec<String>,
    json: PathBuf,
    summary: PathBuf,
    expectations: PathBuf,
    corpus: PathBuf,
    update: bool,
    no_fast_paths: bool,
    jobs: usize,
    verbose: bool,
}

/// The repository the defaults refer to: the current directory or its nearest ancestor that
/// holds `wpt/pin.txt` (so a binary built from another checkout sharing the target dir still
/// uses the invoking checkout), else the checkout this binary was built from.
fn repo_root() -> PathBuf {
    if let Ok(cwd) = std::env::current_dir() {
        if let Some(root) = cwd.ancestors().find(|d| d.join("wpt/pin.txt").is_file()) {
            return root.to_path_buf();
        }
    }
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(manifest).to_path_buf()
}

const USAGE: &str = "usage: wpt-runner [--json PATH] [--summary PATH] [--expectations PATH] \
[--corpus DIR] [--update] [--no-fast-paths] [-j N] [-v] [FILTER...]";

fn parse_args(raw: Vec<String>) -> Result<Args, String> {
    let root = repo_root();
    let mut args = Args {
        filters: Vec::new(),
        json: root.join("wpt/results/latest.json"),
        summary: root.join("wpt/results/summary.md"),
        expectations: root.join("wpt/expectations.json"),
        corpus: root.join("third_party/wpt"),
        update: false,
        no_fast_paths: false,
        jobs: 2,
        verbose: false,
    };
    let mut it = raw.into_iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--json" => args.json = value("--json")?.into(),
            "--summary" => args.summary = value("--summary")?.into(),
            "--expectations" => args.expectations = value("--expectations")?.into(),
            "--corpus" => args.corpus = value("--corpus")?.into(),
            "--update" => args.update = true,
            "--no-fast-paths" => args.no_fast_paths = true,
            "-v" | "--verbose" => args.verbose = true,
            "-j" | "--jobs" => {
                let v = value("--jobs")?;
                args.jobs = v
                    .parse()
                    .ok()
                    .filter(|n| *n > 0)
                    .ok_or_else(|| format!("bad --jobs value {v:?}"))?;
            }
            "-h" | "--help" => return Err(USAGE.to_owned()),
            s if s.starts_with('-') => return Err(format!("unknown option {s}\n{USAGE}")),
            _ => args.filters.push(arg),
        }
    }
    Ok(args)
}

fn main() {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    // Hidden child mode: `--child FILE --corpus DIR`.
    if raw.first().map(String::as_str) == Some("--child") {
        let file = raw.get(1).cloned().unwrap_or_default();
        let corpus = match (raw.get(2).map(String::as_str), raw.get(3)) {
            (Some("--corpus"), Some(dir)) => PathBuf::from(dir),
            _ => repo_root().join("third_party/wpt"),
        };
        std::process::exit(child::child_main(&corpus, &file));
    }
    let args = match parse_args(raw) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    match run(&args) {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("wpt-runner: error: {e}");
            std::process::exit(2);
        }
    }
}

fn write_file(path: &Path, text: &str) -> Result<(), String> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn run(args: &Args) -> Result<i32, String> {
    let started = Instant::now();
    let root = repo_root();

    // 1. The corpus must be the pinned one.
    let pin_path = root.join("wpt/pin.txt");
    let pin = std::fs::read_to_string(&pin_path)
        .map_err(|e| format!("cannot read {}: {e}", pin_path.display()))?;
    let pinned = corpus::check(&args.corpus, &pin)?;

    // 2. Discover and filter.
    let discovered = discover::discover(&args.corpus)
        .map_err(|e| format!("cannot list {}: {e}", args.corpus.display()))?;
    let selected = |path: &str| {
        args.filters.is_empty()
            || args
                .filters
                .iter()
                .any(|f| discover::matches_filter(f, path))
    };
    let mut to_run = Vec::new();
    let mut skipped = Vec::new();
    for d in discovered.iter().filter(|d| selected(&d.path)) {
        let skip = d.skip.clone().or_else(|| {
            let (file, _) = meta::split_variant(&d.path);
            let source = std::fs::read_to_string(args.corpus.join(file)).ok()?;
            if meta::Meta::parse(&source).runs_in_shell() {
                None
            } else {
                Some("META global= names only ShadowRealm scopes".to_owned())
            }
        });
        match skip {
            Some(reason) => skipped.push(Skipped {
                path: d.path.clone(),
                reason,
            }),
            None => to_run.push(d.path.clone()),
        }
    }
    if to_run.is_empty() {
        return Err(if args.filters.is_empty() {
            format!("no test file found under {}", args.corpus.display())
        } else {
            format!("no test file matches {:?}", args.filters)
        });
    }

    let expectations = match std::fs::read_to_string(&args.expectations) {
        Ok(text) => Expectations::from_json(&text)
            .map_err(|e| format!("{}: {e}", args.expectations.display()))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Expectations::default(),
        Err(e) => return Err(format!("cannot read {}: {e}", args.expectations.display())),
    };

    println!(
        "wpt-runner: {} files to run, {} skipped ({} pinned corpus files, fast paths {}, {} jobs)",
        to_run.len(),
        skipped.len(),
        pinned,
        if args.no_fast_paths { "off" } else { "on" },
        args.jobs
    );

    // 3. Run.
    // `/proc/self/exe` names the running binary even if a rebuild replaced the file on disk.
    let proc_exe = Path::new("/proc/self/exe");
    let exe = if proc_exe.exists() {
        proc_exe.to_path_buf()
    } else {
        std::env::current_exe().map_err(|e| format!("cannot find own executable: {e}"))?
    };
    let options = pool::PoolOptions {
        exe,
        corpus: args.corpus.clone(),
        jobs: args.jobs,
        no_fast_paths: args.no_fast_paths,
        limit: None,
        cpu_limit: None,
    };
    let width = to_run.len().to_string().len();
    let progress = |n: usize, total: usize, r: &FileResult| {
        println!(
            "[{n:>width$}/{total}] {:<7} {:>4}/{:<4} {:>6}ms  {}",
            r.harness.as_str(),
            r.passed(),
            r.subtests.len(),
            r.duration_ms,
            r.path
        );
        if args.verbose {
            if let Some(m) = &r.message {
                println!("          harness: {}", results::truncate(m, 400));
            }
            for s in r
                .subtests
                .iter()
                .filter(|s| s.status != results::SubtestStatus::Pass)
            {
                println!("          {} {}", s.status.as_str(), s.name);
            }
        }
    };
    let results = pool::run_all(&options, &to_run, &progress);

    // 4. Compare, report.
    let comparison = compare(&expectations, &results, &selected);
    let elapsed_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    let mismatch_texts: Vec<String> = comparison
        .mismatches
        .iter()
        .map(|m| m.to_string())
        .collect();
    let totals = Totals {
        files: results.len(),
        skipped: skipped.len(),
        harness_ok: results
            .iter()
            .filter(|r| r.harness == HarnessStatus::Ok)
            .count(),
        subtests: results.iter().map(|r| r.subtests.len()).sum(),
        passed: results.iter().map(FileResult::passed).sum(),
        matched: comparison.matched,
        mismatches: comparison.mismatches.len(),
    };
    let run_report = RunReport {
        fast_paths: !args.no_fast_paths,
        filters: &args.filters,
        elapsed_ms,
        totals,
        mismatches: mismatch_texts.clone(),
        files: &results,
        skipped: &skipped,
    };
    let json = serde_json::to_string_pretty(&run_report).map_err(|e| e.to_string())?;
    write_file(&args.json, &(json + "\n"))?;

    let heading = format!(
        "# WPT results ({} fast paths{})",
        if args.no_fast_paths {
            "without"
        } else {
            "with"
        },
        if args.filters.is_empty() {
            String::new()
        } else {
            format!(", filter {}", args.filters.join(" "))
        }
    );
    let summary = report::summary_markdown(&results, &skipped, &comparison, &heading);
    write_file(&args.summary, &summary)?;

    println!();
    print!("{summary}");
    println!();
    for note in &comparison.notes {
        println!("note: {note}");
    }
    let totals = &run_report.totals;
    println!(
        "{} files ({} harness OK, {} skipped), {}/{} subtests passed, in {:.1}s",
        totals.files,
        totals.harness_ok,
        totals.skipped,
        totals.passed,
        totals.subtests,
        elapsed_ms as f64 / 1000.0
    );
    println!(
        "results: {}  summary: {}",
        args.json.display(),
        args.summary.display()
    );

    if args.update {
        let updated = update(&expectations, &results, &selected);
        for (path, new) in &updated.files {
            if let Some(old) = expectations.files.get(path) {
                if new.min_subtests < old.min_subtests {
                    println!(
                        "note: {path}: min_subtests lowered from {} to {}",
                        old.min_subtests, new.min_subtests
                    );
                }
            }
        }
        write_file(&args.expectations, &updated.to_json())?;
        let after = compare(&updated, &results, &selected);
        println!(
            "updated {} ({} mismatches before, {} after; {} files with entries)",
            args.expectations.display(),
            comparison.mismatches.len(),
            after.mismatches.len(),
            updated.files.len()
        );
        println!(
            "{} passed, {} failed",
            after.matched,
            after.mismatches.len()
        );
        return Ok(if after.mismatches.is_empty() { 0 } else { 1 });
    }

    if !mismatch_texts.is_empty() {
        println!("\nMismatches against {}:", args.expectations.display());
        for m in &mismatch_texts {
            println!("  {m}");
        }
        println!("(run with --update to accept the current results)");
    }
    println!(
        "{} passed, {} failed",
        comparison.matched,
        comparison.mismatches.len()
    );
    Ok(if comparison.mismatches.is_empty() {
        0
    } else {
        1
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_options_and_filters() {
        let a = parse_args(
            [
                "--update",
                "-j",
                "3",
                "streams/piping",
                "--no-fast-paths",
                "--json",
                "/tmp/x.json",
            ]
            .map(String::from)
            .to_vec(),
        )
        .unwrap();
        assert!(a.update && a.no_fast_paths);
        assert_eq!(a.jobs, 3);
        assert_eq!(a.filters, vec!["streams/piping"]);
        assert_eq!(a.json, PathBuf::from("/tmp/x.json"));
        assert!(parse_args(vec!["--jobs".into(), "0".into()]).is_err());
        assert!(parse_args(vec!["--bogus".into()]).is_err());
        assert!(parse_args(vec!["--json".into()]).is_err());
    }
}
