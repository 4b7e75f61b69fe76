//! The parent side: run each file in a child process (the runner re-executed with `--child`),
//! a few at a time, with a CPU-time limit per file and a wall-clock backstop (see
//! [`crate::limits`]).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::child::RESULT_MARKER;
use crate::limits::{self, GRACE, WALL_FACTOR};
use crate::meta::Meta;
use crate::results::{truncate, FileResult, HarnessStatus};

/// How often the parent reads a running child's CPU time.
const CPU_CHECK_INTERVAL: Duration = Duration::from_millis(100);

pub struct PoolOptions {
    pub exe: PathBuf,
    pub corpus: PathBuf,
    pub jobs: usize,
    pub no_fast_paths: bool,
    /// Wall-clock limit per file instead of the CPU and wall-clock limits (tests).
    pub limit: Option<Duration>,
    /// With `limit`: a CPU-time limit too (tests).
    pub cpu_limit: Option<Duration>,
}

/// Run `files` (corpus-relative) and return their results in the same order. `progress` is
/// called as each file finishes (from worker threads, one call at a time).
pub fn run_all(
    options: &PoolOptions,
    files: &[String],
    progress: &(dyn Fn(usize, usize, &FileResult) + Sync),
) -> Vec<FileResult> {
    let next = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    let slots: Mutex<Vec<Option<FileResult>>> = Mutex::new(vec![None; files.len()]);
    let report_lock = Mutex::new(());
    std::thread::scope(|scope| {
        for _ in 0..options.jobs.max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(path) = files.get(i) else {
                    break;
                };
                let result = run_one(options, path);
                {
                    let _guard = report_lock.lock().unwrap_or_else(|e| e.into_inner());
                    let n = finished.fetch_add(1, Ordering::SeqCst) + 1;
                    progress(n, files.len(), &result);
                }
                let mut slots = slots.lock().unwrap_or_else(|e| e.into_inner());
                if let Some(slot) = slots.get_mut(i) {
                    *slot = Some(result);
                }
            });
        }
    });
    let slots = slots.into_inner().unwrap_or_else(|e| e.into_inner());
    slots
        .into_iter()
        .zip(files)
        .map(|(r, path)| {
            r.unwrap_or_else(|| {
                FileResult::without_subtests(path, HarnessStatus::Crash, "not run".into())
            })
        })
        .collect()
}

/// When the parent kills a child: its CPU time past `cpu` (`None`: not checked) or its wall
/// time past `wall`.
struct KillLimits {
    cpu: Option<Duration>,
    wall: Duration,
}

/// The child's own CPU budget (and its wall-clock backstop) plus [`GRACE`].
fn kill_limits(corpus: &Path, rel: &str) -> KillLimits {
    let (file, _) = crate::meta::split_variant(rel);
    let long = std::fs::read_to_string(corpus.join(file))
        .map(|s| Meta::parse(&s).long_timeout)
        .unwrap_or(false);
    let cpu = limits::cpu_budget(long) + GRACE;
    KillLimits {
        cpu: Some(cpu),
        wall: cpu * WALL_FACTOR,
    }
}

fn reader<R: Read + Send + 'static>(stream: Option<R>) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(mut s) = stream {
            let _ = s.read_to_end(&mut buf);
        }
        buf
    })
}

/// Run one file in a child process.
pub fn run_one(options: &PoolOptions, rel: &str) -> FileResult {
    let start = Instant::now();
    let limit = match options.limit {
        Some(wall) => KillLimits {
            cpu: options.cpu_limit,
            wall,
        },
        None => kill_limits(&options.corpus, rel),
    };
    let mut command = Command::new(&options.exe);
    command
        .arg("--child")
        .arg(rel)
        .arg("--corpus")
        .arg(&options.corpus)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // The panic message is what the CRASH report needs, not a backtrace.
        .env("RUST_BACKTRACE", "0");
    if options.no_fast_paths {
        command.env("BOA_STREAMS_FAST_PATHS", "0");
    }
    let mut child = match command.spawn() {
        Ok(c) => c,
        Err(e) => {
            return FileResult::without_subtests(
                rel,
                HarnessStatus::Crash,
                format!("cannot start the child process: {e}"),
            )
        }
    };
    let out = reader(child.stdout.take());
    let err = reader(child.stderr.take());

    let pid = child.id();
    let mut killed = None;
    let mut cpu_checked = Instant::now();
    let mut cpu_spent = None;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) => {
                if limit.cpu.is_some() && cpu_checked.elapsed() >= CPU_CHECK_INTERVAL {
                    cpu_checked = Instant::now();
                    cpu_spent = limits::child_cpu_time(pid).or(cpu_spent);
                }
                let over_cpu = limit
                    .cpu
                    .zip(cpu_spent)
                    .is_some_and(|(max, spent)| spent > max);
                if over_cpu || start.elapsed() > limit.wall {
                    let _ = child.kill();
                    killed = Some(over_cpu);
                    break child.wait().ok();
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(_) => break None,
        }
    };
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    let elapsed = u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX);

    let stderr_tail = {
        let text = String::from_utf8_lossy(&stderr);
        let text = text.trim();
        let cut = text.len().saturating_sub(1500);
        let mut cut = cut;
        while !text.is_char_boundary(cut) {
            cut += 1;
        }
        text.get(cut..).unwrap_or_default().to_owned()
    };

    if let Some(over_cpu) = killed {
        let cpu = cpu_spent.map_or_else(|| "?".to_owned(), |t| format!("{:.1}", t.as_secs_f64()));
        let why = if over_cpu {
            format!(
                "its CPU limit of {}s",
                limit.cpu.unwrap_or_default().as_secs()
            )
        } else {
            format!("its wall-clock limit of {:.1}s", limit.wall.as_secs_f64())
        };
        let mut r = FileResult::without_subtests(
            rel,
            HarnessStatus::Timeout,
            format!(
                "killed at {why} ({cpu}s CPU, {:.1}s wall clock; the child did not finish)",
                start.elapsed().as_secs_f64()
            ),
        );
        r.duration_ms = elapsed;
        return r;
    }

    let stdout = String::from_utf8_lossy(&stdout);
    let parsed = stdout
        .lines()
        .rev()
        .find_map(|line| line.strip_prefix(RESULT_MARKER))
        .map(serde_json::from_str::<FileResult>);
    match parsed {
        Some(Ok(mut r)) => {
            r.path = rel.to_owned();
            r
        }
        other => {
            let why = match other {
                Some(Err(e)) => format!("unreadable result ({e})"),
                _ => "no result".to_owned(),
            };
            let status = status
                .map(|s| s.to_string())
                .unwrap_or_else(|| "unknown status".to_owned());
            let mut message = format!("child {status} with {why}");
            if !stderr_tail.is_empty() {
                message.push_str("; stderr: ");
                message.push_str(&stderr_tail);
            }
            let mut r =
                FileResult::without_subtests(rel, HarnessStatus::Crash, truncate(&message, 4000));
            r.duration_ms = elapsed;
            r
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fake child: a shell script standing in for `wpt-runner --child`.
    fn fake(name: &str, body: &str, limit: Option<Duration>) -> (PoolOptions, PathBuf) {
        let dir = std::env::temp_dir().join(format!("wpt-pool-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let exe = dir.join("child.sh");
        std::fs::write(&exe, format!("#!/bin/sh\n{body}\n")).unwrap();
        let status = Command::new("chmod").arg("+x").arg(&exe).status().unwrap();
        assert!(status.success());
        let options = PoolOptions {
            exe,
            corpus: dir.clone(),
            jobs: 2,
            no_fast_paths: true,
            limit,
            cpu_limit: None,
        };
        (options, dir)
    }

    #[test]
    fn reads_the_marker_line_among_console_output() {
        let json = r#"{"path":"x","harness":"OK","subtests_reported":true,"subtests":[{"name":"t","status":"PASS"}],"duration_ms":3}"#;
        let body = format!(
            "echo 'console noise'\n[ \"$BOA_STREAMS_FAST_PATHS\" = 0 ] || exit 9\n[ \"$1\" = --child ] || exit 8\nprintf '%s\\n' '{RESULT_MARKER}{json}'"
        );
        let (options, dir) = fake("ok", &body, None);
        let r = run_one(&options, "a/b.any.js");
        let _ = std::fs::remove_dir_all(dir);
        assert_eq!(r.harness, HarnessStatus::Ok, "{r:?}");
        assert_eq!(r.path, "a/b.any.js");
        assert_eq!(r.subtests.len(), 1);
    }

    #[test]
    fn a_dying_child_is_a_crash_of_that_file_only() {
        let (options, dir) = fake("crash", "echo 'thread panicked: boom' >&2\nexit 101", None);
        let files = vec!["one.any.js".to_owned(), "two.any.js".to_owned()];
        let results = run_all(&options, &files, &|_, _, _| {});
        let _ = std::fs::remove_dir_all(dir);
        assert_eq!(results.len(), 2);
        for (r, f) in results.iter().zip(&files) {
            assert_eq!(&r.path, f);
            assert_eq!(r.harness, HarnessStatus::Crash);
            assert!(!r.subtests_reported);
            let m = r.message.as_deref().unwrap();
            assert!(m.contains("101") && m.contains("boom"), "{m}");
        }
    }

    #[test]
    fn a_hanging_child_is_killed_as_a_timeout() {
        let (options, dir) = fake("hang", "exec sleep 30", Some(Duration::from_millis(300)));
        let r = run_one(&options, "hang.any.js");
        let _ = std::fs::remove_dir_all(dir);
        assert_eq!(r.harness, HarnessStatus::Timeout, "{r:?}");
        assert!(!r.subtests_reported);
        assert!(r.message.unwrap().contains("killed"));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_spinning_child_is_killed_at_its_cpu_limit_before_the_wall_limit() {
        let (mut options, dir) = fake("spin", "while :; do :; done", Some(Duration::from_secs(60)));
        options.cpu_limit = Some(Duration::from_millis(300));
        let start = Instant::now();
        let r = run_one(&options, "spin.any.js");
        let _ = std::fs::remove_dir_all(dir);
        assert_eq!(r.harness, HarnessStatus::Timeout, "{r:?}");
        assert!(start.elapsed() < Duration::from_secs(50), "{r:?}");
        let message = r.message.clone().unwrap_or_default();
        assert!(message.contains("CPU limit"), "{message}");
    }
}
