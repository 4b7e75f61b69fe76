//! The parent side: worker threads, each driving one child process (`test262 --child`) that
//! runs tests one at a time. The parent enforces each test's time limit (CPU time of the
//! child since the request, read from `/proc`, with a wall-clock backstop), kills a child that
//! passes it (`timeout`), records a child that dies as a `crash` of its current test, and
//! starts a new child for the next test. A child is also replaced after
//! [`PoolOptions::recycle_after`] tests, so nothing an engine leaks piles up.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::child::{cut, Outcome, RESULT_MARKER};
use super::results::{Mode, Status, TestResult};
use crate::limits;

/// How often the parent reads a running child's CPU time.
const CPU_CHECK_INTERVAL: Duration = Duration::from_millis(100);
/// How much of a child's stderr is kept for a crash report.
const STDERR_TAIL: usize = 2000;

pub struct PoolOptions {
    /// The executable to run with `--child` (tests substitute a script).
    pub exe: PathBuf,
    /// Arguments after `--child`.
    pub child_args: Vec<String>,
    pub jobs: usize,
    /// CPU time a test may spend (measured on the child from the request on).
    pub cpu_limit: Duration,
    /// Wall-clock time a test may take (the backstop for a child that waits without spending
    /// CPU, or where CPU time cannot be read).
    pub wall_limit: Duration,
    /// Tests a child runs before it is replaced.
    pub recycle_after: usize,
}

/// One test to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Job {
    pub path: String,
    pub mode: Mode,
}

/// A running child.
struct Worker {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stderr: Arc<Mutex<String>>,
    stderr_reader: Option<std::thread::JoinHandle<()>>,
    served: usize,
}

impl Worker {
    fn spawn(options: &PoolOptions) -> Result<Worker, String> {
        let mut child = Command::new(&options.exe)
            .arg("--child")
            .args(&options.child_args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .env("RUST_BACKTRACE", "0")
            .spawn()
            .map_err(|e| format!("cannot start the child process: {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin pipe")?;
        let stdout = child.stdout.take().ok_or("no stdout pipe")?;
        let mut stderr_pipe = child.stderr.take().ok_or("no stderr pipe")?;
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if let Some(json) = line.strip_prefix(RESULT_MARKER) {
                    if tx.send(json.to_owned()).is_err() {
                        break;
                    }
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let tail = stderr.clone();
        let stderr_reader = std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            loop {
                match stderr_pipe.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        let mut t = tail.lock().unwrap_or_else(|e| e.into_inner());
                        t.push_str(&String::from_utf8_lossy(buf.get(..n).unwrap_or_default()));
                        if t.len() > 2 * STDERR_TAIL {
                            let mut start = t.len() - STDERR_TAIL;
                            while !t.is_char_boundary(start) {
                                start += 1;
                            }
                            t.drain(..start);
                        }
                    }
                }
            }
        });
        Ok(Worker {
            child,
            stdin,
            lines,
            stderr,
            stderr_reader: Some(stderr_reader),
            served: 0,
        })
    }

    /// End the child: close its stdin, give it a moment, then kill it.
    fn finish(mut self) {
        drop(self.stdin);
        let deadline = Instant::now() + Duration::from_secs(2);
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) | Err(_) => break,
                Ok(None) if Instant::now() >= deadline => {
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    break;
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            }
        }
    }

    /// Kill the child now and return its stderr tail.
    fn kill(mut self) -> String {
        let _ = self.child.kill();
        let status = self.child.wait();
        drop(self.stdin);
        if let Some(reader) = self.stderr_reader.take() {
            let _ = reader.join();
        }
        let mut text = self
            .stderr
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .trim()
            .to_owned();
        if let Ok(status) = status {
            if !status.success() {
                text = format!("child {status}; {text}");
            }
        }
        text
    }
}

/// Run every job; `progress` is called after each (from worker threads, one at a time).
/// Results come back in the order of `jobs`.
pub fn run_all(
    options: &PoolOptions,
    jobs: &[Job],
    progress: &(dyn Fn(usize, &TestResult) + Sync),
) -> Vec<TestResult> {
    let next = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    let slots: Mutex<Vec<Option<TestResult>>> = Mutex::new(vec![None; jobs.len()]);
    let report = Mutex::new(());
    std::thread::scope(|scope| {
        for _ in 0..options.jobs.max(1) {
            scope.spawn(|| {
                let mut worker: Option<Worker> = None;
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(job) = jobs.get(i) else { break };
                    let result = run_one(options, &mut worker, job);
                    {
                        let _guard = report.lock().unwrap_or_else(|e| e.into_inner());
                        let n = finished.fetch_add(1, Ordering::SeqCst) + 1;
                        progress(n, &result);
                    }
                    let mut slots = slots.lock().unwrap_or_else(|e| e.into_inner());
                    if let Some(slot) = slots.get_mut(i) {
                        *slot = Some(result);
                    }
                }
                if let Some(w) = worker {
                    w.finish();
                }
            });
        }
    });
    let slots = slots.into_inner().unwrap_or_else(|e| e.into_inner());
    slots
        .into_iter()
        .zip(jobs)
        .map(|(r, job)| {
            r.unwrap_or_else(|| TestResult {
                path: job.path.clone(),
                mode: job.mode,
                status: Status::Crash,
                message: Some("not run".into()),
                ms: 0,
            })
        })
        .collect()
}

/// Run one job on `worker` (started if there is none; dropped when it died or was killed).
fn run_one(options: &PoolOptions, worker: &mut Option<Worker>, job: &Job) -> TestResult {
    let start = Instant::now();
    let result = |status: Status, message: Option<String>| TestResult {
        path: job.path.clone(),
        mode: job.mode,
        status,
        message,
        ms: u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX),
    };
    if worker.is_none() {
        match Worker::spawn(options) {
            Ok(w) => *worker = Some(w),
            Err(e) => return result(Status::Crash, Some(e)),
        }
    }
    let Some(w) = worker.as_mut() else {
        return result(Status::Crash, Some("no child".into()));
    };
    w.stderr.lock().unwrap_or_else(|e| e.into_inner()).clear();
    let request = format!("{}\t{}\n", job.path, job.mode.as_str());
    if w.stdin
        .write_all(request.as_bytes())
        .and_then(|()| w.stdin.flush())
        .is_err()
    {
        let tail = worker.take().map(Worker::kill).unwrap_or_default();
        return result(
            Status::Crash,
            Some(cut(
                &format!("the child stopped reading requests; {tail}"),
                1500,
            )),
        );
    }
    let pid = w.child.id();
    let cpu_at_start = limits::child_cpu_time(pid);
    let mut cpu_checked = Instant::now();
    loop {
        match w.lines.recv_timeout(Duration::from_millis(20)) {
            Ok(json) => {
                let outcome: Result<Outcome, _> = serde_json::from_str(&json);
                let r = match outcome {
                    Ok(o) => result(o.status, o.message),
                    Err(e) => result(Status::Crash, Some(format!("unreadable result ({e})"))),
                };
                w.served += 1;
                // A crash ends the child (see child.rs); so does reaching the recycle count.
                if r.status == Status::Crash || w.served >= options.recycle_after {
                    if let Some(w) = worker.take() {
                        w.finish();
                    }
                }
                return r;
            }
            Err(RecvTimeoutError::Disconnected) => {
                let tail = worker.take().map(Worker::kill).unwrap_or_default();
                return result(
                    Status::Crash,
                    Some(cut(&format!("the child died: {tail}"), 1500)),
                );
            }
            Err(RecvTimeoutError::Timeout) => {
                let mut over_cpu = None;
                if cpu_checked.elapsed() >= CPU_CHECK_INTERVAL {
                    cpu_checked = Instant::now();
                    if let (Some(before), Some(now)) = (cpu_at_start, limits::child_cpu_time(pid)) {
                        let spent = now.saturating_sub(before);
                        if spent > options.cpu_limit {
                            over_cpu = Some(spent);
                        }
                    }
                }
                let over_wall = start.elapsed() > options.wall_limit;
                if over_cpu.is_some() || over_wall {
                    if let Some(w) = worker.take() {
                        w.kill();
                    }
                    let why = match over_cpu {
                        Some(spent) => format!(
                            "{:.1}s of CPU time (limit {}s)",
                            spent.as_secs_f64(),
                            options.cpu_limit.as_secs()
                        ),
                        None => format!(
                            "{:.1}s of wall-clock time (limit {}s)",
                            start.elapsed().as_secs_f64(),
                            options.wall_limit.as_secs()
                        ),
                    };
                    return result(Status::Timeout, Some(format!("killed after {why}")));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fake child: a shell script standing in for `test262 --child`, answering each request
    /// line as `body` says (`$path` and `$mode` are set).
    fn fake(name: &str, body: &str, limit: Duration) -> (PoolOptions, PathBuf) {
        let dir = std::env::temp_dir().join(format!("t262-pool-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let exe = dir.join("child.sh");
        let script = format!(
            "#!/bin/sh\n[ \"$1\" = --child ] || exit 8\nwhile IFS=\"$(printf '\\t')\" read -r path mode; do\n{body}\ndone\n"
        );
        std::fs::write(&exe, script).unwrap();
        let status = Command::new("chmod").arg("+x").arg(&exe).status().unwrap();
        assert!(status.success());
        let options = PoolOptions {
            exe,
            child_args: Vec::new(),
            jobs: 2,
            cpu_limit: limit,
            wall_limit: limit * 4,
            recycle_after: 3,
        };
        (options, dir)
    }

    fn jobs(names: &[&str]) -> Vec<Job> {
        names
            .iter()
            .map(|n| Job {
                path: (*n).to_owned(),
                mode: Mode::Strict,
            })
            .collect()
    }

    #[test]
    fn one_child_serves_many_tests_and_results_keep_their_order() {
        let body = format!(
            "echo noise; case \"$path\" in *bad*) printf '%s\\n' '{RESULT_MARKER}{{\"status\":\"fail\",\"message\":\"m\"}}';; *) printf '%s\\n' '{RESULT_MARKER}{{\"status\":\"pass\"}}';; esac"
        );
        let (options, dir) = fake("many", &body, Duration::from_secs(20));
        let list = jobs(&["a.js", "bad.js", "c.js", "d.js", "e.js", "f.js", "g.js"]);
        let results = run_all(&options, &list, &|_, _| {});
        let _ = std::fs::remove_dir_all(dir);
        let statuses: Vec<Status> = results.iter().map(|r| r.status).collect();
        assert_eq!(
            statuses,
            [
                Status::Pass,
                Status::Fail,
                Status::Pass,
                Status::Pass,
                Status::Pass,
                Status::Pass,
                Status::Pass
            ]
        );
        assert_eq!(results[1].path, "bad.js");
        assert_eq!(results[1].message.as_deref(), Some("m"));
        assert_eq!(results[1].mode, Mode::Strict);
    }

    #[test]
    fn a_dying_child_is_a_crash_of_that_test_and_the_next_gets_a_new_child() {
        let body = format!(
            "case \"$path\" in *die*) echo 'thread panicked: boom' >&2; exit 101;; *) printf '%s\\n' '{RESULT_MARKER}{{\"status\":\"pass\"}}';; esac"
        );
        let (mut options, dir) = fake("die", &body, Duration::from_secs(20));
        options.jobs = 1;
        let results = run_all(&options, &jobs(&["a.js", "die.js", "b.js"]), &|_, _| {});
        let _ = std::fs::remove_dir_all(dir);
        assert_eq!(results[0].status, Status::Pass);
        assert_eq!(results[1].status, Status::Crash);
        let m = results[1].message.clone().unwrap_or_default();
        assert!(m.contains("boom") && m.contains("101"), "{m}");
        assert_eq!(results[2].status, Status::Pass);
    }

    #[test]
    fn a_hanging_test_is_killed_as_a_timeout_and_the_run_goes_on() {
        let body = format!(
            "case \"$path\" in *hang*) while :; do :; done;; *) printf '%s\\n' '{RESULT_MARKER}{{\"status\":\"pass\"}}';; esac"
        );
        let (mut options, dir) = fake("hang", &body, Duration::from_millis(300));
        options.jobs = 1;
        let start = Instant::now();
        let results = run_all(&options, &jobs(&["hang.js", "b.js"]), &|_, _| {});
        let _ = std::fs::remove_dir_all(dir);
        assert_eq!(results[0].status, Status::Timeout, "{results:?}");
        assert!(results[0].message.clone().unwrap().contains("killed"));
        assert_eq!(results[1].status, Status::Pass);
        assert!(start.elapsed() < Duration::from_secs(30));
    }

    #[test]
    fn a_child_that_cannot_start_is_a_crash() {
        let options = PoolOptions {
            exe: PathBuf::from("/nonexistent/test262-child"),
            child_args: Vec::new(),
            jobs: 1,
            cpu_limit: Duration::from_secs(1),
            wall_limit: Duration::from_secs(1),
            recycle_after: 10,
        };
        let results = run_all(&options, &jobs(&["a.js"]), &|_, _| {});
        assert_eq!(results[0].status, Status::Crash);
        assert!(results[0].message.clone().unwrap().contains("cannot start"));
    }
}
