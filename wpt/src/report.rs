//! Output of a run: the results JSON and the per-directory summary table.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::expectations::Comparison;
use crate::results::{FileResult, HarnessStatus};

#[derive(Serialize)]
pub struct Skipped {
    pub path: String,
    pub reason: String,
}

#[derive(Serialize)]
pub struct Totals {
    pub files: usize,
    pub skipped: usize,
    pub harness_ok: usize,
    pub subtests: usize,
    pub passed: usize,
    pub matched: usize,
    pub mismatches: usize,
}

/// The `--json` document.
#[derive(Serialize)]
pub struct RunReport<'a> {
    pub fast_paths: bool,
    pub filters: &'a [String],
    pub elapsed_ms: u64,
    pub totals: Totals,
    pub mismatches: Vec<String>,
    pub files: &'a [FileResult],
    pub skipped: &'a [Skipped],
}

#[derive(Default)]
struct DirRow {
    files: usize,
    harness_ok: usize,
    skipped: usize,
    subtests: usize,
    passed: usize,
    mismatches: usize,
}

fn dir_of(path: &str) -> &str {
    path.rsplit_once('/').map(|(d, _)| d).unwrap_or(".")
}

fn percent(passed: usize, total: usize) -> String {
    if total == 0 {
        "-".to_owned()
    } else {
        format!("{:.1}%", passed as f64 * 100.0 / total as f64)
    }
}

/// The per-directory summary as a markdown table (also printed to the console).
pub fn summary_markdown(
    results: &[FileResult],
    skipped: &[Skipped],
    comparison: &Comparison,
    heading: &str,
) -> String {
    let mut rows: BTreeMap<&str, DirRow> = BTreeMap::new();
    for r in results {
        let row = rows.entry(dir_of(&r.path)).or_default();
        row.files += 1;
        if r.harness == HarnessStatus::Ok {
            row.harness_ok += 1;
        }
        row.subtests += r.subtests.len();
        row.passed += r.passed();
    }
    for s in skipped {
        rows.entry(dir_of(&s.path)).or_default().skipped += 1;
    }
    for m in &comparison.mismatches {
        if let Some(row) = rows.get_mut(dir_of(m.file())) {
            row.mismatches += 1;
        }
    }
    let mut total = DirRow::default();
    let mut out = String::new();
    out.push_str(heading);
    out.push_str("\n\n");
    out.push_str(
        "| directory | files | harness OK | skipped | subtests passed | subtests | pass rate | mismatches |\n",
    );
    out.push_str("|---|--:|--:|--:|--:|--:|--:|--:|\n");
    let mut line = |name: &str, r: &DirRow| {
        out.push_str(&format!(
            "| {name} | {} | {} | {} | {} | {} | {} | {} |\n",
            r.files,
            r.harness_ok,
            r.skipped,
            r.passed,
            r.subtests,
            percent(r.passed, r.subtests),
            r.mismatches
        ));
    };
    for (dir, row) in &rows {
        line(dir, row);
        total.files += row.files;
        total.harness_ok += row.harness_ok;
        total.skipped += row.skipped;
        total.subtests += row.subtests;
        total.passed += row.passed;
        total.mismatches += row.mismatches;
    }
    total.mismatches = comparison.mismatches.len();
    line("**total**", &total);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{Subtest, SubtestStatus};

    #[test]
    fn summary_groups_by_directory() {
        let r = |path: &str, statuses: &[SubtestStatus]| FileResult {
            path: path.to_owned(),
            harness: HarnessStatus::Ok,
            message: None,
            subtests_reported: true,
            subtests: statuses
                .iter()
                .map(|s| Subtest {
                    name: format!("{s:?}"),
                    status: *s,
                    message: None,
                })
                .collect(),
            duration_ms: 0,
        };
        let results = vec![
            r("a/x.any.js", &[SubtestStatus::Pass, SubtestStatus::Fail]),
            r("a/y.any.js", &[SubtestStatus::Pass]),
            r("b/z.any.js", &[SubtestStatus::Timeout]),
        ];
        let skipped = vec![Skipped {
            path: "b/w.window.js".into(),
            reason: "window".into(),
        }];
        let md = summary_markdown(&results, &skipped, &Comparison::default(), "# t");
        assert!(md.contains("| a | 2 | 2 | 0 | 2 | 3 | 66.7% | 0 |"), "{md}");
        assert!(md.contains("| b | 1 | 1 | 1 | 0 | 1 | 0.0% | 0 |"), "{md}");
        assert!(
            md.contains("| **total** | 3 | 3 | 1 | 2 | 4 | 50.0% | 0 |"),
            "{md}"
        );
    }
}
