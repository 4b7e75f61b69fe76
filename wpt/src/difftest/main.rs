//! `difftest`: runs JS programs against the WHATWG reference implementation and against
//! boa_streams (fast paths on and off) in the same host and compares their logs line by line.
//! See wpt/difftest/README.md.
//!
//! ```text
//! difftest [OPTIONS] [FILES...]
//!   FILES              run these programs only (no corpus, no campaign)
//!   --corpus DIR       corpus directory (default wpt/difftest/corpus)
//!   --pending          also run wpt/difftest/pending/*.js (known differences) and report
//!                      which now pass
//!   --seeds N          campaign size (default DEFAULT_SEEDS; 0 = no campaign)
//!   --from S           first campaign seed (default DEFAULT_FROM)
//!   --jobs J           worker threads (default 2)
//!   --no-slow          skip the fast-paths-off run
//!   --no-corpus        skip the corpus
//!   --refimpl PATH     the reference implementation (default ../shared/refimpl/...; also
//!                      $DIFFTEST_REFIMPL)
//!   --save-pending     save shrunk campaign differences to wpt/difftest/pending/gen-<seed>.js
//!   --save-to DIR      save them to DIR/gen-<seed>.js instead
//!   --without LIST     leave op families out of generated programs (pipe, from): to look
//!                      past known differences
//!   --no-shrink        report campaign differences as found in the batch (no fresh
//!                      confirmation, no shrinking): for long counting runs
//!   --show SEED        print the program of one seed and exit
//!   --print-logs       print every log of the FILES (or corpus) runs
//!   --rules            print the comparator rules and exit
//! ```
//! Exit status: 0 when no corpus program and no campaign seed differs, 1 otherwise, 2 on a
//! usage or setup error.

mod campaign;
mod compare;
mod gen;
mod native;
mod oracle;
mod rng;
mod run;
mod shrink;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use run::{Log, Mode, Runner};

/// Seeds the default invocation (CI) runs: sized to about two minutes on two cores in a
/// debug build.
pub const DEFAULT_SEEDS: u64 = 5000;
/// The first seed of the default campaign.
pub const DEFAULT_FROM: u64 = 1;

pub struct Args {
    pub files: Vec<PathBuf>,
    pub corpus: Option<PathBuf>,
    pub pending: bool,
    pub seeds: u64,
    pub from: u64,
    pub jobs: usize,
    pub slow: bool,
    pub refimpl: Option<PathBuf>,
    pub save_pending: bool,
    pub show: Option<u64>,
    pub no_corpus: bool,
    pub print_logs: bool,
    pub save_to: Option<PathBuf>,
    pub no_shrink: bool,
    pub without: gen::Without,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        files: Vec::new(),
        corpus: None,
        pending: false,
        seeds: DEFAULT_SEEDS,
        from: DEFAULT_FROM,
        jobs: 2,
        slow: true,
        refimpl: None,
        save_pending: false,
        show: None,
        no_corpus: false,
        print_logs: false,
        save_to: None,
        no_shrink: false,
        without: gen::Without::default(),
    };
    let mut it = std::env::args().skip(1);
    let num = |v: Option<String>, flag: &str| -> Result<u64, String> {
        v.and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("{flag} needs a number"))
    };
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--corpus" => a.corpus = Some(it.next().ok_or("--corpus needs a directory")?.into()),
            "--pending" => a.pending = true,
            "--seeds" => a.seeds = num(it.next(), "--seeds")?,
            "--from" => a.from = num(it.next(), "--from")?,
            "--jobs" | "-j" => a.jobs = num(it.next(), "--jobs")?.max(1) as usize,
            "--no-slow" => a.slow = false,
            "--no-corpus" => a.no_corpus = true,
            "--print-logs" => a.print_logs = true,
            "--rules" => {
                for r in compare::RULES {
                    println!("{}: {}\n", r.name, r.why);
                }
                println!(
                    "reference-self-check: a reference line exactly {:?} is dropped (see compare.rs)",
                    compare::REF_ASSERTION_LINE
                );
                println!(
                    "webidl2js-wrapper-probe: a reference line exactly `T.K get NAME.Symbol(wrapper)` is dropped (see compare.rs)"
                );
                std::process::exit(0);
            }
            "--refimpl" => a.refimpl = Some(it.next().ok_or("--refimpl needs a path")?.into()),
            "--save-pending" => a.save_pending = true,
            "--no-shrink" => a.no_shrink = true,
            "--without" => {
                a.without = gen::Without::parse(&it.next().ok_or("--without needs a list")?)?
            }
            "--save-to" => a.save_to = Some(it.next().ok_or("--save-to needs a directory")?.into()),
            "--show" => a.show = Some(num(it.next(), "--show")?),
            "-h" | "--help" => {
                println!("{}", HELP);
                std::process::exit(0);
            }
            f if f.starts_with('-') => return Err(format!("unknown option {f}")),
            _ => a.files.push(arg.into()),
        }
    }
    Ok(a)
}

const HELP: &str = "difftest [--corpus DIR] [--pending] [--seeds N] [--from S] [--jobs J] \
[--no-slow] [--no-corpus] [--refimpl PATH] [--save-pending] [--save-to DIR] [--no-shrink] [--without pipe,from] [--show SEED] [--print-logs]
[FILES...]
Runs programs against the WHATWG reference implementation and boa_streams (fast paths on and
off) and compares their logs; see wpt/difftest/README.md.";

/// The repository root: the current directory if it has wpt/difftest, else the one this
/// binary was built from.
pub fn repo_root() -> PathBuf {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    if cwd.join("wpt/difftest").is_dir() {
        return cwd;
    }
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or(cwd, Path::to_path_buf)
}

/// The modes to compare with the reference.
pub fn our_modes(slow: bool) -> Vec<Mode> {
    if slow {
        vec![Mode::Ours, Mode::OursSlow]
    } else {
        vec![Mode::Ours]
    }
}

/// A difference between the reference and one of our modes.
pub struct Difference {
    pub mode: Mode,
    pub at: usize,
    pub report: String,
}

/// Compare the reference log with each of ours.
pub fn differences(ref_log: &Log, ours: &[(Mode, Log)]) -> Vec<Difference> {
    ours.iter()
        .filter_map(|(mode, log)| {
            let at = compare::first_difference(ref_log, log)?;
            Some(Difference {
                mode: *mode,
                at,
                report: compare::render_difference(ref_log, log, at, "ref", mode.name()),
            })
        })
        .collect()
}

/// Run one program in fresh hosts in every mode.
pub fn run_program_fresh(
    oracle: &Arc<str>,
    modes: &[Mode],
    program: &str,
    name: &str,
    wrap: bool,
) -> (Log, Vec<(Mode, Log)>) {
    let ref_log = Runner::new(Mode::Ref, oracle.clone()).run_fresh(program, name, wrap);
    let ours = modes
        .iter()
        .map(|&m| {
            (
                m,
                Runner::new(m, oracle.clone()).run_fresh(program, name, wrap),
            )
        })
        .collect();
    (ref_log, ours)
}

fn js_files(dir: &Path, recursive: bool, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            if recursive {
                js_files(&p, true, out);
            }
        } else if p.extension().is_some_and(|e| e == "js") {
            out.push(p);
        }
    }
}

/// Outcome of running a list of files.
struct FileOutcome {
    path: PathBuf,
    differences: Vec<Difference>,
    program: String,
    logs: Vec<(Mode, Log)>,
}

/// Run files in fresh hosts on `jobs` large-stack threads.
fn run_files(
    oracle: &Arc<str>,
    files: Vec<PathBuf>,
    modes: &[Mode],
    jobs: usize,
) -> Vec<FileOutcome> {
    let queue = Arc::new(Mutex::new(
        files.into_iter().enumerate().collect::<Vec<_>>(),
    ));
    let results = Arc::new(Mutex::new(Vec::new()));
    let handles: Vec<_> = (0..jobs)
        .map(|_| {
            let queue = queue.clone();
            let results = results.clone();
            let oracle = oracle.clone();
            let modes = modes.to_vec();
            std::thread::spawn(move || {
                let r = boa_streams_host::run_with_large_stack(move || {
                    while let Some((i, path)) = queue.lock().ok().and_then(|mut q| q.pop()) {
                        let program = match std::fs::read_to_string(&path) {
                            Ok(p) => p,
                            Err(e) => format!("log('cannot read program', {:?});", e.to_string()),
                        };
                        let name = path.to_string_lossy().into_owned();
                        let (ref_log, ours) =
                            run_program_fresh(&oracle, &modes, &program, &name, false);
                        let differences = differences(&ref_log, &ours);
                        let mut logs = vec![(Mode::Ref, ref_log)];
                        logs.extend(ours);
                        if let Ok(mut r) = results.lock() {
                            r.push((
                                i,
                                FileOutcome {
                                    path,
                                    differences,
                                    program,
                                    logs,
                                },
                            ));
                        }
                    }
                });
                if let Err(e) = r {
                    eprintln!("difftest: a worker panicked: {e}");
                }
            })
        })
        .collect();
    for h in handles {
        let _ = h.join();
    }
    let mut results = std::mem::take(&mut *results.lock().unwrap_or_else(|e| e.into_inner()));
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}

fn print_file_difference(o: &FileOutcome) {
    for d in &o.differences {
        println!(
            "DIFFERENCE {} (ref vs {}): first differing line {}",
            o.path.display(),
            d.mode.name(),
            d.at
        );
        print!("{}", d.report);
    }
    if !o.differences.is_empty() {
        println!("  --- program");
        for line in o.program.lines() {
            println!("  | {line}");
        }
    }
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("difftest: {e}\n{HELP}");
            std::process::exit(2);
        }
    };
    if let Some(seed) = args.show {
        print!(
            "{}",
            gen::render(&gen::generate_without(seed, args.without))
        );
        return;
    }
    let root = repo_root();
    let refimpl = match run::find_refimpl(&root, args.refimpl.clone()) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("difftest: {e}");
            std::process::exit(2);
        }
    };
    let oracle: Arc<str> = match oracle::load(&refimpl) {
        Ok(t) => t.into(),
        Err(e) => {
            eprintln!("difftest: {e}");
            std::process::exit(2);
        }
    };
    if let Some(out) = std::env::var_os("DIFFTEST_WRITE_ORACLE") {
        // For investigation: the patched reference text, to run by hand with
        // `boa-streams --virtual-time` (see wpt/difftest/README.md).
        if let Err(e) = std::fs::write(&out, &*oracle) {
            eprintln!(
                "difftest: cannot write {}: {e}",
                PathBuf::from(&out).display()
            );
            std::process::exit(2);
        }
    }
    let modes = our_modes(args.slow);
    let mut failed = false;
    let start = Instant::now();

    let explicit = !args.files.is_empty();
    let mut files = args.files.clone();
    if !explicit && !args.no_corpus {
        let dir = args
            .corpus
            .clone()
            .unwrap_or_else(|| root.join("wpt/difftest/corpus"));
        js_files(&dir, true, &mut files);
    }
    if !files.is_empty() {
        let n = files.len();
        let t = Instant::now();
        let outcomes = run_files(&oracle, files, &modes, args.jobs);
        let differing = outcomes
            .iter()
            .filter(|o| !o.differences.is_empty())
            .count();
        for o in &outcomes {
            if args.print_logs {
                for (mode, log) in &o.logs {
                    println!("LOG {} {}", o.path.display(), mode.name());
                    for line in log {
                        println!("  {line}");
                    }
                }
            }
            print_file_difference(o);
        }
        println!(
            "difftest: {n} program(s), {differing} with differences ({:.1}s, {} runs each)",
            t.elapsed().as_secs_f64(),
            modes.len() + 1
        );
        failed |= differing > 0;
    }

    if args.pending {
        let mut pending = Vec::new();
        js_files(&root.join("wpt/difftest/pending"), false, &mut pending);
        let outcomes = run_files(&oracle, pending, &modes, args.jobs);
        for o in &outcomes {
            let status = if o.differences.is_empty() {
                "NOW PASSES".to_owned()
            } else {
                let d = &o.differences[0];
                format!("still differs (ref vs {} at line {})", d.mode.name(), d.at)
            };
            println!("pending {}: {status}", o.path.display());
        }
    }

    if !explicit && args.seeds > 0 {
        let summary = campaign::run(&campaign::Config {
            oracle: oracle.clone(),
            from: args.from,
            seeds: args.seeds,
            jobs: args.jobs,
            modes: modes.clone(),
            shrink: !args.no_shrink,
            without: args.without,
            save_pending: args
                .save_to
                .clone()
                .or_else(|| args.save_pending.then(|| root.join("wpt/difftest/pending"))),
        });
        failed |= summary.differing > 0;
        if summary.programs < args.seeds {
            eprintln!(
                "difftest: only {} of {} campaign programs ran",
                summary.programs, args.seeds
            );
            failed = true;
        }
    }
    println!("difftest: done in {:.1}s", start.elapsed().as_secs_f64());
    std::process::exit(i32::from(failed));
}
