//! `wpt/expectations.json`: what each file is expected to do, and comparing a run with it.
//!
//! Format (keys sorted, one line per subtest, one entry per file that ran; `--update` writes
//! it, hand edits of `reason` and `note` are kept):
//!
//! ```json
//! {
//!   "files": {
//!     "streams/piping/abort.any.js": {
//!       "min_subtests": 57,
//!       "harness": {"status":"ERROR","reason":"not-implemented-yet","note":""},
//!       "failing": {
//!         "a subtest name": {"status":"FAIL","reason":"engine-bug","note":"why"}
//!       }
//!     }
//!   }
//! }
//! ```
//!
//! `harness` (optional): the file is expected to end with that harness status instead of OK.
//! A recorded `ERROR`/`TIMEOUT`/`PRECONDITION_FAILED` matches any of those three; `CRASH` only
//! matches a crash. `failing`: the subtests expected not to pass; any non-PASS status matches
//! (the recorded `status` is informational and refreshed by `--update`).
//! `min_subtests`: the file must report at least that many subtests.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use crate::results::{FileResult, HarnessStatus, SubtestStatus};

/// Why a subtest or file is expected not to pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// The feature is not implemented yet (the default for new entries).
    #[default]
    NotImplementedYet,
    /// A bug or limitation in the Boa engine.
    EngineBug,
    /// The host has no WebAssembly.
    HostLacksWebassembly,
    /// The test needs a window (DOM, iframes, postMessage, ...).
    HostLacksWindow,
    /// The test needs another host feature we do not provide.
    HostLacksFeature,
    /// The test checks behaviour the current spec changed.
    WptPredatesSpec,
    /// The test covers a tentative (not yet specified) feature.
    Tentative,
    /// The test needs `VideoFrame` (WebCodecs), which the host does not have.
    HostLacksVideoframe,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubtestExpectation {
    pub status: SubtestStatus,
    pub reason: Reason,
    #[serde(default)]
    pub note: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HarnessExpectation {
    pub status: HarnessStatus,
    pub reason: Reason,
    #[serde(default)]
    pub note: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct FileExpectation {
    pub min_subtests: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub harness: Option<HarnessExpectation>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub failing: BTreeMap<String, SubtestExpectation>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Expectations {
    #[serde(default)]
    pub files: BTreeMap<String, FileExpectation>,
}

impl Expectations {
    pub fn from_json(text: &str) -> Result<Self, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    /// Stable, diff-friendly JSON: keys sorted, one line per subtest entry, a final newline.
    pub fn to_json(&self) -> String {
        fn compact<T: Serialize>(v: &T) -> String {
            serde_json::to_string(v).unwrap_or_else(|_| "null".to_owned())
        }
        let mut out = String::from("{\n  \"files\": {");
        for (i, (path, entry)) in self.files.iter().enumerate() {
            out.push_str(if i == 0 { "\n" } else { ",\n" });
            out.push_str(&format!("    {}: {{\n", compact(path)));
            out.push_str(&format!("      \"min_subtests\": {}", entry.min_subtests));
            if let Some(h) = &entry.harness {
                out.push_str(&format!(",\n      \"harness\": {}", compact(h)));
            }
            if !entry.failing.is_empty() {
                out.push_str(",\n      \"failing\": {");
                for (j, (name, e)) in entry.failing.iter().enumerate() {
                    out.push_str(if j == 0 { "\n" } else { ",\n" });
                    out.push_str(&format!("        {}: {}", compact(name), compact(e)));
                }
                out.push_str("\n      }");
            }
            out.push_str("\n    }");
        }
        if !self.files.is_empty() {
            out.push_str("\n  ");
        }
        out.push_str("}\n}\n");
        out
    }
}

/// One way a run differs from the expectations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mismatch {
    UnexpectedFail {
        file: String,
        subtest: String,
        status: SubtestStatus,
        message: Option<String>,
    },
    UnexpectedPass {
        file: String,
        subtest: String,
    },
    /// A `failing` entry names a subtest the file did not report.
    StaleSubtest {
        file: String,
        subtest: String,
    },
    TooFewSubtests {
        file: String,
        count: usize,
        min: usize,
    },
    UnexpectedHarness {
        file: String,
        status: HarnessStatus,
        message: Option<String>,
    },
    /// A harness error was expected and the harness ended OK.
    UnexpectedHarnessOk {
        file: String,
        expected: HarnessStatus,
    },
    /// A file ran that has no entry.
    MissingEntry {
        file: String,
    },
    /// An entry names a file that was not run (not in the corpus, or not runnable).
    StaleFile {
        file: String,
    },
}

impl Mismatch {
    pub fn file(&self) -> &str {
        match self {
            Mismatch::UnexpectedFail { file, .. }
            | Mismatch::UnexpectedPass { file, .. }
            | Mismatch::StaleSubtest { file, .. }
            | Mismatch::TooFewSubtests { file, .. }
            | Mismatch::UnexpectedHarness { file, .. }
            | Mismatch::UnexpectedHarnessOk { file, .. }
            | Mismatch::MissingEntry { file }
            | Mismatch::StaleFile { file } => file,
        }
    }
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Mismatch::UnexpectedFail {
                file,
                subtest,
                status,
                message,
            } => {
                write!(f, "UNEXPECTED {} {file} :: {subtest}", status.as_str())?;
                if let Some(m) = message {
                    write!(f, "\n      {}", crate::results::truncate(m, 300))?;
                }
                Ok(())
            }
            Mismatch::UnexpectedPass { file, subtest } => {
                write!(f, "UNEXPECTED PASS {file} :: {subtest}")
            }
            Mismatch::StaleSubtest { file, subtest } => write!(
                f,
                "STALE ENTRY {file} :: {subtest} (no such subtest was reported)"
            ),
            Mismatch::TooFewSubtests { file, count, min } => write!(
                f,
                "TOO FEW SUBTESTS {file}: {count} reported, at least {min} recorded"
            ),
            Mismatch::UnexpectedHarness {
                file,
                status,
                message,
            } => {
                write!(f, "UNEXPECTED HARNESS {} {file}", status.as_str())?;
                if let Some(m) = message {
                    write!(f, "\n      {}", crate::results::truncate(m, 500))?;
                }
                Ok(())
            }
            Mismatch::UnexpectedHarnessOk { file, expected } => write!(
                f,
                "UNEXPECTED HARNESS OK {file} (expected {})",
                expected.as_str()
            ),
            Mismatch::MissingEntry { file } => {
                write!(f, "NO EXPECTATIONS ENTRY {file} (run with --update)")
            }
            Mismatch::StaleFile { file } => {
                write!(f, "STALE FILE ENTRY {file} (the file was not run)")
            }
        }
    }
}

/// The outcome of comparing a run with the expectations.
#[derive(Debug, Default)]
pub struct Comparison {
    /// Subtests whose result matched the expectation.
    pub matched: usize,
    pub mismatches: Vec<Mismatch>,
    /// Informational differences that do not fail the run (a different non-PASS status).
    pub notes: Vec<String>,
}

fn harness_matches(expected: HarnessStatus, actual: HarnessStatus) -> bool {
    match (expected, actual) {
        (_, HarnessStatus::Ok) => false,
        (HarnessStatus::Crash, a) => a == HarnessStatus::Crash,
        (_, HarnessStatus::Crash) => false,
        (HarnessStatus::Ok, _) => false,
        _ => true,
    }
}

/// Per-name worst status (duplicate names: a non-PASS wins), in first-seen order.
fn subtest_statuses(result: &FileResult) -> Vec<(&str, SubtestStatus, Option<&str>)> {
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut out: Vec<(&str, SubtestStatus, Option<&str>)> = Vec::new();
    for s in &result.subtests {
        match index.get(s.name.as_str()) {
            Some(&i) => {
                if let Some(slot) = out.get_mut(i) {
                    if slot.1 == SubtestStatus::Pass && s.status != SubtestStatus::Pass {
                        *slot = (s.name.as_str(), s.status, s.message.as_deref());
                    }
                }
            }
            None => {
                index.insert(s.name.as_str(), out.len());
                out.push((s.name.as_str(), s.status, s.message.as_deref()));
            }
        }
    }
    out
}

/// Compare `results` with `expectations`. `selected` says which corpus paths the run covered
/// (the command-line filter): entries for selected paths that did not run are stale.
pub fn compare(
    expectations: &Expectations,
    results: &[FileResult],
    selected: &dyn Fn(&str) -> bool,
) -> Comparison {
    let mut cmp = Comparison::default();
    for result in results {
        let file = result.path.clone();
        let Some(exp) = expectations.files.get(&result.path) else {
            // Every file that runs needs an entry (at least its subtest count).
            cmp.mismatches.push(Mismatch::MissingEntry { file });
            continue;
        };

        match (&exp.harness, result.harness) {
            (None, HarnessStatus::Ok) => {}
            (None, status) => cmp.mismatches.push(Mismatch::UnexpectedHarness {
                file: file.clone(),
                status,
                message: result.message.clone(),
            }),
            (Some(h), HarnessStatus::Ok) => cmp.mismatches.push(Mismatch::UnexpectedHarnessOk {
                file: file.clone(),
                expected: h.status,
            }),
            (Some(h), status) => {
                if !harness_matches(h.status, status) {
                    cmp.mismatches.push(Mismatch::UnexpectedHarness {
                        file: file.clone(),
                        status,
                        message: result.message.clone(),
                    });
                } else if h.status != status {
                    cmp.notes.push(format!(
                        "{file}: harness {} (recorded {})",
                        status.as_str(),
                        h.status.as_str()
                    ));
                }
            }
        }

        if !result.subtests_reported {
            // The child died or was killed: nothing is known about the subtests.
            continue;
        }

        let statuses = subtest_statuses(result);
        for &(name, status, message) in &statuses {
            match (exp.failing.get(name), status) {
                (None, SubtestStatus::Pass) => cmp.matched += 1,
                (Some(_), SubtestStatus::Pass) => cmp.mismatches.push(Mismatch::UnexpectedPass {
                    file: file.clone(),
                    subtest: name.to_owned(),
                }),
                (None, status) => cmp.mismatches.push(Mismatch::UnexpectedFail {
                    file: file.clone(),
                    subtest: name.to_owned(),
                    status,
                    message: message.map(str::to_owned),
                }),
                (Some(e), status) => {
                    cmp.matched += 1;
                    if e.status != status {
                        cmp.notes.push(format!(
                            "{file} :: {name}: {} (recorded {})",
                            status.as_str(),
                            e.status.as_str()
                        ));
                    }
                }
            }
        }
        let reported: std::collections::HashSet<&str> =
            statuses.iter().map(|&(n, _, _)| n).collect();
        for name in exp.failing.keys() {
            if !reported.contains(name.as_str()) {
                cmp.mismatches.push(Mismatch::StaleSubtest {
                    file: file.clone(),
                    subtest: name.clone(),
                });
            }
        }
        if result.subtests.len() < exp.min_subtests {
            cmp.mismatches.push(Mismatch::TooFewSubtests {
                file: file.clone(),
                count: result.subtests.len(),
                min: exp.min_subtests,
            });
        }
    }

    let ran: std::collections::HashSet<&str> = results.iter().map(|r| r.path.as_str()).collect();
    for path in expectations.files.keys() {
        if selected(path) && !ran.contains(path.as_str()) {
            cmp.mismatches
                .push(Mismatch::StaleFile { file: path.clone() });
        }
    }
    cmp
}

/// The expectations rewritten from a run: files that ran get entries matching their results
/// (keeping the reason and note of entries that stay), selected files that did not run lose
/// their entries, everything else is kept. New entries get `not-implemented-yet`.
pub fn update(
    old: &Expectations,
    results: &[FileResult],
    selected: &dyn Fn(&str) -> bool,
) -> Expectations {
    let mut new = old.clone();
    new.files.retain(|path, _| !selected(path));
    for result in results {
        let previous = old.files.get(&result.path);
        let harness = if result.harness == HarnessStatus::Ok {
            None
        } else {
            let kept = previous.and_then(|p| p.harness.as_ref());
            Some(HarnessExpectation {
                status: result.harness,
                reason: kept.map(|h| h.reason).unwrap_or_default(),
                note: kept.map(|h| h.note.clone()).unwrap_or_default(),
            })
        };
        let entry = if result.subtests_reported {
            let mut failing = BTreeMap::new();
            for (name, status, _) in subtest_statuses(result) {
                if status == SubtestStatus::Pass {
                    continue;
                }
                let kept = previous.and_then(|p| p.failing.get(name));
                failing.insert(
                    name.to_owned(),
                    SubtestExpectation {
                        status,
                        reason: kept.map(|k| k.reason).unwrap_or_default(),
                        note: kept.map(|k| k.note.clone()).unwrap_or_default(),
                    },
                );
            }
            FileExpectation {
                min_subtests: result.subtests.len(),
                harness,
                failing,
            }
        } else {
            // Nothing is known about the subtests: keep what was recorded.
            FileExpectation {
                min_subtests: previous.map(|p| p.min_subtests).unwrap_or(0),
                harness,
                failing: previous.map(|p| p.failing.clone()).unwrap_or_default(),
            }
        };
        new.files.insert(result.path.clone(), entry);
    }
    new
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::Subtest;

    fn sub(name: &str, status: SubtestStatus) -> Subtest {
        Subtest {
            name: name.to_owned(),
            status,
            message: None,
        }
    }

    fn file(path: &str, harness: HarnessStatus, subtests: Vec<Subtest>) -> FileResult {
        FileResult {
            path: path.to_owned(),
            harness,
            message: None,
            subtests_reported: true,
            subtests,
            duration_ms: 1,
        }
    }

    fn failing(status: SubtestStatus, reason: Reason, note: &str) -> SubtestExpectation {
        SubtestExpectation {
            status,
            reason,
            note: note.to_owned(),
        }
    }

    fn all(_: &str) -> bool {
        true
    }

    fn base() -> Expectations {
        let mut e = Expectations::default();
        e.files.insert(
            "a.any.js".into(),
            FileExpectation {
                min_subtests: 3,
                harness: None,
                failing: [(
                    "b".to_owned(),
                    failing(SubtestStatus::Fail, Reason::EngineBug, "boa issue"),
                )]
                .into_iter()
                .collect(),
            },
        );
        e
    }

    #[test]
    fn matching_run_has_no_mismatch() {
        let r = file(
            "a.any.js",
            HarnessStatus::Ok,
            vec![
                sub("a", SubtestStatus::Pass),
                sub("b", SubtestStatus::Timeout),
                sub("c", SubtestStatus::Pass),
            ],
        );
        let cmp = compare(&base(), &[r], &all);
        assert_eq!(cmp.mismatches, vec![]);
        assert_eq!(cmp.matched, 3);
        // FAIL recorded, TIMEOUT seen: informational only.
        assert_eq!(cmp.notes.len(), 1);
    }

    #[test]
    fn unexpected_pass_fail_stale_and_count() {
        let r = file(
            "a.any.js",
            HarnessStatus::Ok,
            vec![sub("a", SubtestStatus::Fail), sub("c", SubtestStatus::Pass)],
        );
        let mut exp = base();
        if let Some(f) = exp.files.get_mut("a.any.js") {
            f.failing.insert(
                "c".into(),
                failing(SubtestStatus::Fail, Reason::NotImplementedYet, ""),
            );
        }
        let cmp = compare(&exp, &[r], &all);
        assert_eq!(cmp.matched, 0);
        assert_eq!(
            cmp.mismatches,
            vec![
                Mismatch::UnexpectedFail {
                    file: "a.any.js".into(),
                    subtest: "a".into(),
                    status: SubtestStatus::Fail,
                    message: None
                },
                Mismatch::UnexpectedPass {
                    file: "a.any.js".into(),
                    subtest: "c".into()
                },
                Mismatch::StaleSubtest {
                    file: "a.any.js".into(),
                    subtest: "b".into()
                },
                Mismatch::TooFewSubtests {
                    file: "a.any.js".into(),
                    count: 2,
                    min: 3
                },
            ]
        );
    }

    #[test]
    fn harness_expectations() {
        let errored = file("a.any.js", HarnessStatus::Error, vec![]);
        let cmp = compare(
            &Expectations::default(),
            std::slice::from_ref(&errored),
            &all,
        );
        assert_eq!(
            cmp.mismatches,
            vec![Mismatch::MissingEntry {
                file: "a.any.js".into()
            }]
        );
        let mut exp = Expectations::default();
        exp.files
            .insert("a.any.js".into(), FileExpectation::default());
        let cmp = compare(&exp, std::slice::from_ref(&errored), &all);
        assert!(matches!(
            cmp.mismatches.as_slice(),
            [Mismatch::UnexpectedHarness {
                status: HarnessStatus::Error,
                ..
            }]
        ));

        let mut exp = Expectations::default();
        exp.files.insert(
            "a.any.js".into(),
            FileExpectation {
                min_subtests: 0,
                harness: Some(HarnessExpectation {
                    status: HarnessStatus::Timeout,
                    reason: Reason::NotImplementedYet,
                    note: String::new(),
                }),
                failing: BTreeMap::new(),
            },
        );
        // ERROR where TIMEOUT was recorded: matches (noted).
        let cmp = compare(&exp, &[errored], &all);
        assert_eq!(cmp.mismatches, vec![]);
        assert_eq!(cmp.notes.len(), 1);
        // A crash is never covered by an ERROR/TIMEOUT expectation.
        let crashed = FileResult::without_subtests("a.any.js", HarnessStatus::Crash, "boom".into());
        let cmp = compare(&exp, &[crashed], &all);
        assert_eq!(cmp.mismatches.len(), 1);
        // OK where an error was expected.
        let ok = file("a.any.js", HarnessStatus::Ok, vec![]);
        let cmp = compare(&exp, &[ok], &all);
        assert_eq!(
            cmp.mismatches,
            vec![Mismatch::UnexpectedHarnessOk {
                file: "a.any.js".into(),
                expected: HarnessStatus::Timeout
            }]
        );
    }

    #[test]
    fn stale_files_respect_the_filter() {
        let exp = base();
        let cmp = compare(&exp, &[], &all);
        assert_eq!(
            cmp.mismatches,
            vec![Mismatch::StaleFile {
                file: "a.any.js".into()
            }]
        );
        let cmp = compare(&exp, &[], &|p: &str| p.starts_with("other/"));
        assert_eq!(cmp.mismatches, vec![]);
    }

    #[test]
    fn update_keeps_reasons_and_adds_defaults() {
        let mut old = base();
        old.files
            .insert("gone.any.js".into(), FileExpectation::default());
        old.files
            .insert("unselected.any.js".into(), FileExpectation::default());
        let r = file(
            "a.any.js",
            HarnessStatus::Error,
            vec![
                sub("a", SubtestStatus::Pass),
                sub("b", SubtestStatus::Notrun),
                sub("new", SubtestStatus::Fail),
                sub("c", SubtestStatus::Pass),
            ],
        );
        let selected = |p: &str| p != "unselected.any.js";
        let new = update(&old, std::slice::from_ref(&r), &selected);
        assert!(!new.files.contains_key("gone.any.js"));
        assert!(new.files.contains_key("unselected.any.js"));
        let a = &new.files["a.any.js"];
        assert_eq!(a.min_subtests, 4);
        assert_eq!(
            a.failing["b"],
            failing(SubtestStatus::Notrun, Reason::EngineBug, "boa issue")
        );
        assert_eq!(
            a.failing["new"],
            failing(SubtestStatus::Fail, Reason::NotImplementedYet, "")
        );
        assert_eq!(a.failing.len(), 2);
        assert_eq!(
            a.harness.as_ref().map(|h| h.status),
            Some(HarnessStatus::Error)
        );
        // The updated file matches the run it came from, and survives a JSON round trip.
        let cmp = compare(&new, std::slice::from_ref(&r), &selected);
        assert_eq!(cmp.mismatches, vec![]);
        let reparsed = Expectations::from_json(&new.to_json()).unwrap();
        assert_eq!(reparsed, new);
    }

    #[test]
    fn update_after_a_crash_keeps_subtest_entries() {
        let old = base();
        let crashed = FileResult::without_subtests("a.any.js", HarnessStatus::Crash, "boom".into());
        let new = update(&old, std::slice::from_ref(&crashed), &all);
        let a = &new.files["a.any.js"];
        assert_eq!(a.min_subtests, 3);
        assert!(a.failing.contains_key("b"));
        assert_eq!(
            a.harness.as_ref().map(|h| h.status),
            Some(HarnessStatus::Crash)
        );
        assert_eq!(compare(&new, &[crashed], &all).mismatches, vec![]);
    }

    #[test]
    fn json_layout_is_one_line_per_subtest() {
        assert_eq!(Expectations::default().to_json(), "{\n  \"files\": {}\n}\n");
        let text = base().to_json();
        assert_eq!(
            text,
            "{\n  \"files\": {\n    \"a.any.js\": {\n      \"min_subtests\": 3,\n      \"failing\": {\n        \"b\": {\"status\":\"FAIL\",\"reason\":\"engine-bug\",\"note\":\"boa issue\"}\n      }\n    }\n  }\n}\n"
        );
        assert_eq!(Expectations::from_json(&text).unwrap(), base());
    }

    #[test]
    fn rejects_unknown_reasons_and_fields() {
        let bad = r#"{"files":{"a.any.js":{"min_subtests":1,"failing":{"x":{"status":"FAIL","reason":"because"}}}}}"#;
        assert!(Expectations::from_json(bad).is_err());
        let bad = r#"{"files":{"a.any.js":{"min_subtests":1,"extra":true}}}"#;
        assert!(Expectations::from_json(bad).is_err());
        let good = r#"{"files":{"a.any.js":{"min_subtests":1,"failing":{"x":{"status":"FAIL","reason":"host-lacks-webassembly","note":"n"}}}}}"#;
        assert!(Expectations::from_json(good).is_ok());
    }
}
