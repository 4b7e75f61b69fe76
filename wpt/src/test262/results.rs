//! Results of a test262 run: one entry per test file and mode, the JSON file, the summary by
//! directory, and comparing two runs.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

/// How a test file is run (INTERPRETING.md: strict and non-strict runs, module code).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Non-strict global code (also `raw` tests, run unmodified).
    Sloppy,
    /// Global code with `"use strict";` prepended.
    Strict,
    /// Module code.
    Module,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Sloppy => "sloppy",
            Mode::Strict => "strict",
            Mode::Module => "module",
        }
    }

    pub fn parse(s: &str) -> Option<Mode> {
        Some(match s {
            "sloppy" => Mode::Sloppy,
            "strict" => Mode::Strict,
            "module" => Mode::Module,
            _ => return None,
        })
    }
}

/// The result of one test file in one mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Pass,
    Fail,
    /// The parent killed the child at the test's time limit.
    Timeout,
    /// The engine panicked or the child process died.
    Crash,
    /// Not run: a feature the engine lacks, or a host capability the runner lacks.
    Skip,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Fail => "fail",
            Status::Timeout => "timeout",
            Status::Crash => "crash",
            Status::Skip => "skip",
        }
    }

    /// Ran and did not pass.
    pub fn is_failure(self) -> bool {
        matches!(self, Status::Fail | Status::Timeout | Status::Crash)
    }
}

/// One test file in one mode.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestResult {
    /// Relative to test262's `test/`.
    pub path: String,
    pub mode: Mode,
    pub status: Status,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(default)]
    pub ms: u64,
}

/// Counts per status.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Totals {
    pub pass: usize,
    pub fail: usize,
    pub timeout: usize,
    pub crash: usize,
    pub skip: usize,
}

impl Totals {
    pub fn add(&mut self, status: Status) {
        match status {
            Status::Pass => self.pass += 1,
            Status::Fail => self.fail += 1,
            Status::Timeout => self.timeout += 1,
            Status::Crash => self.crash += 1,
            Status::Skip => self.skip += 1,
        }
    }

    pub fn of<'a>(results: impl IntoIterator<Item = &'a TestResult>) -> Totals {
        let mut t = Totals::default();
        for r in results {
            t.add(r.status);
        }
        t
    }

    pub fn ran(&self) -> usize {
        self.pass + self.fail + self.timeout + self.crash
    }

    /// Passed as a share of what ran, in percent.
    pub fn pass_rate(&self) -> f64 {
        if self.ran() == 0 {
            0.0
        } else {
            self.pass as f64 * 100.0 / self.ran() as f64
        }
    }
}

/// The results file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RunFile {
    /// Free text naming the engine build (`--label`).
    #[serde(default)]
    pub label: String,
    /// The test262 commit (from the corpus's SOURCE.md), if known.
    #[serde(default)]
    pub test262: String,
    #[serde(default)]
    pub filters: Vec<String>,
    #[serde(default)]
    pub elapsed_ms: u64,
    pub totals: Totals,
    pub tests: Vec<TestResult>,
}

/// The directory a summary row groups a test under: its first `depth` path components (the
/// file itself when it is shallower).
fn group(path: &str, depth: usize) -> String {
    let parts: Vec<&str> = path.split('/').collect();
    let n = depth.min(parts.len().saturating_sub(1)).max(1);
    parts.get(..n).map(|p| p.join("/")).unwrap_or_default()
}

/// Totals per directory at `depth` components, sorted by directory.
pub fn by_directory(tests: &[TestResult], depth: usize) -> BTreeMap<String, Totals> {
    let mut out: BTreeMap<String, Totals> = BTreeMap::new();
    for t in tests {
        out.entry(group(&t.path, depth)).or_default().add(t.status);
    }
    out
}

fn row(name: &str, t: &Totals) -> String {
    format!(
        "| {name} | {} | {} | {} | {} | {} | {:.1}% |\n",
        t.pass,
        t.fail,
        t.timeout,
        t.crash,
        t.skip,
        t.pass_rate()
    )
}

const HEADER: &str = "| directory | pass | fail | timeout | crash | skip | pass rate |\n\
                      | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n";

/// The markdown summary: totals, then per top directory, then per second-level directory.
/// Counts are test runs (a file run in strict and sloppy mode counts twice); the pass rate is
/// over the runs that ran (not skipped).
pub fn summary_markdown(run: &RunFile) -> String {
    let mut out = format!("# test262 results{}\n\n", label_suffix(&run.label));
    if !run.test262.is_empty() {
        out.push_str(&format!("test262 {}; ", run.test262));
    }
    out.push_str(&format!(
        "{:.1} s; counts are runs (file × mode).\n\n",
        run.elapsed_ms as f64 / 1000.0
    ));
    out.push_str(HEADER);
    for (dir, t) in by_directory(&run.tests, 1) {
        out.push_str(&row(&dir, &t));
    }
    out.push_str(&row("**total**", &run.totals));
    out.push_str("\n## By directory\n\n");
    out.push_str(HEADER);
    for (dir, t) in by_directory(&run.tests, 2) {
        out.push_str(&row(&dir, &t));
    }
    out
}

fn label_suffix(label: &str) -> String {
    if label.is_empty() {
        String::new()
    } else {
        format!(" ({label})")
    }
}

/// What changed from run `a` to run `b`.
#[derive(Debug, Default)]
pub struct Diff {
    /// Passed in `a`, not in `b` (failed, timed out, crashed, skipped or absent).
    pub regressions: Vec<(String, Mode, Status, Option<String>)>,
    /// Ran and did not pass in `a`, passed in `b`.
    pub fixes: Vec<(String, Mode, Status)>,
    /// Not run in `a` (skipped or absent), passed in `b`.
    pub newly_passing: Vec<(String, Mode)>,
}

pub fn compare(a: &RunFile, b: &RunFile) -> Diff {
    let index: HashMap<(&str, Mode), &TestResult> = b
        .tests
        .iter()
        .map(|t| ((t.path.as_str(), t.mode), t))
        .collect();
    let mut diff = Diff::default();
    let mut seen_in_a = std::collections::HashSet::new();
    for t in &a.tests {
        seen_in_a.insert((t.path.as_str(), t.mode));
        let other = index.get(&(t.path.as_str(), t.mode));
        let b_status = other.map(|o| o.status);
        match (t.status, b_status) {
            (Status::Pass, Some(Status::Pass)) => {}
            (Status::Pass, _) => diff.regressions.push((
                t.path.clone(),
                t.mode,
                b_status.unwrap_or(Status::Skip),
                other
                    .and_then(|o| o.message.clone())
                    .or_else(|| b_status.is_none().then(|| "not in B".to_owned())),
            )),
            (s, Some(Status::Pass)) if s.is_failure() => {
                diff.fixes.push((t.path.clone(), t.mode, s))
            }
            (_, Some(Status::Pass)) => diff.newly_passing.push((t.path.clone(), t.mode)),
            _ => {}
        }
    }
    for t in &b.tests {
        if t.status == Status::Pass && !seen_in_a.contains(&(t.path.as_str(), t.mode)) {
            diff.newly_passing.push((t.path.clone(), t.mode));
        }
    }
    diff.regressions.sort();
    diff.fixes.sort();
    diff.newly_passing.sort();
    diff
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(path: &str, mode: Mode, status: Status) -> TestResult {
        TestResult {
            path: path.into(),
            mode,
            status,
            message: None,
            ms: 1,
        }
    }

    fn run(tests: Vec<TestResult>) -> RunFile {
        RunFile {
            label: String::new(),
            test262: String::new(),
            filters: Vec::new(),
            elapsed_ms: 0,
            totals: Totals::of(&tests),
            tests,
        }
    }

    #[test]
    fn compare_lists_regressions_and_fixes_by_file_and_mode() {
        let a = run(vec![
            t("language/a.js", Mode::Sloppy, Status::Pass),
            t("language/a.js", Mode::Strict, Status::Fail),
            t("built-ins/b.js", Mode::Module, Status::Pass),
            t("built-ins/c.js", Mode::Sloppy, Status::Skip),
            t("built-ins/d.js", Mode::Sloppy, Status::Pass),
        ]);
        let b = run(vec![
            t("language/a.js", Mode::Sloppy, Status::Crash),
            t("language/a.js", Mode::Strict, Status::Pass),
            t("built-ins/b.js", Mode::Module, Status::Pass),
            t("built-ins/c.js", Mode::Sloppy, Status::Pass),
            t("built-ins/e.js", Mode::Strict, Status::Pass),
        ]);
        let d = compare(&a, &b);
        assert_eq!(d.regressions.len(), 2);
        assert_eq!(d.regressions[0].0, "built-ins/d.js");
        assert_eq!(d.regressions[0].3.as_deref(), Some("not in B"));
        assert_eq!(
            (d.regressions[1].0.as_str(), d.regressions[1].2),
            ("language/a.js", Status::Crash)
        );
        assert_eq!(
            d.fixes,
            vec![("language/a.js".to_owned(), Mode::Strict, Status::Fail)]
        );
        assert_eq!(d.newly_passing.len(), 2);
    }

    #[test]
    fn the_summary_groups_by_directory() {
        let r = run(vec![
            t("language/statements/for/a.js", Mode::Sloppy, Status::Pass),
            t("language/statements/for/a.js", Mode::Strict, Status::Fail),
            t("language/asi/b.js", Mode::Sloppy, Status::Skip),
            t("built-ins/Array/c.js", Mode::Sloppy, Status::Timeout),
        ]);
        let by = by_directory(&r.tests, 2);
        assert_eq!(by["language/statements"].pass, 1);
        assert_eq!(by["language/statements"].fail, 1);
        assert_eq!(by["built-ins/Array"].timeout, 1);
        let md = summary_markdown(&r);
        assert!(
            md.contains("| language | 1 | 1 | 0 | 0 | 1 | 50.0% |"),
            "{md}"
        );
        assert!(
            md.contains("| **total** | 1 | 1 | 1 | 0 | 1 | 33.3% |"),
            "{md}"
        );
        assert_eq!(group("x.js", 2), "x.js");
    }

    #[test]
    fn statuses_and_modes_round_trip_through_json() {
        let json = serde_json::to_string(&t("a.js", Mode::Module, Status::Timeout)).unwrap();
        assert!(json.contains("\"mode\":\"module\"") && json.contains("\"timeout\""));
        let back: TestResult = serde_json::from_str(&json).unwrap();
        assert_eq!(back.status, Status::Timeout);
        assert_eq!(Mode::parse("strict"), Some(Mode::Strict));
        assert_eq!(Mode::parse("raw"), None);
    }
}
