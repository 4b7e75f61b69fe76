//! `wpt/test262-expectations.json`: the CI subset of test262 and every test of it expected
//! not to pass, with a reason.
//!
//! ```json
//! {
//!   "subset": ["language/statements/for*", "built-ins/TypedArray*"],
//!   "tests": {
//!     "language/statements/for/x.js": {"strict":{"status":"fail","reason":"engine-bug","note":""}}
//!   }
//! }
//! ```
//!
//! Only tests inside `subset` are checked (in any run, including `--all`). A run fails on a
//! test of the subset that does not pass and has no entry (an unexpected failure), and on a
//! stale entry: its test passed, or was not run (skipped, removed). Any non-passing status
//! matches an entry (`status` records the last one seen; a different one is a note).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::discover::matches_filter;
use super::results::{Mode, Status, TestResult};

/// Why a test is expected not to pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// A bug in the engine.
    #[default]
    EngineBug,
    /// The engine lacks the feature (and the test declares no feature the runner skips).
    NotImplemented,
    /// The runner's host lacks what the test needs.
    HostLacksFeature,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub status: Status,
    pub reason: Reason,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Expectations {
    /// Filters (as on the command line) naming the tests CI runs and this file covers.
    #[serde(default)]
    pub subset: Vec<String>,
    #[serde(default)]
    pub tests: BTreeMap<String, BTreeMap<Mode, Entry>>,
}

impl Expectations {
    pub fn from_json(text: &str) -> Result<Self, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    /// Diff-friendly JSON: one line per test file, keys sorted, a final newline.
    pub fn to_json(&self) -> String {
        fn compact<T: Serialize>(v: &T) -> String {
            serde_json::to_string(v).unwrap_or_else(|_| "null".to_owned())
        }
        let mut out = String::from("{\n  \"subset\": [");
        for (i, s) in self.subset.iter().enumerate() {
            out.push_str(if i == 0 { "\n    " } else { ",\n    " });
            out.push_str(&compact(s));
        }
        out.push_str(if self.subset.is_empty() {
            "],\n"
        } else {
            "\n  ],\n"
        });
        out.push_str("  \"tests\": {");
        for (i, (path, modes)) in self.tests.iter().enumerate() {
            out.push_str(if i == 0 { "\n    " } else { ",\n    " });
            out.push_str(&format!("{}: {}", compact(path), compact(modes)));
        }
        out.push_str(if self.tests.is_empty() {
            "}\n}\n"
        } else {
            "\n  }\n}\n"
        });
        out
    }

    pub fn in_subset(&self, path: &str) -> bool {
        self.subset.iter().any(|f| matches_filter(f, path))
    }
}

/// One way a run differs from the expectations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mismatch {
    /// Did not pass, and no entry says so.
    Unexpected {
        path: String,
        mode: Mode,
        status: Status,
        message: Option<String>,
    },
    /// An entry whose test passed.
    Passed { path: String, mode: Mode },
    /// An entry whose test did not run (skipped, or no such file and mode in the selection).
    NotRun { path: String, mode: Mode },
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Mismatch::Unexpected {
                path,
                mode,
                status,
                message,
            } => {
                write!(
                    f,
                    "UNEXPECTED {} {path} [{}]",
                    status.as_str(),
                    mode.as_str()
                )?;
                if let Some(m) = message {
                    write!(f, "\n      {}", super::child::cut(m, 300))?;
                }
                Ok(())
            }
            Mismatch::Passed { path, mode } => write!(
                f,
                "STALE ENTRY {path} [{}]: it passes now (remove the entry)",
                mode.as_str()
            ),
            Mismatch::NotRun { path, mode } => write!(
                f,
                "STALE ENTRY {path} [{}]: the test did not run (skipped or gone)",
                mode.as_str()
            ),
        }
    }
}

#[derive(Debug, Default)]
pub struct Comparison {
    /// Tests of the subset whose result matched (passed, or failed with an entry).
    pub matched: usize,
    pub mismatches: Vec<Mismatch>,
    /// A different non-passing status than recorded (not a failure).
    pub notes: Vec<String>,
}

/// Compare the results with the expectations, for the tests `selected` accepts that are in
/// the subset.
pub fn compare(
    expectations: &Expectations,
    results: &[TestResult],
    selected: &dyn Fn(&str) -> bool,
) -> Comparison {
    let mut c = Comparison::default();
    let checked = |path: &str| selected(path) && expectations.in_subset(path);
    let mut ran: std::collections::HashSet<(&str, Mode)> = std::collections::HashSet::new();
    for r in results.iter().filter(|r| checked(&r.path)) {
        let entry = expectations
            .tests
            .get(&r.path)
            .and_then(|modes| modes.get(&r.mode));
        if r.status != Status::Skip {
            ran.insert((r.path.as_str(), r.mode));
        }
        match (r.status, entry) {
            (Status::Skip, _) => {}
            (Status::Pass, None) => c.matched += 1,
            (Status::Pass, Some(_)) => c.mismatches.push(Mismatch::Passed {
                path: r.path.clone(),
                mode: r.mode,
            }),
            (status, None) => c.mismatches.push(Mismatch::Unexpected {
                path: r.path.clone(),
                mode: r.mode,
                status,
                message: r.message.clone(),
            }),
            (status, Some(e)) => {
                c.matched += 1;
                if e.status != status {
                    c.notes.push(format!(
                        "{} [{}]: {} (recorded {})",
                        r.path,
                        r.mode.as_str(),
                        status.as_str(),
                        e.status.as_str()
                    ));
                }
            }
        }
    }
    for (path, modes) in &expectations.tests {
        if !checked(path) {
            continue;
        }
        for mode in modes.keys() {
            if !ran.contains(&(path.as_str(), *mode)) {
                let passed = results
                    .iter()
                    .any(|r| &r.path == path && r.mode == *mode && r.status == Status::Pass);
                if !passed {
                    c.mismatches.push(Mismatch::NotRun {
                        path: path.clone(),
                        mode: *mode,
                    });
                }
            }
        }
    }
    c
}

/// The default reason for a new entry, from the failure message: a missing global, method or
/// syntax reads as not implemented, anything else as an engine bug.
pub fn guess_reason(message: Option<&str>) -> Reason {
    let m = message.unwrap_or_default().to_ascii_lowercase();
    let missing = [
        "not implemented",
        "unimplemented",
        "not yet implemented",
        "is not defined",
        "is not a function",
        "not a constructor",
        "not callable",
    ];
    if missing.iter().any(|s| m.contains(s)) {
        Reason::NotImplemented
    } else {
        Reason::EngineBug
    }
}

/// The expectations after this run: for the tests `selected` accepts in the subset, one entry
/// per non-passing result (keeping the reason and note of an entry that stays); every other
/// entry as it was.
pub fn update(
    expectations: &Expectations,
    results: &[TestResult],
    selected: &dyn Fn(&str) -> bool,
) -> Expectations {
    let mut out = expectations.clone();
    let checked = |path: &str| selected(path) && expectations.in_subset(path);
    out.tests.retain(|path, _| !checked(path));
    for r in results
        .iter()
        .filter(|r| checked(&r.path) && r.status.is_failure())
    {
        let old = expectations.tests.get(&r.path).and_then(|m| m.get(&r.mode));
        let entry = Entry {
            status: r.status,
            reason: old.map_or_else(|| guess_reason(r.message.as_deref()), |e| e.reason),
            note: old.map(|e| e.note.clone()).unwrap_or_default(),
        };
        out.tests
            .entry(r.path.clone())
            .or_default()
            .insert(r.mode, entry);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(path: &str, mode: Mode, status: Status) -> TestResult {
        TestResult {
            path: path.into(),
            mode,
            status,
            message: Some("TypeError: x is not a function".into()),
            ms: 0,
        }
    }

    fn expectations() -> Expectations {
        let mut e = Expectations {
            subset: vec!["language/statements/for*".into()],
            ..Expectations::default()
        };
        let entry = |status| Entry {
            status,
            reason: Reason::EngineBug,
            note: "kept".into(),
        };
        e.tests.insert(
            "language/statements/for/a.js".into(),
            [(Mode::Strict, entry(Status::Fail))].into(),
        );
        e.tests.insert(
            "language/statements/for-of/gone.js".into(),
            [(Mode::Sloppy, entry(Status::Fail))].into(),
        );
        e.tests.insert(
            "language/statements/for-in/fixed.js".into(),
            [(Mode::Sloppy, entry(Status::Timeout))].into(),
        );
        e
    }

    #[test]
    fn unexpected_failures_and_stale_entries_are_mismatches() {
        let e = expectations();
        let results = vec![
            r(
                "language/statements/for/a.js",
                Mode::Strict,
                Status::Timeout,
            ),
            r("language/statements/for/a.js", Mode::Sloppy, Status::Pass),
            r("language/statements/for/new.js", Mode::Sloppy, Status::Fail),
            r(
                "language/statements/for-in/fixed.js",
                Mode::Sloppy,
                Status::Pass,
            ),
            r(
                "language/statements/class/out.js",
                Mode::Sloppy,
                Status::Fail,
            ),
            r(
                "language/statements/for/skipped.js",
                Mode::Sloppy,
                Status::Skip,
            ),
        ];
        let c = compare(&e, &results, &|_| true);
        let texts: Vec<String> = c.mismatches.iter().map(ToString::to_string).collect();
        assert_eq!(c.mismatches.len(), 3, "{texts:#?}");
        assert!(texts
            .iter()
            .any(|t| t.starts_with("UNEXPECTED fail language/statements/for/new.js [sloppy]")));
        assert!(texts
            .iter()
            .any(|t| t.contains("for-in/fixed.js [sloppy]: it passes now")));
        assert!(texts
            .iter()
            .any(|t| t.contains("for-of/gone.js [sloppy]: the test did not run")));
        assert_eq!(c.matched, 2);
        assert_eq!(c.notes.len(), 1, "timeout where fail was recorded");
        // A selection that leaves the stale entries out checks only what it ran.
        let only_for = |p: &str| matches_filter("language/statements/for", p);
        let c = compare(&e, &results, &only_for);
        assert_eq!(c.mismatches.len(), 1);
    }

    #[test]
    fn update_rewrites_the_selection_and_keeps_reasons() {
        let e = expectations();
        let results = vec![
            r("language/statements/for/a.js", Mode::Strict, Status::Fail),
            r(
                "language/statements/for/new.js",
                Mode::Module,
                Status::Crash,
            ),
            r(
                "language/statements/for-in/fixed.js",
                Mode::Sloppy,
                Status::Pass,
            ),
            r("built-ins/Array/x.js", Mode::Sloppy, Status::Fail),
        ];
        let only_for = |p: &str| matches_filter("language/statements/for", p);
        let u = update(&e, &results, &only_for);
        assert_eq!(u.tests.len(), 4, "{u:#?}");
        let a = &u.tests["language/statements/for/a.js"][&Mode::Strict];
        assert_eq!((a.reason, a.note.as_str()), (Reason::EngineBug, "kept"));
        let new = &u.tests["language/statements/for/new.js"][&Mode::Module];
        assert_eq!(
            (new.status, new.reason),
            (Status::Crash, Reason::NotImplemented)
        );
        // Outside the filter: untouched (the passing for-in test keeps its entry).
        assert!(u.tests.contains_key("language/statements/for-in/fixed.js"));
        assert!(!u.tests.contains_key("built-ins/Array/x.js"));
        let all = update(&e, &results, &|_| true);
        assert!(!all
            .tests
            .contains_key("language/statements/for-in/fixed.js"));
        assert!(compare(&all, &results, &|_| true).mismatches.is_empty());
        let back = Expectations::from_json(&all.to_json()).unwrap();
        assert_eq!(back, all);
    }

    #[test]
    fn reasons_default_from_the_message() {
        assert_eq!(
            guess_reason(Some("ReferenceError: ShadowRealm is not defined")),
            Reason::NotImplemented
        );
        assert_eq!(
            guess_reason(Some("Test262Error: expected 1, got 2")),
            Reason::EngineBug
        );
        assert_eq!(guess_reason(None), Reason::EngineBug);
        assert_eq!(
            Expectations::default().to_json(),
            "{\n  \"subset\": [],\n  \"tests\": {}\n}\n"
        );
    }
}
