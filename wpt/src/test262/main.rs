//! `test262`: runs the pinned ECMAScript conformance suite (test262) against the engine this
//! workspace builds (stock boa_engine 0.22, or the patched one `[patch.crates-io]` selects),
//! as test262's INTERPRETING.md says, and checks the CI subset against
//! `wpt/test262-expectations.json`.
//!
//! ```text
//! test262 [OPTIONS] [FILTER...]
//!   FILTER                 a path under test/ (`language/statements/class`) or a glob
//!                          (`built-ins/TypedArray*`; `*` stays in a path component, `**` not);
//!                          none: the CI subset named in the expectations file
//!   --all                  the whole suite (built-ins, language, annexB)
//!   --corpus DIR           the test262 checkout (default $TEST262_DIR, else ../shared/test262)
//!   --json PATH            results (default wpt/results/test262.json)
//!   --summary PATH         markdown summary (default wpt/results/test262-summary.md)
//!   --expectations PATH    (default wpt/test262-expectations.json)
//!   --write-expectations   rewrite the entries of the selected subset tests from this run
//!   --no-feature-skips     also run the tests of features the runner skips
//!   --timeout SECS         CPU seconds a test may spend (default 10; wall clock: 6 times that)
//!   -j, --jobs N           child processes (default 2)
//!   --progress N           a progress line every N tests (default 1000)
//!   --label TEXT           names the engine build in the results
//!   --compare A.json B.json  list regressions (passed in A, not in B) and fixes
//! ```
//!
//! Exit status: 0 when every checked test matches the expectations (and after
//! `--write-expectations`; for `--compare`: no regression), 1 on a mismatch, 2 on a usage or
//! setup error.

mod child;
mod discover;
mod expectations;
#[allow(dead_code)]
#[path = "../limits.rs"]
mod limits;
mod meta;
mod pool;
mod results;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use expectations::Expectations;
use meta::Meta;
use results::{RunFile, Status, TestResult, Totals};

struct Args {
    filters: Vec<String>,
    all: bool,
    corpus: PathBuf,
    json: PathBuf,
    summary: PathBuf,
    expectations: PathBuf,
    write_expectations: bool,
    no_feature_skips: bool,
    timeout: Duration,
    jobs: usize,
    progress: usize,
    label: String,
    compare: Option<(PathBuf, PathBuf)>,
}

const USAGE: &str = "usage: test262 [--all] [--corpus DIR] [--json PATH] [--summary PATH] \
[--expectations PATH] [--write-expectations] [--no-feature-skips] [--timeout SECS] [-j N] \
[--progress N] [--label TEXT] [FILTER...]\n       test262 --compare A.json B.json";

/// The repository the defaults refer to: the current directory or its nearest ancestor that
/// holds `wpt/pin.txt`, else the checkout this binary was built from.
fn repo_root() -> PathBuf {
    if let Ok(cwd) = std::env::current_dir() {
        if let Some(root) = cwd.ancestors().find(|d| d.join("wpt/pin.txt").is_file()) {
            return root.to_path_buf();
        }
    }
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(manifest).to_path_buf()
}

fn parse_args(raw: Vec<String>) -> Result<Args, String> {
    let root = repo_root();
    let mut args = Args {
        filters: Vec::new(),
        all: false,
        corpus: discover::default_corpus(&root),
        json: root.join("wpt/results/test262.json"),
        summary: root.join("wpt/results/test262-summary.md"),
        expectations: root.join("wpt/test262-expectations.json"),
        write_expectations: false,
        no_feature_skips: false,
        timeout: Duration::from_secs(10),
        jobs: 2,
        progress: 1000,
        label: String::new(),
        compare: None,
    };
    let mut it = raw.into_iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value"));
        let positive = |name: &str, v: String| {
            v.parse::<usize>()
                .ok()
                .filter(|n| *n > 0)
                .ok_or_else(|| format!("bad {name} value {v:?}"))
        };
        match arg.as_str() {
            "--all" => args.all = true,
            "--corpus" => args.corpus = value("--corpus")?.into(),
            "--json" => args.json = value("--json")?.into(),
            "--summary" => args.summary = value("--summary")?.into(),
            "--expectations" => args.expectations = value("--expectations")?.into(),
            "--write-expectations" => args.write_expectations = true,
            "--no-feature-skips" => args.no_feature_skips = true,
            "--timeout" => {
                let secs = positive("--timeout", value("--timeout")?)?;
                args.timeout = Duration::from_secs(secs as u64);
            }
            "-j" | "--jobs" => args.jobs = positive("--jobs", value("--jobs")?)?,
            "--progress" => args.progress = positive("--progress", value("--progress")?)?,
            "--label" => args.label = value("--label")?,
            "--compare" => {
                let a = value("--compare")?;
                let b = value("--compare")?;
                args.compare = Some((a.into(), b.into()));
            }
            "-h" | "--help" => return Err(USAGE.to_owned()),
            s if s.starts_with('-') => return Err(format!("unknown option {s}\n{USAGE}")),
            _ => args.filters.push(arg),
        }
    }
    if args.all && !args.filters.is_empty() {
        return Err("--all and filters exclude each other".to_owned());
    }
    Ok(args)
}

fn main() {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    // Child mode: `--child --corpus DIR`, requests on stdin.
    if raw.first().map(String::as_str) == Some("--child") {
        let corpus = match (raw.get(1).map(String::as_str), raw.get(2)) {
            (Some("--corpus"), Some(dir)) => PathBuf::from(dir),
            _ => discover::default_corpus(&repo_root()),
        };
        std::process::exit(child::child_main(&corpus));
    }
    let args = match parse_args(raw) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let outcome = match &args.compare {
        Some((a, b)) => compare_files(a, b),
        None => run(&args),
    };
    match outcome {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("test262: error: {e}");
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

fn read_run(path: &Path) -> Result<RunFile, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The results file: the header fields, then one test per line.
fn run_json(run: &RunFile) -> Result<String, String> {
    let header = serde_json::json!({
        "label": run.label,
        "test262": run.test262,
        "filters": run.filters,
        "elapsed_ms": run.elapsed_ms,
        "totals": run.totals,
    });
    let mut out = serde_json::to_string(&header).map_err(|e| e.to_string())?;
    out.pop(); // the closing brace
    out.push_str(",\"tests\":[");
    for (i, t) in run.tests.iter().enumerate() {
        out.push_str(if i == 0 { "\n" } else { ",\n" });
        out.push_str(&serde_json::to_string(t).map_err(|e| e.to_string())?);
    }
    out.push_str("\n]}\n");
    Ok(out)
}

fn totals_line(t: &Totals) -> String {
    format!(
        "{} pass, {} fail, {} timeout, {} crash, {} skip ({:.1}% of {} run)",
        t.pass,
        t.fail,
        t.timeout,
        t.crash,
        t.skip,
        t.pass_rate(),
        t.ran()
    )
}

fn compare_files(a: &Path, b: &Path) -> Result<i32, String> {
    let (ra, rb) = (read_run(a)?, read_run(b)?);
    println!("A: {} {}", a.display(), label(&ra));
    println!("   {}", totals_line(&ra.totals));
    println!("B: {} {}", b.display(), label(&rb));
    println!("   {}", totals_line(&rb.totals));
    let diff = results::compare(&ra, &rb);
    println!(
        "\nregressions (passed in A, not in B): {}",
        diff.regressions.len()
    );
    for (path, mode, status, message) in &diff.regressions {
        print!("  {path} [{}]: pass -> {}", mode.as_str(), status.as_str());
        match message {
            Some(m) => println!(": {}", child::cut(m, 200)),
            None => println!(),
        }
    }
    println!("\nfixes (failed in A, passed in B): {}", diff.fixes.len());
    for (path, mode, status) in &diff.fixes {
        println!("  {path} [{}]: {} -> pass", mode.as_str(), status.as_str());
    }
    println!(
        "\nnewly passing (not run in A, passed in B): {}",
        diff.newly_passing.len()
    );
    for (path, mode) in &diff.newly_passing {
        println!("  {path} [{}]", mode.as_str());
    }
    Ok(if diff.regressions.is_empty() { 0 } else { 1 })
}

fn label(run: &RunFile) -> String {
    if run.label.is_empty() {
        String::new()
    } else {
        format!("({})", run.label)
    }
}

fn run(args: &Args) -> Result<i32, String> {
    let started = Instant::now();
    if !args.corpus.join("harness/assert.js").is_file() {
        return Err(format!(
            "no test262 corpus at {} (set TEST262_DIR or --corpus)",
            args.corpus.display()
        ));
    }
    let mut expectations = match std::fs::read_to_string(&args.expectations) {
        Ok(text) => Expectations::from_json(&text)
            .map_err(|e| format!("{}: {e}", args.expectations.display()))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Expectations::default(),
        Err(e) => return Err(format!("cannot read {}: {e}", args.expectations.display())),
    };
    if args.write_expectations && expectations.subset.is_empty() {
        // A new expectations file covers the filters it was written with.
        expectations.subset = args.filters.clone();
    }
    let filters: Vec<String> = if args.all {
        Vec::new()
    } else if args.filters.is_empty() {
        if expectations.subset.is_empty() {
            return Err(format!(
                "no filter given and {} names no subset (use --all or a filter)",
                args.expectations.display()
            ));
        }
        expectations.subset.clone()
    } else {
        args.filters.clone()
    };
    let selected = |path: &str| {
        filters.is_empty() || filters.iter().any(|f| discover::matches_filter(f, path))
    };

    let all = discover::discover(&args.corpus)
        .map_err(|e| format!("cannot list {}: {e}", args.corpus.display()))?;
    let tests_dir = args.corpus.join("test");
    let mut jobs = Vec::new();
    let mut done: Vec<TestResult> = Vec::new();
    let mut features_of: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for path in all.iter().filter(|p| selected(p)) {
        let source = std::fs::read_to_string(tests_dir.join(path)).unwrap_or_default();
        let meta = match Meta::parse(&source) {
            Ok(m) => m,
            Err(e) => {
                done.push(TestResult {
                    path: path.clone(),
                    mode: results::Mode::Sloppy,
                    status: Status::Fail,
                    message: Some(format!("bad frontmatter: {e}")),
                    ms: 0,
                });
                continue;
            }
        };
        let skip = discover::skip_reason(&meta, &source, !args.no_feature_skips);
        for mode in discover::modes(&meta) {
            match &skip {
                Some(why) => done.push(TestResult {
                    path: path.clone(),
                    mode,
                    status: Status::Skip,
                    message: Some(why.clone()),
                    ms: 0,
                }),
                None => jobs.push(pool::Job {
                    path: path.clone(),
                    mode,
                }),
            }
        }
        if !meta.features.is_empty() {
            features_of.insert(path.clone(), meta.features);
        }
    }
    if jobs.is_empty() && done.is_empty() {
        return Err(format!("no test matches {filters:?}"));
    }
    println!(
        "test262: {} runs of {} files, {} skipped, {} jobs, {}s CPU per test{}",
        jobs.len(),
        all.iter().filter(|p| selected(p)).count(),
        done.iter().filter(|r| r.status == Status::Skip).count(),
        args.jobs,
        args.timeout.as_secs(),
        if filters.is_empty() {
            String::new()
        } else {
            format!(", filter {}", filters.join(" "))
        }
    );

    // `/proc/self/exe` names the running binary even if a rebuild replaced the file.
    let proc_exe = Path::new("/proc/self/exe");
    let exe = if proc_exe.exists() {
        proc_exe.to_path_buf()
    } else {
        std::env::current_exe().map_err(|e| format!("cannot find own executable: {e}"))?
    };
    let options = pool::PoolOptions {
        exe,
        child_args: vec![
            "--corpus".to_owned(),
            args.corpus.to_string_lossy().into_owned(),
        ],
        jobs: args.jobs,
        cpu_limit: args.timeout,
        wall_limit: args.timeout * 6,
        recycle_after: 500,
    };
    let total = jobs.len();
    let running = std::sync::Mutex::new(Totals::default());
    let progress = |n: usize, r: &TestResult| {
        let mut t = running.lock().unwrap_or_else(|e| e.into_inner());
        t.add(r.status);
        if n.is_multiple_of(args.progress) || n == total {
            println!(
                "[{n}/{total}] {} pass, {} fail, {} timeout, {} crash ({:.0}s)",
                t.pass,
                t.fail,
                t.timeout,
                t.crash,
                started.elapsed().as_secs_f64()
            );
        }
    };
    let ran = pool::run_all(&options, &jobs, &progress);
    done.extend(ran);
    done.sort_by(|a, b| (&a.path, a.mode).cmp(&(&b.path, b.mode)));

    let run = RunFile {
        label: args.label.clone(),
        test262: discover::corpus_commit(&args.corpus),
        filters: filters.clone(),
        elapsed_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        totals: Totals::of(&done),
        tests: done,
    };
    write_file(&args.json, &run_json(&run)?)?;
    let mut summary = results::summary_markdown(&run);
    summary.push_str(&feature_table(&run.tests, &features_of));
    write_file(&args.summary, &summary)?;

    println!();
    for (dir, t) in results::by_directory(&run.tests, 1) {
        println!("{dir:<10} {}", totals_line(&t));
    }
    println!("{:<10} {}", "total", totals_line(&run.totals));
    println!(
        "in {:.1}s; results: {}  summary: {}",
        run.elapsed_ms as f64 / 1000.0,
        args.json.display(),
        args.summary.display()
    );

    check_expectations(args, &expectations, &run.tests, &selected)
}

/// Per feature: the runs of the tests declaring it (a test counts for each of its features).
fn feature_table(tests: &[TestResult], features_of: &BTreeMap<String, Vec<String>>) -> String {
    let mut by: BTreeMap<&str, Totals> = BTreeMap::new();
    for t in tests {
        for f in features_of.get(&t.path).into_iter().flatten() {
            by.entry(f.as_str()).or_default().add(t.status);
        }
    }
    let mut out = String::from(
        "\n## By feature (`features:`)\n\n| feature | pass | fail | timeout | crash | skip | pass rate |\n\
         | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    for (f, t) in by {
        out.push_str(&format!(
            "| {f} | {} | {} | {} | {} | {} | {:.1}% |\n",
            t.pass,
            t.fail,
            t.timeout,
            t.crash,
            t.skip,
            t.pass_rate()
        ));
    }
    out
}

fn check_expectations(
    args: &Args,
    expectations: &Expectations,
    tests: &[TestResult],
    selected: &dyn Fn(&str) -> bool,
) -> Result<i32, String> {
    if expectations.subset.is_empty() {
        println!(
            "no subset in {}: nothing checked",
            args.expectations.display()
        );
        return Ok(0);
    }
    let comparison = expectations::compare(expectations, tests, selected);
    for note in &comparison.notes {
        println!("note: {note}");
    }
    if args.write_expectations {
        let updated = expectations::update(expectations, tests, selected);
        write_file(&args.expectations, &updated.to_json())?;
        let after = expectations::compare(&updated, tests, selected);
        println!(
            "updated {} ({} mismatches before, {} after; {} files with entries)",
            args.expectations.display(),
            comparison.mismatches.len(),
            after.mismatches.len(),
            updated.tests.len()
        );
        println!(
            "{} passed, {} failed",
            after.matched,
            after.mismatches.len()
        );
        return Ok(if after.mismatches.is_empty() { 0 } else { 1 });
    }
    if !comparison.mismatches.is_empty() {
        println!("\nMismatches against {}:", args.expectations.display());
        for m in &comparison.mismatches {
            println!("  {m}");
        }
        println!("(run with --write-expectations to accept the current results)");
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
                "--write-expectations",
                "-j",
                "3",
                "language/statements/class",
                "--timeout",
                "20",
                "--label",
                "stock",
            ]
            .map(String::from)
            .to_vec(),
        )
        .unwrap();
        assert!(a.write_expectations && !a.all);
        assert_eq!(a.jobs, 3);
        assert_eq!(a.timeout, Duration::from_secs(20));
        assert_eq!(a.filters, vec!["language/statements/class"]);
        assert_eq!(a.label, "stock");
        let c = parse_args(["--compare", "a.json", "b.json"].map(String::from).to_vec()).unwrap();
        assert_eq!(c.compare, Some(("a.json".into(), "b.json".into())));
        assert!(parse_args(vec!["--jobs".into(), "0".into()]).is_err());
        assert!(parse_args(vec!["--bogus".into()]).is_err());
        assert!(parse_args(vec!["--compare".into(), "a".into()]).is_err());
        assert!(parse_args(vec!["--all".into(), "language".into()]).is_err());
    }

    #[test]
    fn the_results_file_reads_back() {
        let tests = vec![TestResult {
            path: "language/a.js".into(),
            mode: results::Mode::Strict,
            status: Status::Fail,
            message: Some("x\ny".into()),
            ms: 3,
        }];
        let run = RunFile {
            label: "stock".into(),
            test262: "abc".into(),
            filters: vec!["language".into()],
            elapsed_ms: 5,
            totals: Totals::of(&tests),
            tests,
        };
        let text = run_json(&run).unwrap();
        assert_eq!(text.lines().count(), 3, "{text}");
        let back: RunFile = serde_json::from_str(&text).unwrap();
        assert_eq!(back.tests, run.tests);
        assert_eq!(back.totals, run.totals);
        assert_eq!(back.label, "stock");
    }
}
