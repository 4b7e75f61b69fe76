//! `compile-campaign`: compiles every `.js`/`.mjs`/`.cjs` file under the given directories
//! (an `npm install`ed tree: `scripts/npm-compile-campaign`) with the engine the workspace
//! builds, nothing evaluated, and reports any file that makes the engine panic, crash or hang.
//! Source text must never do that: the parser and the bytecompiler turn every inconsistency
//! into a SyntaxError or a RangeError (issue 34).
//!
//! ```text
//! compile-campaign [OPTIONS] DIR...
//!   --json PATH        results (default wpt/results/compile-campaign.json)
//!   -j, --jobs N       child processes (default 2)
//!   --timeout SECS     wall-clock seconds one file may take (default 60)
//!   --max-bytes N      skip files larger than N bytes (default 8 MiB)
//!   --fuzz N           instead of the files themselves, compile N mutants of them
//!   --seed S           the fuzzer's seed (default 1)
//!   --save DIR         write each mutant that is a finding to DIR (fuzz mode)
//! ```
//!
//! Each file is compiled in a child process (`compile-campaign --child`, one request per line
//! on stdin, one answer per line on stdout) so that a crash (a stack overflow aborts the
//! process) is recorded against its file and the run goes on with a new child.
//!
//! Exit status: 0 when no file is a finding (panic, crash, timeout), 1 otherwise, 2 on a usage
//! or setup error.

mod compile;
mod fuzz;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use compile::{cut, Answer, Compiler, Goal, Request, Status};
use serde::Serialize;

/// Marks the child's answer lines on stdout.
const ANSWER_MARKER: &str = "@@campaign ";
/// The stack of the child's compiling thread: the host's (`boa_streams_host::LARGE_STACK_SIZE`).
const CHILD_STACK: usize = boa_streams_host::LARGE_STACK_SIZE;
/// A child is replaced after this many files.
const RECYCLE_AFTER: usize = 2000;
/// The fuzzer mutates files up to this size (larger ones are cut to it).
const FUZZ_MAX_BYTES: usize = 64 * 1024;
/// How much of a crashed child's stderr is kept.
const STDERR_TAIL: usize = 600;

struct Args {
    dirs: Vec<PathBuf>,
    json: PathBuf,
    jobs: usize,
    timeout: Duration,
    max_bytes: u64,
    fuzz: Option<usize>,
    seed: u64,
    save: Option<PathBuf>,
}

const USAGE: &str = "usage: compile-campaign [--json PATH] [-j N] [--timeout SECS] \
[--max-bytes N] [--fuzz N [--seed S] [--save DIR]] DIR...";

fn parse_args(raw: Vec<String>) -> Result<Args, String> {
    let mut args = Args {
        dirs: Vec::new(),
        json: PathBuf::from("wpt/results/compile-campaign.json"),
        jobs: 2,
        timeout: Duration::from_secs(60),
        max_bytes: 8 * 1024 * 1024,
        fuzz: None,
        seed: 1,
        save: None,
    };
    let mut it = raw.into_iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--json" => args.json = PathBuf::from(value("--json")?),
            "-j" | "--jobs" => args.jobs = number(&value("--jobs")?)?.max(1),
            "--timeout" => args.timeout = Duration::from_secs(number(&value("--timeout")?)? as u64),
            "--max-bytes" => args.max_bytes = number(&value("--max-bytes")?)? as u64,
            "--fuzz" => args.fuzz = Some(number(&value("--fuzz")?)?),
            "--seed" => args.seed = number(&value("--seed")?)? as u64,
            "--save" => args.save = Some(PathBuf::from(value("--save")?)),
            "-h" | "--help" => return Err(USAGE.to_owned()),
            other if other.starts_with('-') => {
                return Err(format!("unknown option {other}\n{USAGE}"))
            }
            dir => args.dirs.push(PathBuf::from(dir)),
        }
    }
    if args.dirs.is_empty() {
        return Err(format!("no directory given\n{USAGE}"));
    }
    Ok(args)
}

fn number(text: &str) -> Result<usize, String> {
    text.parse().map_err(|_| format!("not a number: {text}"))
}

fn main() {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    if raw.first().map(String::as_str) == Some("--child") {
        std::process::exit(child());
    }
    let code = match parse_args(raw) {
        Ok(args) => match run(&args) {
            Ok(code) => code,
            Err(e) => {
                eprintln!("compile-campaign: {e}");
                2
            }
        },
        Err(e) => {
            eprintln!("compile-campaign: {e}");
            2
        }
    };
    std::process::exit(code);
}

/// The child: answers each request line on a thread with the host's stack.
fn child() -> i32 {
    let worker = std::thread::Builder::new()
        .name("compile".into())
        .stack_size(CHILD_STACK)
        .spawn(|| {
            compile::install_quiet_panic_hook();
            let mut compiler = Compiler::new();
            let stdin = std::io::stdin();
            let mut stdout = std::io::stdout();
            for line in stdin.lock().lines() {
                let Ok(line) = line else { break };
                let answer = match serde_json::from_str::<Request>(&line) {
                    Ok(request) => answer(&mut compiler, &request),
                    Err(e) => Answer {
                        status: Status::Error,
                        detail: format!("bad request: {e}"),
                    },
                };
                let Ok(json) = serde_json::to_string(&answer) else {
                    break;
                };
                if writeln!(stdout, "{ANSWER_MARKER}{json}")
                    .and_then(|()| stdout.flush())
                    .is_err()
                {
                    break;
                }
            }
        });
    match worker.map(|handle| handle.join()) {
        Ok(Ok(())) => 0,
        _ => 3,
    }
}

fn answer(compiler: &mut Compiler, request: &Request) -> Answer {
    match &request.source {
        Some(source) => compiler.compile(source, request.goal),
        None => match std::fs::read(&request.path) {
            // Files that are not UTF-8 are compiled lossily (the engine reads UTF-8).
            Ok(bytes) => compiler.compile(&String::from_utf8_lossy(&bytes), request.goal),
            Err(e) => Answer {
                status: Status::Error,
                detail: format!("cannot read: {e}"),
            },
        },
    }
}

/// A running child.
struct Worker {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stderr: Arc<Mutex<String>>,
    served: usize,
}

impl Worker {
    fn spawn() -> Result<Worker, String> {
        let exe = std::env::current_exe().map_err(|e| format!("no executable path: {e}"))?;
        let mut child = Command::new(exe)
            .arg("--child")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .env("RUST_BACKTRACE", "0")
            .spawn()
            .map_err(|e| format!("cannot start a child: {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin pipe")?;
        let stdout = child.stdout.take().ok_or("no stdout pipe")?;
        let mut stderr_pipe = child.stderr.take().ok_or("no stderr pipe")?;
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if let Some(json) = line.strip_prefix(ANSWER_MARKER) {
                    if tx.send(json.to_owned()).is_err() {
                        break;
                    }
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let sink = stderr.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stderr_pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                if let Ok(mut text) = sink.lock() {
                    text.push_str(&String::from_utf8_lossy(buf.get(..n).unwrap_or_default()));
                    if text.len() > 4 * STDERR_TAIL {
                        let keep = text.len() - STDERR_TAIL;
                        let len = text.len();
                        let at = (keep..len).find(|&i| text.is_char_boundary(i));
                        *text = text.split_off(at.unwrap_or(len));
                    }
                }
            }
        });
        Ok(Worker {
            child,
            stdin,
            lines,
            stderr,
            served: 0,
        })
    }

    fn kill(&mut self) -> String {
        let _ = self.child.kill();
        let status = self.child.wait().ok();
        // Give the stderr reader a moment to take the last of it.
        std::thread::sleep(Duration::from_millis(20));
        let tail = self.stderr.lock().map(|s| s.clone()).unwrap_or_default();
        let status = status.map(|s| s.to_string()).unwrap_or_default();
        cut(
            &format!("{status}: {}", tail.trim().replace('\n', " | ")),
            400,
        )
    }
}

/// One unit of work and its result.
#[derive(Debug, Clone, Serialize)]
struct Outcome {
    path: String,
    status: Status,
    #[serde(skip_serializing_if = "String::is_empty")]
    detail: String,
    millis: u128,
    #[serde(skip)]
    source: Option<String>,
}

type Requests = Box<dyn Iterator<Item = Request> + Send>;

fn run_pool(
    requests: Requests,
    total: usize,
    jobs: usize,
    timeout: Duration,
) -> Result<Vec<Outcome>, String> {
    let queue = Arc::new(Mutex::new(requests));
    let results = Arc::new(Mutex::new(Vec::with_capacity(total)));
    let started = Instant::now();
    let mut threads = Vec::new();
    for _ in 0..jobs {
        let queue = queue.clone();
        let results = results.clone();
        threads.push(std::thread::spawn(move || -> Result<(), String> {
            let mut worker: Option<Worker> = None;
            loop {
                let next = queue.lock().map_err(|_| "queue poisoned")?.next();
                let Some(request) = next else { break };
                let mut current = match worker.take() {
                    Some(w) if w.served < RECYCLE_AFTER => w,
                    Some(mut old) => {
                        let _ = old.kill();
                        Worker::spawn()?
                    }
                    None => Worker::spawn()?,
                };
                let line = serde_json::to_string(&request).map_err(|e| e.to_string())?;
                let begin = Instant::now();
                let sent = writeln!(current.stdin, "{line}").and_then(|()| current.stdin.flush());
                let (status, detail, alive) = if sent.is_err() {
                    (Status::Crash, current.kill(), false)
                } else {
                    match current.lines.recv_timeout(timeout) {
                        Ok(json) => match serde_json::from_str::<Answer>(&json) {
                            Ok(a) => (a.status, a.detail, true),
                            Err(e) => (Status::Error, format!("bad answer: {e}"), true),
                        },
                        Err(RecvTimeoutError::Timeout) => (Status::Timeout, current.kill(), false),
                        Err(RecvTimeoutError::Disconnected) => {
                            (Status::Crash, current.kill(), false)
                        }
                    }
                };
                if alive {
                    current.served += 1;
                    worker = Some(current);
                }
                let outcome = Outcome {
                    path: request.path,
                    status,
                    detail,
                    millis: begin.elapsed().as_millis(),
                    // Only a finding's mutant is kept (to be saved).
                    source: request.source.filter(|_| status.is_finding()),
                };
                let mut all = results.lock().map_err(|_| "results poisoned")?;
                all.push(outcome);
                let done = all.len();
                if done % 2000 == 0 || done == total {
                    eprintln!(
                        "compile-campaign: {done}/{total} ({:.0} s)",
                        started.elapsed().as_secs_f64()
                    );
                }
            }
            if let Some(mut w) = worker {
                let _ = w.kill();
            }
            Ok(())
        }));
    }
    for thread in threads {
        thread.join().map_err(|_| "a pool thread panicked")??;
    }
    let mut all = Arc::try_unwrap(results)
        .map_err(|_| "results still shared")?
        .into_inner()
        .map_err(|_| "results poisoned")?;
    all.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(all)
}

/// Every `.js`, `.mjs` and `.cjs` file under `dir` (symbolic links not followed), sorted.
fn collect(dir: &Path, max_bytes: u64, out: &mut Vec<PathBuf>, skipped: &mut usize) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let path = entry.path();
        if kind.is_dir() {
            collect(&path, max_bytes, out, skipped);
        } else if kind.is_file() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if [".js", ".mjs", ".cjs"]
                .iter()
                .any(|ext| name.ends_with(ext))
            {
                match entry.metadata() {
                    Ok(meta) if meta.len() <= max_bytes => out.push(path),
                    _ => *skipped += 1,
                }
            }
        }
    }
}

#[derive(Serialize)]
struct Report<'a> {
    mode: &'a str,
    dirs: Vec<String>,
    files: usize,
    packages: usize,
    skipped_over_size: usize,
    seconds: f64,
    totals: BTreeMap<String, usize>,
    /// Every file that is not compiled (syntax errors, errors and findings).
    not_ok: Vec<&'a Outcome>,
}

fn run(args: &Args) -> Result<i32, String> {
    let started = Instant::now();
    let mut files = Vec::new();
    let mut skipped = 0;
    for dir in &args.dirs {
        if !dir.is_dir() {
            return Err(format!("not a directory: {}", dir.display()));
        }
        collect(dir, args.max_bytes, &mut files, &mut skipped);
    }
    if files.is_empty() {
        return Err("no .js/.mjs/.cjs files found".to_owned());
    }
    let packages = files
        .iter()
        .filter_map(|f| package_of(f))
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    let (mode, total, requests): (&str, usize, Requests) = match args.fuzz {
        None => {
            let list: Vec<Request> = files
                .iter()
                .map(|f| {
                    let path = f.to_string_lossy().into_owned();
                    Request {
                        goal: Goal::of_path(&path),
                        path,
                        source: None,
                    }
                })
                .collect();
            ("files", list.len(), Box::new(list.into_iter()))
        }
        Some(n) => (
            "fuzz",
            n,
            Box::new(fuzz::Mutants::new(
                files.clone(),
                n,
                args.seed,
                FUZZ_MAX_BYTES,
            )),
        ),
    };
    eprintln!(
        "compile-campaign: {} {} from {} files of {} packages, {} jobs",
        total,
        if mode == "fuzz" { "mutants" } else { "files" },
        files.len(),
        packages,
        args.jobs
    );
    let outcomes = run_pool(requests, total, args.jobs, args.timeout)?;
    let mut totals = BTreeMap::new();
    for o in &outcomes {
        let key = serde_json::to_value(o.status)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        *totals.entry(key).or_insert(0) += 1;
    }
    let not_ok: Vec<&Outcome> = outcomes
        .iter()
        .filter(|o| !matches!(o.status, Status::OkScript | Status::OkModule))
        .collect();
    let findings: Vec<&Outcome> = outcomes.iter().filter(|o| o.status.is_finding()).collect();
    if let Some(dir) = &args.save {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for (i, finding) in findings.iter().enumerate() {
            if let Some(source) = &finding.source {
                let file = dir.join(format!("finding-{i}.js"));
                std::fs::write(&file, source).map_err(|e| format!("{}: {e}", file.display()))?;
            }
        }
    }
    let report = Report {
        mode,
        dirs: args.dirs.iter().map(|d| d.display().to_string()).collect(),
        files: files.len(),
        packages,
        skipped_over_size: skipped,
        seconds: started.elapsed().as_secs_f64(),
        totals: totals.clone(),
        not_ok,
    };
    let json = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
    if let Some(parent) = args.json.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    std::fs::write(&args.json, json).map_err(|e| format!("{}: {e}", args.json.display()))?;
    println!(
        "{} {} in {:.0} s: {}",
        outcomes.len(),
        if mode == "fuzz" { "mutants" } else { "files" },
        started.elapsed().as_secs_f64(),
        totals
            .iter()
            .map(|(k, v)| format!("{v} {k}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    for f in &findings {
        println!("FINDING {:?} {}: {}", f.status, f.path, f.detail);
    }
    println!("results: {}", args.json.display());
    Ok(if findings.is_empty() { 0 } else { 1 })
}

/// The package a file belongs to: the path component(s) after the last `node_modules`.
fn package_of(path: &Path) -> Option<String> {
    let parts: Vec<String> = path
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let at = parts.iter().rposition(|p| p == "node_modules")?;
    let first = parts.get(at + 1)?;
    if first.starts_with('@') {
        Some(format!("{first}/{}", parts.get(at + 2)?))
    } else {
        Some(first.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packages_are_named_from_the_last_node_modules() {
        let p = Path::new("/x/node_modules/a/node_modules/@s/b/lib/c.js");
        assert_eq!(package_of(p).as_deref(), Some("@s/b"));
        assert_eq!(
            package_of(Path::new("/x/node_modules/q/i.js")).as_deref(),
            Some("q")
        );
        assert_eq!(package_of(Path::new("/x/y.js")), None);
    }

    #[test]
    fn options_parse() {
        let args = parse_args(
            ["--fuzz", "10", "--seed", "7", "-j", "1", "d"]
                .iter()
                .map(|s| s.to_string())
                .collect(),
        )
        .ok();
        let args = args.as_ref();
        assert_eq!(args.and_then(|a| a.fuzz), Some(10));
        assert_eq!(args.map(|a| a.seed), Some(7));
        assert_eq!(args.map(|a| a.dirs.len()), Some(1));
        assert!(parse_args(vec![]).is_err());
        assert!(parse_args(vec!["--bogus".into()]).is_err());
    }
}
